package viz

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// formsSamples are the plot forms of bar.go, hist.go and xy.go on data
// shaped like the tutorials' (models, ablation rows, batch sizes, whole
// frames, measured against ideal, one epoch of training).
func formsSamples() map[string]func() (*Plot, error) {
	rng := rand.New(rand.NewPCG(3, 5))
	return map[string]func() (*Plot, error){
		"bar_models": func() (*Plot, error) {
			return Bar([]string{"communication channel", "integrator", "oscillator", "product"},
				[]BarGroup{
					{Label: "batch 1", Values: []float64{12.1, 15.3, 14.2, 40.5}, Err: []float64{0.4, 0.5, 0.3, 1.2}},
					{Label: "batch 64, per input", Values: []float64{2.1, 2.4, 2.2, 5.9}, Err: []float64{0.1, 0.1, 0.1, 0.3}},
					{Label: "Nengo, serial", Values: []float64{80, 95, 90, 210}},
				}, BarOptions{Frame: Frame{Title: "µs per step and input", YLabel: "µs per step and input"}})
		},
		"bar_accuracy_labels": func() (*Plot, error) {
			return Bar([]string{"rate", "spiking", "spiking + synapse"}, []BarGroup{
				{Label: "before training", Values: []float64{0.62, 0.55, 0.58}, Err: []float64{0.05, 0.06, 0.05}},
				{Label: "after training", Values: []float64{0.97, 0.93, 0.95}, Err: []float64{0.03, 0.05, 0.44}},
			}, BarOptions{Bounds: [2]float64{0, 1}, ValueLabels: true, Format: "%.2f",
				Frame: Frame{Title: "Test accuracy", YLabel: "accuracy"}})
		},
		"bar_ablation_horizontal": func() (*Plot, error) {
			return Bar([]string{"none", "merge only", "merge + plan", "merge + plan + sort", "all (merge, plan, sort, simplify)"},
				[]BarGroup{{Values: []float64{1, 1.8, 2.6, 2.9, 3.4}}},
				BarOptions{Horizontal: true, ValueLabels: true, Format: "%.1f×",
					Frame: Frame{Title: "Graph optimizer ablation", XLabel: "× faster than none"}})
		},
		"points_before_after": func() (*Plot, error) {
			return Points([]string{"25", "50", "100", "200"}, []BarGroup{
				{Label: "before training", Values: []float64{0.4, 0.8, 1, 1}, Lower: []float64{0.3, 0.7, 0.93, 0.95}, Upper: []float64{0.5, 0.88, 1, 1}},
				{Label: "after training", Values: []float64{0.6, 0.8, 1, 1}, Lower: []float64{0.5, 0.7, 0.93, 0.95}, Upper: []float64{0.7, 0.88, 1, 1}},
			}, PointsOptions{Connect: true, Bounds: [2]float64{0, 1},
				Frame: Frame{Title: "Memory retrieval", XLabel: "neurons per dimension", YLabel: "retrieval accuracy"}})
		},
		"points_models": func() (*Plot, error) {
			return Points([]string{"channel", "integrator", "oscillator", "product"}, []BarGroup{
				{Label: "neurogo", Values: []float64{1.5, 1.2, 1.1, 2.5}, Err: []float64{0.1, 0.1, 0.2, 0.3}},
				{Label: "Nengo", Values: []float64{1.5, 1.0, 1.3, 2.0}, Err: []float64{0.1, 0.1, 0.1, 0.2}},
			}, PointsOptions{Frame: Frame{Title: "Speed-up", YLabel: "× Nengo's speed"}})
		},
		"line_batch_sizes": func() (*Plot, error) {
			return Line([]Series{
				{Label: "neurogo", X: []float64{64, 128, 192}, Y: []float64{0.5, 1.1, 2.0}, Err: []float64{0.05, 0.1, 0.2}},
				{Label: "nengo", X: []float64{64, 128, 192}, Y: []float64{2, 5, 11}, Dashed: true},
			}, LineOptions{Frame: Frame{Title: "Benchmark", XLabel: "dimensions", YLabel: "time (s)"}, LogY: true})
		},
		"line_log2": func() (*Plot, error) {
			var xs, ys []float64
			for x := 1.0; x <= 4096; x *= 2 {
				xs, ys = append(xs, x), append(ys, 3+0.002*x)
			}
			return Line([]Series{{Label: "µs per step", X: xs, Y: ys}}, LineOptions{LogX: true, LogY: true,
				Frame: Frame{Title: "Batch sizes", XLabel: "batch size", YLabel: "µs per step"}})
		},
		"line_bounds_wilson": func() (*Plot, error) {
			x := []float64{25, 50, 100, 200}
			y := []float64{0.55, 0.8, 0.95, 1}
			err := []float64{0.2, 0.25, 0.44, 0.3}
			lo, hi := make([]float64, 4), make([]float64, 4)
			for i, a := range y {
				lo[i], hi[i] = wilson(a, 20, 1.96)
			}
			return Line([]Series{{Label: "mean ± 1.96 sd", X: x, Y: y, Err: err},
				{Label: "Wilson", X: x, Y: y, Lower: lo, Upper: hi, Dashed: true}},
				LineOptions{Bounds: [2]float64{0, 1}, Frame: Frame{Title: "Bounded intervals", XLabel: "neurons per dimension", YLabel: "accuracy"}})
		},
		"scatter_ideal": func() (*Plot, error) {
			n := 16384
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i] = rng.NormFloat64() * 40
				y[i] = math.Max(-128, math.Min(127, 0.9*x[i]+3*rng.NormFloat64()))
			}
			return Scatter([]Series{{Label: "emulated chip", X: x, Y: y}}, LineOptions{Reference: "y=x", EqualAspect: true,
				Frame: Frame{Title: "Measured vs ideal", XLabel: "ideal (LSB)", YLabel: "measured (LSB)"}})
		},
		"hist_integers": func() (*Plot, error) {
			v := make([]float64, 500)
			for i := range v {
				v[i] = float64(rng.IntN(5))
			}
			return Histogram(v, HistogramOptions{Frame: Frame{XLabel: "frames"}})
		},
		"hist_normal": func() (*Plot, error) {
			v := make([]float64, 500)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			return Histogram(v, HistogramOptions{})
		},
		"rt_frames_overlay": func() (*Plot, error) {
			ts := make([][]float64, 3)
			for k := range ts {
				for i := 0; i < 100; i++ {
					ts[k] = append(ts[k], float64(min(4, rng.IntN(3)+k/2)))
				}
			}
			return ResponseTimeHistograms(ts, []string{"walk", "sit", "stand"}, HistogramOptions{Frame: Frame{XLabel: "response time (frames)"}})
		},
		"rt_frames_panels": func() (*Plot, error) {
			ts := make([][]float64, 10)
			names := make([]string, 10)
			for k := range ts {
				names[k] = string(rune('0' + k))
				for i := 0; i < 60; i++ {
					ts[k] = append(ts[k], 0.001*float64(min(4, rng.IntN(3)+k%3)))
				}
			}
			return ResponseTimeHistograms(ts, names, HistogramOptions{})
		},
		"training_one_epoch": func() (*Plot, error) {
			return TrainingHistory([]Metric{
				{Name: "loss", Train: []float64{0.9}, Validation: []float64{1.0}},
				{Name: "sparse_categorical_accuracy", Train: []float64{0.7}, Validation: []float64{0.66}},
			}, Frame{Title: "One epoch"})
		},
		"training_many": func() (*Plot, error) {
			var l, a, va []float64
			for e := 0; e < 30; e++ {
				l = append(l, 1/(1+0.3*float64(e)))
				a = append(a, 1-0.5/(1+0.3*float64(e)))
				va = append(va, math.NaN())
				if e%5 == 4 {
					va[e] = 1 - 0.55/(1+0.3*float64(e))
				}
			}
			return TrainingHistory([]Metric{{Name: "loss", Train: l}, {Name: "accuracy", Train: a, Validation: va},
				{Name: "learning rate", Train: l, Bounds: [2]float64{0, math.Inf(1)}}}, Frame{})
		},
	}
}

