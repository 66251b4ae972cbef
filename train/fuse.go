package train

import (
	"slices"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/sim/ir"
)

// Engine-level simplifications of the operator list, which change results
// at most by rounding (sums over examples in another fixed order): the
// simulator builds a model as Nengo does (the NengoDL paper, §3.1), one operator
// per Nengo operator, and a layer-to-neurons connection becomes several
// whole-batch passes (weights, gains, bias, neurons, a copy into the next
// layer's input). The engine removes the passes that only hand a signal
// over and runs the element-wise rest block by block, so that it stays in
// the cores' caches. TestEngineSimplifications compares every one with
// the plain engine (engineConfig.noFuse).

// touches returns the signals operator o reads and those it may write
// (any field; an operator may list a signal in both).
func touches(op ir.Op) (read, write []int) {
	add := func(dst []int, s ...int) []int {
		for _, v := range s {
			if v >= 0 {
				dst = append(dst, v)
			}
		}
		return dst
	}
	o := op.Info()
	read = add(read, o.Reads...)
	write = add(write, o.Sets...)
	write = add(write, o.Incs...)
	write = add(write, o.Updates...)
	return read, write
}

// identityMuls turns each product y (+)= a·x by a constant scalar a = 1
// that is not trained (a connection's transform 1 between a layer and
// neurons, as NeuronLayer and Layer build them) into the copy y (+)= x
// it is (NengoDL's remove_identity_muls, the NengoDL paper, §3.1): no pass forward
// or backward, and aliasCopies can then give y x's storage. Called after
// analyse (a's gradient is known not to be wanted); fixed(a) reports
// that the model does not train a (not only this engine: an inference
// engine is reused after training).
func (e *engine) identityMuls(fixed func(int) bool) {
	if fixed == nil {
		return
	}
	for k, op := range e.ops {
		o, ok := op.(*ewOp)
		if !ok || !e.shared[o.a] || e.trainable[o.a] || !fixed(o.a) || e.grad[o.a] != nil || len(e.vals[o.a]) != 1 || e.vals[o.a][0] != 1 ||
			o.x == o.y || e.shared[o.x] != e.shared[o.y] || e.size(o.x) != e.size(o.y) {
			continue
		}
		e.ops[k] = &copyOp{x: o.x, y: o.y, inc: !o.set}
	}
}

// aliasCopies turns a whole-signal copy y = x between two lane signals of
// the same size into shared storage when the copy is a mere hand-over:
// every other operator touching x runs before it, every other operator
// touching y runs after it and only reads y, and neither is carried over
// steps, fed, probed or read-only. y then is x (values and gradient
// buffer) and the copy does nothing, forward or backward: dL/dy
// accumulates where dL/dx would have received it, and x's writer clears
// it as it clears dL/dx. Called after analyse (gradient buffers exist).
func (e *engine) aliasCopies(fed map[int]bool) {
	g := e.g
	probed := map[int]bool{}
	for _, p := range g.Probes {
		probed[p.Signal] = true
	}
	type use struct {
		op    int
		write bool
	}
	uses := make([][]use, len(g.Signals))
	for k, gi := range e.opIdx {
		if gi < 0 {
			for s := range fed {
				uses[s] = append(uses[s], use{k, true})
			}
			continue
		}
		if r, ok := e.ops[k].(*resetOp); ok && r.skip {
			continue // elided: the next writer sets the signal
		}
		rd, wr := touches(g.Ops[gi])
		for _, s := range rd {
			uses[s] = append(uses[s], use{k, false})
		}
		for _, s := range wr {
			uses[s] = append(uses[s], use{k, true})
		}
	}
	plain := func(s int) bool {
		return !e.shared[s] && !e.carried[s] && !fed[s] && !probed[s]
	}
	for k, op := range e.ops {
		c, ok := op.(*copyOp)
		if !ok || c.inc || c.xi != nil || c.yi != nil || c.x == c.y || !plain(c.x) || !plain(c.y) ||
			e.size(c.x) != e.size(c.y) || (e.grad[c.x] == nil) != (e.grad[c.y] == nil) {
			continue
		}
		ok = true
		for _, u := range uses[c.x] {
			ok = ok && (u.op < k || (u.op == k && !u.write))
		}
		for _, u := range uses[c.y] {
			ok = ok && (u.op > k && !u.write || u.op == k && u.write)
		}
		if !ok {
			continue
		}
		e.vals[c.y] = e.vals[c.x]
		e.grad[c.y] = e.grad[c.x]
		c.alias = true
		// y now has x's uses too (for later copies out of y)
		uses[c.y] = append(slices.Clone(uses[c.x]), uses[c.y]...)
	}
}

