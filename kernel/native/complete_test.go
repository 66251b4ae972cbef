package native

import (
	"context"
	"strings"
	"testing"
	"time"
)

// completeSetup is the notebook the completion tests complete in.
var completeSetup = []string{
	"import (\n\t\"fmt\"\n\t\"strings\"\n)\n\n// point is a point in the plane.\ntype point struct{ X, y float64 }\n\n// Norm returns the length.\nfunc (p point) Norm() float64 { return p.X*p.X + p.y*p.y }\n\nfunc (p *point) Scale(f float64) { p.X *= f; p.y *= f }\n\n// limit bounds the loops.\nconst limit = 3\n\nvar total int // total counts the calls\n\nfunc mk(a, b float64) point { return point{a, b} }\n\ntype shape interface{ Area() float64 }\n\ntype labelled struct {\n\tpoint\n\t// Label names the point.\n\tLabel string\n}",
	"// origin is where it starts.\nx := mk(1, 2)\nnumbers := []int{1, 2}\nvar sb strings.Builder\nvar sh shape\nvar lp *labelled\n_ = fmt.Sprint(numbers, limit, total)",
}

func newCompleteSession(t *testing.T) *Session {
	t.Helper()
	s := newSession(t)
	for _, c := range completeSetup {
		if _, err := s.Run(context.Background(), c); err != nil {
			t.Fatalf("setup cell %q: %v", c, err)
		}
	}
	return s
}

// cursorAt splits code at "|", the cursor.
func cursorAt(code string) (string, int) {
	i := strings.Index(code, "|")
	if i < 0 {
		return code, len(code)
	}
	return code[:i] + code[i+1:], i
}

func TestComplete(t *testing.T) {
	s := newCompleteSession(t)
	cases := []struct {
		code       string
		want, not  []string
		start      int    // -1: not checked
		kindOf     string // name whose kind is checked
		kind, sig  string
		emptyMatch bool // no candidates at all
	}{
		{code: "x.|", want: []string{"X", "y", "Norm", "Scale"}, start: 2, kindOf: "Norm", kind: "method", sig: "func (point).Norm() float64"},
		{code: "x.N|", want: []string{"Norm"}, not: []string{"X", "y", "Scale"}, start: 2},
		{code: "x.|", kindOf: "X", kind: "field", sig: "field X float64", start: -1},
		{code: "fmt.Println(x.|)", want: []string{"X", "Norm"}, start: 14},
		{code: "for i := 0; i < 3; i++ {\n\tx.|", want: []string{"X", "y", "Norm", "Scale"}, start: -1},
		{code: "func f(q point) float64 {\n\treturn q.|\n}", want: []string{"X", "y", "Norm", "Scale"}, start: -1}, // q is addressable
		{code: "point{}.|", want: []string{"X", "Norm"}, not: []string{"Scale"}, start: -1},
		{code: "lp.|", want: []string{"Label", "X", "y", "Norm", "Scale", "point"}, start: -1, kindOf: "Label", kind: "field"},
		{code: "sh.|", want: []string{"Area"}, start: -1},
		{code: "sb.|", want: []string{"WriteString", "String", "Len"}, not: []string{"addr", "buf"}, start: -1},
		{code: "po|", want: []string{"point"}, start: 0, kindOf: "point", kind: "type"},
		{code: "No|", emptyMatch: true, start: 0},
		{code: "lim|", want: []string{"limit"}, start: 0, kindOf: "limit", kind: "constant", sig: "const limit untyped int = 3"},
		{code: "tot|", want: []string{"total"}, start: 0, kindOf: "total", kind: "variable", sig: "var total int"},
		{code: "num|", want: []string{"numbers"}, start: 0, kindOf: "numbers", kind: "variable", sig: "var numbers []int"},
		{code: "y := 1\nfmt.Println(|", want: []string{"x", "y", "point", "fmt", "len", "limit"}, not: []string{"__ngRun"}, start: -1},
		{code: "fmt.Println(|)", not: []string{"__ngRun", "__ngCursor", "ngE_"}, start: -1},
		{code: "func g(alpha int) {\n\tbeta := 2\n\tal|\n\tgamma := 3\n}", want: []string{"alpha"}, start: -1},
		{code: "func g(alpha int) {\n\tbeta := 2\n\t|\n\tgamma := 3\n}", want: []string{"alpha", "beta", "x"}, not: []string{"gamma"}, start: -1},
		{code: "strings.Rep|", want: []string{"Repeat", "Replace", "ReplaceAll", "Replacer"}, not: []string{"Split"}, start: 8, kindOf: "Repeat", kind: "function", sig: "func strings.Repeat(s string, count int) string"},
		{code: "strings.|", want: []string{"Builder", "Split"}, not: []string{"asciiSet"}, start: 8, kindOf: "Builder", kind: "type"},
		{code: "import \"math\"\nmath.Sq|", want: []string{"Sqrt"}, start: 19},
		{code: "fo|", want: []string{"for"}, start: 0, kindOf: "for", kind: "keyword"},
		{code: "fmt.Println(\"x.|", emptyMatch: true, start: -1},
		{code: "// x.|", emptyMatch: true, start: -1},
		{code: "s := \"é\"; x.|", want: []string{"Norm"}, start: len("s := \"é\"; x.")},
		{code: "x.|\nbroken := (", want: []string{"Norm"}, start: 2},
	}
	for _, c := range cases {
		code, cur := cursorAt(c.code)
		cands, start, end := s.Complete(code, cur)
		names := map[string]Candidate{}
		for _, x := range cands {
			names[x.Name] = x
		}
		for _, w := range c.want {
			if _, ok := names[w]; !ok {
				t.Errorf("%q: missing %s in %v", c.code, w, keys(names))
			}
		}
		for _, n := range c.not {
			for name := range names {
				if name == n || strings.HasPrefix(name, "__ng") || strings.HasPrefix(name, "ngE_") {
					t.Errorf("%q: unexpected %s", c.code, name)
				}
			}
		}
		if c.emptyMatch && len(cands) > 0 {
			t.Errorf("%q: want no candidates, got %v", c.code, keys(names))
		}
		if c.start >= 0 && (start != c.start || end != cur) {
			t.Errorf("%q: range [%d,%d], want [%d,%d]", c.code, start, end, c.start, cur)
		}
		if c.kindOf != "" {
			got := names[c.kindOf]
			if got.Kind != c.kind || c.sig != "" && got.Signature != c.sig {
				t.Errorf("%q: %s is %q %q, want %q %q", c.code, c.kindOf, got.Kind, got.Signature, c.kind, c.sig)
			}
		}
	}
}

