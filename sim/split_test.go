package sim

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestPoolWorkersPark: once offers stop, the pool's workers go to sleep
// (the last offer stays published, finished: they must not keep spinning
// on it and take a core from whatever the process does next), and a new
// offer wakes them.
func TestPoolWorkersPark(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: no pool workers")
	}
	var ran atomic.Int32
	chunk := func() { ran.Add(1); time.Sleep(100 * time.Microsecond) }
	sp := newSplitter(chunk, chunk, chunk, chunk, chunk, chunk, chunk, chunk)
	workers := int32(runtime.GOMAXPROCS(0) - 1)
	waitParked := func(what string) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Second)
		for pool.parked.Load() < workers {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d of %d pool workers parked after 2 s (spinFor %v)", what, pool.parked.Load(), workers, spinFor)
			}
			time.Sleep(time.Millisecond)
		}
	}
	for round := range 3 {
		sp.run()
		if got := ran.Swap(0); got != 8 {
			t.Fatalf("round %d: %d chunks ran, want 8", round, got)
		}
		waitParked("after a run")
	}
	// a worker that parked still takes chunks of the next offer
	took := false
	for range 200 {
		sp.run()
		if got := ran.Swap(0); got != 8 {
			t.Fatalf("%d chunks ran, want 8", got)
		}
		if sp.done.Load() > 0 {
			took = true
			break
		}
		waitParked("between runs")
	}
	if !took {
		t.Error("no pool worker took a chunk after parking")
	}
}
