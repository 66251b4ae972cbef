package notebook_test

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/notebook"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/viz"
	"github.com/neurogo/neurogo/widgets"
)

func ExampleLive() {
	// Outside a kernel a Live plot does nothing (and builds nothing).
	live := notebook.NewLive("loss")
	for epoch := 0; epoch < 3; epoch++ {
		live.UpdateFunc(func() (*viz.Plot, error) {
			return viz.Line([]viz.Series{{Y: []float64{1, 0.5}}}, viz.LineOptions{})
		})
	}
	fmt.Println(live.Flush(), live.Sent)
	// Output: <nil> 0
}

// A slider drives a node; the model runs in the background (four times
// faster than real time here) and the decoded value follows the slider.
// In a notebook, ex as the last value of a cell shows the sliders, the
// buttons and the live plot.
func ExampleExplore() {
	net := toolkit.New("channel", 1)
	stim := notebook.NewSlider("stimulus", 0, -1, 1)
	in := net.Node("stimulus", 1, stim.Output)
	a := net.Ensemble("a", 100, 1)
	net.Connect(in, a)
	spikes := net.Probe("spikes", a.Neurons(), toolkit.AttrSpikes)
	value := net.Probe("a", a, "")
	value.Synapse = synapses.Lowpass{Tau: 0.01}
	ex, err := notebook.Explore(net, notebook.ExploreOptions{
		Controls: []widgets.Widget{stim},
		Raster:   spikes,
		Plots:    []*toolkit.Probe{value},
		Speed:    4,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ex.Close()
	stim.SetValue(0.5) // as dragging the slider does
	if err := ex.Wait(0.3); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("a follows the slider:", math.Abs(ex.Last(value)[0]-0.5) < 0.1)
	// Output: a follows the slider: true
}
