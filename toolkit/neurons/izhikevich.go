package neurons

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// Izhikevich is Izhikevich's two-variable spiking model (nengo.Izhikevich;
// E. M. Izhikevich, "Simple model of spiking neurons", IEEE TNN 14(6),
// 2003) with time in seconds (hence the factors of 1000 below). The
// defaults are regular spiking (RS); Nengo's docs list the others:
// intrinsically bursting ResetVoltage -55, ResetRecovery 4; chattering
// -50, 2; fast spiking TauRecovery 0.1; low-threshold Coupling 0.25;
// resonator TauRecovery 0.1, Coupling 0.26.
//
// Its state is Names {"voltage", "recovery"}. As in Nengo 4.1, voltage
// starts uniform in [0, 1) (not at the resting potential) and recovery at 0.
type Izhikevich struct {
	TauRecovery   float64 // Izhikevich's a (time scale of recovery), > 0; default 0.02
	Coupling      float64 // Izhikevich's b (sensitivity of recovery to voltage), >= 0; default 0.2
	ResetVoltage  float64 // Izhikevich's c (mV), finite; default -65
	ResetRecovery float64 // Izhikevich's d, finite; default 8
}

// NewIzhikevich returns Izhikevich with Nengo's defaults (regular spiking).
func NewIzhikevich() Izhikevich {
	return Izhikevich{TauRecovery: 0.02, Coupling: 0.2, ResetVoltage: -65, ResetRecovery: 8}
}

var izhNames = []string{"voltage", "recovery"}

// Name returns "Izhikevich".
func (Izhikevich) Name() string { return "Izhikevich" }

// Spiking returns true.
func (Izhikevich) Spiking() bool { return true }

// Negative returns false.
func (Izhikevich) Negative() bool { return false }

// String returns a Nengo-style description listing non-default parameters.
func (t Izhikevich) String() string {
	return repr("Izhikevich", "tau_recovery", t.TauRecovery, 0.02, "coupling", t.Coupling, 0.2,
		"reset_voltage", t.ResetVoltage, -65.0, "reset_recovery", t.ResetRecovery, 8.0)
}

// Validate checks TauRecovery > 0, Coupling >= 0 and finite resets.
func (t Izhikevich) Validate() error {
	if err := checkPositive("Izhikevich", "TauRecovery", t.TauRecovery); err != nil {
		return err
	}
	if err := checkNonNegative("Izhikevich", "Coupling", t.Coupling); err != nil {
		return err
	}
	if err := checkFinite("Izhikevich", "ResetVoltage", t.ResetVoltage); err != nil {
		return err
	}
	return checkFinite("Izhikevich", "ResetRecovery", t.ResetRecovery)
}

// GainBias implements Type with Nengo's generic numerical method
// (nengo.NeuronType.gain_bias), since the model has no closed form; it
// simulates Rates on current grids and so takes a few milliseconds.
func (t Izhikevich) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return numericGainBias("Izhikevich", t, maxRates, intercepts)
}

// MaxRatesIntercepts implements Type with Nengo's generic numerical method
// (nengo.NeuronType.max_rates_intercepts): the rate at x = 1, and the
// intercept as the last point of a 101-point grid on [-1, 1] before the
// first positive rate.
func (t Izhikevich) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	if err := t.Validate(); err != nil {
		return nil, nil, err
	}
	return numericMaxRatesIntercepts("Izhikevich", t, gain, bias)
}

// Rates implements Type as nengo.Izhikevich.rates does: each current is
// simulated from voltage = recovery = 0 with dt = 1 ms, for 1 step of
// settling and then 1 s, and the rate is the mean output over that second.
func (t Izhikevich) Rates(dst, x, gain, bias []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkRates("Izhikevich", dst, x, gain, bias); err != nil {
		return err
	}
	J := make([]float64, len(x))
	currents(J, x, gain, bias)
	const dt, settle, sim = 0.001, 0.001, 1.0
	out := make([]float64, len(x))
	v := make([]float64, len(x))
	u := make([]float64, len(x))
	for range int(settle / dt) {
		t.step(dt, J, out, v, u)
	}
	steps := int(sim / dt)
	clear(dst)
	for range steps {
		t.step(dt, J, out, v, u)
		for i, o := range out {
			dst[i] += o
		}
	}
	for i := range dst {
		dst[i] /= float64(steps)
	}
	return nil
}

