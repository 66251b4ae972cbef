package sim

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"

	"github.com/neurogo/neurogo/internal/rules"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// signal is a contiguous block of the model's float64 store (Nengo's
// Signal). Every signal is its own base; slices are expressed by index
// lists on the operators that read or write them.
type signal struct {
	name  string
	off   int
	n     int
	init  []float64 // initial value (nil: zeros)
	rows  int       // >0 for a matrix (rows×n/rows)
	owner string    // object that owns it, for error messages
	// readonly signals never change after Reset (biases, encoders, fixed
	// weights); the NaN check skips them.
	readonly bool
	// role and key name the built parameter a signal holds, for executors
	// that train or map it (Graph): role "bias", "scaled_encoders",
	// "weights", "decoders", "transform" or "gains", key the ensemble or
	// connection key of Params.
	role ir.Role
	key  string
}

// runner is an operator made executable on a simulator's store.
type runner struct {
	step  func()
	reset func()
	// chunks, if set, are independent parts of step, run in order; a
	// batched simulator runs each chunk for every lane before the next
	// (lockstep), so the chunk's weights are read from the cache by all
	// lanes but the first
	chunks []func()
	// dot, if set, is the lane's merged product with its blocks: a
	// batched simulator computes the blocks with aligned weights for all
	// its lanes at once (dotLanes)
	dot *dotRun
	// ens, if set, are the lane's parts of a merged EnsembleReLU (one, or
	// one per lockstep chunk): a batched simulator runs their octets two
	// lanes at a time (ensLanes)
	ens []*ensPart
}

// lockRunner runs chunks in order as one step, and exposes them for
// lockstep batches.
func lockRunner(chunks []func()) runner {
	return runner{step: func() {
		for _, c := range chunks {
			c()
		}
	}, chunks: chunks}
}

// view returns signal id of lane ln as a slice of its store (capacity
// clipped, so appends cannot reach the next signal).
func (s *Simulator) view(ln *lane, id int) []float64 {
	g := s.model.sigs[id]
	return ln.data[g.off : g.off+g.n : g.off+g.n]
}

// The single-operator kernels: each turns one operator into closures over
// a lane's store. The closures allocate nothing per step (except a
// connection Function on a Node, which may return a new slice).

func (s *Simulator) resetOp(ln *lane, o *ir.Reset) (runner, error) {
	y, v := s.view(ln, o.Y), o.Value
	return runner{step: func() {
		for i := range y {
			y[i] = v
		}
	}}, nil
}

func (s *Simulator) copyOp(ln *lane, o *ir.Copy) (runner, error) {
	x, y := s.view(ln, o.X), s.view(ln, o.Y)
	xi, yi, inc := o.XIdx, o.YIdx, o.Inc
	return runner{step: func() {
		n := len(y)
		if yi != nil {
			n = len(yi)
		}
		for k := range n {
			sk, dk := k, k
			if xi != nil {
				sk = xi[k]
			}
			if yi != nil {
				dk = yi[k]
			}
			if inc {
				y[dk] += x[sk]
			} else {
				y[dk] = x[sk]
			}
		}
	}}, nil
}

func (s *Simulator) elementwiseOp(ln *lane, o *ir.ElementwiseInc) (runner, error) {
	a, x, y := s.view(ln, o.A), s.view(ln, o.X), s.view(ln, o.Y)
	return runner{step: func() {
		if len(a) == 1 {
			av := a[0]
			for i := range y {
				y[i] += float64(av * x[i])
			}
			return
		}
		for i := range y {
			y[i] += float64(a[i] * x[i])
		}
	}}, nil
}

