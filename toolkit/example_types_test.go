package toolkit_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// A decoded connection computing x² with its defaults, and its sizes.
func ExampleConnection() {
	net := toolkit.New("net", 0)
	a, b := net.Ensemble("a", 50, 1), net.Ensemble("b", 50, 1)
	c := net.Connect(a, b)
	c.Label = "square"
	c.Function = func(x []float64) []float64 { return []float64{x[0] * x[0]} }
	in, out := c.Dimensions()
	fmt.Println(c.Kind(), c.Name(), in, out, c.Synapse, c.Solver, c.Validate())
	// Output: Connection square 1 1 Lowpass(tau=0.005) LstsqL2(reg=0.1) <nil>
}

// Defaults are per network: change them before creating objects.
func ExampleDefaults() {
	net := toolkit.New("net", 0)
	net.Defaults.NeuronType = neurons.NewLIFRate()
	net.Defaults.Synapse = synapses.Lowpass{Tau: 0.01}
	a, b := net.Ensemble("a", 10, 1), net.Ensemble("b", 10, 1)
	c := net.Connect(a, b)
	d := toolkit.NengoDefaults()
	fmt.Println(a.NeuronType.Name(), c.Synapse, d.NeuronType.Name(), d.Synapse, d.Radius)
	// Output: LIFRate Lowpass(tau=0.01) LIF Lowpass(tau=0.005) 1
}

// Validation errors name the object, the field, the value and the rule.
func Example_invalid() {
	net := toolkit.New("net", 0)
	a := net.Ensemble("a", 50, 1)
	a.Radius = -1
	err := net.Validate()
	var e *validate.Error
	if errors.As(err, &e) {
		fmt.Println(e.Object, e.Field, e.Value)
	}
	fmt.Println(err)
	// Output:
	// Ensemble "a" Radius -1
	// toolkit: Ensemble "a".Radius = -1: must be positive and finite
}

// A Function maps the pre value to what the connection decodes.
func ExampleFunction() {
	var f toolkit.Function = func(x []float64) []float64 { return []float64{x[0] * x[1]} }
	net := toolkit.New("net", 0)
	ab := net.Ensemble("ab", 100, 2)
	prod := net.Passthrough("prod", 1)
	c := net.Connect(ab, prod)
	c.Function = f
	fmt.Println(f([]float64{0.5, -0.5}), net.Validate())
	// Output: [-0.25] <nil>
}

// The learning rules implement LearningRule; the builder accepts PES, BCM,
// Oja, Voja and RLS.
func ExampleLearningRule() {
	for _, r := range []toolkit.LearningRule{toolkit.NewPES(), toolkit.NewBCM(), toolkit.NewOja(), toolkit.NewVoja(), toolkit.NewRLS()} {
		fmt.Println(r.Name(), r.Validate())
	}
	// Output:
	// PES <nil>
	// BCM <nil>
	// Oja <nil>
	// Voja <nil>
	// RLS <nil>
}

// BCM learns on a neuron-to-neuron weight matrix.
func ExampleBCM() {
	net := toolkit.New("net", 0)
	pre, post := net.Ensemble("pre", 20, 1), net.Ensemble("post", 10, 1)
	w := make([][]float64, 10)
	for i := range w {
		w[i] = make([]float64, 20)
	}
	c := net.Connect(pre.Neurons(), post.Neurons())
	c.Transform = toolkit.Dense(w)
	r := toolkit.NewBCM()
	c.LearningRule = r
	fmt.Println(r.LearningRate, r.PreSynapse, r.ThetaSynapse, net.Validate())
	// Output: 1e-09 Lowpass(tau=0.005) Lowpass(tau=1) <nil>
}

