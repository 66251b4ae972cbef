package kernel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neurogo/neurogo/kernel/native"
)

// The kernel runs cells in a separate executor process (the same binary,
// `neurogo executor`, see proc_executor.go) that a supervisor starts,
// watches and restarts. Whatever a cell does — runaway recursion, a fatal
// runtime error, an unrecovered panic in a goroutine, an exit the
// interpreter cannot intercept, memory beyond the limit, compiled code that
// ignores interrupts — only the executor dies: the kernel names the cause
// in the cell's error reply, starts a new executor and answers the next
// request. Variables, functions and types of earlier cells live in the
// executor and are lost with it; the error says so.

// supervisorOptions configure a supervisor. The callbacks are called from
// the supervisor's goroutines, one event at a time, in the order the
// executor produced them.
type supervisorOptions struct {
	// Command starts the executor; by default this executable with the
	// argument "executor".
	Command []string
	// MemoryLimit, if > 0, is the most memory (bytes) the executor may
	// use: its Go heap (watched inside it, where debug.SetMemoryLimit is
	// set too) and its resident set (polled by the kernel every 50 ms).
	MemoryLimit int64
	Log         *log.Logger
	// Stream receives the executor's standard output and error.
	Stream func(name, text string)
	// Display and Clear receive the display calls of cells.
	Display func(data, metadata map[string]any, id string, update bool)
	Clear   func(wait bool)
	// Input asks the front end for a line of input; ctx ends with the
	// request that asked.
	Input func(ctx context.Context, prompt string, password bool) (string, error)
	// Comm receives the executor's comm messages (comm_open, comm_msg,
	// comm_close, comm_done), in order with its other events.
	Comm func(m *ipcMsg)
	// CommsLost is called when an executor has died: its comms are gone.
	CommsLost func()
}

// supervisor owns the executor process of a kernel: one at a time, one
// request at a time.
type supervisor struct {
	opt supervisorOptions

	mu      sync.Mutex
	cur     *execProc
	call    *procCall // the request in flight
	nextID  uint64
	closed  bool
	notices []*execProc // executors that died while no request ran
}

// procCall is a request waiting for the executor's reply.
type procCall struct {
	id         uint64
	proc       *execProc
	run        bool
	reply      chan *ipcMsg
	ctx        context.Context
	interrupts int
}

// killReason says why the kernel killed an executor.
type killReason int

const (
	killNone killReason = iota
	killMemory
	killInterrupt
	killShutdown
)

// execProc is one executor process.
type execProc struct {
	sup    *supervisor
	cmd    *exec.Cmd
	pid    int
	dir    string // its compiled cells, removed when it has exited
	conn   *ipcConn
	st     *streams
	events chan *ipcMsg
	start  time.Time

	ready    chan struct{} // closed when set up (readyErr nil) or failed
	readyErr error
	wasReady atomic.Bool

	killMu     sync.Mutex
	killReason killReason
	killUsed   int64 // bytes in use when killed for memory

	mu    sync.Mutex
	calls map[uint64]*procCall

	dispatched chan struct{} // closed when every event was handled
	done       chan struct{} // closed when the process has exited; death is set
	death      *deathInfo
	claimed    atomic.Bool // a request reported the death
}

func newSupervisor(opt supervisorOptions) *supervisor {
	if opt.Log == nil {
		opt.Log = log.New(os.Stderr, "neurogo kernel: ", log.LstdFlags|log.Lmicroseconds)
	}
	if opt.Stream == nil {
		opt.Stream = func(string, string) {}
	}
	if opt.Display == nil {
		opt.Display = func(map[string]any, map[string]any, string, bool) {}
	}
	if opt.Clear == nil {
		opt.Clear = func(bool) {}
	}
	if opt.Input == nil {
		opt.Input = func(context.Context, string, bool) (string, error) { return "", errNoStdin }
	}
	if opt.Comm == nil {
		opt.Comm = func(*ipcMsg) {}
	}
	if opt.CommsLost == nil {
		opt.CommsLost = func() {}
	}
	return &supervisor{opt: opt}
}

// start starts an executor now (while the front end connects, say), so
// that the first request does not wait for its setup.
func (s *supervisor) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil && !s.closed {
		s.cur = s.startLocked()
	}
}

