package train

import (
	"runtime"
	"slices"

	"github.com/neurogo/neurogo/interrupt"
)

// Block scratch storage. A lane group runs its operators one block of
// one example at a time (laneGroup), so the signals handed from operator
// to operator inside it stay in the cache; but each still has a buffer
// for the whole batch, and every block written to it is written back to
// memory and read again on its next use (a read for ownership and a
// write-back per cache line). For the input current J of a neuron layer
// between the bias, the gains and the neurons — and its gradient, between
// the neurons' derivative and the gains — that is 32 bytes per neuron and
// example of memory traffic that carries nothing anyone reads later.
//
// findScratch gives such signals, whose every use is inside one forward
// group (values) or one backward group (gradient), a buffer of one block
// per worker instead: the group's operators reach them through vblk and
// gblk. TestScratchSignals compares the engine with and without them.

// scratchMarker is the (empty, non-nil) slice that stands for a signal's
// values or gradient held in block buffers: e.grad[s] != nil still says
// that the gradient is wanted.
var scratchMarker = make([]float64, 0)

// vblk returns elements [lo, hi) of example b of signal s's values as
// worker w of a lane group sees them.
func (e *engine) vblk(s, w, b, lo, hi int) []float64 {
	if e.scrV != nil {
		if k := e.scrIdxV[s]; k >= 0 {
			return e.scrV[w][k][:hi-lo]
		}
	}
	n := e.size(s)
	return e.vals[s][b*n+lo : b*n+hi]
}

// gblk is vblk for the gradient of s.
func (e *engine) gblk(s, w, b, lo, hi int) []float64 {
	if e.scrG != nil {
		if k := e.scrIdxG[s]; k >= 0 {
			return e.scrG[w][k][:hi-lo]
		}
	}
	n := e.size(s)
	return e.grad[s][b*n+lo : b*n+hi]
}

// growScratch makes block buffers for every worker a lane group may run
// on (GOMAXPROCS may have grown since the engine was built).
func (e *engine) growScratch() {
	w := runtime.GOMAXPROCS(0)
	for len(e.scrV) < w && e.nScrV > 0 {
		bufs := make([][]float64, e.nScrV)
		for k := range bufs {
			bufs[k] = make([]float64, laneBlock)
		}
		e.scrV = append(e.scrV, bufs)
	}
	for len(e.scrG) < w && e.nScrG > 0 {
		bufs := make([][]float64, e.nScrG)
		for k := range bufs {
			bufs[k] = make([]float64, laneBlock)
		}
		e.scrG = append(e.scrG, bufs)
	}
}

// findScratch picks the scratch signals (see above): lane signals that
// are not carried over steps, fed, probed or sharing storage with
// another signal, whose every operator (other than those that do
// nothing) is in one forward group and — if its gradient is wanted — in
// one backward group, and whose values no backward pass reads (an
// element-wise product reads its input x there only to train its
// weights). Called last in newEngine.
func (e *engine) findScratch(fed map[int]bool) {
	ns := len(e.g.Signals)
	probed := map[int]bool{}
	for _, p := range e.g.Probes {
		probed[p.Signal] = true
	}
	owners := map[*float64]int{}
	gowners := map[*float64]int{}
	for s := range ns {
		if v := e.vals[s]; len(v) > 0 {
			owners[&v[0]]++
		}
		if g := e.grad[s]; len(g) > 0 {
			gowners[&g[0]]++
		}
	}
	fwdOf := func(j int) *laneGroup {
		for _, g := range e.fwdGroupStart {
			if g != nil && g.first <= j && j <= g.last {
				return g
			}
		}
		return nil
	}
	bwdOf := func(j int) *laneGroup {
		for _, g := range e.groupEnd {
			if g != nil && g.first <= j && j <= g.last {
				return g
			}
		}
		return nil
	}
	noop := func(j int) bool {
		if d, ok := e.ops[j].(*dotOp); ok && d.zero && !d.set {
			return true // adds encoders·0, passes no gradient
		}
		l, ok := e.ops[j].(laneOp)
		if !ok || l.lanes(e) != 0 {
			return false
		}
		f, ok := e.ops[j].(laneFwd)
		return ok && f.fwdLanes(e) == 0
	}
	deferredIn := func(c *copyOp, g *laneGroup) bool { return g != nil && slices.Contains(g.copies, c) }
	e.scrIdxV = slices.Repeat([]int{-1}, ns)
	e.scrIdxG = slices.Repeat([]int{-1}, ns)
	for s := range ns {
		if interrupt.Requested() {
			return // newEngine drops the engine
		}
		if e.shared[s] || e.carried[s] || fed[s] || probed[s] || len(e.vals[s]) == 0 || owners[&e.vals[s][0]] != 1 {
			continue
		}
		wantG := e.grad[s] != nil
		if wantG && (len(e.grad[s]) == 0 || gowners[&e.grad[s][0]] != 1) {
			continue
		}
		var fg, bg *laneGroup
		ok, used := true, false
		var deferred []*copyOp
		for j, gi := range e.opIdx {
			if gi < 0 {
				continue // the feed writes fed signals only
			}
			rd, wr := touches(e.g.Ops[gi])
			if !slices.Contains(rd, s) && !slices.Contains(wr, s) {
				continue
			}
			if c, isCopy := e.ops[j].(*copyOp); isCopy && c.deferred {
				deferred = append(deferred, c) // runs inside its groups
				continue
			}
			if noop(j) {
				continue
			}
			switch o := e.ops[j].(type) {
			case *ewOp:
				if o.x == s && e.grad[o.a] != nil {
					ok = false // x's values are read backward
				}
			case *neuronsOp:
			default:
				ok = false
			}
			f := fwdOf(j)
			if f == nil || (fg != nil && f != fg) {
				ok = false
			}
			fg = f
			if wantG && e.active[j] {
				b := bwdOf(j)
				if b == nil || (bg != nil && b != bg) {
					ok = false
				}
				bg = b
			}
			used = true
			if !ok {
				break
			}
		}
		if !ok || !used || fg == nil || fg.n != e.size(s) || (wantG && (bg == nil || bg.n != e.size(s))) {
			continue
		}
		for _, c := range deferred {
			ok = ok && deferredIn(c, fg) && (!wantG || deferredIn(c, bg))
		}
		if !ok {
			continue
		}
		e.scrIdxV[s] = e.nScrV
		e.nScrV++
		e.vals[s] = scratchMarker
		if wantG {
			e.scrIdxG[s] = e.nScrG
			bg.scratchGrads = append(bg.scratchGrads, e.nScrG)
			e.nScrG++
			e.grad[s] = scratchMarker
		}
	}
	if e.nScrV == 0 {
		e.scrIdxV, e.scrIdxG = nil, nil
		return
	}
	e.growScratch()
}
