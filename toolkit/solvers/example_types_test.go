package solvers_test

import (
	"errors"
	"fmt"

	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/toolkit/validate"
	"gonum.org/v1/gonum/mat"
)

// relu2 returns the activities of two opposite rectified-linear neurons
// at 11 points in [-1, 1] and the identity targets.
func relu2() (A, Y *mat.Dense) {
	var a, y []float64
	for i := range 11 {
		x := -1 + 0.2*float64(i)
		a = append(a, 100*max(x, 0), 100*max(-x, 0))
		y = append(y, x)
	}
	return mat.NewDense(11, 2, a), mat.NewDense(11, 1, y)
}

// Lstsq is unregularised: the decoders are exact here.
func ExampleLstsq() {
	A, Y := relu2()
	X, err := solvers.NewLstsq().Solve(A, Y)
	fmt.Printf("%.4f %.4f %v\n", X.At(0, 0), X.At(1, 0), err)
	// Output: 0.0100 -0.0100 <nil>
}

// LstsqL2nz regularises each neuron by how often it is active.
func ExampleLstsqL2nz() {
	A, Y := relu2()
	X, err := solvers.LstsqL2nz{Reg: 0.1}.Solve(A, Y)
	rmse, _ := solvers.RMSE(A, X, Y)
	fmt.Printf("%.3f %.3f rmse %.2f %v\n", X.At(0, 0), X.At(1, 0), rmse, err)
	// Output: 0.010 -0.010 rmse 0.01 <nil>
}

// LstsqNoise regularises by perturbing the activities (seeded).
func ExampleLstsqNoise() {
	A, Y := relu2()
	X, err := solvers.NewLstsqNoise().Solve(A, Y)
	rmse, rmsY := solvers.RMSE(A, X, Y)
	fmt.Printf("relative rmse < 0.1: %v %v\n", rmse/rmsY < 0.1, err)
	// Output: relative rmse < 0.1: true <nil>
}

// NnlsL2: non-negative, regularised decoders.
func ExampleNnlsL2() {
	A, Y := relu2()
	X, err := solvers.NnlsL2{Reg: 0.1}.Solve(A, Y)
	fmt.Printf("%.4f %.4f %v\n", X.At(0, 0), X.At(1, 0), err)
	// Output: 0.0095 0.0000 <nil>
}

// NoSolver gives constant decoders (zeros by default), e.g. for a
// connection that learns from scratch.
func ExampleNoSolver() {
	A, Y := relu2()
	X, err := solvers.NoSolver{}.Solve(A, Y)
	r, c := X.Dims()
	fmt.Println(r, c, X.At(0, 0), X.At(1, 0), err)
	// Output: 2 1 0 0 <nil>
}

// Every solver implements Solver; W asks the builder for full weights.
func ExampleSolver() {
	for _, s := range []solvers.Solver{solvers.NewLstsqL2(), solvers.LstsqL2{Reg: 0.1, W: true}, solvers.NewLstsq(), solvers.Nnls{}} {
		fmt.Println(s.Name(), s.Weights(), s.Validate())
	}
	// Output:
	// LstsqL2 false <nil>
	// LstsqL2 true <nil>
	// Lstsq false <nil>
	// Nnls false <nil>
}

// Invalid parameters and shapes are errors, not panics.
func Example_invalid() {
	err := solvers.LstsqL2{Reg: -1}.Validate()
	var e *validate.Error
	fmt.Println(errors.As(err, &e), e.Field, e.Value)
	// Output: true Reg -1
}