func (s *supervisor) command() ([]string, error) {
	if len(s.opt.Command) > 0 {
		return s.opt.Command, nil
	}
	if IsExecutorProcess() {
		// A test binary re-executed as an executor that lacks the
		// TestMain hook would run its tests again, and so on.
		return nil, errors.New("an executor process cannot start another executor")
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return []string{exe, "executor"}, nil
}

// startLocked starts an executor process (s.mu held). A process that
// fails to start is returned dead, with readyErr set.
func (s *supervisor) startLocked() *execProc {
	p := &execProc{
		sup:        s,
		events:     make(chan *ipcMsg, 1024),
		ready:      make(chan struct{}),
		calls:      map[uint64]*procCall{},
		dispatched: make(chan struct{}),
		done:       make(chan struct{}),
		start:      time.Now(),
	}
	fail := func(err error) *execProc {
		p.readyErr = fmt.Errorf("starting the executor process: %w", err)
		p.death = &deathInfo{startErr: err}
		close(p.ready)
		close(p.dispatched)
		close(p.done)
		s.opt.Log.Print(p.readyErr)
		return p
	}
	argv, err := s.command()
	if err != nil {
		return fail(err)
	}
	if s.opt.MemoryLimit > 0 {
		argv = append(append([]string{}, argv...), "--memory-limit", strconv.FormatInt(s.opt.MemoryLimit, 10))
	}
	kernelEnd, execEnd, err := socketPair()
	if err != nil {
		return fail(err)
	}
	st, outW, errW, crashW, err := newStreams(s.opt.Stream)
	if err != nil {
		kernelEnd.Close()
		execEnd.Close()
		return fail(err)
	}
	p.st = st
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.ExtraFiles = []*os.File{execEnd, crashW} // fd 3, fd 4
	cmd.Env = append(os.Environ(), executorEnv+"=1")
	// The kernel owns the executor's directory of compiled cells: an
	// executor that is killed (restart, memory limit) cannot remove it.
	if dir, err := native.NewWorkDir(os.Getpid()); err == nil {
		p.dir = dir
		cmd.Env = append(cmd.Env, cellsDirEnv+"="+dir)
	} else {
		s.opt.Log.Print(err)
	}
	cmd.SysProcAttr = executorAttr()
	err = cmd.Start()
	outW.Close()
	errW.Close()
	crashW.Close()
	execEnd.Close()
	if err != nil {
		if p.dir != "" {
			_ = os.RemoveAll(p.dir)
		}
		kernelEnd.Close()
		return fail(err)
	}
	p.cmd, p.pid = cmd, cmd.Process.Pid
	p.conn = newIPCConn(kernelEnd)
	go p.readLoop()
	go p.dispatch()
	go p.wait()
	go p.watchCrash()
	if s.opt.MemoryLimit > 0 {
		go p.watchRSS(s.opt.MemoryLimit)
	}
	return p
}

// proc returns the current executor once it is set up, starting one if
// there is none.
func (s *supervisor) proc() (*execProc, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("the kernel is shutting down")
	}
	p := s.cur
	if p == nil || isClosed(p.done) {
		p = s.startLocked()
		s.cur = p
	}
	s.mu.Unlock()
	<-p.ready
	if p.readyErr != nil {
		return nil, p.readyErr
	}
	return p, nil
}

