// Package build is the builder: it turns a toolkit network into signals
// and typed operators (package ir) as Nengo's builder does (§2.2 of
// "NengoDL: Combining deep learning and neuromorphic modelling methods",
// Daniel Rasmussen, 2019). Most programs call sim.Build, which runs it and
// then the optimiser; this package is the room of that pipeline that
// knows the object model.
//
// Build(net, Config{DT, Params}) validates the network (every object
// field, objects of one network tree, labels unique when parameters are
// overridden, the memory the model needs against what is available) and
// makes a Model: one contiguous float64 store of signals (ensemble input,
// neuron currents and outputs, neuron state, biases, scaled encoders,
// connection weights, filtered outputs, time and step) and the operators
// in execution order — for every signal, the operator that sets it, then
// those that increment it, then readers, then the one that updates it,
// ties in creation order (order.go). A loop without a synapse is a cycle
// and an error.
//
// Ensembles get eval points, encoders, then gains and biases (from max
// rates and intercepts via the neuron type), drawn from a PCG seeded by
// the ensemble's seed; decoders are solved from the neuron rates at the
// eval points (activities.go streams them to the solvers). Config.Params
// overrides any of these by label (EnsembleKeys, ConnectionKeys), e.g.
// with parameters Nengo built (LoadParams reads an .npz; Params.Arrays
// writes one).
//
// Files: model.go (the Model and parameter types), build.go (Build,
// keys), ensembles.go, nodes.go (nodes and layer nodes), connections.go
// (decoded, direct, sparse and low-rank connections, synapses),
// learning.go (PES, BCM, Oja, Voja, RLS), probes.go, order.go (the
// dependency sort), validate.go (membership and memory checks),
// sparse.go, params.go (.npz exchange), activities.go.
//
// User input never panics: invalid descriptions return a *validate.Error
// naming the object, field, value and rule. A panic in this package is a
// bug and is not recovered.
package build
