package widgets

import (
	"fmt"
	"math"
	"slices"
)

func finite(x, def float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return def
	}
	return x
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

func descStyle() *model   { return newStyle("DescriptionStyleModel", nil) }
func sliderStyle() *model { return newStyle("SliderStyleModel", map[string]any{"handle_color": nil}) }

func sliderAttrs(description string, readout string) map[string]any {
	return map[string]any{
		"behavior":               "drag-tap",
		"continuous_update":      true,
		"description":            description,
		"description_allow_html": false,
		"disabled":               false,
		"orientation":            "horizontal",
		"readout":                true,
		"readout_format":         readout,
	}
}

// FloatSlider is a slider over float64 values (ipywidgets' FloatSlider).
type FloatSlider struct {
	core
	obs observers[float64]
}

// NewFloatSlider returns a slider from min to max in steps of step, at
// value. Bad arguments are mended, never a panic: NaN or infinite bounds
// become 0 and 1, min and max are swapped if reversed, a step that is not
// positive becomes (max-min)/100, and value is clamped to [min, max].
func NewFloatSlider(description string, value, min, max, step float64) *FloatSlider {
	min, max = finite(min, 0), finite(max, 1)
	if min > max {
		min, max = max, min
	}
	step = finite(step, 0)
	if step <= 0 {
		step = (max - min) / 100
		if step == 0 {
			step = 0.1
		}
	}
	value = clamp(finite(value, min), min, max)
	a := sliderAttrs(description, ".2f")
	a["value"], a["min"], a["max"], a["step"] = value, min, max, step
	s := &FloatSlider{core: core{newDOM("FloatSliderModel", "FloatSliderView", sliderStyle(), a)}}
	s.m.writable["value"] = kFloat
	s.m.validate = func(key string, v any) (any, error) {
		lo, _ := s.m.state["min"].(float64)
		hi, _ := s.m.state["max"].(float64)
		return clamp(v.(float64), lo, hi), nil
	}
	s.m.changed = func([]string) { s.obs.fire(s.m, "Observe", s.Value()) }
	s.m.describe = func() string { return describeValue("FloatSlider", description, s.Value()) }
	return s
}

// Value returns the slider's value.
func (s *FloatSlider) Value() float64 { v, _ := s.m.get("value").(float64); return v }

// SetValue moves the slider (clamped to its range; NaN is ignored). Safe
// from any goroutine; a shown slider moves in the front end too, and the
// observers run if the value changed.
func (s *FloatSlider) SetValue(v float64) {
	if math.IsNaN(v) {
		return
	}
	lo, _ := s.m.get("min").(float64)
	hi, _ := s.m.get("max").(float64)
	if s.m.set(map[string]any{"value": clamp(v, lo, hi)}) {
		s.obs.fire(s.m, "Observe", s.Value())
	}
}

// Observe calls f with the new value whenever the value changes.
func (s *FloatSlider) Observe(f func(float64)) { s.obs.add(f) }

func (s *FloatSlider) getAny() any            { return s.Value() }
func (s *FloatSlider) setAny(v any)           { s.SetValue(v.(float64)) }
func (s *FloatSlider) observeAny(f func(any)) { s.Observe(func(v float64) { f(v) }) }

// FloatLogSlider is a slider over float64 values on a log scale (base 10).
type FloatLogSlider struct {
	core
	obs observers[float64]
}

// NewFloatLogSlider returns a log-scale slider from min to max (both > 0,
// in the values' own units, not exponents) at value, in 100 steps of the
// exponent. Bad bounds are mended: not positive or not finite bounds
// become 1e-3 and 1e3, reversed ones are swapped, value is clamped.
func NewFloatLogSlider(description string, value, min, max float64) *FloatLogSlider {
	if !(min > 0) || math.IsInf(min, 0) {
		min = 1e-3
	}
	if !(max > 0) || math.IsInf(max, 0) {
		max = 1e3
	}
	if min > max {
		min, max = max, min
	}
	emin, emax := math.Log10(min), math.Log10(max)
	step := (emax - emin) / 100
	if step == 0 {
		step = 0.1
	}
	value = clamp(finite(value, min), min, max)
	a := sliderAttrs(description, ".3g")
	a["value"], a["min"], a["max"], a["step"], a["base"] = value, emin, emax, step, 10.0
	s := &FloatLogSlider{core: core{newDOM("FloatLogSliderModel", "FloatLogSliderView", sliderStyle(), a)}}
	s.m.writable["value"] = kFloat
	s.m.validate = func(key string, v any) (any, error) {
		return clamp(v.(float64), min, max), nil
	}
	s.m.changed = func([]string) { s.obs.fire(s.m, "Observe", s.Value()) }
	s.m.describe = func() string { return describeValue("FloatLogSlider", description, s.Value()) }
	return s
}

