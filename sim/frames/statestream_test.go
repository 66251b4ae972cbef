package frames

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// loadTestdata loads a network file of toolkit/stream/testdata in strict
// mode (every key must have its effect).
func loadTestdata(t *testing.T, name string) *stream.Net {
	t.Helper()
	n, err := stream.Load(filepath.Join("..", "..", "toolkit", "stream", "testdata", name), stream.LoadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// testdataSim loads a network file of toolkit/stream/testdata (strict)
// and builds its simulator, closed when the test ends.
func testdataSim(t *testing.T, name string, opt Options) (*stream.Net, *Sim) {
	t.Helper()
	n := loadTestdata(t, name)
	s, err := New(n, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return n, s
}

// paramShape is a parameter and the shape it must have.
type paramShape struct {
	ref   stream.ParamRef
	shape []int
}

// checkParamShapes checks the shapes of parameters.
func checkParamShapes(t *testing.T, s *Sim, want []paramShape) {
	t.Helper()
	for _, c := range want {
		sh, err := s.ParamShape(c.ref)
		if err != nil || !slices.Equal(sh, c.shape) {
			t.Errorf("%v: shape %v (%v), want %v", c.ref, sh, err, c.shape)
		}
	}
}

// fillParams sets every parameter of s to draws of r in [-scale, scale).
func fillParams(r *rand.Rand, s *Sim, scale float64) {
	for _, ref := range s.Params() {
		v, _ := s.Param(ref)
		fill(r, v, scale)
	}
}

// unshareGradCases are gradient cases of unshared parameters (one set per
// agent) and of factor / target shapes.
func unshareGradCases() []gradCase {
	W := pr("sp", "sp", "W_0_0")
	var cs []gradCase
	add := func(name string, net *stream.Net, wrt ...stream.ParamRef) {
		cs = append(cs, gradCase{name: name, net: net, out: "out", depth: 1, wrt: wrt, srcGrad: "in"})
	}
	add("unshared dense", chain(3, [3]int{2, 2, 1}, [3]int{3, 1, 1}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.Unshare = []string{"W_0_0"}
	}), W)
	add("unshared conv", chain(3, [3]int{2, 3, 3}, [3]int{2, 3, 3}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.Unshare = [][]int{{3}}, []string{"W_0_0"}
	}), W)
	add("unshared conv stride 2", chain(2, [3]int{2, 4, 4}, [3]int{2, 2, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.Unshare = [][]int{{3}}, []string{"W_0_0"}
	}), W)
	add("unshared rf1 identity path", chain(3, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.Unshare = [][]int{{1}}, []string{"W_0_0"}
	}), W)
	add("unshared ppp and W", chain(2, [3]int{3, 2, 2}, [3]int{2, 2, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.PPP, sp.Unshare = [][]int{{1}}, [][]int{{2}}, []string{"P_0_0", "W_0_0"}
	}), W, pr("sp", "sp", "P_0_0"))
	add("unshared pool gain and bias", chain(3, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
		sp.RF = [][]int{{1}}
		o.GainShape, o.BiasShape, o.Act, o.Unshare = "spatial", "feature", "sigmoid", []string{"b", "g"}
	}), W, pr("np", "out", "g"), pr("np", "out", "b"))
	add("unshared factor bias", chain(3, [3]int{2, 3, 2}, [3]int{3, 3, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.RF, sp.BiasShapes, sp.Act, sp.Unshare = [][]int{{3}}, []string{"full"}, []string{"tanh"}, []string{"b_0"}
	}), W, pr("sp", "sp", "b_0"))
	// factor_shapes and target_shapes
	for _, fs := range [][2]string{{"full", "feature"}, {"full", "spatial"}, {"full", "scalar"}, {"feature", "feature"},
		{"feature", "spatial"}, {"spatial", "spatial"}, {"spatial", "scalar"}, {"scalar", "scalar"}} {
		add("factor shapes "+fs[0]+" "+fs[1], chain(2, [3]int{2, 4, 4}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			rf := func(m string) int {
				if m == "feature" || m == "scalar" {
					return 0
				}
				return 3
			}
			sp.Source, sp.FactorShapes = [][]string{{"in"}, {"in"}}, []string{fs[0], fs[1]}
			sp.RF, sp.Act = [][]int{{rf(fs[0])}, {rf(fs[1])}}, []string{"tanh", "sigmoid"}
			sp.BiasShapes = []string{"scalar", fs[1]}
			o.Act = "tanh"
		}), W, pr("sp", "sp", "W_1_0"), pr("sp", "sp", "b_0"), pr("sp", "sp", "b_1"))
	}
	add("target shapes full spatial feature scalar", chain(2, [3]int{2, 4, 4}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.Source = [][]string{{"in", "in", "in", "in"}}
		sp.RF = [][]int{{3, 3, 0, 0}}
		sp.TargetShapes = [][]string{{"full", "spatial", "feature", "scalar"}}
		sp.Act = []string{"tanh"}
	}), W, pr("sp", "sp", "W_0_1"), pr("sp", "sp", "W_0_2"), pr("sp", "sp", "W_0_3"))
	add("feature factor of summands spatial-free", chain(2, [3]int{2, 2, 2}, [3]int{3, 2, 2}, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
		sp.Source = [][]string{{"in", "in"}, {"in"}}
		sp.FactorShapes = []string{"feature", "full"}
		sp.TargetShapes = [][]string{{"feature", "scalar"}, {"full"}}
		sp.RF = [][]int{{0, 0}, {1}}
		sp.Act = []string{"sigmoid", "Id"}
	}), W, pr("sp", "sp", "W_0_1"), pr("sp", "sp", "W_1_0"))
	return cs
}

