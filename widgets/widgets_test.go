package widgets

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/neurogo/neurogo/display"
)

// sent is one comm message the fake transport saw.
type sent struct {
	kind, id, target string
	data, metadata   map[string]any
	buffers          [][]byte
}

type fakeTransport struct {
	mu   sync.Mutex
	msgs []sent
	logs []string
}

func (f *fakeTransport) Open(id, target string, data, md map[string]any, bufs [][]byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.msgs = append(f.msgs, sent{"open", id, target, data, md, bufs})
	return nil
}

func (f *fakeTransport) Send(id string, data, md map[string]any, bufs [][]byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.msgs = append(f.msgs, sent{"msg", id, "", data, md, bufs})
	return nil
}

func (f *fakeTransport) Close(id string, data map[string]any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.msgs = append(f.msgs, sent{"close", id, "", data, nil, nil})
	return nil
}

func (f *fakeTransport) Log(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logs = append(f.logs, s)
}

func (f *fakeTransport) take() []sent {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.msgs
	f.msgs = nil
	return m
}

func withTransport(t *testing.T) *fakeTransport {
	t.Helper()
	f := &fakeTransport{}
	SetTransport(f)
	t.Cleanup(func() { SetTransport(nil) })
	return f
}

func update(state map[string]any) map[string]any {
	return map[string]any{"method": "update", "state": state, "buffer_paths": []any{}}
}

func TestDisplayOpensWithFullState(t *testing.T) {
	f := withTransport(t)
	s := NewFloatSlider("gain", 0.5, 0, 1, 0.01)
	b := s.MIMEBundle()
	view, ok := b[ViewMIME].(map[string]any)
	if !ok || view["model_id"] != s.ModelID() || view["version_major"] != 2 {
		t.Fatalf("bundle %v: no widget view of %s", b, s.ModelID())
	}
	if !strings.Contains(b["text/plain"].(string), "gain") {
		t.Errorf("text/plain %q", b["text/plain"])
	}
	msgs := f.take()
	if len(msgs) != 3 {
		t.Fatalf("%d comm_opens, want 3 (layout, style, slider)", len(msgs))
	}
	opened := map[string]string{}
	for _, m := range msgs {
		if m.kind != "open" || m.target != Target || m.metadata["version"] != ProtocolVersion {
			t.Errorf("message %+v", m)
		}
		st := m.data["state"].(map[string]any)
		opened[m.id] = st["_model_name"].(string)
	}
	last := msgs[2].data["state"].(map[string]any)
	for _, k := range []string{"_model_module", "_model_module_version", "_view_name", "_view_module", "_view_module_version", "value", "min", "max", "step", "readout_format", "continuous_update", "behavior", "orientation", "disabled", "tooltip", "tabbable", "_dom_classes", "description_allow_html"} {
		if _, ok := last[k]; !ok {
			t.Errorf("slider state lacks %q", k)
		}
	}
	for _, k := range []string{"layout", "style"} {
		r, _ := last[k].(string)
		id, ok := strings.CutPrefix(r, "IPY_MODEL_")
		if !ok || opened[id] == "" {
			t.Errorf("%s = %q does not refer to a model opened before", k, r)
		}
	}
	if last["_model_name"] != "FloatSliderModel" || last["_model_module_version"] != "2.0.0" {
		t.Errorf("state %v", last)
	}
	// Displaying again opens nothing new.
	s.MIMEBundle()
	if m := f.take(); len(m) != 0 {
		t.Errorf("second display sent %d messages", len(m))
	}
}

