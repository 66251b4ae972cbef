package sim_test

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// Float32 tolerances: rate models stay within float32 rounding amplified
// by a few hundred operations; spiking models can move a spike by a step,
// so their filtered outputs are compared more loosely.
const (
	f32RateRelTol  = 1e-4 // max |f32 − f64| / max |f64|, rate neurons
	f32SpikeAbsTol = 0.05 // max |f32 − f64| of filtered decoded values, spiking neurons
)

func TestFloat32CloseToFloat64(t *testing.T) {
	cases := []struct {
		name  string
		net   func() (*toolkit.Network, error)
		rate  bool
		steps int
		batch int
	}{
		{"relu integrator", func() (*toolkit.Network, error) {
			n, err := networks.BenchIntegrator(4, 40, 1)
			if err == nil {
				for _, e := range n.AllEnsembles() {
					e.NeuronType = neurons.NewRectifiedLinear()
				}
			}
			return n, err
		}, true, 300, 1},
		{"lifrate product", func() (*toolkit.Network, error) {
			n := productNet()
			for _, e := range n.AllEnsembles() {
				e.NeuronType = neurons.NewLIFRate()
			}
			return n, nil
		}, true, 300, 2},
		{"relu cconv", func() (*toolkit.Network, error) {
			n, err := networks.BenchCConv(4, 30, 2)
			if err == nil {
				for _, e := range n.AllEnsembles() {
					e.NeuronType = neurons.NewRectifiedLinear()
				}
			}
			return n, err
		}, true, 200, 1},
		{"lif integrator", func() (*toolkit.Network, error) { return integratorNet(), nil }, false, 500, 1},
		{"lif pes", func() (*toolkit.Network, error) { return pesNet(), nil }, false, 500, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net, err := tc.net()
			if err != nil {
				t.Fatal(err)
			}
			m, err := sim.Build(net)
			if err != nil {
				t.Fatal(err)
			}
			run := func(opts ...sim.Option) *sim.Simulator {
				s, err := sim.NewFromModel(m, append(opts, sim.Batch(tc.batch))...)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.RunSteps(tc.steps); err != nil {
					t.Fatal(err)
				}
				return s
			}
			s64, s32 := run(), run(sim.Float32())
			if s32.Precision() != 32 || s64.Precision() != 64 {
				t.Fatalf("Precision: %d and %d", s32.Precision(), s64.Precision())
			}
			if s32.Time() != s64.Time() {
				t.Errorf("time %v, want %v (float64 time in float32 runs)", s32.Time(), s64.Time())
			}
			for _, p := range net.AllProbes() {
				want, _ := s64.DataBatch(p)
				got, _ := s32.DataBatch(p)
				var maxAbs, maxErr float64
				for b := range want {
					for k := range want[b] {
						for i, w := range want[b][k] {
							g := got[b][k][i]
							if float64(float32(g)) != g {
								t.Fatalf("%s: value %v is not a float32", p.Label, g)
							}
							maxAbs = max(maxAbs, math.Abs(w))
							maxErr = max(maxErr, math.Abs(g-w))
						}
					}
				}
				if p.Attr != toolkit.AttrDecoded && p.Synapse == nil {
					t.Logf("%s (%s): max |f32 − f64| = %.3g (not compared: unfiltered)", p.Label, p.Attr, maxErr)
					continue
				}
				t.Logf("%s: max |f32 − f64| = %.3g, max |f64| = %.3g", p.Label, maxErr, maxAbs)
				if tc.rate && !(maxErr <= f32RateRelTol*max(maxAbs, 1e-12)) {
					t.Errorf("%s: max |f32 − f64| = %.3g > %.0e × %.3g", p.Label, maxErr, f32RateRelTol, maxAbs)
				}
				if !tc.rate && !(maxErr <= f32SpikeAbsTol) {
					t.Errorf("%s: max |f32 − f64| = %.3g > %g", p.Label, maxErr, f32SpikeAbsTol)
				}
			}
		})
	}
}

func TestFloat32NaN(t *testing.T) {
	net := toolkit.New("nan", 0)
	n := net.Node("bad", 1, func(tm float64, out []float64) {
		out[0] = 0
		if tm > 0.0025 {
			out[0] = math.NaN()
		}
	})
	e := net.Ensemble("e", 10, 1)
	net.Connect(n, e)
	s, err := sim.New(net, sim.Float32())
	if err != nil {
		t.Fatal(err)
	}
	err = s.RunSteps(10)
	if err == nil {
		t.Fatal("no error for a NaN in a float32 run")
	}
	t.Log(err)
}
