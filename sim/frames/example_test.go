package frames_test

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
)

// pulse writes 1 into its pool in frame 1 only.
type pulse struct{}

func (pulse) Start(agents int, out, in map[string][3]int, seed int64) error { return nil }
func (pulse) Frame(t int, in, out map[string][]float64) error {
	v := 0.0
	if t+1 == 1 {
		v = 1
	}
	for i := range out["x"] {
		out["x"][i] = v
	}
	return nil
}

// A chain x → h → y of identity synapse-pools: in the layerwise-parallel
// network the pulse written into frame 1 reaches y two frames later; in
// the sequential network within the same frame (the statestream paper, Fig. 1).
func Example() {
	net := func() *stream.Net {
		pool := func(name string) *stream.NeuronPool {
			return &stream.NeuronPool{Name: name, Shape: [3]int{1, 1, 1}, Period: 1}
		}
		sp := func(name, src, tgt string) *stream.SynapsePool {
			return &stream.SynapsePool{Name: name, Source: [][]string{{src}}, Target: tgt, RF: [][]int{{1}},
				Init: map[string]string{"W_0_0": "id"}, Period: 1}
		}
		return &stream.Net{Agents: 1,
			NeuronPools:  []*stream.NeuronPool{pool("x"), pool("h"), pool("y")},
			SynapsePools: []*stream.SynapsePool{sp("xh", "x", "h"), sp("hy", "h", "y")},
			Interfaces:   []*stream.Interface{{Name: "stim", Type: "pulse", Out: []string{"x"}}},
		}
	}
	for _, mode := range []frames.Mode{frames.Parallel, frames.Sequential} {
		s, err := frames.New(net(), frames.Options{Mode: mode, Workers: 1, Drivers: map[string]stream.Driver{"stim": pulse{}}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print("mode ", mode, ": y =")
		for range 4 {
			_ = s.Step()
			y, _ := s.State("y")
			fmt.Print(" ", y[0])
		}
		fmt.Println()
		s.Close()
	}
	// Output:
	// mode 0: y = 0 0 1 0
	// mode 1: y = 1 0 0 0
}

// A rollout of a dense map x → y over 5 agents, whole and in 2 chunks of
// agents (0–1 and 2–4) computed one after the other, as a ChunkedHook's
// jobs would be: the loss Σ y (depth 1) has the same parameter gradient.
func ExampleSim_NewChunkedRollout() {
	net := &stream.Net{Agents: 5,
		NeuronPools:  []*stream.NeuronPool{{Name: "x", Shape: [3]int{3, 1, 1}, Period: 1}, {Name: "y", Shape: [3]int{2, 1, 1}, Act: "tanh", Period: 1}},
		SynapsePools: []*stream.SynapsePool{{Name: "xy", Source: [][]string{{"x"}}, Target: "y", Period: 1}},
	}
	s, err := frames.New(net, frames.Options{Seed: 1, Workers: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	x := make([]float64, 15)
	for i := range x {
		x[i] = float64(i%4) - 1.5
	}
	_ = s.SetState("x", x)
	plan := &stream.Rollout{Depth: 1, Pools: [][]string{{}, {"y"}}}
	W := []stream.ParamRef{{Kind: "sp", Item: "xy", Name: "W_0_0"}}
	whole, _ := s.NewRollout(plan, W)
	chunked, _ := s.NewChunkedRollout(plan, W, 2)
	_ = whole.Forward(false)
	for i := range whole.Grad("y", 1) {
		whole.Grad("y", 1)[i] = 1
	}
	_ = whole.Backward()
	for c := range chunked.Chunks() {
		_ = chunked.ForwardChunk(c, false)
		a0, a1 := chunked.ChunkAgents(c)
		g := chunked.Grad("y", 1)
		for i := a0 * 2; i < a1*2; i++ {
			g[i] = 1
		}
		_ = chunked.BackwardChunk(c)
	}
	chunked.ReduceParamGrad()
	gw, gc := whole.ParamGrad(W[0]), chunked.ParamGrad(W[0])
	diff := 0.0
	for i := range gw {
		diff = max(diff, math.Abs(gw[i]-gc[i]))
	}
	fmt.Println("chunks:", chunked.Chunks())
	fmt.Println("gradients agree to 1e-12:", diff <= 1e-12)
	// Output:
	// chunks: 2
	// gradients agree to 1e-12: true
}
