package neurons

import (
	"fmt"
	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/toolkit/validate"
	"math"
	"math/rand/v2"
	"strings"
)

// LIFRate is the non-spiking leaky integrate-and-fire model (nengo.LIFRate):
// for J > 1 the rate is amplitude / (tau_ref + tau_rc*log1p(1/(J-1))),
// otherwise 0. It has no state.
type LIFRate struct {
	TauRC     float64 // membrane RC time constant (s), > 0; Nengo default 0.02
	TauRef    float64 // absolute refractory period (s), >= 0; default 0.002
	Amplitude float64 // output scale, > 0; default 1
}

// LIF is the spiking leaky integrate-and-fire model (nengo.LIF). Its state
// is Names {"voltage", "refractory_time"}; voltage starts uniform in
// [0, 1), refractory_time at 0. A spike is an output of Amplitude/dt.
type LIF struct {
	TauRC      float64 // membrane RC time constant (s), > 0; default 0.02
	TauRef     float64 // absolute refractory period (s), >= 0; default 0.002
	MinVoltage float64 // voltage floor, <= 0 (may be -Inf: no floor); default 0
	Amplitude  float64 // spike amplitude, > 0; default 1
}

// AdaptiveLIFRate is LIFRate with an adaptation current n subtracted from
// the input (nengo.AdaptiveLIFRate): tau_n dn/dt = inc_n*rate - n. Its
// state is Names {"adaptation"}, starting at 0.
type AdaptiveLIFRate struct {
	TauN      float64 // adaptation time constant (s), > 0; default 1
	IncN      float64 // adaptation increment, >= 0; default 0.01
	TauRC     float64 // default 0.02
	TauRef    float64 // default 0.002
	Amplitude float64 // default 1
}

// AdaptiveLIF is LIF with an adaptation current n subtracted from the input
// (nengo.AdaptiveLIF; La Camera et al. 2004): n decays with tau_n and grows
// by inc_n*output*dt/tau_n. Its state is Names {"voltage",
// "refractory_time", "adaptation"}.
type AdaptiveLIF struct {
	TauN       float64 // adaptation time constant (s), > 0; default 1
	IncN       float64 // adaptation increment, >= 0; default 0.01
	TauRC      float64 // default 0.02
	TauRef     float64 // default 0.002
	MinVoltage float64 // default 0
	Amplitude  float64 // default 1
}

// NewLIFRate returns LIFRate with Nengo's defaults.
func NewLIFRate() LIFRate { return LIFRate{TauRC: 0.02, TauRef: 0.002, Amplitude: 1} }

// NewLIF returns LIF with Nengo's defaults.
func NewLIF() LIF { return LIF{TauRC: 0.02, TauRef: 0.002, MinVoltage: 0, Amplitude: 1} }

// NewAdaptiveLIFRate returns AdaptiveLIFRate with Nengo's defaults.
func NewAdaptiveLIFRate() AdaptiveLIFRate {
	return AdaptiveLIFRate{TauN: 1, IncN: 0.01, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}
}

// NewAdaptiveLIF returns AdaptiveLIF with Nengo's defaults.
func NewAdaptiveLIF() AdaptiveLIF {
	return AdaptiveLIF{TauN: 1, IncN: 0.01, TauRC: 0.02, TauRef: 0.002, MinVoltage: 0, Amplitude: 1}
}

var (
	lifNames  = []string{"voltage", "refractory_time"}
	alifNames = []string{"voltage", "refractory_time", "adaptation"}
	adapNames = []string{"adaptation"}
)

// --- shared LIF mathematics -------------------------------------------------

func validateLIFRate(obj string, tauRC, tauRef, amplitude float64) error {
	if err := checkPositive(obj, "TauRC", tauRC); err != nil {
		return err
	}
	if err := checkNonNegative(obj, "TauRef", tauRef); err != nil {
		return err
	}
	return checkPositive(obj, "Amplitude", amplitude)
}

func validateMinVoltage(obj string, v float64) error {
	if math.IsNaN(v) || v > 0 {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "MinVoltage", Value: v, Rule: "must be <= 0 (-Inf for no floor)"}
	}
	return nil
}

func validateAdaptation(obj string, tauN, incN float64) error {
	if err := checkPositive(obj, "TauN", tauN); err != nil {
		return err
	}
	return checkNonNegative(obj, "IncN", incN)
}

