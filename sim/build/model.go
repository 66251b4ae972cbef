package build

import (
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
)

// EnsembleParams are an ensemble's built parameters (Nengo's
// sim.data[ens]). Matrices are row-major: Encoders N×Dims (unit length,
// unscaled), ScaledEncoders N×Dims (encoders·gain/radius), EvalPoints
// P×Dims (already scaled by the radius). State holds initial values of
// the neuron state variables by Nengo's names ("voltage", …).
type EnsembleParams struct {
	Gain, Bias     []float64
	Encoders       []float64
	ScaledEncoders []float64
	EvalPoints     []float64
	MaxRates       []float64
	Intercepts     []float64
	State          map[string][]float64
}

// ConnectionParams are a connection's built parameters (Nengo's
// sim.data[conn]): Weights is row-major Rows×Cols (for a decoded
// connection: transform·decodersᵀ, size_out×n_neurons), or 1×1 for a
// scalar transform; EvalPoints and Targets are the solver's inputs.
//
// For a sparse transform (toolkit.Sparse) Indices is non-nil: it holds
// the nnz (row, col) pairs flattened, Weights the nnz values at them and
// Rows×Cols the full shape. The builder stores them sorted row-major (CSR
// order); an override may give them in any order, or give Weights as the
// dense Rows×Cols matrix with Indices nil (zero off the transform's
// pattern).
type ConnectionParams struct {
	Weights    []float64
	Rows, Cols int
	Indices    []int     // sparse transforms only: nnz×2 (row, col), row-major
	EvalPoints []float64 // P×EvalDims
	EvalDims   int
	Targets    []float64 // P×size_mid
}

// Params are built parameters keyed by object label, both what Build
// produced (Model.Params) and overrides given to Build (WithParams): a
// field that is set replaces what the builder would draw or solve, so a
// model built by Nengo can be reproduced exactly (exchange as .npz).
type Params struct {
	Ensembles   map[string]*EnsembleParams
	Connections map[string]*ConnectionParams
	// Layers holds the parameters of layer nodes (toolkit.Network.Layer)
	// by node label and parameter name ("kernel", "bias", …).
	Layers map[string]map[string][]float64
}

// Config is what Build needs besides the network: the time step and
// parameters to use instead of built ones (nil: none).
type Config struct {
	DT     float64
	Params *Params
}

// Probe is a built probe: it records Signal (or Signal[Idx]) after every
// step whose index k (from 1) satisfies k mod Period < 1.
type Probe struct {
	Probe  *toolkit.Probe
	Label  string
	Signal int
	Idx    []int
	Dims   int
	Period float64 // in steps
}

// Signal is one signal of a built model: Size values at offset Off of
// the model's store (a Rows×(Size/Rows) matrix when Rows > 0), initial
// value Init (nil: zeros). ReadOnly signals never change during a run;
// Role and Key name the built parameter a signal holds ("bias",
// "scaled_encoders", "weights", "decoders", "transform", "gains", "layer"
// and its ensemble, connection or node key of Params).
type Signal struct {
	Name, Owner string
	Off, Size   int
	Rows        int
	Init        []float64
	ReadOnly    bool
	Role        ir.Role
	Key         string
}

// NodeOutput is the output signal of a node that can be fed with data.
type NodeOutput struct {
	Node   *toolkit.Node
	Signal int
}

// Model is a built network (Nengo's builder Model): signals in one
// contiguous store, operators in execution order (set → increment → read
// → update for every signal, ties in creation order), probes and the
// built parameters. Package sim optimises and runs it.
type Model struct {
	Dt          float64
	Net         *toolkit.Network
	Ops         []ir.Op
	Signals     []Signal
	Size        int
	Time, Step  int
	Probes      []*Probe
	NodeOutputs []NodeOutput
	Params      Params
}

// model is the builder's working model.
type model struct {
	Dt      float64
	Net     *toolkit.Network
	Ops     []ir.Op
	Probes  []*Probe
	Params  Params
	sigs    []signal
	size    int
	timeSig int
	stepSig int
	nodeOut []nodeOut
}

type nodeOut struct {
	node *toolkit.Node
	sig  int
}

// signal is a signal being built (see Signal).
type signal struct {
	name     string
	off, n   int
	init     []float64
	rows     int
	owner    string
	readonly bool
	role     ir.Role
	key      string
}

// export returns the finished model.
func (m *model) export() *Model {
	out := &Model{Dt: m.Dt, Net: m.Net, Ops: m.Ops, Size: m.size, Time: m.timeSig, Step: m.stepSig, Probes: m.Probes, Params: m.Params}
	for _, g := range m.sigs {
		out.Signals = append(out.Signals, Signal{Name: g.name, Owner: g.owner, Off: g.off, Size: g.n, Rows: g.rows, Init: g.init, ReadOnly: g.readonly, Role: g.role, Key: g.key})
	}
	for _, no := range m.nodeOut {
		out.NodeOutputs = append(out.NodeOutputs, NodeOutput{Node: no.node, Signal: no.sig})
	}
	return out
}
