package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
)

// engine runs a built model (sim.Graph) on a minibatch for a number of
// steps and differentiates it through time (backpropagation through time
// over the unrolled steps, the NengoDL paper, §3.3): the forward pass records what
// each operator's backward pass needs, the backward pass walks the steps
// and, within a step, the operators in reverse order.
//
// Storage is signal-major: a per-example ("lane") signal of size n holds
// batch×n values (example b at [b·n, (b+1)·n)), so the products of a
// minibatch are matrix–matrix products; read-only signals (parameters,
// constants) are stored once and shared by the batch.
//
// Gradients. grad[s] holds dLoss/d(the current value of s) while the
// backward pass runs: an operator that sets or updates s passes grad[s]
// on to what it read and zeroes it (the older value did not reach the
// loss through s); an operator that increments s passes it on and leaves
// it. Only signals that both depend on a trainable parameter and reach a
// probe with a loss get a gradient buffer.
type engine struct {
	g         *sim.Graph
	maxB      int // batch capacity
	maxT      int // steps capacity
	b         int // current batch
	t         int // steps run in the current sequence
	shared    []bool
	vals      [][]float64
	grad      [][]float64
	ops       []eop
	opTags    []string          // per engine op
	opIdx     []int             // graph op of each engine op (-1: the feed)
	active    []bool            // ops whose backward runs
	feeds     map[int][]float64 // fed signal → [b][step][dims] of the current batch
	feedSteps int
	// recorded probe samples for the current sequence: per probe
	// [b][sample][dims] flattened after the run (see probeData)
	rec     [][]float64 // per probe: [t][b][dims]
	samples [][]int     // per probe: steps (1-based) sampled
	// mode
	rates  bool // training counterparts of spiking neurons
	train  bool // layers in training mode (Dropout, BatchNorm statistics)
	record bool // keep what backward needs
	seed   uint64
	// trainable parameter signals
	trainable []bool
	// carried lane signals: read (or incremented, or partly set) before
	// they are fully set within a step, so their value at the start of a
	// step matters; the others need no initial value and their gradients
	// are zero again after every backward pass
	carried []bool
	dirty   bool // a backward pass stopped midway: clear every gradient
	noFuse  bool // engineConfig.noFuse: the operators' plain per-example paths
	// groupEnd[i] is the lane group whose last operator is i (findLaneGroups)
	groupEnd []*laneGroup
	// fwdGroupStart[i] is the forward lane group whose first operator is i
	fwdGroupStart []*laneGroup
	// block scratch storage (findScratch): scrIdxV[s] and scrIdxG[s] index
	// signal s's values and gradient among each worker's block buffers
	// scrV[w] and scrG[w] (-1: s has whole-batch storage)
	scrIdxV, scrIdxG []int
	scrV, scrG       [][][]float64
	nScrV, nScrG     int
	// gradSet[s]: dL/ds is overwritten by its one reader (findGradSets)
	gradSet []bool
	rng     *rand.Rand
}

// eop is one operator made executable on the engine.
type eop interface {
	forward(e *engine, t int) error
	backward(e *engine, t int) error
	reset(e *engine)
	// differentiable is nil, or an error wrapping errNotDiff that says why not
	differentiable() error
}

// engineConfig fixes what the engine computes.
type engineConfig struct {
	batch, steps int
	rates        bool    // swap spiking neurons for their rate counterparts
	sigma        float64 // SoftLIFRate smoothing for LIF (0: LIFRate)
	// smoothForward runs SoftLIFRate(sigma) forward too; else LIF runs as
	// LIFRate and only its derivative is smoothed
	smoothForward bool
	float32       bool // Config.Float32
	trainable     map[int]bool
	// fixed: parameters the model does not train (the values identityMuls
	// may rely on; engines are rebuilt when such values are set)
	fixed       func(s int) bool
	lossSignals []int        // signals (probes) a loss is computed on
	fed         map[int]bool // node output signals fed with data
	seed        uint64
	// noFuse keeps every operator as built and on its per-example path
	// (tests compare the engine's simplifications, aliasCopies and
	// stableAfter, its batch-wide paths and the fused LIF smoothing with it)
	noFuse bool
	// values, if non-nil, holds the shared (read-only) signals' values,
	// shared with other engines of the same model (parameters)
	values [][]float64
}

// errNotDiff marks an operator that cannot be differentiated.
var errNotDiff = errors.New("not differentiable")

