//go:build openblas

package hxtorch

// With the build tag openblas (scripts/lib.sh builds neurogo with it when
// libopenblas-dev is there) float32 products — the GEMM baseline of
// BenchAccel and the emulated chip's tile sums — run on OpenBLAS, one
// thread per call (solvers sets OPENBLAS_NUM_THREADS behaviour: the
// callers split work across goroutines).

// #cgo LDFLAGS: -lopenblas
// char *openblas_get_corename(void);
import "C"

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/netlib/blas/netlib"

	nblas "github.com/neurogo/neurogo/internal/blas"
)

// (internal/blas where OpenBLAS's kernels do not use the CPU's vectors,
// see internal/blas.OpenBLASMismatch)
func init() {
	if nblas.OpenBLASMismatch(C.GoString(C.openblas_get_corename())) != "" {
		blas32.Use(nblas.Float32{})
		return
	}
	blas32.Use(netlib.Implementation{})
}
