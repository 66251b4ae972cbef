package frames

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// chunkTol bounds the relative difference between a chunked rollout and
// the whole-batch one: the states of an agent are computed by the same
// arithmetic (up to the blocking of the matrix products), the parameter
// gradients are sums over agents grouped by chunk.
const chunkTol = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= chunkTol*math.Max(1, math.Abs(b)) }

// TestChunkedRollout: for every gradient case (with 5 agents, training
// noise where the case has it) and the appendix network's deep_class
// rollout (dropout on), a rollout in 3 chunks, run chunk by chunk in
// reverse order, gives the whole-batch states, depth-0 gradients and
// parameter gradients to chunkTol; a rollout through batch normalisation
// has one chunk.
func TestChunkedRollout(t *testing.T) {
	type cse struct {
		name     string
		net      *stream.Net
		plan     *stream.Rollout
		wrt      []stream.ParamRef
		out      string
		training bool
		drivers  map[string]stream.Driver
	}
	var cs []cse
	for _, tc := range gradCases() {
		tc.net.Agents = 5
		pools := make([][]string, tc.depth+1)
		pools[tc.depth] = []string{tc.out}
		cs = append(cs, cse{tc.name, tc.net, &stream.Rollout{Depth: tc.depth, Pools: pools}, tc.wrt, tc.out, tc.training, nil})
	}
	demo := demoNet(7)
	plan, err := demo.Rollout(demo.Plasticities[1])
	if err != nil {
		t.Fatal(err)
	}
	cs = append(cs, cse{"deep_class", demo, plan, demo.Plasticities[1].Params, "pred2", true,
		map[string]stream.Driver{"mnist": &stimDriver{show: func(int) bool { return true }, seed: 3}}})
	for _, tc := range cs {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.net, Options{Seed: 11, Workers: 1, Drivers: tc.drivers})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			r := rand.New(rand.NewPCG(4, 5))
			for _, np := range tc.net.NeuronPools {
				v, _ := s.State(np.Name)
				fill(r, v, 1)
			}
			s.frame = 5
			whole, err := s.NewRollout(tc.plan, tc.wrt)
			if err != nil {
				t.Fatal(err)
			}
			ch, err := s.NewChunkedRollout(tc.plan, tc.wrt, 3)
			if err != nil {
				t.Fatal(err)
			}
			want := 3
			for _, np := range tc.net.NeuronPools {
				if np.BatchnormMean != "" || np.BatchnormStd != "" {
					want = 1
				}
			}
			if whole.Chunks() != 1 || ch.Chunks() != want {
				t.Fatalf("chunks: whole %d, chunked %d, want 1 and %d", whole.Chunks(), ch.Chunks(), want)
			}
			if err := whole.Forward(tc.training); err != nil {
				t.Fatal(err)
			}
			for c := ch.Chunks() - 1; c >= 0; c-- {
				if err := ch.ForwardChunk(c, tc.training); err != nil {
					t.Fatal(err)
				}
			}
			d := tc.plan.Depth
			for dd := 0; dd <= d; dd++ {
				for _, np := range tc.net.NeuronPools {
					a, b := ch.State(np.Name, dd), whole.State(np.Name, dd)
					for i := range b {
						if !near(a[i], b[i]) {
							t.Fatalf("%s at depth %d [%d]: chunked %v, whole %v", np.Name, dd, i, a[i], b[i])
						}
					}
				}
			}
			c := make([]float64, len(whole.Grad(tc.out, d)))
			fill(r, c, 1)
			copy(whole.Grad(tc.out, d), c)
			copy(ch.Grad(tc.out, d), c)
			if err := whole.Backward(); err != nil {
				t.Fatal(err)
			}
			for c := ch.Chunks() - 1; c >= 0; c-- {
				if err := ch.BackwardChunk(c); err != nil {
					t.Fatal(err)
				}
			}
			ch.ReduceParamGrad()
			for _, np := range tc.net.NeuronPools {
				a, b := ch.Grad(np.Name, 0), whole.Grad(np.Name, 0)
				for i := range b {
					if !near(a[i], b[i]) {
						t.Fatalf("∂L/∂%s(depth 0)[%d]: chunked %v, whole %v", np.Name, i, a[i], b[i])
					}
				}
			}
			for _, ref := range tc.wrt {
				a, b := ch.ParamGrad(ref), whole.ParamGrad(ref)
				nz := false
				for i := range b {
					nz = nz || b[i] != 0
					if !near(a[i], b[i]) {
						t.Fatalf("∂L/∂%v[%d]: chunked %v, whole %v", ref, i, a[i], b[i])
					}
				}
				if !nz {
					t.Errorf("∂L/∂%v: all zero", ref)
				}
			}
		})
	}
}