func newEngine(g *sim.Graph, cfg engineConfig) (*engine, error) {
	if cfg.batch < 1 || cfg.steps < 1 {
		return nil, fmt.Errorf("train: batch %d and steps %d must be at least 1", cfg.batch, cfg.steps)
	}
	e := &engine{g: g, maxB: cfg.batch, maxT: cfg.steps, rates: cfg.rates, seed: cfg.seed, noFuse: cfg.noFuse,
		rng: rand.New(rand.NewPCG(cfg.seed, 0x7a1e))}
	ns := len(g.Signals)
	e.shared = make([]bool, ns)
	e.vals = make([][]float64, ns)
	e.grad = make([][]float64, ns)
	e.trainable = make([]bool, ns)
	for i, s := range g.Signals {
		e.shared[i] = (s.ReadOnly && !cfg.fed[i]) || i == g.Time || i == g.Step
		if e.shared[i] {
			if cfg.values != nil && cfg.values[i] != nil && !(i == g.Time || i == g.Step) {
				e.vals[i] = cfg.values[i]
			} else {
				e.vals[i] = make([]float64, s.Size)
				copy(e.vals[i], s.Init)
			}
		} else {
			e.vals[i] = make([]float64, cfg.batch*s.Size)
		}
	}
	for i := range cfg.trainable {
		if cfg.trainable[i] {
			if !e.shared[i] {
				return nil, fmt.Errorf("train: signal %s is changed while the model runs (by a learning rule) and cannot be trained", g.Signals[i].Name)
			}
			e.trainable[i] = true
		}
	}
	if len(cfg.fed) > 0 {
		e.ops = append(e.ops, &feedOp{})
		e.opTags = append(e.opTags, "data feed")
		e.opIdx = append(e.opIdx, -1)
	}
	for i := range g.Ops {
		op, err := e.compile(g.Ops[i], cfg)
		if err != nil {
			return nil, err
		}
		e.ops = append(e.ops, op)
		e.opTags = append(e.opTags, g.Ops[i].Info().Tag)
		e.opIdx = append(e.opIdx, i)
	}
	e.elideResets()
	e.findCarried(cfg)
	e.rec = make([][]float64, len(g.Probes))
	e.samples = make([][]int, len(g.Probes))
	if err := e.analyse(cfg.lossSignals); err != nil {
		return nil, err
	}
	if !cfg.noFuse {
		e.identityMuls(cfg.fixed)
		e.aliasCopies(cfg.fed)
		for k, op := range e.ops {
			if interrupt.Requested() {
				return nil, errEngineInterrupted
			}
			switch o := op.(type) {
			case *ewOp:
				o.xLive = e.stableAfter(k, o.x)
			case *dotOp:
				o.xLive = e.stableAfter(k, o.x)
				o.zero = e.zeroInput(o.x, cfg.fed)
			}
		}
		for _, pass := range []func(){e.findLaneGroups, e.findForwardGroups,
			func() { e.deferBiasCopies(cfg.fed) }, func() { e.findGradSets(cfg.fed) },
			func() { e.findScratch(cfg.fed) }} { // findScratch stops early on an interrupt
			if interrupt.Requested() {
				return nil, errEngineInterrupted
			}
			pass()
		}
		if interrupt.Requested() {
			return nil, errEngineInterrupted
		}
	}
	for s := range e.vals {
		if !e.shared[s] {
			prefault(e.vals[s])
			prefault(e.grad[s])
		}
	}
	return e, nil
}

// errEngineInterrupted: newEngine checks the interrupt flag (package
// interrupt) between its analyses and inside the slowest (O(signals ×
// operators) or O(operators²)); the half-made engine is dropped.
var errEngineInterrupted = fmt.Errorf("train: preparing the model's passes interrupted: %w", interrupt.ErrInterrupted)

// inputs and outputs of an operator, for the dependency analysis.
func opInputs(o ir.Op) []int { return o.Info().Reads }
func opOutputs(o ir.Op) []int {
	b := o.Info()
	return slices.Concat(b.Sets, b.Incs, b.Updates)
}

// propagates reports whether a value dependence flows from an
// operator's inputs to its outputs for training purposes. Learning rules
// do not pass gradients (as in NengoDL, the weights they change are not
// trained), nor does time.
func propagates(o ir.Op) bool {
	switch o.(type) {
	case *ir.TimeUpdate, *ir.SimBCM, *ir.SimOja, *ir.SimVoja, *ir.SimRLS, *ir.SimPES, *ir.Reset:
		return false
	}
	return true
}

