package blas

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
)

// syrk computes the upper (or lower) triangle of C = alpha·op(A)·op(A)ᵀ +
// beta·C, op(A) n×k (Aᵀ when trans): gemm's loops on the micro-tiles
// that meet the triangle (gemmTri).
func syrk[T elem](kn kernel[T], par int, upper, trans bool, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int) {
	if n == 0 {
		return
	}
	if k == 0 || alpha == 0 { // C = beta·C on the triangle
		for i := range n {
			row := c[i*ldc+i : i*ldc+n]
			if !upper {
				row = c[i*ldc : i*ldc+i+1]
			}
			scaleC(1, len(row), beta, row, 0)
		}
		return
	}
	// rows i0.. of op(A), stored: columns of A when trans
	sub := func(i int) []T {
		if trans {
			return a[i:]
		}
		return a[i*lda:]
	}
	// one gemm restricted to the triangle, which packs op(A)ᵀ once for
	// all rows; par goroutines take column blocks (upper) or row blocks
	// (lower) of equal area
	w := par
	if n*n*k/2 < parMin {
		w = 1
	}
	w = min(w, max(1, n/kn.nr))
	var wg sync.WaitGroup
	for t := range w {
		lo := int(float64(n)*math.Sqrt(float64(t)/float64(w))) / kn.nr * kn.nr
		hi := int(float64(n)*math.Sqrt(float64(t+1)/float64(w))) / kn.nr * kn.nr
		if t == w-1 {
			hi = n
		}
		if hi <= lo {
			continue
		}
		run := func() {
			if upper { // columns [lo, hi) need rows [0, hi)
				gemmTri(kn, trans, !trans, hi, hi-lo, k, alpha, sub(0), lda, sub(lo), lda, beta, c[lo:], ldc, upperTri, lo)
				return
			} // rows [lo, hi) need columns [0, hi)
			gemmTri(kn, trans, !trans, hi-lo, hi, k, alpha, sub(lo), lda, sub(0), lda, beta, c[lo*ldc:], ldc, lowerTri, -lo)
		}
		if t == w-1 {
			run()
			continue
		}
		wg.Go(run)
	}
	wg.Wait()
}

// trsmBlock is the size of the diagonal blocks trsm solves with gonum's
// kernels; the rest of B is updated by gemm.
const trsmBlock = 32

// trsm solves op(A)·X = alpha·B (left) or X·op(A) = alpha·B for X, in
// place of B (m×n). Left: B's columns are independent, so par goroutines
// take column blocks; each runs a blocked substitution, the diagonal
// blocks through small (gonum's trsm) and the updates through gemm.
// Right: row blocks of B through small.
func trsm[T elem](kn kernel[T], par int, small func(blas.Side, blas.Uplo, blas.Transpose, blas.Diag, int, int, T, []T, int, []T, int),
	left, upper, trans, unit bool, m, n int, alpha T, a []T, lda int, b []T, ldb int) {
	if m == 0 || n == 0 {
		return
	}
	ul, tr, dg := blas.Lower, blas.NoTrans, blas.NonUnit
	if upper {
		ul = blas.Upper
	}
	if trans {
		tr = blas.Trans
	}
	if unit {
		dg = blas.Unit
	}
	if !left {
		w := par
		if m*n*n/2 < parMin {
			w = 1
		}
		w = min(w, m)
		var wg sync.WaitGroup
		for t := range w {
			lo, hi := t*m/w, (t+1)*m/w
			run := func() { small(blas.Right, ul, tr, dg, hi-lo, n, alpha, a, lda, b[lo*ldb:], ldb) }
			if t == w-1 {
				run()
				continue
			}
			wg.Go(run)
		}
		wg.Wait()
		return
	}
	if alpha == 0 {
		scaleC(m, n, 0, b, ldb)
		return
	}
	// op(A) lower triangular: forward substitution
	lower := upper == trans
	// op(A)[r0:, c0:] as stored
	sub := func(r0, c0 int) []T {
		if trans {
			return a[c0*lda+r0:]
		}
		return a[r0*lda+c0:]
	}
	solve := func(n int, b []T) {
		scaleC(m, n, alpha, b, ldb)
		if lower {
			for i0 := 0; i0 < m; i0 += trsmBlock {
				i1 := min(m, i0+trsmBlock)
				small(blas.Left, ul, tr, dg, i1-i0, n, 1, a[i0*lda+i0:], lda, b[i0*ldb:], ldb)
				if i1 < m {
					gemmSerial(kn, trans, false, m-i1, n, i1-i0, -1, sub(i1, i0), lda, b[i0*ldb:], ldb, 1, b[i1*ldb:], ldb)
				}
			}
			return
		}
		for i1 := m; i1 > 0; i1 -= trsmBlock {
			i0 := max(0, i1-trsmBlock)
			small(blas.Left, ul, tr, dg, i1-i0, n, 1, a[i0*lda+i0:], lda, b[i0*ldb:], ldb)
			if i0 > 0 {
				gemmSerial(kn, trans, false, i0, n, i1-i0, -1, sub(0, i0), lda, b[i0*ldb:], ldb, 1, b, ldb)
			}
		}
	}
	w := par
	if m*m*n/2 < parMin {
		w = 1
	}
	w = min(w, (n+kn.nr-1)/kn.nr)
	var wg sync.WaitGroup
	for t := range w {
		lo := t * n / w / kn.nr * kn.nr
		hi := (t + 1) * n / w / kn.nr * kn.nr
		if t == w-1 {
			hi = n
		}
		if hi <= lo {
			continue
		}
		if t == w-1 {
			solve(hi-lo, b[lo:])
			continue
		}
		wg.Go(func() { solve(hi-lo, b[lo:]) })
	}
	wg.Wait()
}
