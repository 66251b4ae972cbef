package viz_test

import (
	"fmt"
	"strings"

	"github.com/neurogo/neurogo/viz"
)

// Accuracy per model before and after training, with 95 % intervals that
// Bounds keeps within [0, 1].
func ExampleBar() {
	models := []string{"rate", "spiking", "spiking + synapse"}
	p, err := viz.Bar(models, []viz.BarGroup{
		{Label: "before training", Values: []float64{0.62, 0.55, 0.58}, Err: []float64{0.05, 0.06, 0.05}},
		{Label: "after training", Values: []float64{0.97, 0.93, 0.95}, Err: []float64{0.03, 0.05, 0.44}},
	}, viz.BarOptions{Bounds: [2]float64{0, 1}, ValueLabels: true, Format: "%.2f",
		Frame: viz.Frame{Title: "Test accuracy", YLabel: "accuracy"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg := p.SVG()
	fmt.Println(p, strings.Contains(svg, "spiking + synapse"), strings.Contains(svg, "after training"))
	// Output: <viz.Bar 640×400> true true
}

// Identical values of two groups stay visible side by side; Connect joins
// the points because the categories (neurons per dimension) are ordered.
func ExamplePoints() {
	sizes := []string{"25", "50", "100"}
	p, err := viz.Points(sizes, []viz.BarGroup{
		{Label: "before", Values: []float64{0.4, 0.8, 1}, Lower: []float64{0.3, 0.7, 0.93}, Upper: []float64{0.5, 0.88, 1}},
		{Label: "after", Values: []float64{0.6, 0.8, 1}, Lower: []float64{0.5, 0.7, 0.93}, Upper: []float64{0.7, 0.88, 1}},
	}, viz.PointsOptions{Connect: true, Bounds: [2]float64{0, 1},
		Frame: viz.Frame{XLabel: "neurons per dimension", YLabel: "retrieval accuracy"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, strings.Contains(p.SVG(), "neurons per dimension"))
	// Output: <viz.Points 640×400> true
}

// A value outside Bounds is an error naming the plot, the argument, the
// value and the rule.
func ExampleBar_bounds() {
	_, err := viz.Bar([]string{"a"}, []viz.BarGroup{{Values: []float64{1.2}}},
		viz.BarOptions{Bounds: [2]float64{0, 1}})
	fmt.Println(err)
	// Output: viz.Bar: groups[0].Values[0] = 1.2: must lie within opts.Bounds [0, 1]
}