// stableAfter reports whether signal s (its storage) is written by no
// operator after op k within a step: then, in a one-step engine, its
// value when the backward pass runs is the one op k read, and op k need
// not save it.
func (e *engine) stableAfter(k, s int) bool {
	if e.maxT != 1 || e.shared[s] {
		return false
	}
	buf := &e.vals[s][0]
	for j := k + 1; j < len(e.ops); j++ {
		gi := e.opIdx[j]
		if gi < 0 {
			return false
		}
		if r, ok := e.ops[j].(*resetOp); ok && r.skip {
			continue
		}
		_, wr := touches(e.g.Ops[gi])
		for _, w := range wr {
			if len(e.vals[w]) > 0 && &e.vals[w][0] == buf {
				return false
			}
		}
	}
	return true
}

// zeroInput reports whether lane signal s is 0 whenever an operator
// reads it: it is not carried over steps, fed or probed, and every
// operator writing it is a Reset to 0 (an ensemble's input signal when
// only its neurons receive connections: DotInc then adds encoders·0).
func (e *engine) zeroInput(s int, fed map[int]bool) bool {
	if e.shared[s] || e.carried[s] || fed[s] {
		return false
	}
	for _, p := range e.g.Probes {
		if p.Signal == s {
			return false
		}
	}
	writers := 0
	for k, gi := range e.opIdx {
		if gi < 0 {
			continue
		}
		_, wr := touches(e.g.Ops[gi])
		if !slices.Contains(wr, s) {
			continue
		}
		r, ok := e.ops[k].(*resetOp)
		if !ok || r.v != 0 || r.skip {
			return false
		}
		writers++
	}
	return writers > 0
}

// laneOp is an operator whose backward pass is element-wise over
// examples of n values each (with the same index in its input and output
// gradients), so it can run one block of one example at a time; a
// trained scalar's gradient is summed per example (finishLanes adds the
// sums in example order). lanes returns n, 0 for an operator that does
// nothing backward (any n), -1 when the operator does not qualify.
type laneOp interface {
	lanes(e *engine) int
	backwardBlock(e *engine, w, t, b, lo, hi int)
	finishLanes(e *engine)
}

// laneGroup is a run of consecutive operators that the backward pass
// executes block by block (laneBlock values of one example through all
// of them, examples across the cores) instead of operator by operator:
// the gradients a chain of element-wise operators hands on (a layer's
// output scaled by a connection weight, the neurons' gains and
// derivative, …) then stay in the core's cache instead of making a
// round trip to memory per operator.
type laneGroup struct {
	first, last int // engine op indices, first < last
	n           int
	// copies are broadcast copies (a bias into every example) run in
	// the group rather than at their own place (deferBiasCopies): first
	// in each forward block, last in each backward block
	copies []*copyOp
	// scratchGrads are the scratch indices of the gradients that live in
	// block buffers in this (backward) group (findScratch): cleared at the
	// start of each block
	scratchGrads []int
}

// laneParts is the fixed number of example ranges a backward group's
// sums over examples (a deferred copy's bias gradient) are split in, so
// that they do not depend on the number of cores.
const laneParts = 8

// laneBlock is the elements of one example a group runs through all of
// its operators at a time (a few arrays of it fit in a core's L2).
const laneBlock = 2048

// findLaneGroups marks the maximal runs of at least two active laneOps
// of the same n (inactive operators between them are skipped anyway).
func (e *engine) findLaneGroups() {
	e.groupEnd = make([]*laneGroup, len(e.ops))
	var cur *laneGroup
	active := 0
	flush := func() {
		if cur != nil && active >= 2 && cur.n > 0 {
			e.groupEnd[cur.last] = cur
		}
		cur, active = nil, 0
	}
	for i := len(e.ops) - 1; i >= 0; i-- {
		if !e.active[i] {
			if cur != nil {
				cur.first = i
			}
			continue
		}
		lo, ok := e.ops[i].(laneOp)
		n := -1
		if ok {
			n = lo.lanes(e)
		}
		if n < 0 || (cur != nil && n > 0 && cur.n > 0 && n != cur.n) {
			flush()
			if n < 0 {
				continue
			}
		}
		if cur == nil {
			cur = &laneGroup{first: i, last: i}
		}
		cur.first = i
		if n > 0 {
			cur.n = n
			active++
		}
	}
	flush()
}

