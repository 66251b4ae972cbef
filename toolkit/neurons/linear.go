package neurons

import (
	"fmt"
	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/toolkit/validate"
	"math"
	"math/rand/v2"
)

// RectifiedLinear is the rectified linear rate model
// (nengo.RectifiedLinear): rate = amplitude*max(J, 0). It has no state.
type RectifiedLinear struct {
	Amplitude float64 // output scale, > 0; Nengo default 1
}

// SpikingRectifiedLinear is the spiking rectified linear model
// (nengo.SpikingRectifiedLinear): a non-leaky integrate-and-fire neuron
// with threshold 1 whose long-run rate is max(J, 0). Its state is Names
// {"voltage"}, starting uniform in [0, 1).
type SpikingRectifiedLinear struct {
	Amplitude float64 // spike amplitude, > 0; default 1
}

// NewRectifiedLinear returns RectifiedLinear with Nengo's defaults.
func NewRectifiedLinear() RectifiedLinear { return RectifiedLinear{Amplitude: 1} }

// NewSpikingRectifiedLinear returns SpikingRectifiedLinear with Nengo's defaults.
func NewSpikingRectifiedLinear() SpikingRectifiedLinear { return SpikingRectifiedLinear{Amplitude: 1} }

var voltageNames = []string{"voltage"}

// reluGainBias is nengo.RectifiedLinear.gain_bias: gain =
// max_rate/(1 - intercept), bias = -intercept*gain.
func reluGainBias(obj string, maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := checkPairs(obj, "max_rates", "intercepts", maxRates, intercepts); err != nil {
		return nil, nil, err
	}
	gain := make([]float64, len(maxRates))
	bias := make([]float64, len(maxRates))
	for i, r := range maxRates {
		gain[i] = r / (1 - intercepts[i])
		bias[i] = -intercepts[i] * gain[i]
		if err := checkGain(obj, i, gain[i], r, intercepts[i]); err != nil {
			return nil, nil, err
		}
	}
	return gain, bias, nil
}

// reluMaxRatesIntercepts is nengo.RectifiedLinear.max_rates_intercepts:
// intercept = -bias/gain, max_rate = gain*(1 - intercept).
func reluMaxRatesIntercepts(obj string, gain, bias []float64) ([]float64, []float64, error) {
	if err := checkPairs(obj, "gain", "bias", gain, bias); err != nil {
		return nil, nil, err
	}
	maxRates := make([]float64, len(gain))
	intercepts := make([]float64, len(gain))
	for i, g := range gain {
		if !(g > 0) {
			return nil, nil, &validate.Error{Pkg: "neurons", Object: obj, Field: fmt.Sprintf("gain[%d]", i), Value: g, Rule: "must be positive"}
		}
		intercepts[i] = -bias[i] / g
		maxRates[i] = g * (1 - intercepts[i])
	}
	return maxRates, intercepts, nil
}

func reluRates(obj string, amplitude float64, dst, x, gain, bias []float64) error {
	if err := checkRates(obj, dst, x, gain, bias); err != nil {
		return err
	}
	if n := len(gain); len(x)%n == 0 {
		for r := 0; r < len(x); r += n { // rows of currents: vector code
			vec.GainRelu(dst[r:r+n], x[r:r+n], gain, bias, amplitude)
		}
		return nil
	}
	currents(dst, x, gain, bias)
	for k, j := range dst {
		dst[k] = amplitude * max(0, j)
	}
	return nil
}

// --- RectifiedLinear -----------------------------------------------------------

// Name returns "RectifiedLinear".
func (RectifiedLinear) Name() string { return "RectifiedLinear" }

// Spiking returns false.
func (RectifiedLinear) Spiking() bool { return false }

// Negative returns false.
func (RectifiedLinear) Negative() bool { return false }

// String returns a Nengo-style description listing non-default parameters.
func (t RectifiedLinear) String() string {
	return repr("RectifiedLinear", "amplitude", t.Amplitude, 1.0)
}

// Validate checks Amplitude > 0.
func (t RectifiedLinear) Validate() error {
	return checkPositive("RectifiedLinear", "Amplitude", t.Amplitude)
}

// GainBias implements Type (nengo.RectifiedLinear.gain_bias); intercepts
// must be below 1.
func (t RectifiedLinear) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return reluGainBias("RectifiedLinear", maxRates, intercepts)
}

// MaxRatesIntercepts implements Type (nengo.RectifiedLinear.max_rates_intercepts).
func (t RectifiedLinear) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return reluMaxRatesIntercepts("RectifiedLinear", gain, bias)
}

// Rates implements Type: amplitude*max(gain*x + bias, 0).
func (t RectifiedLinear) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return reluRates("RectifiedLinear", t.Amplitude, dst, x, gain, bias)
}

// State returns an empty State.
func (t RectifiedLinear) State(n int, rng *rand.Rand) (State, error) {
	return newState("RectifiedLinear", n, rng, nil)
}

// Step writes amplitude*max(J, 0) to out (nengo.RectifiedLinear.step).
func (t RectifiedLinear) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("RectifiedLinear", dt, J, out); err != nil {
		return err
	}
	if err := checkState("RectifiedLinear", s, nil, len(J)); err != nil {
		return err
	}
	vec.Relu(out, J, t.Amplitude) // NaN propagates, as in np.maximum
	return nil
}

// --- SpikingRectifiedLinear ------------------------------------------------------

// Name returns "SpikingRectifiedLinear".
func (SpikingRectifiedLinear) Name() string { return "SpikingRectifiedLinear" }

// Spiking returns true.
func (SpikingRectifiedLinear) Spiking() bool { return true }

// Negative returns false.
func (SpikingRectifiedLinear) Negative() bool { return false }

// String returns a Nengo-style description listing non-default parameters.
func (t SpikingRectifiedLinear) String() string {
	return repr("SpikingRectifiedLinear", "amplitude", t.Amplitude, 1.0)
}

// Validate checks Amplitude > 0.
func (t SpikingRectifiedLinear) Validate() error {
	return checkPositive("SpikingRectifiedLinear", "Amplitude", t.Amplitude)
}

// GainBias implements Type with RectifiedLinear's closed form.
func (t SpikingRectifiedLinear) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return reluGainBias("SpikingRectifiedLinear", maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with RectifiedLinear's closed form.
func (t SpikingRectifiedLinear) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return reluMaxRatesIntercepts("SpikingRectifiedLinear", gain, bias)
}

// Rates implements Type with the RectifiedLinear curve (as Nengo does).
func (t SpikingRectifiedLinear) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return reluRates("SpikingRectifiedLinear", t.Amplitude, dst, x, gain, bias)
}

// State returns {"voltage" ~ U[0, 1)}.
func (t SpikingRectifiedLinear) State(n int, rng *rand.Rand) (State, error) {
	return newState("SpikingRectifiedLinear", n, rng, voltageNames, "voltage")
}

// Step implements Type (nengo.SpikingRectifiedLinear.step):
//
//	voltage += max(J, 0)*dt;  n = floor(voltage)
//	out = (amplitude/dt)*n;   voltage -= n
//
// so several spikes per step are emitted as one larger output.
func (t SpikingRectifiedLinear) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("SpikingRectifiedLinear", dt, J, out); err != nil {
		return err
	}
	if err := checkState("SpikingRectifiedLinear", s, voltageNames, len(J)); err != nil {
		return err
	}
	v := s.Vars[0]
	spike := t.Amplitude / dt
	for i, j := range J {
		x := v[i] + float64(max(j, 0)*dt)
		n := math.Floor(x)
		out[i] = spike * n
		v[i] = x - n
	}
	return nil
}
