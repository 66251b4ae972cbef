package frames

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit/stream"
)

// Mode selects the update scheme.
type Mode int

const (
	// Parallel is the layerwise-parallel, frame-synchronous two-phase
	// update (the statestream paper, §2, Fig. 1 right): every pool reads frame t only.
	Parallel Mode = iota
	// Sequential is the layerwise-sequential comparison network (the
	// statestream paper, Fig. 1 middle): pools in topological order, each from the
	// already updated states of its sources.
	Sequential
)

// Options configure a Sim.
type Options struct {
	Seed    int64
	Workers int // 0: runtime.GOMAXPROCS(0)
	Mode    Mode
	// Drivers by interface name; every interface of the net needs one.
	Drivers map[string]stream.Driver
	// NoNoise switches noise, dropout and zoneout off (evaluation).
	NoNoise bool
	// MatMul, when set, computes every synapse-pool weight product of the
	// forward passes; nil uses gonum's blas64.
	MatMul MatMul
}

// Hook runs inside every frame (a plasticity, a monitor).
type Hook interface {
	// Read is the read phase of frame t: it may read frame-t states and
	// parameters and must not write them. In Parallel mode it runs
	// concurrently with the pools' updates, as one more job on the workers.
	Read(t int) error
	// Write runs after all pools wrote frame t+1 and before the frame
	// advances; it may change parameters.
	Write(t int) error
}

// ChunkedHook is a Hook whose read-phase work splits into chunks (e.g. a
// plasticity's rollout over chunks of agents, Sim.NewChunkedRollout). In
// Parallel mode the Sim runs ReadChunk(t, c) for every c < Chunks() as
// separate jobs on the workers, concurrently with the pools' jobs and the
// other hooks; after the barrier that ends the read phase, and before the
// drivers write frame t+1, it calls Read(t) on the caller's goroutine to
// combine the chunks (in a fixed order, so results do not depend on the
// worker count). Frame-t states are still current then. In Sequential
// mode the hooks' jobs (Reads and chunks) run on the workers before the
// drivers and pools, then the ChunkedHooks' Read.
type ChunkedHook interface {
	Hook
	// Chunks is the number of chunks; it is read once, by AddHook.
	Chunks() int
	// ReadChunk is the read phase of chunk c of frame t; it may read
	// frame-t states and parameters and must not write them.
	ReadChunk(t, c int) error
}

type hookJob struct{ h, c int } // c < 0: the Read of a plain Hook

type param struct {
	ref   stream.ParamRef
	shape []int
	data  []float64
	// per > 0: unshared (statestream's unshare), per values per agent
	per int
	// lo, hi: clipping bounds (statestream's min / max; ±Inf: none)
	lo, hi float64
}

// clip keeps every value within [lo, hi].
func (p *param) clip() {
	if math.IsInf(p.lo, -1) && math.IsInf(p.hi, 1) {
		return
	}
	for i, v := range p.data {
		p.data[i] = min(max(v, p.lo), p.hi)
	}
}

type job struct{ pool, a0, a1 int }

type driver struct {
	name    string
	d       stream.Driver
	in, out map[string][]float64
	inP     []int
	outP    []int
}

// Sim executes a layerwise-parallel network frame by frame.
type Sim struct {
	net    *stream.Net
	opt    Options
	seed   uint64
	agents int
	frame  int
	mm     MatMul

	pools    []*poolProg
	byName   map[string]int
	sps      []*spProg
	params   []*param
	paramIdx map[[3]string]int
	cur      [][]float64
	next     [][]float64
	tapes    []*tape
	driven   []bool
	targeted []bool
	drivers  []*driver
	order    []int // Sequential: topological update order
	hooks    []Hook
	hookJobs []hookJob // jobs len(jobs)+k: hook reads and chunks
	chunked  []bool    // per hook: a ChunkedHook (Read after the barrier)

	jobs      []job
	poolJobs  [][]int // job indices per pool
	allIdx    []int
	stats     Stats
	colBudget int
	scratch   [][]float64 // per job: column matrices of convolutions
	hookErr   []error     // per hook job
	workers   int
	ch        chan int
	wg        sync.WaitGroup
	closed    bool
	e         env
}

// maxChunks bounds the agent chunks of one pool. It is fixed (not a
// function of Workers), so every job does the same arithmetic whichever
// worker runs it and results are bit-identical for any Workers.
const maxChunks = 8

// colBudget bounds the column matrix of one job (in float64 values, 2 MiB):
// a job's convolution runs in groups of agents whose columns fit, so they
// stay in cache between im2col and the product, and the Sim keeps no
// agents-sized column buffers.
const colBudget = 1 << 18

