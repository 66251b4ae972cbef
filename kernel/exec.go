package kernel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"image/png"
	"io"
	"os"
	"reflect"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/traefik/yaegi/interp"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/kernel/bindings"
	"github.com/neurogo/neurogo/kernel/cell"
	"github.com/neurogo/neurogo/kernel/native"
)

// ExecutorOptions configure an Executor.
type ExecutorOptions struct {
	// Stdout and Stderr receive the output of cells. When they are
	// *os.File, os.Stdout and os.Stderr inside cells keep their type.
	Stdout, Stderr io.Writer
	// Stdin serves reads from standard input in cells.
	Stdin io.Reader
	// Sync, if set, flushes captured output; it is called before an error
	// is composed so that panic positions printed by the interpreter are in.
	Sync func()
	// PanicLines, if set, returns (and clears) the interpreter's panic
	// position lines captured from standard error.
	PanicLines func() []string
	// Log, if set, receives the executor's own log lines (never a cell's
	// output).
	Log func(format string, args ...any)
}

// Executor runs notebook cells with state: variables, functions, types and
// imports persist from cell to cell. It is not safe for concurrent Run calls;
// the kernel runs one cell at a time.
type Executor struct {
	opt    ExecutorOptions
	interp *interp.Interpreter
	front  *cell.Front
	native *native.Session // compiled cells; nil: the interpreter runs them
	// outBridge and errBridge carry compiled cells' os.Stdout and
	// os.Stderr into Stdout and Stderr when those are not files.
	outBridge, errBridge *bridge
	stdin                *stdinPump // standard input of compiled cells

	mu  sync.Mutex
	ctx context.Context

	allowStdin atomic.Bool
	imports    map[string]string // package name in cells → import path
	// funcSource maps a function or method declared in a cell ("f",
	// "T.M") to that cell's source, to show panic lines in functions that
	// an earlier cell declared.
	funcSource map[string]string

	// result is set by the interpreted __neurogoShow wrapper around a
	// cell's final expression (see prelude).
	result *shownResult
	// wrapLine is the cell line where __neurogoShow( was inserted in the
	// segment being evaluated (0 if none); columns there shift by len(showCall).
	wrapLine int
}

const showCall = "__neurogoShow("

// shownResult is what __neurogoShow reports for a cell's final value:
// the value and the rich representations its methods gave (computed in the
// interpreter, so that methods declared in cells count).
type shownResult struct {
	data, metadata map[string]any
}

// Result is the outcome of a cell that ran without error.
type Result struct {
	// Value is the value of the cell's final expression, if HasValue.
	Value    any
	HasValue bool
}

// CellError describes a failed cell in the form of a Jupyter error reply.
type CellError struct {
	Name      string
	Value     string
	Traceback []string
}

func (e *CellError) Error() string { return e.Name + ": " + e.Value }

var (
	errMemoryLimit = errors.New("memory limit exceeded")
	errNoStdin     = errors.New("standard input is not available: the front end does not allow input (allow_stdin is false)")
)

// exitPanic is raised by os.Exit inside a cell: exiting would kill the kernel.
type exitPanic struct{ code int }

