package viz_test

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/viz"
)

// pngSize reports the pixel size of a plot's PNG.
func pngSize(p *viz.Plot) string {
	cfg, err := png.DecodeConfig(bytes.NewReader(p.PNG()))
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%dx%d", cfg.Width, cfg.Height)
}

func ExampleRaster() {
	rng := rand.New(rand.NewPCG(1, 2))
	spikes := make([][]float64, 500) // [step][neuron]
	for s := range spikes {
		spikes[s] = make([]float64, 50)
		for n := range spikes[s] {
			if rng.Float64() < 0.02 {
				spikes[s][n] = 1000 // 1/dt, as Nengo's spike probes
			}
		}
	}
	p, err := viz.Raster(spikes, 0.001, viz.RasterOptions{Sort: viz.SortRate})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, pngSize(p))
	// Output: <viz.Raster 640×400> 1280x800
}

func ExampleRaster_error() {
	_, err := viz.Raster([][]float64{{0, math.NaN()}}, 0.001, viz.RasterOptions{})
	fmt.Println(err)
	// Output: viz.Raster: spikes[0][1] = NaN: must be finite (no NaN or Inf)
}

func ExampleConfusionMatrix() {
	counts := [][]float64{{50, 3, 2}, {4, 40, 6}, {1, 2, 47}}
	p, err := viz.ConfusionMatrix(counts, []string{"walk", "sit", "stand"}, viz.ConfusionOptions{Normalize: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, pngSize(p), strings.Contains(p.SVG(), "accuracy 88.4 %"))
	// Output: <viz.ConfusionMatrix 520×440> 1040x880 true
}

func ExampleTemporalConfusion() {
	counts := [][][]float64{{{5, 5}, {5, 5}}, {{9, 1}, {2, 8}}}
	p, err := viz.TemporalConfusion(counts, []float64{0.02, 0.2}, []string{"left", "right"}, viz.ConfusionOptions{Normalize: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, strings.Contains(p.SVG(), "Δt = 200 ms"))
	// Output: <viz.TemporalConfusion 647×330> true
}

func ExampleHeatmap() {
	w := [][]float64{{0.5, -1}, {2, 0}, {-0.3, 1}}
	p, err := viz.Heatmap(w, viz.HeatmapOptions{Frame: viz.Frame{Title: "weights"}, Diverging: true, ColorLabel: "weight", Annotate: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, pngSize(p), strings.Count(p.SVG(), ">−0.3<"))
	// Output: <viz.Heatmap 640×400> 1280x800 1
}

func ExampleTimeSeries() {
	dec, tgt := make([][]float64, 100), make([][]float64, 100)
	for i := range dec {
		tgt[i] = []float64{math.Sin(float64(i) / 10)}
		dec[i] = []float64{0.9 * tgt[i][0]}
	}
	p, err := viz.TimeSeries(0.001, []viz.Probe{{Label: "decoded", Data: dec}, {Label: "target", Data: tgt, Target: true}}, viz.Frame{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, strings.Contains(p.SVG(), "decoded"))
	// Output: <viz.TimeSeries 640×400> true
}

func ExampleLine() {
	p, err := viz.Line([]viz.Series{{Label: "ms per step", X: []float64{64, 128, 192}, Y: []float64{1, 3, 9}, Err: []float64{0.1, 0.2, 0.5}}},
		viz.LineOptions{Frame: viz.Frame{XLabel: "dimensions", YLabel: "time (ms)"}, LogY: true, Markers: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, strings.Contains(p.SVG(), "dimensions"))
	// Output: <viz.Line 640×400> true
}

func ExampleScatter() {
	p, err := viz.Scatter([]viz.Series{{X: []float64{1, 2, 3}, Y: []float64{3, 1, 2}}}, viz.LineOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output: <viz.Scatter 640×400>
}

func ExampleHistogram() {
	p, err := viz.Histogram([]float64{1, 2, 2, 3, 3, 3}, viz.HistogramOptions{Bins: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, pngSize(p))
	// Output: <viz.Histogram 640×400> 1280x800
}

func ExampleResponseTime() {
	delays := []float64{0.02, 0.05, 0.1, 0.2}
	acc := []float64{0.3, 0.6, 0.9, 0.95}
	p, err := viz.ResponseTime(delays, acc, viz.ResponseTimeOptions{Trials: 100, Threshold: 0.8})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, strings.Contains(p.SVG(), "response time 83.33 ms"))
	// Output: <viz.ResponseTime 640×400> true
}

func ExampleResponseTimeHistograms() {
	p, err := viz.ResponseTimeHistograms([][]float64{{0.05, 0.06, 0.06}, {0.08, 0.09}}, []string{"A", "B"}, viz.HistogramOptions{Bins: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output: <viz.ResponseTimeHistograms 640×400>
}

func ExampleTuningCurves() {
	x := []float64{-1, -0.5, 0, 0.5, 1}
	rates := [][]float64{{0, 0, 20, 60, 100}, {100, 60, 20, 0, 0}}
	p, err := viz.TuningCurves(x, rates, viz.TuningOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, strings.Contains(p.SVG(), "firing rate (Hz)"))
	// Output: <viz.TuningCurves 640×400> true
}

func ExampleTrainingHistory() {
	p, err := viz.TrainingHistory([]viz.Metric{
		{Name: "loss", Train: []float64{1, 0.5, 0.3}, Validation: []float64{1.1, 0.6, 0.5}},
		{Name: "accuracy", Train: []float64{0.6, 0.8, 0.9}},
	}, viz.Frame{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output: <viz.TrainingHistory 840×300>
}

func ExampleGrid() {
	a, _ := viz.Histogram([]float64{1, 2, 2, 3}, viz.HistogramOptions{})
	b, _ := viz.Scatter([]viz.Series{{Y: []float64{1, 3, 2}}}, viz.LineOptions{})
	p, err := viz.Grid([]*viz.Plot{a, b}, viz.GridOptions{Cols: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, pngSize(p))
	// Output: <viz.Grid 960×300> 1920x600
}

func ExampleNetworkGraph() {
	g := viz.Graph{
		Nodes: []viz.Node{
			{ID: "image", Kind: viz.KindNeuronPool},
			{ID: "conv", Kind: viz.KindSynapsePool},
			{ID: "label", Kind: viz.KindNeuronPool},
		},
		Edges: []viz.Edge{{From: "image", To: "conv"}, {From: "conv", To: "label"}},
	}
	p, err := viz.NetworkGraph(g, viz.GraphOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg := p.SVG()
	hex := func(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }
	// Neuron-pools in series colour 2, synapse-pools in series colour 0.
	fmt.Println(p, strings.Contains(svg, hex(viz.SeriesColor(2))), strings.Contains(svg, hex(viz.SeriesColor(0))))
	// Output: <viz.NetworkGraph 240×66> true true
}

// A toolkit model drawn as a graph: ensembles orange, nodes grey, the
// learning connection labelled.
func ExampleModelGraph() {
	net := toolkit.New("pes", 0)
	stim := net.Const("stim", 0.5)
	pre := net.Ensemble("pre", 50, 1)
	post := net.Ensemble("post", 50, 1)
	errE := net.Ensemble("error", 50, 1)
	net.Connect(stim, pre)
	learned := net.Connect(pre, post)
	learned.LearningRule = toolkit.NewPES()
	net.Connect(post, errE)
	net.Connect(errE, learned.Rule())
	p, err := viz.ModelGraph(net, viz.GraphOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg := p.SVG()
	fmt.Println(p, strings.Contains(svg, "post"), strings.Contains(svg, "learning"))
	// Output: <viz.NetworkGraph 448×136> true true
}
