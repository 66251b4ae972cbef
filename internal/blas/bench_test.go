package blas

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// The decoder shapes of neurogo bench blas: Dgemm NT 210×9984×192 and
// TN 193×2855×1468, Dsyrk (trans) n 2855, k 1468.
func BenchmarkDecoderShapes(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []struct {
		name    string
		syrk    bool
		tA, tB  blas.Transpose
		m, n, k int
	}{
		{"dgemmNT/210x9984x192", false, blas.NoTrans, blas.Trans, 210, 9984, 192},
		{"dgemmTN/193x2855x1468", false, blas.Trans, blas.NoTrans, 193, 2855, 1468},
		{"dsyrkT/2855x1468", true, blas.Trans, blas.NoTrans, 2855, 2855, 1468},
	} {
		b.Run(s.name, func(b *testing.B) {
			ra, ca := s.m, s.k
			if s.tA == blas.Trans {
				ra, ca = s.k, s.m
			}
			rb, cb := s.k, s.n
			if s.tB == blas.Trans {
				rb, cb = s.n, s.k
			}
			a := randMat(rng, ra, ca, ca)
			bm := randMat(rng, rb, cb, cb)
			c := make([]float64, s.m*s.n)
			flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
			if s.syrk {
				flops /= 2
			}
			cpu0 := cpuSeconds()
			for b.Loop() {
				if s.syrk {
					Float64{}.Dsyrk(blas.Upper, blas.Trans, s.n, s.k, 1, a, ca, 0, c, s.n)
				} else {
					Float64{}.Dgemm(s.tA, s.tB, s.m, s.n, s.k, 1, a, ca, bm, cb, 0, c, s.n)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/op")
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