// New builds a Sim for net: validates it (net.Validate), lays out the
// parameters (initialised from o.Seed) and states (zero), starts the
// drivers and the workers. On error nothing is left running.
func New(net *stream.Net, o Options) (*Sim, error) {
	return newSim(net, o, colBudget)
}

// newSim is New with a column budget per job (tests use a small one to
// exercise the grouping of agents).
func newSim(net *stream.Net, o Options, budget int) (*Sim, error) {
	if net == nil {
		return nil, errors.New("frames: New: nil net")
	}
	if err := net.Validate(); err != nil {
		return nil, fmt.Errorf("frames: %w", err)
	}
	if o.Workers < 0 {
		return nil, fmt.Errorf("frames: Options.Workers = %d: must be ≥ 0 (0: GOMAXPROCS)", o.Workers)
	}
	if o.Mode != Parallel && o.Mode != Sequential {
		return nil, fmt.Errorf("frames: Options.Mode = %d: must be Parallel or Sequential", o.Mode)
	}
	s := &Sim{net: net, opt: o, seed: uint64(o.Seed), agents: max(net.Agents, 1), mm: o.MatMul,
		byName: map[string]int{}, paramIdx: map[[3]string]int{}, colBudget: budget}
	if s.mm == nil {
		s.mm = cpuMatMul{}
	}
	s.workers = o.Workers
	if s.workers == 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	if err := s.build(); err != nil {
		return nil, err
	}
	if err := s.startDrivers(); err != nil {
		return nil, err
	}
	s.e = env{cur: s.cur, next: s.next, seq: o.Mode == Sequential, noisy: !o.NoNoise, seed: s.seed, mm: s.mm}
	if s.workers > 1 {
		s.ch = make(chan int, len(s.jobs)+16)
		for range s.workers {
			go s.work(s.ch)
		}
	}
	return s, nil
}

func (s *Sim) work(ch chan int) {
	for i := range ch {
		s.run(i)
		s.wg.Done()
	}
}

// Close stops the worker goroutines; the Sim must not be stepped after.
func (s *Sim) Close() {
	if s.ch != nil && !s.closed {
		close(s.ch)
	}
	s.closed = true
}

