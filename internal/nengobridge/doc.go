// Package nengobridge runs a model built by Nengo's Python builder on
// neurogo's simulator: the Go half of nengo_neurogo, the Nengo backend in
// python/nengo_neurogo.
//
// Nengo's builder (nengo.builder.Model.build) turns a network into
// signals and operators. The Python side hands them over as a Spec: one
// entry per base signal (its size and, by offset into one buffer of
// float64, its initial value), the operators in the builder's order with
// the base signals each sets, increments, reads and updates, and the
// probes. Operators with a Go equivalent are translated into the typed
// operators of package sim/ir (Reset, Copy, ElementwiseInc, DotInc,
// SparseDotInc, TimeUpdate, SimNeurons for Nengo's neuron types,
// SimSynapse for its linear filters, SimProcess for PresentInput and
// Piecewise, the learning rules); every other operator is a
// SimCallback that calls back into Python, which runs Nengo's own step
// function for it on the same memory (sim.Store), in its place in the
// step.
//
// Check reports which operators of a Spec have no Go translation and why,
// so that the Python side can make them callbacks; New builds the
// simulator. cmd/libneurogo exports both through C for ctypes.
package nengobridge
