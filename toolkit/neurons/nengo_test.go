package neurons

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"testing"
)

// Tolerances for parity with Nengo 4.1 (fixtures from testdata/gen_nengo.py).
const (
	// tolTrace: absolute, for outputs and state traces: probe outputs
	// match Nengo's reference simulator to 1e-9.
	tolTrace = 1e-9
	// tolRel: relative, for gain/bias, max rates/intercepts and rates.
	tolRel = 1e-9
)

type specJSON struct {
	Type   string             `json:"type"`
	Params map[string]float64 `json:"params"`
	Base   *specJSON          `json:"base"`
}

type stepCase struct {
	specJSON
	Name    string                 `json:"name"`
	C       []float64              `json:"c"`
	D       []float64              `json:"d"`
	Hold    []int                  `json:"hold"`
	Seed    uint32                 `json:"seed"`
	Initial map[string][]float64   `json:"initial"`
	Output  [][]float64            `json:"output"`
	State   map[string][][]float64 `json:"state"`
}

type gainBiasCase struct {
	specJSON
	MaxRates   []float64 `json:"max_rates"`
	Intercepts []float64 `json:"intercepts"`
	Gain       []float64 `json:"gain"`
	Bias       []float64 `json:"bias"`
	Error      bool      `json:"error"`
}

type ratesCase struct {
	specJSON
	Gain  []float64   `json:"gain"`
	Bias  []float64   `json:"bias"`
	X     []float64   `json:"x"`
	Rates [][]float64 `json:"rates"`
}

type nengoFixture struct {
	Meta struct {
		Nengo        string  `json:"nengo"`
		Numpy        string  `json:"numpy"`
		Dt           float64 `json:"dt"`
		Steps        int     `json:"steps"`
		SampledSteps []int   `json:"sampled_steps"`
	} `json:"meta"`
	Step               []stepCase     `json:"step"`
	GainBias           []gainBiasCase `json:"gain_bias"`
	MaxRatesIntercepts []gainBiasCase `json:"max_rates_intercepts"`
	Rates              []ratesCase    `json:"rates"`
}

func loadFixture(t *testing.T) *nengoFixture {
	t.Helper()
	b, err := os.ReadFile("testdata/nengo_neurons.json")
	if err != nil {
		t.Fatalf("reading fixture (regenerate with testdata/gen_nengo.py): %v", err)
	}
	var f nengoFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.Meta.Nengo != "4.1.0" {
		t.Fatalf("fixture made with nengo %s, want 4.1.0", f.Meta.Nengo)
	}
	return &f
}

// unit mirrors unit() in gen_nengo.py: a uniform number in [0, 1) with
// 24-bit resolution from an integer hash, identical in both languages.
func unit(k, i int, seed uint32) float64 {
	h := uint32(k)*0x9E3779B1 + uint32(i)*0x85EBCA77 + seed*0xC2B2AE3D
	h ^= h >> 15
	h *= 0x2C1B3C6D
	h ^= h >> 12
	h *= 0x297A2D39
	h ^= h >> 15
	return float64(h>>8) / 16777216.0
}

