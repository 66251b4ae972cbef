package sim

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/toolkit/validate"
	"gonum.org/v1/gonum/mat"
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

// Option configures Build and New.
type Option func(*config)

type config struct {
	dt       float64
	params   *Params
	noNaNChk bool
	batch    int
	feeds    map[*toolkit.Node][][][]float64
	opt      Optimizations
	optSet   bool
	parallel int
	unroll   int
	f32      bool
	// Hooks
	mm        MatMulHook
	layerHook LayerHook
}

// Batch sets the minibatch size of a simulator (default 1): it runs that
// many independent copies of the model (the NengoDL paper, §3.1), which differ only
// in their data feeds and stochastic neuron draws. Build ignores it.
func Batch(n int) Option { return func(c *config) { c.batch = n } }

// Feed replaces a node's output by data[batch][step][dim] (NengoDL's data
// feeds): at step k (0-based) the node outputs data[b][k]. Running past the
// end of the data is an error. Build ignores it.
func Feed(node *toolkit.Node, data [][][]float64) Option {
	return func(c *config) {
		if c.feeds == nil {
			c.feeds = map[*toolkit.Node][][][]float64{}
		}
		c.feeds[node] = data
	}
}

// Parallel sets how many goroutines a simulator with Batch(n > 1) steps
// its lanes on during RunSteps and Run (default: GOMAXPROCS, at most one
// per lane; 1 runs them serially). Lanes are independent copies of the
// model, so the results do not depend on it. A model with Node functions
// (Go code of the user) always runs its lanes on one goroutine, so those
// functions are never called concurrently. With one lane, large merged
// operators (dot products of ≥ 8192 multiply-adds, ≥ 4096 neurons)
// are cut into chunks that run on both cores, unless Parallel(1). Build
// ignores it.
func Parallel(n int) Option { return func(c *config) { c.parallel = max(n, 1) } }

// Unroll sets how many steps RunSteps and Run execute per dispatch
// (NengoDL's unroll_simulation, §4.1 of the NengoDL paper; default 1): a one-lane
// simulator strings the operators of n consecutive steps, each step's
// probe recording after them, into one flat list and runs the list per
// block of n steps; the progress callback and the checks for a closed or
// failed simulator run once per block. A failing step stops the run at
// the end of its block (the error names the step that failed; probes hold
// the rest of the block). Results are identical for every n. Build
// ignores it.
func Unroll(n int) Option { return func(c *config) { c.unroll = max(n, 1) } }

// CheckNaN switches the per-step check for NaN in the model's signals
// on (the default) or off. With it on, a NaN stops the run with an error
// naming the signal and the step. The check scans the signals operators
// write (a NaN elsewhere reaches one of them when it is read), in
// contiguous runs with a vector loop: under 1 µs per step for the
// benchmark models at D = 192.
func CheckNaN(on bool) Option { return func(c *config) { c.noNaNChk = !on } }

// DT sets the time step in seconds (default 0.001).
func DT(dt float64) Option { return func(c *config) { c.dt = dt } }

// WithParams overrides built parameters by label (see Params).
func WithParams(p *Params) Option { return func(c *config) { c.params = p } }

// ProbeInfo describes a built probe.
type ProbeInfo struct {
	Probe  *toolkit.Probe
	Label  string
	sig    int
	idx    []int
	Dims   int
	Period float64 // in steps: sample when step mod Period < 1
}

// Model is a built network: signals in one contiguous store and operators
// in execution order (Nengo's builder Model). It is immutable after Build
// and can back any number of simulators.
type Model struct {
	Dt     float64
	Net    *toolkit.Network
	Ops    []*Op // in execution order
	Probes []*ProbeInfo
	Params Params // what was built (gains, biases, encoders, weights, …)
	// CheckNaN is whether simulators stop on a NaN in a signal (option CheckNaN).
	CheckNaN bool
	sigs     []signal
	size     int
	timeSig  int
	stepSig  int
	nodeOut  []nodeOut // output signals of nodes that can be fed
	groups   []*group  // the optimizer's execution plan (opt.go)
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

type builder struct {
	m        *Model
	cfg      config
	ops      []*Op
	ens      map[*toolkit.Ensemble]*ensSigs
	nodes    map[*toolkit.Node]*nodeSigs
	conns    map[*toolkit.Connection]*connSigs
	ensKey   map[*toolkit.Ensemble]string     // parameter key of each ensemble (see EnsembleKeys)
	connKey  map[*toolkit.Connection]string   // parameter key of each connection (see ConnectionKeys)
	rules    map[*toolkit.Rule]int            // error signal of each learning rule
	ruleSigs map[*toolkit.Rule]map[string]int // probeable signals of each rule
	seeds    map[any]int64
	factors  *factored // set by decode for a dense transform (see connect)
}

// factored holds a decoded connection's decoders (dmid×n) and transform
// (rows×dmid) from decode, for a connection built in two stages.
type factored struct {
	dec       []float64
	dmid      int
	transform []float64
}

type ensSigs struct {
	in, J, out, bias, enc int
	state                 []int
	names                 []string
	p                     *EnsembleParams
}

type nodeSigs struct{ in, out int }

type connSigs struct{ in, weighted, weights int }

func (b *builder) sig(name, owner string, n int, init []float64) int {
	b.m.sigs = append(b.m.sigs, signal{name: name, off: b.m.size, n: n, init: init, owner: owner})
	b.m.size += n
	return len(b.m.sigs) - 1
}

func (b *builder) add(op *Op) *Op {
	b.ops = append(b.ops, op)
	return op
}

// Build turns a network description into a Model: signals and operators
// ordered by their dependencies, as Nengo's builder does. Gains and biases
// come from max rates and intercepts through the neuron type, decoders
// from the solver at the eval points; each object's random draws use its
// own seed, derived from the network seed (toolkit.DeriveSeed). Invalid
// descriptions and unfiltered cycles return an error, never a panic.
func Build(net *toolkit.Network, opts ...Option) (m *Model, err error) {
	cfg := config{dt: 0.001}
	for _, o := range opts {
		o(&cfg)
	}
	if net == nil {
		return nil, errors.New("sim: Build: network is nil")
	}
	if !(cfg.dt > 0) || math.IsInf(cfg.dt, 1) {
		return nil, fmt.Errorf("sim: Build: dt = %v: must be positive and finite", cfg.dt)
	}
	if err := net.Validate(); err != nil {
		return nil, err
	}
	if cfg.params != nil {
		if err := uniqueLabels(net); err != nil {
			return nil, err
		}
	}
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("sim: Build: %v", r)
		}
	}()
	b := &builder{
		m:        &Model{Dt: cfg.dt, Net: net, Params: Params{Ensembles: map[string]*EnsembleParams{}, Connections: map[string]*ConnectionParams{}}},
		cfg:      cfg,
		ens:      map[*toolkit.Ensemble]*ensSigs{},
		nodes:    map[*toolkit.Node]*nodeSigs{},
		conns:    map[*toolkit.Connection]*connSigs{},
		rules:    map[*toolkit.Rule]int{},
		ruleSigs: map[*toolkit.Rule]map[string]int{},
		seeds:    net.Seeds(),
		ensKey:   EnsembleKeys(net),
		connKey:  ConnectionKeys(net),
	}
	b.m.stepSig = b.sig("step", "", 1, nil)
	b.m.timeSig = b.sig("time", "", 1, nil)
	b.add(&Op{Kind: "TimeUpdate", Tag: "time", Sets: []int{b.m.stepSig, b.m.timeSig}, y: b.m.stepSig, x: b.m.timeSig, a: -1})
	// the interrupt flag (package interrupt) is checked before every
	// ensemble and connection (a decoder solve checks it inside too)
	ensembles := net.AllEnsembles()
	for i, e := range ensembles {
		if interrupt.Requested() {
			return nil, fmt.Errorf("sim: Build interrupted after %d of %d ensembles: %w", i, len(ensembles), interrupt.ErrInterrupted)
		}
		if err := b.buildEnsemble(e); err != nil {
			return nil, err
		}
	}
	for _, n := range net.AllNodes() {
		if err := b.buildNode(n); err != nil {
			return nil, err
		}
	}
	// connections into learning rules last: the rule's error signal is
	// made when its connection is built
	conns := net.AllConnections()
	built := 0
	for pass := range 2 {
		for _, c := range conns {
			_, toRule := c.Post.Obj().(*toolkit.Rule)
			if toRule != (pass == 1) {
				continue
			}
			if interrupt.Requested() {
				return nil, fmt.Errorf("sim: Build interrupted after %d of %d connections: %w", built, len(conns), interrupt.ErrInterrupted)
			}
			if err := b.buildConnection(c); err != nil {
				return nil, err
			}
			built++
		}
	}
	for _, p := range net.AllProbes() {
		if err := b.buildProbe(p); err != nil {
			return nil, err
		}
	}
	order, err := b.sort()
	if err != nil {
		return nil, err
	}
	b.m.Ops = order
	b.m.CheckNaN = !cfg.noNaNChk
	if !cfg.optSet {
		cfg.opt = AllOptimizations()
	}
	if interrupt.Requested() {
		return nil, fmt.Errorf("sim: Build interrupted before the graph optimizer: %w", interrupt.ErrInterrupted)
	}
	if err := b.m.optimize(cfg.opt); err != nil {
		return nil, err
	}
	return b.m, nil
}

