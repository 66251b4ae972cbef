package toolkit_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/toolkit/validate"
)

func TestDefaultNEvalPoints(t *testing.T) {
	for _, tc := range []struct{ n, d, want int }{
		{50, 1, 750}, {100, 2, 1000}, {10, 10, 2500}, {2000, 1, 4000}, {1, 5, 2500},
	} {
		if got := toolkit.DefaultNEvalPoints(tc.n, tc.d); got != tc.want {
			t.Errorf("DefaultNEvalPoints(%d, %d) = %d, want %d", tc.n, tc.d, got, tc.want)
		}
	}
}

func TestNengoDefaults(t *testing.T) {
	net := toolkit.New("n", 0)
	a := net.Ensemble("a", 10, 1)
	if a.Radius != 1 || !a.NormalizeEncoders || a.NeuronType.Name() != "LIF" {
		t.Errorf("ensemble defaults: %+v", a)
	}
	if u, ok := a.MaxRates.(dists.Uniform); !ok || u.Low != 200 || u.High != 400 {
		t.Errorf("MaxRates = %v", a.MaxRates)
	}
	if u, ok := a.Intercepts.(dists.Uniform); !ok || u.Low != -1 || u.High != 0.9 {
		t.Errorf("Intercepts = %v", a.Intercepts)
	}
	c := net.Connect(a, a)
	if lp, ok := c.Synapse.(synapses.Lowpass); !ok || lp.Tau != 0.005 {
		t.Errorf("Synapse = %v", c.Synapse)
	}
	if c.Transform.Matrix != nil || c.Transform.Scalar != 1 {
		t.Errorf("Transform = %v", c.Transform)
	}
}

func TestSeedsDeterministic(t *testing.T) {
	mk := func(seed int64) (*toolkit.Network, *toolkit.Network) {
		net := toolkit.New("n", seed)
		net.Ensemble("a", 10, 1)
		sub := net.Network("sub")
		sub.Ensemble("b", 10, 1)
		return net, sub
	}
	n1, s1 := mk(7)
	n2, s2 := mk(7)
	n3, _ := mk(8)
	k1, k2, k3 := n1.Seeds(), n2.Seeds(), n3.Seeds()
	if k1[n1.Ensembles[0]] != k2[n2.Ensembles[0]] || k1[s1] != k2[s2] || k1[s1.Ensembles[0]] != k2[s2.Ensembles[0]] {
		t.Error("same network seed gave different object seeds")
	}
	if k1[n1.Ensembles[0]] == k3[n3.Ensembles[0]] {
		t.Error("different network seeds gave the same ensemble seed")
	}
	if k1[s1.Ensembles[0]] == k1[n1.Ensembles[0]] {
		t.Error("sub-network ensemble has its parent's first ensemble seed")
	}
	s1.Ensembles[0].SetSeed(42)
	if n1.Seeds()[s1.Ensembles[0]] != 42 {
		t.Error("SetSeed ignored")
	}
	n1.Seed = 8
	if n1.Seeds()[n1.Ensembles[0]] != k3[n3.Ensembles[0]] {
		t.Error("changing the network seed after construction did not change derived seeds")
	}
}

// TestValidate: every invalid description gives an *Error naming the
// object, the field and the rule.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		make  func(net *toolkit.Network)
		field string
	}{
		{"zero neurons", func(n *toolkit.Network) { n.Ensemble("a", 0, 1) }, "N"},
		{"negative neurons", func(n *toolkit.Network) { n.Ensemble("a", -3, 1) }, "N"},
		{"zero dims", func(n *toolkit.Network) { n.Ensemble("a", 10, 0) }, "Dims"},
		{"NaN radius", func(n *toolkit.Network) { n.Ensemble("a", 10, 1).Radius = math.NaN() }, "Radius"},
		{"gain without bias", func(n *toolkit.Network) { n.Ensemble("a", 2, 1).Gain = []float64{1, 2} }, "Gain/Bias"},
		{"Inf gain", func(n *toolkit.Network) {
			e := n.Ensemble("a", 2, 1)
			e.Gain, e.Bias = []float64{1, math.Inf(1)}, []float64{0, 0}
		}, "Gain[1]"},
		{"bad max rates", func(n *toolkit.Network) { n.Ensemble("a", 2, 1).MaxRates = dists.Uniform{Low: 5, High: 1} }, "MaxRates"},
		{"NaN constant", func(n *toolkit.Network) { n.Const("c", 1, math.NaN()) }, "Output[1]"},
		{"into size_in 0", func(n *toolkit.Network) { n.Connect(n.Const("c", 1), n.Const("d", 1)) }, "Post"},
		{"scalar size mismatch", func(n *toolkit.Network) { n.Connect(n.Const("c", 1, 2), n.Ensemble("a", 10, 1)) }, "Transform"},
		{"dense shape", func(n *toolkit.Network) {
			c := n.Connect(n.Const("c", 1, 2), n.Ensemble("a", 10, 1))
			c.Transform = toolkit.Dense([][]float64{{1, 2, 3}})
		}, "Transform"},
		{"NaN transform", func(n *toolkit.Network) {
			c := n.Connect(n.Const("c", 1), n.Ensemble("a", 10, 1))
			c.Transform = toolkit.Scalar(math.NaN())
		}, "Transform"},
		{"slice out of range", func(n *toolkit.Network) { n.Connect(n.Ensemble("a", 10, 2).Slice(1, 3), n.Ensemble("b", 10, 2)) }, "Pre"},
		{"unknown probe attr", func(n *toolkit.Network) { n.Probe("p", n.Ensemble("a", 10, 1), "spikes") }, "Attr"},
		{"negative sample_every", func(n *toolkit.Network) { n.Probe("p", n.Ensemble("a", 10, 1), "").SampleEvery = -1 }, "SampleEvery"},
		{"bad synapse", func(n *toolkit.Network) {
			n.Connect(n.Const("c", 1), n.Ensemble("a", 10, 1)).Synapse = synapses.Lowpass{Tau: -1}
		}, "Synapse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := toolkit.New("n", 0)
			tc.make(net)
			err := net.Validate()
			var te *validate.Error
			if !errors.As(err, &te) {
				t.Fatalf("Validate() = %v, want *validate.Error", err)
			}
			if te.Field != tc.field || te.Rule == "" || !strings.Contains(te.Object, "\"") {
				t.Errorf("error %q: field %q, want %q (object %q)", err, te.Field, tc.field, te.Object)
			}
		})
	}
}