func keys(m map[string]Candidate) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestInspect(t *testing.T) {
	s := newCompleteSession(t)
	s.SetDocs(func(path, name string) string {
		if path == "strings" && name == "Repeat" {
			return "func Repeat(s string, count int) string\n\nRepeat returns a new string…"
		}
		return ""
	})
	cases := []struct {
		code   string
		detail int
		want   []string // substrings, in order
		not    []string
	}{
		{code: "x.No|rm()", want: []string{"func (point).Norm() float64", "Norm returns the length."}},
		{code: "x.Norm(|)", want: []string{"func (point).Norm() float64", "Norm returns the length."}},
		{code: "po|int{}", want: []string{"type point struct{X float64; y float64}", "point is a point in the plane.", "Methods:", "Norm() float64", "Scale(f float64)"}},
		{code: "x|", want: []string{"var x point = {1 2}", "origin is where it starts."}},
		{code: "x.X|", want: []string{"field X float64"}, not: []string{"point is a point"}},
		{code: "lp.Label|", want: []string{"field Label string", "Label names the point."}},
		{code: "limit|", want: []string{"const limit untyped int = 3", "limit bounds the loops."}},
		{code: "total|", want: []string{"var total int = 0", "total counts the calls"}},
		{code: "strings.Repeat|", want: []string{"Repeat returns a new string"}},
		{code: "fmt|", want: []string{"package fmt"}},
		{code: "sb.WriteString|", want: []string{"func (*strings.Builder).WriteString(s string) (int, error)"}},
		{code: "x.Norm|", detail: 1, want: []string{"Norm returns the length.", "Source:\nfunc (p point) Norm() float64 { return p.X*p.X + p.y*p.y }"}},
		{code: "// twice doubles.\nfunc twice(v int) int { return 2 * v }\ntwice|(2)", want: []string{"func twice(v int) int", "twice doubles."}},
		{code: "// three is 3.\nthree := 3\nthree|", want: []string{"var three int", "three is 3."}},
		{code: "len|(numbers)", want: []string{"len"}},
		{code: "nothing|Here", not: []string{"x"}},
	}
	for _, c := range cases {
		code, cur := cursorAt(c.code)
		text, found := s.Inspect(code, cur, c.detail)
		if len(c.want) > 0 && !found {
			t.Errorf("%q: not found", c.code)
			continue
		}
		rest := text
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%q: %q not in %q", c.code, w, text)
				break
			}
			rest = rest[i+len(w):]
		}
		for _, n := range c.not {
			if strings.Contains(text, n) {
				t.Errorf("%q: %q in %q", c.code, n, text)
			}
		}
		if len(c.want) == 0 && found {
			t.Errorf("%q: found %q", c.code, text)
		}
	}
}

// TestCompleteNeverFails feeds broken and partial code at every offset:
// completion and inspection must answer (no panic, no hang).
func TestCompleteNeverFails(t *testing.T) {
	s := newCompleteSession(t)
	for _, code := range []string{
		"func (p point) {\n\tx.", "x := point{X: 1, ", "for i := range numbers {\n\tif i > ", "type T struct{ a x.",
		"\"unterminated", "/* open comment x.", "import \"nosuchpackage/at/all\"\nx.", "é.ü(", ")))x.", "x.(",
	} {
		for i := 0; i <= len(code); i++ {
			t0 := time.Now()
			s.Complete(code, i)
			s.Inspect(code, i, 0)
			// Bound: two analyses of at most analyzeTimeout each, with room
			// for a loaded machine.
			if d := time.Since(t0); d > 3*analyzeTimeout {
				t.Errorf("%q at %d: %v", code, i, d)
			}
		}
	}
}
