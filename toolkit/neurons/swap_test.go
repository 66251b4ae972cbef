package neurons

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRateCounterpart(t *testing.T) {
	lif := LIF{TauRC: 0.03, TauRef: 0.001, MinVoltage: -1, Amplitude: 0.5}
	cases := []struct {
		name  string
		typ   Type
		sigma float64
		want  Type   // nil: an error
		notD  bool   // the error is ErrNotDifferentiable
		inErr string // substring of the error
	}{
		{"LIF smoothed", lif, 0.1, SoftLIFRate{Sigma: 0.1, TauRC: 0.03, TauRef: 0.001, Amplitude: 0.5}, false, ""},
		{"LIF sigma 0", lif, 0, LIFRate{TauRC: 0.03, TauRef: 0.001, Amplitude: 0.5}, false, ""},
		{"*LIF", &lif, 0, LIFRate{TauRC: 0.03, TauRef: 0.001, Amplitude: 0.5}, false, ""},
		{"LIFRate", NewLIFRate(), 0.5, NewLIFRate(), false, ""},
		{"SoftLIFRate", NewSoftLIFRate(), 0, NewSoftLIFRate(), false, ""},
		{"RectifiedLinear", RectifiedLinear{Amplitude: 3}, 1, RectifiedLinear{Amplitude: 3}, false, ""},
		{"SpikingRectifiedLinear", SpikingRectifiedLinear{Amplitude: 3}, 1, RectifiedLinear{Amplitude: 3}, false, ""},
		{"Sigmoid", NewSigmoid(), 1, NewSigmoid(), false, ""},
		{"Tanh", NewTanh(), 1, NewTanh(), false, ""},
		{"RegularSpiking(LIFRate)", NewRegularSpiking(NewLIFRate()), 1, NewLIFRate(), false, ""},
		{"RegularSpiking(LIFRate) amplitude 2", RegularSpiking{Base: NewLIFRate(), Amplitude: 2},
			1, LIFRate{TauRC: 0.02, TauRef: 0.002, Amplitude: 2}, false, ""},
		{"PoissonSpiking(Tanh) amplitude 2", PoissonSpiking{Base: NewTanh(), Amplitude: 2},
			1, Tanh{TauRef: 0.00125}, false, ""},
		{"StochasticSpiking(Sigmoid) amplitude 0.5", StochasticSpiking{Base: NewSigmoid(), Amplitude: 0.5},
			1, Sigmoid{TauRef: 0.005}, false, ""},
		{"StochasticSpiking(RectifiedLinear) amplitude 0.5", StochasticSpiking{Base: RectifiedLinear{Amplitude: 4}, Amplitude: 0.5},
			1, RectifiedLinear{Amplitude: 2}, false, ""},
		{"PoissonSpiking(SoftLIFRate) amplitude 3", PoissonSpiking{Base: NewSoftLIFRate(), Amplitude: 3},
			0, SoftLIFRate{Sigma: 1, TauRC: 0.02, TauRef: 0.002, Amplitude: 3}, false, ""},
		{"PoissonSpiking(LIF): the spiking base is swapped too", PoissonSpiking{Base: NewLIF(), Amplitude: 2},
			0.05, SoftLIFRate{Sigma: 0.05, TauRC: 0.02, TauRef: 0.002, Amplitude: 2}, false, ""},
		{"*StochasticSpiking(SpikingRectifiedLinear)", &StochasticSpiking{Base: NewSpikingRectifiedLinear(), Amplitude: 1},
			0, NewRectifiedLinear(), false, ""},
		{"AdaptiveLIF", NewAdaptiveLIF(), 1, nil, true, "neurons: AdaptiveLIF has no differentiable rate counterpart"},
		{"AdaptiveLIFRate", NewAdaptiveLIFRate(), 1, nil, true, "neurons: AdaptiveLIFRate has no differentiable rate counterpart"},
		{"Izhikevich", NewIzhikevich(), 1, nil, true, "neurons: Izhikevich has no differentiable rate counterpart"},
		{"RegularSpiking(AdaptiveLIFRate)", NewRegularSpiking(NewAdaptiveLIFRate()), 1, nil, true, "AdaptiveLIFRate has no"},
		{"PoissonSpiking(Izhikevich)", NewPoissonSpiking(NewIzhikevich()), 1, nil, true, "Izhikevich has no"},
		{"user type", userRate{NewAdaptiveLIFRate()}, 1, nil, true, "neurons: userRate has no differentiable rate counterpart"},
		{"user differentiable", userDiff{NewRectifiedLinear()}, 1, userDiff{NewRectifiedLinear()}, false, ""},
		{"user differentiable, wrapped", NewRegularSpiking(userDiff{NewRectifiedLinear()}), 1, userDiff{NewRectifiedLinear()}, false, ""},
		{"user differentiable, amplitude 2", RegularSpiking{Base: userDiff{NewRectifiedLinear()}, Amplitude: 2}, 1, nil, false, "cannot be folded"},
		{"invalid LIF", LIF{TauRC: -1, TauRef: 0.002, Amplitude: 1}, 1, nil, false, "LIF.TauRC"},
		{"invalid wrapper", RegularSpiking{Base: NewLIFRate(), Amplitude: 0}, 1, nil, false, "RegularSpiking.Amplitude"},
		{"nil", nil, 1, nil, false, "must be a neuron type"},
		{"nil *LIF", (*LIF)(nil), 1, nil, false, "must be a neuron type"},
		{"negative sigma", NewLIF(), -0.1, nil, false, "RateCounterpart.sigma"},
		{"NaN sigma", NewLIF(), math.NaN(), nil, false, "RateCounterpart.sigma"},
		{"Inf sigma", NewLIF(), math.Inf(1), nil, false, "RateCounterpart.sigma"},
	}
	for _, c := range cases {
		got, err := RateCounterpart(c.typ, c.sigma)
		if c.want != nil {
			if err != nil || got != c.want {
				t.Errorf("%s: RateCounterpart = %#v, %v; want %#v", c.name, got, err, c.want)
				continue
			}
			if _, ok := got.(Differentiable); !ok || got.Spiking() {
				t.Errorf("%s: %s is not a Differentiable rate type", c.name, got.Name())
			}
			if err := got.Validate(); err != nil {
				t.Errorf("%s: counterpart invalid: %v", c.name, err)
			}
			continue
		}
		if err == nil || got != nil {
			t.Errorf("%s: RateCounterpart = %v, %v; want an error", c.name, got, err)
			continue
		}
		if errors.Is(err, ErrNotDifferentiable) != c.notD {
			t.Errorf("%s: errors.Is(%v, ErrNotDifferentiable) = %v", c.name, err, !c.notD)
		}
		var nd *NotDifferentiableError
		if c.notD && !errors.As(err, &nd) {
			t.Errorf("%s: %v is not a *NotDifferentiableError", c.name, err)
		}
		if !strings.Contains(err.Error(), c.inErr) {
			t.Errorf("%s: error %q does not contain %q", c.name, err, c.inErr)
		}
	}
}