// Value returns the slider's value.
func (s *FloatLogSlider) Value() float64 { v, _ := s.m.get("value").(float64); return v }

// SetValue moves the slider (clamped to its range; NaN is ignored).
func (s *FloatLogSlider) SetValue(v float64) {
	if math.IsNaN(v) {
		return
	}
	lo := math.Pow(10, s.m.get("min").(float64))
	hi := math.Pow(10, s.m.get("max").(float64))
	if s.m.set(map[string]any{"value": clamp(v, lo, hi)}) {
		s.obs.fire(s.m, "Observe", s.Value())
	}
}

// Observe calls f with the new value whenever the value changes.
func (s *FloatLogSlider) Observe(f func(float64)) { s.obs.add(f) }

func (s *FloatLogSlider) getAny() any            { return s.Value() }
func (s *FloatLogSlider) setAny(v any)           { s.SetValue(v.(float64)) }
func (s *FloatLogSlider) observeAny(f func(any)) { s.Observe(func(v float64) { f(v) }) }

// IntSlider is a slider over int values.
type IntSlider struct {
	core
	obs observers[int]
}

// NewIntSlider returns a slider from min to max in steps of step, at
// value. Reversed bounds are swapped, a step below 1 becomes 1, value is
// clamped.
func NewIntSlider(description string, value, min, max, step int) *IntSlider {
	if min > max {
		min, max = max, min
	}
	if step < 1 {
		step = 1
	}
	value = int(clamp(float64(value), float64(min), float64(max)))
	a := sliderAttrs(description, "d")
	a["value"], a["min"], a["max"], a["step"] = value, min, max, step
	s := &IntSlider{core: core{newDOM("IntSliderModel", "IntSliderView", sliderStyle(), a)}}
	s.m.writable["value"] = kInt
	s.m.validate = func(key string, v any) (any, error) {
		lo, _ := s.m.state["min"].(int)
		hi, _ := s.m.state["max"].(int)
		return int(clamp(float64(v.(int)), float64(lo), float64(hi))), nil
	}
	s.m.changed = func([]string) { s.obs.fire(s.m, "Observe", s.Value()) }
	s.m.describe = func() string { return describeValue("IntSlider", description, s.Value()) }
	return s
}

// Value returns the slider's value.
func (s *IntSlider) Value() int { v, _ := s.m.get("value").(int); return v }

// SetValue moves the slider (clamped to its range).
func (s *IntSlider) SetValue(v int) {
	lo, _ := s.m.get("min").(int)
	hi, _ := s.m.get("max").(int)
	if s.m.set(map[string]any{"value": int(clamp(float64(v), float64(lo), float64(hi)))}) {
		s.obs.fire(s.m, "Observe", s.Value())
	}
}

// Observe calls f with the new value whenever the value changes.
func (s *IntSlider) Observe(f func(int)) { s.obs.add(f) }

func (s *IntSlider) getAny() any            { return s.Value() }
func (s *IntSlider) setAny(v any)           { s.SetValue(v.(int)) }
func (s *IntSlider) observeAny(f func(any)) { s.Observe(func(v int) { f(v) }) }

// Checkbox is a bool control.
type Checkbox struct {
	core
	obs observers[bool]
}

// NewCheckbox returns a checkbox.
func NewCheckbox(description string, value bool) *Checkbox {
	c := &Checkbox{core: core{newDOM("CheckboxModel", "CheckboxView",
		newStyle("CheckboxStyleModel", map[string]any{"background": nil}),
		map[string]any{"description": description, "description_allow_html": false, "disabled": false, "indent": true, "value": value})}}
	c.m.writable["value"] = kBool
	c.m.changed = func([]string) { c.obs.fire(c.m, "Observe", c.Value()) }
	c.m.describe = func() string { return describeValue("Checkbox", description, c.Value()) }
	return c
}

// Value returns whether the box is checked.
func (c *Checkbox) Value() bool { v, _ := c.m.get("value").(bool); return v }

// SetValue checks or unchecks the box.
func (c *Checkbox) SetValue(v bool) {
	if c.m.set(map[string]any{"value": v}) {
		c.obs.fire(c.m, "Observe", v)
	}
}

// Observe calls f with the new value whenever the value changes.
func (c *Checkbox) Observe(f func(bool)) { c.obs.add(f) }

func (c *Checkbox) getAny() any            { return c.Value() }
func (c *Checkbox) setAny(v any)           { c.SetValue(v.(bool)) }
func (c *Checkbox) observeAny(f func(any)) { c.Observe(func(v bool) { f(v) }) }

// Text is a one-line text field.
type Text struct {
	core
	obs observers[string]
}

