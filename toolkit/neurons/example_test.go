package neurons_test

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// simulate steps typ for 1 s at dt = 1 ms with constant currents J and
// returns the spike counts (spiking types) or the final rates.
func simulate(typ neurons.Type, J []float64, rng *rand.Rand) []float64 {
	const dt = 0.001
	s, err := typ.State(len(J), rng)
	if err != nil {
		panic(err)
	}
	out := make([]float64, len(J))
	total := make([]float64, len(J))
	for range 1000 {
		if err := typ.Step(dt, J, out, s, rng); err != nil {
			panic(err)
		}
		for i, o := range out {
			if typ.Spiking() {
				total[i] += o * dt
			} else {
				total[i] = o
			}
		}
	}
	return total
}

// Tuning: gains and biases for chosen max rates and intercepts, the rate
// curve, and the spiking model over one second.
func ExampleLIF() {
	lif := neurons.NewLIF()
	maxRates := []float64{100, 200}
	intercepts := []float64{-0.5, 0.25}
	gain, bias, err := lif.GainBias(maxRates, intercepts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("gain %.4f %.4f, bias %.4f %.4f\n", gain[0], gain[1], bias[0], bias[1])

	// currents at x = 1: the neurons fire at their max rates
	J := []float64{gain[0] + bias[0], gain[1] + bias[1]}
	rates := make([]float64, 2)
	_ = lif.Rates(rates, []float64{1, 1}, gain, bias)
	spikes := simulate(lif, J, rand.New(rand.NewPCG(1, 2)))
	fmt.Printf("rate curve %.1f %.1f Hz; spiking model %.0f %.0f spikes in 1 s\n", rates[0], rates[1], spikes[0], spikes[1])
	// Output:
	// gain 1.3555 8.2389, bias 1.6777 -1.0597
	// rate curve 100.0 200.0 Hz; spiking model 100 200 spikes in 1 s
}

func ExampleLIFRate() {
	lif := neurons.NewLIFRate()
	rates := make([]float64, 4)
	// x is [samples][neurons]; one neuron with gain 1 and bias 0, so J = x.
	_ = lif.Rates(rates, []float64{0.5, 1, 2, 10}, []float64{1}, []float64{0})
	fmt.Printf("%.2f\n", rates)
	// Output: [0.00 0.00 63.04 243.47]
}

func ExampleAdaptiveLIF() {
	alif := neurons.NewAdaptiveLIF()
	alif.IncN, alif.TauN = 0.1, 0.1 // strong, fast adaptation
	s, _ := alif.State(1, nil)
	J, out := []float64{3}, []float64{0}
	perWindow := make([]int, 5)
	for k := range 500 {
		_ = alif.Step(0.001, J, out, s, nil)
		if out[0] > 0 {
			perWindow[k/100]++
		}
	}
	fmt.Println("spikes per 100 ms:", perWindow)
	// Output: spikes per 100 ms: [4 2 2 2 2]
}

func ExampleAdaptiveLIFRate() {
	a := neurons.NewAdaptiveLIFRate()
	a.IncN, a.TauN = 0.1, 0.1
	s, _ := a.State(1, nil)
	out := []float64{0}
	for k := range 500 {
		_ = a.Step(0.001, []float64{3}, out, s, nil)
		if k%100 == 0 || k == 499 {
			fmt.Printf("t=%3d ms rate %.1f Hz adaptation %.3f\n", k+1, out[0], s.Var("adaptation")[0])
		}
	}
	// Output:
	// t=  1 ms rate 98.9 Hz adaptation 0.099
	// t=101 ms rate 19.2 Hz adaptation 1.911
	// t=201 ms rate 19.1 Hz adaptation 1.912
	// t=301 ms rate 19.1 Hz adaptation 1.912
	// t=401 ms rate 19.1 Hz adaptation 1.912
	// t=500 ms rate 19.1 Hz adaptation 1.912
}

func ExampleRectifiedLinear() {
	relu := neurons.NewRectifiedLinear()
	gain, bias, _ := relu.GainBias([]float64{100}, []float64{0.5}) // 0 Hz at x = 0.5, 100 Hz at x = 1
	rates := make([]float64, 3)
	_ = relu.Rates(rates, []float64{0, 0.75, 1}, gain, bias)
	fmt.Println(gain, bias, rates)
	// Output: [200] [-100] [0 50 100]
}

func ExampleSpikingRectifiedLinear() {
	fmt.Println(simulate(neurons.NewSpikingRectifiedLinear(), []float64{-5, 20, 250.5}, rand.New(rand.NewPCG(1, 1))))
	// Output: [0 20 251]
}

func ExampleSigmoid() {
	sig := neurons.NewSigmoid() // saturates at 1/TauRef = 400 Hz
	gain, bias, _ := sig.GainBias([]float64{300}, []float64{0})
	rates := make([]float64, 3)
	_ = sig.Rates(rates, []float64{-1, 0, 1}, gain, bias)
	fmt.Printf("%.1f\n", rates) // half of 400 Hz at the intercept
	// Output: [100.0 200.0 300.0]
}

func ExampleTanh() {
	th := neurons.NewTanh()
	rates := make([]float64, 3)
	_ = th.Rates(rates, []float64{-1, 0, 1}, []float64{1}, []float64{0})
	fmt.Printf("%.2f negative=%v\n", rates, th.Negative())
	// Output: [-304.64 0.00 304.64] negative=true
}

func ExampleIzhikevich() {
	for _, c := range []struct {
		name string
		typ  neurons.Izhikevich
	}{
		{"regular spiking", neurons.NewIzhikevich()},
		{"fast spiking", neurons.Izhikevich{TauRecovery: 0.1, Coupling: 0.2, ResetVoltage: -65, ResetRecovery: 8}},
		{"chattering", neurons.Izhikevich{TauRecovery: 0.02, Coupling: 0.2, ResetVoltage: -50, ResetRecovery: 2}},
	} {
		s, _ := c.typ.State(1, nil)
		s.Vars[0][0], s.Vars[1][0] = -65, -13 // start at rest
		out := []float64{0}
		n := 0
		for range 1000 {
			_ = c.typ.Step(0.001, []float64{10}, out, s, nil)
			if out[0] > 0 {
				n++
			}
		}
		fmt.Printf("%s: %d spikes/s at J = 10\n", c.name, n)
	}
	// Output:
	// regular spiking: 22 spikes/s at J = 10
	// fast spiking: 63 spikes/s at J = 10
	// chattering: 77 spikes/s at J = 10
}

func ExampleRegularSpiking() {
	rs := neurons.NewRegularSpiking(neurons.NewLIFRate())
	s, _ := rs.State(1, nil)
	fmt.Println(s.Names)
	spikes := simulate(rs, []float64{3}, nil)
	rate := make([]float64, 1)
	_ = rs.Rates(rate, []float64{3}, []float64{1}, []float64{0})
	fmt.Printf("%.0f spikes in 1 s; LIFRate %.2f Hz\n", spikes[0], rate[0])
	// Output:
	// [voltage rate_out]
	// 99 spikes in 1 s; LIFRate 98.92 Hz
}

func ExamplePoissonSpiking() {
	p := neurons.NewPoissonSpiking(neurons.NewRectifiedLinear())
	J := make([]float64, 1000)
	for i := range J {
		J[i] = 50 // 50 Hz each
	}
	spikes := simulate(p, J, rand.New(rand.NewPCG(1, 2)))
	total := 0.0
	for _, s := range spikes {
		total += s
	}
	fmt.Printf("mean rate %.0f Hz\n", total/1000)
	// Output: mean rate 50 Hz
}

func ExampleStochasticSpiking() {
	p := neurons.NewStochasticSpiking(neurons.NewRectifiedLinear())
	J := make([]float64, 1000)
	for i := range J {
		J[i] = 1500 // 1.5 spikes per step: 1 or 2 each step
	}
	spikes := simulate(p, J, rand.New(rand.NewPCG(1, 2)))
	total := 0.0
	for _, s := range spikes {
		total += s
	}
	fmt.Printf("mean rate %.0f Hz\n", total/1000)
	// Output: mean rate 1499 Hz
}

func ExampleState() {
	lif := neurons.NewLIF()
	s, _ := lif.State(3, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(s.Names, s.Len())
	// Nengo's initial_state: overwrite the values
	copy(s.Var("voltage"), []float64{0, 0.5, 0.99})
	J, out := []float64{2, 2, 2}, make([]float64, 3)
	_ = lif.Step(0.001, J, out, s, nil)
	fmt.Println(out)
	// Output:
	// [voltage refractory_time] 3
	// [0 0 1000]
}

func Example_invalid() {
	lif := neurons.NewLIF()
	lif.TauRef = -0.001
	err := lif.Validate()
	fmt.Println(err)
	var e *validate.Error
	if errors.As(err, &e) {
		fmt.Println(e.Object, e.Field, e.Value)
	}
	_, _, err = neurons.NewLIF().GainBias([]float64{600}, []float64{0})
	fmt.Println(err)
	// Output:
	// neurons: LIF.TauRef = -0.001: must be non-negative and finite
	// LIF TauRef -0.001
	// neurons: LIF.max_rates[0] = 600: must be below the inverse refractory period 1/TauRef = 500.000
}
