//go:build openblas

package frames

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// With -tags openblas the tests and benchmarks run on OpenBLAS through cgo.
func init() { blas64.Use(netlib.Implementation{}) }
