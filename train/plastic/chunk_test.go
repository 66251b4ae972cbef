package plastic

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
)

// chunkTol bounds the relative difference between training with one
// rollout chunk and with several: the chunks sum the same products in a
// different order (per-chunk parameter gradients added in chunk order).
const chunkTol = 1e-9

// runChunked trains the appendix network (dropout on, so the chunks'
// random numbers are exercised) for chunkFrames frames and returns every
// parameter and both loss histories.
func runChunked(t *testing.T, mode frames.Mode, workers, chunks int) (map[stream.ParamRef][]float64, map[string][]float64) {
	t.Helper()
	net, err := stream.Load("../../toolkit/stream/testdata/demonstration.st_graph", stream.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	net.Agents = chunkAgents
	s, err := frames.New(net, frames.Options{Seed: 3, Workers: workers, Mode: mode, Drivers: map[string]stream.Driver{"mnist": newPatterns(10, 3, 5)}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr, err := Attach(s, Options{Chunks: chunks})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(chunkFrames); err != nil {
		t.Fatal(err)
	}
	ps := map[stream.ParamRef][]float64{}
	for _, r := range s.Params() {
		ps[r] = param(t, s, r)
	}
	return ps, map[string][]float64{"class": tr.History("class"), "deep_class": tr.History("deep_class")}
}

const (
	chunkAgents = 6 // 4 chunks of 1, 2, 1, 2 agents
	chunkFrames = 10
)

// TestChunksWorkersBitIdentical: with the rollouts split into agent
// chunks, training gives the same bits for Workers 1, 2 and 3 (Parallel
// mode) and for Workers 1 and 2 (Sequential mode).
func TestChunksWorkersBitIdentical(t *testing.T) {
	for _, mode := range []frames.Mode{frames.Parallel, frames.Sequential} {
		chunksWorkers(t, mode)
	}
}

func chunksWorkers(t *testing.T, mode frames.Mode) {
	refP, refL := runChunked(t, mode, 1, 4)
	ws := []int{2, 3}
	if mode == frames.Sequential {
		ws = ws[:1]
	}
	for _, w := range ws {
		p, l := runChunked(t, mode, w, 4)
		for r, v := range refP {
			for i := range v {
				if p[r][i] != v[i] {
					t.Fatalf("mode %d, Workers %d: %v[%d] = %v, Workers 1 %v", mode, w, r, i, p[r][i], v[i])
				}
			}
		}
		for n, v := range refL {
			for i := range v {
				if l[n][i] != v[i] {
					t.Fatalf("mode %d, Workers %d: %s loss at frame %d = %v, Workers 1 %v", mode, w, n, i, l[n][i], v[i])
				}
			}
		}
	}
}

// TestChunksMatchWhole: training with chunked rollouts equals training
// with whole-batch rollouts (Chunks 1) to chunkTol, parameters and losses,
// and the parameters did change.
func TestChunksMatchWhole(t *testing.T) {
	p1, l1 := runChunked(t, frames.Parallel, 2, 1)
	p4, l4 := runChunked(t, frames.Parallel, 2, 4)
	changed := false
	for r, v := range p1 {
		for i := range v {
			if math.Abs(p4[r][i]-v[i]) > chunkTol*math.Max(1, math.Abs(v[i])) {
				t.Fatalf("%v[%d]: Chunks 4 %v, Chunks 1 %v", r, i, p4[r][i], v[i])
			}
		}
	}
	s, err := frames.New(func() *stream.Net {
		n, err := stream.Load("../../toolkit/stream/testdata/demonstration.st_graph", stream.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n.Agents = chunkAgents
		return n
	}(), frames.Options{Seed: 3, Workers: 1, Drivers: map[string]stream.Driver{"mnist": newPatterns(10, 3, 5)}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for r, v := range p1 {
		if maxDiff(param(t, s, r), v) > 0 {
			changed = true
		}
	}
	if !changed {
		t.Error("no parameter changed in training")
	}
	for n, v := range l1 {
		if len(v) != chunkFrames || len(l4[n]) != chunkFrames {
			t.Fatalf("%s: %d and %d losses, want %d", n, len(v), len(l4[n]), chunkFrames)
		}
		for i := range v {
			if math.Abs(l4[n][i]-v[i]) > chunkTol*math.Max(1, math.Abs(v[i])) {
				t.Errorf("%s loss at frame %d: Chunks 4 %v, Chunks 1 %v", n, i, l4[n][i], v[i])
			}
		}
	}
}

// TestChunksOption: a negative Options.Chunks is an error; the hooks
// register the rollout's chunks (capped by the agents).
func TestChunksOption(t *testing.T) {
	s, _ := newFit(t, 3, Options{Chunks: 1}, mseFit("fit", 0.1))
	if _, err := Attach(s, Options{Chunks: -1}); err == nil {
		t.Error("Attach with Chunks -1: no error")
	}
	_, tr := newFit(t, 3, Options{Chunks: 5}, mseFit("fit", 0.1))
	if got := tr.byName["fit"].roll.Chunks(); got != 3 {
		t.Errorf("Chunks 5 at 3 agents: rollout has %d chunks, want 3", got)
	}
}
