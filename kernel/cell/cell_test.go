package cell

import (
	"bytes"
	"errors"
	"fmt"
	"go/importer"
	"go/types"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/neurogo/neurogo/kernel/bindings"
)

// testImporter is shared so that packages are imported once per test run.
var testImporter = importer.Default()

// session is a notebook: a Front and a yaegi interpreter, set up as the
// kernel does (unrestricted, with the real bindings, GoPanicFunc and the
// Prelude).
type session struct {
	t        *testing.T
	f        *Front
	i        *interp.Interpreter
	stdout   bytes.Buffer
	stderr   bytes.Buffer
	goPanics chan any
}

func newSession(t *testing.T, imp types.Importer) *session {
	t.Helper()
	s := &session{t: t, f: New(imp), goPanics: make(chan any, 16)}
	s.i = interp.New(interp.Options{Stdout: &s.stdout, Stderr: &s.stderr, Unrestricted: true})
	if err := bindings.Use(s.i); err != nil {
		t.Fatal(err)
	}
	if err := s.i.Use(interp.Exports{"neurogotest/neurogotest": {
		"Report": reflect.ValueOf(func(v any) { s.goPanics <- v }),
	}}); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{`import "neurogotest"`, "func " + GoPanicFunc + "(r any) { neurogotest.Report(r) }", Prelude} {
		if _, err := s.i.Eval(src); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

type outcome struct {
	p      *Program
	val    reflect.Value // value of the last segment
	err    error         // from Prepare or Eval
	seg    Segment       // the segment that failed, if Eval failed
	failed bool          // Eval failed
}

// run prepares and evaluates a cell, committing it when it succeeds.
func (s *session) run(src string) outcome {
	p, err := s.f.Prepare(src)
	if err != nil {
		return outcome{err: err}
	}
	var v reflect.Value
	for _, seg := range p.Segments {
		v, err = s.eval(seg.Src)
		if err != nil {
			return outcome{p: p, err: err, seg: seg, failed: true}
		}
	}
	s.f.Commit(p)
	return outcome{p: p, val: v}
}

func (s *session) eval(src string) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaegi panicked: %v", r)
		}
	}()
	return s.i.Eval(src)
}

// ok runs cells that must succeed.
func (s *session) ok(cells ...string) {
	s.t.Helper()
	for _, c := range cells {
		if o := s.run(c); o.err != nil {
			s.t.Fatalf("cell %q: %v%s", c, o.err, dumpProgram(o.p))
		}
	}
}

// value runs a cell that must succeed and have a result, and returns the
// result formatted with fmt.Sprint.
func (s *session) value(src string) string {
	s.t.Helper()
	o := s.run(src)
	if o.err != nil {
		s.t.Fatalf("cell %q: %v%s", src, o.err, dumpProgram(o.p))
	}
	if !o.p.Result {
		s.t.Fatalf("cell %q: no result%s", src, dumpProgram(o.p))
	}
	if !o.val.IsValid() {
		return "<invalid>"
	}
	return fmt.Sprint(o.val.Interface())
}

func (s *session) expect(src, want string) {
	s.t.Helper()
	if got := s.value(src); got != want {
		s.t.Errorf("cell %q = %s, want %s%s", src, got, want, dumpProgram(mustPrepare(s.f, src)))
	}
}

func mustPrepare(f *Front, src string) *Program {
	p, _ := f.Prepare(src)
	return p
}

func dumpProgram(p *Program) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range p.Segments {
		fmt.Fprintf(&b, "\n--- %v lines %d-%d:%s", s.Kind, s.Line, s.EndLine, s.Src)
	}
	return b.String()
}

var posRE = regexp.MustCompile(`(\d+):(\d+): `)

// yaegiPos extracts the first "line:col: " of a yaegi message.
func yaegiPos(t *testing.T, msg string) (int, int) {
	t.Helper()
	m := posRE.FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("no position in %q", msg)
	}
	l, _ := strconv.Atoi(m[1])
	c, _ := strconv.Atoi(m[2])
	return l, c
}

