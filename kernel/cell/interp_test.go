package cell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/neurogo/neurogo/kernel/bindings"
)

// These tests run cells through an interpreter set up exactly as the
// kernel's (newSession: unrestricted, bindings.Use, GoPanicFunc, Prelude),
// so that calls go to the real interpreted generic packages.

// cellCase is a cell to run in a session: want is the result (fmt.Sprint),
// or "" for a cell that must succeed without a result; inSrc, if set, must
// appear in the prepared segments.
type cellCase struct {
	src, want, inSrc string
}

func runCases(t *testing.T, s *session, cases []cellCase) {
	t.Helper()
	for _, c := range cases {
		o := s.run(c.src)
		if o.err != nil {
			t.Errorf("cell %q: %v%s", c.src, o.err, dumpProgram(o.p))
			continue
		}
		if c.inSrc != "" {
			if got := dumpProgram(o.p); !strings.Contains(got, c.inSrc) {
				t.Errorf("cell %q: %q not in%s", c.src, c.inSrc, got)
			}
		}
		if c.want == "" {
			continue
		}
		if !o.p.Result || !o.val.IsValid() {
			t.Errorf("cell %q: no result%s", c.src, dumpProgram(o.p))
			continue
		}
		if got := fmt.Sprint(o.val.Interface()); got != c.want {
			t.Errorf("cell %q = %s, want %s%s", c.src, got, c.want, dumpProgram(o.p))
		}
	}
}