func (s *Sim) build() error {
	n := s.net
	for i, np := range n.NeuronPools {
		s.byName[np.Name] = i
	}
	// Neuron-pool parameters.
	for _, np := range n.NeuronPools {
		shapes := np.ParamShapes()
		for _, nm := range []string{"b", "g"} {
			if sh, ok := shapes[nm]; ok {
				un := np.Unshared(nm)
				if un {
					sh = append([]int{s.agents}, sh...)
				}
				d := make([]float64, prod(sh))
				if nm == "g" {
					for i := range d {
						d[i] = 1
					}
				}
				k := s.addParam(stream.ParamRef{Kind: "np", Item: np.Name, Name: nm}, sh, d)
				if un {
					s.params[k].per = len(d) / s.agents
				}
			}
		}
	}
	// Synapse-pool parameters and programs.
	type sharedParam struct {
		sp, f, a int
		isP      bool
		name     string
		owner    stream.ParamRef
	}
	var shared []sharedParam
	s.targeted = make([]bool, len(n.NeuronPools))
	for si, sp := range n.SynapsePools {
		shapes, err := sp.ParamShapes(n)
		if err != nil {
			return fmt.Errorf("frames: %w", err)
		}
		tgt := n.NeuronPools[s.byName[sp.Target]]
		s.targeted[s.byName[sp.Target]] = true
		act, err := newActivation(sp.ACTFunc())
		if err != nil {
			return fmt.Errorf("frames: synapse-pool %q: ACT: %w", sp.Name, err)
		}
		prog := &spProg{idx: si, sp: sp, act: act, noise: sp.Noise, period: max(sp.Period, 1), offset: sp.Offset,
			avgout: max(sp.Avgout, 1), maxout: max(sp.Maxout, 1)}
		prog.c = tgt.Shape[0] * prog.avgout * prog.maxout
		prog.n = prog.c * tgt.Shape[1] * tgt.Shape[2]
		full := shape{p: tgt.Shape[1] * tgt.Shape[2], c: prog.c}
		modeShape := func(m string) shape {
			switch m {
			case "feature":
				return shape{p: 1, c: prog.c}
			case "spatial":
				return shape{p: full.p, c: 1}
			case "scalar":
				return shape{p: 1, c: 1}
			}
			return full
		}
		prog.full = true
		prog.nA, prog.nB = noiseParams(sp.Noise, sp.NoiseMean, sp.NoiseStd, sp.NoiseMin, sp.NoiseMax)
		for f, fac := range sp.Source {
			fa := factor{bias: -1, m: modeShape(sp.FactorShape(f))}
			prog.full = prog.full && fa.m == full
			if fa.act, err = newActivation(sp.ActFunc(f)); err != nil {
				return fmt.Errorf("frames: synapse-pool %q: act of factor %d: %w", sp.Name, f, err)
			}
			if nm := fmt.Sprintf("b_%d", f); shapes[nm] != nil {
				sh := shapes[nm]
				if sp.Unshared(nm) {
					sh = append([]int{s.agents}, sh...)
				}
				d := make([]float64, prod(sh))
				if v, err := strconv.ParseFloat(sp.Init[nm], 64); err == nil {
					for i := range d {
						d[i] = v // statestream: a number, anything else 0
					}
				}
				fa.bias, fa.biasMode = s.addSPParam(sp, nm, sh, d), sp.BiasShapes[f]
			}
			for a, srcName := range fac {
				src := n.NeuronPools[s.byName[srcName]]
				tm := term{src: s.byName[srcName], cs: src.Shape[0], ws: src.Shape[1], hs: src.Shape[2],
					ppp: at(sp.PPP, f, a, 0), rf: at(sp.RF, f, a, 0), dil: max(at(sp.Dilation, f, a, 1), 1), pParam: -1,
					out: modeShape(sp.TargetShape(f, a))}
				tm.bcast = tm.out != fa.m
				prog.full = prog.full && !tm.bcast
				if f < len(sp.WeightFnc) && a < len(sp.WeightFnc[f]) {
					tm.wfn = wfnNames[sp.WeightFnc[f][a]]
				}
				if act, th, ok := sp.PreActivation(f, a); ok && (actNames[act] != actId || th != 0) {
					tm.hasPact, tm.pact, tm.thresh = true, activation{kind: actNames[act]}, th
				} else if !ok {
					// an expression: the elementwise function
					if tm.pact, err = newActivation(sp.PactFunc(f, a)); err != nil {
						return fmt.Errorf("frames: synapse-pool %q: pact of source %q: %w", sp.Name, srcName, err)
					}
					tm.hasPact = tm.pact.kind != actId
				}
				tm.cin = tm.cs
				// param creates a parameter, or records that it is another
				// synapse-pool's (share params), resolved once all exist.
				param := func(nm string, isP bool) (int, error) {
					if r, ok := sp.Share[nm]; ok {
						shared = append(shared, sharedParam{sp: si, f: f, a: len(fa.terms), isP: isP, name: nm, owner: r})
						return -1, nil
					}
					sh := shapes[nm]
					var d []float64
					var err error
					if sp.Unshared(nm) {
						d, err = initParamAgents(sp, nm, sh, s.seed, s.agents)
						sh = append([]int{s.agents}, sh...)
					} else {
						d, err = initParam(sp, nm, sh, s.seed)
					}
					if err != nil {
						return 0, err
					}
					return s.addSPParam(sp, nm, sh, d), nil
				}
				if tm.ppp > 0 {
					tm.cin = tm.ppp
					if tm.pParam, err = param(fmt.Sprintf("P_%d_%d", f, a), true); err != nil {
						return err
					}
				}
				if tm.wParam, err = param(fmt.Sprintf("W_%d_%d", f, a), false); err != nil {
					return err
				}
				if err := geometry(&tm, tgt); err != nil {
					return fmt.Errorf("frames: synapse-pool %q, source %q: %w", sp.Name, srcName, err)
				}
				fa.terms = append(fa.terms, tm)
			}
			prog.factors = append(prog.factors, fa)
		}
		s.sps = append(s.sps, prog)
	}
	// Shared parameters (statestream's "share params") use the owner's
	// array: the same index, also under the sharing synapse-pool's name, so
	// a plasticity naming either updates the one array.
	for _, sh := range shared {
		k, ok := s.paramIdx[[3]string{"sp", sh.owner.Item, sh.owner.Name}]
		if !ok {
			return fmt.Errorf("frames: synapse-pool %q: share params %s: no parameter %s of %q", n.SynapsePools[sh.sp].Name, sh.name, sh.owner.Name, sh.owner.Item)
		}
		tm := &s.sps[sh.sp].factors[sh.f].terms[sh.a]
		if sh.isP {
			tm.pParam = k
		} else {
			tm.wParam = k
		}
		s.paramIdx[[3]string{"sp", n.SynapsePools[sh.sp].Name, sh.name}] = k
	}
	// Unshared parameters (per agent), also where used through share params.
	for _, sp := range s.sps {
		for fi := range sp.factors {
			f := &sp.factors[fi]
			if f.bias >= 0 {
				f.bPer = s.params[f.bias].per
			}
			for ai := range f.terms {
				tm := &f.terms[ai]
				tm.wPer = s.params[tm.wParam].per
				if tm.pParam >= 0 {
					tm.pPer = s.params[tm.pParam].per
				}
			}
		}
	}
	// Drivers mark the pools they write.
	s.driven = make([]bool, len(n.NeuronPools))
	for _, it := range n.Interfaces {
		for _, o := range it.Out {
			s.driven[s.byName[it.PoolName(o)]] = true
		}
	}
	// Neuron-pool programs.
	for i, np := range n.NeuronPools {
		act, err := newActivation(np.ActFunc())
		if err != nil {
			return fmt.Errorf("frames: neuron-pool %q: act: %w", np.Name, err)
		}
		p := &poolProg{idx: i, np: np, c: np.Shape[0], w: np.Shape[1], h: np.Shape[2], act: act,
			period: max(np.Period, 1), offset: np.Offset, noise: np.Noise, dropout: np.Dropout, zoneout: np.Zoneout}
		p.n = p.c * p.w * p.h
		p.nA, p.nB = noiseParams(np.Noise, np.NoiseMean, np.NoiseStd, np.NoiseMin, np.NoiseMax)
		for _, sp := range s.sps {
			if sp.sp.Target == np.Name {
				p.sps = append(p.sps, sp)
			}
		}
		if np.Noise != "" {
			p.stages = append(p.stages, stage{kind: stNoise})
		}
		for _, nm := range []struct {
			mode  string
			batch bool
			kind  stageKind
		}{{np.BatchnormMean, true, stMean}, {np.BatchnormStd, true, stStd}, {np.LayernormMean, false, stMean}, {np.LayernormStd, false, stStd}} {
			if g := p.newGroup(nm.mode, nm.batch, s.agents); g != nil {
				p.stages = append(p.stages, stage{kind: nm.kind, grp: g})
				p.batch = p.batch || nm.batch
			}
		}
		if k, ok := s.paramIdx[[3]string{"np", np.Name, "g"}]; ok {
			p.stages = append(p.stages, stage{kind: stGain, param: k, mode: np.GainShape, per: s.params[k].per})
		}
		if p.act.kind != actId {
			p.stages = append(p.stages, stage{kind: stAct})
		}
		if k, ok := s.paramIdx[[3]string{"np", np.Name, "b"}]; ok {
			mode := np.BiasShape
			if mode == "" {
				mode = "feature"
			}
			p.stages = append(p.stages, stage{kind: stBias, param: k, mode: mode, per: s.params[k].per})
		}
		if np.Dropout > 0 {
			p.stages = append(p.stages, stage{kind: stDropout})
		}
		if np.Zoneout > 0 {
			p.stages = append(p.stages, stage{kind: stZoneout})
		}
		s.pools = append(s.pools, p)
		s.cur = append(s.cur, make([]float64, s.agents*p.n))
		s.next = append(s.next, make([]float64, s.agents*p.n))
	}
	if s.opt.Mode == Sequential {
		s.sequentialOrder()
	}
	for _, p := range s.pools {
		s.tapes = append(s.tapes, newTape(p, s, s.agents, nil))
	}
	// Jobs: pool × chunk of agents (whole pools when a stage couples agents).
	s.poolJobs = make([][]int, len(s.pools))
	for i, p := range s.pools {
		chunks := min(s.agents, maxChunks)
		if p.batch || s.driven[i] {
			chunks = 1
		}
		// the largest per-agent column matrix of the pool's convolutions
		per := 0
		for _, sp := range p.sps {
			for _, f := range sp.factors {
				for _, tm := range f.terms {
					if !tm.dense && !tm.ident {
						per = max(per, p.w*p.h*tm.k)
					}
				}
			}
		}
		for c := 0; c < chunks; c++ {
			a0, a1 := c*s.agents/chunks, (c+1)*s.agents/chunks
			s.poolJobs[i] = append(s.poolJobs[i], len(s.jobs))
			s.jobs = append(s.jobs, job{pool: i, a0: a0, a1: a1})
			var sc []float64
			if per > 0 {
				sc = make([]float64, min(a1-a0, max(1, s.colBudget/per))*per)
			}
			s.scratch = append(s.scratch, sc)
		}
	}
	return nil
}

