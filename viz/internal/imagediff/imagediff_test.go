package imagediff

import (
	"image"
	"image/color"
	"math/rand/v2"
	"strings"
	"testing"
)

// lines draws a white w×h image with black horizontal lines, 2 px thick,
// starting at the given rows.
func lines(w, h int, rows ...int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = 0xFF
	}
	for _, y0 := range rows {
		for y := y0; y < y0+2; y++ {
			for x := 0; x < w; x++ {
				m.SetRGBA(x, y, color.RGBA{A: 0xFF})
			}
		}
	}
	return m
}

// noisy returns a copy of m with every colour channel moved by up to ±amp
// (seeded), as anti-aliasing and font rasterisation differ between builds.
func noisy(m *image.RGBA, amp int, seed uint64) *image.RGBA {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := image.NewRGBA(m.Bounds())
	copy(out.Pix, m.Pix)
	for i := range out.Pix {
		if i%4 == 3 {
			continue
		}
		v := int(out.Pix[i]) + rng.IntN(2*amp+1) - amp
		out.Pix[i] = uint8(min(255, max(0, v)))
	}
	return out
}

func TestCompare(t *testing.T) {
	ref := lines(200, 100, 20, 60)
	// A few isolated pixels with large differences (0.1 %, under the 0.3 %
	// limit): stray anti-aliased glyph edges.
	specks := lines(200, 100, 20, 60)
	for i := 0; i < 20; i++ {
		specks.SetRGBA(7*i, 3+4*i, color.RGBA{R: 0xFF, A: 0xFF})
	}
	tests := []struct {
		name      string
		got       image.Image
		opts      Options
		ok        bool
		differing int
	}{
		{"identical", lines(200, 100, 20, 60), Default, true, 0},
		{"identical exact", lines(200, 100, 20, 60), Options{}, true, 0},
		{"anti-aliasing noise", noisy(ref, 20, 1), Default, true, 0},
		{"noise compared exactly", noisy(ref, 20, 1), Options{}, false, -1},
		{"isolated specks", specks, Default, true, 20},
		// One line moved down by 3 px: 2 rows vacated, 2 rows drawn.
		{"shifted line", lines(200, 100, 20, 63), Default, false, 4 * 200},
		{"shifted line, noisy", noisy(lines(200, 100, 20, 63), 20, 2), Default, false, 4 * 200},
		{"missing line", lines(200, 100, 20), Default, false, 2 * 200},
		{"loose limit", lines(200, 100, 20, 63), Options{Tolerance: 24, MaxFraction: 0.05}, true, 4 * 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Compare(tt.got, ref, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.OK() != tt.ok {
				t.Errorf("OK() = %v, want %v: %v", r.OK(), tt.ok, r)
			}
			if tt.differing >= 0 && r.Differing != tt.differing {
				t.Errorf("Differing = %d, want %d: %v", r.Differing, tt.differing, r)
			}
		})
	}
}

func TestCompareBoundsAndDiff(t *testing.T) {
	ref := lines(200, 100, 20, 60)
	r, err := Compare(lines(200, 100, 20, 63), ref, Default)
	if err != nil {
		t.Fatal(err)
	}
	if want := image.Rect(0, 60, 200, 65); r.Bounds != want {
		t.Errorf("Bounds = %v, want %v", r.Bounds, want)
	}
	if r.MaxDiff != 255 {
		t.Errorf("MaxDiff = %d, want 255", r.MaxDiff)
	}
	if s := r.String(); !strings.Contains(s, "800 of 20000 pixels (4 %)") || !strings.Contains(s, "y 60–64") {
		t.Errorf("String() = %q", s)
	}
	d := r.Diff()
	if d.Bounds() != ref.Bounds() {
		t.Fatalf("Diff is %v, want %v", d.Bounds(), ref.Bounds())
	}
	if c := d.RGBAAt(10, 61); c != Magenta {
		t.Errorf("moved pixel drawn %v, want magenta", c)
	}
	if c := d.RGBAAt(10, 21); c.R < 0xB0 || c.R == 0xFF || c.R != c.G || c.G != c.B {
		t.Errorf("unchanged black line drawn %v, want a light grey (faded)", c)
	}
	if c := d.RGBAAt(10, 40); c != (color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}) {
		t.Errorf("white background drawn %v, want white", c)
	}
	if _, err := EncodePNG(d); err != nil {
		t.Error(err)
	}
}

func TestCompareErrors(t *testing.T) {
	ref := lines(200, 100, 20)
	tests := []struct {
		name string
		got  image.Image
		opts Options
		want string
	}{
		{"wider", lines(201, 100, 20), Default, "size 201×100: must equal the reference's 200×100"},
		{"shorter", lines(200, 99, 20), Default, "size 200×99"},
		{"nil", nil, Default, "nil image"},
		{"tolerance", ref, Options{Tolerance: 256}, "o.Tolerance = 256"},
		{"fraction", ref, Options{MaxFraction: 2}, "o.MaxFraction = 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compare(tt.got, ref, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestComparePNG: a round trip through PNG, including an image type other
// than *image.RGBA (PNG decodes opaque images as RGBA, others as NRGBA).
func TestComparePNG(t *testing.T) {
	ref := lines(64, 32, 10)
	a, err := EncodePNG(ref)
	if err != nil {
		t.Fatal(err)
	}
	gray := image.NewGray(ref.Bounds())
	draw := func(img *image.Gray) {
		for y := 0; y < 32; y++ {
			for x := 0; x < 64; x++ {
				img.SetGray(x, y, color.Gray{Y: 0xFF})
				if y == 10 || y == 11 {
					img.SetGray(x, y, color.Gray{})
				}
			}
		}
	}
	draw(gray)
	b, err := EncodePNG(gray)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ComparePNG(b, a, Options{})
	if err != nil || !r.OK() || r.Differing != 0 {
		t.Errorf("gray vs RGBA copy of the same picture: %v, %v", r, err)
	}
	if _, err := ComparePNG([]byte("not a png"), a, Default); err == nil || !strings.Contains(err.Error(), "got") {
		t.Errorf("undecodable input: error %v", err)
	}
}
