package dists_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// Every distribution samples n×d values row-major from an explicit rng.
func ExampleDistribution() {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []dists.Distribution{dists.Uniform{Low: -1, High: 1}, dists.Gaussian{Mean: 0, Std: 1}, dists.ScatteredHypersphere{}} {
		x, err := d.Sample(4, 3, rng)
		fmt.Println(d.Name(), len(x), err)
	}
	// Output:
	// Uniform 12 <nil>
	// Gaussian 12 <nil>
	// ScatteredHypersphere 12 <nil>
}

// Invalid parameters give a *validate.Error naming the field and the rule.
func Example_invalid() {
	_, err := dists.Uniform{Low: 1, High: 0}.Sample(1, 1, nil)
	var e *validate.Error
	fmt.Println(errors.As(err, &e), e.Object, e.Field)
	// Output: true Uniform High
}

// Sample mean and standard deviation of N(1, 2²).
func ExampleGaussian() {
	x, _ := dists.Gaussian{Mean: 1, Std: 2}.Sample(100000, 1, rand.New(rand.NewPCG(1, 2)))
	var s, s2 float64
	for _, v := range x {
		s += v
		s2 += v * v
	}
	m := s / float64(len(x))
	fmt.Printf("mean %.1f std %.1f\n", m, math.Sqrt(s2/float64(len(x))-m*m))
	// Output: mean 1.0 std 2.0
}

// Exponential: Shift plus an exponential variate of mean Scale, at most High.
func ExampleExponential() {
	d := dists.Exponential{Scale: 0.1, Shift: 0.5, High: 1}
	x, _ := d.Sample(100000, 1, rand.New(rand.NewPCG(1, 2)))
	lo, hi, s := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range x {
		lo, hi, s = math.Min(lo, v), math.Max(hi, v), s+v
	}
	fmt.Printf("min >= 0.5: %v, max <= 1: %v, mean %.2f\n", lo >= 0.5, hi <= 1, s/float64(len(x)))
	// Output: min >= 0.5: true, max <= 1: true, mean 0.60
}

// In one dimension the quasi-random sequence is evenly spaced.
func ExampleQuasirandomSequence() {
	x, _ := dists.QuasirandomSequence{}.Sample(4, 1, nil)
	fmt.Println(x)
	// Output: [0.125 0.375 0.625 0.875]
}

// Scattered points on the unit circle (Surface) are all of norm 1 and
// further apart than uniformly random ones (closest pair of 8 points): the
// exact transform (Method "sct") spaces them evenly, 2·sin(π/8) = 0.7654
// apart; the default, Nengo's "sct-approx", interpolates the inverse CDF
// from a table and so spaces them nearly evenly.
func ExampleScatteredHypersphere() {
	closest := func(d dists.Distribution) float64 {
		x, _ := d.Sample(8, 2, rand.New(rand.NewPCG(1, 2)))
		m := math.Inf(1)
		for i := range 8 {
			if n := math.Hypot(x[2*i], x[2*i+1]); math.Abs(n-1) > 1e-12 {
				fmt.Println("not on the circle:", n)
			}
			for j := range i {
				m = math.Min(m, math.Hypot(x[2*i]-x[2*j], x[2*i+1]-x[2*j+1]))
			}
		}
		return m
	}
	fmt.Printf("sct-approx %.4f, sct %.4f, uniform %.2f\n",
		closest(dists.ScatteredHypersphere{Surface: true}),
		closest(dists.ScatteredHypersphere{Surface: true, Method: dists.MethodSCT}),
		closest(dists.UniformHypersphere{Surface: true}))
	// Output: sct-approx 0.7652, sct 0.7654, uniform 0.00
}
