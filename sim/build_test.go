package sim_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// TestBuildErrors: invalid descriptions fail at build time with an error
// that names the object and the rule, never a panic.
func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(net *toolkit.Network)
		want []string // substrings of the error
	}{
		{"zero neurons", func(n *toolkit.Network) { n.Ensemble("a", 0, 1) }, []string{`Ensemble "a"`, "N", "positive"}},
		{"cycle", func(n *toolkit.Network) {
			a, b := n.Passthrough("a", 1), n.Passthrough("b", 1)
			n.Connect(a, b).Synapse = nil
			n.Connect(b, a).Synapse = nil
		}, []string{"cycle", `Connection "a->b"`, `Connection "b->a"`}},
		{"function size vs post", func(n *toolkit.Network) {
			c := n.Connect(n.Ensemble("a", 10, 1), n.Ensemble("b", 10, 1))
			c.Function = func(x []float64) []float64 { return []float64{x[0], x[0]} }
		}, []string{`Connection`, "Post", "size"}},
		{"function NaN", func(n *toolkit.Network) {
			c := n.Connect(n.Ensemble("a", 10, 1), n.Ensemble("b", 10, 1))
			c.Function = func(x []float64) []float64 { return []float64{math.NaN()} }
		}, []string{"Function", "non-finite"}},
		{"dense vs function", func(n *toolkit.Network) {
			c := n.Connect(n.Ensemble("a", 10, 1), n.Ensemble("b", 10, 1))
			c.Function = func(x []float64) []float64 { return []float64{x[0], x[0]} }
			c.Transform = toolkit.Dense([][]float64{{1, 2, 3}})
		}, []string{"Transform", "function's output size 2"}},
		{"unknown attr", func(n *toolkit.Network) { n.Probe("p", n.Ensemble("a", 10, 1), "weights") }, []string{`Probe "p"`, "Attr"}},
		{"into constant node", func(n *toolkit.Network) { n.Connect(n.Ensemble("a", 10, 1), n.Const("c", 1)) }, []string{`Node "c"`, "SizeIn 0"}},
		{"intercept 1", func(n *toolkit.Network) {
			e := n.Ensemble("a", 2, 1)
			e.Intercepts = dists.Uniform{Low: 1, High: 1}
		}, []string{`Ensemble "a"`, "Intercepts"}},
		{"params shape", func(n *toolkit.Network) {}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := toolkit.New("n", 0)
			tc.make(net)
			_, err := sim.Build(net)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestParamsOverrideErrors(t *testing.T) {
	net := toolkit.New("n", 0)
	net.Ensemble("a", 10, 1)
	p := &sim.Params{Ensembles: map[string]*sim.EnsembleParams{"a": {Gain: []float64{1}, Bias: []float64{1}}}}
	_, err := sim.BuildWithParams(net, p)
	var te *validate.Error
	if !errors.As(err, &te) || te.Field != "params.Gain/Bias" {
		t.Fatalf("got %v", err)
	}
}

func TestNaNStopsRun(t *testing.T) {
	net := toolkit.New("n", 0)
	net.Node("bad", 1, func(t float64, out []float64) {
		out[0] = 0
		if t > 0.0025 {
			out[0] = math.NaN()
		}
	})
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	err = s.RunSteps(10)
	if err == nil || !strings.Contains(err.Error(), "bad.out") || !strings.Contains(err.Error(), "step 3") {
		t.Fatalf("got %v", err)
	}
	s2, _ := sim.New(net, sim.CheckNaN(false))
	if err := s2.RunSteps(10); err != nil {
		t.Fatalf("with the check off: %v", err)
	}
}

// Ensemble representation (Nengo's test_ensemble.py test_constant_scalar
// and test_vector): a constant input is decoded within atol 0.1 after
// 0.3 s, with neurogo's own random draws.
func TestEnsembleRepresentation(t *testing.T) {
	const atol = 0.1
	for _, tc := range []struct {
		name   string
		n      int
		val    []float64
		radius float64
	}{
		{"scalar", 100, []float64{0.5}, 1},
		{"scalar radius 10", 100, []float64{-6}, 10},
		{"vector 3-D", 300, []float64{0.5, -0.3, 0.2}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := toolkit.New("rep", 1)
			u := net.Const("u", tc.val...)
			a := net.Ensemble("a", tc.n, len(tc.val))
			a.Radius = tc.radius
			net.Connect(u, a)
			p := net.Probe("a", a, "")
			p.Synapse = synapses.Lowpass{Tau: 0.05}
			s, err := sim.New(net)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Run(0.5); err != nil {
				t.Fatal(err)
			}
			d, _ := s.Data(p)
			for k := len(d) - 100; k < len(d); k++ {
				for i, v := range tc.val {
					if math.Abs(d[k][i]-v) > atol*tc.radius {
						t.Fatalf("step %d dim %d: %v, want %v ± %v", k, i, d[k][i], v, atol*tc.radius)
					}
				}
			}
			t.Logf("final %v (want %v)", d[len(d)-1], tc.val)
		})
	}
}

// PES convergence (Nengo's test_pes_ens_ens): a learned connection that
// starts at zero tracks its input to within 0.05 after 0.4 s... measured
// here as the mean absolute error of post vs pre over the last 0.1 s.
func TestPESConverges(t *testing.T) {
	const atol = 0.05
	net := toolkit.New("pes", 3)
	stim := net.Const("stim", 0.5)
	pre, post, e := net.Ensemble("pre", 100, 1), net.Ensemble("post", 100, 1), net.Ensemble("error", 100, 1)
	net.Connect(stim, pre)
	learned := net.Connect(pre, post)
	learned.Function = func(x []float64) []float64 { return []float64{0} }
	pes := toolkit.NewPES()
	pes.LearningRate = 5e-4
	learned.LearningRule = pes
	net.Connect(post, e)
	net.Connect(pre, e).Transform = toolkit.Scalar(-1)
	net.Connect(e, learned.Rule())
	pp := net.Probe("post", post, "")
	pp.Synapse = synapses.Lowpass{Tau: 0.03}
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(1.0); err != nil {
		t.Fatal(err)
	}
	d, _ := s.Data(pp)
	var mae float64
	for k := len(d) - 100; k < len(d); k++ {
		mae += math.Abs(d[k][0]-0.5) / 100
	}
	t.Logf("PES: mean |post - 0.5| over the last 0.1 s = %.3g", mae)
	if !(mae < atol) {
		t.Errorf("PES did not converge: mean error %.3g >= %g", mae, atol)
	}
}

// weights=true folds the post encoders into a full weight matrix; the
// decoded result equals the decoder path to rounding.
func TestWeightsSolver(t *testing.T) {
	run := func(w bool) [][]float64 {
		net := toolkit.New("w", 2)
		u := net.Const("u", 0.4)
		a, b := net.Ensemble("a", 50, 1), net.Ensemble("b", 50, 1)
		net.Connect(u, a)
		c := net.Connect(a, b)
		c.Solver = solvers.LstsqL2{Reg: 0.1, W: w}
		p := net.Probe("b", b, "")
		p.Synapse = synapses.Lowpass{Tau: 0.01}
		s, err := sim.New(net)
		if err != nil {
			t.Fatal(err)
		}
		s.Run(0.2)
		d, _ := s.Data(p)
		return d
	}
	a, b := run(false), run(true)
	var maxErr float64
	for k := range a {
		maxErr = math.Max(maxErr, math.Abs(a[k][0]-b[k][0]))
	}
	if maxErr > 1e-9 {
		t.Errorf("weights=true differs from decoders by %.3g", maxErr)
	}
}

// A Direct ensemble computes its function exactly; with one filtered
// connection in and a filtered probe it equals the filtered function.
func TestDirect(t *testing.T) {
	net := toolkit.New("d", 0)
	u := net.Const("u", 0.5)
	a := net.Ensemble("a", 1, 1)
	a.NeuronType = toolkit.Direct{}
	out := net.Passthrough("out", 1)
	net.Connect(u, a).Synapse = nil
	c := net.Connect(a, out)
	c.Synapse = nil
	c.Function = func(x []float64) []float64 { return []float64{x[0] * x[0]} }
	p := net.Probe("out", out, "")
	q := net.Probe("a", a, "")
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	s.RunSteps(3)
	d, _ := s.Data(p)
	e, _ := s.Data(q)
	if d[0][0] != 0.25 || e[0][0] != 0.5 {
		t.Errorf("Direct: out %v, decoded %v; want 0.25, 0.5", d[0][0], e[0][0])
	}
	net.Probe("v", a.Neurons(), toolkit.AttrOutput)
	if _, err := sim.Build(net); err == nil {
		t.Error("probing a Direct ensemble's neurons built")
	}
}

// Ensembles that share a label get distinct parameter keys (a, a#2), so
// overrides work with duplicate labels too (see TestParamsDuplicateLabels).
func TestParamsDuplicateLabelKeys(t *testing.T) {
	net := toolkit.New("n", 0)
	net.Ensemble("a", 10, 1)
	net.Network("sub").Ensemble("a", 10, 1)
	if _, err := sim.Build(net); err != nil {
		t.Fatalf("duplicate labels without overrides: %v", err)
	}
	m, err := sim.BuildWithParams(net, &sim.Params{})
	if err != nil {
		t.Fatalf("duplicate labels with overrides: %v", err)
	}
	if m.Params.Ensembles["a"] == nil || m.Params.Ensembles["a#2"] == nil {
		t.Fatalf("keys: %v", m.Params.Ensembles)
	}
}

// A connection into neurons is scaled by the post gains (Nengo folds the
// gains into the encoders for an Ensemble, and applies them here).
func TestIntoNeuronsGain(t *testing.T) {
	net := toolkit.New("n", 0)
	a := net.Ensemble("a", 3, 1)
	u := net.Const("u", 1, 2, 3)
	net.Connect(u, a.Neurons()).Synapse = nil
	v := net.Const("v", 10)
	c := net.Connect(v, a.Neurons().Index(2))
	c.Synapse = nil
	p := net.Probe("J", a.Neurons(), toolkit.AttrInput)
	m, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sim.NewFromModel(m)
	s.Step()
	d, _ := s.Data(p)
	e := m.Params.Ensembles["a"]
	for i, u := range []float64{1, 2, 13} {
		want := e.Bias[i] + e.Gain[i]*u
		if math.Abs(d[0][i]-want) > 1e-12 {
			t.Errorf("J[%d] = %v, want bias + gain·%v = %v", i, d[0][i], u, want)
		}
	}
}

// Every neuron type of toolkit/neurons builds and represents a constant
// (decoding error below 0.2 after 0.3 s, with the type's default
// max-rate/intercept distributions; Sigmoid and Tanh get rates they can reach).
func TestAllNeuronTypes(t *testing.T) {
	for _, nt := range []neurons.Type{
		neurons.NewLIF(), neurons.NewLIFRate(), neurons.NewRectifiedLinear(), neurons.NewSpikingRectifiedLinear(),
		neurons.NewAdaptiveLIF(), neurons.NewAdaptiveLIFRate(), neurons.NewIzhikevich(), neurons.NewSigmoid(), neurons.NewTanh(),
		neurons.NewRegularSpiking(neurons.NewLIFRate()), neurons.NewPoissonSpiking(neurons.NewLIFRate()),
		neurons.NewStochasticSpiking(neurons.NewLIFRate()),
	} {
		t.Run(nt.Name(), func(t *testing.T) {
			net := toolkit.New("n", 5)
			u := net.Const("u", 0.5)
			a := net.Ensemble("a", 200, 1)
			a.NeuronType = nt
			if nt.Name() == "Sigmoid" || nt.Name() == "Tanh" {
				a.MaxRates = dists.Uniform{Low: 200, High: 300}
			}
			net.Connect(u, a)
			p := net.Probe("a", a, "")
			p.Synapse = synapses.Lowpass{Tau: 0.05}
			s, err := sim.New(net)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Run(0.3); err != nil {
				t.Fatal(err)
			}
			d, _ := s.Data(p)
			got := d[len(d)-1][0]
			t.Logf("%s: decoded %.4f (want 0.5)", nt.Name(), got)
			if math.Abs(got-0.5) > 0.2 {
				t.Errorf("%s: decoded %v, want 0.5 ± 0.2", nt.Name(), got)
			}
		})
	}
}

// Ensemble noise and process nodes build, run and repeat after Reset.
func TestProcesses(t *testing.T) {
	net := toolkit.New("p", 0)
	u := net.NodeProcess("u", 0, 1, toolkit.NewWhiteSignal(1, 5))
	a := net.Ensemble("a", 50, 1)
	a.Noise = &toolkit.WhiteNoise{Dist: dists.Gaussian{Mean: 0, Std: 0.1}, Scale: false}
	net.Connect(u, a)
	p := net.Probe("a", a.Neurons(), toolkit.AttrInput)
	q := net.Probe("u", u, "")
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	s.RunSteps(100)
	d1, _ := s.Data(p)
	u1, _ := s.Data(q)
	s.Reset()
	s.RunSteps(100)
	d2, _ := s.Data(p)
	for k := range d1 {
		for i := range d1[k] {
			if d1[k][i] != d2[k][i] {
				t.Fatalf("noise not reproduced after Reset at step %d", k)
			}
		}
	}
	var ss float64
	for _, r := range u1 {
		ss += r[0] * r[0]
	}
	if ss == 0 {
		t.Error("WhiteSignal node output is all zero")
	}
}

// dt independence (after Nengo's test_neurons.py test_dt_dependence): the
// decoded value of an LIF ensemble tracking a sine agrees between
// dt = 1 ms and dt = 0.5 ms within 0.1 at common times.
func TestDtIndependence(t *testing.T) {
	const atol = 0.1
	run := func(dt float64) [][]float64 {
		net := toolkit.New("dt", 2)
		u := net.Node("u", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
		a := net.Ensemble("a", 200, 1)
		net.Connect(u, a)
		p := net.Probe("a", a, "")
		p.Synapse = synapses.Lowpass{Tau: 0.02}
		s, err := sim.New(net, sim.DT(dt))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		d, _ := s.Data(p)
		return d
	}
	a, b := run(0.001), run(0.0005)
	var maxErr float64
	for k := 100; k < len(a); k++ {
		maxErr = math.Max(maxErr, math.Abs(a[k][0]-b[2*k+1][0]))
	}
	t.Logf("max |decoded(dt=1ms) - decoded(dt=0.5ms)| = %.3g", maxErr)
	if maxErr > atol {
		t.Errorf("dt dependence %.3g > %g", maxErr, atol)
	}
}

// A function given as target values at explicit eval points (Nengo's
// function=array) gives the same decoders as the function itself.
func TestTargetsEqualFunction(t *testing.T) {
	pts := make([][]float64, 200)
	tg := make([][]float64, 200)
	for i := range pts {
		x := -1 + 2*float64(i)/199
		pts[i], tg[i] = []float64{x}, []float64{x * x}
	}
	build := func(useTargets bool) []float64 {
		net := toolkit.New("t", 4)
		a, b := net.Ensemble("a", 50, 1), net.Ensemble("b", 50, 1)
		c := net.Connect(a, b)
		c.Label = "ab"
		c.EvalPoints = dists.Rows(pts)
		if useTargets {
			c.Targets = tg
		} else {
			c.Function = func(x []float64) []float64 { return []float64{x[0] * x[0]} }
		}
		m, err := sim.Build(net)
		if err != nil {
			t.Fatal(err)
		}
		return m.Params.Connections["ab"].Weights
	}
	w1, w2 := build(false), build(true)
	for i := range w1 {
		if w1[i] != w2[i] {
			t.Fatalf("weight %d: %v vs %v", i, w1[i], w2[i])
		}
	}
}

// BCM and Oja build on neuron-to-neuron connections, change the weights,
// and are rejected on decoded connections. (Their step equals Nengo's to
// ~1e-14; see parityModels "bcm" and "oja".)
func TestHebbianRules(t *testing.T) {
	for _, rule := range []toolkit.LearningRule{toolkit.NewBCM(), toolkit.NewOja()} {
		net := hebbNet(rule)
		s, err := sim.New(net)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunSteps(100); err != nil {
			t.Fatal(err)
		}
		w, _ := s.DataByLabel("weights_p")
		if len(w) != 2 || len(w[0]) != 40*50 { // sampled every 50 ms
			t.Fatalf("%s: weights probe %d×%d", rule.Name(), len(w), len(w[0]))
		}
		if rule.Name() == "Oja" {
			changed := false
			for i := range w[0] {
				changed = changed || w[1][i] != 0
			}
			if !changed {
				t.Errorf("Oja did not change the weights")
			}
		}
		bad := toolkit.New("bad", 0)
		c := bad.Connect(bad.Ensemble("a", 10, 1), bad.Ensemble("b", 10, 1))
		c.LearningRule = rule
		if _, err := sim.Build(bad); err == nil || !strings.Contains(err.Error(), "LearningRule") {
			t.Errorf("%s on a decoded connection: %v", rule.Name(), err)
		}
	}
}

// RLS learns a communication channel quickly (after Nengo's test_rls):
// the RMS error of the learned output (30 spiking neurons, Lowpass
// 0.005, so spike noise of ~0.08 remains) over the last 0.2 s of 1 s is
// below 0.15.
func TestRLSLearns(t *testing.T) {
	net := rlsNet()
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(1); err != nil {
		t.Fatal(err)
	}
	d, _ := s.DataByLabel("post_p")
	var se float64
	for k := 800; k < 1000; k++ {
		e := d[k][0] - math.Sin(2*math.Pi*float64(k+1)*0.001)
		se += e * e / 200
	}
	rmse := math.Sqrt(se)
	t.Logf("RLS: RMS |post - stim| over the last 0.2 s = %.3g", rmse)
	if rmse > 0.15 {
		t.Errorf("RLS did not learn: RMSE %.3g", rmse)
	}
	v, err := sim.New(vojaNet())
	if err != nil {
		t.Fatal(err)
	}
	if err := v.RunSteps(100); err != nil {
		t.Fatal(err)
	}
}

// LIF in a 5000-neuron simulation (Nengo's test_neurons.py test_lif):
// with x = 0.5 held for 1 s, each neuron's spike count matches its rate
// curve within atol 1 Hz, rtol 2%.
func TestLIF5000(t *testing.T) {
	const (
		n    = 5000
		x    = 0.5
		atol = 1.0  // Hz
		rtol = 0.02 // relative
	)
	net := toolkit.New("lif", 6)
	u := net.Const("u", x)
	a := net.Ensemble("a", n, 1)
	a.Encoders = dists.Choice{Options: [][]float64{{1}}}
	a.MaxRates = dists.Uniform{Low: 10, High: 200}
	a.Intercepts = dists.Uniform{Low: -1, High: 1}
	net.Connect(u, a).Synapse = nil
	p := net.Probe("spikes", a.Neurons(), toolkit.AttrSpikes)
	m, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sim.NewFromModel(m)
	if err := s.Run(1); err != nil {
		t.Fatal(err)
	}
	spikes, _ := s.Data(p)
	e := m.Params.Ensembles["a"]
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = x
	}
	ref := make([]float64, n)
	if err := a.NeuronType.Rates(ref, xs, e.Gain, e.Bias); err != nil {
		t.Fatal(err)
	}
	worst := math.Inf(-1)
	for i := range n {
		count := 0
		for k := range spikes {
			if spikes[k][i] > 0 {
				count++
			}
		}
		rate := float64(count) / 1.0
		d := math.Abs(rate - ref[i])
		worst = math.Max(worst, d-(atol+rtol*ref[i]))
		if d > atol+rtol*ref[i] {
			t.Fatalf("neuron %d: %v spikes/s, rate curve %v Hz", i, rate, ref[i])
		}
	}
	t.Logf("largest |count - rate| minus (atol + rtol·rate): %.3g Hz (must be <= 0)", worst)
}

// An ensemble whose neurons never fire at the eval points cannot be
// decoded: the error says why, as Nengo's builder does.
func TestSilentEnsembleError(t *testing.T) {
	net := toolkit.New("n", 0)
	a := net.Ensemble("a", 5, 1)
	a.Gain = []float64{1, 1, 1, 1, 1}
	a.Bias = []float64{-10, -10, -10, -10, -10}
	net.Connect(a, net.Passthrough("out", 1))
	_, err := sim.Build(net)
	if err == nil || !strings.Contains(err.Error(), "no evaluation point falls in the firing range") {
		t.Fatalf("want a silent-ensemble error, got %v", err)
	}
}
