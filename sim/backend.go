package sim

import "github.com/neurogo/neurogo/toolkit"

// Backend runs a built Model: the CPU Simulator here, the emulated analog
// accelerator in package accel, later a GPU. Every backend passes the
// conformance suite in sim/simtest.
type Backend interface {
	// Step advances by one time step of Dt seconds.
	Step() error
	// RunSteps advances by n steps; it equals n calls of Step.
	RunSteps(n int) error
	// Reset returns to time 0 with the initial state and no probe data.
	Reset()
	// Time is the simulated time in seconds (steps·dt).
	Time() float64
	// Dt is the time step in seconds.
	Dt() float64
	// Data returns a probe's samples as [samples][dims].
	Data(p *toolkit.Probe) ([][]float64, error)
	// Close releases the backend's resources.
	Close() error
}

// NewBackend makes a Backend for a built model; the CPU simulator's is
// CPU.
type NewBackend func(m *Model) (Backend, error)

// CPU is the NewBackend of the reference CPU simulator.
func CPU(m *Model) (Backend, error) { return NewFromModel(m) }

// CPU32 is the NewBackend of the CPU simulator in single precision
// (Float32).
func CPU32(m *Model) (Backend, error) { return NewFromModel(m, Float32()) }

var _ Backend = (*Simulator)(nil)