// TestExpressionActivations runs activations.st_graph: statestream's
// expression activations, spiky with its self-recurrence (a spike every
// few frames) and expression pre-activations, frame by frame against the
// closed forms.
func TestExpressionActivations(t *testing.T) {
	_, s := testdataSim(t, "activations.st_graph", Options{Seed: 1, Workers: 1})
	xs := []float64{-0.6, -0.2, 0.2, 0.4, 0.6, 1.0, 1.5}
	x, _ := s.State("x")
	for i := range x {
		x[i] = xs[i%len(xs)]
	}
	x = slices.Clone(x)
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	// spiky of statestream's tensorflow backend (threshold 1, saturation 2)
	spiky := func(v float64) float64 {
		switch {
		case v < 0 || v >= 2:
			return 0
		case v > 1:
			return 4 + 1e-8
		}
		return v
	}
	sp := make([]float64, len(x))  // spiky's state
	spk := make([]float64, len(x)) // spikes' state
	const tol = 1e-12
	spikes := 0
	for frame := 1; frame <= 8; frame++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for i := range spk {
			spk[i] = max(sp[i]-1, 0)
		}
		for i := range sp {
			sp[i] = spiky(x[i] + sp[i])
			if sp[i] > 4 {
				spikes++
			}
		}
		check := func(pool string, want func(i int) float64) {
			t.Helper()
			got, _ := s.State(pool)
			for i := range got {
				if w := want(i); math.Abs(got[i]-w) > tol*max(1, math.Abs(w)) {
					t.Fatalf("frame %d: %s[%d] = %.15g, want %.15g (x = %g)", frame, pool, i, got[i], w, x[i])
				}
			}
		}
		check("explicit1", func(i int) float64 { return x[i]*x[i] + math.Tanh(x[i]) })
		check("explicit2", func(i int) float64 { return math.Exp(x[i]) * sig(x[i]) })
		check("reluthresh", func(i int) float64 { return max(x[i]-0.5, 0) })
		check("scaled", func(i int) float64 { return min(max(-2*math.Tanh(x[i])+0.5, -1), 1) })
		check("soft", func(i int) float64 {
			p := i / 3 * 3
			z := math.Exp(x[p]) + math.Exp(x[p+1]) + math.Exp(x[p+2])
			return math.Exp(x[i]) / z
		})
		check("spiky", func(i int) float64 { return sp[i] })
		check("spikes", func(i int) float64 { return spk[i] })
	}
	if spikes == 0 {
		t.Error("spiky never spiked")
	}
}