// TestFormsDump writes the forms' PNGs to $VIZ_FORMS_DUMP for a visual
// check.
func TestFormsDump(t *testing.T) {
	dir := os.Getenv("VIZ_FORMS_DUMP")
	if dir == "" {
		t.Skip("set VIZ_FORMS_DUMP=dir to write the PNGs")
	}
	for name, mk := range formsSamples() {
		p, err := mk()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), p.PNG(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestXYInterval: error bars and intervals are clipped to Bounds; an
// interval [0.8, 1.39] of an accuracy is drawn up to 1.
func TestXYInterval(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name         string
		y            float64
		err, lo, up  []float64
		bounds       [2]float64
		logY         bool
		wantA, wantB float64
		ok           bool
	}{
		{"none", 0.5, nil, nil, nil, [2]float64{0, 1}, false, 0, 0, false},
		{"1.96 sd past 1", 1.095, []float64{0.295}, nil, nil, [2]float64{0, 1.1}, false, 0.8, 1.1, true},
		{"Lower/Upper past 1", 0.95, nil, []float64{0.8}, []float64{1.39}, [2]float64{0, 1}, false, 0.8, 1, true},
		{"below 0", 0.1, []float64{0.3}, nil, nil, [2]float64{0, 1}, false, 0, 0.4, true},
		{"unbounded", 0.95, []float64{0.44}, nil, nil, [2]float64{}, false, 0.51, 1.39, true},
		{"one-sided", 2, []float64{3}, nil, nil, [2]float64{0, inf}, false, 0, 5, true},
		{"log axis", 10, []float64{20}, nil, nil, [2]float64{}, true, 1, 30, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := xyBounds(tt.bounds)
			a, b, ok := xyInterval(tt.y, tt.err, tt.lo, tt.up, 0, lo, hi, tt.logY)
			if ok != tt.ok || math.Abs(a-tt.wantA) > 1e-12 || math.Abs(b-tt.wantB) > 1e-12 {
				t.Errorf("[%g, %g] %v, want [%g, %g] %v", a, b, ok, tt.wantA, tt.wantB, tt.ok)
			}
		})
	}
}

