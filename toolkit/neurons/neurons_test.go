package neurons

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// allTypes returns one value of every type with Nengo's defaults.
func allTypes() []Type {
	return []Type{
		NewLIF(), NewLIFRate(), NewAdaptiveLIF(), NewAdaptiveLIFRate(),
		NewRectifiedLinear(), NewSpikingRectifiedLinear(), NewSigmoid(), NewTanh(),
		NewIzhikevich(),
		NewRegularSpiking(NewLIFRate()), NewPoissonSpiking(NewLIFRate()), NewStochasticSpiking(NewLIFRate()),
	}
}

func TestDefaults(t *testing.T) {
	// Nengo 4.1's defaults (nengo/neurons.py signatures).
	if got, want := NewLIF(), (LIF{TauRC: 0.02, TauRef: 0.002, MinVoltage: 0, Amplitude: 1}); got != want {
		t.Errorf("NewLIF() = %+v, want %+v", got, want)
	}
	if got, want := NewAdaptiveLIF(), (AdaptiveLIF{TauN: 1, IncN: 0.01, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}); got != want {
		t.Errorf("NewAdaptiveLIF() = %+v, want %+v", got, want)
	}
	if got, want := NewIzhikevich(), (Izhikevich{TauRecovery: 0.02, Coupling: 0.2, ResetVoltage: -65, ResetRecovery: 8}); got != want {
		t.Errorf("NewIzhikevich() = %+v, want %+v", got, want)
	}
	if NewSigmoid().TauRef != 0.0025 || NewTanh().TauRef != 0.0025 || NewRectifiedLinear().Amplitude != 1 {
		t.Error("Sigmoid/Tanh/RectifiedLinear defaults differ from Nengo's")
	}
	for _, typ := range allTypes() {
		if err := typ.Validate(); err != nil {
			t.Errorf("%s: defaults invalid: %v", typ.Name(), err)
		}
	}
}

func TestFlagsAndStateNames(t *testing.T) {
	cases := []struct {
		typ      Type
		spiking  bool
		negative bool
		names    string
	}{
		{NewLIF(), true, false, "voltage,refractory_time"},
		{NewLIFRate(), false, false, ""},
		{NewAdaptiveLIF(), true, false, "voltage,refractory_time,adaptation"},
		{NewAdaptiveLIFRate(), false, false, "adaptation"},
		{NewRectifiedLinear(), false, false, ""},
		{NewSpikingRectifiedLinear(), true, false, "voltage"},
		{NewSigmoid(), false, false, ""},
		{NewTanh(), false, true, ""},
		{NewIzhikevich(), true, false, "voltage,recovery"},
		{NewRegularSpiking(NewAdaptiveLIFRate()), true, false, "voltage,adaptation,rate_out"},
		{NewPoissonSpiking(NewTanh()), true, true, "rate_out"},
		{NewStochasticSpiking(NewLIFRate()), true, false, "rate_out"},
	}
	for _, c := range cases {
		s, err := c.typ.State(3, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if c.typ.Spiking() != c.spiking || c.typ.Negative() != c.negative || strings.Join(s.Names, ",") != c.names {
			t.Errorf("%v: spiking %v negative %v names %q; want %v %v %q", c.typ, c.typ.Spiking(), c.typ.Negative(), s.Names, c.spiking, c.negative, c.names)
		}
		// Nengo's initial values: voltage ~ U[0, 1), everything else 0.
		for i, name := range s.Names {
			for _, v := range s.Vars[i] {
				if (name == "voltage" && !(v >= 0 && v < 1)) || (name != "voltage" && v != 0) {
					t.Errorf("%v: initial %s = %v", c.typ, name, v)
				}
			}
		}
	}
}

// TestLIFSteadyStateRate is Nengo's test_lif (nengo/tests/test_neurons.py):
// the spiking LIF's rate over 1 s at constant input matches the LIFRate
// curve within atol 1 Hz, rtol 2%.
func TestLIFSteadyStateRate(t *testing.T) {
	const (
		dt   = 0.001
		n    = 1000
		x    = 0.5
		atol = 1.0  // Hz, Nengo's test_lif
		rtol = 0.02 // Nengo's test_lif
	)
	rng := rand.New(rand.NewPCG(7, 11))
	for _, lif := range []LIF{NewLIF(), {TauRC: 0.05, TauRef: 0.0015, MinVoltage: -1, Amplitude: 2}} {
		maxRates, intercepts := make([]float64, n), make([]float64, n)
		for i := range maxRates {
			maxRates[i] = 10 + 190*rng.Float64()
			intercepts[i] = -1 + 2*rng.Float64()
		}
		gain, bias, err := lif.GainBias(maxRates, intercepts)
		if err != nil {
			t.Fatal(err)
		}
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = x
		}
		want := make([]float64, n)
		if err := lif.Rates(want, xs, gain, bias); err != nil {
			t.Fatal(err)
		}
		s, _ := lif.State(n, rng)
		J, out := make([]float64, n), make([]float64, n)
		for i := range J {
			J[i] = gain[i]*x + bias[i]
		}
		count := make([]float64, n)
		const steps = 1000 // 1 s
		for range steps {
			if err := lif.Step(dt, J, out, s, nil); err != nil {
				t.Fatal(err)
			}
			for i, o := range out {
				count[i] += o * dt / lif.Amplitude // one per spike
			}
		}
		for i := range count {
			// Rates scales by Amplitude; count spikes against the unit curve.
			ref := want[i] / lif.Amplitude
			if math.Abs(count[i]-ref) > atol+rtol*ref {
				t.Errorf("%v neuron %d: %v spikes/s, rate curve %v Hz", lif, i, count[i], ref)
			}
		}
	}
}

