package kernel

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/neurogo/neurogo/widgets"
)

// TestSupervisorComms runs a widget through the executor (cells
// interpreted, so through the generated bindings): comm_open before the
// result, a front-end update answered by echo_update (tagged with its
// Ref), the callback's output, comm_done; a malformed update refused.
func TestSupervisorComms(t *testing.T) {
	if testing.Short() {
		t.Skip("starts executor processes")
	}
	t.Setenv("NEUROGO_CELLS", "interpreted")
	ev := &events{}
	comms := make(chan *ipcMsg, 256)
	var logb syncBuffer
	s := newSupervisor(supervisorOptions{
		Log:    newTestLogger(&logb),
		Stream: func(name, text string) { ev.add(name + ":" + text) },
		Input:  func(context.Context, string, bool) (string, error) { return "", errNoStdin },
		Comm:   func(m *ipcMsg) { comms <- m },
	})
	s.start()
	t.Cleanup(func() {
		s.close()
		if t.Failed() {
			t.Logf("supervisor log:\n%s", logb.String())
		}
	})
	if err := s.ready(); err != nil {
		t.Fatal(err)
	}
	mustRun(t, s, "import (\n\t\"fmt\"\n\t\"github.com/neurogo/neurogo/widgets\"\n)")
	r := mustRun(t, s, `wc := widgets.NewCheckbox("on", false)
wc.Observe(func(v bool) { fmt.Println("observed", v) })
wc`)
	view, ok := r.Data[widgets.ViewMIME].(map[string]any)
	if !ok {
		t.Fatalf("result %v has no widget view", r.Data)
	}
	id, _ := view["model_id"].(string)
	opened := map[string]bool{}
	for len(comms) > 0 {
		m := <-comms
		if m.Type == "comm_open" && m.Target == widgets.Target {
			opened[m.CommID] = true
		}
	}
	if !opened[id] || len(opened) != 3 {
		t.Fatalf("comm_open for %v, want the checkbox %s, its layout and style", opened, id)
	}

	next := func() *ipcMsg {
		t.Helper()
		select {
		case m := <-comms:
			return m
		case <-time.After(20 * time.Second):
			t.Fatal("no comm message from the executor")
			return nil
		}
	}
	if err := s.sendComm(&ipcMsg{Type: "comm_msg", CommID: id, Ref: 7, Data: map[string]any{
		"method": "update", "state": map[string]any{"value": true}, "buffer_paths": []any{}}}); err != nil {
		t.Fatal(err)
	}
	m := next()
	if m.Type != "comm_msg" || m.Ref != 7 || m.Data["method"] != "echo_update" {
		t.Fatalf("got %+v, want echo_update with ref 7", m)
	}
	if m = next(); m.Type != "comm_done" || m.Ref != 7 {
		t.Fatalf("got %+v, want comm_done 7", m)
	}
	if !strings.Contains(ev.String(), "stdout:observed true") {
		t.Errorf("callback output %q", ev.String())
	}
	if got := text(mustRun(t, s, `fmt.Sprint(wc.Value())`)); got != `"true"` {
		t.Errorf("value after the update: %s", got)
	}

	ev.reset()
	if err := s.sendComm(&ipcMsg{Type: "comm_msg", CommID: id, Ref: 8, Data: map[string]any{
		"method": "update", "state": map[string]any{"value": "yes"}, "buffer_paths": []any{}}}); err != nil {
		t.Fatal(err)
	}
	m = next()
	if m.Type != "comm_msg" || m.Data["method"] != "update" || fmt.Sprint(m.Data["state"]) != "map[value:true]" {
		t.Fatalf("got %+v, want the state sent back", m)
	}
	if m = next(); m.Type != "comm_done" || m.Ref != 8 {
		t.Fatalf("got %+v, want comm_done 8", m)
	}
	if strings.Contains(ev.String(), "observed") {
		t.Errorf("callback ran on a refused update: %q", ev.String())
	}
	if !strings.Contains(logb.String(), "update refused") {
		t.Errorf("no log line for the refused update:\n%s", logb.String())
	}
}
