package sim

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim/build"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/sim/npz"
	"github.com/neurogo/neurogo/toolkit"
)

// The parameter types of a built model (package build).
type (
	// EnsembleParams are an ensemble's built parameters (build.EnsembleParams).
	EnsembleParams = build.EnsembleParams
	// ConnectionParams are a connection's built parameters (build.ConnectionParams).
	ConnectionParams = build.ConnectionParams
	// Params are a model's built parameters by ensemble, connection and
	// layer key (build.Params).
	Params = build.Params
)

// ProbeInfo describes a built probe.
type ProbeInfo struct {
	Probe  *toolkit.Probe
	Label  string
	sig    int
	idx    []int
	Dims   int
	Period float64 // in steps: sample when step mod Period < 1
}

// Model is a built and optimised network: signals in one contiguous
// store, the builder's operators in execution order (Nengo's builder
// Model; package build makes it) and the optimiser's plan (package opt).
// It is immutable after Build and can back any number of simulators.
type Model struct {
	Dt     float64
	Net    *toolkit.Network
	Ops    []ir.Op // in execution order
	Probes []*ProbeInfo
	Params Params // what was built (gains, biases, encoders, weights, …)
	// CheckNaN is whether simulators stop on a NaN in a signal (option CheckNaN).
	CheckNaN bool
	sigs     []signal
	size     int
	timeSig  int
	stepSig  int
	nodeOut  []nodeOut // output signals of nodes that can be fed
	groups   []*group  // the optimiser's execution plan
	plan     Plan
}

type nodeOut struct {
	node *toolkit.Node
	sig  int
}

// Probe returns the built probe with the given label, or nil.
func (m *Model) Probe(label string) *ProbeInfo {
	for _, p := range m.Probes {
		if p.Label == label {
			return p
		}
	}
	return nil
}

// Build turns a network description into a Model along the pipeline:
// package build makes the signals and operators (Nengo's builder: gains
// and biases from max rates and intercepts through the neuron type,
// decoders from the solver at the eval points, each object's random
// draws from its own seed), then package opt plans their execution
// (Optimize). Invalid descriptions, unfiltered cycles and models larger
// than the available memory return an error naming the object, field,
// value and rule.
func Build(net *toolkit.Network, opts ...Option) (*Model, error) {
	cfg := config{dt: 0.001}
	for _, o := range opts {
		o(&cfg)
	}
	if net == nil {
		return nil, errors.New("sim: Build: network is nil")
	}
	bm, err := build.Build(net, build.Config{DT: cfg.dt, Params: cfg.params})
	if err != nil {
		return nil, err
	}
	m := &Model{Dt: bm.Dt, Net: bm.Net, Ops: bm.Ops, Params: bm.Params, CheckNaN: !cfg.noNaNChk,
		size: bm.Size, timeSig: bm.Time, stepSig: bm.Step}
	for _, g := range bm.Signals {
		m.sigs = append(m.sigs, signal{name: g.Name, owner: g.Owner, off: g.Off, n: g.Size, rows: g.Rows,
			init: g.Init, readonly: g.ReadOnly, role: g.Role, key: g.Key})
	}
	for _, p := range bm.Probes {
		m.Probes = append(m.Probes, &ProbeInfo{Probe: p.Probe, Label: p.Label, sig: p.Signal, idx: p.Idx, Dims: p.Dims, Period: p.Period})
	}
	for _, no := range bm.NodeOutputs {
		m.nodeOut = append(m.nodeOut, nodeOut{node: no.Node, sig: no.Signal})
	}
	if !cfg.optSet {
		cfg.opt = AllOptimizations()
	}
	if interrupt.Requested() {
		return nil, fmt.Errorf("sim: Build interrupted before the graph optimizer: %w", interrupt.ErrInterrupted)
	}
	if err := m.optimize(cfg.opt); err != nil {
		return nil, err
	}
	return m, nil
}

// BuildWithParams is Build with parameters overridden by label.
func BuildWithParams(net *toolkit.Network, p *Params, opts ...Option) (*Model, error) {
	return Build(net, append(opts, WithParams(p))...)
}

// EnsembleKeys gives each ensemble of net the key its parameters have in
// Params and .npz files (build.EnsembleKeys): its label, or label#2, …
// for later ensembles of the same label.
func EnsembleKeys(net *toolkit.Network) map[*toolkit.Ensemble]string { return build.EnsembleKeys(net) }

// ConnectionKeys is EnsembleKeys for connections (build.ConnectionKeys).
func ConnectionKeys(net *toolkit.Network) map[*toolkit.Connection]string {
	return build.ConnectionKeys(net)
}

// ParamsFromArrays reads built parameters keyed as Nengo fixtures
// (build.ParamsFromArrays).
func ParamsFromArrays(arrays map[string]npz.Array) (*Params, error) {
	return build.ParamsFromArrays(arrays)
}

// LoadParams reads built parameters from an .npz file, e.g. one exported
// from Nengo (build.LoadParams).
func LoadParams(path string) (*Params, error) { return build.LoadParams(path) }

// Arrays returns the model's built parameters keyed as Nengo fixtures
// (ens/<label>/gain, …, conn/<label>/weights), ready for npz.Write.
func (m *Model) Arrays() map[string]npz.Array {
	if m.Net == nil {
		return map[string]npz.Array{}
	}
	return m.Params.Arrays(m.Net)
}

// SaveParams writes the model's built parameters to an .npz file that
// LoadParams (and numpy.load) reads.
func (m *Model) SaveParams(path string) error { return npz.Write(path, m.Arrays()) }

// String summarises the model: objects, neurons, signals and operators.
func (m *Model) String() string {
	if m.Net == nil {
		return fmt.Sprintf("Model from a graph: %d signals (%d values), %d operators, %d probes; dt %g s", len(m.sigs), m.size, len(m.Ops), len(m.Probes), m.Dt)
	}
	ens := m.Net.AllEnsembles()
	neurons := 0
	for _, e := range ens {
		if e.NeuronType != nil && e.NeuronType.Name() != "Direct" {
			neurons += e.N
		}
	}
	kinds := map[string]int{}
	for _, op := range m.Ops {
		kinds[op.Kind()]++
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s %d", k, kinds[k])
	}
	return fmt.Sprintf("Model %q: %d ensembles (%d neurons), %d nodes, %d connections, %d probes; %d signals (%d values), %d operators (%s); dt %g s",
		m.Net.Label, len(ens), neurons, len(m.Net.AllNodes()), len(m.Net.AllConnections()), len(m.Probes),
		len(m.sigs), m.size, len(m.Ops), strings.Join(parts, ", "), m.Dt)
}
