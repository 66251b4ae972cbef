package solvers

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// interrupted is the error of a solve of an m×n activity matrix stopped
// by the process's interrupt flag (package interrupt).
func interrupted(obj string, m, n int) error {
	return fmt.Errorf("solvers: %s: solve for %d×%d activities interrupted: %w", obj, m, n, interrupt.ErrInterrupted)
}

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

// SolveBlocks implements BlockSolver: a first pass over the blocks finds
// max(A) and the silent neurons (zero columns), a second accumulates the
// Gram matrix and AᵀY of the others (see scanned.solve).
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
	sc, err := scan(A, blockRows(m, n))
	if err != nil {
		return nil, readErr("LstsqL2", m, n, err)
	}
	sigma := s.Reg * sc.amax
	return sc.solve("LstsqL2", A, Y, func(int) float64 { return sigma })
}

// SolveBlocks implements BlockSolver for LstsqL2nz: the per-neuron counts
// of active points come from the first pass over the blocks.
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
	sc, err := scan(A, blockRows(m, n))
	if err != nil {
		return nil, readErr("LstsqL2nz", m, n, err)
	}
	sig := nzSigma(s.Reg, sc.amax, sc.pos, m)
	return sc.solve("LstsqL2nz", A, Y, func(j int) float64 { return sig[j] })
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
		return &validate.Error{Pkg: "solvers", Object: obj, Field: "A, Y", Value: "nil", Rule: "must be non-nil"}
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
	G blas64.Symmetric
	B blas64.General
}

func newNormalEq(k, d int) *normalEq {
	return &normalEq{
		G: blas64.Symmetric{Uplo: blas.Upper, N: k, Stride: k, Data: make([]float64, k*k)},
		B: blas64.General{Rows: k, Cols: d, Stride: d, Data: make([]float64, k*d)},
	}
}

// readErr is the error of a failed read of A; an interrupt (package
// interrupt) stays one.
func readErr(obj string, m, n int, err error) error {
	if errors.Is(err, interrupt.ErrInterrupted) {
		return interrupted(obj, m, n)
	}
	return &validate.Error{Pkg: "solvers", Object: obj, Field: "A", Value: fmt.Sprintf("%d×%d", m, n), Rule: "reading activities failed: " + err.Error()}
}

// Counter is the optional interface of Blocks whose entries are never
// negative and that can count, per column, the rows where the column is
// positive, and find the largest entry, without writing A (rectified-
// linear activities: from the currents alone, in one fused pass).
// counted false: not available (scan reads A).
type Counter interface {
	CountPositive(pos []int) (amax float64, counted bool, err error)
}

// scanned is what one pass over the blocks of A tells: max(A), the number
// of positive entries of each column and whether it has any non-zero one.
type scanned struct {
	m, n  int
	br    int // rows per block
	amax  float64
	pos   []int
	alive []bool
}

func scan(A Blocks, br int) (*scanned, error) {
	m, n := A.Dims()
	sc := &scanned{m: m, n: n, br: br, amax: math.Inf(-1), pos: make([]int, n), alive: make([]bool, n)}
	if c, ok := A.(Counter); ok {
		amax, counted, err := c.CountPositive(sc.pos)
		if err != nil {
			return nil, err
		}
		if counted {
			sc.amax = amax
			for j, p := range sc.pos {
				sc.alive[j] = p > 0
			}
			return sc, nil
		}
	}
	buf := make([]float64, br*n)
	// one partial scan per goroutine over a share of each block's rows
	w := min(runtime.GOMAXPROCS(0), br)
	parts := make([]scanned, w)
	for t := range parts {
		parts[t] = scanned{amax: math.Inf(-1), pos: make([]int, n), alive: make([]bool, n)}
	}
	for i0 := 0; i0 < m; i0 += br {
		if interrupt.Requested() {
			return nil, interrupt.ErrInterrupted
		}
		i1 := min(m, i0+br)
		r := i1 - i0
		if err := A.Rows(buf[:r*n], i0, i1); err != nil {
			return nil, err
		}
		var wg sync.WaitGroup
		for t := range parts {
			wg.Go(func() { parts[t].add(buf[t*r/w*n:(t+1)*r/w*n], n) })
		}
		wg.Wait()
	}
	if interrupt.Requested() { // add may have stopped early
		return nil, interrupt.ErrInterrupted
	}
	for _, p := range parts {
		sc.amax = math.Max(sc.amax, p.amax)
		for j := range n {
			sc.pos[j] += p.pos[j]
			sc.alive[j] = sc.alive[j] || p.alive[j]
		}
	}
	return sc, nil
}

// add scans the rows of a (row-major, n columns) into sc; it stops early
// when the interrupt flag is set (checked every row).
func (sc *scanned) add(a []float64, n int) {
	amax, pos, alive := sc.amax, sc.pos, sc.alive
	for i := 0; i < len(a); i += n {
		if interrupt.Requested() {
			break
		}
		for j, v := range a[i : i+n] {
			if v > amax {
				amax = v
			}
			if v > 0 {
				pos[j]++
			}
			if v != 0 {
				alive[j] = true
			}
		}
	}
	sc.amax = amax
}

