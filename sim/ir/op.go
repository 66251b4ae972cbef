package ir

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// None marks an absent signal (a node without input, a product without a
// bias).
const None = -1

// Base is what every operator has: the object it belongs to and the
// signals it sets, increments, reads and updates. These four lists decide
// its place in the step (Nengo's rule: for every signal the operator that
// sets it, then those that increment it, then its readers, then the one
// that updates it). Signals are indices into the model's signal table.
type Base struct {
	Tag     string // the object it belongs to, for messages
	Sets    []int
	Incs    []int
	Reads   []int
	Updates []int
	// Order is the operator's position in the builder's order (for an
	// increment the optimiser moved, the position of the write it took
	// over); it keeps sums in their order when operators merge.
	Order int
}

// Info returns the operator's common part.
func (b *Base) Info() *Base { return b }

// clone deep-copies the dependency lists.
func (b Base) clone() Base {
	b.Sets, b.Incs, b.Reads, b.Updates = clip(b.Sets), clip(b.Incs), clip(b.Reads), clip(b.Updates)
	return b
}

// clip copies an index list (nil stays nil).
func clip(s []int) []int {
	if s == nil {
		return nil
	}
	return append([]int(nil), s...)
}

// Op is one operator of a built model. The set of operator types is
// closed: every type of this package, and only those, implement it, and a
// Lowerer has one method per type.
type Op interface {
	// Info returns the common part (tag and dependency lists), which the
	// optimiser may rewrite on its copies.
	Info() *Base
	// Kind names the operator's type ("DotInc"), for messages and plans.
	Kind() string
	// Clone returns a deep copy (index lists included; neuron types,
	// synapses, functions, processes and layers shared).
	Clone() Op
	// String is "Kind(tag)".
	String() string
	lower(ops []Op, l Lowerer) error
}

// Lowerer turns operators into something an executor runs. Each method
// receives one or more operators of its type (a group the optimiser
// merged, or a single operator); Lower calls the method that matches.
// An executor that cannot run a type returns an error from its method.
// Adding an operator type adds a method here, so every executor fails to
// compile until it handles it.
type Lowerer interface {
	Reset([]*Reset) error
	Copy([]*Copy) error
	ElementwiseInc([]*ElementwiseInc) error
	DotInc([]*DotInc) error
	SparseDotInc([]*SparseDotInc) error
	TimeUpdate([]*TimeUpdate) error
	SimNeurons([]*SimNeurons) error
	SimSynapse([]*SimSynapse) error
	SimProcess([]*SimProcess) error
	SimNodeFunc([]*SimNodeFunc) error
	SimLayer([]*SimLayer) error
	SimPES([]*SimPES) error
	SimBCM([]*SimBCM) error
	SimOja([]*SimOja) error
	SimVoja([]*SimVoja) error
	SimRLS([]*SimRLS) error
	SimCallback([]*SimCallback) error
	DotIncPES([]*DotIncPES) error
	EnsembleReLU([]*EnsembleReLU) error
}

// Lower hands ops, which must all be of one type, to the method of l for
// that type.
func Lower(l Lowerer, ops ...Op) error {
	if len(ops) == 0 {
		return nil
	}
	return ops[0].lower(ops, l)
}

// typed converts ops to their common type T.
func typed[T Op](ops []Op) ([]T, error) {
	out := make([]T, len(ops))
	for i, o := range ops {
		t, ok := o.(T)
		if !ok {
			return nil, fmt.Errorf("ir: Lower: %s among %s operators (a group holds one type)", o, ops[0].Kind())
		}
		out[i] = t
	}
	return out, nil
}

func str(kind, tag string) string { return kind + "(" + tag + ")" }

// Reset sets Y to Value (Nengo's Reset).
type Reset struct {
	Base
	Y     int
	Value float64
}

// Copy copies X into Y, or adds it with Inc (Nengo's Copy): Y[YIdx[k]]
// (+)= X[XIdx[k]]; a nil index list means all elements in order.
type Copy struct {
	Base
	X, Y       int
	XIdx, YIdx []int
	Inc        bool
}

// ElementwiseInc is Y += A⊙X (Nengo's ElementwiseInc); A of size 1
// broadcasts. With Set, Y = A⊙X. The index lists (nil: all in order) are
// the optimiser's: they compose a gather or scatter it removed.
type ElementwiseInc struct {
	Base
	A, X, Y          int
	AIdx, XIdx, YIdx []int
	Set              bool
}

// DotInc is Y += A·X with A a Size(Y)×Size(X) row-major matrix (Nengo's
// DotInc). With Set, Y = A·X; with Bias ≥ 0 (and Set, from the
// optimiser), Y = Bias + A·X.
type DotInc struct {
	Base
	A, X, Y int
	Set     bool
	Bias    int // None: no bias
}

// SparseDotInc is Y += A·X with A in compressed sparse row form: the
// weights signal A holds the nonzeros row by row, Col their columns,
// RowPtr (Size(Y)+1 entries) where each row starts (Nengo's SparseDotInc).
type SparseDotInc struct {
	Base
	A, X, Y     int
	RowPtr, Col []int
}

