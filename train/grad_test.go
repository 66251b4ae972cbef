package train_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

// Named tolerances.
const (
	// gradRelTol bounds the relative error between backpropagated and
	// central-difference gradients (ε = 1e-6, float64: the difference
	// quotient itself is good to about 1e-8 relative).
	gradRelTol = 1e-5
)

func randArray(t *testing.T, rng *rand.Rand, n, steps, dims int, scale float64) *train.Array {
	t.Helper()
	a, err := train.NewArray(n, steps, dims)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Data {
		a.Data[i] = scale * (2*rng.Float64() - 1)
	}
	return a
}

func checkModel(t *testing.T, net *toolkit.Network, c train.Config, x map[*toolkit.Node]*train.Array, y map[*toolkit.Probe]*train.Array) *train.GradReport {
	t.Helper()
	m, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if c.Optimizer == nil {
		c.Optimizer = &optim.SGD{LR: 0.01}
	}
	if err := m.Compile(c); err != nil {
		t.Fatal(err)
	}
	// targets near the model's own output keep the loss O(0.01), so the
	// finite differences resolve small gradients
	rng := rand.New(rand.NewPCG(9, 9))
	for p, a := range y {
		if a != nil {
			continue
		}
		pred, err := m.Predict(x, train.EvalOptions{Rates: true})
		if err != nil {
			t.Fatal(err)
		}
		tg := pred[p]
		for i := range tg.Data {
			tg.Data[i] += 0.1 * rng.NormFloat64()
		}
		y[p] = tg
	}
	rep, err := m.CheckGradients(x, y, train.GradCheckOptions{PerParam: 12, Seed: 3, Eps: 1e-6, Floor: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Worst.RelErr > gradRelTol {
		for _, e := range rep.Entries {
			if e.RelErr > gradRelTol {
				t.Errorf("%s[%d]: analytic %.9g numeric %.9g (rel %.3g)", e.Param, e.Index, e.Analytic, e.Numeric, e.RelErr)
			}
		}
		t.Fatalf("gradient check failed: %s", rep)
	}
	seen := map[string]bool{}
	for _, e := range rep.Entries {
		seen[e.Param] = true
	}
	if len(seen) == 0 {
		t.Fatal("no parameter checked")
	}
	t.Logf("%s; params: %d", rep, len(seen))
	return rep
}

// TestGradientsOperators checks every operator kind the builder makes for
// ensembles, nodes and connections: Reset, Copy (slices), ElementwiseInc
// (scalar transforms, gains into neurons), DotInc (encoders, decoders,
// dense and neuron-to-neuron weights, recurrence), SparseDotInc,
// SimNeurons (rate counterparts of spiking types), SimSynapse of every
// step class, through several time steps.
func TestGradientsOperators(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rates := []struct {
		name string
		nt   neurons.Type
	}{
		{"RectifiedLinear", neurons.NewRectifiedLinear()},
		{"SpikingRectifiedLinear→RectifiedLinear", neurons.NewSpikingRectifiedLinear()},
		{"LIF→SoftLIFRate", neurons.NewLIF()},
		{"Sigmoid", neurons.NewSigmoid()},
		{"Tanh", neurons.NewTanh()},
	}
	general, err := synapses.NewLinearFilter([]float64{0.02, 1}, []float64{0.01, 1}) // D ≠ 0
	if err != nil {
		t.Fatal(err)
	}
	syns := []struct {
		name string
		s    synapses.Synapse
	}{
		{"Lowpass(OneX)", synapses.Lowpass{Tau: 0.005}},
		{"Alpha(NoD)", synapses.Alpha{Tau: 0.004}},
		{"LinearFilter(General)", general},
		{"Lowpass0(NoX)", synapses.Lowpass{Tau: 0}},
	}
	for i, nt := range rates {
		s := syns[i%len(syns)]
		t.Run(nt.name+"/"+s.name, func(t *testing.T) {
			net := toolkit.New("ops", int64(10+i))
			in := net.Const("in", 0, 0, 0)
			a := net.Ensemble("a", 12, 2)
			a.NeuronType = nt.nt
			b := net.Ensemble("b", 10, 1)
			b.NeuronType = nt.nt
			c := net.Ensemble("c", 6, 1)
			c.NeuronType = neurons.NewRectifiedLinear()
			// node → ensemble, sliced, matrix transform
			c1 := net.Connect(in.Slice(0, 2), a)
			c1.Transform = toolkit.Dense([][]float64{{1, 0.5}, {-0.3, 0.8}})
			c1.Synapse = s.s
			// decoded with a transform
			c2 := net.Connect(a, b)
			c2.Transform = toolkit.Dense([][]float64{{0.7, -0.4}})
			c2.Synapse = syns[(i+1)%len(syns)].s
			// neurons to neurons (gains, weights)
			w := make([][]float64, 10)
			for r := range w {
				w[r] = make([]float64, 12)
				for k := range w[r] {
					w[r][k] = 2e-4 * rng.NormFloat64()
				}
			}
			c3 := net.Connect(a.Neurons(), b.Neurons())
			c3.Transform = toolkit.Dense(w)
			c3.Synapse = synapses.Lowpass{Tau: 0.01}
			// recurrence through time
			c4 := net.Connect(b, b)
			c4.Transform = toolkit.Scalar(0.9)
			c4.Synapse = synapses.Lowpass{Tau: 0.02}
			// sparse neurons → neurons
			c5 := net.Connect(a.Neurons(), c.Neurons())
			c5.Transform = toolkit.Sparse(6, 12, [][2]int{{0, 1}, {2, 5}, {3, 3}, {5, 11}, {5, 0}}, []float64{0.3, -0.2, 0.5, 0.1, 0.4})
			// node input into neurons, sliced post
			c6 := net.Connect(in.Slice(2, 3), c.Neurons().Slice(1, 3))
			c6.Transform = toolkit.Dense([][]float64{{0.5}, {-1}})
			pb := net.Probe("pb", b, "")
			pb.Synapse = synapses.Lowpass{Tau: 0.01}
			pc := net.Probe("pc", c.Neurons().Slice(0, 4), toolkit.AttrOutput)
			const n, steps = 3, 6
			x := map[*toolkit.Node]*train.Array{in: randArray(t, rng, n, steps, 3, 1)}
			y := map[*toolkit.Probe]*train.Array{pb: nil, pc: nil}
			checkModel(t, net, train.Config{
				Loss:         map[*toolkit.Probe]loss.Loss{pb: loss.MSE{}, pc: loss.MSE{}},
				LossWeights:  map[*toolkit.Probe]float64{pc: 0.1},
				LIFSmoothing: 1, SmoothForward: true,
			}, x, y)
		})
	}
}

// TestGradientsLayers checks layer nodes (SimLayer) in a convolutional
// network with a neuron layer between them, one step and several steps.
func TestGradientsLayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, steps := range []int{1, 3} {
		net := toolkit.New("conv", 7)
		in := net.Const("img", make([]float64, 6*6*1)...)
		c1, err := net.Layer("conv1", in, layers.Conv2D{Filters: 3, Kernel: []int{3}}, 6, 6, 1)
		if err != nil {
			t.Fatal(err)
		}
		lif := neurons.NewLIF()
		lif.Amplitude = 0.01
		e1, err := net.NeuronLayer("lif1", c1, lif)
		if err != nil {
			t.Fatal(err)
		}
		e1.Gain, e1.Bias = nil, nil
		e1.MaxRates = dists.Choice{Options: [][]float64{{100}}}
		e1.Intercepts = dists.Choice{Options: [][]float64{{0}}}
		p1, err := net.Layer("pool", e1.Neurons(), layers.AvgPool{Pool: []int{2}})
		if err != nil {
			t.Fatal(err)
		}
		d, err := net.Layer("dense", p1, layers.Dense{Units: 4})
		if err != nil {
			t.Fatal(err)
		}
		pd := net.Probe("out", d, "")
		const n = 3
		x := map[*toolkit.Node]*train.Array{in: randArray(t, rng, n, steps, 36, 1)}
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(4)
		}
		ly, err := train.ArrayFromLabels(labels, steps)
		if err != nil {
			t.Fatal(err)
		}
		checkModel(t, net, train.Config{
			Loss:         map[*toolkit.Probe]loss.Loss{pd: loss.CrossEntropy{FromLogits: true, Sparse: true}},
			LIFSmoothing: 1, SmoothForward: true,
		}, x, map[*toolkit.Probe]*train.Array{pd: ly})
	}
}

