//go:build openblas

package layers

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// With -tags openblas the tests and benchmarks run on OpenBLAS through cgo,
// as the neurogo binary does when built with that tag.
func init() { blas64.Use(netlib.Implementation{}) }
