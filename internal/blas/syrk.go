package blas

import (
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
)

// syrkBlock is the size of syrk's diagonal blocks.
const syrkBlock = 96

// syrk computes the upper (or lower) triangle of C = alpha·op(A)·op(A)ᵀ +
// beta·C, op(A) n×k (Aᵀ when trans): diagonal blocks by gemm into a
// scratch square whose triangle is then added, the rest of each block row
// by gemm straight into C, as tasks shared by par goroutines.
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
	diag := func(i0, i1, par int) {
		ib := i1 - i0
		ws := getWork[T](ib*ib, 0)
		tmp := ws.a
		gemm(kn, par, trans, !trans, ib, ib, k, alpha, sub(i0), lda, sub(i0), lda, 0, tmp, ib)
		for i := range ib {
			j0, j1 := i, ib
			if !upper {
				j0, j1 = 0, i+1
			}
			row := c[(i0+i)*ldc+i0+j0 : (i0+i)*ldc+i0+j1]
			t := tmp[i*ib+j0 : i*ib+j1]
			if beta == 0 {
				copy(row, t)
				continue
			}
			for j, v := range t {
				row[j] = v + beta*row[j]
			}
		}
		putWork(ws)
	}
	if n <= syrkBlock {
		diag(0, n, par)
		return
	}
	// tasks: the diagonal blocks and the off-diagonal parts of each block
	// row, in column chunks of at most 4 blocks
	type task struct{ r0, r1, c0, c1 int }
	var tasks []task
	for i0 := 0; i0 < n; i0 += syrkBlock {
		i1 := min(n, i0+syrkBlock)
		tasks = append(tasks, task{i0, i1, i0, i1})
		lo, hi := i1, n
		if !upper {
			lo, hi = 0, i0
		}
		for c0 := lo; c0 < hi; c0 += 4 * syrkBlock {
			tasks = append(tasks, task{i0, i1, c0, min(hi, c0+4*syrkBlock)})
		}
	}
	run := func(t task) {
		if t.r0 == t.c0 {
			diag(t.r0, t.r1, 1)
			return
		}
		gemmSerial(kn, trans, !trans, t.r1-t.r0, t.c1-t.c0, k, alpha, sub(t.r0), lda, sub(t.c0), lda, beta, c[t.r0*ldc+t.c0:], ldc)
	}
	w := par
	if n*n*k/2 < parMin {
		w = 1
	}
	if w <= 1 {
		for _, t := range tasks {
			run(t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(w, len(tasks)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(tasks) {
					return
				}
				run(tasks[i])
			}
		})
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
