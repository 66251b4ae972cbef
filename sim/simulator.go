package sim

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
)

// Simulator runs a built Model on the CPU with Nengo's reference-simulator
// semantics: each Step runs every operator once in dependency order, then
// records the probes. Time after k steps is k·dt; the first step computes
// the state at t = dt. Every filtered connection delays by one step.
//
// With Batch(n) it runs n independent copies (lanes) of the model; Data
// returns lane 0 and DataBatch all lanes as [batch][samples][dims].
type Simulator struct {
	model   *Model
	lanes   []*lane
	mu      sync.Mutex // guards err (operators on parallel lanes fail concurrently)
	err     error
	failed  atomic.Bool
	closed  bool
	workers int       // goroutines that step lanes in RunSteps (see Parallel)
	parts   [][]*lane // lanes of each worker
	splitOK bool      // large operators may be cut across cores (one lane)
	octets  int       // ensemble octets packed (pack.go; tests)
	// aligned weight copies (dedup.go) made while compiling
	aligned      map[[3]int][]float64
	alignedBy    map[uint64][][]float64 // the copies by content (contentKey)
	alignedBytes int
	batch        int       // lanes (known before the operators are compiled)
	unroll       int       // steps per dispatch (Unroll)
	flat         []func()  // one lane, Unroll > 1: the operators of unroll steps, each followed by its probe recording
	img          []float64 // every signal's initial value (while compiling; dedup.go)
	dedups       map[[3]int]*rowDedup
	packs        map[*group]*packed // pack.go
	// signals an operator writes (sorted by offset) and the contiguous
	// runs of the store they cover, scanned for NaN after each step
	check     []int
	checkRuns []run
	// ownCheck: signals whose writer checks them for NaNs (selfChecked)
	ownCheck  map[int]bool
	mm        MatMulHook // Hooks
	layerHook LayerHook
	// Progress, if set, is called by Run and RunSteps after every step
	// with the number of steps done and the total.
	Progress func(done, total int)
}

// lane is one member of a minibatch: its own store, operators and probes.
type lane struct {
	index   int
	data    []float64 // the store (with Float32: the float64 shadow, authoritative for step and time)
	d32     []float32 // the float32 store (Float32 only)
	runners []runner
	probes  []probeBuf // per probe: flat [samples][dims], in blocks
	// scratch lists of dotLanes when the lane is the first of a worker's
	// lanes (capacity: the batch)
	xs, outs [][]float64
}

// New builds net (see Build) and returns a simulator for it.
func New(net *toolkit.Network, opts ...Option) (*Simulator, error) {
	m, err := Build(net, opts...)
	if err != nil {
		return nil, err
	}
	return NewFromModel(m, opts...)
}