func TestPrelude(t *testing.T) {
	// The kernel's set-up: the prelude evaluates in a fresh interpreter.
	i := interp.New(interp.Options{Unrestricted: true})
	if err := bindings.Use(i); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"func " + GoPanicFunc + "(r any) {}", Prelude} {
		if _, err := i.Eval(src); err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"min(3, 1, 2)", "1"},
		{"max(3, 1, 2)", "3"},
		{"min[float64](2, 1.5)", "1.5"},
		{`max("a", "b")`, "b"},
		{"s := []int{1, 2}; __ngClearSlice[int](s); s", "[0 0]"},
		{`m := map[string]int{"a": 1}; __ngClearMap[string, int](m); len(m)`, "0"},
	} {
		v, err := i.Eval(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if got := fmt.Sprint(v.Interface()); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

func TestGenericStdlib(t *testing.T) {
	s := newSession(t, testImporter)
	// slices.Sort on an []int: Sort gets the interpreter's one type
	// argument, not the two of the real slices.Sort.
	runCases(t, s, []cellCase{
		{src: "import \"slices\"\ns := []int{3, 1, 2}\nslices.Sort(s)\ns", want: "[1 2 3]", inSrc: "slices.Sort[int](s)"},
		{src: "import (\"cmp\"; \"fmt\"; \"iter\"; \"maps\"; \"strings\")"},
		{src: "slices.Max(s)", want: "3", inSrc: "slices.Max[int](s)"},
		{src: "slices.Min([]float64{2.5, -1})", want: "-1"},
		{src: "slices.Contains(s, 2)", want: "true", inSrc: "slices.Contains[int](s, 2)"},
		{src: "slices.Index(s, 3)", want: "2", inSrc: "slices.Index[int](s, 3)"},
		{src: "m := map[string]int{\"b\": 2, \"a\": 1}"},
		{src: "slices.Sorted(maps.Keys(m))", want: "[a b]", inSrc: "slices.Sorted[string](maps.Keys[string, int](m))"},
		{src: "len(slices.Collect(maps.Keys(m)))", want: "2", inSrc: "slices.Collect[string](maps.Keys[string, int](m))"},
		{src: "maps.Clone(m)[\"b\"]", want: "2", inSrc: "maps.Clone[string, int](m)"},
		{src: "cmp.Compare(1, 2)", want: "-1", inSrc: "cmp.Compare[int](1, 2)"},
		{src: "x := 2.5\ncmp.Compare(x, 1)", want: "1", inSrc: "cmp.Compare[float64](x, 1)"},
		{src: "cmp.Less(\"a\", \"b\")", want: "true"},
		// A named slice type: the interpreter's functions take []E.
		{src: "type IDs []int\nids := IDs{5, 4}\nslices.Sort(ids)\nfmt.Sprint(ids, slices.Index(ids, 5))", want: "[4 5] 1", inSrc: "slices.Sort[int](ids)"},
		// iter.Seq from compiled code (export data) and interpreted source.
		{src: "slices.Collect(strings.SplitSeq(\"a,b\", \",\"))", want: "[a b]", inSrc: "slices.Collect[string](strings.SplitSeq("},
		{src: "var seq iter.Seq[int] = slices.Values(s)\nn := 0\nfor v := range seq { n += v }\nn", want: "6"},
		{src: "t := \"\"\nfor k, v := range maps.All(map[string]int{\"z\": 26}) { t += fmt.Sprint(k, v) }\nt", want: "z26", inSrc: "maps.All[string, int]("},
		{src: "n := 0\nfor i, v := range slices.All([]int{7, 8}) { n += i * v }\nn", want: "8"},
		// A generic function of the cell called with untyped constants.
		{src: "func Half[T ~int | ~float64](x T) T { return x / 2 }\nHalf(3.0)", want: "1.5", inSrc: "Half[float64](3.0)"},
		{src: "Half(7)", want: "3", inSrc: "Half[int](7)"},
		{src: "func Scale[T ~float32 | ~float64](xs []T, k T) []T { for i := range xs { xs[i] *= k }; return xs }\nScale([]float64{1, 2}, 0.5)", want: "[0.5 1]"},
	})
}

func TestGenericDefines(t *testing.T) {
	s := newSession(t, testImporter)
	runCases(t, s, []cellCase{
		{src: "import (\"fmt\"; \"maps\"; \"slices\")\na := []int{3, 1, 2}\nm := map[string]int{\"b\": 2, \"a\": 1}"},
		{src: "b := slices.Clone(a)\nb[0] = 9\nfmt.Sprint(a, b)", want: "[3 1 2] [9 1 2]", inSrc: "var b []int; b = slices.Clone[int](a)"},
		{src: "b", want: "[9 1 2]"},
		{src: "var c = slices.Clone(a)\nc", want: "[3 1 2]", inSrc: "var c []int; c = slices.Clone[int](a)"},
		{src: "var d []int = slices.Clone(a)\nlen(d)", want: "3", inSrc: "var d []int; d = slices.Clone[int](a)"},
		{src: "mx := slices.Max(a) + 1\nmx", want: "4"},
		{src: "i, ok := slices.BinarySearch([]int{1, 2, 3}, 2)\nfmt.Sprint(i, ok)", want: "1 true", inSrc: "var i int; var ok bool; i, ok = "},
		{src: "p, q := slices.Max(a), 3\np * q", want: "9"},
		{src: "keys := slices.Sorted(maps.Keys(m))\nkeys", want: "[a b]"},
		{src: "cl := maps.Clone(m)\ncl[\"c\"] = 3\nfmt.Sprint(len(cl), len(m))", want: "3 2"},
		{src: "var e, f = slices.Min(a), slices.Max(a)\ne + f", want: "4"},
		// Redefinition of a global with another type, and of an existing
		// variable of the cell next to a new one.
		{src: "b := slices.Max(a)\nb", want: "3"},
		// A value that uses the global it replaces.
		{src: "a := slices.Clone(a)\na = append(a, 4)\nlen(a)", want: "4", inSrc: "a = slices.Clone[int](a)"},
		{src: "a, n := slices.Clone(a[:3]), len(a)\nfmt.Sprint(a, n)", want: "[3 1 2] 4", inSrc: "__ngD"},
		{src: "err := fmt.Errorf(\"x\")\nk, err := slices.Max(a), fmt.Errorf(\"y\")\nfmt.Sprint(k, err)", want: "3 y"},
		// min and max are generic functions in the interpreter.
		{src: "mn := min(a[0], 2)\nmn", want: "2", inSrc: "var mn int; mn = min[int](a[0], 2)"},
		// A group of var declarations becomes statements.
		{src: "var (\n\tp = slices.Max(a)\n\tq = 2\n\tw int\n)\np + q + w", want: "5", inSrc: "var p int; p = slices.Max[int](a)"},
		// A top-level range over a generic call's result.
		{src: "t := 0\nfor i := range slices.Max(a) { t += i }\nt", want: "3", inSrc: "var __ngN"},
		{src: "t := 0\nfor range max(2, len(a)) { t++ }\nt", want: "3"},
		// (yaegi lets a top-level loop variable overwrite a global of the
		// same name, whatever the loop.)
		{src: "i := \"a string\"\nt := 0\nfor i := range slices.Max(a) { t += i }\nt", want: "3"},
		{src: "var j int\nfor j = range slices.Max(a) {}\nj", want: "2"},
		// Not at top level: left alone.
		{src: "func cl2() []int { r := slices.Clone(a); return r }\nlen(cl2())", want: "3", inSrc: "r := slices.Clone[int](a)"},
		// A type that cannot be written (unexported in its package): left
		// alone, as yaegi fails on it anyway.
		{src: "func Id[T any](x T) T { return x }\nv := Id(3)\nv", want: "3"},
	})
}

func TestBuiltinsMinMaxClear(t *testing.T) {
	s := newSession(t, testImporter)
	runCases(t, s, []cellCase{
		{src: "import (\"fmt\"; \"math\")\nx := 1.5\nn := 4"},
		{src: "min(x, 2.5)", want: "1.5", inSrc: "min[float64](x, 2.5)"},
		{src: "min(2.5, x)", want: "1.5"},
		{src: "max(1, x)", want: "1.5", inSrc: "max[float64](1, x)"},
		{src: "max(1, 2)", want: "2"},
		{src: "max(1, 2.5)", want: "2.5"},
		{src: "fmt.Sprintf(\"%T %v %v\", max(3, 2.5), max(3, 2.5), min(3, 2.5))", want: "float64 3 2.5"},
		{src: "const c = max(1, 2.5)\nvar f32 float32 = c\nf32", want: "2.5"},
		{src: "const k = min(3, 2) * 10\nk", want: "20"},
		{src: "var f float32 = max(1, 2.5)\nfmt.Sprintf(\"%T %v\", f, f)", want: "float32 2.5"},
		{src: "const r = max('a', 98)\nfmt.Sprintf(\"%T %v\", r, r)", want: "int32 98"},
		{src: "min(\"b\", \"a\")", want: "a"},
		{src: "s := \"b\"\nmax(s, \"a\", \"c\")", want: "c"},
		{src: "max(n, 7, 2)", want: "7"},
		{src: "type Celsius float64\nvar tc Celsius = 20\nfmt.Sprintf(\"%.1f\", float64(max(tc, 21.5)))", want: "21.5"},
		{src: "fmt.Sprint(min(math.NaN(), 1), max(1, math.Inf(1)))", want: "NaN +Inf"},
		{src: "func lo(a, b int) int { return min(a, b) }\nlo(5, 3)", want: "3"},
		// clear
		{src: "xs := []int{1, 2}\nclear(xs)\nxs", want: "[0 0]", inSrc: "__ngClearSlice[int](xs)"},
		{src: "type IDs []string\nids := IDs{\"a\"}\nclear(ids)\nlen(ids[0])", want: "0"},
		{src: "mm := map[string]int{\"a\": 1}\nclear(mm)\nlen(mm)", want: "0", inSrc: "__ngClearMap[string, int](mm)"},
		{src: "func reset(m map[int]bool) int { clear(m); return len(m) }\nreset(map[int]bool{1: true})", want: "0"},
		// A cell's own min shadows the builtin.
		{src: "func min(a, b int) int { return 42 }\nmin(1, 2)", want: "42"},
	})
}

func TestRedeclaredTypes(t *testing.T) {
	s := newSession(t, testImporter)
	runCases(t, s, []cellCase{
		{src: "import (\"fmt\"; \"slices\")"},
		{src: "type T struct{ A int }\nfunc f() T { return T{7} }\nfunc (t T) Sum() int { return t.A }\nt0 := f()\nts := []T{{1}}"},
		{src: "type U struct{ t T }\ntype E struct{ T; X int }"},
		// A type redeclared with a new field, then used in a literal.
		{src: "type T struct{ A, B int }", inSrc: "type T__ng"},
		{src: "T{1, 2}", want: "{1 2}"},
		// Earlier functions and values keep the old type and its methods.
		{src: "fmt.Sprint(f(), t0, t0.Sum(), len(ts))", want: "{7} {7} 7 1"},
		// Methods of later cells attach to the new type.
		{src: "func (t T) Sum() int { return t.A + t.B }\nT{1, 2}.Sum()", want: "3"},
		// Re-running the same declaration keeps the type (and its methods).
		{src: "type T struct{ A, B int }\nT{3, 4}.Sum()", want: "7"},
		{src: "type T struct {\n\tA, B int // a comment\n}\nT{3, 5}.Sum()", want: "8"},
		// A third definition, with a method in the same cell and a
		// function declared before it.
		{src: "func mk() T { return T{1, 2, 3} }\ntype T struct{ A, B, C int }\nfunc (t T) Sum() int { return t.A + t.B + t.C }\nmk().Sum()", want: "6"},
		// A type of an earlier cell referring to T changes when re-run.
		{src: "type U struct{ t T }\nU{T{1, 2, 3}}.t.C", want: "3"},
		{src: "type E struct{ T; X int }\nE{T{1, 2, 3}, 4}.T.C", want: "3"},
		// Declarations before the type, with rewrites in their bodies.
		{src: "func First[X any](xs []X) X { return xs[0] }"},
		{src: "func f4() int { return First([]T{{1, 2, 3, 4}}).C }\ntype T struct{ A, B, C, D int }\nfunc f5() T { var x T; for v := range slices.Values([]T{{1, 2, 3, 5}}) { x = v }; return x }\nfmt.Sprint(f4(), f5().D)", want: "3 5"},
		// Locals, fields and other packages' names are not renamed.
		{src: "type T struct{ A, B, C, D, E int }\nfunc g2() int { T := 5; return T }\ntype W struct{ T int; U T }\ng2() + W{1, T{E: 2}}.U.E", want: "7"},
		{src: "import \"time\"\ntype Time struct{ S string }"},
		{src: "type Time struct{ S string; At time.Time }\nfunc (t Time) Year() int { return t.At.Year() }\nTime{\"x\", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}.Year()", want: "2024", inSrc: "At time.Time }; type Time = Time__ng"},
		// Self-reference.
		{src: "type N struct{ V int; Next *N }\nN{1, &N{2, nil}}.Next.V", want: "2"},
		{src: "type N struct{ V, W int; Next *N }\nN{1, 2, &N{3, 4, nil}}.Next.W", want: "4"},
		// Types of one cell referring to each other.
		{src: "type A struct{ b *B }\ntype B struct{ X int }"},
		{src: "type A struct{ b *B }\ntype B struct{ X, Y int }\nA{&B{1, 2}}.b.Y", want: "2"},
		{src: "type A struct{ b *B }\ntype B struct{ X, Y int }\nA{&B{3, 4}}.b.Y", want: "4"},
		// In a group, with a field named like the type.
		{src: "type (\n\tG struct{ T int }\n\tH int\n)"},
		{src: "type (\n\tG struct{ T, U int }\n\tH string\n)\nfmt.Sprint(G{1, 2}.U, H(\"h\"))", want: "2h"},
		// Another underlying type, an alias, and back.
		{src: "type K int\nfunc (k K) Twice() K { return 2 * k }\nK(2).Twice()", want: "4"},
		{src: "type K float64\nfunc (k K) Twice() K { return 2 * k }\nK(1.5).Twice()", want: "3"},
		{src: "type K = string\nK(\"s\")", want: "s"},
		{src: "type K struct{ S string }\nK{\"x\"}.S", want: "x"},
		// Generic types are redeclared by yaegi itself.
		{src: "type L[X any] struct{ v X }"},
		{src: "type L[X any] struct{ v, w X }\nL[int]{1, 2}.w", want: "2"},
	})
	// A cell whose declaration ran but that failed later was not
	// committed: the next definition still gets a fresh name.
	if o := s.run("type P struct{ A int }\nP{1, 2}"); !o.failed {
		t.Fatalf("want a failure: %v", o.err)
	}
	runCases(t, s, []cellCase{{src: "type P struct{ A, B int }\nP{1, 2}", want: "{1 2}"}})
	// The context keeps the old types for the old values.
	ctx := s.f.Context()
	for _, want := range []string{"func f() T__ngctx", "var ts = []T__ngctx", "func (t T__ngctx", "type U__ng"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("context lacks %q:\n%s", want, ctx)
		}
	}
	if d := s.f.Diagnose("t0.Sum() + T{1, 2, 3, 4, 5}.E"); d != nil {
		t.Errorf("Diagnose: %v", d)
	}
}

func TestDiagnose(t *testing.T) {
	s := newSession(t, testImporter)
	s.ok("import (\"fmt\"; \"iter\"; \"slices\"; \"strings\")", "x := 1", "func f() int { return x }", "type T struct{ A int }")
	// Cells that the interpreter runs: Diagnose reports nothing.
	for _, src := range []string{
		"x := 2",
		"x := 3\nx := 4\nx",
		"y := 5",
		"f() + x",
		"import \"os\"",
		"z := 3\nfunc g() int { return z }",
		"min(1, 2.5) + max(x, 3)",
		"m := map[int]int{}\nclear(m)",
		"s := []int{2, 1}\nslices.Sort(s)\ns",
		"var sq iter.Seq[string] = strings.SplitSeq(\"a,b\", \",\")\nslices.Collect(sq)",
		"type T struct{ A, B int }\nT{1, 2}",
		"fmt.Println(\"hi\")",
		"L:\nfor {\n\tbreak L\n}",
	} {
		o := s.run(src)
		if o.err != nil {
			t.Errorf("cell %q: %v%s", src, o.err, dumpProgram(o.p))
			continue
		}
		if d := s.f.Diagnose(src); d != nil {
			t.Errorf("Diagnose(%q) = %v, want nothing", src, d)
		}
	}
	// Cells that fail: Diagnose says why, at the cell's line:col.
	for _, c := range []struct{ src, want string }{
		{"y := undefined + 1", "1:6: undefined: undefined"},
		{"a := 1\nvar s string = a", "2:16: cannot use a (variable of type int) as string value in variable declaration"},
		{"T{1, 2, 3}", "1:9: too many values in struct literal of type T"},
		{"slices.Sort(3)", "1:1: in call to slices.Sort, cannot infer E"},
		{"func h() int {\n\treturn \"s\"\n}", "2:9: cannot use \"s\" (untyped string constant) as int value in return statement"},
		{"x := := 1", "1:6: expected operand, found ':='"},
	} {
		o := s.run(c.src)
		if o.err == nil {
			t.Errorf("cell %q ran", c.src)
		}
		d := s.f.Diagnose(c.src)
		if len(d) == 0 || d[0].Error() != c.want {
			t.Errorf("Diagnose(%q) = %v, want %s (yaegi: %v)", c.src, d, c.want, o.err)
		}
		if o.failed && c.src == "y := undefined + 1" {
			msg := o.err.Error()
			if i := strings.Index(msg, ": "); i >= 0 {
				msg = msg[i+2:]
			}
			if !Unhelpful(msg) {
				t.Errorf("yaegi's %q is not flagged unhelpful", msg)
			}
		}
	}
	// Diagnose does not change the Front.
	before := s.f.Context()
	s.f.Diagnose("type Q struct{}\nvar q Q")
	if s.f.Context() != before {
		t.Error("Diagnose changed the context")
	}
}

func TestUnhelpful(t *testing.T) {
	for msg, want := range map[string]bool{
		"constant definition loop":                 true,
		"variable definition loop":                 true,
		"CFG post-order panic: nil reflect type":   true,
		"undefined: x":                             false,
		"too many values in struct literal":        false,
		"cannot use type *main.T as type struct {": true,
	} {
		if got := Unhelpful(msg); got != want {
			t.Errorf("Unhelpful(%q) = %v", msg, got)
		}
	}
}

func TestBlankInTopLevelDefine(t *testing.T) {
	s := newSession(t, nil)
	runCases(t, s, []cellCase{
		{src: "import (\n\t\"errors\"\n\t\"fmt\"\n)"},
		{src: "_, ngErr := fmt.Sscan(\"1\", new(int))\nngErr == nil", want: "true", inSrc: "__ngBlank"},
		{src: "_ = errors.New(\"x\")\n_ = 3.5\n\"ok\"", want: "ok"},
		{src: "_, b := 2, 3\nb", want: "3"},
		{src: "_ = \"now a string\"\nb", want: "3"},
	})
}

func TestTupleDefineInTopLevelBlock(t *testing.T) {
	s := newSession(t, nil)
	runCases(t, s, []cellCase{
		{src: "import \"strconv\"\nxs := []int{1, 2}"},
		{src: "for b := range xs {\n\tp, err := strconv.Atoi(\"3\")\n\t_ = err\n\txs[b] = p + b\n}\nxs", want: "[3 4]", inSrc: "func() {"},
		{src: "if q, err := strconv.Atoi(\"5\"); err == nil {\n\txs[0] = q\n}\nxs", want: "[5 4]"},
		{src: "switch {\ndefault:\n\tvar u, v = 7, 8\n\txs[0], xs[1] = u, v\n}\nxs", want: "[7 8]"},
	})
}

func TestReturnBuiltinResult(t *testing.T) {
	s := newSession(t, testImporter)
	// yaegi v0.16.1 stores a builtin call's value in the first result's
	// slot when it is a later result of a return statement.
	runCases(t, s, []cellCase{
		{src: "import \"fmt\""},
		{src: "func Stats(xs []float64) ([]float64, int) { return xs, len(xs) }", inSrc: "return xs, (len(xs))"},
		{src: "func use() int { _, n := Stats([]float64{1, 2}); return n }\nuse()", want: "2"},
		{src: "func use2() int { xs, _ := Stats([]float64{1, 2, 3}); return len(xs) }\nuse2()", want: "3"},
		{src: "_, top := Stats(nil)\ntop", want: "0"},
		{src: "func pair(m map[int]int) (int, int) { return 7, len(m) }\nfmt.Sprint(pair(map[int]int{1: 1}))", want: "7 1"},
		{src: "func grow(xs []int) ([]int, []int) { return xs, append(xs, 3) }\nfmt.Sprint(grow([]int{1}))", want: "[1] [1 3]"},
		{src: "func mk() (string, []int, int) { xs := make([]int, 2); return \"a\", make([]int, 1), copy(xs, []int{4, 5}) }\nfmt.Sprint(mk())", want: "a[0] 2"},
		{src: "f := func(s string) (string, int) { return s, cap([]byte(s)[:0]) }\n_, c := f(\"ab\")\nc >= 0", want: "true"},
		{src: "func lo(xs []int) (int, int) { return 9, min(len(xs), 5) }\nfmt.Sprint(lo([]int{1}))", want: "9 1"},
		// In a range-over-func body, whose returns are rewritten too.
		{src: "import \"slices\"\nfunc find(xs []int) ([]int, int) { for i, v := range slices.All(xs) { if v > 1 { return xs, len(xs[:i]) } }; return nil, cap(xs) }\nfmt.Sprint(find([]int{1, 2, 3}))", want: "[1 2 3] 1"},
	})
}

func TestTupleDefineGlobals(t *testing.T) {
	s := newSession(t, testImporter)
	// yaegi v0.16.1 gives globals defined by "a, b := f()" a storage that
	// functions called from other functions or closures do not see.
	runCases(t, s, []cellCase{
		{src: "import (\"bytes\"; \"fmt\"; \"os\"; \"strconv\")"},
		{src: "n, err := strconv.Atoi(\"3\")\nfunc get() int { return n }\nfunc outer() int { return get() }\nouter()", want: "3", inSrc: "var n int; var err error; n, err = strconv.Atoi(\"3\")"},
		{src: "func() int { return get() }()", want: "3"},
		{src: "func outer2() int { return get() }\nouter2()", want: "3"},
		{src: "func mk() (*bytes.Buffer, error) { return bytes.NewBufferString(\"x\"), nil }"},
		{src: "buf, err := mk()\nfunc gb() string { return buf.String() }\nfunc ob() string { return gb() }\nob()", want: "x", inSrc: "var buf *bytes.Buffer;"},
		{src: "fi, _ := os.Stat(\".\")\nfunc gf() bool { return fi.IsDir() }\nfunc() bool { return gf() }()", want: "true", inSrc: "var fi os.FileInfo; fi, _ = os.Stat"},
		{src: "var m2, e2 = strconv.Atoi(\"5\")\nfunc g2() int { return m2 }\nfmt.Sprint(func() int { return g2() }(), e2)", want: "5 <nil>", inSrc: "var m2 int; var e2 error; m2, e2 = "},
		// A redefinition (a new variable, as for "n := 7" in yaegi).
		{src: "n, err2 := strconv.Atoi(\"7\")\nfunc g3() int { return n }\nfmt.Sprint(func() int { return g3() }(), err2)", want: "7 <nil>"},
		// Comma-ok forms ("nil type" panics in yaegi).
		{src: "m := map[string]int{\"a\": 1}\nvar iv any = 2.5\nch := make(chan int, 1)\nch <- 6"},
		{src: "v, ok := m[\"a\"]\nfunc g4() int { return v }\nfmt.Sprint(func() int { return g4() }(), ok)", want: "1 true", inSrc: "var v int; var ok bool; v, ok = m["},
		{src: "fv, ok := iv.(float64)\nfunc g5() float64 { return fv }\nfunc() float64 { return g5() }()", want: "2.5"},
		{src: "r, ok := <-ch\nfunc g6() int { return r }\nfunc() int { return g6() }()", want: "6"},
		// Types that cannot be written: left alone.
		{src: "type pt struct{ X int }\nfunc mkp() (*pt, error) { return &pt{2}, nil }\np, _ := mkp()\np.X", want: "2"},
	})
}

func TestVarDeclOfGlobals(t *testing.T) {
	s := newSession(t, testImporter)
	// yaegi v0.16.1 fails on a top-level var declaration whose value uses
	// a global of an earlier Eval ("variable definition loop").
	runCases(t, s, []cellCase{
		{src: "import \"strings\"\nbase := 4\nvar gb = 5\nfunc dbl(x int) int { return 2 * x }\ntype T struct{ A int }"},
		{src: "var x = dbl(base)\nx", want: "8", inSrc: "x := dbl(base)"},
		{src: "var x1 = base\nx1", want: "4"},
		{src: "var x2 float64 = float64(gb) / 2\nx2", want: "2.5", inSrc: "var x2 float64; x2 = float64(gb) / 2"},
		{src: "var x3 = strings.Repeat(\"a\", base)\nfunc f3() string { return x3 }\nfunc() string { return f3() }()", want: "aaaa"},
		{src: "var (\n\tx4 = T{base}\n\tx5 int\n\tx6 = []int{gb}\n)\nx4.A + x5 + x6[0]", want: "9"},
		{src: "var x7 = func() int { return base }()\nvar x8 = x7 + 1\nx8", want: "5"},
		{src: "k := 2\nvar x9 = k * 3\nx9", want: "6"},
		// Values without globals stay declarations.
		{src: "var c1 = 3\nvar c2 = c1 + 1\nc2", want: "4", inSrc: "var c2 = c1 + 1"},
	})
}

func TestIndexOfCompiledValueDefines(t *testing.T) {
	s := newSession(t, testImporter)
	// yaegi v0.16.1 fails on a global defined from an index expression
	// whose operand is a global holding a value from compiled code
	// ("constant definition loop"; a nil pointer panic with "+ 0"): such
	// definitions are declared first, then assigned.
	runCases(t, s, []cellCase{
		{src: "import \"image\"\nres := &image.RGBA{Pix: []uint8{7, 8, 9}, Stride: 3}\np := res.Pix"},
		{src: "x := res.Pix[len(res.Pix)-1]\nx", want: "9", inSrc: "var x uint8; x = res.Pix["},
		{src: "y := p[0]\ny", want: "7"},
		{src: "z := int(res.Pix[1]) + 0\nz", want: "8"},
		{src: "var w = res.Pix[1:]\nw", want: "[8 9]"},
		// an index inside a function literal alone does not trigger it
		{src: "f := func() uint8 { return res.Pix[0] }\nf()", want: "7"},
	})
}
