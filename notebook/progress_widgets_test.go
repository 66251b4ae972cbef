package notebook

import (
	"bytes"
	"image/png"
	"strings"
	"sync"
	"testing"

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

// withWidgetFrontEnd installs a display sink and a comm transport, and
// opens the control comm as JupyterLab's widget manager does.
func withWidgetFrontEnd(t *testing.T) (*sink, *commLog) {
	t.Helper()
	s := &sink{}
	c := &commLog{opens: map[string]string{}}
	display.SetSink(s)
	widgets.SetTransport(c)
	if err := widgets.HandleComm("open", "notebook-test-control", widgets.ControlTarget, map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = widgets.HandleComm("close", "notebook-test-control", "", nil, nil)
		widgets.SetTransport(nil)
		display.SetSink(nil)
	})
	return s, c
}

// TestProgressWidgets: where the front end draws widgets, Progress shows
// a bar, a status line, the finished epochs and a loss plot, and writes
// nothing; the display's text form holds the epochs' lines.
func TestProgressWidgets(t *testing.T) {
	m, x, y := squareModel(t)
	s, c := withWidgetFrontEnd(t)
	var w bytes.Buffer
	if _, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 4,
		Callbacks: []train.Callback{NewProgress(&w)}}); err != nil {
		t.Fatal(err)
	}
	if w.Len() != 0 {
		t.Errorf("Progress wrote %q", w.String())
	}
	if s.shows != 1 || s.ids[0] != "neurogo-fit" || s.data[0][widgets.ViewMIME] == nil {
		t.Fatalf("%d shows (%v); want one widget view under neurogo-fit", s.shows, s.ids)
	}
	last := s.data[len(s.data)-1]
	if text, _ := last[display.MIMEText].(string); !strings.Contains(text, "Epoch 2/2 3/3") || last[widgets.ViewMIME] == nil {
		t.Errorf("final display %v: want the widget view and the epochs' lines", last)
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

	// HTML set: the HTML bar, as without widgets.
	s.data, s.ids, s.shows, s.updates = nil, nil, 0, 0
	p := NewProgress(nil)
	p.HTML = true
	if _, err := m.Fit(x, y, train.FitOptions{Epochs: 1, BatchSize: 4, Callbacks: []train.Callback{p}}); err != nil {
		t.Fatal(err)
	}
	if len(s.data) == 0 || s.data[0][display.MIMEHTML] == nil || s.data[0][widgets.ViewMIME] != nil {
		t.Errorf("with HTML set: %v", s.data)
	}
}
