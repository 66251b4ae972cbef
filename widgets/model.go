package widgets

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Widget is anything that can be shown as a Jupyter widget: every control
// of this package, and containers of them.
type Widget interface {
	// ModelID is the widget's comm id (the model id of the front end).
	ModelID() string
	// MIMEBundle opens the widget's comm (and those of its layout, style
	// and children) if needed and returns its display bundle.
	MIMEBundle() map[string]any
}

// kind is the type of an attribute the front end may set.
type kind int

const (
	kFloat kind = iota
	kInt
	kIntOrNil
	kBool
	kString
	kAny
)

// model is one widget model: its state, kept in the JSON form it is sent
// in, and its comm.
type model struct {
	id   string
	name string // _model_name, for messages

	openMu sync.Mutex // serialises opening

	mu       sync.Mutex
	state    map[string]any
	writable map[string]kind // attributes the front end may update
	refs     []*model        // models referred to (layout, style, children): opened first
	opened   bool
	closed   bool

	// validate checks (and may clamp) a value the front end sent; called
	// with mu held.
	validate func(key string, v any) (any, error)
	// changed is called, without locks, after the front end changed keys.
	changed func(keys []string)
	// custom is called for custom messages (a button's click).
	custom func(content map[string]any)
	// describe returns the text/plain form.
	describe func() string
	// errOut, if set, shows callback errors (Interact's output).
	errOut *Output
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

const (
	controlsModule = "@jupyter-widgets/controls"
	baseModule     = "@jupyter-widgets/base"
	outputModule   = "@jupyter-widgets/output"
	moduleVersion  = "2.0.0"
	outputVersion  = "1.0.0"
)

// newModel makes a model of the given model and view names (module
// @jupyter-widgets/controls unless set in attrs) with the default attrs.
func newModel(modelName, viewName string, attrs map[string]any) *model {
	st := map[string]any{
		"_model_module":         controlsModule,
		"_model_module_version": moduleVersion,
		"_model_name":           modelName,
		"_view_module":          controlsModule,
		"_view_module_version":  moduleVersion,
		"_view_name":            viewName,
	}
	for k, v := range attrs {
		st[k] = v
	}
	m := &model{id: newID(), name: modelName, state: st, writable: map[string]kind{}}
	m.describe = func() string { return modelName }
	return m
}

// layoutAttrs are the attributes of LayoutModel (all unset).
var layoutAttrs = []string{"align_content", "align_items", "align_self", "border_bottom", "border_left", "border_right", "border_top", "bottom", "display", "flex", "flex_flow", "grid_area", "grid_auto_columns", "grid_auto_flow", "grid_auto_rows", "grid_column", "grid_gap", "grid_row", "grid_template_areas", "grid_template_columns", "grid_template_rows", "height", "justify_content", "justify_items", "left", "margin", "max_height", "max_width", "min_height", "min_width", "object_fit", "object_position", "order", "overflow", "padding", "right", "top", "visibility", "width"}

func newLayout() *model {
	attrs := map[string]any{
		"_model_module": baseModule,
		"_view_module":  baseModule,
	}
	for _, a := range layoutAttrs {
		attrs[a] = nil
	}
	return newModel("LayoutModel", "LayoutView", attrs)
}

// newStyle makes a style model (DescriptionStyle, SliderStyle, …).
func newStyle(modelName string, attrs map[string]any) *model {
	a := map[string]any{"_view_module": baseModule, "description_width": ""}
	for k, v := range attrs {
		a[k] = v
	}
	return newModel(modelName, "StyleView", a)
}

// newDOM makes a control model with the common DOM attributes, a layout
// and, if style is not nil, a style.
func newDOM(modelName, viewName string, style *model, attrs map[string]any) *model {
	a := map[string]any{"_dom_classes": []any{}, "tabbable": nil, "tooltip": nil}
	for k, v := range attrs {
		a[k] = v
	}
	layout := newLayout()
	a["layout"] = ref(layout)
	refs := []*model{layout}
	if style != nil {
		a["style"] = ref(style)
		refs = append(refs, style)
	}
	m := newModel(modelName, viewName, a)
	m.refs = refs
	return m
}

func ref(m *model) string { return "IPY_MODEL_" + m.id }

// get returns an attribute.
func (m *model) get(key string) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[key]
}

