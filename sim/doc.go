// Package sim builds toolkit descriptions into signals and operators, as
// Nengo's builder does (§2.2 of "NengoDL: Combining deep learning and
// neuromorphic modelling methods", Daniel Rasmussen, Neuroinformatics,
// 2019; the NengoDL paper below), and runs them on the CPU with the
// semantics of Nengo 4.1's reference simulator. It defines the Backend
// interface that package accel implements; sim/simtest is the conformance
// suite every backend runs.
//
// # The pipeline
//
// A model passes through four rooms, each its own package:
//
//   - sim/ir: the operator vocabulary — one Go type per operator (Reset,
//     Copy, ElementwiseInc, DotInc, SparseDotInc, TimeUpdate, SimNeurons,
//     SimSynapse, SimProcess, SimNodeFunc, SimLayer, the learning rules,
//     SimCallback for operators run outside the executor, and the fused
//     DotIncPES and EnsembleReLU) and the Lowerer interface
//     every executor implements.
//   - sim/build: the builder (Nengo's), from a network to a signal table
//     and operators in dependency order.
//   - sim/opt: the graph optimiser (simplify, fuse, plan, sort).
//   - sim (this package): Build and New run the pipeline; the Simulator
//     lowers the optimised groups onto each lane's store (lower.go for
//     float64, float32.go) and steps them; Model.Graph hands the
//     builder's operators to other executors (the trainer, accelerator
//     backends), and FromGraph makes a Model from such a graph built
//     elsewhere (checked operator by operator, then ordered and optimised).
//
// The data flows one way:
//
//	toolkit.Network → build → signals + ir operators → opt → groups + layout → Simulator
//
// # Build
//
// Build(net, opts...) validates the network and makes a Model: one
// contiguous float64 store of signals and the operators in execution
// order, for every signal the op that sets it, then those that increment
// it, then readers, then the op that updates it, ties in creation order.
// A loop without a synapse is a cycle and an error; so are objects of
// another network and a model larger than the available memory (the
// builder estimates it before allocating). WithParams (or
// BuildWithParams) overrides built parameters by label, e.g. with
// parameters Nengo built (LoadParams reads the .npz that
// sim/testdata/nengo/export.py writes; Model.SaveParams writes one).
//
// # Simulate
//
//	s, err := sim.New(net)         // Build + NewFromModel, dt 0.001 s
//	err = s.Run(0.5)               // round(0.5/dt) steps; equals Step repeated
//	data, err := s.Data(probe)     // [samples][dims]
//
// Semantics (Nengo's): step k computes the state at t = k·dt (nodes see
// t = dt first); a synapse is an update, so every filtered connection and
// filtered probe delays by one step and an unfiltered one does not; probes
// sample after the step when step mod (SampleEvery/dt) < 1.
//
// Options for New/NewFromModel: Batch(n) runs n independent copies
// (lanes) of the model, Feed(node, data) replaces a node's output by
// data[batch][step][dim] (the NengoDL paper, §3.1), and DataBatch returns probe data
// as [batch][samples][dims]. CheckNaN(false) switches off the per-step NaN
// check. SoftReset restarts time keeping the probe data if asked.
//
// Run and RunSteps check the process's interrupt flag (package interrupt)
// before every step and return an error wrapping interrupt.ErrInterrupted
// when it is set, with time, steps and probe data (of every lane) those
// of the steps done, so a later run continues from there. Build checks it
// between ensembles and connections and while computing activities and
// solving for decoders (see toolkit/solvers for what is not interruptible).
//
// Built so far: LIF, LIFRate, RectifiedLinear, SpikingRectifiedLinear,
// AdaptiveLIF(Rate), Izhikevich, Sigmoid, Tanh and the spiking wrappers
// (all of toolkit/neurons), toolkit.Direct ensembles, every
// toolkit/synapses filter, decoded and direct connections with scalar or
// dense transforms, slices on both ends, connections to and from neurons,
// weights=true solvers, PES, BCM, Oja, Voja and RLS learning (each
// checked against Nengo 4.1 to ~1e-14), node processes and ensemble
// noise, and probes of every attribute, learning-rule signals included.
//
// # Optimize and execute
//
// Between building and execution the graph optimiser (package opt; the
// NengoDL paper, §4.2) rewrites a copy of the operators; Model.Ops stays
// the builder's list and Model.Plan reports what was done.
// Optimize(Optimizations{…}) switches each pass (Simplify, Merge, Sort;
// Optimizations.Planner and Optimizations.Sorter choose among NengoDL's
// planners and sorters); all are on by default and every combination
// gives bit-identical output (opt_test.go runs every parity and
// benchmark model with each).
//
// A merged group runs as one kernel (lower.go): copies and element-wise
// products as runs of adjacent elements, dot products as a block list,
// neurons and synapses of one type as one call, fused ensembles and
// fused decode + PES in one pass over their weights; other operators run
// one after the other (ops.go).
//
// Products by read-only matrices with repeated rows (circular
// convolution's Fourier transforms, the basal ganglia's ones matrices)
// compute each distinct row once (dedup.go), with the same sums, from a
// compile-time copy of the weights whose rows start on 64-byte
// boundaries (a misaligned vector load spans two cache lines).
//
// The inner loops (internal/vec) are Go assembly chosen at run time from
// the CPU's features (AVX-512 or AVX2/FMA on amd64, NEON on arm64; no
// build flag needed), bit-identical to the portable Go loops:
// dot products keep sixteen partial sums whatever the vector width, rows
// are summed two at a time (vec.DotRows), a rectified-linear ensemble's
// rates and first two decoder rows are one pass (vec.EnsDot2), and eight
// one-dimensional ensembles run side by side, one per vector lane
// (octets, pack.go, vec.EnsOct), so their sums need no horizontal
// reduction. With one lane, large
// merged operators are cut into chunks that the caller and a spinning
// worker claim from both ends (split.go: ~100 ns hand-over; a worker
// descheduled by another process delays at most one chunk). Batched
// lanes step on all cores (Parallel), each core's lanes in lockstep —
// operator by operator, chunk by chunk — reading the read-only weights
// from one shared copy; a product with an aligned weight copy runs for
// all of a core's lanes at once as one matrix–matrix product (dotLanes,
// vec.DotRowsLanes: four or five lanes per load of the weights), and
// every lane equals a run of its own bit for bit. Float32 runs a simulator in single precision. `neurogo bench sim`
// measures all of it.
//
// # Invariants and units
//
//   - float64 at the surface (Float32 only inside a simulator); time in
//     seconds; rates in Hz.
//   - Step allocates nothing (Node and connection functions written by the
//     user aside) and state lives in one contiguous slice.
//   - User input never panics: Build returns errors naming the object,
//     field, value and rule; a failing neuron or synapse step stops the
//     run with an error naming the operator, and a panic in user code (a
//     node's or connection's function, a process, a layer) stops it with
//     a *PanicError naming the object, the step and the panic value. A
//     failed step leaves time, steps and probe data at the last completed
//     step. A panic of the builder or the optimiser is a bug: it is not
//     turned into an error.
//   - Parity: given Nengo's built parameters, every probe matches Nengo
//     4.1 to 1e-9 (sim/parity_test.go, fixtures in testdata/nengo).
package sim