func TestFrontEndUpdate(t *testing.T) {
	f := withTransport(t)
	s := NewIntSlider("n", 5, 0, 10, 1)
	s.MIMEBundle()
	f.take()
	var got []int
	s.Observe(func(v int) { got = append(got, v) })
	if err := HandleComm("msg", s.ModelID(), "", update(map[string]any{"value": 7.0}), nil); err != nil {
		t.Fatal(err)
	}
	if s.Value() != 7 || len(got) != 1 || got[0] != 7 {
		t.Fatalf("value %d, callbacks %v", s.Value(), got)
	}
	msgs := f.take()
	if len(msgs) != 1 || msgs[0].data["method"] != "echo_update" || msgs[0].data["state"].(map[string]any)["value"] != 7 {
		t.Fatalf("want one echo_update of 7, got %+v", msgs)
	}
	// Out of range: clamped, and the front end is told.
	if err := HandleComm("msg", s.ModelID(), "", update(map[string]any{"value": 70.0}), nil); err != nil {
		t.Fatal(err)
	}
	if s.Value() != 10 {
		t.Errorf("value %d, want 10 (clamped)", s.Value())
	}
	msgs = f.take()
	if len(msgs) != 2 || msgs[1].data["method"] != "update" {
		t.Errorf("want echo_update and a corrective update, got %+v", msgs)
	}
}

func TestMalformedUpdatesRefused(t *testing.T) {
	cases := []struct {
		name  string
		data  map[string]any
		bufs  [][]byte
		inLog string
	}{
		{"string for number", update(map[string]any{"value": "abc"}), nil, "must be a finite number"},
		{"unknown attribute", update(map[string]any{"value": 1.0, "colour": "red"}), nil, "colour"},
		{"read-only attribute", update(map[string]any{"max": 1000.0}), nil, "max"},
		{"no state", map[string]any{"method": "update"}, nil, "without a state"},
		{"bad buffer path", map[string]any{"method": "update", "state": map[string]any{}, "buffer_paths": []any{[]any{"value", 0.0}}}, [][]byte{{1}}, "buffer path"},
		{"unknown method", map[string]any{"method": "explode"}, nil, "unknown method"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := withTransport(t)
			s := NewFloatSlider("x", 2, 0, 10, 1)
			s.MIMEBundle()
			f.take()
			fired := false
			s.Observe(func(float64) { fired = true })
			err := HandleComm("msg", s.ModelID(), "", c.data, c.bufs)
			if err == nil || !strings.Contains(err.Error(), c.inLog) {
				t.Fatalf("error %v, want one mentioning %q", err, c.inLog)
			}
			if s.Value() != 2 || fired {
				t.Errorf("value %g (fired %v) after a refused update, want 2", s.Value(), fired)
			}
		})
	}
}

func TestSetValueSendsUpdate(t *testing.T) {
	f := withTransport(t)
	p := NewProgress(0, 100)
	p.SetValue(3) // not shown yet: nothing sent
	if m := f.take(); len(m) != 0 {
		t.Fatalf("unshown widget sent %+v", m)
	}
	display.Bundle(p)
	f.take()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				p.SetValue(float64(g*50 + i))
			}
		}(g)
	}
	wg.Wait()
	p.SetValue(42)
	msgs := f.take()
	last := msgs[len(msgs)-1]
	if last.data["method"] != "update" || last.data["state"].(map[string]any)["value"] != 42.0 {
		t.Fatalf("last message %+v, want update value 42", last)
	}
}

func TestPanickingCallbackIsContained(t *testing.T) {
	f := withTransport(t)
	b := NewButton("boom")
	b.OnClick(func() { panic("bad click") })
	ran := false
	b.OnClick(func() { ran = true })
	b.MIMEBundle()
	if err := HandleComm("msg", b.ModelID(), "", map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}, nil); err != nil {
		t.Fatal(err)
	}
	if !ran {
		t.Error("the callback after the panicking one did not run")
	}
	if !strings.Contains(strings.Join(f.logs, "\n"), "bad click") {
		t.Errorf("log %q lacks the panic", f.logs)
	}
}

