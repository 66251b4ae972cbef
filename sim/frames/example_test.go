package frames_test

import (
	"fmt"

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
// the sequential network within the same frame (seed 001 Fig. 1).
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
