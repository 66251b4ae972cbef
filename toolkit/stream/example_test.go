package stream_test

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// Example loads the appendix 6.2 network of the statestream paper (Fig. 3a) and
// prints every neuron-pool's shape [features, width, height] and
// activation, and the depth of each plasticity's local rollout.
func Example() {
	n, err := stream.Load("testdata/demonstration.st_graph", stream.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range n.NeuronPools {
		fmt.Printf("%-10s %v %s\n", p.Name, p.Shape, p.Act)
	}
	for _, p := range n.Plasticities {
		r, _ := n.Rollout(p)
		fmt.Printf("%s: rollout depth %d\n", p.Name, r.Depth)
	}
	// Output:
	// image      [1 28 28] Id
	// label      [10 1 1] Id
	// prediction [10 1 1] softmax
	// conv1      [32 14 14] relu
	// conv2      [64 7 7] relu
	// pred1      [10 1 1] softmax
	// pred2      [10 1 1] softmax
	// label_copy [10 1 1] Id
	// class: rollout depth 1
	// deep_class: rollout depth 3
}

// ExampleParse shows a loader error: file, line and column, the item and
// key, and the nearest valid name.
func ExampleParse() {
	src := `name: typo
neuron_pools:
    conv1:
        shape: [32, 14, 14]
        act: rleu
`
	_, err := stream.Parse([]byte(src), "net.st_graph", stream.LoadOptions{})
	fmt.Println(err)
	// Output:
	// net.st_graph:5:9: neuron_pools.conv1.act: unknown activation "rleu" (did you mean "relu"?)
}