// TimeUpdate advances the step counter and sets the time to step·dt
// (Nengo's TimeUpdate).
type TimeUpdate struct {
	Base
	Step, Time int
}

// SimNeurons steps Neuron from input current J to output Out, its state
// variables in State (named StateNames); Seed seeds the stochastic types
// (Nengo's SimNeurons).
type SimNeurons struct {
	Base
	Neuron     neurons.Type
	J, Out     int
	State      []int
	StateNames []string
	Seed       int64
}

// SimSynapse filters X into Y with Synapse (Nengo's SimProcess of a
// synapse, mode "update" on a connection, "set" on a probe).
type SimSynapse struct {
	Base
	Synapse synapses.Synapse
	X, Y    int
}

// SimProcess computes Y from time and X (None: no input) with Process,
// writing Y or, with Inc, adding to it (Nengo's SimProcess, modes "set"
// and "inc"). Node is the node whose output it is (nil for ensemble
// noise); Seed seeds its random source.
type SimProcess struct {
	Base
	Process toolkit.Process
	X, Y    int
	Inc     bool
	Seed    int64
	Node    *toolkit.Node
}

// SimNodeFunc calls a function (Nengo's SimPyFunc): TimeFn(t, Y),
// NodeFn(t, X, Y), or Y = Fn(X[XIdx]) for a connection's function on a
// node's output. Node is the node (nil for a connection function).
type SimNodeFunc struct {
	Base
	TimeFn toolkit.TimeFunc
	NodeFn toolkit.NodeFunc
	Fn     toolkit.Function
	X, Y   int
	XIdx   []int
	Node   *toolkit.Node
}

// SimLayer runs Layer's forward pass from X into Y (inference mode), its
// parameters in the signals Params in the order of Layer.Params(). Node
// is the layer node.
type SimLayer struct {
	Base
	Layer  layers.Layer
	X, Y   int
	Params []int
	Seed   int64
	Node   *toolkit.Node
}

// SimPES computes the PES weight change (Nengo's SimPES): Delta =
// −LearningRate·dt/n · Error ⊗ Acts. With InPlace (from the optimiser),
// Delta is the weights themselves and the change is added to them.
type SimPES struct {
	Base
	Acts, Error, Delta int
	LearningRate       float64
	InPlace            bool
}

// SimBCM computes the BCM weight change (Nengo's SimBCM): Delta[j,i] =
// LearningRate·dt · post_j·(post_j − Theta_j) · pre_i.
type SimBCM struct {
	Base
	Pre, Post, Theta, Delta int
	LearningRate            float64
}

// SimOja computes Oja's weight change (Nengo's SimOja): Delta[j,i] =
// LearningRate·dt · (post_j·pre_i − Beta·post_j²·W[j,i]).
type SimOja struct {
	Base
	Pre, Post, Weights, Delta int
	LearningRate, Beta        float64
}

// SimVoja computes Voja's encoder change (Nengo's SimVoja): Delta[i] =
// LearningRate·dt·Learning · post_i·(Scale_i·X − E_i).
type SimVoja struct {
	Base
	X, Post, Encoders, Delta int
	Learning, Scale          int
	LearningRate             float64
}

// SimRLS is the recursive least-squares update (Nengo's SimRLS): with
// Pr = P·Pre, P −= Pr·Prᵀ/(1 + Pre·Pr) and Delta = −Error ⊗ Pr/(1 + Pre·Pr).
type SimRLS struct {
	Base
	Pre, Error, P, Delta int
}

// SimCallback runs Call in the operator's place in the step: an
// operator implemented outside the executor's kernels (for example a
// Python operator of a Nengo model run by nengo_neurogo, or a custom
// neuron type). Call reads and writes the signals of Base through memory
// it shares with the executor (sim.Store), so Base must list every signal
// it sets, increments, reads and updates; the executors never merge,
// fuse or reorder it beyond what those lists allow. step is the number of
// the step being computed (from 1 once TimeUpdate has run) and t its
// time; an error stops the run at that step.
type SimCallback struct {
	Base
	Call func(step int, t float64) error
	// Reset, if set, runs when the simulator resets (the operator's own
	// state goes back to its initial value).
	Reset func()
}

// DotIncPES is a decoder product fused with the PES rule that updates its
// weights in place (the optimiser makes it): per row i, Y_i (+)= A_i·X,
// then A_i += α·Error_i·Acts with α = −LearningRate·dt/Size(Acts). The
// weights stream through memory once per step instead of twice.
type DotIncPES struct {
	DotInc
	Acts, Error  int
	LearningRate float64
}

// EnsembleReLU is a rectified-linear ensemble fused with its encoder
// product and decoder products (the optimiser makes it): J = Bias + A·X,
// a = Amplitude·max(J, 0), then each Decoders[k] (whose X is the rates)
// from a; the currents and rates live in scratch.
type EnsembleReLU struct {
	Base
	A, X, Bias int
	Amplitude  float64
	Neuron     neurons.Type
	Decoders   []*DotInc
}
