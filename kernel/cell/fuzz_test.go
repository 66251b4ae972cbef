package cell

import (
	"go/parser"
	"go/token"
	"strings"
	"sync"
	"testing"
)

// fuzzContext is a context with generic functions and iterators, so that
// type-driven rewrites happen without an importer.
var fuzzContext = sync.OnceValue(func() []*Program {
	f := New(nil)
	var ps []*Program
	for _, src := range []string{
		iterCells,
		"func Map[T, U any](s []T, f func(T) U) []U { return nil }\nfunc Max[T int | float64](a, b T) T { return a }",
		"n := 3\nvar n64 int64 = 2\ntype C struct{ n int }\nfunc (c C) M(x int) {}\nfunc (c *C) P() {}",
	} {
		p, err := f.Prepare(src)
		if err != nil {
			panic(err)
		}
		f.Commit(p)
		ps = append(ps, p)
	}
	return ps
})

var fuzzSeeds = []string{
	"x := 1",
	"var z []int; z[3]",
	"func f() {}\nf()",
	"for i := range 10 { _ = i }",
	"for i := range n { for j := range n64 { _, _ = i, j } }",
	"for range n {}",
	"var j int8\nfor j = range 4 {}",
	"for x := range Count(5) { if x == 1 { continue }; if x == 3 { break } }",
	"func g() (int, error) {\nL:\n\tfor x := range Count(3) {\n\t\tfor k, v := range Enum(\"a\") {\n\t\t\tif k == x { continue L }\n\t\t\tif v == \"\" { return x, nil }\n\t\t\treturn\n\t\t}\n\t}\n\treturn 0, nil\n}",
	"func h() { for range Letters { goto x }; x: }",
	"for range Count(2) { defer println() }",
	"Map([]int{1}, func(v int) string { return \"\" })\nMax(3.5, 1.0)",
	"go func() { panic(1) }()",
	"c := C{1}\ngo c.M(n)\ngo (&c).P()\ngo println(1, \"a\")\ngo Map[int, int](nil, nil)",
	"import \"fmt\"\nfmt.Println(`multi\nline`)",
	"package main\nfunc main() {}",
	"func (c C) String() string { return \"\" }\nfunc() {}()",
	"if x := 1; x > 0 {\n} else if y := 2; y > 1 {\n}\nswitch { case true: }",
	"for i := 0; i < 3; i++ {}; for {break}",
	"x := []int{\n\t1,\n}\ngo fmt.Println(\n\tx,\n\t\"a\",\n)",
	"for v := range Count(\n\t3) {\n\tif v == 1 {\n\t\tcontinue\n\t}\n}",
	")))",
	"func f() {",
	"s := \"open",
	"/* x",
	"const (\n\tA = iota\n\tB\n)\nvar (a, b = 1, 2)",
	"type L[T any] struct{ v T }\nfunc (l *L[T]) Get() T { return l.v }",
	"type C struct{ n, m int }\nfunc mk() C { return C{1, 2} }\ntype D struct{ c *C; C }",
	"type (\n\tC struct{ n int; next *C }\n\tE = C\n)",
	"b := Map([]int{1}, func(v int) string { return \"\" })\nvar c = Max(1, 2)\nvar (\n\td = Max(3, 4)\n\te = 1\n)",
	"x := min(n, 2)\nm := map[int]int{}\nclear(m)\nconst k = max(1, 2.5)\nfor i := range max(n, 3) { _ = i }",
	"a, b := Max(1, 2), Max(a, 3)\nn, k := Max(n, 1), n",
}

// FuzzPrepare checks that Prepare, Diagnose, IsComplete and MapPos never panic, that
// the segments keep the cell's lines and that they parse as yaegi will
// parse them.
func FuzzPrepare(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		recoverPanics = false
		defer func() { recoverPanics = true }()
		fr := New(nil)
		for _, p := range fuzzContext() {
			fr.Commit(p)
		}
		IsComplete(src)
		fr.Diagnose(src)
		for round := 0; round < 2; round++ {
			p, err := fr.Prepare(src)
			if err != nil {
				e, ok := err.(*Error)
				if !ok {
					t.Fatalf("error of type %T: %v", err, err)
				}
				if e.Line < 0 || e.Line > strings.Count(src, "\n")+1 {
					t.Fatalf("error line %d out of the cell: %v", e.Line, e)
				}
				return
			}
			checkProgram(t, src, p)
			fr.Commit(p) // the second round sees the cell's own declarations
		}
	})
}

func checkProgram(t *testing.T, src string, p *Program) {
	t.Helper()
	lines := strings.Count(src, "\n") + 1
	for _, seg := range p.Segments {
		if seg.Line < 1 || seg.EndLine < seg.Line || seg.EndLine > lines {
			t.Fatalf("segment lines %d-%d in a cell of %d lines", seg.Line, seg.EndLine, lines)
		}
		if n := strings.Count(seg.Src, "\n"); n != seg.EndLine {
			t.Fatalf("segment %d-%d has %d newlines:\n%s", seg.Line, seg.EndLine, n, seg.Src)
		}
		wrapped := "package main;" + seg.Src
		if seg.Kind == Stmts {
			wrapped = "package main; func main() {" + seg.Src + "\n}"
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "", wrapped, parser.SkipObjectResolution); err != nil {
			t.Fatalf("segment does not parse: %v\ncell:\n%s\nsegment:%s", err, src, seg.Src)
		}
		for l := 0; l <= seg.EndLine+2; l++ {
			MapPos(seg, l, 1)
			MapPos(seg, l, 1000)
		}
	}
}

func TestFuzzSeeds(t *testing.T) {
	// The seeds, run as a plain test (go test runs them too, through
	// FuzzPrepare; this one also checks they mostly prepare).
	fr := New(nil)
	for _, p := range fuzzContext() {
		fr.Commit(p)
	}
	ok := 0
	for _, s := range fuzzSeeds {
		if p, err := fr.Prepare(s); err == nil {
			checkProgram(t, s, p)
			ok++
		}
	}
	if ok < len(fuzzSeeds)-8 {
		t.Errorf("only %d of %d seeds prepared", ok, len(fuzzSeeds))
	}
}
