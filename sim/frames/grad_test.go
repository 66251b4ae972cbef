package frames

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// Gradient check (central differences). With h = 1e-5 the truncation
// error is O(h²·f”') ≈ 1e-10 and the rounding error O(ε·|L|/h) ≈ 1e-11
// for |L| ~ 1, so analytic and numeric gradients must agree to gradTol
// relative to max(1, |g|).
const (
	gradH   = 1e-5
	gradTol = 1e-6
)

type gradCase struct {
	name     string
	net      *stream.Net
	out      string // loss L = Σ c·state(out, depth)
	depth    int
	wrt      []stream.ParamRef
	srcGrad  string // a depth-0 state whose gradient is checked too ("" none)
	training bool
}

func pr(kind, item, name string) stream.ParamRef {
	return stream.ParamRef{Kind: kind, Item: item, Name: name}
}

// chain builds in → out through one synapse-pool sp (configured by mod).
func chain(agents int, in, out [3]int, mod func(sp *stream.SynapsePool, o *stream.NeuronPool)) *stream.Net {
	o := &stream.NeuronPool{Name: "out", Shape: out, BiasShape: "false"}
	sp := &stream.SynapsePool{Name: "sp", Source: [][]string{{"in"}}, Target: "out", RF: [][]int{{0}}}
	if mod != nil {
		mod(sp, o)
	}
	return withDefaults(&stream.Net{Agents: agents, NeuronPools: []*stream.NeuronPool{
		{Name: "in", Shape: in, BiasShape: "false"}, o}, SynapsePools: []*stream.SynapsePool{sp}})
}

