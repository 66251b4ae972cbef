package sim

import (
	"slices"

	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
)

// Graph is a built model as plain data, for executors other than the
// simulator: the trainer (package train) differentiates it through time
// and accelerator backends map it onto hardware. It lists the builder's
// operators (package ir's types) in execution order, before the optimizer
// merges them; an executor lowers them with an ir.Lowerer.
type Graph struct {
	Dt      float64
	Signals []GraphSignal
	Ops     []ir.Op
	Probes  []GraphProbe
	// Time and Step are the signals TimeUpdate advances (t = step·dt).
	Time, Step int
	// NodeOutputs maps a node whose output can be fed with data (a
	// constant, a function of time or of its input, or a process) to its
	// output signal.
	NodeOutputs map[*toolkit.Node]int
}

// GraphSignal is one signal: Size values, a Rows×(Size/Rows) matrix when
// Rows > 0, initial value Init (nil: zeros).
type GraphSignal struct {
	Name  string
	Owner string // the object it belongs to, e.g. `Ensemble "a"`
	Size  int
	Rows  int
	Init  []float64
	// ReadOnly signals never change during a run: encoders, biases, fixed
	// weights, constant node outputs.
	ReadOnly bool
	// Role names the built parameter the signal holds — ir.RoleBias,
	// ir.RoleScaledEncoders (Key: an ensemble key of Params.Ensembles),
	// ir.RoleWeights, ir.RoleDecoders, ir.RoleTransform, ir.RoleGains
	// (Key: a connection key of Params.Connections), ir.RoleLayer (Key: a
	// layer node's label) — or is ir.RoleNone. A low-rank decoded
	// connection runs as decoders (dmid×n) then transform (rows×dmid); its
	// weights signal is their product, read by no operator.
	Role ir.Role
	Key  string
}

// GraphProbe is a probe: it records Signal (or Signal[Idx]) after every
// step whose index k (from 1) satisfies k mod Period < 1.
type GraphProbe struct {
	Label  string
	Probe  *toolkit.Probe
	Signal int
	Idx    []int
	Dims   int
	Period float64
}

// Graph returns the model as data. The operators and slices are copies;
// the neuron types, synapses, functions, processes and layers are shared
// with the model.
func (m *Model) Graph() *Graph {
	g := &Graph{Dt: m.Dt, Time: m.timeSig, Step: m.stepSig, NodeOutputs: map[*toolkit.Node]int{}}
	for _, s := range m.sigs {
		g.Signals = append(g.Signals, GraphSignal{Name: s.name, Owner: s.owner, Size: s.n, Rows: s.rows,
			Init: slices.Clone(s.init), ReadOnly: s.readonly, Role: s.role, Key: s.key})
	}
	for _, o := range m.Ops {
		g.Ops = append(g.Ops, o.Clone())
	}
	for _, p := range m.Probes {
		g.Probes = append(g.Probes, GraphProbe{Label: p.Label, Probe: p.Probe, Signal: p.sig, Idx: slices.Clone(p.idx), Dims: p.Dims, Period: p.Period})
	}
	for _, no := range m.nodeOut {
		g.NodeOutputs[no.node] = no.sig
	}
	return g
}
