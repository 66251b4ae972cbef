"""Cells are Go: cases an interpreter gets wrong (wrong numbers with status
ok) and Go's own error messages, checked through a real Jupyter client.

Each case states what `go run` prints for the same code as a program. The
kernel compiles cells (kernel/native); these tests fail on a kernel that
interprets them, which is the point: they pin what only the compiled path
gets right.
"""
from __future__ import annotations

from typing import Any

import pytest

from ktools import collect_iopub, describe, execute, get_reply, run_ok, stream_text, strip_ansi
from test_kernel_extra import error_of

CASES = [
    (
        "closures-in-3-clause-loop",
        'import "fmt"\nvar fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }\nfor _, f := range fs { fmt.Print(f(), " ") }\nfmt.Println()',
        "0 1 2 \n",
    ),
    (
        "goroutines-in-range-loop",
        'import ("fmt"; "sync")\nout := make([]string, 3)\nvar wg sync.WaitGroup\nfor i, s := range []string{"a", "b", "c"} { wg.Add(1); go func() { defer wg.Done(); out[i] = s }() }\nwg.Wait()\nfmt.Println(out)',
        "[a b c]\n",
    ),
    (
        "waitgroup-go-range-int",
        'import ("fmt"; "sync"; "sync/atomic")\nvar sum atomic.Int64\nvar wg sync.WaitGroup\nfor i := range 5 { wg.Go(func() { sum.Add(int64(i)) }) }\nwg.Wait()\nfmt.Println(sum.Load())',
        "10\n",
    ),
    (
        "errors-as-cell-type",
        'import ("errors"; "fmt")\ntype myErr struct{ code int }\nfunc (e *myErr) Error() string { return fmt.Sprint("code ", e.code) }\nvar err error = fmt.Errorf("wrapped: %w", &myErr{7})\nvar me *myErr\nfmt.Println(errors.As(err, &me), me.code)',
        "true 7\n",
    ),
    (
        "json-tags-and-unexported-fields",
        'import ("encoding/json"; "fmt")\ntype rec struct {\n\tName  string `json:"name"`\n\tXpriv int\n\tpriv  int\n}\nb, _ := json.Marshal(rec{"n", 3, 4})\nfmt.Println(string(b))',
        '{"name":"n","Xpriv":3}\n',
    ),
    (
        "percent-T-and-percent-hash-v",
        'import "fmt"\ntype Point struct{ X, Y int }\nfmt.Printf("%T %#v\\n", Point{}, Point{1, 2})',
        "main.Point main.Point{X:1, Y:2}\n",
    ),
    (
        "stringer-inside-a-slice",
        'import "fmt"\ntype celsius float64\nfunc (c celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }\nfmt.Println([]celsius{1, 2.5})',
        "[1.0°C 2.5°C]\n",
    ),
    (
        "slices-sortfunc-generic-struct",
        'import ("cmp"; "fmt"; "slices")\ntype pair[K cmp.Ordered, V any] struct{ k K; v V }\nps := []pair[string, int]{{"b", 2}, {"a", 1}, {"c", 3}}\nslices.SortFunc(ps, func(x, y pair[string, int]) int { return cmp.Compare(x.k, y.k) })\nfmt.Println(ps)',
        "[{a 1} {b 2} {c 3}]\n",
    ),
    (
        "min-of-durations",
        'import ("fmt"; "time")\nd1, d2 := 3*time.Second, 2*time.Second\nfmt.Println(min(d1, d2), max(d1, d2))',
        "2s 3s\n",
    ),
    (
        "iter-pull",
        'import ("fmt"; "iter"; "slices")\nnext, stop := iter.Pull(slices.Values([]int{4, 5}))\ndefer stop()\na, ok1 := next()\nb, ok2 := next()\n_, ok3 := next()\nfmt.Println(a, b, ok1, ok2, ok3)',
        "4 5 true true false\n",
    ),
    (
        "imports-on-one-line-after-an-earlier-import",
        'import ("fmt"; "maps"; "slices")\nm := map[string]int{"x": 1, "y": 2}\nfmt.Println(slices.Sorted(maps.Keys(m)))',
        "[x y]\n",
    ),
]


@pytest.mark.parametrize("code,want", [(c, w) for _, c, w in CASES], ids=[n for n, _, _ in CASES])
def test_cell_prints_what_go_run_prints(fresh: tuple[Any, Any], code: str, want: str) -> None:
    km, kc = fresh
    run_ok(kc, 'import "fmt"')  # an earlier import: later cells import it again
    _, outputs = run_ok(kc, code, timeout=120)
    assert stream_text(outputs) == want


