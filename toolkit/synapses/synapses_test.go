package synapses

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/validate"
)

const (
	// tolNengo: absolute, outputs vs Nengo 4.1's Synapse.filt (probe
	// outputs match Nengo's reference simulator to 1e-9).
	tolNengo = 1e-9
	// tolMatrix: relative, discrete matrices vs Nengo's (rounding of two
	// different matrix-exponential algorithms).
	tolMatrix = 1e-12
	// tolClosed: absolute, filter responses vs their closed forms over
	// 1000 steps (rounding only: the zero-order hold is exact for these
	// inputs).
	tolClosed = 1e-12
)

type synapseCase struct {
	Name      string    `json:"name"`
	Type      string    `json:"type"`
	Tau       float64   `json:"tau"`
	T         float64   `json:"t"`
	Num       []float64 `json:"num"`
	Den       []float64 `json:"den"`
	Analog    bool      `json:"analog"`
	Method    string    `json:"method"`
	Dt        float64   `json:"dt"`
	Order     int       `json:"order"`
	A         []float64 `json:"A"`
	B         []float64 `json:"B"`
	C         []float64 `json:"C"`
	D         []float64 `json:"D"`
	StepClass string    `json:"step_class"`
	Y         []float64 `json:"y"`
}

func (c synapseCase) synapse() Synapse {
	switch c.Type {
	case "Lowpass":
		return Lowpass{Tau: c.Tau}
	case "Alpha":
		return Alpha{Tau: c.Tau}
	case "Triangle":
		return Triangle{T: c.T}
	}
	return &LinearFilter{Num: c.Num, Den: c.Den, Digital: !c.Analog, Method: c.Method}
}

// unit mirrors unit() in testdata/gen_nengo.py.
func unit(k, i int, seed uint32) float64 {
	h := uint32(k)*0x9E3779B1 + uint32(i)*0x85EBCA77 + seed*0xC2B2AE3D
	h ^= h >> 15
	h *= 0x2C1B3C6D
	h ^= h >> 12
	h *= 0x297A2D39
	h ^= h >> 15
	return float64(h>>8) / 16777216.0
}

// fixtureSignal mirrors signal() in gen_nengo.py: impulse, step, noise.
func fixtureSignal(steps int) []float64 {
	x := make([]float64, steps)
	for k := range x {
		switch {
		case k == 0 || (k >= 200 && k < 600):
			x[k] = 1
		case k >= 600:
			x[k] = 2*unit(k, 0, 0) - 1
		}
	}
	return x
}

func TestNengoSynapses(t *testing.T) {
	b, err := os.ReadFile("testdata/nengo_synapses.json")
	if err != nil {
		t.Fatalf("reading fixture (regenerate with testdata/gen_nengo.py): %v", err)
	}
	var f struct {
		Meta struct {
			Nengo string `json:"nengo"`
			Steps int    `json:"steps"`
		} `json:"meta"`
		Cases []synapseCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.Meta.Nengo != "4.1.0" {
		t.Fatalf("fixture made with nengo %s, want 4.1.0", f.Meta.Nengo)
	}
	x := fixtureSignal(f.Meta.Steps)
	worst := map[string]float64{}
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			s := c.synapse()
			if lti, ok := s.(LTI); ok {
				sys, err := lti.Discretize(c.Dt)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]Kind{"NoX": NoX, "OneX": OneX, "OneXScalar": OneX, "NoD": NoD, "General": General}[c.StepClass]
				if sys.Kind != want || sys.Order != c.Order {
					t.Errorf("kind %v order %d, Nengo %s order %d", sys.Kind, sys.Order, c.StepClass, c.Order)
				}
				for name, pair := range map[string][2][]float64{"A": {sys.A, c.A}, "B": {sys.B, c.B}, "C": {sys.C, c.C}, "D": {{sys.D}, c.D}} {
					got, w := pair[0], pair[1]
					if len(got) != len(w) {
						t.Fatalf("%s: %v, Nengo %v", name, got, w)
					}
					for i := range w {
						if math.Abs(got[i]-w[i]) > tolMatrix*math.Max(1, math.Abs(w[i])) {
							t.Errorf("%s[%d] = %v, Nengo %v", name, i, got[i], w[i])
						}
					}
				}
			}
			y, err := Filt(s, c.Dt, x, 1)
			if err != nil {
				t.Fatal(err)
			}
			maxErr := 0.0
			for k := range c.Y {
				e := math.Abs(y[k] - c.Y[k])
				maxErr = math.Max(maxErr, e)
				if !(e <= tolNengo) {
					t.Fatalf("step %d: %v, Nengo %v", k, y[k], c.Y[k])
				}
			}
			t.Logf("max abs error vs Nengo over %d steps: %.3g", len(c.Y), maxErr)
			key := c.Type
			if key == "LinearFilter" {
				key += " " + strings.TrimSuffix(c.StepClass, "Scalar")
			}
			worst[key] = math.Max(worst[key], maxErr)
		})
	}
	keys := make([]string, 0, len(worst))
	for k := range worst {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-22s max abs error %.3g", k, worst[k])
	}
}