// NewFromModel returns a simulator for an already built model; the
// options Batch and Feed apply here.
func NewFromModel(m *Model, opts ...Option) (*Simulator, error) {
	if m == nil {
		return nil, errors.New("sim: NewFromModel: model is nil")
	}
	cfg := config{batch: 1}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.batch < 1 {
		return nil, fmt.Errorf("sim: Batch = %d: must be at least 1", cfg.batch)
	}
	if cfg.f32 && (cfg.mm != nil || cfg.layerHook != nil) {
		return nil, errHooksF32
	}
	s := &Simulator{model: m, splitOK: cfg.batch == 1 && cfg.parallel != 1, batch: cfg.batch, mm: cfg.mm, layerHook: cfg.layerHook}
	fed := map[*toolkit.Node]bool{}
	for node, data := range cfg.feeds {
		var sig = -1
		for _, no := range m.nodeOut {
			if no.node == node {
				sig = no.sig
			}
		}
		if sig < 0 {
			return nil, fmt.Errorf("sim: Feed: node %q is not in the model or has no output", nodeLabel(node))
		}
		if len(data) != cfg.batch {
			return nil, fmt.Errorf("sim: Feed: node %q: data has batch size %d, want %d (Batch)", node.Label, len(data), cfg.batch)
		}
		for b, steps := range data {
			for k, row := range steps {
				if len(row) != node.SizeOut {
					return nil, fmt.Errorf("sim: Feed: node %q: data[%d][%d] has %d values, want SizeOut = %d", node.Label, b, k, len(row), node.SizeOut)
				}
				for i, v := range row {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return nil, fmt.Errorf("sim: Feed: node %q: data[%d][%d][%d] = %v: must be finite", node.Label, b, k, i, v)
					}
				}
			}
		}
		fed[node] = true
	}
	for b := range cfg.batch {
		ln := &lane{index: b, probes: make([]probeBuf, len(m.Probes))}
		if cfg.store != nil {
			ln.data = cfg.store(m.size)
			if len(ln.data) != m.size {
				return nil, fmt.Errorf("sim: Store: the function returned %d values for lane %d, want %d", len(ln.data), b, m.size)
			}
		} else {
			ln.data = make([]float64, m.size)
		}
		if cfg.f32 {
			ln.d32 = make([]float32, m.size)
		}
		for node, data := range cfg.feeds {
			r := s.feedRunner(ln, node, data[b])
			if cfg.f32 {
				for _, no := range m.nodeOut {
					if no.node == node {
						r = s.bridge(ln, r, []ir.Op{&ir.Reset{Base: ir.Base{Sets: []int{no.sig}}}})
					}
				}
			}
			ln.runners = append(ln.runners, r)
		}
		for _, g := range m.execGroups() {
			if n := nodeOf(g.ops[0]); len(g.ops) == 1 && n != nil && fed[n] {
				continue
			}
			var r runner
			var err error
			if cfg.f32 {
				r, err = g.compile32(s, ln)
			} else {
				r, err = g.compile(s, ln)
			}
			if err != nil {
				return nil, err
			}
			ln.runners = append(ln.runners, r)
		}
		s.lanes = append(s.lanes, ln)
	}
	s.workers = min(cfg.parallel, len(s.lanes))
	if cfg.parallel == 0 {
		s.workers = min(runtime.GOMAXPROCS(0), len(s.lanes))
	}
	for _, g := range m.execGroups() {
		for _, op := range g.ops {
			if _, ok := op.(*ir.SimNodeFunc); ok && !(nodeOf(op) != nil && fed[nodeOf(op)]) {
				s.workers = 1 // user functions are never called concurrently
			}
			if _, ok := op.(*ir.SimCallback); ok {
				s.workers = 1
			}
		}
	}
	for _, ln := range s.lanes {
		ln.xs, ln.outs = make([][]float64, 0, len(s.lanes)), make([][]float64, 0, len(s.lanes))
	}
	if s.workers > 1 {
		s.parts = make([][]*lane, s.workers)
		for i, ln := range s.lanes {
			s.parts[i%s.workers] = append(s.parts[i%s.workers], ln)
		}
	}
	if m.CheckNaN {
		s.nanRuns()
	}
	s.img, s.dedups, s.packs, s.aligned, s.alignedBy = nil, nil, nil, nil, nil // only needed while compiling
	s.unroll = max(cfg.unroll, 1)
	if s.unroll > 1 && len(s.lanes) == 1 {
		ln := s.lanes[0]
		finish := func() {
			if err := s.finishLane(ln); err != nil {
				s.fail(err)
			}
		}
		for range s.unroll {
			for _, r := range ln.runners {
				s.flat = append(s.flat, r.step)
			}
			s.flat = append(s.flat, finish)
		}
	}
	s.Reset()
	return s, nil
}

// Signal returns signal id (an index of Model.Graph().Signals) of lane
// lane as a slice of the simulator's store: reading it gives the signal's
// current value, and writing it changes the simulation. It is nil if id
// or lane is out of range.
func (s *Simulator) Signal(lane, id int) []float64 {
	if lane < 0 || lane >= len(s.lanes) || id < 0 || id >= len(s.model.sigs) {
		return nil
	}
	return s.view(s.lanes[lane], id)
}

