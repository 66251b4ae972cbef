package toolkit

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// PES is the prescribed error sensitivity rule (nengo.PES; MacNeil &
// Eliasmith 2011): each step the weights change by
// -LearningRate·dt/n · e ⊗ a, with a the pre activities filtered by
// PreSynapse and e the error delivered to the connection's Rule().
// Nengo's defaults: LearningRate 1e-4, PreSynapse Lowpass(0.005).
type PES struct {
	LearningRate float64
	PreSynapse   synapses.Synapse
}

// NewPES returns PES with Nengo's defaults.
func NewPES() *PES { return &PES{LearningRate: 1e-4, PreSynapse: synapses.Lowpass{Tau: 0.005}} }

func (*PES) Name() string { return "PES" }

// Validate checks Nengo's ranges (0 <= LearningRate < 1).
func (p *PES) Validate() error {
	if !(p.LearningRate >= 0 && p.LearningRate < 1) {
		return &validate.Error{Pkg: "toolkit", Object: "PES", Field: "LearningRate", Value: p.LearningRate, Rule: "must be in [0, 1)"}
	}
	if math.IsNaN(p.LearningRate) {
		return &validate.Error{Pkg: "toolkit", Object: "PES", Field: "LearningRate", Value: p.LearningRate, Rule: "must be finite"}
	}
	if p.PreSynapse != nil {
		if err := p.PreSynapse.Validate(); err != nil {
			return &validate.Error{Pkg: "toolkit", Object: "PES", Field: "PreSynapse", Value: p.PreSynapse.Name(), Rule: "invalid synapse", Err: err}
		}
	}
	return nil
}

// Rule is the learning rule of a connection as a connection target
// (Nengo's conn.learning_rule): connect an error signal to it.
type Rule struct {
	Conn *Connection
}

// Rule returns the connection's learning rule as a target for the error
// connection (Nengo's conn.learning_rule).
func (c *Connection) Rule() *Rule {
	if c.rule == nil {
		c.rule = &Rule{Conn: c}
	}
	return c.rule
}

func (r *Rule) Kind() string { return "LearningRule" }
func (r *Rule) Name() string { return r.Conn.Label + ".learning_rule" }

// Dimensions: the rule takes an error of the post state's size (Nengo's
// size_in "post_state": the post ensemble's dimensions for a connection to
// neurons, else the connection's output size) and has no output.
func (r *Rule) Dimensions() (in, out int) {
	switch r.Conn.LearningRule.(type) {
	case *PES, *RLS:
	case *Voja:
		return 1, 0 // a scalar learning signal
	default:
		return 0, 0 // BCM and Oja take no input
	}
	if n, ok := r.Conn.Post.Obj().(*Neurons); ok {
		return n.Ensemble.Dims, 0
	}
	return TargetSize(r.Conn.Post, true), 0
}
func (r *Rule) Obj() Object    { return r }
func (r *Rule) Indices() []int { return nil }
func (r *Rule) String() string { return fmt.Sprintf("LearningRule of %s", r.Conn) }

// BCM is the Bienenstock-Cooper-Munro rule (nengo.BCM; Bienenstock,
// Cooper & Munro 1982): on a neuron-to-neuron weight matrix, each step
// Δw_ij = LearningRate·dt · a_j(a_j - θ_j) · a_i with a_i the pre and a_j
// the post activities filtered by PreSynapse/PostSynapse and θ the post
// activity filtered by ThetaSynapse. Defaults (NewBCM): LearningRate
// 1e-9, PreSynapse Lowpass(0.005), PostSynapse the same, ThetaSynapse
// Lowpass(1).
type BCM struct {
	LearningRate float64
	PreSynapse   synapses.Synapse
	PostSynapse  synapses.Synapse
	ThetaSynapse synapses.Synapse
}

// NewBCM returns BCM with Nengo's defaults.
func NewBCM() *BCM {
	return &BCM{LearningRate: 1e-9, PreSynapse: synapses.Lowpass{Tau: 0.005},
		PostSynapse: synapses.Lowpass{Tau: 0.005}, ThetaSynapse: synapses.Lowpass{Tau: 1}}
}

func (*BCM) Name() string { return "BCM" }

// Validate checks the rate and the synapses.
func (r *BCM) Validate() error {
	return validateRule("BCM", r.LearningRate, map[string]synapses.Synapse{
		"PreSynapse": r.PreSynapse, "PostSynapse": r.PostSynapse, "ThetaSynapse": r.ThetaSynapse})
}

