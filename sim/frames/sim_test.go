package frames

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// uniformTol: a softmax of equal inputs is 1/10 up to rounding.
const uniformTol = 1e-12

func isUniform(v []float64) bool {
	for _, x := range v {
		if math.Abs(x-0.1) > uniformTol {
			return false
		}
	}
	return true
}

// firstNonUniform steps the demo net with an image shown only in frame
// imgFrame and returns the first frame whose prediction is not chance.
func firstNonUniform(t *testing.T, mode Mode, zeroShort bool, imgFrame int) int {
	t.Helper()
	net := demoNet(2)
	d := &stimDriver{show: func(f int) bool { return f == imgFrame }, seed: 1}
	s, err := New(withDefaults(net), Options{Seed: 3, Workers: 2, Mode: mode, NoNoise: true, Drivers: map[string]stream.Driver{"mnist": d}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if zeroShort {
		w, _ := s.Param(stream.ParamRef{Kind: "sp", Item: "c1_pred", Name: "W_0_0"})
		clear(w)
	}
	for s.Frame() < 12 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		p, _ := s.State("prediction")
		if s.Frame() == 1 && !isUniform(p) {
			// frame 1: zero inputs everywhere give chance level
			t.Fatalf("frame 1: prediction %v, want chance level 0.1", p[:10])
		}
		if !isUniform(p) {
			return s.Frame()
		}
	}
	return -1
}

// TestSignalTiming checks the frame at which the stimulus reaches the
// prediction (the statestream paper, §2, Fig. 3a): the image held in frame T reaches
// conv1 at T+1, pred1 at T+2 and prediction at T+3 (short path); conv2 at
// T+2, pred2 at T+3, prediction at T+4 (deep path). Sequential mode
// propagates it within the frame it is written.
func TestSignalTiming(t *testing.T) {
	const T = 3
	for _, tc := range []struct {
		name      string
		mode      Mode
		zeroShort bool
		want      int
	}{
		{"parallel short path", Parallel, false, T + 3},
		{"parallel deep path only", Parallel, true, T + 4},
		{"sequential", Sequential, false, T},
		{"sequential deep path only", Sequential, true, T},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := firstNonUniform(t, tc.mode, tc.zeroShort, T); got != tc.want {
				t.Errorf("first non-chance prediction at frame %d, want %d", got, tc.want)
			}
		})
	}
}