func TestMixedDeclsAndStmts(t *testing.T) {
	s := newSession(t, testImporter)
	s.expect("var z []int; z = append(z, 7, 8); func f() int { return len(z) }\nf() * 10 + z[1]", "28")
	s.expect("func g() {}\ng()\ntype P struct{ X, Y int }\np := P{1, 2}\nfunc (p P) Sum() int { return p.X + p.Y }\np.Sum()", "3")
	s.expect("import \"strings\"\nconst k = 3\nstrings.Repeat(\"ab\", k)", "ababab")
	// A top-level func literal call is a statement.
	s.expect("func() int { return 41 }() + 1", "42")
	s.expect("var w = func() int { return 5 }\nw()", "5")

	// var z []int; z[3] runs and fails at run time, on line 1.
	o := s.run("var y []int; y[3]")
	if !o.failed || o.seg.Kind != Stmts || o.seg.Line != 1 {
		t.Fatalf("want a run-time failure of the statement: %+v", o)
	}
	p := mustPrepare(s.f, "import \"fmt\"\nx := 1\nfunc h() int { return x }\nimport \"os\"\nfmt.Sprint(h(), os.Getpid() > 0)")
	var kinds []string
	for _, sg := range p.Segments {
		kinds = append(kinds, fmt.Sprintf("%v@%d", sg.Kind, sg.Line))
	}
	if got := strings.Join(kinds, " "); got != "Imports@1 Stmts@2 Decls@3 Stmts@5" {
		t.Errorf("segments = %s", got)
	}
	s.expect("import \"fmt\"\nx := 1\nfunc h() int { return x }\nimport \"os\"\nfmt.Sprint(h(), os.Getpid() > 0)", "1 true")
}

func TestRedeclaration(t *testing.T) {
	s := newSession(t, testImporter)
	s.ok("func f() int { return 1 }", "var v = 3", "x := 1", "type ID int")
	s.expect("f() + v + x", "5")
	s.ok("func f() string { return \"two\" }", "var v = \"s\"", "x := \"y\"")
	s.expect("f() + v + x", "twosy")
	// The context now knows the new f: range over its result is an int64.
	s.ok("func N() int64 { return 3 }")
	s.ok("import \"fmt\"")
	s.expect("t := \"\"\nfor i := range N() { t += fmt.Sprintf(\"%T \", i) }\nt", "int64 int64 int64 ")
	s.ok("func N() uint8 { return 2 }")
	s.expect("t := \"\"\nfor i := range N() { t += fmt.Sprintf(\"%T \", i) }\nt", "uint8 uint8 ")
	// Redeclaring one name of a group keeps the others in the context.
	s.ok("var (\n\ta, b = 1, 2\n)", "var a = \"A\"")
	ctx := s.f.Context()
	if !strings.Contains(ctx, "var _, b = 1, 2") || !strings.Contains(ctx, "var a = \"A\"") {
		t.Errorf("context:\n%s", ctx)
	}
	s.expect("a + fmt.Sprint(b)", "A2")
	// The context type-checks later cells: a generic call rewrite needs the
	// types of the context's declarations.
	s.ok("type Pair struct{ K string; V int }", "func First[T any](s []T) T { return s[0] }")
	s.expect("ps := []Pair{{\"a\", 1}}\nFirst(ps).K", "a")
}

