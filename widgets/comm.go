package widgets

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

// Comm targets and protocol versions of the Jupyter widgets message
// protocol (ipywidgets' packages/schema/messages.md).
const (
	// Target is the comm target of widget models.
	Target = "jupyter.widget"
	// ControlTarget is the comm target that serves the state of every
	// widget in one message (request_states / update_states).
	ControlTarget = "jupyter.widget.control"
	// ProtocolVersion is the widget message protocol spoken (echo_update
	// is part of 2.1.0).
	ProtocolVersion = "2.1.0"
	// ControlProtocolVersion is the version of the control comm's protocol.
	ControlProtocolVersion = "1.0.0"
	// ViewMIME is the MIME type of a displayed widget.
	ViewMIME = "application/vnd.jupyter.widget-view+json"
)

// Transport carries comm messages to the front end. The kernel's executor
// installs one with SetTransport; outside a kernel there is none, and
// widgets keep their state without showing it.
type Transport interface {
	// Open sends comm_open for a new comm of target with data.
	Open(commID, target string, data, metadata map[string]any, buffers [][]byte) error
	// Send sends comm_msg on an open comm.
	Send(commID string, data, metadata map[string]any, buffers [][]byte) error
	// Close sends comm_close.
	Close(commID string, data map[string]any) error
	// Log writes a line to the kernel's log (never a cell's output).
	Log(msg string)
}

type transportBox struct{ t Transport }

var current atomic.Pointer[transportBox]

// SetTransport installs the process's comm transport (nil removes it).
// Called by the kernel; notebook code never needs it.
func SetTransport(t Transport) {
	if t == nil {
		current.Store(nil)
		return
	}
	current.Store(&transportBox{t})
}

func transport() Transport {
	if b := current.Load(); b != nil {
		return b.t
	}
	return nil
}

// logf writes a line to the kernel's log, if there is a kernel.
func logf(format string, args ...any) {
	if t := transport(); t != nil {
		t.Log(fmt.Sprintf(format, args...))
	}
}

// FrontEnd reports whether a front end that draws widgets has connected
// to this kernel: its widget manager opened the control comm
// (ControlTarget) to fetch the widgets' state, as the widget managers of
// JupyterLab 4 and Notebook 7 (ipywidgets 8) do when they connect to a
// running kernel (after a page reload), and closed it once answered. A
// widget manager that connects while the kernel starts may not open it,
// so false does not mean that widgets are not drawn; Widget.Closed tells
// when a front end refused a widget.
func FrontEnd() bool {
	registry.Lock()
	defer registry.Unlock()
	return registry.managers > 0
}

// Targets returns the comm targets this package serves, for comm_info and
// for refusing comm_open of other targets.
func Targets() []string { return []string{Target, ControlTarget} }

// errNoFrontEnd: widgets shown outside a kernel.
var errNoFrontEnd = errors.New("widgets: no front end (not running inside a neurogo kernel)")

// registry holds the models that have a comm, by comm id, and the open
// control comms.
var registry = struct {
	sync.Mutex
	models   map[string]*model
	controls map[string]bool // open control comms
	managers int             // control comms ever opened
}{models: map[string]*model{}, controls: map[string]bool{}}

func register(m *model) {
	registry.Lock()
	registry.models[m.id] = m
	registry.Unlock()
}

func lookup(id string) *model {
	registry.Lock()
	defer registry.Unlock()
	return registry.models[id]
}

// HandleComm delivers a message of the front end to the widgets: kind is
// "open", "msg" or "close"; target is set for "open". It is called by the
// kernel's executor, one message at a time, and runs the callbacks that
// the message triggers before it returns. An error means the message was
// refused (the kernel then closes a comm it asked to open).
func HandleComm(kind, commID, target string, data map[string]any, buffers [][]byte) error {
	switch kind {
	case "open":
		switch target {
		case ControlTarget:
			registry.Lock()
			registry.controls[commID] = true
			registry.managers++
			registry.Unlock()
			return nil
		case Target:
			return fmt.Errorf("widgets: comm %s: widget models created by the front end are not supported (neurogo widgets are created in Go)", commID)
		}
		return fmt.Errorf("widgets: comm %s: unknown comm target %q", commID, target)
	case "close":
		registry.Lock()
		delete(registry.controls, commID)
		m := registry.models[commID]
		delete(registry.models, commID)
		registry.Unlock()
		if m != nil {
			m.mu.Lock()
			m.closed = true
			m.mu.Unlock()
		}
		return nil
	case "msg":
		registry.Lock()
		control := registry.controls[commID]
		m := registry.models[commID]
		registry.Unlock()
		if control {
			return handleControl(commID, data)
		}
		if m == nil {
			return fmt.Errorf("widgets: comm_msg for unknown comm %s ignored", commID)
		}
		return m.handleMsg(data, buffers)
	}
	return fmt.Errorf("widgets: unknown comm message kind %q", kind)
}

// handleControl answers request_states with the state of every open
// widget (the front end restores widgets after a page reload with it).
func handleControl(commID string, data map[string]any) error {
	method, _ := data["method"].(string)
	if method != "request_states" {
		return fmt.Errorf("widgets: control comm %s: unknown method %q", commID, method)
	}
	t := transport()
	if t == nil {
		return errNoFrontEnd
	}
	registry.Lock()
	ms := make([]*model, 0, len(registry.models))
	for _, m := range registry.models {
		ms = append(ms, m)
	}
	registry.Unlock()
	sort.Slice(ms, func(i, j int) bool { return ms[i].id < ms[j].id })
	states := map[string]any{}
	var paths []any
	var bufs [][]byte
	for _, m := range ms {
		m.mu.Lock()
		if m.opened && !m.closed {
			st, p, b := encodeState(m.state)
			states[m.id] = st
			for _, path := range p {
				paths = append(paths, append([]any{m.id}, path...))
			}
			bufs = append(bufs, b...)
		}
		m.mu.Unlock()
	}
	if paths == nil {
		paths = []any{}
	}
	return t.Send(commID, map[string]any{"method": "update_states", "states": states, "buffer_paths": paths}, nil, bufs)
}

// encodeState copies state for sending: []byte values at the top level
// become binary buffers named by buffer_paths.
func encodeState(st map[string]any) (state map[string]any, paths [][]any, bufs [][]byte) {
	state = make(map[string]any, len(st))
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	paths = [][]any{}
	for _, k := range keys {
		if b, ok := st[k].([]byte); ok {
			paths = append(paths, []any{k})
			bufs = append(bufs, b)
			continue
		}
		state[k] = st[k]
	}
	return state, paths, bufs
}

func pathsAny(p [][]any) []any {
	out := make([]any, len(p))
	for i, x := range p {
		out[i] = x
	}
	return out
}
