package interrupt

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// ErrInterrupted is wrapped by every error a loop returns because the
// interrupt flag was set: test with errors.Is(err, ErrInterrupted).
var ErrInterrupted = errors.New("interrupted")

// requested is the process's interrupt flag (see the package comment).
var requested atomic.Bool

// Request sets the interrupt flag: running loops stop at their next check.
func Request() { requested.Store(true) }

// Reset clears the interrupt flag.
func Reset() { requested.Store(false) }

// Requested reports whether the interrupt flag is set. It is one atomic
// load and never allocates.
func Requested() bool { return requested.Load() }

// Check returns ErrInterrupted if the interrupt flag is set and nil
// otherwise.
func Check() error {
	if requested.Load() {
		return ErrInterrupted
	}
	return nil
}

// Err returns the error a loop returns when interrupted: "what interrupted
// after done of total", wrapping ErrInterrupted. what names the loop with
// its package prefix, e.g. "sim: run" or "train: Fit"; unit names what
// done and total count ("steps", "batches").
func Err(what string, done, total int, unit string) error {
	return fmt.Errorf("%s interrupted after %d of %d %s: %w", what, done, total, unit, ErrInterrupted)
}
