package networks

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// eaAtol is the tolerance of Nengo 4.1's
// test_ensemblearray.py::test_multidim (atol 0.1 on the settled,
// filtered decoded values).
const eaAtol = 0.1

// TestEnsembleArrayAddOutput represents constant vectors in arrays of 1-,
// 2- and 3-D ensembles and decodes both the identity (Output) and, with
// AddOutput, the element-wise square and a per-ensemble sum.
func TestEnsembleArrayAddOutput(t *testing.T) {
	cases := []struct {
		nEns, ensDims int
		in            []float64
	}{
		{3, 1, []float64{0.5, -0.5, 0.8}},
		{2, 2, []float64{0.3, -0.6, -0.4, 0.2}},
		{2, 3, []float64{0.3, -0.3, 0.4, -0.5, 0.1, 0.2}},
	}
	for i, c := range cases {
		net := toolkit.New("ea test", int64(i+1))
		ea, err := EnsembleArray(net, "ea", 100*c.ensDims, c.nEns, c.ensDims)
		if err != nil {
			t.Fatal(err)
		}
		sq, err := ea.AddOutput("square", func(x []float64) []float64 {
			y := make([]float64, len(x))
			for j, v := range x {
				y[j] = v * v
			}
			return y
		})
		if err != nil {
			t.Fatal(err)
		}
		sum, err := ea.AddOutput("sum", func(x []float64) []float64 {
			s := 0.0
			for _, v := range x {
				s += v
			}
			return []float64{s}
		})
		if err != nil {
			t.Fatal(err)
		}
		if sq.SizeIn != ea.Dims() || sum.SizeIn != c.nEns || ea.Outputs["sum"] != sum {
			t.Fatalf("case %d: square size %d, sum size %d; want %d, %d", i, sq.SizeIn, sum.SizeIn, ea.Dims(), c.nEns)
		}
		net.Connect(net.Const("in", c.in...), ea.Input)
		var probes []*toolkit.Probe
		for _, n := range []*toolkit.Node{ea.Output, sq, sum} {
			p := net.Probe(n.Label, n, "")
			p.Synapse = synapses.Lowpass{Tau: 0.03}
			probes = append(probes, p)
		}
		data, tr := simulate(t, net, 0.5, probes...)
		want := [][]float64{c.in, make([]float64, len(c.in)), make([]float64, c.nEns)}
		for j, v := range c.in {
			want[1][j] = v * v
			want[2][j/c.ensDims] += v
		}
		for k, name := range []string{"output", "square", "sum"} {
			got := meanOver(data[k], tr, func(t float64) bool { return t > 0.3 })
			for j := range got {
				if math.Abs(got[j]-want[k][j]) > eaAtol {
					t.Errorf("case %d %s[%d] = %.3f, want %.3f ± %v", i, name, j, got[j], want[k][j], eaAtol)
				}
			}
			t.Logf("case %d (%d×%d-D) %s: %.3f (want %.3f)", i, c.nEns, c.ensDims, name, got, want[k])
		}
	}
}

// TestEnsembleArrayNeuronIO checks the neuron input and output nodes:
// strongly inhibiting all neurons silences them.
func TestEnsembleArrayNeuronIO(t *testing.T) {
	net := toolkit.New("ea neurons", 1)
	ea, err := EnsembleArray(net, "ea", 20, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	nin, nout := ea.AddNeuronInput(), ea.AddNeuronOutput()
	if ea.AddNeuronInput() != nin || nin.SizeIn != 60 || nout.SizeIn != 60 {
		t.Fatalf("neuron nodes: sizes %d, %d; want 60 (and AddNeuronInput idempotent)", nin.SizeIn, nout.SizeIn)
	}
	inhib := make([]float64, 60)
	for i := range inhib {
		inhib[i] = -10
	}
	net.Connect(net.Const("inhibit", inhib...), nin).Synapse = nil
	p := net.Probe("spikes", nout, "")
	data, _ := simulate(t, net, 0.1, p)
	for _, r := range data[0][10:] {
		for j, v := range r {
			if v != 0 {
				t.Fatalf("neuron %d fired (%v) under inhibition", j, v)
			}
		}
	}
}
