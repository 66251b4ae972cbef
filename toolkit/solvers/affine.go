package solvers

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// Affine is the optional interface of Blocks whose columns are affine in
// a few features shared by all rows wherever a column is positive at
// every row: rectified-linear activities A = amp·max(0, g⊙(X·Eᵀ) + b)
// of an ensemble are, for a neuron active at every eval point, the
// column amp·(g_j·X·e_j + b_j) = [X 1]·c_j.
//
// For such linear columns L the Gram matrix needs no pass over A: with
// Z = [X 1] (m×p, p = d+1 ≪ m) and C_L the coefficients,
//
//	A_LᵀA_L = C_Lᵀ (ZᵀZ) C_L,  A_LᵀA_N = C_Lᵀ (ZᵀA_N),  A_LᵀY = C_Lᵀ (ZᵀY),
//
// so only the other columns N make m·|N|² work; and as the linear block
// is a diagonal plus a rank-p term, affineEq.solve eliminates it (Schur
// complement and Woodbury identity) and factorises only |N|×|N|. In
// Nengo's benchmark
// models at high dimension most active neurons are never cut off (their
// intercepts lie beyond every eval point's projection), which makes the
// decoder solve of the pes model several times cheaper. The results are
// those of the plain Gram matrix up to rounding.
type Affine interface {
	Blocks
	// Features returns Z (m×p) and C (p×n) such that A[i][j] =
	// Σ_k Z[i][k]·C[k][j] for every row i of every column j whose
	// entries are all positive; nil when A has no such structure.
	Features() (Z, C *mat.Dense)
}

// ColumnBlocks is the optional interface of Blocks that can produce some
// of the columns of A without the others (an ensemble's activities for
// some of its neurons: a product and rates of that many columns only).
type ColumnBlocks interface {
	// RowsCols writes rows [i0, i1) of the columns cols (ascending) of A
	// to dst, row-major with stride len(cols).
	RowsCols(dst []float64, i0, i1 int, cols []int) error
}

// affineMinLinear is the fewest linear columns (relative to the number
// of features) for which the affine path is taken.
const affineMinLinear = 2

// affineEq is what the passes over A and the features give for the
// columns N (kN of them) and the linear columns L (kL): the normal
// equations of N alone (G_NN = A_NᵀA_N, upper triangle, and A_NᵀY), the
// products P = ZᵀA_N, S = ZᵀZ and ZᵀY, and the coefficients C_L.
type affineEq struct {
	nn      *normalEq
	P, S    blas64.General // p×kN, p×p
	ZY, CL  blas64.General // p×d, p×kL
	kN, kL  int
	p, d, m int
}

// accumulateAffine forms the affineEq of A's columns nCols and lCols.
func accumulateAffine(A Blocks, Y *mat.Dense, Z, C *mat.Dense, nCols, lCols []int, br int) (*affineEq, error) {
	m, n := A.Dims()
	_, d := Y.Dims()
	_, p := Z.Dims()
	kN, kL := len(nCols), len(lCols)
	q := &affineEq{nn: newNormalEq(kN, d), kN: kN, kL: kL, p: p, d: d, m: m,
		P:  blas64.General{Rows: p, Cols: kN, Stride: max(kN, 1), Data: make([]float64, p*kN)},
		S:  blas64.General{Rows: p, Cols: p, Stride: p, Data: make([]float64, p*p)},
		ZY: blas64.General{Rows: p, Cols: d, Stride: d, Data: make([]float64, p*d)},
		CL: blas64.General{Rows: p, Cols: kL, Stride: kL, Data: make([]float64, p*kL)},
	}
	yr, zr := Y.RawMatrix(), Z.RawMatrix()
	// Y = the first d features (decoding the identity from eval points
	// that are the features): AᵀY is part of ZᵀA, ZᵀY part of ZᵀZ
	yIsZ := d <= p
	for i := 0; i < m && yIsZ; i++ {
		yIsZ = slices.Equal(yr.Data[i*yr.Stride:i*yr.Stride+d], zr.Data[i*zr.Stride:i*zr.Stride+d])
	}
	if kN > 0 {
		var buf []float64
		if _, byCols := A.(ColumnBlocks); byCols {
			br = max(br, min(m, br*n/kN)) // the same block bytes
			buf = make([]float64, br*kN)
		} else {
			buf = make([]float64, br*n)
		}
		for i0 := 0; i0 < m; i0 += br {
			if interrupt.Requested() {
				return nil, interrupt.ErrInterrupted
			}
			i1 := min(m, i0+br)
			r := i1 - i0
			if err := rowsOf(A, buf, i0, i1, nCols); err != nil {
				return nil, err
			}
			An := blas64.General{Rows: r, Cols: kN, Stride: kN, Data: buf[:r*kN]}
			Yc := blas64.General{Rows: r, Cols: d, Stride: yr.Stride, Data: yr.Data[i0*yr.Stride:]}
			Zc := blas64.General{Rows: r, Cols: p, Stride: zr.Stride, Data: zr.Data[i0*zr.Stride:]}
			syrkPar(An, q.nn.G)
			if !yIsZ {
				blas64.Gemm(blas.Trans, blas.NoTrans, 1, An, Yc, 1, q.nn.B)
			}
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, Zc, An, 1, q.P)
		}
		if interrupt.Requested() { // syrkPar may have stopped early
			return nil, interrupt.ErrInterrupted
		}
		if yIsZ { // A_NᵀY = (ZᵀA_N)ᵀ's first d columns
			for i := range kN {
				for k := range d {
					q.nn.B.Data[i*d+k] = q.P.Data[k*q.P.Stride+i]
				}
			}
		}
	}
	Zg := blas64.General{Rows: m, Cols: p, Stride: zr.Stride, Data: zr.Data}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, Zg, Zg, 0, q.S)
	if yIsZ {
		for k := range p {
			copy(q.ZY.Data[k*d:(k+1)*d], q.S.Data[k*p:k*p+d])
		}
	} else {
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, Zg, blas64.General{Rows: m, Cols: d, Stride: yr.Stride, Data: yr.Data}, 0, q.ZY)
	}
	cr := C.RawMatrix()
	for r := range p {
		row := cr.Data[r*cr.Stride:]
		for c, j := range lCols {
			q.CL.Data[r*kL+c] = row[j]
		}
	}
	return q, nil
}