func TestResult(t *testing.T) {
	s := newSession(t, testImporter)
	s.ok("import \"fmt\"", "func noRes() {}", "func oneRes() int { return 1 }", "var q = 1")
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"1 + 2", true},
		{"x := 3", false},
		{"q = 4", false},
		{"q", true},
		{"noRes()", false},
		{"oneRes()", true},
		{"println(\"hi\")", false},
		{"fmt.Sprint(1)", true},
		{"fmt.Println(\"to stdout\")", true}, // (n int, err error)
		{"func local() {}\nlocal()", false},
		{"x := 1\nx", true},
		{"x := 1\nfunc g() {}", false},
		{"for i := 0; i < 2; i++ {}", false},
		{"// just a comment", false},
		{"", false},
		{"(oneRes())", true},
		{"var s []int\nlen(s)", true},
		{"import \"strings\"\nvar sb strings.Builder\nsb.Reset()", true}, // not type-checked: unknown
		{"go noRes()", false},
	} {
		p, err := s.f.Prepare(c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if p.Result != c.want {
			t.Errorf("%q: Result = %v, want %v", c.src, p.Result, c.want)
		}
	}
	// With a type-check (forced here by a range over a method's result),
	// method calls without results are known too.
	p, _ := s.f.Prepare("import \"strings\"\nvar sb strings.Builder\nfor range sb.Len() {}\nsb.Reset()")
	if !p.TypeChecked || p.Result {
		t.Errorf("type-checked method call without result: TypeChecked=%v Result=%v", p.TypeChecked, p.Result)
	}
}

