package nengobridge

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// Unsupported is the error of an operator that has no Go translation: the
// Python side runs it itself (a callback).
type Unsupported struct {
	Op     int    `json:"op"`     // its index in Spec.Ops
	Reason string `json:"reason"` // what neurogo lacks, e.g. "neuron type SpikingTanh"
}

func (e *Unsupported) Error() string {
	return fmt.Sprintf("nengobridge: operator %d: no Go equivalent: %s", e.Op, e.Reason)
}

// unsupported is a translation failure that the Python side can work
// around by running the operator itself.
type unsupported string

func (u unsupported) Error() string { return string(u) }

// Check returns the operators of s that have no Go translation, each with
// its reason, and an error for an operator the Python side described
// wrongly (a missing operand, a size that does not fit).
func Check(s *Spec) ([]Unsupported, error) {
	var out []Unsupported
	for k := range s.Ops {
		if _, err := translate(s, k, nil, nil); err != nil {
			var u unsupported
			if errors.As(err, &u) {
				out = append(out, Unsupported{Op: k, Reason: string(u)})
				continue
			}
			return nil, err
		}
	}
	return out, nil
}

// translate turns operator k of s into an ir operator; call runs the
// callbacks.
func translate(s *Spec, k int, call func(handle, step int, t float64) error, convs *[]*conv) (ir.Op, error) {
	o := s.Ops[k]
	b := ir.Base{Tag: o.Tag, Sets: slices.Clone(o.Sets), Incs: slices.Clone(o.Incs), Reads: slices.Clone(o.Reads), Updates: slices.Clone(o.Updates)}
	t := &tr{s: s, o: &o, k: k}
	var op ir.Op
	switch o.Type {
	case "Callback":
		h := o.Handle
		op = &ir.SimCallback{Base: b, Call: func(step int, t float64) error {
			if call == nil {
				return errors.New("nengobridge: no callback function")
			}
			return call(h, step, t)
		}}
	case "Reset":
		op = &ir.Reset{Base: b, Y: t.sig("Y"), Value: t.num("value")}
	case "Copy":
		op = &ir.Copy{Base: b, X: t.sig("X"), Y: t.sig("Y"), XIdx: t.idx("X"), YIdx: t.idx("Y"), Inc: o.Inc}
	case "ElementwiseInc":
		op = &ir.ElementwiseInc{Base: b, A: t.sig("A"), X: t.sig("X"), Y: t.sig("Y"), AIdx: t.idx("A"), XIdx: t.idx("X"), YIdx: t.idx("Y")}
	case "DotInc":
		op = &ir.DotInc{Base: b, A: t.sig("A"), X: t.sig("X"), Y: t.sig("Y"), Bias: ir.None}
	case "SparseDotInc":
		op = &ir.SparseDotInc{Base: b, A: t.sig("A"), X: t.sig("X"), Y: t.sig("Y"), RowPtr: slices.Clone(o.Ints["indptr"]), Col: slices.Clone(o.Ints["indices"])}
	case "TimeUpdate":
		op = &ir.TimeUpdate{Base: b, Step: t.sig("step"), Time: t.sig("time")}
	case "SimNeurons":
		op = t.neurons(b)
	case "SimSynapse":
		syn, err := synapse(o.Synapse)
		if err != nil {
			return nil, err
		}
		op = &ir.SimSynapse{Base: b, Synapse: syn, X: t.sig("X"), Y: t.sig("Y")}
	case "SimProcess":
		p, err := process(o.Process)
		if err != nil {
			return nil, err
		}
		x := ir.None
		if _, ok := o.Sig["X"]; ok {
			x = t.sig("X")
		}
		op = &ir.SimProcess{Base: b, Process: p, X: x, Y: t.sig("Y"), Inc: o.Inc}
	case "SimPES":
		op = &ir.SimPES{Base: b, Acts: t.sig("pre"), Error: t.sig("error"), Delta: t.sig("delta"), LearningRate: t.num("learning_rate")}
	case "SimBCM":
		op = &ir.SimBCM{Base: b, Pre: t.sig("pre"), Post: t.sig("post"), Theta: t.sig("theta"), Delta: t.sig("delta"), LearningRate: t.num("learning_rate")}
	case "SimOja":
		op = &ir.SimOja{Base: b, Pre: t.sig("pre"), Post: t.sig("post"), Weights: t.sig("weights"), Delta: t.sig("delta"), LearningRate: t.num("learning_rate"), Beta: t.num("beta")}
	case "SimVoja":
		op = &ir.SimVoja{Base: b, X: t.sig("pre"), Post: t.sig("post"), Encoders: t.sig("encoders"), Delta: t.sig("delta"),
			Learning: t.sig("learning"), Scale: t.sig("scale"), LearningRate: t.num("learning_rate")}
	case "ConvInc", "ConvTransposeInc":
		if c := t.newConv(o.Type == "ConvTransposeInc"); c != nil {
			op = c.op(b)
			if convs != nil {
				*convs = append(*convs, c)
			}
		}
	case "SimRLS":
		op = &ir.SimRLS{Base: b, Pre: t.sig("pre"), Error: t.sig("error"), P: t.sig("inv_gamma"), Delta: t.sig("delta")}
	default:
		return nil, unsupported("operator type " + o.Type)
	}
	if t.err != nil {
		return nil, t.err
	}
	return op, nil
}