// TestLIFNoRefractoryFiresEveryStep: with tau_ref = 0 and a huge input the
// LIF fires on every step, i.e. at 1/dt.
func TestLIFNoRefractoryFiresEveryStep(t *testing.T) {
	lif := NewLIF()
	lif.TauRef = 0
	const dt, steps = 0.001, 1000
	s, _ := lif.State(3, nil)
	J := []float64{1e6, 1e9, 1e12}
	out := make([]float64, 3)
	for k := range steps {
		if err := lif.Step(dt, J, out, s, nil); err != nil {
			t.Fatal(err)
		}
		for i, o := range out {
			if o != 1/dt {
				t.Fatalf("step %d neuron %d: output %v, want 1/dt = %v", k, i, o, 1/dt)
			}
		}
	}
}

// TestLIFRateCurve checks Rates against the closed form
// 1/(tau_ref + tau_rc*ln(1 + 1/(J - 1))) and 0 at or below threshold.
func TestLIFRateCurve(t *testing.T) {
	const tol = 1e-12 // relative; log1p vs log differ by rounding only
	lif := NewLIFRate()
	J := []float64{-5, 0, 1, 1.0000001, 1.5, 2, 10, 1e3}
	got := make([]float64, len(J))
	if err := lif.Rates(got, J, []float64{1}, []float64{0}); err != nil {
		t.Fatal(err)
	}
	for i, j := range J {
		want := 0.0
		if j > 1 {
			want = 1 / (lif.TauRef + lif.TauRC*math.Log(1+1/(j-1)))
		}
		if !closeRel(got[i], want, tol) {
			t.Errorf("J=%v: rate %v, want %v", j, got[i], want)
		}
	}
}