func TestLineMapping(t *testing.T) {
	s := newSession(t, testImporter)

	// Syntax error on line 3: Prepare reports the cell's line:col.
	_, err := s.f.Prepare("a := 1\nb := 2\nc := a +/ b\n")
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || e.Col != 9 {
		t.Errorf("syntax error = %#v, want line 3 col 9", err)
	}
	_, err = s.f.Prepare("x := 1\nfunc f() {\n\tfor i := range 3 {\n}")
	if !errors.As(err, &e) || e.Line != 4 {
		t.Errorf("unclosed func: %#v", err)
	}

	// Type error on line 3, reported by yaegi, mapped back with MapPos.
	s.ok("import \"fmt\"")
	o := s.run("w := 1\nu := 2\nw = \"str\" + fmt.Sprint(u)")
	if !o.failed {
		t.Fatalf("want a yaegi error, got %+v", o)
	}
	l, c := yaegiPos(t, o.err.Error())
	if gl, gc := MapPos(o.seg, l, c); gl != 3 || gc != 5 {
		t.Errorf("type error %q mapped to %d:%d, want 3:5", o.err, gl, gc)
	}

	// On a rewritten line, columns after the rewrite map back exactly.
	o = s.run("import \"fmt\"\n\nfor i := range 3 { var s string = i; fmt.Println(s) }")
	if !o.failed {
		t.Fatalf("want a yaegi error, got %+v", o)
	}
	l, c = yaegiPos(t, o.err.Error())
	if gl, gc := MapPos(o.seg, l, c); gl != 3 || gc != 35 {
		t.Errorf("error %q in rewritten line mapped to %d:%d, want 3:35%s", o.err, gl, gc, dumpProgram(o.p))
	}

	// Run-time panic on line 3: the failing segment is line 3, and the
	// position yaegi prints on stderr for the cell's frame maps to line 3.
	s.ok("func boom(i int) int {\n\tvar s []int\n\treturn s[i]\n}")
	s.stderr.Reset()
	o = s.run("a := 1\nb := 2\nc := boom(a + b)\nc++")
	if !o.failed || o.seg.Line != 3 {
		t.Fatalf("panic: failed=%v seg.Line=%d err=%v", o.failed, o.seg.Line, o.err)
	}
	var lines []string
	for _, ln := range strings.Split(strings.TrimSpace(s.stderr.String()), "\n") {
		if strings.Contains(ln, "panic: main(") {
			lines = append(lines, ln)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("stderr: %q", s.stderr.String())
	}
	l, c = yaegiPos(t, lines[0])
	if gl, _ := MapPos(o.seg, l, c); gl != 3 {
		t.Errorf("panic frame %q mapped to line %d, want 3", lines[0], gl)
	}
	// A panic value.
	o = s.run("x := 1\n\npanic(fmt.Sprint(\"boom \", x))")
	if !o.failed || o.seg.Line != 3 || !strings.Contains(o.err.Error(), "boom 1") {
		t.Errorf("panic: %+v", o)
	}

	// Positions outside the segment (yaegi's wrapper line) give 0, 0.
	if l, c := MapPos(o.seg, 1, 28); l != 0 || c != 0 {
		t.Errorf("wrapper position mapped to %d:%d", l, c)
	}
}

func TestRangeOverInt(t *testing.T) {
	s := newSession(t, testImporter)
	s.ok("import \"fmt\"", "n := 4", "var n64 int64 = 3")
	for _, c := range []struct{ src, want string }{
		{"sum := 0\nfor i := range 5 { sum += i }\nsum", "10"},
		{"sum := 0\nfor i := range n { sum += i }\nsum", "6"},
		{"t := \"\"\nfor i := range n64 { t += fmt.Sprintf(\"%v:%T \", i, i) }\nt", "0:int64 1:int64 2:int64 "},
		{"c := 0\nfor range n { c++ }\nc", "4"},
		{"c := 0\nfor range 0 { c++ }\nc", "0"},
		{"c := 0\nfor range -3 { c++ }\nc", "0"},
		{"func tri(k int) int {\n\ts := 0\n\tfor i := range k + 1 {\n\t\ts += i\n\t}\n\treturn s\n}\ntri(4)", "10"},
		{"xs := []string{\"a\", \"b\"}\nt := \"\"\nfor i := range len(xs) { t += xs[len(xs)-1-i] }\nt", "ba"},
		// The bound is evaluated once; changing it in the body does not matter.
		{"m := 3\nc := 0\nfor range m { m++; c++ }\nc", "3"},
		// In functions, assigning the variable in the body does not change
		// the iteration, and each iteration has its own variable.
		{"func f1() int {\n\tc := 0\n\tfor i := range 3 { i += 10; c += i }\n\treturn c\n}\nf1()", "33"},
		{"func f2() int {\n\tvar fs []func() int\n\tfor i := range 3 { fs = append(fs, func() int { return i }) }\n\treturn fs[0]() + fs[1]()*10 + fs[2]()*100\n}\nf2()", "210"},
		// The body may redeclare the loop variable.
		{"func f3() (s string) {\n\tfor i := range 2 {\n\t\ti := fmt.Sprint(i, \"!\")\n\t\ts += i\n\t}\n\treturn\n}\nf3()", "0!1!"},
		// At top level a loop variable may shadow a global of another type.
		{"i := \"a string\"\nc := 0\nfor i := range 3 { c += i }\nc", "3"},
		// Assignment form: the variable keeps the last value.
		{"var j int8\nfor j = range 4 {}\nfmt.Sprintf(\"%v %T\", j, j)", "3 int8"},
		// Labels still work.
		{"c := 0\nouter:\nfor a := range 3 {\n\tfor b := range 3 {\n\t\tif b > a { continue outer }\n\t\tc++\n\t}\n}\nc", "6"},
		// (yaegi prints %T of a named interpreted type as its underlying type.)
		{"type Level uint16\nvar lv Level = 3\nvar total Level\nfor l := range lv { total += l }\ntotal", "3"},
		{"const K = 2\nc := 0\nfor range K * 2 { c++ }\nc", "4"},
	} {
		s.expect(c.src, c.want)
	}
}

func TestRangeOverIntWithoutImporter(t *testing.T) {
	// Literals, len/cap and constant expressions are recognised without
	// any type-check.
	f := New(nil)
	for _, src := range []string{
		"for i := range 10 { _ = i }",
		"s := []int{1}\nfor i := range len(s) - 1 { _ = i }",
		"for range cap(make([]int, 0, 3)) * 2 {}",
	} {
		p, err := f.Prepare(src)
		if err != nil || p.TypeChecked || p.Rewrites != 1 {
			t.Errorf("%q: err=%v TypeChecked=%v Rewrites=%d", src, err, p != nil && p.TypeChecked, p.Rewrites)
		}
	}
	s := newSession(t, nil)
	s.expect("c := 0\nfor i := range 4 { c += i }\nc", "6")
	// Without an importer a range over a variable is type-checked with the
	// cell's own declarations.
	s.expect("n := 3\nc := 0\nfor range n { c++ }\nc", "3")
}

const iterCells = `type Seq[V any] func(yield func(V) bool)
type Seq2[K, V any] func(yield func(K, V) bool)
func Count(n int) Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}
func Enum(ss ...string) Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i, s := range ss {
			if !yield(i, s) {
				return
			}
		}
	}
}
func Letters(yield func(string) bool) {
	for _, l := range []string{"a", "b", "c"} {
		if !yield(l) {
			return
		}
	}
}`

func TestRangeOverFunc(t *testing.T) {
	s := newSession(t, testImporter)
	s.ok("import \"fmt\"", iterCells)
	for _, c := range []struct{ src, want string }{
		{"sum := 0\nfor x := range Count(5) { sum += x }\nsum", "10"},
		{"t := \"\"\nfor l := range Letters { t += l }\nt", "abc"},
		{"c := 0\nfor range Count(4) { c++ }\nc", "4"},
		{"t := \"\"\nfor i, s := range Enum(\"x\", \"y\") { t += fmt.Sprint(i, s) }\nt", "0x1y"},
		{"t := \"\"\nfor _, s := range Enum(\"x\", \"y\") { t += s }\nt", "xy"},
		// break and continue
		{"t := \"\"\nfor x := range Count(10) {\n\tif x == 1 { continue }\n\tif x == 4 { break }\n\tt += fmt.Sprint(x)\n}\nt", "023"},
		// switch inside the body: break leaves the switch, continue the loop
		{"t := \"\"\nfor x := range Count(4) {\n\tswitch x {\n\tcase 1:\n\t\tbreak\n\tcase 2:\n\t\tcontinue\n\t}\n\tt += fmt.Sprint(x)\n}\nt", "013"},
		// return inside a function with results
		{"func find(limit int) (int, error) {\n\tfor x := range Count(100) {\n\t\tif x*x > limit {\n\t\t\treturn x, nil\n\t\t}\n\t}\n\treturn -1, fmt.Errorf(\"none\")\n}\nfmt.Sprint(find(10))", "4 <nil>"},
		{"fmt.Sprint(find(100000))", "-1 none"},
		// bare return with named results, and return of a multi-value call
		{"func two() (int, string) { return 7, \"seven\" }\nfunc named() (n int, s string) {\n\tfor x := range Count(3) {\n\t\tn += x\n\t\tif x == 1 { return }\n\t}\n\treturn 100, \"end\"\n}\nfunc call() (int, string) {\n\tfor range Count(3) { return two() }\n\treturn 0, \"\"\n}\na, b := named()\nc, d := call()\nfmt.Sprintf(\"%v|%v|%v|%v\", a, b, c, d)", "1||7|seven"},
		// return in a function without results
		{"var got []int\nfunc collect() {\n\tfor x := range Count(10) {\n\t\tif x == 3 { return }\n\t\tgot = append(got, x)\n\t}\n\tgot = append(got, -1)\n}\ncollect()\ngot", "[0 1 2]"},
		// nested loops, labelled continue and break of outer loops, and a
		// return from the inner loop
		{"func grid() (string, int) {\n\tt := \"\"\nouter:\n\tfor a := range Count(4) {\n\t\tfor b := range Count(4) {\n\t\t\tif b > a { continue outer }\n\t\t\tif a == 3 { break outer }\n\t\t\tt += fmt.Sprintf(\"%d%d \", a, b)\n\t\t}\n\t}\n\tfor a := range Count(5) {\n\t\tfor b := range Count(5) {\n\t\t\tif a*b == 6 { return t, a*10 + b }\n\t\t}\n\t}\n\treturn t, -1\n}\nfmt.Sprint(grid())", "00 10 11 20 21 22 23"},
		// range-over-func inside a plain loop, labelled continue to it
		{"t := \"\"\nL:\nfor i := 0; i < 3; i++ {\n\tfor x := range Count(3) {\n\t\tif x == i { continue L }\n\t\tt += fmt.Sprintf(\"%d%d \", i, x)\n\t}\n}\nt", "10 20 21 "},
		// assignment form
		{"var last int\nfor last = range Count(3) {}\nlast", "2"},
		// the body may redeclare the loop variable
		{"t := \"\"\nfor x := range Count(2) {\n\tx := fmt.Sprint(x, \"!\")\n\tt += x\n}\nt", "0!1!"},
		// closures capture each iteration's variable
		{"var fs []func() int\nfor x := range Count(3) { fs = append(fs, func() int { return x }) }\nfs[0]() + fs[2]()*10", "20"},
		// the body may start goroutines and use other rewrites
		{"total := 0\nfor x := range Count(3) {\n\tfor i := range x { total += i }\n}\ntotal", "1"},
	} {
		s.expect(c.src, c.want)
	}

	// Not supported: goto and defer in the body give a clear error.
	for _, c := range []struct{ src, msg string }{
		{"func g() {\n\tfor x := range Count(3) {\n\t\tif x == 1 { goto done }\n\t}\ndone:\n}", "3:15: range over func with goto is not supported by the neurogo interpreter"},
		{"func g() {\n\tfor range Count(3) {\n\t\tdefer println()\n\t}\n}", "3:3: range over func with defer in the loop body is not supported by the neurogo interpreter"},
	} {
		_, err := s.f.Prepare(c.src)
		if err == nil || err.Error() != c.msg {
			t.Errorf("%q: err = %v, want %s", c.src, err, c.msg)
		}
	}
}

func TestRangeOverFuncIterSeq(t *testing.T) {
	// iter.Seq values and the iterators of the interpreted maps package
	// (whose signatures give the type arguments).
	s := newSession(t, testImporter)
	src := "import (\"iter\"; \"maps\")\nvar seq iter.Seq[int] = func(yield func(int) bool) { yield(4) }\nm := map[string]int{\"a\": 1}\nn := 0\nfor v := range seq { n += v }\nfor k, v := range maps.All(m) { n += v + len(k) }\nn"
	p := mustPrepare(s.f, src)
	all := dumpProgram(p)
	for _, want := range []string{"{ seq(func(v int) bool {", "{ maps.All[string, int](m)(func(k string, v int) bool {"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in%s", want, all)
		}
	}
	s.expect(src, "6")
}

