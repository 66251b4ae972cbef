package layers_test

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit/layers"
)

func ExampleDense() {
	l, err := layers.Dense{Units: 2}.Build([]int{3}, 1)
	if err != nil {
		panic(err)
	}
	ex, err := l.NewExec(2, 0)
	if err != nil {
		panic(err)
	}
	kernel := []float64{1, 0, 0, 1, 1, 1} // (3, 2)
	bias := []float64{0.5, -0.5}
	in := []float64{1, 2, 3, 4, 5, 6} // two examples
	out := make([]float64, 4)
	if err := ex.Forward([][]float64{kernel, bias}, in, out, 2, false); err != nil {
		panic(err)
	}
	fmt.Println(l.Params()[0].Name, l.Params()[0].Shape, l.OutShape(), out)

	// Gradients of L = Σ out: dKernel = inᵀ·1, dBias = batch.
	dOut := []float64{1, 1, 1, 1}
	dK, dB := make([]float64, 6), make([]float64, 2)
	if err := ex.Backward([][]float64{kernel, bias}, in, out, dOut, nil, [][]float64{dK, dB}, 2); err != nil {
		panic(err)
	}
	fmt.Println(dK, dB)
	// Output:
	// kernel [3 2] [2] [4.5 4.5 10.5 10.5]
	// [5 5 7 7 9 9] [2 2]
}

func ExampleConv2D() {
	// A 3×3 box filter, stride 2, "same" padding on a 4×4 image: TF pads one
	// row and column after (total padding 1), none before.
	l, err := layers.Conv2D{Filters: 1, Kernel: []int{3}, Strides: []int{2}, Padding: "same", NoBias: true}.Build([]int{4, 4, 1}, 1)
	if err != nil {
		panic(err)
	}
	ex, err := l.NewExec(1, 0)
	if err != nil {
		panic(err)
	}
	kernel := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	in := make([]float64, 16)
	for i := range in {
		in[i] = float64(i + 1)
	}
	out := make([]float64, 4)
	if err := ex.Forward([][]float64{kernel}, in, out, 1, false); err != nil {
		panic(err)
	}
	fmt.Println(l.OutShape(), out)

	_, err = layers.Conv2D{Filters: 1, Kernel: []int{5, 5}}.Build([]int{3, 3, 1}, 1)
	fmt.Println(err)
	// Output:
	// [2 2 1] [54 45 72 54]
	// layers: Conv2D.Kernel = [5 5]: larger than the padded input (3, 3)
}

func ExampleFunc() {
	// A user layer y = s·x with a trainable scalar s.
	scale := layers.Func{
		Kind:   "Scale",
		Out:    []int{2},
		Params: []layers.Param{{Name: "s", Shape: []int{1}, Value: []float64{3}, Trainable: true}},
		Forward: func(p [][]float64, in, out []float64, batch int) error {
			for i, x := range in {
				out[i] = p[0][0] * x
			}
			return nil
		},
		Backward: func(p [][]float64, in, out, dOut, dIn []float64, dP [][]float64, batch int) error {
			for i, x := range in {
				if dIn != nil {
					dIn[i] += p[0][0] * dOut[i]
				}
				if dP[0] != nil {
					dP[0][0] += x * dOut[i]
				}
			}
			return nil
		},
	}
	l, err := scale.Build([]int{2}, 0)
	if err != nil {
		panic(err)
	}
	ex, _ := l.NewExec(1, 0)
	params := [][]float64{l.Params()[0].Value}
	in, out := []float64{1, 2}, make([]float64, 2)
	_ = ex.Forward(params, in, out, 1, false)
	dIn, ds := make([]float64, 2), make([]float64, 1)
	_ = ex.Backward(params, in, out, []float64{1, 1}, dIn, [][]float64{ds}, 1)
	fmt.Println(l.Kind(), out, dIn, ds)
	// Output:
	// Scale [3 6] [3 3] [3]
}

// A parameter declares what it is (Role) and the projection the trainer
// applies after every optimiser step (Constraint): here a kernel bounded
// to ±63, as the analog layers of package accel/analog declare theirs.
func ExampleBounds() {
	w := layers.Param{Name: "kernel", Role: layers.RoleKernel, Shape: []int{4},
		Value: []float64{-80, -3, 40, 70}, Trainable: true, Constraint: layers.Bounds{Lo: -63, Hi: 63}}
	w.Constraint.Project(w.Value)
	fmt.Println(w.Role, w.Constraint, w.Value)
	// Output: kernel Bounds[-63, 63] [-63 -3 40 63]
}
