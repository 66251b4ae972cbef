package networks_test

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// run simulates net for seconds and returns the mean of p over the last
// 0.1 s, rounded to one decimal.
func run(net *toolkit.Network, p *toolkit.Probe, seconds float64) []float64 {
	s, err := sim.New(net)
	if err != nil {
		panic(err)
	}
	if err := s.Run(seconds); err != nil {
		panic(err)
	}
	d, _ := s.Data(p)
	out := make([]float64, len(d[0]))
	for _, r := range d[len(d)-100:] {
		for j, v := range r {
			out[j] += v / 100
		}
	}
	for j := range out {
		out[j] = math.Round(out[j]*10) / 10
		if out[j] == 0 {
			out[j] = 0 // no "-0"
		}
	}
	return out
}

// Squares of 0.6, -0.4 and 0.8 (0.36, 0.16, 0.64) decoded by 50 LIF
// neurons each: with seed 0 the middle one comes out 0.148 (the error of
// a 50-neuron ensemble, 0.14–0.18 over seeds 0–5), printed to one decimal.
func ExampleEnsembleArray() {
	net := toolkit.New("model", 0)
	ea, _ := networks.EnsembleArray(net, "ea", 50, 3, 1)
	sq, _ := ea.AddOutput("square", func(x []float64) []float64 { return []float64{x[0] * x[0]} })
	net.Connect(net.Const("x", 0.6, -0.4, 0.8), ea.Input)
	p := net.Probe("sq", sq, "")
	p.Synapse = synapses.Lowpass{Tau: 0.03}
	fmt.Println(len(ea.Ensembles), ea.Ensembles[0].Label, ea.Dims(), sq.SizeIn)
	fmt.Println(run(net, p, 0.5))
	// Output:
	// 3 ea_0 3 3
	// [0.4 0.1 0.6]
}

func ExampleProduct() {
	net := toolkit.New("model", 0)
	prod, _ := networks.Product(net, "prod", 200, 2, 1)
	net.Connect(net.Const("a", 0.5, -0.5), prod.InputA)
	net.Connect(net.Const("b", 0.8, 0.8), prod.InputB)
	p := net.Probe("ab", prod.Output, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	fmt.Println(len(prod.Net.AllEnsembles()), "ensembles")
	fmt.Println(run(net, p, 0.5))
	// Output:
	// 4 ensembles
	// [0.4 -0.4]
}

func ExampleCircularConvolution() {
	net := toolkit.New("model", 0)
	cc, _ := networks.CircularConvolution(net, "bind", 100, 8, false, false, 1)
	fmt.Println(cc.Product.Dims, "products,", len(cc.Net.AllEnsembles()), "ensembles")
	// Output: 20 products, 40 ensembles
}

func ExampleBasalGanglia() {
	net := toolkit.New("model", 0)
	bg, _ := networks.BasalGanglia(net, "bg", 3, nil) // Nengo's defaults
	net.Connect(net.Const("utilities", 0.3, 0.8, 0.4), bg.Input).Synapse = nil
	p := net.Probe("out", bg.Output, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	out := run(net, p, 0.2)
	fmt.Println(len(bg.Net.AllEnsembles()), "ensembles")
	fmt.Println("selected:", out[1] > -0.1, "others suppressed:", out[0] < -0.8 && out[2] < -0.8)
	// Output:
	// 15 ensembles
	// selected: true others suppressed: true
}

func ExampleThalamus() {
	net := toolkit.New("model", 0)
	th, _ := networks.Thalamus(net, "thal", 4, nil)
	fmt.Println(len(th.Actions.Ensembles), th.Actions.NNeuronsPerEnsemble, th.Config.MutualInhib)
	// Output: 4 50 1
}

func ExampleIntegrator() {
	net := toolkit.New("model", 0)
	in, _ := networks.Integrator(net, "integ", 0.1, 200, 1)
	u := net.Node("u", 1, func(t float64, out []float64) {
		out[0] = 0
		if t < 0.25 {
			out[0] = 2 // integrates to 0.5
		}
	})
	net.Connect(u, in.Input).Synapse = nil
	p := net.Probe("x", in.Output, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	fmt.Println(run(net, p, 0.6))
	// Output: [0.5]
}

func ExampleOscillator() {
	net := toolkit.New("model", 0)
	osc, _ := networks.Oscillator(net, "osc", 0.1, 2*math.Pi, 1000) // 1 Hz
	fmt.Println(osc.Ensemble.Dims, osc.Net.Connections[0].Transform.Matrix[1][0] == 2*math.Pi*0.1)
	// Output: 2 true
}

func ExampleInputGatedMemory() {
	net := toolkit.New("model", 0)
	mem, _ := networks.InputGatedMemory(net, "mem", 100, 1, nil)
	net.Connect(net.Node("x", 1, func(t float64, out []float64) {
		out[0] = 0
		if t < 0.4 {
			out[0] = 0.5
		}
	}), mem.Input)
	net.Connect(net.Node("gate", 1, func(t float64, out []float64) {
		out[0] = 0
		if t >= 0.35 {
			out[0] = 1 // close the gate before the input goes away
		}
	}), mem.Gate)
	p := net.Probe("mem", mem.Output, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	fmt.Println(run(net, p, 0.7))
	// Output: [0.5]
}

func ExampleBenchCConv() {
	net, _ := networks.BenchCConv(16, 32, 0)
	n := 0
	for _, e := range net.AllEnsembles() {
		n += e.N
	}
	fmt.Println(net.Label, len(net.AllEnsembles()), "ensembles,", n, "neurons, probe", net.Probes[0].Label)
	// Output: cconv 72 ensembles, 1152 neurons, probe p
}

func ExampleBenchmarks() {
	for _, name := range []string{"integrator", "cconv", "basal_ganglia", "pes"} {
		net, err := networks.Benchmarks()[name](8, 32, 0)
		fmt.Println(name, len(net.AllEnsembles()), err)
	}
	// Output:
	// integrator 8 <nil>
	// cconv 40 <nil>
	// basal_ganglia 40 <nil>
	// pes 1 <nil>
}
