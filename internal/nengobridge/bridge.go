package nengobridge

import (
	"errors"
	"fmt"

	"github.com/neurogo/neurogo/sim"
)

// CallFunc runs the Python operator handle for step (t its time); an
// error stops the run at that step.
type CallFunc func(handle, step int, t float64) error

// Bridge is a simulator of a Spec.
type Bridge struct {
	spec  *Spec
	model *sim.Model
	sim   *sim.Simulator
}

// New builds a simulator for s: init holds the signals' initial values
// (SignalSpec.Init are offsets into it), call runs the Callback operators
// and alloc, if not nil, allocates the store (sim.Store). Every operator
// must have a Go translation or be a Callback (Check lists those that
// have none).
func New(s *Spec, init []float64, call CallFunc, alloc func(n int) []float64) (*Bridge, error) {
	if s == nil {
		return nil, errors.New("nengobridge: no model description")
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	g := &sim.Graph{Dt: s.Dt, Time: s.Time, Step: s.Step}
	for i, sg := range s.Signals {
		gs := sim.GraphSignal{Name: sg.Name, Size: sg.Size, ReadOnly: sg.ReadOnly}
		if sg.Init >= 0 {
			if sg.Init+sg.Size > len(init) {
				return nil, fmt.Errorf("nengobridge: signal %d (%s): initial value at [%d, %d) lies outside the %d values given", i, sg.Name, sg.Init, sg.Init+sg.Size, len(init))
			}
			gs.Init = init[sg.Init : sg.Init+sg.Size : sg.Init+sg.Size]
		}
		g.Signals = append(g.Signals, gs)
	}
	var convs []*conv
	for k := range s.Ops {
		op, err := translate(s, k, call, &convs)
		if err != nil {
			var u unsupported
			if errors.As(err, &u) {
				return nil, &Unsupported{Op: k, Reason: string(u)}
			}
			return nil, err
		}
		g.Ops = append(g.Ops, op)
	}
	for _, p := range s.Probes {
		dims := s.Signals[p.Signal].Size
		if p.Idx != nil {
			dims = len(p.Idx)
		}
		g.Probes = append(g.Probes, sim.GraphProbe{Label: p.Label, Signal: p.Signal, Idx: p.Idx, Dims: dims, Period: p.Period})
	}
	opts := []sim.Option{sim.CheckNaN(!s.NoNaNCheck)}
	if s.NoOptimize {
		opts = append(opts, sim.Optimize(sim.Optimizations{}))
	}
	m, err := sim.FromGraph(g, opts...)
	if err != nil {
		return nil, err
	}
	if alloc != nil {
		opts = append(opts, sim.Store(alloc))
	}
	sm, err := sim.NewFromModel(m, opts...)
	if err != nil {
		return nil, err
	}
	for _, c := range convs {
		c.bind(func(i int) []float64 { return sm.Signal(0, i) })
	}
	return &Bridge{spec: s, model: m, sim: sm}, nil
}

// Run runs n steps.
func (b *Bridge) Run(n int) error { return b.sim.RunSteps(n) }

// Reset restores the initial values of every signal and operator state
// and clears the probe data.
func (b *Bridge) Reset() { b.sim.Reset() }

// Steps returns the steps run since the last Reset.
func (b *Bridge) Steps() int { return b.sim.Steps() }

// Signal returns signal i's values in the store (nil if i is out of
// range).
func (b *Bridge) Signal(i int) []float64 { return b.sim.Signal(0, i) }

// Probe returns probe i's samples, flat (samples × dims); the slice is
// the simulator's until the next Run or Reset.
func (b *Bridge) Probe(i int) []float64 { return b.sim.ProbeValues(0, i) }

// ProbeLen returns the number of values probe i holds (-1: no such
// probe).
func (b *Bridge) ProbeLen(i int) int { return b.sim.ProbeLen(0, i) }

// CopyProbe copies probe i's values from offset from on into dst and
// returns how many it copied (-1: no such probe or offset).
func (b *Bridge) CopyProbe(i, from int, dst []float64) int { return b.sim.CopyProbe(0, i, from, dst) }

// Probes returns the number of probes.
func (b *Bridge) Probes() int { return len(b.spec.Probes) }

// ClearProbes discards the probe data recorded so far.
func (b *Bridge) ClearProbes() { b.sim.ClearProbes() }

// Plan describes what neurogo's optimiser made of the model.
func (b *Bridge) Plan() sim.Plan { return b.model.Plan() }

// Close releases the simulator.
func (b *Bridge) Close() error { return b.sim.Close() }
