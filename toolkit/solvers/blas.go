//go:build !openblas

package solvers

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// BLAS describes the BLAS implementation in use: without the build tag
// openblas, gonum's pure-Go one (its level-3 routines run on GOMAXPROCS
// goroutines).
func BLAS() string { return "gonum (pure Go)" }

// potrf factorises a = UᵀU (or LLᵀ) in place: gonum's blocked Dpotrf.
func potrf(a blas64.Symmetric) (blas64.Triangular, bool) { return lapack64.Potrf(a) }