// NewText returns a text field holding value.
func NewText(description, value string) *Text {
	t := &Text{core: core{newDOM("TextModel", "TextView",
		newStyle("TextStyleModel", map[string]any{"background": nil, "font_size": nil, "text_color": nil}),
		map[string]any{"continuous_update": true, "description": description, "description_allow_html": false, "disabled": false, "placeholder": "\u200b", "value": value})}}
	t.m.writable["value"] = kString
	t.m.changed = func([]string) { t.obs.fire(t.m, "Observe", t.Value()) }
	t.m.describe = func() string { return describeValue("Text", description, fmt.Sprintf("%q", t.Value())) }
	return t
}

// Value returns the text.
func (t *Text) Value() string { v, _ := t.m.get("value").(string); return v }

// SetValue replaces the text.
func (t *Text) SetValue(v string) {
	if t.m.set(map[string]any{"value": v}) {
		t.obs.fire(t.m, "Observe", v)
	}
}

// Observe calls f with the new text whenever it changes (as it is typed).
func (t *Text) Observe(f func(string)) { t.obs.add(f) }

func (t *Text) getAny() any            { return t.Value() }
func (t *Text) setAny(v any)           { t.SetValue(v.(string)) }
func (t *Text) observeAny(f func(any)) { t.Observe(func(v string) { f(v) }) }

// selection is the shared part of Dropdown and ToggleButtons: a choice of
// one label of a list, kept as its index.
type selection struct {
	core
	options []string
	obs     observers[string]
}

func newSelection(modelName, viewName string, style *model, description string, options []string, value string, extra map[string]any) *selection {
	opts := slices.Clone(options)
	labels := make([]any, len(opts))
	for i, o := range opts {
		labels[i] = o
	}
	var index any
	if i := slices.Index(opts, value); i >= 0 {
		index = i
	} else if len(opts) > 0 {
		index = 0
	}
	a := map[string]any{"_options_labels": labels, "description": description, "description_allow_html": false, "disabled": false, "index": index}
	for k, v := range extra {
		a[k] = v
	}
	s := &selection{core: core{newDOM(modelName, viewName, style, a)}, options: opts}
	s.m.writable["index"] = kIntOrNil
	s.m.validate = func(key string, v any) (any, error) {
		if i, ok := v.(int); ok && (i < 0 || i >= len(opts)) {
			return nil, fmt.Errorf("%q %d is out of range [0, %d)", key, i, len(opts))
		}
		return v, nil
	}
	s.m.changed = func([]string) { s.obs.fire(s.m, "Observe", s.Value()) }
	name := modelName[:len(modelName)-len("Model")]
	s.m.describe = func() string { return describeValue(name, description, fmt.Sprintf("%q", s.Value())) }
	return s
}

// Value returns the selected option ("" if none).
func (s *selection) Value() string {
	i, ok := s.m.get("index").(int)
	if !ok || i < 0 || i >= len(s.options) {
		return ""
	}
	return s.options[i]
}

// SetValue selects an option; a value that is not one of the options is
// ignored.
func (s *selection) SetValue(v string) {
	i := slices.Index(s.options, v)
	if i < 0 {
		logf("widgets: %s: %q is not one of the options %q; ignored", s.m.name, v, s.options)
		return
	}
	if s.m.set(map[string]any{"index": i}) {
		s.obs.fire(s.m, "Observe", v)
	}
}

// Observe calls f with the newly selected option whenever it changes.
func (s *selection) Observe(f func(string)) { s.obs.add(f) }

// Options returns the options.
func (s *selection) Options() []string { return slices.Clone(s.options) }

func (s *selection) getAny() any            { return s.Value() }
func (s *selection) setAny(v any)           { s.SetValue(v.(string)) }
func (s *selection) observeAny(f func(any)) { s.Observe(func(v string) { f(v) }) }

// Dropdown chooses one string of a list.
type Dropdown struct{ *selection }

// NewDropdown returns a dropdown of options with value selected (the
// first option if value is not one of them).
func NewDropdown(description string, options []string, value string) *Dropdown {
	return &Dropdown{newSelection("DropdownModel", "DropdownView", descStyle(), description, options, value, nil)}
}

// ToggleButtons chooses one string of a list, shown as a row of buttons.
type ToggleButtons struct{ *selection }

// NewToggleButtons returns toggle buttons for options with value selected
// (the first option if value is not one of them).
func NewToggleButtons(description string, options []string, value string) *ToggleButtons {
	return &ToggleButtons{newSelection("ToggleButtonsModel", "ToggleButtonsView",
		newStyle("ToggleButtonsStyleModel", map[string]any{"button_width": "", "font_weight": ""}),
		description, options, value,
		map[string]any{"button_style": "", "icons": []any{}, "tooltips": []any{}})}
}

// Button is a push button.
type Button struct {
	core
	obs observers[struct{}]
}