// tr collects the first error of an operator's translation.
type tr struct {
	s   *Spec
	o   *OpSpec
	k   int
	err error
}

func (t *tr) fail(format string, args ...any) {
	if t.err == nil {
		t.err = fmt.Errorf("nengobridge: operator %d (%s %s): %s", t.k, t.o.Type, t.o.Tag, fmt.Sprintf(format, args...))
	}
}

func (t *tr) sig(name string) int {
	i, ok := t.o.Sig[name]
	if !ok {
		t.fail("no signal %q", name)
		return 0
	}
	return i
}

func (t *tr) idx(name string) []int {
	l, ok := t.o.Idx[name]
	if !ok || l == nil {
		return nil
	}
	n := t.s.Signals[t.o.Sig[name]].Size
	for _, i := range l {
		if i < 0 || i >= n {
			t.fail("index %d of %s is not an element of its signal (%d values)", i, name, n)
			return nil
		}
	}
	return slices.Clone(l)
}

func (t *tr) num(name string) float64 {
	v, ok := t.o.Num[name]
	if !ok {
		t.fail("no parameter %q", name)
	}
	return v
}

// neurons translates SimNeurons: the neuron type and its state signals in
// the toolkit type's order.
func (t *tr) neurons(b ir.Base) ir.Op {
	nt, err := neuronType(t.o.Neuron)
	if err != nil {
		if t.err == nil {
			t.err = err
		}
		return nil
	}
	j, out := t.sig("J"), t.sig("output")
	if t.err != nil {
		return nil
	}
	n := t.s.Signals[j].Size
	st, err := nt.State(n, nil)
	if err != nil {
		t.fail("%v", err)
		return nil
	}
	if len(t.o.State) != len(t.o.StateNames) {
		t.fail("%d state signals for %d names", len(t.o.State), len(t.o.StateNames))
		return nil
	}
	byName := map[string]int{}
	for i, name := range t.o.StateNames {
		byName[name] = t.o.State[i]
	}
	state := make([]int, len(st.Names))
	for i, name := range st.Names {
		sig, ok := byName[name]
		if !ok {
			t.err = unsupported(fmt.Sprintf("neuron type %s: Nengo's state has no %q (it has %s)", nt.Name(), name, strings.Join(t.o.StateNames, ", ")))
			return nil
		}
		state[i] = sig
		delete(byName, name)
	}
	if len(byName) > 0 {
		t.err = unsupported(fmt.Sprintf("neuron type %s: Nengo's state has variables neurogo's has not (%s)", nt.Name(), strings.Join(t.o.StateNames, ", ")))
		return nil
	}
	return &ir.SimNeurons{Base: b, Neuron: nt, J: j, Out: out, State: state, StateNames: st.Names}
}

