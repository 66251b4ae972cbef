package solvers

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/neurogo/neurogo/toolkit/validate"
)

var _ Solver = NnlsL2nz{}

// NnlsL2nz is non-negative least squares with L2 regularisation on the
// nonzero components (nengo.solvers.NnlsL2nz, Reg 0.1): NnlsL2 with the
// per-neuron sigma of LstsqL2nz. With f_i the fraction of evaluation
// points at which neuron i is active (A > 0),
//
//	sigma_i = Reg·max(A)·√f_i,
//
// and sigma_i = 1 for a neuron that is never active (Nengo's choice here;
// LstsqL2nz uses the largest sigma instead). Each column x of X solves
// the non-negative problem on the Gram system
// (AᵀA + m·diag(sigma²))·x = Aᵀ·max(y, 0) by Lawson–Hanson, as Nengo's
// NnlsL2 does with scipy.optimize.nnls.
type NnlsL2nz struct {
	Reg float64
	W   bool
}

// NewNnlsL2nz returns NnlsL2nz with Nengo's default Reg 0.1.
func NewNnlsL2nz() NnlsL2nz { return NnlsL2nz{Reg: 0.1} }

// Name is Nengo's class name, "NnlsL2nz".
func (NnlsL2nz) Name() string { return "NnlsL2nz" }

// Weights reports whether the solver solves for full weights (W).
func (s NnlsL2nz) Weights() bool { return s.W }

// Validate checks Reg (non-negative and finite).
func (s NnlsL2nz) Validate() error { return checkReg("NnlsL2nz", s.Reg) }

// Solve returns X (n×d) for activities A (m×n) and targets Y (m×d); it
// modifies neither.
func (s NnlsL2nz) Solve(A, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkAY("NnlsL2nz", A, Y); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m, n := A.Dims()
	_, d := Y.Dims()
	amax := mat.Max(A)
	if math.IsNaN(amax) || math.IsInf(amax, 0) {
		return nil, &validate.Error{Pkg: "solvers", Object: "NnlsL2nz", Field: "A", Value: amax, Rule: "activities must be finite"}
	}
	sigma := make([]float64, n)
	for j := range n {
		active := 0
		for i := range m {
			if A.At(i, j) > 0 {
				active++
			}
		}
		sigma[j] = s.Reg * amax * math.Sqrt(float64(active)/float64(m))
		if sigma[j] == 0 {
			sigma[j] = 1
		}
	}
	var G mat.Dense
	G.Mul(A.T(), A)
	for j := range n {
		G.Set(j, j, G.At(j, j)+float64(m)*sigma[j]*sigma[j])
	}
	Yp := mat.NewDense(m, d, nil)
	Yp.Apply(func(_, _ int, v float64) float64 { return math.Max(v, 0) }, Y)
	var GY mat.Dense
	GY.Mul(A.T(), Yp)
	return nnlsColumns("NnlsL2nz", &G, &GY)
}