// typeFromSpec builds a Type from the fixture's Nengo class name and
// Nengo-named parameters, starting from our defaults.
func typeFromSpec(t *testing.T, s specJSON) Type {
	t.Helper()
	p := func(name string, dst *float64) {
		if v, ok := s.Params[name]; ok {
			*dst = v
		}
	}
	known := map[string]bool{}
	for k := range s.Params {
		known[k] = false
	}
	use := func(names ...string) {
		for _, n := range names {
			delete(known, n)
		}
	}
	var typ Type
	switch s.Type {
	case "LIF":
		x := NewLIF()
		p("tau_rc", &x.TauRC)
		p("tau_ref", &x.TauRef)
		p("min_voltage", &x.MinVoltage)
		p("amplitude", &x.Amplitude)
		use("tau_rc", "tau_ref", "min_voltage", "amplitude")
		typ = x
	case "LIFRate":
		x := NewLIFRate()
		p("tau_rc", &x.TauRC)
		p("tau_ref", &x.TauRef)
		p("amplitude", &x.Amplitude)
		use("tau_rc", "tau_ref", "amplitude")
		typ = x
	case "AdaptiveLIF":
		x := NewAdaptiveLIF()
		p("tau_n", &x.TauN)
		p("inc_n", &x.IncN)
		p("tau_rc", &x.TauRC)
		p("tau_ref", &x.TauRef)
		p("min_voltage", &x.MinVoltage)
		p("amplitude", &x.Amplitude)
		use("tau_n", "inc_n", "tau_rc", "tau_ref", "min_voltage", "amplitude")
		typ = x
	case "AdaptiveLIFRate":
		x := NewAdaptiveLIFRate()
		p("tau_n", &x.TauN)
		p("inc_n", &x.IncN)
		p("tau_rc", &x.TauRC)
		p("tau_ref", &x.TauRef)
		p("amplitude", &x.Amplitude)
		use("tau_n", "inc_n", "tau_rc", "tau_ref", "amplitude")
		typ = x
	case "RectifiedLinear":
		x := NewRectifiedLinear()
		p("amplitude", &x.Amplitude)
		use("amplitude")
		typ = x
	case "SpikingRectifiedLinear":
		x := NewSpikingRectifiedLinear()
		p("amplitude", &x.Amplitude)
		use("amplitude")
		typ = x
	case "Sigmoid":
		x := NewSigmoid()
		p("tau_ref", &x.TauRef)
		use("tau_ref")
		typ = x
	case "Tanh":
		x := NewTanh()
		p("tau_ref", &x.TauRef)
		use("tau_ref")
		typ = x
	case "Izhikevich":
		x := NewIzhikevich()
		p("tau_recovery", &x.TauRecovery)
		p("coupling", &x.Coupling)
		p("reset_voltage", &x.ResetVoltage)
		p("reset_recovery", &x.ResetRecovery)
		use("tau_recovery", "coupling", "reset_voltage", "reset_recovery")
		typ = x
	case "RegularSpiking":
		x := NewRegularSpiking(typeFromSpec(t, *s.Base))
		p("amplitude", &x.Amplitude)
		use("amplitude")
		typ = x
	case "PoissonSpiking":
		x := NewPoissonSpiking(typeFromSpec(t, *s.Base))
		p("amplitude", &x.Amplitude)
		use("amplitude")
		typ = x
	case "StochasticSpiking":
		x := NewStochasticSpiking(typeFromSpec(t, *s.Base))
		p("amplitude", &x.Amplitude)
		use("amplitude")
		typ = x
	default:
		t.Fatalf("unknown Nengo type %q", s.Type)
	}
	if len(known) > 0 {
		t.Fatalf("%s: unmapped parameters %v", s.Type, known)
	}
	if err := typ.Validate(); err != nil {
		t.Fatalf("%s: %v", s.Type, err)
	}
	return typ
}

// TestNengoStep runs every deterministic type's Step over the fixture's
// 1000 steps and compares outputs (every step for spiking types, the
// sampled steps for rates) and state variables (sampled steps) with Nengo.
func TestNengoStep(t *testing.T) {
	f := loadFixture(t)
	dt, steps := f.Meta.Dt, f.Meta.Steps
	sampled := map[int]int{} // step → row in the continuous traces
	for r, k := range f.Meta.SampledSteps {
		sampled[k] = r
	}
	perType := map[string]float64{}
	for _, c := range f.Step {
		t.Run(c.Name, func(t *testing.T) {
			typ := typeFromSpec(t, c.specJSON)
			n := len(c.C)
			s, err := typ.State(n, nil)
			if err != nil {
				t.Fatal(err)
			}
			for name, v := range c.Initial {
				dst := s.Var(name)
				if dst == nil {
					t.Fatalf("state has no %q (names %v)", name, s.Names)
				}
				copy(dst, v)
			}
			for name := range c.State {
				if s.Var(name) == nil {
					t.Fatalf("Nengo records state %q, ours has %v", name, s.Names)
				}
			}
			J, out := make([]float64, n), make([]float64, n)
			maxErr := 0.0
			for k := range steps {
				for i := range J {
					J[i] = c.C[i] + float64(c.D[i]*unit(k/c.Hold[i], i, c.Seed))
				}
				if err := typ.Step(dt, J, out, s, nil); err != nil {
					t.Fatalf("step %d: %v", k, err)
				}
				row, isSampled := sampled[k]
				var want []float64
				switch {
				case typ.Spiking():
					want = c.Output[k]
				case isSampled:
					want = c.Output[row]
				}
				for i := range want {
					e := math.Abs(out[i] - want[i])
					maxErr = math.Max(maxErr, e)
					if !(e <= tolTrace) {
						t.Fatalf("step %d neuron %d (J=%v): output %v, Nengo %v", k, i, J[i], out[i], want[i])
					}
				}
				if !isSampled {
					continue
				}
				for name, tr := range c.State {
					got := s.Var(name)
					for i, w := range tr[row] {
						e := math.Abs(got[i] - w)
						maxErr = math.Max(maxErr, e)
						if !(e <= tolTrace) {
							t.Fatalf("step %d neuron %d: %s %v, Nengo %v", k, i, name, got[i], w)
						}
					}
				}
			}
			t.Logf("max abs error vs Nengo over %d steps: %.3g", steps, maxErr)
			name := c.Type
			if c.Base != nil {
				name += "(" + c.Base.Type + ")"
			}
			perType[name] = math.Max(perType[name], maxErr)
		})
	}
	var names []string
	for k := range perType {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		t.Logf("%-32s max abs error %.3g", k, perType[k])
	}
}

