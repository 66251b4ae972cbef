//go:build !openblas

package solvers

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// BLAS describes the BLAS implementation in use: without the build tag
// openblas, gonum's pure-Go one (its level-3 routines run on GOMAXPROCS
// goroutines).
func BLAS() string { return "gonum (pure Go)" }

// potrf factorises a = UᵀU (or LLᵀ) in place: gonum's blocked Dpotrf.
func potrf(a blas64.Symmetric) (blas64.Triangular, bool) { return lapack64.Potrf(a) }

// serialSyrk is c += aᵀa (upper triangle) in one BLAS call.
func serialSyrk(a blas64.General, c blas64.Symmetric) { blas64.Syrk(blas.Trans, 1, a, 1, c) }

// serialGemmTN is c += aᵀb in one BLAS call.
func serialGemmTN(a, b, c blas64.General) { blas64.Gemm(blas.Trans, blas.NoTrans, 1, a, b, 1, c) }
