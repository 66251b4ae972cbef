package cell

import (
	"strings"
	"testing"
	"time"

	"github.com/neurogo/neurogo/kernel/bindings"
)

// benchContext is a moderate notebook context: imports, a few types,
// functions and globals.
var benchContext = []string{
	"import (\"fmt\"; \"math\"; \"sort\"; \"strings\")",
	`type Point struct{ X, Y float64 }
func (p Point) Norm() float64 { return math.Hypot(p.X, p.Y) }
type Dataset struct {
	Name   string
	Points []Point
}
func (d *Dataset) Add(p Point) { d.Points = append(d.Points, p) }
func (d *Dataset) Mean() Point {
	var m Point
	for _, p := range d.Points {
		m.X += p.X
		m.Y += p.Y
	}
	n := float64(len(d.Points))
	return Point{m.X / n, m.Y / n}
}`,
	"func Map[T, U any](s []T, f func(T) U) []U {\n\tr := make([]U, 0, len(s))\n\tfor _, v := range s {\n\t\tr = append(r, f(v))\n\t}\n\treturn r\n}",
	"ds := &Dataset{Name: \"demo\"}\nlimit := 10\nlabels := []string{\"a\", \"b\"}",
}

// benchCell is a 30-line cell that needs no type-check: its loops range
// over literals, len(...) and composite literals.
const benchCell = `xs := []float64{3, 1, 4, 1, 5, 9, 2, 6}
sort.Float64s(xs)
total := 0.0
for i := range len(xs) {
	total += xs[i]
}
mean := total / float64(len(xs))
var sq float64
for _, x := range []float64{1, 2, 3} {
	sq += (x - mean) * (x - mean)
}
std := math.Sqrt(sq / 3)
words := strings.Fields("the quick brown fox")
counts := map[string]int{}
for _, w := range strings.Split("a b a", " ") {
	counts[w]++
}
for k := range 3 {
	words = append(words, fmt.Sprint(k))
}
type pair struct{ k string; v int }
best := pair{}
// find the largest count
_ = len(counts)
for k, v := range map[string]int{"x": 1} {
	if v > best.v {
		best = pair{k, v}
	}
}
fmt.Sprintf("%.2f %.2f %v %v", mean, std, words, best)`

// benchCellTC is the same cell with a range over a global and a generic
// call, which need a type-check.
var benchCellTC = strings.Replace(benchCell, "for k := range 3 {", "for k := range limit {\n\t_ = Map(labels, strings.ToUpper)", 1)

func benchFront(b testing.TB) *Front {
	f := New(testImporter)
	for _, c := range benchContext {
		p, err := f.Prepare(c)
		if err != nil {
			b.Fatal(err)
		}
		f.Commit(p)
	}
	return f
}

func BenchmarkPrepare(b *testing.B) {
	for _, bc := range []struct {
		name, src string
		tc        bool
	}{{"NoTypeCheck", benchCell, false}, {"TypeCheck", benchCellTC, true}} {
		b.Run(bc.name, func(b *testing.B) {
			f := benchFront(b)
			p, err := f.Prepare(bc.src) // warm the importer
			if err != nil || p.TypeChecked != bc.tc {
				b.Fatalf("err=%v TypeChecked=%v", err, p != nil && p.TypeChecked)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := f.Prepare(bc.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPrepareCost checks the cost of Prepare on a 30-line cell stays well
// under a millisecond when no type-check is needed (the limit is loose, the
// machine may be loaded).
func TestPrepareCost(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	if n := strings.Count(benchCell, "\n") + 1; n != 30 {
		t.Fatalf("bench cell has %d lines", n)
	}
	f := benchFront(t)
	if p, err := f.Prepare(benchCell); err != nil || p.TypeChecked {
		t.Fatalf("err=%v TypeChecked=%v", err, p != nil && p.TypeChecked)
	}
	const n = 200
	best := time.Hour
	for range 5 {
		start := time.Now()
		for range n {
			f.Prepare(benchCell)
		}
		best = min(best, time.Since(start)/n)
	}
	t.Logf("Prepare, 30-line cell, no type-check: %v", best)
	if best > 2*time.Millisecond {
		t.Errorf("Prepare took %v", best)
	}
}

// BenchmarkPrepareBigContext measures the type-check path with about 500
// lines of committed declarations.
func BenchmarkPrepareBigContext(b *testing.B) {
	f := benchFront(b)
	for i := range 50 {
		src := strings.ReplaceAll(`type Rec%d struct {
	ID    int
	Name  string
	Score float64
}
func (r Rec%d) Label() string { return fmt.Sprintf("%%d:%%s", r.ID, r.Name) }
func Top%d(rs []Rec%d, n int) []Rec%d {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Score > rs[j].Score })
	if n < len(rs) {
		rs = rs[:n]
	}
	return rs
}`, "%d", strings.Repeat("x", i%5+1)+string(rune('a'+i%26))+string(rune('a'+i/26)))
		p, err := f.Prepare(src)
		if err != nil {
			b.Fatal(err)
		}
		f.Commit(p)
	}
	if p, err := f.Prepare(benchCellTC); err != nil || !p.TypeChecked {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		f.Prepare(benchCellTC)
	}
}

// BenchmarkDiagnose measures Diagnose on the type-checked bench cell.
func BenchmarkDiagnose(b *testing.B) {
	f := benchFront(b)
	f.Diagnose(benchCellTC) // warm the importer
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		f.Diagnose(benchCellTC)
	}
}

// BenchmarkSrcPackages measures the type-check of the interpreted generic
// packages, done once per process.
func BenchmarkSrcPackages(b *testing.B) {
	srcs := bindings.GenericSources()
	b.ReportAllocs()
	for range b.N {
		buildSrcPackages(srcs)
	}
}
