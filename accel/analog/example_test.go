package analog_test

import (
	"context"
	"fmt"
	"math"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
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

// A Nengo model on the emulated chip: its dense products run there.
func ExampleNewBackend() {
	net := toolkit.New("channel", 1)
	stim := net.Node("stim", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
	a := net.Ensemble("a", 50, 1)
	b := net.Ensemble("b", 50, 1)
	net.Connect(stim, a)
	net.Connect(a, b)
	net.Probe("b", b, toolkit.AttrDecoded)
	m, err := sim.Build(net)
	if err != nil {
		panic(err)
	}
	be, err := analog.NewBackend(analog.BackendOptions{RangeSteps: 500})(m)
	if err != nil {
		panic(err)
	}
	defer be.Close()
	if err := be.RunSteps(100); err != nil {
		panic(err)
	}
	for _, pl := range be.(*analog.Backend).Placement() {
		fmt.Printf("%s: %d×%d on chip %v\n", pl.Tag, pl.Rows, pl.Cols, pl.OnChip)
	}
	// Output:
	// Ensemble "a" bias + Ensemble "a" encoding: 50×1 on chip true
	// Ensemble "b" bias + Ensemble "b" encoding: 50×1 on chip true
	// Connection "a->b" weights: 1×50 on chip true
	// Connection "b.conn" weights → Connection "b.conn" out: 1×50 on chip true
}

// Calibration measures the emulated chip as hxtorch measures a real one.
func ExampleSystem_Calibrate() {
	sys, _ := analog.New(analog.ChipConfig(3))
	c, err := sys.Calibrate(analog.CalibrationOptions{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("gain %.4f, noise %.1f LSB\n", c.Gain, c.Noise)
	// Output:
	// gain 0.0012, noise 2.0 LSB
}

// Run executes a matrix through the JIT graph; its results equal Apply's.
func ExampleMatrix_Run() {
	sys, _ := analog.New(analog.MockConfig())
	rows, cols, batch := 300, 300, 4
	w := make([]float64, rows*cols)
	x := make([]float64, batch*rows)
	for i := range w {
		w[i] = float64(i%11 - 5)
	}
	for i := range x {
		x[i] = float64(i % 32)
	}
	m, _ := sys.Configure(w, rows, cols, analog.Op{})
	y1, y2 := make([]float64, batch*cols), make([]float64, batch*cols)
	m.Reseed(1)
	m.Apply(x, batch, y1)
	m.Reseed(1)
	st, err := m.Run(context.Background(), x, batch, y2, analog.PipelineOptions{})
	if err != nil {
		panic(err)
	}
	same := true
	for i := range y1 {
		same = same && y1[i] == y2[i]
	}
	fmt.Println(st.Instances, "instances; equal to Apply:", same)
	// Output:
	// 11 instances; equal to Apply: true
}
