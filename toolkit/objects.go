package toolkit

import (
	"fmt"
	"math"
	"strings"

	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// Object is a model object that connections and probes attach to: an
// *Ensemble, *Neurons, *Node or *Connection (probes only).
type Object interface {
	// Kind is Nengo's class name: "Ensemble", "Neurons", "Node", "Connection".
	Kind() string
	// Name is the object's label.
	Name() string
	// Dimensions returns the object's input and output sizes
	// (Nengo's size_in and size_out).
	Dimensions() (in, out int)
}

// Target is what a Connection or Probe attaches to: an Object or a slice
// of one (Nengo's ObjView, e.g. a[0:2] or a.neurons[[1, 3]]).
type Target interface {
	// Obj is the object itself.
	Obj() Object
	// Indices are the selected components; nil means all of them.
	Indices() []int
}

// Ref returns a human-readable reference for a target, e.g. `Ensemble "a"[0:2]`.
func Ref(t Target) string {
	if t == nil || t.Obj() == nil {
		return "<nil>"
	}
	s := fmt.Sprintf("%s %q", t.Obj().Kind(), t.Obj().Name())
	if idx := t.Indices(); idx != nil {
		s += fmt.Sprint(idx)
	}
	return s
}

// Sliced is a view of some components of an object (Nengo's ObjView).
type Sliced struct {
	Of  Object
	Idx []int
}

func (s *Sliced) Obj() Object    { return s.Of }
func (s *Sliced) Indices() []int { return s.Idx }
func (s *Sliced) String() string { return Ref(s) }
func sliceOf(o Object, lo, hi int) *Sliced {
	idx := make([]int, 0, max(hi-lo, 0))
	for i := lo; i < hi; i++ {
		idx = append(idx, i)
	}
	return &Sliced{Of: o, Idx: idx}
}

// ---------------------------------------------------------------- Ensemble

// Ensemble is a population of neurons representing a Dims-dimensional
// vector (nengo.Ensemble). Distributions are sampled at build time with
// the ensemble's seed; Gain and Bias, when both set, override MaxRates and
// Intercepts. NEvalPoints 0 means Nengo's rule (see DefaultNEvalPoints).
type Ensemble struct {
	Label             string
	N                 int // number of neurons (n_neurons)
	Dims              int // dimensions
	Radius            float64
	NeuronType        neurons.Type
	MaxRates          dists.Distribution // Hz, at x = radius
	Intercepts        dists.Distribution
	Encoders          dists.Distribution // sampled as N×Dims
	EvalPoints        dists.Distribution // sampled as NEvalPoints×Dims, scaled by Radius
	NEvalPoints       int
	NormalizeEncoders bool
	Gain, Bias        []float64 // explicit gain and bias (both or neither)
	// Shape is the layout of the neurons when the ensemble is a layer of
	// a deep network (Network.NeuronLayer), e.g. (26, 26, 32); nil otherwise.
	Shape   []int
	Noise   Process // injected into the neuron input current; nil: none
	Seed    int64   // used when SeedSet (see SetSeed); else derived at build (Network.Seeds)
	SeedSet bool

	neurons *Neurons
}

// Ensemble adds an ensemble of n neurons representing a dims-dimensional
// value, with net's defaults (Nengo's: LIF, max rates U(200, 400),
// intercepts U(-1, 0.9), radius 1).
func (net *Network) Ensemble(label string, n, dims int) *Ensemble {
	d := net.Defaults
	e := &Ensemble{Label: label, N: n, Dims: dims, Radius: d.Radius, NeuronType: d.NeuronType,
		MaxRates: d.MaxRates, Intercepts: d.Intercepts, Encoders: d.Encoders, EvalPoints: d.EvalPoints,
		NormalizeEncoders: d.NormalizeEncoders}
	net.Ensembles = append(net.Ensembles, e)
	return e
}

// SetSeed sets the ensemble's seed explicitly.
func (e *Ensemble) SetSeed(seed int64) { e.Seed, e.SeedSet = seed, true }

func (e *Ensemble) Kind() string              { return "Ensemble" }
func (e *Ensemble) Name() string              { return e.Label }
func (e *Ensemble) Dimensions() (in, out int) { return e.Dims, e.Dims }
func (e *Ensemble) Obj() Object               { return e }
func (e *Ensemble) Indices() []int            { return nil }
func (e *Ensemble) String() string            { return Ref(e) }

// Slice selects dimensions [lo, hi) (Nengo's ens[lo:hi]).
func (e *Ensemble) Slice(lo, hi int) *Sliced { return sliceOf(e, lo, hi) }

// Index selects the given dimensions (Nengo's ens[[i, j]]).
func (e *Ensemble) Index(idx ...int) *Sliced { return &Sliced{Of: e, Idx: idx} }

// Neurons returns the ensemble's neurons (Nengo's ens.neurons), for
// connections and probes that bypass encoders and decoders.
func (e *Ensemble) Neurons() *Neurons {
	if e.neurons == nil {
		e.neurons = &Neurons{Ensemble: e}
	}
	return e.neurons
}

// DefaultNEvalPoints is Nengo's default number of evaluation points for an
// ensemble: max(clip(500·dims, 750, 2500), 2·n).
func DefaultNEvalPoints(n, dims int) int {
	p := min(max(500*dims, 750), 2500)
	return max(p, 2*n)
}

// EvalPointCount returns NEvalPoints, or Nengo's rule when it is 0.
func (e *Ensemble) EvalPointCount() int {
	if e.NEvalPoints > 0 {
		return e.NEvalPoints
	}
	if s, ok := e.EvalPoints.(dists.Samples); ok && e.Dims > 0 {
		return s.Rows(e.Dims)
	}
	return DefaultNEvalPoints(e.N, e.Dims)
}

func (e *Ensemble) obj() string { return fmt.Sprintf("Ensemble %q", e.Label) }

// Validate checks the ensemble's fields.
func (e *Ensemble) Validate() error {
	o := e.obj()
	if e.N <= 0 {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "N", Value: e.N, Rule: "must be positive (number of neurons)"}
	}
	if e.Dims <= 0 {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Dims", Value: e.Dims, Rule: "must be positive"}
	}
	if !(e.Radius > 0) || math.IsInf(e.Radius, 1) {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Radius", Value: e.Radius, Rule: "must be positive and finite"}
	}
	if e.NeuronType == nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "NeuronType", Value: nil, Rule: "must be set"}
	}
	if err := e.NeuronType.Validate(); err != nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "NeuronType", Value: e.NeuronType.Name(), Rule: "invalid parameters", Err: err}
	}
	for _, f := range []struct {
		name string
		d    dists.Distribution
	}{{"MaxRates", e.MaxRates}, {"Intercepts", e.Intercepts}, {"Encoders", e.Encoders}, {"EvalPoints", e.EvalPoints}} {
		if f.d == nil {
			if (f.name == "MaxRates" || f.name == "Intercepts") && e.Gain != nil {
				continue
			}
			return &validate.Error{Pkg: "toolkit", Object: o, Field: f.name, Value: nil, Rule: "must be set"}
		}
		if err := f.d.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: f.name, Value: f.d.Name(), Rule: "invalid distribution", Err: err}
		}
	}
	if e.NEvalPoints < 0 {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "NEvalPoints", Value: e.NEvalPoints, Rule: "must be non-negative (0: Nengo's rule)"}
	}
	if (e.Gain == nil) != (e.Bias == nil) {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Gain/Bias", Value: fmt.Sprintf("len %d/%d", len(e.Gain), len(e.Bias)), Rule: "must be set together"}
	}
	if e.Gain != nil {
		if len(e.Gain) != e.N {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "len(Gain)", Value: len(e.Gain), Rule: fmt.Sprintf("must equal N = %d", e.N)}
		}
		if len(e.Bias) != e.N {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "len(Bias)", Value: len(e.Bias), Rule: fmt.Sprintf("must equal N = %d", e.N)}
		}
		if err := checkFinite(o, "Gain", e.Gain); err != nil {
			return err
		}
		if err := checkFinite(o, "Bias", e.Bias); err != nil {
			return err
		}
	}
	if e.Noise != nil {
		if err := e.Noise.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Noise", Value: e.Noise.Name(), Rule: "invalid process", Err: err}
		}
	}
	return nil
}