// ready waits until an executor is set up.
func (s *supervisor) ready() error {
	_, err := s.proc()
	return err
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// callResult is the executor's reply, or how it died.
type callResult struct {
	reply *ipcMsg
	death *deathInfo
}

// do sends a request and waits for the reply or the executor's death.
func (s *supervisor) do(req *ipcMsg) (callResult, error) {
	p, err := s.proc()
	if err != nil {
		return callResult{}, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.mu.Lock()
	s.nextID++
	c := &procCall{id: s.nextID, proc: p, run: req.Type == "run", reply: make(chan *ipcMsg, 1), ctx: ctx}
	s.call = c
	s.mu.Unlock()
	req.ID = c.id
	p.mu.Lock()
	p.calls[c.id] = c
	p.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.call == c {
			s.call = nil
		}
		s.mu.Unlock()
		p.mu.Lock()
		delete(p.calls, c.id)
		p.mu.Unlock()
	}()
	if err := p.conn.Send(req); err != nil {
		// The executor is gone or going: its death is the answer.
		s.opt.Log.Printf("sending %s to the executor: %v", req.Type, err)
	}
	select {
	case r := <-c.reply:
		return callResult{reply: r}, nil
	case <-p.done:
		select {
		case r := <-c.reply:
			return callResult{reply: r}, nil
		default:
		}
		if c.run {
			p.claimed.Store(true) // the cell's error reports it
		}
		return callResult{death: p.death}, nil
	}
}

// sendComm forwards a comm message of the front end to the executor
// (starting one, and waiting until it is set up, if there is none). It
// does not wait for the executor to handle it.
func (s *supervisor) sendComm(m *ipcMsg) error {
	p, err := s.proc()
	if err != nil {
		return err
	}
	return p.conn.Send(m)
}

// runRequest is a cell to execute.
type runRequest struct {
	Code            string
	AllowStdin      bool
	Silent          bool
	UserExpressions map[string]string
}

// runResult is a cell's outcome: a MIME bundle if it had a value, the user
// expressions' results, or an error.
type runResult struct {
	HasValue       bool
	Data, Metadata map[string]any
	UserExprs      map[string]any
	Err            *CellError
}

// run executes a cell in the executor.
func (s *supervisor) run(req runRequest) runResult {
	r, err := s.do(&ipcMsg{Type: "run", Code: req.Code, AllowStdin: req.AllowStdin, Silent: req.Silent, UserExpressions: req.UserExpressions})
	switch {
	case err != nil:
		return runResult{Err: &CellError{Name: "KernelSetupError", Value: err.Error(), Traceback: []string{red("KernelSetupError") + ": " + err.Error()}}}
	case r.death != nil:
		return runResult{Err: r.death.cellError()}
	case r.reply.Type == "error":
		return runResult{Err: &CellError{Name: r.reply.EName, Value: r.reply.EValue, Traceback: nonNil(r.reply.Traceback)}}
	}
	ue := r.reply.UserExprs
	if ue == nil {
		ue = map[string]any{}
	}
	return runResult{HasValue: r.reply.HasValue, Data: r.reply.Data, Metadata: r.reply.Metadata, UserExprs: ue}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// complete asks the executor for completions; an executor that died or
// could not start gives none.
func (s *supervisor) complete(code string, cursor int) Completion {
	r, err := s.do(&ipcMsg{Type: "complete", Code: code, CursorPos: cursor})
	if err != nil || r.reply == nil {
		return Completion{Matches: []string{}, Kinds: []string{}, Start: cursor, End: cursor}
	}
	return Completion{Matches: nonNil(r.reply.Matches), Kinds: nonNil(r.reply.Kinds), Signatures: r.reply.Sigs, Start: r.reply.Start, End: r.reply.End}
}

// inspect asks the executor for documentation.
func (s *supervisor) inspect(code string, cursor, detail int) (string, bool) {
	r, err := s.do(&ipcMsg{Type: "inspect", Code: code, CursorPos: cursor, DetailLevel: detail})
	if err != nil || r.reply == nil {
		return "", false
	}
	return r.reply.Text, r.reply.Found
}

// interrupt interrupts the running cell: the first interrupt asks the
// executor to cancel it (the interpreter stops at its next step, toolkit
// loops at their next check); a second one while the same cell still runs
// kills the executor, which stops any code, and starts a new one. A cell
// is never reported interrupted while its code still runs.
func (s *supervisor) interrupt() {
	s.mu.Lock()
	c, p := s.call, s.cur
	n := 0
	if c != nil {
		p = c.proc
		if c.run {
			c.interrupts++
			n = c.interrupts
		}
	}
	s.mu.Unlock()
	if p == nil || !p.wasReady.Load() || isClosed(p.done) {
		return
	}
	if n >= 2 {
		s.opt.Log.Printf("second interrupt while the cell still runs: killing the executor (pid %d)", p.pid)
		p.kill(killInterrupt, 0)
		return
	}
	if err := p.conn.Send(&ipcMsg{Type: "interrupt"}); err != nil {
		s.opt.Log.Printf("interrupt: %v", err)
	}
}

// takeNotices returns the causes of executor deaths that no request
// reported (a goroutine crashed the executor after its cell had finished).
func (s *supervisor) takeNotices() []string {
	s.mu.Lock()
	ps := s.notices
	s.notices = nil
	s.mu.Unlock()
	var out []string
	for _, p := range ps {
		if !p.claimed.Load() {
			out = append(out, p.death.cause())
		}
	}
	return out
}

// close stops the executor.
func (s *supervisor) close() {
	s.mu.Lock()
	s.closed = true
	p := s.cur
	s.mu.Unlock()
	if p == nil || isClosed(p.done) {
		return
	}
	_ = p.conn.Send(&ipcMsg{Type: "shutdown"})
	select {
	case <-p.done:
	case <-time.After(500 * time.Millisecond):
		p.kill(killShutdown, 0)
		<-p.done
	}
}

// died is called once an executor has exited: a new one starts at once
// (unless it never got set up: then the next request tries again).
func (s *supervisor) died(p *execProc) {
	s.mu.Lock()
	if s.cur == p && !s.closed {
		s.cur = nil
		if p.wasReady.Load() {
			s.cur = s.startLocked()
		}
	}
	closed := s.closed
	if !closed && p.wasReady.Load() {
		// A death during setup is the waiting request's error instead.
		s.notices = append(s.notices, p)
	}
	s.mu.Unlock()
	if !closed {
		s.opt.Log.Printf("executor (pid %d) died after %.1fs: %s; restarted", p.pid, time.Since(p.start).Seconds(), p.death.cause())
	}
}

// kill stops the process (and the processes a cell started) for reason.
func (p *execProc) kill(reason killReason, used int64) {
	p.killMu.Lock()
	if p.killReason == killNone {
		p.killReason, p.killUsed = reason, used
	}
	p.killMu.Unlock()
	killGroup(p.pid)
}

// readLoop reads the executor's messages.
func (p *execProc) readLoop() {
	defer close(p.events)
	for {
		m, err := p.conn.Recv()
		if err != nil {
			return
		}
		switch m.Type {
		case "ready":
			if m.Err != "" {
				p.readyErr = fmt.Errorf("the Go interpreter could not be set up: %s", m.Err)
			} else {
				p.wasReady.Store(true)
			}
			close(p.ready)
		case "memory":
			p.kill(killMemory, m.Used)
		case "log":
			p.sup.opt.Log.Printf("executor (pid %d): %s", p.pid, m.Text)
		default:
			p.events <- m
		}
	}
}

// dispatch acts on the executor's events in order, each after the output
// written before it.
func (p *execProc) dispatch() {
	defer close(p.dispatched)
	defer p.st.gate.openAll()
	s := p.sup
	for m := range p.events {
		if m.Sync > 0 && !p.st.waitPassed(m.Sync, 5*time.Second) {
			s.opt.Log.Printf("executor output: sync marker %d not seen within 5 s", m.Sync)
		}
		p.handle(m)
		if m.Sync > 0 {
			p.st.gate.release(m.Sync)
		}
	}
}

// handle acts on one event of the executor.
func (p *execProc) handle(m *ipcMsg) {
	s := p.sup
	switch m.Type {
	case "display":
		s.opt.Display(m.Data, nonNilMap(m.Metadata), m.DisplayID, m.Update)
	case "clear":
		s.opt.Clear(m.Wait)
	case "input_request":
		go p.serveInput(m)
	case "comm_open", "comm_msg", "comm_close", "comm_done":
		s.opt.Comm(m)
	case "result", "error", "complete_reply", "inspect_reply":
		p.mu.Lock()
		c := p.calls[m.ID]
		p.mu.Unlock()
		if c == nil {
			s.opt.Log.Printf("executor: %s for no pending request (%d) dropped", m.Type, m.ID)
			return
		}
		c.reply <- m
	default:
		s.opt.Log.Printf("executor: unknown message %q dropped", m.Type)
	}
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// serveInput forwards an input request to the front end and the answer
// back; the request ends with the cell that asked.
func (p *execProc) serveInput(m *ipcMsg) {
	s := p.sup
	s.mu.Lock()
	c := s.call
	s.mu.Unlock()
	reply := &ipcMsg{Type: "input_reply"}
	if c == nil || c.proc != p || !c.run {
		reply.Err = errNoStdin.Error()
	} else if v, err := s.opt.Input(c.ctx, m.Prompt, m.Password); err != nil {
		reply.Err = err.Error()
	} else {
		reply.Value = v
	}
	_ = p.conn.Send(reply)
}

// wait reaps the process, reads the rest of its output and records how it
// died.
func (p *execProc) wait() {
	err := p.cmd.Wait()
	// Processes a cell started may hold the pipes open: they go with it.
	killGroup(p.pid)
	if p.dir != "" {
		_ = os.RemoveAll(p.dir)
	}
	if !p.st.waitEOF(2 * time.Second) {
		p.sup.opt.Log.Printf("executor output did not end within 2 s of its exit")
	}
	p.conn.Close()
	select {
	case <-p.dispatched:
	case <-time.After(2 * time.Second):
	}
	trace, tail, crash := p.st.trace()
	p.killMu.Lock()
	d := &deathInfo{
		reason:  p.killReason,
		used:    p.killUsed,
		limit:   p.sup.opt.MemoryLimit,
		state:   p.cmd.ProcessState,
		waitErr: err,
		trace:   trace,
		tail:    tail,
		crash:   crash,
	}
	p.killMu.Unlock()
	p.death = d
	if !isClosed(p.ready) {
		p.readyErr = fmt.Errorf("the executor process exited during setup: %s", d.cause())
		close(p.ready)
	}
	if p.wasReady.Load() {
		// Its comms died with it; said before the request it ran ends.
		p.sup.opt.CommsLost()
	}
	close(p.done)
	p.sup.died(p)
}

// crashGrace is how long a dying executor may go on writing its trace: the
// beginning names the cause; the rest can take seconds (unwinding the
// millions of frames of a stack overflow to print the last ones).
const crashGrace = 500 * time.Millisecond

// watchCrash ends an executor that has started to write a fatal trace
// once its beginning is out.
func (p *execProc) watchCrash() {
	select {
	case <-p.st.crash.dying:
	case <-p.done:
		return
	}
	select {
	case <-time.After(crashGrace):
		killGroup(p.pid)
	case <-p.done:
	}
}

// watchRSS kills the executor when its resident memory exceeds limit.
func (p *execProc) watchRSS(limit int64) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			if rss, ok := residentBytes(p.pid); ok && rss > limit {
				p.kill(killMemory, rss)
				return
			}
		}
	}
}