func TestInteractShowsResultsAndErrors(t *testing.T) {
	withTransport(t)
	x := NewFloatSlider("x", 1, 0, 10, 1)
	ui := Interact(func(x float64) (string, error) {
		if x > 5 {
			return "", fmt.Errorf("x=%g is too large", x)
		}
		if x == 4 {
			panic("four")
		}
		return fmt.Sprintf("x is %g", x), nil
	}, x)
	box := ui.(*Box)
	out := box.Children()[1].(*Output)
	text := func() string { return fmt.Sprint(out.Outputs()) }
	if !strings.Contains(text(), "x is 1") {
		t.Fatalf("outputs %s", text())
	}
	box.MIMEBundle()
	if err := HandleComm("msg", x.ModelID(), "", update(map[string]any{"value": 3.0}), nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text(), "x is 3") || strings.Contains(text(), "x is 1") {
		t.Errorf("after update: %s", text())
	}
	x.SetValue(7)
	if !strings.Contains(text(), "too large") {
		t.Errorf("error not shown: %s", text())
	}
	x.SetValue(4)
	if !strings.Contains(text(), "four") {
		t.Errorf("panic not shown: %s", text())
	}
	// A mismatched function is reported in the output, not panicked on.
	bad := Interact(func(s string) {}, NewIntSlider("n", 1, 0, 2, 1)).(*Box)
	if o := fmt.Sprint(bad.Children()[1].(*Output).Outputs()); !strings.Contains(o, "argument 0") {
		t.Errorf("mismatch: %s", o)
	}
}

func TestImageSendsBuffer(t *testing.T) {
	f := withTransport(t)
	im := NewImage()
	im.MIMEBundle()
	opens := f.take()
	if len(opens[len(opens)-1].buffers) != 1 {
		t.Fatalf("comm_open of the image carries %d buffers", len(opens[len(opens)-1].buffers))
	}
	im.SetPNG([]byte("\x89PNG..."))
	m := f.take()
	if len(m) != 1 || len(m[0].buffers) != 1 || string(m[0].buffers[0]) != "\x89PNG..." {
		t.Fatalf("%+v", m)
	}
	if p := fmt.Sprint(m[0].data["buffer_paths"]); p != "[[value]]" {
		t.Errorf("buffer_paths %s", p)
	}
	if _, ok := m[0].data["state"].(map[string]any)["value"]; ok {
		t.Error("the buffer is also in the JSON state")
	}
}

func TestControlCommAndTargets(t *testing.T) {
	f := withTransport(t)
	c := NewCheckbox("on", true)
	c.MIMEBundle()
	f.take()
	if err := HandleComm("open", "ctl", ControlTarget, map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = HandleComm("close", "ctl", "", nil, nil) })
	if err := HandleComm("msg", "ctl", "", map[string]any{"method": "request_states"}, nil); err != nil {
		t.Fatal(err)
	}
	m := f.take()
	if len(m) != 1 || m[0].data["method"] != "update_states" {
		t.Fatalf("%+v", m)
	}
	states := m[0].data["states"].(map[string]any)
	if st, ok := states[c.ModelID()].(map[string]any); !ok || st["value"] != true {
		t.Errorf("states lack the checkbox: %v", states[c.ModelID()])
	}
	if err := HandleComm("open", "x", "some.other.target", nil, nil); err == nil {
		t.Error("an unknown target was accepted")
	}
	if err := HandleComm("open", "y", Target, nil, nil); err == nil {
		t.Error("a front-end widget model was accepted")
	}
}

