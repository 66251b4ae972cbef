package kernel

import (
	"path"
	"strings"
	"sync"
)

// history keeps the cells executed in this kernel's life for
// history_request (tail, range and search access).
type history struct {
	mu      sync.Mutex
	entries []histEntry
}

type histEntry struct {
	session string
	line    int
	input   string
	output  string
}

type historyRequest struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           int    `json:"stop"`
	N              int    `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

func newHistory() *history { return &history{} }

func (h *history) add(session string, line int, input string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, histEntry{session: session, line: line, input: input})
}

func (h *history) setOutput(session string, line int, out string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.entries) - 1; i >= 0; i-- {
		if h.entries[i].session == session && h.entries[i].line == line {
			h.entries[i].output = out
			return
		}
	}
}

// query answers a history_request. Sessions are numbered as in IPython:
// 0 or negative numbers count back from the current session; this kernel
// keeps one session per process, so every session number selects it.
func (h *history) query(r historyRequest) []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	var sel []histEntry
	switch r.HistAccessType {
	case "range":
		for _, e := range h.entries {
			if e.line >= r.Start && (r.Stop <= 0 || e.line < r.Stop) {
				sel = append(sel, e)
			}
		}
	case "search":
		pat := r.Pattern
		if pat == "" {
			pat = "*"
		}
		seen := map[string]bool{}
		for i := len(h.entries) - 1; i >= 0; i-- {
			e := h.entries[i]
			if !globMatch(pat, e.input) {
				continue
			}
			if r.Unique {
				if seen[e.input] {
					continue
				}
				seen[e.input] = true
			}
			sel = append([]histEntry{e}, sel...)
			if r.N > 0 && len(sel) >= r.N {
				break
			}
		}
	default: // "tail"
		n := r.N
		if n <= 0 || n > len(h.entries) {
			n = len(h.entries)
		}
		sel = h.entries[len(h.entries)-n:]
	}
	out := make([]any, 0, len(sel))
	for _, e := range sel {
		if r.Output {
			var o any
			if e.output != "" {
				o = e.output
			}
			out = append(out, []any{0, e.line, []any{e.input, o}})
		} else {
			out = append(out, []any{0, e.line, e.input})
		}
	}
	return out
}

// globMatch matches IPython-style history patterns (* and ?), across lines.
func globMatch(pattern, s string) bool {
	ok, err := path.Match(strings.ReplaceAll(pattern, "/", "\x00"), strings.ReplaceAll(s, "/", "\x00"))
	if err != nil {
		return strings.Contains(s, strings.Trim(pattern, "*"))
	}
	return ok
}