// TestGainBiasRoundTrip: MaxRatesIntercepts inverts GainBias for the
// closed-form types.
func TestGainBiasRoundTrip(t *testing.T) {
	const tol = 1e-9 // relative
	mr := []float64{50, 120, 200, 390}
	ic := []float64{-0.9, -0.2, 0.3, 0.95}
	for _, typ := range []Type{NewLIF(), NewLIFRate(), NewAdaptiveLIF(), NewRectifiedLinear(), NewSigmoid(), NewTanh(),
		NewSpikingRectifiedLinear(), NewRegularSpiking(NewLIFRate())} {
		rates := mr
		if _, ok := typ.(Sigmoid); ok {
			rates = []float64{201, 250, 300, 390}
		}
		gain, bias, err := typ.GainBias(rates, ic)
		if err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		m2, i2, err := typ.MaxRatesIntercepts(gain, bias)
		if err != nil {
			t.Fatalf("%v: %v", typ, err)
		}
		for i := range rates {
			if !closeRel(m2[i], rates[i], tol) || math.Abs(i2[i]-ic[i]) > tol {
				t.Errorf("%v neuron %d: round trip (%v, %v) → (%v, %v)", typ, i, rates[i], ic[i], m2[i], i2[i])
			}
		}
		// and the rate at x = 1 is the max rate, at x = intercept 0
		x := append(append([]float64{}, ones(len(rates))...), ic...)
		r := make([]float64, len(x))
		if err := typ.Rates(r, x, gain, bias); err != nil {
			t.Fatal(err)
		}
		for i := range rates {
			amp := 1.0
			if l, ok := typ.(LIF); ok {
				amp = l.Amplitude
			}
			if !closeRel(r[i], rates[i]*amp, tol) {
				t.Errorf("%v neuron %d: rate at x=1 is %v, want %v", typ, i, r[i], rates[i])
			}
			if _, sig := typ.(Sigmoid); !sig && math.Abs(r[len(rates)+i]) > 1e-6 {
				t.Errorf("%v neuron %d: rate at the intercept is %v, want 0", typ, i, r[len(rates)+i])
			}
		}
	}
}

func ones(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	return x
}

// TestSpikingRectifiedLinearRate: over T seconds the spike count is J*T to
// within one spike (the integrator starts in [0, 1)).
func TestSpikingRectifiedLinearRate(t *testing.T) {
	for _, typ := range []Type{NewSpikingRectifiedLinear(), NewRegularSpiking(NewRectifiedLinear())} {
		J := []float64{-10, 0, 3.3, 47, 999.5, 2500}
		s, _ := typ.State(len(J), rand.New(rand.NewPCG(3, 4)))
		out := make([]float64, len(J))
		count := make([]float64, len(J))
		const dt, steps = 0.001, 2000
		for range steps {
			if err := typ.Step(dt, J, out, s, nil); err != nil {
				t.Fatal(err)
			}
			for i, o := range out {
				count[i] += o * dt
			}
		}
		for i, j := range J {
			want := math.Max(j, 0) * steps * dt
			if math.Abs(count[i]-want) > 1+1e-9 {
				t.Errorf("%v J=%v: %v spikes, want %v ± 1", typ, j, count[i], want)
			}
		}
	}
}

// TestAdaptation: AdaptiveLIF and AdaptiveLIFRate fire less over time at a
// constant input, and their adaptation approaches inc_n*rate.
func TestAdaptation(t *testing.T) {
	for _, typ := range []Type{NewAdaptiveLIF(), NewAdaptiveLIFRate()} {
		s, _ := typ.State(1, nil)
		J, out := []float64{3}, []float64{0}
		const dt = 0.001
		first, last := 0.0, 0.0
		for k := range 5000 {
			if err := typ.Step(dt, J, out, s, nil); err != nil {
				t.Fatal(err)
			}
			if k < 200 {
				first += out[0]
			}
			if k >= 4800 {
				last += out[0]
			}
		}
		if !(last < 0.9*first) {
			t.Errorf("%v: rate %v Hz at the start, %v Hz at the end: no adaptation", typ, first/200, last/200)
		}
		if n := s.Var("adaptation")[0]; !(n > 0) {
			t.Errorf("%v: adaptation %v", typ, n)
		}
	}
}

