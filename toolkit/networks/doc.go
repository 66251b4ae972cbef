// Package networks is neurogo's library of Nengo networks: functions that
// add a labelled sub-network to a parent *toolkit.Network and return a
// struct exposing its input and output objects, as Nengo's networks
// expose .input and .output. Structure and defaults follow Nengo 4.1
// (nengo.networks), checked by building the same networks in Nengo and
// comparing ensembles, connections, transforms and synapses; Integrator
// and Oscillator, which Nengo 3 dropped, follow Nengo 2.x.
//
//   - EnsembleArray: independent ensembles representing one vector, with
//     AddOutput(name, function), AddNeuronInput, AddNeuronOutput.
//   - Product: element-wise product by two arrays of squaring ensembles.
//   - CircularConvolution: binding by DFT, Product of the Fourier
//     coefficients, inverse DFT (dense transforms).
//   - BasalGanglia and Thalamus: action selection (Gurney, Prescott &
//     Redgrave 2001, as configured in Nengo).
//   - Integrator, Oscillator, InputGatedMemory: recurrent dynamics and
//     memory.
//   - BenchIntegrator, BenchCConv, BenchBasalGanglia, BenchPES: the four
//     benchmark models of "NengoDL: Combining deep learning and
//     neuromorphic modelling methods" (Daniel Rasmussen, Neuroinformatics,
//     2019, §5.1), as nengo_dl.benchmarks defines them.
//
// # Use
//
//	net := toolkit.New("model", 0)
//	a := net.Const("a", 0.5, -0.5)
//	b := net.Const("b", 0.8, 0.8)
//	prod, err := networks.Product(net, "prod", 200, 2, 1) // 200 neurons per product, |x| ≤ 1
//	if err != nil { … }
//	net.Connect(a, prod.InputA)
//	net.Connect(b, prod.InputB)
//	p := net.Probe("ab", prod.Output, "")
//	p.Synapse = synapses.Lowpass{Tau: 0.01}
//	s, err := sim.New(net) // then s.Run(0.5); s.Data(p) ≈ [0.4, −0.4]
//
// # Options and defaults
//
// Arguments Nengo gives positionally are positional here; networks with
// several keyword options take a config struct pointer, nil meaning
// Nengo's defaults (DefaultBasalGanglia, DefaultThalamus,
// DefaultInputGatedMemory). Ensembles are made with the parent network's
// Defaults (Nengo's config), so set parent.Defaults.NeuronType (or
// radius, intercepts, …) before calling, or change the returned
// ensembles' fields afterwards: descriptions are plain data until
// sim.Build.
//
// # Invariants
//
//   - Nothing here panics on user input: a bad argument returns a
//     *validate.Error naming the network (kind and label), the argument,
//     the value and the rule, and the parent is left unchanged.
//   - Connections inside the networks are unfiltered where Nengo's are
//     (synapse None), so Product and CircularConvolution add no delay of
//     their own; recurrent and inter-population connections carry the
//     synapses Nengo gives them.
//   - Randomness only from seeds: object seeds derive from the parent's
//     seed and the objects' positions (toolkit.DeriveSeed), so the same
//     seed gives the same model.
//   - Units: time constants in seconds, Oscillator frequency in rad/s
//     (as Nengo), values in units of the ensembles' radii.
//
// The API is not generic, so the notebook interpreter can bind it.
package networks
