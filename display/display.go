package display

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
)

// MIME types used in bundles.
const (
	MIMEText     = "text/plain"
	MIMEHTML     = "text/html"
	MIMEMarkdown = "text/markdown"
	MIMEPNG      = "image/png"
	MIMESVG      = "image/svg+xml"
	MIMEJSON     = "application/json"
)

// Sink receives display requests. The kernel implements it; see SetSink.
type Sink interface {
	// Display sends display_data (update false) or update_display_data
	// (update true). id is the display_id ("" for none).
	Display(data, metadata map[string]any, id string, update bool) error
	// Clear sends clear_output.
	Clear(wait bool) error
}

type sinkBox struct{ s Sink }

var current atomic.Pointer[sinkBox]

// SetSink installs the process's display sink (nil removes it). Called by the
// kernel; library code never needs it.
func SetSink(s Sink) {
	if s == nil {
		current.Store(nil)
		return
	}
	current.Store(&sinkBox{s})
}

// Redirect installs s as the process's sink until the returned function
// is called, which puts back the sink that was installed before. The
// Output widget of package widgets uses it to capture the display calls
// made inside its Capture. Redirections nest; restore them in reverse
// order.
func Redirect(s Sink) (restore func()) {
	var box *sinkBox
	if s != nil {
		box = &sinkBox{s}
	}
	prev := current.Swap(box)
	return func() { current.Store(prev) }
}

// Active reports whether a sink is installed, i.e. whether the process runs
// inside a kernel. Live plots use it to skip rendering work outside one.
func Active() bool { return current.Load() != nil }

// Value is a ready-made MIME bundle. The constructors PNG, SVG, HTML,
// Markdown, JSON, Text and Image return one.
type Value struct {
	Data     map[string]any
	Metadata map[string]any
}

// MIMEBundle returns the bundle's data.
func (v Value) MIMEBundle() map[string]any { return v.Data }

// MIMEMetadata returns the bundle's metadata (for example image sizes).
func (v Value) MIMEMetadata() map[string]any { return v.Metadata }

// String describes the value in one line.
func (v Value) String() string {
	if t, ok := v.Data[MIMEText].(string); ok {
		return t
	}
	return "<display value>"
}

// PNG wraps PNG-encoded bytes. The declared width and height are read from
// the PNG header.
func PNG(b []byte) Value { return pngValue(b, 1) }

// RetinaPNG wraps PNG bytes rendered at twice the intended resolution: the
// metadata declares half the pixel size, so the image is sharp on high-DPI
// screens.
func RetinaPNG(b []byte) Value { return pngValue(b, 2) }

func pngValue(b []byte, scale int) Value {
	md := map[string]any{}
	w, h, ok := pngSize(b)
	if ok {
		md[MIMEPNG] = map[string]any{"width": w / scale, "height": h / scale}
	}
	text := fmt.Sprintf("<image/png %d×%d>", w, h)
	if !ok {
		text = fmt.Sprintf("<image/png, %d bytes, not a valid PNG>", len(b))
	}
	return Value{
		Data:     map[string]any{MIMEPNG: base64.StdEncoding.EncodeToString(b), MIMEText: text},
		Metadata: md,
	}
}

// pngSize reads width and height from a PNG's IHDR chunk.
func pngSize(b []byte) (w, h int, ok bool) {
	if len(b) < 24 || string(b[:8]) != "\x89PNG\r\n\x1a\n" || string(b[12:16]) != "IHDR" {
		return 0, 0, false
	}
	return int(binary.BigEndian.Uint32(b[16:20])), int(binary.BigEndian.Uint32(b[20:24])), true
}

// Image encodes img as PNG.
func Image(img image.Image) Value {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Text(fmt.Sprintf("<image: %v>", err))
	}
	return PNG(buf.Bytes())
}

// SVG wraps an SVG document.
func SVG(s string) Value {
	return Value{Data: map[string]any{MIMESVG: s, MIMEText: "<image/svg+xml>"}}
}

// HTML wraps an HTML fragment.
func HTML(s string) Value {
	return Value{Data: map[string]any{MIMEHTML: s, MIMEText: stripTags(s)}}
}

// Markdown wraps Markdown text.
func Markdown(s string) Value {
	return Value{Data: map[string]any{MIMEMarkdown: s, MIMEText: s}}
}

// Text wraps plain text.
func Text(s string) Value { return Value{Data: map[string]any{MIMEText: s}} }

// JSON wraps a value that is shown as JSON (front ends render an
// interactive tree). v must be encodable by encoding/json.
func JSON(v any) Value {
	b, err := json.Marshal(v)
	if err != nil {
		return Text(fmt.Sprintf("<json: %v>", err))
	}
	var generic any
	_ = json.Unmarshal(b, &generic)
	pretty, _ := json.MarshalIndent(generic, "", "  ")
	return Value{Data: map[string]any{MIMEJSON: generic, MIMEText: string(pretty)}}
}