func noiseParams(kind string, mean, std, lo, hi float64) (float64, float64) {
	switch kind {
	case "normal":
		return mean, std
	case "uniform":
		return lo, hi
	}
	return 0, 0
}

func at(x [][]int, f, a, def int) int {
	if f < len(x) && a < len(x[f]) {
		return x[f][a]
	}
	return def
}

func prod(sh []int) int {
	n := 1
	for _, d := range sh {
		n *= d
	}
	return n
}

func (s *Sim) addParam(ref stream.ParamRef, shape []int, d []float64) int {
	s.paramIdx[[3]string{ref.Kind, ref.Item, ref.Name}] = len(s.params)
	s.params = append(s.params, &param{ref: stream.ParamRef{Kind: ref.Kind, Item: ref.Item, Name: ref.Name}, shape: slices.Clone(shape), data: d,
		lo: math.Inf(-1), hi: math.Inf(1)})
	return len(s.params) - 1
}

// addSPParam adds parameter nm of synapse-pool sp (of the given shape,
// with the agents axis first when unshared) with its clipping bounds,
// which apply to its initial values at once.
func (s *Sim) addSPParam(sp *stream.SynapsePool, nm string, shape []int, d []float64) int {
	k := s.addParam(stream.ParamRef{Kind: "sp", Item: sp.Name, Name: nm}, shape, d)
	p := s.params[k]
	if sp.Unshared(nm) {
		p.per = len(d) / s.agents
	}
	if v, ok := sp.Min[nm]; ok {
		p.lo = v
	}
	if v, ok := sp.Max[nm]; ok {
		p.hi = v
	}
	p.clip()
	return k
}

