//go:build openblas

package repro

// With the build tag openblas (scripts/lib.sh builds neurogo with it when
// libopenblas-dev is there) float32 products — the GEMM baseline of
// BenchAccel and the emulated chip's tile sums — run on OpenBLAS, one
// thread per call (solvers sets OPENBLAS_NUM_THREADS behaviour: the
// callers split work across goroutines).

// #cgo LDFLAGS: -lopenblas
import "C"

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() { blas32.Use(netlib.Implementation{}) }
