package optim_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/train/optim"
)

func ExampleVar() {
	w := &optim.Var{Name: "dense.kernel", Kind: "Dense", Value: []float64{1, 2}, Grad: []float64{0.5, -0.5}}
	err := (&optim.SGD{LR: 0.1}).Step([]*optim.Var{w}, 1)
	fmt.Println(w.Value, err)
	// Output: [0.95 2.05] <nil>
}

func ExampleOptimizer() {
	// Checkpoint after two steps, restore into a fresh optimiser, continue.
	w := &optim.Var{Name: "w", Value: []float64{1}, Grad: []float64{1}}
	var a optim.Optimizer = &optim.Adam{LR: 0.1}
	a.Step([]*optim.Var{w}, 1)
	a.Step([]*optim.Var{w}, 2)
	ckpt, value := a.State(), w.Value[0]

	a.Step([]*optim.Var{w}, 3)
	var b optim.Optimizer = &optim.Adam{LR: 0.1}
	b.SetState(ckpt)
	w2 := &optim.Var{Name: "w", Value: []float64{value}, Grad: []float64{1}}
	b.Step([]*optim.Var{w2}, 3)
	fmt.Println(a.Name(), len(ckpt), w.Value[0] == w2.Value[0])
	// Output: Adam 2 true
}

func ExampleSGD() {
	w := &optim.Var{Name: "w", Value: []float64{0}, Grad: []float64{1}}
	opt := &optim.SGD{LR: 0.1, Momentum: 0.9}
	for step := 1; step <= 3; step++ {
		opt.Step([]*optim.Var{w}, step)
		fmt.Printf("%.4f\n", w.Value[0])
	}
	// Output:
	// -0.1000
	// -0.2900
	// -0.5610
}

