package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/widgets"
)

func (k *Kernel) handleShell(m *Message, queue chan *Message) {
	if m.Header.MsgType == "kernel_info_request" {
		k.waitSubscriber(500 * time.Millisecond)
	}
	k.status(m, "busy")
	idle := true
	defer func() {
		if idle {
			k.status(m, "idle")
		}
	}()
	switch m.Header.MsgType {
	case "kernel_info_request":
		k.send(k.shell, m, "kernel_info_reply", k.kernelInfo(), nil)
	case "execute_request", "complete_request", "inspect_request":
		if err := k.sup.ready(); err != nil {
			k.unknownWith(m, "KernelSetupError", err.Error())
			return
		}
		switch m.Header.MsgType {
		case "execute_request":
			if k.execute(m) {
				// Abort the queued cells after this request's idle, so
				// that clients see its status close first.
				failedAt := time.Now()
				k.status(m, "idle")
				idle = false
				k.abortQueued(queue, failedAt)
			}
		case "complete_request":
			k.complete(m)
		default:
			k.inspect(m)
		}
	case "is_complete_request":
		var c struct {
			Code string `json:"code"`
		}
		if err := json.Unmarshal(m.Content, &c); err != nil {
			k.badContent(m, err)
			return
		}
		st, indent := isComplete(c.Code)
		r := map[string]any{"status": st}
		if st == "incomplete" {
			r["indent"] = indent
		}
		k.send(k.shell, m, "is_complete_reply", r, nil)
	case "history_request":
		k.historyReply(m)
	case "comm_info_request":
		var c struct {
			TargetName string `json:"target_name"`
		}
		_ = json.Unmarshal(m.Content, &c)
		k.send(k.shell, m, "comm_info_reply", map[string]any{"status": "ok", "comms": k.comms.list(c.TargetName)}, nil)
	case "comm_open", "comm_msg", "comm_close":
		k.handleComm(m, true)
	case "shutdown_request":
		k.handleControl(m)
	default:
		k.unknown(k.shell, m)
	}
}

func (k *Kernel) badContent(m *Message, err error) {
	k.log.Printf("%s: bad content: %v", m.Header.MsgType, err)
	k.unknownWith(m, "BadRequest", fmt.Sprintf("malformed %s content: %v", m.Header.MsgType, err))
}

