// Package simtest is the conformance suite every sim.Backend runs: the
// Nengo semantics a backend must keep (one-step delay per filtered
// connection, Run equals Step repeated, Reset, sampling, determinism)
// and closed-form accuracy checks, with tolerances a backend may loosen
// (an analog chip cannot reach float64 rounding).
//
//	func TestConformance(t *testing.T) { simtest.Run(t, sim.CPU, simtest.Exact()) }
package simtest

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// Tolerances are the suite's limits.
type Tolerances struct {
	// Filter is the absolute error allowed against the analytic Lowpass
	// step response delayed one step (1e-8 for a float64 backend).
	Filter float64
	// Repeat is the absolute error allowed between Run(T) and Step
	// repeated, and between runs after Reset (0 for a deterministic backend).
	Repeat float64
	// Decode is the RMS error allowed for a 100-neuron communication
	// channel tracking sin(2πt) (after filtering, in units of the radius).
	Decode float64
	// Round is the relative rounding of a stored value (2⁻⁵² for float64,
	// 2⁻²³ for float32): a Node's output read back from a probe.
	Round float64
}

// Exact returns the tolerances of a float64 backend: the filter to 1e-8,
// bit-exact repeatability, decoding RMSE 0.1.
func Exact() Tolerances { return Tolerances{Filter: 1e-8, Repeat: 0, Decode: 0.1, Round: 0x1p-52} }

// Single returns the tolerances of a float32 backend: the filter to 1e-6
// (float32 rounding of values near 1), bit-exact repeatability, decoding
// RMSE 0.1.
func Single() Tolerances { return Tolerances{Filter: 1e-6, Repeat: 0, Decode: 0.1, Round: 0x1p-23} }

// Analog returns the tolerances of an emulated analog backend (package
// accel/analog): the digital parts (filters, probes, time) exact, runs
// repeatable (the noise restarts at Reset and is seeded), and the
// communication channel within RMSE 0.15 — its decoders and encoders
// multiply with 5-bit inputs, 6-bit weights, 8-bit results and 2 LSB
// of noise per product.
func Analog() Tolerances { return Tolerances{Filter: 1e-8, Repeat: 0, Decode: 0.15, Round: 0x1p-52} }

// Run runs every conformance check against backends made by newBackend.
func Run(t *testing.T, newBackend sim.NewBackend, tol Tolerances) {
	t.Run("LowpassDelay", func(t *testing.T) { lowpassDelay(t, newBackend, tol) })
	t.Run("AlphaDelay", func(t *testing.T) { alphaDelay(t, newBackend, tol) })
	t.Run("TwoLowpassesDelayTwo", func(t *testing.T) { twoLowpasses(t, newBackend, tol) })
	t.Run("RunEqualsStep", func(t *testing.T) { runEqualsStep(t, newBackend, tol) })
	t.Run("ResetRepeats", func(t *testing.T) { resetRepeats(t, newBackend, tol) })
	t.Run("SampleEvery", func(t *testing.T) { sampleEvery(t, newBackend, tol) })
	t.Run("CommunicationChannel", func(t *testing.T) { channel(t, newBackend, tol) })
}

