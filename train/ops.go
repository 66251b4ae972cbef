package train

import (
	"fmt"
	"github.com/neurogo/neurogo/internal/rules"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// compile makes operator o executable on e.
func (e *engine) compile(o ir.Op, cfg engineConfig) (eop, error) {
	l := &lowering{e: e, cfg: cfg}
	if err := ir.Lower(l, o); err != nil {
		return nil, err
	}
	return l.op, nil
}

// lowering turns one operator into the engine's forward and backward
// pass (ir.Lowerer; the engine runs the builder's operators one by one).
type lowering struct {
	e   *engine
	cfg engineConfig
	op  eop
}

func (l *lowering) Reset(os []*ir.Reset) error {
	l.op = &resetOp{y: os[0].Y, v: os[0].Value}
	return nil
}

func (l *lowering) Copy(os []*ir.Copy) error {
	o := os[0]
	l.op = &copyOp{x: o.X, y: o.Y, xi: o.XIdx, yi: o.YIdx, inc: o.Inc}
	return nil
}

func (l *lowering) ElementwiseInc(os []*ir.ElementwiseInc) error {
	o := os[0]
	if o.AIdx != nil || o.XIdx != nil || o.YIdx != nil || o.Set {
		return fmt.Errorf("train: %s: ElementwiseInc with index lists or Set comes from the simulator's optimiser, not the builder", o.Tag)
	}
	l.op = &ewOp{a: o.A, x: o.X, y: o.Y}
	return nil
}

func (l *lowering) DotInc(os []*ir.DotInc) error {
	o := os[0]
	if o.Set || o.Bias >= 0 {
		return fmt.Errorf("train: %s: DotInc with Set or Bias comes from the simulator's optimiser, not the builder", o.Tag)
	}
	l.op = &dotOp{a: o.A, x: o.X, y: o.Y}
	return nil
}

func (l *lowering) SparseDotInc(os []*ir.SparseDotInc) error {
	o := os[0]
	l.op = &sparseOp{a: o.A, x: o.X, y: o.Y, ptr: o.RowPtr, col: o.Col}
	return nil
}

func (l *lowering) TimeUpdate(os []*ir.TimeUpdate) error {
	l.op = &timeOp{step: os[0].Step, time: os[0].Time, dt: l.e.g.Dt}
	return nil
}

func (l *lowering) SimNeurons(os []*ir.SimNeurons) (err error) {
	l.op, err = newNeuronsOp(l.e, os[0], l.cfg)
	return err
}

func (l *lowering) SimSynapse(os []*ir.SimSynapse) (err error) {
	l.op, err = newSynapseOp(l.e, os[0])
	return err
}

func (l *lowering) SimNodeFunc(os []*ir.SimNodeFunc) error {
	o := os[0]
	l.op = &nodeOp{o: o, fed: o.Y >= 0 && l.cfg.fed[o.Y]}
	return nil
}

func (l *lowering) SimProcess(os []*ir.SimProcess) error {
	o := os[0]
	l.op = &processOp{o: o, fed: !o.Inc && o.Y >= 0 && l.cfg.fed[o.Y]}
	return nil
}

func (l *lowering) SimLayer(os []*ir.SimLayer) error {
	op, err := newLayerOp(l.e, os[0])
	if err != nil {
		return err
	}
	op.f32 = l.cfg.float32
	l.op = op
	return nil
}

func (l *lowering) SimPES(os []*ir.SimPES) error {
	o := os[0]
	if o.InPlace {
		return fmt.Errorf("train: %s: SimPES in place comes from the simulator's optimiser, not the builder", o.Tag)
	}
	l.op = &pesOp{acts: o.Acts, err: o.Error, delta: o.Delta, rate: o.LearningRate, dt: l.e.g.Dt}
	return nil
}

func (l *lowering) SimBCM(os []*ir.SimBCM) error {
	l.op = &ruleOp{o: os[0], dt: l.e.g.Dt}
	return nil
}

func (l *lowering) SimOja(os []*ir.SimOja) error {
	l.op = &ruleOp{o: os[0], dt: l.e.g.Dt}
	return nil
}

func (l *lowering) SimVoja(os []*ir.SimVoja) error {
	l.op = &ruleOp{o: os[0], dt: l.e.g.Dt}
	return nil
}

func (l *lowering) SimRLS(os []*ir.SimRLS) error {
	l.op = &ruleOp{o: os[0], dt: l.e.g.Dt}
	return nil
}

func (l *lowering) SimCallback(os []*ir.SimCallback) error { return notRun(os[0]) }

// The fused operators exist only in the simulator's optimised plan; a
// Graph lists the builder's operators.

func (l *lowering) DotIncPES(os []*ir.DotIncPES) error { return notRun(os[0]) }

func (l *lowering) EnsembleReLU(os []*ir.EnsembleReLU) error { return notRun(os[0]) }

func notRun(o ir.Op) error {
	return fmt.Errorf("train: %s: the trainer does not run %s operators (simulate this model with sim instead)", o.Info().Tag, o.Kind())
}

// gemm is C = alpha·op(A)·op(B) + beta·C: small products in gonum's Go
// kernels (a cgo call and OpenBLAS's thread hand-off cost more than they
// do), large ones in the process's BLAS (OpenBLAS under -tags openblas).
func gemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if m*n*k < smallGEMM {
		native.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	blas64.Implementation().Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// smallGEMM is the multiply-add count below which gemm stays in Go.
const smallGEMM = 1 << 15

var native gonum.Implementation

// nodiff is embedded by operators no gradient passes through.
type nodiff struct{ why string }

func (n nodiff) differentiable() error { return fmt.Errorf("%w (%s)", errNotDiff, n.why) }

type noreset struct{}

func (noreset) reset(*engine) {}

// --- feed: node outputs from data ------------------------------------------

type feedOp struct {
	noreset
	nodiff
}

func (f *feedOp) forward(e *engine, t int) error {
	for s, data := range e.feeds {
		n := e.size(s)
		for b := range e.b {
			src := data[(b*e.feedSteps+t-1)*n : (b*e.feedSteps+t)*n]
			copy(e.vals[s][b*n:(b+1)*n], src)
		}
	}
	return nil
}
func (f *feedOp) backward(*engine, int) error { return nil }

// --- Reset -----------------------------------------------------------------------

type resetOp struct {
	noreset
	y    int
	v    float64
	skip bool // the next writer of y sets it instead of incrementing (elideResets)
}

func (o *resetOp) differentiable() error { return nil }

// lanes implements laneOp: an elided Reset does nothing backward.
func (o *resetOp) lanes(*engine) int {
	if o.skip {
		return 0
	}
	return -1
}
func (o *resetOp) backwardBlock(*engine, int, int, int, int, int) {}
func (o *resetOp) fwdLanes(e *engine) int                         { return o.lanes(e) }
func (o *resetOp) prepareForward(*engine, int)                    {}
func (o *resetOp) forwardBlock(*engine, int, int, int, int, int) error {
	return nil
}
func (o *resetOp) finishLanes(*engine) {}
func (o *resetOp) forward(e *engine, t int) error {
	if e.shared[o.y] || o.skip {
		return nil
	}
	v := e.batchVals(o.y)
	if o.v == 0 {
		clear(v)
		return nil
	}
	for i := range v {
		v[i] = o.v
	}
	return nil
}
func (o *resetOp) backward(e *engine, t int) error {
	if !o.skip {
		clear(e.batchGrad(o.y))
	}
	return nil
}

// --- Copy ------------------------------------------------------------------------

type copyOp struct {
	noreset
	x, y   int
	xi, yi []int
	inc    bool
	alias  bool // y shares x's storage: nothing to do (aliasCopies)
	// deferred: a broadcast run inside lane groups (deferBiasCopies),
	// with per-range sums of dx in parts
	deferred bool
	parts    []float64
}

// backwardPart adds dy's block [lo, hi) of example b to range p's sum
// and clears it (a deferred copy's backward pass).
func (o *copyOp) backwardPart(e *engine, w, p, b, lo, hi int) {
	n := e.size(o.y)
	y := e.gblk(o.y, w, b, lo, hi)
	if e.grad[o.x] != nil {
		vec.Add(o.parts[p*n+lo:p*n+hi], y)
	}
	e.clearGrad(o.y, y)
}

// finishParts adds the ranges' sums to dx in range order.
func (o *copyOp) finishParts(e *engine) {
	gx := e.grad[o.x]
	if gx == nil {
		return
	}
	n := e.size(o.y)
	for p := range laneParts {
		for i, v := range o.parts[p*n : (p+1)*n] {
			gx[i] += v
		}
	}
}

func (o *copyOp) differentiable() error { return nil }

// lanes implements laneOp: an aliased copy does nothing.
func (o *copyOp) lanes(*engine) int {
	if o.alias {
		return 0
	}
	return -1
}
func (o *copyOp) backwardBlock(*engine, int, int, int, int, int) {}
func (o *copyOp) fwdLanes(e *engine) int                         { return o.lanes(e) }
func (o *copyOp) prepareForward(*engine, int)                    {}
func (o *copyOp) forwardBlock(*engine, int, int, int, int, int) error {
	return nil
}
func (o *copyOp) finishLanes(*engine) {}
func (o *copyOp) forward(e *engine, t int) error {
	if o.alias || o.deferred {
		return nil
	}
	if o.xi == nil && o.yi == nil && !e.shared[o.x] && !e.shared[o.y] && e.size(o.x) == e.size(o.y) {
		x, y := e.batchVals(o.x), e.batchVals(o.y)
		if o.inc {
			for k, v := range x {
				y[k] += v
			}
		} else {
			copy(y, x)
		}
		return nil
	}
	for b := range e.b {
		x, y := e.lane(o.x, b), e.lane(o.y, b)
		switch {
		case o.xi == nil && o.yi == nil:
			if o.inc {
				for k, v := range x[:len(y)] {
					y[k] += v
				}
			} else {
				copy(y, x)
			}
		default:
			n := len(y)
			if o.yi != nil {
				n = len(o.yi)
			}
			for k := range n {
				sk, dk := k, k
				if o.xi != nil {
					sk = o.xi[k]
				}
				if o.yi != nil {
					dk = o.yi[k]
				}
				if o.inc {
					y[dk] += x[sk]
				} else {
					y[dk] = x[sk]
				}
			}
		}
	}
	return nil
}
func (o *copyOp) backward(e *engine, t int) error {
	gy := e.grad[o.y]
	if gy == nil || o.alias || o.deferred {
		return nil
	}
	gx := e.grad[o.x]
	ny, nx := e.size(o.y), e.size(o.x)
	sharedX := e.shared[o.x]
	if o.xi == nil && o.yi == nil && sharedX && !e.shared[o.y] && nx == ny && !e.noFuse {
		// a broadcast (a bias into every example): dx += Σ_b dy_b, in
		// column blocks across the cores, the examples summed in order
		y, b, inc := gy[:e.b*ny], e.b, o.inc
		return parallelFor(ny, 4096, func(_, lo, hi int) error {
			return sweep(lo, hi, func(lo, hi int) error {
				var x []float64
				if gx != nil {
					x = gx[lo:hi]
				}
				for k := range b {
					yk := y[k*ny+lo : k*ny+hi]
					if x != nil {
						for i, v := range yk {
							x[i] += v
						}
					}
					if !inc {
						clear(yk)
					}
				}
				return nil
			})
		})
	}
	if o.xi == nil && o.yi == nil && !sharedX && nx == ny {
		y := gy[:e.b*ny]
		if gx != nil {
			x := gx[:e.b*nx]
			for k, v := range y {
				x[k] += v
			}
		}
		if !o.inc {
			clear(y)
		}
		return nil
	}
	for b := range e.b {
		y := gy[b*ny : (b+1)*ny]
		var x []float64
		if gx != nil {
			if sharedX {
				x = gx
			} else {
				x = gx[b*nx : (b+1)*nx]
			}
		}
		n := ny
		if o.yi != nil {
			n = len(o.yi)
		}
		for k := range n {
			sk, dk := k, k
			if o.xi != nil {
				sk = o.xi[k]
			}
			if o.yi != nil {
				dk = o.yi[k]
			}
			if x != nil {
				x[sk] += y[dk]
			}
			if !o.inc {
				y[dk] = 0
			}
		}
	}
	return nil
}

// --- ElementwiseInc: y += a ⊙ x (a of size 1 broadcasts) -----------------------

type ewOp struct {
	noreset
	a, x, y int
	set     bool        // y = a ⊙ x (a Reset of y before it was elided)
	xs, as  [][]float64 // saved per step: x (for dA), a (for dX when a changes)
	// xLive: x is not overwritten before the backward pass of a one-step
	// engine (stableAfter), so it is read there instead of saved
	xLive bool
	sums  []float64 // per-example partial sums of a scalar a's gradient
}

func (o *ewOp) differentiable() error { return nil }
func (o *ewOp) forward(e *engine, t int) error {
	if e.shared[o.a] && len(e.vals[o.a]) == 1 && !e.shared[o.x] {
		// scalar weight on a batch: one loop over all of it
		av, x, y := e.vals[o.a][0], e.batchVals(o.x), e.batchVals(o.y)
		parallelFor(len(y), 1<<16, func(_, lo, hi int) error {
			return sweep(lo, hi, func(lo, hi int) error {
				if o.set {
					for i := lo; i < hi; i++ {
						y[i] = av * x[i]
					}
				} else {
					for i := lo; i < hi; i++ {
						y[i] += av * x[i]
					}
				}
				return nil
			})
		})
	} else if e.shared[o.a] && !e.shared[o.x] && !e.shared[o.y] && e.size(o.a) == e.size(o.y) && e.size(o.x) == e.size(o.y) && !e.noFuse {
		// per-element weights (gains) on a batch: examples across the cores
		a, n := e.vals[o.a], e.size(o.y)
		x, y := e.batchVals(o.x), e.batchVals(o.y)
		parallelFor(e.b, max(1, 16384/max(n, 1)), func(_, lo, hi int) error {
			for b := lo; b < hi; b++ {
				xb, yb := x[b*n:(b+1)*n], y[b*n:(b+1)*n]
				sweep(0, n, func(lo, hi int) error {
					if o.set {
						for i := lo; i < hi; i++ {
							yb[i] = a[i] * xb[i]
						}
					} else {
						for i := lo; i < hi; i++ {
							yb[i] += a[i] * xb[i]
						}
					}
					return nil
				})
			}
			return nil
		})
	} else {
		for b := range e.b {
			a, x, y := e.lane(o.a, b), e.lane(o.x, b), e.lane(o.y, b)
			if o.set {
				clear(y)
			}
			if len(a) == 1 {
				av := a[0]
				for i := range y {
					y[i] += av * x[i]
				}
			} else {
				for i := range y {
					y[i] += a[i] * x[i]
				}
			}
		}
	}
	if e.record {
		if e.grad[o.a] != nil && !e.shared[o.x] && !o.xLive {
			o.xs = save(o.xs, t, e.batchVals(o.x))
		}
		if e.grad[o.x] != nil && !e.shared[o.a] {
			o.as = save(o.as, t, e.batchVals(o.a))
		}
	}
	return nil
}

// savedX is x's values as op o's forward pass at step t read them.
func (o *ewOp) savedX(e *engine, t int) []float64 {
	if o.xLive {
		return e.batchVals(o.x)
	}
	return o.xs[t-1]
}

func (o *ewOp) backward(e *engine, t int) error {
	gy := e.grad[o.y]
	ga, gx := e.grad[o.a], e.grad[o.x]
	ny := e.size(o.y)
	na, nx := e.size(o.a), e.size(o.x)
	if e.shared[o.a] && !e.shared[o.x] && !e.shared[o.y] && nx == ny && (na == 1 || na == ny) && (ga == nil || na == 1) && !e.noFuse {
		o.backwardBatch(e, t)
		return nil
	}
	if o.set {
		defer clear(e.batchGrad(o.y))
	}
	for b := range e.b {
		y := gy[b*ny : (b+1)*ny]
		if gx != nil {
			var a []float64
			if e.shared[o.a] {
				a = e.vals[o.a]
			} else {
				a = o.as[t-1][b*na : (b+1)*na]
			}
			x := gx
			if !e.shared[o.x] {
				x = gx[b*nx : (b+1)*nx]
			}
			for i, g := range y {
				if na == 1 {
					x[i] += a[0] * g
				} else {
					x[i] += a[i] * g
				}
			}
		}
		if ga != nil {
			var x []float64
			if e.shared[o.x] {
				x = e.vals[o.x]
			} else {
				x = o.savedX(e, t)[b*nx : (b+1)*nx]
			}
			a := ga
			if !e.shared[o.a] {
				a = ga[b*na : (b+1)*na]
			}
			for i, g := range y {
				if na == 1 {
					a[0] += x[i] * g
				} else {
					a[i] += x[i] * g
				}
			}
		}
	}
	return nil
}

// backwardBatch is ewOp's backward pass for shared weights a (a scalar
// or one per element, not trained or a trained scalar) on lane signals x
// and y: one pass over each example's dy (cache-resident while the
// example's dx, da and the clearing of dy use it), examples across the
// cores. A trained scalar's gradient is summed per example, then over the
// examples in order, so it does not depend on the number of cores.
func (o *ewOp) backwardBatch(e *engine, t int) {
	n := e.size(o.y)
	gy := e.batchGrad(o.y)
	a := e.vals[o.a]
	gx := e.batchGrad(o.x)
	var xv []float64
	setX := e.gradSet != nil && e.gradSet[o.x]
	ga := e.grad[o.a]
	if ga != nil {
		xv = o.savedX(e, t)
		o.sums = growTo(o.sums, e.b)
	}
	parallelFor(e.b, max(1, 16384/max(n, 1)), func(_, lo, hi int) error {
		for b := lo; b < hi; b++ {
			y := gy[b*n : (b+1)*n]
			var x, xb []float64
			if gx != nil {
				x = gx[b*n : (b+1)*n]
			}
			if ga != nil {
				xb = xv[b*n : (b+1)*n]
			}
			var sum float64
			sweep(0, n, func(lo, hi int) error {
				switch {
				case x == nil:
				case len(a) == 1 && setX:
					vec.Scale(x[lo:hi], y[lo:hi], a[0])
				case len(a) == 1:
					vec.Axpy(x[lo:hi], y[lo:hi], a[0])
				default:
					if setX {
						clear(x[lo:hi])
					}
					vec.MulInc(x[lo:hi], a[lo:hi], y[lo:hi])
				}
				if xb != nil {
					var s float64 // a local: sum is shared with the closure
					for i := lo; i < hi; i++ {
						s += xb[i] * y[i]
					}
					sum += s
				}
				if o.set {
					e.clearGrad(o.y, y[lo:hi])
				}
				return nil
			})
			if ga != nil {
				o.sums[b] = sum
			}
		}
		return nil
	})
	if ga != nil {
		var s float64
		for _, v := range o.sums[:e.b] {
			s += v
		}
		ga[0] += s
	}
}

// lanes implements laneOp: the cases backwardBatch handles.
func (o *ewOp) lanes(e *engine) int {
	ny, na, nx := e.size(o.y), e.size(o.a), e.size(o.x)
	ga := e.grad[o.a]
	if e.shared[o.a] && !e.shared[o.x] && !e.shared[o.y] && nx == ny && (na == 1 || na == ny) && (ga == nil || na == 1) {
		if ga != nil && len(o.sums) < e.maxB {
			o.sums = make([]float64, e.maxB) // before the workers share it
		}
		return ny
	}
	return -1
}

// backwardBlock implements laneOp: backwardBatch's loop on elements
// [lo, hi) of example b (a scalar's gradient summed into sums[b]).
func (o *ewOp) backwardBlock(e *engine, w, t, b, lo, hi int) {
	n := e.size(o.y)
	y := e.gblk(o.y, w, b, lo, hi)
	a := e.vals[o.a]
	if e.grad[o.x] != nil {
		x := e.gblk(o.x, w, b, lo, hi)
		setX := e.gradSet[o.x]
		switch {
		case len(a) == 1 && setX:
			vec.Scale(x, y, a[0])
		case len(a) == 1:
			vec.Axpy(x, y, a[0])
		default:
			if setX {
				clear(x)
			}
			vec.MulInc(x, a[lo:hi], y)
		}
	}
	if e.grad[o.a] != nil {
		if lo == 0 {
			o.sums[b] = 0
		}
		o.sums[b] += vec.Dot(y, o.savedX(e, t)[b*n+lo:b*n+hi])
	}
	if o.set {
		e.clearGrad(o.y, y)
	}
}

// fwdLanes implements laneFwd: shared weights (a scalar or one per
// element) on lane signals, with nothing to save for the backward pass.
func (o *ewOp) fwdLanes(e *engine) int {
	ny, na, nx := e.size(o.y), e.size(o.a), e.size(o.x)
	if !e.shared[o.a] || e.shared[o.x] || e.shared[o.y] || nx != ny || (na != 1 && na != ny) || o.x == o.y {
		return -1
	}
	if e.grad[o.a] != nil && !o.xLive {
		return -1 // x is saved per step
	}
	return ny
}

func (o *ewOp) prepareForward(*engine, int) {}

// forwardBlock implements laneFwd: y (+)= a ⊙ x on elements [lo, hi) of
// example b.
func (o *ewOp) forwardBlock(e *engine, w, t, b, lo, hi int) error {
	x, y := e.vblk(o.x, w, b, lo, hi), e.vblk(o.y, w, b, lo, hi)
	a := e.vals[o.a]
	switch {
	case len(a) == 1 && o.set:
		vec.Scale(y, x, a[0])
	case len(a) == 1:
		vec.Axpy(y, x, a[0])
	default:
		if o.set {
			clear(y)
		}
		vec.MulInc(y, a[lo:hi], x)
	}
	return nil
}

// finishLanes implements laneOp.
func (o *ewOp) finishLanes(e *engine) {
	if ga := e.grad[o.a]; ga != nil {
		var s float64
		for _, v := range o.sums[:e.b] {
			s += v
		}
		ga[0] += s
	}
}

// save copies v into the step-t slot of a per-step tape.
func save(tape [][]float64, t int, v []float64) [][]float64 {
	for len(tape) < t {
		tape = append(tape, nil)
	}
	tape[t-1] = append(tape[t-1][:0], v...)
	return tape
}

// --- DotInc: y += A·x ----------------------------------------------------------------

type dotOp struct {
	noreset
	a, x, y int
	set     bool // y = A·x (a Reset of y before it was elided)
	xs, as  [][]float64
	tmp     []float64
	xLive   bool // as ewOp's
	// zero: x is 0 whenever read (zeroInput), so y += A·x adds nothing
	// and no gradient passes (dA += dYᵀ·0, dx reaches only x's Reset)
	zero bool
}

func (o *dotOp) differentiable() error { return nil }

// lanes implements laneOp: a product with a zero input does nothing
// backward (unless it clears dY).
func (o *dotOp) lanes(*engine) int {
	if o.zero && !o.set {
		return 0
	}
	return -1
}
func (o *dotOp) backwardBlock(*engine, int, int, int, int, int) {}
func (o *dotOp) finishLanes(*engine)                            {}
func (o *dotOp) forward(e *engine, t int) error {
	if o.zero {
		if o.set {
			clear(e.batchVals(o.y))
		}
		return nil
	}
	rows, cols := e.size(o.y), e.size(o.x)
	beta := 1.0
	if o.set {
		beta = 0
		if !(e.shared[o.a] && !e.shared[o.x]) {
			clear(e.batchVals(o.y))
			beta = 1
		}
	}
	switch {
	case e.shared[o.a] && !e.shared[o.x]:
		// Y (b×rows) += X (b×cols) · Aᵀ
		gemm(blas.NoTrans, blas.Trans, e.b, rows, cols, 1, e.batchVals(o.x), cols, e.vals[o.a], cols, beta, e.batchVals(o.y), rows)
	case e.shared[o.a] && e.shared[o.x]:
		o.tmp = growTo(o.tmp, rows)
		clear(o.tmp)
		gemm(blas.NoTrans, blas.Trans, 1, rows, cols, 1, e.vals[o.x], cols, e.vals[o.a], cols, 1, o.tmp, rows)
		for b := range e.b {
			y := e.lane(o.y, b)
			for i, v := range o.tmp {
				y[i] += v
			}
		}
	default:
		for b := range e.b {
			gemm(blas.NoTrans, blas.Trans, 1, rows, cols, 1, e.lane(o.x, b), cols, e.lane(o.a, b), cols, 1, e.lane(o.y, b), rows)
		}
	}
	if e.record {
		if e.grad[o.a] != nil && !e.shared[o.x] && !o.xLive {
			o.xs = save(o.xs, t, e.batchVals(o.x))
		}
		if e.grad[o.x] != nil && !e.shared[o.a] {
			o.as = save(o.as, t, e.batchVals(o.a))
		}
	}
	return nil
}
func (o *dotOp) backward(e *engine, t int) error {
	if o.zero {
		if o.set {
			clear(e.batchGrad(o.y))
		}
		return nil
	}
	rows, cols := e.size(o.y), e.size(o.x)
	gy := e.batchGrad(o.y)
	if o.set {
		defer clear(gy)
	}
	if gx := e.grad[o.x]; gx != nil {
		if e.shared[o.a] && !e.shared[o.x] {
			// dX (b×cols) += dY (b×rows) · A (rows×cols)
			gemm(blas.NoTrans, blas.NoTrans, e.b, cols, rows, 1, gy, rows, e.vals[o.a], cols, 1, e.batchGrad(o.x), cols)
		} else {
			for b := range e.b {
				a := e.vals[o.a]
				if !e.shared[o.a] {
					a = o.as[t-1][b*rows*cols : (b+1)*rows*cols]
				}
				dst := gx
				if !e.shared[o.x] {
					dst = gx[b*cols : (b+1)*cols]
				}
				gemm(blas.NoTrans, blas.NoTrans, 1, cols, rows, 1, gy[b*rows:(b+1)*rows], rows, a, cols, 1, dst, cols)
			}
		}
	}
	if ga := e.grad[o.a]; ga != nil {
		if e.shared[o.x] {
			// dA += (Σ_b dY_b)ᵀ · x
			for b := range e.b {
				gemm(blas.Trans, blas.NoTrans, rows, cols, 1, 1, gy[b*rows:(b+1)*rows], rows, e.vals[o.x], cols, 1, ga, cols)
			}
		} else {
			// dA (rows×cols) += dYᵀ (rows×b) · X (b×cols)
			xs := e.batchVals(o.x)
			if !o.xLive {
				xs = o.xs[t-1]
			}
			gemm(blas.Trans, blas.NoTrans, rows, cols, e.b, 1, gy, rows, xs, cols, 1, ga, cols)
		}
	}
	return nil
}

func growTo(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// --- SparseDotInc: y += A·x, A in CSR ------------------------------------------------

type sparseOp struct {
	noreset
	a, x, y  int
	ptr, col []int
	xs       [][]float64
}

func (o *sparseOp) differentiable() error { return nil }
func (o *sparseOp) forward(e *engine, t int) error {
	if !e.shared[o.a] {
		return fmt.Errorf("sparse weights changed by a learning rule are not supported")
	}
	a := e.vals[o.a]
	for b := range e.b {
		x, y := e.lane(o.x, b), e.lane(o.y, b)
		for i := range y {
			var acc float64
			for k := o.ptr[i]; k < o.ptr[i+1]; k++ {
				acc += a[k] * x[o.col[k]]
			}
			y[i] += acc
		}
	}
	if e.record && e.grad[o.a] != nil && !e.shared[o.x] {
		o.xs = save(o.xs, t, e.batchVals(o.x))
	}
	return nil
}
func (o *sparseOp) backward(e *engine, t int) error {
	rows, cols := e.size(o.y), e.size(o.x)
	gy := e.grad[o.y]
	a := e.vals[o.a]
	ga, gx := e.grad[o.a], e.grad[o.x]
	for b := range e.b {
		y := gy[b*rows : (b+1)*rows]
		var x, xv []float64
		if gx != nil {
			x = gx
			if !e.shared[o.x] {
				x = gx[b*cols : (b+1)*cols]
			}
		}
		if ga != nil {
			xv = e.vals[o.x]
			if !e.shared[o.x] {
				xv = o.xs[t-1][b*cols : (b+1)*cols]
			}
		}
		for i, g := range y {
			for k := o.ptr[i]; k < o.ptr[i+1]; k++ {
				if x != nil {
					x[o.col[k]] += a[k] * g
				}
				if ga != nil {
					ga[k] += xv[o.col[k]] * g
				}
			}
		}
	}
	return nil
}

// --- TimeUpdate ----------------------------------------------------------------------

type timeOp struct {
	noreset
	nodiff
	step, time int
	dt         float64
}

func (o *timeOp) forward(e *engine, t int) error {
	e.vals[o.step][0] = float64(t)
	e.vals[o.time][0] = float64(t) * o.dt
	return nil
}
func (o *timeOp) backward(*engine, int) error { return nil }

// --- SimNeurons ----------------------------------------------------------------------

// neuronsOp runs a neuron population on the whole batch. In training
// mode a spiking type runs as its rate counterpart (neurons.RateCounterpart);
// with LIF smoothing σ the forward pass of LIF is LIFRate and its
// derivative that of SoftLIFRate(σ) (NengoDL's lif_smoothing), unless the
// smoothed rate runs forward too (Config.SmoothForward). Deterministic
// types run in parallel chunks of the batch.
type neuronsOp struct {
	noreset
	nt    neurons.Type
	diff  neurons.Differentiable
	fused neurons.RateDeriver // nt computes f and f' together
	// smooth: LIF smoothing (nt LIFRate, diff SoftLIFRate with the same
	// parameters): rate and smoothed derivative in one pass
	smooth   *neurons.SoftLIFRate
	smooth32 bool // smooth in float32 arithmetic (Config.Float32)
	j, out   int
	state    []int
	names    []string
	st       neurons.State
	rng      *rand.Rand
	seed     uint64
	dt       float64
	par      bool
	ds       [][]float64 // f'(J) per step
	curD     []float64   // this step's, in a forward lane group (prepareForward)
	tag      string
	sts      []neurons.State // per chunk
}

func newNeuronsOp(e *engine, o *ir.SimNeurons, cfg engineConfig) (*neuronsOp, error) {
	nt, diff := o.Neuron, neurons.Type(nil)
	if cfg.rates && o.Neuron.Spiking() {
		var err error
		sigma := cfg.sigma
		if !cfg.smoothForward {
			sigma = 0
		}
		if nt, err = neurons.RateCounterpart(o.Neuron, sigma); err != nil {
			return nil, fmt.Errorf("train: %s: %w", o.Tag, err)
		}
		if diff, err = neurons.RateCounterpart(o.Neuron, cfg.sigma); err != nil {
			return nil, fmt.Errorf("train: %s: %w", o.Tag, err)
		}
	}
	if diff == nil {
		diff = nt
	}
	op := &neuronsOp{nt: nt, j: o.J, out: o.Out, state: o.State, names: o.StateNames, dt: e.g.Dt, tag: o.Tag,
		seed: uint64(o.Seed) ^ e.seed}
	op.rng = rand.New(rand.NewPCG(op.seed, 0x5eed))
	if nt != o.Neuron {
		// the rate counterpart has its own (usually empty) state
		st, err := nt.State(0, op.rng)
		if err != nil {
			return nil, fmt.Errorf("train: %s: %w", o.Tag, err)
		}
		if len(st.Names) > 0 {
			return nil, fmt.Errorf("train: %s: the training counterpart %s of %s has state; it cannot stand in", o.Tag, nt.Name(), o.Neuron.Name())
		}
		op.state, op.names = nil, nil
	}
	if d, ok := diff.(neurons.Differentiable); ok {
		op.diff = d
		if f, ok := nt.(neurons.RateDeriver); ok && diff == nt {
			op.fused = f
		}
		lif, ok1 := nt.(neurons.LIFRate)
		soft, ok2 := diff.(neurons.SoftLIFRate)
		if ok1 && ok2 && !cfg.noFuse && lif.TauRC == soft.TauRC && lif.TauRef == soft.TauRef && lif.Amplitude == soft.Amplitude {
			op.smooth = &soft
			op.smooth32 = cfg.float32
		}
	}
	switch nt.Name() {
	case "LIF", "LIFRate", "SoftLIFRate", "RectifiedLinear", "SpikingRectifiedLinear", "Sigmoid", "Tanh":
		op.par = true // deterministic and element-wise
	}
	op.st = neurons.State{Names: op.names, Vars: make([][]float64, len(op.state))}
	return op, nil
}

func (o *neuronsOp) reset(e *engine) { o.rng = rand.New(rand.NewPCG(o.seed, 0x5eed)) }
func (o *neuronsOp) differentiable() error {
	if o.diff == nil {
		return fmt.Errorf("%w (%s neurons have no derivative; training swaps spiking types for their rate counterparts, which %s lacks)", errNotDiff, o.nt.Name(), o.nt.Name())
	}
	return nil
}
func (o *neuronsOp) forward(e *engine, t int) error {
	J, out := e.batchVals(o.j), e.batchVals(o.out)
	var d []float64
	if e.record && o.diff != nil && e.grad[o.j] != nil {
		for len(o.ds) < t {
			o.ds = append(o.ds, nil)
		}
		o.ds[t-1] = growTo(o.ds[t-1], len(J))
		d = o.ds[t-1]
	}
	run := func(lo, hi int, st neurons.State) error {
		if d != nil && o.fused != nil {
			return sweep(lo, hi, func(a, b int) error { return o.fused.RateDeriv(J[a:b], out[a:b], d[a:b]) })
		}
		if d != nil && o.smooth != nil {
			return sweep(lo, hi, func(a, b int) error { return o.smoothPass(J[a:b], out[a:b], d[a:b]) })
		}
		if len(st.Vars) == 0 {
			// stateless: sweep in blocks (see sweep)
			if err := sweep(lo, hi, func(a, b int) error { return o.nt.Step(o.dt, J[a:b], out[a:b], st, o.rng) }); err != nil {
				return err
			}
		} else if err := o.nt.Step(o.dt, J[lo:hi], out[lo:hi], st, o.rng); err != nil {
			return err
		}
		if d != nil {
			return sweep(lo, hi, func(a, b int) error { return o.diff.Deriv(d[a:b], J[a:b]) })
		}
		return nil
	}
	if !o.par {
		for i, s := range o.state {
			o.st.Vars[i] = e.batchVals(s)
		}
		return run(0, len(J), o.st)
	}
	n := e.size(o.j)
	return parallelFor(e.b, max(1, 16384/max(n, 1)), func(k, lo, hi int) error {
		for len(o.sts) <= k {
			o.sts = append(o.sts, neurons.State{Names: o.names, Vars: make([][]float64, len(o.state))})
		}
		st := o.sts[k]
		for i, s := range o.state {
			st.Vars[i] = e.vals[s][lo*n : hi*n]
		}
		return run(lo*n, hi*n, st)
	})
}
func (o *neuronsOp) backward(e *engine, t int) error {
	gout := e.batchGrad(o.out)
	if gJ := e.batchGrad(o.j); gJ != nil {
		if o.diff == nil {
			return o.differentiable()
		}
		d := o.ds[t-1]
		parallelFor(len(gJ), 32768, func(_, lo, hi int) error {
			return sweep(lo, hi, func(lo, hi int) error {
				for i := lo; i < hi; i++ {
					gJ[i] += d[i] * gout[i]
				}
				clear(gout[lo:hi])
				return nil
			})
		})
		return nil
	}
	clear(gout)
	return nil
}

// lanes implements laneOp: the backward pass is element-wise.
func (o *neuronsOp) lanes(e *engine) int {
	if e.grad[o.j] != nil && o.diff == nil {
		return -1
	}
	return e.size(o.j)
}

// backwardBlock implements laneOp.
func (o *neuronsOp) backwardBlock(e *engine, w, t, b, lo, hi int) {
	n := e.size(o.j)
	gout := e.gblk(o.out, w, b, lo, hi)
	if e.grad[o.j] != nil {
		vec.MulInc(e.gblk(o.j, w, b, lo, hi), o.ds[t-1][b*n+lo:b*n+hi], gout)
	}
	e.clearGrad(o.out, gout)
}

func (o *neuronsOp) finishLanes(*engine) {}

// smoothPass is LIF smoothing's rates and derivatives, in float32 with
// Config.Float32.
func (o *neuronsOp) smoothPass(J, out, d []float64) error {
	if o.smooth32 {
		return o.smooth.LIFRateDeriv32(J, out, d)
	}
	return o.smooth.LIFRateDeriv(J, out, d)
}

// fwdLanes implements laneFwd: deterministic stateless types.
func (o *neuronsOp) fwdLanes(e *engine) int {
	if !o.par || len(o.state) > 0 {
		return -1
	}
	return e.size(o.j)
}

// prepareForward implements laneFwd: the step's derivative buffer.
func (o *neuronsOp) prepareForward(e *engine, t int) {
	o.curD = nil
	if e.record && o.diff != nil && e.grad[o.j] != nil {
		for len(o.ds) < t {
			o.ds = append(o.ds, nil)
		}
		o.ds[t-1] = growTo(o.ds[t-1], e.b*e.size(o.j))
		o.curD = o.ds[t-1]
	}
}

// forwardBlock implements laneFwd: the rates (and derivatives) of
// elements [lo, hi) of example b.
func (o *neuronsOp) forwardBlock(e *engine, w, t, b, lo, hi int) error {
	n := e.size(o.j)
	a, z := b*n+lo, b*n+hi
	J, out := e.vblk(o.j, w, b, lo, hi), e.vblk(o.out, w, b, lo, hi)
	var d []float64
	if o.curD != nil {
		d = o.curD[a:z]
	}
	switch {
	case d != nil && o.fused != nil:
		return o.fused.RateDeriv(J, out, d)
	case d != nil && o.smooth != nil:
		return o.smoothPass(J, out, d)
	}
	if err := o.nt.Step(o.dt, J, out, neurons.State{}, nil); err != nil {
		return err
	}
	if d != nil {
		return o.diff.Deriv(d, J)
	}
	return nil
}

// --- SimSynapse ------------------------------------------------------------------------

// synapseOp runs a synapse on every channel of the batch with the
// library's filter (Nengo's step semantics). For a linear time-invariant
// synapse the backward pass is the adjoint of its discrete state-space
// system (synapses.System): with state s and input u,
//
//	OneX, NoD: s' = A·s + B·u; y = C·s'
//	General:   y = C·s + D·u; s' = A·s + B·u
//	NoX:       y = D·u
//
// so dL/du = Bᵀ·gs + D·gy and the state adjoint runs backwards in time.
type synapseOp struct {
	x, y int
	syn  synapses.Synapse
	f    synapses.Filter
	sys  *synapses.System
	gs   []float64 // state adjoint, channel-major (maxB·n·order)
	tmp  []float64
	err  error
}

func newSynapseOp(e *engine, o *ir.SimSynapse) (*synapseOp, error) {
	n := e.size(o.X)
	f, err := o.Synapse.Filter(e.g.Dt, e.maxB*n)
	if err != nil {
		return nil, fmt.Errorf("train: %s: %w", o.Tag, err)
	}
	op := &synapseOp{x: o.X, y: o.Y, syn: o.Synapse, f: f}
	if lti, ok := o.Synapse.(synapses.LTI); ok {
		sys, err := lti.Discretize(e.g.Dt)
		if err != nil {
			return nil, fmt.Errorf("train: %s: %w", o.Tag, err)
		}
		op.sys = sys
		op.gs = make([]float64, e.maxB*n*sys.Order)
		op.tmp = make([]float64, sys.Order)
	} else {
		op.err = fmt.Errorf("%w (%s is not a linear time-invariant synapse)", errNotDiff, o.Synapse.Name())
	}
	return op, nil
}

func (o *synapseOp) differentiable() error { return o.err }
func (o *synapseOp) reset(e *engine) {
	o.f.Reset()
	clear(o.gs)
}
func (o *synapseOp) forward(e *engine, t int) error {
	return o.f.Step(e.vals[o.y], e.vals[o.x])
}
func (o *synapseOp) backward(e *engine, t int) error {
	if o.err != nil {
		return o.err
	}
	s := o.sys
	k := s.Order
	gy := e.batchGrad(o.y)
	gx := e.batchGrad(o.x)
	for c, g := range gy {
		var gu float64
		switch s.Kind {
		case synapses.NoX:
			gu = s.D * g
		case synapses.OneX, synapses.NoD:
			// s' = A s + B u; y = C s': gs' += Cᵀ gy; gu = Bᵀ gs'; gs = Aᵀ gs'
			gsn := o.gs[c*k : c*k+k]
			for i := range k {
				gsn[i] += s.C[i] * g
			}
			for i := range k {
				gu += s.B[i] * gsn[i]
			}
			o.adjoint(gsn)
		case synapses.General:
			// y = C s + D u; s' = A s + B u: gu = D gy + Bᵀ gs'; gs = Aᵀ gs' + Cᵀ gy
			gsn := o.gs[c*k : c*k+k]
			gu = s.D * g
			for i := range k {
				gu += s.B[i] * gsn[i]
			}
			o.adjoint(gsn)
			for i := range k {
				gsn[i] += s.C[i] * g
			}
		}
		if gx != nil {
			gx[c] += gu
		}
	}
	clear(gy)
	return nil
}

// adjoint sets g = Aᵀ·g.
func (o *synapseOp) adjoint(g []float64) {
	s := o.sys
	k := s.Order
	for j := range k {
		var acc float64
		for i := range k {
			acc += s.A[i*k+j] * g[i]
		}
		o.tmp[j] = acc
	}
	copy(g, o.tmp)
}

// --- nodes ----------------------------------------------------------------------------------

type nodeOp struct {
	noreset
	o   *ir.SimNodeFunc
	fed bool
	buf []float64
}

func (n *nodeOp) differentiable() error {
	return fmt.Errorf("%w (a Go function; use a layer node with a backward function to train through it)", errNotDiff)
}
func (n *nodeOp) forward(e *engine, t int) error {
	if n.fed {
		return nil
	}
	o := n.o
	tt := e.vals[e.g.Time][0]
	for b := range e.b {
		var x, y []float64
		if o.X >= 0 {
			x = e.lane(o.X, b)
		}
		if o.Y >= 0 {
			y = e.lane(o.Y, b)
		}
		switch {
		case o.TimeFn != nil:
			o.TimeFn(tt, y)
		case o.NodeFn != nil:
			o.NodeFn(tt, x, y)
		case o.Fn != nil:
			in := x
			if o.XIdx != nil {
				n.buf = growTo(n.buf, len(o.XIdx))
				for k, i := range o.XIdx {
					n.buf[k] = x[i]
				}
				in = n.buf
			}
			r := o.Fn(in)
			if len(r) != len(y) {
				return fmt.Errorf("function returned %d values, want %d", len(r), len(y))
			}
			copy(y, r)
		}
	}
	return nil
}
func (n *nodeOp) backward(e *engine, t int) error { return n.differentiable() }

type processOp struct {
	o   *ir.SimProcess
	fed bool
	fs  []toolkit.NodeFunc
	buf []float64
}

func (p *processOp) differentiable() error {
	return fmt.Errorf("%w (a process)", errNotDiff)
}
func (p *processOp) reset(e *engine) { p.fs = p.fs[:0] }
func (p *processOp) forward(e *engine, t int) error {
	if p.fed {
		return nil
	}
	o := p.o
	ny := e.size(o.Y)
	sizeIn := 0
	if o.X >= 0 {
		sizeIn = e.size(o.X)
	}
	for len(p.fs) < e.b {
		b := uint64(len(p.fs))
		seed := uint64(o.Seed) + b*0x9e3779b97f4a7c15
		f, err := o.Process.Step(sizeIn, ny, e.g.Dt, rand.New(rand.NewPCG(seed, 0x9e0c)))
		if err != nil {
			return err
		}
		p.fs = append(p.fs, f)
	}
	tt := e.vals[e.g.Time][0]
	p.buf = growTo(p.buf, ny)
	for b := range e.b {
		var x []float64
		if o.X >= 0 {
			x = e.lane(o.X, b)
		}
		y := e.lane(o.Y, b)
		if !o.Inc {
			p.fs[b](tt, x, y)
			continue
		}
		p.fs[b](tt, x, p.buf)
		for i, v := range p.buf {
			y[i] += v
		}
	}
	return nil
}
func (p *processOp) backward(e *engine, t int) error { return p.differentiable() }

// --- PES (forward only: weights it changes are not trained) --------------------------------

type pesOp struct {
	noreset
	nodiff
	acts, err, delta int
	rate, dt         float64
}

func (o *pesOp) forward(e *engine, t int) error {
	for b := range e.b {
		acts, er, delta := e.lane(o.acts, b), e.lane(o.err, b), e.lane(o.delta, b)
		rules.PES(delta, acts, er, -o.rate*o.dt/float64(len(acts)))
	}
	return nil
}
func (o *pesOp) backward(*engine, int) error { return nil }

// --- layer nodes ---------------------------------------------------------------------------

// layerOp runs a deep-learning layer on the whole batch at once (its
// GEMMs see batch×features matrices). For sequences longer than one step
// it keeps one executor per step, so each step's backward pass sees that
// step's forward caches (dropout masks, pooling arg-maxes, …), and saves
// the step's input and output.
type layerOp struct {
	noreset
	x, y   int
	params []int
	layer  layers.Layer
	seed   uint64
	execs  []layers.Exec
	ps     [][]float64
	dps    [][]float64
	ins    [][]float64
	outs   [][]float64
	f32    bool // float32 products where the layer offers them
}

func newLayerOp(e *engine, o *ir.SimLayer) (*layerOp, error) {
	if o.Layer == nil {
		return nil, fmt.Errorf("train: %s: layer operator without a layer", o.Tag)
	}
	op := &layerOp{x: o.X, y: o.Y, params: o.Params, layer: o.Layer, seed: uint64(o.Seed) ^ e.seed}
	op.ps = make([][]float64, len(o.Params))
	op.dps = make([][]float64, len(o.Params))
	return op, nil
}

func (o *layerOp) differentiable() error { return nil }

func (o *layerOp) exec(e *engine, t int) (layers.Exec, error) {
	k := 0
	if e.record && e.maxT > 1 {
		k = t - 1
	}
	for len(o.execs) <= k {
		ex, err := o.layer.NewExec(e.maxB, o.seed+uint64(len(o.execs))*0x9e3779b97f4a7c15)
		if err != nil {
			return nil, err
		}
		if f, ok := ex.(layers.Float32Exec); ok && o.f32 {
			f.SetFloat32(true)
		}
		o.execs = append(o.execs, ex)
	}
	return o.execs[k], nil
}

func (o *layerOp) forward(e *engine, t int) error {
	ex, err := o.exec(e, t)
	if err != nil {
		return err
	}
	for i, s := range o.params {
		o.ps[i] = e.vals[s]
	}
	in, out := e.batchVals(o.x), e.batchVals(o.y)
	if err := ex.Forward(o.ps, in, out, e.b, e.train); err != nil {
		return err
	}
	if e.record && e.maxT > 1 && e.grad[o.y] != nil {
		o.ins = save(o.ins, t, in)
		o.outs = save(o.outs, t, out)
	}
	return nil
}

func (o *layerOp) backward(e *engine, t int) error {
	ex, err := o.exec(e, t)
	if err != nil {
		return err
	}
	in, out := e.batchVals(o.x), e.batchVals(o.y)
	if e.maxT > 1 {
		in, out = o.ins[t-1], o.outs[t-1]
	}
	for i, s := range o.params {
		o.ps[i] = e.vals[s]
		o.dps[i] = e.grad[s]
		if !e.trainable[s] {
			o.dps[i] = nil
		}
	}
	gy := e.batchGrad(o.y)
	if err := ex.Backward(o.ps, in, out, gy, e.batchGrad(o.x), o.dps, e.b); err != nil {
		return err
	}
	e.clearGrad(o.y, gy)
	return nil
}

// --- BCM, Oja, Voja, RLS (forward only) -------------------------------------------------

// ruleOp runs an online learning rule on every example of the batch, as
// the simulator does (internal/rules; Nengo's build_bcm, build_oja,
// build_voja, build_rls). Like PES it passes no gradient: the weights or
// encoders it changes are lane signals, not trained parameters.
type ruleOp struct {
	noreset
	nodiff
	o  ir.Op // *ir.SimBCM, *ir.SimOja, *ir.SimVoja or *ir.SimRLS
	dt float64
	pr []float64 // RLS: P·r
}

func (r *ruleOp) forward(e *engine, t int) error {
	for b := range e.b {
		switch o := r.o.(type) {
		case *ir.SimBCM:
			rules.BCM(e.lane(o.Delta, b), e.lane(o.Pre, b), e.lane(o.Post, b), e.lane(o.Theta, b), o.LearningRate*r.dt)
		case *ir.SimOja:
			rules.Oja(e.lane(o.Delta, b), e.lane(o.Pre, b), e.lane(o.Post, b), e.lane(o.Weights, b), o.LearningRate*r.dt, o.Beta)
		case *ir.SimVoja:
			c := o.LearningRate * r.dt * e.lane(o.Learning, b)[0]
			rules.Voja(e.lane(o.Delta, b), e.lane(o.X, b), e.lane(o.Post, b), e.lane(o.Encoders, b), e.lane(o.Scale, b), c)
		case *ir.SimRLS:
			rr := e.lane(o.Pre, b)
			r.pr = growTo(r.pr, len(rr))
			rules.RLS(e.lane(o.Delta, b), e.lane(o.P, b), rr, e.lane(o.Error, b), r.pr)
		}
	}
	return nil
}

func (r *ruleOp) backward(*engine, int) error { return nil }