// Every type of the package either has a counterpart or reports
// ErrNotDifferentiable.
func TestRateCounterpartAllTypes(t *testing.T) {
	noCounterpart := map[string]bool{"AdaptiveLIF": true, "AdaptiveLIFRate": true, "Izhikevich": true}
	for _, typ := range append(allTypes(), NewSoftLIFRate()) {
		for _, sigma := range []float64{0, 0.1} {
			got, err := RateCounterpart(typ, sigma)
			if noCounterpart[typ.Name()] {
				if !errors.Is(err, ErrNotDifferentiable) {
					t.Errorf("%s: err = %v, want ErrNotDifferentiable", typ.Name(), err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", typ.Name(), err)
				continue
			}
			if _, ok := got.(Differentiable); !ok || got.Spiking() {
				t.Errorf("%s → %s: not a Differentiable rate type", typ.Name(), got.Name())
			}
		}
	}
}

// The swapped type's Step and Rates are the spiking type's rate curve
// (LIF → LIFRate exactly; LIF → SoftLIFRate close to it for small sigma).
func TestRateCounterpartMatchesRateCurve(t *testing.T) {
	lif := LIF{TauRC: 0.025, TauRef: 0.0015, MinVoltage: -0.5, Amplitude: 0.7}
	gain, bias, err := lif.GainBias([]float64{80, 150, 300}, []float64{-0.8, 0, 0.6})
	if err != nil {
		t.Fatal(err)
	}
	var x []float64
	for v := -1.0; v <= 1; v += 0.01 {
		x = append(x, v, v, v)
	}
	want := make([]float64, len(x))
	if err := lif.Rates(want, x, gain, bias); err != nil {
		t.Fatal(err)
	}
	J := make([]float64, len(x))
	currents(J, x, gain, bias)

	rate, err := RateCounterpart(lif, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, len(x))
	s, _ := rate.State(len(J), nil)
	if err := rate.Step(0.001, J, got, s, nil); err != nil {
		t.Fatal(err)
	}
	viaRates := make([]float64, len(x))
	if err := rate.Rates(viaRates, x, gain, bias); err != nil {
		t.Fatal(err)
	}
	for k := range x {
		if got[k] != want[k] || viaRates[k] != want[k] {
			t.Fatalf("x = %v: LIFRate Step %v, Rates %v; LIF.Rates %v", x[k], got[k], viaRates[k], want[k])
		}
	}
	g2, b2, err := rate.GainBias([]float64{80, 150, 300}, []float64{-0.8, 0, 0.6})
	if err != nil {
		t.Fatal(err)
	}
	for i := range gain {
		if g2[i] != gain[i] || b2[i] != bias[i] {
			t.Errorf("counterpart GainBias %v %v, LIF's %v %v", g2, b2, gain, bias)
		}
	}

	// smoothed: within 0.5 Hz of the curve away from the threshold (the
	// smoothed tail decays slowly: about 0.26 Hz at |J - 1| = 0.1 here)
	const softTol = 0.5 // Hz, sigma = 1e-3
	soft, _ := RateCounterpart(lif, 1e-3)
	if err := soft.Step(0.001, J, got, State{}, nil); err != nil {
		t.Fatal(err)
	}
	for k := range x {
		if math.Abs(J[k]-1) > 0.1 && math.Abs(got[k]-want[k]) > softTol {
			t.Errorf("J = %v: SoftLIFRate %v, LIF.Rates %v", J[k], got[k], want[k])
		}
	}
}

// A wrapper's counterpart, amplitude folded in, gives the wrapper's mean
// output over a long run.
func TestRateCounterpartWrapperMeanOutput(t *testing.T) {
	const (
		dt    = 0.001
		steps = 20000
		// relative, plus 1 Hz; regular spiking is off by at most one spike
		// (amplitude/(steps*dt) = 0.125 Hz here); stochastic spiking's
		// mean has a standard deviation of about 1.5% at J = -0.5, so the
		// stochastic tolerance is 4 of them
		regularTol    = 0.001
		stochasticTol = 0.06
	)
	J := []float64{-0.5, 0.3, 0.9, 1.5, 3}
	for _, w := range []Type{
		RegularSpiking{Base: NewLIFRate(), Amplitude: 2.5},
		RegularSpiking{Base: NewSigmoid(), Amplitude: 0.5},
		RegularSpiking{Base: NewTanh(), Amplitude: 0.25},
		RegularSpiking{Base: RectifiedLinear{Amplitude: 40}, Amplitude: 3},
		StochasticSpiking{Base: NewTanh(), Amplitude: 2},
		PoissonSpiking{Base: RectifiedLinear{Amplitude: 100}, Amplitude: 0.5},
	} {
		tol := regularTol
		if w.Name() != "RegularSpiking" {
			tol = stochasticTol
		}
		rate, err := RateCounterpart(w, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, len(J))
		if err := rate.Step(dt, J, want, State{}, nil); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		s, err := w.State(len(J), rng)
		if err != nil {
			t.Fatal(err)
		}
		out, mean := make([]float64, len(J)), make([]float64, len(J))
		for range steps {
			if err := w.Step(dt, J, out, s, rng); err != nil {
				t.Fatal(err)
			}
			for i, o := range out {
				mean[i] += o / steps
			}
		}
		for i := range J {
			if math.Abs(mean[i]-want[i]) > 1+tol*math.Abs(want[i]) {
				t.Errorf("%v at J = %v: mean output %v, counterpart %v", w, J[i], mean[i], want[i])
			}
		}
	}
}

// userRate is a rate type from outside the package without a derivative.
type userRate struct{ AdaptiveLIFRate }

func (userRate) Name() string { return "userRate" }

// userDiff is a Differentiable type from outside the package.
type userDiff struct{ RectifiedLinear }

func (userDiff) Name() string { return "userDiff" }

func (u userDiff) Validate() error { return nil }

func (u userDiff) GainBias(m, i []float64) ([]float64, []float64, error) {
	return NewRectifiedLinear().GainBias(m, i)
}