// lifRate is LIFRate.step for one current (Nengo: j = J - 1; rate =
// amplitude / (tau_ref + tau_rc*log1p(1/j)) where j > 0, else 0).
func lifRate(J, tauRC, tauRef, amplitude float64) float64 {
	j := J - 1
	if j > 0 {
		return amplitude / (tauRef + float64(tauRC*math.Log1p(1/j)))
	}
	return 0
}

func lifRates(obj string, tauRC, tauRef, amplitude float64, dst, x, gain, bias []float64) error {
	if err := checkRates(obj, dst, x, gain, bias); err != nil {
		return err
	}
	currents(dst, x, gain, bias)
	for k, j := range dst {
		dst[k] = lifRate(j, tauRC, tauRef, amplitude)
	}
	return nil
}

// lifGainBias is nengo.LIFRate.gain_bias: with
// x = 1/(1 - exp((tau_ref - 1/max_rate)/tau_rc)), gain = (1 - x)/(intercept - 1)
// and bias = 1 - gain*intercept. Max rates must be below 1/tau_ref.
func lifGainBias(obj string, tauRC, tauRef float64, maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := checkPairs(obj, "max_rates", "intercepts", maxRates, intercepts); err != nil {
		return nil, nil, err
	}
	invTauRef := math.Inf(1)
	if tauRef > 0 {
		invTauRef = 1 / tauRef
	}
	gain := make([]float64, len(maxRates))
	bias := make([]float64, len(maxRates))
	for i, r := range maxRates {
		if !(r < invTauRef) {
			return nil, nil, &validate.Error{Pkg: "neurons", Object: obj, Field: fmt.Sprintf("max_rates[%d]", i), Value: r,
				Rule: fmt.Sprintf("must be below the inverse refractory period 1/TauRef = %.3f", invTauRef)}
		}
		x := 1 / (1 - math.Exp((tauRef-1/r)/tauRC))
		gain[i] = (1 - x) / (intercepts[i] - 1)
		bias[i] = 1 - float64(gain[i]*intercepts[i])
		if err := checkGain(obj, i, gain[i], r, intercepts[i]); err != nil {
			return nil, nil, err
		}
	}
	return gain, bias, nil
}

// lifMaxRatesIntercepts is nengo.LIFRate.max_rates_intercepts:
// intercept = (1 - bias)/gain and
// max_rate = 1/(tau_ref - tau_rc*log1p(1/(gain*(intercept - 1) - 1))).
// Where Nengo would warn about non-finite max rates (the neuron does not
// fire at x = 1, i.e. gain + bias <= 1) this returns an error.
func lifMaxRatesIntercepts(obj string, tauRC, tauRef float64, gain, bias []float64) ([]float64, []float64, error) {
	if err := checkPairs(obj, "gain", "bias", gain, bias); err != nil {
		return nil, nil, err
	}
	maxRates := make([]float64, len(gain))
	intercepts := make([]float64, len(gain))
	for i, g := range gain {
		if !(g > 0) {
			return nil, nil, &validate.Error{Pkg: "neurons", Object: obj, Field: fmt.Sprintf("gain[%d]", i), Value: g, Rule: "must be positive"}
		}
		intercepts[i] = (1 - bias[i]) / g
		maxRates[i] = 1 / (tauRef - float64(tauRC*math.Log1p(1/(float64(g*(intercepts[i]-1))-1))))
		if !(maxRates[i] > 0) || math.IsInf(maxRates[i], 0) {
			return nil, nil, &validate.Error{Pkg: "neurons", Object: obj, Field: fmt.Sprintf("bias[%d]", i), Value: bias[i],
				Rule: fmt.Sprintf("with gain %v the neuron does not fire at x = 1 (gain + bias must exceed 1)", g)}
		}
	}
	return maxRates, intercepts, nil
}