// TestIzhikevichRegularSpiking: the default (RS) neuron at J = 10 fires
// tonically, its first interval shorter than the adapted one, and resets
// to -65 after each spike.
func TestIzhikevichRegularSpiking(t *testing.T) {
	iz := NewIzhikevich()
	s, _ := iz.State(1, nil)
	s.Vars[0][0], s.Vars[1][0] = -65, -13 // the resting state
	J, out := []float64{10}, []float64{0}
	var spikes []int
	for k := range 1000 {
		if err := iz.Step(0.001, J, out, s, nil); err != nil {
			t.Fatal(err)
		}
		if out[0] > 0 {
			spikes = append(spikes, k)
			if out[0] != 1000 || s.Vars[0][0] != -65 {
				t.Fatalf("spike output %v, voltage after %v", out[0], s.Vars[0][0])
			}
		}
	}
	if len(spikes) < 5 {
		t.Fatalf("only %d spikes in 1 s", len(spikes))
	}
	if first, later := spikes[1]-spikes[0], spikes[len(spikes)-1]-spikes[len(spikes)-2]; !(first < later) {
		t.Errorf("intervals %d then %d steps: RS neurons adapt", first, later)
	}
}

// TestStochasticRates: PoissonSpiking and StochasticSpiking reproduce the
// base rate on average, with Poisson variance (= mean spikes per step) and
// Bernoulli variance (f*(1-f)) respectively, within 5 standard errors.
func TestStochasticRates(t *testing.T) {
	const (
		dt    = 0.001
		steps = 4000
		n     = 50
		z     = 5.0 // standard errors allowed (false-failure odds ~ 1e-6 per check)
	)
	for _, c := range []struct {
		typ  Type
		rate float64 // signed
	}{
		{NewPoissonSpiking(NewRectifiedLinear()), 37},
		{NewPoissonSpiking(NewRectifiedLinear()), 420},
		{NewPoissonSpiking(NewRectifiedLinear()), 25000}, // λ = 25: transformed rejection
		{NewPoissonSpiking(NewTanh()), -300},             // negative type: negative spikes
		{StochasticSpiking{Base: NewRectifiedLinear(), Amplitude: 0.5}, 37},
		{NewStochasticSpiking(NewRectifiedLinear()), 2750},
		{NewStochasticSpiking(NewTanh()), -250},
	} {
		rng := rand.New(rand.NewPCG(uint64(c.rate+1e5), 99))
		s, err := c.typ.State(n, rng)
		if err != nil {
			t.Fatal(err)
		}
		// the input current that gives the requested rate
		j := c.rate
		if c.typ.Negative() { // Tanh base: rate = tanh(J)/tau_ref
			j = math.Atanh(c.rate * NewTanh().TauRef)
		}
		J := make([]float64, n)
		for i := range J {
			J[i] = j
		}
		amp := 1.0
		switch v := c.typ.(type) {
		case PoissonSpiking:
			amp = v.Amplitude
		case StochasticSpiking:
			amp = v.Amplitude
		}
		out := make([]float64, n)
		var sum, sumSq float64
		for range steps {
			if err := c.typ.Step(dt, J, out, s, rng); err != nil {
				t.Fatal(err)
			}
			for _, o := range out {
				k := o * dt / amp // signed spike count this step
				if k != math.Trunc(k) {
					t.Fatalf("%v: non-integer spike count %v", c.typ, k)
				}
				sum += k
				sumSq += k * k
			}
		}
		m := float64(steps * n)
		mean := sum / m
		variance := sumSq/m - mean*mean
		lam := math.Abs(c.rate) * dt
		wantVar := lam // Poisson
		if _, ok := c.typ.(StochasticSpiking); ok {
			f := lam - math.Floor(lam)
			wantVar = f * (1 - f)
		}
		wantMean := c.rate * dt
		if se := math.Sqrt(wantVar / m); math.Abs(mean-wantMean) > z*se {
			t.Errorf("%v at %v Hz: mean %v spikes/step, want %v ± %v", c.typ, c.rate, mean, wantMean, z*se)
		}
		// variance of the sample variance ≈ (μ4 - σ⁴)/m; for these
		// distributions μ4 <= σ² + 3σ⁴ (Poisson: σ² + 3σ⁴ exactly).
		if se := math.Sqrt((wantVar + 2*wantVar*wantVar) / m); math.Abs(variance-wantVar) > z*se+1e-12 {
			t.Errorf("%v at %v Hz: variance %v, want %v ± %v", c.typ, c.rate, variance, wantVar, z*se)
		}
	}
}

