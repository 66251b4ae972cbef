package neurons

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// Differentiable is a rate neuron type whose output is a pointwise function
// of its input current, out = f(J); Deriv writes f'(J) into dst (same length as J).
//
// In this package LIFRate, SoftLIFRate, RectifiedLinear, Sigmoid and Tanh
// implement it; stateful rate types (AdaptiveLIFRate) and spiking types do
// not (see [RateCounterpart] for the rate type a trainer uses in their
// place). Deriv validates the parameters and the lengths, does not
// allocate and keeps no reference to its arguments. At a kink (J = 0 for
// RectifiedLinear, J = 1 for LIFRate) it writes the derivative from the
// left, 0; NaN currents give NaN.
type Differentiable interface {
	Type
	Deriv(dst, J []float64) error
}

// Compile-time checks.
var (
	_ Differentiable = LIFRate{}
	_ Differentiable = RectifiedLinear{}
	_ Differentiable = Sigmoid{}
	_ Differentiable = Tanh{}
)

func checkDeriv(obj string, dst, J []float64) error {
	if len(dst) != len(J) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "len(dst)", Value: len(dst), Rule: fmt.Sprintf("must equal len(J) = %d", len(J))}
	}
	return nil
}

// lifDeriv is the derivative of lifRate: with j = J - 1 > 0 and
// D = tau_ref + tau_rc*log1p(1/j),
// d/dJ amplitude/D = amplitude*tau_rc / (D^2 * j*(j + 1)); 0 for j <= 0.
// It grows without bound as J → 1+ (the LIF curve is vertical there).
func lifDeriv(J, tauRC, tauRef, amplitude float64) float64 {
	j := J - 1
	if j > 0 {
		d := tauRef + tauRC*math.Log1p(1/j)
		return amplitude * tauRC / (d * d * j * (j + 1))
	}
	if math.IsNaN(j) {
		return j
	}
	return 0
}

// Deriv implements Differentiable: f'(J) = amplitude*tau_rc /
// ((tau_ref + tau_rc*log1p(1/j))^2 * j*(j+1)) for j = J - 1 > 0, else 0.
func (t LIFRate) Deriv(dst, J []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkDeriv("LIFRate", dst, J); err != nil {
		return err
	}
	for i, j := range J {
		dst[i] = lifDeriv(j, t.TauRC, t.TauRef, t.Amplitude)
	}
	return nil
}

// Deriv implements Differentiable: f'(J) = amplitude for J > 0, else 0.
func (t RectifiedLinear) Deriv(dst, J []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkDeriv("RectifiedLinear", dst, J); err != nil {
		return err
	}
	for i, j := range J {
		switch {
		case j > 0:
			dst[i] = t.Amplitude
		case math.IsNaN(j):
			dst[i] = j
		default:
			dst[i] = 0
		}
	}
	return nil
}

// Deriv implements Differentiable: f'(J) = (1/tau_ref)*s*(1 - s) with
// s = 1/(1 + exp(-J)), computed as (1/tau_ref)*e/(1 + e)^2 with
// e = exp(-|J|) so that it neither overflows nor cancels.
func (t Sigmoid) Deriv(dst, J []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkDeriv("Sigmoid", dst, J); err != nil {
		return err
	}
	inv := 1 / t.TauRef
	for i, j := range J {
		e := math.Exp(-math.Abs(j))
		dst[i] = inv * e / ((1 + e) * (1 + e))
	}
	return nil
}

// Deriv implements Differentiable: f'(J) = (1/tau_ref)*(1 - tanh(J)^2),
// computed as (1/tau_ref)*4e/(1 + e)^2 with e = exp(-2|J|) (no
// cancellation for large |J|).
func (t Tanh) Deriv(dst, J []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkDeriv("Tanh", dst, J); err != nil {
		return err
	}
	inv := 1 / t.TauRef
	for i, j := range J {
		e := math.Exp(-2 * math.Abs(j))
		dst[i] = inv * 4 * e / ((1 + e) * (1 + e))
	}
	return nil
}

// RateDeriver is a Differentiable type that computes its output and
// derivative together, cheaper than Step then Deriv; RateDeriv must give
// the same values as they do.
type RateDeriver interface {
	Differentiable
	RateDeriv(J, out, d []float64) error
}
