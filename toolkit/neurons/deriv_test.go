package neurons

import (
	"fmt"
	"math"
	"testing"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// differentiableTypes returns every Differentiable type of the package,
// with default and with non-default parameters, and where its kink is
// (NaN for smooth types).
func differentiableTypes() []struct {
	typ  Differentiable
	kink float64
} {
	nan := math.NaN()
	return []struct {
		typ  Differentiable
		kink float64
	}{
		{NewLIFRate(), 1},
		{LIFRate{TauRC: 0.05, TauRef: 0, Amplitude: 0.3}, 1},
		{NewSoftLIFRate(), nan},
		{SoftLIFRate{Sigma: 0.02, TauRC: 0.03, TauRef: 0.001, Amplitude: 2}, nan},
		{NewRectifiedLinear(), 0},
		{RectifiedLinear{Amplitude: 0.25}, 0},
		{NewSigmoid(), nan},
		{Sigmoid{TauRef: 0.01}, nan},
		{NewTanh(), nan},
		{Tanh{TauRef: 0.004}, nan},
	}
}

// TestDerivFiniteDifferences compares Deriv with central differences of
// Step (and Rates, which must agree with Step) on a grid of currents that
// includes points close to each kink and threshold.
func TestDerivFiniteDifferences(t *testing.T) {
	const (
		fdRelTol = 1e-5 // relative to max(|f'|, scale), scale = typical slope of the curve
	)
	var grid []float64
	for J := -20.0; J <= 40; J += 0.173 {
		grid = append(grid, J)
	}
	for _, k := range []float64{0, 1} {
		for _, d := range []float64{1e-6, 1e-4, 1e-3, 0.01, 0.1} {
			grid = append(grid, k-d, k+d)
		}
	}
	grid = append(grid, 0, 1, 1e3, -1e3, 1e5)
	for _, c := range differentiableTypes() {
		name := fmt.Sprint(c.typ)
		f := func(J float64) float64 {
			out := []float64{0}
			if err := c.typ.Step(0.001, []float64{J}, out, State{}, nil); err != nil {
				t.Fatal(err)
			}
			r := []float64{0}
			if err := c.typ.Rates(r, []float64{J}, []float64{1}, []float64{0}); err != nil {
				t.Fatal(err)
			}
			if r[0] != out[0] {
				t.Fatalf("%s at J = %v: Rates %v != Step %v", name, J, r[0], out[0])
			}
			return out[0]
		}
		d := make([]float64, len(grid))
		if err := c.typ.Deriv(d, grid); err != nil {
			t.Fatal(err)
		}
		// the slope scale: f(J = 10) - f(J = -10) over 20 (max rate / range)
		scale := math.Abs(f(10)-f(-10)) / 20
		for i, J := range grid {
			if J == c.kink {
				continue // skip exactly at the kink
			}
			h := 1e-6 * max(1, math.Abs(J))
			if !math.IsNaN(c.kink) {
				h = min(h, 1e-3*math.Abs(J-c.kink))
			}
			fd := (f(J+h) - f(J-h)) / (2 * h)
			tol := fdRelTol * max(math.Abs(d[i]), scale)
			if math.Abs(fd-d[i]) > tol || math.IsNaN(d[i]) {
				t.Errorf("%s at J = %v: Deriv = %.12g, finite difference %.12g (h = %g)", name, J, d[i], fd, h)
			}
		}
	}
}

func TestDerivKinksAndSpecialValues(t *testing.T) {
	J := []float64{-1, 0, 0.5, 1, 2, math.Inf(1), math.Inf(-1), math.NaN()}
	// LIFRate at J = 2 (j = 1): tau_rc/((tau_ref + tau_rc*ln 2)^2 * 1*2)
	d2 := (0.002 + 0.02*math.Ln2) * (0.002 + 0.02*math.Ln2)
	want := map[string][]float64{
		"LIFRate":         {0, 0, 0, 0, 0.02 / (d2 * 2), 0, 0, math.NaN()},
		"RectifiedLinear": {0, 0, 1, 1, 1, 1, 0, math.NaN()},
	}
	for _, typ := range []Differentiable{NewLIFRate(), NewRectifiedLinear()} {
		d := make([]float64, len(J))
		if err := typ.Deriv(d, J); err != nil {
			t.Fatal(err)
		}
		for i, w := range want[typ.Name()] {
			if !(math.Abs(d[i]-w) <= 1e-12*math.Abs(w)) && !(math.IsNaN(w) && math.IsNaN(d[i])) {
				t.Errorf("%s.Deriv at J = %v: %v, want %v", typ.Name(), J[i], d[i], w)
			}
		}
	}
	// smooth types: finite everywhere but NaN, peak values known
	for _, c := range []struct {
		typ  Differentiable
		peak float64 // f'(0)
	}{
		{NewSigmoid(), 0.25 / 0.0025},
		{NewTanh(), 1 / 0.0025},
	} {
		d := make([]float64, len(J))
		if err := c.typ.Deriv(d, J); err != nil {
			t.Fatal(err)
		}
		if math.Abs(d[1]-c.peak) > 1e-12*c.peak {
			t.Errorf("%s.Deriv(0) = %v, want %v", c.typ.Name(), d[1], c.peak)
		}
		for i := range J[:len(J)-1] {
			if math.IsNaN(d[i]) || math.IsInf(d[i], 0) || d[i] < 0 {
				t.Errorf("%s.Deriv at J = %v: %v", c.typ.Name(), J[i], d[i])
			}
		}
		if !math.IsNaN(d[len(J)-1]) {
			t.Errorf("%s.Deriv(NaN) = %v", c.typ.Name(), d[len(J)-1])
		}
	}
	// the LIF slope is unbounded just above threshold, but finite
	d := []float64{0, 0, 0}
	_ = NewLIFRate().Deriv(d, []float64{1 + 1e-300, 1 + 1e-12, 1e300})
	for i, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Errorf("LIFRate.Deriv case %d: %v", i, v)
		}
	}
}

