package kernel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/neurogo/neurogo/kernel/bindings"
	"github.com/neurogo/neurogo/kernel/kernelrt"
	"github.com/neurogo/neurogo/kernel/native"
)

// Cells are compiled by the Go toolchain (package native) when the kernel
// can load Go plugins: then every cell is Go, declared code runs at
// compiled speed and reflection sees cell types as main.T. Without cgo or
// a matching toolchain the interpreter runs cells instead; NEUROGO_CELLS
// chooses explicitly ("compiled" or "interpreted").

// startNative sets up compiled cells; it returns nil (and logs why) when
// they are unavailable.
func startNative(logf func(string, ...any)) *native.Session {
	mode := os.Getenv("NEUROGO_CELLS")
	if mode == "interpreted" {
		return nil
	}
	// A kernel names the directory for its executor (and removes it when
	// the executor ends, however it ends).
	s, err := native.New(native.Options{Root: SourceRoot(), Dir: os.Getenv(cellsDirEnv)})
	if err != nil {
		if mode == "compiled" {
			logf("NEUROGO_CELLS=compiled but %v", err)
		} else {
			logf("cells run in the interpreter: %v", err)
		}
		return nil
	}
	s.SetBinder(bindingBinder())
	s.SetDocs(docFor)
	// List the packages cells use most while the front end connects.
	go s.Warm(context.Background(), "fmt", "math", "strings", "sort", "errors", "time",
		"github.com/neurogo/neurogo/display", "github.com/neurogo/neurogo/toolkit", "github.com/neurogo/neurogo/sim", "github.com/neurogo/neurogo/viz")
	return s
}

// cellsDirEnv names the directory for an executor's compiled cells.
const cellsDirEnv = "NEUROGO_CELLS_DIR"

// Close releases what the executor holds outside its process: the
// directory of compiled cells. The executor is unusable afterwards.
func (e *Executor) Close() error {
	if e == nil || e.native == nil {
		return nil
	}
	return e.native.Close()
}

// runNative runs a cell through the compiled path.
func (e *Executor) runNative(ctx context.Context, code string) (Result, error) {
	restore := e.redirectStd()
	stopStdin := func() {}
	if e.stdin != nil {
		stopStdin = e.stdin.run(ctx.Done())
	}
	res, err := e.native.Run(ctx, code)
	stopStdin()
	restore()
	if err != nil {
		return Result{}, e.nativeError(ctx, code, err)
	}
	return Result{Value: res.Value, HasValue: res.HasValue && res.Value != nil}, nil
}

func (e *Executor) nativeError(ctx context.Context, code string, err error) *CellError {
	var re *native.RunError
	if !errors.As(err, &re) {
		if ctx.Err() != nil && errors.Is(context.Cause(ctx), errInterrupted) {
			return &CellError{Name: "Interrupted", Value: "the cell was interrupted before it ran; variables keep the values they had", Traceback: []string{red("Interrupted") + ": the cell was interrupted before it ran; variables keep the values they had"}}
		}
		return &CellError{Name: "Error", Value: err.Error(), Traceback: []string{red("Error") + ": " + err.Error()}}
	}
	switch re.Kind {
	case "compile":
		if len(re.Errors) == 0 {
			return &CellError{Name: "CompileError", Value: re.Output, Traceback: []string{red("CompileError") + ": " + re.Output}}
		}
		first := re.Errors[0]
		ce := compileError(code, first.Line, first.Col, first.Msg)
		for _, more := range re.Errors[1:] {
			ce.Traceback = append(ce.Traceback, compileError(code, more.Line, more.Col, more.Msg).Traceback...)
		}
		return ce
	case "error":
		msg := fmt.Sprint(re.Value)
		return &CellError{Name: "Error", Value: msg, Traceback: []string{red("Error") + ": " + msg}}
	case "interrupt":
		msg := "the cell was interrupted; variables keep the values they had"
		return &CellError{Name: "Interrupted", Value: msg, Traceback: []string{red("Interrupted") + ": " + msg}}
	case "exit":
		msg := fmt.Sprintf("os.Exit(%d) called in a cell; the kernel keeps running and variables keep their values", re.Code)
		return &CellError{Name: "Exit", Value: msg, Traceback: []string{red("Exit") + ": " + msg}}
	}
	msg := panicMessage(re.Value)
	tb := []string{red("panic") + ": " + msg}
	lines := strings.Split(code, "\n")
	for _, fr := range re.Frames {
		src := lines
		where := "cell line"
		name := fr.Func
		if !fr.Current {
			src = strings.Split(e.native.Source(fr.Cell), "\n")
			where = "line"
			name += " (declared in an earlier cell)"
		}
		entry := fmt.Sprintf("  in %s, %s %d", name, where, fr.Line)
		if fr.Line >= 1 && fr.Line <= len(src) {
			entry += "\n    " + strings.TrimSpace(src[fr.Line-1])
		}
		tb = append(tb, entry)
	}
	return &CellError{Name: "panic", Value: msg, Traceback: tb}
}

// panicMessage formats a panic value as the Go runtime prints it after
// "panic: ".
func panicMessage(v any) string {
	switch x := v.(type) {
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case string:
		return x
	case nil:
		return "nil"
	}
	switch fmt.Sprintf("%T", v) {
	case "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64", "complex64", "complex128":
		return fmt.Sprintf("%v", v)
	}
	return fmt.Sprintf("%T(%#v)", v, v)
}

// bindingBinder gives the evaluator of statement cells the compiled values
// of imported packages from the generated bindings.
func bindingBinder() native.Binder {
	byPath := map[string]map[string]reflect.Value{}
	for key, syms := range bindings.Symbols {
		if i := strings.LastIndex(key, "/"); i > 0 {
			byPath[key[:i]] = syms
		}
	}
	return func(path, name string) (reflect.Value, bool) {
		// As in compiled cells, os.Exit ends the cell and time.Sleep stops
		// on interrupt.
		switch {
		case path == "os" && name == "Exit":
			return reflect.ValueOf(kernelrt.Exit), true
		case path == "time" && name == "Sleep":
			return reflect.ValueOf(kernelrt.Sleep), true
		}
		v, ok := byPath[path][name]
		if !ok {
			return reflect.Value{}, false
		}
		// Constants are bound as constant.Value: not a value of the
		// constant's type; the evaluator takes constants from go/types.
		if v.IsValid() && v.Type().PkgPath() == "go/constant" {
			return reflect.Value{}, false
		}
		return v, true
	}
}

// Warm compiles the packages cells import for plugins ahead of the first
// cell (the go build cache keeps them): the standard library and the
// module's packages. It reports progress on w; run by the set-up scripts
// after building the kernel (neurogo warm).
func Warm(ctx context.Context, w io.Writer) error {
	s, err := native.New(native.Options{Root: SourceRoot()})
	if err != nil {
		return err
	}
	defer s.Close()
	for _, set := range [][]string{
		{"std"},
		{"github.com/neurogo/neurogo/...", "gonum.org/v1/gonum/...", "gonum.org/v1/plot/..."},
	} {
		t0 := time.Now()
		fmt.Fprintf(w, "compiling %s for cells (plugins) …\n", strings.Join(set, " "))
		if err := s.Warm(ctx, set...); err != nil {
			return err
		}
		fmt.Fprintf(w, "  done in %.1f s\n", time.Since(t0).Seconds())
	}
	return nil
}
