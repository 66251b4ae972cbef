package sim

import (
	"slices"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// Graph is a built model as plain data, for executors other than the
// simulator: the trainer (package train) differentiates it through time
// and accelerator backends map it onto hardware. It lists the builder's
// operators in execution order, before the optimizer merges them, so each
// operator is one of the kinds documented on Op.
type Graph struct {
	Dt      float64
	Signals []GraphSignal
	Ops     []GraphOp
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
	// Role names the built parameter the signal holds — "bias",
	// "scaled_encoders" (key: an ensemble key of Params.Ensembles),
	// "weights", "decoders", "transform", "gains" (key: a connection key
	// of Params.Connections) — or is empty. A low-rank decoded connection
	// runs as "decoders" (dmid×n) then "transform" (rows×dmid); its
	// "weights" signal is their product, read by no operator.
	Role, Key string
}

// GraphOp is one operator (see Op for the kinds). A, X and Y are signal
// indices (-1: none): Y = A·X for DotInc (A is Size(Y)×Size(X) row-major),
// Y = A⊙X for ElementwiseInc (A of size 1 broadcasts), Y = X for Copy
// (gathering X[XIdx] and scattering into Y[YIdx] when given; Inc adds),
// Y = Value for Reset; SimLayer computes Layer from X into Y; SimNeurons maps input current X to output Y with
// state signals State; SimSynapse filters X into Y; SimNodeFunc and
// SimProcess compute a node's output Y from time and input X.
type GraphOp struct {
	Kind, Tag                  string
	Sets, Incs, Reads, Updates []int

	A, X, Y    int
	XIdx, YIdx []int
	Inc        bool
	Value      float64

	Neuron     neurons.Type
	State      []int
	StateNames []string
	Seed       int64
	Synapse    synapses.Synapse

	Node    *toolkit.Node // the node a SimNodeFunc or SimProcess computes
	TimeFn  toolkit.TimeFunc
	NodeFn  toolkit.NodeFunc
	Fn      toolkit.Function // a connection's function applied on a Node's output
	Process toolkit.Process

	// learning rules: the third signal (BCM theta, Oja weights, Voja
	// encoders, RLS P), further signals (Voja) and Oja's beta
	Const int
	Aux   []int
	Beta  float64
	// SparseDotInc: CSR row pointers and columns of A's nonzeros
	CSRPtr, CSRCol []int
	// SimLayer: the layer; its parameter signals are Aux, in the order of
	// Layer.Params()
	Layer layers.Layer
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

// Graph returns the model as data. The slices are copies; the neuron
// types, synapses, functions and processes are shared with the model.
func (m *Model) Graph() *Graph {
	g := &Graph{Dt: m.Dt, Time: m.timeSig, Step: m.stepSig, NodeOutputs: map[*toolkit.Node]int{}}
	for _, s := range m.sigs {
		g.Signals = append(g.Signals, GraphSignal{Name: s.name, Owner: s.owner, Size: s.n, Rows: s.rows,
			Init: slices.Clone(s.init), ReadOnly: s.readonly, Role: s.role, Key: s.key})
	}
	for _, o := range m.Ops {
		g.Ops = append(g.Ops, GraphOp{
			Kind: o.Kind, Tag: o.Tag,
			Sets: slices.Clone(o.Sets), Incs: slices.Clone(o.Incs), Reads: slices.Clone(o.Reads), Updates: slices.Clone(o.Updates),
			A: o.a, X: o.x, Y: o.y, XIdx: slices.Clone(o.xIdx), YIdx: slices.Clone(o.yIdx), Inc: o.inc, Value: o.value,
			Neuron: o.neuron, State: slices.Clone(o.state), StateNames: slices.Clone(o.names), Seed: o.seed, Synapse: o.synapse,
			Node: o.node, TimeFn: o.tfn, NodeFn: o.nfn, Fn: o.cfn, Process: o.proc,
			Const: o.constIdx, Aux: slices.Clone(o.aux), Beta: o.beta,
			CSRPtr: slices.Clone(o.csrPtr), CSRCol: slices.Clone(o.csrCol), Layer: o.layer,
		})
	}
	for _, p := range m.Probes {
		g.Probes = append(g.Probes, GraphProbe{Label: p.Label, Probe: p.Probe, Signal: p.sig, Idx: slices.Clone(p.idx), Dims: p.Dims, Period: p.Period})
	}
	for _, no := range m.nodeOut {
		g.NodeOutputs[no.node] = no.sig
	}
	return g
}