// State returns {"voltage" ~ U[0, 1), "recovery" = 0} (Nengo 4.1's defaults).
func (t Izhikevich) State(n int, rng *rand.Rand) (State, error) {
	return newState("Izhikevich", n, rng, izhNames, "voltage")
}

// Step implements Type with nengo.Izhikevich.step, in Nengo's order:
//
//	J = max(J, -30)                     (Nengo's guard against instability)
//	voltage += 1000*(0.04 v² + 5 v + 140 - recovery + J)*dt
//	spiked = voltage >= 30;  out = spiked/dt;  voltage[spiked] = reset_voltage
//	recovery += 1000*tau_recovery*(coupling*voltage - recovery)*dt
//	recovery[spiked] += reset_recovery
//
// The spike check and voltage reset come before the recovery update (unlike
// Izhikevich's original code), so recovery sees the reset voltage. The
// output has no amplitude parameter: a spike is 1/dt.
func (t Izhikevich) Step(dt float64, J, out []float64, s State, rng *rand.Rand) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if err := checkStep("Izhikevich", dt, J, out); err != nil {
		return err
	}
	if err := checkState("Izhikevich", s, izhNames, len(J)); err != nil {
		return err
	}
	t.step(dt, J, out, s.Vars[0], s.Vars[1])
	return nil
}

func (t Izhikevich) step(dt float64, J, out, voltage, recovery []float64) {
	a, b, c, d := t.TauRecovery, t.Coupling, t.ResetVoltage, t.ResetRecovery
	spike := 1 / dt
	for i, j := range J {
		j = max(-30, j)
		v, u := voltage[i], recovery[i]
		dV := (float64(float64(float64(0.04*float64(v*v))+float64(5*v))+140) - u + j) * 1000
		v += float64(dV * dt)
		o := 0.0
		if v >= 30 {
			o = spike
			v = c
		}
		dU := float64(a*float64(float64(b*v)-u)) * 1000
		u += float64(dU * dt)
		if o > 0 {
			u += d
		}
		out[i] = o
		voltage[i] = v
		recovery[i] = u
	}
}

// --- Nengo's generic numerical gain/bias -----------------------------------------

// linspace is numpy.linspace(start, stop, num) with endpoint: element i is
// i*step + start with step = (stop - start)/(num - 1), and the last element
// is stop exactly.
func linspace(start, stop float64, num int) []float64 {
	y := make([]float64, num)
	if num == 1 {
		y[0] = start
		return y
	}
	div := float64(num - 1)
	delta := stop - start
	step := delta / div
	for i := range y {
		if step == 0 {
			y[i] = float64(float64(i)/div*delta) + start
		} else {
			y[i] = float64(float64(i)*step) + start
		}
	}
	y[num-1] = stop
	return y
}