// TestPoissonSampler checks the sampler's mean and variance across the
// switch between the multiplication and the rejection method.
func TestPoissonSampler(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const m = 200000
	for _, lam := range []float64{0.01, 0.5, 3, 9.99, 10, 30, 1000} {
		var sum, sumSq float64
		for range m {
			k := float64(poisson(rng, lam))
			sum += k
			sumSq += k * k
		}
		mean := sum / m
		v := sumSq/m - mean*mean
		if math.Abs(mean-lam) > 5*math.Sqrt(lam/m) || math.Abs(v-lam) > 5*math.Sqrt((lam+2*lam*lam)/m) {
			t.Errorf("Poisson(%v): mean %v variance %v", lam, mean, v)
		}
	}
}

// TestInvalid: invalid parameters and arguments give a *validate.Error naming the
// field and value, never a panic.
func TestInvalid(t *testing.T) {
	nan := math.NaN()
	lif := NewLIF()
	s2, _ := lif.State(2, nil)
	two := []float64{1, 2}
	three := []float64{1, 2, 3}
	call := func(f func() error) func() error { return f }
	cases := []struct {
		name  string
		err   func() error
		field string
		value string
	}{
		{"LIF TauRC NaN", LIF{TauRC: nan, TauRef: 0.002, Amplitude: 1}.Validate, "TauRC", "NaN"},
		{"LIF TauRC negative", LIF{TauRC: -0.02, TauRef: 0.002, Amplitude: 1}.Validate, "TauRC", "-0.02"},
		{"LIF TauRef negative", LIF{TauRC: 0.02, TauRef: -0.001, Amplitude: 1}.Validate, "TauRef", "-0.001"},
		{"LIF TauRef +Inf", LIF{TauRC: 0.02, TauRef: math.Inf(1), Amplitude: 1}.Validate, "TauRef", "+Inf"},
		{"LIF Amplitude 0", LIF{TauRC: 0.02, TauRef: 0.002, Amplitude: 0}.Validate, "Amplitude", "0"},
		{"LIF MinVoltage > 0", LIF{TauRC: 0.02, TauRef: 0.002, MinVoltage: 0.5, Amplitude: 1}.Validate, "MinVoltage", "0.5"},
		{"LIFRate Amplitude negative", LIFRate{TauRC: 0.02, TauRef: 0.002, Amplitude: -1}.Validate, "Amplitude", "-1"},
		{"AdaptiveLIF TauN 0", AdaptiveLIF{TauN: 0, IncN: 0.01, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}.Validate, "TauN", "0"},
		{"AdaptiveLIFRate IncN negative", AdaptiveLIFRate{TauN: 1, IncN: -0.01, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}.Validate, "IncN", "-0.01"},
		{"RectifiedLinear Amplitude 0", RectifiedLinear{}.Validate, "Amplitude", "0"},
		{"SpikingRectifiedLinear Amplitude NaN", SpikingRectifiedLinear{Amplitude: nan}.Validate, "Amplitude", "NaN"},
		{"Sigmoid TauRef 0", Sigmoid{}.Validate, "TauRef", "0"},
		{"Tanh TauRef negative", Tanh{TauRef: -1}.Validate, "TauRef", "-1"},
		{"Izhikevich TauRecovery 0", Izhikevich{Coupling: 0.2}.Validate, "TauRecovery", "0"},
		{"Izhikevich Coupling negative", Izhikevich{TauRecovery: 0.02, Coupling: -0.2}.Validate, "Coupling", "-0.2"},
		{"Izhikevich ResetVoltage NaN", Izhikevich{TauRecovery: 0.02, ResetVoltage: nan}.Validate, "ResetVoltage", "NaN"},
		{"RegularSpiking nil base", RegularSpiking{Amplitude: 1}.Validate, "Base", "<nil>"},
		{"RegularSpiking amplitude 0", RegularSpiking{Base: NewLIFRate()}.Validate, "Amplitude", "0"},
		{"RegularSpiking invalid base", NewRegularSpiking(LIFRate{TauRC: -1, Amplitude: 1}).Validate, "TauRC", "-1"},
		{"RegularSpiking overlapping state", NewRegularSpiking(NewSpikingRectifiedLinear()).Validate, "Base", "SpikingRectifiedLinear"},
		{"nested wrapper", NewPoissonSpiking(NewRegularSpiking(NewLIFRate())).Validate, "Base", "RegularSpiking"},
		{"GainBias max rate >= 1/tau_ref", call(func() error { _, _, err := lif.GainBias([]float64{100, 500}, []float64{0, 0}); return err }), "max_rates[1]", "500"},
		{"GainBias intercept 1", call(func() error { _, _, err := lif.GainBias([]float64{100}, []float64{1}); return err }), "intercepts[0]", "1"},
		{"GainBias intercept > 1", call(func() error {
			_, _, err := NewRectifiedLinear().GainBias([]float64{100}, []float64{1.5})
			return err
		}), "intercepts[0]", "1.5"},
		{"GainBias max rate 0", call(func() error { _, _, err := lif.GainBias([]float64{0}, []float64{0}); return err }), "max_rates[0]", "0"},
		{"GainBias Sigmoid below half", call(func() error { _, _, err := NewSigmoid().GainBias([]float64{150}, []float64{0}); return err }), "max_rates[0]", "150"},
		{"GainBias NaN", call(func() error { _, _, err := lif.GainBias([]float64{nan}, []float64{0}); return err }), "max_rates[0]", "NaN"},
		{"GainBias lengths", call(func() error { _, _, err := lif.GainBias(two, three); return err }), "len(intercepts)", "3"},
		{"MaxRatesIntercepts gain <= 0", call(func() error { _, _, err := lif.MaxRatesIntercepts([]float64{-1}, []float64{0}); return err }), "gain[0]", "-1"},
		{"MaxRatesIntercepts silent LIF", call(func() error { _, _, err := lif.MaxRatesIntercepts([]float64{0.5}, []float64{0.2}); return err }), "bias[0]", "0.2"},
		{"Rates len(x)", call(func() error { return lif.Rates(three, three, two, two) }), "len(x)", "3"},
		{"Rates len(bias)", call(func() error { return lif.Rates(two, two, two, three) }), "len(bias)", "3"},
		{"Rates len(dst)", call(func() error { return lif.Rates(three, two, two, two) }), "len(dst)", "3"},
		{"Step dt 0", call(func() error { return lif.Step(0, two, two, s2, nil) }), "dt", "0"},
		{"Step dt NaN", call(func() error { return lif.Step(nan, two, two, s2, nil) }), "dt", "NaN"},
		{"Step len(out)", call(func() error { return lif.Step(0.001, two, three, s2, nil) }), "len(out)", "3"},
		{"Step state length", call(func() error { return lif.Step(0.001, three, three, s2, nil) }), "len(State.voltage)", "2"},
		{"Step wrong state", call(func() error {
			s, _ := NewIzhikevich().State(2, nil)
			return lif.Step(0.001, two, two, s, nil)
		}), "State.Names", "recovery"},
		{"Step invalid params", call(func() error { return LIF{TauRC: 0.02, Amplitude: 1, TauRef: -1}.Step(0.001, two, two, s2, nil) }), "TauRef", "-1"},
		{"Poisson nil rng", call(func() error {
			p := NewPoissonSpiking(NewLIFRate())
			s, _ := p.State(2, nil)
			return p.Step(0.001, two, two, s, nil)
		}), "Step(rng)", "<nil>"},
		{"Poisson negative rate", call(func() error {
			p := NewPoissonSpiking(NewRectifiedLinear())
			s, _ := p.State(1, nil)
			return p.Step(0.001, []float64{nan}, []float64{0}, s, rand.New(rand.NewPCG(1, 1)))
		}), "rate_out[0]", "NaN"},
		{"State n < 0", call(func() error { _, err := lif.State(-1, nil); return err }), "State(n)", "-1"},
		{"State.Slice", call(func() error { _, err := s2.Slice(1, 3); return err }), "Slice", "[1:3]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if err == nil {
				t.Fatal("no error")
			}
			var e *validate.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not a *validate.Error", err, err)
			}
			if e.Field != c.field || !strings.Contains(err.Error(), c.value) || e.Rule == "" || e.Object == "" {
				t.Errorf("error %q: field %q, want field %q and value %q", err, e.Field, c.field, c.value)
			}
		})
	}
}

