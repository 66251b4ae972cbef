package dists_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/dists"
)

func ExampleUniform() {
	x, err := dists.Uniform{Low: 200, High: 400}.Sample(1000, 1, rand.New(rand.NewPCG(1, 2)))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	fmt.Println(err, lo >= 200, hi < 400)
	// Output: <nil> true true
}

func ExampleUniformHypersphere() {
	x, _ := dists.UniformHypersphere{Surface: true}.Sample(3, 2, rand.New(rand.NewPCG(1, 2)))
	for i := range 3 {
		fmt.Printf("%.6f\n", math.Hypot(x[2*i], x[2*i+1]))
	}
	// Output:
	// 1.000000
	// 1.000000
	// 1.000000
}

func ExampleSamples() {
	s := dists.Rows([][]float64{{1, 0}, {0, 1}})
	x, err := s.Sample(2, 2, nil)
	fmt.Println(x, err)
	_, err = s.Sample(3, 2, nil)
	fmt.Println(err)
	// Output:
	// [1 0 0 1] <nil>
	// dists: Samples.len(Data) = 4: must equal n×d = 3×2
}

func ExampleChoice() {
	x, _ := dists.Choice{Options: [][]float64{{-1}, {1}}, Weights: []float64{0, 1}}.Sample(3, 1, nil)
	fmt.Println(x)
	// Output: [1 1 1]
}