func checkFinite(obj, field string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &validate.Error{Pkg: "toolkit", Object: obj, Field: fmt.Sprintf("%s[%d]", field, i), Value: x, Rule: "must be finite"}
		}
	}
	return nil
}

// Neurons is the neuron population of an ensemble (Nengo's ens.neurons).
type Neurons struct {
	Ensemble *Ensemble
}

func (n *Neurons) Kind() string { return "Neurons" }
func (n *Neurons) Name() string { return n.Ensemble.Label + ".neurons" }
func (n *Neurons) Dimensions() (in, out int) {
	return n.Ensemble.N, n.Ensemble.N
}
func (n *Neurons) Obj() Object    { return n }
func (n *Neurons) Indices() []int { return nil }
func (n *Neurons) String() string { return Ref(n) }

// Slice selects neurons [lo, hi).
func (n *Neurons) Slice(lo, hi int) *Sliced { return sliceOf(n, lo, hi) }

// Index selects the given neurons.
func (n *Neurons) Index(idx ...int) *Sliced { return &Sliced{Of: n, Idx: idx} }

// LearningRule is a connection's learning rule: *PES, *BCM, *Oja, *Voja
// or *RLS (the builder rejects other implementations).
type LearningRule interface {
	Name() string
	Validate() error
}

// -------------------------------------------------------------------- Node

