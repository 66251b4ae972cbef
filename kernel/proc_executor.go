package kernel

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/widgets"
)

// executorEnv marks a process started as an executor. The neurogo binary
// is told by its "executor" argument; a test binary that re-executes
// itself as the executor (TestMain) looks at this variable.
const executorEnv = "NEUROGO_EXECUTOR"

// maxStackEnv overrides the executor's goroutine stack limit (bytes).
const maxStackEnv = "NEUROGO_MAX_STACK"

// defaultMaxStack is the executor's goroutine stack limit: runaway
// recursion dies in about a second instead of growing to Go's default 1 GB.
const defaultMaxStack = 256 << 20

// IsExecutorProcess reports whether this process was started by a kernel
// as its executor (for test binaries that re-execute themselves).
func IsExecutorProcess() bool { return os.Getenv(executorEnv) == "1" }

// ServeExecutor is the executor process (`neurogo executor`, started by
// the kernel, never by hand): it hosts the Executor and the display sink,
// reads requests from the control socket on file descriptor 3 and writes
// the cells' output to its file descriptors 1 and 2, which the kernel
// reads. It returns the process's exit status.
func ServeExecutor(args []string) int {
	fs := flag.NewFlagSet("executor", flag.ContinueOnError)
	memLimit := fs.Int64("memory-limit", 0, "memory limit in bytes (0: none)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !IsExecutorProcess() {
		fmt.Fprintln(os.Stderr, "neurogo executor runs the cells of a kernel and is started by it (neurogo kernel), not by hand")
		return 2
	}
	os.Unsetenv(executorEnv) // not inherited by processes cells start
	maxStack := int64(defaultMaxStack)
	if v := os.Getenv(maxStackEnv); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			maxStack = n
		}
	}
	debug.SetMaxStack(int(maxStack))
	if *memLimit > 0 {
		debug.SetMemoryLimit(*memLimit)
	}
	// The Go runtime copies fatal errors and unrecovered panics to fd 4:
	// the kernel learns of a crash the moment it starts.
	if crash := os.NewFile(4, "neurogo-crash"); crash != nil {
		_ = debug.SetCrashOutput(crash, debug.CrashOptions{})
		crash.Close() // SetCrashOutput keeps its own copy
	}
	ctrl := os.NewFile(3, "neurogo-control")
	s := &execServer{
		conn:   newIPCConn(ctrl),
		out:    os.Stdout,
		errw:   os.Stderr,
		work:   make(chan *ipcMsg, 16),
		input:  make(chan *ipcMsg, 1),
		comms:  make(chan *ipcMsg, 4096),
		filter: &panicFilter{w: os.Stderr},
	}
	display.SetSink(s)
	widgets.SetTransport(s)
	go s.readLoop()
	go s.serveComms()
	ex, err := NewExecutor(ExecutorOptions{
		Stdout:     os.Stdout,
		Stderr:     s.filter,
		Stdin:      &ipcStdin{s: s},
		PanicLines: s.filter.take,
		Log: func(format string, args ...any) {
			_ = s.conn.Send(&ipcMsg{Type: "log", Text: fmt.Sprintf(format, args...)})
		},
	})
	if err != nil {
		_ = s.conn.Send(&ipcMsg{Type: "ready", Err: err.Error()})
		return 1
	}
	s.mu.Lock()
	s.ex = ex
	s.mu.Unlock()
	if *memLimit > 0 {
		go s.watchMemory(*memLimit)
	}
	if err := s.conn.Send(&ipcMsg{Type: "ready"}); err != nil {
		return 1
	}
	for m := range s.work {
		s.serve(m)
	}
	return 0
}

