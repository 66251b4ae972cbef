package display_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/display"
)

type recorder struct {
	data    []map[string]any
	md      []map[string]any
	ids     []string
	updates []bool
	clears  []bool
}

func (r *recorder) Display(data, md map[string]any, id string, update bool) error {
	r.data = append(r.data, data)
	r.md = append(r.md, md)
	r.ids = append(r.ids, id)
	r.updates = append(r.updates, update)
	return nil
}

func (r *recorder) Clear(wait bool) error {
	r.clears = append(r.clears, wait)
	return nil
}

func pngBytes(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.Black)
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

type svgPlot struct{}

func (svgPlot) SVG() string { return "<svg/>" }

type pngPlot struct{ retina bool }

func (p pngPlot) PNG() []byte  { return pngBytes(40, 20) }
func (p pngPlot) SVG() string  { return "<svg/>" }
func (p pngPlot) Retina() bool { return p.retina }

// inlinePlot is drawn as PNG and SVG but shown inline as its retina PNG
// with its own text, as package viz's plots are.
type inlinePlot struct{ pngPlot }

func (inlinePlot) String() string      { return "<plot 20×10>" }
func (inlinePlot) MIMETypes() []string { return []string{"image/png"} }

// textOnly has an HTML method but asks for text/plain alone.
type textOnly struct{ htmlTable }

func (textOnly) MIMETypes() []string { return nil }

type htmlTable struct{}

func (htmlTable) HTML() string   { return "<table></table>" }
func (htmlTable) String() string { return "table" }

func TestBundle(t *testing.T) {
	cases := []struct {
		name  string
		v     any
		mimes []string
		text  string
		w, h  int // declared PNG size, 0 if none
	}{
		{"int", 42, []string{"text/plain"}, "42", 0, 0},
		{"string", "hi", []string{"text/plain"}, `"hi"`, 0, 0},
		{"error", errors.New("bad"), []string{"text/plain"}, "bad", 0, 0},
		{"nil map", map[string]int(nil), []string{"text/plain"}, "map[string]int(nil)", 0, 0},
		{"svg method", svgPlot{}, []string{"image/svg+xml", "text/plain"}, "{}", 0, 0},
		{"png+svg", pngPlot{}, []string{"image/png", "image/svg+xml", "text/plain"}, "<image/png 40×20>", 40, 20},
		{"retina", pngPlot{retina: true}, []string{"image/png", "image/svg+xml", "text/plain"}, "<image/png 40×20>", 20, 10},
		{"retina PNG only, String", inlinePlot{pngPlot{retina: true}}, []string{"image/png", "text/plain"}, "<plot 20×10>", 20, 10},
		{"MIMETypes leaves out HTML", textOnly{}, []string{"text/plain"}, "table", 0, 0},
		{"html with String", htmlTable{}, []string{"text/html", "text/plain"}, "table", 0, 0},
		{"image.Image", image.NewGray(image.Rect(0, 0, 3, 2)), []string{"image/png", "text/plain"}, "<image/png 3×2>", 3, 2},
		{"markdown", display.Markdown("*x*"), []string{"text/markdown", "text/plain"}, "*x*", 0, 0},
		{"json", display.JSON(map[string]int{"a": 1}), []string{"application/json", "text/plain"}, "{\n  \"a\": 1\n}", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, md := display.Bundle(c.v)
			if len(data) != len(c.mimes) {
				t.Errorf("mimes %v, want %v", keys(data), c.mimes)
			}
			for _, m := range c.mimes {
				if _, ok := data[m]; !ok {
					t.Errorf("missing %s in %v", m, keys(data))
				}
			}
			if data["text/plain"] != c.text {
				t.Errorf("text/plain %q, want %q", data["text/plain"], c.text)
			}
			if c.w > 0 {
				size, _ := md["image/png"].(map[string]any)
				if size["width"] != c.w || size["height"] != c.h {
					t.Errorf("declared size %v, want %d×%d", size, c.w, c.h)
				}
				raw, err := base64.StdEncoding.DecodeString(data["image/png"].(string))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
					t.Errorf("PNG does not decode: %v", err)
				}
			}
		})
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestSinkAndNoKernel(t *testing.T) {
	display.SetSink(nil)
	if display.Active() {
		t.Fatal("active without a sink")
	}
	if err := display.Display(display.HTML("<b>x</b>")); err != nil {
		t.Fatalf("outside a kernel Display must be a no-op, got %v", err)
	}
	r := &recorder{}
	display.SetSink(r)
	defer display.SetSink(nil)
	if err := display.Show("bar", display.Markdown("0 %")); err != nil {
		t.Fatal(err)
	}
	if err := display.Update("bar", display.Markdown("50 %")); err != nil {
		t.Fatal(err)
	}
	if err := display.Clear(true); err != nil {
		t.Fatal(err)
	}
	if err := display.Update("", display.Text("x")); err == nil {
		t.Error("Update with an empty id must fail")
	}
	if err := display.Display(nil); err == nil {
		t.Error("Display(nil) must fail")
	}
	if len(r.data) != 2 || r.ids[0] != "bar" || r.updates[0] || !r.updates[1] || r.data[1]["text/markdown"] != "50 %" {
		t.Errorf("recorded %+v", r)
	}
	if len(r.clears) != 1 || !r.clears[0] {
		t.Errorf("clears %v", r.clears)
	}
}

func TestPNGInvalid(t *testing.T) {
	v := display.PNG([]byte("not a png"))
	if v.String() != "<image/png, 9 bytes, not a valid PNG>" {
		t.Errorf("got %q", v.String())
	}
}

// A value shows itself as the result of a cell through its bundle.
func ExampleBundle() {
	data, _ := display.Bundle(display.HTML("<b>spikes</b>: 12"))
	fmt.Println(data["text/html"])
	fmt.Println(data["text/plain"])
	// Output:
	// <b>spikes</b>: 12
	// spikes: 12
}

// Live progress: show an output with an id, then replace it in place.
// Outside a kernel these calls do nothing.
func ExampleUpdate() {
	_ = display.Show("progress", display.Markdown("step 0 of 100"))
	for step := 1; step <= 100; step++ {
		if step%50 == 0 {
			_ = display.Update("progress", display.Markdown(fmt.Sprintf("step %d of 100", step)))
		}
	}
	fmt.Println(display.Active())
	// Output: false
}

func ExampleRetinaPNG() {
	img := image.NewGray(image.Rect(0, 0, 200, 100))
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	v := display.RetinaPNG(b.Bytes())
	fmt.Println(v.Metadata["image/png"])
	// Output: map[height:50 width:100]
}

type panicky struct{}

func (panicky) MIMEBundle() map[string]any { panic("boom") }

// A value whose display method panics shows the panic as text.
func TestBundleRecoversPanic(t *testing.T) {
	data, _ := display.Bundle(panicky{})
	if s, _ := data[display.MIMEText].(string); !strings.Contains(s, "boom") {
		t.Fatalf("text/plain = %q, want the panic", s)
	}
}
