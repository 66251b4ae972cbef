package solvers

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// Blocks is a source of an activity matrix A (m×n) in row blocks, so that
// a solver can form the Gram matrix AᵀA without A (m·n floats) ever being
// held in memory at once. The builder passes one to a BlockSolver for large
// decodes: for Nengo's 2·N eval points A is twice the size of AᵀA.
type Blocks interface {
	// Dims returns the size of A.
	Dims() (m, n int)
	// Rows writes rows [i0, i1) of A to dst, row-major with stride n
	// (len(dst) ≥ (i1−i0)·n).
	Rows(dst []float64, i0, i1 int) error
}

// BlockSolver is the optional fast path of a Solver that can solve from
// row blocks of A (found by type assertion). SolveBlocks(A, Y) returns the
// same decoders as Solve on the materialised A, up to rounding.
type BlockSolver interface {
	Solver
	SolveBlocks(A Blocks, Y *mat.Dense) (*mat.Dense, error)
}

var (
	_ BlockSolver = LstsqL2{}
	_ BlockSolver = LstsqL2nz{}
)

// blockBytes is the target size of one row block of A (32 MiB): big
// enough that each Syrk update is a level-3 operation with a long inner
// dimension (≥ 400 rows at n = 9984), small next to the n×n Gram matrix.
const blockBytes = 32 << 20

// blockRows returns the number of rows of an m×n matrix per block.
func blockRows(m, n int) int {
	r := blockBytes / 8 / max(n, 1)
	return min(m, max(r, 64))
}

// SolveBlocks implements BlockSolver: the Gram matrix and AᵀY are
// accumulated block by block, max(A) along the way.
func (s LstsqL2) SolveBlocks(A Blocks, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkBlocks("LstsqL2", A, Y); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m, n := A.Dims()
	if m < n { // the dual form needs A twice; A is smaller than AᵀA here
		Ad, err := materialise(A)
		if err != nil {
			return nil, err
		}
		return s.Solve(Ad, Y)
	}
	ne, err := accumulate(A, Y, nil, blockRows(m, n))
	if err != nil {
		return nil, &Error{Object: "LstsqL2", Field: "A", Value: fmt.Sprintf("%d×%d", m, n), Rule: "reading activities failed: " + err.Error()}
	}
	sigma := s.Reg * ne.amax
	return ne.solve("LstsqL2", m, n, func(int) float64 { return sigma })
}

// SolveBlocks implements BlockSolver for LstsqL2nz: the per-neuron counts
// of active points are accumulated with the Gram matrix.
func (s LstsqL2nz) SolveBlocks(A Blocks, Y *mat.Dense) (*mat.Dense, error) {
	if err := checkBlocks("LstsqL2nz", A, Y); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m, n := A.Dims()
	if m < n {
		Ad, err := materialise(A)
		if err != nil {
			return nil, err
		}
		return s.Solve(Ad, Y)
	}
	count := make([]int, n)
	ne, err := accumulate(A, Y, count, blockRows(m, n))
	if err != nil {
		return nil, &Error{Object: "LstsqL2nz", Field: "A", Value: fmt.Sprintf("%d×%d", m, n), Rule: "reading activities failed: " + err.Error()}
	}
	sig := nzSigma(s.Reg, ne.amax, count, m)
	return ne.solve("LstsqL2nz", m, n, func(j int) float64 { return sig[j] })
}

// nzSigma returns LstsqL2nz's per-neuron sigma from the counts of points
// where each neuron is active; silent neurons get the largest sigma.
func nzSigma(reg, amax float64, count []int, m int) []float64 {
	sig := make([]float64, len(count))
	smax := 0.0
	for j, c := range count {
		sig[j] = reg * amax * math.Sqrt(float64(c)/float64(m))
		smax = math.Max(smax, sig[j])
	}
	for j := range sig {
		if sig[j] == 0 {
			sig[j] = smax
		}
	}
	return sig
}