// neuronType maps a Nengo neuron type onto the toolkit's. Stochastic
// types (PoissonSpiking, StochasticSpiking) are left to Python, whose
// random streams are Nengo's.
func neuronType(ns *NeuronSpec) (neurons.Type, error) {
	if ns == nil {
		return nil, errors.New("nengobridge: SimNeurons without a neuron type")
	}
	p := ns.Params
	need := func(names ...string) error {
		for _, n := range names {
			if _, ok := p[n]; !ok {
				return fmt.Errorf("nengobridge: neuron type %s: no parameter %q", ns.Type, n)
			}
		}
		return nil
	}
	var nt neurons.Type
	var err error
	switch ns.Type {
	case "LIF":
		err = need("tau_rc", "tau_ref", "min_voltage", "amplitude")
		nt = neurons.LIF{TauRC: p["tau_rc"], TauRef: p["tau_ref"], MinVoltage: p["min_voltage"], Amplitude: p["amplitude"]}
	case "LIFRate":
		err = need("tau_rc", "tau_ref", "amplitude")
		nt = neurons.LIFRate{TauRC: p["tau_rc"], TauRef: p["tau_ref"], Amplitude: p["amplitude"]}
	case "AdaptiveLIF":
		err = need("tau_n", "inc_n", "tau_rc", "tau_ref", "min_voltage", "amplitude")
		nt = neurons.AdaptiveLIF{TauN: p["tau_n"], IncN: p["inc_n"], TauRC: p["tau_rc"], TauRef: p["tau_ref"], MinVoltage: p["min_voltage"], Amplitude: p["amplitude"]}
	case "AdaptiveLIFRate":
		err = need("tau_n", "inc_n", "tau_rc", "tau_ref", "amplitude")
		nt = neurons.AdaptiveLIFRate{TauN: p["tau_n"], IncN: p["inc_n"], TauRC: p["tau_rc"], TauRef: p["tau_ref"], Amplitude: p["amplitude"]}
	case "RectifiedLinear":
		err = need("amplitude")
		nt = neurons.RectifiedLinear{Amplitude: p["amplitude"]}
	case "SpikingRectifiedLinear":
		err = need("amplitude")
		nt = neurons.SpikingRectifiedLinear{Amplitude: p["amplitude"]}
	case "Sigmoid":
		err = need("tau_ref")
		nt = neurons.Sigmoid{TauRef: p["tau_ref"]}
	case "Tanh":
		err = need("tau_ref")
		nt = neurons.Tanh{TauRef: p["tau_ref"]}
	case "Izhikevich":
		err = need("tau_recovery", "coupling", "reset_voltage", "reset_recovery")
		nt = neurons.Izhikevich{TauRecovery: p["tau_recovery"], Coupling: p["coupling"], ResetVoltage: p["reset_voltage"], ResetRecovery: p["reset_recovery"]}
	case "RegularSpiking":
		if err = need("amplitude"); err != nil {
			return nil, err
		}
		base, berr := neuronType(ns.Base)
		if berr != nil {
			return nil, berr
		}
		nt = neurons.RegularSpiking{Base: base, Amplitude: p["amplitude"]}
	default:
		return nil, unsupported("neuron type " + ns.Type)
	}
	if err != nil {
		return nil, err
	}
	if err := nt.Validate(); err != nil {
		return nil, unsupported(fmt.Sprintf("neuron type %s: %v", ns.Type, err))
	}
	return nt, nil
}

// synapse maps a Nengo synapse onto the toolkit's.
func synapse(ss *SynapseSpec) (synapses.Synapse, error) {
	if ss == nil {
		return nil, errors.New("nengobridge: SimSynapse without a synapse")
	}
	var syn synapses.Synapse
	switch ss.Type {
	case "Lowpass":
		syn = synapses.Lowpass{Tau: ss.Tau}
	case "Alpha":
		syn = synapses.Alpha{Tau: ss.Tau}
	case "Triangle":
		syn = synapses.Triangle{T: ss.T}
	case "LinearFilter":
		syn = &synapses.LinearFilter{Num: slices.Clone(ss.Num), Den: slices.Clone(ss.Den), Digital: !ss.Analog, Method: ss.Method}
	default:
		return nil, unsupported("synapse " + ss.Type)
	}
	if err := syn.Validate(); err != nil {
		return nil, unsupported(fmt.Sprintf("synapse %s: %v", ss.Type, err))
	}
	return syn, nil
}

// process maps a deterministic Nengo process onto the toolkit's; the
// random ones stay in Python, whose random streams are Nengo's.
func process(ps *ProcessSpec) (toolkit.Process, error) {
	if ps == nil {
		return nil, errors.New("nengobridge: SimProcess without a process")
	}
	var p toolkit.Process
	switch ps.Type {
	case "PresentInput":
		p = &toolkit.PresentInput{Inputs: ps.Inputs, PresentationTime: ps.PresentationTime}
	case "Piecewise":
		p = &toolkit.Piecewise{Times: ps.Times, Values: ps.Values}
	case "Table":
		p = &tableProcess{rows: ps.Rows, dims: ps.Dims}
	default:
		return nil, unsupported("process " + ps.Type)
	}
	if err := p.Validate(); err != nil {
		return nil, unsupported(fmt.Sprintf("process %s: %v", ps.Type, err))
	}
	return p, nil
}

// tableProcess outputs row round(t/dt) mod Rows of its input, a table of
// Rows×Dims values the Python side computes with Nengo's own process
// (WhiteSignal: Nengo draws its coefficients when the simulator resets,
// from the simulator's random stream, and then looks its signal up by
// step exactly so).
type tableProcess struct{ rows, dims int }

func (*tableProcess) Name() string { return "Table" }

func (p *tableProcess) Validate() error {
	if p.rows < 1 || p.dims < 0 {
		return fmt.Errorf("nengobridge: table of %d rows of %d values: needs at least one row", p.rows, p.dims)
	}
	return nil
}

func (p *tableProcess) Step(sizeIn, sizeOut int, dt float64, rng *rand.Rand) (toolkit.NodeFunc, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if sizeIn != p.rows*p.dims || sizeOut != p.dims {
		return nil, fmt.Errorf("nengobridge: table of %d×%d values: input has %d values, output %d", p.rows, p.dims, sizeIn, sizeOut)
	}
	rows, d := p.rows, p.dims
	return func(t float64, x, out []float64) {
		i := int(math.Round(t/dt)) % rows
		copy(out, x[i*d:(i+1)*d])
	}, nil
}
