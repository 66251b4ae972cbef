package frames

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// fwdTol: the executor (im2col + tiled GEMM) and the naive loops sum the
// same products in different orders; for O(10²) terms of size O(1) the
// difference stays within a few hundred ulps.
const fwdTol = 1e-12

// naiveTerm computes W ⋆ upsample(P ⋆ y) for one agent by direct loops
// over the target: the definition in the statestream paper, appendix 6.1 with
// TensorFlow's "same" padding, written independently of im2col.
func naiveTerm(y []float64, src, tgt [3]int, rf, dil, ppp int, P, W []float64) []float64 {
	cs, ws, hs := src[0], src[1], src[2]
	ct, wt, ht := tgt[0], tgt[1], tgt[2]
	cin := cs
	if ppp > 0 { // 1×1 projection
		z := make([]float64, ws*hs*ppp)
		for pos := 0; pos < ws*hs; pos++ {
			for o := 0; o < ppp; o++ {
				for c := 0; c < cs; c++ {
					z[pos*ppp+o] += y[pos*cs+c] * P[c*ppp+o]
				}
			}
		}
		y, cin = z, ppp
	}
	out := make([]float64, wt*ht*ct)
	if rf == 0 { // dense
		k := ws * hs * cin
		for j := range out {
			for i := 0; i < k; i++ {
				out[j] += y[i] * W[i*len(out)+j]
			}
		}
		return out
	}
	upX, upY, sX, sY := 1, 1, 1, 1
	if wt > ws {
		upX = wt / ws
	} else {
		sX = ws / wt
	}
	if ht > hs {
		upY = ht / hs
	} else {
		sY = hs / ht
	}
	wu, hu := ws*upX, hs*upY
	padBefore := func(n, s, o int) int { return max((o-1)*s+(rf-1)*dil+1-n, 0) / 2 }
	pt, pl := padBefore(wu, sX, wt), padBefore(hu, sY, ht)
	for ox := 0; ox < wt; ox++ {
		for oy := 0; oy < ht; oy++ {
			for f := 0; f < ct; f++ {
				v := 0.0
				for kx := 0; kx < rf; kx++ {
					for ky := 0; ky < rf; ky++ {
						ix, iy := ox*sX-pt+kx*dil, oy*sY-pl+ky*dil
						if ix < 0 || iy < 0 || ix >= wu || iy >= hu {
							continue
						}
						for c := 0; c < cin; c++ {
							v += y[((ix/upX)*hs+iy/upY)*cin+c] * W[((kx*rf+ky)*cin+c)*ct+f]
						}
					}
				}
				out[(ox*ht+oy)*ct+f] = v
			}
		}
	}
	return out
}

// TestForwardAgainstNaive compares one step of a single synapse-pool
// (Id activations, no bias) with naiveTerm for each geometry.
func TestForwardAgainstNaive(t *testing.T) {
	for _, tc := range []struct {
		name         string
		src, tgt     [3]int
		rf, dil, ppp int
	}{
		{"conv rf3 same size", [3]int{2, 5, 4}, [3]int{3, 5, 4}, 3, 1, 0},
		{"conv rf5 stride 2 (28→14 as img_c1, smaller)", [3]int{1, 12, 12}, [3]int{4, 6, 6}, 5, 1, 0},
		{"conv rf3 stride 3", [3]int{2, 9, 6}, [3]int{2, 3, 2}, 3, 1, 0},
		{"conv dilation 2", [3]int{2, 7, 7}, [3]int{2, 7, 7}, 3, 2, 0},
		{"upsample ×2 rf3", [3]int{2, 3, 3}, [3]int{3, 6, 6}, 3, 1, 0},
		{"upsample ×3 rf1 with ppp", [3]int{4, 2, 2}, [3]int{2, 6, 6}, 1, 1, 3},
		{"mixed: up in x, stride in y", [3]int{2, 2, 6}, [3]int{2, 4, 3}, 3, 1, 0},
		{"rf1 identity path", [3]int{3, 4, 4}, [3]int{5, 4, 4}, 1, 1, 0},
		{"dense", [3]int{2, 3, 2}, [3]int{4, 2, 3}, 0, 1, 0},
		{"dense with ppp", [3]int{3, 2, 2}, [3]int{2, 1, 1}, 0, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const agents = 3
			net := chain(agents, tc.src, tc.tgt, func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
				sp.RF, sp.Dilation = [][]int{{tc.rf}}, [][]int{{tc.dil}}
				if tc.ppp > 0 {
					sp.PPP = [][]int{{tc.ppp}}
				}
			})
			s, err := New(net, Options{Seed: 3, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			r := rand.New(rand.NewPCG(1, 1))
			in, _ := s.State("in")
			fill(r, in, 1)
			in = append([]float64(nil), in...)
			W, _ := s.Param(pr("sp", "sp", "W_0_0"))
			var P []float64
			if tc.ppp > 0 {
				P, _ = s.Param(pr("sp", "sp", "P_0_0"))
				fill(r, P, 1)
			}
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
			got, _ := s.State("out")
			ns, nt := stream.Size(tc.src), stream.Size(tc.tgt)
			for a := 0; a < agents; a++ {
				want := naiveTerm(in[a*ns:(a+1)*ns], tc.src, tc.tgt, tc.rf, tc.dil, tc.ppp, P, W)
				for i, w := range want {
					if g := got[a*nt+i]; math.Abs(g-w) > fwdTol {
						t.Fatalf("agent %d, value %d: got %g, want %g", a, i, g, w)
					}
				}
			}
		})
	}
}

