package solvers

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// Solver finds decoders X (n×d) such that A·X ≈ Y, where A (m×n) holds the
// activities of n neurons at m evaluation points and Y (m×d) the targets
// (nengo.solvers.Solver). Solve must not modify A or Y.
type Solver interface {
	Name() string
	// Weights reports whether the solver is asked for a full connection
	// weight matrix (Nengo's weights=True) rather than decoders.
	Weights() bool
	Validate() error
	Solve(A, Y *mat.Dense) (*mat.Dense, error)
}

var (
	_ Solver = LstsqL2{}
	_ Solver = LstsqL2nz{}
	_ Solver = Lstsq{}
	_ Solver = NoSolver{}
)

func checkAY(obj string, A, Y *mat.Dense) error {
	if A == nil || Y == nil {
		return &validate.Error{Pkg: "solvers", Object: obj, Field: "A, Y", Value: "nil", Rule: "must be non-nil matrices"}
	}
	m, n := A.Dims()
	my, d := Y.Dims()
	if m == 0 || n == 0 || d == 0 {
		return &validate.Error{Pkg: "solvers", Object: obj, Field: "A, Y", Value: fmt.Sprintf("%d×%d, %d×%d", m, n, my, d), Rule: "must be non-empty"}
	}
	if m != my {
		return &validate.Error{Pkg: "solvers", Object: obj, Field: "rows(Y)", Value: my, Rule: fmt.Sprintf("must equal rows(A) = %d (one row per evaluation point)", m)}
	}
	return nil
}

func checkReg(obj string, reg float64) error {
	if !(reg >= 0) || math.IsInf(reg, 1) {
		return &validate.Error{Pkg: "solvers", Object: obj, Field: "Reg", Value: reg, Rule: "must be non-negative and finite"}
	}
	return nil
}

// LstsqL2 is least squares with L2 regularisation, Nengo's default solver
// (nengo.solvers.LstsqL2, reg 0.1): with sigma = Reg·max(A) and m
// evaluation points it solves (AᵀA + m·sigma²·I)·X = AᵀY by Cholesky
// (or, when m < n, X = Aᵀ·(AAᵀ + m·sigma²·I)⁻¹·Y).
type LstsqL2 struct {
	Reg float64
	// W is Nengo's weights=True (a full weight matrix; handled by the builder).
	W bool
}

// NewLstsqL2 returns Nengo's default, LstsqL2{Reg: 0.1}.
func NewLstsqL2() LstsqL2 { return LstsqL2{Reg: 0.1} }

func (LstsqL2) Name() string      { return "LstsqL2" }
func (s LstsqL2) Weights() bool   { return s.W }
func (s LstsqL2) Validate() error { return checkReg("LstsqL2", s.Reg) }
func (s LstsqL2) String() string  { return fmt.Sprintf("LstsqL2(reg=%v)", s.Reg) }

// Solve returns X (n×d).
func (s LstsqL2) Solve(A, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkAY("LstsqL2", A, Y); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sigma := s.Reg * mat.Max(A)
	return cholesky("LstsqL2", A, Y, func(int) float64 { return sigma })
}

// LstsqL2nz is LstsqL2 for non-negative activities with a per-neuron
// regularisation sigma_i = Reg·max(A)·sqrt(fraction of points where
// neuron i is active); silent neurons get the largest sigma
// (nengo.solvers.LstsqL2nz).
type LstsqL2nz struct {
	Reg float64
	W   bool
}

func (LstsqL2nz) Name() string      { return "LstsqL2nz" }
func (s LstsqL2nz) Weights() bool   { return s.W }
func (s LstsqL2nz) Validate() error { return checkReg("LstsqL2nz", s.Reg) }

// Solve returns X (n×d).
func (s LstsqL2nz) Solve(A, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkAY("LstsqL2nz", A, Y); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m, n := A.Dims()
	ar := A.RawMatrix()
	count := make([]int, n)
	for i := range m {
		for j, v := range ar.Data[i*ar.Stride : i*ar.Stride+n] {
			if v > 0 {
				count[j]++
			}
		}
	}
	sig := nzSigma(s.Reg, mat.Max(A), count, m)
	if m < n { // the transposed form needs one sigma per point: use the mean
		mean := 0.0
		for _, v := range sig {
			mean += v
		}
		mean /= float64(n)
		return cholesky("LstsqL2nz", A, Y, func(int) float64 { return mean })
	}
	return cholesky("LstsqL2nz", A, Y, func(j int) float64 { return sig[j] })
}

// cholesky solves the regularised normal equations as Nengo's Cholesky
// solver does: G = AᵀA (or AAᵀ when m < n) plus m·sigma(i)² on the diagonal.
// Only the upper triangle of G is formed (BLAS syrk, straight into the
// storage LAPACK's potrf factorises in place) and AᵀY by gemm, so the
// solve holds A, Y, one k×k matrix and the k×d result (k = min(m, n)).
func cholesky(obj string, A, Y *mat.Dense, sigma func(i int) float64) (*mat.Dense, error) {
	m, n := A.Dims()
	if interrupt.Requested() {
		return nil, interrupted(obj, m, n)
	}
	_, d := Y.Dims()
	ar, yr := A.RawMatrix(), Y.RawMatrix()
	if m < n { // X = Aᵀ·(AAᵀ + m·sigma²·I)⁻¹·Y
		ne := newNormalEq(m, d)
		blas64.Syrk(blas.NoTrans, 1, ar, 0, ne.G)
		for i := range m {
			copy(ne.B.Data[i*d:(i+1)*d], yr.Data[i*yr.Stride:i*yr.Stride+d])
		}
		Z, err := ne.solve(obj, m, n, sigma)
		if err != nil {
			return nil, err
		}
		out := mat.NewDense(n, d, nil)
		out.Mul(A.T(), Z)
		return out, nil
	}
	ne := newNormalEq(n, d)
	blas64.Syrk(blas.Trans, 1, ar, 0, ne.G)
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, ar, yr, 0, ne.B)
	return ne.solve(obj, m, n, sigma)
}

