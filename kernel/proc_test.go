package kernel

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMain lets the test binary serve as the executor process: the
// supervisor re-executes this binary (os.Executable) with NEUROGO_EXECUTOR=1
// and the arguments "executor" ….
func TestMain(m *testing.M) {
	if IsExecutorProcess() {
		os.Exit(ServeExecutor(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// events records what a supervisor hands to the kernel, in order.
type events struct {
	mu  sync.Mutex
	log []string
}

func (e *events) add(s string) {
	e.mu.Lock()
	e.log = append(e.log, s)
	e.mu.Unlock()
}

func (e *events) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return strings.Join(e.log, "|")
}

func (e *events) reset() {
	e.mu.Lock()
	e.log = nil
	e.mu.Unlock()
}

// newTestSupervisor starts an executor (this test binary) with the
// interpreter running cells (the compiled path's toolchain builds are slow
// and tested in package native).
func newTestSupervisor(t *testing.T, memLimit int64) (*supervisor, *events) {
	t.Helper()
	return newTestSupervisorCells(t, memLimit, "interpreted")
}

// newTestSupervisorCells starts a supervisor whose executors run cells
// the given way ("interpreted" or "compiled").
func newTestSupervisorCells(t *testing.T, memLimit int64, cells string) (*supervisor, *events) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts executor processes")
	}
	t.Setenv("NEUROGO_CELLS", cells)
	ev := &events{}
	var logb syncBuffer
	s := newSupervisor(supervisorOptions{
		MemoryLimit: memLimit,
		Log:         newTestLogger(&logb),
		Stream:      func(name, text string) { ev.add(name + ":" + text) },
		Display: func(data, md map[string]any, id string, update bool) {
			ev.add(fmt.Sprintf("display:%v", data["text/markdown"]))
		},
		Clear: func(bool) { ev.add("clear") },
		Input: func(ctx context.Context, prompt string, pw bool) (string, error) {
			ev.add("input:" + prompt)
			return "typed", nil
		},
	})
	s.start()
	t.Cleanup(func() {
		s.close()
		if t.Failed() {
			t.Logf("supervisor log:\n%s", logb.String())
		}
	})
	if err := s.ready(); err != nil {
		t.Fatal(err)
	}
	return s, ev
}

func mustRun(t *testing.T, s *supervisor, code string) runResult {
	t.Helper()
	r := s.run(runRequest{Code: code, AllowStdin: true})
	if r.Err != nil {
		t.Fatalf("%q: %s: %s\n%s", code, r.Err.Name, r.Err.Value, strings.Join(r.Err.Traceback, "\n"))
	}
	return r
}

func text(r runResult) string {
	s, _ := r.Data["text/plain"].(string)
	return s
}

// TestSupervisorOrder checks that output, display calls, input requests
// and the result arrive in the order the cell made them, across the
// process boundary.
func TestSupervisorOrder(t *testing.T) {
	s, ev := newTestSupervisor(t, 0)
	mustRun(t, s, "import (\n\t\"fmt\"\n\t\"os\"\n\t\"github.com/neurogo/neurogo/display\"\n)")
	for i := 0; i < 3; i++ {
		ev.reset()
		r := mustRun(t, s, `fmt.Println("a")
fmt.Fprintln(os.Stderr, "b")
display.Display(display.Markdown("m"))
fmt.Println("c")
var line string
fmt.Scanln(&line)
fmt.Println("got", line)
40 + 2`)
		// stdout and stderr are two pipes, ordered with respect to each
		// other only at display calls, input requests and the result.
		var seq []string
		errAt, displayAt := -1, -1
		for _, e := range strings.Split(ev.String(), "|") {
			if strings.HasPrefix(e, "stderr:") {
				errAt = len(seq)
				continue
			}
			if e == "display:m" {
				displayAt = len(seq)
			}
			seq = append(seq, e)
		}
		if got, want := strings.Join(seq, "|"), "stdout:a\n|display:m|stdout:c\n|input:|stdout:got typed\n"; got != want {
			t.Fatalf("run %d: events %q, want %q", i, got, want)
		}
		if errAt < 0 || errAt > displayAt {
			t.Fatalf("run %d: stderr not before the display: %q", i, ev.String())
		}
		if text(r) != "42" {
			t.Fatalf("result %q", text(r))
		}
	}
}

func TestSupervisorStateCompleteInspect(t *testing.T) {
	s, _ := newTestSupervisor(t, 0)
	mustRun(t, s, "import \"fmt\"\nmyVariable := 41")
	if got := text(mustRun(t, s, "myVariable + 1")); got != "42" {
		t.Fatalf("state: %q", got)
	}
	c := s.complete("x := myVa", 9)
	if !contains(c.Matches, "myVariable") {
		t.Errorf("completion %v", c.Matches)
	}
	if doc, ok := s.inspect("fmt.Println", 8, 0); !ok || !strings.Contains(doc, "func Println") {
		t.Errorf("inspect: %v %q", ok, doc)
	}
	r := s.run(runRequest{Code: "x := 1\n\ny := x +"})
	if r.Err == nil || r.Err.Name != "CompileError" || !strings.HasPrefix(r.Err.Value, "3:") {
		t.Errorf("compile error: %+v", r.Err)
	}
}

// crash runs a cell that kills the executor and checks the error names
// the cause, comes within bound, and that the next cell runs in a fresh
// executor.
func crash(t *testing.T, s *supervisor, ev *events, code, wantName, wantCause string, bound time.Duration) {
	t.Helper()
	mustRun(t, s, "ngBefore := 7")
	ev.reset()
	start := time.Now()
	r := s.run(runRequest{Code: code})
	took := time.Since(start)
	if r.Err == nil {
		t.Fatalf("%q: no error", code)
	}
	if r.Err.Name != wantName || !strings.Contains(r.Err.Value, wantCause) {
		t.Fatalf("%q: %s: %s, want %s containing %q", code, r.Err.Name, r.Err.Value, wantName, wantCause)
	}
	if !strings.Contains(r.Err.Value, "variables") {
		t.Errorf("the error does not say that variables were lost: %q", r.Err.Value)
	}
	if took > bound {
		t.Errorf("%q: the error took %v (bound %v)", code, took, bound)
	}
	if out := ev.String(); strings.Contains(out, "goroutine ") {
		t.Errorf("the runtime's trace was sent as output: %.500q", out)
	}
	if len(r.Err.Traceback) > 40 {
		t.Errorf("traceback of %d lines", len(r.Err.Traceback))
	}
	if r := s.run(runRequest{Code: "ngBefore"}); r.Err == nil {
		t.Errorf("a variable survived the executor's death")
	}
	if got := text(mustRun(t, s, "1+1")); got != "2" {
		t.Errorf("after the restart: 1+1 = %q", got)
	}
}

func TestSupervisorCrashes(t *testing.T) {
	t.Setenv(maxStackEnv, fmt.Sprint(32<<20)) // a quick overflow
	s, ev := newTestSupervisor(t, 0)
	cases := []struct {
		name, code, ename, cause string
	}{
		{"exit", "import \"syscall\"\nsyscall.Exit(3)", "ExecutorDied", "exited with status 3"},
		{"stack overflow", "func ngF(n int) int { return ngF(n+1) + 1 }\nngF(0)", "ExecutorDied", "stack overflow (goroutine stack exceeds 33554432-byte limit)"},
		{"concurrent map writes", "import \"time\"\nngM := map[int]int{}\nfor i := 0; i < 2; i++ {\n\tgo func() {\n\t\tfor j := 0; ; j++ {\n\t\t\tngM[j] = j\n\t\t}\n\t}()\n}\ntime.Sleep(10 * time.Second)", "ExecutorDied", "concurrent map writes"},
		{"goroutine nil dereference", "import (\n\t\"strings\"\n\t\"time\"\n)\ntime.AfterFunc(0, func() {\n\tvar b *strings.Builder\n\tb.Len()\n})\ntime.Sleep(10 * time.Second)", "ExecutorDied", "nil pointer dereference"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { crash(t, s, ev, c.code, c.ename, c.cause, 5*time.Second) })
	}
}

func TestSupervisorMemoryLimit(t *testing.T) {
	s, ev := newTestSupervisor(t, 512<<20)
	crash(t, s, ev, "var ngS [][]byte\nfor {\n\tngS = append(ngS, make([]byte, 1<<26))\n}", "MemoryLimitExceeded", "limit of 512 MiB", 5*time.Second)
}

func TestSupervisorInterrupt(t *testing.T) {
	s, _ := newTestSupervisor(t, 0)
	mustRun(t, s, "import \"sync\"\nngKeep := 5")

	// The interpreter stops at the first interrupt and keeps state.
	done := make(chan runResult)
	go func() { done <- s.run(runRequest{Code: "for {\n}"}) }()
	time.Sleep(300 * time.Millisecond)
	s.interrupt()
	select {
	case r := <-done:
		if r.Err == nil || r.Err.Name != "Interrupted" || strings.Contains(r.Err.Value, "restarted") {
			t.Fatalf("for {}: %+v", r.Err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("for {} did not stop on interrupt")
	}
	if got := text(mustRun(t, s, "ngKeep")); got != "5" {
		t.Fatalf("state after interrupt: %q", got)
	}

	// A cell blocked in compiled code does not stop: the kernel does not
	// report it stopped; the second interrupt restarts the executor.
	go func() { done <- s.run(runRequest{Code: "var ngWG sync.WaitGroup\nngWG.Add(1)\nngWG.Wait()"}) }()
	time.Sleep(300 * time.Millisecond)
	s.interrupt()
	select {
	case r := <-done:
		t.Fatalf("reported after the first interrupt while the cell still ran: %+v", r.Err)
	case <-time.After(time.Second):
	}
	start := time.Now()
	s.interrupt()
	select {
	case r := <-done:
		if r.Err == nil || r.Err.Name != "Interrupted" || !strings.Contains(r.Err.Value, "did not stop on interrupt") || !strings.Contains(r.Err.Value, "restarted") {
			t.Fatalf("after the second interrupt: %+v", r.Err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second interrupt did not end the cell within 5 s")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("second interrupt took %v", d)
	}
	if got := text(mustRun(t, s, "1+1")); got != "2" {
		t.Fatalf("after the restart: %q", got)
	}
}

// TestSupervisorDeathBetweenCells: a goroutine that crashes the executor
// after its cell finished is reported to the next cell.
func TestSupervisorDeathBetweenCells(t *testing.T) {
	s, _ := newTestSupervisor(t, 0)
	mustRun(t, s, "import \"time\"\ntime.AfterFunc(100*time.Millisecond, func() { panic(\"late boom\") })")
	deadline := time.Now().Add(5 * time.Second)
	var notes []string
	for time.Now().Before(deadline) && len(notes) == 0 {
		time.Sleep(50 * time.Millisecond)
		notes = s.takeNotices()
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "late boom") {
		t.Fatalf("notices %q", notes)
	}
	if got := text(mustRun(t, s, "2+3")); got != "5" {
		t.Fatalf("after the restart: %q", got)
	}
}

func newTestLogger(w *syncBuffer) *log.Logger { return log.New(w, "", log.Lmicroseconds) }

// TestSupervisorTraceLookalike: text that looks like a fatal trace but is
// printed by a live executor (a cell, a child process) is ordinary output,
// and the executor lives on.
func TestSupervisorTraceLookalike(t *testing.T) {
	s, ev := newTestSupervisor(t, 0)
	mustRun(t, s, "import (\n\t\"fmt\"\n\t\"os\"\n)\nngLive := 3")
	ev.reset()
	fake := "fatal error: not really\n\ngoroutine 1 [running]:\nmain.main()\n"
	r := mustRun(t, s, "fmt.Fprint(os.Stderr, "+fmt.Sprintf("%q", fake)+")\nngLive")
	if text(r) != "3" {
		t.Fatalf("result %q", text(r))
	}
	if got := strings.ReplaceAll(ev.String(), "|stderr:", ""); got != "stderr:"+fake {
		t.Errorf("output %q, want %q", got, "stderr:"+fake)
	}
}

// TestSupervisorCellsDirRemoved: the directory of compiled cells (tens of
// megabytes per cell) goes with its executor however the executor ends —
// killed by a crash, or shut down with the kernel.
func TestSupervisorCellsDirRemoved(t *testing.T) {
	s, ev := newTestSupervisorCells(t, 0, "compiled")
	dirOf := func() string {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.cur == nil {
			return ""
		}
		return s.cur.dir
	}
	first := dirOf()
	if first == "" {
		t.Fatal("the executor has no directory for compiled cells")
	}
	if r := mustRun(t, s, "ngX := 41\nngX + 1"); text(r) != "42" {
		t.Fatalf("cell result %q, want 42", text(r))
	}
	if plugins, _ := filepath.Glob(filepath.Join(first, "*.so")); len(plugins) == 0 {
		t.Fatalf("NEUROGO_CELLS=compiled but %s holds no plugin after a cell ran", first)
	}
	crash(t, s, ev, "import \"syscall\"\nsyscall.Exit(3)", "ExecutorDied", "exited with status 3", 5*time.Second)
	waitGone(t, first)
	mustRun(t, s, "1") // a new executor, with a directory of its own
	second := dirOf()
	if second == "" || second == first {
		t.Fatalf("the new executor's directory is %q (the first was %q)", second, first)
	}
	s.close()
	waitGone(t, second)
}

func waitGone(t *testing.T, dir string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := os.Stat(dir)
		if errors.Is(err, os.ErrNotExist) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still exists 5 s after its executor ended (stat: %v)", dir, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
