package viz

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestHistIntegerBins: integer data get one bin per integer, centred on
// it; empty integers in range keep their (empty) bin.
func TestHistIntegerBins(t *testing.T) {
	tests := []struct {
		name        string
		values      []float64
		opts        HistogramOptions
		wantCentres []float64
		wantCounts  []float64
	}{
		{"0..4", []float64{0, 1, 1, 2, 4}, HistogramOptions{}, []float64{0, 1, 2, 3, 4}, []float64{1, 2, 1, 0, 1}},
		{"one value", []float64{3, 3}, HistogramOptions{}, []float64{3}, []float64{2}},
		{"negative", []float64{-2, 0, 0}, HistogramOptions{}, []float64{-2, -1, 0}, []float64{1, 0, 2}},
		{"Bins caps the bins: 2 per bin", []float64{0, 1, 2, 3, 4, 5}, HistogramOptions{Bins: 3}, []float64{0.5, 2.5, 4.5}, []float64{2, 2, 2}},
		{"BinWidth in steps", []float64{0, 1, 2, 3, 4, 5}, HistogramOptions{BinWidth: 3}, []float64{1, 4}, []float64{3, 3}},
		{"Step 0.5", []float64{0, 0.5, 0.5, 1.5}, HistogramOptions{Step: 0.5}, []float64{0, 0.5, 1, 1.5}, []float64{1, 2, 0, 1}},
		{"Edges", []float64{0.1, 0.2, 0.7, 2, 5}, HistogramOptions{Edges: []float64{0, 0.5, 2}}, []float64{0.25, 1.25}, []float64{2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			step := tt.opts.Step
			if step == 0 && histIsIntegers(tt.values) {
				step = 1
			}
			edges, err := histEdges("Histogram", tt.values, tt.opts, step)
			if err != nil {
				t.Fatal(err)
			}
			centres := histCentres(edges)
			counts := histCounts(tt.values, edges, false)
			if !near64(centres, tt.wantCentres) || !slices.Equal(counts, tt.wantCounts) {
				t.Errorf("centres %v counts %v, want %v and %v (edges %v)", centres, counts, tt.wantCentres, tt.wantCounts, edges)
			}
		})
	}
}

