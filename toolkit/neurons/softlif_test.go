package neurons

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/toolkit/validate"
)

func TestSoftLIFRateDefaultsAndFlags(t *testing.T) {
	if got, want := NewSoftLIFRate(), (SoftLIFRate{Sigma: 1, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}); got != want {
		t.Fatalf("NewSoftLIFRate() = %+v, want %+v", got, want)
	}
	s := NewSoftLIFRate()
	if s.Name() != "SoftLIFRate" || s.Spiking() || s.Negative() {
		t.Errorf("Name/Spiking/Negative = %q %v %v", s.Name(), s.Spiking(), s.Negative())
	}
	st, err := s.State(3, nil)
	if err != nil || len(st.Names) != 0 || st.Len() != 0 {
		t.Errorf("State(3) = %+v, %v; want no variables", st, err)
	}
	if got := s.String(); got != "SoftLIFRate()" {
		t.Errorf("String() = %q", got)
	}
	s.Sigma = 0.5
	if got := s.String(); got != "SoftLIFRate(sigma=0.5)" {
		t.Errorf("String() = %q", got)
	}
}

func TestSoftLIFRateValidate(t *testing.T) {
	for _, c := range []struct {
		typ   SoftLIFRate
		field string
	}{
		{SoftLIFRate{Sigma: 0, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}, "Sigma"},
		{SoftLIFRate{Sigma: -1, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}, "Sigma"},
		{SoftLIFRate{Sigma: math.NaN(), TauRC: 0.02, TauRef: 0.002, Amplitude: 1}, "Sigma"},
		{SoftLIFRate{Sigma: math.Inf(1), TauRC: 0.02, TauRef: 0.002, Amplitude: 1}, "Sigma"},
		{SoftLIFRate{Sigma: 1, TauRC: 0, TauRef: 0.002, Amplitude: 1}, "TauRC"},
		{SoftLIFRate{Sigma: 1, TauRC: 0.02, TauRef: -1, Amplitude: 1}, "TauRef"},
		{SoftLIFRate{Sigma: 1, TauRC: 0.02, TauRef: 0.002, Amplitude: 0}, "Amplitude"},
	} {
		err := c.typ.Validate()
		e, ok := err.(*validate.Error)
		if !ok || e.Object != "SoftLIFRate" || e.Field != c.field {
			t.Errorf("%+v: Validate() = %v, want a *validate.Error on %s", c.typ, err, c.field)
		}
		if err := c.typ.Step(0.001, []float64{1}, []float64{0}, State{}, nil); err == nil {
			t.Errorf("%+v: Step accepted invalid parameters", c.typ)
		}
		if err := c.typ.Deriv([]float64{0}, []float64{1}); err == nil {
			t.Errorf("%+v: Deriv accepted invalid parameters", c.typ)
		}
	}
	s := NewSoftLIFRate()
	if err := s.Step(0.001, []float64{1, 2}, []float64{0}, State{}, nil); err == nil {
		t.Error("Step accepted len(out) != len(J)")
	}
	if err := s.Deriv([]float64{0}, []float64{1, 2}); err == nil {
		t.Error("Deriv accepted len(dst) != len(J)")
	}
	if err := s.Rates(make([]float64, 3), []float64{1, 2, 3}, []float64{1, 1}, []float64{0, 0}); err == nil {
		t.Error("Rates accepted len(x) not a multiple of n")
	}
}

// Values computed with mpmath at 40 digits from
// amplitude/(tau_ref + tau_rc*log1p(1/(sigma*log1p(exp((J-1)/sigma))))).
func TestSoftLIFRateValues(t *testing.T) {
	const tol = 1e-12 // relative
	for _, c := range []struct {
		typ  SoftLIFRate
		J    float64
		want float64
	}{
		{NewSoftLIFRate(), -1, 21.894960180978291},
		{NewSoftLIFRate(), 0, 32.610887900153009},
		{NewSoftLIFRate(), 1, 50.347297940886196},
		{NewSoftLIFRate(), 2, 75.058774692275472},
		{NewSoftLIFRate(), 10, 243.47588763061562},
		{NewSoftLIFRate(), -1e6, 4.9999945000060499e-5},
		{NewSoftLIFRate(), 1e6, 499.99500004749954},
		{SoftLIFRate{Sigma: 0.1, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}, 1.05, 19.827101386601594},
		{SoftLIFRate{Sigma: 1, TauRC: 0.02, TauRef: 0.002, Amplitude: 2.5}, 2, 2.5 * 75.058774692275472},
	} {
		out := []float64{0}
		if err := c.typ.Step(0.001, []float64{c.J}, out, State{}, nil); err != nil {
			t.Fatal(err)
		}
		if relErr(out[0], c.want) > tol {
			t.Errorf("%v at J = %v: Step = %.17g, want %.17g", c.typ, c.J, out[0], c.want)
		}
		rates := []float64{0}
		if err := c.typ.Rates(rates, []float64{c.J}, []float64{1}, []float64{0}); err != nil {
			t.Fatal(err)
		}
		if rates[0] != out[0] {
			t.Errorf("%v at J = %v: Rates = %v, Step = %v", c.typ, c.J, rates[0], out[0])
		}
	}
}

