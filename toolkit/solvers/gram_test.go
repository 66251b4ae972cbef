package solvers

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// denseBlocks serves the rows of a dense matrix.
type denseBlocks struct{ a *mat.Dense }

func (b denseBlocks) Dims() (int, int) { return b.a.Dims() }
func (b denseBlocks) Rows(dst []float64, i0, i1 int) error {
	_, n := b.a.Dims()
	for i := i0; i < i1; i++ {
		copy(dst[(i-i0)*n:(i-i0+1)*n], b.a.RawRowView(i))
	}
	return nil
}

// choleskyRef is the textbook form of Nengo's Cholesky solver (full Gram
// matrix by Dense.Mul, mat.Cholesky), the reference for cholesky.
func choleskyRef(A, Y *mat.Dense, sigma func(int) float64) *mat.Dense {
	m, n := A.Dims()
	var G, B mat.Dense
	if m < n {
		G.Mul(A, A.T())
		B.CloneFrom(Y)
	} else {
		G.Mul(A.T(), A)
		B.Mul(A.T(), Y)
	}
	k, _ := G.Dims()
	sym := mat.NewSymDense(k, nil)
	for i := range k {
		for j := i; j < k; j++ {
			sym.SetSym(i, j, G.At(i, j))
		}
		s := sigma(i)
		sym.SetSym(i, i, sym.At(i, i)+float64(m)*s*s)
	}
	var ch mat.Cholesky
	if !ch.Factorize(sym) {
		panic("not positive definite")
	}
	var x mat.Dense
	if err := ch.SolveTo(&x, &B); err != nil {
		panic(err)
	}
	if m < n {
		var out mat.Dense
		out.Mul(A.T(), &x)
		return &out
	}
	return &x
}

// relErr is max|a−b| / max|b|.
func relErr(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1)) / mat.Norm(b, math.Inf(1))
}

func randActivities(m, n, d int, seed uint64) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 1))
	A := mat.NewDense(m, n, nil)
	for i := range m {
		for j := range n {
			A.Set(i, j, math.Max(0, 100*rng.NormFloat64()))
		}
	}
	Y := mat.NewDense(m, d, nil)
	for i := range m {
		for j := range d {
			Y.Set(i, j, rng.Float64()*2-1)
		}
	}
	return A, Y
}

// Tolerance: decoders must equal Nengo's to 1e-6 relative;
// a reordering of the sums in AᵀA changes them by far less.
const gramTol = 1e-9

func TestCholeskyMatchesReference(t *testing.T) {
	for _, tc := range []struct{ m, n, d int }{{200, 60, 3}, {40, 90, 2}, {130, 130, 1}} {
		A, Y := randActivities(tc.m, tc.n, tc.d, uint64(tc.m))
		sigma := 0.1 * mat.Max(A)
		want := choleskyRef(A, Y, func(int) float64 { return sigma })
		got, err := NewLstsqL2().Solve(A, Y)
		if err != nil {
			t.Fatal(err)
		}
		if e := relErr(got, want); e > gramTol {
			t.Errorf("%d×%d: LstsqL2 rel err %g > %g", tc.m, tc.n, e, gramTol)
		}
		for _, s := range []BlockSolver{NewLstsqL2(), LstsqL2nz{Reg: 0.1}} {
			dense, err := s.Solve(A, Y)
			if err != nil {
				t.Fatal(err)
			}
			blk, err := s.SolveBlocks(denseBlocks{A}, Y)
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(blk, dense); e > gramTol {
				t.Errorf("%d×%d: %s SolveBlocks vs Solve rel err %g > %g", tc.m, tc.n, s.Name(), e, gramTol)
			}
		}
	}
}

// TestScannedSolve checks the two-pass block solve with small, ragged
// blocks and silent neurons (zero columns, left out of the Gram matrix)
// against the dense solve, which keeps them.
func TestScannedSolve(t *testing.T) {
	A, Y := randActivities(203, 50, 4, 7)
	for _, j := range []int{0, 13, 14, 49} {
		for i := range 203 {
			A.Set(i, j, 0)
		}
	}
	for _, s := range []BlockSolver{NewLstsqL2(), LstsqL2nz{Reg: 0.1}} {
		sc, err := scan(denseBlocks{A}, 7) // 29 blocks, the last partial
		if err != nil {
			t.Fatal(err)
		}
		if sc.amax != mat.Max(A) {
			t.Errorf("amax %v, want %v", sc.amax, mat.Max(A))
		}
		var sigma func(int) float64
		if _, ok := s.(LstsqL2nz); ok {
			sig := nzSigma(0.1, sc.amax, sc.pos, 203)
			sigma = func(j int) float64 { return sig[j] }
		} else {
			sigma = func(int) float64 { return 0.1 * sc.amax }
		}
		got, err := sc.solve("test", denseBlocks{A}, Y, sigma)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.Solve(A, Y)
		if err != nil {
			t.Fatal(err)
		}
		if e := relErr(got, want); e > gramTol {
			t.Errorf("%s: rel err %g > %g", s.Name(), e, gramTol)
		}
		for _, j := range []int{0, 13, 14, 49} {
			for c := range 4 {
				if got.At(j, c) != 0 {
					t.Errorf("%s: silent neuron %d has decoder %g", s.Name(), j, got.At(j, c))
				}
			}
		}
	}
	// Reg 0: a silent neuron leaves the system singular, with or without
	// the shortcut.
	if _, err := (LstsqL2{}).SolveBlocks(denseBlocks{A}, Y); err == nil {
		t.Error("Reg 0 with silent neurons: no error")
	}
}

func TestSolveBlocksErrors(t *testing.T) {
	A, Y := randActivities(10, 4, 1, 1)
	if _, err := NewLstsqL2().SolveBlocks(nil, Y); err == nil {
		t.Error("nil A: no error")
	}
	if _, err := NewLstsqL2().SolveBlocks(denseBlocks{A}, mat.NewDense(9, 1, nil)); err == nil {
		t.Error("rows(Y) ≠ rows(A): no error")
	}
	zero := mat.NewDense(10, 4, nil)
	if _, err := NewLstsqL2().SolveBlocks(denseBlocks{zero}, Y); err == nil {
		t.Error("all-zero A: no error")
	}
}
