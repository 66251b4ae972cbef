package networks

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// Thresholds from Nengo 4.1's test_actionselection.py.
const (
	bgSelectedMin    = -0.1  // test_basic: mean output of the selected action > -0.1
	bgSuppressedMax  = -0.8  // test_basic: every other action < -0.8
	bgGradedMax      = -0.5  // ours: runner-up 0.3 below the winner (see bgCases)
	thalSelectedMin  = 0.8   // test_thalamus: selected action > 0.8
	thalSuppressed   = 0.01  // test_thalamus: others < 0.01
	bgBiasInputAtol  = 0.005 // test_bias_input
	bgSettleTime     = 0.1   // averages over t > 0.1 s
	bgBiasSettleTime = 0.08
)

// bgCases are inputs with the largest utility in different places. With
// a margin of 0.4 between the winner and the rest (Nengo's test_basic), the
// others are below -0.8; with a margin of 0.3 the runner-up is suppressed less
// (Nengo 4.1 itself gives -0.62/-0.57 and -0.78/-0.80 for the last two
// rows with seeds 1/2; we measure about -0.57 and -0.79), so those rows
// check -0.5.
var bgCases = []struct {
	in            []float64
	suppressedMax float64
}{
	{[]float64{0.8, 0.4, 0.4, 0.4, 0.4}, bgSuppressedMax}, // Nengo's test_basic
	{[]float64{0.4, 0.8, 0.4, 0.4, 0.4}, bgSuppressedMax},
	{[]float64{0.4, 0.4, 0.8, 0.4, 0.4}, bgSuppressedMax},
	{[]float64{0.4, 0.4, 0.4, 0.8, 0.4}, bgSuppressedMax},
	{[]float64{0.4, 0.4, 0.4, 0.4, 0.8}, bgSuppressedMax},
	{[]float64{0.1, 0.2, 0.3, 0.3, 0.7}, bgSuppressedMax},
	{[]float64{0.3, 0.5, 0.9, 0.2, 0.5}, bgGradedMax},
	{[]float64{0.3, 0.5, 0.9, 0.2, 0.6}, bgGradedMax},
	{[]float64{0.1, 0.2, 0.3, 0.4, 0.7}, bgGradedMax},
}

func argmax(v []float64) int {
	k := 0
	for i := range v {
		if v[i] > v[k] {
			k = i
		}
	}
	return k
}

// TestBasalGangliaSelects is Nengo's test_basic, extended to put the
// largest input in other places: the selected action's output is near 0,
// every other strongly negative.
func TestBasalGangliaSelects(t *testing.T) {
	for i, c := range bgCases {
		in := c.in
		net := toolkit.New("bg test", int64(10+i))
		bg, err := BasalGanglia(net, "bg", len(in), nil)
		if err != nil {
			t.Fatal(err)
		}
		u := net.Const("input", in...)
		net.Connect(u, bg.Input).Synapse = nil
		p := net.Probe("out", bg.Output, "")
		p.Synapse = synapses.Lowpass{Tau: 0.01}
		data, tr := simulate(t, net, 0.2, p)
		out := meanOver(data[0], tr, func(t float64) bool { return t > bgSettleTime })
		win := argmax(in)
		t.Logf("input %v: output %.3f", in, out)
		for j, v := range out {
			if j == win && !(v > bgSelectedMin) {
				t.Errorf("input %v: selected output[%d] = %.3f, want > %v", in, j, v, bgSelectedMin)
			}
			if j != win && !(v < c.suppressedMax) {
				t.Errorf("input %v: output[%d] = %.3f, want < %v", in, j, v, c.suppressedMax)
			}
		}
	}
}

// TestBasalGangliaBiasInput is Nengo's test_bias_input: input bias −0.5
// shifts the filtered input to [0.3, 0, −0.3].
func TestBasalGangliaBiasInput(t *testing.T) {
	net := toolkit.New("bg bias", 3)
	cfg := DefaultBasalGanglia()
	cfg.InputBias = -0.5
	bg, err := BasalGanglia(net, "bg", 3, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	u := net.Const("input", 0.8, 0.5, 0.2)
	net.Connect(u, bg.Input).Synapse = nil
	p := net.Probe("in", bg.Input, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	data, tr := simulate(t, net, 0.1, p)
	want := []float64{0.3, 0, -0.3}
	worst := 0.0
	for i, r := range data[0] {
		if tr[i] <= bgBiasSettleTime {
			continue
		}
		for j := range r {
			worst = math.Max(worst, math.Abs(r[j]-want[j]))
		}
	}
	t.Logf("bias input: max |error| %.2g (atol %v)", worst, bgBiasInputAtol)
	if !(worst <= bgBiasInputAtol) {
		t.Errorf("bias input: max |error| %.3g, want <= %v", worst, bgBiasInputAtol)
	}
}

// TestThalamus is Nengo's test_thalamus: basal ganglia → thalamus makes
// the selected action ≈ 1 and the others ≈ 0.
func TestThalamus(t *testing.T) {
	in := []float64{0.8, 0.4, 0.4, 0.4, 0.4}
	net := toolkit.New("thalamus test", 4)
	bg, err := BasalGanglia(net, "bg", len(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	u := net.Const("input", in...)
	net.Connect(u, bg.Input).Synapse = nil
	th, err := Thalamus(net, "thal", len(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	net.Connect(bg.Output, th.Input)
	p := net.Probe("out", th.Output, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	data, tr := simulate(t, net, 0.2, p)
	out := meanOver(data[0], tr, func(t float64) bool { return t > bgSettleTime })
	t.Logf("thalamus output %.3f", out)
	if !(out[0] > thalSelectedMin) {
		t.Errorf("selected action %.3f, want > %v", out[0], thalSelectedMin)
	}
	for j, v := range out[1:] {
		if !(v < thalSuppressed) {
			t.Errorf("action %d = %.3f, want < %v", j+1, v, thalSuppressed)
		}
	}
}
