package kernel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	payloads := [][]byte{{}, []byte("x"), bytes.Repeat([]byte("ab"), 40<<10)} // empty, small, > 64 KiB (two writes)
	for _, p := range payloads {
		if err := writeFrame(&buf, p); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range payloads {
		got, err := readFrame(&buf)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("frame %d: %d bytes, want %d", i, len(got), len(want))
		}
	}
	if _, err := readFrame(&buf); err != io.EOF {
		t.Fatalf("after the last frame: %v, want io.EOF", err)
	}
}

func TestFrameErrors(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"half a header", []byte{0, 0}, io.ErrUnexpectedEOF},
		{"body cut short", append([]byte{0, 0, 0, 5}, "abc"...), io.ErrUnexpectedEOF},
		{"header only", []byte{0, 0, 0, 1}, io.ErrUnexpectedEOF},
		{"too large", binary.BigEndian.AppendUint32(nil, maxFrame+1), errFrameTooLarge},
	}
	for _, c := range cases {
		_, err := readFrame(bytes.NewReader(c.in))
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if err := writeFrame(io.Discard, make([]byte, maxFrame+1)); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("writing an oversized frame: %v", err)
	}
}

// TestIPCMessages sends every kind of field across a socket pair, both
// ways at once, and compares.
func TestIPCMessages(t *testing.T) {
	a, b := net.Pipe()
	ca, cb := newIPCConn(a), newIPCConn(b)
	defer ca.Close()
	defer cb.Close()
	msgs := []*ipcMsg{
		{Type: "run", ID: 1, Code: "x := 1\nx", AllowStdin: true, Silent: true, UserExpressions: map[string]string{"a": "x"}},
		{Type: "display", Sync: 7, Data: map[string]any{"text/plain": "hé", "image/png": "iVBORw0KGgo="}, Metadata: map[string]any{"image/png": map[string]any{"width": 3.0}}, DisplayID: "d1", Update: true},
		{Type: "error", ID: 2, Sync: 8, EName: "panic", EValue: "boom", Traceback: []string{"\x1b[31mpanic\x1b[0m: boom", "  in cell, cell line 2:3"}},
		{Type: "complete_reply", ID: 3, Matches: []string{"Println"}, Kinds: []string{"function"}, Start: 4, End: 7},
		{Type: "memory", Used: 3 << 30},
	}
	errc := make(chan error, 1)
	go func() {
		for _, m := range msgs {
			if err := ca.Send(m); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	for i, want := range msgs {
		got, err := cb.Recv()
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("message %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	// A peer that goes away ends Recv with an error, never a hang.
	ca.Close()
	done := make(chan error, 1)
	go func() { _, err := cb.Recv(); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Recv after the peer closed: no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Recv hangs after the peer closed")
	}
}

// recorder collects what pipe readers send, in order.
type recorder struct {
	ch chan string
}

func (r *recorder) send(name, text string) { r.ch <- name + ":" + text }

func (r *recorder) all(timeout time.Duration) string {
	var b strings.Builder
	for {
		select {
		case s := <-r.ch:
			b.WriteString(s)
		case <-time.After(timeout):
			return b.String()
		}
	}
}

func TestPipeReaderMarkersAndTraces(t *testing.T) {
	cases := []struct {
		name      string
		writes    []string // a marker is written as "<n>"
		wantSent  string
		wantTrace string // substring of the held trace ("" for none)
	}{
		{
			name:     "plain text and a marker",
			writes:   []string{"hello\n", "<1>", "after\n"},
			wantSent: "stderr:hello\nstderr:after\n",
		},
		{
			name:      "a fatal trace at the end is held back",
			writes:    []string{"before\n", "<1>", "fatal error: concurrent map writes\n\ngoroutine 7 [running]:\nmain.f()\n"},
			wantSent:  "stderr:before\n",
			wantTrace: "fatal error: concurrent map writes\n\ngoroutine 7",
		},
		{
			name:      "a trace start split across writes",
			writes:    []string{"x\n", "fatal er", "ror: stack overflow\n", "goroutine 1 [running]:\n"},
			wantSent:  "stderr:x\n",
			wantTrace: "fatal error: stack overflow",
		},
		{
			name:     "trace-like text followed by a marker was ordinary output",
			writes:   []string{"panic: not really\n", "<1>"},
			wantSent: "stderr:panic: not really\n",
		},
		{
			name:     "mid-line text is not a trace start",
			writes:   []string{"say panic: ", "no\n"},
			wantSent: "stderr:say panic: no\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, w := io.Pipe()
			rec := &recorder{ch: make(chan string, 100)}
			p := newPipeReader(r, "stderr", rec.send, true, nil)
			s := &streams{out: p, err: p}
			for _, wr := range c.writes {
				if strings.HasPrefix(wr, "<") {
					var n int
					for _, d := range wr[1 : len(wr)-1] {
						n = n*10 + int(d-'0')
					}
					wr = string(syncMarker(n))
					if _, err := w.Write([]byte(wr)); err != nil {
						t.Fatal(err)
					}
					if !s.waitPassed(n, 5*time.Second) {
						t.Fatalf("marker %d not passed", n)
					}
					continue
				}
				if _, err := w.Write([]byte(wr)); err != nil {
					t.Fatal(err)
				}
			}
			w.Close()
			if !s.waitEOF(5 * time.Second) {
				t.Fatal("no EOF")
			}
			sent := strings.ReplaceAll(rec.all(100*time.Millisecond), "stderr:stderr:", "stderr:")
			// Chunks may be split differently; compare the text.
			if strip(sent) != strip(c.wantSent) {
				t.Errorf("sent %q, want %q", sent, c.wantSent)
			}
			trace, _, _ := s.trace()
			if c.wantTrace == "" && len(trace) > 0 {
				t.Errorf("trace %q, want none", trace)
			}
			if c.wantTrace != "" && !strings.Contains(string(trace), c.wantTrace) {
				t.Errorf("trace %q lacks %q", trace, c.wantTrace)
			}
		})
	}
}

// strip removes the stream-name prefixes of a recorder's text.
func strip(s string) string { return strings.ReplaceAll(s, "stderr:", "") }

func TestPanicFilter(t *testing.T) {
	var out bytes.Buffer
	f := &panicFilter{w: &out}
	for _, w := range []string{"ordinary\n", "3:5: panic: main.f(...)\n", "x: panic: y\n", "4:1: panic: main.main(...)\n"} {
		if _, err := f.Write([]byte(w)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := out.String(), "ordinary\nx: panic: y\n"; got != want {
		t.Errorf("passed on %q, want %q", got, want)
	}
	if got := f.take(); len(got) != 2 || got[0] != "3:5: panic: main.f(...)" {
		t.Errorf("panic lines %q", got)
	}
	if got := f.take(); len(got) != 0 {
		t.Errorf("take did not clear: %q", got)
	}
}

func TestDeathCause(t *testing.T) {
	cases := []struct {
		trace string
		want  string
	}{
		{"runtime: goroutine stack exceeds 268435456-byte limit\nruntime: sp=0xc0200e0390 stack=[0xc0200e0000, 0xc0400e0000]\nfatal error: stack overflow\n\nruntime stack:\n", "stack overflow (goroutine stack exceeds 268435456-byte limit)"},
		{"fatal error: concurrent map writes\n\ngoroutine 18 [running]:\n", "concurrent map writes"},
		{"panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4]\n\ngoroutine 5 [running]:\n", "unrecovered panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4]"},
		{"panic: boom\n\ngoroutine 9 [running]:\n", "unrecovered panic: boom"},
		{"runtime: out of memory: cannot allocate 1073741824-byte block (3221225472 in use)\nfatal error: out of memory\n", "out of memory (cannot allocate 1073741824-byte block (3221225472 in use))"},
	}
	for _, c := range cases {
		d := &deathInfo{trace: []byte(c.trace)}
		if got := d.cause(); got != c.want {
			t.Errorf("cause of %q:\n got %q\nwant %q", c.trace, got, c.want)
		}
	}
	d := &deathInfo{reason: killMemory, used: 3 << 30, limit: 2 << 30}
	ce := d.cellError()
	if ce.Name != "MemoryLimitExceeded" || !strings.Contains(ce.Value, "3.0 GiB") || !strings.Contains(ce.Value, "2.0 GiB") || !strings.Contains(ce.Value, "--memory-limit") {
		t.Errorf("memory: %+v", ce)
	}
}

func TestTraceExcerptIsShort(t *testing.T) {
	var b strings.Builder
	b.WriteString("fatal error: stack overflow\n\nruntime stack:\nruntime.throw()\n\t/x/panic.go:1 +0x1 fp=0x1 sp=0x2 pc=0x3\n\ngoroutine 1 gp=0xc0 m=0 mp=0xd0 [running]:\n")
	for i := 0; i < 5000; i++ {
		b.WriteString("main.f(...)\n\t/cell.go:3 +0x1d fp=0xc sp=0xd pc=0xe\n")
	}
	b.WriteString("\ngoroutine 2 [chan receive]:\nmain.g()\n")
	ex := traceExcerpt([]byte(b.String()))
	if len(ex) > 30 {
		t.Errorf("excerpt has %d lines", len(ex))
	}
	joined := strings.Join(ex, "\n")
	for _, want := range []string{"fatal error: stack overflow", "goroutine 1 [running]:", "main.f(...)", "more lines"} {
		if !strings.Contains(joined, want) {
			t.Errorf("excerpt lacks %q:\n%s", want, joined)
		}
	}
	for _, bad := range []string{"fp=", "goroutine 2", "runtime.throw"} {
		if strings.Contains(joined, bad) {
			t.Errorf("excerpt has %q:\n%s", bad, joined)
		}
	}
}