func gradCases() []gradCase {
	W := pr("sp", "sp", "W_0_0")
	var cs []gradCase
	add := func(name string, net *stream.Net, wrt ...stream.ParamRef) {
		cs = append(cs, gradCase{name: name, net: net, out: "out", depth: 1, wrt: wrt, srcGrad: "in"})
	}
	add("dense", chain(2, [3]int{2, 3, 2}, [3]int{4, 2, 1}, nil), W)
	add("conv rf3", chain(2, [3]int{2, 5, 4}, [3]int{3, 5, 4}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) { sp.RF = [][]int{{3}} }), W)
	add("conv rf1 identity path", chain(2, [3]int{2, 3, 3}, [3]int{3, 3, 3}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) { sp.RF = [][]int{{1}} }), W)
	add("conv dilation 2", chain(1, [3]int{2, 6, 6}, [3]int{2, 6, 6}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.Dilation = [][]int{{3}}, [][]int{{2}}
	}), W)
	add("conv stride 2", chain(2, [3]int{2, 6, 6}, [3]int{3, 3, 3}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) { sp.RF = [][]int{{3}} }), W)
	add("upsample ×2 with ppp", chain(2, [3]int{3, 3, 2}, [3]int{2, 6, 4}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.PPP = [][]int{{3}}, [][]int{{2}}
	}), W, pr("sp", "sp", "P_0_0"))
	add("dense with ppp", chain(2, [3]int{3, 2, 2}, [3]int{2, 1, 1}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) { sp.PPP = [][]int{{2}} }),
		W, pr("sp", "sp", "P_0_0"))
	for _, f := range []string{"exp", "abs", "square"} {
		add("weight_fnc "+f, chain(2, [3]int{2, 3, 3}, [3]int{2, 3, 3}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
			sp.RF, sp.WeightFnc = [][]int{{3}}, [][]string{{f}}
		}), W)
	}
	for _, a := range []string{"Id", "relu", "leakyrelu", "elu", "selu", "sigmoid", "tanh", "softmax", "softplus", "exp", "abs", "square"} {
		add("pool act "+a, chain(2, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, o.Act = [][]int{{1}}, a
		}), W)
		add("factor act "+a+" and ACT tanh", chain(2, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, sp.Act, sp.ACT = [][]int{{1}}, []string{a}, "tanh"
		}), W)
	}
	// Products of factors with several summands.
	prodNet := withDefaults(&stream.Net{Agents: 2, NeuronPools: []*stream.NeuronPool{
		{Name: "in", Shape: [3]int{2, 4, 4}}, {Name: "in2", Shape: [3]int{3, 2, 2}},
		{Name: "out", Shape: [3]int{2, 4, 4}, Act: "tanh"},
	}, SynapsePools: []*stream.SynapsePool{
		{Name: "sp", Source: [][]string{{"in", "in2"}, {"in2"}}, Target: "out", RF: [][]int{{3, 1}, {3}},
			Act: []string{"sigmoid", "tanh"}, ACT: "Id"},
		{Name: "sp2", Source: [][]string{{"in"}}, Target: "out", RF: [][]int{{1}}},
	}})
	add("product of factors", prodNet, W, pr("sp", "sp", "W_0_1"), pr("sp", "sp", "W_1_0"), pr("sp", "sp2", "W_0_0"), pr("np", "out", "b"))
	// Norms, gain, bias shapes.
	for _, m := range []string{"full", "feature", "spatial", "scalar"} {
		add("batchnorm "+m, chain(3, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, o.BatchnormMean, o.BatchnormStd, o.Act = [][]int{{1}}, m, m, "tanh"
		}), W)
		add("gain and bias "+m, chain(2, [3]int{2, 2, 3}, [3]int{3, 2, 3}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, o.GainShape, o.BiasShape, o.Act = [][]int{{1}}, m, m, "sigmoid"
		}), W, pr("np", "out", "g"), pr("np", "out", "b"))
		if m == "scalar" {
			// layer norm over a single value is degenerate (x − x = 0)
			continue
		}
		add("layernorm "+m, chain(2, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, o.LayernormMean, o.LayernormStd, o.Act = [][]int{{1}}, m, m, "tanh"
		}), W)
	}
	add("batchnorm mean only + layernorm std only", chain(3, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
		sp.RF, o.BatchnormMean, o.LayernormStd = [][]int{{1}}, "spatial", "feature"
	}), W)
	// A depth-3 recurrent rollout with noise, dropout and zoneout drawn
	// (training): the masks are fixed by seed and frame.
	rec := withDefaults(&stream.Net{Agents: 2, NeuronPools: []*stream.NeuronPool{
		{Name: "in", Shape: [3]int{2, 3, 3}},
		{Name: "h", Shape: [3]int{3, 3, 3}, Act: "tanh", Dropout: 0.3, Zoneout: 0.3, Noise: "normal", NoiseStd: 0.1, GainShape: "feature"},
		{Name: "out", Shape: [3]int{2, 1, 1}, Act: "softmax"},
	}, SynapsePools: []*stream.SynapsePool{
		{Name: "ih", Source: [][]string{{"in"}}, Target: "h", RF: [][]int{{3}}},
		{Name: "hh", Source: [][]string{{"h"}}, Target: "h", RF: [][]int{{3}}},
		{Name: "ho", Source: [][]string{{"h"}}, Target: "out"},
	}})
	cs = append(cs, gradCase{name: "recurrent depth 3 training", net: rec, out: "out", depth: 3, training: true, srcGrad: "h",
		wrt: []stream.ParamRef{pr("sp", "ih", "W_0_0"), pr("sp", "hh", "W_0_0"), pr("sp", "ho", "W_0_0"), pr("np", "h", "g"), pr("np", "h", "b")}})
	// Periods inside a rollout (frames 5, 6, 7 for depths 1, 2, 3): h
	// updates only in steps from odd frames, so it is copied at depth 2.
	per := withDefaults(&stream.Net{Agents: 2, NeuronPools: []*stream.NeuronPool{
		{Name: "in", Shape: [3]int{2, 2, 2}},
		{Name: "h", Shape: [3]int{2, 2, 2}, Act: "tanh", Period: 2, Offset: 1},
		{Name: "out", Shape: [3]int{3, 2, 2}, Act: "sigmoid"},
	}, SynapsePools: []*stream.SynapsePool{
		{Name: "ih", Source: [][]string{{"in"}}, Target: "h", RF: [][]int{{1}}},
		{Name: "hh", Source: [][]string{{"h"}}, Target: "h", RF: [][]int{{1}}},
		{Name: "ho", Source: [][]string{{"h"}}, Target: "out", RF: [][]int{{1}}, Period: 2, Offset: 1},
	}})
	cs = append(cs, gradCase{name: "periods depth 3", net: per, out: "out", depth: 3, srcGrad: "h",
		wrt: []stream.ParamRef{pr("sp", "ih", "W_0_0"), pr("sp", "hh", "W_0_0"), pr("sp", "ho", "W_0_0"), pr("np", "h", "b")}})
	// statestream's further activations and pre-activations (pact).
	for _, a := range []string{"log", "neglog", "mexp", "msquare", "gaussian"} {
		add("pool act "+a, chain(2, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, o.Act = [][]int{{1}}, a
		}), W)
	}
	for _, pa := range []string{"relu", "tanh", "softmax", "B.relu($, thresh=0.3)"} {
		add("pact "+pa, chain(2, [3]int{2, 3, 3}, [3]int{3, 3, 3}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
			sp.RF, sp.Pact = [][]int{{3}}, [][]string{{pa}}
		}), W)
	}
	add("pact with ppp", chain(2, [3]int{3, 2, 2}, [3]int{2, 2, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.PPP, sp.Pact = [][]int{{1}}, [][]int{{2}}, [][]string{{"sigmoid"}}
	}), W, pr("sp", "sp", "P_0_0"))
	// Shared parameters: b uses a's W_0_0, whose gradient sums both uses.
	shared := withDefaults(&stream.Net{Agents: 2, NeuronPools: []*stream.NeuronPool{
		{Name: "in", Shape: [3]int{2, 2, 2}}, {Name: "in2", Shape: [3]int{2, 2, 2}},
		{Name: "out", Shape: [3]int{3, 2, 2}, Act: "tanh"},
	}, SynapsePools: []*stream.SynapsePool{
		{Name: "a", Source: [][]string{{"in"}}, Target: "out", RF: [][]int{{1}}},
		{Name: "b", Source: [][]string{{"in2"}}, Target: "out", RF: [][]int{{1}},
			Share: map[string]stream.ParamRef{"W_0_0": {Kind: "sp", Item: "a", Name: "W_0_0"}}},
	}})
	add("shared parameter", shared, pr("sp", "a", "W_0_0"))
	// factor biases (bias_shapes)
	for _, m := range []string{"full", "feature", "spatial", "scalar"} {
		add("factor bias "+m, chain(2, [3]int{2, 3, 2}, [3]int{3, 3, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
			sp.RF, sp.BiasShapes, sp.Act = [][]int{{3}}, []string{m}, []string{"tanh"}
		}), W, pr("sp", "sp", "b_0"))
	}
	// avgout / maxout: the factors compute C·avgout·maxout features.
	for _, k := range [][2]int{{2, 1}, {1, 3}, {2, 2}} {
		add(fmt.Sprintf("conv avgout %d maxout %d", k[0], k[1]), chain(2, [3]int{2, 3, 3}, [3]int{2, 3, 3}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, sp.Avgout, sp.Maxout, sp.ACT, o.Act = [][]int{{3}}, k[0], k[1], "tanh", "sigmoid"
		}), W)
	}
	add("dense avgout 2 maxout 2, two factors", chain(2, [3]int{2, 2, 2}, [3]int{3, 1, 1}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.Source, sp.RF, sp.Avgout, sp.Maxout, sp.Act = [][]string{{"in"}, {"in"}}, [][]int{{0}, {0}}, 2, 2, []string{"tanh", "sigmoid"}
	}), W, pr("sp", "sp", "W_1_0"))
	// statestream's expression activations: elementwise, with their
	// derivatives from the parsed expression.
	for _, a := range []string{"$**2 + B.tanh($)", "B.exp($) * B.sigmoid($)", "B.elu($, alpha=0.5)",
		"-$**3 / (1 + B.square($))", "B.softplus($) - 2*B.erf($)", "B.leakyrelu($, leak=0.3)"} {
		add("pool act "+a, chain(2, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, o.Act = [][]int{{1}}, a
		}), W)
		add("factor act "+a, chain(2, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
			sp.RF, sp.Act, sp.ACT = [][]int{{1}}, []string{a}, "B.tanh($)*0.5"
		}), W)
	}
	add("pact expression", chain(2, [3]int{2, 3, 3}, [3]int{3, 3, 3}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.Pact = [][]int{{3}}, [][]string{{"B.tanh($) * 2 + 0.1"}}
	}), W)
	cs = append(cs, unshareGradCases()...)
	return cs
}