// TestStepAllocs: Step allocates nothing, for every type.
func TestStepAllocs(t *testing.T) {
	const n = 64
	rng := rand.New(rand.NewPCG(1, 2))
	for _, typ := range allTypes() {
		s, err := typ.State(n, rng)
		if err != nil {
			t.Fatal(err)
		}
		J, out := make([]float64, n), make([]float64, n)
		for i := range J {
			J[i] = 2 * rng.Float64()
		}
		allocs := testing.AllocsPerRun(100, func() {
			if err := typ.Step(0.001, J, out, s, rng); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s.Step: %v allocs per call, want 0", typ.Name(), allocs)
		}
	}
}

func TestStateHelpers(t *testing.T) {
	s, _ := NewLIF().State(4, rand.New(rand.NewPCG(1, 2)))
	c := s.Clone()
	c.Vars[0][0] = 42
	if s.Vars[0][0] == 42 {
		t.Error("Clone shares storage")
	}
	v, err := s.Slice(1, 3)
	if err != nil {
		t.Fatal(err)
	}
	v.Var("refractory_time")[0] = 7
	if s.Var("refractory_time")[1] != 7 || v.Len() != 2 || s.Var("nope") != nil {
		t.Error("Slice does not view the parent, or Len/Var are wrong")
	}
	// Stepping the two halves equals stepping the whole.
	lif := NewLIF()
	a, _ := lif.State(4, rand.New(rand.NewPCG(3, 3)))
	b := a.Clone()
	J := []float64{1.5, 3, 10, 0.5}
	outA, outB := make([]float64, 4), make([]float64, 4)
	lo, _ := b.Slice(0, 2)
	hi, _ := b.Slice(2, 4)
	for range 100 {
		_ = lif.Step(0.001, J, outA, a, nil)
		_ = lif.Step(0.001, J[:2], outB[:2], lo, nil)
		_ = lif.Step(0.001, J[2:], outB[2:], hi, nil)
		for i := range outA {
			if outA[i] != outB[i] || a.Vars[0][i] != b.Vars[0][i] {
				t.Fatal("sliced stepping differs")
			}
		}
	}
}

func TestString(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{NewLIF(), "LIF()"},
		{LIF{TauRC: 0.05, TauRef: 0.002, Amplitude: 1}, "LIF(tau_rc=0.05)"},
		{NewRegularSpiking(NewLIFRate()), "RegularSpiking(LIFRate())"},
		{PoissonSpiking{Base: NewTanh(), Amplitude: 0.5}, "PoissonSpiking(Tanh(), amplitude=0.5)"},
		{Izhikevich{TauRecovery: 0.1, Coupling: 0.2, ResetVoltage: -65, ResetRecovery: 8}, "Izhikevich(tau_recovery=0.1)"},
	} {
		if got := c.v.(interface{ String() string }).String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}

// BenchmarkLIFStep: one LIF step of 10,000 neurons (reports ns per
// neuron-step; must be 0 allocs/op).
func BenchmarkLIFStep(b *testing.B) {
	const n = 10000
	lif := NewLIF()
	rng := rand.New(rand.NewPCG(1, 2))
	s, _ := lif.State(n, rng)
	J, out := make([]float64, n), make([]float64, n)
	for i := range J {
		J[i] = 3 * rng.Float64() // mixture of silent, slow and fast neurons
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := lif.Step(0.001, J, out, s, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/neuron-step")
}
