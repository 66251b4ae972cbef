package rules

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Each rule against its formula written out (the kernels only order and
// round the same products): relative tolerance for the roundings.
func TestRulesFormulas(t *testing.T) {
	const tol = 1e-13
	rng := rand.New(rand.NewPCG(1, 2))
	v := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		return x
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > tol*max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	pre, post, theta := v(5), v(3), v(3)
	d := make([]float64, 15)
	BCM(d, pre, post, theta, 0.1)
	for j := range 3 {
		for i := range 5 {
			near("BCM", d[j*5+i], 0.1*post[j]*(post[j]-theta[j])*pre[i])
		}
	}
	w := v(15)
	Oja(d, pre, post, w, 0.1, 2)
	for j := range 3 {
		for i := range 5 {
			near("Oja", d[j*5+i], 0.1*(post[j]*pre[i]-2*post[j]*post[j]*w[j*5+i]))
		}
	}
	x, enc, scale := v(5), v(15), v(3)
	Voja(d, x, post, enc, scale, 0.3)
	for i := range 3 {
		for j := range 5 {
			near("Voja", d[i*5+j], 0.3*post[i]*(scale[i]*x[j]-enc[i*5+j]))
		}
	}
	PES(d, pre, post, -0.2)
	for i := range 3 {
		for j := range 5 {
			near("PES", d[i*5+j], -0.2*post[i]*pre[j])
		}
	}
	w0 := append([]float64(nil), w...)
	PESInPlace(w, pre, post, -0.2)
	for k := range w {
		near("PESInPlace", w[k], w0[k]+d[k])
	}
	// RLS: P stays symmetric and P·r shrinks as in the closed form
	P := []float64{2, 0.5, 0.5, 1}
	r, e := []float64{1, -1}, []float64{0.5}
	pr := make([]float64, 2)
	d2 := make([]float64, 2)
	Pr := []float64{2*1 + 0.5*-1, 0.5*1 + 1*-1}
	k := 1 / (1 + r[0]*Pr[0] + r[1]*Pr[1])
	want := []float64{2 - Pr[0]*Pr[0]*k, 0.5 - Pr[0]*Pr[1]*k, 0.5 - Pr[1]*Pr[0]*k, 1 - Pr[1]*Pr[1]*k}
	RLS(d2, P, r, e, pr)
	for i := range P {
		near("RLS P", P[i], want[i])
	}
	near("RLS delta0", d2[0], -0.5*Pr[0]*k)
	near("RLS delta1", d2[1], -0.5*Pr[1]*k)
}