func TestGenericInference(t *testing.T) {
	s := newSession(t, testImporter)
	s.ok("import (\"fmt\"; \"strconv\")",
		"func Map[T, U any](s []T, f func(T) U) []U {\n\tvar r []U\n\tfor _, v := range s {\n\t\tr = append(r, f(v))\n\t}\n\treturn r\n}",
		"type Number interface{ ~int | ~int64 | ~float64 }",
		"func Max[T Number](a, b T) T {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}",
		"func Of[T any](vs ...T) []T { return vs }",
		"func Pair[K comparable, V any](k K, v V) map[K]V { return map[K]V{k: v} }",
	)
	for _, c := range []struct{ src, want string }{
		{"Map([]int{1, 2, 3}, func(v int) string { return strconv.Itoa(v * 2) })", "[2 4 6]"},
		{"Max(3.5, 1.0)", "3.5"},
		{"fmt.Sprintf(\"%T\", Max(2, 7))", "int"},
		{"Of(1, 2, 3)", "[1 2 3]"},
		{"Map[int]([]int{4}, func(v int) string { return fmt.Sprint(v) })", "[4]"},
		{"type Celsius float64\nfmt.Sprint(Max(Celsius(1.5), 2))", "2"},
		{"Pair(\"a\", []string{\"x\"})", "map[a:[x]]"},
		// A generic call inside a generic function uses the type parameter.
		{"func Biggest[T Number](xs ...T) T {\n\tm := xs[0]\n\tfor _, x := range xs { m = Max(m, x) }\n\treturn m\n}\nBiggest(3, 9, 4)", "9"},
	} {
		s.expect(c.src, c.want)
	}
	// Local types and anonymous types are written as they are.
	p := mustPrepare(s.f, "func mk() func() struct{ a int } { return nil }\nfunc f() {\n\ttype local struct{}\n\t_ = Of(local{})\n}\n_ = Of(mk())")
	if got := dumpProgram(p); !strings.Contains(got, "Of[local](local{})") || !strings.Contains(got, "Of[func() struct{a int}](mk())") {
		t.Errorf("local types:%s", got)
	}
	// A type argument that cannot be written here (syscall is not
	// imported) is left alone.
	p = mustPrepare(s.f, "import \"os\"\nrc, _ := os.Stdout.SyscallConn()\n_ = Of(rc)")
	if got := dumpProgram(p); !strings.Contains(got, "_ = Of(rc)") {
		t.Errorf("unwritable type argument:%s", got)
	}
}