// TestLowpassStepResponse: the zero-order hold is exact for a step input,
// so y[k] = 1 - exp(-(k+1)·dt/tau).
func TestLowpassStepResponse(t *testing.T) {
	for _, c := range []struct{ tau, dt float64 }{{0.005, 0.001}, {0.1, 0.001}, {0.02, 0.0001}, {0.003, 0.002}} {
		f, err := Lowpass{Tau: c.tau}.Filter(c.dt, 3)
		if err != nil {
			t.Fatal(err)
		}
		u := []float64{1, 1, 1}
		y := make([]float64, 3)
		for k := range 1000 {
			_ = f.Step(y, u)
			want := 1 - math.Exp(-float64(k+1)*c.dt/c.tau)
			for _, v := range y {
				if math.Abs(v-want) > tolClosed {
					t.Fatalf("tau %v dt %v step %d: %v, want %v", c.tau, c.dt, k, v, want)
				}
			}
		}
	}
}

// TestAlphaImpulseResponse: y[k] = ∫_{k dt}^{(k+1) dt} (t/tau²)e^(-t/tau) dt.
func TestAlphaImpulseResponse(t *testing.T) {
	for _, c := range []struct{ tau, dt float64 }{{0.005, 0.001}, {0.02, 0.001}, {0.001, 0.0005}} {
		f, err := Alpha{Tau: c.tau}.Filter(c.dt, 1)
		if err != nil {
			t.Fatal(err)
		}
		F := func(t float64) float64 { return (1 + t/c.tau) * math.Exp(-t/c.tau) } // 1 - ∫_0^t h
		y := []float64{0}
		sum := 0.0
		for k := range 1000 {
			u := 0.0
			if k == 0 {
				u = 1
			}
			_ = f.Step(y, []float64{u})
			want := F(float64(k)*c.dt) - F(float64(k+1)*c.dt)
			if math.Abs(y[0]-want) > tolClosed {
				t.Fatalf("tau %v step %d: %v, want %v", c.tau, k, y[0], want)
			}
			sum += y[0]
		}
		if math.Abs(sum-(1-F(1000*c.dt))) > 1e-9 {
			t.Errorf("tau %v: impulse response sums to %v", c.tau, sum)
		}
	}
}

