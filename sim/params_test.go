package sim_test

import (
	"path/filepath"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
)

// Built parameters written with SaveParams and read with LoadParams
// rebuild the same model: the probe traces are identical.
func TestParamsRoundTrip(t *testing.T) {
	net, p := benchNet(30)
	m1, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "params.npz")
	if err := m1.SaveParams(path); err != nil {
		t.Fatal(err)
	}
	params, err := sim.LoadParams(path)
	if err != nil {
		t.Fatal(err)
	}
	// a different seed: every random draw must come from the file
	net2, p2 := benchNet(30)
	net2.Seed = 99
	m2, err := sim.BuildWithParams(net2, params)
	if err != nil {
		t.Fatal(err)
	}
	run := func(m *sim.Model) *sim.Simulator {
		s, err := sim.NewFromModel(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunSteps(300); err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, _ := run(m1).Data(p)
	b, _ := run(m2).Data(p2)
	for k := range a {
		if a[k][0] != b[k][0] {
			t.Fatalf("step %d: %v vs %v after the round trip", k, a[k][0], b[k][0])
		}
	}
	arr := m1.Arrays()
	if g := arr["ens/a/encoders"]; len(g.Shape) != 2 || g.Shape[0] != 30 || g.Shape[1] != 1 {
		t.Errorf("ens/a/encoders shape %v, want [30 1]", g.Shape)
	}
	if w := arr["conn/a->b/weights"]; len(w.Shape) != 2 || w.Shape[0] != 1 || w.Shape[1] != 30 {
		t.Errorf("conn/a->b/weights shape %v, want [1 30]", w.Shape)
	}
}

// Two copies of one sub-network share labels; every ensemble keeps its
// parameters, under label#n keys, and they round-trip through BuildWithParams.
func TestParamsDuplicateLabels(t *testing.T) {
	net := toolkit.New("twins", 3)
	for _, name := range []string{"one", "two"} {
		sub := net.Network(name)
		stim := sub.Const("stim", 0.3)
		a := sub.Ensemble("a", 20, 1)
		sub.Connect(stim, a)
	}
	m, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Params.Ensembles) != 2 || m.Params.Ensembles["a"] == nil || m.Params.Ensembles["a#2"] == nil {
		t.Fatalf("ensemble parameter keys: %v", keysOf(m.Params.Ensembles))
	}
	if _, ok := m.Arrays()["ens/a#2/gain"]; !ok {
		t.Error("Arrays lacks ens/a#2/gain")
	}
	p := m.Params
	p.Ensembles["a#2"].Bias[0] += 1
	m2, err := sim.BuildWithParams(net, &p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m2.Params.Ensembles["a#2"].Bias[0], p.Ensembles["a#2"].Bias[0]; got != want {
		t.Errorf("override of a#2 bias: got %v, want %v", got, want)
	}
}

func keysOf(m map[string]*sim.EnsembleParams) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestKeysUnique: a hand-written "a#2" label and a second "a" get
// different keys.
func TestKeysUnique(t *testing.T) {
	net := toolkit.New("k", 1)
	for _, l := range []string{"a", "a#2", "a", "a"} {
		net.Ensemble(l, 2, 1)
	}
	seen := map[string]bool{}
	for _, k := range sim.EnsembleKeys(net) {
		if seen[k] {
			t.Fatalf("key %q used twice", k)
		}
		seen[k] = true
	}
	for _, want := range []string{"a", "a#2", "a#3", "a#4"} {
		if !seen[want] {
			t.Errorf("missing key %q (have %v)", want, seen)
		}
	}
}
