package kernel

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGoLiteral(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{nil, "nil"},
		{true, "true"},
		{int64(3), "3"},
		{0.5, "0.5"},
		{2.0, "2.0"},
		{math.NaN(), "math.NaN()"},
		{math.Inf(-1), "math.Inf(-1)"},
		{"héllo \"x\"\n", `"héllo \"x\"\n"`},
		{[]any{int64(1), int64(2)}, "[]int{1, 2}"},
		{[]any{int64(1), 2.5}, "[]float64{1.0, 2.5}"},
		{[]any{"a", nil}, `[]any{"a", nil}`},
		{map[string]any{"b": "x", "a": "y"}, `map[string]string{"a": "y", "b": "x"}`},
	}
	for _, c := range cases {
		got, _, err := GoLiteral(c.in)
		if err != nil || got != c.want {
			t.Errorf("GoLiteral(%#v) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestParseParam(t *testing.T) {
	for in, want := range map[string]any{"50": int64(50), "0.25": 0.25, "True": true, "x": "x", "None": nil} {
		if got := ParseParam(in); got != want {
			t.Errorf("ParseParam(%q) = %#v, want %#v", in, got, want)
		}
	}
}

func TestRunNotebookWithParameters(t *testing.T) {
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{"kernelspec": map[string]any{"name": "neurogo", "language": "go"}},
		"cells": []any{
			map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": "# test"},
			map[string]any{"cell_type": "code", "metadata": map[string]any{"tags": []any{"parameters"}}, "outputs": []any{}, "execution_count": nil,
				"source": "var n = 10\nvar label = \"default\"\nvar rate = 1.0"},
			map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil,
				"source": "import (\n\t\"fmt\"\n\t\"github.com/neurogo/neurogo/display\"\n)\nfmt.Println(label, n)\ndisplay.Display(display.Markdown(\"**ok**\"))\nrate * float64(n)"},
		},
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.ipynb")
	b, _ := json.Marshal(nb)
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := ReadNotebook(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := RunNotebook(context.Background(), doc, map[string]any{"n": int64(4), "label": "héllo", "rate": 0.5}, nil); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cells) != 4 || !hasTag(doc.Cells[2], "injected-parameters") {
		t.Fatalf("injected cell missing: %d cells", len(doc.Cells))
	}
	outs, _ := doc.Cells[3]["outputs"].([]any)
	var text []string
	for _, o := range outs {
		m := o.(map[string]any)
		switch m["output_type"] {
		case "stream":
			text = append(text, "stream:"+m["text"].(string))
		case "display_data":
			text = append(text, "display:"+m["data"].(map[string]any)["text/markdown"].(string))
		case "execute_result":
			text = append(text, "result:"+m["data"].(map[string]any)["text/plain"].(string))
		}
	}
	got := strings.Join(text, "|")
	if want := "stream:héllo 4\n|display:**ok**|result:2"; got != want {
		t.Errorf("outputs %q, want %q", got, want)
	}
	out := filepath.Join(dir, "out.ipynb")
	if err := doc.Write(out); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadNotebook(out); err != nil {
		t.Fatal(err)
	}
}

// TestRunNotebookContainsCrashes: a cell that kills the executor fails
// with an error output naming the cause; the run stops there.
func TestRunNotebookContainsCrashes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an executor process")
	}
	t.Setenv("NEUROGO_CELLS", "interpreted")
	code := func(src string) map[string]any {
		return map[string]any{"cell_type": "code", "metadata": map[string]any{}, "outputs": []any{}, "execution_count": nil, "source": src}
	}
	nb := &Notebook{raw: map[string]any{"nbformat": 4}, Cells: []map[string]any{
		code("import \"fmt\"\nfmt.Println(\"first\")"),
		code("import \"syscall\"\nsyscall.Exit(4)"),
		code("fmt.Println(\"never\")"),
	}}
	err := RunNotebookWith(context.Background(), nb, nil, NotebookOptions{})
	if err == nil || !strings.Contains(err.Error(), "cell 2") || !strings.Contains(err.Error(), "status 4") {
		t.Fatalf("error %v", err)
	}
	outs, _ := nb.Cells[1]["outputs"].([]any)
	if len(outs) != 1 || outs[0].(map[string]any)["ename"] != "ExecutorDied" {
		t.Fatalf("outputs of the crashing cell: %v", outs)
	}
	if first, _ := nb.Cells[0]["outputs"].([]any); len(first) != 1 || first[0].(map[string]any)["text"] != "first\n" {
		t.Errorf("outputs of cell 1: %v", first)
	}
	if nb.Cells[2]["execution_count"] != nil {
		t.Errorf("cell 3 ran after the crash")
	}
}

func TestCoerceStringParams(t *testing.T) {
	nb := &Notebook{Cells: []map[string]any{
		{"cell_type": "code", "metadata": map[string]any{"tags": []any{"parameters"}},
			"source": "var neurons = \"5,10\" // per dimension\ndims := `8`\nvar label string\nvar n = 10\nvar rate = 1.0"},
	}}
	got := coerceStringParams(nb, map[string]any{
		"neurons": int64(4), "dims": int64(8), "label": true, "n": int64(3), "rate": 0.5, "other": int64(1),
	})
	want := map[string]any{"neurons": "4", "dims": "8", "label": "true", "n": int64(3), "rate": 0.5, "other": int64(1)}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %#v, want %#v", k, got[k], w)
		}
	}
}