// set changes attributes from Go and sends them to the front end if the
// widget is shown. It reports whether anything changed.
func (m *model) set(kv map[string]any) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	diff := map[string]any{}
	for k, v := range kv {
		if !reflect.DeepEqual(m.state[k], v) {
			m.state[k] = v
			diff[k] = v
		}
	}
	if len(diff) == 0 {
		return false
	}
	m.sendLocked("update", diff)
	return true
}

// sendLocked sends an update of state (mu held, so that updates leave in
// the order they were made).
func (m *model) sendLocked(method string, state map[string]any) {
	if !m.opened || m.closed {
		return
	}
	t := transport()
	if t == nil {
		return
	}
	st, paths, bufs := encodeState(state)
	data := map[string]any{"method": method, "state": st, "buffer_paths": pathsAny(paths)}
	if err := t.Send(m.id, data, nil, bufs); err != nil {
		t.Log(fmt.Sprintf("widgets: %s %s: sending %s: %v", m.name, m.id, method, err))
	}
}

// ensureOpen opens the comm of m (after those of the models it refers to).
func (m *model) ensureOpen() error {
	m.openMu.Lock()
	defer m.openMu.Unlock()
	m.mu.Lock()
	if m.opened && !m.closed {
		m.mu.Unlock()
		return nil
	}
	refs := append([]*model(nil), m.refs...)
	m.mu.Unlock()
	for _, r := range refs {
		if err := r.ensureOpen(); err != nil {
			return err
		}
	}
	t := transport()
	if t == nil {
		return errNoFrontEnd
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	st, paths, bufs := encodeState(m.state)
	data := map[string]any{"state": st, "buffer_paths": pathsAny(paths)}
	register(m)
	if err := t.Open(m.id, Target, data, map[string]any{"version": ProtocolVersion}, bufs); err != nil {
		return fmt.Errorf("widgets: opening %s: %w", m.name, err)
	}
	m.opened, m.closed = true, false
	return nil
}

// bundle is the display bundle of m.
func (m *model) bundle() map[string]any {
	d := map[string]any{"text/plain": m.describe()}
	if err := m.ensureOpen(); err == nil {
		d[ViewMIME] = map[string]any{"model_id": m.id, "version_major": 2, "version_minor": 0}
	}
	return d
}

// handleMsg acts on a comm_msg of the front end.
func (m *model) handleMsg(data map[string]any, buffers [][]byte) error {
	method, _ := data["method"].(string)
	switch method {
	case "update":
		return m.update(data, buffers)
	case "request_state":
		m.mu.Lock()
		m.sendLocked("update", m.state)
		m.mu.Unlock()
		return nil
	case "custom":
		content, _ := data["content"].(map[string]any)
		if m.custom != nil {
			m.custom(content)
		}
		return nil
	}
	return fmt.Errorf("widgets: %s %s: unknown method %q", m.name, m.id, method)
}

// update applies a state update of the front end: all of it, or, if any
// attribute is unknown, read-only or of the wrong type, none of it (the
// front end is sent the current values back). Accepted updates are
// echoed (echo_update) before the callbacks run.
func (m *model) update(data map[string]any, buffers [][]byte) error {
	st, ok := data["state"].(map[string]any)
	if !ok {
		return fmt.Errorf("widgets: %s %s: update without a state object refused", m.name, m.id)
	}
	in := make(map[string]any, len(st))
	for k, v := range st {
		in[k] = v
	}
	if bp, ok := data["buffer_paths"].([]any); ok {
		for i, p := range bp {
			path, _ := p.([]any)
			key, _ := firstString(path)
			if len(path) != 1 || key == "" || i >= len(buffers) {
				return fmt.Errorf("widgets: %s %s: update refused: unsupported buffer path %v", m.name, m.id, p)
			}
			in[key] = buffers[i]
		}
	}
	m.mu.Lock()
	clean := map[string]any{}
	var errs []string
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := m.convert(k, in[k])
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		clean[k] = v
	}
	if len(errs) > 0 {
		// Put the front end back to the last good state.
		back := map[string]any{}
		for _, k := range keys {
			if cur, ok := m.state[k]; ok {
				back[k] = cur
			}
		}
		m.sendLocked("update", back)
		m.mu.Unlock()
		return fmt.Errorf("widgets: %s %s: update refused, state kept: %s", m.name, m.id, strings.Join(errs, "; "))
	}
	var changed []string
	for _, k := range keys {
		if !reflect.DeepEqual(m.state[k], clean[k]) {
			changed = append(changed, k)
		}
		m.state[k] = clean[k]
	}
	m.sendLocked("echo_update", clean)
	// A clamped value differs from what the front end shows.
	fix := map[string]any{}
	for _, k := range keys {
		if !reflect.DeepEqual(clean[k], in[k]) && !isNumEqual(clean[k], in[k]) {
			fix[k] = clean[k]
		}
	}
	if len(fix) > 0 {
		m.sendLocked("update", fix)
	}
	m.mu.Unlock()
	if len(changed) > 0 && m.changed != nil {
		m.changed(changed)
	}
	return nil
}

