package plastic_test

import (
	"fmt"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/plastic"
)

// fixed is a stimulus driver writing the same vector into each of its
// pools every frame (for every agent).
type fixed map[string][]float64

func (d fixed) Start(agents int, out, in map[string][3]int, seed int64) error { return nil }

func (d fixed) Frame(t int, in, out map[string][]float64) error {
	for pool, buf := range out {
		v := d[pool]
		for i := range buf {
			buf[i] = v[i%len(v)]
		}
	}
	return nil
}

// Example trains a dense synapse-pool with an mse loss plasticity: the
// prediction of frame t+1 (a one-step local rollout, the statestream paper, §3.1) is
// compared with the target of frame t.
func Example() {
	net := &stream.Net{
		Name:   "fit",
		Agents: 4,
		NeuronPools: []*stream.NeuronPool{
			{Name: "x", Shape: [3]int{3, 1, 1}, Period: 1},
			{Name: "y", Shape: [3]int{2, 1, 1}, Period: 1},
			{Name: "target", Shape: [3]int{2, 1, 1}, Period: 1},
		},
		SynapsePools: []*stream.SynapsePool{
			{Name: "x_y", Source: [][]string{{"x"}}, Target: "y", Period: 1},
		},
		Plasticities: []*stream.Plasticity{{
			Name: "fit", Type: "loss", LossFunction: "mse",
			Source: "y", SourceT: 1, Target: "target", TargetT: 0,
			Params: []stream.ParamRef{{Kind: "sp", Item: "x_y", Name: "W_0_0"}},
			LR:     0.5, Period: 1,
		}},
		Interfaces: []*stream.Interface{{Name: "world", Type: "fixed", Out: []string{"x", "target"}}},
	}
	world := fixed{"x": {1, 0.5, -1}, "target": {0.2, -0.4}}
	s, err := frames.New(net, frames.Options{Seed: 1, Drivers: map[string]stream.Driver{"world": world}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	tr, err := plastic.Attach(s, plastic.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Run(100); err != nil {
		fmt.Println(err)
		return
	}
	h := tr.History("fit")
	fmt.Println("frames trained:", len(h))
	fmt.Println("loss below 1/1000 of frame 1's:", h[len(h)-1] < h[1]/1000)
	// Output:
	// frames trained: 100
	// loss below 1/1000 of frame 1's: true
}