// Lstsq is unregularised least squares by the SVD; singular values below
// Rcond times the largest are treated as zero (nengo.solvers.Lstsq,
// rcond 0.01).
type Lstsq struct {
	Rcond float64
	W     bool
}

// NewLstsq returns Nengo's default Lstsq{Rcond: 0.01}.
func NewLstsq() Lstsq { return Lstsq{Rcond: 0.01} }

func (Lstsq) Name() string    { return "Lstsq" }
func (s Lstsq) Weights() bool { return s.W }
func (s Lstsq) Validate() error {
	if !(s.Rcond >= 0) || math.IsInf(s.Rcond, 1) {
		return &validate.Error{Pkg: "solvers", Object: "Lstsq", Field: "Rcond", Value: s.Rcond, Rule: "must be non-negative and finite"}
	}
	return nil
}

// Solve returns X (n×d), the minimum-norm least-squares solution.
func (s Lstsq) Solve(A, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkAY("Lstsq", A, Y); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m, n := A.Dims()
	if interrupt.Requested() { // the SVD is one LAPACK call: checked before and after
		return nil, interrupted("Lstsq", m, n)
	}
	var svd mat.SVD
	if !svd.Factorize(A, mat.SVDThin) {
		return nil, &validate.Error{Pkg: "solvers", Object: "Lstsq", Field: "A", Value: "", Rule: "SVD did not converge"}
	}
	if interrupt.Requested() {
		return nil, interrupted("Lstsq", m, n)
	}
	vals := svd.Values(nil)
	rank := 0
	for _, v := range vals {
		if len(vals) > 0 && v > s.Rcond*vals[0] {
			rank++
		}
	}
	var x mat.Dense
	svd.SolveTo(&x, Y, rank)
	return &x, nil
}

// NoSolver returns decoders filled with Value, ignoring A and Y
// (nengo.solvers.NoSolver with values=None gives zeros); for connections
// whose decoders are set explicitly (e.g. learned).
type NoSolver struct {
	Value float64
	W     bool
}

func (NoSolver) Name() string    { return "NoSolver" }
func (s NoSolver) Weights() bool { return s.W }
func (s NoSolver) Validate() error {
	if math.IsNaN(s.Value) || math.IsInf(s.Value, 0) {
		return &validate.Error{Pkg: "solvers", Object: "NoSolver", Field: "Value", Value: s.Value, Rule: "must be finite"}
	}
	return nil
}

// Solve returns an n×d matrix filled with Value.
func (s NoSolver) Solve(A, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkAY("NoSolver", A, Y); err != nil {
		return nil, err
	}
	_, n := A.Dims()
	_, d := Y.Dims()
	x := mat.NewDense(n, d, nil)
	if s.Value != 0 {
		for i := range n {
			for j := range d {
				x.Set(i, j, s.Value)
			}
		}
	}
	return x, nil
}

// RMSE returns the root-mean-square error of A·X against Y over all
// entries, and the RMS of Y (for relative errors).
func RMSE(A, X, Y *mat.Dense) (rmse, rmsY float64) {
	var p mat.Dense
	p.Mul(A, X)
	r, c := Y.Dims()
	for i := range r {
		for j := range c {
			e := p.At(i, j) - Y.At(i, j)
			rmse += e * e
			rmsY += Y.At(i, j) * Y.At(i, j)
		}
	}
	nn := float64(r * c)
	return math.Sqrt(rmse / nn), math.Sqrt(rmsY / nn)
}

// LstsqNoise is least squares with noise added to the activities instead
// of an explicit regulariser (nengo.solvers.LstsqNoise, noise 0.1): A is
// perturbed by Gaussian noise of standard deviation Noise·max(A), then
// AᵀA·X = AᵀY is solved by Cholesky. The noise comes from a PCG seeded by
// Seed, so the decoders are reproducible (Nengo uses the builder's rng).
type LstsqNoise struct {
	Noise float64
	Seed  uint64
	W     bool
}

var _ Solver = LstsqNoise{}

// NewLstsqNoise returns Nengo's default LstsqNoise{Noise: 0.1}.
func NewLstsqNoise() LstsqNoise { return LstsqNoise{Noise: 0.1} }

func (LstsqNoise) Name() string      { return "LstsqNoise" }
func (s LstsqNoise) Weights() bool   { return s.W }
func (s LstsqNoise) Validate() error { return checkReg("LstsqNoise", s.Noise) }

// Solve returns X (n×d).
func (s LstsqNoise) Solve(A, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkAY("LstsqNoise", A, Y); err != nil {
		return nil, err
	}
	if !(s.Noise >= 0) || math.IsInf(s.Noise, 1) {
		return nil, &validate.Error{Pkg: "solvers", Object: "LstsqNoise", Field: "Noise", Value: s.Noise, Rule: "must be non-negative and finite"}
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x1a57))
	sigma := s.Noise * mat.Max(A)
	var An mat.Dense
	An.CloneFrom(A)
	An.Apply(func(_, _ int, v float64) float64 { return v + sigma*rng.NormFloat64() }, &An)
	return cholesky("LstsqNoise", &An, Y, func(int) float64 { return 0 })
}
