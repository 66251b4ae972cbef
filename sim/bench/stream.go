package bench

import (
	"math"
	"time"
)

// CopyBytes is the size of each of the two float64 slices CopyBandwidth
// copies between: 64 MiB, far beyond any cache on the benchmark machines.
const CopyBytes = 64 << 20

// CopyBandwidth measures the memory bandwidth one goroutine draws
// copying a 64 MiB float64 slice into another (STREAM's "Copy" kernel,
// McCalpin 1995, single-threaded because the CPU simulator steps on one
// core): one untimed pass, then the best of repeats timed copies, each
// counted as 2 × 64 MiB (read + write, as STREAM counts it). It returns
// GB/s (1e9 bytes per second), or NaN if repeats < 1.
func CopyBandwidth(repeats int) float64 {
	if repeats < 1 {
		return math.NaN()
	}
	n := CopyBytes / 8
	src, dst := make([]float64, n), make([]float64, n)
	for i := range src {
		src[i] = float64(i)
	}
	copy(dst, src) // fault the pages in
	best := math.Inf(1)
	for range repeats {
		t0 := time.Now()
		copy(dst, src)
		best = min(best, time.Since(t0).Seconds())
	}
	if dst[n-1] != src[n-1] {
		panic("bench: copy did not copy")
	}
	return 2 * CopyBytes / best / 1e9
}