func (s *Simulator) sparseOp(ln *lane, o *ir.SparseDotInc) (runner, error) {
	// y += A·x with A in compressed sparse row form (Nengo's SparseDotInc,
	// which applies a scipy.sparse.csr_matrix)
	a, x, y := s.view(ln, o.A), s.view(ln, o.X), s.view(ln, o.Y)
	ptr, col := o.RowPtr, o.Col
	if len(ptr) != len(y)+1 || len(col) != len(a) || ptr[len(ptr)-1] != len(a) {
		panic(fmt.Sprintf("sim: %s: SparseDotInc with %d row pointers, %d columns and %d weights for %d rows", o.Tag, len(ptr), len(col), len(a), len(y)))
	}
	return runner{step: func() {
		for i := range y {
			lo, hi := ptr[i], ptr[i+1]
			var acc float64
			for k, v := range a[lo:hi] {
				acc += float64(v * x[col[lo+k]])
			}
			y[i] += acc
		}
	}}, nil
}

func (s *Simulator) timeOp(ln *lane, o *ir.TimeUpdate) (runner, error) {
	st, tt := s.view(ln, o.Step), s.view(ln, o.Time)
	dt := s.model.Dt
	return runner{step: func() {
		st[0]++
		tt[0] = st[0] * dt
	}}, nil
}

func (s *Simulator) nodeFuncOpRun(ln *lane, o *ir.SimNodeFunc) (runner, error) {
	tt := s.view(ln, s.model.timeSig)
	var out, x []float64
	if o.Y >= 0 {
		out = s.view(ln, o.Y)
	}
	if o.X >= 0 {
		x = s.view(ln, o.X)
	}
	tag := o.Tag
	switch {
	case o.TimeFn != nil:
		f := o.TimeFn
		return runner{step: func() { f(tt[0], out) }}, nil
	case o.NodeFn != nil:
		f := o.NodeFn
		return runner{step: func() { f(tt[0], x, out) }}, nil
	case o.Fn != nil:
		f := o.Fn
		xi := o.XIdx
		var buf []float64
		if xi != nil {
			buf = make([]float64, len(xi))
		}
		return runner{step: func() {
			in := x
			if xi != nil {
				for k, i := range xi {
					buf[k] = x[i]
				}
				in = buf
			}
			r := f(in)
			if len(r) != len(out) {
				s.fail(fmt.Errorf("sim: %s: Function returned %d values, want %d", tag, len(r), len(out)))
				return
			}
			copy(out, r)
		}}, nil
	}
	panic(fmt.Sprintf("sim: %s: node operator without a function", o.Tag))
}

// nodeFuncOp, processOp and layerOp run user code (a node's function,
// a process, a layer), whose panics become errors (guarded).
func (s *Simulator) nodeFuncOp(ln *lane, o *ir.SimNodeFunc) (runner, error) {
	r, err := s.nodeFuncOpRun(ln, o)
	return s.guarded(ln, o.Tag, r), err
}

func (s *Simulator) processOp(ln *lane, o *ir.SimProcess) (runner, error) {
	r, err := s.processOpRun(ln, o)
	return s.guarded(ln, o.Tag, r), err
}

func (s *Simulator) layerOp(ln *lane, o *ir.SimLayer) (runner, error) {
	r, err := s.layerOpRun(ln, o)
	return s.guarded(ln, o.Tag, r), err
}

// guarded makes r recover a panic of the user code it calls: the
// simulator fails with a *PanicError naming the object and the step, and
// the run stops after that step without recording it (see Run).
func (s *Simulator) guarded(ln *lane, obj string, r runner) runner {
	if r.step == nil {
		return r
	}
	step := r.step
	stepOff := s.model.sigs[s.model.stepSig].off
	r.step = func() {
		defer func() {
			if v := recover(); v != nil {
				s.fail(&PanicError{Object: obj, Step: int(ln.data[stepOff]), Time: float64(int(ln.data[stepOff])) * s.model.Dt, Value: v, Stack: debug.Stack()})
			}
		}()
		step()
	}
	return r
}

