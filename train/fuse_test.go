package train

import (
	"github.com/neurogo/neurogo/sim/ir"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

// fuseNet is a small spiking-MNIST-like network (conv → LIF → conv → LIF
// → average pool → dense, LIF layers with max rates and intercepts, so
// biases, gains and scalar connection weights are all in the graph).
func fuseNet(t *testing.T) (*toolkit.Network, *toolkit.Node, *toolkit.Probe) {
	t.Helper()
	net := toolkit.New("fuse", 3)
	in := net.Const("img", make([]float64, 8*8)...)
	lif := neurons.NewLIF()
	lif.Amplitude = 0.01
	nl := func(label string, x toolkit.Target) toolkit.Target {
		e, err := net.NeuronLayer(label, x, lif)
		if err != nil {
			t.Fatal(err)
		}
		e.Gain, e.Bias = nil, nil
		e.MaxRates = dists.Choice{Options: [][]float64{{100}}}
		e.Intercepts = dists.Choice{Options: [][]float64{{0}}}
		return e.Neurons()
	}
	c1, err := net.Layer("conv1", in, layers.Conv2D{Filters: 3, Kernel: []int{3}}, 8, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := net.Layer("conv2", nl("lif1", c1), layers.Conv2D{Filters: 4, Kernel: []int{3}})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := net.Layer("pool", nl("lif2", c2), layers.AvgPool{Pool: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := net.Layer("dense", p2, layers.Dense{Units: 5})
	if err != nil {
		t.Fatal(err)
	}
	return net, in, net.Probe("out", d, "")
}

// TestEngineSimplifications: the engine's simplifications (copies turned
// into shared storage, unsaved inputs of one-step engines, products with
// an always-zero input skipped, batch-wide element-wise passes, chains of
// them run block by block, forward and backward, biases copied inside
// those blocks, gradients overwritten by their one reader, LIFRate with SoftLIFRate's derivative in one
// pass)
// give the loss, outputs and gradients of the engine without them, to
// rounding (sums over the batch in another order, vector exp and log1p).
func TestEngineSimplifications(t *testing.T) {
	const relTol = 1e-12 // relative to the largest magnitude of each compared vector
	for _, steps := range []int{1, 3} {
		for _, smooth := range []bool{false, true} {
			net, in, out := fuseNet(t)
			x, y := fuseData(t, rand.New(rand.NewPCG(uint64(steps), 9)), 7, steps)
			cfg := Config{LIFSmoothing: 0.05, SmoothForward: smooth}
			run := func(noFuse bool) (float64, []float64, [][]float64, *engine) {
				return engineGrads(t, net, in, out, x, y, cfg, noFuse)
			}
			l0, p0, g0, e0 := run(true)
			l1, p1, g1, e1 := run(false)
			// the simplifications apply (the test is not vacuous)
			aliased, live, fused, zero, groups, deferred := 0, 0, 0, 0, 0, 0
			for _, g := range e1.groupEnd {
				if g != nil {
					groups++
				}
			}
			sets := 0
			for _, v := range e1.gradSet {
				if v {
					sets++
				}
			}
			if (sets < 3) != (steps > 1) {
				t.Errorf("steps %d smooth %v: %d gradients overwritten", steps, smooth, sets)
			}
			fwdGroups := 0
			for _, g := range e1.fwdGroupStart {
				if g != nil {
					fwdGroups++
				}
			}
			for _, op := range e1.ops {
				switch o := op.(type) {
				case *dotOp:
					if o.zero {
						zero++
					}
				case *copyOp:
					if o.alias {
						aliased++
					}
					if o.deferred {
						deferred++
					}
				case *ewOp:
					if o.xLive {
						live++
					}
				case *neuronsOp:
					if o.smooth != nil {
						fused++
					}
				}
			}
			wantLive, wantFused := 1, 2
			if steps > 1 {
				wantLive = 0
			}
			if smooth {
				wantFused = 0
			}
			// the LIF layers' input currents and their gradients live in
			// block buffers (findScratch)
			if e1.nScrV < 2 || e1.nScrG < 2 {
				t.Errorf("steps %d smooth %v: %d signals' values and %d gradients in block buffers, want ≥ 2 each", steps, smooth, e1.nScrV, e1.nScrG)
			}
			if e0.nScrV != 0 {
				t.Errorf("noFuse engine has %d block-buffer signals", e0.nScrV)
			}
			if aliased < 3 || (live < wantLive || live > 0 && steps > 1) || fused != wantFused || zero != 2 || groups < 2 || fwdGroups < 2 || deferred != 2 {
				t.Errorf("steps %d smooth %v: %d copies aliased, %d inputs unsaved, %d fused neuron layers, %d zero products, %d lane groups, %d forward, %d biases deferred",
					steps, smooth, aliased, live, fused, zero, groups, fwdGroups, deferred)
			}
			for _, op := range e0.ops {
				if c, ok := op.(*copyOp); ok && c.alias {
					t.Errorf("noFuse engine aliased a copy")
				}
			}
			close := func(what string, a, b []float64) {
				if len(a) != len(b) {
					t.Fatalf("steps %d smooth %v: %s: %d values, %d without simplifications", steps, smooth, what, len(b), len(a))
				}
				scale := 0.0
				for _, v := range a {
					scale = math.Max(scale, math.Abs(v))
				}
				for i := range a {
					if math.Abs(a[i]-b[i]) > relTol*scale || math.IsNaN(b[i]) {
						t.Errorf("steps %d smooth %v: %s[%d] = %v, %v without simplifications", steps, smooth, what, i, b[i], a[i])
						return
					}
				}
			}
			close("loss", []float64{l0}, []float64{l1})
			close("output", p0, p1)
			if len(g0) != len(g1) || len(g0) == 0 {
				t.Fatalf("%d and %d gradients", len(g0), len(g1))
			}
			for i := range g0 {
				close("gradient", g0[i], g1[i])
			}
		}
	}
}

// engineGrads runs net's engine (a fresh Model compiled with cfg and
// sparse cross-entropy on out) forward and backward on all of x and
// returns the loss, out's predictions and the parameter gradients.
func engineGrads(t *testing.T, net *toolkit.Network, in *toolkit.Node, out *toolkit.Probe, x, y *Array, cfg Config, noFuse bool) (l float64, pred []float64, grads [][]float64, e *engine) {
	t.Helper()
	m, err := New(net)
	if err != nil {
		t.Fatal(err)
	}
	return modelGrads(t, m, in, out, x, y, cfg, noFuse)
}

// modelGrads is engineGrads on a model built (and configured) by the caller.
func modelGrads(t *testing.T, m *Model, in *toolkit.Node, out *toolkit.Probe, x, y *Array, cfg Config, noFuse bool) (l float64, pred []float64, grads [][]float64, e *engine) {
	t.Helper()
	var err error
	m.noFuse = noFuse
	cfg.Optimizer = &optim.SGD{LR: 0.01}
	cfg.Loss = map[*toolkit.Probe]loss.Loss{out: loss.CrossEntropy{FromLogits: true, Sparse: true}}
	if err := m.Compile(cfg); err != nil {
		t.Fatal(err)
	}
	xs, ys := map[*toolkit.Node]*Array{in: x}, map[*toolkit.Probe]*Array{out: y}
	n, st, nodes, err := m.checkData(xs, ys)
	if err != nil {
		t.Fatal(err)
	}
	if e, err = m.engine(n, st, true, true, nodes); err != nil {
		t.Fatal(err)
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	preds := make([][]float64, len(m.g.Probes))
	g := make([][]float64, len(m.g.Probes))
	if err := m.run(e, xs, nodes, idx, st, true, true, map[*toolkit.Node][]float64{}); err != nil {
		t.Fatal(err)
	}
	if l, err = m.lossPass(e, ys, idx, g, newAcc(), false, preds, map[*toolkit.Probe][]float64{}); err != nil {
		t.Fatal(err)
	}
	e.zeroGrads()
	if err := e.backward(g); err != nil {
		t.Fatal(err)
	}
	for _, v := range m.vars(e) {
		grads = append(grads, append([]float64(nil), v.Grad...))
	}
	return l, e.probeData(m.probeIndex(out), nil), grads, e
}

// TestFloat32: Config.Float32 reaches the convolutions and the LIF
// layers (the results change) and keeps the loss and gradients at
// float32 precision.
func TestFloat32(t *testing.T) {
	const f32RelTol = 1e-4 // relative to the largest magnitude of each vector (float32 products through two convolutions)
	net, in, out := fuseNet(t)
	rng := rand.New(rand.NewPCG(4, 4))
	const n = 6
	x, err := NewArray(n, 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x.Data {
		x.Data[i] = rng.Float64()
	}
	y, err := ArrayFromLabels([]int{0, 1, 2, 3, 4, 0}, 1)
	if err != nil {
		t.Fatal(err)
	}
	l64, _, g64, _ := engineGrads(t, net, in, out, x, y, Config{LIFSmoothing: 0.05}, false)
	l32, _, g32, e32 := engineGrads(t, net, in, out, x, y, Config{LIFSmoothing: 0.05, Float32: true}, false)
	n32 := 0
	for _, op := range e32.ops {
		if o, ok := op.(*neuronsOp); ok && o.smooth32 {
			n32++
		}
	}
	if n32 != 2 {
		t.Errorf("%d LIF layers in float32, want 2", n32)
	}
	if l32 == l64 || math.Abs(l32-l64) > f32RelTol*math.Abs(l64) {
		t.Errorf("loss %v with float32 layers, %v without", l32, l64)
	}
	for i := range g64 {
		scale := 0.0
		for _, v := range g64[i] {
			scale = math.Max(scale, math.Abs(v))
		}
		for k := range g64[i] {
			if !(math.Abs(g64[i][k]-g32[i][k]) <= f32RelTol*scale) {
				t.Errorf("gradient %d[%d]: %v with float32 layers, %v without", i, k, g32[i][k], g64[i][k])
				break
			}
		}
	}
}

// TestEngineSimplificationsFit: several minibatches of training with the
// simplifications (gradients left uncleared between backward passes,
// buffers reused) end at the parameters of the plain engine, to rounding.
func TestEngineSimplificationsFit(t *testing.T) {
	const relTol = 1e-9 // rounding differences grow a little over the updates
	x, y := fuseData(t, rand.New(rand.NewPCG(8, 8)), 12, 1)
	fit := func(noFuse bool) [][]float64 {
		net, in, out := fuseNet(t)
		m, err := New(net)
		if err != nil {
			t.Fatal(err)
		}
		m.noFuse = noFuse
		if err := m.Compile(Config{Optimizer: &optim.RMSProp{LR: 1e-3},
			Loss:         map[*toolkit.Probe]loss.Loss{out: loss.CrossEntropy{FromLogits: true, Sparse: true}},
			LIFSmoothing: 0.05}); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Fit(map[*toolkit.Node]*Array{in: x}, map[*toolkit.Probe]*Array{out: y},
			FitOptions{Epochs: 3, BatchSize: 4, Seed: 5}); err != nil {
			t.Fatal(err)
		}
		var ps [][]float64
		for _, s := range m.params {
			ps = append(ps, append([]float64(nil), m.values[s]...))
		}
		return ps
	}
	p0, p1 := fit(true), fit(false)
	for i := range p0 {
		scale := 0.0
		for _, v := range p0[i] {
			scale = math.Max(scale, math.Abs(v))
		}
		for k := range p0[i] {
			if !(math.Abs(p0[i][k]-p1[i][k]) <= relTol*scale) {
				t.Fatalf("parameter %d[%d] = %v after training, %v without simplifications", i, k, p1[i][k], p0[i][k])
			}
		}
	}
}

// layersOnly builds net as a model that trains its layer nodes only (the
// spiking-MNIST setting): the connections' scalar weights 1 are then
// constants.
func layersOnly(t *testing.T, net *toolkit.Network) *Model {
	t.Helper()
	m, err := New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetTrainable(net, false); err != nil {
		t.Fatal(err)
	}
	for _, n := range net.Nodes {
		if n.Layer != nil {
			if err := m.SetTrainable(n, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	return m
}

// TestIdentityMuls: products by a constant weight 1 become copies (and
// then shared storage) without changing the loss, outputs or gradients;
// a trainable weight 1 stays a product.
func TestIdentityMuls(t *testing.T) {
	const relTol = 1e-12
	x, y := fuseData(t, rand.New(rand.NewPCG(4, 4)), 5, 1)
	converted := func(e *engine) (copies, aliased int) {
		for k, op := range e.ops {
			if c, ok := op.(*copyOp); ok && e.opIdx[k] >= 0 && isElementwise(e.g.Ops[e.opIdx[k]]) {
				copies++
				if c.alias {
					aliased++
				}
			}
		}
		return copies, aliased
	}
	cfg := Config{LIFSmoothing: 0.05}
	net, in, out := fuseNet(t)
	l0, p0, g0, _ := modelGrads(t, layersOnly(t, net), in, out, x, y, cfg, true)
	l1, p1, g1, e1 := modelGrads(t, layersOnly(t, net), in, out, x, y, cfg, false)
	copies, aliased := converted(e1)
	// conv1→lif1, lif1→conv2, conv2→lif2, lif2→pool, pool→dense (the
	// fed input's copy to conv1 cannot share storage)
	if copies < 5 || aliased < 4 {
		t.Fatalf("%d products by 1 became copies, %d of them shared storage; want ≥ 5 and ≥ 4", copies, aliased)
	}
	if d := relDiff([]float64{l0}, []float64{l1}); d > relTol {
		t.Errorf("loss %v vs %v", l1, l0)
	}
	if d := relDiff(p0, p1); d > relTol {
		t.Errorf("outputs differ by %g", d)
	}
	if len(g0) != len(g1) {
		t.Fatalf("%d vs %d gradients", len(g1), len(g0))
	}
	for i := range g0 {
		if d := relDiff(g0[i], g1[i]); d > relTol {
			t.Errorf("gradient %d differs by %g", i, d)
		}
	}
	// trained weights stay products
	_, _, _, e2 := engineGrads(t, net, in, out, x, y, cfg, false)
	if c, _ := converted(e2); c != 0 {
		t.Errorf("%d trainable weights became copies", c)
	}
}

// TestIdentityMulsSetParam: setting a constant weight rebuilds the
// engines that had turned its product into a copy.
func TestIdentityMulsSetParam(t *testing.T) {
	net, in, out := fuseNet(t)
	m := layersOnly(t, net)
	x, err := NewArray(2, 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x.Data {
		x.Data[i] = float64(i%7) / 7
	}
	predict := func() []float64 {
		p, err := m.Predict(map[*toolkit.Node]*Array{in: x}, EvalOptions{Rates: true})
		if err != nil {
			t.Fatal(err)
		}
		return p[out].Data
	}
	before := predict()
	names, _ := m.ParamNames()
	name := ""
	for _, s := range names {
		if strings.Contains(s, "pool") && strings.HasSuffix(s, ".weights") && strings.Contains(s, "dense") {
			name = s
		}
	}
	if name == "" {
		t.Fatalf("no pool→dense weights among %v", names)
	}
	if err := m.SetParam(name, []float64{2}); err != nil {
		t.Fatal(err)
	}
	after := predict()
	// the same as a model whose weight was set before it built engines
	m2 := layersOnly(t, net)
	if err := m2.SetParam(name, []float64{2}); err != nil {
		t.Fatal(err)
	}
	p2, err := m2.Predict(map[*toolkit.Node]*Array{in: x}, EvalOptions{Rates: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(after, p2[out].Data); d > 1e-12 {
		t.Fatalf("after SetParam the outputs differ from a fresh model's by %g", d)
	}
	if d := relDiff(before, after); d < 1e-6 {
		t.Fatalf("SetParam(%s, 2) left the outputs unchanged", name)
	}
}

// relDiff is the largest |a[i] - b[i]| relative to the largest |a[i]|
// (+Inf for different lengths or a NaN).
func relDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	scale, d := 0.0, 0.0
	for i := range a {
		scale = math.Max(scale, math.Abs(a[i]))
		if math.IsNaN(b[i]) != math.IsNaN(a[i]) {
			return math.Inf(1)
		}
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	if scale == 0 {
		return d
	}
	return d / scale
}

// fuseData returns n random fuseNet inputs (steps steps of 64 values in
// [0, 1)) and class labels 0–4 as targets.
func fuseData(t *testing.T, rng *rand.Rand, n, steps int) (x, y *Array) {
	t.Helper()
	x, err := NewArray(n, steps, 64)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x.Data {
		x.Data[i] = rng.Float64()
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(5)
	}
	if y, err = ArrayFromLabels(labels, steps); err != nil {
		t.Fatal(err)
	}
	return x, y
}

func isElementwise(o ir.Op) bool {
	_, ok := o.(*ir.ElementwiseInc)
	return ok
}