// TimeFunc computes a node's output at time t (seconds) into out.
type TimeFunc func(t float64, out []float64)

// NodeFunc computes a node's output at time t from its input x into out.
type NodeFunc func(t float64, x, out []float64)

// Function is a connection's function: it maps a pre value to the value
// to decode (Nengo's Connection.function). It may return a new slice;
// its length is the connection's size_mid.
type Function func(x []float64) []float64

// Node provides non-neural input and output (nengo.Node). Exactly one
// of these defines it:
//
//   - Output: a constant vector (SizeIn must be 0);
//   - TimeFn: f(t), SizeIn 0;
//   - Fn: f(t, x) with SizeIn inputs;
//   - none: a passthrough node (SizeOut = SizeIn), out = in.
type Node struct {
	Label   string
	Output  []float64
	TimeFn  TimeFunc
	Fn      NodeFunc
	Process Process // a signal generator (WhiteSignal, PresentInput, …)
	// Layer makes the node a deep-learning layer (NengoDL's TensorNode):
	// its output is the layer applied to its input, every step. SizeIn and
	// SizeOut are the sizes of the layer's input and output shapes. See
	// Network.Layer.
	Layer   layers.Layer
	SizeIn  int
	SizeOut int
}

// Const adds a node with a constant output.
func (net *Network) Const(label string, value ...float64) *Node {
	n := &Node{Label: label, Output: append([]float64(nil), value...), SizeOut: len(value)}
	net.Nodes = append(net.Nodes, n)
	return n
}

// Node adds a node whose output, of size sizeOut, is f(t).
func (net *Network) Node(label string, sizeOut int, f TimeFunc) *Node {
	n := &Node{Label: label, TimeFn: f, SizeOut: sizeOut}
	net.Nodes = append(net.Nodes, n)
	return n
}

// NodeIn adds a node with sizeIn inputs and sizeOut outputs computing
// f(t, x); sizeOut may be 0 (a sink, e.g. for output to the host).
func (net *Network) NodeIn(label string, sizeIn, sizeOut int, f NodeFunc) *Node {
	n := &Node{Label: label, Fn: f, SizeIn: sizeIn, SizeOut: sizeOut}
	net.Nodes = append(net.Nodes, n)
	return n
}

// Passthrough adds a node that outputs its input (size values).
func (net *Network) Passthrough(label string, size int) *Node {
	n := &Node{Label: label, SizeIn: size, SizeOut: size}
	net.Nodes = append(net.Nodes, n)
	return n
}

func (n *Node) Kind() string              { return "Node" }
func (n *Node) Name() string              { return n.Label }
func (n *Node) Dimensions() (in, out int) { return n.SizeIn, n.SizeOut }
func (n *Node) Obj() Object               { return n }
func (n *Node) Indices() []int            { return nil }
func (n *Node) String() string            { return Ref(n) }