// callbackOp runs a SimCallback: its function, guarded like user code;
// an error it returns stops the run at this step.
func (s *Simulator) callbackOp(ln *lane, o *ir.SimCallback) (runner, error) {
	if o.Call == nil {
		return runner{}, fmt.Errorf("sim: %s: no function", o)
	}
	call, tag := o.Call, o.Tag
	stepOff, timeOff := s.model.sigs[s.model.stepSig].off, s.model.sigs[s.model.timeSig].off
	r := runner{step: func() {
		if err := call(int(ln.data[stepOff]), ln.data[timeOff]); err != nil {
			s.fail(fmt.Errorf("sim: %s at step %d: %w", tag, int(ln.data[stepOff]), err))
		}
	}, reset: o.Reset}
	return s.guarded(ln, tag, r), nil
}

// laneSeed is the seed of lane ln's copy of a random stream.
func laneSeed(seed int64, ln *lane) uint64 {
	return uint64(seed) + uint64(ln.index)*0x9e3779b97f4a7c15
}

func (s *Simulator) neuronsOp(ln *lane, o *ir.SimNeurons) (runner, error) {
	J, out := s.view(ln, o.J), s.view(ln, o.Out)
	st := neurons.State{Names: o.StateNames, Vars: make([][]float64, len(o.State))}
	for i, id := range o.State {
		st.Vars[i] = s.view(ln, id)
	}
	seed := laneSeed(o.Seed, ln)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	return runner{
		step:  s.neuronStep(o.Neuron, J, out, st, rng, o.Tag),
		reset: func() { *rng = *rand.New(rand.NewPCG(seed, seed^0x5eed)) },
	}, nil
}

// neuronStep steps neuron type nt from currents J to out (state st); a
// failure stops the simulator with an error naming tag.
func (s *Simulator) neuronStep(nt neurons.Type, J, out []float64, st neurons.State, rng *rand.Rand, tag string) func() {
	dt := s.model.Dt
	return func() {
		if err := nt.Step(dt, J, out, st, rng); err != nil {
			s.fail(fmt.Errorf("sim: %s: %w", tag, err))
		}
	}
}

func (s *Simulator) processOpRun(ln *lane, o *ir.SimProcess) (runner, error) {
	// a process writes (Inc false) or adds (Inc true) its output; its
	// random source and state restart on Reset
	m := s.model
	tt := s.view(ln, m.timeSig)
	y := s.view(ln, o.Y)
	var x []float64
	if o.X >= 0 {
		x = s.view(ln, o.X)
	}
	seed := laneSeed(o.Seed, ln)
	sizeIn := 0
	if x != nil {
		sizeIn = len(x)
	}
	proc := o.Process
	mk := func() (toolkit.NodeFunc, error) {
		return proc.Step(sizeIn, len(y), m.Dt, rand.New(rand.NewPCG(seed, 0x9e0c)))
	}
	f, err := mk()
	if err != nil {
		return runner{}, fmt.Errorf("sim: %s: %w", o.Tag, err)
	}
	if !o.Inc {
		return runner{step: func() { f(tt[0], x, y) }, reset: func() { f, _ = mk() }}, nil
	}
	buf := make([]float64, len(y))
	return runner{step: func() {
		f(tt[0], x, buf)
		for i, v := range buf {
			y[i] += v
		}
	}, reset: func() { f, _ = mk() }}, nil
}

func (s *Simulator) bcmOp(ln *lane, o *ir.SimBCM) (runner, error) {
	pre, post, theta, delta := s.view(ln, o.Pre), s.view(ln, o.Post), s.view(ln, o.Theta), s.view(ln, o.Delta)
	alpha := o.LearningRate * s.model.Dt
	return runner{step: func() { rules.BCM(delta, pre, post, theta, alpha) }}, nil
}

func (s *Simulator) ojaOp(ln *lane, o *ir.SimOja) (runner, error) {
	pre, post, w, delta := s.view(ln, o.Pre), s.view(ln, o.Post), s.view(ln, o.Weights), s.view(ln, o.Delta)
	alpha, beta := o.LearningRate*s.model.Dt, o.Beta
	return runner{step: func() { rules.Oja(delta, pre, post, w, alpha, beta) }}, nil
}

