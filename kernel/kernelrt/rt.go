package kernelrt

import (
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Cell is what a compiled cell package registers.
type Cell struct {
	// Run executes the cell's statements (nil for a cell of declarations).
	Run func()
	// Symbols are the cell's top-level names as reflect values: functions,
	// variables (addressable), types (as nil pointers) — what an
	// interpreter needs to reach them.
	Symbols map[string]reflect.Value
}

var (
	mu    sync.Mutex
	cells = map[string]*Cell{}

	resMu   sync.Mutex
	res     any
	hasRes  bool
	running atomic.Bool
)

// Register records a cell package's run function and symbols. Compiled
// cells call it from their init.
func Register(pkg string, run func(), symbols map[string]reflect.Value) {
	mu.Lock()
	defer mu.Unlock()
	cells[pkg] = &Cell{Run: run, Symbols: symbols}
}

// Lookup returns what a cell package registered.
func Lookup(pkg string) (*Cell, bool) {
	mu.Lock()
	defer mu.Unlock()
	c, ok := cells[pkg]
	return c, ok
}

// Result records the value of a cell's final expression.
func Result(v any) {
	resMu.Lock()
	res, hasRes = v, true
	resMu.Unlock()
}

// TakeResult returns and clears the value recorded by Result.
func TakeResult() (any, bool) {
	resMu.Lock()
	defer resMu.Unlock()
	v, ok := res, hasRes
	res, hasRes = nil, false
	return v, ok
}

// ExitPanic is the panic value of Exit on a cell's own goroutine: the
// executor recovers it and reports the exit code.
type ExitPanic struct{ Code int }

func (e ExitPanic) Error() string { return fmt.Sprintf("os.Exit(%d) called in a cell", e.Code) }

// SetRunning marks whether a cell's statements are running (Exit panics
// only then; see Exit).
func SetRunning(on bool) { running.Store(on) }

// Exit replaces os.Exit in compiled cells. While a cell runs it panics with
// ExitPanic, which unwinds the cell (deferred calls run, as they do not
// with os.Exit) and lets the executor report the code and keep every
// variable. On any other goroutine it flushes and exits the process, as
// os.Exit does; the kernel then reports the exit and restarts the executor.
func Exit(code int) {
	if running.Load() && onCellGoroutine() {
		panic(ExitPanic{code})
	}
	os.Stdout.Sync()
	os.Stderr.Sync()
	os.Exit(code)
}

// cellGoroutine holds the id of the goroutine running a cell.
var cellGoroutine atomic.Int64

// SetCellGoroutine records the current goroutine as the cell's.
func SetCellGoroutine() { cellGoroutine.Store(goid()) }

func onCellGoroutine() bool { return cellGoroutine.Load() == goid() }

// ExitVia returns Exit for a reference to os.Exit (compiled cells call
// kernelrt.ExitVia(os.Exit)(code), which keeps their import of os used).
func ExitVia(func(int)) func(int) { return Exit }

// GoRecover is deferred by the goroutines compiled cells start: a panic
// there is reported on standard error instead of ending the executor and
// every variable with it.
func GoRecover() {
	r := recover()
	if r == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "panic in a goroutine started by a cell (recovered; the kernel keeps running): %v\n%s", r, cellFrames(debug.Stack()))
}

// cellFrames keeps the frames of cell code from a stack trace.
func cellFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	var b strings.Builder
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "neurogo.cells/") && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "cell:") {
			name := strings.TrimPrefix(lines[i], "neurogo.cells/")
			name = name[strings.IndexByte(name, '.')+1:] // after the cell package "cN."
			if j := strings.LastIndexByte(name, '('); j > 0 {
				name = name[:j]
			}
			loc := strings.TrimSpace(lines[i+1])
			if j := strings.IndexByte(loc, ' '); j > 0 {
				loc = loc[:j]
			}
			name = strings.ReplaceAll(strings.Replace(name, "__ngRun", "cell", 1), "ngE_", "")
			fmt.Fprintf(&b, "  in %s, %s\n", name, strings.Replace(loc, "cell:", "cell line ", 1))
		}
	}
	return b.String()
}

// Symbols is the type of a cell's symbol table (named here so that the
// generated code does not depend on names a cell may redeclare, such as
// string).
type Symbols = map[string]reflect.Value

// TypePtr returns reflect.ValueOf((*T)(nil)), the form symbol tables give
// types in.
func TypePtr[T any]() reflect.Value { return reflect.ValueOf((*T)(nil)) }

// SleepVia returns Sleep for a reference to time.Sleep (compiled cells call
// kernelrt.SleepVia(time.Sleep)(d)).
func SleepVia(func(time.Duration)) func(time.Duration) { return Sleep }

// Sleep replaces time.Sleep in compiled cells: it returns early when the
// kernel is interrupted, so that a cell waiting in a sleep stops on the
// first interrupt. (The interrupted cell's code then goes on from the
// sleep; toolkit calls it makes stop on the same flag.)
func Sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	sleepUntil(d)
}

// ResultErr records the value of a cell's final call that returned a value
// and an error: the value when the error is nil; otherwise the cell fails
// with the error (a ResultError panic the executor reports).
func ResultErr[T any](v T, err error) {
	if err != nil {
		panic(ResultError{err})
	}
	Result(v)
}

// ResultError is a cell's final call's error.
type ResultError struct{ Err error }

func (e ResultError) Error() string { return e.Err.Error() }

// Unwrap returns the error.
func (e ResultError) Unwrap() error { return e.Err }
