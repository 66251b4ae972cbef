package neurons

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// RegularSpiking turns a rate type into a spiking one with regular
// inter-spike intervals (nengo.RegularSpiking; Voelker, Rasmussen &
// Eliasmith 2020, arXiv:2002.03553): the base type's rate r is integrated,
// voltage += dt*r, and every whole unit of voltage is a spike.
//
// Its state is Names {"voltage", <the base type's names>…, "rate_out"}:
// voltage starts uniform in [0, 1); rate_out holds the base type's output
// of the last step (Nengo's probeable "rate_out").
type RegularSpiking struct {
	Base      Type    // the rate type, e.g. NewLIFRate(); must not itself be a wrapper
	Amplitude float64 // spike amplitude, > 0; Nengo default 1
}

// PoissonSpiking turns a rate type into a spiking one with Poisson
// statistics (nengo.PoissonSpiking): each step emits k ~ Poisson(|r|*dt)
// spikes, with the sign of r for types with negative rates.
//
// Its state is Names {<the base type's names>…, "rate_out"}.
type PoissonSpiking struct {
	Base      Type
	Amplitude float64 // default 1
}

// StochasticSpiking turns a rate type into a spiking one by stochastic
// rounding (nengo.StochasticSpiking): with e = |r|*dt = q + f (integer q,
// fraction f), each step emits q+1 spikes with probability f and q
// otherwise, with the sign of r for types with negative rates.
//
// Its state is Names {<the base type's names>…, "rate_out"}.
type StochasticSpiking struct {
	Base      Type
	Amplitude float64 // default 1
}

// NewRegularSpiking wraps base with Nengo's default amplitude 1.
func NewRegularSpiking(base Type) RegularSpiking { return RegularSpiking{Base: base, Amplitude: 1} }

// NewPoissonSpiking wraps base with Nengo's default amplitude 1.
func NewPoissonSpiking(base Type) PoissonSpiking { return PoissonSpiking{Base: base, Amplitude: 1} }

// NewStochasticSpiking wraps base with Nengo's default amplitude 1.
func NewStochasticSpiking(base Type) StochasticSpiking {
	return StochasticSpiking{Base: base, Amplitude: 1}
}

// validateWrapper checks the rules Nengo's RatesToSpikesNeuronType applies:
// a valid base type whose state names do not overlap the wrapper's own, and
// a positive amplitude. Nested wrappers are rejected (Nengo would step the
// inner wrapper on currents instead of rates). A spiking base is allowed,
// as in Nengo (which only warns).
func validateWrapper(obj string, base Type, amplitude float64, own []string) error {
	if err := checkWrapper(obj, base, amplitude); err != nil {
		return err
	}
	if err := base.Validate(); err != nil {
		return err
	}
	bs, err := base.State(0, nil)
	if err != nil {
		return err
	}
	for _, name := range bs.Names {
		if name == "rate_out" || contains(own, name) {
			return &validate.Error{Pkg: "neurons", Object: obj, Field: "Base", Value: base.Name(),
				Rule: fmt.Sprintf("has a state variable %q that overlaps the wrapper's own", name)}
		}
	}
	return nil
}

// checkWrapper is the allocation-free part of validateWrapper, run by Step
// (the base type's Step validates the base's parameters).
func checkWrapper(obj string, base Type, amplitude float64) error {
	if base == nil {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "Base", Value: nil, Rule: "must be a neuron type (e.g. NewLIFRate())"}
	}
	switch base.(type) {
	case RegularSpiking, PoissonSpiking, StochasticSpiking, *RegularSpiking, *PoissonSpiking, *StochasticSpiking:
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "Base", Value: base.Name(), Rule: "must be a rate type, not another rates-to-spikes wrapper"}
	}
	return checkPositive(obj, "Amplitude", amplitude)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wrapperState is {own…, base…, "rate_out"}.
func wrapperState(obj string, base Type, n int, rng *rand.Rand, own []string, uniform ...string) (State, error) {
	s, err := newState(obj, n, rng, own, uniform...)
	if err != nil {
		return State{}, err
	}
	bs, err := base.State(n, rng)
	if err != nil {
		return State{}, err
	}
	s.Names = append(append(s.Names, bs.Names...), "rate_out")
	s.Vars = append(append(s.Vars, bs.Vars...), make([]float64, n))
	return s, nil
}

// stepBase checks s's layout {own…, base…, "rate_out"} and steps the base
// type from J into rate_out, as the first of the two SimNeurons operators
// Nengo's builder makes for a rates-to-spikes type.
func stepBase(obj string, base Type, dt float64, J, out []float64, s State, own []string, rng *rand.Rand) ([]float64, error) {
	if err := checkStep(obj, dt, J, out); err != nil {
		return nil, err
	}
	k := len(s.Vars)
	if k < len(own)+1 || len(s.Names) != k || s.Names[k-1] != "rate_out" {
		return nil, &validate.Error{Pkg: "neurons", Object: obj, Field: "State.Names", Value: s.Names,
			Rule: fmt.Sprintf("must be %q, the base type's names, \"rate_out\" (make it with %s.State)", own, obj)}
	}
	if err := checkState(obj, State{Names: s.Names[:len(own)], Vars: s.Vars[:len(own)]}, own, len(J)); err != nil {
		return nil, err
	}
	rate := s.Vars[k-1]
	if len(rate) != len(J) {
		return nil, &validate.Error{Pkg: "neurons", Object: obj, Field: "len(State.rate_out)", Value: len(rate), Rule: fmt.Sprintf("must equal len(J) = %d", len(J))}
	}
	bs := State{Names: s.Names[len(own) : k-1], Vars: s.Vars[len(own) : k-1]}
	if err := base.Step(dt, J, rate, bs, rng); err != nil {
		return nil, err
	}
	return rate, nil
}