// TestNotDifferentiable: a Go function or a non-LTI synapse on the path
// of a trainable parameter is refused with an error naming it; freezing
// the parameters before it makes the model trainable.
func TestNotDifferentiable(t *testing.T) {
	net := toolkit.New("nd", 1)
	in := net.Const("in", 0)
	a := net.Ensemble("a", 10, 1)
	a.NeuronType = neurons.NewRectifiedLinear()
	sq := net.NodeIn("square", 1, 1, func(_ float64, x, out []float64) { out[0] = x[0] * x[0] })
	net.Connect(in, a)
	net.Connect(a, sq)
	b := net.Ensemble("b", 10, 1)
	b.NeuronType = neurons.NewRectifiedLinear()
	net.Connect(sq, b)
	p := net.Probe("p", b, "")
	m, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Compile(train.Config{Optimizer: &optim.Adam{}, Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	x := map[*toolkit.Node]*train.Array{in: randArray(t, rng, 4, 2, 1, 1)}
	y := map[*toolkit.Probe]*train.Array{p: randArray(t, rng, 4, 2, 1, 1)}
	_, err = m.Fit(x, y, train.FitOptions{BatchSize: 2})
	if err == nil || !strings.Contains(err.Error(), `Node "square"`) || !strings.Contains(err.Error(), "not differentiable") {
		t.Fatalf("want a not-differentiable error naming the node, got %v", err)
	}
	for _, c := range net.Connections {
		if c.Pre.Obj() == a || c.Pre.Obj() == in {
			if err := m.SetTrainable(c, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := m.SetTrainable(a, false); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Fit(x, y, train.FitOptions{BatchSize: 2}); err != nil {
		t.Fatalf("with the parameters before the node frozen: %v", err)
	}
}

// TestNotDifferentiableNeurons: a neuron type without a rate counterpart
// on the path fails with neurons.ErrNotDifferentiable.
func TestNotDifferentiableNeurons(t *testing.T) {
	net := toolkit.New("nd", 1)
	in := net.Const("in", 0)
	a := net.Ensemble("a", 10, 1)
	a.NeuronType = neurons.NewAdaptiveLIF()
	net.Connect(in, a)
	p := net.Probe("p", a, "")
	m, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Compile(train.Config{Optimizer: &optim.Adam{}, Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	x := map[*toolkit.Node]*train.Array{in: randArray(t, rng, 4, 2, 1, 1)}
	y := map[*toolkit.Probe]*train.Array{p: randArray(t, rng, 4, 2, 1, 1)}
	_, err = m.Fit(x, y, train.FitOptions{BatchSize: 2})
	if !errors.Is(err, neurons.ErrNotDifferentiable) {
		t.Fatalf("want ErrNotDifferentiable, got %v", err)
	}
}

// TestRateForwardMatchesSim: the trainer's forward pass of a rate model
// equals the reference simulator's run of the same model (same
// parameters) — the engine and sim implement one semantics.
func TestRateForwardMatchesSim(t *testing.T) {
	const tol = 1e-12
	net := toolkit.New("fwd", 3)
	in := net.Node("in", 2, func(tt float64, out []float64) { out[0], out[1] = tt*10, 1-tt*20 })
	a := net.Ensemble("a", 30, 2)
	a.NeuronType = neurons.NewRectifiedLinear()
	b := net.Ensemble("b", 20, 1)
	b.NeuronType = neurons.NewLIFRate()
	net.Connect(in, a)
	c := net.Connect(a, b)
	c.Transform = toolkit.Dense([][]float64{{1, -1}})
	r := net.Connect(b, b)
	r.Synapse = synapses.Alpha{Tau: 0.01}
	p := net.Probe("p", b, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	pn := net.Probe("pn", a.Neurons(), toolkit.AttrOutput)
	const steps = 40
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunSteps(steps); err != nil {
		t.Fatal(err)
	}
	m, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	// in is a function of time: predict with a dummy fed node is not
	// needed; feed nothing by giving data for a constant node instead
	dummy, _ := train.NewArray(1, steps, 2)
	for k := range steps {
		tt := float64(k+1) * 0.001
		copy(dummy.At(0, k), []float64{tt * 10, 1 - tt*20})
	}
	out, err := m.Predict(map[*toolkit.Node]*train.Array{in: dummy}, train.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range []*toolkit.Probe{p, pn} {
		want, err := s.Data(pr)
		if err != nil {
			t.Fatal(err)
		}
		got := out[pr]
		for k := range steps {
			for j, v := range want[k] {
				if d := got.At(0, k)[j] - v; d > tol || d < -tol {
					t.Fatalf("probe %s step %d [%d]: trainer %v, sim %v", pr.Label, k, j, got.At(0, k)[j], v)
				}
			}
		}
	}
}

// TestLearningRulesForward: models with every online learning rule run in
// the trainer exactly as in the simulator (rate neurons), so a model that
// learns online can still have its other parameters trained.
func TestLearningRulesForward(t *testing.T) {
	const tol = 1e-9
	for _, rule := range []string{"PES", "BCM", "Oja", "Voja", "RLS"} {
		t.Run(rule, func(t *testing.T) {
			net := toolkit.New("rules", 4)
			in := net.Node("in", 1, func(tt float64, out []float64) { out[0] = math.Sin(10 * tt) })
			a := net.Ensemble("a", 12, 1)
			a.NeuronType = neurons.NewRectifiedLinear()
			b := net.Ensemble("b", 10, 1)
			b.NeuronType = neurons.NewRectifiedLinear()
			net.Connect(in, a)
			var c *toolkit.Connection
			switch rule {
			case "PES":
				c = net.Connect(a, b)
				c.LearningRule = toolkit.NewPES()
				net.Connect(b, c.Rule())
			case "BCM", "Oja":
				w := make([][]float64, 10)
				for i := range w {
					w[i] = make([]float64, 12)
					for j := range w[i] {
						w[i][j] = 1e-3 * float64((i*7+j*3)%5-2)
					}
				}
				c = net.Connect(a.Neurons(), b.Neurons())
				c.Transform = toolkit.Dense(w)
				if rule == "BCM" {
					c.LearningRule = toolkit.NewBCM()
				} else {
					c.LearningRule = toolkit.NewOja()
				}
			case "Voja":
				c = net.Connect(in, b)
				c.LearningRule = toolkit.NewVoja()
			case "RLS":
				c = net.Connect(a, b)
				c.LearningRule = toolkit.NewRLS()
				net.Connect(b, c.Rule())
			}
			p := net.Probe("p", b, "")
			pn := net.Probe("pn", b.Neurons(), toolkit.AttrOutput)
			const steps = 60
			s, err := sim.New(net)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.RunSteps(steps); err != nil {
				t.Fatal(err)
			}
			m, err := train.New(net)
			if err != nil {
				t.Fatal(err)
			}
			x, _ := train.NewArray(2, steps, 1)
			for k := range steps {
				x.At(0, k)[0] = math.Sin(10 * float64(k+1) * 0.001)
				x.At(1, k)[0] = x.At(0, k)[0]
			}
			out, err := m.Predict(map[*toolkit.Node]*train.Array{in: x}, train.EvalOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range []*toolkit.Probe{p, pn} {
				want, _ := s.Data(pr)
				for lane := range 2 {
					for k := range steps {
						for j, v := range want[k] {
							if d := math.Abs(out[pr].At(lane, k)[j] - v); d > tol {
								t.Fatalf("%s probe %s lane %d step %d [%d]: trainer %v, sim %v", rule, pr.Label, lane, k, j, out[pr].At(lane, k)[j], v)
							}
						}
					}
				}
			}
		})
	}
}

// TestGradientsThroughLearnedWeights: gradients pass through a connection
// whose weights PES changes every step, using each step's weights; the
// weights themselves are not trained, as in NengoDL, and the rule's update
// passes no gradient (a stop-gradient), so the finite differences agree
// when the rule's own sensitivity is negligible (a tiny learning rate).
func TestGradientsThroughLearnedWeights(t *testing.T) {
	net := toolkit.New("pes-train", 6)
	in := net.Const("in", 0)
	a := net.Ensemble("a", 12, 1)
	a.NeuronType = neurons.NewRectifiedLinear()
	b := net.Ensemble("b", 10, 1)
	b.NeuronType = neurons.NewRectifiedLinear()
	net.Connect(in, a)
	c := net.Connect(a, b)
	c.LearningRule = toolkit.NewPES()
	c.LearningRule.(*toolkit.PES).LearningRate = 1e-9
	net.Connect(b, c.Rule())
	p := net.Probe("p", b, "")
	rng := rand.New(rand.NewPCG(3, 4))
	rep := checkModel(t, net, train.Config{Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}},
		map[*toolkit.Node]*train.Array{in: randArray(t, rng, 2, 8, 1, 1)}, map[*toolkit.Probe]*train.Array{p: nil})
	for _, e := range rep.Entries {
		if strings.HasPrefix(e.Param, "a->b.") {
			t.Fatalf("the PES-learned weights %s were treated as trainable", e.Param)
		}
	}
}