func ExampleAdam() {
	// Minimise (p−3)²: the gradient is 2(p−3).
	p := &optim.Var{Name: "p", Value: []float64{0}, Grad: []float64{0}}
	opt := &optim.Adam{LR: 0.1}
	for step := 1; step <= 500; step++ {
		p.Grad[0] = 2 * (p.Value[0] - 3)
		if err := opt.Step([]*optim.Var{p}, step); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("%.3f\n", p.Value[0])
	// Output: 3.000
}

func ExampleRMSProp() {
	// The first RMSProp step moves by lr/√(1−ρ) whatever the gradient's size.
	w := &optim.Var{Name: "w", Value: []float64{0, 0}, Grad: []float64{0.001, 1000}}
	(&optim.RMSProp{LR: 0.01}).Step([]*optim.Var{w}, 1)
	fmt.Printf("%.4f %.4f\n", w.Value[0], w.Value[1])
	// Output: -0.0316 -0.0316
}

func ExampleAdagrad() {
	w := &optim.Var{Name: "w", Value: []float64{0}, Grad: []float64{1}}
	// InitialAccumulator ≈ 0 (a zero field means Keras's default 0.1).
	opt := &optim.Adagrad{LR: 1, InitialAccumulator: 1e-300}
	for step := 1; step <= 3; step++ {
		opt.Step([]*optim.Var{w}, step) // moves by 1/√step
	}
	fmt.Printf("%.4f %v\n", w.Value[0], opt.State()["w/accumulator"])
	// Output: -2.2845 [3]
}

func ExampleSchedule() {
	var s optim.Schedule = optim.StepDecay{Initial: 0.1, Factor: 0.5, Every: 2}
	for step := 1; step <= 5; step++ {
		fmt.Print(s.Rate(step), " ")
	}
	fmt.Println()
	// Output: 0.1 0.1 0.05 0.05 0.025
}

func ExampleConstant() {
	opt := &optim.SGD{LR: 1, Schedule: optim.Constant{LR: 0.25}}
	w := &optim.Var{Name: "w", Value: []float64{0}, Grad: []float64{1}}
	opt.Step([]*optim.Var{w}, 1)
	fmt.Println(w.Value[0])
	// Output: -0.25
}

func ExampleStepDecay() {
	s := optim.StepDecay{Initial: 1, Factor: 0.1, Every: 10}
	fmt.Printf("%g %g %g\n", s.Rate(1), s.Rate(11), s.Rate(25))
	// Output: 1 0.1 0.010000000000000002
}

func ExampleExponentialDecay() {
	s := optim.ExponentialDecay{Initial: 0.1, DecayRate: 0.5, Steps: 100}
	st := s
	st.Staircase = true
	fmt.Printf("%.4f %.4f %.4f\n", s.Rate(1), s.Rate(151), st.Rate(151))
	// Output: 0.1000 0.0354 0.0500
}

func ExampleCosineDecay() {
	s := optim.CosineDecay{Initial: 1, Steps: 100, Alpha: 0.1}
	fmt.Printf("%.2f %.2f %.2f %.2f\n", s.Rate(1), s.Rate(51), s.Rate(101), s.Rate(1000))
	// Output: 1.00 0.55 0.10 0.10
}

func ExampleClip() {
	// Global norm of (3, 4) and (12) is 13; clipped to 6.5 it halves.
	a := &optim.Var{Name: "a", Value: []float64{0, 0}, Grad: []float64{3, 4}}
	b := &optim.Var{Name: "b", Value: []float64{0}, Grad: []float64{12}}
	opt := &optim.Clip{Opt: &optim.SGD{LR: 1}, MaxNorm: 6.5}
	err := opt.Step([]*optim.Var{a, b}, 1)
	fmt.Println(opt.Name(), a.Grad, b.Grad, a.Value, b.Value, err)
	// Output: Clip(SGD) [1.5 2] [6] [-1.5 -2] [-6] <nil>
}

func ExampleMulti() {
	opt := &optim.Multi{
		Rules: []optim.Rule{
			{Match: "Conv2D", Opt: &optim.SGD{LR: 1}}, // by kind
			{Match: "head", Opt: &optim.SGD{LR: 2}},   // by name prefix "head."
		},
		Default: &optim.SGD{LR: 3},
	}
	vars := []*optim.Var{
		{Name: "conv1.kernel", Kind: "Conv2D", Value: []float64{0}, Grad: []float64{1}},
		{Name: "head.bias", Kind: "Dense", Value: []float64{0}, Grad: []float64{1}},
		{Name: "headless.bias", Kind: "Dense", Value: []float64{0}, Grad: []float64{1}},
	}
	opt.Step(vars, 1)
	for _, v := range vars {
		fmt.Println(v.Name, v.Value[0])
	}
	opt.Default = nil
	fmt.Println(opt.Step(vars, 2))
	// Output:
	// conv1.kernel -1
	// head.bias -2
	// headless.bias -3
	// optim: Multi: step 2: var "headless.bias" (kind "Dense") matches no rule and Default is nil
}

func ExampleRule() {
	// Freeze the encoders of every Ensemble: a rule with learning rate 0.
	opt := &optim.Multi{
		Rules:   []optim.Rule{{Match: "Ensemble", Opt: &optim.SGD{Schedule: optim.Constant{LR: 0}}}},
		Default: &optim.Adam{},
	}
	enc := &optim.Var{Name: `Ensemble "a".encoders`, Kind: "Ensemble", Value: []float64{1}, Grad: []float64{5}}
	opt.Step([]*optim.Var{enc}, 1)
	fmt.Println(enc.Value[0])
	// Output: 1
}

func ExampleNonFiniteError() {
	w := &optim.Var{Name: "conv1.kernel", Kind: "Conv2D", Value: []float64{1, 2}, Grad: []float64{0, math.NaN()}}
	err := (&optim.Adam{}).Step([]*optim.Var{w}, 12)
	var nf *optim.NonFiniteError
	if errors.As(err, &nf) {
		fmt.Printf("NaN loss/gradient at step %d in parameter %s\n", nf.Step, nf.Var)
	}
	fmt.Println(err)
	fmt.Println(w.Value) // unchanged
	// Output:
	// NaN loss/gradient at step 12 in parameter conv1.kernel
	// optim: Adam: step 12: gradient of "conv1.kernel" (Conv2D) is NaN at index 1
	// [1 2]
}

// Rules may select by what a parameter is, its declared layers.Role, or
// by the model object it belongs to (Owner), instead of by names.
func ExampleRule_role() {
	opt := &optim.Multi{
		Rules:   []optim.Rule{{Role: layers.RoleBias, Opt: &optim.SGD{LR: 0.5}}},
		Default: &optim.SGD{LR: 1},
	}
	kernel := &optim.Var{Name: "dense.kernel", Kind: "Dense", Value: []float64{0}, Grad: []float64{1},
		Param: &layers.Param{Name: "kernel", Role: layers.RoleKernel}}
	bias := &optim.Var{Name: "dense.bias", Kind: "Dense", Value: []float64{0}, Grad: []float64{1},
		Param: &layers.Param{Name: "bias", Role: layers.RoleBias}}
	opt.Step([]*optim.Var{kernel, bias}, 1)
	fmt.Println(kernel.Value[0], bias.Value[0])
	// Output: -1 -0.5
}

// The trainer applies each parameter's declared constraint after every
// optimiser step.
func ExampleApplyConstraints() {
	w := &optim.Var{Name: "conv.kernel", Kind: "analog.Conv1d", Value: []float64{62.5}, Grad: []float64{-1},
		Param: &layers.Param{Name: "kernel", Role: layers.RoleKernel, Constraint: layers.Bounds{Lo: -63, Hi: 63}}}
	vars := []*optim.Var{w}
	(&optim.SGD{LR: 2}).Step(vars, 1) // 62.5 + 2 = 64.5
	optim.ApplyConstraints(vars)
	fmt.Println(w.Value[0])
	// Output: 63
}
