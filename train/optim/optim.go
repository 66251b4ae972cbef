package optim

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/toolkit/layers"
)

// Var is one trainable parameter array and its gradient (same length).
//
// Name and Kind are for display and for the keys of the optimiser's
// state; code that treats parameters differently selects them by the
// typed references Param and Owner (a Multi Rule's Owner or Role), which
// package train fills in.
type Var struct {
	Name  string // unique, e.g. "conv1.kernel" or "Ensemble \"a\".encoders"
	Kind  string // the owner's kind, e.g. "Conv2D", "Dense", "Ensemble", "Connection"
	Value []float64
	Grad  []float64
	// Param is the declaration of the layer parameter this var trains —
	// its Role, Shape and Constraint (its Value is not kept: Value above
	// is the live one) — or nil for a parameter that is not a layer's
	// (an ensemble's or a connection's).
	Param *layers.Param
	// Owner is the model object the parameter belongs to, compared by
	// identity: package train sets the *toolkit.Ensemble,
	// *toolkit.Connection or *toolkit.Node (of a layer). nil: unknown.
	Owner any
}

// ApplyConstraints projects every var's Value by its declared constraint
// (Param.Constraint; vars without one are left alone), Keras's
// kernel_constraint: package train calls it after every successful
// Optimizer.Step, so every optimiser, wrapped or not, trains constrained
// parameters the same way. The analog layers of package accel/analog
// declare their kernels bounded by ±63 this way (the hxtorch paper's
// clamp_weight_).
func ApplyConstraints(vars []*Var) {
	for _, v := range vars {
		if v != nil && v.Param != nil && v.Param.Constraint != nil {
			v.Param.Constraint.Project(v.Value)
		}
	}
}

// Optimizer updates parameters from their gradients.
type Optimizer interface {
	Name() string
	// Step applies one update to every var from its Grad (in place on Value);
	// step counts from 1. Per-var state is created on first sight, keyed by Name.
	Step(vars []*Var, step int) error
	// State/SetState export and restore all internal state (moments, accumulators)
	// keyed "<var name>/<slot>", so training resumes exactly from a checkpoint.
	State() map[string][]float64
	SetState(map[string][]float64) error
}

// Schedule gives the learning rate for a step (counted from 1).
type Schedule interface {
	Rate(step int) float64
	Name() string
}

// NonFiniteError reports a NaN or ±Inf in a gradient. The trainer turns it
// into "NaN loss/gradient at step S in parameter P".
type NonFiniteError struct {
	Optimizer string  // the optimiser that refused the step
	Step      int     // the step passed to Step
	Var       string  // the parameter's Name
	Kind      string  // the parameter's Kind
	Index     int     // the first offending element of Grad
	Value     float64 // its value (NaN, +Inf or -Inf)
}

func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("optim: %s: step %d: gradient of %q (%s) is %v at index %d",
		e.Optimizer, e.Step, e.Var, e.Kind, e.Value, e.Index)
}

// checker is implemented by the optimisers of this package: it validates
// hyper-parameters and the learning rate for step without touching any
// state, so wrappers (Clip, Multi) can refuse a step before any update.
type checker interface {
	check(step int) error
}

// validHyper reports an error unless x is finite and in [lo, hi] (or
// [lo, hi) when openHi).
func validHyper(opt, field string, x, lo, hi float64, openHi bool) error {
	bad := math.IsNaN(x) || math.IsInf(x, 0) || x < lo || x > hi || (openHi && x == hi)
	if !bad {
		return nil
	}
	rule := fmt.Sprintf("in [%g, %g]", lo, hi)
	if openHi {
		rule = fmt.Sprintf("in [%g, %g)", lo, hi)
	}
	if math.IsInf(hi, 1) {
		rule = fmt.Sprintf("finite and ≥ %g", lo)
	}
	return fmt.Errorf("optim: %s: %s = %v, must be %s", opt, field, x, rule)
}

// rate returns the learning rate for step: sched.Rate(step) when sched is
// non-nil, else lr (or def when lr is 0).
func rate(opt string, lr, def float64, sched Schedule, step int) (float64, error) {
	if step < 1 {
		return 0, fmt.Errorf("optim: %s: step = %d, must be ≥ 1 (steps count from 1)", opt, step)
	}
	if sched == nil {
		if lr == 0 {
			lr = def
		}
		if err := validHyper(opt, "LR", lr, 0, math.Inf(1), false); err != nil {
			return 0, err
		}
		return lr, nil
	}
	if v, ok := sched.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return 0, fmt.Errorf("optim: %s: %w", opt, err)
		}
	}
	r := sched.Rate(step)
	if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		return 0, fmt.Errorf("optim: %s: schedule %s gives learning rate %v at step %d, must be finite and ≥ 0",
			opt, sched.Name(), r, step)
	}
	return r, nil
}