// Oja is Oja's Hebbian rule with forgetting (nengo.Oja; Oja 1982): on a
// neuron-to-neuron weight matrix, each step
// Δw_ij = LearningRate·dt · (a_j·a_i - Beta·a_j²·w_ij). Defaults (NewOja):
// LearningRate 1e-6, PreSynapse Lowpass(0.005), PostSynapse the same,
// Beta 1.
type Oja struct {
	LearningRate float64
	PreSynapse   synapses.Synapse
	PostSynapse  synapses.Synapse
	Beta         float64
}

// NewOja returns Oja with Nengo's defaults.
func NewOja() *Oja {
	return &Oja{LearningRate: 1e-6, PreSynapse: synapses.Lowpass{Tau: 0.005},
		PostSynapse: synapses.Lowpass{Tau: 0.005}, Beta: 1}
}

func (*Oja) Name() string { return "Oja" }

// Validate checks the rate, Beta and the synapses.
func (r *Oja) Validate() error {
	if !(r.Beta >= 0) || math.IsInf(r.Beta, 1) {
		return &validate.Error{Pkg: "toolkit", Object: "Oja", Field: "Beta", Value: r.Beta, Rule: "must be non-negative and finite"}
	}
	return validateRule("Oja", r.LearningRate, map[string]synapses.Synapse{
		"PreSynapse": r.PreSynapse, "PostSynapse": r.PostSynapse})
}

func validateRule(obj string, rate float64, syns map[string]synapses.Synapse) error {
	if !(rate >= 0) || math.IsInf(rate, 1) {
		return &validate.Error{Pkg: "toolkit", Object: obj, Field: "LearningRate", Value: rate, Rule: "must be non-negative and finite"}
	}
	for _, name := range []string{"PreSynapse", "PostSynapse", "ThetaSynapse"} {
		if s := syns[name]; s != nil {
			if err := s.Validate(); err != nil {
				return &validate.Error{Pkg: "toolkit", Object: obj, Field: name, Value: s.Name(), Rule: "invalid synapse", Err: err}
			}
		}
	}
	return nil
}

// Voja is the vector Oja rule (nengo.Voja; Voja 2016): it moves the post
// ensemble's encoders towards the decoded input x of the connection,
// Δe_i = LearningRate·dt·L · a_i·(gain_i/radius · x - e_i) on the scaled
// encoders, with a_i the post activity filtered by PostSynapse and L the
// learning signal delivered to conn.Rule() (1 when nothing is connected).
// Defaults (NewVoja): LearningRate 1e-2, PostSynapse Lowpass(0.005).
type Voja struct {
	LearningRate float64
	PostSynapse  synapses.Synapse
}

// NewVoja returns Voja with Nengo's defaults.
func NewVoja() *Voja { return &Voja{LearningRate: 1e-2, PostSynapse: synapses.Lowpass{Tau: 0.005}} }

func (*Voja) Name() string { return "Voja" }

// Validate checks the rate and the synapse.
func (r *Voja) Validate() error {
	return validateRule("Voja", r.LearningRate, map[string]synapses.Synapse{"PostSynapse": r.PostSynapse})
}

// RLS is recursive least squares on the decoders (nengo.RLS; Sussillo &
// Abbott 2009, FORCE): with r the pre activities filtered by PreSynapse
// and P the running inverse correlation matrix (initially
// I·LearningRate·dt/n), each step P ← P - (P r)(P r)ᵀ/(1 + rᵀP r) and
// Δd = -e ⊗ (P r)/(1 + rᵀP r) for the error e delivered to conn.Rule().
// Defaults (NewRLS): LearningRate 1e-3, PreSynapse Lowpass(0.005).
type RLS struct {
	LearningRate float64
	PreSynapse   synapses.Synapse
}

// NewRLS returns RLS with Nengo's defaults.
func NewRLS() *RLS { return &RLS{LearningRate: 1e-3, PreSynapse: synapses.Lowpass{Tau: 0.005}} }

func (*RLS) Name() string { return "RLS" }

// Validate checks the rate and the synapse.
func (r *RLS) Validate() error {
	return validateRule("RLS", r.LearningRate, map[string]synapses.Synapse{"PreSynapse": r.PreSynapse})
}