// Oja's rule on a neuron-to-neuron connection; a simulation changes the
// weights from zero.
func ExampleOja() {
	net := toolkit.New("net", 0)
	u := net.Node("u", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
	pre, post := net.Ensemble("pre", 20, 1), net.Ensemble("post", 10, 1)
	net.Connect(u, pre)
	w := make([][]float64, 10)
	for i := range w {
		w[i] = make([]float64, 20)
	}
	c := net.Connect(pre.Neurons(), post.Neurons())
	c.Transform = toolkit.Dense(w)
	c.LearningRule = toolkit.NewOja()
	p := net.Probe("w", c, toolkit.AttrWeights)
	p.SampleEvery = 0.1
	s, err := sim.New(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Run(0.2); err != nil {
		fmt.Println(err)
		return
	}
	d, _ := s.Data(p)
	changed := 0
	for _, v := range d[1] {
		if v != 0 {
			changed++
		}
	}
	fmt.Println(toolkit.NewOja().Beta, len(d), len(d[1]), changed > 0)
	// Output: 1 2 200 true
}

// Voja moves the post ensemble's encoders towards the decoded input,
// scaled by a learning signal connected to the rule.
func ExampleVoja() {
	net := toolkit.New("net", 0)
	pre, post := net.Ensemble("pre", 50, 1), net.Ensemble("post", 40, 1)
	c := net.Connect(pre, post)
	c.LearningRule = toolkit.NewVoja()
	learn := net.Const("learn", 1)
	lc := net.Connect(learn, c.Rule())
	lc.Synapse = nil
	net.Probe("enc", c.Rule(), "scaled_encoders")
	in, out := c.Rule().Dimensions()
	fmt.Println(c.Rule(), in, out, net.Validate())
	// Output: LearningRule of Connection "pre->post" 1 0 <nil>
}

// RLS learns decoders from an error signal, like PES but with a running
// inverse correlation matrix.
func ExampleRLS() {
	net := toolkit.New("net", 0)
	pre, post := net.Ensemble("pre", 30, 1), net.Passthrough("post", 1)
	c := net.Connect(pre, post)
	c.LearningRule = toolkit.NewRLS()
	errN := net.Passthrough("err", 1)
	net.Connect(post, errN)
	net.Connect(errN, c.Rule())
	fmt.Println(c.LearningRule.Name(), toolkit.NewRLS().LearningRate, net.Validate())
	// Output: RLS 0.001 <nil>
}

// A Rule is the target for a connection's error (or learning) signal.
func ExampleRule() {
	net := toolkit.New("net", 0)
	pre, post := net.Ensemble("pre", 50, 2), net.Ensemble("post", 50, 2)
	c := net.Connect(pre, post)
	c.LearningRule = toolkit.NewPES()
	in, _ := c.Rule().Dimensions()
	fmt.Println(c.Rule().Kind(), in, c.Rule().Conn == c)
	// Output: LearningRule 2 true
}

// Neurons is an ensemble's population as a connection or probe target.
func ExampleNeurons() {
	net := toolkit.New("net", 0)
	a := net.Ensemble("a", 50, 1)
	n := a.Neurons()
	in, out := n.Dimensions()
	fmt.Println(n, n.Kind(), in, out, toolkit.ProbeAttrs(n))
	// Output: Neurons "a.neurons" Neurons 50 50 [output spikes rates input voltage refractory_time]
}

// The four kinds of Node: constant, f(t), f(t, x) and passthrough.
func ExampleNode() {
	net := toolkit.New("net", 0)
	nodes := []*toolkit.Node{
		net.Const("c", 1, 2),
		net.Node("f", 1, func(t float64, out []float64) { out[0] = t }),
		net.NodeIn("g", 2, 1, func(t float64, x, out []float64) { out[0] = x[0] + x[1] }),
		net.Passthrough("p", 3),
	}
	for _, n := range nodes {
		in, out := n.Dimensions()
		fmt.Println(n.Label, in, out, n.IsPassthrough())
	}
	// Output:
	// c 0 2 false
	// f 0 1 false
	// g 2 1 false
	// p 3 3 true
}

// A TimeFunc is a node's f(t).
func ExampleTimeFunc() {
	var f toolkit.TimeFunc = func(t float64, out []float64) { out[0] = 2 * t }
	out := make([]float64, 1)
	f(0.25, out)
	fmt.Println(out)
	// Output: [0.5]
}

// A NodeFunc is a node's f(t, x).
func ExampleNodeFunc() {
	var f toolkit.NodeFunc = func(t float64, x, out []float64) { out[0] = 2*x[0] + t }
	out := make([]float64, 1)
	f(0.5, []float64{1}, out)
	fmt.Println(out)
	// Output: [2.5]
}

// Objects report their kind, name and sizes.
func ExampleObject() {
	net := toolkit.New("net", 0)
	objs := []toolkit.Object{net.Ensemble("a", 50, 2), net.Passthrough("p", 3)}
	for _, o := range objs {
		in, out := o.Dimensions()
		fmt.Println(o.Kind(), o.Name(), in, out)
	}
	// Output:
	// Ensemble a 2 2
	// Node p 3 3
}

// Targets are objects or slices of them.
func ExampleTarget() {
	net := toolkit.New("net", 0)
	a := net.Ensemble("a", 50, 3)
	for _, t := range []toolkit.Target{a, a.Slice(1, 3), a.Index(2, 0)} {
		fmt.Println(toolkit.Ref(t), t.Indices(), toolkit.TargetSize(t, false))
	}
	// Output:
	// Ensemble "a" [] 3
	// Ensemble "a"[1 2] [1 2] 2
	// Ensemble "a"[2 0] [2 0] 2
}

// Sliced selects components, e.g. one dimension of a node.
func ExampleSliced() {
	net := toolkit.New("net", 0)
	u := net.Const("u", 1, 2, 3)
	a := net.Ensemble("a", 50, 1)
	c := net.Connect(u.Index(2), a)
	s := c.Pre.(*toolkit.Sliced)
	fmt.Println(s.Idx, s.Obj().Name(), net.Validate())
	// Output: [2] u <nil>
}

// A probe records an attribute, optionally filtered and subsampled.
func ExampleProbe() {
	net := toolkit.New("net", 0)
	u := net.Node("u", 1, func(t float64, out []float64) { out[0] = t })
	p := net.Probe("u", u, "")
	p.SampleEvery = 0.002
	s, err := sim.New(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = s.RunSteps(6)
	d, _ := s.Data(p)
	fmt.Println(p.Attr, p.Validate(), d)
	// Output: output <nil> [[0.002] [0.004] [0.006]]
}

// Diag and Dense transforms (Scalar multiplies every component).
func ExampleTransform() {
	net := toolkit.New("net", 0)
	u := net.Const("u", 1, 2)
	v := net.Passthrough("v", 2)
	w := net.Passthrough("w", 1)
	cv := net.Connect(u, v)
	cv.Transform, cv.Synapse = toolkit.Diag(2, -1), nil // unfiltered: no delay
	cw := net.Connect(u, w)
	cw.Transform, cw.Synapse = toolkit.Dense([][]float64{{1, 1}}), nil
	pv, pw := net.Probe("v", v, ""), net.Probe("w", w, "")
	s, err := sim.New(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = s.RunSteps(1)
	dv, _ := s.Data(pv)
	dw, _ := s.Data(pw)
	fmt.Println(toolkit.Diag(2, -1).Matrix, toolkit.Scalar(0.5).Scalar, dv[0], dw[0])
	// Output: [[2 0] [0 -1]] 0.5 [2 -2] [3]
}

// Processes make a node's output; Step gives the per-step function.
func ExampleProcess() {
	var p toolkit.Process = &toolkit.PresentInput{Inputs: [][]float64{{1}, {2}}, PresentationTime: 0.002}
	f, err := p.Step(0, 1, 0.001, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float64, 1)
	for k := 1; k <= 5; k++ {
		f(float64(k)*0.001, nil, out)
		fmt.Print(out[0], " ")
	}
	fmt.Println(p.Name())
	// Output: 1 1 2 2 1 PresentInput
}

// PresentInput cycles through its inputs.
func ExamplePresentInput() {
	net := toolkit.New("net", 0)
	u := net.NodeProcess("u", 0, 2, &toolkit.PresentInput{Inputs: [][]float64{{1, 0}, {0, 1}}, PresentationTime: 0.1})
	p := net.Probe("u", u, "")
	s, err := sim.New(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = s.Run(0.3)
	d, _ := s.Data(p)
	fmt.Println(d[0], d[99], d[100], d[299])
	// Output: [1 0] [1 0] [0 1] [1 0]
}

// Piecewise holds each value from its time on (zero before the first).
func ExamplePiecewise() {
	pw := &toolkit.Piecewise{Times: []float64{0.1, 0.3}, Values: [][]float64{{1}, {-0.5}}}
	f, err := pw.Step(0, 1, 0.001, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float64, 1)
	for _, t := range []float64{0.05, 0.1, 0.2, 0.3, 0.9} {
		f(t, nil, out)
		fmt.Print(out[0], " ")
	}
	fmt.Println()
	// Output: 0 1 1 -0.5 -0.5
}

// WhiteNoise: independent Gaussian samples, scaled by 1/sqrt(dt).
func ExampleWhiteNoise() {
	w := toolkit.NewWhiteNoise()
	w.Dist = dists.Gaussian{Mean: 0, Std: 1}
	f, err := w.Step(0, 1, 0.01, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float64, 1)
	var sum2 float64
	const n = 10000
	for k := 1; k <= n; k++ {
		f(float64(k)*0.01, nil, out)
		sum2 += out[0] * out[0]
	}
	fmt.Printf("%s scale %v, rms ≈ %.0f (1/sqrt(dt) = 10)\n", w.Name(), w.Scale, math.Sqrt(sum2/n))
	// Output: WhiteNoise scale true, rms ≈ 10 (1/sqrt(dt) = 10)
}