// interp is numpy.interp(x, xp, fp) for nondecreasing xp: linear
// interpolation with xp's largest index j such that xp[j] <= x, clamped to
// fp[0] and fp[len-1] outside [xp[0], xp[len-1]].
func interp(x float64, xp, fp []float64) float64 {
	n := len(xp)
	if math.IsNaN(x) {
		return x
	}
	if x > xp[n-1] {
		return fp[n-1]
	}
	if x < xp[0] {
		return fp[0]
	}
	lo, hi := 0, n
	for lo < hi {
		mid := lo + (hi-lo)/2
		if x >= xp[mid] {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	j := lo - 1
	if j == n-1 || xp[j] == x {
		return fp[j]
	}
	slope := (fp[j+1] - fp[j]) / (xp[j+1] - xp[j])
	r := float64(slope*(x-xp[j])) + fp[j]
	if math.IsNaN(r) {
		r = float64(slope*(x-xp[j+1])) + fp[j+1]
		if math.IsNaN(r) && fp[j] == fp[j+1] {
			r = fp[j]
		}
	}
	return r
}

// numericGainBias is nengo.NeuronType.gain_bias: find the current J_thr
// below which the rate is 0 and a current J_max whose rate reaches the
// largest requested max rate, on grids J ∈ linspace(-Jr, Jr, 101) with Jr
// doubling from 10 (10 tries); then tabulate the rate on
// linspace(J_thr, J_max, 101), interpolate J_top for each max rate, and set
// gain = (J_thr - J_top)/(intercept - 1), bias = J_top - gain.
func numericGainBias(obj string, t Type, maxRates, intercepts []float64) ([]float64, []float64, error) {
	if err := checkPairs(obj, "max_rates", "intercepts", maxRates, intercepts); err != nil {
		return nil, nil, err
	}
	if len(maxRates) == 0 {
		return []float64{}, []float64{}, nil
	}
	const steps = 101 // odd, so that 0 is a sample
	maxRate := maxRates[0]
	for _, r := range maxRates[1:] {
		maxRate = math.Max(maxRate, r)
	}
	one, zero := []float64{1}, []float64{0}
	rate := make([]float64, steps)
	var jThr, jMax float64
	haveThr, haveMax := false, false
	jr := 10.0
	for range 10 {
		J := linspace(-jr, jr, steps)
		if err := t.Rates(rate, J, one, zero); err != nil {
			return nil, nil, err
		}
		if !haveThr {
			for i := steps - 1; i >= 0; i-- {
				if rate[i] <= 0 {
					jThr, haveThr = J[i], true
					break
				}
			}
		}
		if !haveMax {
			for i := range steps {
				if rate[i] >= maxRate {
					jMax, haveMax = J[i], true
					break
				}
			}
		}
		if haveThr && haveMax {
			break
		}
		jr *= 2
	}
	if !haveThr {
		return nil, nil, &validate.Error{Pkg: "neurons", Object: obj, Field: "max_rates,intercepts", Value: fmt.Sprintf("|J| <= %g", jr/2),
			Rule: "could not find the firing threshold (no current with rate <= 0)"}
	}
	if !haveMax {
		return nil, nil, &validate.Error{Pkg: "neurons", Object: obj, Field: "max_rates", Value: maxRate,
			Rule: fmt.Sprintf("could not find a current reaching this rate (|J| <= %g)", jr/2)}
	}
	J := linspace(jThr, jMax, steps)
	if err := t.Rates(rate, J, one, zero); err != nil {
		return nil, nil, err
	}
	gain := make([]float64, len(maxRates))
	bias := make([]float64, len(maxRates))
	for i, r := range maxRates {
		top := interp(r, rate, J)
		gain[i] = (jThr - top) / (intercepts[i] - 1)
		bias[i] = top - gain[i]
		if err := checkGain(obj, i, gain[i], r, intercepts[i]); err != nil {
			return nil, nil, err
		}
	}
	return gain, bias, nil
}

// numericMaxRatesIntercepts is nengo.NeuronType.max_rates_intercepts: the
// max rate is the rate at x = 1; the intercept is x[max(k-1, 0)] on
// x = linspace(-1, 1, 101), k the first index with a positive rate (0 if none).
func numericMaxRatesIntercepts(obj string, t Type, gain, bias []float64) ([]float64, []float64, error) {
	if err := checkPairs(obj, "gain", "bias", gain, bias); err != nil {
		return nil, nil, err
	}
	n := len(gain)
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	maxRates := make([]float64, n)
	if err := t.Rates(maxRates, ones, gain, bias); err != nil {
		return nil, nil, err
	}
	const steps = 101
	xs := linspace(-1, 1, steps)
	x := make([]float64, steps*n)
	for k, xv := range xs {
		for i := range n {
			x[k*n+i] = xv
		}
	}
	rates := make([]float64, steps*n)
	if err := t.Rates(rates, x, gain, bias); err != nil {
		return nil, nil, err
	}
	intercepts := make([]float64, n)
	for i := range n {
		first := 0
		for k := range steps {
			if rates[k*n+i] > 0 {
				first = k
				break
			}
		}
		intercepts[i] = xs[max(first-1, 0)]
	}
	return maxRates, intercepts, nil
}