func TestDerivErrorsAndAllocs(t *testing.T) {
	for _, c := range differentiableTypes() {
		err := c.typ.Deriv(make([]float64, 2), make([]float64, 3))
		if e, ok := err.(*validate.Error); !ok || e.Field != "len(dst)" {
			t.Errorf("%s: Deriv with mismatched lengths = %v", c.typ.Name(), err)
		}
		dst, J := make([]float64, 64), make([]float64, 64)
		for i := range J {
			J[i] = float64(i)/8 - 2
		}
		if a := testing.AllocsPerRun(10, func() { _ = c.typ.Deriv(dst, J) }); a != 0 {
			t.Errorf("%s: Deriv allocates %v times", c.typ.Name(), a)
		}
	}
	invalid := []Differentiable{LIFRate{}, RectifiedLinear{}, Sigmoid{}, Tanh{}, SoftLIFRate{}}
	for _, typ := range invalid {
		if err := typ.Deriv([]float64{0}, []float64{1}); err == nil {
			t.Errorf("%s: Deriv accepted zero parameters", typ.Name())
		}
	}
	// which of the package's types are Differentiable
	for _, typ := range allTypes() {
		_, ok := typ.(Differentiable)
		want := !typ.Spiking() && typ.Name() != "AdaptiveLIFRate"
		if ok != want {
			t.Errorf("%s: Differentiable = %v, want %v", typ.Name(), ok, want)
		}
	}
}

// TestSoftLIFRateDeriv: the fused RateDeriv equals Step and Deriv.
func TestSoftLIFRateDeriv(t *testing.T) {
	for _, sigma := range []float64{1, 0.05, 1e-3} {
		s := SoftLIFRate{Sigma: sigma, TauRC: 0.02, TauRef: 0.002, Amplitude: 0.01}
		J := []float64{-1e6, -3, 0, 0.5, 0.999, 1, 1.001, 1.5, 3, 50, 1e6, math.Inf(-1)}
		out, d := make([]float64, len(J)), make([]float64, len(J))
		if err := s.RateDeriv(J, out, d); err != nil {
			t.Fatal(err)
		}
		want, wd := make([]float64, len(J)), make([]float64, len(J))
		st, _ := s.State(len(J), nil)
		if err := s.Step(0.001, J, want, st, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.Deriv(wd, J); err != nil {
			t.Fatal(err)
		}
		for i := range J {
			if out[i] != want[i] || d[i] != wd[i] {
				t.Errorf("sigma %v J %v: RateDeriv (%v, %v), Step/Deriv (%v, %v)", sigma, J[i], out[i], d[i], want[i], wd[i])
			}
		}
	}
}
