package neurons

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// SoftLIFRate is the LIF rate curve with a smoothed threshold, NengoDL's
// SoftLIFRate (Hunsberger & Eliasmith 2015, "Spiking deep networks with LIF
// neurons", arXiv:1510.08829). With j = J - 1 and the softplus
// p = sigma*log1p(exp(j/sigma)),
//
//	rate = amplitude / (tau_ref + tau_rc*log1p(1/p))
//
// where p > 0, else 0. Unlike LIFRate's, its derivative is continuous (it
// is smooth everywhere), so it stands in for LIF while training; as
// Sigma → 0 it tends to LIFRate. It has no state.
//
// The softplus and log1p(1/p) are evaluated stably: for large j/sigma
// p = j exactly, and for very negative j/sigma log p = log(sigma) + j/sigma
// is used instead of p itself, so the rate is the formula's tiny positive
// value (about amplitude*sigma/(tau_rc*|j|)) rather than 0 even where p
// underflows. Only J = -Inf gives exactly 0; NaN propagates.
type SoftLIFRate struct {
	Sigma     float64 // smoothing of the threshold (in units of J), > 0; NengoDL default 1
	TauRC     float64 // membrane RC time constant (s), > 0; default 0.02
	TauRef    float64 // absolute refractory period (s), >= 0; default 0.002
	Amplitude float64 // output scale, > 0; default 1
}

// NewSoftLIFRate returns SoftLIFRate with NengoDL's defaults (Sigma 1,
// TauRC 0.02, TauRef 0.002, Amplitude 1).
func NewSoftLIFRate() SoftLIFRate {
	return SoftLIFRate{Sigma: 1, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}
}

var _ Differentiable = SoftLIFRate{}

// softLIF returns, for j = J - 1 and x = j/sigma, the smoothed current
// p = sigma*softplus(x), q = log1p(1/p) and w = sigmoid(x)/p = (dp/dj)/p,
// all evaluated without overflow or catastrophic cancellation (also where p
// itself underflows).
func softLIF(J, sigma float64) (p, q, w float64) {
	j := J - 1
	x := j / sigma
	switch {
	case math.IsNaN(x):
		return x, x, x
	case x > 36:
		// softplus(x) = x + log1p(exp(-x)), i.e. p = j to double precision
		e := math.Exp(-x)
		p = j + sigma*math.Log1p(e)
		w = 1 / ((1 + e) * p)
	case x > -36:
		e := math.Exp(x)
		sp := math.Log1p(e)
		p = sigma * sp
		w = e / ((1 + e) * sp) / sigma
	default:
		// softplus(x) = exp(x)*(1 - exp(x)/2 + …), so log p = log(sigma) + x
		// and sigmoid(x)/p = 1/sigma to double precision
		p = sigma * math.Exp(x)
		w = 1 / sigma
		if p < 1e-300 {
			// 1/p would overflow: log1p(1/p) = log1p(p) - log(p)
			return p, math.Log1p(p) - (math.Log(sigma) + x), w
		}
	}
	// log1p(1/p) is accurate for every p whose reciprocal is finite (for
	// small p it is log(1/p) to double precision)
	q = math.Log1p(1 / p)
	return p, q, w
}

// softLIFRate is SoftLIFRate.step for one current.
func softLIFRate(J, sigma, tauRC, tauRef, amplitude float64) float64 {
	if math.IsInf(J, -1) {
		return 0
	}
	_, q, _ := softLIF(J, sigma)
	return amplitude / (tauRef + tauRC*q)
}

// softLIFDeriv is d rate/dJ = amplitude*tau_rc*w / ((1 + p)*(tau_ref + tau_rc*q)^2)
// with w = sigmoid(j/sigma)/p: the chain rule through dq/dp = -1/(p*(1 + p))
// and dp/dj = sigmoid(j/sigma).
func softLIFDeriv(J, sigma, tauRC, tauRef, amplitude float64) float64 {
	if math.IsInf(J, -1) {
		return 0
	}
	p, q, w := softLIF(J, sigma)
	d := tauRef + tauRC*q
	return amplitude * tauRC * w / ((1 + p) * d * d)
}

// softLIFDerivAt is softLIFDeriv with shortcuts far from the threshold
// (|j/σ| > 36), where the softplus is j or σ·e^(j/σ) to double precision,
// so that the derivative needs no exp and at most one log (the tails hold
// most currents of a layer trained with a small σ):
//
//	j/σ > 36:  p = j, sigmoid = 1:  f' = a·τ_rc / (j·(1+j)·d²), q = log1p(1/j)
//	j/σ < −36: p = σe^(j/σ) < 3e-16·σ, q = −log σ − j/σ:  f' = a·τ_rc / (σ·d²)
//
// with d = τ_ref + τ_rc·q (relative differences to softLIFDeriv below
// 1e-13, tested). logSigma is log(sigma).
func softLIFDerivAt(cur, sigma, tauRC, tauRef, amplitude, logSigma float64) float64 {
	j := cur - 1
	x := j / sigma
	switch {
	case x > 36:
		d := tauRef + tauRC*math.Log1p(1/j)
		return amplitude * tauRC / (j * (1 + j) * d * d)
	case x < -36:
		d := tauRef + tauRC*(-logSigma-x)
		return amplitude * tauRC / (sigma * d * d)
	}
	return softLIFDeriv(cur, sigma, tauRC, tauRef, amplitude)
}

