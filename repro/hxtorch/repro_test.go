package hxtorch

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/data"
)

func TestHARSmall(t *testing.T) {
	r, err := HAR(HAROptions{Synthetic: true, Train: 800, Test: 300, Epochs: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Synthetic {
		t.Error("synthetic data not flagged")
	}
	for _, s := range []HARStage{r.Software, r.Chip, r.HIL} {
		n := 0
		for _, row := range s.Confusion {
			for _, c := range row {
				n += c
			}
		}
		if n != 300 {
			t.Errorf("%s: confusion holds %d windows, want 300", s.Name, n)
		}
		if !(s.Accuracy >= 0 && s.Accuracy <= 1) || len(s.Recall) != 6 {
			t.Errorf("%s: accuracy %v, %d recalls", s.Name, s.Accuracy, len(s.Recall))
		}
		t.Logf("%s: %.3f", s.Name, s.Accuracy)
	}
	// 3 epochs on 800 windows already beat chance (1/6) clearly
	if r.Software.Accuracy < 0.4 {
		t.Errorf("software accuracy %.3f after 3 epochs: not learning", r.Software.Accuracy)
	}
	a, b, c, err := r.Figures()
	if err != nil || a == nil || b == nil || c == nil {
		t.Fatalf("figures: %v", err)
	}
	if len(a.PNG()) == 0 {
		t.Error("empty PNG")
	}
}

func TestBenchAccelSmall(t *testing.T) {
	rows, err := BenchAccel(AccelBenchOptions{MaxLog2: 8, EmulatedMaxLog2: 6, Batch: 200, MaxBatchLog2: 5, MinSeconds: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	// size sweep: 9 sizes × gemm + mock, 7 of them also emulated; batch sweep: 6 × 3
	if want := 9*2 + 7 + 6*3; len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	for _, r := range rows {
		if !(r.MACsPerSecond > 0) || math.IsInf(r.MACsPerSecond, 0) || !(r.FractionOfGEMM > 0) {
			t.Errorf("row %+v: rates must be positive and finite", r)
		}
		if r.Mode != "gemm_float32" && !(r.HostLinkMACs > 0 && r.ChipLinkMACs > 8*r.HostLinkMACs*0.99) {
			t.Errorf("row %+v: link rates (the chip link is 8× the host link)", r)
		}
	}
	a, b, err := AccelFigures(rows)
	if err != nil || len(a.PNG()) == 0 || len(b.PNG()) == 0 {
		t.Fatalf("figures: %v", err)
	}
	s := SummarizeAccel(rows)
	t.Logf("summary %+v", s)
	if !(s.ModelCrossoverBatch > 50 && s.ModelCrossoverBatch < 500) {
		t.Errorf("model crossover batch %v", s.ModelCrossoverBatch)
	}
}

// Pretrained float weights load into the analog layers: the same
// parameter state (kernel shapes), keyed by the layer node's label.
func TestFloatWeightsLoadIntoAnalogLayers(t *testing.T) {
	build := func(spec layers.Spec) (*toolkit.Network, *toolkit.Node, *toolkit.Probe) {
		net := toolkit.New("n", 3)
		in := net.Const("in", make([]float64, 20)...)
		l, err := net.Layer("dense", in, spec)
		if err != nil {
			t.Fatal(err)
		}
		return net, in, net.Probe("out", l, "")
	}
	fnet, fin, fout := build(layers.Dense{Units: 4, NoBias: true})
	fm, err := train.New(fnet)
	if err != nil {
		t.Fatal(err)
	}
	p := fm.Params()
	scaled, factor := analog.ScaleWeights(p.Layers["dense"]["kernel"])
	p.Layers["dense"]["kernel"] = scaled
	anet, ain, aout := build(analog.Linear{Units: 4})
	am, err := train.New(anet, sim.WithParams(p))
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 20)
	for i := range x {
		x[i] = float64(i % 7)
	}
	xa, _ := train.ArrayFromRows([][]float64{x}, 1)
	fp, err := fm.Predict(map[*toolkit.Node]*train.Array{fin: xa}, train.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ap, err := am.Predict(map[*toolkit.Node]*train.Array{ain: xa}, train.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := analog.DefaultGain * factor // the ideal analog layer computes gain·(scaled W)ᵀx
	for j, v := range fp[fout].At(0, 0) {
		if got := ap[aout].At(0, 0)[j]; math.Abs(got-s*v) > 1e-9 {
			t.Fatalf("output %d: analog %v, float·gain·factor %v", j, got, s*v)
		}
	}
}

// The reproduction reads the UCI layout from a directory (here one the
// synthetic generator wrote, which the loader recognises as synthetic).
func TestHARFromDirectory(t *testing.T) {
	dir := t.TempDir() // the full layout: 190 MB, about a second

	if err := data.WriteSyntheticHAR(dir, 5); err != nil {
		t.Fatal(err)
	}
	r, err := HAR(HAROptions{DataDir: dir, Train: 300, Test: 120, Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Synthetic {
		t.Error("a layout written by WriteSyntheticHAR must be reported as synthetic")
	}
	n := 0
	for _, row := range r.HIL.Confusion {
		for _, c := range row {
			n += c
		}
	}
	if n != 120 {
		t.Errorf("%d test windows scored, want 120", n)
	}
	if _, err := HAR(HAROptions{DataDir: t.TempDir(), Epochs: 1}); err == nil {
		t.Error("an empty directory: no error")
	}
}
