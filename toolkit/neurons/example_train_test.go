package neurons_test

import (
	"errors"
	"fmt"

	"github.com/neurogo/neurogo/toolkit/neurons"
)

// The smoothed LIF curve next to LIFRate's: close to it above the
// threshold J = 1, positive and smooth around and below it.
func ExampleSoftLIFRate() {
	J := []float64{0.5, 1, 1.1, 2, 10}
	hard, soft := make([]float64, len(J)), make([]float64, len(J))
	_ = neurons.NewLIFRate().Step(0.001, J, hard, neurons.State{}, nil)
	s := neurons.NewSoftLIFRate()
	s.Sigma = 0.02
	_ = s.Step(0.001, J, soft, neurons.State{}, nil)
	fmt.Printf("LIFRate     %.2f\n", hard)
	fmt.Printf("SoftLIFRate %.2f\n", soft)
	// Output:
	// LIFRate     [0.00 0.00 20.02 63.04 243.47]
	// SoftLIFRate [1.72 11.38 20.03 63.04 243.47]
}

// A trainer backpropagates through a rate neuron with its derivative:
// dLoss/dJ = f'(J) * dLoss/dout.
func ExampleDifferentiable() {
	J := []float64{-1, 0, 1, 2}
	for _, typ := range []neurons.Differentiable{
		neurons.NewRectifiedLinear(), neurons.NewLIFRate(), neurons.NewSoftLIFRate(), neurons.NewTanh(),
	} {
		d := make([]float64, len(J))
		if err := typ.Deriv(d, J); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-16s f'(J) = %.2f\n", typ.Name(), d)
	}
	// Output:
	// RectifiedLinear  f'(J) = [0.00 0.00 1.00 1.00]
	// LIFRate          f'(J) = [0.00 0.00 0.00 39.74]
	// SoftLIFRate      f'(J) = [7.99 13.90 21.60 27.11]
	// Tanh             f'(J) = [167.99 400.00 167.99 28.26]
}

// The rate/spike swap: train with each spiking type's differentiable rate
// counterpart, then run the spiking network.
func ExampleRateCounterpart() {
	for _, typ := range []neurons.Type{
		neurons.NewLIF(),
		neurons.NewSpikingRectifiedLinear(),
		neurons.RegularSpiking{Base: neurons.NewLIFRate(), Amplitude: 0.5},
		neurons.NewAdaptiveLIF(),
	} {
		rate, err := neurons.RateCounterpart(typ, 0.02)
		if errors.Is(err, neurons.ErrNotDifferentiable) {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%v → %v\n", typ, rate)
	}
	// Output:
	// LIF() → SoftLIFRate(sigma=0.02)
	// SpikingRectifiedLinear() → RectifiedLinear()
	// RegularSpiking(LIFRate(), amplitude=0.5) → LIFRate(amplitude=0.5)
	// neurons: AdaptiveLIF has no differentiable rate counterpart
}