// analyse finds the signals that need gradients: those that depend on a
// trainable parameter (forward closure over the operators, through time)
// and reach a signal with a loss (backward closure). An operator on such a
// path that cannot be differentiated is an error.
func (e *engine) analyse(lossSigs []int) error {
	g := e.g
	ns := len(g.Signals)
	fwd := e.reach(slices.Clone(e.trainable), opInputs, opOutputs)
	back := make([]bool, ns)
	for _, s := range lossSigs {
		back[s] = true
	}
	back = e.reach(back, opOutputs, opInputs)
	for s := range ns {
		if fwd[s] && back[s] {
			if e.shared[s] {
				e.grad[s] = make([]float64, g.Signals[s].Size)
			} else {
				e.grad[s] = make([]float64, e.maxB*g.Signals[s].Size)
			}
		}
	}
	e.active = make([]bool, len(e.ops))
	for i, gi := range e.opIdx {
		if gi < 0 {
			continue
		}
		o := g.Ops[gi]
		for _, s := range opOutputs(o) {
			if e.grad[s] != nil && !e.shared[s] {
				e.active[i] = true
			}
		}
		if !e.active[i] || !propagates(o) {
			continue
		}
		// an input on the path: the operator must be differentiable
		for _, s := range opInputs(o) {
			if e.grad[s] == nil {
				continue
			}
			if err := e.ops[i].differentiable(); err != nil {
				return fmt.Errorf("train: %s (%s) is on the path from a trainable parameter to a probe with a loss and %w; "+
					"make the parameters before it untrainable (Trainable) or remove the loss", o.Info().Tag, o.Kind(), err)
			}
			break
		}
	}
	return nil
}

// reach closes the marked signals over the operators that pass values
// on (propagates), through time: when any of an operator's from-signals
// is marked, its to-signals become marked, until nothing changes.
// Forward (inputs → outputs) it finds what depends on a parameter;
// backward (outputs → inputs) what a loss depends on.
func (e *engine) reach(marked []bool, from, to func(ir.Op) []int) []bool {
	for changed := true; changed; {
		changed = false
		for i := range e.g.Ops {
			o := e.g.Ops[i]
			if !propagates(o) || !slices.ContainsFunc(from(o), func(s int) bool { return marked[s] }) {
				continue
			}
			for _, s := range to(o) {
				if !marked[s] {
					marked[s], changed = true, true
				}
			}
		}
	}
	return marked
}

// size of signal s for one example
func (e *engine) size(s int) int { return e.g.Signals[s].Size }

// lane returns example b's values of signal s (the shared copy for a
// shared signal).
func (e *engine) lane(s, b int) []float64 {
	if e.shared[s] {
		return e.vals[s]
	}
	n := e.g.Signals[s].Size
	return e.vals[s][b*n : (b+1)*n]
}

// batchVals returns the current batch's values of a lane signal.
func (e *engine) batchVals(s int) []float64 {
	return e.vals[s][:e.b*e.size(s)]
}

func (e *engine) batchGrad(s int) []float64 {
	if e.grad[s] == nil {
		return nil
	}
	if e.shared[s] {
		return e.grad[s]
	}
	return e.grad[s][:e.b*e.size(s)]
}

// start resets the state for a new sequence of batch b.
func (e *engine) start(b int, record, train bool) error {
	if b < 1 || b > e.maxB {
		return fmt.Errorf("train: batch of %d examples, the engine holds 1 to %d", b, e.maxB)
	}
	e.b, e.t, e.record, e.train = b, 0, record, train
	for s, sg := range e.g.Signals {
		if e.shared[s] {
			if s == e.g.Time || s == e.g.Step {
				clear(e.vals[s])
			}
			continue
		}
		if !e.carried[s] {
			continue
		}
		v := e.vals[s]
		if sg.Init == nil {
			clear(v)
		} else {
			for k := range b {
				copy(v[k*sg.Size:(k+1)*sg.Size], sg.Init)
			}
		}
	}
	for _, op := range e.ops {
		op.reset(e)
	}
	for i := range e.rec {
		e.rec[i] = e.rec[i][:0]
		e.samples[i] = e.samples[i][:0]
	}
	return nil
}

