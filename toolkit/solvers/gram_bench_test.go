package solvers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkLstsqL2 solves the pes benchmark's decoder problem alone: m =
// 19968 eval points, n = 9984 neurons (rectified Gaussian activities), d
// targets, and reports GFLOP/s counting m·n² (syrk) + n³/3 (potrf) +
// 2·m·n·d (AᵀY) + 2·n²·d (potrs) flops.
//
//	go test ./toolkit/solvers -run '^$' -bench 'LstsqL2/' -benchtime 1x
//	go test -tags openblas ./toolkit/solvers -run '^$' -bench 'LstsqL2/' -benchtime 1x
func BenchmarkLstsqL2(b *testing.B) {
	if testing.Short() {
		b.Skip("minutes in pure Go")
	}
	b.Logf("BLAS: %s, GOMAXPROCS %d", BLAS(), runtime.GOMAXPROCS(0))
	for _, sz := range []struct{ m, n, d int }{{4000, 2000, 64}, {19968, 9984, 192}} {
		b.Run(fmt.Sprintf("%dx%dx%d", sz.m, sz.n, sz.d), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			A := mat.NewDense(sz.m, sz.n, nil)
			ad := A.RawMatrix().Data
			for i := range ad {
				ad[i] = math.Max(0, 100*rng.NormFloat64())
			}
			Y := mat.NewDense(sz.m, sz.d, nil)
			yd := Y.RawMatrix().Data
			for i := range yd {
				yd[i] = 2*rng.Float64() - 1
			}
			m, n, d := float64(sz.m), float64(sz.n), float64(sz.d)
			flops := m*n*n + n*n*n/3 + 2*m*n*d + 2*n*n*d
			var secs, cpu float64
			for b.Loop() {
				t0, c0 := time.Now(), cpuSeconds()
				if _, err := NewLstsqL2().Solve(A, Y); err != nil {
					b.Fatal(err)
				}
				secs, cpu = time.Since(t0).Seconds(), cpuSeconds()-c0
			}
			b.ReportMetric(secs, "solve-s")
			b.ReportMetric(cpu, "cpu-s")
			b.ReportMetric(flops/secs/1e9, "GFLOP/s")
		})
	}
}

// cpuSeconds returns this process's user + system CPU time (all threads).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