func asCellError(err error) *CellError {
	var ce *CellError
	if errors.As(err, &ce) {
		return ce
	}
	return &CellError{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
}

// NewExecutor creates an interpreter with the standard library, gonum,
// gonum/plot and the neurogo packages available to cells.
func NewExecutor(opt ExecutorOptions) (*Executor, error) {
	if opt.Stdout == nil {
		opt.Stdout = os.Stdout
	}
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	if opt.Stdin == nil {
		opt.Stdin = strings.NewReader("")
	}
	if opt.Sync == nil {
		opt.Sync = func() {}
	}
	if opt.PanicLines == nil {
		opt.PanicLines = func() []string { return nil }
	}
	e := &Executor{opt: opt, ctx: context.Background(), imports: map[string]string{}, funcSource: map[string]string{}}
	e.allowStdin.Store(true)
	e.interp = interp.New(interp.Options{
		Stdout:       opt.Stdout,
		Stderr:       opt.Stderr,
		Stdin:        opt.Stdin,
		Unrestricted: true,
		Args:         []string{"neurogo-cell"},
	})
	if err := bindings.Use(e.interp); err != nil {
		return nil, fmt.Errorf("load bindings: %w", err)
	}
	// Overrides: os.Exit must not end the kernel; time.Sleep must stop
	// when the cell is interrupted.
	if err := e.interp.Use(interp.Exports{
		"os/os": {"Exit": reflect.ValueOf(func(code int) { panic(exitPanic{code}) })},
		"time/time": {"Sleep": reflect.ValueOf(func(d time.Duration) {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
			case <-e.currentContext().Done():
			}
		})},
		"github.com/neurogo/neurogo/kernel/kernelrt/kernelrt": {
			"GoPanic":   reflect.ValueOf(e.goPanic),
			"Show":      reflect.ValueOf(e.show),
			"EncodePNG": reflect.ValueOf(encodePNG),
		},
	}); err != nil {
		return nil, err
	}
	if _, err := e.interp.Eval(`import kernelrt "github.com/neurogo/neurogo/kernel/kernelrt"`); err != nil {
		return nil, fmt.Errorf("kernel runtime: %w", err)
	}
	if _, err := e.interp.Eval(prelude); err != nil {
		return nil, fmt.Errorf("kernel runtime: %w", err)
	}
	// Builtins yaegi lacks (min, max, clear), as generic functions that the
	// cell front end's rewrites call.
	if _, err := e.interp.Eval(cell.Prelude); err != nil {
		return nil, fmt.Errorf("cell prelude: %w", err)
	}
	e.front = cell.New(newModuleImporter(SourceRoot()))
	if opt.Log == nil {
		opt.Log = func(string, ...any) {}
	}
	e.native = startNative(opt.Log)
	if e.native != nil {
		e.stdin = startStdinPump(e)
	}
	return e, nil
}

// prelude is evaluated in every new interpreter before the first cell.
// __neurogoShow wraps a cell's final expression: it runs in the
// interpreter, where type assertions see methods declared in cells, and
// hands the value and its rich representations to the kernel.
const prelude = `
import (
	__ngfmt "fmt"
	__ngimage "image"
)

func __neurogoGoPanic(r any) { kernelrt.GoPanic(r) }

type __ngBundler interface{ MIMEBundle() map[string]any }
type __ngMeta interface{ MIMEMetadata() map[string]any }
type __ngPNGer interface{ PNG() []byte }
type __ngRetina interface{ Retina() bool }
type __ngSVGer interface{ SVG() string }
type __ngHTMLer interface{ HTML() string }
type __ngMarkdowner interface{ Markdown() string }
type __ngStringer interface{ String() string }

// __neurogoShow computes the MIME bundle of a cell's final value. The value
// itself never crosses into compiled code (the interpreter cannot pass
// values of cell-declared types with methods there); only its
// representations do.
func __neurogoShow(v any) any {
	if v == nil {
		return nil
	}
	// yaegi v0.16.1 answers "v.(I)" correctly only without binding the
	// result, and a binding type switch with one case only after the
	// answer was yes: hence the test-then-switch pairs.
	d := map[string]any{}
	md := map[string]any{}
	if _, ok := v.(__ngBundler); ok {
		switch x := v.(type) {
		case __ngBundler:
			for k, val := range x.MIMEBundle() {
				d[k] = val
			}
		}
	}
	if _, ok := v.(__ngMeta); ok {
		switch x := v.(type) {
		case __ngMeta:
			for k, val := range x.MIMEMetadata() {
				md[k] = val
			}
		}
	}
	if _, ok := v.(__ngPNGer); ok {
		switch x := v.(type) {
		case __ngPNGer:
			d["image/png"] = x.PNG()
		}
		if _, ok := v.(__ngRetina); ok {
			switch x := v.(type) {
			case __ngRetina:
				md["retina"] = x.Retina()
			}
		}
	} else if _, ok := v.(__ngimage.Image); ok {
		switch x := v.(type) {
		case __ngimage.Image:
			d["image/png"] = kernelrt.EncodePNG(x)
		}
	}
	if _, ok := v.(__ngSVGer); ok {
		switch x := v.(type) {
		case __ngSVGer:
			d["image/svg+xml"] = x.SVG()
		}
	}
	if _, ok := v.(__ngHTMLer); ok {
		switch x := v.(type) {
		case __ngHTMLer:
			d["text/html"] = x.HTML()
		}
	}
	if _, ok := v.(__ngMarkdowner); ok {
		switch x := v.(type) {
		case __ngMarkdowner:
			d["text/markdown"] = x.Markdown()
		}
	}
	if _, ok := v.(__ngStringer); ok {
		switch x := v.(type) {
		case __ngStringer:
			d["text/plain"] = x.String()
		}
	}
	kernelrt.Show(d, md)
	return v
}
`

