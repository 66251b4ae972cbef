// Package toolkit holds neurogo's model descriptions, following Nengo 4.1's
// object model (§2.1 of "NengoDL: Combining deep learning and neuromorphic
// modelling methods", Daniel Rasmussen, Neuroinformatics, 2019; the
// NengoDL paper below): a Network of Ensembles, Nodes,
// Connections and Probes, with Nengo's defaults. Descriptions carry no
// simulation state; package sim builds them into signals and operators.
// Neuron types live in toolkit/neurons, synapses in toolkit/synapses,
// distributions in toolkit/dists and decoder solvers in toolkit/solvers.
//
// # Building a description
//
// Constructors on Network fill in the network's Defaults (Nengo's, from
// NengoDefaults); change fields afterwards:
//
//	net := toolkit.New("channel", 0)          // label, seed
//	stim := net.Node("stim", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
//	a := net.Ensemble("a", 50, 1)             // 50 LIF neurons, 1-D
//	a.Radius = 2
//	b := net.Ensemble("b", 50, 1)
//	net.Connect(stim, a)                      // Lowpass(0.005), transform 1
//	c := net.Connect(a, b)                    // decoded with LstsqL2(reg 0.1)
//	c.Function = func(x []float64) []float64 { return []float64{x[0] * x[0]} }
//	p := net.Probe("b", b, toolkit.AttrDecoded)
//	p.Synapse = synapses.Lowpass{Tau: 0.01}
//
// Defaults (Nengo 4.1): LIF neurons (tau_rc 0.02 s, tau_ref 0.002 s), max
// rates U(200, 400) Hz, intercepts U(-1, 0.9), encoders scattered on the
// unit sphere and eval points scattered in the ball of the radius (1)
// (ScatteredHypersphere, quasi-random), normalised
// encoders, DefaultNEvalPoints = max(clip(500·d, 750, 2500), 2·n); connection
// synapse Lowpass(0.005 s), solver LstsqL2(reg 0.1), transform 1,
// ScaleEvalPoints true; probes unfiltered, every step.
//
// # Targets
//
// Connections and probes attach to a Target: an *Ensemble (decoded
// value), its Neurons() (neuron currents in, spikes or rates out), a *Node,
// or a slice of one (a.Slice(0, 2), a.Neurons().Index(3, 7)). Nodes
// are constant (Const), f(t) (Node), f(t, x) (NodeIn) or passthrough
// (Passthrough); all callbacks use dst-style, non-generic function types
// (TimeFunc, NodeFunc, Function) so notebook cells can define them.
//
// # Processes, learning, Direct mode
//
// A Process (WhiteNoise, WhiteSignal, PresentInput, Piecewise) drives a
// node (NodeProcess) or adds noise to an ensemble's neuron currents
// (Ensemble.Noise); it draws from a generator seeded by the object's seed.
// PES on Connection.LearningRule learns from an error connected to
// conn.Rule(), as does RLS; BCM and Oja learn neuron-to-neuron weights
// from activity; Voja moves the post encoders towards the input.
// NeuronType Direct{} makes an ensemble compute its connections'
// functions exactly, without neurons.
//
// # Units and invariants
//
//   - Time in seconds, rates in Hz, values dimensionless (in units of the
//     ensemble radius inside neurons), as in Nengo.
//   - Randomness only from seeds: each object gets a seed derived from its
//     network's seed and its position (DeriveSeed), or one set with
//     SetSeed; sub-networks derive theirs from the parent. The same seed
//     gives the same model.
//   - Validate (also run by sim.Build) reports the first invalid field as
//     a *validate.Error (package toolkit/validate, shared by every
//     toolkit package) naming the object (kind and label), field, value
//     and rule,
//     e.g. `toolkit: Ensemble "a".N = 0: must be positive (number of
//     neurons)`. Nothing here panics on user input.
//   - The API is not generic, so the notebook interpreter can bind it.
package toolkit
