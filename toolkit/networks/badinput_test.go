package networks

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// TestBadInput checks that every constructor rejects bad arguments with a
// *validate.Error naming the network, the argument, the value and the
// rule, and adds nothing to the parent.
func TestBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	bgWith := func(f func(*BasalGangliaConfig)) *BasalGangliaConfig {
		c := DefaultBasalGanglia()
		f(&c)
		return &c
	}
	igmWith := func(f func(*InputGatedMemoryConfig)) *InputGatedMemoryConfig {
		c := DefaultInputGatedMemory()
		f(&c)
		return &c
	}
	cases := []struct {
		name string
		make func(p *toolkit.Network) error
		want []string // substrings of the message
	}{
		{"ea nil parent", func(*toolkit.Network) error { _, err := EnsembleArray(nil, "ea", 10, 2, 1); return err },
			[]string{`networks.EnsembleArray "ea"`, "parent", "must be a network"}},
		{"ea neurons", func(p *toolkit.Network) error { _, err := EnsembleArray(p, "ea", 0, 2, 1); return err },
			[]string{`EnsembleArray "ea"`, "nNeurons = 0", "must be positive"}},
		{"ea ensembles", func(p *toolkit.Network) error { _, err := EnsembleArray(p, "ea", 10, -1, 1); return err },
			[]string{"nEnsembles = -1"}},
		{"ea dims", func(p *toolkit.Network) error { _, err := EnsembleArray(p, "ea", 10, 2, 0); return err },
			[]string{"ensDims = 0"}},
		{"product neurons", func(p *toolkit.Network) error { _, err := Product(p, "prod", 0, 2, 1); return err },
			[]string{`networks.Product "prod"`, "nNeurons = 0", "must be positive"}},
		{"product dims", func(p *toolkit.Network) error { _, err := Product(p, "prod", 10, 0, 1); return err },
			[]string{"dims = 0"}},
		{"product magnitude NaN", func(p *toolkit.Network) error { _, err := Product(p, "prod", 10, 2, nan); return err },
			[]string{"inputMagnitude = NaN", "positive and finite"}},
		{"product magnitude 0", func(p *toolkit.Network) error { _, err := Product(p, "prod", 10, 2, 0); return err },
			[]string{"inputMagnitude = 0"}},
		{"cconv dims", func(p *toolkit.Network) error {
			_, err := CircularConvolution(p, "cc", 10, 0, false, false, 1)
			return err
		}, []string{`networks.CircularConvolution "cc"`, "dims = 0"}},
		{"cconv magnitude", func(p *toolkit.Network) error {
			_, err := CircularConvolution(p, "cc", 10, 4, false, false, inf)
			return err
		}, []string{"inputMagnitude = +Inf"}},
		{"cconv neurons", func(p *toolkit.Network) error {
			_, err := CircularConvolution(p, "cc", -1, 4, false, false, 1)
			return err
		}, []string{"nNeurons = -1"}},
		{"bg dims", func(p *toolkit.Network) error { _, err := BasalGanglia(p, "bg", 0, nil); return err },
			[]string{`networks.BasalGanglia "bg"`, "dims = 0"}},
		{"bg neurons", func(p *toolkit.Network) error {
			_, err := BasalGanglia(p, "bg", 3, bgWith(func(c *BasalGangliaConfig) { c.NNeuronsPerEnsemble = 0 }))
			return err
		}, []string{"NNeuronsPerEnsemble = 0"}},
		{"bg output weight", func(p *toolkit.Network) error {
			_, err := BasalGanglia(p, "bg", 3, bgWith(func(c *BasalGangliaConfig) { c.OutputWeight = nan }))
			return err
		}, []string{"OutputWeight = NaN", "must be finite"}},
		{"bg bias", func(p *toolkit.Network) error {
			_, err := BasalGanglia(p, "bg", 3, bgWith(func(c *BasalGangliaConfig) { c.InputBias = inf }))
			return err
		}, []string{"InputBias = +Inf"}},
		{"bg ampa nil", func(p *toolkit.Network) error {
			_, err := BasalGanglia(p, "bg", 3, bgWith(func(c *BasalGangliaConfig) { c.AMPA = nil }))
			return err
		}, []string{"AMPA = <nil>", "must be set"}},
		{"bg gaba invalid", func(p *toolkit.Network) error {
			_, err := BasalGanglia(p, "bg", 3, bgWith(func(c *BasalGangliaConfig) { c.GABA = synapses.Lowpass{Tau: -1} }))
			return err
		}, []string{"GABA = Lowpass", "invalid synapse"}},
		{"bg solver", func(p *toolkit.Network) error {
			_, err := BasalGanglia(p, "bg", 3, bgWith(func(c *BasalGangliaConfig) { c.Solver = solvers.LstsqL2{Reg: -1} }))
			return err
		}, []string{"Solver = LstsqL2", "invalid solver"}},
		{"thalamus dims", func(p *toolkit.Network) error { _, err := Thalamus(p, "th", -2, nil); return err },
			[]string{`networks.Thalamus "th"`, "dims = -2"}},
		{"thalamus threshold", func(p *toolkit.Network) error {
			_, err := Thalamus(p, "th", 3, &ThalamusConfig{NNeuronsPerEnsemble: 50, MutualInhib: 1, Threshold: 1})
			return err
		}, []string{"Threshold = 1", "below 1"}},
		{"thalamus inhibition", func(p *toolkit.Network) error {
			_, err := Thalamus(p, "th", 3, &ThalamusConfig{NNeuronsPerEnsemble: 50, MutualInhib: nan})
			return err
		}, []string{"MutualInhib = NaN"}},
		{"integrator tau", func(p *toolkit.Network) error { _, err := Integrator(p, "in", 0, 100, 1); return err },
			[]string{`networks.Integrator "in"`, "recurrentTau = 0", "positive and finite"}},
		{"integrator neurons", func(p *toolkit.Network) error { _, err := Integrator(p, "in", 0.1, 0, 1); return err },
			[]string{"nNeurons = 0"}},
		{"integrator dims", func(p *toolkit.Network) error { _, err := Integrator(p, "in", 0.1, 10, 0); return err },
			[]string{"dims = 0"}},
		{"oscillator tau", func(p *toolkit.Network) error { _, err := Oscillator(p, "osc", -0.1, 1, 100); return err },
			[]string{`networks.Oscillator "osc"`, "recurrentTau = -0.1"}},
		{"oscillator frequency", func(p *toolkit.Network) error { _, err := Oscillator(p, "osc", 0.1, nan, 100); return err },
			[]string{"frequency = NaN", "must be finite"}},
		{"igm neurons", func(p *toolkit.Network) error { _, err := InputGatedMemory(p, "igm", 0, 1, nil); return err },
			[]string{`networks.InputGatedMemory "igm"`, "nNeurons = 0"}},
		{"igm feedback", func(p *toolkit.Network) error {
			_, err := InputGatedMemory(p, "igm", 10, 1, igmWith(func(c *InputGatedMemoryConfig) { c.Feedback = inf }))
			return err
		}, []string{"Feedback = +Inf"}},
		{"igm synapse", func(p *toolkit.Network) error {
			_, err := InputGatedMemory(p, "igm", 10, 1, igmWith(func(c *InputGatedMemoryConfig) { c.RecurrentSynapse = nil }))
			return err
		}, []string{"RecurrentSynapse = <nil>", "must be set"}},
		{"bench dims", func(*toolkit.Network) error { _, err := BenchIntegrator(0, 10, 0); return err },
			[]string{`networks.BenchIntegrator "BenchIntegrator"`, "dims = 0"}},
		{"bench neurons", func(*toolkit.Network) error { _, err := BenchPES(4, -1, 0); return err },
			[]string{"neuronsPerD = -1"}},
		{"bench cconv neurons", func(*toolkit.Network) error { _, err := BenchCConv(4, 0, 0); return err },
			[]string{`networks.BenchCConv "BenchCConv"`, "neuronsPerD = 0"}},
		{"bench bg", func(*toolkit.Network) error { _, err := BenchBasalGanglia(0, 10, 0); return err },
			[]string{"dims = 0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parent := toolkit.New("parent", 0)
			err := c.make(parent)
			var te *validate.Error
			if !errors.As(err, &te) {
				t.Fatalf("error %v (%T), want a *validate.Error", err, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if len(parent.Networks) != 0 {
				t.Errorf("a rejected network was added to the parent")
			}
		})
	}
}

// TestAddOutputBadInput checks AddOutput's errors.
func TestAddOutputBadInput(t *testing.T) {
	net := toolkit.New("net", 0)
	ea, err := EnsembleArray(net, "ea", 10, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	id := func(x []float64) []float64 { return x }
	cases := []struct {
		name, out string
		fn        toolkit.Function
		want      string
	}{
		{"nil function", "f", nil, `EnsembleArray "ea".AddOutput.function = <nil>: must be set`},
		{"empty name", "", id, "must be non-empty"},
		{"taken name", "output", id, "already used"},
		{"empty result", "g", func([]float64) []float64 { return nil }, "must return at least one value"},
		{"panicking function", "h", func(x []float64) []float64 { return []float64{x[5]} }, "panicked"},
	}
	for _, c := range cases {
		if _, err := ea.AddOutput(c.out, c.fn); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if len(ea.Net.Nodes) != 2 {
		t.Errorf("rejected outputs added nodes: %d nodes, want 2", len(ea.Net.Nodes))
	}
}