// runDemo runs the demo net with noise and dropout on and returns all
// states after frames.
func runDemo(t *testing.T, o Options, frames, agents int) [][]float64 {
	t.Helper()
	net := demoNet(agents)
	d := &stimDriver{show: func(f int) bool { return f%4 != 0 }, seed: 7}
	o.Drivers = map[string]stream.Driver{"mnist": d}
	s, err := New(net, o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Run(frames); err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	for _, np := range net.NeuronPools {
		v, _ := s.State(np.Name)
		out = append(out, slices.Clone(v))
	}
	return out
}

// TestWorkersBitIdentical: the Parallel update gives the same bits for any
// number of workers (jobs are fixed chunks; random draws are hashed from
// seed, pool, frame and element).
func TestWorkersBitIdentical(t *testing.T) {
	for _, mode := range []Mode{Parallel, Sequential} {
		ref := runDemo(t, Options{Seed: 5, Workers: 1, Mode: mode}, 6, 9)
		for _, w := range []int{2, 3} {
			got := runDemo(t, Options{Seed: 5, Workers: w, Mode: mode}, 6, 9)
			for i := range ref {
				if !slices.Equal(ref[i], got[i]) {
					t.Errorf("mode %d, Workers %d: pool %d differs from Workers 1", mode, w, i)
				}
			}
		}
	}
	a := runDemo(t, Options{Seed: 5, Workers: 2}, 6, 9)
	b := runDemo(t, Options{Seed: 6, Workers: 2}, 6, 9)
	if slices.Equal(a[3], b[3]) {
		t.Error("different seeds gave identical conv1 states")
	}
}

// TestParallelVsSequential: on a feed-forward chain both modes compute
// the same values, the sequential one depth frames earlier.
func TestParallelVsSequential(t *testing.T) {
	net := func() *stream.Net {
		return &stream.Net{Agents: 2, NeuronPools: []*stream.NeuronPool{
			{Name: "a", Shape: [3]int{2, 3, 3}},
			{Name: "b", Shape: [3]int{3, 3, 3}, Act: "tanh"},
			{Name: "c", Shape: [3]int{2, 1, 1}, Act: "sigmoid"},
		}, SynapsePools: []*stream.SynapsePool{
			{Name: "ab", Source: [][]string{{"a"}}, Target: "b", RF: [][]int{{3}}},
			{Name: "bc", Source: [][]string{{"b"}}, Target: "c"},
		}}
	}
	ps, err := New(withDefaults(net()), Options{Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := New(withDefaults(net()), Options{Seed: 1, Workers: 1, Mode: Sequential})
	if err != nil {
		t.Fatal(err)
	}
	in := []float64{.1, -.2, .3, .4, -.5, .6, .7, .8, -.9, 1, .1, .2, .3, .4, .5, .6, .7, .8,
		-.1, .2, -.3, .4, -.5, .6, -.7, .8, -.9, 1, -.1, .2, -.3, .4, -.5, .6, -.7, .8}
	for _, s := range []*Sim{ps, ss} {
		if err := s.SetState("a", in); err != nil {
			t.Fatal(err)
		}
	}
	if err := ss.Step(); err != nil {
		t.Fatal(err)
	}
	if err := ps.Run(2); err != nil {
		t.Fatal(err)
	}
	c1, _ := ss.State("c")
	c2, _ := ps.State("c")
	if !slices.Equal(c1, c2) {
		t.Errorf("sequential after 1 frame %v, parallel after 2 frames %v", c1, c2)
	}
}

// TestPeriodOffset: a pool with period 3, offset 1 changes only in the
// steps from frames t with t%3 == 1; a synapse-pool with a period
// contributes only on its frames.
func TestPeriodOffset(t *testing.T) {
	net := &stream.Net{Agents: 1, NeuronPools: []*stream.NeuronPool{
		{Name: "a", Shape: [3]int{1, 1, 1}},
		{Name: "b", Shape: [3]int{1, 1, 1}, Period: 3, Offset: 1},
		{Name: "c", Shape: [3]int{1, 1, 1}},
	}, SynapsePools: []*stream.SynapsePool{
		{Name: "ab", Source: [][]string{{"a", "b"}}, Target: "b", RF: [][]int{{1, 1}}, Init: map[string]string{"W_0_0": "1", "W_0_1": "1"}},
		{Name: "ac", Source: [][]string{{"a"}}, Target: "c", RF: [][]int{{1}}, Init: map[string]string{"W_0_0": "1"}, Period: 2, Offset: 0},
	}}
	s, err := New(withDefaults(net), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetState("a", []float64{1}); err != nil {
		t.Fatal(err)
	}
	var bs, cs []float64
	for range 7 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		b, _ := s.State("b")
		c, _ := s.State("c")
		bs, cs = append(bs, b[0]), append(cs, c[0])
	}
	// b(t+1) = a + b(t) on t = 1, 4; kept otherwise.
	if want := []float64{0, 1, 1, 1, 2, 2, 2}; !slices.Equal(bs, want) {
		t.Errorf("b = %v, want %v", bs, want)
	}
	// c(t+1) = a on even t, 0 (no active input) on odd t.
	if want := []float64{1, 0, 1, 0, 1, 0, 1}; !slices.Equal(cs, want) {
		t.Errorf("c = %v, want %v", cs, want)
	}
}

// TestResetSetStateNoNoise covers Reset, SetState and NoNoise.
func TestResetSetStateNoNoise(t *testing.T) {
	net := &stream.Net{Agents: 3, NeuronPools: []*stream.NeuronPool{
		{Name: "a", Shape: [3]int{4, 1, 1}},
		{Name: "b", Shape: [3]int{4, 1, 1}, Noise: "normal", NoiseStd: 1, Dropout: 0.5},
	}, SynapsePools: []*stream.SynapsePool{
		{Name: "ab", Source: [][]string{{"a"}}, Target: "b", RF: [][]int{{1}}, Init: map[string]string{"W_0_0": "id"}},
	}}
	in := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	run := func(noNoise bool) []float64 {
		s, err := New(withDefaults(net), Options{Workers: 1, NoNoise: noNoise, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetState("a", in); err != nil {
			t.Fatal(err)
		}
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		b, _ := s.State("b")
		first := slices.Clone(b)
		s.Reset()
		if s.Frame() != 0 {
			t.Errorf("Frame after Reset = %d", s.Frame())
		}
		if a, _ := s.State("a"); slices.ContainsFunc(a, func(x float64) bool { return x != 0 }) {
			t.Errorf("state a after Reset = %v, want zeros", a)
		}
		_ = s.SetState("a", in)
		_ = s.Step()
		b, _ = s.State("b")
		if !slices.Equal(first, b) {
			t.Errorf("after Reset the same frame gave %v, first %v", b, first)
		}
		return first
	}
	if got := run(true); !slices.Equal(got, in) {
		t.Errorf("NoNoise: b = %v, want the identity copy %v", got, in)
	}
	if got := run(false); slices.Equal(got, in) {
		t.Errorf("with noise and dropout b equals the input %v", got)
	}
}

// TestErrors: bad input gives errors naming the problem.
func TestErrors(t *testing.T) {
	s, err := New(demoNet(1), Options{})
	if err == nil || !strings.Contains(err.Error(), `"mnist"`) || !strings.Contains(err.Error(), "Options.Drivers") {
		t.Fatalf("missing driver: err = %v", err)
	}
	_ = s
	bad := demoNet(1)
	bad.NeuronPools[3].Act = "rleu"
	if _, err := New(bad, Options{Drivers: map[string]stream.Driver{"mnist": &stimDriver{show: func(int) bool { return false }}}}); err == nil || !strings.Contains(err.Error(), "rleu") {
		t.Errorf("Validate failure not passed through: %v", err)
	}
	good, err := New(demoNet(1), Options{Workers: 1, Drivers: map[string]stream.Driver{"mnist": &stimDriver{show: func(int) bool { return false }}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := good.State("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("State(nope): %v", err)
	}
	if err := good.SetState("conv1", []float64{1}); err == nil || !strings.Contains(err.Error(), "conv1") {
		t.Errorf("SetState wrong length: %v", err)
	}
	if _, err := good.Param(stream.ParamRef{Kind: "sp", Item: "img_c1", Name: "W_9_9"}); err == nil || !strings.Contains(err.Error(), "W_9_9") {
		t.Errorf("Param unknown: %v", err)
	}
	r, _ := good.Net().Rollout(good.Net().Plasticities[1])
	if _, err := good.NewRollout(r, []stream.ParamRef{{Kind: "np", Item: "conv2", Name: "g"}}); err == nil {
		t.Errorf("NewRollout with a missing gain: no error")
	}
	mx := demoNet(1) // maxout: the convolution computes twice the features
	mx.SynapsePools[0].Maxout = 2
	ms, err := New(mx, Options{Drivers: map[string]stream.Driver{"mnist": &stimDriver{show: func(int) bool { return false }}}})
	if err != nil {
		t.Fatalf("maxout: %v", err)
	}
	defer ms.Close()
	if sh, err := ms.ParamShape(stream.ParamRef{Kind: "sp", Item: mx.SynapsePools[0].Name, Name: "W_0_0"}); err != nil || sh[3] != 2*mx.Pool(mx.SynapsePools[0].Target).Shape[0] {
		t.Errorf("maxout: W_0_0 shape %v, %v", sh, err)
	}
}

// TestParams: layouts and initialisers.
func TestParams(t *testing.T) {
	s, err := New(demoNet(1), Options{Workers: 1, Drivers: map[string]stream.Driver{"mnist": &stimDriver{show: func(int) bool { return false }}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref   stream.ParamRef
		shape []int
	}{
		{stream.ParamRef{Kind: "sp", Item: "img_c1", Name: "W_0_0"}, []int{5, 5, 1, 32}},
		{stream.ParamRef{Kind: "sp", Item: "c1_c2", Name: "W_0_0"}, []int{5, 5, 32, 64}},
		{stream.ParamRef{Kind: "sp", Item: "c1_pred", Name: "W_0_0"}, []int{32 * 14 * 14, 10}},
		{stream.ParamRef{Kind: "np", Item: "conv2", Name: "b"}, []int{64}},
	} {
		sh, err := s.ParamShape(tc.ref)
		if err != nil || !slices.Equal(sh, tc.shape) {
			t.Errorf("%v: shape %v (%v), want %v", tc.ref, sh, err, tc.shape)
		}
	}
	w, _ := s.Param(stream.ParamRef{Kind: "sp", Item: "pred_pred", Name: "W_0_1"})
	for i := range 10 {
		for j := range 10 {
			want := 0.0
			if i == j {
				want = 1
			}
			if w[i*10+j] != want {
				t.Fatalf("id init: W[%d][%d] = %g", i, j, w[i*10+j])
			}
		}
	}
	x, _ := s.Param(stream.ParamRef{Kind: "sp", Item: "img_c1", Name: "W_0_0"})
	bound := math.Sqrt(6.0 / (25 + 25*32))
	for _, v := range x {
		if math.Abs(v) > bound {
			t.Fatalf("xavier value %g beyond bound %g", v, bound)
		}
	}
	// every pool carries a feature bias by default (8); W of 6 sps, two in pred_pred (7)
	if n := len(s.Params()); n != 8+7 {
		t.Errorf("Params: %d refs, want 15", n)
	}
}

// TestLoadedAppendixNet runs the appendix network as loaded from its
// statestream file: same timing as the Go-built one.
func TestLoadedAppendixNet(t *testing.T) {
	net, err := stream.Load("../../toolkit/stream/testdata/demonstration.st_graph", stream.LoadOptions{Globals: nil})
	if err != nil {
		t.Fatal(err)
	}
	net.Agents = 2
	d := &stimDriver{show: func(f int) bool { return f == 2 }, seed: 1}
	s, err := New(net, Options{Seed: 3, Workers: 2, NoNoise: true, Drivers: map[string]stream.Driver{"mnist": d}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	first := -1
	for s.Frame() < 8 && first < 0 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if p, _ := s.State("prediction"); !isUniform(p) {
			first = s.Frame()
		}
	}
	if first != 5 {
		t.Errorf("first non-chance prediction at frame %d, want 2+3", first)
	}
	plan, err := net.Rollout(net.Plasticity("deep_class"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.NewRollout(plan, net.Plasticity("deep_class").Params); err != nil {
		t.Fatal(err)
	}
}

// countMM is a MatMul that counts calls and delegates to a naive product.
type countMM struct{ calls atomic.Int64 }

func (c *countMM) MatMul(m, n, k int, a, b, out []float64) {
	c.calls.Add(1)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			v := 0.0
			for l := 0; l < k; l++ {
				v += a[i*k+l] * b[l*n+j]
			}
			out[i*n+j] = v
		}
	}
}

// TestMatMulHook: with Options.MatMul every forward weight product goes
// through it (one call per term and chunk; a ppp term two) and the states
// agree with the default path.
func TestMatMulHook(t *testing.T) {
	ref := runDemo(t, Options{Seed: 5, Workers: 2, NoNoise: true}, 5, 3)
	mm := &countMM{}
	got := runDemo(t, Options{Seed: 5, Workers: 2, NoNoise: true, MatMul: mm}, 5, 3)
	for i := range ref {
		for k := range ref[i] {
			if math.Abs(ref[i][k]-got[i][k]) > fwdTol {
				t.Fatalf("pool %d value %d: %g with MatMul, %g without", i, k, got[i][k], ref[i][k])
			}
		}
	}
	// demo net, 3 agents (3 chunks for each of the 6 computed pools; prediction
	// has 2 terms, the others 1): per frame 3·(1+1+1+1+2+1) = 21 products.
	if n := mm.calls.Load(); n != 5*21 {
		t.Errorf("MatMul called %d times in 5 frames, want %d", n, 5*21)
	}
}

// orderHook records its calls and changes a parameter in Write.
type orderHook struct {
	s      *Sim
	log    []string
	failAt int
}

func (h *orderHook) Read(t int) error {
	if t == h.failAt {
		return fmt.Errorf("read failed at %d", t)
	}
	h.log = append(h.log, fmt.Sprintf("R%d@%d", t, h.s.Frame()))
	return nil
}

func (h *orderHook) Write(t int) error {
	b, _ := h.s.Param(stream.ParamRef{Kind: "np", Item: "b", Name: "b"})
	b[0] += 1
	h.log = append(h.log, fmt.Sprintf("W%d", t))
	return nil
}

// TestHooks: Read and Write run once per frame in order; a parameter
// changed in Write is used from the next frame on; a Read error stops Step
// with context.
func TestHooks(t *testing.T) {
	for _, mode := range []Mode{Parallel, Sequential} {
		net := withDefaults(&stream.Net{Agents: 1, NeuronPools: []*stream.NeuronPool{
			{Name: "a", Shape: [3]int{1, 1, 1}},
			{Name: "b", Shape: [3]int{1, 1, 1}},
		}, SynapsePools: []*stream.SynapsePool{
			{Name: "ab", Source: [][]string{{"a"}}, Target: "b", RF: [][]int{{1}}, Init: map[string]string{"W_0_0": "zero"}},
		}})
		s, err := New(net, Options{Workers: 2, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		h := &orderHook{s: s, failAt: 3}
		s.AddHook(h)
		var bs []float64
		for range 3 {
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
			b, _ := s.State("b")
			bs = append(bs, b[0])
		}
		if want := "R0@0 W0 R1@1 W1 R2@2 W2"; strings.Join(h.log, " ") != want {
			t.Errorf("mode %d: hook log %q, want %q", mode, strings.Join(h.log, " "), want)
		}
		if want := []float64{0, 1, 2}; !slices.Equal(bs, want) {
			t.Errorf("mode %d: b = %v, want %v (bias raised in Write, used next frame)", mode, bs, want)
		}
		if err := s.Step(); err == nil || !strings.Contains(err.Error(), "read failed at 3") {
			t.Errorf("mode %d: hook error: %v", mode, err)
		}
		s.Close()
	}
}

// failDriver fails in Frame.
type failDriver struct{ stimDriver }

func (f *failDriver) Frame(t int, in, out map[string][]float64) error {
	return fmt.Errorf("no more data")
}

func TestDriverErrors(t *testing.T) {
	s, err := New(demoNet(1), Options{Workers: 1, Drivers: map[string]stream.Driver{"mnist": &failDriver{}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(); err == nil || !strings.Contains(err.Error(), "no more data") || !strings.Contains(err.Error(), "mnist") {
		t.Errorf("driver Frame error: %v", err)
	}
	d := &stimDriver{show: func(int) bool { return false }}
	if _, err := New(demoNet(1), Options{Drivers: map[string]stream.Driver{"mnist": d, "cifar": d}}); err == nil || !strings.Contains(err.Error(), "cifar") {
		t.Errorf("driver for an unknown interface: %v", err)
	}
}

// TestColumnGroups: a convolution computed in groups of agents (a small
// column budget: one agent per group) gives the same bits as in one group.
func TestColumnGroups(t *testing.T) {
	run := func(budget int) [][]float64 {
		net := demoNet(5)
		d := &stimDriver{show: func(f int) bool { return true }, seed: 7}
		s, err := newSim(net, Options{Seed: 5, Workers: 2, Drivers: map[string]stream.Driver{"mnist": d}}, budget)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.Run(4); err != nil {
			t.Fatal(err)
		}
		var out [][]float64
		for _, np := range net.NeuronPools {
			v, _ := s.State(np.Name)
			out = append(out, slices.Clone(v))
		}
		return out
	}
	a, b := run(colBudget), run(1)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Errorf("pool %d differs between column groups of 1 agent and of all agents", i)
		}
	}
}

func TestStats(t *testing.T) {
	s, err := New(demoNet(3), Options{Workers: 2, Drivers: map[string]stream.Driver{"mnist": allocFreeDriver{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_ = s.Run(3)
	st := s.Stats()
	// 8 pools × 3 chunks (3 agents), minus 2 for the driven pools (one job each)
	if st.Frames != 3 || st.Workers != 2 || st.Jobs != 8*3-2*2 || st.Read <= 0 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestSequentialCycle: in → a ⇄ b. The search from the input in reaches
// a, then b; b → a closes the cycle. So a(t+1) = in(t+1) + b(t) and
// b(t+1) = a(t+1).
func TestSequentialCycle(t *testing.T) {
	id := map[string]string{"W_0_0": "id"}
	net := withDefaults(&stream.Net{Agents: 1, NeuronPools: []*stream.NeuronPool{
		{Name: "b", Shape: [3]int{1, 1, 1}, BiasShape: "false"},
		{Name: "a", Shape: [3]int{1, 1, 1}, BiasShape: "false"},
		{Name: "in", Shape: [3]int{1, 1, 1}, BiasShape: "false"},
	}, SynapsePools: []*stream.SynapsePool{
		{Name: "ba", Source: [][]string{{"b"}}, Target: "a", RF: [][]int{{1}}, Init: id},
		{Name: "ia", Source: [][]string{{"in"}}, Target: "a", RF: [][]int{{1}}, Init: id},
		{Name: "ab", Source: [][]string{{"a"}}, Target: "b", RF: [][]int{{1}}, Init: id},
	}})
	s, err := New(net, Options{Workers: 1, Mode: Sequential})
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{net.NeuronPools[s.order[0]].Name, net.NeuronPools[s.order[1]].Name, net.NeuronPools[s.order[2]].Name}; !slices.Equal(got, []string{"in", "a", "b"}) {
		t.Errorf("order %v, want [in a b]", got)
	}
	_ = s.SetState("in", []float64{1})
	var as, bs []float64
	for range 3 {
		_ = s.Step()
		a, _ := s.State("a")
		b, _ := s.State("b")
		as, bs = append(as, a[0]), append(bs, b[0])
	}
	if !slices.Equal(as, []float64{1, 2, 3}) || !slices.Equal(bs, []float64{1, 2, 3}) {
		t.Errorf("a = %v, b = %v; want [1 2 3] for both", as, bs)
	}
}