func TestChunkedRolloutErrors(t *testing.T) {
	s, err := New(chain(4, [3]int{2, 1, 1}, [3]int{2, 1, 1}, nil), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plan := &stream.Rollout{Depth: 1, Pools: [][]string{{}, {"out"}}}
	if _, err := s.NewChunkedRollout(plan, nil, 0); err == nil {
		t.Error("NewChunkedRollout with 0 chunks: no error")
	}
	ro, err := s.NewChunkedRollout(plan, nil, 9)
	if err != nil {
		t.Fatal(err)
	}
	if ro.Chunks() != 4 {
		t.Errorf("9 chunks at 4 agents: %d chunks, want 4", ro.Chunks())
	}
	if a0, a1 := ro.ChunkAgents(2); a0 != 2 || a1 != 3 {
		t.Errorf("ChunkAgents(2) = %d, %d, want 2, 3", a0, a1)
	}
	if err := ro.ForwardChunk(4, false); err == nil {
		t.Error("ForwardChunk(4) of 4: no error")
	}
	if err := ro.BackwardChunk(-1); err == nil {
		t.Error("BackwardChunk(-1): no error")
	}
}

// chunkRecorder is a ChunkedHook that records, per frame, which chunks
// ran before its Read and what frame-t state the Read saw.
type chunkRecorder struct {
	s      *Sim
	n      int
	ran    []int // frame of the last ReadChunk per chunk
	reads  []int // frames of Read
	seen   []float64
	failAt int // ReadChunk of chunk 1 fails at this frame (-1 never)
	t      *testing.T
}

func (h *chunkRecorder) Chunks() int { return h.n }

func (h *chunkRecorder) ReadChunk(t, c int) error {
	h.ran[c] = t
	if c == 1 && t == h.failAt {
		return errors.New("chunk failure")
	}
	return nil
}

func (h *chunkRecorder) Read(t int) error {
	for c, f := range h.ran {
		if f != t {
			h.t.Errorf("frame %d: Read before chunk %d ran (it last ran at %d)", t, c, f)
		}
	}
	h.reads = append(h.reads, t)
	v, _ := h.s.State("out")
	h.seen = append(h.seen, v[0])
	return nil
}

func (h *chunkRecorder) Write(t int) error { return nil }

// TestChunkedHook: every chunk's ReadChunk runs in the read phase, then
// Read once, with the frame-t states still current; in both modes and for
// several worker counts. An error of a chunk stops the frame and names it.
func TestChunkedHook(t *testing.T) {
	for _, o := range []Options{{Workers: 1}, {Workers: 3}, {Workers: 2, Mode: Sequential}} {
		net := chain(4, [3]int{2, 1, 1}, [3]int{2, 1, 1}, nil)
		net.NeuronPools[1].Act = "tanh"
		s, err := New(net, o)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := s.State("in")
		fill(rand.New(rand.NewPCG(1, 1)), in, 1)
		h := &chunkRecorder{s: s, n: 3, ran: []int{-1, -1, -1}, failAt: 4, t: t}
		s.AddHook(h)
		var want []float64
		for range 4 {
			v, _ := s.State("out")
			want = append(want, v[0])
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if len(h.reads) != 4 {
			t.Fatalf("%+v: %d Reads, want 4", o, len(h.reads))
		}
		for i := range want {
			if h.reads[i] != i || h.seen[i] != want[i] {
				t.Errorf("%+v: Read %d at frame %d saw %v, want frame %d state %v", o, i, h.reads[i], h.seen[i], i, want[i])
			}
		}
		err = s.Step()
		if err == nil || !strings.Contains(err.Error(), "ReadChunk 1") {
			t.Errorf("%+v: failing chunk: error %v, want one naming ReadChunk 1", o, err)
		}
		s.Close()
	}
}