// Slice selects output components [lo, hi).
func (n *Node) Slice(lo, hi int) *Sliced { return sliceOf(n, lo, hi) }

// Index selects the given components.
func (n *Node) Index(idx ...int) *Sliced { return &Sliced{Of: n, Idx: idx} }

// NodeProcess adds a node whose output, of size sizeOut, is generated by
// a process (e.g. WhiteSignal); sizeIn is the process's input size (0 for
// the generators here).
func (net *Network) NodeProcess(label string, sizeIn, sizeOut int, p Process) *Node {
	n := &Node{Label: label, Process: p, SizeIn: sizeIn, SizeOut: sizeOut}
	net.Nodes = append(net.Nodes, n)
	return n
}

// IsPassthrough reports whether the node outputs its input unchanged.
func (n *Node) IsPassthrough() bool {
	return n.Output == nil && n.TimeFn == nil && n.Fn == nil && n.Process == nil && n.Layer == nil
}

// Validate checks the node's fields.
func (n *Node) Validate() error {
	o := fmt.Sprintf("Node %q", n.Label)
	if n.SizeIn < 0 {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "SizeIn", Value: n.SizeIn, Rule: "must be non-negative"}
	}
	if n.SizeOut < 0 {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "SizeOut", Value: n.SizeOut, Rule: "must be non-negative"}
	}
	set := 0
	for _, b := range []bool{n.Output != nil, n.TimeFn != nil, n.Fn != nil, n.Process != nil, n.Layer != nil} {
		if b {
			set++
		}
	}
	if set > 1 {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Output/TimeFn/Fn/Process/Layer", Value: set, Rule: "at most one may be set"}
	}
	if n.Layer != nil {
		if in := layers.Size(n.Layer.InShape()); n.SizeIn != in {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "SizeIn", Value: n.SizeIn, Rule: fmt.Sprintf("must equal the size %d of the layer's input shape %v", in, n.Layer.InShape())}
		}
		if out := layers.Size(n.Layer.OutShape()); n.SizeOut != out {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "SizeOut", Value: n.SizeOut, Rule: fmt.Sprintf("must equal the size %d of the layer's output shape %v", out, n.Layer.OutShape())}
		}
		return nil
	}
	if n.Process != nil {
		if err := n.Process.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Process", Value: n.Process.Name(), Rule: "invalid process", Err: err}
		}
		return nil
	}
	switch {
	case n.Output != nil:
		if n.SizeIn != 0 {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "SizeIn", Value: n.SizeIn, Rule: "must be 0 for a constant output"}
		}
		if len(n.Output) != n.SizeOut {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "SizeOut", Value: n.SizeOut, Rule: fmt.Sprintf("must equal len(Output) = %d", len(n.Output))}
		}
		return checkFinite(o, "Output", n.Output)
	case n.TimeFn != nil:
		if n.SizeIn != 0 {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "SizeIn", Value: n.SizeIn, Rule: "must be 0 for f(t) (use Fn for f(t, x))"}
		}
	case n.Fn != nil:
	default:
		if n.SizeOut != n.SizeIn {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "SizeOut", Value: n.SizeOut, Rule: fmt.Sprintf("must equal SizeIn = %d for a passthrough node", n.SizeIn)}
		}
	}
	return nil
}

// -------------------------------------------------------------- Transform

// Transform is a connection's linear transform (nengo.transforms): a
// scalar (Matrix and Sparse nil), a dense size_out×size_mid matrix,
// row-major, or a sparse matrix (Sparse non-nil; see the Sparse function).
type Transform struct {
	Scalar float64
	Matrix [][]float64
	Sparse *SparseMatrix
}

// Scalar returns a scalar transform.
func Scalar(v float64) Transform { return Transform{Scalar: v} }

// Dense returns a dense transform from rows (size_out rows of size_mid).
func Dense(rows [][]float64) Transform { return Transform{Matrix: rows} }

// Diag returns a dense diagonal transform (Nengo's 1-D transform array).
func Diag(d ...float64) Transform {
	m := make([][]float64, len(d))
	for i := range d {
		m[i] = make([]float64, len(d))
		m[i][i] = d[i]
	}
	return Transform{Matrix: m}
}

