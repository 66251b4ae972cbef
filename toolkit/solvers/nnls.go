package solvers

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit/validate"
)

var (
	_ Solver = Nnls{}
	_ Solver = NnlsL2{}
)

// Nnls is non-negative least squares (nengo.solvers.Nnls): each column of
// X minimises |A·x - y| subject to x >= 0, by the Lawson–Hanson active-set
// algorithm (Lawson & Hanson 1974, ch. 23), which SciPy's nnls (used by
// Nengo) also implements. Decoders come out sparse and non-negative.
type Nnls struct {
	W bool
}

func (Nnls) Name() string      { return "Nnls" }
func (s Nnls) Weights() bool   { return s.W }
func (s Nnls) Validate() error { return nil }

// Solve returns X (n×d), column by column.
func (s Nnls) Solve(A, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkAY("Nnls", A, Y); err != nil {
		return nil, err
	}
	return nnlsColumns("Nnls", A, Y)
}

// NnlsL2 is Nnls with L2 regularisation (nengo.solvers.NnlsL2, Reg 0.1):
// with sigma = Reg·max(A) it solves the non-negative problem on the Gram
// system (AᵀA + m·sigma²·I)·x = Aᵀ·max(y, 0), as Nengo does.
type NnlsL2 struct {
	Reg float64
	W   bool
}

func (NnlsL2) Name() string      { return "NnlsL2" }
func (s NnlsL2) Weights() bool   { return s.W }
func (s NnlsL2) Validate() error { return checkReg("NnlsL2", s.Reg) }

// Solve returns X (n×d).
func (s NnlsL2) Solve(A, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkAY("NnlsL2", A, Y); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m, n := A.Dims()
	_, d := Y.Dims()
	sigma := s.Reg * mat.Max(A)
	var G mat.Dense
	G.Mul(A.T(), A)
	for i := range n {
		G.Set(i, i, G.At(i, i)+float64(m)*sigma*sigma)
	}
	Yp := mat.NewDense(m, d, nil)
	Yp.Apply(func(_, _ int, v float64) float64 { return math.Max(v, 0) }, Y)
	var GY mat.Dense
	GY.Mul(A.T(), Yp)
	return nnlsColumns("NnlsL2", &G, &GY)
}

func nnlsColumns(obj string, A, Y *mat.Dense) (*mat.Dense, error) {
	_, n := A.Dims()
	_, d := Y.Dims()
	X := mat.NewDense(n, d, nil)
	for j := range d {
		x, err := nnls(A, mat.Col(nil, j, Y))
		if errors.Is(err, interrupt.ErrInterrupted) {
			m, n := A.Dims()
			return nil, fmt.Errorf("solvers: %s: solve of %d×%d interrupted at column %d of %d: %w", obj, m, n, j, d, interrupt.ErrInterrupted)
		}
		if err != nil {
			return nil, &validate.Error{Pkg: "solvers", Object: obj, Field: fmt.Sprintf("column %d", j), Value: "", Rule: err.Error()}
		}
		X.SetCol(j, x)
	}
	return X, nil
}

// nnls solves min |A·x - b| subject to x >= 0 (Lawson–Hanson).
func nnls(A *mat.Dense, b []float64) ([]float64, error) {
	m, n := A.Dims()
	x := make([]float64, n)
	passive := make([]bool, n)
	bv := mat.NewVecDense(m, b)
	w := make([]float64, n)
	grad := func() {
		r := mat.NewVecDense(m, nil)
		r.MulVec(A, mat.NewVecDense(n, x))
		r.SubVec(bv, r)
		g := mat.NewVecDense(n, w)
		g.MulVec(A.T(), r)
	}
	tol := 1e-10 * math.Max(1, mat.Norm(A, math.Inf(1))) * math.Max(1, mat.Norm(bv, math.Inf(1)))
	solveP := func() ([]float64, error) {
		var idx []int
		for i, p := range passive {
			if p {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return make([]float64, n), nil
		}
		sub := mat.NewDense(m, len(idx), nil)
		for k, i := range idx {
			sub.SetCol(k, mat.Col(nil, i, A))
		}
		var zp mat.VecDense
		if err := zp.SolveVec(sub, bv); err != nil {
			return nil, err
		}
		z := make([]float64, n)
		for k, i := range idx {
			z[i] = zp.AtVec(k)
		}
		return z, nil
	}
	grad()
	for iter := 0; iter < 3*n+10; iter++ {
		if interrupt.Requested() {
			return nil, interrupt.ErrInterrupted
		}
		best, jmax := tol, -1
		for j := range n {
			if !passive[j] && w[j] > best {
				best, jmax = w[j], j
			}
		}
		if jmax < 0 {
			return x, nil
		}
		passive[jmax] = true
		for inner := 0; inner < 3*n+10; inner++ {
			z, err := solveP()
			if err != nil {
				return nil, err
			}
			alpha, feasible := math.Inf(1), true
			for i := range n {
				if passive[i] && z[i] <= 0 {
					feasible = false
					if a := x[i] / (x[i] - z[i]); a < alpha {
						alpha = a
					}
				}
			}
			if feasible {
				copy(x, z)
				break
			}
			for i := range n {
				if passive[i] {
					x[i] += alpha * (z[i] - x[i])
					if x[i] <= tol {
						x[i], passive[i] = 0, false
					}
				}
			}
		}
		grad()
	}
	return x, nil
}