// TestLineBoundsDrawn: the error bars Line adds end at the bound.
func TestLineBoundsDrawn(t *testing.T) {
	p := plot.New()
	s := Series{X: []float64{1, 2}, Y: []float64{0.95, 0.5}, Err: []float64{0.44, 0.1}}
	xyAddIntervals(p, 0, xys(s.X, s.Y), s, 0, 1, false)
	_, _, ymin, ymax := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
	if ymax != 1 || math.Abs(ymin-0.4) > 1e-12 {
		t.Errorf("error bars span [%g, %g], want [0.4, 1]", ymin, ymax)
	}
}

// TestScatterAlpha: opaque up to 200 points, then falling to 0.15 at
// 10 000 and beyond.
func TestScatterAlpha(t *testing.T) {
	tests := []struct {
		n      int
		lo, hi float64
	}{
		{1, 1, 1}, {200, 1, 1}, {1000, 0.5, 0.7}, {16384, 0.15, 0.15}, {1e6, 0.15, 0.15},
	}
	for _, tt := range tests {
		if a := scatterAlpha(tt.n); a < tt.lo-1e-12 || a > tt.hi+1e-12 {
			t.Errorf("alpha(%d) = %g, want in [%g, %g]", tt.n, a, tt.lo, tt.hi)
		}
	}
	prev := 2.0
	for n := 100; n <= 20000; n += 100 {
		a, r := scatterAlpha(n), scatterRadius(n)
		if a > prev {
			t.Errorf("alpha rises at %d points", n)
		}
		prev = a
		if r < scatterRadius(20000) || r > scatterRadius(1) {
			t.Errorf("radius(%d) = %v out of range", n, r)
		}
	}
}

