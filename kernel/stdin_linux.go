package kernel

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// Compiled cells read standard input through os.Stdin (bufio.Reader,
// bufio.Scanner, io.ReadAll, os.Stdin.Read, fmt.Scan…), so the executor
// gives os.Stdin the read end of a blocking pipe and watches for a thread
// blocked reading it (/proc/self/task/*/syscall shows the read system
// call and its descriptor). Then, and only then, it asks the front end
// for a line (input_request) and writes the reply into the pipe. An
// interrupt ends the read with end of file (io.ReadAll returns what it
// has); a front end that does not allow input gets the same.
type stdinPump struct {
	e      *Executor
	mu     sync.Mutex
	r, w   *os.File
	fd     int
	stop   chan struct{}
	active bool
}

func startStdinPump(e *Executor) *stdinPump {
	if readSyscallNr() < 0 {
		return nil
	}
	p := &stdinPump{e: e}
	if err := p.reset(); err != nil {
		return nil
	}
	return p
}

func readSyscallNr() int {
	switch runtime.GOARCH {
	case "amd64":
		return 0
	case "arm64":
		return 63
	}
	return -1
}

// reset gives os.Stdin a fresh pipe.
func (p *stdinPump) reset() error {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w != nil {
		p.w.Close()
	}
	// A blocking read end: a reader then waits in read(2), where
	// /proc shows it (a non-blocking one would wait in the poller).
	p.r = os.NewFile(uintptr(fds[0]), "/dev/stdin")
	p.w = os.NewFile(uintptr(fds[1]), "stdin-pump")
	p.fd = fds[0]
	os.Stdin = p.r
	return nil
}

// run watches for readers while a cell runs; the returned function stops
// it. On interrupt (ctxDone closed) a waiting reader gets end of file.
func (p *stdinPump) run(ctxDone <-chan struct{}) func() {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctxDone:
				p.eof()
				return
			case <-t.C:
			}
			if !p.waiting() {
				continue
			}
			buf := make([]byte, 64<<10)
			n, err := p.e.opt.Stdin.Read(buf)
			if err != nil || n == 0 {
				p.eof()
				return
			}
			p.mu.Lock()
			w := p.w
			p.mu.Unlock()
			w.Write(buf[:n])
		}
	}()
	return func() {
		close(stop)
		<-done
	}
}

// eof closes the pipe's write end (the reader sees end of file) and gives
// os.Stdin a new pipe for later cells.
func (p *stdinPump) eof() {
	p.mu.Lock()
	w := p.w
	p.w = nil
	p.mu.Unlock()
	if w != nil {
		w.Close()
	}
	// The old read end stays with whoever holds it (a bufio.Reader made
	// in an earlier cell reads end of file from now on).
	p.reset()
}

// waiting reports whether a thread of the process is blocked in read(2)
// on the pipe's read end.
func (p *stdinPump) waiting() bool {
	p.mu.Lock()
	fd := p.fd
	p.mu.Unlock()
	want := []byte(fmt.Sprintf("%d 0x%x ", readSyscallNr(), fd))
	tasks, _ := filepath.Glob("/proc/self/task/*/syscall")
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if bytes.HasPrefix(b, want) {
			return true
		}
	}
	return false
}