// rolloutLoss runs Forward and returns L = Σ c·state(out, depth).
func rolloutLoss(t *testing.T, r *Rollout, tc gradCase, c []float64) float64 {
	t.Helper()
	if err := r.Forward(tc.training); err != nil {
		t.Fatal(err)
	}
	L := 0.0
	for i, v := range r.State(tc.out, tc.depth) {
		L += c[i] * v
	}
	return L
}

func checkGrad(t *testing.T, name string, analytic float64, f func(delta float64) float64) {
	t.Helper()
	num := (f(gradH) - f(-gradH)) / (2 * gradH)
	if math.IsNaN(analytic) || math.Abs(num-analytic) > gradTol*max(1, math.Abs(num), math.Abs(analytic)) {
		t.Errorf("%s: analytic %.10g, numeric %.10g", name, analytic, num)
	}
}

func TestRolloutGradients(t *testing.T) {
	for _, tc := range gradCases() {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.net, Options{Seed: 11, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(4, 5))
			for _, np := range tc.net.NeuronPools {
				v, _ := s.State(np.Name)
				fill(r, v, 1)
			}
			for _, ref := range s.Params() { // random, non-trivial parameters
				v, _ := s.Param(ref)
				fill(r, v, 0.7)
				if ref.Name == "g" {
					for i := range v {
						v[i] += 1.5
					}
				}
			}
			s.frame = 5
			pools := make([][]string, tc.depth+1)
			pools[tc.depth] = []string{tc.out}
			ro, err := s.NewRollout(&stream.Rollout{Depth: tc.depth, Pools: pools}, tc.wrt)
			if err != nil {
				t.Fatal(err)
			}
			c := make([]float64, len(s.cur[s.byName[tc.out]]))
			fill(r, c, 1)
			rolloutLoss(t, ro, tc, c)
			copy(ro.Grad(tc.out, tc.depth), c)
			if err := ro.Backward(); err != nil {
				t.Fatal(err)
			}
			saved := map[stream.ParamRef][]float64{}
			for _, ref := range tc.wrt {
				saved[ref] = append([]float64(nil), ro.ParamGrad(ref)...)
			}
			for _, ref := range tc.wrt {
				g := saved[ref]
				if !slices.ContainsFunc(g, func(v float64) bool { return v != 0 }) {
					t.Errorf("%v: gradient all zero", ref)
				}
				w, _ := s.Param(ref)
				for _, i := range sample(r, len(w), 12) {
					checkGrad(t, ref.Item+"."+ref.Name+"["+itoa(i)+"]", g[i], func(d float64) float64 {
						old := w[i]
						w[i] += d
						L := rolloutLoss(t, ro, tc, c)
						w[i] = old
						return L
					})
				}
			}
			if tc.srcGrad != "" {
				rolloutLoss(t, ro, tc, c)
				copy(ro.Grad(tc.out, tc.depth), c)
				_ = ro.Backward()
				g := append([]float64(nil), ro.Grad(tc.srcGrad, 0)...)
				st := s.cur[s.byName[tc.srcGrad]]
				for _, i := range sample(r, len(st), 12) {
					checkGrad(t, "state "+tc.srcGrad+"["+itoa(i)+"]", g[i], func(d float64) float64 {
						old := st[i]
						st[i] += d
						L := rolloutLoss(t, ro, tc, c)
						st[i] = old
						return L
					})
				}
			}
		})
	}
}