// TestAutoMarkers: Line marks series of at most 20 points unless told
// not to; one point is always marked.
func TestAutoMarkers(t *testing.T) {
	tests := []struct {
		n      int
		dashed bool
		opts   LineOptions
		want   bool
	}{
		{1, false, LineOptions{}, true},
		{20, false, LineOptions{}, true},
		{21, false, LineOptions{}, false},
		{500, false, LineOptions{Markers: true}, true},
		{5, false, LineOptions{NoMarkers: true}, false},
		{1, false, LineOptions{NoMarkers: true}, true},
		{2, true, LineOptions{}, false}, // a dashed reference line
		{3, true, LineOptions{}, true},
	}
	for _, tt := range tests {
		if got := xyMarkers(Series{Dashed: tt.dashed}, tt.n, tt.opts); got != tt.want {
			t.Errorf("%d points, %+v: markers %v, want %v", tt.n, tt.opts, got, tt.want)
		}
	}
	// and in the figure: 3 markers for a 3-point series
	p, err := Line([]Series{{X: []float64{64, 128, 192}, Y: []float64{1, 2, 3}}}, LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := Line([]Series{{X: []float64{64, 128, 192}, Y: []float64{1, 2, 3}}}, LineOptions{NoMarkers: true})
	if n1, n2 := strings.Count(p.SVG(), "<path"), strings.Count(p2.SVG(), "<path"); n1 < n2+3 {
		t.Errorf("paths with markers %d, without %d: want 3 more", n1, n2)
	}
}

// TestXYAutoDataTicks: few x values are labelled where the data are.
func TestXYAutoDataTicks(t *testing.T) {
	pow2 := []float64{}
	for x := 1.0; x <= 4096; x *= 2 {
		pow2 = append(pow2, x)
	}
	many := make([]float64, 40)
	for i := range many {
		many[i] = float64(i)
	}
	tests := []struct {
		name string
		xs   []float64
		logX bool
		want []string // nil: no data ticks
	}{
		{"batch sizes", []float64{64, 128, 192, 64, 128}, false, []string{"64", "128", "192"}},
		{"powers of two on log x", pow2, true, []string{"1", "2", "4", "1024", "4096"}},
		{"many values", many, false, nil},
		{"crowded", []float64{1, 2, 3, 1000}, false, nil},
		{"one value", []float64{5, 5}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := plot.New()
			ok := xyAutoTicks(p, tt.xs, tt.logX, DefaultWidth)
			if ok != (tt.want != nil) {
				t.Fatalf("data ticks %v, want %v", ok, tt.want != nil)
			}
			if !ok {
				return
			}
			ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
			labels := map[string]bool{}
			for _, tk := range ticks {
				labels[tk.Label] = true
			}
			for _, w := range tt.want {
				if !labels[w] {
					t.Errorf("no tick labelled %q (ticks %v)", w, ticks)
				}
			}
			if u := distinct(tt.xs); len(ticks) != len(u) {
				t.Errorf("%d ticks for %d distinct values", len(ticks), len(u))
			}
		})
	}
}

