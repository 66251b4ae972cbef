package timeres_test

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/timeres"
)

// Two agents see stimuli of classes 1 and 0 shown since frames 1 and 2;
// the read-out is wrong until information has travelled the path. Agent 1
// has no stimulus in frame 1 (label −1).
func ExampleTCM() {
	tcm, _ := timeres.New(2, 3)
	frames := []struct{ labels, onsets, pred []int }{
		{[]int{1, -1}, []int{1, 0}, []int{0, 0}}, // frame 1: δt 0 (agent 0)
		{[]int{1, 0}, []int{1, 2}, []int{0, 1}},  // frame 2: δt 1, 0
		{[]int{1, 0}, []int{1, 2}, []int{1, 1}},  // frame 3: δt 2 right, 1
		{[]int{1, 0}, []int{1, 2}, []int{1, 0}},  // frame 4: δt 3 right, 2 right
	}
	for i, f := range frames {
		if err := tcm.Add(f.labels, f.onsets, f.pred, i+1); err != nil {
			fmt.Println(err)
		}
	}
	acc := tcm.Accuracy()
	fmt.Println("accuracy per δt:", acc)
	rt, ok := timeres.ResponseTime(acc, 0.9)
	fmt.Println("response time:", rt, ok)
	fmt.Println("δt 2:", tcm.Counts(2))
	// Output:
	// accuracy per δt: [0 0 1 1]
	// response time: 2 true
	// δt 2: [[1 0] [0 1]]
}

// The shortest path from the image to the prediction of Fig. 3a of the statestream paper
// goes through pred1: three frames.
func ExampleShortestPath() {
	net := &stream.Net{Name: "two-path"}
	for _, p := range []string{"image", "conv1", "conv2", "pred1", "pred2", "prediction"} {
		net.NeuronPools = append(net.NeuronPools, &stream.NeuronPool{Name: p})
	}
	for _, e := range [][]string{{"image", "conv1"}, {"conv1", "conv2"}, {"conv1", "pred1"}, {"conv2", "pred2"}, {"pred1", "prediction"}, {"pred2", "prediction"}} {
		net.SynapsePools = append(net.SynapsePools, &stream.SynapsePool{Name: e[0] + "_" + e[1], Source: [][]string{{e[0]}}, Target: e[1]})
	}
	short, _ := timeres.ShortestPath(net, "image", "prediction")
	deep, _ := timeres.ShortestPath(net, "image", "pred2")
	fmt.Println(short, deep+1)
	// Output: 3 4
}

// A model that answers every step (e.g. train.Model.Predict of a spiking
// network): scores[sample][step][class], stimulus from step 0.
func ExampleFromSteps() {
	scores := [][][]float64{
		{{0.5, 0.5}, {0.2, 0.8}, {0.1, 0.9}}, // label 1: a tie (→ 0) first
		{{0.4, 0.6}, {0.7, 0.3}, {0.9, 0.1}}, // label 0: wrong at step 0
	}
	tcm, _ := timeres.FromSteps(scores, []int{1, 0}, 0)
	fmt.Println(tcm.Accuracy())
	correct, _ := timeres.Correct(scores, []int{1, 0}, 0)
	rts, _ := timeres.SampleResponseTimes(correct, 2)
	fmt.Println(rts)
	// Output:
	// [0 1 1]
	// [1 1]
}