func near64(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// TestHistLargeIntegerRange: integer data spanning many values get an
// integer bin width (1, 2, 5, 10, … steps), never fractional bins.
func TestHistLargeIntegerRange(t *testing.T) {
	var v []float64
	for i := 0; i <= 1000; i += 7 {
		v = append(v, float64(i))
	}
	edges, err := histEdges("Histogram", v, HistogramOptions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	w := edges[1] - edges[0]
	if w != math.Trunc(w) || w < 2 || len(edges)-1 > 40 {
		t.Errorf("bin width %g, %d bins: want a whole width and at most 40 bins", w, len(edges)-1)
	}
	if edges[0] > 0 || edges[len(edges)-1] < v[len(v)-1] {
		t.Errorf("edges %g..%g do not cover 0..%g", edges[0], edges[len(edges)-1], v[len(v)-1])
	}
}

// TestHistContinuous: other data get Bins equal bins over their range
// and the densities integrate to 1.
func TestHistContinuous(t *testing.T) {
	v := []float64{0.1, 0.25, 0.3, 0.95, 1.3}
	edges, _ := histEdges("Histogram", v, HistogramOptions{Bins: 4}, 0)
	if len(edges) != 5 || edges[0] != 0.1 || edges[4] != 1.3 {
		t.Fatalf("edges %v", edges)
	}
	if e, _ := histEdges("Histogram", []float64{0.05, 0.05}, HistogramOptions{}, 0); len(e) != 2 || !(e[0] < 0.05 && e[1] > 0.05 && e[0] > 0) {
		t.Errorf("one value 0.05: edges %v, want one bin around it", e)
	}
	d := histCounts(v, edges, true)
	area := 0.0
	for b := range d {
		area += d[b] * (edges[b+1] - edges[b])
	}
	if math.Abs(area-1) > 1e-12 {
		t.Errorf("density area %g, want 1", area)
	}
}

// TestHistStep: the common step of whole-frame times is found, also from
// float arithmetic; data without one give 0.
func TestHistStep(t *testing.T) {
	frames := make([]float64, 50)
	for i := range frames {
		frames[i] = float64(i%7) * 0.001 // 0.001·k has rounding errors
	}
	tests := []struct {
		name   string
		values []float64
		want   float64
	}{
		{"frames of 1 ms", frames, 0.001},
		{"whole frames", []float64{0, 1, 1, 2, 4}, 1},
		{"gcd of gaps", []float64{0.02, 0.05, 0.11}, 0.01},
		{"offset grid is not a step", []float64{0.015, 0.025}, 0.005},
		{"continuous", []float64{0.0513, 0.0721, 0.0332, 0.0901}, 0},
		{"too fine to be frames", []float64{0, 0.0001, 1}, 0},
		{"one value", []float64{0.2, 0.2}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := histStep(tt.values); math.Abs(got-tt.want) > 1e-9*math.Max(tt.want, 1e-3) {
				t.Errorf("step %g, want %g", got, tt.want)
			}
		})
	}
}

// TestResponseTimeHistogramsForms: whole-frame times are binned per
// frame; up to four classes overlay, more become small multiples at most
// 960 wide.
func TestResponseTimeHistogramsForms(t *testing.T) {
	times := func(classes int) [][]float64 {
		ts := make([][]float64, classes)
		for k := range ts {
			for i := 0; i < 20; i++ {
				ts[k] = append(ts[k], float64((i+k)%5)*0.001)
			}
		}
		return ts
	}
	p, err := ResponseTimeHistograms(times(4), []string{"a", "b", "c", "d"}, HistogramOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := p.Size(); w != DefaultWidth || h != DefaultHeight {
		t.Errorf("4 classes: %g×%g, want the default size (one axes)", w, h)
	}
	svg := p.SVG()
	for _, s := range []string{"0.000", "0.001", "0.004", ">d<"} { // ticks at the frames, legend
		if !strings.Contains(svg, s) {
			t.Errorf("4 classes: %q missing", s)
		}
	}
	p, err = ResponseTimeHistograms(times(10), nil, HistogramOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w, _ := p.Size(); w > 960 {
		t.Errorf("10 classes: %g wide, want ≤ 960", w)
	}
	svg = p.SVG()
	for _, s := range []string{"class 0", "class 9"} {
		if !strings.Contains(svg, s) {
			t.Errorf("10 classes: panel title %q missing", s)
		}
	}
	_, ncolors, _ := decodePNG(t, p.PNG())
	if ncolors < 3 {
		t.Errorf("10 classes: PNG has %d colours", ncolors)
	}
}

func TestHistBadInput(t *testing.T) {
	v := []float64{1, 2, 3}
	tests := []badInput{
		{"bins", func() (*Plot, error) { return Histogram(v, HistogramOptions{Bins: -1}) }, []string{"viz.Histogram", "opts.Bins = -1"}},
		{"width", func() (*Plot, error) { return Histogram(v, HistogramOptions{BinWidth: math.NaN()}) }, []string{"opts.BinWidth = NaN"}},
		{"too many bins", func() (*Plot, error) { return Histogram([]float64{0, 1e9}, HistogramOptions{BinWidth: 1}) }, []string{"opts.BinWidth = 1", "bins", "at most 10000"}},
		{"too many continuous bins", func() (*Plot, error) { return Histogram([]float64{0, 1e9 + 0.5}, HistogramOptions{BinWidth: 1}) }, []string{"opts.BinWidth = 1", "at most 10000"}},
		{"bins cap", func() (*Plot, error) { return Histogram(v, HistogramOptions{Bins: 1e6}) }, []string{"opts.Bins = 1000000", "[0, 10000]"}},
		{"step", func() (*Plot, error) { return Histogram(v, HistogramOptions{Step: -1}) }, []string{"opts.Step = -1"}},
		{"edges short", func() (*Plot, error) { return Histogram(v, HistogramOptions{Edges: []float64{1}}) }, []string{"len(opts.Edges) = 1", "≥ 2"}},
		{"edges order", func() (*Plot, error) { return Histogram(v, HistogramOptions{Edges: []float64{0, 2, 2}}) }, []string{"opts.Edges[2] = 2", "increase"}},
		{"edges and width", func() (*Plot, error) {
			return Histogram(v, HistogramOptions{Edges: []float64{0, 1}, BinWidth: 1})
		}, []string{"opts.BinWidth = 1", "opts.Edges"}},
		{"rt legend", func() (*Plot, error) {
			return ResponseTimeHistograms([][]float64{{0.1}}, nil, HistogramOptions{Legend: "center"})
		}, []string{"viz.ResponseTimeHistograms", `opts.Legend = "center"`}},
	}
	checkBadInput(t, tests)
}