// --- RegularSpiking --------------------------------------------------------------

// Name returns "RegularSpiking".
func (RegularSpiking) Name() string { return "RegularSpiking" }

// Spiking returns true.
func (RegularSpiking) Spiking() bool { return true }

// Negative returns the base type's Negative (false if Base is nil).
func (t RegularSpiking) Negative() bool { return t.Base != nil && t.Base.Negative() }

// String returns a Nengo-style description.
func (t RegularSpiking) String() string { return wrapperString("RegularSpiking", t.Base, t.Amplitude) }

// Validate checks Base and Amplitude.
func (t RegularSpiking) Validate() error {
	return validateWrapper("RegularSpiking", t.Base, t.Amplitude, voltageNames)
}

// GainBias implements Type with the base type's GainBias.
func (t RegularSpiking) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return t.Base.GainBias(maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with the base type's MaxRatesIntercepts.
func (t RegularSpiking) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return t.Base.MaxRatesIntercepts(gain, bias)
}

// Rates implements Type with the base type's Rates.
func (t RegularSpiking) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return t.Base.Rates(dst, x, gain, bias)
}

// State returns {"voltage" ~ U[0, 1), base state…, "rate_out" = 0}.
func (t RegularSpiking) State(n int, rng *rand.Rand) (State, error) {
	if err := t.Validate(); err != nil {
		return State{}, err
	}
	return wrapperState("RegularSpiking", t.Base, n, rng, voltageNames, "voltage")
}

// Step implements Type: the base type's Step from J into rate_out, then
// nengo.RegularSpiking.step on the rate r:
//
//	voltage += dt*r;  n = floor(voltage)
//	out = (amplitude/dt)*n;  voltage -= n
//
// (negative rates give negative spikes).
func (t RegularSpiking) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := checkWrapper("RegularSpiking", t.Base, t.Amplitude); err != nil {
		return err
	}
	rate, err := stepBase("RegularSpiking", t.Base, dt, J, out, s, voltageNames, rng)
	if err != nil {
		return err
	}
	v := s.Vars[0]
	spike := t.Amplitude / dt
	for i, r := range rate {
		x := v[i] + float64(dt*r)
		n := math.Floor(x)
		out[i] = spike * n
		v[i] = x - n
	}
	return nil
}

// --- PoissonSpiking --------------------------------------------------------------

// Name returns "PoissonSpiking".
func (PoissonSpiking) Name() string { return "PoissonSpiking" }

// Spiking returns true.
func (PoissonSpiking) Spiking() bool { return true }

// Negative returns the base type's Negative (false if Base is nil).
func (t PoissonSpiking) Negative() bool { return t.Base != nil && t.Base.Negative() }

// String returns a Nengo-style description.
func (t PoissonSpiking) String() string { return wrapperString("PoissonSpiking", t.Base, t.Amplitude) }

// Validate checks Base and Amplitude.
func (t PoissonSpiking) Validate() error {
	return validateWrapper("PoissonSpiking", t.Base, t.Amplitude, nil)
}

// GainBias implements Type with the base type's GainBias.
func (t PoissonSpiking) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return t.Base.GainBias(maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with the base type's MaxRatesIntercepts.
func (t PoissonSpiking) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return t.Base.MaxRatesIntercepts(gain, bias)
}

// Rates implements Type with the base type's Rates.
func (t PoissonSpiking) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return t.Base.Rates(dst, x, gain, bias)
}

// State returns {base state…, "rate_out" = 0}.
func (t PoissonSpiking) State(n int, rng *rand.Rand) (State, error) {
	if err := t.Validate(); err != nil {
		return State{}, err
	}
	return wrapperState("PoissonSpiking", t.Base, n, rng, nil)
}

