package plastic

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
)

// Tolerance of the plasticity-gradient check: central differences of the
// loss through a depth-2 rollout (tanh, sigmoid) with step fdStep, same
// error budget as fdTol (the check passes at 1e-8). The executor's own
// rollout gradients pass its finite-difference checks, so this checks the
// plumbing: loss gradient into the rollout, parameter gradients out,
// target gradients at depth > 0, masks.
const planTol = 1e-7

// gradNet: in [4] → h [3] (tanh) → out [2] (sigmoid); in → u [2]
// (sigmoid); tgt [2] and m [1] written by the driver.
func gradNet(p *stream.Plasticity) *stream.Net {
	return periods(&stream.Net{
		Name:   "grad",
		Agents: 2,
		NeuronPools: []*stream.NeuronPool{
			{Name: "in", Shape: [3]int{4, 1, 1}},
			{Name: "h", Shape: [3]int{3, 1, 1}, Act: "tanh"},
			{Name: "out", Shape: [3]int{2, 1, 1}, Act: "sigmoid"},
			{Name: "u", Shape: [3]int{2, 1, 1}, Act: "sigmoid"},
			{Name: "tgt", Shape: [3]int{2, 1, 1}},
			{Name: "m", Shape: [3]int{1, 1, 1}},
		},
		SynapsePools: []*stream.SynapsePool{
			{Name: "in_h", Source: [][]string{{"in"}}, Target: "h", Init: map[string]string{"W_0_0": "normal"}},
			{Name: "h_out", Source: [][]string{{"h"}}, Target: "out", Init: map[string]string{"W_0_0": "normal"}},
			{Name: "in_u", Source: [][]string{{"in"}}, Target: "u", Init: map[string]string{"W_0_0": "normal"}},
		},
		Plasticities: []*stream.Plasticity{p},
		Interfaces:   []*stream.Interface{{Name: "drv", Type: "test", Out: []string{"in", "tgt", "m"}}},
	})
}

// TestPlasticityGradient: the gradient a loss plasticity hands to its
// optimiser equals the central finite difference of its loss w.r.t. every
// listed parameter, for each loss function, with a mask, and with a target
// computed by the rollout (gradient through both sides).
func TestPlasticityGradient(t *testing.T) {
	W1 := stream.ParamRef{Kind: "sp", Item: "in_h", Name: "W_0_0"}
	W2 := stream.ParamRef{Kind: "sp", Item: "h_out", Name: "W_0_0"}
	Wu := stream.ParamRef{Kind: "sp", Item: "in_u", Name: "W_0_0"}
	bh := stream.ParamRef{Kind: "np", Item: "h", Name: "b"}
	cases := []struct {
		name, fn, target string
		targetT          int
		mask             string
		params           []stream.ParamRef
		tgt              []float64
	}{
		{"mse", "mse", "tgt", 0, "", []stream.ParamRef{W1, W2, bh}, []float64{0.2, 0.9}},
		{"mae", "mae", "tgt", 0, "", []stream.ParamRef{W1, W2}, []float64{0.2, 0.9}},
		{"hinge", "hinge", "tgt", 0, "", []stream.ParamRef{W1, W2}, []float64{-1, 1}},
		{"negloglikelihood", "negloglikelihood", "tgt", 0, "", []stream.ParamRef{W1, W2}, []float64{0, 1}},
		{"categorical_crossentropy", "categorical_crossentropy", "tgt", 0, "", []stream.ParamRef{W1, W2, bh}, []float64{1, 0}},
		{"minimize", "minimize", "", 0, "", []stream.ParamRef{W1, W2}, []float64{0, 0}},
		{"maximize", "maximize", "", 0, "", []stream.ParamRef{W2, bh}, []float64{0, 0}},
		{"masked mse", "mse", "tgt", 0, "m", []stream.ParamRef{W1, W2}, []float64{0.2, 0.9}},
		{"target at depth 1", "mse", "u", 1, "", []stream.ParamRef{W1, W2, Wu}, []float64{0, 0}},
	}
	for _, c := range cases {
		p := &stream.Plasticity{Name: "p", Type: "loss", LossFunction: c.fn, Source: "out", SourceT: 2,
			Target: c.target, TargetT: c.targetT, Mask: c.mask, Params: c.params, Period: 1}
		// Per agent: in, tgt, m (m: agent 0 counts, agent 1 half).
		drv := &perAgentDriver{vals: map[string][]float64{
			"in":  {0.5, -1, 0.25, 1, -0.3, 0.8, 0.1, -0.6},
			"tgt": append(append([]float64(nil), c.tgt...), c.tgt...),
			"m":   {1, 0.5},
		}}
		s, err := frames.New(gradNet(p), frames.Options{Seed: 2, Drivers: map[string]stream.Driver{"drv": drv}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		tr, err := Attach(s, Options{NoNoise: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.SetEnabled("p", false); err != nil {
			t.Fatal(err)
		}
		if err := s.Run(3); err != nil { // non-zero states everywhere
			t.Fatal(err)
		}
		pl := tr.byName["p"]
		for i, r := range c.params {
			if err := pl.estimate(s); err != nil { // at the unperturbed point
				t.Fatal(err)
			}
			g := append([]float64(nil), pl.vars[i].Grad...)
			w, err := s.Param(r)
			if err != nil {
				t.Fatal(err)
			}
			var nonzero bool
			for j := range w {
				old := w[j]
				w[j] = old + fdStep
				if err := pl.estimate(s); err != nil {
					t.Fatal(err)
				}
				lp := pl.last
				w[j] = old - fdStep
				if err := pl.estimate(s); err != nil {
					t.Fatal(err)
				}
				lm := pl.last
				w[j] = old
				fd := (lp - lm) / (2 * fdStep)
				nonzero = nonzero || g[j] != 0
				if math.Abs(fd-g[j]) > planTol*math.Max(1, math.Abs(fd)) {
					t.Errorf("%s: ∂L/∂%s[%d] = %v, finite difference %v", c.name, refString(r), j, g[j], fd)
				}
			}
			if !nonzero {
				t.Errorf("%s: gradient of %s is zero", c.name, refString(r))
			}
		}
	}
}

// perAgentDriver writes agents·n values per pool as given.
type perAgentDriver struct{ vals map[string][]float64 }

func (d *perAgentDriver) Start(agents int, out, in map[string][3]int, seed int64) error { return nil }

func (d *perAgentDriver) Frame(t int, in, out map[string][]float64) error {
	for pool, buf := range out {
		copy(buf, d.vals[pool])
	}
	return nil
}
