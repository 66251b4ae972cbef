package blas_test

import (
	"fmt"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/neurogo/neurogo/internal/blas"
)

// C = AᵀB for a 3×2 A and a 3×2 B (row-major).
func ExampleFloat64_Dgemm() {
	a := []float64{1, 2, 3, 4, 5, 6}
	b := []float64{1, 0, 0, 1, 1, 1}
	c := make([]float64, 4)
	blas.Float64{}.Dgemm(gblas.Trans, gblas.NoTrans, 2, 2, 3, 1, a, 2, b, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [6 8 8 10]
}
