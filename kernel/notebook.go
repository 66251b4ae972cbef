package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Notebook is the part of an nbformat 4 document that headless execution
// needs; unknown fields are kept as they were.
type Notebook struct {
	raw   map[string]any
	Cells []map[string]any
}

// ReadNotebook parses an .ipynb file.
func ReadNotebook(path string) (*Notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a notebook: %v", path, err)
	}
	if v, _ := raw["nbformat"].(float64); v != 4 {
		return nil, fmt.Errorf("%s: nbformat %v is not supported (4)", path, raw["nbformat"])
	}
	cellsAny, _ := raw["cells"].([]any)
	nb := &Notebook{raw: raw}
	for i, c := range cellsAny {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: cell %d is not an object", path, i)
		}
		nb.Cells = append(nb.Cells, m)
	}
	return nb, nil
}

// Write saves the notebook.
func (nb *Notebook) Write(path string) error {
	cells := make([]any, len(nb.Cells))
	for i, c := range nb.Cells {
		cells[i] = c
	}
	nb.raw["cells"] = cells
	b, err := json.MarshalIndent(nb.raw, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func cellSource(c map[string]any) string {
	switch s := c["source"].(type) {
	case string:
		return s
	case []any:
		var b strings.Builder
		for _, p := range s {
			if ps, ok := p.(string); ok {
				b.WriteString(ps)
			}
		}
		return b.String()
	}
	return ""
}

func cellTags(c map[string]any) []string {
	md, _ := c["metadata"].(map[string]any)
	tags, _ := md["tags"].([]any)
	var out []string
	for _, t := range tags {
		if s, ok := t.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func hasTag(c map[string]any, tag string) bool {
	for _, t := range cellTags(c) {
		if t == tag {
			return true
		}
	}
	return false
}

// ParseParam turns a command-line parameter value into a Go value the way
// papermill's -p does: integers, floats, true/false (any case), nil/None,
// otherwise a string.
func ParseParam(s string) any {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	switch strings.ToLower(s) {
	case "true":
		return true
	case "false":
		return false
	case "nil", "none":
		return nil
	}
	return s
}

// GoLiteral renders v (from JSON/YAML or ParseParam) as Go source. It
// reports whether the literal needs the math package (NaN, ±Inf).
func GoLiteral(v any) (lit string, needsMath bool, err error) {
	switch x := v.(type) {
	case nil:
		return "nil", false, nil
	case bool:
		return strconv.FormatBool(x), false, nil
	case string:
		return strconv.Quote(x), false, nil
	case int:
		return strconv.Itoa(x), false, nil
	case int64:
		return strconv.FormatInt(x, 10), false, nil
	case float64:
		switch {
		case math.IsNaN(x):
			return "math.NaN()", true, nil
		case math.IsInf(x, 1):
			return "math.Inf(1)", true, nil
		case math.IsInf(x, -1):
			return "math.Inf(-1)", true, nil
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s, false, nil
	case json.Number:
		return x.String(), false, nil
	case []any:
		t := elemType(x)
		parts := make([]string, len(x))
		m := false
		for i, e := range x {
			l, nm, err := goLiteralAs(e, t)
			if err != nil {
				return "", false, err
			}
			parts[i], m = l, m || nm
		}
		return "[]" + t + "{" + strings.Join(parts, ", ") + "}", m, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		vals := make([]any, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			vals = append(vals, x[k])
		}
		t := elemType(vals)
		parts := make([]string, len(keys))
		m := false
		for i, k := range keys {
			l, nm, err := goLiteralAs(x[k], t)
			if err != nil {
				return "", false, err
			}
			parts[i], m = strconv.Quote(k)+": "+l, m || nm
		}
		return "map[string]" + t + "{" + strings.Join(parts, ", ") + "}", m, nil
	}
	return "", false, fmt.Errorf("a parameter of type %T cannot be written as Go", v)
}

// elemType is the Go element type for a list or map of parameter values:
// the values' common type (ints and floats together give float64), else any.
// It matches the papermill translator in python/neurogo_papermill.
func elemType(vals []any) string {
	kinds := map[string]bool{}
	for _, v := range vals {
		switch v.(type) {
		case bool:
			kinds["bool"] = true
		case int, int64:
			kinds["int"] = true
		case float64:
			kinds["float64"] = true
		case string:
			kinds["string"] = true
		default:
			return "any"
		}
	}
	if len(kinds) == 2 && kinds["int"] && kinds["float64"] {
		return "float64"
	}
	if len(kinds) == 1 {
		for k := range kinds {
			return k
		}
	}
	return "any"
}

// goLiteralAs renders v as an element of a []t or map[string]t.
func goLiteralAs(v any, t string) (string, bool, error) {
	if t == "float64" {
		switch x := v.(type) {
		case int:
			v = float64(x)
		case int64:
			v = float64(x)
		}
	}
	return GoLiteral(v)
}

// ParameterCell builds the source of the injected-parameters cell: one
// assignment per parameter to the variables the parameters cell declares.
func ParameterCell(params map[string]any) (string, error) {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	needMath := false
	var body strings.Builder
	for _, k := range keys {
		if !validIdent(k) {
			return "", fmt.Errorf("parameter name %q is not a Go identifier", k)
		}
		lit, m, err := GoLiteral(params[k])
		if err != nil {
			return "", fmt.Errorf("parameter %s: %w", k, err)
		}
		needMath = needMath || m
		fmt.Fprintf(&body, "%s = %s\n", k, lit)
	}
	b.WriteString("// Parameters injected by neurogo run\n")
	if needMath {
		b.WriteString("import \"math\"\n")
	}
	b.WriteString(body.String())
	return b.String(), nil
}

func validIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r > 127 && isIdentRune(r) || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// stringParam matches a parameters-cell line that declares a string
// variable: `var name = "…"`, `name := "…"` or `var name string`.
var stringParam = regexp.MustCompile(`^\s*(?:var\s+)?([\p{L}_][\p{L}\p{N}_]*)\s*(?:string\s*(?:=\s*["\x60]|$)|:?=\s*["\x60])`)

// coerceStringParams returns params with the values of parameters that the
// notebook's parameters cell declares as strings turned back into strings
// when the command line made them numbers or booleans (ParseParam reads
// "-p neurons 4" as the integer 4; `var neurons = "5,10"` wants "4").
func coerceStringParams(nb *Notebook, params map[string]any) map[string]any {
	var decl string
	for _, c := range nb.Cells {
		if hasTag(c, "parameters") {
			decl = cellSource(c)
			break
		}
	}
	if decl == "" {
		return params
	}
	isString := map[string]bool{}
	for _, line := range strings.Split(decl, "\n") {
		if m := stringParam.FindStringSubmatch(line); m != nil {
			isString[m[1]] = true
		}
	}
	out := make(map[string]any, len(params))
	for k, v := range params {
		switch x := v.(type) {
		case int64, int, float64, bool:
			if isString[k] {
				v = fmt.Sprint(x)
			}
		}
		out[k] = v
	}
	return out
}

// RunNotebook executes every code cell of nb in order in a fresh executor
// process, injecting params after the cell tagged "parameters" (or at the
// top), and stores the outputs in the notebook. It stops at the first
// failing cell and returns its error. progress, if non-nil, receives one
// line per cell (and the executor's log). The memory limit is
// DefaultMemoryLimit's.
func RunNotebook(ctx context.Context, nb *Notebook, params map[string]any, progress io.Writer) error {
	return RunNotebookWith(ctx, nb, params, NotebookOptions{Progress: progress, MemoryLimit: DefaultMemoryLimit()})
}

// NotebookOptions configure RunNotebookWith.
type NotebookOptions struct {
	// Progress, if non-nil, receives one line per cell and the executor's
	// log (its deaths and restarts).
	Progress io.Writer
	// MemoryLimit, if > 0, is the most memory (bytes) the executor may use.
	MemoryLimit int64
	// ExecutorCommand starts the executor process; by default this
	// executable with the argument "executor".
	ExecutorCommand []string
}

// RunNotebookWith is RunNotebook with options. Cells run in an executor
// process, as in the kernel: a cell that crashes it (runaway recursion, a
// fatal runtime error, memory beyond the limit) fails with an error
// output naming the cause, and the run stops there. Cancelling ctx
// interrupts the running cell (a second interrupt after 3 s if it does
// not stop).
func RunNotebookWith(ctx context.Context, nb *Notebook, params map[string]any, opt NotebookOptions) error {
	if len(params) > 0 {
		params = coerceStringParams(nb, params)
		src, err := ParameterCell(params)
		if err != nil {
			return err
		}
		injected := map[string]any{
			"cell_type":       "code",
			"execution_count": nil,
			"metadata":        map[string]any{"tags": []any{"injected-parameters"}},
			"outputs":         []any{},
			"source":          src,
		}
		at := 0
		for i, c := range nb.Cells {
			if hasTag(c, "parameters") {
				at = i + 1
				break
			}
		}
		// Drop a previous injection.
		cells := make([]map[string]any, 0, len(nb.Cells)+1)
		for i, c := range nb.Cells {
			if i == at {
				cells = append(cells, injected)
			}
			if !hasTag(c, "injected-parameters") {
				cells = append(cells, c)
			}
		}
		if at == len(nb.Cells) {
			cells = append(cells, injected)
		}
		nb.Cells = cells
	}

	var mu sync.Mutex
	var outputs []any
	appendStream := func(name, text string) {
		mu.Lock()
		defer mu.Unlock()
		if n := len(outputs); n > 0 {
			if last, ok := outputs[n-1].(map[string]any); ok && last["output_type"] == "stream" && last["name"] == name {
				last["text"] = last["text"].(string) + text
				return
			}
		}
		outputs = append(outputs, map[string]any{"output_type": "stream", "name": name, "text": text})
	}
	sink := nbSink{mu: new(sync.Mutex), byID: map[string]map[string]any{}, add: func(o map[string]any) {
		mu.Lock()
		outputs = append(outputs, o)
		mu.Unlock()
	}, clear: func() {
		mu.Lock()
		outputs = []any{}
		mu.Unlock()
	}}
	logw := opt.Progress
	if logw == nil {
		logw = io.Discard
	}
	sup := newSupervisor(supervisorOptions{
		Command:     opt.ExecutorCommand,
		MemoryLimit: opt.MemoryLimit,
		Log:         log.New(logw, "neurogo run: ", 0),
		Stream:      appendStream,
		Display: func(data, metadata map[string]any, id string, update bool) {
			_ = sink.Display(data, metadata, id, update)
		},
		Clear: func(wait bool) { _ = sink.Clear(wait) },
	})
	sup.start()
	defer sup.close()
	if err := sup.ready(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() {
		sup.interrupt()
		time.AfterFunc(3*time.Second, sup.interrupt)
	})
	defer stop()

	count := 0
	var codeCells int
	for _, c := range nb.Cells {
		if c["cell_type"] == "code" {
			codeCells++
		}
	}
	for _, c := range nb.Cells {
		if c["cell_type"] != "code" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		count++
		src := cellSource(c)
		mu.Lock()
		outputs = []any{}
		mu.Unlock()
		start := time.Now()
		r := sup.run(runRequest{Code: src})
		mu.Lock()
		if r.Err == nil && r.HasValue {
			outputs = append(outputs, map[string]any{"output_type": "execute_result", "execution_count": count, "data": r.Data, "metadata": nonNilMap(r.Metadata)})
		}
		if ce := r.Err; ce != nil {
			outputs = append(outputs, map[string]any{"output_type": "error", "ename": ce.Name, "evalue": ce.Value, "traceback": ce.Traceback})
		}
		c["outputs"] = outputs
		c["execution_count"] = count
		mu.Unlock()
		if opt.Progress != nil {
			status := "ok"
			if r.Err != nil {
				status = "error"
			}
			fmt.Fprintf(opt.Progress, "cell %d/%d %s (%.2fs)\n", count, codeCells, status, time.Since(start).Seconds())
		}
		if r.Err != nil {
			return fmt.Errorf("cell %d: %w", count, r.Err)
		}
	}
	return nil
}

type nbSink struct {
	add   func(map[string]any)
	clear func()
	mu    *sync.Mutex
	byID  map[string]map[string]any
}

// Display appends display_data; an update replaces the data of the output
// shown earlier with the same id, as a live front end would.
func (s nbSink) Display(data, metadata map[string]any, id string, update bool) error {
	if id != "" {
		s.mu.Lock()
		prev, ok := s.byID[id]
		if ok && update {
			prev["data"], prev["metadata"] = data, metadata
			s.mu.Unlock()
			return nil
		}
		s.mu.Unlock()
	}
	o := map[string]any{"output_type": "display_data", "data": data, "metadata": metadata}
	if id != "" {
		s.mu.Lock()
		s.byID[id] = o
		s.mu.Unlock()
	}
	s.add(o)
	return nil
}

func (s nbSink) Clear(wait bool) error {
	s.clear()
	return nil
}