// step runs one forward step (t counts from 1) and records the probes.
func (e *engine) step() error {
	if e.t >= e.maxT {
		return fmt.Errorf("train: more than %d steps in one sequence", e.maxT)
	}
	e.t++
	t := e.t
	for i := 0; i < len(e.ops); i++ {
		if e.fwdGroupStart != nil && e.fwdGroupStart[i] != nil {
			g := e.fwdGroupStart[i]
			if err := e.runForwardGroup(g, t); err != nil {
				return fmt.Errorf("train: step %d: %s … %s: %w", t, e.opTags[g.first], e.opTags[g.last], err)
			}
			i = g.last
			continue
		}
		vec.ClearUpper() // see sweep
		if err := e.ops[i].forward(e, t); err != nil {
			return fmt.Errorf("train: step %d: %s: %w", t, e.opTags[i], err)
		}
	}
	for i, p := range e.g.Probes {
		if p.Period != 1 && math.Mod(float64(t), p.Period) >= 1 {
			continue
		}
		e.samples[i] = append(e.samples[i], t)
		n := e.size(p.Signal)
		for b := range e.b {
			src := e.lane(p.Signal, b)
			if p.Idx == nil {
				e.rec[i] = append(e.rec[i], src[:n]...)
			} else {
				for _, k := range p.Idx {
					e.rec[i] = append(e.rec[i], src[k])
				}
			}
		}
	}
	return nil
}

// probeData returns probe i's samples as [b][sample][dims] flattened.
func (e *engine) probeData(i int, dst []float64) []float64 {
	p := e.g.Probes[i]
	ns, d := len(e.samples[i]), p.Dims
	dst = slices.Grow(dst[:0], e.b*ns*d)[:e.b*ns*d]
	for k := range ns {
		for b := range e.b {
			copy(dst[(b*ns+k)*d:(b*ns+k+1)*d], e.rec[i][(k*e.b+b)*d:(k*e.b+b+1)*d])
		}
	}
	return dst
}

// zeroGrads clears the gradients a backward pass accumulates into:
// parameters and carried signals (every buffer after an interrupted pass).
func (e *engine) zeroGrads() {
	for s, g := range e.grad {
		if e.dirty || e.shared[s] || e.carried[s] {
			clear(g)
		}
	}
	e.dirty = false
}

// elideResets turns "Reset y to 0, then y += …" into "y = …" when the
// first operator after the Reset that touches y increments all of it
// (the simulator's optimiser does the same, package sim/opt): one pass over y
// instead of two, forward and backward.
func (e *engine) elideResets() {
	for i, op := range e.ops {
		r, ok := op.(*resetOp)
		if !ok || r.v != 0 || e.shared[r.y] {
			continue
		}
		for k := i + 1; k < len(e.ops); k++ {
			gi := e.opIdx[k]
			if gi < 0 {
				continue
			}
			o := e.g.Ops[gi].Info()
			if !slices.Contains(o.Reads, r.y) && !slices.Contains(o.Incs, r.y) && !slices.Contains(o.Sets, r.y) && !slices.Contains(o.Updates, r.y) {
				continue
			}
			if !slices.Contains(o.Reads, r.y) && len(o.Incs) == 1 && o.Incs[0] == r.y {
				switch n := e.ops[k].(type) {
				case *ewOp:
					if n.x != r.y && n.a != r.y {
						n.set, r.skip = true, true
					}
				case *dotOp:
					if n.x != r.y && n.a != r.y {
						n.set, r.skip = true, true
					}
				case *copyOp:
					if n.inc && n.yi == nil && n.x != r.y {
						n.inc, r.skip = false, true
					}
				}
			}
			break
		}
	}
}

// findCarried marks the lane signals whose first access in a step is not
// a full overwrite (see carried).
func (e *engine) findCarried(cfg engineConfig) {
	g := e.g
	e.carried = make([]bool, len(g.Signals))
	touched := make([]bool, len(g.Signals))
	read := func(s int) {
		if s >= 0 && !touched[s] {
			e.carried[s], touched[s] = true, true
		}
	}
	set := func(s int) {
		if s >= 0 {
			touched[s] = true
		}
	}
	for s := range cfg.fed {
		set(s)
	}
	for i := range g.Ops {
		op := g.Ops[i]
		o := op.Info()
		for _, s := range o.Reads {
			read(s)
		}
		for _, s := range o.Incs {
			read(s)
		}
		if k := slices.Index(e.opIdx, i); k >= 0 {
			if n, ok := e.ops[k].(*neuronsOp); ok {
				for _, s := range n.state {
					read(s) // neuron state: Nengo lists it as set, the step reads it
				}
			}
		}
		full := map[int]bool{}
		var state []int
		switch x := op.(type) {
		case *ir.Reset:
			full[x.Y] = true
		case *ir.SimLayer:
			full[x.Y] = true
		case *ir.SimNodeFunc:
			full[x.Y] = true
		case *ir.SimPES:
			full[x.Delta] = true
		case *ir.SimNeurons:
			full[x.Out] = true
			state = x.State
		case *ir.Copy:
			full[x.Y] = !x.Inc && x.YIdx == nil
		case *ir.SimProcess:
			full[x.Y] = !x.Inc
		case *ir.SimSynapse:
			full[x.Y] = true
		}
		for _, s := range slices.Concat(o.Sets, o.Updates) {
			if slices.Contains(state, s) {
				continue // handled above (a rate counterpart has no state)
			}
			if full[s] {
				set(s)
			} else {
				read(s)
			}
		}
	}
	for _, p := range g.Probes {
		if !touched[p.Signal] {
			e.carried[p.Signal] = true // recorded as it was initialised
		}
	}
}

