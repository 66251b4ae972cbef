package kernel

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
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

	"github.com/traefik/yaegi/interp"

	"github.com/neurogo/neurogo/kernel/bindings"
	"github.com/neurogo/neurogo/kernel/cell"
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
}

// Executor runs notebook cells with state: variables, functions, types and
// imports persist from cell to cell. It is not safe for concurrent Run calls;
// the kernel runs one cell at a time.
type Executor struct {
	opt    ExecutorOptions
	interp *interp.Interpreter
	front  *cell.Front

	mu  sync.Mutex
	ctx context.Context

	allowStdin atomic.Bool
	imports    map[string]string // package name in cells → import path
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
	e := &Executor{opt: opt, ctx: context.Background(), imports: map[string]string{}}
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
			"GoPanic": reflect.ValueOf(e.goPanic),
		},
	}); err != nil {
		return nil, err
	}
	if _, err := e.interp.Eval(`import kernelrt "github.com/neurogo/neurogo/kernel/kernelrt"`); err != nil {
		return nil, fmt.Errorf("kernel runtime: %w", err)
	}
	if _, err := e.interp.Eval(`func __neurogoGoPanic(r any) { kernelrt.GoPanic(r) }`); err != nil {
		return nil, fmt.Errorf("kernel runtime: %w", err)
	}
	e.front = cell.New(importer.Default())
	return e, nil
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
	prog, perr := e.front.Prepare(code)
	if perr != nil {
		return res, e.frontError(code, perr)
	}
	var last reflect.Value
	for i, seg := range prog.Segments {
		v, err := e.eval(ctx, seg.Src)
		if err != nil {
			if i > 0 {
				// Earlier segments ran (imports, declarations): keep the
				// front end in step with the interpreter.
				e.front.Commit(prog)
				e.noteImports(prog)
			}
			return res, e.evalError(ctx, code, seg, err)
		}
		if i == len(prog.Segments)-1 {
			last = v
		}
	}
	e.front.Commit(prog)
	e.noteImports(prog)
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
		line, col := cell.MapPos(seg, l, c)
		rest := msg[len(m[0]):]
		if strings.HasPrefix(rest, "panic") {
			return e.panicError(code, seg, rest, nil)
		}
		return compileError(code, line, col, rest)
	}
	return compileError(code, 0, 0, msg)
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
		line, col := cell.MapPos(seg, l, c)
		if line == 0 {
			continue // a frame outside the cell (interpreted library source)
		}
		fn := m[3]
		fn = strings.TrimPrefix(fn, "main.")
		if fn == "main" {
			fn = "cell"
		}
		entry := fmt.Sprintf("  in %s, cell line %d:%d", fn, line, col)
		if line >= 1 && line <= len(lines) {
			entry += "\n    " + strings.TrimSpace(lines[line-1])
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
