package sim_test

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/npz"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// A communication channel: a constant 0.5 through two ensembles, decoded
// after 0.5 s.
func Example() {
	net := toolkit.New("channel", 0)
	stim := net.Const("stim", 0.5)
	a := net.Ensemble("a", 100, 1)
	b := net.Ensemble("b", 100, 1)
	net.Connect(stim, a)
	net.Connect(a, b)
	p := net.Probe("b", b, toolkit.AttrDecoded)
	p.Synapse = synapses.Lowpass{Tau: 0.01}

	s, err := sim.New(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Run(0.5); err != nil {
		fmt.Println(err)
		return
	}
	d, _ := s.Data(p)
	fmt.Printf("t = %.3f s, %d samples, b ≈ %.1f\n", s.Time(), len(d), d[len(d)-1][0])
	// Output: t = 0.500 s, 500 samples, b ≈ 0.5
}

// A loop without a synapse cannot be simulated: Build names the operators.
func ExampleBuild_cycle() {
	net := toolkit.New("loop", 0)
	a := net.Passthrough("a", 1)
	c := net.Connect(a, a)
	c.Synapse = nil
	_, err := sim.Build(net)
	fmt.Println(err != nil)
	// Output: true
}

// Built parameters can be read back, e.g. to export them as .npz.
func ExampleModel_Params() {
	net := toolkit.New("p", 1)
	a := net.Ensemble("a", 10, 2)
	a.NEvalPoints = 100
	m, err := sim.Build(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	e := m.Params.Ensembles["a"]
	norm := math.Hypot(e.Encoders[0], e.Encoders[1])
	fmt.Println(len(e.Gain), len(e.EvalPoints)/2, math.Round(norm*1e9)/1e9)
	// Output: 10 100 1
}

// Step and Run give the same result: Run(T) is round(T/dt) steps.
func ExampleSimulator_Step() {
	net := toolkit.New("t", 0)
	u := net.Node("u", 1, func(t float64, out []float64) { out[0] = t })
	p := net.Probe("u", u, "")
	s, _ := sim.New(net)
	for range 3 {
		s.Step()
	}
	d, _ := s.Data(p)
	fmt.Println(d)
	// Output: [[0.001] [0.002] [0.003]]
}

func ExampleModel_String() {
	net := toolkit.New("channel", 0)
	u := net.Const("u", 0.5)
	a := net.Ensemble("a", 10, 1)
	net.Connect(u, a)
	net.Probe("a", a, "")
	m, _ := sim.Build(net)
	fmt.Println(m)
	// Output: Model "channel": 1 ensembles (10 neurons), 1 nodes, 1 connections, 1 probes; 16 signals (79 values), 13 operators (Copy 3, DotInc 2, ElementwiseInc 1, Reset 4, SimNeurons 1, SimSynapse 1, TimeUpdate 1); dt 0.001 s
}

// Reproduce a model Nengo built: load its parameters from the .npz that
// sim/testdata/nengo/export.py wrote and compare a probe with Nengo's.
func ExampleBuildWithParams() {
	const path = "testdata/nengo/lif_ens.npz"
	params, err := sim.LoadParams(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	net := toolkit.New("lif_ens", 0)
	stim := net.Node("stim", 1, func(t float64, out []float64) { out[0] = 0.9 * math.Sin(2*math.Pi*t) })
	a := net.Ensemble("a", 50, 1)
	net.Connect(stim, a).Label = "stim_a"
	p := net.Probe("a_decoded", a, toolkit.AttrDecoded)
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	s, err := sim.New(net, sim.WithParams(params))
	if err != nil {
		fmt.Println(err)
		return
	}
	s.RunSteps(1000)
	got, _ := s.Data(p)
	arrays, _ := npz.Read(path)
	want := arrays["probe/a_decoded"].Data
	maxErr := 0.0
	for k := range got {
		maxErr = math.Max(maxErr, math.Abs(got[k][0]-want[k]))
	}
	fmt.Println("max |neurogo - Nengo| < 1e-9:", maxErr < 1e-9)
	// Output: max |neurogo - Nengo| < 1e-9: true
}

// Minibatches and data feeds: two lanes, each fed its own input.
func ExampleFeed() {
	net := toolkit.New("feed", 0)
	u := net.Const("u", 0) // a placeholder (NengoDL: nengo.Node(np.zeros(1))); the feed replaces it
	y := net.Passthrough("y", 1)
	net.Connect(u, y).Synapse = nil
	p := net.Probe("y", y, "")
	data := [][][]float64{{{1}, {2}, {3}}, {{-1}, {-2}, {-3}}} // [batch][step][dim]
	s, err := sim.New(net, sim.Batch(2), sim.Feed(u, data))
	if err != nil {
		fmt.Println(err)
		return
	}
	s.RunSteps(3)
	d, _ := s.DataBatch(p)
	fmt.Println(d)
	// Output: [[[1] [2] [3]] [[-1] [-2] [-3]]]
}