// runGroup runs group g's backward pass at step t.
func (e *engine) runGroup(g *laneGroup, t int) {
	var ops []laneOp
	for i := g.last; i >= g.first; i-- {
		if e.active[i] {
			ops = append(ops, e.ops[i].(laneOp))
		}
	}
	n := g.n
	for _, c := range g.copies {
		clear(c.parts)
	}
	e.growScratch()
	parallelFor(laneParts, 1, func(w, plo, phi int) error {
		for p := plo; p < phi; p++ {
			for b := p * e.b / laneParts; b < (p+1)*e.b/laneParts; b++ {
				for a := 0; a < n; a += laneBlock {
					vec.ClearUpper() // see sweep
					z := min(a+laneBlock, n)
					for _, k := range g.scratchGrads {
						clear(e.scrG[w][k][:z-a])
					}
					for _, op := range ops {
						op.backwardBlock(e, w, t, b, a, z)
					}
					for _, c := range g.copies {
						c.backwardPart(e, w, p, b, a, z)
					}
				}
			}
		}
		return nil
	})
	for _, op := range ops {
		op.finishLanes(e)
	}
	for _, c := range g.copies {
		c.finishParts(e)
	}
}

// deferBiasCopies moves each broadcast copy y = x (x shared, such as an
// ensemble's bias into every example's input current) whose y every
// other operator touches only inside one forward and one backward lane
// group into those groups: forward, each block of y is set just before
// the group's operators add to it (y makes no round trip to memory
// between the copy and them); backward, dx accumulates per block while
// the group's operators leave dy in the cache (summed per laneParts
// range of examples, then over the ranges in order).
func (e *engine) deferBiasCopies(fed map[int]bool) {
	inGroup := func(j int) (fg, bg *laneGroup) {
		for _, g := range e.fwdGroupStart {
			if g != nil && g.first <= j && j <= g.last {
				fg = g
			}
		}
		for _, g := range e.groupEnd {
			if g != nil && g.first <= j && j <= g.last {
				bg = g
			}
		}
		return fg, bg
	}
	noop := func(j int) bool {
		l, ok := e.ops[j].(laneOp)
		return ok && l.lanes(e) == 0
	}
	for k, op := range e.ops {
		c, ok := op.(*copyOp)
		if !ok || c.inc || c.alias || c.xi != nil || c.yi != nil || !e.shared[c.x] || e.shared[c.y] ||
			e.size(c.x) != e.size(c.y) || e.carried[c.y] || e.opIdx[k] < 0 || e.grad[c.y] == nil || fed[c.y] {
			continue
		}
		n := e.size(c.y)
		var fg, bg *laneGroup
		ok = true
		for j, gi := range e.opIdx {
			if j == k || gi < 0 {
				continue // the feed writes fed signals only (y is not fed)
			}
			rd, wr := touches(e.g.Ops[gi])
			if !slices.Contains(rd, c.y) && !slices.Contains(wr, c.y) || noop(j) {
				continue
			}
			f, b := inGroup(j)
			if j < k || f == nil || b == nil || (fg != nil && (f != fg || b != bg)) || f.n != n || b.n != n {
				ok = false
				break
			}
			fg, bg = f, b
		}
		for _, p := range e.g.Probes {
			ok = ok && p.Signal != c.y
		}
		if !ok || fg == nil {
			continue
		}
		c.deferred = true
		c.parts = make([]float64, laneParts*n)
		fg.copies = append(fg.copies, c)
		bg.copies = append(bg.copies, c)
	}
}

// laneFwd is an operator whose forward pass is element-wise over
// examples of n values each, like laneOp's backward pass: fwdLanes
// returns n, 0 for an operator that does nothing forward, -1 when it does
// not qualify; prepareForward sets up the step's buffers before the
// blocks run (concurrently).
type laneFwd interface {
	fwdLanes(e *engine) int
	prepareForward(e *engine, t int)
	forwardBlock(e *engine, w, t, b, lo, hi int) error
}

