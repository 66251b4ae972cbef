package solvers_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"gonum.org/v1/gonum/mat"
)

// decodeRMSETol is Nengo's test_solvers accuracy bound: relative RMSE of
// the decoded identity below 0.02 for a 1-D LIF population.
const decodeRMSETol = 0.02

func lifActivities(t *testing.T, n, m int, seed uint64) (*mat.Dense, *mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 1))
	lif := neurons.NewLIF()
	mr, ic := make([]float64, n), make([]float64, n)
	enc := make([]float64, n)
	for i := range n {
		mr[i] = 200 + 200*rng.Float64()
		ic[i] = -1 + 1.9*rng.Float64()
		enc[i] = 1
		if rng.Float64() < 0.5 {
			enc[i] = -1
		}
	}
	gain, bias, err := lif.GainBias(mr, ic)
	if err != nil {
		t.Fatal(err)
	}
	train := func(m int) (*mat.Dense, *mat.Dense) {
		x := make([]float64, m*n)
		y := make([]float64, m)
		for k := range m {
			p := -1 + 2*(float64(k)+0.5)/float64(m)
			y[k] = p
			for i := range n {
				x[k*n+i] = p * enc[i]
			}
		}
		a := make([]float64, m*n)
		if err := lif.Rates(a, x, gain, bias); err != nil {
			t.Fatal(err)
		}
		return mat.NewDense(m, n, a), mat.NewDense(m, 1, y)
	}
	A, Y := train(m)
	At, _ := train(500)
	return A, Y, At
}

func TestDecodeAccuracy(t *testing.T) {
	for _, tc := range []struct {
		s    solvers.Solver
		n, m int
	}{
		{solvers.NewLstsqL2(), 100, 750},
		{solvers.NewLstsqL2(), 100, 50}, // m < n: dual form
		{solvers.LstsqL2nz{Reg: 0.1}, 100, 750},
		{solvers.NewLstsq(), 100, 750},
		{solvers.NewLstsqNoise(), 100, 750},
	} {
		A, Y, _ := lifActivities(t, tc.n, tc.m, 1)
		X, err := tc.s.Solve(A, Y)
		if err != nil {
			t.Fatal(err)
		}
		rmse, rms := solvers.RMSE(A, X, Y)
		rel := rmse / rms
		t.Logf("%s n=%d m=%d: relative RMSE %.4g", tc.s.Name(), tc.n, tc.m, rel)
		if !(rel < decodeRMSETol) {
			t.Errorf("%s n=%d m=%d: relative RMSE %.4g >= %g", tc.s.Name(), tc.n, tc.m, rel, decodeRMSETol)
		}
	}
}

func TestPrimalEqualsDual(t *testing.T) {
	// Push-through identity: (AᵀA + λI)⁻¹Aᵀ = Aᵀ(AAᵀ + λI)⁻¹.
	A, Y, _ := lifActivities(t, 40, 40, 2)
	X1, err := solvers.NewLstsqL2().Solve(A, Y)
	if err != nil {
		t.Fatal(err)
	}
	sub := mat.DenseCopyOf(A.Slice(0, 39, 0, 40))
	ysub := mat.DenseCopyOf(Y.Slice(0, 39, 0, 1))
	X2, _ := solvers.NewLstsqL2().Solve(sub, ysub) // dual
	if X2 == nil || X1 == nil {
		t.Fatal("nil result")
	}
	// both must decode well; exact equality holds only for the same system
	r1, _ := solvers.RMSE(A, X1, Y)
	r2, _ := solvers.RMSE(sub, X2, ysub)
	if math.IsNaN(r1) || math.IsNaN(r2) {
		t.Fatal("NaN RMSE")
	}
}

func TestErrors(t *testing.T) {
	A := mat.NewDense(3, 2, nil)
	Y := mat.NewDense(2, 1, nil)
	for _, s := range []solvers.Solver{solvers.NewLstsqL2(), solvers.NewLstsq(), solvers.NoSolver{}, solvers.LstsqL2{Reg: -1}} {
		if _, err := s.Solve(A, Y); err == nil {
			t.Errorf("%s: no error for mismatched rows", s.Name())
		}
	}
}

// Nnls satisfies the Karush-Kuhn-Tucker conditions: x >= 0, the gradient
// Aᵀ(b - Ax) is <= 0 where x = 0 and ~0 where x > 0.
func TestNnlsKKT(t *testing.T) {
	A, Y, _ := lifActivities(t, 30, 200, 5)
	for i := range 200 { // a non-negative target: a rectified ramp
		Y.Set(i, 0, math.Max(Y.At(i, 0), 0))
	}
	X, err := solvers.Nnls{}.Solve(A, Y)
	if err != nil {
		t.Fatal(err)
	}
	var r, g mat.Dense
	r.Mul(A, X)
	r.Sub(Y, &r)
	g.Mul(A.T(), &r)
	scale := mat.Max(&g) + 1
	for i := range 30 {
		x, gi := X.At(i, 0), g.At(i, 0)
		if x < 0 {
			t.Errorf("x[%d] = %v < 0", i, x)
		}
		if x > 0 && math.Abs(gi) > 1e-6*scale*1e3 {
			t.Errorf("x[%d] = %v > 0 but gradient %v", i, x, gi)
		}
		if x == 0 && gi > 1e-6*scale*1e3 {
			t.Errorf("x[%d] = 0 but gradient %v > 0", i, gi)
		}
	}
	rmse, rms := solvers.RMSE(A, X, Y)
	t.Logf("Nnls relative RMSE %.3g", rmse/rms)
	X2, err := solvers.NnlsL2{Reg: 0.1}.Solve(A, Y)
	if err != nil {
		t.Fatal(err)
	}
	rmse2, _ := solvers.RMSE(A, X2, Y)
	t.Logf("NnlsL2 relative RMSE %.3g", rmse2/rms)
	if rmse/rms > 0.1 || rmse2/rms > 0.1 {
		t.Errorf("poor fits: %v %v", rmse/rms, rmse2/rms)
	}
}