// TestFrontEnd: a front end draws widgets once its widget manager has
// opened the control comm, also after it closed it again (as JupyterLab's
// does once the widgets' state has been sent).
func TestFrontEnd(t *testing.T) {
	withTransport(t)
	registry.Lock()
	registry.managers = 0 // other tests open control comms
	registry.Unlock()
	if FrontEnd() {
		t.Fatal("FrontEnd before any control comm")
	}
	if err := HandleComm("open", "fe-ctl", ControlTarget, map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	if !FrontEnd() {
		t.Error("FrontEnd false with the control comm open")
	}
	if err := HandleComm("close", "fe-ctl", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if !FrontEnd() {
		t.Error("FrontEnd false after the control comm was answered and closed")
	}
}

// TestClosedByFrontEnd: a widget whose comm the front end closed (as one
// without a widget manager does) reports Closed, sends no updates, and is
// opened again when it is shown again.
func TestClosedByFrontEnd(t *testing.T) {
	f := withTransport(t)
	p := NewProgress(0, 1)
	if p.Closed() {
		t.Fatal("Closed before it was shown")
	}
	p.MIMEBundle()
	if p.Closed() {
		t.Fatal("Closed right after it was shown")
	}
	if err := HandleComm("close", p.ModelID(), "", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	if !p.Closed() {
		t.Fatal("not Closed after the front end closed its comm")
	}
	f.mu.Lock()
	n := len(f.msgs)
	f.mu.Unlock()
	p.SetValue(0.5)
	f.mu.Lock()
	if len(f.msgs) != n {
		t.Errorf("a closed widget sent %d messages", len(f.msgs)-n)
	}
	f.mu.Unlock()
	if b := p.MIMEBundle(); b[ViewMIME] == nil || p.Closed() {
		t.Errorf("shown again: %v, Closed %v", b, p.Closed())
	}
}

func TestSelectionAndTabs(t *testing.T) {
	withTransport(t)
	d := NewToggleButtons("mode", []string{"rate", "spike"}, "spike")
	d.MIMEBundle()
	if d.Value() != "spike" {
		t.Fatalf("value %q", d.Value())
	}
	if err := HandleComm("msg", d.ModelID(), "", update(map[string]any{"index": 5.0}), nil); err == nil {
		t.Error("index out of range accepted")
	}
	if err := HandleComm("msg", d.ModelID(), "", update(map[string]any{"index": 0.0}), nil); err != nil || d.Value() != "rate" {
		t.Errorf("index 0: %v, value %q", err, d.Value())
	}
	tabs := Tab([]string{"a", "b"}, NewLabel("A"), NewLabel("B"))
	tabs.MIMEBundle()
	got := -1
	tabs.Observe(func(i int) { got = i })
	if err := HandleComm("msg", tabs.ModelID(), "", update(map[string]any{"selected_index": 1.0}), nil); err != nil || got != 1 || tabs.Selected() != 1 {
		t.Errorf("select tab 1: %v, observed %d", err, got)
	}
}

func TestOutputCapturesDisplay(t *testing.T) {
	withTransport(t)
	out := NewOutput()
	out.Capture(func() {
		fmt.Println("printed first")
		_ = display.Display(display.Markdown("**hi**"))
		fmt.Println("printed after")
		panic("inside capture")
	})
	o := fmt.Sprint(out.Outputs())
	for _, want := range []string{"**hi**", "printed first", "printed after", "inside capture", "display_data", "error"} {
		if !strings.Contains(o, want) {
			t.Errorf("outputs lack %q: %s", want, o)
		}
	}
	if a, b, c := strings.Index(o, "printed first"), strings.Index(o, "**hi**"), strings.Index(o, "printed after"); !(a < b && b < c) {
		t.Errorf("outputs out of order: %s", o)
	}
	if strings.Contains(o, "NGWFLUSH") {
		t.Errorf("a flush marker leaked into the outputs: %q", o)
	}
	if display.Active() {
		t.Error("the capture's display sink is still installed")
	}
	out.Clear()
	if len(out.Outputs()) != 0 {
		t.Error("Clear left outputs")
	}
}

func TestNoFrontEnd(t *testing.T) {
	SetTransport(nil)
	s := NewFloatSlider("x", 1, 0, 2, 0.1)
	b := s.MIMEBundle()
	if _, ok := b[ViewMIME]; ok {
		t.Error("widget view without a front end")
	}
	s.SetValue(1.5)
	if s.Value() != 1.5 {
		t.Error(s.Value())
	}
}

func TestConstructorsMendBadInput(t *testing.T) {
	s := NewFloatSlider("x", 5, 10, 0, -1)
	if s.Value() != 5 || s.m.get("min") != 0.0 || s.m.get("max") != 10.0 || s.m.get("step") != 0.1 {
		t.Errorf("state %v", s.m.state)
	}
	l := NewFloatLogSlider("lr", 1e-9, -1, 100)
	if l.Value() != 1e-3 {
		t.Errorf("log slider value %g", l.Value())
	}
	d := NewDropdown("d", nil, "x")
	if d.Value() != "" {
		t.Errorf("empty dropdown value %q", d.Value())
	}
	if err := Link(NewText("t", ""), NewCheckbox("c", false)); err == nil {
		t.Error("Link of string and bool accepted")
	}
}
