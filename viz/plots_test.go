package viz

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// sample is one plot of every kind, built from seeded synthetic data.
type sample struct {
	name string
	make func() (*Plot, error)
	// labels must appear in the SVG.
	labels []string
}

func samples() []sample {
	rng := rand.New(rand.NewPCG(7, 7))
	dt := 0.001
	small := synthSpikes(200, 40, 0.03, dt, 2)
	groups := make([]int, 40)
	enc := make([][]float64, 40)
	for i := range groups {
		groups[i] = i % 3
		a := rng.Float64() * 2 * math.Pi
		enc[i] = []float64{math.Cos(a), math.Sin(a)}
	}
	cm := [][]float64{{50, 3, 2}, {4, 40, 6}, {1, 2, 47}}
	names := []string{"walk", "sit", "stand"}
	var probes []Probe
	{
		dec, tgt := make([][]float64, 300), make([][]float64, 300)
		for i := range dec {
			t := float64(i) * dt
			tgt[i] = []float64{math.Sin(2 * math.Pi * 5 * t), math.Cos(2 * math.Pi * 5 * t)}
			dec[i] = []float64{tgt[i][0] + 0.1*rng.NormFloat64(), tgt[i][1] + 0.1*rng.NormFloat64()}
		}
		probes = []Probe{{Label: "decoded", Data: dec}, {Label: "target", Data: tgt, Target: true}}
	}
	xs := []float64{}
	for x := -1.0; x <= 1.0001; x += 0.05 {
		xs = append(xs, x)
	}
	rates := make([][]float64, 12)
	for n := range rates {
		rates[n] = make([]float64, len(xs))
		e := float64(1 - 2*(n%2))
		g := 1 + rng.Float64()*3
		b := rng.Float64()*2 - 1
		for i, x := range xs {
			j := g*e*x + b + 1
			if j > 1 {
				rates[n][i] = 1 / (0.002 + 0.02*math.Log1p(1/(j-1)))
			}
		}
	}
	delays := []float64{0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2}
	acc := []float64{0.33, 0.4, 0.55, 0.7, 0.82, 0.9, 0.93, 0.94}
	w := make([][]float64, 16)
	for i := range w {
		w[i] = make([]float64, 24)
		for j := range w[i] {
			w[i][j] = rng.NormFloat64()
		}
	}
	vals := make([]float64, 500)
	for i := range vals {
		vals[i] = rng.NormFloat64()
	}
	return []sample{
		{"raster", func() (*Plot, error) {
			return Raster(small, dt, RasterOptions{Groups: groups, GroupNames: []string{"A", "B", "C"}})
		}, []string{"Spike raster", "time (s)", "neuron"}},
		{"raster_sorted", func() (*Plot, error) {
			return Raster(small, dt, RasterOptions{Sort: SortDirection, Encoders: enc, TStart: 0.05, TEnd: 0.15})
		}, []string{"preferred direction"}},
		{"raster_dense", func() (*Plot, error) {
			return Raster(synthSpikes(2000, 3000, 0.01, dt, 3), dt, RasterOptions{Sort: SortRate})
		}, []string{"sorted by rate"}},
		{"confusion", func() (*Plot, error) {
			return ConfusionMatrix(cm, names, ConfusionOptions{Normalize: true})
		}, []string{"accuracy 88.4 %", "walk", "stand", "predicted class", "0.80"}},
		{"temporal_confusion", func() (*Plot, error) {
			return TemporalConfusion([][][]float64{{{5, 5, 5}, {5, 5, 5}, {5, 5, 5}}, {{10, 3, 2}, {3, 9, 3}, {2, 3, 10}}, cm},
				[]float64{0.02, 0.1, 0.5}, names, ConfusionOptions{Normalize: true})
		}, []string{"Δt = 20 ms", "Δt = 500 ms"}},
		{"heatmap", func() (*Plot, error) {
			return Heatmap(w, HeatmapOptions{Frame: Frame{Title: "Weights"}, Diverging: true, ColorLabel: "weight"})
		}, []string{"Weights", "weight"}},
		{"timeseries", func() (*Plot, error) {
			return TimeSeries(dt, probes, Frame{Title: "Decoded vs target"})
		}, []string{"decoded[0]", "target[1]", "time (s)"}},
		{"line", func() (*Plot, error) {
			return Line([]Series{
				{Label: "neurogo", X: []float64{64, 128, 192}, Y: []float64{0.5, 1.1, 2.0}, Err: []float64{0.05, 0.1, 0.2}},
				{Label: "nengo", X: []float64{64, 128, 192}, Y: []float64{2, 5, 11}, Dashed: true},
			}, LineOptions{Frame: Frame{Title: "Benchmark", XLabel: "dimensions", YLabel: "time (s)"}, LogY: true, Markers: true})
		}, []string{"Benchmark", "neurogo", "nengo", "dimensions"}},
		{"histogram", func() (*Plot, error) { return Histogram(vals, HistogramOptions{Bins: 25}) }, []string{"Histogram", "count"}},
		{"scatter", func() (*Plot, error) {
			return Scatter([]Series{{Label: "samples", X: vals[:250], Y: vals[250:]}}, LineOptions{})
		}, []string{"samples"}},
		{"response_time", func() (*Plot, error) {
			return ResponseTime(delays, acc, ResponseTimeOptions{Trials: 200, Threshold: 0.85})
		}, []string{"response time", "threshold 0.85", "Δt"}},
		{"rt_hist", func() (*Plot, error) {
			ts := make([][]float64, 3)
			for k := range ts {
				for i := 0; i < 100; i++ {
					ts[k] = append(ts[k], 0.05+0.02*float64(k)+0.01*math.Abs(rng.NormFloat64()))
				}
			}
			return ResponseTimeHistograms(ts, names, HistogramOptions{})
		}, []string{"Response times", "walk", "sit"}},
		{"tuning", func() (*Plot, error) { return TuningCurves(xs, rates, TuningOptions{}) }, []string{"Tuning curves", "firing rate (Hz)"}},
		{"training", func() (*Plot, error) {
			return TrainingHistory([]Metric{
				{Name: "loss", Train: []float64{1, 0.6, 0.4, 0.3, 0.25}, Validation: []float64{1.1, 0.7, 0.5, 0.45, 0.44}},
				{Name: "accuracy", Train: []float64{0.5, 0.7, 0.8, 0.85, 0.9}, Validation: []float64{0.45, 0.65, 0.75, 0.8, 0.82}},
			}, Frame{})
		}, []string{"loss", "accuracy", "validation", "epoch"}},
		{"grid", func() (*Plot, error) {
			a, _ := Histogram(vals, HistogramOptions{Frame: Frame{Title: "left"}})
			b, _ := ConfusionMatrix(cm, names, ConfusionOptions{})
			return Grid([]*Plot{a, b}, GridOptions{Frame: Frame{Title: "Two panels"}})
		}, []string{"Two panels", "left", "accuracy"}},
		{"graph", func() (*Plot, error) { return NetworkGraph(sampleGraph(), GraphOptions{}) }, []string{"retina", "image", "hidden"}},
	}
}

