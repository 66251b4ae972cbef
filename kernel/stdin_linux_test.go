package kernel

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
)

// lines answers input requests with the given lines, then end of file,
// and counts the requests.
type lines struct {
	mu       sync.Mutex
	next     []string
	requests int
}

func (l *lines) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests++
	if len(l.next) == 0 {
		return 0, io.EOF
	}
	s := l.next[0] + "\n"
	l.next = l.next[1:]
	return copy(p, s), nil
}

// TestCompiledStdin: every way Go reads os.Stdin gets the front end's
// reply, and only a cell that reads asks.
func TestCompiledStdin(t *testing.T) {
	in := &lines{}
	var out syncBuffer
	e, err := NewExecutor(ExecutorOptions{Stdout: &out, Stderr: &out, Stdin: in})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if e.native == nil || e.stdin == nil {
		t.Skip("compiled cells unavailable here")
	}
	steps := []struct {
		code  string
		input []string
		want  string
		reqs  int
	}{
		{code: "import (\"bufio\"; \"fmt\"; \"io\"; \"os\")\nfmt.Println(\"no input\")", want: "no input\n", reqs: 0},
		{code: "r := bufio.NewReader(os.Stdin)\nline, _ := r.ReadString('\\n')\nfmt.Printf(\"reader %q\\n\", line)", input: []string{"hello"}, want: "reader \"hello\\n\"\n", reqs: 1},
		{code: "sc := bufio.NewScanner(os.Stdin)\nfor i := 0; i < 2 && sc.Scan(); i++ { fmt.Println(\"scan\", sc.Text()) }", input: []string{"a", "b"}, want: "scan a\nscan b\n", reqs: 2},
		{code: "var n, m int\nfmt.Scan(&n, &m)\nfmt.Println(\"sum\", n+m)", input: []string{"3 4"}, want: "sum 7\n", reqs: 1},
		{code: "buf := make([]byte, 10)\nk, _ := os.Stdin.Read(buf)\nfmt.Printf(\"read %q\\n\", buf[:k])", input: []string{"xyz"}, want: "read \"xyz\\n\"\n", reqs: 1},
		{code: "all, err := io.ReadAll(os.Stdin)\nfmt.Printf(\"all %q %v\\n\", all, err)", input: []string{"p", "q"}, want: "all \"p\\nq\\n\" <nil>\n", reqs: 3},
	}
	for i, st := range steps {
		in.mu.Lock()
		in.next, in.requests = st.input, 0
		in.mu.Unlock()
		before := len(out.String())
		if _, err := e.Run(context.Background(), st.code); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got := out.String()[before:]
		if !strings.Contains(got, st.want) {
			t.Errorf("step %d: output %q, want %q", i, got, st.want)
		}
		if in.requests != st.reqs {
			t.Errorf("step %d: %d input requests, want %d", i, in.requests, st.reqs)
		}
	}
}