// Step implements Type: the base type's Step from J into rate_out, then
// nengo.PoissonSpiking.step: out = (amplitude/dt)*Poisson(|r|*dt)*sign(r)
// (r itself for non-negative types). rng must not be nil. A negative rate
// of a non-negative base type, or a NaN rate, is an error (NumPy raises).
func (t PoissonSpiking) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := checkWrapper("PoissonSpiking", t.Base, t.Amplitude); err != nil {
		return err
	}
	if rng == nil {
		return &validate.Error{Pkg: "neurons", Object: "PoissonSpiking", Field: "Step(rng)", Value: nil, Rule: "must be a random source"}
	}
	rate, err := stepBase("PoissonSpiking", t.Base, dt, J, out, s, nil, rng)
	if err != nil {
		return err
	}
	negative := t.Base.Negative()
	spike := t.Amplitude / dt
	for i, r := range rate {
		lam, sign := r*dt, 1.0
		if negative {
			lam, sign = math.Abs(r)*dt, sgn(r)
		}
		if !(lam >= 0) || math.IsInf(lam, 1) {
			return &validate.Error{Pkg: "neurons", Object: "PoissonSpiking", Field: fmt.Sprintf("rate_out[%d]", i), Value: r,
				Rule: "the base type's rate must be non-negative and finite"}
		}
		out[i] = spike * float64(poisson(rng, lam)) * sign
	}
	return nil
}

// --- StochasticSpiking -----------------------------------------------------------

// Name returns "StochasticSpiking".
func (StochasticSpiking) Name() string { return "StochasticSpiking" }

// Spiking returns true.
func (StochasticSpiking) Spiking() bool { return true }

// Negative returns the base type's Negative (false if Base is nil).
func (t StochasticSpiking) Negative() bool { return t.Base != nil && t.Base.Negative() }

// String returns a Nengo-style description.
func (t StochasticSpiking) String() string {
	return wrapperString("StochasticSpiking", t.Base, t.Amplitude)
}

// Validate checks Base and Amplitude.
func (t StochasticSpiking) Validate() error {
	return validateWrapper("StochasticSpiking", t.Base, t.Amplitude, nil)
}

// GainBias implements Type with the base type's GainBias.
func (t StochasticSpiking) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return t.Base.GainBias(maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with the base type's MaxRatesIntercepts.
func (t StochasticSpiking) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return t.Base.MaxRatesIntercepts(gain, bias)
}

// Rates implements Type with the base type's Rates.
func (t StochasticSpiking) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return t.Base.Rates(dst, x, gain, bias)
}

// State returns {base state…, "rate_out" = 0}.
func (t StochasticSpiking) State(n int, rng *rand.Rand) (State, error) {
	if err := t.Validate(); err != nil {
		return State{}, err
	}
	return wrapperState("StochasticSpiking", t.Base, n, rng, nil)
}

// Step implements Type: the base type's Step from J into rate_out, then
// nengo.StochasticSpiking.step: with modf(|r|*dt) = (f, q), emit q spikes
// plus one more if U[0, 1) < f, times sign(r) for negative types.
// rng must not be nil.
func (t StochasticSpiking) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := checkWrapper("StochasticSpiking", t.Base, t.Amplitude); err != nil {
		return err
	}
	if rng == nil {
		return &validate.Error{Pkg: "neurons", Object: "StochasticSpiking", Field: "Step(rng)", Value: nil, Rule: "must be a random source"}
	}
	rate, err := stepBase("StochasticSpiking", t.Base, dt, J, out, s, nil, rng)
	if err != nil {
		return err
	}
	negative := t.Base.Negative()
	spike := t.Amplitude / dt
	for i, r := range rate {
		e, sign := dt*r, 1.0
		if negative {
			e, sign = dt*math.Abs(r), sgn(r)
		}
		q, f := math.Modf(e)
		if rng.Float64() < f {
			q++
		}
		out[i] = spike * q * sign
	}
	return nil
}

// sgn is numpy.sign: -1, 0 or 1 (NaN for NaN).
func sgn(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x // ±0 or NaN
}

func wrapperString(name string, base Type, amplitude float64) string {
	b := "<nil>"
	if s, ok := base.(fmt.Stringer); ok {
		b = s.String()
	} else if base != nil {
		b = base.Name()
	}
	if amplitude == 1 {
		return fmt.Sprintf("%s(%s)", name, b)
	}
	return fmt.Sprintf("%s(%s, amplitude=%v)", name, b, amplitude)
}

// poisson draws from Poisson(lam), lam >= 0 finite, the way NumPy's legacy
// RandomState.poisson does (the distribution, not the bits): Knuth's
// multiplication method for lam < 10 and Hörmann's transformed rejection
// with squeeze, PTRS (W. Hörmann, "The transformed rejection method for
// generating Poisson random variables", Insurance: Mathematics and
// Economics 12, 1993), otherwise. It does not allocate.
func poisson(rng *rand.Rand, lam float64) int64 {
	if lam == 0 {
		return 0
	}
	if lam < 10 {
		limit := math.Exp(-lam)
		var k int64
		p := rng.Float64()
		for p > limit {
			k++
			p *= rng.Float64()
		}
		return k
	}
	slam := math.Sqrt(lam)
	logLam := math.Log(lam)
	b := 0.931 + 2.53*slam
	a := -0.059 + 0.02483*b
	invAlpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := rng.Float64() - 0.5
		v := rng.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + lam + 0.43)
		if us >= 0.07 && v <= vr {
			return int64(k)
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		lg, _ := math.Lgamma(k + 1)
		if math.Log(v)+math.Log(invAlpha)-math.Log(a/(us*us)+b) <= -lam+k*logLam-lg {
			return int64(k)
		}
	}
}