// show receives the representations of a cell's final value from
// __neurogoShow.
func (e *Executor) show(data, metadata map[string]any) {
	e.result = &shownResult{data: data, metadata: metadata}
}

// encodePNG encodes an image for __neurogoShow.
func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil
	}
	return b.Bytes()
}

// goPanic reports a panic recovered in a goroutine that a cell started.
func (e *Executor) goPanic(r any) {
	fmt.Fprintf(e.opt.Stderr, "panic in a goroutine started by a cell (recovered; the kernel keeps running): %v\n", r)
}

func (e *Executor) currentContext() context.Context {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ctx
}

// Run executes one cell. Errors are *CellError.
func (e *Executor) Run(ctx context.Context, code string) (res Result, err error) {
	e.mu.Lock()
	e.ctx = ctx
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.ctx = context.Background()
		e.mu.Unlock()
	}()
	if e.native != nil {
		return e.runNative(ctx, code)
	}
	prog, perr := e.front.Prepare(code)
	if perr != nil {
		return res, e.frontError(code, perr)
	}
	var last reflect.Value
	e.result = nil
	for i, seg := range prog.Segments {
		var wrappedProg *interp.Program
		if i == len(prog.Segments)-1 && prog.Result && seg.Kind == cell.Stmts {
			// Evaluate the final expression through __neurogoShow so that
			// rich-display methods of types declared in cells count. An
			// expression that cannot be passed as one value (several
			// results, say) fails to compile; then it runs unwrapped.
			if w, ok := wrapResult(seg.Src); ok {
				wrappedProg = e.compile(w)
			}
		}
		wrapped := wrappedProg != nil
		var v reflect.Value
		var err error
		if wrapped {
			v, err = e.execute(ctx, wrappedProg)
		} else {
			v, err = e.eval(ctx, seg.Src)
		}
		e.wrapLine = 0
		if wrapped {
			e.wrapLine = seg.Line
		}
		if err != nil {
			if i > 0 {
				// Earlier segments ran (imports, declarations): keep the
				// front end in step with the interpreter.
				e.front.Commit(prog)
				e.noteImports(prog)
				e.noteFuncs(prog, code)
			}
			return res, e.evalError(ctx, code, seg, err)
		}
		if i == len(prog.Segments)-1 {
			last = v
		}
	}
	e.front.Commit(prog)
	e.noteImports(prog)
	e.noteFuncs(prog, code)
	if r := e.result; r != nil && prog.Result && !printCall(prog) {
		e.result = nil
		if !last.IsValid() {
			return res, nil
		}
		res.Value = newRichValue(r.data, r.metadata, last)
		res.HasValue = true
		return res, nil
	}
	if prog.Result && last.IsValid() && last.CanInterface() && !printCall(prog) {
		res.Value = last.Interface()
		// An untyped nil (a nil error from display.Display, say) says nothing.
		res.HasValue = res.Value != nil
	}
	return res, nil
}

// eval runs source in the interpreter, turning interpreter panics into errors.
func (e *Executor) eval(ctx context.Context, src string) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalPanic{value: r, stack: debug.Stack()}
		}
	}()
	return e.interp.EvalWithContext(ctx, src)
}

// compile compiles src without running it; nil if it does not compile.
func (e *Executor) compile(src string) (p *interp.Program) {
	defer func() {
		if recover() != nil {
			p = nil
		}
	}()
	p, err := e.interp.Compile(src)
	if err != nil {
		return nil
	}
	return p
}