// lifStep is nengo.LIF.step (and, with adaptation != nil,
// nengo.AdaptiveLIF.step) for contiguous slices of equal length:
//
//	refractory_time -= dt
//	delta_t = clip(dt - refractory_time, 0, dt)
//	voltage -= (J - voltage) * expm1(-delta_t/tau_rc)     (exact lowpass over delta_t)
//	spiked = voltage > 1;  output = spiked * amplitude/dt
//	t_spike = dt + tau_rc*log1p(-(voltage - 1)/(J - 1))   (sub-step spike time)
//	voltage = max(voltage, min_voltage); voltage[spiked] = 0
//	refractory_time[spiked] = tau_ref + t_spike            (overshoot carried over)
//
// and then, for AdaptiveLIF with J replaced by J - n above,
// n += (dt/tau_n)*(inc_n*output - n). Products that feed a sum are
// rounded explicitly (float64 conversion) so no platform fuses them into an
// FMA; the arithmetic is then operation for operation NumPy's.
func lifStep(dt, tauRC, tauRef, minV, amp float64, J, out, voltage, refractory, adaptation []float64, tauN, incN float64) {
	if adaptation == nil {
		// the same step, four neurons at a time where possible
		vec.LIF(dt, tauRC, tauRef, minV, amp, J, out, voltage, refractory)
		return
	}
	spike := amp / dt
	// most neurons integrate the whole step (d = dt) or none of it
	// (d = 0): their factor is the same expm1 every time, computed once
	// here with the same expression as in the loop (bit-identical)
	eFull := math.Expm1(-dt / tauRC)
	eNone := math.Expm1(math.Copysign(0, -1) / tauRC) // −d with d = 0 is −0
	_ = out[len(J)-1]
	_ = voltage[len(J)-1]
	_ = refractory[len(J)-1]
	for i, j := range J {
		if adaptation != nil {
			j -= adaptation[i]
		}
		rt := refractory[i] - dt
		d := dt - rt
		if d < 0 {
			d = 0
		} else if d > dt {
			d = dt
		}
		var e float64
		switch d {
		case dt:
			e = eFull
		case 0:
			e = eNone
		default:
			e = math.Expm1(-d / tauRC)
		}
		v := voltage[i] - float64((j-voltage[i])*e)
		o := 0.0
		if v > 1 {
			o = spike
			rt = tauRef + (dt + float64(tauRC*math.Log1p(-(v-1)/(j-1))))
			v = 0
		} else if v < minV {
			v = minV
		}
		out[i] = o
		voltage[i] = v
		refractory[i] = rt
		if adaptation != nil {
			n := adaptation[i]
			adaptation[i] = n + float64(dt/tauN*(float64(incN*o)-n))
		}
	}
}

// --- LIFRate ---------------------------------------------------------------

// Name returns "LIFRate".
func (LIFRate) Name() string { return "LIFRate" }

// Spiking returns false.
func (LIFRate) Spiking() bool { return false }

// Negative returns false.
func (LIFRate) Negative() bool { return false }

// String returns a Nengo-style description listing non-default parameters.
func (t LIFRate) String() string {
	return repr("LIFRate", "tau_rc", t.TauRC, 0.02, "tau_ref", t.TauRef, 0.002, "amplitude", t.Amplitude, 1.0)
}

// Validate checks TauRC > 0, TauRef >= 0 and Amplitude > 0.
func (t LIFRate) Validate() error { return validateLIFRate("LIFRate", t.TauRC, t.TauRef, t.Amplitude) }

// GainBias implements Type (nengo.LIFRate.gain_bias).
func (t LIFRate) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifGainBias("LIFRate", t.TauRC, t.TauRef, maxRates, intercepts)
}

// MaxRatesIntercepts implements Type (nengo.LIFRate.max_rates_intercepts).
func (t LIFRate) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifMaxRatesIntercepts("LIFRate", t.TauRC, t.TauRef, gain, bias)
}

// Rates implements Type.
func (t LIFRate) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return lifRates("LIFRate", t.TauRC, t.TauRef, t.Amplitude, dst, x, gain, bias)
}

// State returns an empty State: LIFRate has no state variables.
func (t LIFRate) State(n int, rng *rand.Rand) (State, error) {
	return newState("LIFRate", n, rng, nil)
}

// Step writes the LIF rate of J to out (nengo.LIFRate.step).
func (t LIFRate) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("LIFRate", dt, J, out); err != nil {
		return err
	}
	if err := checkState("LIFRate", s, nil, len(J)); err != nil {
		return err
	}
	for i, j := range J {
		out[i] = lifRate(j, t.TauRC, t.TauRef, t.Amplitude)
	}
	return nil
}

