package kernel

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// streams carries an executor process's standard output and error to the
// front end.
//
// The executor's file descriptors 1 and 2 are pipes that the kernel reads,
// so output of interpreted and compiled code, of goroutines a cell started
// and of the Go runtime itself is captured alike. Output is sent in chunks
// at most every flushEvery, and at once when a sync marker arrives: before
// an event that must follow the output written so far (a display, an
// input request, the cell's result), the executor writes marker n into both
// pipes and tags the event with n; the kernel acts on the event once both
// readers have passed marker n (waitPassed), by which time everything
// written before the marker has been sent.
//
// Standard error is watched for the start of a fatal runtime trace ("fatal
// error: …", "panic: …", "runtime: …", "SIGSEGV: …" at the start of a
// line). From there on its text is held back: if the process dies, the held
// text is the trace that names the cause (trace), never shown as output; if
// a marker arrives or holdMax passes while the process lives, it was
// ordinary output and is sent.
type streams struct {
	out, err *pipeReader
	gate     *gate
	crash    *crashReader
}

// crashReader reads the executor's crash output (debug.SetCrashOutput):
// the Go runtime writes there only while the process dies of a fatal error
// or an unrecovered panic, so its first byte is a sure sign of death.
type crashReader struct {
	mu     sync.Mutex
	text   []byte
	dying  chan struct{} // closed at the first byte
	done   chan struct{}
	closed bool
}

func newCrashReader(f io.ReadCloser) *crashReader {
	c := &crashReader{dying: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer f.Close()
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				c.mu.Lock()
				if !c.closed {
					close(c.dying)
					c.closed = true
				}
				if room := traceHead - len(c.text); room > 0 {
					c.text = append(c.text, buf[:min(n, room)]...)
				}
				c.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

// isDying reports whether the runtime has started writing a crash.
func (c *crashReader) isDying() bool { return c != nil && isClosed(c.dying) }

func (c *crashReader) output() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte{}, c.text...)
}

// gate holds both pipe readers at marker n until the kernel has acted on
// event n (release), so that output written after a display call or an
// input request is not sent before it.
type gate struct {
	mu       sync.Mutex
	released int
	open     bool // the process ended: nothing waits any more
	waiters  []markerWaiter
}