// ------------------------------------------------------------- Connection

// Connection connects two targets (nengo.Connection). From an Ensemble it
// is decoded: Solver finds decoders for Function (identity if nil) at the
// eval points (the pre ensemble's, or EvalPoints if set; scaled by the
// pre radius when ScaleEvalPoints). From Neurons or a Node it is a direct
// linear map. Synapse nil means no filter (Nengo's synapse=None); any
// other synapse delays the signal by one step.
type Connection struct {
	Label     string
	Pre, Post Target
	Function  Function
	// Targets gives the function as values at EvalPoints instead
	// (Nengo's function=array): one row of size_mid per eval point; the
	// pre must be an Ensemble and EvalPoints must be set.
	Targets         [][]float64
	Transform       Transform
	Solver          solvers.Solver
	Synapse         synapses.Synapse
	EvalPoints      dists.Distribution // nil: the pre ensemble's
	ScaleEvalPoints bool
	LearningRule    LearningRule
	Seed            int64
	SeedSet         bool

	rule *Rule
}

// Connect adds a connection from pre to post with net's defaults
// (transform 1, LstsqL2 decoders, Lowpass(0.005) synapse).
func (net *Network) Connect(pre, post Target) *Connection {
	d := net.Defaults
	label := ""
	if pre != nil && post != nil && pre.Obj() != nil && post.Obj() != nil {
		label = pre.Obj().Name() + "->" + post.Obj().Name()
		base := label
		for k := 2; net.hasConnLabel(label); k++ {
			label = fmt.Sprintf("%s#%d", base, k)
		}
	}
	c := &Connection{Label: label, Pre: pre, Post: post, Transform: Scalar(1), Solver: d.Solver,
		Synapse: d.Synapse, ScaleEvalPoints: true}
	net.Connections = append(net.Connections, c)
	return c
}

func (net *Network) hasConnLabel(l string) bool {
	for _, c := range net.Connections {
		if c.Label == l {
			return true
		}
	}
	return false
}

// SetSeed sets the connection's seed explicitly.
func (c *Connection) SetSeed(seed int64) { c.Seed, c.SeedSet = seed, true }

func (c *Connection) Kind() string { return "Connection" }
func (c *Connection) Name() string { return c.Label }
func (c *Connection) Dimensions() (in, out int) {
	return TargetSize(c.Pre, false), TargetSize(c.Post, true)
}
func (c *Connection) Obj() Object    { return c }
func (c *Connection) Indices() []int { return nil }
func (c *Connection) String() string { return fmt.Sprintf("Connection %q", c.Label) }

// TargetSize returns the size of a target: its input size if post,
// else its output size, restricted to its indices.
func TargetSize(t Target, post bool) int {
	if t == nil || t.Obj() == nil {
		return 0
	}
	if idx := t.Indices(); idx != nil {
		return len(idx)
	}
	in, out := t.Obj().Dimensions()
	if post {
		return in
	}
	return out
}