// checkVars validates lengths and finiteness of every gradient.
func checkVars(opt string, vars []*Var, step int) error {
	for i, v := range vars {
		if v == nil {
			return fmt.Errorf("optim: %s: step %d: vars[%d] is nil", opt, step, i)
		}
		if len(v.Value) != len(v.Grad) {
			return fmt.Errorf("optim: %s: step %d: %q (%s) has %d values but %d gradients, must be equal",
				opt, step, v.Name, v.Kind, len(v.Value), len(v.Grad))
		}
		for j, g := range v.Grad {
			if math.IsNaN(g) || math.IsInf(g, 0) {
				return &NonFiniteError{Optimizer: opt, Step: step, Var: v.Name, Kind: v.Kind, Index: j, Value: g}
			}
		}
	}
	return nil
}

// slots holds the per-var state of one optimiser: for each var name, one
// buffer per slot name, created on first use (or restored from SetState).
type slots struct {
	names   []string // slot names, in buffer order
	byVar   map[string]*entry
	pending map[string][]float64 // restored by SetState, not yet claimed
	call    uint64               // Step calls so far, to catch duplicate names
}

type entry struct {
	bufs [][]float64
	call uint64
}

func newSlots(names ...string) slots { return slots{names: names} }

// lookup returns the entry of v, creating it on first sight, and refuses a
// name seen twice in one Step call (its state would be updated twice).
func (s *slots) lookup(opt string, v *Var, step int) (*entry, error) {
	if s.byVar == nil {
		s.byVar = make(map[string]*entry)
	}
	e := s.byVar[v.Name]
	if e == nil {
		e = &entry{bufs: make([][]float64, len(s.names))}
		s.byVar[v.Name] = e
	}
	if e.call == s.call {
		return nil, fmt.Errorf("optim: %s: step %d: var name %q appears twice, names must be unique", opt, step, v.Name)
	}
	e.call = s.call
	// A restored buffer must fit the var; check it now, before any update.
	for i, b := range e.bufs {
		if b == nil && s.pending != nil {
			key := v.Name + "/" + s.names[i]
			if p, ok := s.pending[key]; ok {
				if len(p) != len(v.Value) {
					return nil, fmt.Errorf("optim: %s: step %d: restored state %q has %d values but %q has %d",
						opt, step, key, len(p), v.Name, len(v.Value))
				}
				e.bufs[i] = p
				delete(s.pending, key)
			}
		}
		if b != nil && len(b) != len(v.Value) {
			return nil, fmt.Errorf("optim: %s: step %d: %q changed length from %d to %d",
				opt, step, v.Name, len(b), len(v.Value))
		}
	}
	return e, nil
}

// buf returns slot i of e for a var of n elements, allocating it filled
// with init on first use.
func (e *entry) buf(i, n int, init float64) []float64 {
	if e.bufs[i] == nil {
		b := make([]float64, n)
		if init != 0 {
			for j := range b {
				b[j] = init
			}
		}
		e.bufs[i] = b
	}
	return e.bufs[i]
}

// begin starts one Step call: it validates vars and looks up their entries
// into dst (reused), so that no update happens when any var is invalid.
func (s *slots) begin(opt string, vars []*Var, step int, dst []*entry) ([]*entry, error) {
	if err := checkVars(opt, vars, step); err != nil {
		return dst, err
	}
	s.call++
	dst = dst[:0]
	for _, v := range vars {
		e, err := s.lookup(opt, v, step)
		if err != nil {
			return dst, err
		}
		dst = append(dst, e)
	}
	return dst, nil
}

// state exports copies of every buffer (and of restored, unclaimed ones).
func (s *slots) state() map[string][]float64 {
	out := make(map[string][]float64)
	for name, e := range s.byVar {
		for i, b := range e.bufs {
			if b != nil {
				out[name+"/"+s.names[i]] = append([]float64(nil), b...)
			}
		}
	}
	for k, p := range s.pending {
		out[k] = append([]float64(nil), p...)
	}
	return out
}

// setState replaces all state by copies of m, after checking every key
// names a known slot and every value is finite.
func (s *slots) setState(opt string, m map[string][]float64) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic first error
	pending := make(map[string][]float64, len(m))
	for _, k := range keys {
		i := strings.LastIndexByte(k, '/')
		if i <= 0 {
			return fmt.Errorf("optim: %s: SetState: key %q must be \"<var name>/<slot>\"", opt, k)
		}
		slot := k[i+1:]
		known := false
		for _, n := range s.names {
			known = known || n == slot
		}
		if !known {
			return fmt.Errorf("optim: %s: SetState: key %q has slot %q, must be one of %v", opt, k, slot, s.names)
		}
		for j, x := range m[k] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("optim: %s: SetState: %q[%d] = %v, must be finite", opt, k, j, x)
			}
		}
		pending[k] = append([]float64(nil), m[k]...)
	}
	s.byVar = nil
	s.pending = pending
	return nil
}