func (k *Kernel) unknownWith(m *Message, ename, evalue string) {
	reply := m.Header.MsgType
	if len(reply) > 8 && reply[len(reply)-8:] == "_request" {
		reply = reply[:len(reply)-8]
	}
	k.send(k.shell, m, reply+"_reply", map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": []string{}}, nil)
}

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      *bool             `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

// execute runs an execute_request. It reports whether queued requests
// must be aborted (the cell failed and stop_on_error is set).
func (k *Kernel) execute(m *Message) (abort bool) {
	var req executeRequest
	if err := json.Unmarshal(m.Content, &req); err != nil {
		k.badContent(m, err)
		return false
	}
	store := req.StoreHistory == nil || *req.StoreHistory
	if req.Silent {
		store = false
	}
	stopOnError := req.StopOnError == nil || *req.StopOnError
	if store {
		k.execCount++
	}
	count := k.execCount
	if !req.Silent {
		k.publish(m, "execute_input", map[string]any{"code": req.Code, "execution_count": count})
	}
	k.parent.Store(m)
	k.running.Store(true)
	defer k.running.Store(false)
	for _, cause := range k.sup.takeNotices() {
		// A goroutine of an earlier cell crashed the executor after that
		// cell had finished: say so before this cell runs without state.
		k.sendStream("stderr", "neurogo: the executor died after the previous cell had finished ("+cause+"); "+lostState+"\n")
	}
	r := k.sup.run(runRequest{
		Code:            req.Code,
		AllowStdin:      req.AllowStdin == nil || *req.AllowStdin,
		Silent:          req.Silent,
		UserExpressions: req.UserExpressions,
	})

	if store {
		k.history.add(k.session, count, req.Code)
	}
	if ce := r.Err; ce != nil {
		content := map[string]any{
			"status":           "error",
			"execution_count":  count,
			"ename":            ce.Name,
			"evalue":           ce.Value,
			"traceback":        ce.Traceback,
			"user_expressions": map[string]any{},
			"payload":          []any{},
		}
		if !req.Silent {
			k.publish(m, "error", map[string]any{"ename": ce.Name, "evalue": ce.Value, "traceback": ce.Traceback})
		}
		k.send(k.shell, m, "execute_reply", content, map[string]any{"status": "error"})
		return stopOnError
	}
	if r.HasValue && !req.Silent {
		if store {
			k.history.setOutput(k.session, count, fmt.Sprint(r.Data[display.MIMEText]))
		}
		k.publish(m, "execute_result", map[string]any{"execution_count": count, "data": r.Data, "metadata": nonNilMap(r.Metadata)})
	}
	k.send(k.shell, m, "execute_reply", map[string]any{
		"status":           "ok",
		"execution_count":  count,
		"user_expressions": r.UserExprs,
		"payload":          []any{},
	}, map[string]any{"status": "ok"})
	return false
}

// abortQueued replies "aborted" to the execute requests that were sent
// before a cell failed (stop_on_error), as ipykernel does: those already
// queued, and those still in flight whose header date is before the
// failure. Requests sent after the client saw the failure run normally.
func (k *Kernel) abortQueued(queue chan *Message, failedAt time.Time) {
	deadline := time.After(20 * time.Millisecond)
	var keep []*Message
	first := true
loop:
	for {
		var q *Message
		if first {
			select {
			case q = <-queue:
			default:
				first = false
				continue
			}
		} else {
			select {
			case q = <-queue:
			case <-deadline:
				break loop
			}
		}
		sentBefore := first
		if t, err := time.Parse(time.RFC3339Nano, q.Header.Date); err == nil && t.Before(failedAt) {
			sentBefore = true
		}
		if q.Header.MsgType != "execute_request" || !sentBefore {
			keep = append(keep, q)
			if !sentBefore {
				break loop // everything after it is newer still
			}
			continue
		}
		k.status(q, "busy")
		k.send(k.shell, q, "execute_reply", map[string]any{"status": "aborted", "execution_count": k.execCount}, map[string]any{"status": "aborted"})
		k.status(q, "idle")
	}
	for _, q := range keep {
		k.handleShell(q, queue)
	}
}

func (k *Kernel) complete(m *Message) {
	var c struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil {
		k.badContent(m, err)
		return
	}
	r := k.sup.complete(c.Code, c.CursorPos)
	types := make([]map[string]any, len(r.Matches))
	for i, mt := range r.Matches {
		types[i] = map[string]any{"start": r.Start, "end": r.End, "text": mt, "type": r.Kinds[i]}
		if i < len(r.Signatures) && r.Signatures[i] != "" {
			types[i]["signature"] = r.Signatures[i]
		}
	}
	k.send(k.shell, m, "complete_reply", map[string]any{
		"status":       "ok",
		"matches":      r.Matches,
		"cursor_start": r.Start,
		"cursor_end":   r.End,
		"metadata":     map[string]any{"_jupyter_types_experimental": types},
	}, nil)
}

func (k *Kernel) inspect(m *Message) {
	var c struct {
		Code        string `json:"code"`
		CursorPos   int    `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil {
		k.badContent(m, err)
		return
	}
	text, found := k.sup.inspect(c.Code, c.CursorPos, c.DetailLevel)
	data := map[string]any{}
	if found {
		data["text/plain"] = text
		data["text/markdown"] = "```go\n" + text + "\n```"
	}
	k.send(k.shell, m, "inspect_reply", map[string]any{"status": "ok", "found": found, "data": data, "metadata": map[string]any{}}, nil)
}