// nodeOf returns the node whose output op computes (nil if none).
func nodeOf(op ir.Op) *toolkit.Node {
	switch o := op.(type) {
	case *ir.SimNodeFunc:
		return o.Node
	case *ir.SimProcess:
		return o.Node
	}
	return nil
}

// PanicError is the error of a run stopped by a panic in user code: a
// node's function, a connection's function, a process or a layer. The
// simulator keeps the time, steps and probe data of the last completed
// step and returns this error until Reset.
type PanicError struct {
	Object string  // the operator's object, e.g. `Node "stim"`
	Step   int     // the step that failed (from 1)
	Time   float64 // its time, Step·dt
	Value  any     // the panic value
	Stack  []byte  // the goroutine's stack at the panic
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("sim: %s panicked at step %d (t = %g s): %v", e.Object, e.Step, e.Time, e.Value)
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

func nodeLabel(n *toolkit.Node) string {
	if n == nil {
		return "<nil>"
	}
	return n.Label
}

// feedRunner writes data[k] into the node's output at step k (0-based).
func (s *Simulator) feedRunner(ln *lane, node *toolkit.Node, data [][]float64) runner {
	var g signal
	for _, no := range s.model.nodeOut {
		if no.node == node {
			g = s.model.sigs[no.sig]
		}
	}
	out := ln.data[g.off : g.off+g.n]
	st := s.model.sigs[s.model.stepSig]
	return runner{step: func() {
		k := int(ln.data[st.off]) // steps done before this one
		if k >= len(data) {
			s.fail(fmt.Errorf("sim: Feed: node %q: data has %d steps; cannot run step %d", node.Label, len(data), k+1))
			return
		}
		copy(out, data[k])
	}}
}

func (s *Simulator) fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
	s.failed.Store(true)
}

func (s *Simulator) firstErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Model returns the simulator's model.
func (s *Simulator) Model() *Model { return s.model }

// Dt returns the time step in seconds.
func (s *Simulator) Dt() float64 { return s.model.Dt }

// BatchSize returns the number of lanes (Batch option).
func (s *Simulator) BatchSize() int { return len(s.lanes) }

// Time returns the simulated time in seconds (steps·dt).
func (s *Simulator) Time() float64 { return s.lanes[0].data[s.model.sigs[s.model.timeSig].off] }

// Steps returns the number of steps taken since the last Reset.
func (s *Simulator) Steps() int { return int(s.lanes[0].data[s.model.sigs[s.model.stepSig].off]) }

// Reset restores every signal and operator state to its initial value
// and clears the probe data.
func (s *Simulator) Reset() {
	s.SoftReset(true)
	s.mu.Lock()
	s.err = nil
	s.mu.Unlock()
	s.failed.Store(false)
}

// SoftReset restores signals and operator state to their initial values;
// probe data is cleared only if clearProbes is set (NengoDL's soft_reset).
// The time restarts at 0.
func (s *Simulator) SoftReset(clearProbes bool) {
	for _, ln := range s.lanes {
		clear(ln.data)
		for _, g := range s.model.sigs {
			if g.init != nil {
				copy(ln.data[g.off:g.off+g.n], g.init)
			}
		}
		if ln.d32 != nil {
			for i, v := range ln.data {
				ln.d32[i] = float32(v)
			}
		}
		for _, r := range ln.runners {
			if r.reset != nil {
				r.reset()
			}
		}
		if clearProbes {
			for i := range ln.probes {
				ln.probes[i].clear()
			}
		}
	}
}

// ClearProbes discards the probe data recorded so far (Nengo's
// clear_probes); the simulation goes on from where it is.
func (s *Simulator) ClearProbes() {
	for _, ln := range s.lanes {
		for i := range ln.probes {
			ln.probes[i].clear()
		}
	}
}

// Step advances the simulation by one time step.
func (s *Simulator) Step() error {
	if s.closed {
		return errors.New("sim: Step: simulator is closed")
	}
	if s.failed.Load() {
		return s.firstErr()
	}
	return s.stepLanes(s.lanes)
}

