package sim

import (
	"fmt"
	"math/rand/v2"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
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
	role, key string
}

// Op is one operator of a built model (Nengo's Operator): what it sets,
// increments, reads and updates decides its place in the step order
// (set → increment → read → update for every signal).
type Op struct {
	Kind    string // "Reset", "Copy", "ElementwiseInc", "DotInc", "SparseDotInc", "TimeUpdate", "SimNodeFunc", "SimNeurons", "SimSynapse"
	Tag     string // the object it belongs to
	Sets    []int
	Incs    []int
	Reads   []int
	Updates []int

	// operator data
	value    float64 // Reset
	a        int     // matrix or scalar weights signal (-1: none)
	x, y     int     // source and destination signals
	xIdx     []int   // source indices (nil: all)
	yIdx     []int   // destination indices (nil: all)
	inc      bool    // Copy: y += x instead of y = x
	tfn      toolkit.TimeFunc
	nfn      toolkit.NodeFunc
	cfn      toolkit.Function
	neuron   neurons.Type
	state    []int // state variable signals (SimNeurons)
	names    []string
	seed     int64
	synapse  synapses.Synapse
	node     *toolkit.Node // SimNodeFunc of a node (for data feeds)
	proc     toolkit.Process
	constIdx int     // third signal (BCM theta, Oja weights, Voja encoders, RLS P)
	aux      []int   // further signals (Voja learning signal and scale)
	beta     float64 // Oja
	csrPtr   []int   // SparseDotInc: row pointers (rows+1) into the weights signal
	csrCol   []int   // SparseDotInc: column of each stored weight

	// set by the optimizer (opt.go) on its copies of the operators
	order int   // position in the builder's order (for increments, of the write it replaced)
	set   bool  // ElementwiseInc, DotInc: y = … instead of y += …
	aIdx  []int // ElementwiseInc: weight indices (nil: k, or 0 for a scalar)
	// DotInc with hasBias (and set): y = bias + A·x, a bias copy fused in
	hasBias bool
	bias    int
	fused   []*Op        // EnsembleReLU: the decoder products
	layer   layers.Layer // SimLayer (parameter signals in aux)
}

func (o *Op) String() string { return fmt.Sprintf("%s(%s)", o.Kind, o.Tag) }

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