// TestImpulseConventions documents where the input enters for each kind.
func TestImpulseConventions(t *testing.T) {
	impulse := func(s Synapse, dt float64, steps int) []float64 {
		x := make([]float64, steps)
		x[0] = 1
		y, err := Filt(s, dt, x, 1)
		if err != nil {
			t.Fatal(err)
		}
		return y
	}
	// NoX: passthrough, no delay
	if y := impulse(Lowpass{}, 0.001, 3); y[0] != 1 || y[1] != 0 {
		t.Errorf("Lowpass{0}: %v", y)
	}
	// OneX: y[0] = 1 - exp(-dt/tau)
	if y := impulse(Lowpass{Tau: 0.01}, 0.001, 2); math.Abs(y[0]-(1-math.Exp(-0.1))) > tolClosed {
		t.Errorf("Lowpass: %v", y)
	}
	// General: y[0] = D, dynamics from k = 1: H = (0.002 s + 1)/(0.01 s + 1)
	// = 0.2 + 0.8/(0.01 s + 1), so y[k>=1] = 0.8·(1-e^-0.1)·e^(-0.1(k-1)).
	y := impulse(&LinearFilter{Num: []float64{0.002, 1}, Den: []float64{0.01, 1}}, 0.001, 4)
	for k := 1; k < 4; k++ {
		want := 0.8 * (1 - math.Exp(-0.1)) * math.Exp(-0.1*float64(k-1))
		if math.Abs(y[k]-want) > tolClosed || math.Abs(y[0]-0.2) > tolClosed {
			t.Errorf("General: %v", y)
		}
	}
	// Triangle: (m-k)/(m(m+1)/2)
	y = impulse(Triangle{T: 0.003}, 0.001, 6)
	for k, want := range []float64{0.4, 0.3, 0.2, 0.1, 0, 0} {
		if math.Abs(y[k]-want) > tolClosed {
			t.Errorf("Triangle step %d: %v, want %v", k, y[k], want)
		}
	}
}

// TestDCGain: the steady state of a constant input is H(0).
func TestDCGain(t *testing.T) {
	for _, c := range []struct {
		s    LTI
		gain float64
	}{
		{Lowpass{Tau: 0.01}, 1},
		{Alpha{Tau: 0.005}, 1},
		{&LinearFilter{Num: []float64{3}, Den: []float64{2e-4, 0.06, 2}}, 1.5},
		{&LinearFilter{Num: []float64{1e-4, 0, 1}, Den: []float64{1e-4, 0.01, 1}}, 1},
		{&LinearFilter{Num: []float64{2.5}, Den: []float64{0.5}}, 5},
	} {
		sys, err := c.s.Discretize(0.001)
		if err != nil {
			t.Fatal(err)
		}
		if g := sys.DCGain(); math.Abs(g-c.gain) > 1e-9 {
			t.Errorf("%v: DC gain %v, want %v", c.s, g, c.gain)
		}
		f, _ := sys.Filter(1)
		y := []float64{0}
		for range 5000 {
			_ = f.Step(y, []float64{1})
		}
		if math.Abs(y[0]-c.gain) > 1e-9 {
			t.Errorf("%v: steady state %v, want %v", c.s, y[0], c.gain)
		}
	}
}

// TestChannelsIndependent: an n-channel filter equals n one-channel filters,
// and Reset restores the zero state.
func TestChannelsIndependent(t *testing.T) {
	for _, s := range []Synapse{Lowpass{Tau: 0.005}, Alpha{Tau: 0.01}, Triangle{T: 0.004}, Lowpass{},
		&LinearFilter{Num: []float64{0.2, 0.1, 0.05}, Den: []float64{1, -1.2, 0.5}, Digital: true}} {
		const n, steps = 3, 200
		multi, err := s.Filter(0.001, n)
		if err != nil {
			t.Fatal(err)
		}
		singles := make([]Filter, n)
		for c := range singles {
			singles[c], _ = s.Filter(0.001, 1)
		}
		run := func() []float64 {
			var out []float64
			u, y := make([]float64, n), make([]float64, n)
			for k := range steps {
				for c := range u {
					u[c] = unit(k, c, 9)
				}
				_ = multi.Step(y, u)
				for c := range n {
					one := []float64{0}
					_ = singles[c].Step(one, u[c:c+1])
					if one[0] != y[c] {
						t.Fatalf("%v channel %d step %d: %v alone, %v in a bank", s, c, k, one[0], y[c])
					}
				}
				out = append(out, y...)
			}
			return out
		}
		first := run()
		multi.Reset()
		for _, f := range singles {
			f.Reset()
		}
		second := run()
		for i := range first {
			if first[i] != second[i] {
				t.Fatalf("%v: output after Reset differs", s)
			}
		}
		if multi.Len() != n {
			t.Errorf("Len() = %d", multi.Len())
		}
	}
}

