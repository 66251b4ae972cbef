package sim_test

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// rampNet is a node f(t) = t filtered by Lowpass(0.01) into a probe.
func rampNet() (*toolkit.Network, *toolkit.Probe) {
	net := toolkit.New("ramp", 0)
	u := net.Node("u", 1, func(t float64, out []float64) { out[0] = t })
	p := net.Probe("u", u, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	return net, p
}

// Any backend runs a built model through the same interface; CPU is the
// reference simulator.
func ExampleBackend() {
	net, p := rampNet()
	m, err := sim.Build(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := sim.CPU(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	if err := b.RunSteps(100); err != nil {
		fmt.Println(err)
		return
	}
	d, _ := b.Data(p)
	fmt.Printf("t = %.3f s, dt = %g, %d samples, last %.4f\n", b.Time(), b.Dt(), len(d), d[99][0])
	b.Reset()
	fmt.Println(b.Time())
	// Output:
	// t = 0.100 s, dt = 0.001, 100 samples, last 0.0895
	// 0
}

// A NewBackend is how code picks a backend without knowing which one.
func ExampleNewBackend() {
	run := func(newBackend sim.NewBackend) float64 {
		net, p := rampNet()
		m, _ := sim.Build(net)
		b, err := newBackend(m)
		if err != nil {
			return math.NaN()
		}
		defer b.Close()
		_ = b.RunSteps(10)
		d, _ := b.Data(p)
		return d[9][0]
	}
	fmt.Printf("%.6f\n", run(sim.CPU))
	// Output: 0.003357
}

// Ensemble parameters: gains, biases, encoders, … as Nengo's sim.data[ens].
func ExampleEnsembleParams() {
	net := toolkit.New("p", 0)
	net.Ensemble("a", 20, 2)
	m, err := sim.Build(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	e := m.Params.Ensembles["a"]
	// scaled encoders = encoders · gain / radius
	i := 3
	fmt.Println(len(e.Gain), len(e.Encoders), len(e.MaxRates),
		math.Abs(e.ScaledEncoders[2*i]-e.Encoders[2*i]*e.Gain[i]) < 1e-12, len(e.State["voltage"]))
	// Output: 20 40 20 true 20
}

// Connection parameters: the decoders folded with the transform.
func ExampleConnectionParams() {
	net := toolkit.New("p", 0)
	a, b := net.Ensemble("a", 30, 1), net.Passthrough("b", 2)
	c := net.Connect(a, b)
	c.Label, c.Transform = "ab", toolkit.Dense([][]float64{{1}, {-1}})
	m, err := sim.Build(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	cp := m.Params.Connections["ab"]
	fmt.Println(cp.Rows, cp.Cols, cp.Weights[0] == -cp.Weights[30], cp.EvalDims, len(cp.Targets) == len(cp.EvalPoints))
	// Output: 2 30 true 1 true
}

// Params given to Build replace what it would draw or solve: here the
// decoders of a connection are set to zero.
func ExampleParams() {
	net := toolkit.New("p", 0)
	one := net.Const("one", 1)
	a, out := net.Ensemble("a", 30, 1), net.Passthrough("out", 1)
	net.Connect(one, a)
	c := net.Connect(a, out)
	c.Label = "a_out"
	p := net.Probe("out", out, "")
	params := &sim.Params{Connections: map[string]*sim.ConnectionParams{
		"a_out": {Weights: make([]float64, 30), Rows: 1, Cols: 30},
	}}
	s, err := sim.New(net, sim.WithParams(params))
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = s.Run(0.1)
	d, _ := s.Data(p)
	fmt.Println(d[99][0])
	// Output: 0
}

// Options configure Build and New.
func ExampleOption() {
	net, p := rampNet()
	opts := []sim.Option{sim.DT(0.002), sim.Batch(2), sim.CheckNaN(true)}
	s, err := sim.New(net, opts...)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = s.Run(0.1)
	d, _ := s.DataBatch(p)
	fmt.Println(len(d), len(d[0]), s.Time())
	// Output: 2 50 0.1
}

// The operators of a built model, in execution order: values of package
// ir's types.
func ExampleModel_operators() {
	net := toolkit.New("ops", 0)
	u := net.Const("u", 1)
	v := net.Passthrough("v", 1)
	net.Connect(u, v)
	m, err := sim.Build(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	times, synapses := 0, 0
	for _, op := range m.Ops {
		switch op.(type) {
		case *ir.TimeUpdate:
			times++
		case *ir.SimSynapse:
			synapses++
		}
	}
	fmt.Println(len(m.Ops) > 0, times, synapses)
	// Output: true 1 1
}

// ProbeInfo: a built probe's size and sampling period (in steps).
func ExampleProbeInfo() {
	net := toolkit.New("p", 0)
	u := net.Const("u", 1, 2)
	p := net.Probe("u", u, "")
	p.SampleEvery = 0.005
	m, err := sim.Build(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	pi := m.Probe("u")
	fmt.Println(pi.Label, pi.Dims, pi.Period, pi.Probe == p)
	// Output: u 2 5 true
}