// compile turns op into closures over the simulator's store. The closures
// allocate nothing per step (except a connection Function on a Node,
// which may return a new slice).
func (op *Op) compile(s *Simulator, ln *lane) (runner, error) {
	m := s.model
	view := func(id int) []float64 {
		g := m.sigs[id]
		return ln.data[g.off : g.off+g.n : g.off+g.n]
	}
	switch op.Kind {
	case "Reset":
		y, v := view(op.y), op.value
		return runner{step: func() {
			for i := range y {
				y[i] = v
			}
		}}, nil
	case "Copy":
		x, y := view(op.x), view(op.y)
		xi, yi, inc := op.xIdx, op.yIdx, op.inc
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
	case "ElementwiseInc":
		a, x, y := view(op.a), view(op.x), view(op.y)
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
	case "DotInc":
		a, x, y := view(op.a), view(op.x), view(op.y)
		cols := len(x)
		return runner{step: func() {
			for i := range y {
				y[i] += vec.Dot(a[i*cols:(i+1)*cols], x)
			}
		}}, nil
	case "SparseDotInc":
		// y += A·x with A in compressed sparse row form: the weights signal
		// holds the nonzeros row by row, csrCol their columns (Nengo's
		// SparseDotInc, which applies a scipy.sparse.csr_matrix).
		a, x, y := view(op.a), view(op.x), view(op.y)
		ptr, col := op.csrPtr, op.csrCol
		if len(ptr) != len(y)+1 || len(col) != len(a) || ptr[len(ptr)-1] != len(a) {
			return runner{}, fmt.Errorf("sim: %s: SparseDotInc with %d row pointers, %d columns and %d weights for %d rows", op.Tag, len(ptr), len(col), len(a), len(y))
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
	case "TimeUpdate":
		st, tt := view(op.y), view(op.x)
		dt := m.Dt
		return runner{step: func() {
			st[0]++
			tt[0] = st[0] * dt
		}}, nil
	case "SimNodeFunc":
		tt := view(m.timeSig)
		var out, x []float64
		if op.y >= 0 {
			out = view(op.y)
		}
		if op.x >= 0 {
			x = view(op.x)
		}
		switch {
		case op.tfn != nil:
			f := op.tfn
			return runner{step: func() { f(tt[0], out) }}, nil
		case op.nfn != nil:
			f := op.nfn
			return runner{step: func() { f(tt[0], x, out) }}, nil
		case op.cfn != nil:
			f := op.cfn
			xi := op.xIdx
			var buf []float64
			if xi != nil {
				buf = make([]float64, len(xi))
			}
			tag := op.Tag
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
		return runner{}, fmt.Errorf("sim: %s: node operator without a function", op.Tag)
	case "SimNeurons":
		J, out := view(op.x), view(op.y)
		st := neurons.State{Names: op.names, Vars: make([][]float64, len(op.state))}
		for i, id := range op.state {
			st.Vars[i] = view(id)
		}
		seed := uint64(op.seed) + uint64(ln.index)*0x9e3779b97f4a7c15
		rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
		nt, dt, tag := op.neuron, m.Dt, op.Tag
		return runner{
			step: func() {
				if err := nt.Step(dt, J, out, st, rng); err != nil {
					s.fail(fmt.Errorf("sim: %s: %w", tag, err))
				}
			},
			reset: func() { *rng = *rand.New(rand.NewPCG(seed, seed^0x5eed)) },
		}, nil
	case "SimProcess":
		// a process writes (inc false) or adds (inc true) its output; its
		// random source and state restart on Reset
		tt := view(m.timeSig)
		y := view(op.y)
		var x []float64
		if op.x >= 0 {
			x = view(op.x)
		}
		seed := uint64(op.seed) + uint64(ln.index)*0x9e3779b97f4a7c15
		sizeIn := 0
		if x != nil {
			sizeIn = len(x)
		}
		mk := func() (toolkit.NodeFunc, error) {
			return op.proc.Step(sizeIn, len(y), m.Dt, rand.New(rand.NewPCG(seed, 0x9e0c)))
		}
		f, err := mk()
		if err != nil {
			return runner{}, fmt.Errorf("sim: %s: %w", op.Tag, err)
		}
		if !op.inc {
			return runner{step: func() { f(tt[0], x, y) }, reset: func() { f, _ = mk() }}, nil
		}
		buf := make([]float64, len(y))
		return runner{step: func() {
			f(tt[0], x, buf)
			for i, v := range buf {
				y[i] += v
			}
		}, reset: func() { f, _ = mk() }}, nil
	case "SimBCM":
		pre, post, theta, delta := view(op.x), view(op.a), view(op.constIdx), view(op.y)
		alpha := op.value * m.Dt
		return runner{step: func() {
			n := len(pre)
			for j, q := range post {
				c := float64(alpha*q) * (q - theta[j])
				row := delta[j*n : (j+1)*n]
				for i, p := range pre {
					row[i] = float64(c * p)
				}
			}
		}}, nil
	case "SimOja":
		pre, post, w, delta := view(op.x), view(op.a), view(op.constIdx), view(op.y)
		alpha, beta := op.value*m.Dt, op.beta
		return runner{step: func() {
			n := len(pre)
			for j, q := range post {
				sq := float64(alpha*q) * q
				aq := alpha * q
				row, wr := delta[j*n:(j+1)*n], w[j*n:(j+1)*n]
				for i, p := range pre {
					row[i] = float64(-beta*wr[i]) * sq
					row[i] += float64(aq * p)
				}
			}
		}}, nil
	case "SimVoja":
		x, post, enc, delta := view(op.x), view(op.a), view(op.constIdx), view(op.y)
		learning, scale := view(op.aux[0]), view(op.aux[1])
		alpha := op.value * m.Dt
		return runner{step: func() {
			d := len(x)
			c := alpha * learning[0]
			for i, a := range post {
				si := scale[i]
				row, er := delta[i*d:(i+1)*d], enc[i*d:(i+1)*d]
				for j, xj := range x {
					row[j] = c * (float64(si*float64(a*xj)) - float64(a*er[j]))
				}
			}
		}}, nil
	case "SimRLS":
		r, e, P, delta := view(op.x), view(op.a), view(op.constIdx), view(op.y)
		n := len(r)
		Pr := make([]float64, n)
		return runner{step: func() {
			// Pr = P·r; P -= Pr Prᵀ/(1 + r·Pr); delta = -e ⊗ Pr/(1 + r·Pr)
			for i := range n {
				var acc float64
				row := P[i*n : (i+1)*n]
				for j, v := range row {
					acc += float64(v * r[j])
				}
				Pr[i] = acc
			}
			var rPr float64
			for i, v := range r {
				rPr += float64(v * Pr[i])
			}
			rPr1 := 1 / (1 + rPr)
			for i := range n {
				row := P[i*n : (i+1)*n]
				for j := range n {
					row[j] -= float64(Pr[i] * float64(Pr[j]*rPr1))
				}
			}
			for i, ei := range e {
				row := delta[i*n : (i+1)*n]
				for j := range n {
					row[j] = float64(ei * float64(-rPr1*Pr[j]))
				}
			}
		}}, nil
	case "SimPES":
		acts, e, delta := view(op.x), view(op.a), view(op.y)
		alpha := -op.value * m.Dt / float64(len(acts))
		if op.inc {
			// fused by the optimizer: weights += outer(alpha·error, acts)
			// in one pass, instead of writing delta and adding it next step
			return runner{step: func() {
				n := len(acts)
				for i, ei := range e {
					vec.Axpy(delta[i*n:(i+1)*n], acts, alpha*ei)
				}
			}}, nil
		}
		return runner{step: func() {
			// delta = outer(alpha·error, acts)
			n := len(acts)
			for i, ei := range e {
				ae := alpha * ei
				row := delta[i*n : (i+1)*n]
				for j, a := range acts {
					row[j] = float64(ae * a)
				}
			}
		}}, nil
	case "SimLayer":
		// a deep-learning layer on this lane's example (batch 1, inference
		// mode: Dropout off, BatchNorm with its moving statistics)
		x, y := view(op.x), view(op.y)
		ps := make([][]float64, len(op.aux))
		for i, id := range op.aux {
			ps[i] = view(id)
		}
		l := op.layer
		if s.layerHook != nil {
			l2, err := s.layerHook(op.Tag, l, ln.index)
			if err != nil {
				return runner{}, fmt.Errorf("sim: %s: %w", op.Tag, err)
			}
			if l2 != nil {
				if !sameShapes(l, l2) {
					return runner{}, fmt.Errorf("sim: %s: LayerHook: replacement %s has other shapes or parameters than %s", op.Tag, l2.Kind(), l.Kind())
				}
				l = l2
			}
		}
		ex, err := l.NewExec(1, uint64(op.seed)+uint64(ln.index))
		if err != nil {
			return runner{}, fmt.Errorf("sim: %s: %w", op.Tag, err)
		}
		tag := op.Tag
		return runner{step: func() {
			if err := ex.Forward(ps, x, y, 1, false); err != nil {
				s.fail(fmt.Errorf("sim: %s: %w", tag, err))
			}
		}}, nil
	case "SimSynapse":
		x, y := view(op.x), view(op.y)
		f, err := op.synapse.Filter(m.Dt, len(x))
		if err != nil {
			return runner{}, fmt.Errorf("sim: %s: %w", op.Tag, err)
		}
		tag := op.Tag
		return runner{
			step: func() {
				if err := f.Step(y, x); err != nil {
					s.fail(fmt.Errorf("sim: %s: %w", tag, err))
				}
			},
			reset: f.Reset,
		}, nil
	}
	return runner{}, fmt.Errorf("sim: unknown operator %q", op.Kind)
}