func TestFiltNil(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	y, err := Filt(nil, 0.001, x, 2)
	if err != nil || len(y) != 4 || y[3] != 4 {
		t.Fatalf("Filt(nil) = %v, %v", y, err)
	}
	y[0] = 9
	if x[0] != 1 {
		t.Error("Filt(nil) aliases its input")
	}
}

func TestTriangleTaps(t *testing.T) {
	for _, c := range []struct {
		t, dt float64
		taps  int
	}{{0, 0.001, 1}, {0.0105, 0.001, 11}, {0.0025, 0.001, 3}, {0.0035, 0.001, 5}, {0.02, 0.001, 21}, {0.007, 0.002, 5}} {
		// 0.0105/0.001 = 10.499999999999998 → 10; 2.5 → 2 (half to even); 3.5 → 4.
		m, err := Triangle{T: c.t}.Taps(c.dt)
		if err != nil || m != c.taps {
			t.Errorf("Triangle{%v}.Taps(%v) = %d, %v; want %d", c.t, c.dt, m, err, c.taps)
		}
	}
}

func TestStepAllocs(t *testing.T) {
	for _, s := range []Synapse{Lowpass{Tau: 0.005}, Lowpass{}, Alpha{Tau: 0.005}, Triangle{T: 0.01},
		&LinearFilter{Num: []float64{0.002, 1}, Den: []float64{0.01, 1}}} {
		f, err := s.Filter(0.001, 100)
		if err != nil {
			t.Fatal(err)
		}
		u, y := make([]float64, 100), make([]float64, 100)
		if a := testing.AllocsPerRun(100, func() { _ = f.Step(y, u) }); a != 0 {
			t.Errorf("%v: %v allocs per Step", s, a)
		}
	}
}

func TestInvalid(t *testing.T) {
	nan := math.NaN()
	lp, _ := Lowpass{Tau: 0.005}.Filter(0.001, 2)
	cases := []struct {
		name  string
		err   func() error
		field string
		value string
	}{
		{"Lowpass tau NaN", Lowpass{Tau: nan}.Validate, "Tau", "NaN"},
		{"Lowpass tau negative", Lowpass{Tau: -0.005}.Validate, "Tau", "-0.005"},
		{"Alpha tau Inf", Alpha{Tau: math.Inf(1)}.Validate, "Tau", "+Inf"},
		{"Triangle t negative", Triangle{T: -1}.Validate, "T", "-1"},
		{"LinearFilter empty num", (&LinearFilter{Den: []float64{1}}).Validate, "Num", "[]"},
		{"LinearFilter empty den", (&LinearFilter{Num: []float64{1}}).Validate, "Den", "[]"},
		{"LinearFilter NaN", (&LinearFilter{Num: []float64{1}, Den: []float64{nan, 1}}).Validate, "Den[0]", "NaN"},
		{"LinearFilter zero den", (&LinearFilter{Num: []float64{1}, Den: []float64{0, 0}}).Validate, "Den", "[0 0]"},
		{"LinearFilter improper", (&LinearFilter{Num: []float64{1, 2, 3}, Den: []float64{1, 1}}).Validate, "Num", "[1 2 3]"},
		{"LinearFilter method", (&LinearFilter{Num: []float64{1}, Den: []float64{1, 1}, Method: "foh"}).Validate, "Method", "foh"},
		{"LinearFilter gbt", (&LinearFilter{Num: []float64{1}, Den: []float64{1, 1}, Method: "gbt"}).Validate, "Method", "gbt"},
		{"dt zero", func() error { _, err := Lowpass{Tau: 0.005}.Filter(0, 1); return err }, "dt", "0"},
		{"dt NaN", func() error { _, err := Alpha{Tau: 0.005}.Discretize(nan); return err }, "dt", "NaN"},
		{"n negative", func() error { _, err := Lowpass{Tau: 0.005}.Filter(0.001, -1); return err }, "n", "-1"},
		{"Triangle dt", func() error { _, err := Triangle{T: 0.01}.Filter(-0.001, 1); return err }, "dt", "-0.001"},
		{"Step len(src)", func() error { return lp.Step(make([]float64, 2), make([]float64, 3)) }, "len(src)", "3"},
		{"Step len(dst)", func() error { return lp.Step(make([]float64, 1), make([]float64, 2)) }, "len(dst)", "1"},
		{"Filt n", func() error { _, err := Filt(Lowpass{}, 0.001, make([]float64, 5), 2); return err }, "n", "2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			var e *validate.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not a *validate.Error", err, err)
			}
			if e.Field != c.field || !strings.Contains(err.Error(), c.value) || e.Rule == "" {
				t.Errorf("error %q: field %q, want %q and value %q", err, e.Field, c.field, c.value)
			}
		})
	}
}