func TestGoStatementPanics(t *testing.T) {
	s := newSession(t, testImporter)
	s.ok("import (\"fmt\"; \"sync\")", "var wg sync.WaitGroup")
	s.ok("go func() { panic(\"from goroutine\") }()")
	select {
	case v := <-s.goPanics:
		if fmt.Sprint(v) != "from goroutine" {
			t.Errorf("reported %v", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("goroutine panic not reported")
	}
	// Function value and arguments are evaluated by the go statement.
	s.ok("func put(ch chan string, id int, x float32, p *int) { ch <- fmt.Sprint(id, \" \", x, \" \", p == nil) }")
	s.expect("ch := make(chan string, 3)\nid := 1\ngo put(ch, id, 2.5, nil)\nid = 99\n<-ch", "1 2.5 true")
	s.expect("res := make(chan int, 3)\nfor i := 0; i < 3; i++ {\n\twg.Add(1)\n\tgo func(k int) { defer wg.Done(); res <- k * k }(i)\n}\nwg.Wait()\n<-res + <-res + <-res", "5")
	// A method value: the receiver is evaluated at the go statement.
	s.ok("type C struct{ n int; out chan int }\nfunc (c C) Send() { c.out <- c.n }")
	s.expect("c := C{1, make(chan int, 1)}\ngo c.Send()\nc.n = 2\n<-c.out", "1")
	// Panics of nested go statements and of variadic calls are reported.
	s.ok("func bad(xs ...int) { panic(fmt.Sprint(\"bad \", len(xs))) }\nfunc starter() { go bad([]int{1, 2}...) }", "starter()", "go bad(1, 2, 3)")
	got := map[string]bool{}
	for range 2 {
		select {
		case v := <-s.goPanics:
			got[fmt.Sprint(v)] = true
		case <-time.After(5 * time.Second):
			t.Fatal("goroutine panic not reported")
		}
	}
	if !got["bad 2"] || !got["bad 3"] {
		t.Errorf("reported %v", got)
	}
	// The kernel survived: later cells run.
	s.expect("1 + 1", "2")
}

func TestIsComplete(t *testing.T) {
	for _, c := range []struct{ src, status, indent string }{
		{"for {", "incomplete", "    "},
		{"x := 1", "complete", ""},
		{")))", "invalid", ""},
		{"func f() {", "incomplete", "    "},
		{"func f() {\n\tif x {", "incomplete", "        "},
		{"s := `multi\nline", "incomplete", ""},
		{"s := \"open", "invalid", ""},
		{"/* comment", "incomplete", ""},
		{"x := 1 +", "incomplete", ""},
		{"type T", "incomplete", ""},
		{"x := []int{\n1,\n2,", "incomplete", "    "},
		{"", "complete", ""},
		{"for {\n}", "complete", ""},
		{"x := := 1", "invalid", ""},
		{"func f() {}\nf()", "complete", ""},
		{"foo(}", "invalid", ""},
	} {
		st, ind := IsComplete(c.src)
		if st != c.status || ind != c.indent {
			t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", c.src, st, ind, c.status, c.indent)
		}
	}
}

func TestSegmentsKeepLines(t *testing.T) {
	f := New(testImporter)
	f.Commit(mustPrepare(f, iterCells))
	src := "import \"fmt\"\nx := []int{\n\t1,\n}\ngo fmt.Println(\n\tx,\n\t\"a\",\n)\nfor v := range Count(\n\t3) {\n\tif v == 1 {\n\t\tcontinue\n\t}\n}\n"
	p, err := f.Prepare(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, seg := range p.Segments {
		if n := strings.Count(seg.Src, "\n"); n != seg.EndLine {
			t.Errorf("segment %d-%d has %d newlines:%s", seg.Line, seg.EndLine, n, seg.Src)
		}
		lines := strings.Split(seg.Src, "\n")
		orig := strings.Split(src, "\n")
		for l := seg.Line; l <= seg.EndLine; l++ {
			// Unrewritten lines are copied as they are.
			if seg.cols[l] == nil && lines[l] != "" && lines[l] != orig[l-1] {
				t.Errorf("line %d: %q, want %q", l, lines[l], orig[l-1])
			}
		}
	}
}

func TestReimport(t *testing.T) {
	s := newSession(t, testImporter)
	s.ok("import \"fmt\"")
	// yaegi fails on importing a package twice: the Front leaves out the
	// imports it knows are done.
	s.expect("import \"fmt\"\nfmt.Sprint(1)", "1")
	s.expect("import (\n\t\"fmt\"\n\t\"strings\"\n)\nstrings.ToUpper(fmt.Sprint(\"a\"))", "A")
	s.expect("import str \"strings\"\nstr.Repeat(\"-\", 2)", "--")
	p := mustPrepare(s.f, "import \"fmt\"\nfmt.Sprint(2)")
	if len(p.Segments) != 1 || p.Segments[0].Kind != Stmts {
		t.Errorf("re-import not dropped:%s", dumpProgram(p))
	}
}

func TestMiscCells(t *testing.T) {
	s := newSession(t, testImporter)
	// A pasted program: the package clause is dropped, main is declared.
	s.ok("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\") }")
	s.expect("main()\n42", "42")
	// A generic function started as a goroutine gets explicit type
	// arguments and its panic is reported.
	s.ok("func Send[T any](ch chan T, v T) { ch <- v; panic(v) }")
	s.expect("ch := make(chan string, 1)\ngo Send(ch, \"hi\")\n<-ch", "hi")
	select {
	case v := <-s.goPanics:
		if fmt.Sprint(v) != "hi" {
			t.Errorf("reported %v", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("goroutine panic not reported")
	}
	// Comments and blank lines between segments.
	s.expect("// doc\nfunc k() int { return 4 } // trailing\n\n/* block */ v := k() *\n\t2\nv", "8")
	// Multi-line statements split one per segment keep their lines.
	o := s.run("a := []int{\n\t1,\n\t2,\n}\nb := a[\n\t5]")
	if !o.failed || o.seg.Line != 5 || o.seg.EndLine != 6 {
		t.Errorf("failure at lines %d-%d: %v", o.seg.Line, o.seg.EndLine, o.err)
	}
	// A top-level defer keeps the statements in one segment.
	p := mustPrepare(s.f, "x := 1\ndefer println(x)\nx++")
	if len(p.Segments) != 1 {
		t.Errorf("defer: %d segments", len(p.Segments))
	}
	// Errors are *Error with the cell's position.
	if _, err := s.f.Prepare("x := 1\n\n  y := )"); err == nil || err.(*Error).Line != 3 || err.(*Error).Col != 8 {
		t.Errorf("err = %v", err)
	}
}