// Validate checks the connection's static fields; shapes that depend on
// Function's output are checked by sim.Build.
func (c *Connection) Validate() error {
	o := c.String()
	if c.Pre == nil || c.Pre.Obj() == nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Pre", Value: nil, Rule: "must be set"}
	}
	if c.Post == nil || c.Post.Obj() == nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Post", Value: nil, Rule: "must be set"}
	}
	for _, tf := range []struct {
		name string
		t    Target
		post bool
	}{{"Pre", c.Pre, false}, {"Post", c.Post, true}} {
		in, out := tf.t.Obj().Dimensions()
		size := out
		if tf.post {
			size = in
		}
		for _, i := range tf.t.Indices() {
			if i < 0 || i >= size {
				return &validate.Error{Pkg: "toolkit", Object: o, Field: tf.name, Value: Ref(tf.t), Rule: fmt.Sprintf("index %d out of range [0, %d)", i, size)}
			}
		}
	}
	switch c.Pre.Obj().(type) {
	case *Ensemble, *Neurons, *Node:
	default:
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Pre", Value: Ref(c.Pre), Rule: "must be an Ensemble, Neurons or Node"}
	}
	if r, ok := c.Post.Obj().(*Rule); ok && r.Conn.LearningRule == nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Post", Value: Ref(c.Post), Rule: "the connection has no LearningRule"}
	}
	if _, ok := c.Post.Obj().(*Connection); ok {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Post", Value: Ref(c.Post), Rule: "must be an Ensemble, Neurons or Node"}
	}
	if n, ok := c.Post.Obj().(*Node); ok && n.SizeIn == 0 {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Post", Value: Ref(c.Post), Rule: "a Node with SizeIn 0 takes no input"}
	}
	if TargetSize(c.Pre, false) == 0 {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Pre", Value: Ref(c.Pre), Rule: "has no output"}
	}
	if c.Targets != nil {
		if c.Function != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Targets", Value: len(c.Targets), Rule: "cannot be set together with Function"}
		}
		if _, ok := c.Pre.Obj().(*Ensemble); !ok {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Targets", Value: len(c.Targets), Rule: "need an Ensemble as Pre"}
		}
		if c.EvalPoints == nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Targets", Value: len(c.Targets), Rule: "need EvalPoints (the points the targets are given at)"}
		}
		for i, r := range c.Targets {
			if len(r) == 0 || len(r) != len(c.Targets[0]) {
				return &validate.Error{Pkg: "toolkit", Object: o, Field: fmt.Sprintf("Targets[%d]", i), Value: len(r), Rule: "rows must be non-empty and of equal length"}
			}
			if err := checkFinite(o, fmt.Sprintf("Targets[%d]", i), r); err != nil {
				return err
			}
		}
	}
	if c.Function != nil {
		if _, ok := c.Pre.Obj().(*Neurons); ok {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Function", Value: "set", Rule: "a connection from Neurons cannot have a function"}
		}
	}
	if sp := c.Transform.Sparse; sp != nil {
		if err := c.validateSparse(sp); err != nil {
			return err
		}
	} else if c.Transform.Matrix == nil {
		if math.IsNaN(c.Transform.Scalar) || math.IsInf(c.Transform.Scalar, 0) {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform", Value: c.Transform.Scalar, Rule: "must be finite"}
		}
		if c.Function == nil && c.Targets == nil && TargetSize(c.Pre, false) != TargetSize(c.Post, true) {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform", Value: c.Transform.Scalar,
				Rule: fmt.Sprintf("a scalar transform needs equal pre and post sizes (%d != %d); use a Dense transform", TargetSize(c.Pre, false), TargetSize(c.Post, true))}
		}
	} else {
		rows := c.Transform.Matrix
		if len(rows) != TargetSize(c.Post, true) {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform", Value: fmt.Sprintf("%d rows", len(rows)), Rule: fmt.Sprintf("must have post size %d rows", TargetSize(c.Post, true))}
		}
		for i, r := range rows {
			if len(r) != len(rows[0]) {
				return &validate.Error{Pkg: "toolkit", Object: o, Field: fmt.Sprintf("Transform[%d]", i), Value: len(r), Rule: fmt.Sprintf("rows must have equal length %d", len(rows[0]))}
			}
			if err := checkFinite(o, fmt.Sprintf("Transform[%d]", i), r); err != nil {
				return err
			}
		}
		if c.Function == nil && c.Targets == nil && len(rows) > 0 && len(rows[0]) != TargetSize(c.Pre, false) {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform", Value: fmt.Sprintf("%d columns", len(rows[0])), Rule: fmt.Sprintf("must have pre size %d columns", TargetSize(c.Pre, false))}
		}
	}
	if _, ok := c.Pre.Obj().(*Ensemble); ok {
		if c.Solver == nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Solver", Value: nil, Rule: "a decoded connection needs a solver"}
		}
		if err := c.Solver.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Solver", Value: c.Solver.Name(), Rule: "invalid solver", Err: err}
		}
	}
	if c.Synapse != nil {
		if err := c.Synapse.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Synapse", Value: c.Synapse.Name(), Rule: "invalid synapse", Err: err}
		}
	}
	if c.EvalPoints != nil {
		if err := c.EvalPoints.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "EvalPoints", Value: c.EvalPoints.Name(), Rule: "invalid distribution", Err: err}
		}
	}
	if c.LearningRule != nil {
		if err := c.LearningRule.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "LearningRule", Value: c.LearningRule.Name(), Rule: "invalid learning rule", Err: err}
		}
	}
	return nil
}

