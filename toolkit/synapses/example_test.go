package synapses_test

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit/synapses"
)

// A 5 ms lowpass on two channels: a unit step and an impulse.
func ExampleLowpass() {
	f, err := synapses.Lowpass{Tau: 0.005}.Filter(0.001, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	y := make([]float64, 2)
	for k := range 4 {
		u := []float64{1, 0} // channel 0: step, channel 1: impulse at k = 0
		if k == 0 {
			u[1] = 1
		}
		_ = f.Step(y, u)
		fmt.Printf("k=%d step %.4f impulse %.4f\n", k, y[0], y[1])
	}
	// Output:
	// k=0 step 0.1813 impulse 0.1813
	// k=1 step 0.3297 impulse 0.1484
	// k=2 step 0.4512 impulse 0.1215
	// k=3 step 0.5507 impulse 0.0995
}

func ExampleAlpha() {
	sys, _ := synapses.Alpha{Tau: 0.005}.Discretize(0.001)
	fmt.Printf("%v %d %.6f\n", sys.Kind, sys.Order, sys.DCGain())
	x := make([]float64, 30)
	x[0] = 1 / 0.001 // a spike
	y, _ := synapses.Filt(synapses.Alpha{Tau: 0.005}, 0.001, x, 1)
	peak := 0
	for k := range y {
		if y[k] > y[peak] {
			peak = k
		}
	}
	fmt.Printf("peak %.2f at step %d (t ≈ tau)\n", y[peak], peak)
	// Output:
	// NoD 2 1.000000
	// peak 73.13 at step 5 (t ≈ tau)
}

func ExampleTriangle() {
	x := []float64{1, 0, 0, 0, 0}
	y, _ := synapses.Filt(synapses.Triangle{T: 0.003}, 0.001, x, 1)
	fmt.Printf("%.2f\n", y)
	// Output: [0.40 0.30 0.20 0.10 0.00]
}

// A second-order filter with a passthrough term (D ≠ 0): the input appears
// at once, the dynamics one step later.
func ExampleLinearFilter() {
	notch, err := synapses.NewLinearFilter([]float64{1e-4, 0, 1}, []float64{1e-4, 0.01, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	sys, _ := notch.Discretize(0.001)
	fmt.Printf("%v order %d D %.1f\n", sys.Kind, sys.Order, sys.D)
	y, _ := synapses.Filt(notch, 0.001, []float64{1, 0, 0}, 1)
	fmt.Printf("impulse response %.4f\n", y)

	_, err = synapses.NewLinearFilter([]float64{1, 0, 0}, []float64{1, 1})
	fmt.Println(err)
	// Output:
	// General order 2 D 1.0
	// impulse response [1.0000 -0.0950 -0.0851]
	// synapses: LinearFilter.Num = [1 0 0]: is longer than Den [1 1]: improper transfer function
}

// No synapse versus a zero time constant.
func ExampleFilt() {
	x := []float64{1, 2, 3}
	none, _ := synapses.Filt(nil, 0.001, x, 1)
	zero, _ := synapses.Filt(synapses.Lowpass{Tau: 0}, 0.001, x, 1)
	sys, _ := synapses.Lowpass{Tau: 0}.Discretize(0.001)
	fmt.Println(none, zero, sys.Kind)
	// Output: [1 2 3] [1 2 3] NoX
}

func Example_invalid() {
	_, err := synapses.Lowpass{Tau: -0.005}.Filter(0.001, 1)
	fmt.Println(err)
	// Output: synapses: Lowpass.Tau = -0.005: must be non-negative and finite
}

// The discrete system behind a synapse, and a filter bank built from it
// (for a simulator that merges filters of the same Kind).
func ExampleSystem() {
	sys, err := synapses.Lowpass{Tau: 0.01}.Discretize(0.001)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v: a = %.6f, b = %.6f (C·B), DC gain %.3f\n", sys.Kind, sys.A[0], sys.C[0]*sys.B[0], sys.DCGain())
	f, _ := sys.Filter(3)
	y := make([]float64, 3)
	_ = f.Step(y, []float64{1, 2, 3})
	fmt.Printf("%.6f\n", y)
	// Output:
	// OneX: a = 0.904837, b = 0.095163 (C·B), DC gain 1.000
	// [0.095163 0.190325 0.285488]
}