// findForwardGroups marks the maximal runs of consecutive operators with
// at least two laneFwds of the same n doing something: the forward pass
// runs them block by block (see laneGroup).
func (e *engine) findForwardGroups() {
	e.fwdGroupStart = make([]*laneGroup, len(e.ops))
	var cur *laneGroup
	active := 0
	flush := func() {
		if cur != nil && active >= 2 && cur.n > 0 {
			e.fwdGroupStart[cur.first] = cur
		}
		cur, active = nil, 0
	}
	for i, op := range e.ops {
		lf, ok := op.(laneFwd)
		n := -1
		if ok {
			n = lf.fwdLanes(e)
		}
		if n < 0 || (cur != nil && n > 0 && cur.n > 0 && n != cur.n) {
			flush()
			if n < 0 {
				continue
			}
		}
		if cur == nil {
			cur = &laneGroup{first: i, last: i}
		}
		cur.last = i
		if n > 0 {
			cur.n = n
			active++
		}
	}
	flush()
}

// runForwardGroup runs group g's forward pass at step t.
func (e *engine) runForwardGroup(g *laneGroup, t int) error {
	var ops []laneFwd
	for i := g.first; i <= g.last; i++ {
		op := e.ops[i].(laneFwd)
		if op.fwdLanes(e) > 0 {
			op.prepareForward(e, t)
			ops = append(ops, op)
		}
	}
	n := g.n
	e.growScratch()
	return parallelFor(e.b, max(1, 16384/n), func(w, lo, hi int) error {
		for b := lo; b < hi; b++ {
			for a := 0; a < n; a += laneBlock {
				vec.ClearUpper() // see sweep
				z := min(a+laneBlock, n)
				for _, c := range g.copies {
					copy(e.vblk(c.y, w, b, a, z), e.vals[c.x][a:z])
				}
				for _, op := range ops {
					if err := op.forwardBlock(e, w, t, b, a, z); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
}

// findGradSets marks the lane signals whose gradient one operator
// overwrites instead of accumulating (gradSet): in a one-step engine, a
// signal that is not carried, fed or probed, whose gradient buffer no
// other signal shares, read by exactly one operator — an ElementwiseInc
// on its batch path, which then writes dx = a ⊙ dy — and written only by
// operators before that one (so in the backward pass the overwrite comes
// before every use). Nothing then needs to clear the gradient after its
// use: the next backward pass overwrites it before anyone reads it. This
// saves a read of dx and a pass clearing it per such signal (a layer's
// output feeding a connection, say).
func (e *engine) findGradSets(fed map[int]bool) {
	e.gradSet = make([]bool, len(e.g.Signals))
	if e.maxT != 1 {
		return
	}
	probed := map[int]bool{}
	for _, p := range e.g.Probes {
		probed[p.Signal] = true
	}
	owners := map[*float64]int{}
	for _, g := range e.grad {
		if len(g) > 0 {
			owners[&g[0]]++
		}
	}
	readers := make([][]int, len(e.g.Signals))
	lastWrite := make([]int, len(e.g.Signals))
	for i := range lastWrite {
		lastWrite[i] = -1
	}
	for k, gi := range e.opIdx {
		if gi < 0 {
			continue
		}
		rd, wr := touches(e.g.Ops[gi])
		for _, s := range rd {
			if !slices.Contains(readers[s], k) {
				readers[s] = append(readers[s], k)
			}
		}
		for _, s := range wr {
			lastWrite[s] = max(lastWrite[s], k)
		}
	}
	for s, g := range e.grad {
		if len(g) == 0 || e.shared[s] || e.carried[s] || fed[s] || probed[s] || owners[&g[0]] != 1 || len(readers[s]) != 1 {
			continue
		}
		k := readers[s][0]
		o, ok := e.ops[k].(*ewOp)
		if !ok || o.x != s || o.a == s || o.y == s || !e.active[k] || o.lanes(e) <= 0 || lastWrite[s] >= k {
			continue
		}
		e.gradSet[s] = true
	}
}

// clearGrad clears a used gradient unless it is overwritten before its
// next use (gradSet).
func (e *engine) clearGrad(s int, g []float64) {
	if e.gradSet == nil || !e.gradSet[s] {
		clear(g)
	}
}