// TestExpm checks the matrix exponential on closed forms across all Padé
// degrees and with scaling and squaring.
func TestExpm(t *testing.T) {
	for _, s := range []float64{1e-3, 0.1, 0.5, 1.5, 4, 40, 400} {
		// [[-s, s], [0, 0]] → [[e^-s, 1 - e^-s], [0, 1]]
		e := expm([]float64{-s, s, 0, 0}, 2)
		want := []float64{math.Exp(-s), -math.Expm1(-s), 0, 1}
		for i := range want {
			if math.Abs(e[i]-want[i]) > 1e-14 {
				t.Errorf("s=%v: expm = %v, want %v", s, e, want)
				break
			}
		}
		// rotation generator [[0, -s], [s, 0]] → [[cos, -sin], [sin, cos]]
		e = expm([]float64{0, -s, s, 0}, 2)
		want = []float64{math.Cos(s), -math.Sin(s), math.Sin(s), math.Cos(s)}
		for i := range want {
			if math.Abs(e[i]-want[i]) > 1e-12*math.Max(1, s) {
				t.Errorf("rotation s=%v: expm = %v, want %v", s, e, want)
				break
			}
		}
	}
}

func BenchmarkLowpassStep(b *testing.B) {
	const n = 10000
	f, _ := Lowpass{Tau: 0.005}.Filter(0.001, n)
	u, y := make([]float64, n), make([]float64, n)
	for i := range u {
		u[i] = float64(i % 7)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = f.Step(y, u)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/channel-step")
}

// TestDecayFlushesSubnormals: after an impulse the states of Lowpass (one
// state) and Alpha (two) decay towards zero; below the smallest normal
// float64 they are flushed to +0 instead of entering the subnormal range
// (where x86 arithmetic runs in slow microcode assists), so the output is
// exactly 0 once the decay has run out and never subnormal on the way.
func TestDecayFlushesSubnormals(t *testing.T) {
	for _, s := range []Synapse{Lowpass{Tau: 0.005}, Alpha{Tau: 0.005}} {
		f, err := s.Filter(0.001, 3)
		if err != nil {
			t.Fatal(err)
		}
		y := make([]float64, 3)
		if err := f.Step(y, []float64{1, -2, 0}); err != nil {
			t.Fatal(err)
		}
		zero := -1
		for k := 1; k <= 20000; k++ {
			if err := f.Step(y, []float64{0, 0, 0}); err != nil {
				t.Fatal(err)
			}
			for c, v := range y {
				if v != 0 && math.Abs(v) < 0x1p-1022 {
					t.Fatalf("%v: channel %d subnormal at step %d: %v", s, c, k, v)
				}
			}
			if zero < 0 && y[0] == 0 && y[1] == 0 {
				zero = k
			}
		}
		if zero < 0 || y[0] != 0 || y[1] != 0 {
			t.Fatalf("%v: the decay never reached 0: %v", s, y)
		}
		t.Logf("%v: exactly 0 from step %d", s, zero)
	}
}
