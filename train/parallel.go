package train

import (
	"runtime"
	"sync"
)

// parallelFor splits [0, n) into at most GOMAXPROCS contiguous chunks of
// at least minChunk and runs f on them concurrently (chunk k of the
// call is [lo, hi)); it returns the first error.
func parallelFor(n, minChunk int, f func(k, lo, hi int) error) error {
	w := min(runtime.GOMAXPROCS(0), n/max(minChunk, 1))
	if w <= 1 {
		return f(0, 0, n)
	}
	var wg sync.WaitGroup
	errs := make([]error, w)
	for k := range w {
		lo, hi := k*n/w, (k+1)*n/w
		if k == w-1 {
			errs[k] = f(k, lo, hi)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
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
