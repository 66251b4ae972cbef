package npz_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/neurogo/neurogo/sim/npz"
)

func Example() {
	dir, err := os.MkdirTemp("", "npz-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "params.npz")

	err = npz.Write(path, map[string]npz.Array{
		"meta/dt":       {Data: []float64{0.001}}, // 0-d
		"ens/a/gain":    {Shape: []int{3}, Data: []float64{1.5, 2, 0.25}},
		"ens/a/weights": {Shape: []int{2, 3}, Data: []float64{1, 2, 3, 4, 5, 6}},
	})
	if err != nil {
		log.Fatal(err)
	}

	arrays, err := npz.Read(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("dt:", arrays["meta/dt"].At())
	fmt.Println("gain[2]:", arrays["ens/a/gain"].At(2))
	w := arrays["ens/a/weights"]
	fmt.Println("weights:", w.Shape, w.At(1, 0), w.Rows())
	// Output:
	// dt: 0.001
	// gain[2]: 0.25
	// weights: [2 3] 4 [[1 2 3] [4 5 6]]
}
