package bench

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit/solvers"
)

// BenchmarkBuildPES times sim.Build of the pes model with Nengo's 2·N =
// 19968 eval points (the decoder solve for 9984 neurons dominates) and
// reports the process's peak RSS during the build. Run one D per process,
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
			var peak, secs float64
			for b.Loop() {
				b.StopTimer()
				net, err := Network("pes", dims, NeuronsPerD(dims), 0)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				ResetPeakRSS()
				b.StartTimer()
				t0 := time.Now()
				if _, err := sim.Build(net, sim.CheckNaN(false)); err != nil {
					b.Fatal(err)
				}
				secs = time.Since(t0).Seconds()
				peak = max(peak, PeakRSSMB())
			}
			b.ReportMetric(secs, "build-s")
			b.ReportMetric(peak, "peak-MiB")
		})
	}
}
