// Package toolkit holds neurogo's model descriptions: networks, ensembles,
// nodes, connections, probes, neuron types, synapses, learning rules,
// solvers, distributions and processes, following Nengo's object model
// (seed 000, §2.1). Descriptions are validated on construction and carry no
// simulation state; package sim builds them into signals and operators.
//
// Status: the object model arrives with issue 3 (Nengo-compatible core).
// The package exists now so that the kernel's generated bindings, the
// documentation and the dependency direction (toolkit ← sim ← train/accel ←
// kernel) are in place from the first commit.
package toolkit