// NewButton returns a button labelled description.
func NewButton(description string) *Button {
	b := &Button{core: core{newDOM("ButtonModel", "ButtonView",
		newStyle("ButtonStyleModel", map[string]any{"button_color": nil, "font_family": nil, "font_size": nil, "font_style": nil, "font_variant": nil, "font_weight": nil, "text_color": nil, "text_decoration": nil, "description_width": nil}),
		map[string]any{"button_style": "", "description": description, "disabled": false, "icon": ""})}}
	delete(b.m.refs[1].state, "description_width") // not an attribute of ButtonStyleModel
	b.m.custom = func(content map[string]any) {
		if ev, _ := content["event"].(string); ev == "click" {
			b.Click()
		}
	}
	b.m.describe = func() string { return fmt.Sprintf("Button(description=%q)", description) }
	return b
}

// OnClick calls f when the button is clicked.
func (b *Button) OnClick(f func()) {
	if f != nil {
		b.obs.add(func(struct{}) { f() })
	}
}

// Click runs the click callbacks, as a click in the front end does.
func (b *Button) Click() { b.obs.fire(b.m, "OnClick", struct{}{}) }

// Label shows a line of text.
type Label struct{ core }

// NewLabel returns a label showing s.
func NewLabel(s string) *Label {
	l := &Label{core{newDOM("LabelModel", "LabelView",
		newStyle("LabelStyleModel", map[string]any{"background": nil, "font_family": nil, "font_size": nil, "font_style": nil, "font_variant": nil, "font_weight": nil, "text_color": nil, "text_decoration": nil}),
		map[string]any{"description": "", "description_allow_html": false, "placeholder": "\u200b", "value": s})}}
	l.m.describe = func() string { return fmt.Sprintf("Label(%q)", l.Value()) }
	return l
}

// Value returns the text.
func (l *Label) Value() string { v, _ := l.m.get("value").(string); return v }

// SetValue replaces the text.
func (l *Label) SetValue(s string) { l.m.set(map[string]any{"value": s}) }

// Progress is a progress bar.
type Progress struct{ core }

// NewProgress returns a progress bar from min to max (reversed bounds are
// swapped; NaN or infinite ones become 0 and 1), at min.
func NewProgress(min, max float64) *Progress {
	min, max = finite(min, 0), finite(max, 1)
	if min > max {
		min, max = max, min
	}
	p := &Progress{core{newDOM("FloatProgressModel", "ProgressView",
		newStyle("ProgressStyleModel", map[string]any{"bar_color": nil}),
		map[string]any{"bar_style": "", "description": "", "description_allow_html": false, "max": max, "min": min, "orientation": "horizontal", "value": min})}}
	p.m.describe = func() string { return fmt.Sprintf("Progress(value=%g, min=%g, max=%g)", p.Value(), min, max) }
	return p
}

// Value returns the bar's value.
func (p *Progress) Value() float64 { v, _ := p.m.get("value").(float64); return v }

// SetValue moves the bar (clamped to its range; NaN is ignored). Safe from
// any goroutine: a training loop calls it.
func (p *Progress) SetValue(v float64) {
	if math.IsNaN(v) {
		return
	}
	lo, _ := p.m.get("min").(float64)
	hi, _ := p.m.get("max").(float64)
	p.m.set(map[string]any{"value": clamp(v, lo, hi)})
}

// SetDescription sets the text shown beside the bar.
func (p *Progress) SetDescription(s string) { p.m.set(map[string]any{"description": s}) }

// SetBarStyle colours the bar: "success", "info", "warning", "danger" or
// "" (the default); other values are ignored.
func (p *Progress) SetBarStyle(style string) {
	if slices.Contains([]string{"", "success", "info", "warning", "danger"}, style) {
		p.m.set(map[string]any{"bar_style": style})
	}
}

// Image shows a PNG image.
type Image struct{ core }

// NewImage returns an empty image; SetPNG fills it.
func NewImage() *Image {
	im := &Image{core{newDOM("ImageModel", "ImageView", nil,
		map[string]any{"format": "png", "height": "", "width": "", "value": []byte{}})}}
	im.m.describe = func() string {
		b, _ := im.m.get("value").([]byte)
		return fmt.Sprintf("Image(png, %d bytes)", len(b))
	}
	return im
}

// SetPNG replaces the image by PNG-encoded bytes (sent to the front end as
// a binary buffer). The bytes are copied.
func (im *Image) SetPNG(b []byte) { im.m.set(map[string]any{"value": slices.Clone(b)}) }

// SetSize sets the shown width and height as CSS sizes ("400px", "50%";
// "" for the image's own size).
func (im *Image) SetSize(width, height string) {
	im.m.set(map[string]any{"width": width, "height": height})
}
