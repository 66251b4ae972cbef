package plastic_test

import (
	"slices"
	"testing"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/plastic"
)

const testdata = "../../toolkit/stream/testdata/"

// TestTestdataFilesRun: the network files exercising statestream's
// activations, unshared parameters, factor shapes and parameter bounds
// load without warnings and run three frames with their plasticities, as
// the census runs statestream's own files.
func TestTestdataFilesRun(t *testing.T) {
	for _, f := range []string{"activations", "unshare", "factor_shapes", "bounds"} {
		if w, loaded, ran, err := censusFile(testdata + f + ".st_graph"); !loaded || !ran || err != nil || w != 0 {
			t.Errorf("%s: loaded %v, ran %v, %d warnings, err %v", f, loaded, ran, w, err)
		}
	}
}

// setStates fills the named pools with a pattern that differs between
// agents.
func setStates(t *testing.T, s *frames.Sim, pools ...string) {
	t.Helper()
	for _, nm := range pools {
		v, err := s.State(nm)
		if err != nil {
			t.Fatal(err)
		}
		per := len(v) / s.Agents()
		for i := range v {
			v[i] = float64((i%per)%5+i/per) / 5
		}
	}
}

// TestUnsharedTraining trains unshare.st_graph: the Hebbian plasticity
// and the loss update every agent's own weights (statestream's unshare),
// so the agents' updates differ.
func TestUnsharedTraining(t *testing.T) {
	net, err := stream.Load(testdata+"unshare.st_graph", stream.LoadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := frames.New(net, frames.Options{Seed: 1, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	setStates(t, s, "image", "label")
	refs := []stream.ParamRef{{Kind: "sp", Item: "code_error", Name: "W_0_0"}, {Kind: "sp", Item: "img_hid", Name: "W_0_0"},
		{Kind: "sp", Item: "hid_code", Name: "b_0"}, {Kind: "np", Item: "hidden", Name: "b"}}
	before := map[string][]float64{}
	for _, r := range refs {
		w, err := s.Param(r)
		if err != nil {
			t.Fatal(err)
		}
		before[r.Item+r.Name] = slices.Clone(w)
	}
	tr, err := plastic.Attach(s, plastic.Options{Chunks: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(6); err != nil {
		t.Fatal(err)
	}
	if _, ok := tr.Losses()["hebbian"]; !ok {
		t.Error("the Hebbian plasticity did not run")
	}
	for _, r := range refs {
		w, _ := s.Param(r)
		old := before[r.Item+r.Name]
		per := len(w) / 3
		d := make([]float64, len(w))
		for i := range w {
			d[i] = w[i] - old[i]
		}
		if !slices.ContainsFunc(d, func(v float64) bool { return v != 0 }) {
			t.Errorf("%s %s: not trained", r.Item, r.Name)
			continue
		}
		if slices.Equal(d[:per], d[per:2*per]) {
			t.Errorf("%s %s: agents 0 and 1 got the same update; unshared parameters are trained per agent", r.Item, r.Name)
		}
	}
}

// TestBoundsTraining trains bounds.st_graph: the loss pushes the bounded
// weight, which stays within [−1, 2] (statestream clips after every
// update), more of its values reaching a bound.
func TestBoundsTraining(t *testing.T) {
	net, err := stream.Load(testdata+"bounds.st_graph", stream.LoadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := frames.New(net, frames.Options{Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x, _ := s.State("x")
	for i := range x {
		x[i] = 0.5
	}
	w, _ := s.Param(stream.ParamRef{Kind: "sp", Item: "clipped", Name: "W_0_0"})
	atBound := func() int {
		n := 0
		for _, v := range w {
			if v < -1 || v > 2 {
				t.Fatalf("weight %g outside [-1, 2]", v)
			}
			if v == -1 || v == 2 {
				n++
			}
		}
		return n
	}
	n0 := atBound()
	if _, err := plastic.Attach(s, plastic.Options{}); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		atBound()
	}
	if n := atBound(); n <= n0 {
		t.Errorf("%d values at a bound after training, %d before: the loss did not push the weight", n, n0)
	}
}