// backward runs backpropagation through the steps of the last sequence;
// dProbe[i] (nil: no loss) is dLoss/d(probe i's samples), [b][sample][dims].
// Parameter gradients accumulate in grad.
func (e *engine) backward(dProbe [][]float64) error {
	if !e.record {
		return errors.New("train: backward after a forward pass that did not record")
	}
	e.dirty = true
	pos := make([]int, len(e.g.Probes))
	for i := range pos {
		pos[i] = len(e.samples[i]) - 1
	}
	for t := e.t; t >= 1; t-- {
		if interrupt.Requested() {
			// e.dirty stays set: the next zeroGrads clears every gradient
			return fmt.Errorf("train: backward pass interrupted at step %d: %w", t, interrupt.ErrInterrupted)
		}
		for i, p := range e.g.Probes {
			if dProbe[i] == nil || pos[i] < 0 || e.samples[i][pos[i]] != t || e.grad[p.Signal] == nil {
				continue
			}
			k, ns, d := pos[i], len(e.samples[i]), p.Dims
			n := e.size(p.Signal)
			gs := e.grad[p.Signal]
			for b := range e.b {
				src := dProbe[i][(b*ns+k)*d : (b*ns+k+1)*d]
				dst := gs[b*n : (b+1)*n]
				if p.Idx == nil {
					for j, v := range src {
						dst[j] += v
					}
				} else {
					for j, idx := range p.Idx {
						dst[idx] += src[j]
					}
				}
			}
		}
		for i := range pos {
			if pos[i] >= 0 && e.samples[i][pos[i]] == t {
				pos[i]--
			}
		}
		for i := len(e.ops) - 1; i >= 0; i-- {
			if !e.active[i] {
				continue
			}
			if e.groupEnd != nil && e.groupEnd[i] != nil {
				g := e.groupEnd[i]
				e.runGroup(g, t)
				i = g.first
				continue
			}
			vec.ClearUpper()
			if err := e.ops[i].backward(e, t); err != nil {
				return fmt.Errorf("train: backward, step %d: %s: %w", t, e.opTags[i], err)
			}
		}
	}
	e.dirty = false
	return nil
}

// feedNode sets node data: data is [b][step][dims] for the current batch,
// steps at least the sequence length.
func (e *engine) feedNode(n *toolkit.Node, data []float64, steps int) error {
	s, ok := e.g.NodeOutputs[n]
	if !ok {
		return fmt.Errorf("train: node %q cannot be fed (it has no output signal)", n.Label)
	}
	if e.shared[s] {
		return fmt.Errorf("train: node %q was not declared as fed when the engine was made", n.Label)
	}
	if e.feeds == nil {
		e.feeds = map[int][]float64{}
	}
	d := e.size(s)
	if len(data) != e.b*steps*d {
		return fmt.Errorf("train: data for node %q: %d values, want batch %d × steps %d × dims %d", n.Label, len(data), e.b, steps, d)
	}
	e.feeds[s], e.feedSteps = data, steps
	return nil
}

// prefault writes v's zeros to every page of it, so that the operating
// system backs it with its own pages now: a buffer whose first access is
// a read is otherwise mapped to the shared zero page and faults again on
// its first write (a copy-on-write fault and a TLB shootdown on every
// core running the process), in the middle of the first minibatch.
func prefault(v []float64) []float64 {
	const perPage = 4096 / 8
	for i := 0; i < len(v); i += perPage {
		v[i] = 0
	}
	return v
}
