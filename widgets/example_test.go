package widgets_test

import (
	"fmt"

	"github.com/neurogo/neurogo/widgets"
)

func ExampleNewFloatSlider() {
	gain := widgets.NewFloatSlider("gain", 1, 0, 5, 0.1)
	gain.Observe(func(v float64) { fmt.Println("gain is now", v) })
	gain.SetValue(2.5)
	gain.SetValue(9) // clamped to the slider's range
	fmt.Println(gain.Value())
	// Output:
	// gain is now 2.5
	// gain is now 5
	// 5
}

func ExampleLink() {
	a := widgets.NewIntSlider("a", 3, 0, 10, 1)
	b := widgets.NewIntSlider("b", 0, 0, 10, 1)
	if err := widgets.Link(a, b); err != nil {
		fmt.Println(err)
	}
	fmt.Println(b.Value())
	b.SetValue(7)
	fmt.Println(a.Value())
	// Output:
	// 3
	// 7
}

func ExampleInteract() {
	rate := widgets.NewFloatSlider("rate", 10, 1, 100, 1)
	n := widgets.NewIntSlider("neurons", 50, 10, 500, 10)
	ui := widgets.Interact(func(rate float64, n int) string {
		return fmt.Sprintf("%d neurons at %.0f Hz", n, rate)
	}, rate, n)
	n.SetValue(100)
	fmt.Println(ui)
	// Output:
	// VBox(3 children)
}

func ExampleNewButton() {
	b := widgets.NewButton("run")
	b.OnClick(func() { fmt.Println("clicked") })
	b.Click()
	// Output: clicked
}

func ExampleNewDropdown() {
	d := widgets.NewDropdown("neuron", []string{"LIF", "ReLU", "Sigmoid"}, "ReLU")
	d.Observe(func(v string) { fmt.Println("now", v) })
	d.SetValue("LIF")
	d.SetValue("Izhikevich") // not an option: ignored
	fmt.Println(d.Value())
	// Output:
	// now LIF
	// LIF
}

func ExampleOutput_Capture() {
	out := widgets.NewOutput()
	out.Capture(func() { fmt.Println("inside the widget") })
	fmt.Println(out.Outputs())
	// Output:
	// [map[name:stdout output_type:stream text:inside the widget
	// ]]
}