func checkBlocks(obj string, A Blocks, Y *mat.Dense) error {
	if A == nil || Y == nil {
		return &Error{Object: obj, Field: "A, Y", Value: "nil", Rule: "must be non-nil"}
	}
	m, n := A.Dims()
	my, d := Y.Dims()
	if m == 0 || n == 0 || d == 0 {
		return &Error{Object: obj, Field: "A, Y", Value: fmt.Sprintf("%d×%d, %d×%d", m, n, my, d), Rule: "must be non-empty"}
	}
	if m != my {
		return &Error{Object: obj, Field: "rows(Y)", Value: my, Rule: fmt.Sprintf("must equal rows(A) = %d (one row per evaluation point)", m)}
	}
	return nil
}

// materialise reads all of A.
func materialise(A Blocks) (*mat.Dense, error) {
	m, n := A.Dims()
	data := make([]float64, m*n)
	br := blockRows(m, n)
	for i0 := 0; i0 < m; i0 += br {
		i1 := min(m, i0+br)
		if err := A.Rows(data[i0*n:i1*n], i0, i1); err != nil {
			return nil, err
		}
	}
	return mat.NewDense(m, n, data), nil
}

// normalEq holds the normal equations G·X = B of a regularised least
// squares problem: G (k×k, upper triangle only, stored full so that it is
// factorised in place by LAPACK's potrf) and B (k×d).
type normalEq struct {
	G    blas64.Symmetric
	B    blas64.General
	amax float64 // max(A) over the rows seen
}

func newNormalEq(k, d int) *normalEq {
	return &normalEq{
		G:    blas64.Symmetric{Uplo: blas.Upper, N: k, Stride: k, Data: make([]float64, k*k)},
		B:    blas64.General{Rows: k, Cols: d, Stride: d, Data: make([]float64, k*d)},
		amax: math.Inf(-1),
	}
}

// accumulate forms G = AᵀA (upper triangle, BLAS syrk) and B = AᵀY (gemm)
// from blocks of br rows of A, tracking max(A) and, if count is non-nil, the
// number of positive entries of each column.
func accumulate(A Blocks, Y *mat.Dense, count []int, br int) (*normalEq, error) {
	m, n := A.Dims()
	_, d := Y.Dims()
	ne := newNormalEq(n, d)
	yr := Y.RawMatrix()
	buf := make([]float64, br*n)
	for i0 := 0; i0 < m; i0 += br {
		i1 := min(m, i0+br)
		r := i1 - i0
		if err := A.Rows(buf[:r*n], i0, i1); err != nil {
			return nil, err
		}
		Ac := blas64.General{Rows: r, Cols: n, Stride: n, Data: buf[:r*n]}
		Yc := blas64.General{Rows: r, Cols: d, Stride: yr.Stride, Data: yr.Data[i0*yr.Stride:]}
		ne.add(Ac, Yc, count)
	}
	return ne, nil
}

// add accumulates G += AcᵀAc, B += AcᵀYc.
func (ne *normalEq) add(Ac, Yc blas64.General, count []int) {
	for i := range Ac.Rows {
		row := Ac.Data[i*Ac.Stride : i*Ac.Stride+Ac.Cols]
		for j, v := range row {
			if v > ne.amax {
				ne.amax = v
			}
			if count != nil && v > 0 {
				count[j]++
			}
		}
	}
	blas64.Syrk(blas.Trans, 1, Ac, 1, ne.G)
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, Ac, Yc, 1, ne.B)
}

// solve adds m·sigma(i)² to the diagonal of G, factorises G = UᵀU in place
// and overwrites B with the solution, which it returns as a k×d matrix.
func (ne *normalEq) solve(obj string, m, n int, sigma func(i int) float64) (*mat.Dense, error) {
	k := ne.G.N
	for i := range k {
		s := sigma(i)
		ne.G.Data[i*ne.G.Stride+i] += float64(m) * s * s
	}
	t, ok := lapack64.Potrf(ne.G)
	if !ok {
		return nil, &Error{Object: obj, Field: "A", Value: fmt.Sprintf("%d×%d", m, n),
			Rule: "the regularised Gram matrix is not positive definite (increase Reg)"}
	}
	lapack64.Potrs(t, ne.B)
	return mat.NewDense(k, ne.B.Cols, ne.B.Data), nil
}
