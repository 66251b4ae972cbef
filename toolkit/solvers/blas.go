//go:build !openblas

package solvers

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	nblas "github.com/neurogo/neurogo/internal/blas"
)

// Without the build tag openblas, every gonum BLAS call in the process
// (blas64, hence mat and gonum's LAPACK, whose blocked potrf runs on
// Dsyrk, Dgemm and Dtrsm) goes to internal/blas: gonum's pure-Go BLAS
// with its level-3 routines on packed assembly micro-kernels.
func init() { blas64.Use(nblas.Float64{}) }

// BLAS describes the BLAS implementation in use: without the build tag
// openblas, internal/blas (its level-3 routines on GOMAXPROCS goroutines),
// e.g. "neurogo (pure Go, AVX-512 micro-kernels)".
func BLAS() string { return nblas.Name() }

// potrf factorises a = UᵀU (or LLᵀ) in place: gonum's blocked Dpotrf.
func potrf(a blas64.Symmetric) (blas64.Triangular, bool) { return lapack64.Potrf(a) }

// serial is internal/blas on the calling goroutine only (syrkPar runs
// several calls at once).
var serial = nblas.Float64{Threads: 1}

// serialSyrk is c += aᵀa (upper triangle) in one single-threaded call.
func serialSyrk(a blas64.General, c blas64.Symmetric) {
	serial.Dsyrk(c.Uplo, blas.Trans, c.N, a.Rows, 1, a.Data, a.Stride, 1, c.Data, c.Stride)
}

// serialGemmTN is c += aᵀb in one single-threaded call.
func serialGemmTN(a, b, c blas64.General) {
	serial.Dgemm(blas.Trans, blas.NoTrans, a.Cols, b.Cols, a.Rows, 1, a.Data, a.Stride, b.Data, b.Stride, 1, c.Data, c.Stride)
}