func firstString(p []any) (string, bool) {
	if len(p) == 0 {
		return "", false
	}
	s, ok := p[0].(string)
	return s, ok
}

func isNumEqual(a, b any) bool {
	x, ok1 := toFloat(a)
	y, ok2 := toFloat(b)
	return ok1 && ok2 && x == y
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}

// convert checks a value the front end sent for key (mu held).
func (m *model) convert(key string, v any) (any, error) {
	k, ok := m.writable[key]
	if !ok {
		return nil, fmt.Errorf("%q is not an attribute the front end may set", key)
	}
	var out any
	switch k {
	case kFloat:
		f, ok := v.(float64)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%q must be a finite number, got %s", key, show(v))
		}
		out = f
	case kInt, kIntOrNil:
		if v == nil && k == kIntOrNil {
			out = nil
			break
		}
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, fmt.Errorf("%q must be an integer, got %s", key, show(v))
		}
		out = int(f)
	case kBool:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("%q must be true or false, got %s", key, show(v))
		}
		out = b
	case kString:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%q must be a string, got %s", key, show(v))
		}
		out = s
	default:
		out = v
	}
	if m.validate != nil {
		return m.validate(key, out)
	}
	return out, nil
}

func show(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprintf("%T %v", v, v)
}

// call runs a callback of user code: a panic is shown in the widget's
// error output (Interact's), or else on standard error, and logged; it
// never reaches the kernel.
func (m *model) call(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			reportError(m, fmt.Sprintf("%s callback of %s panicked: %v", what, m.name, r))
		}
	}()
	f()
}

func reportError(m *model, msg string) {
	logf("widgets: %s", msg)
	m.mu.Lock()
	out := m.errOut
	m.mu.Unlock()
	if out != nil {
		out.appendStream("stderr", msg+"\n")
		return
	}
	fmt.Fprintln(os.Stderr, msg)
}

// observers is a list of callbacks of one value type.
type observers[T any] struct {
	mu  sync.Mutex
	fns []func(T)
}

func (o *observers[T]) add(f func(T)) {
	if f == nil {
		return
	}
	o.mu.Lock()
	o.fns = append(o.fns, f)
	o.mu.Unlock()
}

func (o *observers[T]) fire(m *model, what string, v T) {
	o.mu.Lock()
	fns := append([]func(T){}, o.fns...)
	o.mu.Unlock()
	for _, f := range fns {
		m.call(what, func() { f(v) })
	}
}

// core is embedded in every widget type.
type core struct{ m *model }

// ModelID returns the widget's comm id.
func (c core) ModelID() string { return c.m.id }

// MIMEBundle returns the widget's display bundle
// (application/vnd.jupyter.widget-view+json and text/plain), opening its
// comm first; outside a kernel only text/plain.
func (c core) MIMEBundle() map[string]any { return c.m.bundle() }

// String describes the widget in one line (its text/plain form).
func (c core) String() string { return c.m.describe() }

// Closed reports whether the front end has closed the widget's comm. A
// front end without a widget manager (JupyterLab or Notebook without the
// widgets extension) closes every widget comm the kernel opens, so a
// widget it closed is not being drawn; code that shows a widget beside a
// plain form (HTML, text) can then keep only the plain one up to date.
// Showing the widget again opens a new comm.
func (c core) Closed() bool {
	c.m.mu.Lock()
	defer c.m.mu.Unlock()
	return c.m.opened && c.m.closed
}

func (c core) base() *model { return c.m }

// modelOf returns the model of a widget of this package (nil otherwise).
func modelOf(w Widget) *model {
	if b, ok := w.(interface{ base() *model }); ok {
		return b.base()
	}
	return nil
}

// describeValue formats a widget for text/plain.
func describeValue(name, description string, value any) string {
	if description != "" {
		return fmt.Sprintf("%s(description=%q, value=%v)", name, description, value)
	}
	return fmt.Sprintf("%s(value=%v)", name, value)
}