// solve solves the regularised normal equations from the blocks of A.
// A silent neuron (zero column j of A) with sigma(j) > 0 makes row and
// column j of AᵀA + m·sigma²·I zero but for the diagonal, and row j of
// AᵀY zero, so its decoders are exactly zero: such columns are left out
// of the Gram matrix, whose cost (m·k² + k³/3 flops for k kept columns)
// then falls quadratically. In the benchmark models a third of the
// neurons are silent at every eval point. The decoders are the same as
// those of the full system up to rounding.
func (sc *scanned) solve(obj string, A Blocks, Y *mat.Dense, sigma func(j int) float64) (*mat.Dense, error) {
	m, n := sc.m, sc.n
	_, d := Y.Dims()
	cols := make([]int, 0, n)
	for j, ok := range sc.alive {
		if ok || !(sigma(j) > 0) {
			cols = append(cols, j)
		}
	}
	if len(cols) == 0 { // all silent: nothing to decode from
		return mat.NewDense(n, d, nil), nil
	}
	if X, ok, err := sc.solveAffine(obj, A, Y, cols, sigma); ok || err != nil {
		return X, err
	}
	if len(cols) == n {
		cols = nil
	}
	ne, err := accumulate(A, Y, cols, sc.br)
	if err != nil {
		return nil, readErr(obj, m, n, err)
	}
	if cols == nil {
		return ne.solve(obj, m, n, sigma)
	}
	Z, err := ne.solve(obj, m, n, func(k int) float64 { return sigma(cols[k]) })
	if err != nil {
		return nil, err
	}
	X := mat.NewDense(n, d, nil)
	for k, j := range cols {
		copy(X.RawRowView(j), Z.RawRowView(k))
	}
	return X, nil
}

// accumulate forms G = AᵀA (upper triangle, BLAS syrk) and B = AᵀY (gemm)
// from blocks of br rows of A, restricted to the columns cols (all if nil).
func accumulate(A Blocks, Y *mat.Dense, cols []int, br int) (*normalEq, error) {
	m, n := A.Dims()
	_, d := Y.Dims()
	k := n
	if cols != nil {
		k = len(cols)
	}
	ne := newNormalEq(k, d)
	yr := Y.RawMatrix()
	buf := make([]float64, br*n)
	for i0 := 0; i0 < m; i0 += br {
		if interrupt.Requested() {
			return nil, interrupt.ErrInterrupted
		}
		i1 := min(m, i0+br)
		r := i1 - i0
		if err := rowsOf(A, buf, i0, i1, cols); err != nil {
			return nil, err
		}
		Ac := blas64.General{Rows: r, Cols: k, Stride: k, Data: buf[:r*k]}
		Yc := blas64.General{Rows: r, Cols: d, Stride: yr.Stride, Data: yr.Data[i0*yr.Stride:]}
		syrkPar(Ac, ne.G)
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, Ac, Yc, 1, ne.B)
	}
	if interrupt.Requested() { // syrkPar may have stopped early
		return nil, interrupt.ErrInterrupted
	}
	return ne, nil
}

// rowsOf writes rows [i0, i1) of A's columns cols (all if nil; cols
// ascend) to buf, row-major with stride len(cols): through ColumnBlocks
// when A has it, else by reading whole rows (buf must then hold
// (i1−i0)·n values) and compacting them in place.
func rowsOf(A Blocks, buf []float64, i0, i1 int, cols []int) error {
	_, n := A.Dims()
	r := i1 - i0
	if cols == nil {
		return A.Rows(buf[:r*n], i0, i1)
	}
	k := len(cols)
	if cb, ok := A.(ColumnBlocks); ok {
		return cb.RowsCols(buf[:r*k], i0, i1, cols)
	}
	if err := A.Rows(buf[:r*n], i0, i1); err != nil {
		return err
	}
	for i := range r { // in place: c ≤ cols[c], and row i's target lies before its source
		src, dst := buf[i*n:(i+1)*n], buf[i*k:(i+1)*k]
		for c, j := range cols {
			dst[c] = src[j]
		}
	}
	return nil
}

// solve adds m·sigma(i)² to the diagonal of G, factorises G = UᵀU in place
// and overwrites B with the solution, which it returns as a k×d matrix.
// The factorisation is one LAPACK call, not interruptible: the interrupt
// flag is checked before and after it.
func (ne *normalEq) solve(obj string, m, n int, sigma func(i int) float64) (*mat.Dense, error) {
	if interrupt.Requested() {
		return nil, interrupted(obj, m, n)
	}
	k := ne.G.N
	for i := range k {
		s := sigma(i)
		ne.G.Data[i*ne.G.Stride+i] += float64(m) * s * s
	}
	t, ok := potrf(ne.G)
	if interrupt.Requested() {
		return nil, interrupted(obj, m, n)
	}
	if !ok {
		return nil, &validate.Error{Pkg: "solvers", Object: obj, Field: "A", Value: fmt.Sprintf("%d×%d", m, n),
			Rule: "the regularised Gram matrix is not positive definite (increase Reg)"}
	}
	lapack64.Potrs(t, ne.B)
	return mat.NewDense(k, ne.B.Cols, ne.B.Data), nil
}
