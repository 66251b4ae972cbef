package solvers_test

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit/solvers"
	"gonum.org/v1/gonum/mat"
)

// Two rectified-linear "neurons" with opposite preferred directions
// decode x exactly as 0.01·(a1 - a2); the regularisation shrinks the
// decoders slightly (Nengo 4.1 gives the same 0.00952381).
func ExampleLstsqL2() {
	var a, y []float64
	for i := range 11 {
		x := -1 + 0.2*float64(i)
		a = append(a, 100*max(x, 0), 100*max(-x, 0))
		y = append(y, x)
	}
	A, Y := mat.NewDense(11, 2, a), mat.NewDense(11, 1, y)
	X, err := solvers.NewLstsqL2().Solve(A, Y)
	fmt.Printf("%.4f %.4f %v\n", X.At(0, 0), X.At(1, 0), err)
	X, _ = solvers.NewLstsq().Solve(A, Y)
	fmt.Printf("%.4f %.4f\n", X.At(0, 0), X.At(1, 0))
	// Output:
	// 0.0095 -0.0095 <nil>
	// 0.0100 -0.0100
}

// Non-negative decoders: Nnls never returns a negative weight.
func ExampleNnls() {
	A := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	Y := mat.NewDense(3, 1, []float64{1, -1, 0})
	X, err := solvers.Nnls{}.Solve(A, Y)
	fmt.Printf("%.3f %.3f %v\n", X.At(0, 0), X.At(1, 0), err)
	// Output: 0.500 0.000 <nil>
}
