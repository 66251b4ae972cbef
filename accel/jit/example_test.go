package jit_test

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/accel/jit"
)

// Two row partitions of one matrix multiplication run on chip 0 and their
// partial results are summed on the host (the hxtorch paper, §3.3, Fig 4). With one
// worker and one resource the Execute order is the insertion order.
func Example() {
	x := []float64{1, 2, 3, 4}
	w := []float64{0.5, -1, 0.25, 2} // one output column, rows split in two
	partial := make([]float64, 2)
	var sum float64

	g := jit.NewGraph()
	var parts []jit.ID
	for p := range 2 {
		var in []float64
		id, err := g.Add(jit.Task{
			Name:       fmt.Sprintf("mm[%d,0]", p),
			Preprocess: func() error { in = x[2*p : 2*p+2]; return nil },
			Execute: func() error {
				fmt.Printf("execute mm[%d,0]\n", p)
				for i, v := range in {
					partial[p] += v * w[2*p+i]
				}
				return nil
			},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		parts = append(parts, id)
	}
	if _, err := g.Add(jit.Task{Name: "sum", Postprocess: func() error {
		sum = partial[0] + partial[1]
		return nil
	}}, parts...); err != nil {
		fmt.Println(err)
		return
	}

	tr, err := g.Run(context.Background(), jit.Options{Workers: 1, Resources: 1, Trace: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sum =", sum)

	// The stages each instance ran, in order.
	spans := append([]jit.Span(nil), tr.Spans...)
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].Instance < spans[j].Instance })
	stages := map[string][]string{}
	var names []string
	for _, sp := range spans {
		if len(stages[sp.Name]) == 0 {
			names = append(names, sp.Name)
		}
		stages[sp.Name] = append(stages[sp.Name], sp.Stage.String())
	}
	for _, n := range names {
		fmt.Printf("%s: %s\n", n, strings.Join(stages[n], " → "))
	}
	// Output:
	// execute mm[0,0]
	// execute mm[1,0]
	// sum = 7.25
	// mm[0,0]: preprocess → execute
	// mm[1,0]: preprocess → execute
	// sum: postprocess
}

// A failing stage stops the run; the error names the instance and stage.
func ExampleGraph_Run_error() {
	g := jit.NewGraph()
	g.Add(jit.Task{Name: "mm[1,0]", Execute: func() error { return fmt.Errorf("no chip answered") }})
	_, err := g.Run(context.Background(), jit.Options{})
	fmt.Println(err)
	// Output:
	// jit: instance "mm[1,0]": execute: no chip answered
}

// Transfer time of one batch of 2000 input vectors of 256 5-bit values.
func ExampleLink_Seconds() {
	bytes := 2000 * 256 * 5.0 / 8
	for _, l := range []jit.Link{jit.HostLink(), jit.ChipLink()} {
		fmt.Printf("%s: %.0f µs\n", l.Name, 1e6*l.Seconds(bytes))
	}
	// Output:
	// host link (1 Gbit/s): 2560 µs
	// chip I/O (8 Gbit/s): 320 µs
}
