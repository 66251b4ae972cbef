package frames

import (
	"fmt"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// demoNet is the appendix-6.2 network of the statestream paper (Fig. 3a) built in Go,
// with a configurable number of agents.
func demoNet(agents int) *stream.Net {
	hidden := func(name string, shape [3]int) *stream.NeuronPool {
		return &stream.NeuronPool{Name: name, Shape: shape, Act: "relu", Dropout: 0.2, Tags: []string{"hidden"}}
	}
	pred := func(name string) *stream.NeuronPool {
		return &stream.NeuronPool{Name: name, Shape: [3]int{10, 1, 1}, Act: "softmax", Tags: []string{"prediction"}}
	}
	return withDefaults(&stream.Net{
		Name:   "demonstration_example",
		Agents: agents,
		NeuronPools: []*stream.NeuronPool{
			{Name: "image", Shape: [3]int{1, 28, 28}},
			{Name: "label", Shape: [3]int{10, 1, 1}},
			pred("prediction"),
			hidden("conv1", [3]int{32, 14, 14}),
			hidden("conv2", [3]int{64, 7, 7}),
			pred("pred1"),
			pred("pred2"),
			{Name: "label_copy", Shape: [3]int{10, 1, 1}},
		},
		SynapsePools: []*stream.SynapsePool{
			{Name: "img_c1", Source: [][]string{{"image"}}, Target: "conv1", RF: [][]int{{5}}},
			{Name: "c1_c2", Source: [][]string{{"conv1"}}, Target: "conv2", RF: [][]int{{5}}},
			{Name: "c1_pred", Source: [][]string{{"conv1"}}, Target: "pred1"},
			{Name: "c2_pred", Source: [][]string{{"conv2"}}, Target: "pred2"},
			{Name: "pred_pred", Source: [][]string{{"pred1", "pred2"}}, Target: "prediction", RF: [][]int{{1, 1}},
				Init: map[string]string{"W_0_0": "id", "W_0_1": "id"}},
			{Name: "label_cp", Source: [][]string{{"label"}}, Target: "label_copy", RF: [][]int{{1}},
				Init: map[string]string{"W_0_0": "id"}},
		},
		Plasticities: []*stream.Plasticity{
			{Name: "class", Type: "loss", LossFunction: "categorical_crossentropy", Source: "pred1", SourceT: 1,
				Target: "label_copy", TargetT: 0, LR: 1e-3, Optimizer: "adam",
				Params: []stream.ParamRef{{Kind: "sp", Item: "c1_pred", Name: "W_0_0"}}},
			{Name: "deep_class", Type: "loss", LossFunction: "categorical_crossentropy", Source: "pred2", SourceT: 3,
				Target: "label", TargetT: 0, LR: 1e-4, Optimizer: "adam",
				Params: []stream.ParamRef{{Kind: "sp", Item: "img_c1", Name: "W_0_0"}, {Kind: "sp", Item: "c1_c2", Name: "W_0_0"},
					{Kind: "sp", Item: "c2_pred", Name: "W_0_0"}, {Kind: "np", Item: "conv2", Name: "b"}}},
		},
		Interfaces: []*stream.Interface{
			{Name: "mnist", Type: "mnist", In: []string{"mnist_pred"}, Out: []string{"mnist_image", "mnist_label"},
				Remap: map[string]string{"mnist_image": "image", "mnist_label": "label", "mnist_pred": "prediction"}},
		},
	})
}

// stimDriver writes a random image and a one-hot label into frame t+1
// when show(t+1) is true, zeros otherwise.
type stimDriver struct {
	show   func(frame int) bool
	agents int
	seed   uint64
	calls  int
}

func (d *stimDriver) Start(agents int, out, in map[string][3]int, seed int64) error {
	if _, ok := out["image"]; !ok {
		return fmt.Errorf("stimDriver: no image pool in %v", out)
	}
	d.agents = agents
	return nil
}

func (d *stimDriver) Frame(t int, in, out map[string][]float64) error {
	d.calls++
	img, lab := out["image"], out["label"]
	on := d.show(t + 1)
	r := rand.New(rand.NewPCG(d.seed, uint64(t)))
	for i := range img {
		img[i] = 0
		if on {
			img[i] = r.Float64()
		}
	}
	clear(lab)
	if on {
		for a := 0; a < d.agents; a++ {
			lab[a*10+a%10] = 1
		}
	}
	return nil
}

func fill(r *rand.Rand, v []float64, scale float64) {
	for i := range v {
		v[i] = scale * (2*r.Float64() - 1)
	}
}

// withDefaults sets the defaults the loader fills in (period 1) on a net
// built in Go; Validate rejects period 0.
func withDefaults(n *stream.Net) *stream.Net {
	for _, p := range n.NeuronPools {
		if p.Period == 0 {
			p.Period = 1
		}
	}
	for _, p := range n.SynapsePools {
		if p.Period == 0 {
			p.Period = 1
		}
	}
	for _, p := range n.Plasticities {
		if p.Period == 0 {
			p.Period = 1
		}
	}
	return n
}
