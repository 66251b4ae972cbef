package native

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func moduleRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

func newSession(t testing.TB) *Session {
	t.Helper()
	s, err := New(Options{Root: moduleRoot(t)})
	if err != nil {
		var u errUnavailable
		if errors.As(err, &u) && os.Getenv("NEUROGO_REQUIRE_NATIVE") == "" {
			t.Skipf("compiled cells unavailable here: %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// captureStdout runs f with os.Stdout redirected to a pipe.
func captureStdout(t testing.TB, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan []byte)
	go func() {
		var buf []byte
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			buf = append(buf, b[:n]...)
			if err != nil {
				break
			}
		}
		done <- buf
	}()
	f()
	os.Stdout = old
	w.Close()
	return string(<-done)
}

func TestCells(t *testing.T) {
	s := newSession(t)
	ctx := context.Background()
	steps := []struct {
		code, out string
		value     any
	}{
		{code: "import \"fmt\"\ntype point struct{ x, y int }\nfunc (p point) String() string { return fmt.Sprintf(\"(%d,%d)\", p.x, p.y) }\nfunc mk(x, y int) point { return point{x, y} }\nfunc Fib(n int) int { if n < 2 { return n }; return Fib(n-1) + Fib(n-2) }"},
		{code: "p := mk(1, 2)\nfmt.Printf(\"%T %v %v\\n\", p, p, []point{p})", out: "main.point (1,2) [(1,2)]\n"},
		{code: "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nfor _, f := range fs { fmt.Print(f(), \" \") }\nfmt.Println()", out: "0 1 2 \n"},
		{code: "Fib(20)", value: 6765},
		{code: "q := p\nq", value: nil},
	}
	for i, st := range steps {
		var res Result
		var err error
		out := captureStdout(t, func() { res, err = s.Run(ctx, st.code) })
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if out != st.out {
			t.Errorf("step %d: output %q, want %q", i, out, st.out)
		}
		if st.value != nil && (!res.HasValue || res.Value != st.value) {
			t.Errorf("step %d: value %v (%v), want %v", i, res.Value, res.HasValue, st.value)
		}
		t.Logf("step %d: %+v", i, s.Timings)
	}
}

func TestHoist(t *testing.T) {
	s := newSession(t)
	for _, c := range []string{"x := 5", "x * 2"} {
		res, err := s.Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(res)
	}
}
