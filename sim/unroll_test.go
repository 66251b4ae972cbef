package sim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// TestUnrollIdentical: unrolled runs (blocks of 7 steps, a shorter last
// block, several RunSteps calls, a probe sampling every 3 steps) give the
// same probe data as step-by-step runs, with one lane and with three,
// and report progress once per block.
func TestUnrollIdentical(t *testing.T) {
	net, err := networks.BenchBasalGanglia(6, 20, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range net.AllEnsembles() {
		e.NeuronType = neurons.NewRectifiedLinear()
	}
	sparse := net.Probe("sparse", net.AllEnsembles()[0], "")
	sparse.SampleEvery = 0.003
	run := func(batch, unroll int) (map[*toolkit.Probe][][][]float64, int) {
		s, err := sim.New(net, sim.Batch(batch), sim.Unroll(unroll), sim.Parallel(1))
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		s.Progress = func(done, total int) { calls++ }
		for _, n := range []int{50, 23, 1, 0} {
			if err := s.RunSteps(n); err != nil {
				t.Fatal(err)
			}
		}
		out := map[*toolkit.Probe][][][]float64{}
		for _, p := range net.AllProbes() {
			out[p], _ = s.DataBatch(p)
		}
		return out, calls
	}
	for _, batch := range []int{1, 3} {
		want, stepCalls := run(batch, 1)
		got, blockCalls := run(batch, 7)
		if stepCalls != 74 || blockCalls != (7+1)+(3+2)+1 {
			t.Errorf("batch %d: progress calls %d step by step, %d unrolled; want 74 and 14 (a call per block, per step of a last short block)", batch, stepCalls, blockCalls)
		}
		for p, w := range want {
			g := got[p]
			if len(g[0]) != len(w[0]) {
				t.Fatalf("batch %d probe %s: %d samples unrolled, %d step by step", batch, p.Label, len(g[0]), len(w[0]))
			}
			for b := range w {
				for k := range w[b] {
					for i := range w[b][k] {
						if g[b][k][i] != w[b][k][i] {
							t.Fatalf("batch %d probe %s lane %d sample %d [%d] = %v, want %v", batch, p.Label, b, k, i, g[b][k][i], w[b][k][i])
						}
					}
				}
			}
		}
	}
}

// TestUnrollFailure: a NaN stops an unrolled run with the error naming
// the step it appeared in, at the last completed step.
func TestUnrollFailure(t *testing.T) {
	net := toolkit.New("nan", 1)
	u := net.Node("u", 1, func(tm float64, out []float64) {
		out[0] = 0
		if tm > 0.0125 {
			out[0] = math.NaN()
		}
	})
	a := net.Ensemble("a", 10, 1)
	net.Connect(u, a)
	pa := net.Probe("a", a, "")
	s, err := sim.New(net, sim.Unroll(5))
	if err != nil {
		t.Fatal(err)
	}
	err = s.RunSteps(40)
	if err == nil || !strings.Contains(err.Error(), "NaN") || !strings.Contains(err.Error(), "step 13") {
		t.Fatalf("err = %v, want a NaN at step 13", err)
	}
	if s.Steps() != 12 {
		t.Errorf("stopped after %d steps, want the last completed step (12)", s.Steps())
	}
	if d, _ := s.Data(pa); len(d) != 12 {
		t.Errorf("probe has %d samples, want 12", len(d))
	}
}