// ClipParam clips a parameter to its bounds (statestream's "min W_f_a" /
// "max W_f_a", stream.SynapsePool.Min and Max; nothing for a parameter
// without bounds), as statestream does after every update; plasticities
// call it after they change a parameter.
func (s *Sim) ClipParam(ref stream.ParamRef) error {
	i, err := s.paramIndex(ref)
	if err != nil {
		return err
	}
	s.params[i].clip()
	return nil
}

// newGroup returns the grouping of a normalisation mode (statestream
// docs/neuron_pools.md): batch norm over the agents and full: all values;
// feature: the features of each position; spatial: the positions of each
// feature; scalar: the agents only. Layer norm is the same per agent.
func (p *poolProg) newGroup(mode string, batch bool, agents int) *group {
	wh := p.w * p.h
	var g group
	var cnt int
	switch mode {
	case "full":
		g, cnt = group{g: 1}, p.n
	case "feature":
		g, cnt = group{kp: 1, g: wh}, p.c
	case "spatial":
		g, cnt = group{kc: 1, g: p.c}, wh
	case "scalar":
		g, cnt = group{kp: p.c, kc: 1, g: p.n}, 1
	default:
		return nil
	}
	if batch {
		cnt *= agents
	} else {
		g.ka = g.g
	}
	g.cnt = make([]float64, g.g)
	for i := range g.cnt {
		g.cnt[i] = float64(cnt)
	}
	return &g
}

// geometry fixes the upsampling, stride and padding of a term reaching
// the target pool tgt.
func geometry(tm *term, tgt *stream.NeuronPool) error {
	W, H := tgt.Shape[1], tgt.Shape[2]
	if tm.rf == 0 {
		tm.dense = true
		tm.k = tm.cin * tm.ws * tm.hs
		return nil
	}
	axis := func(s, t int) (up, stride int, err error) {
		switch {
		case s == t:
			return 1, 1, nil
		case s > t && s%t == 0:
			return 1, s / t, nil
		case t > s && t%s == 0:
			return t / s, 1, nil
		}
		return 0, 0, fmt.Errorf("extent %d does not fit target extent %d", s, t)
	}
	var err error
	if tm.upX, tm.sX, err = axis(tm.ws, W); err != nil {
		return err
	}
	if tm.upY, tm.sY, err = axis(tm.hs, H); err != nil {
		return err
	}
	tm.wu, tm.hu = tm.ws*tm.upX, tm.hs*tm.upY
	pad := func(n, s int) int {
		out := (n + s - 1) / s
		return max((out-1)*s+(tm.rf-1)*tm.dil+1-n, 0) / 2
	}
	tm.padT, tm.padL = pad(tm.wu, tm.sX), pad(tm.hu, tm.sY)
	tm.k = tm.rf * tm.rf * tm.cin
	tm.ident = tm.rf == 1 && tm.upX == 1 && tm.upY == 1 && tm.sX == 1 && tm.sY == 1
	return nil
}