// uniqueLabels checks that ensemble, connection and probe labels are
// unique within their kind, as parameter overrides (WithParams) are keyed
// by label. Without overrides duplicates are allowed; Model.Params then
// keeps the last object of a label.
func uniqueLabels(net *toolkit.Network) error {
	seen := map[string]bool{}
	check := func(kind, label string) error {
		if label == "" {
			return nil
		}
		if seen[kind+"\x00"+label] {
			return objErr(fmt.Sprintf("%s %q", kind, label), "Label", label, "must be unique among "+kind+"s (parameters and probe data are keyed by label)", nil)
		}
		seen[kind+"\x00"+label] = true
		return nil
	}
	for _, p := range net.AllProbes() {
		if err := check("Probe", p.Label); err != nil {
			return err
		}
	}
	return nil
}

// EnsembleKeys gives each ensemble of net the key its parameters have in
// Params (and in .npz files: ens/<key>/gain, …): its label, or, when
// several ensembles share a label (two copies of one sub-network, say),
// label#2, label#3, … for the later ones in AllEnsembles order, so that no
// ensemble's parameters are lost. Nengo fixtures use unique labels, whose
// keys are the labels themselves.
func EnsembleKeys(net *toolkit.Network) map[*toolkit.Ensemble]string {
	es := net.AllEnsembles()
	labels := make([]string, len(es))
	for i, e := range es {
		labels[i] = e.Label
	}
	keys := map[*toolkit.Ensemble]string{}
	for i, k := range uniqueKeys(labels) {
		keys[es[i]] = k
	}
	return keys
}

// uniqueKeys keeps each label's first use and gives later uses label#2,
// label#3, …, skipping any key that is itself a label (so "a#2" written
// by hand and a second "a" do not collide).
func uniqueKeys(labels []string) []string {
	taken := map[string]bool{}
	for _, l := range labels {
		taken[l] = true
	}
	used := map[string]bool{}
	next := map[string]int{}
	out := make([]string, len(labels))
	for i, l := range labels {
		if !used[l] {
			used[l], out[i] = true, l
			continue
		}
		n := max(next[l], 2)
		k := fmt.Sprintf("%s#%d", l, n)
		for used[k] || taken[k] {
			n++
			k = fmt.Sprintf("%s#%d", l, n)
		}
		next[l] = n + 1
		used[k], out[i] = true, k
	}
	return out
}

// ConnectionKeys is EnsembleKeys for connections (conn/<key>/weights, …).
func ConnectionKeys(net *toolkit.Network) map[*toolkit.Connection]string {
	cs := net.AllConnections()
	labels := make([]string, len(cs))
	for i, c := range cs {
		labels[i] = c.Label
	}
	keys := map[*toolkit.Connection]string{}
	for i, k := range uniqueKeys(labels) {
		keys[cs[i]] = k
	}
	return keys
}

// BuildWithParams is Build with parameters overridden by label.
func BuildWithParams(net *toolkit.Network, p *Params, opts ...Option) (*Model, error) {
	return Build(net, append(opts, WithParams(p))...)
}

func rngFor(seed int64, salt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), salt))
}

func objErr(obj, field string, value any, rule string, err error) error {
	return &validate.Error{Pkg: "toolkit", Object: obj, Field: field, Value: value, Rule: rule, Err: err}
}

