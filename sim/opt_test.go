package sim_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// optCases are the optimizer settings compared with no optimisation: each
// pass alone and all together. Outputs must be identical bit for bit
// with and without each pass.
var optCases = []sim.Optimizations{
	{Simplify: true},
	{Merge: true},
	{Merge: true, Sort: true},
	{Sort: true},
	sim.AllOptimizations(),
	{Simplify: true, Merge: true, Sort: true, Planner: "greedy"},
	{Simplify: true, Merge: true, Sort: true, Planner: "tree"},
	{Simplify: true, Merge: true, Planner: "tree", TreeDepth: 2},
	{Simplify: true, Merge: true, Sort: true, Planner: "transitive"},
	{Simplify: true, Merge: true, Sort: true, Sorter: "metablock"},
	{Merge: true, Sort: true, Sorter: "metablock", Planner: "tree"},
}

type optModel struct {
	name  string
	net   func() (*toolkit.Network, error)
	steps int
	batch int
}

func optModels() []optModel {
	var ms []optModel
	for _, tc := range parityModels {
		ms = append(ms, optModel{name: tc.name, net: func() (*toolkit.Network, error) { return tc.net(), nil }, steps: 300})
	}
	for name, mk := range networks.Benchmarks() {
		ms = append(ms, optModel{name: "bench/" + name, net: func() (*toolkit.Network, error) { return mk(4, 20, 3) }, steps: 200})
		// rectified-linear, as the benchmark runs them: EnsembleReLU fusion
		ms = append(ms, optModel{name: "bench/" + name + "/relu", net: func() (*toolkit.Network, error) {
			n, err := mk(4, 20, 4)
			if err == nil {
				for _, e := range n.AllEnsembles() {
					e.NeuronType = neurons.NewRectifiedLinear()
				}
			}
			return n, err
		}, steps: 200})
		ms = append(ms, optModel{name: "bench/" + name + "/batch3", net: func() (*toolkit.Network, error) { return mk(3, 16, 5) }, steps: 50, batch: 3})
	}
	return ms
}

// probeAll runs net for steps and returns every probe's data, all lanes.
func probeAll(t *testing.T, net *toolkit.Network, steps, batch int, opt sim.Optimizations) map[string][][][]float64 {
	t.Helper()
	m, err := sim.Build(net, sim.Optimize(opt))
	if err != nil {
		t.Fatalf("%s: %v", opt, err)
	}
	return runModel(t, m, net, steps, batch)
}

func TestOptimizerIdenticalOutputs(t *testing.T) {
	for _, m := range optModels() {
		t.Run(m.name, func(t *testing.T) {
			net, err := m.net()
			if err != nil {
				t.Fatal(err)
			}
			want := probeAll(t, net, m.steps, m.batch, sim.Optimizations{})
			if len(want) == 0 {
				t.Fatal("model has no probes")
			}
			for _, opt := range optCases {
				sameProbes(t, opt.String(), want, probeAll(t, net, m.steps, m.batch, opt))
			}
		})
	}
}