// --- LIF ---------------------------------------------------------------------

// Name returns "LIF".
func (LIF) Name() string { return "LIF" }

// Spiking returns true.
func (LIF) Spiking() bool { return true }

// Negative returns false.
func (LIF) Negative() bool { return false }

// String returns a Nengo-style description listing non-default parameters.
func (t LIF) String() string {
	return repr("LIF", "tau_rc", t.TauRC, 0.02, "tau_ref", t.TauRef, 0.002, "min_voltage", t.MinVoltage, 0.0, "amplitude", t.Amplitude, 1.0)
}

// Validate checks TauRC > 0, TauRef >= 0, MinVoltage <= 0 and Amplitude > 0.
func (t LIF) Validate() error {
	if err := validateLIFRate("LIF", t.TauRC, t.TauRef, t.Amplitude); err != nil {
		return err
	}
	return validateMinVoltage("LIF", t.MinVoltage)
}

// GainBias implements Type with LIFRate's closed form (as Nengo's LIF
// inherits it): max rates must be below 1/TauRef.
func (t LIF) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifGainBias("LIF", t.TauRC, t.TauRef, maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with LIFRate's closed form.
func (t LIF) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifMaxRatesIntercepts("LIF", t.TauRC, t.TauRef, gain, bias)
}

// Rates implements Type with the LIFRate curve (nengo.LIF.rates). Thanks to
// the sub-step spike times in Step, the spiking model's long-run rate at a
// constant input matches it closely even at dt = 1 ms (Nengo's test_lif:
// within 1 Hz + 2%).
func (t LIF) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return lifRates("LIF", t.TauRC, t.TauRef, t.Amplitude, dst, x, gain, bias)
}

// State returns {"voltage" ~ U[0, 1), "refractory_time" = 0}.
func (t LIF) State(n int, rng *rand.Rand) (State, error) {
	return newState("LIF", n, rng, lifNames, "voltage")
}

// Step implements Type with nengo.LIF.step (see lifStep in lif.go for the
// algorithm): exact exponential integration over the non-refractory part
// of the step, spike when voltage > 1, sub-step spike time carried into
// refractory_time, floor at MinVoltage.
func (t LIF) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("LIF", dt, J, out); err != nil {
		return err
	}
	if err := checkState("LIF", s, lifNames, len(J)); err != nil {
		return err
	}
	if len(J) == 0 {
		return nil
	}
	lifStep(dt, t.TauRC, t.TauRef, t.MinVoltage, t.Amplitude, J, out, s.Vars[0], s.Vars[1], nil, 0, 0)
	return nil
}

// --- AdaptiveLIFRate -----------------------------------------------------------

// Name returns "AdaptiveLIFRate".
func (AdaptiveLIFRate) Name() string { return "AdaptiveLIFRate" }

// Spiking returns false.
func (AdaptiveLIFRate) Spiking() bool { return false }

// Negative returns false.
func (AdaptiveLIFRate) Negative() bool { return false }

// String returns a Nengo-style description listing non-default parameters.
func (t AdaptiveLIFRate) String() string {
	return repr("AdaptiveLIFRate", "tau_n", t.TauN, 1.0, "inc_n", t.IncN, 0.01, "tau_rc", t.TauRC, 0.02,
		"tau_ref", t.TauRef, 0.002, "amplitude", t.Amplitude, 1.0)
}

// Validate checks TauN > 0, IncN >= 0 and LIFRate's ranges.
func (t AdaptiveLIFRate) Validate() error {
	if err := validateAdaptation("AdaptiveLIFRate", t.TauN, t.IncN); err != nil {
		return err
	}
	return validateLIFRate("AdaptiveLIFRate", t.TauRC, t.TauRef, t.Amplitude)
}

// GainBias implements Type with LIFRate's closed form (adaptation is
// ignored, as in Nengo).
func (t AdaptiveLIFRate) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifGainBias("AdaptiveLIFRate", t.TauRC, t.TauRef, maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with LIFRate's closed form.
func (t AdaptiveLIFRate) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifMaxRatesIntercepts("AdaptiveLIFRate", t.TauRC, t.TauRef, gain, bias)
}

// Rates implements Type with the unadapted LIFRate curve (as Nengo does).
func (t AdaptiveLIFRate) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return lifRates("AdaptiveLIFRate", t.TauRC, t.TauRef, t.Amplitude, dst, x, gain, bias)
}