func (b *builder) buildEnsemble(e *toolkit.Ensemble) error {
	o := fmt.Sprintf("Ensemble %q", e.Label)
	var over *EnsembleParams
	if b.cfg.params != nil {
		over = b.cfg.params.Ensembles[b.ensKey[e]]
	}
	if e.NeuronType.Name() == "Direct" {
		// no neurons: the ensemble's output is its input (nengo.Direct)
		es := &ensSigs{p: &EnsembleParams{}, J: -1}
		es.in = b.sig(e.Label+".signal", o, e.Dims, nil)
		es.out = es.in
		b.ens[e] = es
		b.add(&Op{Kind: "Reset", Tag: o, Sets: []int{es.in}, y: es.in, a: -1})
		return nil
	}
	seed := b.seeds[e]
	rng := rngFor(seed, 0xe75)
	n, d := e.N, e.Dims
	p := &EnsembleParams{}
	// 1. eval points (Nengo: sampled, then scaled by the radius)
	if over != nil && over.EvalPoints != nil {
		if len(over.EvalPoints)%d != 0 {
			return objErr(o, "params.EvalPoints", len(over.EvalPoints), fmt.Sprintf("length must be a multiple of Dims = %d", d), nil)
		}
		p.EvalPoints = append([]float64(nil), over.EvalPoints...)
	} else {
		ep, err := e.EvalPoints.Sample(e.EvalPointCount(), d, rng)
		if err != nil {
			return objErr(o, "EvalPoints", e.EvalPoints.Name(), "sampling failed", err)
		}
		for i := range ep {
			ep[i] *= e.Radius
		}
		p.EvalPoints = ep
	}
	// 2. encoders
	if over != nil && over.Encoders != nil {
		if len(over.Encoders) != n*d {
			return objErr(o, "params.Encoders", len(over.Encoders), fmt.Sprintf("length must be N×Dims = %d", n*d), nil)
		}
		p.Encoders = append([]float64(nil), over.Encoders...)
	} else {
		enc, err := e.Encoders.Sample(n, d, rng)
		if err != nil {
			return objErr(o, "Encoders", e.Encoders.Name(), "sampling failed", err)
		}
		if e.NormalizeEncoders {
			for i := range n {
				row := enc[i*d : (i+1)*d]
				var s float64
				for _, v := range row {
					s += v * v
				}
				s = math.Sqrt(s)
				if s == 0 {
					return objErr(o, "Encoders", fmt.Sprintf("row %d", i), "is zero and cannot be normalised", nil)
				}
				for j := range row {
					row[j] /= s
				}
			}
		}
		p.Encoders = enc
	}
	// 3. gain and bias
	switch {
	case over != nil && over.Gain != nil && over.Bias != nil:
		if len(over.Gain) != n || len(over.Bias) != n {
			return objErr(o, "params.Gain/Bias", fmt.Sprintf("len %d/%d", len(over.Gain), len(over.Bias)), fmt.Sprintf("must have N = %d entries", n), nil)
		}
		p.Gain, p.Bias = append([]float64(nil), over.Gain...), append([]float64(nil), over.Bias...)
	case e.Gain != nil:
		p.Gain, p.Bias = append([]float64(nil), e.Gain...), append([]float64(nil), e.Bias...)
	default:
		mr, err := e.MaxRates.Sample(n, 1, rng)
		if err != nil {
			return objErr(o, "MaxRates", e.MaxRates.Name(), "sampling failed", err)
		}
		ic, err := e.Intercepts.Sample(n, 1, rng)
		if err != nil {
			return objErr(o, "Intercepts", e.Intercepts.Name(), "sampling failed", err)
		}
		g, bi, err := e.NeuronType.GainBias(mr, ic)
		if err != nil {
			return objErr(o, "MaxRates/Intercepts", e.NeuronType.Name(), "give no valid gain and bias", err)
		}
		p.Gain, p.Bias, p.MaxRates, p.Intercepts = g, bi, mr, ic
	}
	if p.MaxRates == nil {
		if mr, ic, err := e.NeuronType.MaxRatesIntercepts(p.Gain, p.Bias); err == nil {
			p.MaxRates, p.Intercepts = mr, ic
		}
	}
	// scaled encoders = encoders · gain / radius (Nengo's build_ensemble)
	p.ScaledEncoders = make([]float64, n*d)
	for i := range n {
		s := p.Gain[i] / e.Radius
		for j := range d {
			p.ScaledEncoders[i*d+j] = p.Encoders[i*d+j] * s
		}
	}
	// neuron state (initial values drawn with a second stream)
	st, err := e.NeuronType.State(n, rngFor(seed, 0x57a7e))
	if err != nil {
		return objErr(o, "NeuronType", e.NeuronType.Name(), "cannot make state", err)
	}
	p.State = map[string][]float64{}
	for i, name := range st.Names {
		v := st.Vars[i]
		if over != nil && over.State[name] != nil {
			if len(over.State[name]) != n {
				return objErr(o, "params.State["+name+"]", len(over.State[name]), fmt.Sprintf("must have N = %d entries", n), nil)
			}
			v = append([]float64(nil), over.State[name]...)
		}
		p.State[name] = v
	}
	b.m.Params.Ensembles[b.ensKey[e]] = p

	es := &ensSigs{p: p}
	es.in = b.sig(e.Label+".signal", o, d, nil)
	es.J = b.sig(e.Label+".neuron_in", o, n, nil)
	es.out = b.sig(e.Label+".neuron_out", o, n, nil)
	es.bias = b.sig(e.Label+".bias", o, n, p.Bias)
	es.enc = b.sig(e.Label+".scaled_encoders", o, n*d, p.ScaledEncoders)
	b.m.sigs[es.enc].rows = n
	for _, name := range st.Names {
		es.state = append(es.state, b.sig(e.Label+"."+name, o, n, p.State[name]))
		es.names = append(es.names, name)
	}
	b.m.sigs[es.bias].readonly, b.m.sigs[es.enc].readonly = true, true
	b.m.sigs[es.bias].role, b.m.sigs[es.bias].key = "bias", b.ensKey[e]
	b.m.sigs[es.enc].role, b.m.sigs[es.enc].key = "scaled_encoders", b.ensKey[e]
	b.ens[e] = es
	b.add(&Op{Kind: "Reset", Tag: o, Sets: []int{es.in}, y: es.in, a: -1})
	b.add(&Op{Kind: "Copy", Tag: o + " bias", Sets: []int{es.J}, Reads: []int{es.bias}, x: es.bias, y: es.J, a: -1})
	b.add(&Op{Kind: "DotInc", Tag: o + " encoding", Incs: []int{es.J}, Reads: []int{es.enc, es.in}, a: es.enc, x: es.in, y: es.J})
	if e.Noise != nil {
		// noise is added to the neuron input current (Nengo's mode "inc")
		b.add(&Op{Kind: "SimProcess", Tag: o + " noise", Incs: []int{es.J}, Reads: []int{b.m.timeSig}, x: -1, y: es.J, inc: true, proc: e.Noise, seed: seed ^ 0x4015e, a: -1})
	}
	b.add(&Op{Kind: "SimNeurons", Tag: o, Reads: []int{es.J}, Sets: append([]int{es.out}, es.state...),
		x: es.J, y: es.out, state: es.state, names: es.names, neuron: e.NeuronType, seed: seed, a: -1})
	return nil
}

func (b *builder) buildNode(n *toolkit.Node) error {
	o := fmt.Sprintf("Node %q", n.Label)
	ns := &nodeSigs{in: -1, out: -1}
	if n.Layer != nil {
		b.nodes[n] = ns
		return b.buildLayer(o, n, ns)
	}
	if n.Output == nil && n.SizeIn > 0 {
		ns.in = b.sig(n.Label+".in", o, n.SizeIn, nil)
		b.add(&Op{Kind: "Reset", Tag: o, Sets: []int{ns.in}, y: ns.in, a: -1})
	}
	switch {
	case n.Output != nil:
		ns.out = b.sig(n.Label+".out", o, n.SizeOut, append([]float64(nil), n.Output...))
		b.m.sigs[ns.out].readonly = true
		b.m.nodeOut = append(b.m.nodeOut, nodeOut{n, ns.out})
	case n.Process != nil:
		ns.out = b.sig(n.Label+".out", o, n.SizeOut, nil)
		op := &Op{Kind: "SimProcess", Tag: o, Sets: []int{ns.out}, Reads: []int{b.m.timeSig}, x: ns.in, y: ns.out, proc: n.Process, seed: b.seeds[n], a: -1, node: n}
		if ns.in >= 0 {
			op.Reads = append(op.Reads, ns.in)
		}
		b.add(op)
		b.m.nodeOut = append(b.m.nodeOut, nodeOut{n, ns.out})
	case n.TimeFn != nil || n.Fn != nil:
		if n.SizeOut > 0 {
			ns.out = b.sig(n.Label+".out", o, n.SizeOut, nil)
		}
		op := &Op{Kind: "SimNodeFunc", Tag: o, Reads: []int{b.m.timeSig}, x: ns.in, y: ns.out, tfn: n.TimeFn, nfn: n.Fn, a: -1, node: n}
		if ns.in >= 0 {
			op.Reads = append(op.Reads, ns.in)
		}
		if ns.out >= 0 {
			op.Sets = []int{ns.out}
			b.m.nodeOut = append(b.m.nodeOut, nodeOut{n, ns.out})
		}
		b.add(op)
	default:
		ns.out = ns.in
	}
	b.nodes[n] = ns
	return nil
}

// buildLayer adds a layer node (NengoDL's TensorNode): input and output
// signals, one read-only signal per layer parameter ("layer" role, key the
// node label; values from Params.Layers when given) and a SimLayer
// operator that sets the output from the input every step.
func (b *builder) buildLayer(o string, n *toolkit.Node, ns *nodeSigs) error {
	if _, dup := b.m.Params.Layers[n.Label]; dup {
		return objErr(o, "Label", n.Label, "must be unique among layer nodes (their parameters are keyed by label)", nil)
	}
	ns.in = b.sig(n.Label+".in", o, n.SizeIn, nil)
	b.add(&Op{Kind: "Reset", Tag: o, Sets: []int{ns.in}, y: ns.in, a: -1})
	ns.out = b.sig(n.Label+".out", o, n.SizeOut, nil)
	var over map[string][]float64
	if b.cfg.params != nil {
		over = b.cfg.params.Layers[n.Label]
	}
	op := &Op{Kind: "SimLayer", Tag: o, Reads: []int{ns.in}, Sets: []int{ns.out}, x: ns.in, y: ns.out, layer: n.Layer, a: -1, seed: b.seeds[n]}
	lp := map[string][]float64{}
	for _, p := range n.Layer.Params() {
		v := p.Value
		if w, ok := over[p.Name]; ok {
			if len(w) != len(v) {
				return objErr(o, "params.Layers["+p.Name+"]", len(w), fmt.Sprintf("must have %d values (shape %v)", len(v), p.Shape), nil)
			}
			v = append([]float64(nil), w...)
		}
		sg := b.sig(n.Label+"."+p.Name, o, len(v), v)
		b.m.sigs[sg].readonly = true
		b.m.sigs[sg].role, b.m.sigs[sg].key = "layer", n.Label
		op.aux = append(op.aux, sg)
		op.Reads = append(op.Reads, sg)
		lp[p.Name] = v
	}
	if b.m.Params.Layers == nil {
		b.m.Params.Layers = map[string]map[string][]float64{}
	}
	b.m.Params.Layers[n.Label] = lp
	b.add(op)
	return nil
}

