package bench

import (
	"testing"

	"github.com/neurogo/neurogo/sim"
)

// BenchmarkStep times one step of each benchmark model at D = 64 with the
// full 9984-neuron budget, for profiling (go test -bench Step -cpuprofile).
// pes solves its decoders from 1000 eval points instead of Nengo's
// 2·N = 19968, only to keep the build short (the Gram solve dominates
// it); the step, which does not depend on the eval points, is unchanged.
func BenchmarkStep(b *testing.B) {
	const dims = 64
	for _, m := range Models {
		b.Run(m, func(b *testing.B) {
			net, err := Network(m, dims, NeuronsPerD(dims), 0)
			if err != nil {
				b.Fatal(err)
			}
			if m == "pes" {
				for _, e := range net.AllEnsembles() {
					e.NEvalPoints = 1000
				}
			}
			s, err := sim.New(net, sim.CheckNaN(false))
			if err != nil {
				b.Fatal(err)
			}
			if err := s.RunSteps(100); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := s.Step(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
