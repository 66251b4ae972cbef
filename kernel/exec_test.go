package kernel

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a goroutine-safe bytes.Buffer.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newTestExecutor(t *testing.T) (*Executor, *syncBuffer, *syncBuffer) {
	t.Helper()
	var out, errb syncBuffer
	e, err := NewExecutor(ExecutorOptions{Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, &out, &errb
}

func TestExecutorCells(t *testing.T) {
	e, out, _ := newTestExecutor(t)
	type step struct {
		code    string
		want    string // %v of the result; "" for no result
		stdout  string // substring expected in stdout produced by this cell
		errName string // expected CellError name
		errPos  string // expected "line:col" prefix of the error value
	}
	steps := []step{
		{code: `import "fmt"` + "\n" + `fmt.Println("hello, world")`, stdout: "hello, world\n"},
		{code: "x := 41\nx + 1", want: "42"},
		{code: "x = x + 1\nx", want: "42"},
		{code: "func f() int { return 1 }\nf()", want: "1"},
		{code: "func f() int { return 2 }\nf()", want: "2"}, // redeclaration replaces
		{code: "type T struct{ A int }\nT{A: 3}", want: "{3}"},
		{code: "type T struct{ A, B int }\nT{1, 2}", want: "{1 2}"},
		{code: "func Map[T, U any](s []T, f func(T) U) []U {\n\tr := make([]U, 0, len(s))\n\tfor _, v := range s {\n\t\tr = append(r, f(v))\n\t}\n\treturn r\n}\nMap([]int{1, 2, 3}, func(v int) string { return fmt.Sprint(v * 2) })", want: "[2 4 6]"},
		{code: "sum := 0\nfor i := range 4 {\n\tsum += i\n}\nsum", want: "6"},
		{code: `"quoted"`, want: "quoted"},
		{code: "\n\npanic(\"boom\")", errName: "panic"},
		{code: "a := 1\n\nb := a +", errName: "CompileError", errPos: "3:"},
		{code: "x", want: "42"}, // state survives errors
		{code: `import "os"` + "\nos.Exit(3)", errName: "Exit"},
		{code: "x", want: "42"},
	}
	for i, s := range steps {
		before := len(out.String())
		res, err := e.Run(context.Background(), s.code)
		if s.errName != "" {
			var ce *CellError
			if !errors.As(err, &ce) {
				t.Fatalf("step %d %q: want %s error, got %v", i, s.code, s.errName, err)
			}
			if ce.Name != s.errName {
				t.Errorf("step %d: error name %q, want %q (%v)", i, ce.Name, s.errName, ce)
			}
			if s.errPos != "" && !strings.HasPrefix(ce.Value, s.errPos) {
				t.Errorf("step %d: error %q does not start with %q", i, ce.Value, s.errPos)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d %q: %v", i, s.code, err)
		}
		got := ""
		if res.HasValue {
			got = strings.Trim(plainValue(res.Value), `"`)
		}
		if got != s.want {
			t.Errorf("step %d %q: result %q, want %q", i, s.code, got, s.want)
		}
		if s.stdout != "" && !strings.Contains(out.String()[before:], s.stdout) {
			t.Errorf("step %d: stdout %q lacks %q", i, out.String()[before:], s.stdout)
		}
	}
}

func TestExecutorPanicLine(t *testing.T) {
	e, _, _ := newTestExecutor(t)
	_, err := e.Run(context.Background(), "func g() {\n\tvar a []int\n\t_ = a[5]\n}\ng()")
	var ce *CellError
	if !errors.As(err, &ce) || ce.Name != "panic" {
		t.Fatalf("want panic error, got %v", err)
	}
	if !strings.Contains(ce.Value, "index out of range") {
		t.Errorf("panic value %q", ce.Value)
	}
}

func TestExecutorInterrupt(t *testing.T) {
	e, _, _ := newTestExecutor(t)
	if _, err := e.Run(context.Background(), "keep := 7"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(200*time.Millisecond, func() { cancel(errInterrupted) })
	start := time.Now()
	_, err := e.Run(ctx, "for {}")
	var ce *CellError
	if !errors.As(err, &ce) || ce.Name != "Interrupted" {
		t.Fatalf("want Interrupted, got %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	res, err := e.Run(context.Background(), "keep")
	if err != nil || plainValue(res.Value) != "7" {
		t.Fatalf("state lost after interrupt: %v %v", res.Value, err)
	}
}

func TestExecutorSleepInterrupt(t *testing.T) {
	e, _, _ := newTestExecutor(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(100*time.Millisecond, func() { cancel(errInterrupted) })
	start := time.Now()
	_, err := e.Run(ctx, "import \"time\"\ntime.Sleep(time.Hour)")
	if err == nil {
		t.Fatal("want an error")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("interrupting time.Sleep took %v", d)
	}
}

func TestGoroutinePanicRecovered(t *testing.T) {
	e, _, errb := newTestExecutor(t)
	_, err := e.Run(context.Background(), "import \"time\"\ngo func() { panic(\"in goroutine\") }()\ntime.Sleep(100 * time.Millisecond)")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errb.String(), "in goroutine") {
		t.Errorf("stderr %q does not report the goroutine panic", errb.String())
	}
}

func TestComplete(t *testing.T) {
	e, _, _ := newTestExecutor(t)
	if _, err := e.Run(context.Background(), "import \"fmt\"\nmyVariable := 1"); err != nil {
		t.Fatal(err)
	}
	c := e.Complete("fmt.Pri", 7)
	if !contains(c.Matches, "Println") || !contains(c.Matches, "Printf") || c.Start != 4 || c.End != 7 {
		t.Errorf("fmt.Pri → %v [%d,%d]", c.Matches, c.Start, c.End)
	}
	c = e.Complete("x := myVa", 9)
	if !contains(c.Matches, "myVariable") {
		t.Errorf("myVa → %v", c.Matches)
	}
	// Cursor positions are code points: a non-ASCII prefix must not shift them.
	c = e.Complete("s := \"é\"; fmt.Pri", 17)
	if c.Start != 14 || !contains(c.Matches, "Println") {
		t.Errorf("unicode: %v [%d,%d]", c.Matches, c.Start, c.End)
	}
	if len(c.Kinds) != len(c.Matches) || c.Signatures != nil && len(c.Signatures) != len(c.Matches) {
		t.Errorf("kinds %d, signatures %d for %d matches", len(c.Kinds), len(c.Signatures), len(c.Matches))
	}
	if e.native == nil {
		t.Log("cells run in the interpreter: the compiled-cell checks are skipped")
		return
	}
	// Names a compiled cell declared: fields and methods after "x.",
	// with their kinds and signatures.
	if _, err := e.Run(context.Background(), "type vec struct{ X, Y float64 }\n\n// Len is the Manhattan length.\nfunc (v vec) Len() float64 { return v.X + v.Y }\nv := vec{1, 2}"); err != nil {
		t.Fatal(err)
	}
	c = e.Complete("é := v.", 7)
	if !contains(c.Matches, "X") || !contains(c.Matches, "Len") || c.Start != 7 || c.End != 7 {
		t.Errorf("v. → %v [%d,%d]", c.Matches, c.Start, c.End)
	}
	for i, m := range c.Matches {
		if m == "Len" && (c.Kinds[i] != "method" || c.Signatures[i] != "func (vec).Len() float64") {
			t.Errorf("Len: %q %q", c.Kinds[i], c.Signatures[i])
		}
	}
	c = e.Complete("import \"gonum.org/v1/gonum/ma", 29)
	if !contains(c.Matches, "gonum.org/v1/gonum/mat") || c.Start != 8 {
		t.Errorf("import path → %v [%d,%d]", c.Matches, c.Start, c.End)
	}
}

func TestInspect(t *testing.T) {
	e, _, _ := newTestExecutor(t)
	if _, err := e.Run(context.Background(), "import \"fmt\"\nanswer := 42"); err != nil {
		t.Fatal(err)
	}
	text, found := e.Inspect("fmt.Println", 8, 0)
	if !found || !strings.Contains(text, "func Println") {
		t.Errorf("inspect fmt.Println: %v %q", found, text)
	}
	text, found = e.Inspect("answer", 3, 0)
	if !found || !strings.Contains(text, "42") {
		t.Errorf("inspect answer: %v %q", found, text)
	}
	text, found = e.Inspect("len(x)", 2, 0)
	if !found || !strings.Contains(text, "func len") {
		t.Errorf("inspect len: %v %q", found, text)
	}
	if e.native == nil {
		t.Log("cells run in the interpreter: the compiled-cell checks are skipped")
		return
	}
	if _, err := e.Run(context.Background(), "import \"strings\"\n// half halves n.\nfunc half(n int) int { return n / 2 }\nvar b strings.Builder"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		code   string
		cursor int
		want   []string
	}{
		{"half(answer)", 2, []string{"func half(n int) int", "half halves n."}},
		{"half(", 5, []string{"func half(n int) int"}},
		{"b.WriteString(\"x\")", 5, []string{"func (b *Builder) WriteString(s string) (int, error)", "WriteString appends"}},
		{"strings.Repeat", 10, []string{"func Repeat(s string, count int) string", "Repeat returns"}},
	} {
		text, found := e.Inspect(c.code, c.cursor, 0)
		for _, w := range c.want {
			if !found || !strings.Contains(text, w) {
				t.Errorf("inspect %q: %v %q, want %q", c.code, found, text, w)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