func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Bundle returns the MIME bundle and metadata for v, always with text/plain.
// Values are rendered by the first of: MIMEBundle, PNG, SVG, HTML, Markdown
// methods; image.Image; otherwise only text/plain (see Plain).
//
// A value with a PNG method may refine how it is shown with optional
// methods: Retina() bool (true: the PNG has twice the pixels of its
// intended size, and the metadata declares half its pixel size), SVG()
// string (added beside the PNG) and String() string (its text/plain,
// instead of a description of the image). Any value may limit its bundle
// with MIMETypes() []string: only the listed types are kept (text/plain
// always is), and renderings left out are not computed — a plot that can
// draw SVG but is shown inline as PNG lists only "image/png".
func Bundle(v any) (data, metadata map[string]any) {
	data = map[string]any{}
	metadata = map[string]any{}
	defer func() {
		// a display method that panics (user code, a plotting library)
		// shows the panic as text instead of crashing the kernel
		if r := recover(); r != nil {
			data = map[string]any{MIMEText: fmt.Sprintf("display: %T could not render itself: %v", v, r)}
			metadata = map[string]any{}
		}
	}()
	want := wanted(v)
	switch x := v.(type) {
	case Value:
		for k, d := range x.Data {
			data[k] = d
		}
		for k, d := range x.Metadata {
			metadata[k] = d
		}
	case interface{ MIMEBundle() map[string]any }:
		for k, d := range x.MIMEBundle() {
			data[k] = d
		}
		if m, ok := v.(interface{ MIMEMetadata() map[string]any }); ok {
			for k, d := range m.MIMEMetadata() {
				metadata[k] = d
			}
		}
	case interface{ PNG() []byte }:
		if want(MIMEPNG) {
			p := PNG(x.PNG())
			if r, ok := v.(interface{ Retina() bool }); ok && r.Retina() {
				p = RetinaPNG(x.PNG())
			}
			data, metadata = p.Data, p.Metadata
		}
		if s, ok := v.(interface{ SVG() string }); ok && want(MIMESVG) {
			data[MIMESVG] = s.SVG()
		}
		if s, ok := v.(fmt.Stringer); ok {
			data[MIMEText] = safeString(s)
		}
	case interface{ SVG() string }:
		if want(MIMESVG) {
			data[MIMESVG] = x.SVG()
		}
	case interface{ HTML() string }:
		if want(MIMEHTML) {
			data[MIMEHTML] = x.HTML()
		}
	case interface{ Markdown() string }:
		if want(MIMEMarkdown) {
			data[MIMEMarkdown] = x.Markdown()
		}
	case image.Image:
		p := Image(x)
		data, metadata = p.Data, p.Metadata
	}
	for k := range data {
		if k != MIMEText && !want(k) {
			delete(data, k)
			delete(metadata, k)
		}
	}
	if _, ok := data[MIMEText]; !ok {
		data[MIMEText] = Plain(v)
	}
	return data, metadata
}

// wanted returns the filter of v's MIMETypes method (every type when v
// has none).
func wanted(v any) func(mime string) bool {
	m, ok := v.(interface{ MIMETypes() []string })
	if !ok {
		return func(string) bool { return true }
	}
	types := m.MIMETypes()
	return func(mime string) bool { return mime == MIMEText || slices.Contains(types, mime) }
}

// Plain formats v as text/plain, the way a cell result is shown: strings are
// quoted, errors and Stringers use their methods, everything else uses %v
// (with %#v-like type hints for nil values).
func Plain(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return fmt.Sprintf("%q", x)
	case error:
		return x.Error()
	case fmt.Stringer:
		return safeString(x)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		if rv.IsNil() {
			return fmt.Sprintf("%s(nil)", rv.Type())
		}
	}
	return fmt.Sprintf("%v", v)
}

func safeString(s fmt.Stringer) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("<String method panicked: %v>", r)
		}
	}()
	return s.String()
}

// errNilValue is returned when asked to display nil.
var errNilValue = errors.New("display: nil value")

// Display shows v now as display_data.
func Display(v any) error { return send(v, "", false) }

// Show shows v with a display id, so that Update can replace it later.
func Show(id string, v any) error {
	if id == "" {
		return errors.New("display: Show needs a non-empty id")
	}
	return send(v, id, false)
}

// Update replaces the output shown earlier with Show(id, …) by v.
func Update(id string, v any) error {
	if id == "" {
		return errors.New("display: Update needs a non-empty id")
	}
	return send(v, id, true)
}

// Clear clears the cell's output. With wait true the front end clears only
// when the next output arrives, which avoids flicker in loops.
func Clear(wait bool) error {
	b := current.Load()
	if b == nil {
		return nil
	}
	return b.s.Clear(wait)
}

func send(v any, id string, update bool) error {
	if v == nil {
		return errNilValue
	}
	b := current.Load()
	if b == nil {
		return nil
	}
	data, md := Bundle(v)
	return b.s.Display(data, md, id, update)
}
