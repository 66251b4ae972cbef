//go:build openblas

package solvers

// With the build tag openblas, every gonum BLAS call in the process
// (blas64, hence mat and gonum's LAPACK, which runs its blocked potrf on
// top of blas64) goes to OpenBLAS through cgo. Needs libopenblas-dev
// (Debian) and a C compiler:
//
//	go build -tags openblas ./cmd/neurogo

/*
#cgo LDFLAGS: -lopenblas
int openblas_get_num_threads(void);
char *openblas_get_config(void);
int dpotrf_(char *uplo, int *n, double *a, int *lda, int *info);
*/
import "C"

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() { blas64.Use(netlib.Implementation{}) }

// BLAS describes the BLAS implementation in use: here OpenBLAS, with its
// build configuration and thread count (OPENBLAS_NUM_THREADS, default one
// per core).
func BLAS() string {
	return fmt.Sprintf("OpenBLAS %s, %d threads", C.GoString(C.openblas_get_config()), int(C.openblas_get_num_threads()))
}

// potrf factorises a = UᵀU in place with OpenBLAS's own (parallel,
// recursive) dpotrf, faster than gonum's blocked Dpotrf on top of
// OpenBLAS's level 3. Row-major upper is column-major lower.
func potrf(a blas64.Symmetric) (blas64.Triangular, bool) {
	if a.Uplo != blas.Upper || a.N > math.MaxInt32 || a.Stride > math.MaxInt32 {
		return lapack64.Potrf(a)
	}
	t := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: a.N, Stride: a.Stride, Data: a.Data}
	if a.N == 0 {
		return t, true
	}
	uplo := C.char('L')
	n, lda, info := C.int(a.N), C.int(max(a.Stride, 1)), C.int(0)
	C.dpotrf_(&uplo, &n, (*C.double)(&a.Data[0]), &lda, &info)
	return t, info == 0
}
