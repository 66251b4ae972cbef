package notebook

import (
	"bytes"
	"image/png"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/widgets"
)

// commLog is a widgets.Transport that records what it is asked to send.
type commLog struct {
	mu    sync.Mutex
	opens map[string]string // comm id → _model_name
	msgs  []commMsg
}

type commMsg struct {
	id    string
	state map[string]any
	bufs  [][]byte
}

func (c *commLog) Open(id, target string, data, md map[string]any, bufs [][]byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, _ := data["state"].(map[string]any)
	name, _ := st["_model_name"].(string)
	c.opens[id] = name
	return nil
}

func (c *commLog) Send(id string, data, md map[string]any, bufs [][]byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, _ := data["state"].(map[string]any)
	c.msgs = append(c.msgs, commMsg{id, st, bufs})
	return nil
}

func (c *commLog) Close(string, map[string]any) error { return nil }
func (c *commLog) Log(string)                         {}

// updates returns the updates sent to models named name.
func (c *commLog) updates(name string) []commMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []commMsg
	for _, m := range c.msgs {
		if c.opens[m.id] == name {
			out = append(out, m)
		}
	}
	return out
}

// withWidgetFrontEnd installs a display sink and a comm transport and,
// with control, opens the control comm as JupyterLab's widget manager
// does when it connects to a running kernel.
func withWidgetFrontEnd(t *testing.T, control bool) (*sink, *commLog) {
	t.Helper()
	s := &sink{}
	c := &commLog{opens: map[string]string{}}
	display.SetSink(s)
	widgets.SetTransport(c)
	if control {
		if err := widgets.HandleComm("open", "notebook-test-control", widgets.ControlTarget, map[string]any{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		_ = widgets.HandleComm("close", "notebook-test-control", "", nil, nil)
		widgets.SetTransport(nil)
		display.SetSink(nil)
	})
	return s, c
}

// TestProgressWidgets: in a kernel, Progress shows a bar, a status line,
// the finished epochs and a loss plot as widgets — whether or not the
// front end's widget manager has opened the control comm (JupyterLab's
// does not when it starts the kernel) — and writes nothing. The display
// also carries the HTML bar and the epochs' lines as text; it is shown
// once and updated once, when training ends, so that its HTML and text
// are final.
func TestProgressWidgets(t *testing.T) {
	m, x, y := squareModel(t)
	for _, control := range []bool{true, false} {
		s, c := withWidgetFrontEnd(t, control)
		var w bytes.Buffer
		if _, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 4,
			Callbacks: []train.Callback{NewProgress(&w)}}); err != nil {
			t.Fatal(err)
		}
		if w.Len() != 0 {
			t.Errorf("control comm %v: Progress wrote %q", control, w.String())
		}
		if s.shows != 1 || s.updates != 1 || s.ids[0] != "neurogo-fit" {
			t.Fatalf("control comm %v: %d shows and %d updates (%v); want one of each under neurogo-fit",
				control, s.shows, s.updates, s.ids)
		}
		first, last := s.data[0], s.data[len(s.data)-1]
		for i, d := range []map[string]any{first, last} {
			html, _ := d[display.MIMEHTML].(string)
			if d[widgets.ViewMIME] == nil || !strings.Contains(html, "<progress value=") || d[display.MIMEText] == nil {
				t.Errorf("control comm %v: display %d %v: want the widget view, the HTML bar and text", control, i, d)
			}
		}
		html, _ := last[display.MIMEHTML].(string)
		if text, _ := last[display.MIMEText].(string); !strings.Contains(text, "Epoch 2/2 3/3") ||
			strings.Count(text, "Epoch 2/2") != 1 || !strings.Contains(html, "Epoch 2/2") {
			t.Errorf("control comm %v: final display %v: want the epochs' lines, once each", control, last)
		}
		bars := c.updates("FloatProgressModel")
		if len(bars) == 0 || bars[len(bars)-1].state["bar_style"] != "success" {
			t.Errorf("progress bar updates: %v", bars)
		}
		var value float64
		for _, b := range bars {
			if v, ok := b.state["value"].(float64); ok {
				value = v
			}
		}
		if value != 1 {
			t.Errorf("bar ends at %g, want 1", value)
		}
		imgs := c.updates("ImageModel")
		if len(imgs) == 0 || len(imgs[len(imgs)-1].bufs) != 1 {
			t.Fatalf("image updates: %d", len(imgs))
		}
		im, err := png.Decode(bytes.NewReader(imgs[len(imgs)-1].bufs[0]))
		if err != nil || im.Bounds().Dx() != lossW {
			t.Errorf("loss plot: %v, %v", im, err)
		}
		labels := 0
		for _, name := range c.opens {
			if name == "LabelModel" {
				labels++
			}
		}
		if labels != 3 { // status and two finished epochs
			t.Errorf("%d labels, want 3", labels)
		}
	}

	// HTML set: the HTML bar only.
	s, _ := withWidgetFrontEnd(t, true)
	p := NewProgress(nil)
	p.HTML = true
	if _, err := m.Fit(x, y, train.FitOptions{Epochs: 1, BatchSize: 4, Callbacks: []train.Callback{p}}); err != nil {
		t.Fatal(err)
	}
	if len(s.data) == 0 || s.data[0][display.MIMEHTML] == nil || s.data[0][widgets.ViewMIME] != nil {
		t.Errorf("with HTML set: %v", s.data)
	}
}

// TestProgressRefusedWidgets: a front end without a widget manager closes
// the widgets' comms; Progress then keeps the HTML bar up to date in
// place (display updates without the widget view).
func TestProgressRefusedWidgets(t *testing.T) {
	m, x, y := squareModel(t)
	s, c := withWidgetFrontEnd(t, false)
	p := NewProgress(nil)
	p.Interval = time.Nanosecond // an update at every batch
	refuse := train.CallbackFuncs{BatchEnd: func(*train.Model, int, int, train.Logs) error {
		c.mu.Lock()
		ids := make([]string, 0, len(c.opens))
		for id := range c.opens {
			ids = append(ids, id)
		}
		c.mu.Unlock()
		for _, id := range ids {
			if err := widgets.HandleComm("close", id, "", map[string]any{}, nil); err != nil {
				return err
			}
		}
		return nil
	}}
	if _, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 4,
		Callbacks: []train.Callback{p, refuse}}); err != nil {
		t.Fatal(err)
	}
	if s.shows != 1 || s.data[0][widgets.ViewMIME] == nil {
		t.Fatalf("%d shows, first %v: want one, with the widget view", s.shows, s.data[0])
	}
	if s.updates < 3 {
		t.Fatalf("%d display updates after the widgets were refused, want one per batch", s.updates)
	}
	for i, d := range s.data[1:] {
		if d[widgets.ViewMIME] != nil || d[display.MIMEHTML] == nil {
			t.Errorf("update %d: %v, want the HTML bar without the widget view", i, d)
		}
	}
	last, _ := s.data[len(s.data)-1][display.MIMEHTML].(string)
	if !strings.Contains(last, "Epoch 2/2") {
		t.Errorf("last update %q", last)
	}
}