// execute runs a compiled program, as eval does for source.
func (e *Executor) execute(ctx context.Context, p *interp.Program) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalPanic{value: r, stack: debug.Stack()}
		}
	}()
	return e.interp.ExecuteWithContext(ctx, p)
}

// internalPanic is a panic of the interpreter itself (not of cell code).
type internalPanic struct {
	value any
	stack []byte
}

func (p internalPanic) Error() string { return fmt.Sprint(p.value) }

var posRE = regexp.MustCompile(`^(?:[^\s:]*\.go:)?(\d+):(\d+): `)

func (e *Executor) frontError(code string, err error) *CellError {
	var ce *cell.Error
	if errors.As(err, &ce) {
		return compileError(code, ce.Line, ce.Col, ce.Msg)
	}
	return &CellError{Name: "CompileError", Value: err.Error(), Traceback: []string{err.Error()}}
}

func (e *Executor) evalError(ctx context.Context, code string, seg cell.Segment, err error) *CellError {
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		switch {
		case errors.Is(cause, errInterrupted):
			return &CellError{Name: "Interrupted", Value: "the cell was interrupted; variables keep the values they had", Traceback: []string{red("Interrupted") + ": the cell was interrupted; variables keep the values they had"}}
		case errors.Is(cause, errMemoryLimit):
			return &CellError{Name: "MemoryLimitExceeded", Value: cause.Error(), Traceback: []string{red("MemoryLimitExceeded") + ": " + cause.Error() + " (the cell was stopped; raise the limit with --memory-limit)"}}
		}
	}
	var p interp.Panic
	if errors.As(err, &p) {
		return e.panicError(code, seg, fmt.Sprint(p.Value), p.Value)
	}
	var pp *interp.Panic
	if errors.As(err, &pp) {
		return e.panicError(code, seg, fmt.Sprint(pp.Value), pp.Value)
	}
	var ip internalPanic
	if errors.As(err, &ip) {
		msg := fmt.Sprint(ip.value)
		if msg == "nil type" {
			msg = "the interpreter could not type a construct in this cell (yaegi: nil type); if it ranges over an int or a function whose type neurogo could not determine, give the range expression an explicit type"
		}
		e.opt.PanicLines()
		return &CellError{Name: "InterpreterError", Value: msg, Traceback: []string{red("InterpreterError") + ": " + msg}}
	}
	msg := err.Error()
	if m := posRE.FindStringSubmatch(msg); m != nil {
		l, _ := strconv.Atoi(m[1])
		c, _ := strconv.Atoi(m[2])
		line, col := e.mapPos(seg, l, c)
		rest := msg[len(m[0]):]
		if strings.HasPrefix(rest, "panic") {
			return e.panicError(code, seg, rest, nil)
		}
		return e.betterCompileError(code, line, col, rest)
	}
	return e.betterCompileError(code, 0, 0, msg)
}

// betterCompileError replaces a misleading interpreter message ("constant
// definition loop" for an undefined name, say) by the Go type checker's
// diagnosis of the cell, keeping the interpreter's message as a note.
func (e *Executor) betterCompileError(code string, line, col int, msg string) *CellError {
	if cell.Unhelpful(msg) || line == 0 {
		if diags := e.front.Diagnose(code); len(diags) > 0 {
			d := diags[0]
			ce := compileError(code, d.Line, d.Col, d.Msg)
			for _, more := range diags[1:] {
				ce.Traceback = append(ce.Traceback, fmt.Sprintf("cell line %d:%d: %s", more.Line, more.Col, more.Msg))
			}
			ce.Traceback = append(ce.Traceback, "(interpreter: "+msg+")")
			return ce
		}
	}
	return compileError(code, line, col, msg)
}

