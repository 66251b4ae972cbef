"""Protocol and behaviour tests of the neurogo kernel beyond the standard
jupyter_kernel_test suite: state between cells, modern Go, interrupts,
errors, execute_request options, stdin, robustness against malformed
messages, comms, restart and shutdown.

Tests that share the module's kernel (fixture ``kc``/``shared``) use names
prefixed with ``ng`` that no other test uses; tests that may kill, restart
or shut down the kernel get their own (fixture ``fresh``).
"""
from __future__ import annotations

import json
import os
import queue
import random
import re
import time
import uuid
from typing import Any

import pytest
import zmq

from ktools import (
    DELIM,
    TIMEOUT,
    collect_iopub,
    connection_info,
    describe,
    endpoint,
    eval_text,
    execute,
    flush,
    get_reply,
    need,
    of_type,
    result_data,
    result_text,
    run_ok,
    send_raw_request,
    sign,
    stop_kernel,
    stream_text,
    strip_ansi,
    wait_until,
    wire_message,
)


def error_of(reply: dict[str, Any], outputs: list[dict[str, Any]], code: str) -> tuple[str, str, str]:
    """(ename, evalue, traceback text) of a failed cell, checking that the
    reply and the iopub error message agree."""
    c = reply["content"]
    assert c["status"] == "error", f"expected an error from:\n{code}\n-> {describe(reply, outputs)}"
    errs = of_type(outputs, "error")
    assert len(errs) == 1, f"expected one iopub error message, got {describe(reply, outputs)}"
    assert errs[0]["content"]["ename"] == c["ename"]
    return c["ename"], strip_ansi(c["evalue"]), strip_ansi("\n".join(c["traceback"]))


# --- state between cells ----------------------------------------------------------


def test_state_variable_persists(kc):
    run_ok(kc, "var ngCounter = 10")
    run_ok(kc, "ngCounter += 5")
    assert eval_text(kc, "ngCounter") == "15"
    run_ok(kc, "ngShort := []string{\"a\", \"b\"}")
    assert eval_text(kc, "len(ngShort)") == "2"


def test_state_func_persists(kc):
    run_ok(kc, "func ngDouble(x int) int { return 2 * x }")
    assert eval_text(kc, "ngDouble(21)") == "42"
    run_ok(kc, "ngD := ngDouble(4)")
    assert eval_text(kc, "ngD + 1") == "9"


def test_state_type_and_method_persist(kc):
    run_ok(kc, "type NgPoint struct{ X, Y int }")
    run_ok(kc, "func (p NgPoint) Sum() int { return p.X + p.Y }")
    assert eval_text(kc, "NgPoint{1, 2}") == "{1 2}"
    assert eval_text(kc, "NgPoint{3, 4}.Sum()") == "7"
    run_ok(kc, "ngP := NgPoint{X: 5}")
    assert eval_text(kc, "ngP.Sum()") == "5"


def test_state_imports_persist(kc):
    run_ok(kc, 'import "strings"')
    assert eval_text(kc, 'strings.ToUpper("go")') == '"GO"'


def test_reimport_package(fresh):
    # Notebook cells are re-run and often import what an earlier cell
    # imported: that must work.
    km, kc = fresh
    run_ok(kc, 'import "fmt"')
    run_ok(kc, 'import "fmt"')
    _, out = run_ok(kc, 'import "fmt"\nfmt.Println("again")')
    assert stream_text(out) == "again\n"


def test_blank_identifier_does_not_stick(fresh):
    # `_` is not a variable: a cell that wrote `_, err := f()` (an int into
    # _) must not stop a later cell from assigning an error to _.
    km, kc = fresh
    run_ok(kc, 'import (\n\t"errors"\n\t"fmt"\n)')
    run_ok(kc, '_, ngErr := fmt.Sscan("1", new(int))')
    run_ok(kc, '_ = errors.New("x")')
    run_ok(kc, '_ = "a string"')


def test_rerun_identical_cell_with_import(fresh):
    km, kc = fresh
    code = 'import "strings"\n\nstrings.Repeat("ab", 2)'
    assert eval_text(kc, code) == '"abab"'
    assert eval_text(kc, code) == '"abab"'


def test_redeclare_variable_replaces(kc):
    run_ok(kc, "var ngRe = 1")
    assert eval_text(kc, "ngRe") == "1"
    run_ok(kc, 'var ngRe = "now a string"')
    assert eval_text(kc, "ngRe") == '"now a string"'
    run_ok(kc, "ngRe := 2.5")
    assert eval_text(kc, "ngRe") == "2.5"


def test_redeclare_func_replaces(kc):
    run_ok(kc, "func ngTwice(x int) int { return 2 * x }")
    assert eval_text(kc, "ngTwice(3)") == "6"
    run_ok(kc, "func ngTwice(x int) int { return 3 * x }")
    assert eval_text(kc, "ngTwice(3)") == "9"
    # with a new signature
    run_ok(kc, "func ngTwice(s string) string { return s + s }")
    assert eval_text(kc, 'ngTwice("ab")') == '"abab"'


def test_redeclare_type_replaces(kc):
    run_ok(kc, "type NgT struct{ A int }")
    assert eval_text(kc, "NgT{1}") == "{1}"
    run_ok(kc, "type NgT struct{ A, B int }")
    assert eval_text(kc, "NgT{1, 2}") == "{1 2}"


# --- modern Go: generics and range over int -----------------------------------------

GENERIC_FUNCS = '''func NgMap[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type NgNumber interface {
	~int | ~int64 | ~float64
}

func NgSum[T NgNumber](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}
'''

GENERIC_TYPE = '''type NgStack[T any] struct {
	items []T
}

func (s *NgStack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *NgStack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func (s *NgStack[T]) Len() int { return len(s.items) }
'''


def test_generic_func_with_inference(kc):
    need(kc, "fmt")
    run_ok(kc, GENERIC_FUNCS)
    _, out = run_ok(kc, 'fmt.Println(NgMap([]int{1, 2, 3}, func(i int) string { return fmt.Sprint(i * 2) }))')
    assert stream_text(out) == "[2 4 6]\n"
    _, out = run_ok(kc, "fmt.Println(NgSum(1, 2, 3), NgSum(1.5, 2.25))")
    assert stream_text(out) == "6 3.75\n"