// ------------------------------------------------------------------ Probe

// Probe attributes (Nengo's probeable attributes).
const (
	AttrDecoded = "decoded_output" // Ensemble: the decoded value (a connection with Solver)
	AttrOutput  = "output"         // Node, Neurons, Connection
	AttrInput   = "input"          // Ensemble (summed input), Neurons (current J), Connection
	AttrSpikes  = "spikes"         // Neurons (same signal as output)
	AttrVoltage = "voltage"        // Neurons with a voltage state
	AttrWeights = "weights"        // Connection: the (learned) weights
)

// Probe records a target's attribute during simulation (nengo.Probe):
// filtered by Synapse (nil: none) and sampled every SampleEvery seconds
// (0: every step).
type Probe struct {
	Label       string
	Target      Target
	Attr        string
	Synapse     synapses.Synapse
	SampleEvery float64
	Solver      solvers.Solver // for decoded_output
	Seed        int64          // used when SeedSet; else derived at build
	SeedSet     bool
}

// Probe adds a probe of target's attr ("" picks Nengo's default:
// decoded_output for an Ensemble, output otherwise).
func (net *Network) Probe(label string, target Target, attr string) *Probe {
	if attr == "" {
		attr = AttrOutput
		if target != nil {
			if _, ok := target.Obj().(*Ensemble); ok {
				attr = AttrDecoded
			}
		}
	}
	p := &Probe{Label: label, Target: target, Attr: attr, Synapse: net.Defaults.ProbeSynapse, Solver: net.Defaults.Solver}
	net.Probes = append(net.Probes, p)
	return p
}

// ProbeAttrs returns the attributes a probe may read from o.
func ProbeAttrs(o Object) []string {
	switch o := o.(type) {
	case *Ensemble:
		return []string{AttrDecoded, AttrInput, "scaled_encoders"}
	case *Neurons:
		out := []string{AttrOutput, AttrSpikes, "rates", AttrInput}
		if o.Ensemble.NeuronType != nil {
			if s, err := o.Ensemble.NeuronType.State(0, nil); err == nil {
				out = append(out, s.Names...)
			}
		}
		return out
	case *Node:
		return []string{AttrOutput}
	case *Connection:
		return []string{AttrOutput, AttrInput, AttrWeights}
	case *Rule:
		switch o.Conn.LearningRule.(type) {
		case *PES:
			return []string{"error", "activities", "delta"}
		case *Voja:
			return []string{"scaled_encoders", "post_filtered", "delta"}
		case *RLS:
			return []string{"error", "pre_filtered", "delta"}
		case *BCM:
			return []string{"theta", "pre_filtered", "post_filtered", "delta"}
		case *Oja:
			return []string{"pre_filtered", "post_filtered", "delta"}
		}
	}
	return nil
}

// Validate checks the probe's fields.
func (p *Probe) Validate() error {
	o := fmt.Sprintf("Probe %q", p.Label)
	if p.Target == nil || p.Target.Obj() == nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Target", Value: nil, Rule: "must be set"}
	}
	attrs := ProbeAttrs(p.Target.Obj())
	ok := false
	for _, a := range attrs {
		ok = ok || a == p.Attr
	}
	if !ok {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Attr", Value: p.Attr, Rule: fmt.Sprintf("must be one of %s for %s", strings.Join(attrs, ", "), Ref(p.Target))}
	}
	if !(p.SampleEvery >= 0) || math.IsInf(p.SampleEvery, 1) {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "SampleEvery", Value: p.SampleEvery, Rule: "must be non-negative and finite (0: every step)"}
	}
	if p.Synapse != nil {
		if err := p.Synapse.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: o, Field: "Synapse", Value: p.Synapse.Name(), Rule: "invalid synapse", Err: err}
		}
	}
	if p.Attr == AttrDecoded && p.Solver == nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Solver", Value: nil, Rule: "decoded_output needs a solver"}
	}
	return nil
}
