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
*/
import "C"

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() { blas64.Use(netlib.Implementation{}) }

// BLAS describes the BLAS implementation in use: here OpenBLAS, with its
// build configuration and thread count (OPENBLAS_NUM_THREADS, default one
// per core).
func BLAS() string {
	return fmt.Sprintf("OpenBLAS %s, %d threads", C.GoString(C.openblas_get_config()), int(C.openblas_get_num_threads()))
}
