package kernel

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// streams carries a cell's standard output and error to the front end.
//
// Both go through OS pipes, so that output of compiled code (a toolkit
// function printing with fmt.Println) and of goroutines a cell started is
// captured too, not only fmt calls the interpreter sees. When the kernel
// runs as its own process it also points file descriptors 1 and 2 at the
// pipes. Output is sent in chunks at most every flushEvery, and at once
// when the kernel synchronises (end of a cell, before a display, before an
// input request) by writing a marker into each pipe and waiting until the
// reader has passed it: everything written before the marker is then out.
type streams struct {
	stdout, stderr *os.File // write ends handed to cells
	out, err       *pipeReader
	seq            int
	mu             sync.Mutex
	restore        func()
}

const flushEvery = 50 * time.Millisecond

var markerPrefix = []byte("\x00\x1bNGSYNC:")

// panicLine matches the position lines yaegi prints to stderr when a panic
// unwinds an interpreted frame ("3:5: panic: main.f(...)"). They are
// collected for the traceback instead of being shown as output.
var panicLine = regexp.MustCompile(`^(\d+):(\d+): panic: (.*)\(\.\.\.\)\n$`)

func newStreams(capture bool, send func(name, text string)) (*streams, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	s := &streams{stdout: outW, stderr: errW, restore: func() {}}
	if capture {
		restore, err := redirectFDs(outW, errW)
		if err != nil {
			return nil, err
		}
		s.restore = restore
	}
	s.out = newPipeReader(outR, "stdout", send, false)
	s.err = newPipeReader(errR, "stderr", send, true)
	return s, nil
}

// sync returns once everything written to the pipes so far has been sent.
func (s *streams) sync() {
	s.mu.Lock()
	s.seq++
	seq := s.seq
	s.mu.Unlock()
	marker := append(append([]byte{}, markerPrefix...), []byte(strconv.Itoa(seq)+"\x00")...)
	wo := s.out.expect(seq)
	we := s.err.expect(seq)
	_, e1 := s.stdout.Write(marker)
	_, e2 := s.stderr.Write(marker)
	timeout := time.After(5 * time.Second)
	if e1 == nil {
		select {
		case <-wo:
		case <-timeout:
		}
	}
	if e2 == nil {
		select {
		case <-we:
		case <-timeout:
		}
	}
}

// takePanicLines returns and clears the yaegi panic positions seen on stderr.
func (s *streams) takePanicLines() []string { return s.err.takePanics() }

func (s *streams) close() {
	s.restore()
}

type pipeReader struct {
	name   string
	send   func(name, text string)
	filter bool

	mu      sync.Mutex
	buf     []byte // output waiting to be sent
	waiters map[int]chan struct{}
	panics  []string
	kick    chan struct{}
}

func newPipeReader(f *os.File, name string, send func(name, text string), filterPanics bool) *pipeReader {
	p := &pipeReader{name: name, send: send, filter: filterPanics, waiters: map[int]chan struct{}{}, kick: make(chan struct{}, 1)}
	go p.readLoop(f)
	go p.flushLoop()
	return p
}

func (p *pipeReader) expect(seq int) <-chan struct{} {
	ch := make(chan struct{})
	p.mu.Lock()
	p.waiters[seq] = ch
	p.mu.Unlock()
	return ch
}

func (p *pipeReader) takePanics() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.panics
	p.panics = nil
	return out
}

func (p *pipeReader) readLoop(f *os.File) {
	chunk := make([]byte, 64<<10)
	var pending []byte
	for {
		n, err := f.Read(chunk)
		if n > 0 {
			pending = append(pending, chunk[:n]...)
			pending = p.consume(pending)
		}
		if err != nil {
			return
		}
	}
}

// consume moves data from pending to the send buffer, handling markers, and
// returns what must stay pending (a possibly incomplete marker).
func (p *pipeReader) consume(pending []byte) []byte {
	for {
		i := bytes.Index(pending, markerPrefix)
		if i < 0 {
			break
		}
		end := bytes.IndexByte(pending[i+len(markerPrefix):], 0)
		if end < 0 {
			p.add(pending[:i], false)
			return append([]byte{}, pending[i:]...)
		}
		seq, _ := strconv.Atoi(string(pending[i+len(markerPrefix) : i+len(markerPrefix)+end]))
		p.add(pending[:i], true)
		p.flush(true)
		p.mu.Lock()
		if ch, ok := p.waiters[seq]; ok {
			close(ch)
			delete(p.waiters, seq)
		}
		p.mu.Unlock()
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
	p.add(pending[:len(pending)-keep], false)
	return append([]byte{}, pending[len(pending)-keep:]...)
}

func (p *pipeReader) add(b []byte, _ bool) {
	if len(b) == 0 {
		return
	}
	p.mu.Lock()
	p.buf = append(p.buf, b...)
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

func (p *pipeReader) flushLoop() {
	for range p.kick {
		time.Sleep(flushEvery)
		p.flush(false)
	}
}

// flush sends the buffered text. Unless all is true it holds back an
// incomplete UTF-8 sequence and, on stderr, an incomplete line that could
// be a panic position line.
func (p *pipeReader) flush(all bool) {
	p.mu.Lock()
	b := p.buf
	cut := len(b)
	if !all {
		cut = utf8Boundary(b)
	}
	text := b[:cut]
	p.buf = append([]byte{}, b[cut:]...)
	if p.filter && len(text) > 0 {
		text = p.extractPanics(text)
	}
	p.mu.Unlock()
	if len(text) > 0 {
		p.send(p.name, string(bytes.ToValidUTF8(text, []byte("\uFFFD"))))
	}
}

// extractPanics removes yaegi panic position lines from text (called with
// p.mu held).
func (p *pipeReader) extractPanics(text []byte) []byte {
	if !bytes.Contains(text, []byte(": panic: ")) {
		return text
	}
	var out []byte
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		line := text
		if i >= 0 {
			line = text[:i+1]
		}
		if panicLine.Match(line) {
			p.panics = append(p.panics, string(bytes.TrimSuffix(line, []byte("\n"))))
		} else {
			out = append(out, line...)
		}
		text = text[len(line):]
	}
	return out
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
