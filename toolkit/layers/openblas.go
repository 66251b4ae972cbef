//go:build openblas

package layers

// With the build tag openblas the package links OpenBLAS, so that its tests
// and benchmarks (openblas_test.go routes blas64 to gonum's netlib cgo
// binding) build without extra flags: go test -tags openblas ./toolkit/layers.
// Needs libopenblas-dev and a C compiler, as toolkit/solvers does.

// #cgo LDFLAGS: -lopenblas
// char *openblas_get_corename(void);
import "C"

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/netlib/blas/netlib"

	nblas "github.com/neurogo/neurogo/internal/blas"
)

// float32 products (Float32Exec) in OpenBLAS's sgemm; single-threaded
// calls, as toolkit/solvers sets OpenBLAS up, split by the Exec's workers.
// Where OpenBLAS chose kernels that do not use the CPU's vectors
// (internal/blas.OpenBLASMismatch), internal/blas's instead, as without
// the tag.
func init() {
	if nblas.OpenBLASMismatch(C.GoString(C.openblas_get_corename())) != "" {
		blas32.Use(nblas.Float32{})
		sgemm = nblas.Float32{Threads: 1}
		return
	}
	sgemm = netlib.Implementation{}
}