func sampleGraph() Graph {
	return Graph{
		Nodes: []Node{
			{ID: "image", Kind: KindNeuronPool},
			{ID: "sp_in", Label: "in→hidden", Kind: KindSynapsePool},
			{ID: "hidden", Kind: KindNeuronPool},
			{ID: "sp_out", Label: "hidden→label", Kind: KindSynapsePool},
			{ID: "label", Kind: KindNeuronPool},
			{ID: "retina", Kind: KindNode},
		},
		Edges: []Edge{{From: "retina", To: "image"}, {From: "image", To: "sp_in"}, {From: "sp_in", To: "hidden"},
			{From: "hidden", To: "sp_out"}, {From: "sp_out", To: "label"}, {From: "label", To: "hidden", Label: "feedback"}},
	}
}

// TestDumpPNG writes every sample to $VIZ_DUMP for a visual check.
func TestDumpPNG(t *testing.T) {
	dir := os.Getenv("VIZ_DUMP")
	if dir == "" {
		t.Skip("set VIZ_DUMP=dir to write the sample PNGs")
	}
	for _, s := range samples() {
		p, err := s.make()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		os.WriteFile(filepath.Join(dir, s.name+".png"), p.PNG(), 0o644)
		os.WriteFile(filepath.Join(dir, s.name+".svg"), []byte(p.SVG()), 0o644)
	}
}