// deathInfo is how an executor process ended.
type deathInfo struct {
	startErr error
	reason   killReason
	used     int64
	limit    int64
	state    *os.ProcessState
	waitErr  error
	trace    []byte // the fatal trace held back from its standard error
	tail     []byte // the end of its standard error
	crash    []byte // its crash output (debug.SetCrashOutput)
}

const lostState = "the executor was restarted; variables, functions and types from earlier cells were lost"

var (
	stackLimitRE = regexp.MustCompile(`goroutine stack exceeds (\d+)-byte limit`)
	// frameAddrRE matches the register and pointer values of a trace line,
	// which say nothing to a reader.
	frameAddrRE = regexp.MustCompile(` (?:fp|sp|pc|gp|mp)=0x[0-9a-f]+| m=\d+`)
)

// cause names what ended the process in one line.
func (d *deathInfo) cause() string {
	if d == nil {
		return "unknown"
	}
	switch d.reason {
	case killMemory:
		return fmt.Sprintf("memory limit exceeded: the cell used %s (limit %s)", humanBytes(d.used), humanBytes(d.limit))
	case killInterrupt:
		return "the cell did not stop on interrupt"
	case killShutdown:
		return "stopped at shutdown"
	}
	if d.startErr != nil {
		return d.startErr.Error()
	}
	trace := d.trace
	if len(trace) == 0 {
		trace = d.crash
	}
	lines := traceLines(trace)
	for _, l := range lines {
		if msg, ok := strings.CutPrefix(l, "fatal error: "); ok {
			if msg == "stack overflow" {
				if m := stackLimitRE.FindStringSubmatch(string(trace)); m != nil {
					return "stack overflow (goroutine stack exceeds " + m[1] + "-byte limit)"
				}
			}
			if msg == "out of memory" {
				for _, l2 := range lines {
					if r, ok := strings.CutPrefix(l2, "runtime: out of memory: "); ok {
						return "out of memory (" + r + ")"
					}
				}
			}
			return msg
		}
	}
	for i, l := range lines {
		if msg, ok := strings.CutPrefix(l, "panic: "); ok {
			msg = "unrecovered panic: " + strings.TrimSuffix(msg, " [recovered]")
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "[signal ") {
				msg += " " + lines[i+1]
			}
			return msg
		}
	}
	for _, l := range lines {
		if traceStart.MatchString(l) && !strings.HasPrefix(l, "runtime: ") {
			return l
		}
	}
	if len(d.crash) > 0 {
		return "the Go runtime stopped the executor with a fatal error"
	}
	if d.state != nil {
		if sig, ok := signalName(d.state); ok {
			if sig == "SIGKILL" {
				return "killed by SIGKILL (by the system's out-of-memory killer, or by hand)"
			}
			return "killed by " + sig
		}
		if d.state.Exited() {
			return fmt.Sprintf("the executor exited with status %d (os.Exit or syscall.Exit in code the kernel cannot intercept)", d.state.ExitCode())
		}
	}
	if d.waitErr != nil {
		return d.waitErr.Error()
	}
	return "the executor exited"
}