func build(t *testing.T, net *toolkit.Network, nb sim.NewBackend) sim.Backend {
	t.Helper()
	m, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	b, err := nb(m)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func data(t *testing.T, b sim.Backend, p *toolkit.Probe) [][]float64 {
	t.Helper()
	d, err := b.Data(p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// lowpassDelay: a unit step through Lowpass(tau) into a passthrough node
// is 1 - exp(-(k)·dt/tau) at step k (1-based): the analytic response
// delayed by one step (Nengo's test_synapses.test_lowpass).
func lowpassDelay(t *testing.T, nb sim.NewBackend, tol Tolerances) {
	const tau = 0.01
	net := toolkit.New("lowpass", 1)
	u := net.Const("u", 1)
	y := net.Passthrough("y", 1)
	net.Connect(u, y).Synapse = synapses.Lowpass{Tau: tau}
	p := net.Probe("y", y, "")
	b := build(t, net, nb)
	if err := b.RunSteps(200); err != nil {
		t.Fatal(err)
	}
	d := data(t, b, p)
	dt := b.Dt()
	maxErr := 0.0
	for k, row := range d {
		want := 1 - math.Exp(-float64(k)*dt/tau) // step k+1 sees the filter after k inputs
		maxErr = math.Max(maxErr, math.Abs(row[0]-want))
	}
	t.Logf("Lowpass step response vs analytic (delayed one step): max error %.3g", maxErr)
	if !(maxErr <= tol.Filter) {
		t.Errorf("max error %.3g > %g", maxErr, tol.Filter)
	}
}

// alphaDelay: a unit step through Alpha(tau) is 1 - (1 + t/tau)e^(-t/tau)
// at t = (k-1)·dt for step k: delayed one step (as in Nengo's test_alpha;
// the check allows 5e-6, a zero-order hold gives rounding only).
func alphaDelay(t *testing.T, nb sim.NewBackend, tol Tolerances) {
	const tau = 0.005
	net := toolkit.New("alpha", 1)
	u := net.Const("u", 1)
	y := net.Passthrough("y", 1)
	net.Connect(u, y).Synapse = synapses.Alpha{Tau: tau}
	p := net.Probe("y", y, "")
	b := build(t, net, nb)
	if err := b.RunSteps(200); err != nil {
		t.Fatal(err)
	}
	d := data(t, b, p)
	maxErr := 0.0
	for k, row := range d {
		tt := float64(k) * b.Dt()
		want := 1 - (1+tt/tau)*math.Exp(-tt/tau)
		maxErr = math.Max(maxErr, math.Abs(row[0]-want))
	}
	t.Logf("Alpha step response vs analytic (delayed one step): max error %.3g", maxErr)
	if !(maxErr <= math.Max(tol.Filter, 5e-6)) {
		t.Errorf("max error %.3g > %g", maxErr, math.Max(tol.Filter, 5e-6))
	}
}

func twoLowpasses(t *testing.T, nb sim.NewBackend, tol Tolerances) {
	net := toolkit.New("two", 1)
	u := net.Const("u", 1)
	a, c := net.Passthrough("a", 1), net.Passthrough("c", 1)
	net.Connect(u, a).Synapse = synapses.Lowpass{Tau: 0}
	net.Connect(a, c).Synapse = synapses.Lowpass{Tau: 0}
	p := net.Probe("c", c, "")
	b := build(t, net, nb)
	if err := b.RunSteps(4); err != nil {
		t.Fatal(err)
	}
	d := data(t, b, p)
	want := []float64{0, 0, 1, 1}
	for k := range want {
		if math.Abs(d[k][0]-want[k]) > tol.Filter {
			t.Errorf("step %d: got %v, want %v (two filtered connections delay two steps)", k+1, d[k][0], want[k])
		}
	}
}

func channelNet(seed int64) (*toolkit.Network, *toolkit.Probe) {
	net := toolkit.New("channel", seed)
	stim := net.Node("stim", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
	a := net.Ensemble("a", 100, 1)
	bb := net.Ensemble("b", 100, 1)
	net.Connect(stim, a)
	net.Connect(a, bb)
	p := net.Probe("b", bb, toolkit.AttrDecoded)
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	return net, p
}

func runEqualsStep(t *testing.T, nb sim.NewBackend, tol Tolerances) {
	net, p := channelNet(3)
	m, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	b1, err := nb(m)
	if err != nil {
		t.Fatal(err)
	}
	defer b1.Close()
	b2, err := nb(m)
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	if err := b1.RunSteps(300); err != nil {
		t.Fatal(err)
	}
	for range 300 {
		if err := b2.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if math.Abs(b1.Time()-b2.Time()) > 1e-12 || math.Abs(b1.Time()-0.3) > 1e-12 {
		t.Errorf("Time: RunSteps %v, Step %v, want 0.3", b1.Time(), b2.Time())
	}
	compare(t, "RunSteps vs Step", data(t, b1, p), data(t, b2, p), tol.Repeat)
}

func resetRepeats(t *testing.T, nb sim.NewBackend, tol Tolerances) {
	net, p := channelNet(4)
	b := build(t, net, nb)
	if err := b.RunSteps(200); err != nil {
		t.Fatal(err)
	}
	first := data(t, b, p)
	b.Reset()
	if b.Time() != 0 {
		t.Errorf("Time after Reset = %v, want 0", b.Time())
	}
	if err := b.RunSteps(200); err != nil {
		t.Fatal(err)
	}
	compare(t, "after Reset", first, data(t, b, p), tol.Repeat)
	// the same seed gives the same model and output
	net2, p2 := channelNet(4)
	b2 := build(t, net2, nb)
	if err := b2.RunSteps(200); err != nil {
		t.Fatal(err)
	}
	compare(t, "same seed", first, data(t, b2, p2), tol.Repeat)
}

func sampleEvery(t *testing.T, nb sim.NewBackend, tol Tolerances) {
	net := toolkit.New("sample", 1)
	u := net.Node("u", 1, func(t float64, out []float64) { out[0] = t })
	p := net.Probe("u", u, "")
	p.SampleEvery = 0.005
	b := build(t, net, nb)
	if err := b.RunSteps(100); err != nil {
		t.Fatal(err)
	}
	d := data(t, b, p)
	if len(d) != 20 {
		t.Fatalf("got %d samples, want 20", len(d))
	}
	if math.Abs(d[0][0]-0.005) > 0.005*tol.Round {
		t.Errorf("first sample at t = %v, want 0.005", d[0][0])
	}
}

func channel(t *testing.T, nb sim.NewBackend, tol Tolerances) {
	net, p := channelNet(5)
	b := build(t, net, nb)
	if err := b.RunSteps(1000); err != nil {
		t.Fatal(err)
	}
	d := data(t, b, p)
	var se float64
	n := 0
	for k := 100; k < len(d); k++ {
		// three filters (two connections, the probe) delay the sine by
		// about their summed time constants
		tt := float64(k+1)*b.Dt() - 0.02
		e := d[k][0] - math.Sin(2*math.Pi*tt)
		se += e * e
		n++
	}
	rmse := math.Sqrt(se / float64(n))
	t.Logf("communication channel RMSE %.3g", rmse)
	if !(rmse <= tol.Decode) {
		t.Errorf("RMSE %.3g > %g", rmse, tol.Decode)
	}
}

func compare(t *testing.T, what string, a, b [][]float64, atol float64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d vs %d samples", what, len(a), len(b))
	}
	maxErr := 0.0
	for k := range a {
		for i := range a[k] {
			maxErr = math.Max(maxErr, math.Abs(a[k][i]-b[k][i]))
		}
	}
	if !(maxErr <= atol) {
		t.Errorf("%s: max difference %.3g > %g", what, maxErr, atol)
	}
}
