package vec_test

import (
	"fmt"

	"github.com/neurogo/neurogo/internal/vec"
)

func ExampleDot() {
	fmt.Println(vec.Dot([]float64{1, 2, 3, 4, 5}, []float64{1, 1, 1, 1, 2}))
	// Output: 20
}

func ExampleRelu() {
	out := make([]float64, 3)
	vec.Relu(out, []float64{-1, 0.5, 2}, 2)
	fmt.Println(out)
	// Output: [0 1 4]
}
