package repro_test

import (
	"fmt"

	"github.com/neurogo/neurogo/repro"
)

// Binding with the vector [0, 1, 0, 0] shifts by one place.
func ExampleCircConv() {
	fmt.Println(repro.CircConv([]float64{0, 1, 0, 0}, []float64{1, 2, 3, 4}))
	// Output: [4 1 2 3]
}
