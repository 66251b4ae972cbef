package nengobridge_test

import (
	"fmt"

	"github.com/neurogo/neurogo/internal/nengobridge"
)

// A model as nengo_neurogo hands it over: Nengo's TimeUpdate, a Copy of a
// constant input and a Lowpass synapse, probed every step.
func ExampleNew() {
	spec, err := nengobridge.ParseSpec([]byte(`{
		"dt": 0.001, "step": 0, "time": 1,
		"signals": [
			{"name": "step", "size": 1, "init": -1},
			{"name": "time", "size": 1, "init": -1},
			{"name": "u", "size": 1, "readonly": true, "init": 0},
			{"name": "x", "size": 1, "init": -1},
			{"name": "y", "size": 1, "init": -1}
		],
		"ops": [
			{"type": "TimeUpdate", "sets": [0, 1], "sig": {"step": 0, "time": 1}},
			{"type": "Copy", "sets": [3], "reads": [2], "sig": {"X": 2, "Y": 3}},
			{"type": "SimSynapse", "updates": [4], "reads": [3], "sig": {"X": 3, "Y": 4},
			 "synapse": {"type": "Lowpass", "tau": 0.01}}
		],
		"probes": [{"label": "y", "signal": 4, "period": 1}]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := nengobridge.New(spec, []float64{1}, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	if err := b.Run(3); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f\n", b.Probe(0))
	// Output: [0.0952 0.1813 0.2592]
}
