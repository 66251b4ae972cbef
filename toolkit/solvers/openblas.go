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
void openblas_set_num_threads(int);
char *openblas_get_config(void);
char *openblas_get_corename(void);
int dpotrf_(char *uplo, int *n, double *a, int *lda, int *info);
int blas_thread_shutdown_(void);
*/
import "C"

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/netlib/blas/netlib"

	nblas "github.com/neurogo/neurogo/internal/blas"
	"github.com/neurogo/neurogo/internal/vec"
)

// OpenBLAS's own worker threads spin for a long time after each call
// (OPENBLAS_THREAD_TIMEOUT, 2^28 cycles by default), taking a core from
// the Go code that runs between products. So OpenBLAS runs
// single-threaded and large products are split in row or column blocks
// across goroutines (parallelBLAS); its factorisations get the cores back
// for their duration (potrf).
//
// OpenBLAS picks its kernels from the CPU model when it is loaded; where
// those do not use the CPU's vectors (a library older than the CPU: see
// internal/blas.OpenBLASMismatch), the process runs on internal/blas
// instead, and BLAS says why.
func init() {
	blasThreads = max(1, int(C.openblas_get_num_threads()))
	C.openblas_set_num_threads(1)
	if notUsed = nblas.OpenBLASMismatch(C.GoString(C.openblas_get_corename())); notUsed != "" {
		blas64.Use(nblas.Float64{})
		return
	}
	blas64.Use(parallelBLAS{})
}

// notUsed says why OpenBLAS is linked but not used ("" when it is used).
var notUsed string

// serial is internal/blas on the calling goroutine, where OpenBLAS is not used.
var serial = nblas.Float64{Threads: 1}

// blasThreads is how many threads OpenBLAS would have used (one per core,
// or OPENBLAS_NUM_THREADS): the parallelism of parallelBLAS and potrf.
var blasThreads = 1

// parallelBLAS is OpenBLAS with Dgemm split across blasThreads goroutines.
type parallelBLAS struct{ netlib.Implementation }

// Dgemm computes C = alpha·op(A)·op(B) + beta·C, in blasThreads blocks
// of rows (or of columns when C is wide) for products of at least 2^21
// multiply-adds.
func (p parallelBLAS) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	w := blasThreads
	if w <= 1 || m*n*k < 1<<21 || (m < 2*w && n < 2*w) {
		p.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		vec.ClearUpper()
		return
	}
	var wg sync.WaitGroup
	for i := range w {
		if m >= n {
			lo, hi := i*m/w, (i+1)*m/w
			aOff := lo * lda // rows of A
			if tA != blas.NoTrans {
				aOff = lo // columns of the stored k×m A
			}
			run := func() {
				p.Implementation.Dgemm(tA, tB, hi-lo, n, k, alpha, a[aOff:], lda, b, ldb, beta, c[lo*ldc:], ldc)
				vec.ClearUpper() // OpenBLAS's AVX-512 kernels leave the upper halves dirty
			}
			if i == w-1 {
				run()
			} else {
				wg.Add(1)
				go func() { defer wg.Done(); run() }()
			}
			continue
		}
		lo, hi := i*n/w, (i+1)*n/w
		bOff := lo // columns of B
		if tB != blas.NoTrans {
			bOff = lo * ldb // rows of the stored n×k B
		}
		run := func() {
			p.Implementation.Dgemm(tA, tB, m, hi-lo, k, alpha, a, lda, b[bOff:], ldb, beta, c[lo:], ldc)
			vec.ClearUpper()
		}
		if i == w-1 {
			run()
		} else {
			wg.Add(1)
			go func() { defer wg.Done(); run() }()
		}
	}
	wg.Wait()
}

// BLAS describes the BLAS implementation in use: here OpenBLAS, with its
// build configuration and thread count (OPENBLAS_NUM_THREADS, default one
// per core).
func BLAS() string {
	cfg := C.GoString(C.openblas_get_config()) // "OpenBLAS 0.3.21 …" on Debian
	if !strings.HasPrefix(cfg, "OpenBLAS") {
		cfg = "OpenBLAS " + cfg
	}
	if notUsed != "" {
		return fmt.Sprintf("%s; %s linked but not used: %s", nblas.Name(), cfg, notUsed)
	}
	return fmt.Sprintf("%s, single-threaded calls split across %d goroutines", cfg, blasThreads)
}

// potrf factorises a = UᵀU in place with OpenBLAS's own (parallel,
// recursive) dpotrf, faster than gonum's blocked Dpotrf on top of
// OpenBLAS's level 3. Row-major upper is column-major lower.
func potrf(a blas64.Symmetric) (blas64.Triangular, bool) {
	if notUsed != "" || a.Uplo != blas.Upper || a.N > math.MaxInt32 || a.Stride > math.MaxInt32 {
		return lapack64.Potrf(a)
	}
	t := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: a.N, Stride: a.Stride, Data: a.Data}
	if a.N == 0 {
		return t, true
	}
	uplo := C.char('L')
	n, lda, info := C.int(a.N), C.int(max(a.Stride, 1)), C.int(0)
	C.openblas_set_num_threads(C.int(blasThreads))
	C.dpotrf_(&uplo, &n, (*C.double)(&a.Data[0]), &lda, &info)
	C.openblas_set_num_threads(1)
	if blasThreads > 1 {
		// the worker threads would spin (sched_yield) for 2^28 cycles
		// (~0.1 s) after the call: a simulation started right after a
		// build lost a core to them, in stalls of several ms (measured:
		// the integrator's step 2.7 µs with 4 ms stalls every ~4 ms).
		// Shutting them down stops the spin; the next threaded call
		// starts them again (~0.1 ms, against a factorisation's ms).
		C.blas_thread_shutdown_()
	}
	vec.ClearUpper()
	return t, info == 0
}

// serialSyrk is c += aᵀa (upper triangle) in one single-threaded
// OpenBLAS call (syrkPar runs several at once).
func serialSyrk(a blas64.General, c blas64.Symmetric) {
	if notUsed != "" {
		serial.Dsyrk(c.Uplo, blas.Trans, c.N, a.Rows, 1, a.Data, a.Stride, 1, c.Data, c.Stride)
		return
	}
	netlib.Implementation{}.Dsyrk(c.Uplo, blas.Trans, c.N, a.Rows, 1, a.Data, a.Stride, 1, c.Data, c.Stride)
	vec.ClearUpper()
}

// serialGemmTN is c += aᵀb in one single-threaded OpenBLAS call.
func serialGemmTN(a, b, c blas64.General) {
	if notUsed != "" {
		serial.Dgemm(blas.Trans, blas.NoTrans, a.Cols, b.Cols, a.Rows, 1, a.Data, a.Stride, b.Data, b.Stride, 1, c.Data, c.Stride)
		return
	}
	netlib.Implementation{}.Dgemm(blas.Trans, blas.NoTrans, a.Cols, b.Cols, a.Rows, 1, a.Data, a.Stride, b.Data, b.Stride, 1, c.Data, c.Stride)
	vec.ClearUpper()
}