// cellError is the error reply of a cell whose executor died.
func (d *deathInfo) cellError() *CellError {
	switch d.reason {
	case killMemory:
		v := fmt.Sprintf("the cell used %s, more than the memory limit of %s; %s (raise the limit with neurogo install --memory-limit SIZE, or 0 for none)", humanBytes(d.used), humanBytes(d.limit), lostState)
		return &CellError{Name: "MemoryLimitExceeded", Value: v, Traceback: []string{red("MemoryLimitExceeded") + ": " + v}}
	case killInterrupt:
		v := "the cell did not stop on interrupt; " + strings.Replace(lostState, "the executor was restarted;", "the executor was restarted and", 1)
		return &CellError{Name: "Interrupted", Value: v, Traceback: []string{red("Interrupted") + ": " + v}}
	}
	v := d.cause() + " — " + lostState
	tb := []string{red("ExecutorDied") + ": " + v}
	trace := d.trace
	if len(trace) == 0 {
		trace = d.crash
	}
	if ex := traceExcerpt(trace); len(ex) > 0 {
		tb = append(tb, ex...)
	}
	return &CellError{Name: "ExecutorDied", Value: v, Traceback: tb}
}

// traceLines splits a trace into lines without their newline.
func traceLines(b []byte) []string {
	s := strings.TrimRight(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// traceExcerpt returns the relevant beginning of a fatal trace: its
// opening lines (the cause) and the first frames of the first goroutine,
// never the whole dump.
func traceExcerpt(trace []byte) []string {
	const frameLines = 16
	lines := traceLines(bytes.ToValidUTF8(trace, []byte("\uFFFD")))
	var out []string
	i := 0
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		if strings.HasPrefix(lines[i], "runtime: sp=") || strings.HasPrefix(lines[i], "runtime: gp=") {
			continue // addresses, not causes
		}
		if len(out) < 8 {
			out = append(out, lines[i])
		}
	}
	for ; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "goroutine ") && strings.HasSuffix(lines[i], ":") {
			break
		}
	}
	if i < len(lines) {
		out = append(out, "")
		for j := i; j < len(lines) && j < i+1+frameLines && strings.TrimSpace(lines[j]) != ""; j++ {
			out = append(out, frameAddrRE.ReplaceAllString(lines[j], ""))
		}
	}
	shown := 0
	for _, l := range out {
		if l != "" {
			shown++
		}
	}
	if n := len(lines) - shown; n > 0 && len(out) > 0 {
		out = append(out, fmt.Sprintf("… (%d more lines of the Go runtime's trace)", n))
	}
	return out
}

// humanBytes formats a size in binary units ("3.0 GiB").
func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// DefaultMemoryLimit is the kernel's memory limit when none is given: 75 %
// of the memory available to it (its cgroup's limit, or the machine's
// memory); 0 (no limit) when that is unknown.
func DefaultMemoryLimit() int64 {
	return memoryAvailable() / 4 * 3
}
