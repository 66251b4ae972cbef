package sim_test

import (
	"path/filepath"
	"testing"

	"github.com/neurogo/neurogo/sim"
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
