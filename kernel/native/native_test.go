package native

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func moduleRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

func newSession(t testing.TB) *Session {
	t.Helper()
	s, err := New(Options{Root: moduleRoot(t)})
	if err != nil {
		var u errUnavailable
		if errors.As(err, &u) && os.Getenv("NEUROGO_REQUIRE_NATIVE") == "" {
			t.Skipf("compiled cells unavailable here: %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// captureStdout runs f with os.Stdout redirected to a pipe.
func captureStdout(t testing.TB, f func()) string { return capture(t, &os.Stdout, f) }

// captureStderr runs f with os.Stderr redirected to a pipe.
func captureStderr(t testing.TB, f func()) string { return capture(t, &os.Stderr, f) }

func capture(t testing.TB, v **os.File, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := *v
	*v = w
	done := make(chan []byte)
	go func() {
		var buf []byte
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			buf = append(buf, b[:n]...)
			if err != nil {
				break
			}
		}
		done <- buf
	}()
	f()
	*v = old
	w.Close()
	return string(<-done)
}

func TestCells(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	steps := []struct {
		code, out string
		value     any
	}{
		{code: "import \"fmt\"\ntype point struct{ x, y int }\nfunc (p point) String() string { return fmt.Sprintf(\"(%d,%d)\", p.x, p.y) }\nfunc mk(x, y int) point { return point{x, y} }\nfunc Fib(n int) int { if n < 2 { return n }; return Fib(n-1) + Fib(n-2) }"},
		{code: "p := mk(1, 2)\nfmt.Printf(\"%T %v %v\\n\", p, p, []point{p})", out: "main.point (1,2) [(1,2)]\n"},
		{code: "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nfor _, f := range fs { fmt.Print(f(), \" \") }\nfmt.Println()", out: "0 1 2 \n"},
		{code: "Fib(20)", value: 6765},
		{code: "q := p\nq", value: nil},
	}
	for i, st := range steps {
		var res Result
		var err error
		out := captureStdout(t, func() { res, err = s.Run(ctx, st.code) })
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if out != st.out {
			t.Errorf("step %d: output %q, want %q", i, out, st.out)
		}
		if st.value != nil && (!res.HasValue || res.Value != st.value) {
			t.Errorf("step %d: value %v (%v), want %v", i, res.Value, res.HasValue, st.value)
		}
		t.Logf("step %d: %+v", i, s.Timings)
	}
}

func TestHoist(t *testing.T) {
	s := newSession(t)
	for _, c := range []string{"x := 5", "x * 2"} {
		res, err := s.Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(res)
	}
}

// testBinder binds the few packages the tests use.
func testBinder(path, name string) (reflect.Value, bool) {
	m := map[string]map[string]reflect.Value{
		"fmt":     {"Println": reflect.ValueOf(fmt.Println), "Sprint": reflect.ValueOf(fmt.Sprint), "Stringer": reflect.ValueOf((*fmt.Stringer)(nil))},
		"strings": {"Repeat": reflect.ValueOf(strings.Repeat), "Builder": reflect.ValueOf((*strings.Builder)(nil))},
		"time":    {"Duration": reflect.ValueOf((*time.Duration)(nil)), "Second": reflect.ValueOf(time.Second)},
	}
	v, ok := m[path][name]
	return v, ok
}

// TestEvaluatorAgrees runs statement cells through the evaluator and
// through the compiler and requires the same outputs and values.
func TestEvaluatorAgrees(t *testing.T) {
	decl := "import (\"fmt\"; \"strings\"; \"time\")\ntype P struct{ X, Y float64; Name string }\nfunc (p P) Norm2() float64 { return p.X*p.X + p.Y*p.Y }\nfunc (p *P) Scale(f float64) { p.X *= f; p.Y *= f }\nvar xs = []int{1, 2, 3}\nvar m = map[string]int{\"a\": 1}\nvar d = 3 * time.Second\nvar i8 int8 = 127\nvar p = P{X: 3, Y: 4, Name: \"p\"}\nvar pp = &P{X: 1}\nvar u uint8 = 250\nvar f32 float32 = 0.1\nfunc add(a, b int) int { return a + b }\nfunc two(ok bool) (int, error) { if !ok { return 0, fmt.Errorf(\"no two\") }; return 2, nil }"
	cells := []string{
		"1 + 1", "xs", "xs[1] * 10", "len(xs) + cap(xs)", "m[\"a\"]", "m[\"zz\"]", "d * 2", "d > time.Second",
		"i8 + 1", "u + 10", "f32 * 3", "float64(f32) * 3", "p.Norm2()", "p.Scale(2)\np", "pp.Scale(3)\n*pp",
		"add(2, 3) * add(1, 1)", "fmt.Println(p, xs, d)", "strings.Repeat(\"ab\", 3)", "p.X = 7\np.X - 1",
		"xs[0] += 5\nxs", "xs[0]++\nxs[0]", "!(1 < 2) || p.X > 6", "pp != nil", "-p.Y", "fmt.Sprint(&p == nil, \"x\" + p.Name)",
		"P{X: 1, Y: 2}", "[]P{{X: 1}, {X: 2}}", "two(true)", "map[string]float64{\"a\": 0.5}", "7 / 2", "7.0 / 2", "10 % 4", "i8 / -1", "i8 * 3", "u - 251", "u % 7",
	}
	compiled := newSession(t)
	evald := newSession(t)
	evald.SetBinder(testBinder)
	ctx := context.Background()
	for _, s := range []*Session{compiled, evald} {
		if _, err := s.Run(ctx, decl); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cells {
		var r1, r2 Result
		var e1, e2 error
		o1 := captureStdout(t, func() { r1, e1 = compiled.Run(ctx, c) })
		o2 := captureStdout(t, func() { r2, e2 = evald.Run(ctx, c) })
		if e1 != nil || e2 != nil {
			t.Errorf("%q: errors %v / %v", c, e1, e2)
			continue
		}
		if evald.Timings.Link != 0 {
			t.Errorf("%q: was compiled, not evaluated", c)
		}
		s1, s2 := fmt.Sprintf("%T %#v %v", r1.Value, r1.Value, r1.HasValue), fmt.Sprintf("%T %#v %v", r2.Value, r2.Value, r2.HasValue)
		if s1 != s2 || o1 != o2 {
			t.Errorf("%q: compiled %s %q, evaluated %s %q", c, s1, o1, s2, o2)
		}
	}
	// A print call's byte count and error are no result, either way.
	for _, s := range []*Session{compiled, evald} {
		var res Result
		var err error
		captureStdout(t, func() { res, err = s.Run(ctx, "fmt.Println(\"x\")") })
		if err != nil || res.HasValue {
			t.Errorf("fmt.Println as the last line: %v %v, want no result", res, err)
		}
	}
	// A final (value, error) call with an error fails the cell both ways.
	for _, s := range []*Session{compiled, evald} {
		_, err := s.Run(ctx, "two(false)")
		var re *RunError
		if !errors.As(err, &re) || re.Kind != "error" || fmt.Sprint(re.Value) != "no two" {
			t.Errorf("two(false): %v, want the error \"no two\"", err)
		}
	}
}

// TestEarlierCellsUnexported: later cells use the unexported fields and
// methods of types earlier cells declared, and build them with literals,
// as one package would.
func TestEarlierCellsUnexported(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	steps := []struct{ code, out string }{
		{code: "import \"fmt\"\ntype point struct{ x, y float64; Name string }\nfunc (p point) norm2() float64 { return p.x*p.x + p.y*p.y }\nfunc (p *point) scale(f float64) { p.x *= f; p.y *= f }\ntype seg struct{ a, b point; tag string }"},
		{code: "p := point{3, 4, \"p\"}\nq := &point{x: 1,\n\ty: 2}\nfmt.Println(p.x, p.y, p.norm2(), q.x, q.norm2())", out: "3 4 25 1 5\n"},
		{code: "p.scale(2)\nq.scale(3)\np.x += 1\nfmt.Printf(\"%+v %+v\\n\", p, *q)", out: "{x:7 y:8 Name:p} {x:3 y:6 Name:}\n"},
		{code: "s := seg{a: p, b: point{y: 1}, tag: \"s\"}\nss := []seg{s, {tag: \"t\"}}\nps := []*point{{x: 5}}\nfmt.Println(s.a.x, s.b.y, ss[1].tag, ps[0].x, s.b.norm2(), len(ss))", out: "7 1 t 5 1 2\n"},
		{code: "func far(s seg) float64 { return s.b.x - s.a.x + s.a.norm2() }\nfmt.Println(far(s))", out: "106\n"},
		{code: "m := map[string]point{\"k\": {x: 2}}\nfmt.Println(m[\"k\"].x, m[\"k\"].norm2())", out: "2 4\n"},
	}
	for i, st := range steps {
		var err error
		out := captureStdout(t, func() { _, err = s.Run(ctx, st.code) })
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if out != st.out {
			t.Errorf("step %d: output %q, want %q", i, out, st.out)
		}
	}
}

// TestRedeclaredType: a cell that redeclares a type replaces it; the
// variables and functions that used the old type leave the scope with a
// note, and cells that do not use them go on.
func TestRedeclaredType(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	for _, c := range []string{
		"type point struct{ X int }\nfunc show(p point) int { return p.X }\nfunc twice(n int) int { return 2 * n }",
		"p := point{X: 1}\nn := show(p)",
	} {
		if _, err := s.Run(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	errOut := captureStderr(t, func() { _, err = s.Run(ctx, "type point struct{ X, Y int }") })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "note: point redeclared; p, show used the earlier declaration") {
		t.Errorf("note %q does not name p and show", errOut)
	}
	if _, err := s.Run(ctx, "p.Y"); err == nil || !strings.Contains(err.Error(), "undefined: p") {
		t.Errorf("p after the redeclaration: %v, want undefined", err)
	}
	res, err := s.Run(ctx, "q := point{X: 1, Y: 2}\ntwice(q.Y) + n")
	if err != nil || res.Value != 5 {
		t.Errorf("new point: %v %v, want 5", res.Value, err)
	}
}

// TestMethodInLaterCell: a cell may declare a method on a type an earlier
// cell declared (the type moves to that cell with its methods); values
// made before are dropped with a note.
func TestMethodInLaterCell(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	for _, c := range []string{
		"import \"fmt\"\n// point is a point.\ntype point struct{ x, y int }\nfunc (p point) String() string { return fmt.Sprintf(\"(%d,%d)\", p.x, p.y) }",
		"old := point{1, 2}",
	} {
		if _, err := s.Run(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	note := captureStderr(t, func() { _, err = s.Run(ctx, "func (p point) sum() int { return p.x + p.y }") })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "moved point to this cell") || !strings.Contains(note, "old used the earlier declaration and was removed") {
		t.Errorf("note %q does not name old", note)
	}
	res, err := s.Run(ctx, "q := point{3, 4}\nfmt.Sprint(q.sum(), q)")
	if err != nil || res.Value != "7 (3,4)" {
		t.Errorf("method from a later cell: %v %v, want \"7 (3,4)\"", res.Value, err)
	}
}

// TestVersionedImport: an import whose path ends in a major version binds
// the package's own name, in its cell and in later ones.
func TestVersionedImport(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	if _, err := s.Run(ctx, "import \"math/rand/v2\"\nr := rand.New(rand.NewPCG(1, 2))"); err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(ctx, "x := rand.New(rand.NewPCG(1, 2)).IntN(1000)\nx == r.IntN(1000)")
	if err != nil || res.Value != true {
		t.Errorf("later cell: %v %v, want true", res.Value, err)
	}
}

// TestErrorsInGoWords: compile errors read as Go states them, at cell
// positions.
func TestErrorsInGoWords(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	for _, c := range []struct{ code, want string }{
		{"next, stop := iter.Pull(nil)", "1:15: undefined: iter"},
		{"x := 1\ny := undefinedThing + x", "2:6: undefined: undefinedThing"},
		{"func f() int { return \"s\" }", "1:23: cannot use \"s\" (untyped string constant) as int value in return statement"},
	} {
		_, err := s.Run(ctx, c.code)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q first", c.code, err, c.want)
		}
	}
}

// TestImportOnlyCells: a cell of imports builds nothing (unless an import
// is for its side effects) and later cells use the imports.
func TestImportOnlyCells(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	if _, err := s.Run(ctx, "import \"strings\""); err != nil {
		t.Fatal(err)
	}
	if s.Timings.Link != 0 {
		t.Error("an import-only cell was linked")
	}
	if _, err := s.Run(ctx, "import \"nosuch/pkg\""); err == nil {
		t.Error("importing a missing package: no error")
	}
	if _, err := s.Run(ctx, "import _ \"image/png\""); err != nil {
		t.Fatal(err)
	}
	if s.Timings.Link == 0 {
		t.Error("a side-effect import was not built (its init would not run)")
	}
	res, err := s.Run(ctx, "strings.Repeat(\"ab\", 2)")
	if err != nil || res.Value != "abab" {
		t.Errorf("using the import: %v %v", res.Value, err)
	}
}
