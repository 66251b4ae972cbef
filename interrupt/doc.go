// Package interrupt is the process's interrupt flag: the Jupyter kernel
// (or any other front end) calls Request when the user asks the running
// computation to stop and Reset before the next one starts, and every
// long-running loop of the toolkit, the simulators, training and the
// accelerator emulation calls Requested (or Check) between steps, batches
// or blocks and returns an error wrapping ErrInterrupted, leaving its
// state consistent (a simulator's time and probe data equal the steps it
// actually ran).
//
// The flag is the one piece of mutable package-level state in neurogo, on
// purpose: it mirrors the process's signal state, as os/signal does (an
// interrupt reaches the process, not one object, and a cell's code cannot
// thread a context through every call it makes into the toolkit). It is a
// single atomic boolean, safe for concurrent use from any goroutine;
// Requested is one atomic load — no lock, no allocation — cheap enough to
// call every simulation step.
//
// Loops that already take a context.Context keep it; they stop on either.
//
//	interrupt.Reset()               // before a cell
//	go func() { <-stop; interrupt.Request() }()
//	err := s.Run(10)                // returns early on Request
//	if errors.Is(err, interrupt.ErrInterrupted) { … }
//
// Tests that call Request share the flag with every other test of the
// process: they must not run in parallel with tests that run long loops,
// and must Reset the flag when they end (t.Cleanup(interrupt.Reset)).
//
// The package imports only the standard library.
package interrupt