// TestScatterReference: "y=x" spans the range shared by x and y on both
// axes.
func TestScatterReference(t *testing.T) {
	p := plot.New()
	s := []Series{{X: []float64{-3, 5}, Y: []float64{-1, 8}}}
	sc, _ := plotter.NewScatter(xys(s[0].X, s[0].Y))
	p.Add(sc)
	xyFinishAxes(p, s, LineOptions{Reference: "y=x"})
	if p.X.Min != -3 || p.X.Max != 8 || p.Y.Min != -3 || p.Y.Max != 8 {
		t.Errorf("axes x [%g, %g] y [%g, %g], want both [-3, 8]", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	pl, err := Scatter(s, LineOptions{Reference: "y=x", EqualAspect: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pl.SVG(), "y = x") {
		t.Error("no legend entry for the reference line")
	}
}

// TestHistoryPanel: accuracies get [0, 1]; one epoch shows as points
// with one tick at 1; explicit Bounds hold.
func TestHistoryPanel(t *testing.T) {
	tests := []struct {
		name           string
		m              Metric
		ymin, ymax     float64 // NaN: from the data
		xmin, xmax     float64
		wantPointsOnly bool
	}{
		{"accuracy, one epoch", Metric{Name: "sparse_categorical_accuracy", Train: []float64{0.7}, Validation: []float64{0.66}}, 0, 1, 0.5, 1.5, true},
		{"Accuracy upper case", Metric{Name: "val_Acc", Train: []float64{0.7, 0.8}}, 0, 1, 0.5, 2.5, false},
		{"loss", Metric{Name: "loss", Train: []float64{1, 0.5, 0.4}}, math.NaN(), math.NaN(), 0.5, 3.5, false},
		{"bounded loss", Metric{Name: "loss", Train: []float64{1, 0.5}, Bounds: [2]float64{0, math.Inf(1)}}, 0, math.NaN(), 0.5, 2.5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := historyPanel("TrainingHistory", 0, tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if !math.IsNaN(tt.ymin) && p.Y.Min != tt.ymin || !math.IsNaN(tt.ymax) && p.Y.Max != tt.ymax {
				t.Errorf("y [%g, %g], want [%g, %g]", p.Y.Min, p.Y.Max, tt.ymin, tt.ymax)
			}
			if p.Y.Min >= p.Y.Max {
				t.Errorf("empty y range [%g, %g]", p.Y.Min, p.Y.Max)
			}
			if p.X.Min != tt.xmin || p.X.Max != tt.xmax {
				t.Errorf("x [%g, %g], want [%g, %g]", p.X.Min, p.X.Max, tt.xmin, tt.xmax)
			}
			for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
				if tk.Label != "" && tk.Value != math.Trunc(tk.Value) {
					t.Errorf("epoch tick at %g", tk.Value)
				}
			}
		})
	}
	p, err := TrainingHistory([]Metric{{Name: "loss", Train: []float64{1}}, {Name: "accuracy", Train: []float64{0.5}}}, Frame{})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := p.Size(); w < 2*400 || h < 300 {
		t.Errorf("two panels in %g×%g, want each at least 400×300", w, h)
	}
}

func TestXYBadInput(t *testing.T) {
	s := []Series{{Y: []float64{0.5, 0.7}}}
	tests := []badInput{
		{"bounds", func() (*Plot, error) { return Line(s, LineOptions{Bounds: [2]float64{1, 0}}) }, []string{"viz.Line", "opts.Bounds = {1, 0}"}},
		{"outside bounds", func() (*Plot, error) {
			return Line([]Series{{Y: []float64{0.5, 1.2}}}, LineOptions{Bounds: [2]float64{0, 1}})
		}, []string{"series[0].Y[1] = 1.2", "opts.Bounds [0, 1]"}},
		{"legend", func() (*Plot, error) { return Scatter(s, LineOptions{Legend: "left"}) }, []string{"viz.Scatter", `opts.Legend = "left"`}},
		{"alpha", func() (*Plot, error) { return Scatter(s, LineOptions{Alpha: 2}) }, []string{"opts.Alpha = 2", "(0, 1]"}},
		{"reference", func() (*Plot, error) { return Scatter(s, LineOptions{Reference: "y=2x"}) }, []string{`opts.Reference = "y=2x"`}},
		{"aspect", func() (*Plot, error) {
			return Scatter([]Series{{X: []float64{1, 2}, Y: []float64{1, 2}}}, LineOptions{EqualAspect: true, LogX: true})
		}, []string{"opts.EqualAspect", "both"}},
		{"half interval", func() (*Plot, error) { return Line([]Series{{Y: []float64{1}, Upper: []float64{2}}}, LineOptions{}) }, []string{"series[0].Lower/series[0].Upper"}},
		{"interval misses value", func() (*Plot, error) {
			return Line([]Series{{Y: []float64{0.5}, Lower: []float64{0.6}, Upper: []float64{0.7}}}, LineOptions{})
		}, []string{"series[0].Lower[0], series[0].Upper[0] = [0.6, 0.7]", "must contain Y[0] = 0.5"}},
		{"err and interval", func() (*Plot, error) {
			return Line([]Series{{Y: []float64{1}, Err: []float64{1}, Lower: []float64{0}, Upper: []float64{2}}}, LineOptions{})
		}, []string{"not both"}},
		{"accuracy above 1", func() (*Plot, error) {
			return TrainingHistory([]Metric{{Name: "accuracy", Train: []float64{0.5, 97}}}, Frame{})
		}, []string{"metrics[0].Train[1] = 97", "[0, 1]", "metrics[0].Bounds"}},
		{"history bounds", func() (*Plot, error) {
			return TrainingHistory([]Metric{{Name: "loss", Train: []float64{1}, Bounds: [2]float64{math.NaN(), 1}}}, Frame{})
		}, []string{"metrics[0].Bounds = {NaN, 1}"}},
		{"response time legend", func() (*Plot, error) {
			return ResponseTime([]float64{0.1}, []float64{0.5}, ResponseTimeOptions{Legend: "up"})
		}, []string{"viz.ResponseTime", `opts.Legend = "up"`}},
		{"history Inf", func() (*Plot, error) {
			return TrainingHistory([]Metric{{Name: "loss", Train: []float64{1}, Validation: []float64{math.Inf(1)}}}, Frame{})
		}, []string{"metrics[0].Validation[0] = +Inf"}},
	}
	checkBadInput(t, tests)
}

// TestFormsRender: every sample renders a non-blank PNG of its size.
func TestFormsRender(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 16 384 scatter points")
	}
	for name, mk := range formsSamples() {
		t.Run(name, func(t *testing.T) {
			p, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			img, ncolors, nonWhite := decodePNG(t, p.PNG())
			w, h := p.Size()
			if b := img.Bounds(); b.Dx() != int(2*w+0.5) || b.Dy() != int(2*h+0.5) || nonWhite < b.Dx()*b.Dy()/300 || ncolors < 3 {
				t.Errorf("PNG %v for %g×%g: %d non-white pixels, %d colours", b, w, h, nonWhite, ncolors)
			}
		})
	}
}
