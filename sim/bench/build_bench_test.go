package bench

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit/solvers"
)

// BenchmarkBuildPES times sim.Build (all optimizer passes, as neurogo
// bench sim builds) of the pes model with Nengo's 2·N =
// 19968 eval points (the decoder solve for 9984 neurons dominates) and
// reports the process's peak RSS during the build and its CPU time
// (user + system, all threads: on a busy machine cpu-s is the steadier
// figure). Run one D per process,
// so that the peak belongs to it:
//
//	go test ./sim/bench -run '^$' -bench 'BuildPES/D=192' -benchtime 1x
//	go test -tags openblas ./sim/bench -run '^$' -bench 'BuildPES/D=192' -benchtime 1x
func BenchmarkBuildPES(b *testing.B) {
	if testing.Short() {
		b.Skip("minutes in pure Go")
	}
	b.Logf("BLAS: %s, GOMAXPROCS %d", solvers.BLAS(), runtime.GOMAXPROCS(0))
	for _, dims := range []int{64, 192} {
		b.Run(fmt.Sprintf("D=%d", dims), func(b *testing.B) {
			var peak, secs, cpu float64
			for b.Loop() {
				b.StopTimer()
				net, err := Network("pes", dims, NeuronsPerD(dims), 0)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				ResetPeakRSS()
				b.StartTimer()
				t0, c0 := time.Now(), cpuSeconds()
				if _, err := sim.Build(net, sim.CheckNaN(false), sim.Optimize(sim.AllOptimizations())); err != nil {
					b.Fatal(err)
				}
				secs, cpu = time.Since(t0).Seconds(), cpuSeconds()-c0
				peak = max(peak, PeakRSSMB())
			}
			b.ReportMetric(secs, "build-s")
			b.ReportMetric(cpu, "cpu-s")
			b.ReportMetric(peak, "peak-MiB")
		})
	}
}

// cpuSeconds returns this process's user + system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
