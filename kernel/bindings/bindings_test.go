package bindings

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// newInterp returns an interpreter with every binding installed.
func newInterp(t *testing.T, stdout *bytes.Buffer) *interp.Interpreter {
	t.Helper()
	opts := interp.Options{Unrestricted: true}
	if stdout != nil {
		opts.Stdout = stdout
	}
	i := interp.New(opts)
	if err := Use(i); err != nil {
		t.Fatalf("Use: %v", err)
	}
	return i
}

// run evaluates the steps of a cell in order (imports must be evaluated
// on their own, as the kernel does) and returns the value of the last one.
func run(i *interp.Interpreter, steps []string) (res string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	var v reflect.Value
	for _, s := range steps {
		if v, err = i.Eval(s); err != nil {
			return "", fmt.Errorf("%s: %w", s, err)
		}
	}
	if !v.IsValid() {
		return "<no value>", nil
	}
	if v.CanInterface() {
		return fmt.Sprint(v.Interface()), nil
	}
	return v.String(), nil
}

type cell struct {
	name  string
	steps []string
	want  string
}

func runCells(t *testing.T, cells []cell) {
	t.Helper()
	for _, c := range cells {
		t.Run(c.name, func(t *testing.T) {
			got, err := run(newInterp(t, nil), c.steps)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestStdlib(t *testing.T) {
	runCells(t, []cell{
		{"strings", []string{`import "strings"`, `strings.ToUpper("a")`}, "A"},
		{"fmt", []string{`import "fmt"`, `fmt.Sprintf("%03d|%v", 7, []string{"x"})`}, "007|[x]"},
		{"math", []string{`import "math"`, `math.Sqrt(2) * math.Sqrt(2) > 1.999`}, "true"},
		{"sort", []string{`import "sort"`, `s := []string{"b", "a"}; sort.Strings(s); s`}, "[a b]"},
		{"bytes.Buffer", []string{`import "bytes"`, `var b bytes.Buffer`, `b.WriteString("hi"); b.Len()`}, "2"},
		{"time", []string{`import "time"`, `(90 * time.Second).String()`}, "1m30s"},
		{"encoding/json", []string{`import "encoding/json"`, `b, _ := json.Marshal(map[string]int{"a": 1}); string(b)`}, `{"a":1}`},
		{"regexp", []string{`import "regexp"`, `regexp.MustCompile("a+b").MatchString("xaab")`}, "true"},
		{"os", []string{`import "os"`, `os.DevNull`}, os.DevNull},
		{"stringer from a cell", []string{
			`import "fmt"`,
			`type T int`,
			`func (T) String() string { return "tee" }`,
			`fmt.Sprint(T(1))`,
		}, "tee"},
	})
}

// Standard library API newer than yaegi's bundled Go 1.22 symbols.
func TestNewStdlibAPI(t *testing.T) {
	runCells(t, []cell{
		{"math/rand/v2", []string{`import "math/rand/v2"`, `r := rand.New(rand.NewPCG(1, 2)); n := r.IntN(10); n >= 0 && n < 10`}, "true"},
		{"strings.SplitSeq (1.24)", []string{
			`import "strings"`,
			`var got []string`,
			`strings.SplitSeq("a,b,c", ",")(func(s string) bool { got = append(got, s); return true }); got`,
		}, "[a b c]"},
		{"strings.Lines + slices.Collect (1.24, 1.23)", []string{
			`import "strings"`, `import "slices"`,
			`slices.Collect[string](strings.Lines("x\ny\n"))`,
		}, "[x\n y\n]"},
		{"crypto/sha3 (1.24)", []string{`import "crypto/sha3"`, `import "fmt"`, `fmt.Sprintf("%x", sha3.Sum256([]byte("")))[:8]`}, "a7ffc6f8"},
		{"sync.WaitGroup.Go (1.25)", []string{
			`import "sync"`,
			`func f() int { var wg sync.WaitGroup; var mu sync.Mutex; n := 0; for k := 0; k < 4; k++ { wg.Go(func() { mu.Lock(); n++; mu.Unlock() }) }; wg.Wait(); return n }`,
			`f()`,
		}, "4"},
		{"os.OpenRoot (1.24)", []string{`import "os"`, `r, err := os.OpenRoot(os.TempDir()); r != nil && err == nil`}, "true"},
		{"time.Time methods", []string{`import "time"`, `time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC).AddDate(1, 0, 0).Format(time.DateOnly)`}, "2025-03-01"},
	})
}

func TestGenerics(t *testing.T) {
	runCells(t, []cell{
		{"slices.Sort", []string{`import "slices"`, `s := []int{3, 1, 2}; slices.Sort(s); s`}, "[1 2 3]"},
		{"slices.Sort floats with NaN", []string{`import "slices"`, `import "math"`, `s := []float64{3, math.NaN(), 1}; slices.Sort(s); s`}, "[NaN 1 3]"},
		{"slices.Sort named type", []string{`import "slices"`, `type IS []int`, `s := IS{3, 1, 2}; slices.Sort(s); s`}, "[1 2 3]"},
		{"slices.SortFunc structs", []string{
			`import "slices"`,
			`type P struct{ N string; A int }`,
			`ps := []P{{"b", 2}, {"a", 1}}; slices.SortFunc(ps, func(x, y P) int { return x.A - y.A }); ps`,
		}, "[{a 1} {b 2}]"},
		{"slices.SortStableFunc", []string{`import "slices"`, `import "strings"`, `s := []string{"b", "a"}; slices.SortStableFunc(s, strings.Compare); s`}, "[a b]"},
		{"slices.Max", []string{`import "slices"`, `slices.Max([]float64{1, 3, 2})`}, "3"},
		{"slices.Min", []string{`import "slices"`, `slices.Min([]string{"b", "a"})`}, "a"},
		{"slices.MaxFunc", []string{`import "slices"`, `slices.MaxFunc([]int{1, 3, 2}, func(a, b int) int { return a - b })`}, "3"},
		{"slices.Contains", []string{`import "slices"`, `slices.Contains([]string{"a", "b"}, "b")`}, "true"},
		{"slices.Index", []string{`import "slices"`, `slices.Index([]int{3, 1, 2}, 1)`}, "1"},
		{"slices.IndexFunc", []string{`import "slices"`, `slices.IndexFunc([]int{1, 2}, func(x int) bool { return x == 2 })`}, "1"},
		{"slices.Equal", []string{`import "slices"`, `slices.Equal([]int{1, 2}, []int{1, 2})`}, "true"},
		{"slices.Compare", []string{`import "slices"`, `slices.Compare([]int{1}, []int{1, 0})`}, "-1"},
		{"slices.Reverse", []string{`import "slices"`, `s := []int{1, 2, 3}; slices.Reverse(s); s`}, "[3 2 1]"},
		{"slices.Insert", []string{`import "slices"`, `slices.Insert([]int{1, 2}, 1, 8, 9)`}, "[1 8 9 2]"},
		{"slices.Delete", []string{`import "slices"`, `slices.Delete([]int{1, 2, 3, 4}, 1, 3)`}, "[1 4]"},
		{"slices.DeleteFunc", []string{`import "slices"`, `slices.DeleteFunc([]int{1, 2, 3}, func(x int) bool { return x%2 == 1 })`}, "[2]"},
		{"slices.Replace", []string{`import "slices"`, `slices.Replace([]int{1, 2, 3}, 0, 1, 7, 8)`}, "[7 8 2 3]"},
		{"slices.Clone", []string{`import "slices"`, `a := []int{1}`, `var b []int`, `b = slices.Clone(a); b[0] = 2; a[0]`}, "1"},
		{"slices.Compact", []string{`import "slices"`, `slices.Compact([]int{1, 1, 2, 2, 1})`}, "[1 2 1]"},
		{"slices.Concat", []string{`import "slices"`, `slices.Concat([]int{1}, []int{2}, []int{3})`}, "[1 2 3]"},
		{"slices.Repeat", []string{`import "slices"`, `slices.Repeat([]int{1, 2}, 2)`}, "[1 2 1 2]"},
		{"slices.BinarySearch", []string{`import "slices"`, `import "fmt"`, `i, ok := slices.BinarySearch([]int{1, 3, 5}, 3); fmt.Sprint(i, ok)`}, "1 true"},
		{"slices.IsSorted", []string{`import "slices"`, `slices.IsSorted([]int{1, 2, 2})`}, "true"},
		{"slices.Grow", []string{`import "slices"`, `cap(slices.Grow([]int{1}, 10)) >= 11`}, "true"},
		{"slices.Collect(slices.Values)", []string{`import "slices"`, `slices.Collect(slices.Values([]int{4, 5}))`}, "[4 5]"},
		{"slices.Collect explicit, binary iterator", []string{`import "slices"`, `import "strings"`, `slices.Collect[string](strings.SplitSeq("a-b", "-"))`}, "[a b]"},
		{"slices.Chunk", []string{
			`import "slices"`,
			`var out [][]int`,
			`slices.Chunk([]int{1, 2, 3}, 2)(func(c []int) bool { out = append(out, c); return true }); out`,
		}, "[[1 2] [3]]"},
		{"slices.Sorted(maps.Keys)", []string{`import "slices"`, `import "maps"`, `slices.Sorted(maps.Keys(map[string]int{"b": 1, "a": 2}))`}, "[a b]"},
		{"maps.Clone", []string{`import "maps"`, `a := map[string]int{"x": 1}`, `var b map[string]int`, `b = maps.Clone(a); b["x"] = 2; a["x"]`}, "1"},
		{"maps.Copy", []string{`import "maps"`, `m := map[string]int{"a": 1}; maps.Copy(m, map[string]int{"b": 2}); len(m)`}, "2"},
		{"maps.Equal", []string{`import "maps"`, `maps.Equal(map[int]int{1: 1}, map[int]int{1: 1})`}, "true"},
		{"maps.EqualFunc", []string{
			`import "maps"`,
			`maps.EqualFunc(map[string]int{"a": 1}, map[string]float64{"a": 1}, func(x int, y float64) bool { return float64(x) == y })`,
		}, "true"},
		{"maps.DeleteFunc", []string{`import "maps"`, `m := map[int]int{1: 1, 2: 2}; maps.DeleteFunc(m, func(k, v int) bool { return k == 1 }); m`}, "map[2:2]"},
		{"maps.Collect(maps.All)", []string{`import "maps"`, `maps.Collect(maps.All(map[string]int{"a": 1}))`}, "map[a:1]"},
		{"maps.Values", []string{`import "maps"`, `import "slices"`, `slices.Sorted(maps.Values(map[string]int{"a": 2, "b": 1}))`}, "[1 2]"},
		{"cmp.Compare", []string{`import "cmp"`, `cmp.Compare(2, 1)`}, "1"},
		{"cmp.Less", []string{`import "cmp"`, `a, b := 1.5, 2.5; cmp.Less(a, b)`}, "true"},
		{"cmp.Or", []string{`import "cmp"`, `cmp.Or("", "x", "y")`}, "x"},
		{"cmp.Ordered constraint", []string{`import "cmp"`, `func mx[T cmp.Ordered](a, b T) T { if a > b { return a }; return b }`, `mx("a", "b")`}, "b"},
		{"iter.Seq", []string{
			`import "iter"`, `import "slices"`,
			`var s iter.Seq[int] = func(yield func(int) bool) { _ = yield(1) && yield(2) }`,
			`slices.Collect(s)`,
		}, "[1 2]"},
		{"iter.Seq2", []string{
			`import "iter"`, `import "maps"`,
			`var s iter.Seq2[string, int] = func(yield func(string, int) bool) { yield("a", 1) }`,
			`maps.Collect(s)`,
		}, "map[a:1]"},
	})
}

func TestGonum(t *testing.T) {
	runCells(t, []cell{
		{"mat", []string{
			`import "gonum.org/v1/gonum/mat"`, `import "fmt"`,
			`a := mat.NewDense(2, 2, []float64{1, 2, 3, 4})`,
			`var c mat.Dense`, `c.Mul(a, a); fmt.Sprint(a.At(1, 0), c.RawMatrix().Data, mat.Det(a))`,
		}, "3 [7 10 15 22] -2"},
		{"mat.Formatted", []string{`import "gonum.org/v1/gonum/mat"`, `import "fmt"`, `fmt.Sprintf("%v", mat.Formatted(mat.NewVecDense(2, []float64{1, 2}).T()))`}, "[1  2]"},
		{"floats", []string{`import "gonum.org/v1/gonum/floats"`, `floats.Sum([]float64{1, 2, 3.5})`}, "6.5"},
		{"stat", []string{`import "gonum.org/v1/gonum/stat"`, `stat.Mean([]float64{1, 2, 3}, nil)`}, "2"},
		{"stat/distuv", []string{`import "gonum.org/v1/gonum/stat/distuv"`, `distuv.Normal{Mu: 0, Sigma: 1}.CDF(0)`}, "0.5"},
		{"stat/combin", []string{`import "gonum.org/v1/gonum/stat/combin"`, `combin.Binomial(5, 2)`}, "10"},
		{"optimize with a cell function", []string{
			`import "gonum.org/v1/gonum/optimize"`, `import "math"`,
			`p := optimize.Problem{Func: func(x []float64) float64 { return (x[0]-1)*(x[0]-1) + (x[1]+2)*(x[1]+2) }}`,
			`r, err := optimize.Minimize(p, []float64{0, 0}, nil, &optimize.NelderMead{}); err == nil && math.Abs(r.X[0]-1) < 1e-3 && math.Abs(r.X[1]+2) < 1e-3`,
		}, "true"},
		{"integrate", []string{`import "gonum.org/v1/gonum/integrate"`, `integrate.Trapezoidal([]float64{0, 1, 2}, []float64{0, 1, 2})`}, "2"},
		{"diff/fd", []string{`import "gonum.org/v1/gonum/diff/fd"`, `import "math"`, `math.Abs(fd.Derivative(math.Sin, 0, nil)-1) < 1e-6`}, "true"},
		{"interp", []string{
			`import "gonum.org/v1/gonum/interp"`,
			`var pl interp.PiecewiseLinear`, `pl.Fit([]float64{0, 1}, []float64{0, 10}); pl.Predict(0.5)`,
		}, "5"},
		{"graph/simple", []string{
			`import "gonum.org/v1/gonum/graph/simple"`,
			`g := simple.NewUndirectedGraph(); g.SetEdge(g.NewEdge(simple.Node(1), simple.Node(2))); g.Nodes().Len()`,
		}, "2"},
		{"unit", []string{`import "gonum.org/v1/gonum/unit"`, `unit.Length(2).Unit().Value()`}, "2"},
		{"num/dual", []string{`import "gonum.org/v1/gonum/num/dual"`, `dual.Mul(dual.Number{Real: 2, Emag: 1}, dual.Number{Real: 3}).Emag`}, "3"},
		{"blas64", []string{`import "gonum.org/v1/gonum/blas/blas64"`, `blas64.Dot(blas64.Vector{N: 2, Inc: 1, Data: []float64{1, 2}}, blas64.Vector{N: 2, Inc: 1, Data: []float64{3, 4}})`}, "11"},
	})
}

func TestPlotPNG(t *testing.T) {
	runCells(t, []cell{{"line plot to PNG", []string{
		`import "bytes"`,
		`import "fmt"`,
		`import "image/png"`,
		`import "gonum.org/v1/plot"`,
		`import "gonum.org/v1/plot/plotter"`,
		`import "gonum.org/v1/plot/vg"`,
		`import "gonum.org/v1/plot/vg/draw"`,
		`import "gonum.org/v1/plot/vg/vgimg"`,
		`p := plot.New(); p.Title.Text = "test"; p.X.Label.Text = "x"`,
		`l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: 4}}); if err != nil { panic(err) }; p.Add(l)`,
		`c := vgimg.New(4*vg.Inch, 3*vg.Inch); p.Draw(draw.New(c))`,
		`var buf bytes.Buffer`, `if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil { panic(err) }`,
		`img, err := png.Decode(bytes.NewReader(buf.Bytes())); if err != nil { panic(err) }`,
		`b := img.Bounds(); fmt.Sprint(bytes.HasPrefix(buf.Bytes(), []byte("\x89PNG")), b.Dx(), b.Dy())`,
	}, "true 384 288"}}) // vgimg defaults to 96 dpi
}

// Limitations of yaegi v0.16.1 documented in doc.go. If one of these starts
// to work (after a yaegi upgrade), update the package documentation.
func TestKnownYaegiLimitations(t *testing.T) {
	for _, c := range []cell{
		{"top-level := of a generic result", []string{`import "slices"`, `b := slices.Clone([]int{1})`, `b`}, "[1]"},
		{"inference from a compiled iterator", []string{`import "slices"`, `import "strings"`, `slices.Collect(strings.SplitSeq("a-b", "-"))`}, "[a b]"},
		{"range over a function", []string{`import "slices"`, `func f() int { n := 0; for v := range slices.Values([]int{1, 2}) { n += v }; return n }`, `f()`}, "3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := run(newInterp(t, nil), c.steps)
			if err == nil && got == c.want {
				t.Errorf("now works: update the limitations in doc.go and this test")
			}
		})
	}
}

func TestNeurogoPackages(t *testing.T) {
	var cells []cell
	for _, p := range []string{"toolkit", "sim", "train", "accel", "viz", "display"} {
		cells = append(cells, cell{p, []string{`import "github.com/neurogo/neurogo/` + p + `"`, `1 + 1`}, "2"})
	}
	runCells(t, cells)
}

func TestStdoutRedirected(t *testing.T) {
	var out bytes.Buffer
	i := newInterp(t, &out)
	if _, err := run(i, []string{`import "fmt"`, `fmt.Println("hello")`}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "hello\n" {
		t.Fatalf("interpreter stdout got %q", out.String())
	}
}

func TestOSExitUnrestricted(t *testing.T) {
	got := Symbols["os/os"]["Exit"]
	if !got.IsValid() || got.Pointer() != reflect.ValueOf(os.Exit).Pointer() {
		t.Fatal(`Symbols["os/os"]["Exit"] is not os.Exit`)
	}
}

func TestPackages(t *testing.T) {
	pkgs := Packages()
	if !slices.IsSorted(pkgs) {
		t.Error("Packages() is not sorted")
	}
	for _, want := range []string{
		"fmt", "slices", "maps", "cmp", "iter", "math/rand/v2",
		"gonum.org/v1/gonum/mat", "gonum.org/v1/gonum/stat/distuv",
		"gonum.org/v1/plot", "gonum.org/v1/plot/vg/vgimg",
		"github.com/neurogo/neurogo/toolkit",
	} {
		if _, ok := slices.BinarySearch(pkgs, want); !ok {
			t.Errorf("Packages() lacks %q", want)
		}
	}
	for _, p := range pkgs {
		if strings.Contains(p, "internal") || p == "." {
			t.Errorf("Packages() has %q", p)
		}
	}
	if _, ok := Excluded()["unsafe"]; !ok {
		t.Error(`Excluded() does not explain "unsafe"`)
	}
}

// The bindings must come from the Go release that builds them; a different
// release means `go generate ./kernel/bindings/...` was not rerun.
func TestGoVersion(t *testing.T) {
	minor := func(v string) string {
		parts := strings.SplitN(v, ".", 3)
		if len(parts) < 2 {
			return v
		}
		return parts[0] + "." + parts[1]
	}
	if minor(GoVersion) != minor(runtime.Version()) {
		t.Fatalf("bindings generated with %s, built with %s: run go generate ./kernel/bindings/...", GoVersion, runtime.Version())
	}
}