// Name returns "SoftLIFRate".
func (SoftLIFRate) Name() string { return "SoftLIFRate" }

// Spiking returns false.
func (SoftLIFRate) Spiking() bool { return false }

// Negative returns false.
func (SoftLIFRate) Negative() bool { return false }

// String returns a NengoDL-style description listing non-default parameters.
func (t SoftLIFRate) String() string {
	return repr("SoftLIFRate", "sigma", t.Sigma, 1.0, "tau_rc", t.TauRC, 0.02, "tau_ref", t.TauRef, 0.002,
		"amplitude", t.Amplitude, 1.0)
}

// Validate checks Sigma > 0 and LIFRate's ranges (TauRC > 0, TauRef >= 0,
// Amplitude > 0).
func (t SoftLIFRate) Validate() error {
	if err := checkPositive("SoftLIFRate", "Sigma", t.Sigma); err != nil {
		return err
	}
	return validateLIFRate("SoftLIFRate", t.TauRC, t.TauRef, t.Amplitude)
}

// GainBias implements Type with LIFRate's closed form (as NengoDL's
// SoftLIFRate inherits it): the smoothing is ignored.
func (t SoftLIFRate) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifGainBias("SoftLIFRate", t.TauRC, t.TauRef, maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with LIFRate's closed form.
func (t SoftLIFRate) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifMaxRatesIntercepts("SoftLIFRate", t.TauRC, t.TauRef, gain, bias)
}

// Rates implements Type: the smoothed LIF curve of gain*x + bias.
func (t SoftLIFRate) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkRates("SoftLIFRate", dst, x, gain, bias); err != nil {
		return err
	}
	currents(dst, x, gain, bias)
	for k, j := range dst {
		dst[k] = softLIFRate(j, t.Sigma, t.TauRC, t.TauRef, t.Amplitude)
	}
	return nil
}

// State returns an empty State: SoftLIFRate has no state variables.
func (t SoftLIFRate) State(n int, rng *rand.Rand) (State, error) {
	return newState("SoftLIFRate", n, rng, nil)
}

// Step writes the smoothed LIF rate of J to out.
func (t SoftLIFRate) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("SoftLIFRate", dt, J, out); err != nil {
		return err
	}
	if err := checkState("SoftLIFRate", s, nil, len(J)); err != nil {
		return err
	}
	for i, j := range J {
		out[i] = softLIFRate(j, t.Sigma, t.TauRC, t.TauRef, t.Amplitude)
	}
	return nil
}

// Deriv implements Differentiable: with p, q as in the type's
// documentation, f'(J) = amplitude*tau_rc*sigmoid(j/sigma) /
// (p*(1 + p)*(tau_ref + tau_rc*q)^2): positive for finite J (short of
// underflow far from the threshold) and continuous, unlike LIFRate's.
func (t SoftLIFRate) Deriv(dst, J []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkDeriv("SoftLIFRate", dst, J); err != nil {
		return err
	}
	logSigma := math.Log(t.Sigma)
	for i, cur := range J {
		dst[i] = softLIFDerivAt(cur, t.Sigma, t.TauRC, t.TauRef, t.Amplitude, logSigma)
	}
	return nil
}

// RateDeriv writes the rate f(J) to out and its derivative f'(J) to d in
// one pass (one evaluation of the softplus per current), for trainers
// that need both; it implements RateDeriver.
func (t SoftLIFRate) RateDeriv(J, out, d []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if len(out) != len(J) || len(d) != len(J) {
		return &validate.Error{Pkg: "neurons", Object: "SoftLIFRate", Field: "len(out), len(d)", Value: fmt.Sprintf("%d, %d", len(out), len(d)), Rule: fmt.Sprintf("must equal len(J) = %d", len(J))}
	}
	logSigma := math.Log(t.Sigma)
	for i, j := range J {
		if math.IsInf(j, -1) {
			out[i], d[i] = 0, 0
			continue
		}
		p, q, w := softLIF(j, t.Sigma)
		den := t.TauRef + t.TauRC*q
		out[i] = t.Amplitude / den
		if x := (j - 1) / t.Sigma; x > 36 || x < -36 {
			// the tails as Deriv computes them (bit-identical results)
			d[i] = softLIFDerivAt(j, t.Sigma, t.TauRC, t.TauRef, t.Amplitude, logSigma)
			continue
		}
		d[i] = t.Amplitude * t.TauRC * w / ((1 + p) * den * den)
	}
	return nil
}
