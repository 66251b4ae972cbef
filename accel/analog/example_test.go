package analog_test

import (
	"fmt"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/toolkit/layers"
)

// A noiseless ideal system computes clamp(floor(gain·num_sends·xᵀW)).
func ExampleSystem_MatMul() {
	sys, err := analog.New(analog.Config{Gain: 0.01}) // no noise, no fixed pattern
	if err != nil {
		panic(err)
	}
	// one input vector (5-bit) and 3×2 weights (signed 6-bit)
	x := []float64{31, 10, 0}
	w := []float64{
		63, -63,
		20, 20,
		-5, 5,
	}
	y, err := sys.MatMul(x, 1, w, 3, 2, analog.Op{NumSends: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(y) // 0.02·(31·63 + 200) = 43.06 → 43; 0.02·(−1953 + 200) = −35.06 → −36
	_, err = sys.MatMul([]float64{32}, 1, []float64{1}, 1, 1, analog.Op{})
	fmt.Println(err)
	// Output:
	// [43 -36]
	// analog: Apply: x[0][0]: input 32: outside the 5-bit range 0..31 (scale the input, or ask for clamping with Op.Clamp)
}

// Large operations are split into array-sized tiles placed round robin.
func ExampleSystem_Partition() {
	sys, _ := analog.New(analog.Config{Chips: 2})
	p, err := sys.Partition(300, 600, false)
	if err != nil {
		panic(err)
	}
	fmt.Println(p)
	fmt.Println("tiles per array:", p.ArrayUse())
	// Output:
	// 300×600 on 4 arrays: 3 row × 3 column splits of 128×256, 3 run(s), utilisation 61.0%
	// tiles per array: [3 2 2 2]
}

// The analog layers are toolkit/layers specs with the float layers'
// parameter shapes.
func ExampleLinear() {
	l, err := analog.Linear{Units: 125, NumSends: 6}.Build([]int{256}, 1)
	if err != nil {
		panic(err)
	}
	d, _ := layers.Dense{Units: 125, NoBias: true}.Build([]int{256}, 1)
	fmt.Println(l.Kind(), l.Params()[0].Shape, d.Params()[0].Shape, l.OutShape())
	// Output:
	// analog.Linear [256 125] [256 125] [125]
}
