package synapses

import (
	"math"
	"testing"
)

// TestDiscretizeBitwiseNengo checks that zero-order-hold discretisation
// gives Nengo 4.1's coefficients bit for bit (values printed by
// nengo.utils.filter_design.cont2discrete(tf2ss(num, den), 0.001) with
// NumPy 2.2.6 / OpenBLAS 0.3.29 on x86-64). This is what lets spiking
// models with sensitive dynamics (Izhikevich) match Nengo exactly in
// sim's parity tests. Cases cover the Padé degree-5, 7/9 and 13 (scaled,
// non-triangular) branches of expm.
//
// Known exception (not tested here): Alpha with tau = 0.5 ms and 1 ms at
// dt = 1 ms (degree 13 without scaling) differs in one coefficient by
// 1–2 ulp from Nengo's, from the last rounding inside LAPACK's solve.
func TestDiscretizeBitwiseNengo(t *testing.T) {
	for _, tc := range []struct {
		name string
		syn  interface {
			Discretize(dt float64) (*System, error)
		}
		want []float64 // A, B, C row-major
	}{
		{"Lowpass(0.005)", Lowpass{Tau: 0.005}, []float64{0x1.a330ad6166159p-1, 0x1.db2fbb7df5540p-11, 0x1.9000000000000p+7}},
		{"Lowpass(0.01)", Lowpass{Tau: 0.01}, []float64{0x1.cf46d99d52b39p-1, 0x1.f2ed0e2fe4556p-11, 0x1.9000000000000p+6}},
		{"Lowpass(0.1)", Lowpass{Tau: 0.1}, []float64{0x1.fae7cfd2b9cfdp-1, 0x1.04d66f747007fp-10, 0x1.4000000000000p+3}},
		{"Alpha(0.005)", Alpha{Tau: 0.005}, []float64{0x1.4f5a244deb446p-1, -0x1.05fe6c5cdfcd7p+5, 0x1.ad402e783761fp-11, 0x1.f7073674e0e6ap-1,
			0x1.ad402e783761dp-11, 0x1.d661cd07990c1p-22, 0, 0x1.3880000000000p+15}},
		{"Alpha(0.0001)", Alpha{Tau: 0.0001}, []float64{-0x1.ac728ec110bf0p-12, -0x1.228f3eb343a1dp+2, 0x1.85fb805859e0ap-25, 0x1.05d43acb51571p-11,
			0x1.85fb80585a1fcp-25, 0x1.576d00aa7db41p-27, 0, 0x1.7d78400000000p+26}},
		{"LinearFilter([1], [1e-4, 0.03, 1])", &LinearFilter{Num: []float64{1}, Den: []float64{0.0001, 0.03, 1}},
			[]float64{0x1.79330f016287ep-1, -0x1.14002ef5057c2p+3, 0x1.c4331746e559dp-11, 0x1.fdae06d327b94p-1,
				0x1.c4331746e559dp-11, 0x1.e6953ce73d9dfp-22, 0, 0x1.3880000000000p+13}},
	} {
		s, err := tc.syn.Discretize(0.001)
		if err != nil {
			t.Fatal(err)
		}
		got := append(append(append([]float64{}, s.A...), s.B...), s.C...)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d coefficients, want %d", tc.name, len(got), len(tc.want))
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: coefficient %d = %x, want %x (Nengo; %.3g ulp)", tc.name, i, got[i], tc.want[i],
					(got[i]-tc.want[i])/(math.Nextafter(math.Abs(tc.want[i]), math.Inf(1))-math.Abs(tc.want[i])))
			}
		}
	}
}
