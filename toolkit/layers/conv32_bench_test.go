package layers

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkConv32Conversions times the float32 products' conversions
// (to32, add32, biasAdd32) on vectors in cache (4 Ki values) and out of
// it (1 Mi values).
func BenchmarkConv32Conversions(b *testing.B) {
	for _, n := range []int{4096, 1 << 20} {
		rng := rand.New(rand.NewPCG(1, 2))
		s64, d64, bias := make([]float64, n), make([]float64, n), make([]float64, n)
		s32 := make([]float32, n)
		for i := range s64 {
			s64[i], bias[i], s32[i] = rng.NormFloat64(), rng.NormFloat64(), float32(rng.NormFloat64())
		}
		for _, c := range []struct {
			name string
			f    func()
		}{
			{"to32", func() { to32(s32, s64) }},
			{"add32", func() { add32(d64, s32) }},
			{"biasAdd32", func() { biasAdd32(d64, bias, s32) }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				for range b.N {
					c.f()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
			})
		}
	}
}
