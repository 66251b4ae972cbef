// Package opt is the graph optimiser that runs between building a model
// and executing it (§4.2 of "NengoDL: Combining deep learning and
// neuromorphic modelling methods", Daniel Rasmussen, 2019; the NengoDL
// paper below). It works on the typed operators of package ir and a
// signal table, and returns the groups to execute per step and a new
// signal layout; every combination of passes gives the same simulation
// output bit for bit (package sim's tests run every parity and benchmark
// model with each).
//
//   - Simplify (Optimizations.Simplify): a Reset followed by one
//     increment that writes all of the signal becomes a set; a temporary
//     that only carries an operator's output into a copy disappears (the
//     operator writes the destination, index maps composed); a gathered
//     copy feeding one reader disappears; the bias copy fuses into the
//     encoder product (J = bias + E·x); ×1 becomes a copy; PES adds to
//     its weights in place, fused with the decoder product that reads
//     them (DotIncPES); a rectified-linear ensemble whose currents and
//     rates nothing else reads runs encoders, neurons and decoders as one
//     operator (EnsembleReLU); operators whose outputs nothing reads or
//     probes are removed (Plan.Dead).
//   - Merge: a planner groups operators of one type that do not depend on
//     each other (increments of the same elements keep their order, so
//     every sum is the same): by default all ready operators level by
//     level; Optimizations.Planner selects NengoDL's greedy planner, its
//     bounded breadth-first tree search or a transitive-closure planner
//     (planners.go).
//   - Sort: signals are laid out so group members read and write
//     adjacent memory (largest groups first); Optimizations.Sorter
//     "metablock" runs the NengoDL paper's Algorithms 1 and 2 instead
//     (sortsig.go).
//
// Optimize(model, Optimizations) returns a Result: the groups in
// execution order, every signal's offset, the store size and a Plan that
// summarises what was done. Slots and Contiguous tell an executor whether
// a group's members lie one after the other (one call over adjacent
// memory).
package opt
