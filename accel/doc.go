// Package accel holds emulated analog accelerators behind sim.Backend:
// quantised vector-matrix multiplication with noise and fixed-pattern
// models, partitioning onto synapse arrays, and a just-in-time execution
// graph (seed 002, BrainScaleS-2 / hxtorch).
//
// Status: arrives with issue 7; only the package boundary exists so far.
package accel
