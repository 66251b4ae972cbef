package neurons

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// Sigmoid is a rate model with a logistic response (nengo.Sigmoid):
// rate = (1/tau_ref)/(1 + exp(-J)). Its intercept is the input at which
// the rate is half the maximum 1/tau_ref. It has no state.
type Sigmoid struct {
	TauRef float64 // refractory period (s); the rate saturates at 1/TauRef; > 0; Nengo default 0.0025
}

// Tanh is a rate model with a hyperbolic-tangent response (nengo.Tanh):
// rate = (1/tau_ref)*tanh(J), negative for negative J. It has no state.
type Tanh struct {
	TauRef float64 // refractory period (s), > 0; Nengo default 0.0025
}

// NewSigmoid returns Sigmoid with Nengo's defaults.
func NewSigmoid() Sigmoid { return Sigmoid{TauRef: 0.0025} }

// NewTanh returns Tanh with Nengo's defaults.
func NewTanh() Tanh { return Tanh{TauRef: 0.0025} }

func checkBelowInvTauRef(obj string, maxRates []float64, tauRef float64) error {
	inv := 1 / tauRef
	for i, r := range maxRates {
		if !(r < inv) {
			return &validate.Error{Pkg: "neurons", Object: obj, Field: fmt.Sprintf("max_rates[%d]", i), Value: r,
				Rule: fmt.Sprintf("must be below the inverse refractory period 1/TauRef = %.3f", inv)}
		}
	}
	return nil
}

// --- Sigmoid -------------------------------------------------------------------

// Name returns "Sigmoid".
func (Sigmoid) Name() string { return "Sigmoid" }

// Spiking returns false.
func (Sigmoid) Spiking() bool { return false }

// Negative returns false.
func (Sigmoid) Negative() bool { return false }

// String returns a Nengo-style description listing non-default parameters.
func (t Sigmoid) String() string { return repr("Sigmoid", "tau_ref", t.TauRef, 0.0025) }

// Validate checks TauRef > 0.
func (t Sigmoid) Validate() error { return checkPositive("Sigmoid", "TauRef", t.TauRef) }

// GainBias implements Type (nengo.Sigmoid.gain_bias): with
// inverse = -log(1/(tau_ref*max_rate) - 1), gain = inverse/(1 - intercept)
// and bias = inverse - gain. Max rates must be below 1/TauRef, and above
// half of it for a positive gain.
func (t Sigmoid) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	if err := checkPairs("Sigmoid", "max_rates", "intercepts", maxRates, intercepts); err != nil {
		return nil, nil, err
	}
	if err := checkBelowInvTauRef("Sigmoid", maxRates, t.TauRef); err != nil {
		return nil, nil, err
	}
	inv := 1 / t.TauRef
	gain := make([]float64, len(maxRates))
	bias := make([]float64, len(maxRates))
	for i, r := range maxRates {
		inverse := -math.Log(inv/r - 1)
		gain[i] = inverse / (1 - intercepts[i])
		bias[i] = inverse - gain[i]
		if err := checkGain("Sigmoid", i, gain[i], r, intercepts[i]); err != nil {
			return nil, nil, err
		}
	}
	return gain, bias, nil
}

// MaxRatesIntercepts implements Type (nengo.Sigmoid.max_rates_intercepts):
// inverse = gain + bias, intercept = 1 - inverse/gain,
// max_rate = (1/tau_ref)/(1 + exp(-inverse)).
func (t Sigmoid) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	if err := checkPairs("Sigmoid", "gain", "bias", gain, bias); err != nil {
		return nil, nil, err
	}
	maxRates := make([]float64, len(gain))
	intercepts := make([]float64, len(gain))
	for i, g := range gain {
		if !(g > 0) {
			return nil, nil, &validate.Error{Pkg: "neurons", Object: "Sigmoid", Field: fmt.Sprintf("gain[%d]", i), Value: g, Rule: "must be positive"}
		}
		inverse := g + bias[i]
		intercepts[i] = 1 - inverse/g
		maxRates[i] = (1 / t.TauRef) / (1 + math.Exp(-inverse))
	}
	return maxRates, intercepts, nil
}