def test_generic_func_same_cell(kc):
    need(kc, "fmt")
    code = 'func NgFirst[T any](xs []T) T { return xs[0] }\n\nfmt.Println(NgFirst([]string{"x", "y"}), NgFirst([]int{7}))'
    _, out = run_ok(kc, code)
    assert stream_text(out) == "x 7\n"


def test_generic_type_with_methods(kc):
    need(kc, "fmt")
    run_ok(kc, GENERIC_TYPE)
    code = 'st := &NgStack[string]{}\nst.Push("a")\nst.Push("b")\nv, ok := st.Pop()\nfmt.Println(v, ok, st.Len())'
    _, out = run_ok(kc, code)
    assert stream_text(out) == "b true 1\n"
    _, out = run_ok(kc, "si := NgStack[int]{}\nsi.Push(7)\nsi.Push(8)\nfmt.Println(si.Len())")
    assert stream_text(out) == "2\n"


def test_range_over_int(kc):
    need(kc, "fmt")
    _, out = run_ok(kc, 'for i := range 3 {\n\tfmt.Println(i)\n}')
    assert stream_text(out) == "0\n1\n2\n"


def test_range_over_int_variable_and_no_var(kc):
    need(kc, "fmt")
    _, out = run_ok(kc, 'ngN := 4\nngTotal := 0\nfor i := range ngN {\n\tngTotal += i\n}\nfor range 2 {\n\tfmt.Println("tick")\n}\nfmt.Println(ngTotal)')
    assert stream_text(out) == "tick\ntick\n6\n"


# --- interrupt ----------------------------------------------------------------------


def _wait_busy(kc: Any, msg_id: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
        except Exception:
            continue
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] in ("execute_input", "status"):
            if m["msg_type"] == "execute_input" or m["content"]["execution_state"] == "busy":
                return
    raise TimeoutError("the cell did not start")


@pytest.mark.parametrize(
    "blocking_code",
    ["for {\n}", 'import "time"\ntime.Sleep(time.Hour)', "<-make(chan int)"],
    ids=["for-loop", "sleep", "chan-receive"],
)
def test_interrupt_keeps_state(fresh, blocking_code):
    km, kc = fresh
    run_ok(kc, "ngKeep := 41")
    msg_id = kc.execute(blocking_code)
    _wait_busy(kc, msg_id)
    time.sleep(0.5)
    km.interrupt_kernel()  # interrupt_mode "message": interrupt_request on control
    reply = get_reply(kc, msg_id, timeout=15)
    outputs = collect_iopub(kc, msg_id)
    ename, _, _ = error_of(reply, outputs, blocking_code)
    assert ename == "Interrupted"
    assert km.is_alive()
    assert eval_text(kc, "ngKeep + 1") == "42"


def test_interrupt_when_idle_is_harmless(fresh):
    km, kc = fresh
    km.interrupt_kernel()
    time.sleep(0.3)
    assert eval_text(kc, "1+1") == "2"


def test_interrupt_reply_on_control(kc):
    msg_id = send_raw_request(kc, "control", "interrupt_request")
    reply = get_reply(kc, msg_id, channel="control")
    assert reply["msg_type"] == "interrupt_reply"
    assert reply["content"]["status"] == "ok"


# --- panics, exits, compile errors ---------------------------------------------------


def test_panic_reports_cell_line(kc):
    code = 'func ngBoom() {\n\tpanic("kaboom")\n}\n\nngBoom()'
    reply, outputs = execute(kc, code)
    ename, evalue, tb = error_of(reply, outputs, code)
    assert ename == "panic"
    assert "kaboom" in evalue
    assert re.search(r"line 2\b", tb), f"traceback does not name cell line 2 (the panic):\n{tb}"
    assert eval_text(kc, "1+1") == "2"


def test_panic_top_level_reports_cell_line(kc):
    code = 'ngBefore := 1\nngBefore++\npanic("top-level")'
    reply, outputs = execute(kc, code)
    ename, evalue, tb = error_of(reply, outputs, code)
    assert ename == "panic"
    assert "top-level" in evalue
    assert re.search(r"line 3\b", tb), f"traceback does not name cell line 3 (the panic):\n{tb}"
    assert eval_text(kc, "2+2") == "4"


def test_runtime_panic_index_out_of_range(kc):
    code = "ngXs := []int{1}\nngI := 5\nngV := ngXs[ngI]\nngV++"
    reply, outputs = execute(kc, code)
    ename, evalue, tb = error_of(reply, outputs, code)
    assert ename == "panic"
    assert "index out of range" in evalue
    assert eval_text(kc, "3+3") == "6"


def test_goroutine_panic_does_not_kill_kernel(fresh):
    km, kc = fresh
    code = 'import "time"\ngo func() { panic("x") }()\ntime.Sleep(300 * time.Millisecond)'
    reply, outputs = execute(kc, code)
    time.sleep(0.5)
    assert km.is_alive(), f"kernel died after a goroutine panic: {describe(reply, outputs)}"
    assert eval_text(kc, "1+1") == "2"


def test_late_goroutine_panic_between_cells(fresh):
    km, kc = fresh
    run_ok(kc, 'import "time"\ngo func() {\n\ttime.Sleep(200 * time.Millisecond)\n\tpanic("late")\n}()')
    time.sleep(0.8)
    assert km.is_alive(), "kernel died when a goroutine panicked after its cell had finished"
    assert eval_text(kc, "1+1") == "2"


def test_os_exit_does_not_kill_kernel(fresh):
    km, kc = fresh
    run_ok(kc, "ngAlive := 7")
    code = 'import "os"\nos.Exit(3)'
    reply, outputs = execute(kc, code)
    time.sleep(0.3)
    assert km.is_alive(), "os.Exit(3) in a cell killed the kernel"
    ename, evalue, _ = error_of(reply, outputs, code)
    assert ename == "Exit"
    assert "3" in evalue
    assert eval_text(kc, "ngAlive") == "7"


