package toolkit_test

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

func ExampleNetwork_Ensemble() {
	net := toolkit.New("net", 0)
	a := net.Ensemble("a", 50, 1)
	a.Radius = 2
	fmt.Println(a.N, a.Dims, a.Radius, a.NeuronType.Name(), a.EvalPointCount())
	// Output: 50 1 2 LIF 750
}

func ExampleNetwork_Connect() {
	net := toolkit.New("net", 0)
	a := net.Ensemble("a", 50, 2)
	b := net.Ensemble("b", 50, 1)
	c := net.Connect(a.Slice(0, 1), b)
	c.Function = func(x []float64) []float64 { return []float64{x[0] * x[0]} }
	fmt.Println(c.Synapse, c.Solver, toolkit.Ref(c.Pre))
	// Output: Lowpass(tau=0.005) LstsqL2(reg=0.1) Ensemble "a"[0]
}

func ExampleNetwork_Validate() {
	net := toolkit.New("net", 0)
	net.Ensemble("a", 0, 1)
	fmt.Println(net.Validate())
	// Output: toolkit: Ensemble "a".N = 0: must be positive (number of neurons)
}

func ExampleNetwork_Probe() {
	net := toolkit.New("net", 0)
	a := net.Ensemble("a", 50, 1)
	p := net.Probe("a", a, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	q := net.Probe("v", a.Neurons(), toolkit.AttrVoltage)
	fmt.Println(p.Attr, q.Attr, net.Validate())
	// Output: decoded_output voltage <nil>
}

func ExampleNetwork_Node() {
	net := toolkit.New("net", 0)
	c := net.Const("c", 0.5, -0.5)
	f := net.Node("f", 1, func(t float64, out []float64) { out[0] = 2 * t })
	g := net.NodeIn("g", 2, 1, func(t float64, x, out []float64) { out[0] = x[0] * x[1] })
	p := net.Passthrough("p", 2)
	fmt.Println(c.SizeOut, f.SizeOut, g.SizeIn, p.IsPassthrough(), net.Validate())
	// Output: 2 1 2 true <nil>
}

func ExampleDense() {
	net := toolkit.New("net", 0)
	u := net.Const("u", 1, 2)
	a := net.Ensemble("a", 50, 1)
	c := net.Connect(u, a)
	c.Transform = toolkit.Dense([][]float64{{0.5, 0.5}}) // 1×2: mean of u
	fmt.Println(net.Validate())
	c.Transform = toolkit.Scalar(2) // 2-D into 1-D needs a matrix
	fmt.Println(net.Validate())
	// Output:
	// <nil>
	// toolkit: Connection "u->a".Transform = 2: a scalar transform needs equal pre and post sizes (2 != 1); use a Dense transform
}

func ExamplePES() {
	net := toolkit.New("net", 0)
	pre, post, e := net.Ensemble("pre", 50, 1), net.Ensemble("post", 50, 1), net.Ensemble("err", 50, 1)
	c := net.Connect(pre, post)
	c.LearningRule = toolkit.NewPES()
	net.Connect(e, c.Rule()) // the error drives the rule
	fmt.Println(c.LearningRule.Name(), net.Validate())
	// Output: PES <nil>
}

func ExampleEnsemble_Neurons() {
	net := toolkit.New("net", 0)
	a := net.Ensemble("a", 50, 1)
	b := net.Ensemble("b", 20, 1)
	c := net.Connect(a.Neurons(), b.Neurons().Slice(0, 10)) // neuron to neuron, into 10 of b's neurons
	c.Transform = toolkit.Dense(make([][]float64, 10))
	for i := range c.Transform.Matrix {
		c.Transform.Matrix[i] = make([]float64, 50)
	}
	fmt.Println(toolkit.Ref(c.Post), toolkit.TargetSize(c.Post, true), net.Validate())
	// Output: Neurons "b.neurons"[0 1 2 3 4 5 6 7 8 9] 10 <nil>
}

func ExampleDirect() {
	net := toolkit.New("net", 0)
	a := net.Ensemble("a", 1, 2)
	a.NeuronType = toolkit.Direct{} // computes functions exactly, no neurons
	fmt.Println(a.NeuronType.Name(), net.Validate())
	// Output: Direct <nil>
}

func ExampleWhiteSignal() {
	net := toolkit.New("net", 0)
	u := net.NodeProcess("u", 0, 2, toolkit.NewWhiteSignal(1, 5)) // period 1 s, up to 5 Hz, RMS 0.5
	fmt.Println(u.Process.Name(), u.SizeOut, net.Validate())
	// Output: WhiteSignal 2 <nil>
}