// solve solves the regularised normal equations of [N L] by eliminating
// the linear columns, whose block is a diagonal plus a rank-p term: with
// U = C_L, Λ = diag(m·σ_L²) and D = Λ + UᵀSU,
//
//	Q = UΛ⁻¹Uᵀ,  M = I + S·Q,  R = U·D⁻¹·Uᵀ = Q·M⁻¹          (p×p)
//	(G_NN + m·σ_N² − PᵀRP)·x = A_NᵀY − PᵀR·ZᵀY               (Cholesky, kN×kN)
//	y = D⁻¹Uᵀ(ZᵀY − P·x) = Λ⁻¹Uᵀ·M⁻¹(ZᵀY − P·x)              (push-through)
//
// (the Schur complement of the linear block and the Woodbury identity):
// a kN×kN factorisation instead of a (kN+kL)² one, and no kL×kL block.
// It returns x and y (kN×d, kL×d).
func (q *affineEq) solve(obj string, n int, sigN, sigL func(i int) float64) (x, y *mat.Dense, err error) {
	p, d, kN, kL, m := q.p, q.d, q.kN, q.kL, float64(q.m)
	lam := make([]float64, kL)
	for c := range kL {
		s := sigL(c)
		lam[c] = m * s * s
	}
	U := mat.NewDense(p, kL, q.CL.Data)
	UL := mat.NewDense(p, kL, nil) // U·Λ⁻¹
	for r := range p {
		for c := range kL {
			UL.Set(r, c, U.At(r, c)/lam[c])
		}
	}
	var Q, M mat.Dense
	Q.Mul(UL, U.T())
	M.Mul(mat.NewDense(p, p, q.S.Data), &Q)
	for i := range p {
		M.Set(i, i, M.At(i, i)+1)
	}
	var lu mat.LU
	lu.Factorize(&M)
	if lu.Det() == 0 {
		return nil, nil, &validate.Error{Pkg: "solvers", Object: obj, Field: "A", Value: fmt.Sprintf("%d×%d", q.m, n),
			Rule: "the regularised system of the always-active neurons is singular (increase Reg)"}
	}
	ZY := mat.NewDense(p, d, q.ZY.Data)
	x = mat.NewDense(max(kN, 1), d, nil)
	if kN > 0 {
		// R = Q·M⁻¹ = (M⁻ᵀ·Q)ᵀ (Q symmetric)
		var Rt, R mat.Dense
		if err := lu.SolveTo(&Rt, true, &Q); err != nil {
			return nil, nil, err
		}
		R.CloneFrom(Rt.T())
		P := mat.NewDense(p, kN, q.P.Data)
		var RP, RZY mat.Dense
		RP.Mul(&R, P)
		RZY.Mul(&R, ZY)
		G := q.nn.G
		// G_NN − Pᵀ·(R·P), upper triangle
		blas64.Gemm(blas.Trans, blas.NoTrans, -1, q.P, blas64.General{Rows: p, Cols: kN, Stride: kN, Data: RP.RawMatrix().Data}, 1,
			blas64.General{Rows: kN, Cols: kN, Stride: G.Stride, Data: G.Data})
		blas64.Gemm(blas.Trans, blas.NoTrans, -1, q.P, blas64.General{Rows: p, Cols: d, Stride: d, Data: RZY.RawMatrix().Data}, 1, q.nn.B)
		if x, err = q.nn.solve(obj, q.m, n, sigN); err != nil {
			return nil, nil, err
		}
	}
	// v = ZᵀY − P·x; y = Λ⁻¹·Uᵀ·M⁻¹·v
	v := mat.DenseCopyOf(ZY)
	if kN > 0 {
		var Px mat.Dense
		Px.Mul(mat.NewDense(p, kN, q.P.Data), x)
		v.Sub(v, &Px)
	}
	var w mat.Dense
	if err := lu.SolveTo(&w, false, v); err != nil {
		return nil, nil, err
	}
	y = mat.NewDense(kL, d, nil)
	y.Mul(U.T(), &w)
	for c := range kL {
		row := y.RawRowView(c)
		for k := range row {
			row[k] /= lam[c]
		}
	}
	return x, y, nil
}

