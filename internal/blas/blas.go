package blas

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Float64 implements gonum's blas.Float64: gonum's pure-Go BLAS with
// Dgemm, Dsyrk and Dtrsm on the packed micro-kernels. Threads is the
// number of goroutines of a large call (0: GOMAXPROCS; 1: the calling
// goroutine only).
type Float64 struct {
	gonum.Implementation
	Threads int
}

// Float32 implements gonum's blas.Float32 likewise: Sgemm, Ssyrk and
// Strsm on the packed micro-kernels, the rest gonum's.
type Float32 struct {
	gonum.Implementation
	Threads int
}

var (
	_ blas.Float64 = Float64{}
	_ blas.Float32 = Float32{}
)

// Name describes the implementation, e.g. "neurogo (pure Go, AVX-512
// micro-kernels)".
func Name() string {
	switch ISA() {
	case "Go":
		return "neurogo (pure Go, portable micro-kernels)"
	case "AVX2":
		return "neurogo (pure Go, AVX2+FMA micro-kernels)"
	}
	return "neurogo (pure Go, " + ISA() + " micro-kernels)"
}

func validTrans(t blas.Transpose) bool {
	return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans
}

// gemmOK reports whether gemm's arguments are valid (gonum's checks); on
// false the caller lets gonum panic with its message.
func gemmOK(tA, tB blas.Transpose, m, n, k, la, lda, lb, ldb, lc, ldc int) bool {
	if !validTrans(tA) || !validTrans(tB) || m < 0 || n < 0 || k < 0 {
		return false
	}
	ra, ca := m, k
	if tA != blas.NoTrans {
		ra, ca = k, m
	}
	rb, cb := k, n
	if tB != blas.NoTrans {
		rb, cb = n, k
	}
	if lda < max(1, ca) || ldb < max(1, cb) || ldc < max(1, n) {
		return false
	}
	if m == 0 || n == 0 {
		return true
	}
	return (ra == 0 || ca == 0 || la >= lda*(ra-1)+ca) &&
		(rb == 0 || cb == 0 || lb >= ldb*(rb-1)+cb) &&
		lc >= ldc*(m-1)+n
}

// syrkOK reports whether syrk's arguments are valid.
func syrkOK(ul blas.Uplo, t blas.Transpose, n, k, la, lda, lc, ldc int) bool {
	if (ul != blas.Upper && ul != blas.Lower) || !validTrans(t) || n < 0 || k < 0 {
		return false
	}
	ra, ca := n, k
	if t != blas.NoTrans {
		ra, ca = k, n
	}
	if lda < max(1, ca) || ldc < max(1, n) {
		return false
	}
	if n == 0 {
		return true
	}
	return (ra == 0 || ca == 0 || la >= lda*(ra-1)+ca) && lc >= ldc*(n-1)+n
}

// trsmOK reports whether trsm's arguments are valid.
func trsmOK(s blas.Side, ul blas.Uplo, t blas.Transpose, d blas.Diag, m, n, la, lda, lb, ldb int) bool {
	if (s != blas.Left && s != blas.Right) || (ul != blas.Upper && ul != blas.Lower) || !validTrans(t) ||
		(d != blas.Unit && d != blas.NonUnit) || m < 0 || n < 0 {
		return false
	}
	k := n
	if s == blas.Left {
		k = m
	}
	if lda < max(1, k) || ldb < max(1, n) {
		return false
	}
	if m == 0 || n == 0 {
		return true
	}
	return la >= lda*(k-1)+k && lb >= ldb*(m-1)+n
}

// Dgemm computes C = alpha·op(A)·op(B) + beta·C (beta = 0: C is not read).
func (f Float64) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if !gemmOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		f.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) // panics
		return
	}
	gemm(kern64, threads(f.Threads), tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (beta = 0: C is not read).
func (f Float32) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !gemmOK(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc) {
		f.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) // panics
		return
	}
	gemm(kern32, threads(f.Threads), tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Dsyrk computes the uplo triangle of C = alpha·op(A)·op(A)ᵀ + beta·C.
func (f Float64) Dsyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if !syrkOK(ul, t, n, k, len(a), lda, len(c), ldc) {
		f.Implementation.Dsyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc) // panics // panics, or scales C
		return
	}
	syrk(kern64, threads(f.Threads), ul == blas.Upper, t != blas.NoTrans, n, k, alpha, a, lda, beta, c, ldc)
}

// Ssyrk computes the uplo triangle of C = alpha·op(A)·op(A)ᵀ + beta·C.
func (f Float32) Ssyrk(ul blas.Uplo, t blas.Transpose, n, k int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) {
	if !syrkOK(ul, t, n, k, len(a), lda, len(c), ldc) {
		f.Implementation.Ssyrk(ul, t, n, k, alpha, a, lda, beta, c, ldc) // panics
		return
	}
	syrk(kern32, threads(f.Threads), ul == blas.Upper, t != blas.NoTrans, n, k, alpha, a, lda, beta, c, ldc)
}

// Dtrsm solves op(A)·X = alpha·B (side Left) or X·op(A) = alpha·B (Right)
// for X, which overwrites B; A is triangular.
func (f Float64) Dtrsm(s blas.Side, ul blas.Uplo, t blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	if !trsmOK(s, ul, t, d, m, n, len(a), lda, len(b), ldb) {
		f.Implementation.Dtrsm(s, ul, t, d, m, n, alpha, a, lda, b, ldb) // panics
		return
	}
	trsm(kern64, threads(f.Threads), f.Implementation.Dtrsm, s == blas.Left, ul == blas.Upper, t != blas.NoTrans, d == blas.Unit, m, n, alpha, a, lda, b, ldb)
}

// Strsm is Dtrsm in float32.
func (f Float32) Strsm(s blas.Side, ul blas.Uplo, t blas.Transpose, d blas.Diag, m, n int, alpha float32, a []float32, lda int, b []float32, ldb int) {
	if !trsmOK(s, ul, t, d, m, n, len(a), lda, len(b), ldb) {
		f.Implementation.Strsm(s, ul, t, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trsm(kern32, threads(f.Threads), f.Implementation.Strsm, s == blas.Left, ul == blas.Upper, t != blas.NoTrans, d == blas.Unit, m, n, alpha, a, lda, b, ldb)
}