// As sigma → 0 the curve is LIFRate's, away from the threshold.
func TestSoftLIFRateTendsToLIFRate(t *testing.T) {
	const (
		relTol = 1e-9 // above threshold: p = j to rounding
		absTol = 0.01 // Hz, below threshold: the tail amplitude*sigma/(tau_rc*|j|) is 0.005 Hz at |j| = 0.01
	)
	soft := SoftLIFRate{Sigma: 1e-6, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}
	lif := NewLIFRate()
	for J := -5.0; J <= 20; J += 0.01 {
		if math.Abs(J-1) < 0.01-1e-12 {
			continue
		}
		a, b := []float64{0}, []float64{0}
		_ = soft.Step(0.001, []float64{J}, a, State{}, nil)
		_ = lif.Step(0.001, []float64{J}, b, State{}, nil)
		if math.Abs(a[0]-b[0]) > absTol+relTol*b[0] {
			t.Fatalf("J = %v: SoftLIFRate(sigma=1e-6) = %v, LIFRate = %v", J, a[0], b[0])
		}
	}
	// and the smoothing shrinks monotonically with sigma at the threshold
	prev := math.Inf(1)
	for _, s := range []float64{1, 0.1, 0.01, 1e-3, 1e-6} {
		out := []float64{0}
		_ = SoftLIFRate{Sigma: s, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}.Step(0.001, []float64{1}, out, State{}, nil)
		if !(out[0] < prev) {
			t.Errorf("sigma %v: rate at threshold %v not below %v", s, out[0], prev)
		}
		prev = out[0]
	}
}

func TestSoftLIFRateStable(t *testing.T) {
	var J []float64
	for _, m := range []float64{1, 1e3, 1e6, 1e100, 1e300} {
		J = append(J, m, -m)
	}
	J = append(J, 0, 1, 1+1e-300, 1-1e-300, math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1))
	for _, sigma := range []float64{1e-300, 1e-6, 0.05, 1, 1e6} {
		typ := SoftLIFRate{Sigma: sigma, TauRC: 0.02, TauRef: 0.002, Amplitude: 1}
		out, d := make([]float64, len(J)), make([]float64, len(J))
		if err := typ.Step(0.001, J, out, State{}, nil); err != nil {
			t.Fatal(err)
		}
		if err := typ.Deriv(d, J); err != nil {
			t.Fatal(err)
		}
		for i := range J {
			if math.IsNaN(out[i]) || math.IsInf(out[i], 0) || out[i] < 0 || out[i] > 1/typ.TauRef*(1+1e-15) {
				t.Errorf("sigma %v, J = %v: rate %v", sigma, J[i], out[i])
			}
			if math.IsNaN(d[i]) || math.IsInf(d[i], 0) || d[i] < 0 {
				t.Errorf("sigma %v, J = %v: derivative %v", sigma, J[i], d[i])
			}
		}
	}
	// the rate is positive (no underflow to 0) down to J = -1e6
	out := []float64{0, 0}
	_ = NewSoftLIFRate().Step(0.001, []float64{-1e6, 1e6}, out, State{}, nil)
	if !(out[0] > 0) || !(out[1] < 500) {
		t.Errorf("rates at J = ∓1e6: %v", out)
	}
	// NaN propagates
	_ = NewSoftLIFRate().Step(0.001, []float64{math.NaN(), 2}, out, State{}, nil)
	if !math.IsNaN(out[0]) {
		t.Errorf("rate of NaN = %v", out[0])
	}
}

func TestSoftLIFRateGainBias(t *testing.T) {
	soft, lif := NewSoftLIFRate(), NewLIFRate()
	mr, ic := []float64{100, 250}, []float64{-0.5, 0.3}
	g1, b1, err1 := soft.GainBias(mr, ic)
	g2, b2, err2 := lif.GainBias(mr, ic)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for i := range g1 {
		if g1[i] != g2[i] || b1[i] != b2[i] {
			t.Errorf("GainBias differs from LIFRate's: %v %v vs %v %v", g1, b1, g2, b2)
		}
	}
	m, c, err := soft.MaxRatesIntercepts(g1, b1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		if relErr(m[i], mr[i]) > 1e-9 || math.Abs(c[i]-ic[i]) > 1e-9 {
			t.Errorf("MaxRatesIntercepts = %v %v, want %v %v", m, c, mr, ic)
		}
	}
	if _, _, err := soft.GainBias([]float64{600}, []float64{0}); err == nil {
		t.Error("GainBias accepted a max rate above 1/TauRef")
	}
}

// Derivatives computed with mpmath (numerical differentiation at 40 digits).
func TestSoftLIFRateDerivValues(t *testing.T) {
	const tol = 1e-12 // relative
	J := []float64{-1, 0, 1, 1.5, 2, 5, 10}
	want := []float64{7.9900880983225003, 13.904468127416565, 21.598926294277844, 24.8919737664029,
		27.114966651121607, 23.450905051619892, 13.171477518810375}
	got := make([]float64, len(J))
	if err := NewSoftLIFRate().Deriv(got, J); err != nil {
		t.Fatal(err)
	}
	for i := range J {
		if relErr(got[i], want[i]) > tol {
			t.Errorf("J = %v: Deriv = %.17g, want %.17g", J[i], got[i], want[i])
		}
	}
	out := make([]float64, len(J))
	s := NewSoftLIFRate()
	if a := testing.AllocsPerRun(10, func() { _ = s.Step(0.001, J, out, State{}, nil) }); a != 0 {
		t.Errorf("Step allocates %v times", a)
	}
}
