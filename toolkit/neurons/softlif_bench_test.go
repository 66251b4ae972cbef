package neurons

import (
	"math"
	"math/rand/v2"
	"testing"
)

func BenchmarkSoftLIFDeriv(b *testing.B) {
	n := 1 << 16
	J := make([]float64, n)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range J {
		J[i] = rng.NormFloat64()*3 + 1 // currents around the threshold, as in a trained layer
	}
	d := make([]float64, n)
	t := NewSoftLIFRate()
	t.Sigma = 0.05
	t.Amplitude = 0.01
	b.ResetTimer()
	for range b.N {
		t.Deriv(d, J)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/neuron")
}

// The tails' shortcuts of Deriv equal the general formula.
func TestSoftLIFDerivTails(t *testing.T) {
	const tol = 1e-13 // relative
	n := NewSoftLIFRate()
	for _, sigma := range []float64{0.02, 0.05, 1} {
		n.Sigma = sigma
		var J []float64
		for x := -800.0; x <= 800; x += 0.37 {
			J = append(J, 1+x*sigma)
		}
		J = append(J, math.Inf(-1), math.Inf(1))
		d := make([]float64, len(J))
		if err := n.Deriv(d, J); err != nil {
			t.Fatal(err)
		}
		for i, cur := range J {
			want := 0.0
			if !math.IsInf(cur, 0) {
				want = softLIFDeriv(cur, n.Sigma, n.TauRC, n.TauRef, n.Amplitude)
			}
			if math.Abs(d[i]-want) > tol*math.Abs(want) && !(want == 0 && d[i] == 0) {
				t.Fatalf("σ %v, J %v: Deriv %v, general formula %v", sigma, cur, d[i], want)
			}
		}
	}
}
