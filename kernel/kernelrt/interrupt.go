package kernelrt

import (
	"sync"
	"time"

	"github.com/neurogo/neurogo/interrupt"
)

// A cell's own top-level code stops on the first interrupt: the compiled
// cell polls at every iteration of its loops (Poll) and waits on channels
// and sleeps with the interrupt in view (Recv, Sleep). Functions the cell
// declares are compiled as they are, at full speed: a loop in one that
// never calls back into the toolkit stops on the second interrupt, which
// restarts the executor.

// InterruptPanic unwinds a cell that was interrupted; the executor
// recovers it.
type InterruptPanic struct{}

func (InterruptPanic) Error() string { return "interrupted" }

var (
	intMu   sync.Mutex
	intDone = make(chan struct{})
)

// BeginCell arms the interrupt for a new cell.
func BeginCell() {
	intMu.Lock()
	defer intMu.Unlock()
	select {
	case <-intDone:
		intDone = make(chan struct{})
	default:
	}
	interrupt.Reset()
}

// Interrupt interrupts the running cell.
func Interrupt() {
	interrupt.Request()
	intMu.Lock()
	defer intMu.Unlock()
	select {
	case <-intDone:
	default:
		close(intDone)
	}
}

// Done is closed when the running cell is interrupted.
func Done() <-chan struct{} {
	intMu.Lock()
	defer intMu.Unlock()
	return intDone
}

// Interrupted reports whether the running cell was interrupted.
func Interrupted() bool { return interrupt.Requested() }

// Poll panics with InterruptPanic when the cell was interrupted; compiled
// cells call it at every iteration of their top-level loops (one atomic
// load).
func Poll() {
	if interrupt.Requested() {
		panic(InterruptPanic{})
	}
}

// Recv receives from ch as <-ch does, or unwinds the cell on interrupt.
func Recv[T any](ch <-chan T) T {
	select {
	case v := <-ch:
		return v
	case <-Done():
		panic(InterruptPanic{})
	}
}

// sleepUntil waits for d or the interrupt.
func sleepUntil(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-Done():
	}
}