// wait waits until event seq was released, at most timeout.
func (g *gate) wait(seq int, timeout time.Duration) {
	if g == nil {
		return
	}
	g.mu.Lock()
	if g.open || g.released >= seq {
		g.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	g.waiters = append(g.waiters, markerWaiter{seq, ch})
	g.mu.Unlock()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// release lets the readers go on past marker seq.
func (g *gate) release(seq int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if seq > g.released {
		g.released = seq
	}
	kept := g.waiters[:0]
	for _, w := range g.waiters {
		if w.seq <= g.released {
			close(w.ch)
		} else {
			kept = append(kept, w)
		}
	}
	g.waiters = kept
}

// openAll releases every marker, now and later.
func (g *gate) openAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open = true
	for _, w := range g.waiters {
		close(w.ch)
	}
	g.waiters = nil
}

const (
	flushEvery = 50 * time.Millisecond
	holdMax    = 2 * time.Second
	// traceHead and traceTail bound the held trace: its beginning names
	// the cause and the failing goroutine, its end is kept for the log.
	traceHead = 64 << 10
	traceTail = 16 << 10
	// tailSize is how much of standard error is kept for a death report.
	tailSize = 8 << 10
)

var markerPrefix = []byte("\x00\x1bNGSYNC:")

// syncMarker is the marker with sequence number seq.
func syncMarker(seq int) []byte {
	return append(append(append([]byte{}, markerPrefix...), strconv.Itoa(seq)...), 0)
}

// panicLine matches the position lines yaegi prints to stderr when a panic
// unwinds an interpreted frame ("3:5: panic: main.f(...)"). The executor's
// panicFilter collects them for the traceback instead of passing them on.
var panicLine = regexp.MustCompile(`^(\d+):(\d+): panic: (.*)\(\.\.\.\)\n$`)

// traceStart matches a line that starts a fatal trace of the Go runtime.
var traceStart = regexp.MustCompile(`^(?:fatal error: |panic: |fatal: |runtime: |unexpected fault address|SIG[A-Z]+: )`)

// tracePrefixes are the literal beginnings of traceStart, to recognise an
// incomplete line that may still become one.
var tracePrefixes = []string{"fatal error: ", "panic: ", "fatal: ", "runtime: ", "unexpected fault address"}

// newStreams creates the pipes for one executor process: the write ends
// are its file descriptors 1 and 2 and its crash output (the caller closes
// its copies after starting the process); send receives the output.
func newStreams(send func(name, text string)) (s *streams, outW, errW, crashW *os.File, err error) {
	var rs, ws []*os.File
	for range 3 {
		r, w, err := os.Pipe()
		if err != nil {
			for i := range rs {
				rs[i].Close()
				ws[i].Close()
			}
			return nil, nil, nil, nil, err
		}
		rs, ws = append(rs, r), append(ws, w)
	}
	g := &gate{}
	s = &streams{gate: g, crash: newCrashReader(rs[2])}
	s.out = newPipeReader(rs[0], "stdout", send, false, g)
	s.err = newPipeReader(rs[1], "stderr", send, true, g)
	s.err.dying = s.crash.isDying
	return s, ws[0], ws[1], ws[2], nil
}

// waitPassed waits until both readers have passed marker seq (or reached
// the end of their pipe), at most timeout. It reports whether they did.
func (s *streams) waitPassed(seq int, timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for _, p := range []*pipeReader{s.out, s.err} {
		select {
		case <-p.passedCh(seq):
		case <-t.C:
			return false
		}
	}
	return true
}

// waitEOF waits until both pipes are closed and read to the end, at most
// timeout.
func (s *streams) waitEOF(timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for _, p := range []*pipeReader{s.out, s.err} {
		select {
		case <-p.done:
		case <-t.C:
			return false
		}
	}
	return true
}

// trace returns the fatal trace held back from standard error (nil if
// none), the last bytes of standard error, and the crash output.
func (s *streams) trace() (trace, tail, crash []byte) {
	if s.crash != nil {
		crash = s.crash.output()
	}
	p := s.err
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holding {
		trace = append(append([]byte{}, p.hold...), p.holdEnd...)
		if p.holdDropped > 0 {
			trace = append(append(append([]byte{}, p.hold...), "\n…\n"...), p.holdEnd...)
		}
	}
	return trace, append([]byte{}, p.tail...), crash
}

type pipeReader struct {
	name   string
	send   func(name, text string)
	traces bool        // watch for fatal runtime traces (stderr)
	gate   *gate       // nil: markers do not wait
	dying  func() bool // the process is dying: held text is its trace

	mu      sync.Mutex
	buf     []byte // output waiting to be sent
	partial []byte // an incomplete line that may start a trace
	midLine bool   // the next byte does not start a line
	passed  int    // the highest marker read
	eof     bool
	waiters []markerWaiter
	// hold is the beginning of a suspected trace, holdEnd its last
	// traceTail bytes once it outgrew traceHead (holdDropped bytes between).
	holding     bool
	hold        []byte
	holdEnd     []byte
	holdDropped int
	holdGen     int // counts holds, so that a stale timer does nothing
	tail        []byte
	kick        chan struct{}
	done        chan struct{} // closed at the end of the pipe, after the last send
}

type markerWaiter struct {
	seq int
	ch  chan struct{}
}

func newPipeReader(f io.ReadCloser, name string, send func(name, text string), traces bool, g *gate) *pipeReader {
	p := &pipeReader{name: name, send: send, traces: traces, gate: g, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go p.flushLoop()
	go p.readLoop(f)
	return p
}

// passedCh returns a channel closed once marker seq was read (or the pipe
// ended).
func (p *pipeReader) passedCh(seq int) <-chan struct{} {
	ch := make(chan struct{})
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.passed >= seq || p.eof {
		close(ch)
		return ch
	}
	p.waiters = append(p.waiters, markerWaiter{seq, ch})
	return ch
}

func (p *pipeReader) readLoop(f io.ReadCloser) {
	defer f.Close()
	chunk := make([]byte, 64<<10)
	var pending []byte
	for {
		n, err := f.Read(chunk)
		if n > 0 {
			pending = append(pending, chunk[:n]...)
			pending = p.consume(pending)
		}
		if err != nil {
			break
		}
	}
	// The end: a held trace stays held (the process died with it); the
	// rest goes out.
	p.mu.Lock()
	p.addText(pending)
	if !p.holding {
		p.buf = append(p.buf, p.partial...)
		p.partial = nil
	}
	p.mu.Unlock()
	p.flush(true)
	p.mu.Lock()
	p.eof = true
	for _, w := range p.waiters {
		close(w.ch)
	}
	p.waiters = nil
	p.mu.Unlock()
	close(p.kick)
	close(p.done)
}

// consume handles the markers in pending and queues the text around them;
// it returns what must stay pending (a possibly incomplete marker).
func (p *pipeReader) consume(pending []byte) []byte {
	for {
		i := bytes.Index(pending, markerPrefix)
		if i < 0 {
			break
		}
		end := bytes.IndexByte(pending[i+len(markerPrefix):], 0)
		if end < 0 {
			p.text(pending[:i])
			return append([]byte{}, pending[i:]...)
		}
		seq, _ := strconv.Atoi(string(pending[i+len(markerPrefix) : i+len(markerPrefix)+end]))
		p.mu.Lock()
		p.addText(pending[:i])
		// A marker: the process is alive and everything before it is
		// ordinary output, held text included.
		p.release()
		p.mu.Unlock()
		p.flush(true)
		p.mu.Lock()
		if seq > p.passed {
			p.passed = seq
		}
		kept := p.waiters[:0]
		for _, w := range p.waiters {
			if w.seq <= p.passed {
				close(w.ch)
			} else {
				kept = append(kept, w)
			}
		}
		p.waiters = kept
		p.mu.Unlock()
		// What follows the marker waits until the kernel has acted on
		// the event it precedes.
		p.gate.wait(seq, 5*time.Second)
		pending = pending[i+len(markerPrefix)+end+1:]
	}
	// Keep a suffix that could be the start of a marker.
	keep := 0
	for k := min(len(markerPrefix)-1, len(pending)); k > 0; k-- {
		if bytes.HasPrefix(markerPrefix, pending[len(pending)-k:]) {
			keep = k
			break
		}
	}
	p.text(pending[:len(pending)-keep])
	return append([]byte{}, pending[len(pending)-keep:]...)
}

// text queues output and wakes the flusher.
func (p *pipeReader) text(b []byte) {
	if len(b) == 0 {
		return
	}
	p.mu.Lock()
	p.addText(b)
	big := len(p.buf) > 32<<10
	p.mu.Unlock()
	if big {
		p.flush(false)
		return
	}
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// addText queues b (p.mu held): into the send buffer, or, on standard
// error from the start of a trace on, into the hold.
func (p *pipeReader) addText(b []byte) {
	if len(b) == 0 {
		return
	}
	p.tail = append(p.tail, b...)
	if len(p.tail) > tailSize {
		p.tail = append([]byte{}, p.tail[len(p.tail)-tailSize:]...)
	}
	if !p.traces {
		p.buf = append(p.buf, b...)
		return
	}
	if len(p.partial) > 0 {
		b = append(p.partial, b...)
		p.partial = nil
	}
	for len(b) > 0 {
		if p.holding {
			p.holdAppend(b)
			return
		}
		i := bytes.IndexByte(b, '\n')
		line := b
		if i >= 0 {
			line = b[:i+1]
		}
		if !p.midLine {
			if traceStart.Match(line) {
				p.holding = true
				p.holdGen++
				gen := p.holdGen
				time.AfterFunc(holdMax, func() { p.releaseStale(gen) })
				continue
			}
			if i < 0 && maybeTraceStart(line) {
				p.partial = append([]byte{}, line...)
				return
			}
		}
		p.buf = append(p.buf, line...)
		p.midLine = i < 0
		b = b[len(line):]
	}
}

// maybeTraceStart reports whether an incomplete line could still become
// the start of a trace.
func maybeTraceStart(line []byte) bool {
	s := string(line)
	for _, pre := range tracePrefixes {
		if len(s) < len(pre) && pre[:len(s)] == s {
			return true
		}
	}
	if strings.HasPrefix("SIG", s) {
		return true
	}
	if !strings.HasPrefix(s, "SIG") {
		return false
	}
	for _, r := range strings.TrimSuffix(s[3:], ":") {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

func (p *pipeReader) holdAppend(b []byte) {
	if room := traceHead - len(p.hold); room > 0 {
		n := min(room, len(b))
		p.hold = append(p.hold, b[:n]...)
		b = b[n:]
	}
	if len(b) == 0 {
		return
	}
	p.holdEnd = append(p.holdEnd, b...)
	if over := len(p.holdEnd) - traceTail; over > 0 {
		p.holdDropped += over
		p.holdEnd = append([]byte{}, p.holdEnd[over:]...)
	}
}

// release moves held text and an incomplete line to the send buffer
// (p.mu held).
func (p *pipeReader) release() {
	if p.holding {
		p.buf = append(p.buf, p.hold...)
		if p.holdDropped > 0 {
			p.buf = append(p.buf, "\n…\n"...)
		}
		p.buf = append(p.buf, p.holdEnd...)
		p.holding, p.hold, p.holdEnd, p.holdDropped = false, nil, nil, 0
		p.midLine = len(p.buf) > 0 && p.buf[len(p.buf)-1] != '\n'
	}
	if len(p.partial) > 0 {
		p.buf = append(p.buf, p.partial...)
		p.partial = nil
		p.midLine = true
	}
}

// releaseStale sends text held for holdMax while the process lived on.
func (p *pipeReader) releaseStale(gen int) {
	p.mu.Lock()
	if p.eof || !p.holding || p.holdGen != gen || p.dying != nil && p.dying() {
		p.mu.Unlock()
		return
	}
	p.release()
	p.mu.Unlock()
	p.flush(true)
}

func (p *pipeReader) flushLoop() {
	for range p.kick {
		time.Sleep(flushEvery)
		p.mu.Lock()
		// An incomplete line that might start a trace waits one period
		// for the rest of its line, no longer.
		if len(p.partial) > 0 {
			p.buf = append(p.buf, p.partial...)
			p.partial = nil
			p.midLine = true
		}
		p.mu.Unlock()
		p.flush(false)
	}
}

// flush sends the buffered text. Unless all is true it holds back an
// incomplete UTF-8 sequence.
func (p *pipeReader) flush(all bool) {
	p.mu.Lock()
	b := p.buf
	cut := len(b)
	if !all {
		cut = utf8Boundary(b)
	}
	text := b[:cut]
	p.buf = append([]byte{}, b[cut:]...)
	if len(text) > 0 {
		// Sent under the lock: two flushes must not reorder their text.
		p.send(p.name, string(bytes.ToValidUTF8(text, []byte("\uFFFD"))))
	}
	p.mu.Unlock()
}

// utf8Boundary returns the length of the longest prefix of b that does not
// end inside a UTF-8 sequence.
func utf8Boundary(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// panicFilter is the interpreter's standard error inside the executor: it
// keeps yaegi's panic position lines (panicLine) for the traceback and
// passes everything else on to w (file descriptor 2) in the same write.
type panicFilter struct {
	w     io.Writer
	mu    sync.Mutex
	lines []string
}

func (f *panicFilter) Write(b []byte) (int, error) {
	if !bytes.Contains(b, []byte(": panic: ")) {
		return f.w.Write(b)
	}
	var out []byte
	rest := b
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		line := rest
		if i >= 0 {
			line = rest[:i+1]
		}
		if panicLine.Match(line) {
			f.mu.Lock()
			f.lines = append(f.lines, string(bytes.TrimSuffix(line, []byte("\n"))))
			f.mu.Unlock()
		} else {
			out = append(out, line...)
		}
		rest = rest[len(line):]
	}
	if len(out) > 0 {
		if _, err := f.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// take returns and clears the panic position lines seen so far.
func (f *panicFilter) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.lines
	f.lines = nil
	return out
}
