package sim_test

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/simtest"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// exact is a MatMulHook computing the products itself, counting them.
func exact(count *int) sim.MatMulHook {
	return func(p sim.DenseProduct, lane int) (sim.MatMulFunc, error) {
		*count++
		return func(a, x, y []float64) error {
			for i := range p.Rows {
				s := 0.0
				for j := range p.Cols {
					s += a[i*p.Cols+j] * x[j]
				}
				y[i] = s
			}
			return nil
		}, nil
	}
}

// Hooked products computed exactly keep every conformance check.
func TestHooksConformance(t *testing.T) {
	n := 0
	simtest.Run(t, func(m *sim.Model) (sim.Backend, error) {
		return sim.NewFromModel(m, sim.Hooks(exact(&n), nil))
	}, simtest.Exact())
	if n == 0 {
		t.Fatal("the hook was never asked")
	}
}

func TestHooksTakeEveryDenseProduct(t *testing.T) {
	const tol = 1e-9
	for _, nt := range []neurons.Type{neurons.NewLIF(), neurons.NewRectifiedLinear()} {
		net := toolkit.New("net", 2)
		stim := net.Node("stim", 2, func(t float64, out []float64) { out[0], out[1] = math.Sin(7*t), math.Cos(5*t) })
		a := net.Ensemble("a", 50, 2)
		a.NeuronType = nt
		b := net.Ensemble("b", 40, 1)
		b.NeuronType = nt
		net.Connect(stim, a)
		net.Connect(a, b).Function = func(x []float64) []float64 { return []float64{x[0] * x[1]} }
		d, err := net.Layer("dense", b, layers.Dense{Units: 3}, 1)
		if err != nil {
			t.Fatal(err)
		}
		p := net.Probe("b", b, toolkit.AttrDecoded)
		pd := net.Probe("d", d, "")
		m, err := sim.Build(net)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := sim.NewFromModel(m)
		count, layerCalls := 0, 0
		hooked, err := sim.NewFromModel(m, sim.Hooks(exact(&count), func(tag string, l layers.Layer, lane int) (layers.Layer, error) {
			layerCalls++
			return l, nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		ref.RunSteps(200)
		hooked.RunSteps(200)
		// stim→a (transform, encoders), a→b (decoders, encoders), b→dense
		if count < 4 || layerCalls != 1 {
			t.Errorf("%T: %d products and %d layers hooked, want ≥ 4 and 1", nt, count, layerCalls)
		}
		for _, pr := range []*toolkit.Probe{p, pd} {
			r, _ := ref.Data(pr)
			h, _ := hooked.Data(pr)
			for k := range r {
				for i := range r[k] {
					if math.Abs(r[k][i]-h[k][i]) > tol {
						t.Fatalf("%T: probe %s step %d: hooked %v, reference %v", nt, pr.Label, k, h[k][i], r[k][i])
					}
				}
			}
		}
	}
	if _, err := sim.NewFromModel(&sim.Model{}, sim.Float32(), sim.Hooks(exact(new(int)), nil)); err == nil {
		t.Error("Hooks with Float32: no error")
	}
}