func (s *Simulator) vojaOp(ln *lane, o *ir.SimVoja) (runner, error) {
	x, post, enc, delta := s.view(ln, o.X), s.view(ln, o.Post), s.view(ln, o.Encoders), s.view(ln, o.Delta)
	learning, scale := s.view(ln, o.Learning), s.view(ln, o.Scale)
	alpha := o.LearningRate * s.model.Dt
	return runner{step: func() { rules.Voja(delta, x, post, enc, scale, alpha*learning[0]) }}, nil
}

func (s *Simulator) rlsOp(ln *lane, o *ir.SimRLS) (runner, error) {
	r, e, P, delta := s.view(ln, o.Pre), s.view(ln, o.Error), s.view(ln, o.P), s.view(ln, o.Delta)
	pr := make([]float64, len(r))
	return runner{step: func() { rules.RLS(delta, P, r, e, pr) }}, nil
}

func (s *Simulator) pesOp(ln *lane, o *ir.SimPES) (runner, error) {
	acts, e, delta := s.view(ln, o.Acts), s.view(ln, o.Error), s.view(ln, o.Delta)
	alpha := -o.LearningRate * s.model.Dt / float64(len(acts))
	if o.InPlace {
		// fused by the optimiser: the weights change in one pass instead
		// of a delta written now and added next step
		return runner{step: func() { rules.PESInPlace(delta, acts, e, alpha) }}, nil
	}
	return runner{step: func() { rules.PES(delta, acts, e, alpha) }}, nil
}

func (s *Simulator) layerOpRun(ln *lane, o *ir.SimLayer) (runner, error) {
	// a deep-learning layer on this lane's example (batch 1, inference
	// mode: Dropout off, BatchNorm with its moving statistics)
	x, y := s.view(ln, o.X), s.view(ln, o.Y)
	ps := make([][]float64, len(o.Params))
	for i, id := range o.Params {
		ps[i] = s.view(ln, id)
	}
	l := o.Layer
	if s.layerHook != nil {
		l2, err := s.layerHook(o.Tag, l, ln.index)
		if err != nil {
			return runner{}, fmt.Errorf("sim: %s: %w", o.Tag, err)
		}
		if l2 != nil {
			if !sameShapes(l, l2) {
				return runner{}, fmt.Errorf("sim: %s: LayerHook: replacement %s has other shapes or parameters than %s", o.Tag, l2.Kind(), l.Kind())
			}
			l = l2
		}
	}
	ex, err := l.NewExec(1, uint64(o.Seed)+uint64(ln.index))
	if err != nil {
		return runner{}, fmt.Errorf("sim: %s: %w", o.Tag, err)
	}
	tag := o.Tag
	return runner{step: func() {
		if err := ex.Forward(ps, x, y, 1, false); err != nil {
			s.fail(fmt.Errorf("sim: %s: %w", tag, err))
		}
	}}, nil
}

func (s *Simulator) synapseOp(ln *lane, o *ir.SimSynapse) (runner, error) {
	return s.filterRunner(o.Synapse, s.view(ln, o.X), s.view(ln, o.Y), o.Tag)
}

// filterRunner filters x into y with syn (its state restarts on Reset);
// a failure stops the simulator with an error naming tag.
func (s *Simulator) filterRunner(syn synapses.Synapse, x, y []float64, tag string) (runner, error) {
	f, err := syn.Filter(s.model.Dt, len(x))
	if err != nil {
		return runner{}, fmt.Errorf("sim: %s: %w", tag, err)
	}
	return runner{
		step: func() {
			if err := f.Step(y, x); err != nil {
				s.fail(fmt.Errorf("sim: %s: %w", tag, err))
			}
		},
		reset: f.Reset,
	}, nil
}