func (e *Executor) panicError(code string, seg cell.Segment, msg string, value any) *CellError {
	if ex, ok := value.(exitPanic); ok {
		msg = fmt.Sprintf("os.Exit(%d) called in a cell; the kernel keeps running", ex.code)
		return &CellError{Name: "Exit", Value: msg, Traceback: []string{red("Exit") + ": " + msg}}
	}
	e.opt.Sync()
	tb := []string{red("panic") + ": " + msg}
	lines := strings.Split(code, "\n")
	for _, pl := range e.opt.PanicLines() {
		m := panicLine.FindStringSubmatch(pl + "\n")
		if m == nil {
			continue
		}
		l, _ := strconv.Atoi(m[1])
		c, _ := strconv.Atoi(m[2])
		fn := strings.TrimPrefix(m[3], "main.")
		if fn == "main" {
			fn = "cell"
		}
		line, col := e.mapPos(seg, l, c)
		src := lines
		where := "cell line"
		if line == 0 {
			// A frame in a function that an earlier cell declared: segment
			// sources keep cell line numbers, so the line is exact in that
			// cell.
			prev, ok := e.funcSource[fn]
			if !ok {
				continue // interpreted library source, not a cell
			}
			line, col = l-cell.LineOffset, c
			src = strings.Split(prev, "\n")
			where = "line"
			fn += " (declared in an earlier cell)"
		}
		entry := fmt.Sprintf("  in %s, %s %d:%d", fn, where, line, col)
		if line >= 1 && line <= len(src) {
			entry += "\n    " + strings.TrimSpace(src[line-1])
		}
		tb = append(tb, entry)
	}
	return &CellError{Name: "panic", Value: msg, Traceback: tb}
}

func compileError(code string, line, col int, msg string) *CellError {
	tb := []string{}
	head := red("CompileError") + ": " + msg
	if line > 0 {
		head = fmt.Sprintf("%s: cell line %d:%d: %s", red("CompileError"), line, col, msg)
		tb = append(tb, head)
		lines := strings.Split(code, "\n")
		if line <= len(lines) {
			src := lines[line-1]
			tb = append(tb, fmt.Sprintf("%4d | %s", line, src))
			if col >= 1 {
				pad := strings.Repeat(" ", displayWidth(src, col-1))
				tb = append(tb, "     | "+pad+"^")
			}
		}
	} else {
		tb = append(tb, head)
	}
	v := msg
	if line > 0 {
		v = fmt.Sprintf("%d:%d: %s", line, col, msg)
	}
	return &CellError{Name: "CompileError", Value: v, Traceback: tb}
}

// displayWidth is the number of columns taken by the first n bytes of s,
// with tabs kept as tabs so the caret lines up.
func displayWidth(s string, n int) int {
	if n > len(s) {
		n = len(s)
	}
	return len([]rune(s[:n]))
}

func red(s string) string { return "\x1b[31m" + s + "\x1b[0m" }

// noteImports records the package names imported so far (for completion
// and inspection).
func (e *Executor) noteImports(p *cell.Program) {
	for _, seg := range p.Segments {
		if seg.Kind != cell.Imports {
			continue
		}
		for _, im := range parseImports(seg.Src) {
			name := im[0]
			if name == "" {
				name = e.packageName(im[1])
			}
			if name != "_" && name != "." {
				e.imports[name] = im[1]
			}
		}
	}
}

// parseImports returns the (name, path) pairs of the import declarations
// in src; name is "" when the import is not renamed.
func parseImports(src string) [][2]string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, parser.ImportsOnly)
	if err != nil || f == nil {
		return nil
	}
	var out [][2]string
	for _, im := range f.Imports {
		path, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := ""
		if im.Name != nil {
			name = im.Name.Name
		}
		out = append(out, [2]string{name, path})
	}
	return out
}

func (e *Executor) packageName(path string) string {
	for k := range bindings.Symbols {
		if i := strings.LastIndex(k, "/"); i > 0 && k[:i] == path {
			return k[i+1:]
		}
	}
	i := strings.LastIndex(path, "/")
	return path[i+1:]
}

// printCall reports whether the cell ends with a call to a print function
// (fmt.Println and friends, log.Print…), whose byte count and error are not
// worth showing as the cell's result.
func printCall(p *cell.Program) bool {
	if len(p.Segments) == 0 {
		return false
	}
	src := p.Segments[len(p.Segments)-1].Src
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+src+"\n}", 0)
	if err != nil || len(f.Decls) == 0 {
		return false
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Body == nil || len(fd.Body.List) == 0 {
		return false
	}
	es, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	name := sel.Sel.Name
	switch pkg.Name {
	case "fmt":
		return strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Fprint")
	case "log":
		return strings.HasPrefix(name, "Print")
	}
	return false
}

