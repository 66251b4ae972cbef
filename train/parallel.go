package train

import (
	"runtime"
	"sync"

	"github.com/neurogo/neurogo/internal/vec"
)

// clearEvery is how many elements a scalar loop processes between two
// vec.ClearUpper calls (see sweep).
const clearEvery = 4096

// sweep runs f over [lo, hi) in blocks of clearEvery, executing VZEROUPPER
// before each: around the vector kernels an asynchronous preemption can
// return to Go code with dirty upper vector halves, after which every SSE
// instruction of Go's scalar float code pays a transition penalty
// (measured: math.Exp 100× slower) until the next VZEROUPPER.
func sweep(lo, hi int, f func(lo, hi int) error) error {
	for a := lo; a < hi; a += clearEvery {
		vec.ClearUpper()
		if err := f(a, min(a+clearEvery, hi)); err != nil {
			return err
		}
	}
	return nil
}

// parallelFor splits [0, n) into at most GOMAXPROCS contiguous chunks of
// at least minChunk and runs f on them concurrently (chunk k of the
// call is [lo, hi)); it returns the first error.
func parallelFor(n, minChunk int, f func(k, lo, hi int) error) error {
	w := min(runtime.GOMAXPROCS(0), n/max(minChunk, 1))
	if w <= 1 {
		vec.ClearUpper()
		return f(0, 0, n)
	}
	var wg sync.WaitGroup
	errs := make([]error, w)
	for k := range w {
		lo, hi := k*n/w, (k+1)*n/w
		if k == w-1 {
			vec.ClearUpper()
			errs[k] = f(k, lo, hi)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			vec.ClearUpper()
			errs[k] = f(k, lo, hi)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