func (k *Kernel) historyReply(m *Message) {
	var c historyRequest
	if err := json.Unmarshal(m.Content, &c); err != nil {
		k.badContent(m, err)
		return
	}
	k.send(k.shell, m, "history_reply", map[string]any{"status": "ok", "history": k.history.query(c)}, nil)
}

// display publishes a display call of a cell (display_data, or
// update_display_data for an update) for the current request.
func (k *Kernel) display(data, metadata map[string]any, id string, update bool) {
	content := map[string]any{"data": data, "metadata": metadata, "transient": map[string]any{}}
	if id != "" {
		content["transient"] = map[string]any{"display_id": id}
	}
	t := "display_data"
	if update {
		t = "update_display_data"
	}
	k.publish(k.parent.Load(), t, content)
}

func (k *Kernel) clearOutput(wait bool) {
	k.publish(k.parent.Load(), "clear_output", map[string]any{"wait": wait})
}

// requestInput asks the front end for a line of input on the stdin
// channel (for a cell reading standard input); ctx ends with the cell.
func (k *Kernel) requestInput(ctx context.Context, prompt string, password bool) (string, error) {
	parent := k.parent.Load()
	if parent == nil {
		return "", errNoStdin
	}
	// Drain a stale reply, if any.
	select {
	case <-k.inputRep:
	default:
	}
	k.send(k.stdin, parent, "input_request", map[string]any{"prompt": prompt, "password": password}, nil)
	select {
	case rep := <-k.inputRep:
		var c struct {
			Value string `json:"value"`
		}
		if err := json.Unmarshal(rep.Content, &c); err != nil {
			return "", fmt.Errorf("input_reply: %w", err)
		}
		return c.Value, nil
	case <-ctx.Done():
		return "", errInterrupted
	case <-k.ctx.Done():
		return "", k.ctx.Err()
	}
}

// Comms (the Jupyter comm protocol). The kernel knows which comms are open
// and their targets; what they mean is the executor's business (package
// widgets serves the targets jupyter.widget and jupyter.widget.control).
// A comm_open of another target is answered with comm_close, whose data
// gives the reason; messages for comms that are not open are ignored, as
// the protocol asks.

func isComm(t string) bool { return t == "comm_open" || t == "comm_msg" || t == "comm_close" }

// commTable is the open comms, and the front end's comm messages that the
// executor is handling.
type commTable struct {
	mu      sync.Mutex
	open    map[string]string // comm id → target
	seq     uint64
	pending map[uint64]*commPending
}

type commPending struct {
	msg  *Message
	done chan struct{}
}

func (t *commTable) list(target string) map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]any{}
	for id, tg := range t.open {
		if target == "" || tg == target {
			out[id] = map[string]any{"target_name": tg}
		}
	}
	return out
}

func (t *commTable) setOpen(id, target string) {
	t.mu.Lock()
	if t.open == nil {
		t.open = map[string]string{}
	}
	t.open[id] = target
	t.mu.Unlock()
}

func (t *commTable) isOpen(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.open[id]
	return ok
}

func (t *commTable) remove(id string) {
	t.mu.Lock()
	delete(t.open, id)
	t.mu.Unlock()
}

func (t *commTable) addPending(m *Message) (uint64, *commPending) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending == nil {
		t.pending = map[uint64]*commPending{}
	}
	t.seq++
	p := &commPending{msg: m, done: make(chan struct{})}
	t.pending[t.seq] = p
	return t.seq, p
}

// finish marks a front-end comm message handled.
func (t *commTable) finish(ref uint64) {
	t.mu.Lock()
	p := t.pending[ref]
	delete(t.pending, ref)
	t.mu.Unlock()
	if p != nil {
		close(p.done)
	}
}

func (t *commTable) parent(ref uint64) *Message {
	if ref == 0 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if p := t.pending[ref]; p != nil {
		return p.msg
	}
	return nil
}