// Rates implements Type: (1/tau_ref)/(1 + exp(-(gain*x + bias))).
func (t Sigmoid) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkRates("Sigmoid", dst, x, gain, bias); err != nil {
		return err
	}
	currents(dst, x, gain, bias)
	inv := 1 / t.TauRef
	for k, j := range dst {
		dst[k] = inv / (1 + math.Exp(-j))
	}
	return nil
}

// State returns an empty State.
func (t Sigmoid) State(n int, rng *rand.Rand) (State, error) {
	return newState("Sigmoid", n, rng, nil)
}

// Step writes (1/tau_ref)/(1 + exp(-J)) to out (nengo.Sigmoid.step).
func (t Sigmoid) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("Sigmoid", dt, J, out); err != nil {
		return err
	}
	if err := checkState("Sigmoid", s, nil, len(J)); err != nil {
		return err
	}
	inv := 1 / t.TauRef
	for i, j := range J {
		out[i] = inv / (1 + math.Exp(-j))
	}
	return nil
}

// --- Tanh ----------------------------------------------------------------------

// Name returns "Tanh".
func (Tanh) Name() string { return "Tanh" }

// Spiking returns false.
func (Tanh) Spiking() bool { return false }

// Negative returns true: tanh is odd.
func (Tanh) Negative() bool { return true }

// String returns a Nengo-style description listing non-default parameters.
func (t Tanh) String() string { return repr("Tanh", "tau_ref", t.TauRef, 0.0025) }

// Validate checks TauRef > 0.
func (t Tanh) Validate() error { return checkPositive("Tanh", "TauRef", t.TauRef) }

// GainBias implements Type (nengo.Tanh.gain_bias): with
// inverse = atanh(max_rate*tau_ref), gain = inverse/(1 - intercept) and
// bias = -gain*intercept. Max rates must be below 1/TauRef.
func (t Tanh) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	if err := checkPairs("Tanh", "max_rates", "intercepts", maxRates, intercepts); err != nil {
		return nil, nil, err
	}
	if err := checkBelowInvTauRef("Tanh", maxRates, t.TauRef); err != nil {
		return nil, nil, err
	}
	gain := make([]float64, len(maxRates))
	bias := make([]float64, len(maxRates))
	for i, r := range maxRates {
		inverse := math.Atanh(r * t.TauRef)
		gain[i] = inverse / (1 - intercepts[i])
		bias[i] = -gain[i] * intercepts[i]
		if err := checkGain("Tanh", i, gain[i], r, intercepts[i]); err != nil {
			return nil, nil, err
		}
	}
	return gain, bias, nil
}

// MaxRatesIntercepts implements Type (nengo.Tanh.max_rates_intercepts):
// intercept = -bias/gain, max_rate = (1/tau_ref)*tanh(gain + bias).
func (t Tanh) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	if err := checkPairs("Tanh", "gain", "bias", gain, bias); err != nil {
		return nil, nil, err
	}
	maxRates := make([]float64, len(gain))
	intercepts := make([]float64, len(gain))
	for i, g := range gain {
		if !(g > 0) {
			return nil, nil, &validate.Error{Pkg: "neurons", Object: "Tanh", Field: fmt.Sprintf("gain[%d]", i), Value: g, Rule: "must be positive"}
		}
		intercepts[i] = -bias[i] / g
		maxRates[i] = (1 / t.TauRef) * math.Tanh(g+bias[i])
	}
	return maxRates, intercepts, nil
}

// Rates implements Type: (1/tau_ref)*tanh(gain*x + bias).
func (t Tanh) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkRates("Tanh", dst, x, gain, bias); err != nil {
		return err
	}
	currents(dst, x, gain, bias)
	inv := 1 / t.TauRef
	for k, j := range dst {
		dst[k] = inv * math.Tanh(j)
	}
	return nil
}

// State returns an empty State.
func (t Tanh) State(n int, rng *rand.Rand) (State, error) {
	return newState("Tanh", n, rng, nil)
}

// Step writes (1/tau_ref)*tanh(J) to out (nengo.Tanh.step).
func (t Tanh) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("Tanh", dt, J, out); err != nil {
		return err
	}
	if err := checkState("Tanh", s, nil, len(J)); err != nil {
		return err
	}
	inv := 1 / t.TauRef
	for i, j := range J {
		out[i] = inv * math.Tanh(j)
	}
	return nil
}