func sample(r *rand.Rand, n, k int) []int {
	if n <= k {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	return r.Perm(n)[:k]
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// TestDeepClassGradient checks the gradients of the appendix's deep_class
// plasticity (categorical cross-entropy of pred2 at δt=3 against label at
// δt=0) with respect to its four parameters.
func TestDeepClassGradient(t *testing.T) {
	net := demoNet(2)
	s, err := New(net, Options{Seed: 2, Workers: 1, Drivers: map[string]stream.Driver{"mnist": &stimDriver{show: func(f int) bool { return true }, seed: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Run(4); err != nil {
		t.Fatal(err)
	}
	p := net.Plasticities[1]
	plan, err := net.Rollout(p)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := s.NewRollout(plan, p.Params)
	if err != nil {
		t.Fatal(err)
	}
	loss := func() float64 {
		if err := ro.Forward(false); err != nil {
			t.Fatal(err)
		}
		y, lab := ro.State("pred2", 3), ro.State("label", 0)
		L := 0.0
		for i := range y {
			L -= lab[i] * math.Log(y[i])
		}
		return L
	}
	loss()
	y, lab, g := ro.State("pred2", 3), ro.State("label", 0), ro.Grad("pred2", 3)
	for i := range y {
		g[i] = -lab[i] / y[i]
	}
	if err := ro.Backward(); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	saved := map[stream.ParamRef][]float64{}
	for _, ref := range p.Params {
		saved[ref] = append([]float64(nil), ro.ParamGrad(ref)...)
	}
	for _, ref := range p.Params {
		ga := saved[ref]
		w, _ := s.Param(ref)
		nz := 0
		for _, v := range ga {
			if v != 0 {
				nz++
			}
		}
		if nz == 0 {
			t.Errorf("%v: gradient is all zero", ref)
		}
		for _, i := range sample(r, len(w), 6) {
			checkGrad(t, ref.Item+"."+ref.Name+"["+itoa(i)+"]", ga[i], func(d float64) float64 {
				old := w[i]
				w[i] += d
				L := loss()
				w[i] = old
				return L
			})
		}
	}
}

// TestRolloutMatchesStep: with training on, depth 1 of a rollout is what
// the Sim's next Step computes (same parameters, same random draws).
func TestRolloutMatchesStep(t *testing.T) {
	net := demoNet(3)
	s, err := New(net, Options{Seed: 9, Workers: 2, Drivers: map[string]stream.Driver{"mnist": &stimDriver{show: func(f int) bool { return true }, seed: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Run(3); err != nil {
		t.Fatal(err)
	}
	plan := &stream.Rollout{Depth: 1, Pools: [][]string{{}, {"conv1", "conv2", "pred1", "prediction"}}}
	ro, err := s.NewRollout(plan, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ro.Forward(true); err != nil {
		t.Fatal(err)
	}
	if err := s.Step(); err != nil {
		t.Fatal(err)
	}
	for _, name := range plan.Pools[1] {
		got := ro.State(name, 1)
		want, _ := s.State(name)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s[%d]: rollout %g, Step %g", name, i, got[i], want[i])
			}
		}
	}
}