// wrapResult wraps the final expression statement of a segment in
// __neurogoShow(...), keeping the padding that aligns line numbers.
func wrapResult(src string) (string, bool) {
	body := strings.TrimLeft(src, " \t\n")
	if body == "" {
		return "", false
	}
	pad := src[:len(src)-len(body)]
	body = strings.TrimRight(body, " \t\n;")
	return pad + showCall + body + ",\n)", true
}

// richValue is a cell result whose representations were computed in the
// interpreter (so that methods declared in cells count). It implements the
// display interfaces.
type richValue struct {
	data, metadata map[string]any
}

func newRichValue(data, metadata map[string]any, v reflect.Value) richValue {
	r := richValue{data: map[string]any{}, metadata: map[string]any{}}
	// The native bundle first (compiled display types, image.Image, text),
	// then what the interpreter found (methods declared in cells).
	if inner, ok := interpValue(v); ok {
		for i := 0; i < 8; i++ { // boxes may nest
			next, ok := interpValue(inner)
			if !ok {
				break
			}
			inner = next
		}
		r.data[display.MIMEText] = fmt.Sprint(inner)
	} else if v.CanInterface() {
		nd, nmd := display.Bundle(v.Interface())
		for k, x := range nd {
			r.data[k] = x
		}
		for k, x := range nmd {
			r.metadata[k] = x
		}
	}
	for k, v := range data {
		r.data[k] = v
	}
	retina := metadata["retina"] == true
	for k, v := range metadata {
		if k != "retina" {
			r.metadata[k] = v
		}
	}
	if b, ok := data[display.MIMEPNG].([]byte); ok {
		p := display.PNG(b)
		if retina {
			p = display.RetinaPNG(b)
		}
		r.data[display.MIMEPNG] = p.Data[display.MIMEPNG]
		if _, ok := r.metadata[display.MIMEPNG]; !ok {
			r.metadata[display.MIMEPNG] = p.Metadata[display.MIMEPNG]
		}
	}
	return r
}

// MIMEBundle returns the representations.
func (r richValue) MIMEBundle() map[string]any { return r.data }

// MIMEMetadata returns their metadata (PNG sizes).
func (r richValue) MIMEMetadata() map[string]any { return r.metadata }

func (r richValue) String() string {
	s, _ := r.data[display.MIMEText].(string)
	return s
}

// noteFuncs records which cell declared each function and method.
func (e *Executor) noteFuncs(p *cell.Program, code string) {
	for _, seg := range p.Segments {
		if seg.Kind != cell.Decls {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+seg.Src, 0)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				t := fd.Recv.List[0].Type
				if st, ok := t.(*ast.StarExpr); ok {
					t = st.X
				}
				if id, ok := t.(*ast.Ident); ok {
					name = id.Name + "." + name
				}
			}
			e.funcSource[name] = code
		}
	}
}

// mapPos maps an interpreter position to the cell, undoing the column shift
// of the __neurogoShow wrapper.
func (e *Executor) mapPos(seg cell.Segment, l, c int) (int, int) {
	line, col := cell.MapPos(seg, l, c)
	if line != 0 && line == e.wrapLine {
		col = max(1, col-len(showCall))
	}
	return line, col
}

// interpValue unwraps the interpreter's box for values of cell-declared
// types with methods (yaegi's unexported valueInterface{node, value}), for
// printing: fmt prints the reflect.Value it holds.
func interpValue(v reflect.Value) (reflect.Value, bool) {
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() {
		return reflect.Value{}, false
	}
	t := v.Type()
	if t.Kind() != reflect.Struct || t.Name() != "valueInterface" || !strings.HasSuffix(t.PkgPath(), "yaegi/interp") || t.NumField() != 2 {
		return reflect.Value{}, false
	}
	// Copy to an addressable value to read the unexported field.
	c := reflect.New(t).Elem()
	c.Set(v)
	f := c.Field(1)
	if f.Type() != reflect.TypeFor[reflect.Value]() {
		return reflect.Value{}, false
	}
	inner := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(reflect.Value)
	return inner, inner.IsValid()
}