// output returns the signal holding obj's output and its size.
func (b *builder) output(obj toolkit.Object) (int, error) {
	switch o := obj.(type) {
	case *toolkit.Ensemble:
		return b.ens[o].out, nil
	case *toolkit.Neurons:
		if b.ens[o.Ensemble].J < 0 {
			return -1, objErr(fmt.Sprintf("Ensemble %q", o.Ensemble.Label), "NeuronType", "Direct", "has no neurons to connect from", nil)
		}
		return b.ens[o.Ensemble].out, nil
	case *toolkit.Node:
		if b.nodes[o].out < 0 {
			return -1, objErr(fmt.Sprintf("Node %q", o.Label), "SizeOut", 0, "has no output to connect from", nil)
		}
		return b.nodes[o].out, nil
	}
	return -1, fmt.Errorf("sim: cannot connect from %s", obj.Kind())
}

func (b *builder) input(obj toolkit.Object) (int, error) {
	switch o := obj.(type) {
	case *toolkit.Ensemble:
		return b.ens[o].in, nil
	case *toolkit.Neurons:
		if b.ens[o.Ensemble].J < 0 {
			return -1, objErr(fmt.Sprintf("Ensemble %q", o.Ensemble.Label), "NeuronType", "Direct", "has no neurons to connect to", nil)
		}
		return b.ens[o.Ensemble].J, nil
	case *toolkit.Node:
		if b.nodes[o].in < 0 {
			return -1, objErr(fmt.Sprintf("Node %q", o.Label), "SizeIn", 0, "takes no input", nil)
		}
		return b.nodes[o].in, nil
	case *toolkit.Rule:
		sig, ok := b.rules[o]
		if !ok {
			return -1, objErr(o.String(), "LearningRule", nil, "is not built (is the connection in the network?)", nil)
		}
		return sig, nil
	}
	return -1, fmt.Errorf("sim: cannot connect to %s", obj.Kind())
}

// decoders solves for the decoders of a decoded connection from ensemble
// e (Nengo's build_decoders): activities at the eval points, targets
// f(eval points[slice]); returns weights = transform·decodersᵀ.
func (b *builder) decode(o string, e *toolkit.Ensemble, preIdx []int, fn toolkit.Function, solver solvers.Solver,
	tr toolkit.Transform, cp *ConnectionParams, seed int64, cn *toolkit.Connection) error {
	if tr.Sparse != nil {
		// Nengo's build_sparse raises a BuildError for decoded connections.
		return objErr(o, "Transform", "Sparse", "cannot be applied to a decoded connection (from an Ensemble), as in Nengo", nil)
	}
	es := b.ens[e]
	p := es.p
	d, n := e.Dims, e.N
	ep := p.EvalPoints
	if cp.EvalPoints != nil {
		ep = cp.EvalPoints
	}
	m := len(ep) / d
	var fixed [][]float64 // Connection.Targets
	if cn != nil && cn.Targets != nil {
		if len(cn.Targets) != m {
			return objErr(o, "Targets", len(cn.Targets), fmt.Sprintf("must have one row per eval point (%d)", m), nil)
		}
		fixed = cn.Targets
	}
	// targets
	var targets []float64
	dmid := -1
	pt := make([]float64, 0, d)
	for i := range m {
		row := ep[i*d : (i+1)*d]
		pt = pt[:0]
		if preIdx == nil {
			pt = append(pt, row...)
		} else {
			for _, k := range preIdx {
				pt = append(pt, row[k])
			}
		}
		y := pt
		if fn != nil {
			y = fn(append([]float64(nil), pt...))
		}
		if fixed != nil {
			y = fixed[i]
		}
		if dmid < 0 {
			dmid = len(y)
			if dmid == 0 {
				return objErr(o, "Function", "[]", "must return at least one value", nil)
			}
		} else if len(y) != dmid {
			return objErr(o, "Function", len(y), fmt.Sprintf("returned a different size than at the first eval point (%d)", dmid), nil)
		}
		for _, v := range y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return objErr(o, "Function", v, fmt.Sprintf("returned a non-finite value at eval point %d", i), nil)
			}
		}
		targets = append(targets, y...)
	}
	if m == 0 {
		return objErr(o, "EvalPoints", 0, "need at least one eval point", nil)
	}
	cp.EvalPoints, cp.EvalDims = append([]float64(nil), ep...), d
	cp.Targets = targets
	// activities A = rates(eval_points · (encodersᵀ / radius), gain, bias),
	// m×n, produced in row blocks: a BlockSolver (LstsqL2, LstsqL2nz)
	// folds each block into AᵀA and never holds A; other solvers get A
	// materialised, but never next to the m×n currents.
	src := newActivities(e, p, ep, m)
	Y := mat.NewDense(m, dmid, targets) // shares targets (cp.Targets)
	var X *mat.Dense
	var err error
	if bs, ok := solver.(solvers.BlockSolver); ok {
		X, err = bs.SolveBlocks(src, Y) // n×dmid
	} else {
		A := mat.NewDense(m, n, nil)
		if err = src.Rows(A.RawMatrix().Data, 0, m); err == nil {
			X, err = solver.Solve(A, Y)
		}
	}
	if errors.Is(err, interrupt.ErrInterrupted) {
		return fmt.Errorf("sim: Build: %s: %w", o, err)
	}
	if src.rerr != nil {
		return objErr(o, "activities", e.NeuronType.Name(), "rates failed", src.rerr)
	}
	if src.done >= m && !src.nonzero { // all rows seen (a BlockSolver reads them twice)
		// Nengo's builder refuses this too (BuildError in build_decoders).
		return objErr(o, "activities", fmt.Sprintf("all zero at %d eval points", m),
			fmt.Sprintf("no evaluation point falls in the firing range of any neuron of Ensemble %q (check its intercepts, gains and biases, radius and eval points)", e.Label), nil)
	}
	if err != nil {
		return objErr(o, "Solver", solver.Name(), "solve failed", err)
	}
	// weights = transform · decodersᵀ
	if tr.Matrix == nil {
		cp.Rows, cp.Cols = dmid, n
		cp.Weights = make([]float64, dmid*n)
		for i := range dmid {
			for j := range n {
				cp.Weights[i*n+j] = tr.Scalar * X.At(j, i)
			}
		}
		return nil
	}
	rows := len(tr.Matrix)
	if len(tr.Matrix[0]) != dmid {
		return objErr(o, "Transform", fmt.Sprintf("%d columns", len(tr.Matrix[0])), fmt.Sprintf("must equal the function's output size %d", dmid), nil)
	}
	T := mat.NewDense(rows, dmid, flatten(tr.Matrix))
	// keep the factors: connect may run the connection as decoders then
	// transform (fewer multiply-adds when rows > dmid)
	dec := make([]float64, dmid*n)
	for i := range dmid {
		for j := range n {
			dec[i*n+j] = X.At(j, i)
		}
	}
	b.factors = &factored{dec: dec, dmid: dmid, transform: flatten(tr.Matrix)}
	var W mat.Dense
	W.Mul(T, X.T())
	cp.Rows, cp.Cols = rows, n
	cp.Weights = append([]float64(nil), W.RawMatrix().Data...)
	if W.RawMatrix().Stride != n {
		cp.Weights = cp.Weights[:0]
		for i := range rows {
			cp.Weights = append(cp.Weights, W.RawRowView(i)...)
		}
	}
	return nil
}

