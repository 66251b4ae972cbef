// Package widgets gives notebook cells the standard Jupyter widgets —
// sliders, dropdowns, toggle buttons, checkboxes, buttons, text fields,
// progress bars, labels, images, output areas and boxes — driven from Go.
//
// The widgets speak the Jupyter widgets message protocol (version 2.1,
// ipywidgets 8, @jupyter-widgets/controls 2.0.0) over Jupyter comms, so
// JupyterLab 4, and other front ends with ipywidgets 8's widget manager
// (Notebook 7, VS Code's Jupyter extension), draw them with their stock
// widget manager: no front-end code of neurogo's own is involved. Each widget is a model in
// the front end; its comm is opened (with the full state, and the layout
// and style models it refers to) the first time it is displayed.
//
// A widget shows itself when it is the last value of a cell, or with
// display.Display(w):
//
//	gain := widgets.NewFloatSlider("gain", 1, 0, 5, 0.1)
//	gain.Observe(func(v float64) { fmt.Println("gain is now", v) })
//	gain
//
// Values flow both ways. Moving the slider in the front end updates Value
// and runs the Observe callbacks; SetValue from Go (from any goroutine, a
// running simulation for instance) moves it in the front end and runs
// them too. Link keeps two controls equal; Interact calls a function with
// the controls' values whenever one changes and shows its output:
//
//	widgets.Interact(func(rate float64, n int) *viz.Plot { … },
//		widgets.NewFloatSlider("rate", 10, 1, 100, 1),
//		widgets.NewIntSlider("neurons", 50, 10, 500, 10))
//
// Callbacks run in the kernel's executor process, one at a time, between
// cells and while a cell runs. A callback that panics does not stop the
// kernel: the panic is shown in Interact's output area, or else on
// standard error, and logged. Updates from the front end that are not
// well formed (an unknown attribute, a string for a number, an index out
// of range) are refused whole with a line in the kernel's log, and the
// widget keeps its last good state.
//
// Output captures what a function prints and displays into a widget:
//
//	out := widgets.NewOutput()
//	out.Capture(func() { fmt.Println("inside the widget") })
//
// Outside a kernel (tests, programs) widgets keep their state and run
// their callbacks, but show only as text.
//
// The kernel's executor installs the comm transport with SetTransport and
// passes the front end's comm messages to HandleComm; notebook code never
// calls either.
package widgets