// TestPoolStages checks the neuron-pool stages against closed forms on a
// pool fed through an identity synapse-pool: noise off, gain/bias shapes,
// the normalisations, product of factors and activations.
func TestPoolStages(t *testing.T) {
	const agents = 2
	shape := [3]int{2, 2, 1} // C=2, W=2, H=1: 4 values per agent
	in := []float64{1, -2, 3, 0.5, -1, 4, 2, -3}
	type mod func(sp *stream.SynapsePool, o *stream.NeuronPool)
	for _, tc := range []struct {
		name string
		mod  mod
		want func(x []float64) []float64
	}{
		{"identity", nil, func(x []float64) []float64 { return x }},
		{"relu + feature bias", func(_ *stream.SynapsePool, o *stream.NeuronPool) { o.Act, o.BiasShape = "relu", "feature" },
			func(x []float64) []float64 {
				b := []float64{0.5, -0.25}
				out := make([]float64, len(x))
				for i, v := range x {
					out[i] = max(v, 0) + b[i%2]
				}
				return out
			}},
		{"spatial gain then softmax", func(_ *stream.SynapsePool, o *stream.NeuronPool) { o.Act, o.GainShape = "softmax", "spatial" },
			func(x []float64) []float64 {
				g := []float64{2, -1}
				out := make([]float64, len(x))
				for p := 0; p < len(x); p += 2 {
					gp := g[(p/2)%2]
					e0, e1 := math.Exp(gp*x[p]), math.Exp(gp*x[p+1])
					out[p], out[p+1] = e0/(e0+e1), e1/(e0+e1)
				}
				return out
			}},
		{"batchnorm spatial mean+std", func(_ *stream.SynapsePool, o *stream.NeuronPool) {
			o.BatchnormMean, o.BatchnormStd = "spatial", "spatial"
		},
			func(x []float64) []float64 { // per feature over agents and positions
				out := make([]float64, len(x))
				for c := 0; c < 2; c++ {
					m, q := 0.0, 0.0
					for i := c; i < len(x); i += 2 {
						m += x[i] / 4
					}
					for i := c; i < len(x); i += 2 {
						q += (x[i] - m) * (x[i] - m) / 4
					}
					for i := c; i < len(x); i += 2 {
						out[i] = (x[i] - m) / math.Sqrt(q+normEps)
					}
				}
				return out
			}},
		{"layernorm full mean", func(_ *stream.SynapsePool, o *stream.NeuronPool) { o.LayernormMean = "full" },
			func(x []float64) []float64 {
				out := make([]float64, len(x))
				for a := 0; a < agents; a++ {
					m := 0.0
					for i := a * 4; i < a*4+4; i++ {
						m += x[i] / 4
					}
					for i := a * 4; i < a*4+4; i++ {
						out[i] = x[i] - m
					}
				}
				return out
			}},
		{"square factor times itself, ACT tanh", func(sp *stream.SynapsePool, _ *stream.NeuronPool) {
			sp.Source, sp.RF = [][]string{{"in"}, {"in"}}, [][]int{{1}, {1}}
			sp.Act, sp.ACT = []string{"square", "Id"}, "tanh"
			sp.Init = map[string]string{"W_0_0": "id", "W_1_0": "id"}
		}, func(x []float64) []float64 {
			out := make([]float64, len(x))
			for i, v := range x {
				out[i] = math.Tanh(v * v * v)
			}
			return out
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := chain(agents, shape, shape, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
				sp.RF, sp.Init = [][]int{{1}}, map[string]string{"W_0_0": "id"}
				if tc.mod != nil {
					tc.mod(sp, o)
				}
			})
			s, err := New(net, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if b, err := s.Param(pr("np", "out", "b")); err == nil {
				copy(b, []float64{0.5, -0.25})
			}
			if g, err := s.Param(pr("np", "out", "g")); err == nil {
				copy(g, []float64{2, -1})
			}
			_ = s.SetState("in", in)
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
			got, _ := s.State("out")
			want := tc.want(in)
			for i := range want {
				if math.Abs(got[i]-want[i]) > fwdTol {
					t.Fatalf("value %d: got %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestActivations compares actForward with the closed forms.
func TestActivations(t *testing.T) {
	xs := []float64{-2, -0.5, 0.3, 1.7}
	for _, tc := range []struct {
		name string
		f    func(x float64) float64
	}{
		{"Id", func(x float64) float64 { return x }},
		{"relu", func(x float64) float64 { return math.Max(x, 0) }},
		{"leakyrelu", func(x float64) float64 { return math.Max(x, 0.1*x) }},
		{"elu", func(x float64) float64 { return map[bool]float64{true: x, false: math.Exp(x) - 1}[x > 0] }},
		{"selu", func(x float64) float64 {
			return 1.0507009873554805 * map[bool]float64{true: x, false: 1.6732632423543772 * (math.Exp(x) - 1)}[x > 0]
		}},
		{"sigmoid", func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }},
		{"tanh", math.Tanh},
		{"softplus", func(x float64) float64 { return math.Log(1 + math.Exp(x)) }},
		{"exp", math.Exp},
		{"abs", math.Abs},
		{"square", func(x float64) float64 { return x * x }},
	} {
		out := make([]float64, len(xs))
		actForward(actNames[tc.name], xs, out, 1)
		for i, x := range xs {
			if w := tc.f(x); math.Abs(out[i]-w) > fwdTol {
				t.Errorf("%s(%g) = %g, want %g", tc.name, x, out[i], w)
			}
		}
	}
}

// TestInits checks the deterministic initialisers.
func TestInits(t *testing.T) {
	sp := &stream.SynapsePool{Name: "x", Init: map[string]string{}}
	for _, tc := range []struct {
		spec  string
		shape []int
		check func(d []float64) bool
	}{
		{"zero", []int{3, 3, 2, 2}, func(d []float64) bool { return all(d, func(v float64) bool { return v == 0 }) }},
		{"0.25", []int{4, 2}, func(d []float64) bool { return all(d, func(v float64) bool { return v == 0.25 }) }},
		{"-id", []int{3, 3, 2, 2}, func(d []float64) bool {
			// centre tap (1,1): W[1][1][c][c] = -1, everything else 0
			n := 0
			for i, v := range d {
				if v != 0 {
					n++
					if v != -1 || (i != ((4*2+0)*2+0) && i != ((4*2+1)*2+1)) {
						return false
					}
				}
			}
			return n == 2
		}},
		{"uniform_2_3", []int{10, 10}, func(d []float64) bool { return all(d, func(v float64) bool { return v >= 2 && v < 3 }) }},
		{"xavier_2", []int{10, 10}, func(d []float64) bool {
			return all(d, func(v float64) bool { return math.Abs(v) <= 2*math.Sqrt(6.0/20) })
		}},
		{"normal_5_0.01", []int{10, 10}, func(d []float64) bool { return all(d, func(v float64) bool { return math.Abs(v-5) < 0.1 }) }},
		{"bilin", []int{3, 3, 1, 1}, func(d []float64) bool {
			want := []float64{0.25, 0.5, 0.25, 0.5, 1, 0.5, 0.25, 0.5, 0.25}
			for i := range want {
				if math.Abs(d[i]-want[i]) > fwdTol {
					return false
				}
			}
			return true
		}},
	} {
		sp.Init["W_0_0"] = tc.spec
		d, err := initParam(sp, "W_0_0", tc.shape, 1)
		if err != nil || !tc.check(d) {
			t.Errorf("%s: %v (%v)", tc.spec, d, err)
		}
		d2, _ := initParam(sp, "W_0_0", tc.shape, 1)
		for i := range d {
			if d[i] != d2[i] {
				t.Errorf("%s: not deterministic", tc.spec)
				break
			}
		}
	}
	sp.Init["W_0_0"] = "gauss"
	if _, err := initParam(sp, "W_0_0", []int{2, 2}, 1); err == nil {
		t.Error("unknown initialiser accepted")
	}
}

func all(d []float64, f func(float64) bool) bool {
	for _, v := range d {
		if !f(v) {
			return false
		}
	}
	return true
}

// TestNoAllocs: a frame allocates nothing in steady state (Parallel with 2
// workers and Sequential; 2 allowed for runtime noise such as a channel
// wait record refilled after a GC).
func TestNoAllocs(t *testing.T) {
	for _, o := range []Options{{Workers: 2}, {Workers: 1}, {Workers: 2, Mode: Sequential}} {
		d := &allocFreeDriver{}
		o.Drivers = map[string]stream.Driver{"mnist": d}
		s, err := New(demoNet(4), o)
		if err != nil {
			t.Fatal(err)
		}
		h := &rolloutHook{s: s}
		plan, _ := s.Net().Rollout(s.Net().Plasticities[1])
		if h.r, err = s.NewRollout(plan, s.Net().Plasticities[1].Params); err != nil {
			t.Fatal(err)
		}
		s.AddHook(h)
		cr, err := s.NewChunkedRollout(plan, s.Net().Plasticities[1].Params, 3)
		if err != nil {
			t.Fatal(err)
		}
		s.AddHook(&chunkedRolloutHook{r: cr, out: "pred2", d: plan.Depth})
		_ = s.Run(2)
		if n := testing.AllocsPerRun(20, func() {
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}); n > 2 {
			t.Errorf("%+v: %g allocations per frame", o.Mode, n)
		}
		s.Close()
	}
}

type allocFreeDriver struct{}

func (allocFreeDriver) Start(int, map[string][3]int, map[string][3]int, int64) error { return nil }
func (allocFreeDriver) Frame(t int, in, out map[string][]float64) error {
	img := out["image"]
	for i := range img {
		img[i] = float64((i+t)%7) / 7
	}
	return nil
}

// rolloutHook runs a rollout forward and backward in every read phase.
type rolloutHook struct {
	s *Sim
	r *Rollout
}

func (h *rolloutHook) Read(t int) error {
	if err := h.r.Forward(true); err != nil {
		return err
	}
	g := h.r.Grad("pred2", 3)
	for i := range g {
		g[i] = 1
	}
	return h.r.Backward()
}
func (h *rolloutHook) Write(t int) error { return nil }

// chunkedRolloutHook is rolloutHook as a ChunkedHook: the rollout's chunks
// run forward and backward as separate jobs, Read sums their gradients.
type chunkedRolloutHook struct {
	r   *Rollout
	out string
	d   int
}

func (h *chunkedRolloutHook) Chunks() int { return h.r.Chunks() }
func (h *chunkedRolloutHook) ReadChunk(t, c int) error {
	if err := h.r.ForwardChunk(c, true); err != nil {
		return err
	}
	a0, a1 := h.r.ChunkAgents(c)
	g := h.r.Grad(h.out, h.d)
	per := len(g) / h.r.s.agents
	for i := a0 * per; i < a1*per; i++ {
		g[i] = 1
	}
	return h.r.BackwardChunk(c)
}
func (h *chunkedRolloutHook) Read(t int) error  { h.r.ReduceParamGrad(); return nil }
func (h *chunkedRolloutHook) Write(t int) error { return nil }

// TestNormAndShapeModes checks every batch/layer normalisation mode and
// every gain/bias shape against definitions written with explicit
// (agent, x, y, feature) loops (statestream docs/neuron_pools.md).
func TestNormAndShapeModes(t *testing.T) {
	const agents = 3
	shape := [3]int{2, 3, 2} // C, W, H
	C, W, H := shape[0], shape[1], shape[2]
	r := rand.New(rand.NewPCG(3, 3))
	in := make([]float64, agents*stream.Size(shape))
	fill(r, in, 2)
	// key of value (a, x, y, c) for each mode; batch modes ignore a.
	key := func(mode string, a, x, y, c int) [4]int {
		switch mode {
		case "full":
			return [4]int{a, -1, -1, -1}
		case "feature": // over the features of each position
			return [4]int{a, x, y, -1}
		case "spatial": // over the positions of each feature
			return [4]int{a, -1, -1, c}
		}
		return [4]int{a, x, y, c} // scalar: each element (over agents in batch norm)
	}
	normalise := func(x []float64, mode string, batch bool) []float64 {
		k := func(a, xx, y, c int) [4]int {
			kk := key(mode, a, xx, y, c)
			if batch {
				kk[0] = -1
			}
			return kk
		}
		sum, sq, n := map[[4]int]float64{}, map[[4]int]float64{}, map[[4]int]float64{}
		each := func(fn func(i int, kk [4]int)) {
			for a := 0; a < agents; a++ {
				for xx := 0; xx < W; xx++ {
					for y := 0; y < H; y++ {
						for c := 0; c < C; c++ {
							fn(stream.Index(shape, a, c, xx, y), k(a, xx, y, c))
						}
					}
				}
			}
		}
		each(func(i int, kk [4]int) { sum[kk] += x[i]; n[kk]++ })
		each(func(i int, kk [4]int) { d := x[i] - sum[kk]/n[kk]; sq[kk] += d * d })
		out := make([]float64, len(x))
		each(func(i int, kk [4]int) { out[i] = (x[i] - sum[kk]/n[kk]) / math.Sqrt(sq[kk]/n[kk]+normEps) })
		return out
	}
	run := func(mod func(o *stream.NeuronPool)) []float64 {
		net := chain(agents, shape, shape, func(sp *stream.SynapsePool, o *stream.NeuronPool) {
			sp.RF, sp.Init = [][]int{{1}}, map[string]string{"W_0_0": "id"}
			mod(o)
		})
		s, err := New(net, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for _, nm := range []string{"b", "g"} {
			if p, err := s.Param(pr("np", "out", nm)); err == nil {
				for i := range p {
					p[i] = float64(i+1) / 4
				}
			}
		}
		_ = s.SetState("in", in)
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		out, _ := s.State("out")
		return out
	}
	cmp := func(name string, got, want []float64) {
		for i := range want {
			if math.Abs(got[i]-want[i]) > fwdTol {
				t.Errorf("%s: value %d: got %g, want %g", name, i, got[i], want[i])
				return
			}
		}
	}
	for _, m := range []string{"full", "feature", "spatial", "scalar"} {
		cmp("batchnorm "+m, run(func(o *stream.NeuronPool) { o.BatchnormMean, o.BatchnormStd = m, m }), normalise(in, m, true))
		if m != "scalar" {
			cmp("layernorm "+m, run(func(o *stream.NeuronPool) { o.LayernormMean, o.LayernormStd = m, m }), normalise(in, m, false))
		}
		// gain and bias (values (i+1)/4 in their own layout)
		idx := func(a, xx, y, c int) int {
			switch m {
			case "full":
				return (xx*H+y)*C + c
			case "spatial":
				return xx*H + y
			case "scalar":
				return 0
			}
			return c
		}
		want := make([]float64, len(in))
		for a := 0; a < agents; a++ {
			for xx := 0; xx < W; xx++ {
				for y := 0; y < H; y++ {
					for c := 0; c < C; c++ {
						i := stream.Index(shape, a, c, xx, y)
						v := float64(idx(a, xx, y, c)+1) / 4
						want[i] = math.Tanh(in[i]*v) + v
					}
				}
			}
		}
		cmp("gain and bias "+m, run(func(o *stream.NeuronPool) { o.GainShape, o.BiasShape, o.Act = m, m, "tanh" }), want)
	}
}
