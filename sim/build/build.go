package build

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/validate"
)

type builder struct {
	m        *model
	cfg      Config
	ops      []ir.Op
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

func (b *builder) add(op ir.Op) ir.Op {
	b.ops = append(b.ops, op)
	return op
}

// Build turns a network description into a Model: signals and operators
// ordered by their dependencies, as Nengo's builder does. Gains and biases
// come from max rates and intercepts through the neuron type, decoders
// from the solver at the eval points; each object's random draws use its
// own seed, derived from the network seed (toolkit.DeriveSeed). Invalid
// descriptions, unfiltered cycles and models larger than the memory
// available (estimated before anything is allocated) return an error
// naming the object, field, value and rule; a panic is a bug of the
// builder and is not recovered.
func Build(net *toolkit.Network, cfg Config) (*Model, error) {
	if net == nil {
		return nil, errors.New("sim: Build: network is nil")
	}
	if !(cfg.DT > 0) || math.IsInf(cfg.DT, 1) {
		return nil, fmt.Errorf("sim: Build: dt = %v: must be positive and finite", cfg.DT)
	}
	if err := net.Validate(); err != nil {
		return nil, err
	}
	if err := checkMembers(net); err != nil {
		return nil, err
	}
	if cfg.Params != nil {
		if err := uniqueLabels(net); err != nil {
			return nil, err
		}
	}
	if err := checkMemory(net); err != nil {
		return nil, err
	}
	b := &builder{
		m:        &model{Dt: cfg.DT, Net: net, Params: Params{Ensembles: map[string]*EnsembleParams{}, Connections: map[string]*ConnectionParams{}}},
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
	b.add(&ir.TimeUpdate{Base: ir.Base{Tag: "time", Sets: []int{b.m.stepSig, b.m.timeSig}}, Step: b.m.stepSig, Time: b.m.timeSig})
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
	return b.m.export(), nil
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

func rngFor(seed int64, salt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), salt))
}

func objErr(obj, field string, value any, rule string, err error) error {
	return &validate.Error{Pkg: "toolkit", Object: obj, Field: field, Value: value, Rule: rule, Err: err}
}
