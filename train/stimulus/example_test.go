package stimulus_test

import (
	"fmt"

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