// sequentialOrder fixes the Sequential update order. Rule: a depth-first
// search from the input pools (Net.Inputs, in NeuronPools order), then
// from the remaining pools in that order, follows the synapse-pool edges
// source → target (in SynapsePools order); an edge reaching a pool still
// on the search stack closes a cycle (a recurrent or backward edge, also a
// self-loop). The other edges form a DAG whose topological order (Kahn's
// algorithm, ties broken by NeuronPools order) is the update order. A term
// reads its source's frame-t+1 state if its edge is in the DAG, and the
// frame-t state if it closes a cycle (a one-frame window, as the parallel
// network has on every edge).
func (s *Sim) sequentialOrder() {
	np := len(s.pools)
	inputs := s.net.Inputs()
	type edge struct{ sp, f, a int }
	adj := make([][]int, np) // targets
	for _, sp := range s.sps {
		t := s.byName[sp.sp.Target]
		for _, f := range sp.factors {
			for _, tm := range f.terms {
				adj[tm.src] = append(adj[tm.src], t)
			}
		}
	}
	const (
		white = iota
		grey
		black
	)
	col := make([]int, np)
	back := map[[2]int]bool{}
	var dfs func(u int)
	dfs = func(u int) {
		col[u] = grey
		for _, v := range adj[u] {
			switch col[v] {
			case grey:
				back[[2]int{u, v}] = true
			case white:
				dfs(v)
			}
		}
		col[u] = black
	}
	for i, p := range s.net.NeuronPools {
		if _, ok := inputs[p.Name]; ok && col[i] == white {
			dfs(i)
		}
	}
	for i := range s.pools {
		if col[i] == white {
			dfs(i)
		}
	}
	indeg := make([]int, np)
	for u := range adj {
		for _, v := range adj[u] {
			if !back[[2]int{u, v}] {
				indeg[v]++
			}
		}
	}
	done := make([]bool, np)
	for len(s.order) < np {
		for i := 0; i < np; i++ {
			if !done[i] && indeg[i] == 0 {
				done[i] = true
				s.order = append(s.order, i)
				for _, v := range adj[i] {
					if !back[[2]int{i, v}] {
						indeg[v]--
					}
				}
				break
			}
		}
	}
	rank := make([]int, np)
	for r, i := range s.order {
		rank[i] = r
	}
	for _, sp := range s.sps {
		t := s.byName[sp.sp.Target]
		for fi := range sp.factors {
			for ai := range sp.factors[fi].terms {
				tm := &sp.factors[fi].terms[ai]
				tm.seqNew = !back[[2]int{tm.src, t}] && rank[tm.src] < rank[t]
			}
		}
	}
}

func (s *Sim) startDrivers() error {
	// check everything before starting any driver
	for name := range s.opt.Drivers {
		if s.net.Interface(name) == nil {
			return fmt.Errorf("frames: Options.Drivers[%q]: the net has no interface %q", name, name)
		}
	}
	for _, it := range s.net.Interfaces {
		if s.opt.Drivers[it.Name] == nil {
			return fmt.Errorf("frames: interface %q (type %q) has no driver: supply one in Options.Drivers[%q] (a stream.Driver that writes %s)",
				it.Name, it.Type, it.Name, strings.Join(it.Out, ", "))
		}
	}
	for _, it := range s.net.Interfaces {
		d := s.opt.Drivers[it.Name]
		if d == nil {
			return fmt.Errorf("frames: interface %q (type %q) has no driver: supply one in Options.Drivers[%q] (a stream.Driver that writes %s)",
				it.Name, it.Type, it.Name, strings.Join(it.Out, ", "))
		}
		dr := &driver{name: it.Name, d: d, in: map[string][]float64{}, out: map[string][]float64{}}
		outS, inS := map[string][3]int{}, map[string][3]int{}
		for _, o := range it.Out {
			p := s.byName[it.PoolName(o)]
			dr.outP = append(dr.outP, p)
			outS[it.PoolName(o)] = s.net.NeuronPools[p].Shape
		}
		for _, o := range it.In {
			p := s.byName[it.PoolName(o)]
			dr.inP = append(dr.inP, p)
			inS[it.PoolName(o)] = s.net.NeuronPools[p].Shape
		}
		if err := d.Start(s.agents, outS, inS, s.opt.Seed); err != nil {
			return fmt.Errorf("frames: interface %q: driver Start: %w", it.Name, err)
		}
		s.drivers = append(s.drivers, dr)
	}
	return nil
}

// Net returns the network description.
func (s *Sim) Net() *stream.Net { return s.net }

// Frame returns the current frame t.
func (s *Sim) Frame() int { return s.frame }

// Agents returns the number of agents (the batch).
func (s *Sim) Agents() int { return s.agents }

// State returns the frame-t state of a pool: a live view of
// agents·W·H·C values (layout of stream.Index), valid until the next Step.
func (s *Sim) State(pool string) ([]float64, error) {
	i, ok := s.byName[pool]
	if !ok {
		return nil, fmt.Errorf("frames: State: no neuron-pool %q", pool)
	}
	return s.cur[i], nil
}

