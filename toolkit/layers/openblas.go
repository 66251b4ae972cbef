//go:build openblas

package layers

// With the build tag openblas the package links OpenBLAS, so that its tests
// and benchmarks (openblas_test.go routes blas64 to gonum's netlib cgo
// binding) build without extra flags: go test -tags openblas ./toolkit/layers.
// Needs libopenblas-dev and a C compiler, as toolkit/solvers does.

// #cgo LDFLAGS: -lopenblas
import "C"

import "gonum.org/v1/netlib/blas/netlib"

// float32 products (Float32Exec) in OpenBLAS's sgemm; single-threaded
// calls, as toolkit/solvers sets OpenBLAS up, split by the Exec's workers.
func init() { sgemm = netlib.Implementation{} }