// stepLanes runs one step of the given lanes in lockstep, operator by
// operator (and, for operators cut into chunks, chunk by chunk), each for
// every lane before the next, so an operator's weights are read from
// memory once and from the cache by the other lanes; then it records
// their probes. Lanes are independent, so the result is the same as
// stepping them one after the other. It touches only the lanes' own
// stores, runners and probe buffers, so disjoint sets of lanes can step
// on different goroutines.
func (s *Simulator) stepLanes(lns []*lane) error {
	if len(lns) == 1 {
		return s.stepLane(lns[0])
	}
	for gi, r := range lns[0].runners {
		if r.dot != nil {
			dotLanes(lns, gi)
			continue
		}
		if r.ens != nil {
			ensLanes(lns, gi)
			continue
		}
		if len(r.chunks) == 0 {
			for _, ln := range lns {
				vec.ClearUpper() // see stepLane
				ln.runners[gi].step()
			}
			continue
		}
		for c := range r.chunks {
			for _, ln := range lns {
				vec.ClearUpper()
				if cs := ln.runners[gi].chunks; len(cs) == len(r.chunks) {
					cs[c]()
				} else if c == 0 {
					ln.runners[gi].step()
				}
			}
		}
	}
	var err error
	for _, ln := range lns {
		if e := s.finishLane(ln); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// stepLane runs one step of one lane and records its probes.
func (s *Simulator) stepLane(ln *lane) error {
	for _, r := range ln.runners {
		// VZEROUPPER: a goroutine preempted around vector code can
		// resume with dirty upper vector halves, slowing every SSE scalar
		// instruction until the next one (see vec.ClearUpper)
		vec.ClearUpper()
		r.step()
	}
	return s.finishLane(ln)
}

// finishLane checks a stepped lane for NaNs and records its probes.
func (s *Simulator) finishLane(ln *lane) error {
	if s.check != nil && !s.failed.Load() {
		if err := s.checkNaN(ln); err != nil {
			s.fail(err)
		}
	}
	if s.failed.Load() {
		// the step did not complete: time and step go back to the last
		// completed one, whose probe data is the last recorded
		st := &ln.data[s.model.sigs[s.model.stepSig].off]
		if *st > 0 {
			*st--
		}
		ln.data[s.model.sigs[s.model.timeSig].off] = *st * s.model.Dt
		return s.firstErr()
	}
	step := ln.data[s.model.sigs[s.model.stepSig].off]
	for i, p := range s.model.Probes {
		if p.Period == 1 || math.Mod(step, p.Period) < 1 {
			g := s.model.sigs[p.sig]
			if ln.d32 != nil && p.sig != s.model.timeSig && p.sig != s.model.stepSig {
				v := ln.d32[g.off : g.off+g.n]
				if p.idx == nil {
					dst := ln.probes[i].next(len(v))
					for j, x := range v {
						dst[j] = float64(x)
					}
				} else {
					dst := ln.probes[i].next(len(p.idx))
					for j, k := range p.idx {
						dst[j] = float64(v[k])
					}
				}
				continue
			}
			v := ln.data[g.off : g.off+g.n]
			if p.idx == nil {
				copy(ln.probes[i].next(len(v)), v)
			} else {
				dst := ln.probes[i].next(len(p.idx))
				for j, k := range p.idx {
					dst[j] = v[k]
				}
			}
		}
	}
	return nil
}

// checkNaN returns an error naming the first signal holding a NaN.
func (s *Simulator) checkNaN(ln *lane) error {
	at := -1
	for _, r := range s.checkRuns {
		if ln.d32 != nil {
			for i, v := range ln.d32[r.d : r.d+r.n] {
				if v != v {
					at = r.d + i
					break
				}
			}
		} else if i := vec.FirstNaN(ln.data[r.d : r.d+r.n]); i >= 0 {
			at = r.d + i
		}
		if at >= 0 {
			break
		}
	}
	if at < 0 {
		return nil
	}
	// the signal holding the NaN (s.check is sorted by offset)
	k := sort.Search(len(s.check), func(k int) bool {
		g := s.model.sigs[s.check[k]]
		return g.off+g.n > at
	})
	id := s.check[min(k, len(s.check)-1)]
	return s.nanError(ln, id, at-s.model.sigs[id].off)
}

// nanError is the error for a NaN at element i of signal id in lane ln
// at its current step.
func (s *Simulator) nanError(ln *lane, id, i int) error {
	g := s.model.sigs[id]
	step := ln.data[s.model.sigs[s.model.stepSig].off]
	return fmt.Errorf("sim: NaN in signal %q[%d] (%s) at step %d (t = %g s, batch %d); switch the check off with sim.CheckNaN(false)",
		g.name, i, g.owner, int(step), step*s.model.Dt, ln.index)
}

// selfChecked marks signal id as checked for NaNs by the operator that
// writes it, in its own pass: the step's check leaves it out.
func (s *Simulator) selfChecked(id int) {
	if s.ownCheck == nil {
		s.ownCheck = map[int]bool{}
	}
	s.ownCheck[id] = true
}

// nanRuns lists the signals the NaN check scans: those an operator sets,
// increments or updates (a signal nothing writes keeps its initial value,
// and a NaN there reaches a written signal as soon as it is read) and
// that an operator reads, a probe records or a feed writes (a NaN in a
// signal nothing reads or records cannot reach any result), in
// contiguous runs of the store. Scanning every writable signal, most of
// which the optimizer leaves unused, cost 27–137 µs per step on the
// benchmark models at D = 192 (steps of 3–15 µs).
func (s *Simulator) nanRuns() {
	m := s.model
	written, seen := make([]bool, len(m.sigs)), make([]bool, len(m.sigs))
	for _, g := range m.execGroups() {
		for _, op := range g.ops {
			for _, ids := range [][]int{op.Info().Sets, op.Info().Incs, op.Info().Updates} {
				for _, id := range ids {
					written[id] = true
				}
			}
			for _, id := range op.Info().Reads {
				seen[id] = true
			}
		}
	}
	for _, p := range m.Probes {
		seen[p.sig] = true
	}
	for _, no := range m.nodeOut {
		seen[no.sig] = true
	}
	for i, g := range m.sigs {
		if written[i] && seen[i] && !g.readonly && g.n > 0 && !s.ownCheck[i] {
			s.check = append(s.check, i)
		}
	}
	slices.SortFunc(s.check, func(a, b int) int { return m.sigs[a].off - m.sigs[b].off })
	for _, id := range s.check {
		g := m.sigs[id]
		if n := len(s.checkRuns); n > 0 && s.checkRuns[n-1].d+s.checkRuns[n-1].n >= g.off {
			r := &s.checkRuns[n-1]
			r.n = max(r.n, g.off+g.n-r.d)
			continue
		}
		s.checkRuns = append(s.checkRuns, run{d: g.off, n: g.n})
	}
}

// RunSteps runs n steps.
//
// Before every step (every Unroll steps when unrolled) it checks the
// process's interrupt flag (package interrupt): when set, it returns an
// error wrapping interrupt.ErrInterrupted after the steps done so far,
// with time and probe data those of exactly these steps (every lane at the
// same step), so a later RunSteps continues from there.
func (s *Simulator) RunSteps(n int) error {
	if n < 0 {
		return fmt.Errorf("sim: RunSteps: n = %d: must be non-negative", n)
	}
	s.grow(n)
	if s.workers > 1 && n > 1 && !s.closed && !s.failed.Load() {
		return s.runParallel(n)
	}
	if s.unroll > 1 && n >= s.unroll {
		return s.runUnrolled(n)
	}
	for k := range n {
		if interrupt.Requested() {
			return s.interrupted(k, n)
		}
		if err := s.Step(); err != nil {
			return err
		}
		if s.Progress != nil {
			s.Progress(k+1, n)
		}
	}
	return nil
}

// runUnrolled runs n steps in blocks of s.unroll (the last, shorter
// block step by step).
func (s *Simulator) runUnrolled(n int) error {
	k := 0
	for ; k+s.unroll <= n; k += s.unroll {
		if s.closed {
			return errors.New("sim: RunSteps: simulator is closed")
		}
		if s.failed.Load() {
			return s.firstErr()
		}
		if interrupt.Requested() {
			return s.interrupted(k, n)
		}
		if s.flat != nil {
			// one step at a time: a failed step ends the block
			per := len(s.flat) / s.unroll
			for st := 0; st < len(s.flat) && !s.failed.Load(); st += per {
				for _, f := range s.flat[st : st+per] {
					vec.ClearUpper() // see stepLane
					f()
				}
			}
		} else {
			for range s.unroll {
				if err := s.stepLanes(s.lanes); err != nil {
					return err
				}
			}
		}
		if s.Progress != nil {
			s.Progress(k+s.unroll, n)
		}
	}
	if s.failed.Load() {
		return s.firstErr()
	}
	for ; k < n; k++ {
		if interrupt.Requested() {
			return s.interrupted(k, n)
		}
		if err := s.Step(); err != nil {
			return err
		}
		if s.Progress != nil {
			s.Progress(k+1, n)
		}
	}
	return nil
}

// interrupted returns the error of a run of n steps interrupted after
// done of them.
func (s *Simulator) interrupted(done, n int) error {
	return fmt.Errorf("sim: run interrupted after %d of %d steps (t = %g s): %w", done, n, s.Time(), interrupt.ErrInterrupted)
}

// grow reserves probe storage for n more steps, so Step does not
// allocate. Storage is in fixed blocks (probeBuf): what is recorded is
// never copied while running.
func (s *Simulator) grow(n int) {
	for _, ln := range s.lanes {
		for i, p := range s.model.Probes {
			ln.probes[i].reserve(int(float64(n)/p.Period+2), p.Dims)
		}
	}
}

// Run simulates for the given time in seconds, rounded to whole steps
// (as Nengo does: round(seconds/dt) steps).
func (s *Simulator) Run(seconds float64) error {
	if !(seconds >= 0) || math.IsInf(seconds, 1) {
		return fmt.Errorf("sim: Run: seconds = %v: must be non-negative and finite", seconds)
	}
	return s.RunSteps(int(math.Round(seconds / s.model.Dt)))
}

// Close releases the simulator; later Steps fail.
func (s *Simulator) Close() error { s.closed = true; return nil }

func (s *Simulator) probeIndex(p *toolkit.Probe) (int, error) {
	for i, info := range s.model.Probes {
		if info.Probe == p {
			return i, nil
		}
	}
	return -1, fmt.Errorf("sim: Data: probe %q is not part of this model", probeLabel(p))
}

// Data returns the recorded samples of the probe as [samples][dims]
// (batch member 0).
func (s *Simulator) Data(p *toolkit.Probe) ([][]float64, error) {
	i, err := s.probeIndex(p)
	if err != nil {
		return nil, err
	}
	return s.rows(0, i), nil
}

// DataBatch returns the probe's samples as [batch][samples][dims].
func (s *Simulator) DataBatch(p *toolkit.Probe) ([][][]float64, error) {
	i, err := s.probeIndex(p)
	if err != nil {
		return nil, err
	}
	out := make([][][]float64, len(s.lanes))
	for b := range s.lanes {
		out[b] = s.rows(b, i)
	}
	return out, nil
}

// DataByLabel returns the recorded samples of the probe with the label
// (batch member 0).
func (s *Simulator) DataByLabel(label string) ([][]float64, error) {
	for i, info := range s.model.Probes {
		if info.Label == label {
			return s.rows(0, i), nil
		}
	}
	return nil, fmt.Errorf("sim: Data: no probe labelled %q", label)
}

func probeLabel(p *toolkit.Probe) string {
	if p == nil {
		return "<nil>"
	}
	return p.Label
}

// ProbeValues returns the samples of probe i (an index of Model.Probes)
// of lane lane, flat (samples × dims), as the simulator's own slice: it
// is valid until the next run, reset or ClearProbes, which may reuse it.
// It is nil if lane or i is out of range or nothing is recorded.
func (s *Simulator) ProbeValues(lane, i int) []float64 {
	if lane < 0 || lane >= len(s.lanes) || i < 0 || i >= len(s.model.Probes) {
		return nil
	}
	return s.lanes[lane].probes[i].values()
}

// ProbeLen returns the number of values probe i of lane lane holds
// (samples × dims), or -1 if lane or i is out of range.
func (s *Simulator) ProbeLen(lane, i int) int {
	if lane < 0 || lane >= len(s.lanes) || i < 0 || i >= len(s.model.Probes) {
		return -1
	}
	return s.lanes[lane].probes[i].n
}

// CopyProbe copies the values of probe i of lane lane from offset from
// on into dst and returns how many it copied; -1 if lane, i or from is
// out of range. Unlike ProbeValues it never gathers the storage.
func (s *Simulator) CopyProbe(lane, i, from int, dst []float64) int {
	if lane < 0 || lane >= len(s.lanes) || i < 0 || i >= len(s.model.Probes) {
		return -1
	}
	p := &s.lanes[lane].probes[i]
	if from < 0 || from > p.n {
		return -1
	}
	return p.copyTo(from, dst)
}

func (s *Simulator) rows(b, i int) [][]float64 {
	d := s.model.Probes[i].Dims
	flat := s.lanes[b].probes[i].values()
	if d == 0 {
		return nil
	}
	out := make([][]float64, len(flat)/d)
	for k := range out {
		out[k] = append([]float64(nil), flat[k*d:(k+1)*d]...)
	}
	return out
}

// Trange returns the times of the probe's samples (Nengo's sim.trange).
func (s *Simulator) Trange(p *toolkit.Probe) []float64 {
	period := 1.0
	if p != nil && p.SampleEvery > 0 {
		period = p.SampleEvery / s.model.Dt
	}
	var t []float64
	for k := 1; k <= s.Steps(); k++ {
		if math.Mod(float64(k), period) < 1 {
			t = append(t, float64(k)*s.model.Dt)
		}
	}
	return t
}

// runParallel runs n steps with the lanes split over s.workers goroutines
// (this one and s.workers−1 helpers). Lanes are independent, so each
// goroutine runs its lanes through all n steps without waiting for the
// others (no per-step barrier: nothing spins, which matters on a busy
// machine). Progress is called on the caller's goroutine as its own lanes
// advance; a failure in any lane stops every goroutine at its next step,
// and the lanes are then at different steps (as after any failed run, Reset
// before running again).
//
// Each goroutine checks the interrupt flag before each step. On an
// interrupt the goroutines stop where they are, then those behind run up
// to the step of the one furthest ahead (the steps by which they drifted
// apart), so every lane ends at the same step.
func (s *Simulator) runParallel(n int) error {
	// work steps worker w's lanes from step from to step to and returns
	// the step reached; done is written once per worker, not per step
	// (the workers' entries share a cache line)
	work := func(w, from, to int, check bool) int {
		for k := from; k < to; k++ {
			if check && interrupt.Requested() {
				return k
			}
			if s.stepLanes(s.parts[w]) != nil {
				return k
			}
			if w == 0 && s.Progress != nil {
				s.Progress(k+1, n)
			}
		}
		return to
	}
	done := make([]int, s.workers) // steps done by each worker's lanes
	var wg sync.WaitGroup
	for w := 1; w < s.workers; w++ {
		wg.Go(func() { done[w] = work(w, 0, n, true) })
	}
	done[0] = work(0, 0, n, true)
	wg.Wait()
	if s.failed.Load() {
		return s.firstErr()
	}
	at := slices.Max(done)
	if at == n {
		return nil
	}
	// interrupted: bring every lane to step at
	for w := 1; w < s.workers; w++ {
		if done[w] < at {
			wg.Go(func() { work(w, done[w], at, false) })
		}
	}
	if done[0] < at {
		work(0, done[0], at, false)
	}
	wg.Wait()
	if s.failed.Load() {
		return s.firstErr()
	}
	return s.interrupted(at, n)
}