// execServer is the executor process's side of the control socket.
type execServer struct {
	conn   *ipcConn
	out    *os.File // file descriptor 1
	errw   *os.File // file descriptor 2
	filter *panicFilter
	ex     *Executor
	work   chan *ipcMsg // run, complete, inspect: served one at a time
	input  chan *ipcMsg // input replies
	comms  chan *ipcMsg // comm messages of the front end, handled in order
	// commRef is the Ref of the front-end comm message being handled (0:
	// none); comm messages sent meanwhile carry it.
	commRef atomic.Uint64
	// releasing: releaseMemory's collection is running.
	releasing atomic.Bool

	syncMu sync.Mutex
	seq    int

	mu     sync.Mutex
	cancel context.CancelCauseFunc // of the running cell
	inMu   sync.Mutex              // one input request at a time
}

// readLoop reads the kernel's messages. Interrupts and input replies are
// handled at once, while a cell runs; the end of the socket (the kernel
// is gone) ends the process.
func (s *execServer) readLoop() {
	for {
		m, err := s.conn.Recv()
		if err != nil {
			s.exit()
		}
		switch m.Type {
		case "run", "complete", "inspect":
			s.work <- m
		case "interrupt":
			s.interrupt()
		case "input_reply":
			select {
			case s.input <- m:
			default: // nobody asked: a reply to an interrupted request
			}
		case "shutdown":
			s.exit()
		case "comm_open", "comm_msg", "comm_close":
			s.comms <- m
		}
	}
}

// exit ends the executor process after removing its compiled cells (the
// kernel removes them too once it has reaped the process: this covers a
// kernel that was killed).
func (s *execServer) exit() {
	s.mu.Lock()
	ex := s.ex
	s.mu.Unlock()
	if ex != nil {
		_ = ex.Close()
	} else if dir := os.Getenv(cellsDirEnv); dir != "" {
		_ = os.RemoveAll(dir)
	}
	os.Exit(0)
}

func (s *execServer) interrupt() {
	s.mu.Lock()
	c := s.cancel
	s.mu.Unlock()
	if c != nil {
		c(errInterrupted)
	}
	requestProcessInterrupt()
}

// syncSend writes sync markers into both output pipes, then sends m
// tagged with their number: the kernel acts on m after the output written
// before it.
func (s *execServer) syncSend(m *ipcMsg) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	m.Sync = s.seq + 1
	// Encode first: a marker must never go out without its event (the
	// kernel's readers wait at a marker until its event was handled).
	b, err := encodeMsg(m)
	if err != nil {
		return err
	}
	s.seq++
	mk := syncMarker(s.seq)
	_, _ = s.out.Write(mk)
	_, _ = s.errw.Write(mk)
	return s.conn.SendEncoded(b)
}

func (s *execServer) serve(m *ipcMsg) {
	switch m.Type {
	case "run":
		reply := s.run(m)
		if err := s.syncSend(reply); err != nil {
			// A result that cannot be encoded (a NaN in JSON data, say)
			// still ends the cell.
			msg := "the cell's result could not be sent to the kernel: " + err.Error()
			_ = s.syncSend(&ipcMsg{Type: "error", ID: m.ID, EName: "Error", EValue: msg, Traceback: []string{red("Error") + ": " + msg}})
		}
		s.releaseMemory()
	case "complete":
		var r Completion
		protect(func() { r = s.ex.Complete(m.Code, m.CursorPos) })
		_ = s.conn.Send(&ipcMsg{Type: "complete_reply", ID: m.ID, Matches: r.Matches, Kinds: r.Kinds, Sigs: r.Signatures, Start: r.Start, End: r.End})
	case "inspect":
		var text string
		var found bool
		protect(func() { text, found = s.ex.Inspect(m.Code, m.CursorPos, m.DetailLevel) })
		_ = s.conn.Send(&ipcMsg{Type: "inspect_reply", ID: m.ID, Text: text, Found: found})
	}
}

