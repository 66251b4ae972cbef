package viz

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
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