func flatten(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// conn is the internal form of a connection (user connections and the
// connections Nengo makes for decoded-output probes).
type conn struct {
	post     toolkit.Object
	label    string
	c        *toolkit.Connection // nil for probe connections
	pre      toolkit.Target
	postSig  int
	postIdx  []int
	postSize int
}

func (b *builder) buildConnection(c *toolkit.Connection) error {
	post, err := b.input(c.Post.Obj())
	if err != nil {
		return err
	}
	cs, err := b.connect(conn{post: c.Post.Obj(), label: b.connKey[c], c: c, pre: c.Pre, postSig: post, postIdx: c.Post.Indices(), postSize: toolkit.TargetSize(c.Post, true)},
		c.Function, c.Transform, c.Solver, c.Synapse, b.seeds[c])
	if err != nil {
		return err
	}
	b.conns[c] = cs
	return nil
}

func (b *builder) connect(cn conn, fn toolkit.Function, tr toolkit.Transform, solver solvers.Solver, syn synapses.Synapse, seed int64) (*connSigs, error) {
	o := fmt.Sprintf("Connection %q", cn.label)
	var pes *toolkit.PES
	var rule toolkit.LearningRule
	if cn.c != nil && cn.c.LearningRule != nil {
		rule = cn.c.LearningRule
		switch r := rule.(type) {
		case *toolkit.PES:
			pes = r
		case *toolkit.BCM, *toolkit.Oja, *toolkit.Voja, *toolkit.RLS:
		default:
			return nil, objErr(o, "LearningRule", rule.Name(), "is not a rule the builder knows (PES, BCM, Oja, Voja, RLS)", nil)
		}
	}
	_, preEns := cn.pre.Obj().(*toolkit.Ensemble)
	postEns, toEns := cn.post.(*toolkit.Ensemble)
	fullWeights := preEns && solver != nil && solver.Weights()
	if fullWeights && !toEns {
		return nil, objErr(o, "Solver", solver.Name(), "weights=true needs an Ensemble as post", nil)
	}
	preObj := cn.pre.Obj()
	preIdx := cn.pre.Indices()
	preOut, err := b.output(preObj)
	if err != nil {
		return nil, err
	}
	cs := &connSigs{in: preOut}
	var over *ConnectionParams
	if b.cfg.params != nil && cn.c != nil {
		over = b.cfg.params.Connections[cn.label]
	}
	cp := &ConnectionParams{}
	inSig, inIdx := preOut, preIdx
	var weights int
	elementwise := false
	var sparse *csr // non-nil: a SparseDotInc (Nengo's build_sparse)
	ens, decoded := preObj.(*toolkit.Ensemble)
	if decoded && ens.NeuronType.Name() == "Direct" {
		decoded, fullWeights = false, false // computed like a Node's function
	}
	switch {
	case decoded:
		inIdx = nil // decoders read all neurons
		if over != nil && over.EvalPoints != nil {
			cp.EvalPoints = over.EvalPoints
		} else if cn.c != nil && cn.c.EvalPoints != nil {
			count := ens.EvalPointCount()
			if smp, ok := cn.c.EvalPoints.(dists.Samples); ok {
				count = smp.Rows(ens.Dims)
			}
			pts, err := cn.c.EvalPoints.Sample(count, ens.Dims, rngFor(seed, 0xe7a1))
			if err != nil {
				return nil, objErr(o, "EvalPoints", cn.c.EvalPoints.Name(), "sampling failed", err)
			}
			if cn.c.ScaleEvalPoints {
				for i := range pts {
					pts[i] *= ens.Radius
				}
			}
			cp.EvalPoints = pts
		}
		b.factors = nil
		if err := b.decode(o, ens, preIdx, fn, solver, tr, cp, seed, cn.c); err != nil {
			return nil, err
		}
		if fullWeights {
			// weights=true: fold the post encoders in (Nengo's compositional
			// solvers): W = scaled_encoders[:, post slice] · transform · Dᵀ,
			// delivered straight into the post neurons' current
			pp := b.ens[postEns].p
			d, np := postEns.Dims, postEns.N
			cols := cn.postIdx
			if cols == nil {
				cols = make([]int, d)
				for i := range cols {
					cols[i] = i
				}
			}
			if len(cols) != cp.Rows {
				return nil, objErr(o, "Post", len(cols), fmt.Sprintf("must equal the connection's output size %d", cp.Rows), nil)
			}
			W := make([]float64, np*cp.Cols)
			for i := range np {
				for k, c := range cols {
					e := pp.ScaledEncoders[i*d+c]
					for j := range cp.Cols {
						W[i*cp.Cols+j] += e * cp.Weights[k*cp.Cols+j]
					}
				}
			}
			cp.Weights, cp.Rows = W, np
			cn.postSig, cn.postIdx, cn.postSize = b.ens[postEns].J, nil, np
			cn.post = nil
		}
	default:
		size := toolkit.TargetSize(cn.pre, false)
		if fn != nil {
			// Node with a function: out = f(x[slice]) every step
			x := make([]float64, size)
			y := fn(x)
			if len(y) == 0 {
				return nil, objErr(o, "Function", "[]", "must return at least one value", nil)
			}
			fs := b.sig(cn.label+".func", o, len(y), nil)
			b.add(&Op{Kind: "SimNodeFunc", Tag: o + " function", Sets: []int{fs}, Reads: []int{preOut}, x: preOut, xIdx: preIdx, y: fs, cfn: fn, a: -1})
			inSig, inIdx, size = fs, nil, len(y)
		}
		switch {
		case tr.Sparse != nil:
			if tr.Sparse.Cols != size {
				return nil, objErr(o, "Transform.Sparse.Cols", tr.Sparse.Cols, fmt.Sprintf("must equal the input size %d", size), nil)
			}
			cp.Rows, cp.Cols = tr.Sparse.Rows, tr.Sparse.Cols
			cp.Indices = make([]int, 0, 2*len(tr.Sparse.Indices))
			for _, ij := range tr.Sparse.Indices {
				cp.Indices = append(cp.Indices, ij[0], ij[1])
			}
			cp.Weights = append([]float64(nil), tr.Sparse.Data...)
			if over != nil && over.Weights != nil {
				if err := sparseOverride(o, cp, over); err != nil {
					return nil, err
				}
			}
			if sparse, err = newCSR(o, cp); err != nil {
				return nil, err
			}
		case tr.Matrix == nil:
			cp.Rows, cp.Cols, cp.Weights = 1, 1, []float64{tr.Scalar}
			elementwise = true
		default:
			if len(tr.Matrix[0]) != size {
				return nil, objErr(o, "Transform", fmt.Sprintf("%d columns", len(tr.Matrix[0])), fmt.Sprintf("must equal the input size %d", size), nil)
			}
			cp.Rows, cp.Cols, cp.Weights = len(tr.Matrix), size, flatten(tr.Matrix)
		}
	}
	if over != nil && over.Weights != nil && sparse == nil {
		if len(over.Weights) != len(cp.Weights) {
			return nil, objErr(o, "params.Weights", len(over.Weights), fmt.Sprintf("must have %d×%d entries", cp.Rows, cp.Cols), nil)
		}
		cp.Weights = append([]float64(nil), over.Weights...)
	}
	if cn.c != nil {
		b.m.Params.Connections[cn.label] = cp
	}
	// the input slice, if any, is gathered into its own signal
	if inIdx != nil {
		g := b.sig(cn.label+".sliced", o, len(inIdx), nil)
		b.add(&Op{Kind: "Copy", Tag: o + " pre slice", Sets: []int{g}, Reads: []int{inSig}, x: inSig, xIdx: inIdx, y: g, a: -1})
		inSig = g
	}
	outSize := cp.Rows
	if elementwise {
		outSize = b.m.sigs[inSig].n
	}
	if outSize != cn.postSize {
		return nil, objErr(o, "Post", cn.postSize, fmt.Sprintf("size must equal the connection's output size %d", outSize), nil)
	}
	weights = b.sig(cn.label+".weights", o, len(cp.Weights), cp.Weights)
	if !elementwise {
		b.m.sigs[weights].rows = cp.Rows
	}
	b.m.sigs[weights].readonly = rule == nil
	if cn.c != nil {
		b.m.sigs[weights].role, b.m.sigs[weights].key = "weights", cn.label
	}
	weighted := b.sig(cn.label+".weighted", o, outSize, nil)
	b.add(&Op{Kind: "Reset", Tag: o, Sets: []int{weighted}, y: weighted, a: -1})
	kind := "DotInc"
	if elementwise {
		kind = "ElementwiseInc"
	}
	if sparse != nil {
		b.m.sigs[weights].rows = 0 // nnz values, not a matrix
		b.add(&Op{Kind: "SparseDotInc", Tag: o + " weights", Incs: []int{weighted}, Reads: []int{weights, inSig},
			a: weights, x: inSig, y: weighted, csrPtr: sparse.ptr, csrCol: sparse.col})
	} else if f := b.factors; decoded && !fullWeights && rule == nil && f != nil && (over == nil || over.Weights == nil) &&
		cp.Rows*cp.Cols > f.dmid*cp.Cols+cp.Rows*f.dmid {
		// a low-rank decoded connection (e.g. a 1-D ensemble into a 64-D
		// target): decoders then transform, dmid·n + rows·dmid
		// multiply-adds a step instead of rows·n. The full weights signal
		// keeps transform·decodersᵀ for probes and Params; no operator
		// reads it. (Nengo multiplies the transform into the decoders;
		// the two orders differ by rounding only.)
		decs := b.sig(cn.label+".decoders", o, len(f.dec), f.dec)
		b.m.sigs[decs].rows, b.m.sigs[decs].readonly = f.dmid, true
		if cn.c != nil {
			b.m.sigs[decs].role, b.m.sigs[decs].key = "decoders", cn.label
		}
		tsig := b.sig(cn.label+".transform", o, len(f.transform), f.transform)
		b.m.sigs[tsig].rows, b.m.sigs[tsig].readonly = cp.Rows, true
		if cn.c != nil {
			b.m.sigs[tsig].role, b.m.sigs[tsig].key = "transform", cn.label
		}
		decSig := b.sig(cn.label+".decoded", o, f.dmid, nil)
		b.add(&Op{Kind: "Reset", Tag: o + " decoded", Sets: []int{decSig}, y: decSig, a: -1})
		b.add(&Op{Kind: "DotInc", Tag: o + " decoders", Incs: []int{decSig}, Reads: []int{decs, inSig}, a: decs, x: inSig, y: decSig})
		b.add(&Op{Kind: "DotInc", Tag: o + " transform", Incs: []int{weighted}, Reads: []int{tsig, decSig}, a: tsig, x: decSig, y: weighted})
	} else {
		b.add(&Op{Kind: kind, Tag: o + " weights", Incs: []int{weighted}, Reads: []int{weights, inSig}, a: weights, x: inSig, y: weighted})
	}
	out := weighted
	if syn != nil {
		filtered := b.sig(cn.label+".filtered", o, outSize, nil)
		b.add(&Op{Kind: "SimSynapse", Tag: o + " synapse", Reads: []int{weighted}, Updates: []int{filtered}, x: weighted, y: filtered, synapse: syn, a: -1})
		out = filtered
	}
	cs.weighted = out
	cs.weights = weights
	if n, ok := cn.post.(*toolkit.Neurons); ok {
		// into neurons: scale by the post gains (Nengo folds them into the
		// encoders for an Ensemble, so they are applied here)
		gain := b.ens[n.Ensemble].p.Gain
		g := make([]float64, 0, len(gain))
		if cn.postIdx == nil {
			g = append(g, gain...)
		} else {
			for _, i := range cn.postIdx {
				g = append(g, gain[i])
			}
		}
		gs := b.sig(cn.label+".gains", o, len(g), g)
		b.m.sigs[gs].readonly = true
		if cn.c != nil {
			b.m.sigs[gs].role, b.m.sigs[gs].key = "gains", cn.label
		}
		if cn.postIdx == nil {
			b.add(&Op{Kind: "ElementwiseInc", Tag: o + " gains", Incs: []int{cn.postSig}, Reads: []int{gs, out}, a: gs, x: out, y: cn.postSig})
		} else {
			so := b.sig(cn.label+".sliced_out", o, len(g), nil)
			b.add(&Op{Kind: "Reset", Tag: o, Sets: []int{so}, y: so, a: -1})
			b.add(&Op{Kind: "Copy", Tag: o + " out", Incs: []int{cn.postSig}, Reads: []int{so}, x: so, y: cn.postSig, yIdx: cn.postIdx, inc: true, a: -1})
			b.add(&Op{Kind: "ElementwiseInc", Tag: o + " gains", Incs: []int{so}, Reads: []int{gs, out}, a: gs, x: out, y: so})
		}
	} else {
		b.add(&Op{Kind: "Copy", Tag: o + " out", Incs: []int{cn.postSig}, Reads: []int{out}, x: out, y: cn.postSig, yIdx: cn.postIdx, inc: true, a: -1})
	}
	if pes != nil {
		if err := b.buildPES(o, cn, pes, preOut, weights, elementwise); err != nil {
			return nil, err
		}
	} else if v, ok := rule.(*toolkit.Voja); ok {
		if err := b.buildVoja(o, cn, v); err != nil {
			return nil, err
		}
	} else if r, ok := rule.(*toolkit.RLS); ok {
		if err := b.buildRLS(o, cn, r, preOut, weights, elementwise); err != nil {
			return nil, err
		}
	} else if rule != nil {
		if err := b.buildHebbian(o, cn, rule, weights, elementwise); err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// filtered returns sig filtered by syn in "set" mode (Nengo's
// build_or_passthrough for learning rules), or sig itself for nil.
func (b *builder) filtered(o, name string, syn synapses.Synapse, sig int) int {
	if syn == nil {
		return sig
	}
	f := b.sig(name, o, b.m.sigs[sig].n, nil)
	b.add(&Op{Kind: "SimSynapse", Tag: o + " " + name, Reads: []int{sig}, Sets: []int{f}, x: sig, y: f, synapse: syn, a: -1})
	return f
}

// buildHebbian adds BCM or Oja (Nengo's build_bcm, build_oja): the
// weights (post neurons × pre neurons) change by delta, computed from the
// filtered activities of the whole pre and post ensembles.
func (b *builder) buildHebbian(o string, cn conn, rule toolkit.LearningRule, weights int, elementwise bool) error {
	preEns := ensembleOf(cn.pre.Obj())
	postEns := ensembleOf(cn.post)
	if preEns == nil || postEns == nil || elementwise {
		return objErr(o, "LearningRule", rule.Name(), "needs a connection between ensembles' neurons with a 2-D weight matrix", nil)
	}
	pre, post := b.ens[preEns], b.ens[postEns]
	if post.J < 0 || pre.J < 0 {
		return objErr(o, "LearningRule", rule.Name(), "needs neurons (not Direct) at both ends", nil)
	}
	if b.m.sigs[weights].n != preEns.N*postEns.N {
		return objErr(o, "LearningRule", rule.Name(), fmt.Sprintf("needs a full %d×%d neuron weight matrix (have %d weights)", postEns.N, preEns.N, b.m.sigs[weights].n), nil)
	}
	name := cn.label + "." + rule.Name()
	delta := b.sig(name+".delta", o, b.m.sigs[weights].n, nil)
	b.add(&Op{Kind: "Copy", Tag: o + " weights += delta", Incs: []int{weights}, Reads: []int{delta}, x: delta, y: weights, inc: true, a: -1})
	switch r := rule.(type) {
	case *toolkit.BCM:
		pf := b.filtered(o, name+".pre_filtered", r.PreSynapse, pre.out)
		qf := b.filtered(o, name+".post_filtered", r.PostSynapse, post.out)
		th := b.filtered(o, name+".theta", r.ThetaSynapse, post.out)
		b.add(&Op{Kind: "SimBCM", Tag: o + " BCM", Reads: []int{pf, qf, th}, Updates: []int{delta}, x: pf, a: qf, constIdx: th, y: delta, value: r.LearningRate})
		b.ruleSigs[cn.c.Rule()] = map[string]int{"theta": th, "pre_filtered": pf, "post_filtered": qf, "delta": delta}
	case *toolkit.Oja:
		pf := b.filtered(o, name+".pre_filtered", r.PreSynapse, pre.out)
		qf := b.filtered(o, name+".post_filtered", r.PostSynapse, post.out)
		b.add(&Op{Kind: "SimOja", Tag: o + " Oja", Reads: []int{pf, qf, weights}, Updates: []int{delta}, x: pf, a: qf, constIdx: weights, y: delta, value: r.LearningRate, beta: r.Beta})
		b.ruleSigs[cn.c.Rule()] = map[string]int{"pre_filtered": pf, "post_filtered": qf, "delta": delta}
	}
	return nil
}

// buildVoja adds Nengo's build_voja: the post ensemble's scaled encoders
// change by delta each step, computed from the post input (the decoded
// value), the filtered post activities and a learning signal (1 unless a
// connection into conn.Rule() adds to it).
func (b *builder) buildVoja(o string, cn conn, v *toolkit.Voja) error {
	post, ok := cn.post.(*toolkit.Ensemble)
	if !ok || cn.c == nil {
		return objErr(o, "LearningRule", "Voja", "needs an Ensemble as Post", nil)
	}
	es := b.ens[post]
	if es.J < 0 {
		return objErr(o, "LearningRule", "Voja", "needs neurons (not Direct) in the post ensemble", nil)
	}
	rule := cn.c.Rule()
	name := cn.label + ".Voja"
	learning := b.sig(name+".learning", o, 1, nil)
	b.add(&Op{Kind: "Reset", Tag: o + " Voja learning", Sets: []int{learning}, y: learning, value: 1, a: -1})
	b.rules[rule] = learning
	delta := b.sig(name+".delta", o, b.m.sigs[es.enc].n, nil)
	b.m.sigs[es.enc].readonly = false
	b.add(&Op{Kind: "Copy", Tag: o + " encoders += delta", Incs: []int{es.enc}, Reads: []int{delta}, x: delta, y: es.enc, inc: true, a: -1})
	pf := b.filtered(o, name+".post_filtered", v.PostSynapse, es.out)
	scale := make([]float64, post.N)
	for i := range scale {
		scale[i] = es.p.Gain[i] / post.Radius
	}
	ss := b.sig(name+".scale", o, post.N, scale)
	b.m.sigs[ss].readonly = true
	b.add(&Op{Kind: "SimVoja", Tag: o + " Voja", Reads: []int{es.in, pf, es.enc, learning, ss}, Updates: []int{delta},
		x: es.in, a: pf, constIdx: es.enc, aux: []int{learning, ss}, y: delta, value: v.LearningRate})
	b.ruleSigs[rule] = map[string]int{"scaled_encoders": es.enc, "post_filtered": pf, "delta": delta}
	return nil
}

// buildRLS adds Nengo's build_rls: recursive least squares on the
// connection's weights from the filtered pre activities and the error
// delivered to conn.Rule().
func (b *builder) buildRLS(o string, cn conn, r *toolkit.RLS, preOut, weights int, elementwise bool) error {
	if elementwise {
		return objErr(o, "Transform", "scalar", "must be a 2-D (Dense) transform or a decoded connection for learning", nil)
	}
	rule := cn.c.Rule()
	name := cn.label + ".RLS"
	errSize, _ := rule.Dimensions()
	errSig := b.sig(name+".error", o, errSize, nil)
	b.add(&Op{Kind: "Reset", Tag: o + " RLS error", Sets: []int{errSig}, y: errSig, a: -1})
	b.rules[rule] = errSig
	pf := b.filtered(o, name+".pre_filtered", r.PreSynapse, preOut)
	n := b.m.sigs[pf].n
	if errSize*n != b.m.sigs[weights].n {
		return objErr(o, "LearningRule", "RLS", fmt.Sprintf("error size %d × pre size %d does not match the weights (%d)", errSize, n, b.m.sigs[weights].n), nil)
	}
	p0 := make([]float64, n*n)
	lr := r.LearningRate * b.m.Dt / float64(n)
	for i := range n {
		p0[i*n+i] = lr
	}
	P := b.sig(name+".inv_gamma", o, n*n, p0)
	delta := b.sig(name+".delta", o, b.m.sigs[weights].n, nil)
	b.add(&Op{Kind: "Copy", Tag: o + " weights += delta", Incs: []int{weights}, Reads: []int{delta}, x: delta, y: weights, inc: true, a: -1})
	b.add(&Op{Kind: "SimRLS", Tag: o + " RLS", Reads: []int{pf, errSig}, Updates: []int{delta, P}, x: pf, a: errSig, constIdx: P, y: delta})
	b.ruleSigs[rule] = map[string]int{"error": errSig, "pre_filtered": pf, "delta": delta}
	return nil
}

func ensembleOf(o toolkit.Object) *toolkit.Ensemble {
	switch t := o.(type) {
	case *toolkit.Ensemble:
		return t
	case *toolkit.Neurons:
		return t.Ensemble
	}
	return nil
}

// buildPES adds Nengo's PES operators (build_learning_rule, build_pes):
// weights += delta (Copy inc, reading last step's delta); delta is updated
// to -rate·dt/n · error ⊗ filtered pre activities (SimPES).
func (b *builder) buildPES(o string, cn conn, pes *toolkit.PES, preOut, weights int, elementwise bool) error {
	if elementwise {
		return objErr(o, "Transform", "scalar", "must be a 2-D (Dense) transform or a decoded connection for learning", nil)
	}
	rule := cn.c.Rule()
	errSize, _ := rule.Dimensions()
	errSig := b.sig(rule.Name()+".error", o, errSize, nil)
	b.add(&Op{Kind: "Reset", Tag: o + " PES error", Sets: []int{errSig}, y: errSig, a: -1})
	b.rules[rule] = errSig
	delta := b.sig(rule.Name()+".delta", o, b.m.sigs[weights].n, nil)
	b.add(&Op{Kind: "Copy", Tag: o + " weights += delta", Incs: []int{weights}, Reads: []int{delta}, x: delta, y: weights, inc: true, a: -1})
	acts := preOut
	if _, ok := cn.pre.Obj().(*toolkit.Neurons); ok && cn.pre.Indices() != nil {
		g := b.sig(rule.Name()+".pre_sliced", o, len(cn.pre.Indices()), nil)
		b.add(&Op{Kind: "Copy", Tag: o + " PES pre slice", Sets: []int{g}, Reads: []int{preOut}, x: preOut, xIdx: cn.pre.Indices(), y: g, a: -1})
		acts = g
	}
	if pes.PreSynapse != nil {
		f := b.sig(rule.Name()+".activities", o, b.m.sigs[acts].n, nil)
		// Nengo builds the pre synapse in "set" mode: no extra delay
		b.add(&Op{Kind: "SimSynapse", Tag: o + " PES pre synapse", Reads: []int{acts}, Sets: []int{f}, x: acts, y: f, synapse: pes.PreSynapse, a: -1})
		acts = f
	}
	local := errSig
	if n, ok := cn.post.(*toolkit.Neurons); ok {
		// per-neuron error: scaled encoders · error
		es := b.ens[n.Ensemble]
		d := n.Ensemble.Dims
		rows := cn.postIdx
		if rows == nil {
			rows = make([]int, n.Ensemble.N)
			for i := range rows {
				rows[i] = i
			}
		}
		enc := make([]float64, 0, len(rows)*d)
		for _, r := range rows {
			enc = append(enc, es.p.ScaledEncoders[r*d:(r+1)*d]...)
		}
		es2 := b.sig(rule.Name()+".encoders", o, len(enc), enc)
		local = b.sig(rule.Name()+".local_error", o, len(rows), nil)
		b.add(&Op{Kind: "Reset", Tag: o + " PES local error", Sets: []int{local}, y: local, a: -1})
		b.add(&Op{Kind: "DotInc", Tag: o + " PES encode", Incs: []int{local}, Reads: []int{es2, errSig}, a: es2, x: errSig, y: local})
	}
	if b.m.sigs[local].n*b.m.sigs[acts].n != b.m.sigs[weights].n {
		return objErr(o, "LearningRule", "PES", fmt.Sprintf("error size %d × pre size %d does not match the weights (%d)", b.m.sigs[local].n, b.m.sigs[acts].n, b.m.sigs[weights].n), nil)
	}
	b.add(&Op{Kind: "SimPES", Tag: o + " PES", Reads: []int{acts, local}, Updates: []int{delta}, x: acts, a: local, y: delta, value: pes.LearningRate})
	b.ruleSigs[rule] = map[string]int{"error": errSig, "activities": acts, "delta": delta}
	return nil
}

func (b *builder) buildProbe(p *toolkit.Probe) error {
	o := fmt.Sprintf("Probe %q", p.Label)
	obj := p.Target.Obj()
	info := &ProbeInfo{Probe: p, Label: p.Label, idx: p.Target.Indices(), Period: 1}
	if p.SampleEvery > 0 {
		info.Period = p.SampleEvery / b.m.Dt
	}
	if _, ok := obj.(*toolkit.Ensemble); ok && p.Attr == toolkit.AttrDecoded {
		size := toolkit.TargetSize(p.Target, false)
		in := b.sig(p.Label, o, size, nil)
		b.add(&Op{Kind: "Reset", Tag: o, Sets: []int{in}, y: in, a: -1})
		if _, err := b.connect(conn{label: p.Label + ".conn", pre: p.Target, postSig: in, postSize: size},
			nil, toolkit.Scalar(1), p.Solver, p.Synapse, b.seeds[p]); err != nil {
			return err
		}
		info.sig, info.idx, info.Dims = in, nil, size
		b.m.Probes = append(b.m.Probes, info)
		return nil
	}
	var sig int
	switch t := obj.(type) {
	case *toolkit.Ensemble:
		sig = b.ens[t].in // input
		if p.Attr == "scaled_encoders" {
			if b.ens[t].J < 0 {
				return objErr(o, "Target", toolkit.Ref(p.Target), "a Direct ensemble has no encoders", nil)
			}
			if info.idx != nil {
				return objErr(o, "Target", toolkit.Ref(p.Target), "scaled_encoders cannot be probed on a slice", nil)
			}
			sig = b.ens[t].enc
		}
	case *toolkit.Neurons:
		es := b.ens[t.Ensemble]
		if es.J < 0 {
			return objErr(o, "Target", toolkit.Ref(p.Target), "a Direct ensemble has no neurons", nil)
		}
		switch p.Attr {
		case toolkit.AttrOutput, toolkit.AttrSpikes, "rates":
			sig = es.out
		case toolkit.AttrInput:
			sig = es.J
		default:
			sig = -1
			for i, n := range es.names {
				if n == p.Attr {
					sig = es.state[i]
				}
			}
			if sig < 0 {
				return objErr(o, "Attr", p.Attr, "is not a state of "+t.Ensemble.NeuronType.Name(), nil)
			}
		}
	case *toolkit.Node:
		sig = b.nodes[t].out
		if sig < 0 {
			return objErr(o, "Target", toolkit.Ref(p.Target), "has no output", nil)
		}
	case *toolkit.Rule:
		sg, ok := b.ruleSigs[t][p.Attr]
		if !ok {
			return objErr(o, "Attr", p.Attr, "is not a signal of "+t.String(), nil)
		}
		sig = sg
	case *toolkit.Connection:
		cs := b.conns[t]
		if cs == nil {
			return objErr(o, "Target", toolkit.Ref(p.Target), "is not built", nil)
		}
		if p.Attr == toolkit.AttrInput {
			sig = cs.in
		} else if p.Attr == toolkit.AttrWeights {
			sig = cs.weights
		} else {
			sig = cs.weighted
		}
	default:
		return objErr(o, "Target", toolkit.Ref(p.Target), "cannot be probed", nil)
	}
	size := b.m.sigs[sig].n
	if info.idx != nil {
		size = len(info.idx)
	}
	info.Dims = size
	if p.Synapse != nil {
		// filtered (update) then copied into the probe's own signal
		g := sig
		if info.idx != nil {
			g = b.sig(p.Label+".sliced", o, size, nil)
			b.add(&Op{Kind: "Copy", Tag: o + " slice", Sets: []int{g}, Reads: []int{sig}, x: sig, xIdx: info.idx, y: g, a: -1})
		}
		f := b.sig(p.Label+".filtered", o, size, nil)
		b.add(&Op{Kind: "SimSynapse", Tag: o + " synapse", Reads: []int{g}, Updates: []int{f}, x: g, y: f, synapse: p.Synapse, a: -1})
		in := b.sig(p.Label, o, size, nil)
		b.add(&Op{Kind: "Copy", Tag: o, Sets: []int{in}, Reads: []int{f}, x: f, y: in, a: -1})
		sig, info.idx = in, nil
	}
	info.sig = sig
	b.m.Probes = append(b.m.Probes, info)
	return nil
}

// opHeap orders ready operators by creation index (deterministic order).
type opHeap []int

func (h opHeap) Len() int           { return len(h) }
func (h opHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h opHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *opHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *opHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// sort orders the operators by Nengo's dependency rule: for every signal,
// the op that sets it runs before those that increment it, which run
// before those that read it, which run before the op that updates it.
// Ties keep creation order. A cycle (an unfiltered loop) is an error.
func (b *builder) sort() ([]*Op, error) {
	nsig := len(b.m.sigs)
	sets := make([][]int, nsig)
	incs := make([][]int, nsig)
	reads := make([][]int, nsig)
	ups := make([][]int, nsig)
	for i, op := range b.ops {
		for _, s := range op.Sets {
			if len(sets[s]) > 0 {
				return nil, fmt.Errorf("sim: signal %q is set by both %s and %s", b.m.sigs[s].name, b.ops[sets[s][0]], op)
			}
			sets[s] = append(sets[s], i)
		}
		for _, s := range op.Incs {
			incs[s] = append(incs[s], i)
		}
		for _, s := range op.Reads {
			reads[s] = append(reads[s], i)
		}
		for _, s := range op.Updates {
			if len(ups[s]) > 0 {
				return nil, fmt.Errorf("sim: signal %q is updated by both %s and %s", b.m.sigs[s].name, b.ops[ups[s][0]], op)
			}
			ups[s] = append(ups[s], i)
		}
	}
	n := len(b.ops)
	succ := make([][]int, n)
	indeg := make([]int, n)
	edge := func(a, c int) {
		if a == c {
			return
		}
		succ[a] = append(succ[a], c)
		indeg[c]++
	}
	for s := range nsig {
		for _, a := range sets[s] {
			for _, c := range incs[s] {
				edge(a, c)
			}
			for _, c := range reads[s] {
				edge(a, c)
			}
			for _, c := range ups[s] {
				edge(a, c)
			}
		}
		for _, a := range incs[s] {
			for _, c := range reads[s] {
				edge(a, c)
			}
			for _, c := range ups[s] {
				edge(a, c)
			}
		}
		for _, a := range reads[s] {
			for _, c := range ups[s] {
				edge(a, c)
			}
		}
	}
	h := &opHeap{}
	for i := range n {
		if indeg[i] == 0 {
			heap.Push(h, i)
		}
	}
	order := make([]*Op, 0, n)
	for h.Len() > 0 {
		i := heap.Pop(h).(int)
		order = append(order, b.ops[i])
		for _, c := range succ[i] {
			indeg[c]--
			if indeg[c] == 0 {
				heap.Push(h, c)
			}
		}
	}
	if len(order) != n {
		var cyc []string
		seen := map[string]bool{}
		for i := range n {
			if indeg[i] > 0 && !seen[b.ops[i].Tag] {
				seen[b.ops[i].Tag] = true
				cyc = append(cyc, b.ops[i].Tag)
			}
		}
		sort.Strings(cyc)
		return nil, fmt.Errorf("sim: Build: cycle of unfiltered connections (every loop needs a synapse): operators of %s", strings.Join(cyc, ", "))
	}
	return order, nil
}

// String summarises the model: objects, neurons, signals and operators.
func (m *Model) String() string {
	ens := m.Net.AllEnsembles()
	neurons := 0
	for _, e := range ens {
		if e.NeuronType != nil && e.NeuronType.Name() != "Direct" {
			neurons += e.N
		}
	}
	kinds := map[string]int{}
	for _, op := range m.Ops {
		kinds[op.Kind]++
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