// releaseMemory returns the memory the finished cell freed to the system,
// in the background: a full collection, then debug.FreeOSMemory. Without
// it the executor keeps the pages of the cell's garbage (the Go runtime
// returns them only gradually) while the next cell is compiled beside it,
// and the compiler's and linker's memory adds to them; on a small machine
// (Binder's 2 GB) that sum is the peak of a notebook. One release runs at
// a time; a cell that ends while one runs skips its own.
func (s *execServer) releaseMemory() {
	if !s.releasing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.releasing.Store(false)
		debug.FreeOSMemory()
	}()
}

// protect runs f, turning a panic of the kernel's own code into nothing
// (completion and inspection are best effort).
func protect(f func()) {
	defer func() { _ = recover() }()
	f()
}

// run executes a cell and returns its result or error message.
func (s *execServer) run(m *ipcMsg) (reply *ipcMsg) {
	resetProcessInterrupt()
	ctx, cancel := context.WithCancelCause(context.Background())
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel(nil)
	}()
	s.ex.allowStdin.Store(m.AllowStdin)
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("internal error: %v", r)
			reply = &ipcMsg{Type: "error", ID: m.ID, EName: "InternalError", EValue: msg, Traceback: []string{red("InternalError") + ": " + msg, string(debug.Stack())}}
		}
	}()
	res, err := s.ex.Run(ctx, m.Code)
	if ctx.Err() != nil {
		// The interpreter returns as soon as the context ends, while the
		// cell's code may still run (blocked in a compiled call, say):
		// the cell is over only when that code has returned.
		waitEvalDone()
	}
	if err != nil {
		ce := asCellError(err)
		return &ipcMsg{Type: "error", ID: m.ID, EName: ce.Name, EValue: ce.Value, Traceback: ce.Traceback}
	}
	reply = &ipcMsg{Type: "result", ID: m.ID, UserExprs: s.userExpressions(m.UserExpressions)}
	if res.HasValue && !m.Silent {
		reply.HasValue = true
		reply.Data, reply.Metadata = display.Bundle(res.Value)
	}
	return reply
}

func (s *execServer) userExpressions(exprs map[string]string) map[string]any {
	out := map[string]any{}
	for name, src := range exprs {
		v, err := s.ex.Run(context.Background(), src)
		if err != nil {
			ce := asCellError(err)
			out[name] = map[string]any{"status": "error", "ename": ce.Name, "evalue": ce.Value, "traceback": ce.Traceback}
			continue
		}
		data, md := display.Bundle(v.Value)
		out[name] = map[string]any{"status": "ok", "data": data, "metadata": md}
	}
	return out
}

// Display sends display_data or update_display_data (display.Sink).
func (s *execServer) Display(data, metadata map[string]any, id string, update bool) error {
	return s.syncSend(&ipcMsg{Type: "display", Data: data, Metadata: metadata, DisplayID: id, Update: update})
}

// Clear sends clear_output (display.Sink).
func (s *execServer) Clear(wait bool) error {
	return s.syncSend(&ipcMsg{Type: "clear", Wait: wait})
}