// syrkParts is the number of column blocks syrkPar splits C into: fixed,
// so that the result does not depend on the number of cores.
const syrkParts = 4

// syrkMin is the smallest update (n²·k/2 multiply-adds) syrkPar splits.
const syrkMin = 1 << 24

// syrkPar is C += AᵀA on C's upper triangle (A r×n), in syrkParts×
// syrkParts blocks across the cores: Syrk on the diagonal blocks, Gemm
// above them. Every element of C is summed by one call over all r rows,
// whatever the number of cores.
func syrkPar(A blas64.General, C blas64.Symmetric) { syrkParMin(A, C, syrkMin) }

// syrkParMin is syrkPar splitting updates of at least minMAC. When the
// interrupt flag (package interrupt) is set it starts no further task:
// C is then incomplete, and the caller checks the flag.
func syrkParMin(A blas64.General, C blas64.Symmetric, minMAC int) {
	n := A.Cols
	if n*n/2*A.Rows < minMAC || n < 2*syrkParts {
		blas64.Syrk(blas.Trans, 1, A, 1, C)
		return
	}
	// equal column blocks: the diagonal tasks are half the others
	edge := make([]int, syrkParts+1)
	for i := range edge {
		edge[i] = i * n / syrkParts
	}
	type task struct{ bi, bj int }
	var tasks []task
	for bi := range syrkParts {
		for bj := bi; bj < syrkParts; bj++ {
			tasks = append(tasks, task{bi, bj})
		}
	}
	sub := func(c0, c1 int) blas64.General {
		return blas64.General{Rows: A.Rows, Cols: c1 - c0, Stride: A.Stride, Data: A.Data[c0:]}
	}
	run := func(t task) {
		r0, r1, c0, c1 := edge[t.bi], edge[t.bi+1], edge[t.bj], edge[t.bj+1]
		if t.bi == t.bj {
			serialSyrk(sub(r0, r1), blas64.Symmetric{Uplo: blas.Upper, N: r1 - r0, Stride: C.Stride, Data: C.Data[r0*C.Stride+r0:]})
			return
		}
		serialGemmTN(sub(r0, r1), sub(c0, c1),
			blas64.General{Rows: r1 - r0, Cols: c1 - c0, Stride: C.Stride, Data: C.Data[r0*C.Stride+c0:]})
	}
	w := min(runtime.GOMAXPROCS(0), len(tasks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(tasks) || interrupt.Requested() {
					return
				}
				run(tasks[i])
			}
		})
	}
	wg.Wait()
}

// solveAffine is scanned.solve on the kept columns cols through the
// features of A (see Affine), when A has them and enough of its columns
// are positive at every row (ok false otherwise).
func (sc *scanned) solveAffine(obj string, A Blocks, Y *mat.Dense, cols []int, sigma func(j int) float64) (*mat.Dense, bool, error) {
	af, isAffine := A.(Affine)
	if !isAffine {
		return nil, false, nil
	}
	Z, C := af.Features()
	if Z == nil || C == nil {
		return nil, false, nil
	}
	m, n := sc.m, sc.n
	zm, p := Z.Dims()
	cp, cn := C.Dims()
	if zm != m || cp != p || cn != n || 4*p >= m {
		return nil, false, nil
	}
	var nCols, lCols []int
	for _, j := range cols {
		if sc.pos[j] == m {
			lCols = append(lCols, j)
		} else {
			nCols = append(nCols, j)
		}
	}
	if len(lCols) < affineMinLinear*p {
		return nil, false, nil
	}
	for _, j := range lCols {
		if !(sigma(j) > 0) {
			return nil, false, nil // Λ⁻¹ needs a positive regularisation
		}
	}
	q, err := accumulateAffine(A, Y, Z, C, nCols, lCols, sc.br)
	if err != nil {
		return nil, true, readErr(obj, m, n, err)
	}
	x, y, err := q.solve(obj, n, func(k int) float64 { return sigma(nCols[k]) }, func(k int) float64 { return sigma(lCols[k]) })
	if err != nil {
		return nil, true, err
	}
	_, d := Y.Dims()
	X := mat.NewDense(n, d, nil)
	for k, j := range nCols {
		copy(X.RawRowView(j), x.RawRowView(k))
	}
	for k, j := range lCols {
		copy(X.RawRowView(j), y.RawRowView(k))
	}
	return X, true, nil
}
