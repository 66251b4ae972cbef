package viz

import (
	"gonum.org/v1/plot"
	"math"
	"strings"
	"testing"
)

// TestCatIntervalClipped: an interval reaching past Bounds is drawn up to
// the bound — a 95 % interval [0.8, 1.39] of an accuracy ends at 1.
func TestCatIntervalClipped(t *testing.T) {
	tests := []struct {
		name           string
		g              BarGroup
		bounds         [2]float64
		wantLo, wantHi float64
	}{
		{"symmetric past 1", BarGroup{Values: []float64{1.095}, Err: []float64{0.295}}, [2]float64{0, 1.2}, 0.8, 1.2},
		{"lower/upper past 1", BarGroup{Values: []float64{0.95}, Lower: []float64{0.8}, Upper: []float64{1.39}}, [2]float64{0, 1}, 0.8, 1},
		{"below 0", BarGroup{Values: []float64{0.05}, Err: []float64{0.1}}, [2]float64{0, 1}, 0, 0.15},
		{"unbounded", BarGroup{Values: []float64{0.95}, Lower: []float64{0.8}, Upper: []float64{1.39}}, [2]float64{}, 0.8, 1.39},
		{"one-sided", BarGroup{Values: []float64{0.5}, Err: []float64{1}}, [2]float64{0, math.Inf(1)}, 0, 1.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := xyBounds(tt.bounds)
			for _, horizontal := range []bool{false, true} {
				m := catMarks(tt.g, 1, 0, 0.8, horizontal, lo, hi, "", false)[0]
				if !m.interval || math.Abs(m.lo-tt.wantLo) > 1e-12 || math.Abs(m.hi-tt.wantHi) > 1e-12 {
					t.Errorf("horizontal %v: interval [%g, %g] (drawn: %v), want [%g, %g]", horizontal, m.lo, m.hi, m.interval, tt.wantLo, tt.wantHi)
				}
			}
		})
	}
	// and the plot's value axis stays within the bound
	p, err := Bar([]string{"a"}, []BarGroup{{Values: []float64{0.95}, Lower: []float64{0.8}, Upper: []float64{1.39}}},
		BarOptions{Bounds: [2]float64{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, n := decodePNG(t, p.PNG()); n == 0 {
		t.Fatal("blank")
	}
}

// TestPointsDodge: identical values of different groups get different
// positions, centred on their category; one group sits on it.
func TestPointsDodge(t *testing.T) {
	for _, g := range []int{1, 2, 3, 5, 12} {
		off := pointsOffsets(g)
		sum := 0.0
		for k := range off {
			sum += off[k]
			if k > 0 && off[k] <= off[k-1] {
				t.Errorf("%d groups: offsets %v do not increase", g, off)
			}
			if math.Abs(off[k]) >= 0.4 {
				t.Errorf("%d groups: offset %g leaves its category", g, off[k])
			}
		}
		if math.Abs(sum) > 1e-12 {
			t.Errorf("%d groups: offsets %v not centred", g, off)
		}
	}
	if off := pointsOffsets(1); off[0] != 0 {
		t.Errorf("one group offset %g, want 0", off[0])
	}
	// two identical points, as the plot computes them
	same := BarGroup{Values: []float64{0.8}}
	off := pointsOffsets(2)
	inf := math.Inf(1)
	a := catMarks(same, 1, off[0], 0, false, -inf, inf, "", false)[0]
	b := catMarks(same, 1, off[1], 0, false, -inf, inf, "", false)[0]
	if a.val != b.val || a.cat == b.cat {
		t.Errorf("identical values at x %g and %g: they hide each other", a.cat, b.cat)
	}
}

// TestBarValueLabels: labels follow Format and write negatives with a
// true minus.
func TestBarValueLabels(t *testing.T) {
	inf := math.Inf(1)
	ms := catMarks(BarGroup{Values: []float64{0.125, -2}}, 2, 0, 0.8, false, -inf, inf, "%.2f", false)
	if ms[0].label != "0.12" && ms[0].label != "0.13" || ms[1].label != "−2.00" {
		t.Errorf("labels %q, %q", ms[0].label, ms[1].label)
	}
}

// TestBarOffsets: grouped bars fill barSlot of their category without
// overlapping.
func TestBarOffsets(t *testing.T) {
	for _, g := range []int{1, 2, 3, 4} {
		off, w := barOffsets(g)
		if math.Abs(w*float64(g)-barSlot) > 1e-12 {
			t.Errorf("%d groups: width %g", g, w)
		}
		for k := 1; k < g; k++ {
			if math.Abs(off[k]-off[k-1]-w) > 1e-12 {
				t.Errorf("%d groups: bars %d and %d overlap or gap: %v", g, k-1, k, off)
			}
		}
		if math.Abs(off[0]-w/2+barSlot/2) > 1e-12 {
			t.Errorf("%d groups: first bar at %g", g, off[0])
		}
	}
}

// TestCatHorizontalOrder: with Horizontal the first category is on top.
func TestCatHorizontalOrder(t *testing.T) {
	inf := math.Inf(1)
	ms := catMarks(BarGroup{Values: []float64{1, 2, 3}}, 3, 0, 0.8, true, -inf, inf, "", false)
	if !(ms[0].cat > ms[1].cat && ms[1].cat > ms[2].cat) {
		t.Errorf("positions %g %g %g, want decreasing", ms[0].cat, ms[1].cat, ms[2].cat)
	}
}

func TestBarPointsBadInput(t *testing.T) {
	cats := []string{"a", "b"}
	ok := []BarGroup{{Values: []float64{1, 2}}}
	tests := []badInput{
		{"no categories", func() (*Plot, error) { return Bar(nil, ok, BarOptions{}) }, []string{"viz.Bar", "categories", "empty"}},
		{"no groups", func() (*Plot, error) { return Points(cats, nil, PointsOptions{}) }, []string{"viz.Points", "groups", "empty"}},
		{"lengths", func() (*Plot, error) { return Bar(cats, []BarGroup{{Values: []float64{1}}}, BarOptions{}) }, []string{"len(groups[0].Values) = 1", "len(categories) (2)"}},
		{"NaN", func() (*Plot, error) { return Bar(cats, []BarGroup{{Values: []float64{1, math.NaN()}}}, BarOptions{}) }, []string{"groups[0].Values[1] = NaN"}},
		{"negative err", func() (*Plot, error) {
			return Points(cats, []BarGroup{{Values: []float64{1, 2}, Err: []float64{0.1, -1}}}, PointsOptions{})
		}, []string{"groups[0].Err[1] = -1", "≥ 0"}},
		{"err and interval", func() (*Plot, error) {
			return Bar(cats, []BarGroup{{Values: []float64{1, 2}, Err: []float64{0, 0}, Lower: []float64{0, 0}, Upper: []float64{3, 3}}}, BarOptions{})
		}, []string{"groups[0].Err", "not both"}},
		{"half interval", func() (*Plot, error) {
			return Bar(cats, []BarGroup{{Values: []float64{1, 2}, Lower: []float64{0, 0}}}, BarOptions{})
		}, []string{"groups[0].Lower/groups[0].Upper", "both"}},
		{"interval misses value", func() (*Plot, error) {
			return Points(cats, []BarGroup{{Values: []float64{1, 2}, Lower: []float64{0.1, 0.1}, Upper: []float64{0.2, 3}}}, PointsOptions{})
		}, []string{"groups[0].Lower[0], groups[0].Upper[0] = [0.1, 0.2]", "must contain Values[0] = 1"}},
		{"value out of bounds", func() (*Plot, error) { return Bar(cats, ok, BarOptions{Bounds: [2]float64{0, 1}}) }, []string{"groups[0].Values[1] = 2", "opts.Bounds [0, 1]"}},
		{"bounds reversed", func() (*Plot, error) { return Points(cats, ok, PointsOptions{Bounds: [2]float64{1, 0}}) }, []string{"opts.Bounds = {1, 0}", "lo < hi"}},
		{"legend", func() (*Plot, error) { return Bar(cats, ok, BarOptions{Legend: "middle"}) }, []string{`opts.Legend = "middle"`, "outside"}},
		{"format", func() (*Plot, error) { return Bar(cats, ok, BarOptions{ValueLabels: true, Format: "%d"}) }, []string{`opts.Format = "%d"`, "float64"}},
	}
	checkBadInput(t, tests)
}

// TestBarPointsRender: every form renders non-blank at its size, and
// the legend names the groups only when there are several.
func TestBarPointsRender(t *testing.T) {
	cats := []string{"channel", "integrator", "oscillator"}
	two := []BarGroup{{Label: "before", Values: []float64{0.5, 0.7, 0.9}, Err: []float64{0.1, 0.1, 0.2}},
		{Label: "after", Values: []float64{0.6, 0.7, 0.95}}}
	one := []BarGroup{{Label: "only", Values: []float64{3, -1, 2}}}
	tests := []struct {
		name       string
		make       func() (*Plot, error)
		has, hasNo []string
	}{
		{"bar grouped", func() (*Plot, error) { return Bar(cats, two, BarOptions{Bounds: [2]float64{0, 1}}) }, []string{"before", "after", "oscillator"}, nil},
		{"bar one group", func() (*Plot, error) { return Bar(cats, one, BarOptions{ValueLabels: true}) }, []string{"−1", "integrator"}, []string{"only"}},
		{"bar horizontal", func() (*Plot, error) {
			return Bar(cats, two, BarOptions{Horizontal: true, ValueLabels: true, Format: "%.2f"})
		}, []string{"0.95", "channel"}, nil},
		{"points", func() (*Plot, error) { return Points(cats, two, PointsOptions{Connect: true}) }, []string{"before", "after"}, nil},
		{"points horizontal", func() (*Plot, error) { return Points(cats, one, PointsOptions{Horizontal: true}) }, []string{"integrator"}, []string{"only"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.make()
			if err != nil {
				t.Fatal(err)
			}
			img, ncolors, nonWhite := decodePNG(t, p.PNG())
			if b := img.Bounds(); nonWhite < b.Dx()*b.Dy()/300 || ncolors < 3 {
				t.Errorf("PNG looks blank: %d non-white pixels, %d colours", nonWhite, ncolors)
			}
			svg := p.SVG()
			for _, s := range tt.has {
				if !strings.Contains(svg, s) {
					t.Errorf("%q missing from the SVG", s)
				}
			}
			for _, s := range tt.hasNo {
				if strings.Contains(svg, ">"+s+"<") {
					t.Errorf("%q in the SVG", s)
				}
			}
		})
	}
}

// TestCatHorizontalAuto: names that would overlap along x put the
// categories down y.
func TestCatHorizontalAuto(t *testing.T) {
	short := []string{"a", "b", "c"}
	long := []string{"communication channel", "integrator", "oscillator", "product", "circular convolution"}
	if catHorizontal(false, short, 0) || !catHorizontal(true, short, 0) {
		t.Error("short names: want vertical unless asked")
	}
	if !catHorizontal(false, long, 0) {
		t.Error("five long names at 640 wide: want horizontal")
	}
	if catHorizontal(false, long, 1600) {
		t.Error("five long names at 1600 wide: want vertical")
	}
}

// TestPointsLogScale: values spanning decades on a log value axis; a
// value ≤ 0 is an error; an interval reaching below 0 ends above it.
func TestPointsLogScale(t *testing.T) {
	groups := []BarGroup{{Label: "neurogo", Values: []float64{2, 30}, Err: []float64{3, 1}},
		{Label: "Nengo", Values: []float64{150, 900}}}
	if _, err := Points([]string{"integrator", "cconv"}, groups, PointsOptions{LogScale: true}); err != nil {
		t.Fatal(err)
	}
	m := catMarks(groups[0], 2, 0, 0, false, math.Inf(-1), math.Inf(1), "", true)[0]
	if !(m.lo > 0) {
		t.Errorf("interval 2 ± 3 on a log scale starts at %g, want > 0", m.lo)
	}
	_, err := Points([]string{"a"}, []BarGroup{{Values: []float64{0}}}, PointsOptions{LogScale: true})
	if err == nil || !strings.Contains(err.Error(), "must be > 0 with opts.LogScale") {
		t.Errorf("value 0 on a log scale: err = %v", err)
	}
}

// TestPointsPadAxis: padding keeps markers off the frame but stays within
// the bounds (one accuracy of 0.1 is not drawn on an axis from −0.9).
func TestPointsPadAxis(t *testing.T) {
	cases := []struct {
		name     string
		min, max float64
		log      bool
		bounds   [2]float64
		lo, hi   float64
	}{
		{"span", 0.2, 0.8, false, [2]float64{}, 0.17, 0.83},
		{"single accuracy", 0.1, 0.1, false, [2]float64{0, 1}, 0.09, 0.11},
		{"near the bound", 0.05, 0.99, false, [2]float64{0, 1}, 0.003, 1.02},
		{"zero", 0, 0, false, [2]float64{}, -1, 1},
	}
	for _, c := range cases {
		ax := plot.Axis{Min: c.min, Max: c.max}
		pointsPadAxis(&ax, c.log, c.bounds)
		if math.Abs(ax.Min-c.lo) > 1e-9 || math.Abs(ax.Max-c.hi) > 1e-9 {
			t.Errorf("%s: [%g, %g] padded to [%g, %g], want [%g, %g]", c.name, c.min, c.max, ax.Min, ax.Max, c.lo, c.hi)
		}
	}
}
