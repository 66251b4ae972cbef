package stimulus_test

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/train/stimulus"
)

// Two agents see a tiny labelled set (any train/data set works; without
// Data, NewMNIST loads MNIST), each image held for 2 or 3 frames drawn
// per agent, so the agents' onsets drift apart.
func ExampleMNIST() {
	set := &data.Dataset{Name: "tiny", Rows: 1, Cols: 2, Scaled: true, Classes: []string{"dark", "light"},
		Images: [][]float64{{0, 0.1}, {0.9, 1}, {0.2, 0}, {1, 0.8}}, Labels: []int{0, 1, 0, 1}}
	d, _ := stimulus.NewMNIST(stimulus.Options{Data: set, MinFrames: 2, MaxFrames: 3,
		ImagePool: "image", LabelPool: "label", Seed: 1})
	if err := d.Start(2, map[string][3]int{"image": {1, 1, 2}, "label": {2, 1, 1}}, nil, 0); err != nil {
		fmt.Println(err)
		return
	}
	out := map[string][]float64{"image": make([]float64, 4), "label": make([]float64, 4)}
	for t := range 7 {
		if err := d.Frame(t, nil, out); err != nil {
			fmt.Println(err)
			return
		}
		labels, onsets := d.Stimulus(t + 1)
		fmt.Printf("frame %d: labels %v onsets %v image %v\n", t+1, labels, onsets, out["image"])
	}
	// Output:
	// frame 1: labels [1 0] onsets [1 1] image [0.9 1 0.2 0]
	// frame 2: labels [1 0] onsets [1 1] image [0.9 1 0.2 0]
	// frame 3: labels [0 1] onsets [3 3] image [0 0.1 1 0.8]
	// frame 4: labels [0 1] onsets [3 3] image [0 0.1 1 0.8]
	// frame 5: labels [1 0] onsets [5 5] image [0.9 1 0.2 0]
	// frame 6: labels [1 0] onsets [5 5] image [0.9 1 0.2 0]
	// frame 7: labels [1 1] onsets [5 7] image [0.9 1 1 0.8]
}

// A driver from a Go function: a ramp written to pool "x".
func ExampleNewFunc() {
	f, _ := stimulus.NewFunc(func(t int, in, out map[string][]float64) error {
		for i := range out["x"] {
			out["x"][i] = float64(t+1) / 10
		}
		return nil
	}, map[string][3]int{"x": {1, 1, 1}}, nil)
	if err := f.Start(2, map[string][3]int{"x": {1, 1, 1}}, nil, 0); err != nil {
		fmt.Println(err)
		return
	}
	x := make([]float64, 2)
	for t := range 3 {
		f.Frame(t, nil, map[string][]float64{"x": x})
		fmt.Println(x)
	}
	// Output:
	// [0.1 0.1]
	// [0.2 0.2]
	// [0.3 0.3]
}

// The interfaces section of a statestream network file becomes a driver:
// topics are remapped to pools, min_duration/max_duration give the hold,
// and source_file: …/mnist.pkl.gz stands for neurogo's MNIST (here a
// stand-in set is given as Options.Data instead).
func ExampleFromInterface() {
	it := &stream.Interface{Name: "mnist", Type: "mnist",
		Out:    []string{"mnist_image", "mnist_label"},
		Remap:  map[string]string{"mnist_image": "retina", "mnist_label": "label"},
		Params: map[string]any{"source_file": "/opt/dl/data/mnist.pkl.gz", "min_duration": 2, "max_duration": 2, "fading": 0}}
	set := &data.Dataset{Name: "stand-in", Rows: 28, Cols: 28, Scaled: true, Classes: data.MNISTClasses(),
		Images: [][]float64{make([]float64, 784), make([]float64, 784)}, Labels: []int{3, 8}}
	d, err := stimulus.FromInterface(it, stimulus.Options{Data: set, Seed: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	err = d.Start(1, map[string][3]int{"retina": {1, 28, 28}, "label": {10, 1, 1}}, nil, 0)
	fmt.Println("start:", err)
	out := map[string][]float64{"retina": make([]float64, 784), "label": make([]float64, 10)}
	for t := range 4 {
		d.Frame(t, nil, out)
		labels, onsets := d.(stream.Labeler).Stimulus(t + 1)
		fmt.Println("frame", t+1, "label", labels[0], "onset", onsets[0])
	}
	// Output:
	// start: <nil>
	// frame 1 label 3 onset 1
	// frame 2 label 3 onset 1
	// frame 3 label 8 onset 3
	// frame 4 label 8 onset 3
}