func closeRel(a, b, rel float64) bool {
	return a == b || math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

func specName(s specJSON) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestNengoGainBias(t *testing.T) {
	f := loadFixture(t)
	for _, c := range f.GainBias {
		t.Run(specName(c.specJSON), func(t *testing.T) {
			typ := typeFromSpec(t, c.specJSON)
			gain, bias, err := typ.GainBias(c.MaxRates, c.Intercepts)
			if c.Error {
				if err == nil {
					t.Fatalf("Nengo raises for max_rates %v, we returned gain %v bias %v", c.MaxRates, gain, bias)
				}
				t.Logf("error as Nengo: %v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			for i := range c.Gain {
				if !closeRel(gain[i], c.Gain[i], tolRel) || !closeRel(bias[i], c.Bias[i], tolRel) {
					t.Errorf("neuron %d: gain %v bias %v, Nengo %v %v", i, gain[i], bias[i], c.Gain[i], c.Bias[i])
				}
				worst = math.Max(worst, relErr(gain[i], c.Gain[i]))
				worst = math.Max(worst, relErr(bias[i], c.Bias[i]))
			}
			t.Logf("max rel error %.3g", worst)
		})
	}
}

func relErr(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}

func TestNengoMaxRatesIntercepts(t *testing.T) {
	f := loadFixture(t)
	for _, c := range f.MaxRatesIntercepts {
		t.Run(specName(c.specJSON), func(t *testing.T) {
			typ := typeFromSpec(t, c.specJSON)
			mr, ic, err := typ.MaxRatesIntercepts(c.Gain, c.Bias)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.MaxRates {
				// Nengo's intercepts of 0 come back as ~1e-17 from the
				// closed forms: compare with an absolute floor too.
				if !closeRel(mr[i], c.MaxRates[i], tolRel) ||
					!(closeRel(ic[i], c.Intercepts[i], tolRel) || math.Abs(ic[i]-c.Intercepts[i]) <= 1e-12) {
					t.Errorf("neuron %d: max rate %v intercept %v, Nengo %v %v", i, mr[i], ic[i], c.MaxRates[i], c.Intercepts[i])
				}
			}
		})
	}
}

func TestNengoRates(t *testing.T) {
	f := loadFixture(t)
	for _, c := range f.Rates {
		t.Run(specName(c.specJSON), func(t *testing.T) {
			typ := typeFromSpec(t, c.specJSON)
			n := len(c.Gain)
			x := make([]float64, len(c.X)*n)
			for k, v := range c.X {
				for i := range n {
					x[k*n+i] = v
				}
			}
			got := make([]float64, len(x))
			if err := typ.Rates(got, x, c.Gain, c.Bias); err != nil {
				t.Fatal(err)
			}
			for k := range c.X {
				for i := range n {
					g, w := got[k*n+i], c.Rates[k][i]
					if !(closeRel(g, w, tolRel) || math.Abs(g-w) <= tolTrace) {
						t.Errorf("x=%v neuron %d: rate %v, Nengo %v", c.X[k], i, g, w)
					}
				}
			}
		})
	}
}

// TestFixtureInputs guards the input hash against drift between the
// generator and the tests: the first values are pinned.
func TestFixtureInputs(t *testing.T) {
	got := fmt.Sprintf("%.8f %.8f %.8f", unit(0, 0, 1), unit(1, 0, 1), unit(5, 3, 7))
	const want = "0.78849882 0.85273498 0.51955110"
	if got != want {
		t.Errorf("unit hash: got %s, want %s (gen_nengo.py's unit)", got, want)
	}
}
