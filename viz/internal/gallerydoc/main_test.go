package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `package viz_test

import (
	"math"
	rnd "math/rand/v2"

	"github.com/neurogo/neurogo/viz"
)

var cases = []galleryCase{
	{
		Name:    "sine",
		Title:   "Line: a sine",
		Caption: "One period.",
		Make: func() (*viz.Plot, error) {
			rng := rnd.New(rnd.NewPCG(1, 0))
			y := []float64{math.Sin(rng.Float64())}

			return viz.Line([]viz.Series{{Y: y}}, viz.LineOptions{})
		},
	},
}

var more = []galleryCase{{Name: "named", Title: "T", Caption: "C", Make: named}}

var notCases = []string{"x"}

func named() (*viz.Plot, error) {
	return viz.Histogram([]float64{1}, viz.HistogramOptions{})
}
`

func TestParseCases(t *testing.T) {
	cases, err := parseCases("sample.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 {
		t.Fatalf("%d cases, want 2: %+v", len(cases), cases)
	}
	c := cases[0]
	if c.Name != "sine" || c.Title != "Line: a sine" || c.Caption != "One period." {
		t.Errorf("case 0: %+v", c)
	}
	wantCode := "rng := rnd.New(rnd.NewPCG(1, 0))\ny := []float64{math.Sin(rng.Float64())}\n\n" +
		"return viz.Line([]viz.Series{{Y: y}}, viz.LineOptions{})"
	if c.Code != wantCode {
		t.Errorf("code:\n%s\nwant:\n%s", c.Code, wantCode)
	}
	if got := strings.Join(c.Imports, " "); got != "math math/rand/v2 github.com/neurogo/neurogo/viz" {
		t.Errorf("imports %q", got)
	}
	if cases[1].Code != "return viz.Histogram([]float64{1}, viz.HistogramOptions{})" {
		t.Errorf("case 1 code %q", cases[1].Code)
	}
}

func TestParseCasesErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"none", "package p\nvar x = []int{1}\n", "no []galleryCase"},
		{"no make", "package p\nvar x = []galleryCase{{Name: \"a\", Title: \"t\", Caption: \"c\"}}\n", "needs Name, Title, Caption and Make"},
		{"unkeyed", "package p\nvar x = []galleryCase{{\"a\", \"t\", \"c\", nil}}\n", "must be keyed"},
		{"duplicate", "package p\nfunc f() {}\nvar x = []galleryCase{{Name: \"a\", Title: \"t\", Caption: \"c\", Make: f}, " +
			"{Name: \"a\", Title: \"t\", Caption: \"c\", Make: f}}\n", "appears twice"},
		{"computed title", "package p\nvar x = []galleryCase{{Name: \"a\", Title: t, Caption: \"c\"}}\n", "Title must be a string literal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseCases("x.go", []byte(tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestRealGallery reads package viz's gallery and writes the page with
// its goldens.
func TestRealGallery(t *testing.T) {
	src := filepath.Join("..", "..", "gallery_test.go")
	out := t.TempDir()
	if err := run(src, filepath.Join("..", "..", "testdata", "gallery"), out); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "gallery.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	for _, want := range []string{"# Plot gallery", "{ #raster-sparse }", "assets/gallery/raster-sparse.png",
		"func rasterSparse() (*viz.Plot, error) {", "rand.NewPCG("} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(text, "\n## "); n < 20 {
		t.Errorf("%d sections, want one per case (at least 20)", n)
	}
	if strings.Count(text, "```go") != strings.Count(text, "\n## ") {
		t.Error("not one code block per section")
	}
}

func TestFuncName(t *testing.T) {
	for in, want := range map[string]string{"raster-sparse": "rasterSparse", "grid": "grid", "3d-points": "plot3dPoints"} {
		if got := funcName(in); got != want {
			t.Errorf("funcName(%q) = %q, want %q", in, got, want)
		}
	}
}
