package neurons

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLIFRateDeriv: the fused pass equals LIFRate.Step and
// SoftLIFRate.Deriv to within vecRelTol (exactly without vector
// instructions, and exactly outside the vector kernel's domain), on a
// dense grid through the threshold region, the tails and special values,
// for lengths that are and are not multiples of the vector width.
func TestLIFRateDeriv(t *testing.T) {
	const (
		vecRelTol = 1e-14 // relative, per value (measured: below 2e-15, a few ulp of exp and log1p compounded)
		f32RelTol = 2e-6  // LIFRateDeriv32: float32 arithmetic (a few float32 ulps compounded)
	)
	rng := rand.New(rand.NewPCG(15, 7))
	for _, s := range []SoftLIFRate{
		{Sigma: 0.05, TauRC: 0.02, TauRef: 0.002, Amplitude: 0.01},
		NewSoftLIFRate(),
		{Sigma: 1e-3, TauRC: 0.03, TauRef: 0, Amplitude: 2},
		{Sigma: 1e-290, TauRC: 0.02, TauRef: 0.002, Amplitude: 1},
		{Sigma: 40, TauRC: 0.05, TauRef: 0.001, Amplitude: 0.3},
	} {
		var J []float64
		for x := -40.0; x <= 40; x += 0.0137 {
			J = append(J, 1+x*s.Sigma)
		}
		for range 2000 {
			J = append(J, 1+rng.NormFloat64()*10*s.Sigma, rng.NormFloat64()*3+1)
		}
		J = append(J, 1, 1+1e-310, 1+1e-300, 1-1e-300, 1+5e-324, math.Nextafter(1, 2), math.Nextafter(1, 0),
			0, -1e300, 1e300, math.Inf(1), math.Inf(-1), math.NaN(), 1+36*s.Sigma, 1-36*s.Sigma)
		for _, n := range []int{len(J), len(J) - 1, len(J) - 5, 7, 1} {
			J := J[len(J)-n:]
			out, d := make([]float64, n), make([]float64, n)
			if err := s.LIFRateDeriv(J, out, d); err != nil {
				t.Fatal(err)
			}
			out32, d32 := make([]float64, n), make([]float64, n)
			if err := s.LIFRateDeriv32(J, out32, d32); err != nil {
				t.Fatal(err)
			}
			wantOut, wantD := make([]float64, n), make([]float64, n)
			lif := LIFRate{TauRC: s.TauRC, TauRef: s.TauRef, Amplitude: s.Amplitude}
			if err := lif.Step(0.001, J, wantOut, State{}, nil); err != nil {
				t.Fatal(err)
			}
			if err := s.Deriv(wantD, J); err != nil {
				t.Fatal(err)
			}
			for i := range J {
				if !closeRelNaN(out[i], wantOut[i], vecRelTol) || !closeRelNaN(d[i], wantD[i], vecRelTol) {
					t.Errorf("%v, n %d, J = %v: LIFRateDeriv (%v, %v), LIFRate.Step/Deriv (%v, %v)", s, n, J[i], out[i], d[i], wantOut[i], wantD[i])
				}
				if !closeRelNaN(out32[i], wantOut[i], f32RelTol) || !closeRelNaN(d32[i], wantD[i], f32RelTol) {
					t.Errorf("%v, n %d, J = %v: LIFRateDeriv32 (%v, %v), LIFRate.Step/Deriv (%v, %v)", s, n, J[i], out32[i], d32[i], wantOut[i], wantD[i])
				}
			}
		}
	}
}

// closeRelNaN: equal (NaN to NaN), or within tol relative to b.
func closeRelNaN(a, b, tol float64) bool {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return true
	}
	return math.Abs(a-b) <= tol*math.Abs(b)
}

func TestLIFRateDerivErrors(t *testing.T) {
	s := SoftLIFRate{Sigma: 0.05, TauRC: 0.02, TauRef: 0.002, Amplitude: 0.01}
	if err := s.LIFRateDeriv(make([]float64, 3), make([]float64, 2), make([]float64, 3)); err == nil {
		t.Error("LIFRateDeriv accepted len(out) != len(J)")
	}
	if err := (SoftLIFRate{}).LIFRateDeriv(nil, nil, nil); err == nil {
		t.Error("LIFRateDeriv accepted zero parameters")
	}
	J, out, d := make([]float64, 100), make([]float64, 100), make([]float64, 100)
	if a := testing.AllocsPerRun(10, func() { _ = s.LIFRateDeriv(J, out, d) }); a != 0 {
		t.Errorf("LIFRateDeriv allocates %v times", a)
	}
}

func BenchmarkLIFRateDeriv(b *testing.B) {
	n := 1 << 16
	J := make([]float64, n)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range J {
		J[i] = rng.NormFloat64()*0.5 + 1 // currents around the threshold, as in the MNIST network
	}
	out, d := make([]float64, n), make([]float64, n)
	s := SoftLIFRate{Sigma: 0.05, TauRC: 0.02, TauRef: 0.002, Amplitude: 0.01}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"fused", func() { _ = s.LIFRateDeriv(J, out, d) }},
		{"fused32", func() { _ = s.LIFRateDeriv32(J, out, d) }},
		{"separate", func() {
			_ = LIFRate{TauRC: s.TauRC, TauRef: s.TauRef, Amplitude: s.Amplitude}.Step(0.001, J, out, State{}, nil)
			_ = s.Deriv(d, J)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				c.f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/neuron")
		})
	}
}