// SetState overwrites the frame-t state of a pool.
func (s *Sim) SetState(pool string, v []float64) error {
	i, ok := s.byName[pool]
	if !ok {
		return fmt.Errorf("frames: SetState: no neuron-pool %q", pool)
	}
	if len(v) != len(s.cur[i]) {
		return fmt.Errorf("frames: SetState(%q): %d values, want agents·C·W·H = %d", pool, len(v), len(s.cur[i]))
	}
	copy(s.cur[i], v)
	return nil
}

// Param returns the live storage of a parameter (layouts in doc.go).
func (s *Sim) Param(ref stream.ParamRef) ([]float64, error) {
	i, err := s.paramIndex(ref)
	if err != nil {
		return nil, err
	}
	return s.params[i].data, nil
}

// ParamShape returns the shape of a parameter.
func (s *Sim) ParamShape(ref stream.ParamRef) ([]int, error) {
	i, err := s.paramIndex(ref)
	if err != nil {
		return nil, err
	}
	return slices.Clone(s.params[i].shape), nil
}

func (s *Sim) paramIndex(ref stream.ParamRef) (int, error) {
	i, ok := s.paramIdx[[3]string{ref.Kind, ref.Item, ref.Name}]
	if !ok {
		var names []string
		for _, p := range s.params {
			if p.ref.Item == ref.Item {
				names = append(names, p.ref.Kind+" "+p.ref.Name)
			}
		}
		sort.Strings(names)
		return 0, fmt.Errorf("frames: no parameter [%s, %s, %s] (parameters of %q: %s)", ref.Kind, ref.Item, ref.Name, ref.Item, strings.Join(names, ", "))
	}
	return i, nil
}

// Params lists every parameter: neuron-pool b and g in NeuronPools order,
// then synapse-pool P_f_a and W_f_a in SynapsePools order.
func (s *Sim) Params() []stream.ParamRef {
	out := make([]stream.ParamRef, len(s.params))
	for i, p := range s.params {
		out[i] = p.ref
	}
	return out
}

// Reset returns to frame 0 with zero states; parameters are kept.
func (s *Sim) Reset() {
	s.frame = 0
	for i := range s.cur {
		clear(s.cur[i])
		clear(s.next[i])
	}
}

// AddHook adds a hook, run every frame in the order added. A ChunkedHook
// with Chunks() > 0 contributes that many read jobs (see ChunkedHook).
func (s *Sim) AddHook(h Hook) {
	hi := len(s.hooks)
	s.hooks = append(s.hooks, h)
	if ch, ok := h.(ChunkedHook); ok && ch.Chunks() > 0 {
		s.chunked = append(s.chunked, true)
		for c := range ch.Chunks() {
			s.hookJobs = append(s.hookJobs, hookJob{h: hi, c: c})
			s.hookErr = append(s.hookErr, nil)
		}
		return
	}
	s.chunked = append(s.chunked, false)
	s.hookJobs = append(s.hookJobs, hookJob{h: hi, c: -1})
	s.hookErr = append(s.hookErr, nil)
}

// Run advances frames frames. Before each frame it checks the process's
// interrupt flag (package interrupt); when set, it returns an error
// wrapping interrupt.ErrInterrupted after the frames done so far (a frame
// is never cut short, so the states are those of a whole frame).
func (s *Sim) Run(frames int) error {
	for k := range frames {
		if interrupt.Requested() {
			return fmt.Errorf("frames: run interrupted after %d of %d frames (frame %d): %w", k, frames, s.frame, interrupt.ErrInterrupted)
		}
		if err := s.Step(); err != nil {
			return err
		}
	}
	return nil
}

// run executes job i (a pool chunk, or for i ≥ len(jobs) a hook's Read
// or a ChunkedHook's ReadChunk).
func (s *Sim) run(i int) {
	if i >= len(s.jobs) {
		k := i - len(s.jobs)
		hj := s.hookJobs[k]
		if hj.c < 0 {
			s.hookErr[k] = s.hooks[hj.h].Read(s.frame)
		} else {
			s.hookErr[k] = s.hooks[hj.h].(ChunkedHook).ReadChunk(s.frame, hj.c)
		}
		return
	}
	j := s.jobs[i]
	p := s.pools[j.pool]
	lo, hi := j.a0*p.n, j.a1*p.n
	if s.driven[j.pool] {
		return
	}
	if !s.targeted[j.pool] || !p.active(s.frame) {
		copy(s.next[j.pool][lo:hi], s.cur[j.pool][lo:hi])
		return
	}
	p.forward(s, s.tapes[j.pool], &s.e, j.a0, j.a1, s.cur[j.pool], s.next[j.pool], s.scratch[i])
}

