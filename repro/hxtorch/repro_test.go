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

// TestHARSmall runs the reproduction on the synthetic set at a small size
// and checks what Fig. 9 of the hxtorch paper shows: (a) the model learns
// in software, (b) the same weights on the uncalibrated chip lose some
// accuracy (the fixed pattern costs, it never helps) but keep most of it,
// (c) one hardware-in-the-loop epoch does not lose accuracy and ends near
// the software model again. The paper's absolute figures are for the real
// UCI set at full size; the bands here come from this size (1500 training
// and 600 test windows, 4 epochs) over ten (Seed, ChipSeed, DataSeed)
// combinations, measured:
//
//	software 0.535–0.643; chip − software −0.175…+0.017;
//	HIL − chip −0.018…+0.098; software − HIL −0.013…+0.086
//
// (the seeds below give 0.553, 0.520, 0.535). Each bound lies 1.7–1.8
// times as far from the claim as the worst value measured; a paired
// difference on 600 windows has a standard error of about 0.013. At this
// size one epoch at the hardware-in-the-loop rate moves the accuracy by a
// few hundredths only, so (c) catches a loop that ruins the model, not one
// that merely fails to help.
func TestHARSmall(t *testing.T) {
	const nTest = 600
	r, err := HAR(HAROptions{Synthetic: true, Train: 1500, Test: nTest, Epochs: 4})
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
		if n != nTest {
			t.Errorf("%s: confusion holds %d windows, want %d", s.Name, n, nTest)
		}
		if len(s.Recall) != 6 {
			t.Errorf("%s: %d recalls, want 6", s.Name, len(s.Recall))
		}
		t.Logf("%s: %.3f", s.Name, s.Accuracy)
	}
	sw, chip, hil := r.Software.Accuracy, r.Chip.Accuracy, r.HIL.Accuracy
	// (a) well above chance (1/6): at least 0.535 over the seeds measured
	if sw < 0.45 {
		t.Errorf("software accuracy %.3f, want ≥ 0.45: not learning", sw)
	}
	// (b) the chip without retraining: no gain beyond noise, no collapse
	if chip > sw+0.03 {
		t.Errorf("chip accuracy %.3f exceeds software %.3f by more than 0.03: the fixed pattern cannot help", chip, sw)
	}
	if chip < sw-0.30 {
		t.Errorf("chip accuracy %.3f, software %.3f: the chip lost more than 0.30", chip, sw)
	}
	// (c) hardware in the loop: not worse than the chip, back near software
	if hil < chip-0.03 {
		t.Errorf("hardware-in-the-loop accuracy %.3f is below the chip's %.3f by more than 0.03", hil, chip)
	}
	if hil < sw-0.15 {
		t.Errorf("hardware-in-the-loop accuracy %.3f, software %.3f: recovered less than to within 0.15", hil, sw)
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