def test_missing_import_is_undefined(kc: Any) -> None:
    code = "next, stop := iter.Pull(nil)"
    reply, outputs = execute(kc, code, timeout=120)
    ename, evalue, tb = error_of(reply, outputs, code)
    assert ename == "CompileError"
    assert "undefined: iter" in evalue
    assert "1:15" in evalue or "cell line 1:15" in strip_ansi(tb)


def test_index_error_in_go_words(kc: Any) -> None:
    code = "func at(s []int, i int) int {\n\treturn s[i]\n}\nat([]int{1, 2, 3}, 5)"
    reply, outputs = execute(kc, code, timeout=120)
    ename, evalue, tb = error_of(reply, outputs, code)
    assert ename == "panic"
    assert evalue == "runtime error: index out of range [5] with length 3"
    assert "in at, cell line 2" in strip_ansi(tb)


def test_syntax_error_keeps_state(kc: Any) -> None:
    run_ok(kc, "keepMe := 41", timeout=120)
    code = "a := 1\n\nb := a +"
    reply, outputs = execute(kc, code, timeout=120)
    ename, evalue, _ = error_of(reply, outputs, code)
    assert ename == "CompileError"
    assert evalue.startswith("3:")
    _, outputs = run_ok(kc, 'import "fmt"\nfmt.Println(keepMe + 1)', timeout=120)
    assert stream_text(outputs) == "42\n"


def test_redeclared_type_names_stale_variables(fresh: tuple[Any, Any]) -> None:
    km, kc = fresh
    run_ok(kc, "type rec struct{ A int }", timeout=120)
    run_ok(kc, "r := rec{A: 1}", timeout=120)
    _, outputs = run_ok(kc, "type rec struct{ A, B int }", timeout=120)
    assert "r used the earlier declaration" in stream_text(outputs, "stderr")
    _, outputs = run_ok(kc, 'import "fmt"\nfmt.Println(rec{1, 2})', timeout=120)
    assert stream_text(outputs) == "{1 2}\n"


def test_declared_function_state_across_cells(fresh: tuple[Any, Any]) -> None:
    km, kc = fresh
    run_ok(kc, "type point struct{ x, y float64 }\nfunc (p point) norm2() float64 { return p.x*p.x + p.y*p.y }", timeout=120)
    run_ok(kc, "p := point{3, 4}", timeout=120)
    _, outputs = run_ok(kc, 'import "fmt"\np.x *= 2\nfmt.Println(p.norm2(), p)', timeout=120)
    assert stream_text(outputs) == "52 {6 4}\n"


STDIN_READS = [
    ("bufio-reader", 'r := bufio.NewReader(os.Stdin)\nline, _ := r.ReadString(\'\\n\')\nfmt.Printf("%q\\n", line)', ["hello"], '"hello\\n"\n'),
    ("bufio-scanner", "sc := bufio.NewScanner(os.Stdin)\nfor i := 0; i < 2 && sc.Scan(); i++ {\n\tfmt.Println(\"got\", sc.Text())\n}", ["a", "b"], "got a\ngot b\n"),
    ("os-stdin-read", 'buf := make([]byte, 16)\nn, _ := os.Stdin.Read(buf)\nfmt.Printf("%q\\n", buf[:n])', ["xyz"], '"xyz\\n"\n'),
    ("fmt-scan", "var a, b int\nfmt.Scan(&a, &b)\nfmt.Println(a * b)", ["6 7"], "42\n"),
]


@pytest.mark.parametrize("code,lines,want", [(c, l, w) for _, c, l, w in STDIN_READS], ids=[n for n, _, _, _ in STDIN_READS])
def test_stdin_reads_ask_the_front_end(fresh: tuple[Any, Any], code: str, lines: list[str], want: str) -> None:
    """Every way Go reads os.Stdin sends input_request and gets the reply."""
    km, kc = fresh
    run_ok(kc, 'import ("bufio"; "fmt"; "os")\nvar _ = bufio.NewReader\nvar _ = os.Stdin', timeout=120)
    msg_id = kc.execute(code, allow_stdin=True)
    for line in lines:
        req = kc.get_stdin_msg(timeout=120)
        assert req["msg_type"] == "input_request"
        assert req["parent_header"]["msg_id"] == msg_id
        kc.input(line)
    reply = get_reply(kc, msg_id, timeout=120)
    outputs = collect_iopub(kc, msg_id)
    assert reply["content"]["status"] == "ok", describe(reply, outputs)
    assert stream_text(outputs) == want
