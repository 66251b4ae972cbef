package notebook_test

import (
	"fmt"

	"github.com/neurogo/neurogo/notebook"
	"github.com/neurogo/neurogo/viz"
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
