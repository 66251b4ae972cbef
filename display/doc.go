// Package display shows rich output in a neurogo notebook: images, SVG,
// HTML, Markdown and JSON, and outputs that update in place (live progress
// during simulation and training).
//
// A value renders itself when it is the last expression of a cell if its
// type has one of the methods
//
//	PNG() []byte
//	SVG() string
//	HTML() string
//	Markdown() string
//	MIMEBundle() map[string]any
//
// or if it is an image.Image. A value with a PNG method may add
//
//	Retina() bool          // true: 2× pixels, declared at half size
//	String() string        // its text/plain
//
// and any value may keep only some of its renderings inline with
//
//	MIMETypes() []string   // e.g. {"image/png"}: no SVG beside the PNG
//
// which is how package viz's plots show themselves without importing this
// package. Bundle computes the MIME bundle the kernel sends for any value;
// text/plain is always included.
//
// Explicit display, from a cell or from compiled code running inside a cell:
//
//	display.Display(display.HTML("<b>hello</b>"))
//	display.Show("progress", display.Markdown("0 %"))  // show with an id …
//	display.Update("progress", display.Markdown("50 %")) // … and update it in place
//	display.Clear(true)
//
// Outside a kernel (tests, command-line programs) every function is a no-op
// that returns nil, so library code may call it unconditionally.
//
// The kernel installs its output channel with SetSink. This is the one piece
// of process-wide state in neurogo, for the same reason os.Stdout is one: a
// process has one notebook front end to talk to.
package display
