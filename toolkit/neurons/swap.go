package neurons

import (
	"errors"
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// ErrNotDifferentiable is the error, for errors.Is, of a neuron type that
// has no differentiable rate counterpart (see [RateCounterpart]).
var ErrNotDifferentiable = errors.New("neurons: no differentiable rate counterpart")

// NotDifferentiableError reports the type, by Name, that [RateCounterpart]
// cannot swap. errors.Is(err, ErrNotDifferentiable) holds for it.
type NotDifferentiableError struct {
	Name string
}

func (e *NotDifferentiableError) Error() string {
	return fmt.Sprintf("neurons: %s has no differentiable rate counterpart", e.Name)
}

// Is reports whether target is ErrNotDifferentiable.
func (e *NotDifferentiableError) Is(target error) bool { return target == ErrNotDifferentiable }

// RateCounterpart returns the differentiable rate type that stands in for t
// while training (NengoDL's rate/spike swap: the trainer differentiates the
// rate type and runs the spiking one at inference):
//
//   - LIF → SoftLIFRate{Sigma: sigma} with LIF's TauRC, TauRef and
//     Amplitude when sigma > 0, else (sigma == 0) LIFRate with them;
//     MinVoltage does not matter for rates.
//   - SpikingRectifiedLinear → RectifiedLinear with the same Amplitude.
//   - RegularSpiking, PoissonSpiking, StochasticSpiking → the counterpart
//     of their Base (found the same way), with the wrapper's Amplitude
//     folded in: a wrapper emits Amplitude/dt per spike, so its mean output
//     is Amplitude times the base rate. It multiplies the Amplitude of
//     LIFRate, SoftLIFRate and RectifiedLinear and divides the TauRef of
//     Sigmoid and Tanh (whose rate is (1/TauRef)*f(J)); the counterpart's
//     Step is then the wrapper's mean output, though for Sigmoid and Tanh
//     its GainBias no longer matches the wrapper's. A Differentiable type
//     from outside this package can be folded only with Amplitude 1.
//   - A non-spiking type that already implements [Differentiable] → itself
//     (LIFRate stays LIFRate whatever sigma).
//   - AdaptiveLIF, AdaptiveLIFRate, Izhikevich and anything else → a
//     *NotDifferentiableError, "neurons: <Name> has no differentiable rate
//     counterpart", for which errors.Is(err, ErrNotDifferentiable) holds.
//
// Pointers to this package's types are treated as their values. t must be
// valid (Validate); sigma must be finite and non-negative. Otherwise the
// error is a *validate.Error.
func RateCounterpart(t Type, sigma float64) (Type, error) {
	if math.IsNaN(sigma) || math.IsInf(sigma, 0) || sigma < 0 {
		return nil, &validate.Error{Pkg: "neurons", Object: "RateCounterpart", Field: "sigma", Value: sigma,
			Rule: "must be non-negative and finite (0 selects LIFRate for LIF)"}
	}
	t, err := derefType(t)
	if err != nil {
		return nil, err
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	switch v := t.(type) {
	case LIF:
		if sigma > 0 {
			return SoftLIFRate{Sigma: sigma, TauRC: v.TauRC, TauRef: v.TauRef, Amplitude: v.Amplitude}, nil
		}
		return LIFRate{TauRC: v.TauRC, TauRef: v.TauRef, Amplitude: v.Amplitude}, nil
	case SpikingRectifiedLinear:
		return RectifiedLinear{Amplitude: v.Amplitude}, nil
	case RegularSpiking:
		return wrapperCounterpart(v.Name(), v.Base, v.Amplitude, sigma)
	case PoissonSpiking:
		return wrapperCounterpart(v.Name(), v.Base, v.Amplitude, sigma)
	case StochasticSpiking:
		return wrapperCounterpart(v.Name(), v.Base, v.Amplitude, sigma)
	}
	if d, ok := t.(Differentiable); ok && !t.Spiking() {
		return d, nil
	}
	return nil, &NotDifferentiableError{Name: t.Name()}
}

// derefType turns a pointer to one of this package's types into its value.
func derefType(t Type) (Type, error) {
	if t == nil {
		return nil, &validate.Error{Pkg: "neurons", Object: "RateCounterpart", Field: "t", Value: nil, Rule: "must be a neuron type"}
	}
	var v Type
	switch p := t.(type) {
	case *LIF:
		if p != nil {
			v = *p
		}
	case *LIFRate:
		if p != nil {
			v = *p
		}
	case *SoftLIFRate:
		if p != nil {
			v = *p
		}
	case *AdaptiveLIF:
		if p != nil {
			v = *p
		}
	case *AdaptiveLIFRate:
		if p != nil {
			v = *p
		}
	case *RectifiedLinear:
		if p != nil {
			v = *p
		}
	case *SpikingRectifiedLinear:
		if p != nil {
			v = *p
		}
	case *Sigmoid:
		if p != nil {
			v = *p
		}
	case *Tanh:
		if p != nil {
			v = *p
		}
	case *Izhikevich:
		if p != nil {
			v = *p
		}
	case *RegularSpiking:
		if p != nil {
			v = *p
		}
	case *PoissonSpiking:
		if p != nil {
			v = *p
		}
	case *StochasticSpiking:
		if p != nil {
			v = *p
		}
	default:
		return t, nil
	}
	if v == nil {
		return nil, &validate.Error{Pkg: "neurons", Object: "RateCounterpart", Field: "t", Value: fmt.Sprintf("(%T)(nil)", t), Rule: "must be a neuron type"}
	}
	return v, nil
}

// wrapperCounterpart swaps a rates-to-spikes wrapper's base and folds in
// the wrapper's amplitude.
func wrapperCounterpart(obj string, base Type, amplitude, sigma float64) (Type, error) {
	c, err := RateCounterpart(base, sigma)
	if err != nil {
		return nil, err
	}
	if amplitude == 1 {
		return c, nil
	}
	var folded Type
	switch v := c.(type) {
	case LIFRate:
		v.Amplitude *= amplitude
		folded = v
	case SoftLIFRate:
		v.Amplitude *= amplitude
		folded = v
	case RectifiedLinear:
		v.Amplitude *= amplitude
		folded = v
	case Sigmoid:
		v.TauRef /= amplitude
		folded = v
	case Tanh:
		v.TauRef /= amplitude
		folded = v
	}
	if folded != nil {
		if err := folded.Validate(); err != nil {
			return nil, &validate.Error{Pkg: "neurons", Object: obj, Field: "Amplitude", Value: amplitude,
				Rule: fmt.Sprintf("folded into %s gives invalid parameters: %v", c.Name(), err)}
		}
		return folded, nil
	}
	return nil, &validate.Error{Pkg: "neurons", Object: obj, Field: "Amplitude", Value: amplitude,
		Rule: fmt.Sprintf("cannot be folded into the base type's counterpart %s (only amplitude 1 can be, for types outside this package)", c.Name())}
}