// dispatch runs jobs [from, to) plus the hook jobs if hooks, and waits.
func (s *Sim) dispatch(idx []int, hooks bool) {
	if s.workers <= 1 || s.ch == nil {
		for _, i := range idx {
			s.run(i)
		}
		if hooks {
			for k := range s.hookJobs {
				s.run(len(s.jobs) + k)
			}
		}
		return
	}
	n := len(idx)
	if hooks {
		n += len(s.hookJobs)
	}
	s.wg.Add(n)
	if hooks {
		for k := range s.hookJobs { // hooks first: they are often the longest jobs
			s.ch <- len(s.jobs) + k
		}
	}
	for _, i := range idx {
		s.ch <- i
	}
	s.wg.Wait()
}

// Step advances one frame t → t+1 (the statestream paper, §2: read phase, then write
// phase; see doc.go).
func (s *Sim) Step() error {
	if s.closed {
		return errors.New("frames: Step after Close")
	}
	t := s.frame
	t0 := time.Now()
	s.e.cur, s.e.next, s.e.frame = s.cur, s.next, t
	for i, p := range s.pools {
		if s.targeted[i] && !s.driven[i] && p.active(t) {
			p.prepare(s, s.tapes[i], t)
		}
	}
	if s.opt.Mode == Parallel {
		s.dispatch(s.allJobs(), true)
		t1 := time.Now()
		s.stats.Read += t1.Sub(t0)
		t0 = t1
		if err := s.hookErrors(t); err != nil {
			return err
		}
		if err := s.reduceHooks(t); err != nil {
			return err
		}
		if err := s.runDrivers(t); err != nil {
			return err
		}
	} else {
		s.dispatch(nil, true) // the hooks' reads (and chunks), on the workers
		if err := s.hookErrors(t); err != nil {
			return err
		}
		if err := s.reduceHooks(t); err != nil {
			return err
		}
		if err := s.runDrivers(t); err != nil {
			return err
		}
		for _, p := range s.order {
			s.dispatch(s.poolJobs[p], false)
		}
		t1 := time.Now()
		s.stats.Read += t1.Sub(t0)
		t0 = t1
	}
	for i, h := range s.hooks {
		if err := h.Write(t); err != nil {
			return fmt.Errorf("frames: frame %d: hook %d Write: %w", t, i, err)
		}
	}
	s.cur, s.next = s.next, s.cur
	s.frame++
	s.stats.Frames++
	s.stats.Write += time.Since(t0)
	return nil
}

// Stats are counters for benchmarks.
type Stats struct {
	Frames  int // frames stepped since New (Reset does not clear it)
	Workers int // worker goroutines (1: everything on the caller's)
	Jobs    int // pool jobs per frame (pool × chunk of agents)
	// Read is the time spent computing frame t+1 (the pools' jobs and,
	// in Parallel mode, the hooks' Read; in Sequential mode also the
	// hooks' Read and the drivers); Write the rest (drivers and hooks'
	// Write in Parallel mode, hooks' Write in Sequential mode).
	Read, Write time.Duration
}

// Stats returns the counters.
func (s *Sim) Stats() Stats {
	st := s.stats
	st.Workers = max(s.workers, 1)
	st.Jobs = len(s.jobs)
	return st
}

func (s *Sim) allJobs() []int {
	if len(s.allIdx) != len(s.jobs) {
		s.allIdx = make([]int, len(s.jobs))
		for i := range s.allIdx {
			s.allIdx[i] = i
		}
	}
	return s.allIdx
}

func (s *Sim) hookErrors(t int) error {
	var first error
	for k, err := range s.hookErr {
		if err != nil && first == nil {
			hj := s.hookJobs[k]
			if hj.c < 0 {
				first = fmt.Errorf("frames: frame %d: hook %d Read: %w", t, hj.h, err)
			} else {
				first = fmt.Errorf("frames: frame %d: hook %d ReadChunk %d: %w", t, hj.h, hj.c, err)
			}
		}
		s.hookErr[k] = nil
	}
	return first
}

// reduceHooks runs the Read of every ChunkedHook, in the order added,
// after its chunks.
func (s *Sim) reduceHooks(t int) error {
	for h, ok := range s.chunked {
		if !ok {
			continue
		}
		if err := s.hooks[h].Read(t); err != nil {
			return fmt.Errorf("frames: frame %d: hook %d Read: %w", t, h, err)
		}
	}
	return nil
}

func (s *Sim) runDrivers(t int) error {
	for _, d := range s.drivers {
		for _, p := range d.inP {
			d.in[s.net.NeuronPools[p].Name] = s.cur[p]
		}
		for _, p := range d.outP {
			d.out[s.net.NeuronPools[p].Name] = s.next[p]
		}
		if err := d.d.Frame(t, d.in, d.out); err != nil {
			return fmt.Errorf("frames: frame %d: interface %q: driver Frame: %w", t, d.name, err)
		}
	}
	return nil
}