// requestInput asks the front end for a line of input through the kernel.
func (s *execServer) requestInput(prompt string, password bool) (string, error) {
	if s.ex == nil || !s.ex.allowStdin.Load() {
		return "", errNoStdin
	}
	s.inMu.Lock()
	defer s.inMu.Unlock()
	select { // a stale reply
	case <-s.input:
	default:
	}
	ctx := s.ex.currentContext()
	if err := s.syncSend(&ipcMsg{Type: "input_request", Prompt: prompt, Password: password}); err != nil {
		return "", err
	}
	select {
	case r := <-s.input:
		if r.Err != "" {
			return "", errors.New(r.Err)
		}
		return r.Value, nil
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// ipcStdin serves reads from standard input in cells with input requests.
type ipcStdin struct {
	s   *execServer
	buf []byte
}

func (r *ipcStdin) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		line, err := r.s.requestInput("", false)
		if err != nil {
			return 0, err
		}
		r.buf = []byte(line + "\n")
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

var _ io.Reader = (*ipcStdin)(nil)

// evalFrames name the goroutines in which yaegi evaluates a cell
// (EvalWithContext and ExecuteWithContext run Eval and Execute in a
// goroutine and return when the context ends, without waiting for it).
var evalFrames = [][]byte{[]byte("interp.(*Interpreter).EvalWithContext.func"), []byte("interp.(*Interpreter).ExecuteWithContext.func")}

// waitEvalDone waits until no interpreter evaluation is running.
func waitEvalDone() {
	for evalRunning() {
		time.Sleep(20 * time.Millisecond)
	}
}

func evalRunning() bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for _, f := range evalFrames {
		if bytes.Contains(buf, f) {
			return true
		}
	}
	return false
}

// watchMemory tells the kernel when the Go heap stays above limit after a
// collection; the kernel then stops the executor. (The Go runtime's own
// soft limit, debug.SetMemoryLimit, makes the collector work harder as the
// heap nears the limit; the kernel also watches the process's resident
// memory, which covers memory outside the Go heap.)
func (s *execServer) watchMemory(limit int64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	var lastGC time.Time
	for range t.C {
		metrics.Read(sample)
		if int64(sample[0].Value.Uint64()) <= limit || time.Since(lastGC) < 500*time.Millisecond {
			continue
		}
		// Dead objects count until they are swept: collect, then look again.
		runtime.GC()
		lastGC = time.Now()
		metrics.Read(sample)
		if used := int64(sample[0].Value.Uint64()); used > limit {
			_ = s.conn.Send(&ipcMsg{Type: "memory", Used: used})
			return
		}
	}
}

// serveComms handles the front end's comm messages one at a time, in a
// goroutine of its own: between cells and while a cell runs. The callbacks
// they trigger (widgets) run here; a panic in them is the widgets'
// business (package widgets recovers it), and one that escapes is caught
// here, so the executor lives on.
func (s *execServer) serveComms() {
	for m := range s.comms {
		s.handleComm(m)
	}
}

func (s *execServer) handleComm(m *ipcMsg) {
	kind := m.Type[len("comm_"):]
	s.commRef.Store(m.Ref)
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("comm %s: panic: %v", m.CommID, r)
			}
		}()
		err = widgets.HandleComm(kind, m.CommID, m.Target, m.Data, m.Buffers)
	}()
	if err != nil {
		_ = s.conn.Send(&ipcMsg{Type: "log", Text: err.Error()})
		if kind == "open" {
			_ = s.conn.Send(&ipcMsg{Type: "comm_close", CommID: m.CommID, Data: map[string]any{"reason": err.Error()}, Ref: m.Ref})
		}
	}
	s.commRef.Store(0)
	if m.Ref != 0 {
		_ = s.syncSend(&ipcMsg{Type: "comm_done", Ref: m.Ref})
	}
}

// Open sends comm_open (widgets.Transport).
func (s *execServer) Open(commID, target string, data, metadata map[string]any, buffers [][]byte) error {
	return s.conn.Send(&ipcMsg{Type: "comm_open", CommID: commID, Target: target, Data: data, Metadata: metadata, Buffers: buffers, Ref: s.commRef.Load()})
}

// Send sends comm_msg (widgets.Transport).
func (s *execServer) Send(commID string, data, metadata map[string]any, buffers [][]byte) error {
	return s.conn.Send(&ipcMsg{Type: "comm_msg", CommID: commID, Data: data, Metadata: metadata, Buffers: buffers, Ref: s.commRef.Load()})
}

// Close sends comm_close (widgets.Transport).
func (s *execServer) Close(commID string, data map[string]any) error {
	return s.conn.Send(&ipcMsg{Type: "comm_close", CommID: commID, Data: data, Ref: s.commRef.Load()})
}

// Log writes a line to the kernel's log (widgets.Transport).
func (s *execServer) Log(msg string) {
	_ = s.conn.Send(&ipcMsg{Type: "log", Text: msg})
}