// TestUnshareFile runs unshare.st_graph: every unshared parameter holds
// one array per agent (each its own draw), and each agent of the network
// computes what a one-agent network with that agent's parameters
// computes.
func TestUnshareFile(t *testing.T) {
	n, s := testdataSim(t, "unshare.st_graph", Options{Seed: 2, Workers: 2})
	checkParamShapes(t, s, []paramShape{
		{pr("np", "hidden", "b"), []int{3, 4}},
		{pr("sp", "img_hid", "W_0_0"), []int{3, 3, 3, 2, 4}},
		{pr("sp", "hid_code", "W_0_0"), []int{3, 64, 5}},
		{pr("sp", "hid_code", "b_0"), []int{3, 5}},
		{pr("sp", "code_error", "W_0_0"), []int{3, 5, 3}},
		{pr("sp", "code_pred", "W_0_0"), []int{3, 5, 3}},
		{pr("sp", "pred_error", "W_0_0"), []int{3, 3}},
	})
	W, _ := s.Param(pr("sp", "img_hid", "W_0_0"))
	per := len(W) / 3
	if slices.Equal(W[:per], W[per:2*per]) {
		t.Error("agents 0 and 1 start with the same unshared weights")
	}
	wp, _ := s.Param(pr("sp", "code_pred", "W_0_0"))
	we, _ := s.Param(pr("sp", "code_error", "W_0_0"))
	if &wp[0] != &we[0] {
		t.Error("code_pred does not use code_error's array")
	}
	r := rand.New(rand.NewPCG(8, 9))
	fillParams(r, s, 0.5)
	states := map[string][]float64{}
	for _, np := range n.NeuronPools {
		v, _ := s.State(np.Name)
		fill(r, v, 1)
		states[np.Name] = slices.Clone(v)
	}
	for range 2 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	for a := 0; a < 3; a++ {
		one := loadTestdata(t, "unshare.st_graph")
		one.Agents = 1
		for _, np := range one.NeuronPools {
			np.Unshare = nil
		}
		for _, sp := range one.SynapsePools {
			sp.Unshare = nil
		}
		s1, err := New(one, Options{Seed: 2, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range s1.Params() {
			w1, _ := s1.Param(ref)
			w, _ := s.Param(ref)
			if len(w) == 3*len(w1) {
				copy(w1, w[a*len(w1):])
			} else {
				copy(w1, w)
			}
		}
		for nm, v := range states {
			v1, _ := s1.State(nm)
			copy(v1, v[a*len(v1):])
		}
		for range 2 {
			if err := s1.Step(); err != nil {
				t.Fatal(err)
			}
		}
		for _, np := range one.NeuronPools {
			got, _ := s.State(np.Name)
			want, _ := s1.State(np.Name)
			got = got[a*len(want) : (a+1)*len(want)]
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12 {
					t.Fatalf("agent %d: %s[%d] = %g, a one-agent network with its parameters gives %g", a, np.Name, i, got[i], want[i])
				}
			}
		}
		s1.Close()
	}
}

// TestFactorShapesFile runs factor_shapes.st_graph against the closed
// form of its feature_feature synapse-pool (two dense maps to one value
// per feature, multiplied and repeated over the positions) and checks
// that every factor-shaped pool is the same as an equivalent full one
// where that exists: a feature factor repeats over positions, so c is
// equal at every position.
func TestFactorShapesFile(t *testing.T) {
	_, s := testdataSim(t, "factor_shapes.st_graph", Options{Seed: 3, Workers: 1})
	checkParamShapes(t, s, []paramShape{
		{pr("sp", "full_feature", "W_0_0"), []int{3, 3, 1, 2}},
		{pr("sp", "full_feature", "W_1_0"), []int{36, 2}},
		{pr("sp", "spatial_scalar", "W_0_0"), []int{3, 3, 1, 1}},
		{pr("sp", "spatial_scalar", "W_1_0"), []int{36, 1}},
		{pr("sp", "spatial_scalar", "b_0"), []int{3, 3}},
		{pr("sp", "spatial_scalar", "b_1"), []int{1}},
		{pr("sp", "mixed", "W_0_1"), []int{3, 3, 1, 1}},
	})
	r := rand.New(rand.NewPCG(1, 2))
	img, _ := s.State("image")
	fill(r, img, 1)
	fillParams(r, s, 0.5)
	if err := s.Step(); err != nil {
		t.Fatal(err)
	}
	W0, _ := s.Param(pr("sp", "feature_feature", "W_0_0"))
	W1, _ := s.Param(pr("sp", "feature_feature", "W_1_0"))
	bc, _ := s.Param(pr("np", "c", "b"))
	c, _ := s.State("c")
	for a := 0; a < 2; a++ {
		in := img[a*36 : (a+1)*36]
		for f := 0; f < 2; f++ {
			u, v := 0.0, 0.0
			for i, x := range in {
				u += x * W0[i*2+f]
				v += x * W1[i*2+f]
			}
			for pos := 0; pos < 9; pos++ {
				if got, want := c[(a*9+pos)*2+f], u*v+bc[f]; math.Abs(got-want) > 1e-12 {
					t.Fatalf("c[agent %d, position %d, feature %d] = %g, want %g", a, pos, f, got, want)
				}
			}
		}
	}
	// b: a spatial factor (one value per position) times a scalar one:
	// both features equal at every position.
	b, _ := s.State("b")
	bb, _ := s.Param(pr("np", "b", "b"))
	for k := 0; k < len(b); k += 2 {
		if math.Abs((b[k]-bb[0])-(b[k+1]-bb[1])) > 1e-12 {
			t.Fatalf("b at %d: features %g, %g differ beyond their biases", k/2, b[k], b[k+1])
		}
	}
}

// TestBoundsFile runs bounds.st_graph: plain uniform draws from [0, 1)
// (statestream's numpy uniform), the bounded weight starts clipped to
// [−1, 2] and stays there while a plasticity pushes it beyond (tested in
// train/plastic); here the initial values and ClipParam.
func TestBoundsFile(t *testing.T) {
	_, s := testdataSim(t, "bounds.st_graph", Options{Seed: 4, Workers: 1})
	plain, _ := s.Param(pr("sp", "plain", "W_0_0"))
	if lo, hi := slices.Min(plain), slices.Max(plain); lo < 0 || hi >= 1 || hi-lo < 0.9 {
		t.Errorf("uniform draws span [%g, %g], want [0, 1)", lo, hi)
	}
	w, _ := s.Param(pr("sp", "clipped", "W_0_0"))
	lo, hi := slices.Min(w), slices.Max(w)
	if lo != -1 || hi != 2 {
		t.Errorf("clipped uniform_-2_4 spans [%g, %g], want [-1, 2] with values at both bounds", lo, hi)
	}
	w[0], w[1] = 7, -7
	if err := s.ClipParam(pr("sp", "clipped", "W_0_0")); err != nil {
		t.Fatal(err)
	}
	if w[0] != 2 || w[1] != -1 {
		t.Errorf("ClipParam gave %g, %g; want 2, -1", w[0], w[1])
	}
	if err := s.ClipParam(pr("sp", "nope", "W_0_0")); err == nil {
		t.Error("ClipParam of a missing parameter: no error")
	}
}
