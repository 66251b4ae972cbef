//go:build !openblas

package solvers

// BLAS describes the BLAS implementation in use: without the build tag
// openblas, gonum's pure-Go one (its level-3 routines run on GOMAXPROCS
// goroutines).
func BLAS() string { return "gonum (pure Go)" }
