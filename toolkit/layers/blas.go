//go:build !openblas

package layers

import (
	"gonum.org/v1/gonum/blas/blas32"

	nblas "github.com/neurogo/neurogo/internal/blas"
)

// Without the build tag openblas, float32 products (Float32Exec, and
// every blas32 call in the process) run on internal/blas's packed
// micro-kernels; sgemm on the calling goroutine only, as the Exec's
// workers already split each product.
func init() {
	blas32.Use(nblas.Float32{})
	sgemm = nblas.Float32{Threads: 1}
}