// TestOptimizerReducesOperators checks that the plan of a D = 16
// integrator merges its ~190 operators into a few groups and runs its
// neurons as one contiguous call.
func TestOptimizerReducesOperators(t *testing.T) {
	net, err := networks.BenchIntegrator(16, 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	p := m.Plan()
	t.Log(p)
	if p.Simplified >= p.Operators {
		t.Errorf("simplification removed nothing: %v", p)
	}
	if p.Groups > 20 {
		t.Errorf("%d groups per step, want at most 20: %v", p.Groups, p)
	}
	if p.Contiguous < 1 || p.Scattered != 0 {
		t.Errorf("neuron/synapse groups: %d contiguous, %d scattered; want all contiguous", p.Contiguous, p.Scattered)
	}
	none, err := sim.Build(net, sim.Optimize(sim.Optimizations{}))
	if err != nil {
		t.Fatal(err)
	}
	if q := none.Plan(); q.Groups != q.Operators || q.Operators != p.Operators {
		t.Errorf("no optimisation: %v, want one group per operator", q)
	}
}

// TestParallelLanesIdentical: lanes stepped on several goroutines give
// exactly what serial lanes give, and Progress still counts every step.
func TestParallelLanesIdentical(t *testing.T) {
	for name, mk := range networks.Benchmarks() {
		t.Run(name, func(t *testing.T) {
			net, err := mk(3, 12, 7)
			if err != nil {
				t.Fatal(err)
			}
			run := func(par int) (map[string][][][]float64, int) {
				s, err := sim.New(net, sim.Batch(5), sim.Parallel(par))
				if err != nil {
					t.Fatal(err)
				}
				calls := 0
				s.Progress = func(done, total int) { calls++ }
				if err := s.RunSteps(120); err != nil {
					t.Fatal(err)
				}
				out := map[string][][][]float64{}
				for i, p := range net.AllProbes() {
					d, err := s.DataBatch(p)
					if err != nil {
						t.Fatal(err)
					}
					out[fmt.Sprint(i)] = d
				}
				return out, calls
			}
			want, _ := run(1)
			got, calls := run(4)
			if calls != 120 {
				t.Errorf("Progress called %d times, want 120", calls)
			}
			for k, w := range want {
				for b := range w {
					for s := range w[b] {
						for i := range w[b][s] {
							if got[k][b][s][i] != w[b][s][i] {
								t.Fatalf("probe %s lane %d sample %d [%d] = %v, want %v", k, b, s, i, got[k][b][s][i], w[b][s][i])
							}
						}
					}
				}
			}
		})
	}
}

// TestNodeFunctionsNotConcurrent: a Node function that is not safe for
// concurrent use (an unguarded counter) sees every call of every lane.
func TestNodeFunctionsNotConcurrent(t *testing.T) {
	net := toolkit.New("count", 1)
	calls := 0
	n := net.Node("counter", 1, func(tm float64, out []float64) { calls++; out[0] = tm })
	p := net.Probe("p", n, toolkit.AttrOutput)
	s, err := sim.New(net, sim.Batch(4), sim.Parallel(4))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunSteps(50); err != nil {
		t.Fatal(err)
	}
	if calls != 200 {
		t.Errorf("node function called %d times, want 4 lanes × 50 steps = 200", calls)
	}
	if d, _ := s.DataBatch(p); len(d) != 4 || len(d[3]) != 50 {
		t.Errorf("probe data %d lanes", len(d))
	}
}

// TestSplitOperatorsIdentical: large operators cut across cores (one
// lane) give exactly the uncut result.
func TestSplitOperatorsIdentical(t *testing.T) {
	defer sim.SetSplitThresholds(1<<8, 1<<7)()
	integ, err := networks.BenchIntegrator(32, 600, 1) // 19 200 neurons in one merged group
	if err != nil {
		t.Fatal(err)
	}
	pes, err := networks.BenchPES(8, 1024, 2) // 8 × 8192 decoder multiply-adds, fused with PES
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range pes.AllEnsembles() {
		e.NEvalPoints = 500
	}
	nets := map[string]*toolkit.Network{"integrator": integ, "pes": pes}
	// rectified-linear benchmark models at a size where, with the
	// thresholds lowered below, the fused ensemble groups and the
	// dot-product groups are cut (EnsembleReLU halves, DotInc rows)
	for name, mk := range networks.Benchmarks() {
		if name == "pes" {
			continue
		}
		for _, npd := range []int{13, 40} { // fused rows below and above 16 neurons
			n, err := mk(12, npd, 6)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range n.AllEnsembles() {
				e.NeuronType = neurons.NewRectifiedLinear()
			}
			nets[fmt.Sprintf("%s/relu/npd%d", name, npd)] = n
		}
	}
	for name, net := range nets {
		t.Run(name, func(t *testing.T) {
			want := probeAllPar(t, net, 1)
			got := probeAllPar(t, net, 0)
			for k, w := range want {
				for s := range w {
					for i := range w[s] {
						if got[k][s][i] != w[s][i] {
							t.Fatalf("probe %s sample %d [%d] = %v, want %v", k, s, i, got[k][s][i], w[s][i])
						}
					}
				}
			}
		})
	}
}

func probeAllPar(t *testing.T, net *toolkit.Network, par int) map[string][][]float64 {
	t.Helper()
	opts := []sim.Option{}
	if par > 0 {
		opts = append(opts, sim.Parallel(par))
	}
	s, err := sim.New(net, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunSteps(60); err != nil {
		t.Fatal(err)
	}
	out := map[string][][]float64{}
	for i, p := range net.AllProbes() {
		d, err := s.Data(p)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprint(i)] = d
	}
	return out
}

// TestLowRankDecodedConnection: a 1-D ensemble decoded into an 8-D
// ensemble through an 8×1 transform runs as decoders then transform; it
// matches the same weights applied as one matrix (given through
// WithParams, which builds the single product) to rounding.
func TestLowRankDecodedConnection(t *testing.T) {
	mk := func() (*toolkit.Network, *toolkit.Probe) {
		net := toolkit.New("lowrank", 3)
		u := net.Node("u", 1, func(tm float64, out []float64) { out[0] = math.Sin(2 * math.Pi * tm) })
		a := net.Ensemble("a", 80, 1)
		b := net.Ensemble("b", 160, 8)
		net.Connect(u, a)
		col := make([][]float64, 8)
		for i := range col {
			col[i] = []float64{float64(i+1) / 8}
		}
		c := net.Connect(a, b)
		c.Label = "a->b"
		c.Transform = toolkit.Dense(col)
		return net, net.Probe("c", c, toolkit.AttrOutput)
	}
	net1, p1 := mk()
	m1, err := sim.Build(net1)
	if err != nil {
		t.Fatal(err)
	}
	factored := 0
	for _, op := range m1.Ops {
		if strings.HasSuffix(op.Info().Tag, " transform") {
			factored++
		}
	}
	if factored != 1 {
		t.Fatalf("%d factored connections, want 1", factored)
	}
	net2, p2 := mk()
	params := &sim.Params{Connections: map[string]*sim.ConnectionParams{"a->b": {Weights: m1.Params.Connections["a->b"].Weights}}}
	m2, err := sim.Build(net2, sim.WithParams(params))
	if err != nil {
		t.Fatal(err)
	}
	run := func(m *sim.Model, p *toolkit.Probe) [][]float64 {
		s, err := sim.NewFromModel(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunSteps(500); err != nil {
			t.Fatal(err)
		}
		d, _ := s.Data(p)
		return d
	}
	got, want := run(m1, p1), run(m2, p2)
	maxErr := 0.0
	for k := range want {
		for i := range want[k] {
			maxErr = max(maxErr, math.Abs(got[k][i]-want[k][i]))
		}
	}
	t.Logf("factored vs single product: max |error| %.3g", maxErr)
	const lowRankAtol = 1e-9 // rounding only (the parity tolerance)
	if maxErr > lowRankAtol {
		t.Errorf("max |error| %.3g > %g", maxErr, lowRankAtol)
	}
}

// TestEnsembleFusionApplies: a rectified-linear integrator's ensembles run
// as fused operators (the identity test above then covers them).
func TestEnsembleFusionApplies(t *testing.T) {
	net, err := networks.BenchIntegrator(8, 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range net.AllEnsembles() {
		e.NeuronType = neurons.NewRectifiedLinear()
	}
	fusedAll, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	noSimplify, err := sim.Build(net, sim.Optimize(sim.Optimizations{Merge: true, Sort: true}))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := fusedAll.Plan(), noSimplify.Plan(); a.Simplified >= b.Simplified-8*2 {
		t.Errorf("fused plan has %d operators, unfused %d: want at least 2 fewer per ensemble (neurons and decoders folded into the encoder)", a.Simplified, b.Simplified)
	}
}

// TestDedupIdentical: products by distinct rows (circular convolution's
// Fourier transforms, the basal ganglia's ones matrices) give exactly the
// outputs of the plain products, at batch 1 and batch 2.
func TestDedupIdentical(t *testing.T) {
	identicalWithout(t, []string{"cconv", "basal_ganglia"}, 12, func() func() { return sim.SetDedup(false) })
}

// identicalWithout runs the benchmark models (D 8, npd neurons per
// dimension, RectifiedLinear) at batch 1 and 2 with an executor feature
// switched off (off returns its restore function) and on, and fails on
// the first probe value that differs.
func identicalWithout(t *testing.T, models []string, npd int, off func() func()) {
	t.Helper()
	for _, name := range models {
		net, err := networks.Benchmarks()[name](8, npd, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range net.AllEnsembles() {
			e.NeuronType = neurons.NewRectifiedLinear()
		}
		for _, batch := range []int{1, 2} {
			restore := off()
			want := probeAll(t, net, 100, batch, sim.AllOptimizations())
			restore()
			got := probeAll(t, net, 100, batch, sim.AllOptimizations())
			for k, w := range want {
				for b := range w {
					for s := range w[b] {
						for i := range w[b][s] {
							if got[k][b][s][i] != w[b][s][i] {
								t.Fatalf("%s batch %d probe %s lane %d step %d [%d] = %v, want %v", name, batch, k, b, s, i, got[k][b][s][i], w[b][s][i])
							}
						}
					}
				}
			}
		}
	}
}

// TestPlanners: the planners find different plans (tree search and the
// transitive planner merge the basal ganglia into fewer groups than the
// level and greedy planners; on the PES model the greedy planner,
// scheduling one group at a time, finds fewer groups than the level
// planner), and an unknown planner is an error naming the choices.
func TestPlanners(t *testing.T) {
	groupsOf := func(net *toolkit.Network) map[string]int {
		t.Helper()
		for _, e := range net.AllEnsembles() {
			e.NeuronType = neurons.NewRectifiedLinear()
		}
		groups := map[string]int{}
		for _, pl := range sim.Planners {
			o := sim.AllOptimizations()
			o.Planner = pl
			m, err := sim.Build(net, sim.Optimize(o))
			if err != nil {
				t.Fatalf("%s: %v", pl, err)
			}
			groups[pl] = m.Plan().Groups
		}
		return groups
	}
	net, err := networks.BenchBasalGanglia(16, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	groups := groupsOf(net)
	for _, pl := range []string{"tree", "transitive"} {
		if !(groups[pl] < groups["level"] && groups[pl] < groups["greedy"]) {
			t.Errorf("basal ganglia, groups per planner %v: want %s < level and greedy", groups, pl)
		}
	}
	pes, err := networks.BenchPES(16, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if groups := groupsOf(pes); !(groups["greedy"] < groups["level"]) {
		t.Errorf("pes, groups per planner %v: want greedy < level", groups)
	}
	o := sim.AllOptimizations()
	o.Planner = "astar"
	if _, err := sim.Build(net, sim.Optimize(o)); err == nil || !strings.Contains(err.Error(), `Planner = "astar"`) || !strings.Contains(err.Error(), "transitive") {
		t.Errorf("unknown planner: err = %v", err)
	}
}

// TestMetablockSorter: the NengoDL paper's Algorithms 1 and 2 put more of the
// basal ganglia's read blocks in order than no sorting does and at least
// as many as the default sorter; an unknown sorter is an error.
func TestMetablockSorter(t *testing.T) {
	net, err := networks.BenchBasalGanglia(16, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	inOrder := map[string]int{}
	for _, o := range []sim.Optimizations{
		{Simplify: true, Merge: true},
		{Simplify: true, Merge: true, Sort: true},
		{Simplify: true, Merge: true, Sort: true, Sorter: "metablock"},
	} {
		m, err := sim.Build(net, sim.Optimize(o))
		if err != nil {
			t.Fatal(err)
		}
		inOrder[o.String()] = m.Plan().InOrder
	}
	if !(inOrder["simplify+merge+sort+metablock"] > inOrder["simplify+merge"] && inOrder["simplify+merge+sort+metablock"] >= inOrder["simplify+merge+sort"]) {
		t.Errorf("read blocks in order: %v", inOrder)
	}
	o := sim.AllOptimizations()
	o.Sorter = "bubble"
	if _, err := sim.Build(net, sim.Optimize(o)); err == nil || !strings.Contains(err.Error(), `Sorter = "bubble"`) {
		t.Errorf("unknown sorter: err = %v", err)
	}
}

// TestPackIdentical: packed ensemble weights (the one-dimensional
// ensembles of the integrator, circular convolution's products and the
// basal ganglia, one and two decoder rows, a partial last block) give
// exactly the outputs of the unpacked ones, at batch 1 and 2.
func TestPackIdentical(t *testing.T) {
	// 21 neurons: a partial last block of 16
	identicalWithout(t, []string{"integrator", "cconv", "basal_ganglia"}, 21, func() func() { return sim.SetPack(false) })
}

// TestOctetsIdentical: eight one-dimensional ensembles packed side by
// side (vec.EnsOct) give the outputs of the per-ensemble packs bit for
// bit, with octets of unequal sizes (zero-padded), one and two decoder
// rows, an amplitude other than 1, a non-finite input (which takes the
// unpacked path), batches and the cut across cores.
func TestOctetsIdentical(t *testing.T) {
	mk := func(amp float64) *toolkit.Network {
		net := toolkit.New("octets", 5)
		u := net.Node("u", 1, func(tm float64, out []float64) {
			out[0] = math.Sin(2 * math.Pi * tm)
			if tm > 0.0505 && tm < 0.0525 {
				out[0] = math.Inf(1)
			}
		})
		v := net.Passthrough("v", 1)
		for i := range 19 {
			e := net.Ensemble(fmt.Sprintf("e%d", i), 20+i%5, 1)
			rl := neurons.NewRectifiedLinear()
			rl.Amplitude = amp
			e.NeuronType = rl
			net.Connect(u, e)
			net.Connect(e, v)
			if i%3 == 0 {
				c := net.Connect(e, v)
				c.Function = func(x []float64) []float64 { return []float64{x[0] * x[0]} }
			}
		}
		net.Probe("v", v, toolkit.AttrOutput)
		return net
	}
	run := func(net *toolkit.Network, batch int) [][][]float64 {
		t.Helper()
		s, err := sim.New(net, sim.Batch(batch), sim.CheckNaN(false))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunSteps(120); err != nil {
			t.Fatal(err)
		}
		d, err := s.DataBatch(net.AllProbes()[0])
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, amp := range []float64{1, 0.5} {
		net := mk(amp)
		s, err := sim.New(net)
		if err != nil {
			t.Fatal(err)
		}
		if n := sim.Octets(s); n < 2 {
			t.Fatalf("amp %v: %d octets packed, want ≥ 2", amp, n)
		}
		for _, split := range []bool{false, true} {
			if split {
				defer sim.SetSplitThresholds(1, 1)()
			}
			for _, batch := range []int{1, 3} {
				restore := sim.SetOctets(false)
				want := run(net, batch)
				restore()
				got := run(net, batch)
				nan := false
				for b := range want {
					for st := range want[b] {
						g, x := got[b][st][0], want[b][st][0]
						nan = nan || x != x
						if math.Float64bits(g) != math.Float64bits(x) && !(g != g && x != x) {
							t.Fatalf("amp %v split %v batch %d lane %d step %d = %v, want %v", amp, split, batch, b, st, g, x)
						}
					}
				}
				if !nan {
					t.Fatalf("amp %v: the infinite input left no NaN: the unpacked path was not run", amp)
				}
			}
		}
	}
}

// TestAlignedIdentical: products computed from aligned, zero-padded
// weight copies (with and without distinct rows) give the outputs of the
// products on the store bit for bit.
func TestAlignedIdentical(t *testing.T) {
	for _, d := range []int{8, 32} {
		net, err := networks.Benchmarks()["cconv"](d, 12, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range net.AllEnsembles() {
			e.NeuronType = neurons.NewRectifiedLinear()
		}
		s, err := sim.New(net)
		if err != nil {
			t.Fatal(err)
		}
		if sim.AlignedBytes(s) == 0 {
			t.Fatalf("D=%d: no aligned weight copies made for cconv", d)
		}
		// at D = 32 (inputs of 16 and more) the two input transforms
		// share one copy (the same distinct rows), and the lanes of a
		// batch all of them
		s2, err := sim.New(net, sim.Batch(2))
		if err != nil {
			t.Fatal(err)
		}
		if blocks, copies := sim.AlignedCopies(s2); d == 32 && (copies != 2 || blocks != 6) {
			t.Errorf("D=%d batch 2: %d blocks read %d aligned copies, want 6 blocks and 2 copies (input transforms shared, inverse)", d, blocks, copies)
		}
		for _, batch := range []int{1, 2} {
			restore := sim.SetAligned(false)
			want := probeAll(t, net, 60, batch, sim.AllOptimizations())
			restore()
			got := probeAll(t, net, 60, batch, sim.AllOptimizations())
			for k, w := range want {
				for b := range w {
					for st := range w[b] {
						for i := range w[b][st] {
							if got[k][b][st][i] != w[b][st][i] {
								t.Fatalf("D=%d batch %d probe %s lane %d step %d [%d] = %v, want %v", d, batch, k, b, st, i, got[k][b][st][i], w[b][st][i])
							}
						}
					}
				}
			}
		}
	}
	identicalWithout(t, []string{"basal_ganglia", "integrator"}, 21, func() func() { return sim.SetAligned(false) })
}

// TestDeadCode: operators whose outputs nothing reads or probes are
// removed (Plan.Dead), the probed outputs stay identical to the
// unoptimised run, and probing the dead output keeps it computed.
func TestDeadCode(t *testing.T) {
	mk := func(probeUnused bool) (*toolkit.Network, []*toolkit.Probe) {
		net := toolkit.New("dead", 4)
		u := net.Node("u", 1, func(tm float64, out []float64) { out[0] = math.Sin(2 * math.Pi * tm) })
		e := net.Ensemble("e", 40, 1)
		e.NeuronType = neurons.NewRectifiedLinear()
		used, unused := net.Passthrough("used", 1), net.Passthrough("unused", 1)
		net.Connect(u, e)
		net.Connect(e, used)
		net.Connect(e, unused)
		ps := []*toolkit.Probe{net.Probe("used", used, toolkit.AttrOutput)}
		if probeUnused {
			ps = append(ps, net.Probe("unused", unused, toolkit.AttrOutput))
		}
		return net, ps
	}
	run := func(net *toolkit.Network, ps []*toolkit.Probe, opts ...sim.Option) ([][][]float64, sim.Plan) {
		t.Helper()
		s, err := sim.New(net, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunSteps(50); err != nil {
			t.Fatal(err)
		}
		var out [][][]float64
		for _, p := range ps {
			d, err := s.Data(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, d)
		}
		return out, s.Model().Plan()
	}
	same := func(name string, got, want [][][]float64) {
		t.Helper()
		for k := range want {
			for st := range want[k] {
				for i := range want[k][st] {
					if got[k][st][i] != want[k][st][i] {
						t.Fatalf("%s: probe %d step %d [%d] = %v, want %v", name, k, st, i, got[k][st][i], want[k][st][i])
					}
				}
			}
		}
	}
	net, ps := mk(false)
	got, plan := run(net, ps)
	if plan.Dead == 0 {
		t.Fatalf("no dead operators removed: %v", plan)
	}
	want, _ := run(net, ps, sim.Optimize(sim.Optimizations{}))
	same("unprobed", got, want)
	noSimp := sim.AllOptimizations()
	noSimp.Simplify = false
	if _, p := run(net, ps, sim.Optimize(noSimp)); p.Dead != 0 {
		t.Fatalf("without simplification %d operators removed", p.Dead)
	}
	net2, ps2 := mk(true)
	got2, plan2 := run(net2, ps2)
	want2, _ := run(net2, ps2, sim.Optimize(sim.Optimizations{}))
	same("probed", got2, want2)
	if plan2.Dead >= plan.Dead {
		t.Fatalf("probing the unused output removed %d operators, want fewer than %d", plan2.Dead, plan.Dead)
	}
	if got2[1][49][0] == 0 {
		t.Fatal("the probed unused output is 0: it was not computed")
	}
}

// TestOctetRuns: an EnsembleArray, whose ensembles' decoders set adjacent
// elements (the octet reads its inputs and writes its outputs as one
// block each), gives the same outputs with and without octets, also when
// its output node receives another connection.
func TestOctetRuns(t *testing.T) {
	for _, extra := range []bool{true, false} {
		net := toolkit.New("runs", 6)
		u := net.Node("u", 16, func(tm float64, out []float64) {
			for i := range out {
				out[i] = math.Sin(2*math.Pi*tm + float64(i))
			}
		})
		ea, err := networks.EnsembleArray(net, "ea", 24, 16, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ea.Ensembles {
			e.NeuronType = neurons.NewRectifiedLinear()
		}
		net.Connect(u, ea.Input)
		if extra {
			net.Connect(u, ea.Output)
		}
		p := net.Probe("out", ea.Output, toolkit.AttrOutput)
		run := func() [][]float64 {
			s, err := sim.New(net)
			if err != nil {
				t.Fatal(err)
			}
			if sim.Octets(s) < 2 {
				return nil
			}
			if err := s.RunSteps(60); err != nil {
				t.Fatal(err)
			}
			d, err := s.Data(p)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		got := run()
		if got == nil {
			t.Fatalf("extra=%v: fewer than 2 octets packed", extra)
		}
		restore := sim.SetOctets(false)
		s, err := sim.New(net)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunSteps(60); err != nil {
			t.Fatal(err)
		}
		want, _ := s.Data(p)
		for st := range want {
			for i := range want[st] {
				if got[st][i] != want[st][i] {
					t.Fatalf("extra=%v step %d [%d] = %v, want %v", extra, st, i, got[st][i], want[st][i])
				}
			}
		}
	}
}

// TestLanesDotIdentical: batched lanes that compute their products
// together (one matrix–matrix pass over the aligned weights, four lanes
// per pass) give every lane exactly its serial run's outputs. The lanes
// get different inputs (feeds), the batch sizes leave remainders beside
// the four-lane passes, and one or two workers split the lanes.
func TestLanesDotIdentical(t *testing.T) {
	const d, steps = 32, 40
	net, err := networks.Benchmarks()["cconv"](d, 12, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range net.AllEnsembles() {
		e.NeuronType = neurons.NewRectifiedLinear()
	}
	var inA, inB *toolkit.Node
	for _, n := range net.AllNodes() {
		switch n.Label {
		case "inp_a":
			inA = n
		case "inp_b":
			inB = n
		}
	}
	if inA == nil || inB == nil {
		t.Fatal("cconv: input nodes inp_a, inp_b not found")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	feed := func(batch int) [][][]float64 {
		f := make([][][]float64, batch)
		for b := range f {
			f[b] = make([][]float64, steps)
			for k := range f[b] {
				f[b][k] = make([]float64, d)
				for i := range f[b][k] {
					f[b][k][i] = rng.NormFloat64() * 0.5
				}
			}
		}
		return f
	}
	p := net.AllProbes()[0]
	run := func(fa, fb [][][]float64, opts ...sim.Option) [][][]float64 {
		t.Helper()
		s, err := sim.New(net, append([]sim.Option{sim.Batch(len(fa)), sim.Feed(inA, fa), sim.Feed(inB, fb)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.RunSteps(steps); err != nil {
			t.Fatal(err)
		}
		out, err := s.DataBatch(p)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, batch := range []int{4, 5, 9} {
		for _, par := range []int{1, 2} {
			fa, fb := feed(batch), feed(batch)
			got := run(fa, fb, sim.Parallel(par))
			for b := range batch {
				want := run(fa[b:b+1], fb[b:b+1])[0]
				for k := range want {
					for i := range want[k] {
						if math.Float64bits(got[b][k][i]) != math.Float64bits(want[k][i]) {
							t.Fatalf("batch %d, %d workers: lane %d step %d [%d] = %v, serial run %v", batch, par, b, k, i, got[b][k][i], want[k][i])
						}
					}
				}
			}
		}
	}
}
