package kernel

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"sync"
)

// bridge carries what compiled cells write to os.Stdout or os.Stderr into
// an io.Writer that is not a file (the headless notebook runner's output
// collector, a test's buffer). Compiled code writes to the *os.File in the
// os package's variable, so the executor points that variable at the
// bridge's pipe while a cell runs and flushes before the cell's result.
type bridge struct {
	w  io.Writer
	pr *os.File
	pw *os.File

	mu      sync.Mutex
	seq     int
	waiters map[int]chan struct{}
}

var flushMark = []byte("\x00\x1bNGFLUSH:")

func newBridge(w io.Writer) (*bridge, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	b := &bridge{w: w, pr: pr, pw: pw, waiters: map[int]chan struct{}{}}
	go b.copy()
	return b, nil
}

func (b *bridge) copy() {
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := b.pr.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.Index(pending, flushMark)
			if i < 0 {
				break
			}
			end := bytes.IndexByte(pending[i+len(flushMark):], 0)
			if end < 0 {
				break
			}
			if i > 0 {
				b.w.Write(pending[:i])
			}
			seq, _ := strconv.Atoi(string(pending[i+len(flushMark) : i+len(flushMark)+end]))
			pending = pending[i+len(flushMark)+end+1:]
			b.mu.Lock()
			if ch, ok := b.waiters[seq]; ok {
				close(ch)
				delete(b.waiters, seq)
			}
			b.mu.Unlock()
		}
		// Keep a possible partial marker; write the rest.
		keep := 0
		for k := 1; k < len(flushMark) && k <= len(pending); k++ {
			if bytes.HasSuffix(pending, flushMark[:k]) {
				keep = k
			}
		}
		if j := bytes.LastIndex(pending, flushMark); j >= 0 {
			keep = len(pending) - j
		}
		if len(pending)-keep > 0 {
			b.w.Write(pending[:len(pending)-keep])
			pending = pending[len(pending)-keep:]
		}
		if err != nil {
			return
		}
	}
}

// flush returns once everything written to the pipe so far has reached w.
func (b *bridge) flush() {
	b.mu.Lock()
	b.seq++
	seq := b.seq
	ch := make(chan struct{})
	b.waiters[seq] = ch
	b.mu.Unlock()
	mark := append(append([]byte{}, flushMark...), []byte(strconv.Itoa(seq)+"\x00")...)
	if _, err := b.pw.Write(mark); err != nil {
		return
	}
	<-ch
}

// redirectStd points os.Stdout and os.Stderr at bridges for writers that
// are not files, and returns the function that flushes and restores them.
func (e *Executor) redirectStd() func() {
	var restore []func()
	for _, x := range []struct {
		dst *io.Writer
		v   **os.File
		br  **bridge
	}{{&e.opt.Stdout, &os.Stdout, &e.outBridge}, {&e.opt.Stderr, &os.Stderr, &e.errBridge}} {
		if f, ok := (*x.dst).(*os.File); ok && f == *x.v {
			continue
		}
		if *x.br == nil {
			br, err := newBridge(*x.dst)
			if err != nil {
				continue
			}
			*x.br = br
		}
		old := *x.v
		*x.v = (*x.br).pw
		br := *x.br
		v := x.v
		restore = append(restore, func() {
			br.flush()
			*v = old
		})
	}
	return func() {
		for _, f := range restore {
			f()
		}
	}
}

// flushStd makes everything compiled cells wrote to os.Stdout and
// os.Stderr so far reach the executor's writers (before a display, which
// must come after the text printed before it).
func (e *Executor) flushStd() {
	for _, b := range []*bridge{e.outBridge, e.errBridge} {
		if b != nil {
			b.flush()
		}
	}
}
