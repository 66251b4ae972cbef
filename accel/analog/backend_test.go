package analog_test

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/simtest"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

func TestConformance(t *testing.T) {
	simtest.Run(t, analog.NewBackend(analog.BackendOptions{}), simtest.Analog())
}

func TestConformanceMock(t *testing.T) {
	cfg := analog.MockConfig()
	simtest.Run(t, analog.NewBackend(analog.BackendOptions{Config: &cfg}), simtest.Analog())
}

// A model with a layer node: the Dense and Conv1D layers run on the chip
// and stay close to the CPU's result; Select keeps a connection on the CPU.
func TestLayersAndSelection(t *testing.T) {
	const relTol = 0.08 // RMS error relative to the signal's RMS
	net := toolkit.New("layers", 3)
	stim := net.Node("stim", 16, func(t float64, out []float64) {
		for i := range out {
			out[i] = math.Sin(2*math.Pi*(t+float64(i)/16)) * float64(1+i%3)
		}
	})
	c, err := net.Layer("conv", stim, layers.Conv1D{Filters: 4, Kernel: 3, Stride: 1}, 8, 2)
	if err != nil {
		t.Fatal(err)
	}
	d, err := net.Layer("dense", c, layers.Dense{Units: 5}, 24)
	if err != nil {
		t.Fatal(err)
	}
	out := net.Passthrough("out", 5)
	net.Connect(d, out).Synapse = synapses.Lowpass{Tau: 0.005}
	p := net.Probe("out", out, "")
	m, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := sim.NewFromModel(m)
	ref.RunSteps(300)
	want, _ := ref.Data(p)
	bk, err := analog.NewBackend(analog.BackendOptions{})(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := bk.RunSteps(300); err != nil {
		t.Fatal(err)
	}
	got, _ := bk.Data(p)
	var se, ss float64
	for k := range want {
		for i := range want[k] {
			se += (got[k][i] - want[k][i]) * (got[k][i] - want[k][i])
			ss += want[k][i] * want[k][i]
		}
	}
	rel := math.Sqrt(se / ss)
	t.Logf("layers on the chip: relative RMS error %.4f", rel)
	if !(rel < relTol) {
		t.Errorf("relative RMS error %.4f ≥ %v", rel, relTol)
	}
	onChip := 0
	for _, pl := range bk.(*analog.Backend).Placement() {
		t.Logf("%+v", pl)
		if pl.OnChip {
			onChip++
		}
	}
	if onChip < 2 {
		t.Errorf("%d products/layers on the chip, want the two layers at least", onChip)
	}
	// keep every layer on the CPU: the result equals the CPU's
	cpu, err := analog.NewBackend(analog.BackendOptions{SelectLayer: func(string, layers.Layer) bool { return false }, Select: func(sim.DenseProduct) bool { return false }})(m)
	if err != nil {
		t.Fatal(err)
	}
	cpu.RunSteps(300)
	g2, _ := cpu.Data(p)
	for k := range want {
		for i := range want[k] {
			if g2[k][i] != want[k][i] {
				t.Fatalf("with nothing selected: step %d differs from the CPU", k)
			}
		}
	}
}