// handleComm acts on a comm message of the front end. From the shell loop
// (wait true) the executor's handling is waited for, with the message as
// the parent of what the callbacks print, between busy and idle; while a
// cell runs (wait false) it is only forwarded.
func (k *Kernel) handleComm(m *Message, wait bool) {
	var c struct {
		CommID     string         `json:"comm_id"`
		TargetName string         `json:"target_name"`
		Data       map[string]any `json:"data"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil || c.CommID == "" {
		k.log.Printf("%s: malformed content dropped (%v)", m.Header.MsgType, err)
		return
	}
	if c.Data == nil {
		c.Data = map[string]any{}
	}
	switch m.Header.MsgType {
	case "comm_open":
		known := false
		for _, t := range widgets.Targets() {
			known = known || t == c.TargetName
		}
		if !known {
			reason := fmt.Sprintf("neurogo has no comm target %q (targets: %v)", c.TargetName, widgets.Targets())
			k.log.Printf("comm_open %s: %s: closing", c.CommID, reason)
			k.publish(m, "comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{"reason": reason}})
			return
		}
		k.comms.setOpen(c.CommID, c.TargetName)
	case "comm_msg":
		if !k.comms.isOpen(c.CommID) {
			k.log.Printf("comm_msg for comm %s, which is not open: ignored", c.CommID)
			return
		}
	case "comm_close":
		if !k.comms.isOpen(c.CommID) {
			return
		}
		k.comms.remove(c.CommID)
	}
	ref, p := k.comms.addPending(m)
	if wait {
		// Before sending: the callbacks may print at once.
		prev := k.parent.Swap(m)
		defer k.parent.Store(prev)
	}
	err := k.sup.sendComm(&ipcMsg{Type: m.Header.MsgType, CommID: c.CommID, Target: c.TargetName, Data: c.Data, Buffers: m.Buffers, Ref: ref})
	if err != nil {
		k.log.Printf("%s %s: not delivered to the executor: %v", m.Header.MsgType, c.CommID, err)
		k.comms.finish(ref)
		return
	}
	if !wait {
		return
	}
	select {
	case <-p.done:
	case <-k.ctx.Done():
	}
}

// commFromExecutor publishes a comm message of the executor.
func (k *Kernel) commFromExecutor(m *ipcMsg) {
	if m.Type == "comm_done" {
		k.comms.finish(m.Ref)
		return
	}
	parent := k.comms.parent(m.Ref)
	if parent == nil {
		parent = k.parent.Load()
	}
	data := nonNilMap(m.Data)
	switch m.Type {
	case "comm_open":
		k.comms.setOpen(m.CommID, m.Target)
		k.publishBuffers(parent, "comm_open", map[string]any{"comm_id": m.CommID, "target_name": m.Target, "data": data}, nonNilMap(m.Metadata), m.Buffers)
	case "comm_msg":
		if !k.comms.isOpen(m.CommID) {
			return // closed by the front end meanwhile
		}
		k.publishBuffers(parent, "comm_msg", map[string]any{"comm_id": m.CommID, "data": data}, nonNilMap(m.Metadata), m.Buffers)
	case "comm_close":
		k.comms.remove(m.CommID)
		k.publish(parent, "comm_close", map[string]any{"comm_id": m.CommID, "data": data})
	}
}

// commsLost closes the comms of an executor that died, and ends the
// waits for its handling of front-end messages.
func (k *Kernel) commsLost() {
	k.comms.mu.Lock()
	ids := make([]string, 0, len(k.comms.open))
	for id := range k.comms.open {
		ids = append(ids, id)
	}
	k.comms.open = nil
	pending := k.comms.pending
	k.comms.pending = nil
	k.comms.mu.Unlock()
	sort.Strings(ids)
	parent := k.parent.Load()
	for _, id := range ids {
		k.publish(parent, "comm_close", map[string]any{"comm_id": id, "data": map[string]any{"reason": "the executor process died"}})
	}
	for _, p := range pending {
		close(p.done)
	}
}