// State returns {"adaptation" = 0}.
func (t AdaptiveLIFRate) State(n int, rng *rand.Rand) (State, error) {
	return newState("AdaptiveLIFRate", n, rng, adapNames)
}

// Step implements Type (nengo.AdaptiveLIFRate.step): out = LIFRate(J - n),
// then n += (dt/tau_n)*(inc_n*out - n).
func (t AdaptiveLIFRate) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("AdaptiveLIFRate", dt, J, out); err != nil {
		return err
	}
	if err := checkState("AdaptiveLIFRate", s, adapNames, len(J)); err != nil {
		return err
	}
	a := s.Vars[0]
	for i, j := range J {
		n := a[i]
		o := lifRate(j-n, t.TauRC, t.TauRef, t.Amplitude)
		out[i] = o
		a[i] = n + float64(dt/t.TauN*(float64(t.IncN*o)-n))
	}
	return nil
}

// --- AdaptiveLIF ---------------------------------------------------------------

// Name returns "AdaptiveLIF".
func (AdaptiveLIF) Name() string { return "AdaptiveLIF" }

// Spiking returns true.
func (AdaptiveLIF) Spiking() bool { return true }

// Negative returns false.
func (AdaptiveLIF) Negative() bool { return false }

// String returns a Nengo-style description listing non-default parameters.
func (t AdaptiveLIF) String() string {
	return repr("AdaptiveLIF", "tau_n", t.TauN, 1.0, "inc_n", t.IncN, 0.01, "tau_rc", t.TauRC, 0.02,
		"tau_ref", t.TauRef, 0.002, "min_voltage", t.MinVoltage, 0.0, "amplitude", t.Amplitude, 1.0)
}

// Validate checks TauN > 0, IncN >= 0 and LIF's ranges.
func (t AdaptiveLIF) Validate() error {
	if err := validateAdaptation("AdaptiveLIF", t.TauN, t.IncN); err != nil {
		return err
	}
	if err := validateLIFRate("AdaptiveLIF", t.TauRC, t.TauRef, t.Amplitude); err != nil {
		return err
	}
	return validateMinVoltage("AdaptiveLIF", t.MinVoltage)
}

// GainBias implements Type with LIFRate's closed form (adaptation is
// ignored, as in Nengo).
func (t AdaptiveLIF) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifGainBias("AdaptiveLIF", t.TauRC, t.TauRef, maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with LIFRate's closed form.
func (t AdaptiveLIF) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return lifMaxRatesIntercepts("AdaptiveLIF", t.TauRC, t.TauRef, gain, bias)
}

// Rates implements Type with the unadapted LIFRate curve (as Nengo does).
func (t AdaptiveLIF) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return lifRates("AdaptiveLIF", t.TauRC, t.TauRef, t.Amplitude, dst, x, gain, bias)
}

// State returns {"voltage" ~ U[0, 1), "refractory_time" = 0, "adaptation" = 0}.
func (t AdaptiveLIF) State(n int, rng *rand.Rand) (State, error) {
	return newState("AdaptiveLIF", n, rng, alifNames, "voltage")
}

// Step implements Type (nengo.AdaptiveLIF.step): LIF's step on J - n, then
// n += (dt/tau_n)*(inc_n*out - n).
func (t AdaptiveLIF) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("AdaptiveLIF", dt, J, out); err != nil {
		return err
	}
	if err := checkState("AdaptiveLIF", s, alifNames, len(J)); err != nil {
		return err
	}
	if len(J) == 0 {
		return nil
	}
	lifStep(dt, t.TauRC, t.TauRef, t.MinVoltage, t.Amplitude, J, out, s.Vars[0], s.Vars[1], s.Vars[2], t.TauN, t.IncN)
	return nil
}

// repr formats name(k=v, …) with the (key, value, default) triples whose
// value differs from the default, as Nengo's repr does.
func repr(name string, kvd ...any) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	first := true
	for i := 0; i+2 < len(kvd); i += 3 {
		v, d := kvd[i+1], kvd[i+2]
		if v == d {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		fmt.Fprintf(&b, "%s=%v", kvd[i], v)
	}
	b.WriteByte(')')
	return b.String()
}