@pytest.mark.parametrize(
    "code,pos",
    [
        ("ngCE := 1\nngCE2 := ngUndefinedName + ngCE", r"\b2:10\b"),
        ("ngSyn := 1\nngSyn2 := )", r"\b2:11\b"),
        ("ngA := 1\nngB := 2\nvar ngC string = ngA + ngB", r"\b3:\d+\b"),
    ],
    ids=["undefined", "syntax", "type-mismatch"],
)
def test_compile_error_names_line_col(kc, code, pos):
    reply, outputs = execute(kc, code)
    ename, evalue, tb = error_of(reply, outputs, code)
    assert ename == "CompileError"
    assert re.search(pos, evalue) or re.search(pos, tb), f"position {pos} not in evalue {evalue!r} / traceback:\n{tb}"
    assert eval_text(kc, "5*5") == "25"


@pytest.fixture
def memlimit_kernel(tmp_path, neurogo_kernelspec):
    """A neurogo kernel started with --memory-limit 256MiB (from a copy of
    the installed kernelspec in a temporary directory)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec_dir = tmp_path / "kernels" / "neurogo-memlimit"
    spec_dir.mkdir(parents=True)
    spec = neurogo_kernelspec.to_dict()
    spec["argv"] = list(spec["argv"]) + ["--memory-limit", "256MiB"]
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    ksm = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")])
    km = KernelManager(kernel_name="neurogo-memlimit", kernel_spec_manager=ksm)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=2 * TIMEOUT)
        yield km, kc
    finally:
        stop_kernel(km, kc)


def test_memory_limit_exceeded(memlimit_kernel):
    km, kc = memlimit_kernel
    run_ok(kc, 'import "time"')
    # at most 2 GiB in 16 MiB steps, held only by the function's local
    code = (
        "func ngHog() int {\n\tvar xs [][]byte\n\tfor i := 0; i < 128; i++ {\n"
        "\t\txs = append(xs, make([]byte, 16<<20))\n\t\ttime.Sleep(10 * time.Millisecond)\n\t}\n"
        "\treturn len(xs)\n}\n\nngHog()"
    )
    reply, outputs = execute(kc, code, timeout=60)
    ename, evalue, _ = error_of(reply, outputs, code)
    assert ename == "MemoryLimitExceeded", evalue
    assert km.is_alive()
    assert eval_text(kc, "1+1") == "2"


# --- execute_request options -------------------------------------------------------------


def test_stop_on_error_aborts_queued(kc):
    # the first cell fails only after the other two are surely queued: a
    # request dated after the failure runs normally (as in ipykernel), so
    # an instant failure would race with the client's sends
    codes = ['import "time"\ntime.Sleep(300 * time.Millisecond)\npanic("first fails")', "ngAborted1 := 1", "ngAborted2 := 2"]
    ids = [kc.execute(c) for c in codes]  # sent without waiting
    replies = [get_reply(kc, i) for i in ids]
    for i in ids:
        collect_iopub(kc, i)
    statuses = [r["content"]["status"] for r in replies]
    assert statuses == ["error", "aborted", "aborted"], statuses
    for r, i in zip(replies, ids):
        assert r["parent_header"]["msg_id"] == i
    # the aborted cells did not run
    reply, outputs = execute(kc, "ngAborted1")
    assert reply["content"]["status"] == "error", describe(reply, outputs)
    # and the kernel goes on normally
    assert eval_text(kc, "1+2") == "3"


def test_stop_on_error_false_runs_queued(kc):
    ids = [
        kc.execute('panic("fails but does not stop")', stop_on_error=False),
        kc.execute("ngNotAborted := 11"),
    ]
    replies = [get_reply(kc, i) for i in ids]
    for i in ids:
        collect_iopub(kc, i)
    assert [r["content"]["status"] for r in replies] == ["error", "ok"]
    assert eval_text(kc, "ngNotAborted") == "11"


def test_silent_execution(kc):
    r0, _ = run_ok(kc, "ngSilentBase := 1")
    c0 = r0["content"]["execution_count"]
    reply, outputs = execute(kc, "6*7", silent=True)
    assert reply["content"]["status"] == "ok"
    types = [m["msg_type"] for m in outputs]
    assert "execute_input" not in types, types
    assert "execute_result" not in types, types
    reply, outputs = execute(kc, "ngSilentVar := 5", silent=True)
    assert reply["content"]["status"] == "ok"
    r1, _ = run_ok(kc, "ngSilentVar")
    assert r1["content"]["execution_count"] == c0 + 1, "silent cells must not bump execution_count"
    assert eval_text(kc, "ngSilentVar") == "5"


def test_store_history_false(kc):
    r0, _ = run_ok(kc, "ngHistBase := 1")
    c0 = r0["content"]["execution_count"]
    secret = "ngNoHist := 12345"
    reply, outputs = execute(kc, secret, store_history=False)
    assert reply["content"]["status"] == "ok", describe(reply, outputs)
    r1, _ = run_ok(kc, "ngNoHist")
    assert r1["content"]["execution_count"] == c0 + 1, "store_history=False must not bump execution_count"
    msg_id = kc.history(hist_access_type="tail", n=50, output=False, raw=True)
    hist = get_reply(kc, msg_id)["content"]["history"]
    inputs = [h[2] for h in hist]
    assert "ngNoHist" in inputs
    assert secret not in inputs


def test_user_expressions(kc):
    reply, outputs = execute(
        kc,
        "ngUE := 20",
        user_expressions={"double": "ngUE * 2", "str": '"go"', "bad": "ngNoSuchVariable"},
    )
    assert reply["content"]["status"] == "ok", describe(reply, outputs)
    ue = reply["content"]["user_expressions"]
    assert ue["double"]["status"] == "ok"
    assert ue["double"]["data"]["text/plain"] == "40"
    assert ue["str"]["data"]["text/plain"] == '"go"'
    assert ue["bad"]["status"] == "error"
    assert ue["bad"]["ename"]


def test_input_request_round_trip(kc):
    need(kc, "fmt")
    code = "var s string; fmt.Scanln(&s); s"
    msg_id = kc.execute(code, allow_stdin=True)
    req = kc.get_stdin_msg(timeout=TIMEOUT)
    assert req["msg_type"] == "input_request"
    assert req["parent_header"]["msg_id"] == msg_id
    assert req["content"]["password"] is False
    kc.input("gopher")
    reply = get_reply(kc, msg_id)
    outputs = collect_iopub(kc, msg_id)
    assert reply["content"]["status"] == "ok", describe(reply, outputs)
    assert result_text(outputs) == '"gopher"'


def test_input_not_allowed_does_not_hang(kc):
    need(kc, "fmt")
    code = "var ngNoIn string\nngInN, ngInErr := fmt.Scanln(&ngNoIn)\nngInN == 0 && ngInErr != nil"
    msg_id = kc.execute(code, allow_stdin=False)
    reply = get_reply(kc, msg_id)
    outputs = collect_iopub(kc, msg_id)
    with pytest.raises(Exception):
        kc.get_stdin_msg(timeout=0.3)
    if reply["content"]["status"] == "ok":
        assert result_text(outputs) == "true"


# --- display ---------------------------------------------------------------------------------


def test_display_show_and_update(kc):
    need(kc, "github.com/neurogo/neurogo/display")
    code = '_ = display.Show("ng-disp", display.HTML("<p>one</p>"))\n_ = display.Update("ng-disp", display.HTML("<p>two</p>"))'
    _, outputs = run_ok(kc, code)
    shown = of_type(outputs, "display_data")
    updated = of_type(outputs, "update_display_data")
    assert shown and shown[0]["content"]["transient"]["display_id"] == "ng-disp"
    assert updated and updated[0]["content"]["transient"]["display_id"] == "ng-disp"
    assert "two" in updated[0]["content"]["data"]["text/html"]
    # an update from a later cell
    _, outputs = run_ok(kc, '_ = display.Update("ng-disp", display.Markdown("**three**"))')
    updated = of_type(outputs, "update_display_data")
    assert updated and updated[0]["content"]["transient"]["display_id"] == "ng-disp"


def test_value_with_html_method_renders(kc):
    code = 'type NgCard struct{ Title string }\nfunc (c NgCard) HTML() string { return "<h3>" + c.Title + "</h3>" }\nNgCard{"hi"}'
    _, outputs = run_ok(kc, code)
    data = result_data(outputs)
    assert data is not None and data.get("text/html") == "<h3>hi</h3>", data


def test_stdout_and_stderr_streams(kc):
    need(kc, "fmt", "os")
    code = 'fmt.Println("to out")\nfmt.Fprintln(os.Stderr, "to err")\nfmt.Println("out again")'
    _, outputs = run_ok(kc, code)
    assert stream_text(outputs, "stdout") == "to out\nout again\n"
    assert stream_text(outputs, "stderr") == "to err\n"


# --- completion, inspection, is_complete ---------------------------------------------------


def test_complete_cursor_in_code_points(kc):
    code = 'import "fmt"\nπλ := "ünïcode"\nfmt.Pri'
    msg_id = kc.complete(code, cursor_pos=len(code))  # len() counts code points
    c = get_reply(kc, msg_id)["content"]
    assert c["status"] == "ok"
    assert {"Print", "Printf", "Println"} <= set(c["matches"])
    assert c["cursor_end"] == len(code)
    assert c["cursor_start"] == len(code) - len("Pri")


def test_inspect_stdlib_doc(kc):
    code = 'import "fmt"\nfmt.Println'
    msg_id = kc.inspect(code, cursor_pos=len(code))
    c = get_reply(kc, msg_id)["content"]
    assert c["status"] == "ok" and c["found"]
    assert "func Println" in c["data"]["text/plain"]


@pytest.mark.parametrize("import_cell", ['import "fmt"', 'import (\n\t"fmt"\n)'], ids=["single-line", "grouped"])
def test_complete_and_inspect_after_import_cell(fresh, import_cell):
    # The package is imported by an earlier cell, in either import form.
    km, kc = fresh
    run_ok(kc, import_cell)
    msg_id = kc.complete("fmt.Pri", cursor_pos=7)
    c = get_reply(kc, msg_id)["content"]
    assert set(c["matches"]) == {"Print", "Printf", "Println"}, c
    msg_id = kc.inspect("fmt.Println", cursor_pos=len("fmt.Println"))
    c = get_reply(kc, msg_id)["content"]
    assert c["found"] and "func Println" in c["data"]["text/plain"], c


def test_is_complete_indent(kc):
    msg_id = kc.is_complete("func f() {")
    c = get_reply(kc, msg_id)["content"]
    assert c["status"] == "incomplete"
    assert "indent" in c and c["indent"].strip() == ""


# --- messages the kernel does not know, comms, control ----------------------------------------


@pytest.mark.parametrize("channel", ["shell", "control"])
def test_unknown_message_type_gets_error_reply(kc, channel):
    msg_id = send_raw_request(kc, channel, "foo_request", {"x": 1})
    reply = get_reply(kc, msg_id, channel=channel)
    assert reply["msg_type"] == "foo_reply"
    assert reply["content"]["status"] == "error"
    assert eval_text(kc, "1+1") == "2"


def test_comm_open_unknown_target_closes(kc):
    comm_id = uuid.uuid4().hex
    msg_id = send_raw_request(
        kc, "shell", "comm_open", {"comm_id": comm_id, "target_name": "ng.no_such_target", "data": {}}
    )
    msgs = collect_iopub(kc, msg_id)
    closes = of_type(msgs, "comm_close")
    assert closes, f"no comm_close after comm_open: {[m['msg_type'] for m in msgs]}"
    assert closes[0]["content"]["comm_id"] == comm_id


def test_comm_info(kc):
    msg_id = kc.comm_info()
    reply = get_reply(kc, msg_id)
    assert reply["msg_type"] == "comm_info_reply"
    assert reply["content"]["status"] == "ok"
    assert reply["content"]["comms"] == {}


def test_comm_msg_for_unknown_comm_is_ignored(kc):
    msg_id = send_raw_request(kc, "shell", "comm_msg", {"comm_id": uuid.uuid4().hex, "data": {"x": 1}})
    collect_iopub(kc, msg_id)  # busy/idle, no crash
    assert eval_text(kc, "1+1") == "2"


def test_kernel_info_on_control(kc):
    msg_id = send_raw_request(kc, "control", "kernel_info_request")
    reply = get_reply(kc, msg_id, channel="control")
    assert reply["msg_type"] == "kernel_info_reply"
    c = reply["content"]
    assert c["status"] == "ok"
    assert c["protocol_version"] == "5.4"
    assert c["implementation"] == "neurogo"
    assert c["language_info"]["name"] == "go"
    assert c["language_info"]["file_extension"] == ".go"


# --- forged and malformed messages -----------------------------------------------------------


def _drain(sock: zmq.Socket, wait_ms: int = 0) -> list[list[bytes]]:
    got = []
    while sock.poll(wait_ms):
        got.append(sock.recv_multipart())
        wait_ms = 0
    return got


def test_forged_signature_is_dropped(shared):
    km, kc = shared
    info = connection_info(km)
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.linger = 0
    sock.sndtimeo = 5000
    sock.connect(endpoint(info, "shell_port"))
    try:
        code = {"code": "ngForged := 42", "silent": False, "store_history": True,
                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}
        _, frames = wire_message(b"not the key", "execute_request", code)
        sock.send_multipart(frames)
        _, frames = wire_message(info["key"], "execute_request", code, sig=b"")
        sock.send_multipart(frames)
        _, frames = wire_message(info["key"], "kernel_info_request", {})
        good = sign(info["key"], *frames[2:6])
        bad = bytes([good[0] ^ 1]) + good[1:]  # one hex digit changed
        frames[1] = bad
        sock.send_multipart(frames)
        replies = _drain(sock, 1000)
        assert replies == [], f"kernel answered a forged message: {replies[:1]}"
    finally:
        sock.close()
    msg_id = kc.kernel_info()
    assert get_reply(kc, msg_id)["msg_type"] == "kernel_info_reply"
    reply, outputs = execute(kc, "ngForged")
    assert reply["content"]["status"] == "error", f"a forged execute_request ran: {describe(reply, outputs)}"
    assert eval_text(kc, "1+1") == "2"


FUZZ_N = int(os.environ.get("NEUROGO_FUZZ_N", "200"))
FUZZ_SEED = int(os.environ.get("NEUROGO_FUZZ_SEED", "20240601"))
HUGE_BYTES = 60 * 1024 * 1024  # one frame, below the kernel's 100 MB bound

# Request types a correctly signed fuzz message may carry: never
# shutdown_request (which would legitimately stop the kernel).
FUZZ_TYPES = [
    "kernel_info_request", "execute_request", "complete_request", "inspect_request",
    "is_complete_request", "history_request", "comm_info_request", "comm_open", "comm_msg",
    "comm_close", "interrupt_request", "input_reply", "debug_request", "connect_request",
    "usage_request", "foo_request", "", "_request", "x" * 300, "execute_reply", "status",
]

# Adversarial contents for correctly signed messages of known types.
FUZZ_CONTENTS: dict[str, list[Any]] = {
    "execute_request": [
        {"code": 42}, {"code": ["a"]}, {"code": None}, {"silent": "yes"}, {"store_history": 1},
        {"user_expressions": [1, 2]}, {"user_expressions": {"a": 5}}, {"code": "", "allow_stdin": "no"},
        {"code": "}{"}, {"code": "\x00"}, {"code": 'import "C"'}, {"code": "package main"},
        {"code": "ngFuzz ::= 1"}, {"code": "\ufeff\u202e"}, {"code": "/*"},
    ],
    "complete_request": [
        {"code": "fmt.", "cursor_pos": -5}, {"code": "fmt.", "cursor_pos": 10**12},
        {"code": "", "cursor_pos": 3}, {"code": "πππ.", "cursor_pos": 2}, {"code": 5, "cursor_pos": "x"},
        {"code": ".", "cursor_pos": 1}, {"code": "a.b.c.d.", "cursor_pos": 8},
    ],
    "inspect_request": [
        {"code": "fmt.Println", "cursor_pos": -1}, {"code": "x", "cursor_pos": 10**9},
        {"code": "", "cursor_pos": 0, "detail_level": 7}, {"code": ".", "cursor_pos": 1},
        {"code": "os.", "cursor_pos": 3}, {"code": "\udcff", "cursor_pos": 1},
    ],
    "is_complete_request": [
        {"code": None}, {"code": 1}, {"code": "{" * 5000}, {"code": "(" * 3000 + ")" * 10},
        {"code": "`"}, {"code": "/*"}, {"code": "'"}, {"code": "\x00\x01"},
    ],
    "history_request": [
        {"hist_access_type": "range", "start": -3, "stop": 10**9, "output": True, "raw": True},
        {"hist_access_type": "tail", "n": -1, "output": True, "raw": True},
        {"hist_access_type": "search", "pattern": "[", "output": False, "raw": True},
        {"hist_access_type": "search", "pattern": "\\", "unique": True, "n": 10**6},
        {"hist_access_type": "nonsense"}, {"hist_access_type": 5}, {"n": "many"},
    ],
    "comm_open": [{"comm_id": 5}, {"target_name": None}, {}, {"comm_id": "x", "target_name": "y", "data": "z"}],
    "comm_msg": [{"comm_id": None}, {"data": [1]}],
    "input_reply": [{"value": 5}, {"value": None}, {}],
}


class Fuzzer:
    """Seeded generator of malformed messages (frame lists, no identity)."""

    def __init__(self, seed: int, key: bytes) -> None:
        self.rng = random.Random(seed)
        self.key = key

    def rbytes(self, lo: int = 0, hi: int = 512) -> bytes:
        return self.rng.randbytes(self.rng.randint(lo, hi))

    def rjson(self, depth: int = 0) -> Any:
        r = self.rng
        kinds = ["null", "bool", "int", "float", "str"] + (["list", "dict"] if depth < 4 else [])
        k = r.choice(kinds)
        if k == "null":
            return None
        if k == "bool":
            return r.random() < 0.5
        if k == "int":
            return r.choice([0, -1, 1, 2**63, -(2**63) - 1, 10**30, r.randint(-1000, 1000)])
        if k == "float":
            return r.choice([0.5, -1e308, 1e-320, float("nan"), float("inf")])
        if k == "str":
            return "".join(chr(r.randint(0, 0x2FFF)) for _ in range(r.randint(0, 40)))
        if k == "list":
            return [self.rjson(depth + 1) for _ in range(r.randint(0, 5))]
        return {self.rjson_key(): self.rjson(depth + 1) for _ in range(r.randint(0, 5))}

    def rjson_key(self) -> str:
        return self.rng.choice(["msg_id", "msg_type", "session", "code", "cursor_pos", "content", "", "\x00",
                                "header", "version", "date", "username", "a" * 50])

    def dumps(self, v: Any) -> bytes:
        return json.dumps(v).encode()  # NaN/Infinity produce invalid JSON on purpose

    def valid(self, msg_type: str | None = None, content: Any = None) -> list[bytes]:
        t = msg_type if msg_type is not None else self.rng.choice(FUZZ_TYPES)
        if content is None:
            content = self.rng.choice(FUZZ_CONTENTS.get(t, [{}]))
        h = {"msg_id": uuid.UUID(int=self.rng.getrandbits(128)).hex, "session": "fuzz", "username": "fuzz",
             "date": "2024-06-01T00:00:00.000000Z", "msg_type": t, "version": "5.4"}
        parts = [self.dumps(h), b"{}", b"{}", self.dumps(content)]
        return [DELIM, sign(self.key, *parts), *parts]

    # categories ------------------------------------------------------
    def random_frames(self) -> list[bytes]:
        frames = [self.rbytes() for _ in range(self.rng.randint(1, 8))]
        if self.rng.random() < 0.3:
            frames.insert(self.rng.randrange(len(frames) + 1), DELIM)
        return frames

    def random_json(self) -> list[bytes]:
        return [DELIM, self.rng.randbytes(32).hex().encode()] + [self.dumps(self.rjson()) for _ in range(4)]

    def missing_delimiter(self) -> list[bytes]:
        frames = self.valid()
        return frames[1:] if self.rng.random() < 0.5 else [self.rbytes(1, 16)] + frames[1:]

    def bad_signature(self) -> list[bytes]:
        forged = {"code": "ngFuzzForged := 1", "silent": False, "store_history": True,
                  "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}
        frames = self.valid("execute_request" if self.rng.random() < 0.5 else None, forged)
        sig = frames[1]
        choice = self.rng.randrange(6)
        if choice == 0:
            i = self.rng.randrange(len(sig))
            sig = sig[:i] + (b"0" if sig[i:i + 1] != b"0" else b"1") + sig[i + 1:]
        elif choice == 1:
            sig = b""
        elif choice == 2:
            sig = sig.upper()
        elif choice == 3:
            sig = sign(b"wrong-key", *frames[2:6])
        elif choice == 4:
            sig = sig[: self.rng.randrange(len(sig))]
        else:
            sig = self.rbytes(1, 100)
        frames[1] = sig
        return frames

    def signed_garbage(self) -> list[bytes]:
        r = self.rng
        choice = r.randrange(5)
        if choice == 0:  # random bytes, correctly signed
            parts = [self.rbytes() for _ in range(4)]
        elif choice == 1:  # random JSON values everywhere
            parts = [self.dumps(self.rjson()) for _ in range(4)]
        elif choice == 2:  # header with wrongly typed fields
            h = {"msg_id": self.rjson(), "msg_type": r.choice([5, None, [], {}, True]), "session": self.rjson()}
            parts = [self.dumps(h), b"{}", b"{}", b"{}"]
        elif choice == 3:  # good header, invalid JSON in one frame
            parts = self.valid()[2:]
            i = r.randrange(1, 4)
            parts[i] = parts[i][: max(0, len(parts[i]) - 1)] + b"{,"
        else:  # good header, content of the wrong JSON type
            parts = self.valid()[2:]
            parts[3] = self.dumps(r.choice([[], "s", 3, None, True, [{}]]))
        return [DELIM, sign(self.key, *parts), *parts]

    def signed_bad_content(self) -> list[bytes]:
        return self.valid()

    def too_few_frames(self) -> list[bytes]:
        frames = self.valid()
        return frames[: self.rng.randint(1, 5)]

    def many_frames(self) -> list[bytes]:
        frames = self.valid(self.rng.choice(["kernel_info_request", "comm_info_request", "foo_request"]), {})
        ids = [self.rbytes(0, 64) for _ in range(self.rng.randint(0, 20))]
        buffers = [self.rbytes(0, 64) for _ in range(self.rng.randint(1, 500))]
        return ids + frames + buffers

    CATEGORIES = ["random_frames", "random_json", "missing_delimiter", "bad_signature",
                  "signed_garbage", "signed_bad_content", "too_few_frames", "many_frames"]

    def message(self, i: int) -> tuple[str, list[bytes]]:
        cat = self.CATEGORIES[i % len(self.CATEGORIES)]
        return cat, getattr(self, cat)()

    def huge(self) -> list[bytes]:
        big = b"\x00" * HUGE_BYTES
        return [DELIM, b"0" * 64, big, b"{}", b"{}", b"{}"]

    # heartbeat: anything goes, the REP socket echoes
    def hb_message(self, i: int) -> tuple[str, list[bytes]]:
        r = self.rng
        choice = i % 4
        if choice == 0:
            return "hb_random", [self.rbytes(0, 256) for _ in range(r.randint(1, 6))]
        if choice == 1:
            return "hb_envelope", [b""] + [self.rbytes(0, 256) for _ in range(r.randint(0, 6))]
        if choice == 2:
            return "hb_many", [b""] + [self.rbytes(0, 16) for _ in range(r.randint(50, 400))]
        return "hb_jupyterish", self.random_frames()


def heartbeat_ok(info: dict[str, Any], timeout: float = 5.0) -> bool:
    sock = zmq.Context.instance().socket(zmq.REQ)
    sock.linger = 0
    sock.connect(endpoint(info, "hb_port"))
    try:
        sock.send(b"ping")
        if not sock.poll(int(timeout * 1000)):
            return False
        return sock.recv() == b"ping"
    finally:
        sock.close()


SOCKETS = {"shell": "shell_port", "control": "control_port", "stdin": "stdin_port", "heartbeat": "hb_port"}


@pytest.mark.fuzz
@pytest.mark.timeout(900)
@pytest.mark.parametrize("socket_name", list(SOCKETS))
def test_fuzz_malformed_messages(fresh, socket_name):
    km, kc = fresh
    info = connection_info(km)
    seed = FUZZ_SEED + list(SOCKETS).index(socket_name)
    fz = Fuzzer(seed, info["key"])
    sock = zmq.Context.instance().socket(zmq.DEALER)
    sock.linger = 0
    sock.sndtimeo = 10000
    sock.sndhwm = 100000
    sock.connect(endpoint(info, SOCKETS[socket_name]))
    replies = 0
    log: list[str] = []
    huge_at = FUZZ_N // 2
    try:
        for i in range(FUZZ_N):
            if socket_name == "heartbeat":
                cat, frames = fz.hb_message(i)
            else:
                cat, frames = fz.message(i)
            log.append(f"#{i} {cat} frames={len(frames)} sizes={[len(f) for f in frames[:8]]}")
            sock.send_multipart(frames)
            if i == huge_at:
                log.append(f"#{i} huge frame of {HUGE_BYTES} bytes")
                sock.send_multipart(fz.huge() if socket_name != "heartbeat" else [b"", b"\x00" * HUGE_BYTES])
            replies += len(_drain(sock))
            if i % 25 == 0 and not km.is_alive():
                pytest.fail(f"kernel died during {socket_name} fuzzing (seed {seed}); last messages:\n" + "\n".join(log[-10:]))
        # let the kernel work through its backlog
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            got = _drain(sock, 300)
            replies += len(got)
            if not got:
                break
    finally:
        sock.close()
    where = f"after {FUZZ_N} malformed messages on {socket_name} (seed {seed}, {replies} replies)"
    print(where)
    assert km.is_alive(), f"kernel died {where}; last messages:\n" + "\n".join(log[-10:])
    assert heartbeat_ok(info), f"heartbeat does not echo {where}"
    flush(kc)
    msg_id = kc.kernel_info()
    assert get_reply(kc, msg_id)["msg_type"] == "kernel_info_reply", where
    msg_id = send_raw_request(kc, "control", "kernel_info_request")
    assert get_reply(kc, msg_id, channel="control")["msg_type"] == "kernel_info_reply", where
    reply, outputs = execute(kc, "1+1")
    assert reply["content"]["status"] == "ok" and result_text(outputs) == "2", f"{where}: {describe(reply, outputs)}"
    reply, outputs = execute(kc, "ngFuzzForged")
    assert reply["content"]["status"] == "error", f"a badly signed execute_request ran {where}"
    # stdin still works after stdin fuzzing (stale input_reply must not leak in)
    if socket_name == "stdin":
        need(kc, "fmt")
        msg_id = kc.execute("var ngIn string; fmt.Scanln(&ngIn); ngIn", allow_stdin=True)
        req = kc.get_stdin_msg(timeout=TIMEOUT)
        assert req["msg_type"] == "input_request"
        kc.input("after-fuzz")
        reply = get_reply(kc, msg_id)
        outputs = collect_iopub(kc, msg_id)
        assert result_text(outputs) == '"after-fuzz"', describe(reply, outputs)


# --- restart and shutdown ---------------------------------------------------------------------


def test_restart_clears_state(fresh):
    km, kc = fresh
    run_ok(kc, "ngBeforeRestart := 1")
    assert eval_text(kc, "ngBeforeRestart") == "1"
    km.restart_kernel(now=False)
    kc.wait_for_ready(timeout=2 * TIMEOUT)
    flush(kc)
    reply, outputs = execute(kc, "ngBeforeRestart")
    assert reply["content"]["status"] == "error", f"state survived a restart: {describe(reply, outputs)}"
    assert eval_text(kc, "1+1") == "2"


def test_shutdown(fresh):
    km, kc = fresh
    run_ok(kc, "1")
    msg_id = kc.shutdown(restart=False)
    reply = get_reply(kc, msg_id, channel="control")
    assert reply["msg_type"] == "shutdown_reply"
    assert reply["content"]["status"] == "ok"
    assert reply["content"]["restart"] is False
    assert wait_until(lambda: not km.is_alive(), timeout=10), "kernel still running 10 s after shutdown_request"
    proc = getattr(km.provisioner, "process", None)
    if proc is not None:
        assert proc.poll() == 0, f"kernel exit status {proc.poll()} after shutdown_request"


def test_output_streams_while_the_cell_runs(kc: Any) -> None:
    """stdout of a running cell, also from a goroutine it started, reaches
    the front end before the cell ends (not only at execute_reply)."""
    flush(kc)
    code = (
        'import (\n\t"fmt"\n\t"time"\n)\n'
        'fmt.Println("first")\n'
        'go func() { fmt.Println("from goroutine") }()\n'
        "time.Sleep(1500 * time.Millisecond)\n"
        'fmt.Println("last")'
    )
    msg_id = kc.execute(code)
    seen: dict[str, float] = {}
    deadline = time.monotonic() + 30
    while "idle" not in seen and time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=30)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        now = time.monotonic()
        if msg["msg_type"] == "stream":
            for word in ("first", "from goroutine", "last"):
                if word in msg["content"]["text"]:
                    seen.setdefault(word, now)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            seen["idle"] = now
    get_reply(kc, msg_id)
    assert {"first", "from goroutine", "last", "idle"} <= set(seen), seen
    assert seen["idle"] - seen["first"] > 1.0, f"'first' arrived only {seen['idle'] - seen['first']:.2f} s before the end"
    assert seen["idle"] - seen["from goroutine"] > 1.0, seen


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def fit_cell(name: str) -> str:
    """A cell that fits a small model for 4 epochs (2 batches each, 150 ms
    at each epoch's end) with package notebook's Progress and LivePlot."""
    return f"""
{name}Net := toolkit.New("live", 1)
{name}X := {name}Net.Const("x", 0)
{name}A := {name}Net.Ensemble("a", 10, 1)
{name}Net.Connect({name}X, {name}A).Synapse = nil
{name}P := {name}Net.Probe("p", {name}A, "")
{name}M, err := train.New({name}Net)
if err != nil {{
    panic(err)
}}
if err := {name}M.Compile(train.Config{{Optimizer: &optim.Adam{{}}, Loss: map[*toolkit.Probe]loss.Loss{{{name}P: loss.MSE{{}}}}}}); err != nil {{
    panic(err)
}}
{name}Xs, _ := train.ArrayFromRows([][]float64{{{{0.1}}, {{0.5}}, {{-0.3}}, {{0.9}}}}, 1)
{name}Ys, _ := train.ArrayFromRows([][]float64{{{{0.01}}, {{0.25}}, {{0.09}}, {{0.81}}}}, 1)
{name}Slow := train.CallbackFuncs{{EpochEnd: func(m *train.Model, epoch int, logs train.Logs) error {{
    time.Sleep(150 * time.Millisecond)
    return nil
}}}}
_, err = {name}M.Fit(map[*toolkit.Node]*train.Array{{{name}X: {name}Xs}}, map[*toolkit.Probe]*train.Array{{{name}P: {name}Ys}},
    train.FitOptions{{Epochs: 4, BatchSize: 2, Callbacks: []train.Callback{{notebook.NewProgress(nil), &notebook.LivePlot{{}}, {name}Slow}}}})
if err != nil {{
    panic(err)
}}
"""


def need_fit(kc: Any) -> None:
    need(kc, "time", "github.com/neurogo/neurogo/notebook",
         "github.com/neurogo/neurogo/toolkit", "github.com/neurogo/neurogo/train",
         "github.com/neurogo/neurogo/train/loss", "github.com/neurogo/neurogo/train/optim")


def by_id(outputs: list[dict[str, Any]], kind: str, did: str) -> list[dict[str, Any]]:
    return [o for o in of_type(outputs, kind) if o["content"].get("transient", {}).get("display_id") == did]


def test_fit_shows_live_progress_and_history(kc):
    """train.Fit with package notebook's Progress and LivePlot callbacks,
    seen by a client that keeps the widgets' comms open (as JupyterLab's
    widget manager and nbclient do): the progress is one display of
    widgets — a bar, labels and the loss plot, opened as comms and updated
    through them while training runs — that also carries the HTML bar and
    text, brought up to date once when training ends. The history plot is
    shown under its own display id and updated in place; its PNG is
    declared at its CSS size with no SVG."""
    need_fit(kc)
    _, outputs = run_ok(kc, fit_cell("ngLive"))

    bar, bar_updates = by_id(outputs, "display_data", "neurogo-fit"), by_id(outputs, "update_display_data", "neurogo-fit")
    assert len(bar) == 1, describe({}, outputs)
    first = bar[0]["content"]["data"]
    assert WIDGET_VIEW in first and "<progress" in first["text/html"] and "text/plain" in first, sorted(first)
    assert len(bar_updates) == 1, f"{len(bar_updates)} progress display updates, want the final one"
    final = bar_updates[0]["content"]["data"]
    assert final[WIDGET_VIEW] == first[WIDGET_VIEW], (final[WIDGET_VIEW], first[WIDGET_VIEW])
    assert "Epoch 4/4" in final["text/plain"] and "Epoch 4/4" in final["text/html"], final

    models = {m["content"]["comm_id"]: m["content"]["data"]["state"]["_model_name"]
              for m in of_type(outputs, "comm_open")}
    assert first[WIDGET_VIEW]["model_id"] in models, "the displayed box was not opened as a comm"
    names = sorted(models.values())
    assert "FloatProgressModel" in names and "ImageModel" in names and "VBoxModel" in names, names
    bar_id = next(i for i, n in models.items() if n == "FloatProgressModel")
    values = [m["content"]["data"]["state"]["value"] for m in of_type(outputs, "comm_msg")
              if m["content"]["comm_id"] == bar_id and "value" in m["content"]["data"].get("state", {})]
    assert len(values) >= 3 and values[-1] == 1, f"progress bar values {values}"
    images = [m for m in of_type(outputs, "comm_msg")
              if models.get(m["content"]["comm_id"]) == "ImageModel" and m.get("buffers")]
    assert images, "the loss plot was never sent"

    plot, plot_updates = by_id(outputs, "display_data", "neurogo-history"), by_id(outputs, "update_display_data", "neurogo-history")
    assert len(plot) == 1 and "image/png" in plot[0]["content"]["data"], describe({}, outputs)
    assert len(plot_updates) >= 2, f"{len(plot_updates)} history updates"
    assert all("image/png" in u["content"]["data"] for u in plot_updates)
    for o in plot + plot_updates:
        assert set(o["content"]["data"]) == {"image/png", "text/plain"}, sorted(o["content"]["data"])
        assert o["content"]["data"]["text/plain"].startswith("<viz.TrainingHistory ")
        assert o["content"]["metadata"]["image/png"]["width"] in (420, 840), o["content"]["metadata"]


def test_fit_progress_falls_back_to_html(kc):
    """A front end without a widget manager (JupyterLab or Notebook without
    the widgets extension) closes every widget comm the kernel opens. The
    client here does so as each comm_open arrives, while the cell runs;
    the progress display is then kept up to date as the HTML bar, updated
    in place without the widget view."""
    need_fit(kc)
    msg_id = kc.execute(fit_cell("ngRefuse"))
    outputs: list[dict[str, Any]] = []
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=1)
        except queue.Empty:
            continue
        if m.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        outputs.append(m)
        if m["msg_type"] == "comm_open" and m["content"].get("target_name") == "jupyter.widget":
            kc.shell_channel.send(kc.session.msg("comm_close", {"comm_id": m["content"]["comm_id"], "data": {}}))
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    reply = get_reply(kc, msg_id)
    assert reply["content"]["status"] == "ok", describe(reply, outputs)

    bar, bar_updates = by_id(outputs, "display_data", "neurogo-fit"), by_id(outputs, "update_display_data", "neurogo-fit")
    assert len(bar) == 1 and "<progress" in bar[0]["content"]["data"]["text/html"], describe({}, outputs)
    assert len(bar_updates) >= 3, f"{len(bar_updates)} progress updates"
    for u in bar_updates:
        assert WIDGET_VIEW not in u["content"]["data"] and "<progress" in u["content"]["data"]["text/html"], u
    assert "Epoch 4/4" in bar_updates[-1]["content"]["data"]["text/plain"]
