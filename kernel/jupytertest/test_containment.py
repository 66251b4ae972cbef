"""Crash containment through a real Jupyter client.

The kernel process owns the sockets; cells run in an executor process
that the kernel supervises. Whatever a cell does to the executor — runaway
recursion, a fatal runtime error, an unrecovered panic in a goroutine, an
exit the kernel cannot intercept, memory beyond the limit, code that does
not stop on interrupt — the kernel answers with an error naming the cause
within CRASH_BOUND seconds, restarts the executor, and the next cell runs.
Variables of earlier cells are gone afterwards, and the error says so.
The kernel's own log lines never reach the notebook.
"""
from __future__ import annotations

import json
import subprocess
import time
from typing import Any

import pytest
import zmq

from ktools import (
    TIMEOUT,
    collect_iopub,
    connection_info,
    describe,
    endpoint,
    eval_text,
    execute,
    get_reply,
    of_type,
    run_ok,
    send_raw_request,
    start_kernel,
    stop_kernel,
    strip_ansi,
    wire_message,
)

# the error of a cell that killed the executor arrives within this bound (s)
CRASH_BOUND = 5.0
# what the error says about the lost state
LOST = "variables"


def kernel_pid(km: Any) -> int | None:
    proc = getattr(getattr(km, "provisioner", None), "process", None)
    return getattr(proc, "pid", None)


def timed_error(kc: Any, code: str, timeout: float = TIMEOUT) -> tuple[float, str, str, str, list[dict[str, Any]]]:
    """Run a cell that must fail; return (seconds to the reply, ename,
    evalue, traceback text, iopub messages)."""
    t0 = time.monotonic()
    msg_id = kc.execute(code)
    reply = get_reply(kc, msg_id, timeout=timeout)
    took = time.monotonic() - t0
    outputs = collect_iopub(kc, msg_id, timeout=timeout)
    c = reply["content"]
    assert c["status"] == "error", f"expected an error from:\n{code}\n-> {describe(reply, outputs)}"
    errs = of_type(outputs, "error")
    assert len(errs) == 1, f"expected one iopub error message: {describe(reply, outputs)}"
    assert errs[0]["content"]["ename"] == c["ename"]
    return took, c["ename"], strip_ansi(c["evalue"]), strip_ansi("\n".join(c["traceback"])), outputs


def streams_of(outputs: list[dict[str, Any]]) -> str:
    return "".join(m["content"]["text"] for m in of_type(outputs, "stream"))


def check_contained(km: Any, kc: Any, code: str, want_ename: str, want_cause: str, setup: str | None = None) -> None:
    """Run code that kills the executor; check the reply, the absence of
    a trace flood, the restart and the lost state."""
    pid = kernel_pid(km)
    run_ok(kc, "ngContained := 41")
    if setup:
        run_ok(kc, setup)
    took, ename, evalue, tb, outputs = timed_error(kc, code)
    assert ename == want_ename, f"{ename}: {evalue}"
    assert want_cause in evalue, f"cause {want_cause!r} not in {evalue!r}"
    assert LOST in evalue and "restarted" in evalue, f"the error does not say the state was lost: {evalue!r}"
    assert took < CRASH_BOUND, f"the error took {took:.1f}s (bound {CRASH_BOUND}s)"
    # the runtime's trace is summarised in the traceback, never streamed
    text = streams_of(outputs)
    assert "goroutine " not in text, f"the fatal trace was sent as output: {text[:500]!r}"
    assert len(tb.splitlines()) <= 40, f"traceback of {len(tb.splitlines())} lines"
    # the kernel process survived; the next cell runs in a new executor
    assert km.is_alive()
    assert kernel_pid(km) == pid, "the kernel process was restarted (only the executor should be)"
    assert eval_text(kc, "1+1") == "2"
    reply, outs = execute(kc, "ngContained")
    assert reply["content"]["status"] == "error", f"a variable survived the executor's death: {describe(reply, outs)}"


def test_infinite_recursion(shared):
    km, kc = shared
    check_contained(km, kc, "ngRec(0)", "ExecutorDied", "stack overflow",
                    setup="func ngRec(n int) int { return ngRec(n+1) + 1 }")


def test_concurrent_map_writes(shared):
    km, kc = shared
    code = (
        'import "time"\n'
        "ngM := map[int]int{}\n"
        "for i := 0; i < 2; i++ {\n\tgo func() {\n\t\tfor j := 0; ; j++ {\n\t\t\tngM[j] = j\n\t\t}\n\t}()\n}\n"
        "time.Sleep(20 * time.Second)"
    )
    check_contained(km, kc, code, "ExecutorDied", "concurrent map writes")


def test_nil_dereference_in_goroutine(shared):
    km, kc = shared
    # the function runs in a goroutine of the time package: nothing of the
    # cell's recovers its panic
    code = (
        'import (\n\t"strings"\n\t"time"\n)\n'
        "time.AfterFunc(0, func() {\n\tvar b *strings.Builder\n\tb.Len()\n})\n"
        "time.Sleep(20 * time.Second)"
    )
    check_contained(km, kc, code, "ExecutorDied", "nil pointer dereference")


def test_unrecovered_panic_in_goroutine(shared):
    km, kc = shared
    code = 'import "time"\ntime.AfterFunc(0, func() { panic("ngBoom") })\ntime.Sleep(20 * time.Second)'
    check_contained(km, kc, code, "ExecutorDied", "ngBoom")


def test_exit_the_kernel_cannot_intercept(shared):
    km, kc = shared
    check_contained(km, kc, 'import "syscall"\nsyscall.Exit(3)', "ExecutorDied", "status 3")


def test_os_exit_is_intercepted(shared):
    # os.Exit in a cell stops the cell only: the state stays
    km, kc = shared
    run_ok(kc, "ngExitKeep := 5")
    took, ename, evalue, _, _ = timed_error(kc, 'import "os"\nos.Exit(3)')
    assert ename == "Exit" and "3" in evalue, evalue
    assert took < CRASH_BOUND
    assert eval_text(kc, "ngExitKeep") == "5"


def test_death_after_the_cell_finished(shared):
    # a goroutine crashes the executor after its cell ended: the next cell
    # says so and runs in a new executor
    km, kc = shared
    run_ok(kc, "ngLate := 1")
    run_ok(kc, 'import "time"\ntime.AfterFunc(200*time.Millisecond, func() { panic("ngLateBoom") })')
    time.sleep(1.5)
    assert km.is_alive()
    reply, outputs = execute(kc, "2+3")
    assert reply["content"]["status"] == "ok", describe(reply, outputs)
    notice = "".join(m["content"]["text"] for m in of_type(outputs, "stream") if m["content"]["name"] == "stderr")
    assert "ngLateBoom" in notice and LOST in notice, f"no notice of the death: {describe(reply, outputs)}"
    reply, outputs = execute(kc, "ngLate")
    assert reply["content"]["status"] == "error"


# --- memory limit --------------------------------------------------------------------


@pytest.fixture
def small_memory_kernel(tmp_path, neurogo_kernelspec):
    """A kernel installed with `neurogo install --memory-limit 512MiB`."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    exe = neurogo_kernelspec.argv[0]
    subprocess.run([exe, "install", "--prefix", str(tmp_path), "--memory-limit", "512MiB"], check=True,
                   capture_output=True, timeout=60)
    kdir = tmp_path / "share" / "jupyter" / "kernels"
    spec = json.loads((kdir / "neurogo" / "kernel.json").read_text())
    i = spec["argv"].index("--memory-limit")
    assert spec["argv"][i + 1] == "512MiB", spec["argv"]
    ksm = KernelSpecManager(kernel_dirs=[str(kdir)])
    km = KernelManager(kernel_name="neurogo", kernel_spec_manager=ksm)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=2 * TIMEOUT)
        yield km, kc
    finally:
        stop_kernel(km, kc)


def test_runaway_allocation(small_memory_kernel):
    km, kc = small_memory_kernel
    code = "var ngS [][]byte\nfor {\n\tngS = append(ngS, make([]byte, 1<<26))\n}"
    check_contained(km, kc, code, "MemoryLimitExceeded", "limit of 512 MiB")
    # memory outside the Go heap (resident pages of an anonymous mapping,
    # watched by the kernel's poll of the executor's RSS) counts too
    code = (
        'import (\n\t"bytes"\n\t"syscall"\n)\n'
        "ngOnes := bytes.Repeat([]byte{1}, 1<<24)\n"
        "var ngMaps [][]byte\n"
        "for {\n"
        "\tm, err := syscall.Mmap(-1, 0, 1<<24, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)\n"
        "\tif err != nil {\n\t\tpanic(err)\n\t}\n"
        "\tcopy(m, ngOnes)\n"
        "\tngMaps = append(ngMaps, m)\n"
        "}"
    )
    check_contained(km, kc, code, "MemoryLimitExceeded", "--memory-limit")


# --- interrupt -------------------------------------------------------------------------


def _wait_output(kc: Any, msg_id: str, text: str, timeout: float = TIMEOUT) -> None:
    """Wait until the cell msg_id printed text (it is then running, past
    any compilation)."""
    deadline = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=max(0.01, deadline - time.monotonic()))
        except Exception:
            continue
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "stream":
            seen += m["content"]["text"]
            if text in seen:
                return
    raise TimeoutError(f"the cell did not print {text!r} (got {seen!r})")


def test_interrupt_stops_a_loop(fresh):
    """The interpreter stops a loop at the first interrupt and keeps the
    state. A compiled loop without calls cannot be stopped cooperatively:
    there the first interrupt leaves it running (and unreported) and the
    second restarts the executor."""
    km, kc = fresh
    run_ok(kc, "ngLoopKeep := 3")
    msg_id = kc.execute('import "fmt"\nngN := 0\nfmt.Println("ngLooping")\nfor {\n\tngN++\n}')
    _wait_output(kc, msg_id, "ngLooping")
    time.sleep(0.2)
    t0 = time.monotonic()
    km.interrupt_kernel()
    try:
        reply = get_reply(kc, msg_id, timeout=CRASH_BOUND)
        second = False
    except TimeoutError:
        km.interrupt_kernel()
        t0 = time.monotonic()
        reply = get_reply(kc, msg_id, timeout=15)
        second = True
    took = time.monotonic() - t0
    outputs = collect_iopub(kc, msg_id)
    c = reply["content"]
    assert c["status"] == "error" and c["ename"] == "Interrupted", describe(reply, outputs)
    assert took < CRASH_BOUND
    if second:
        assert "did not stop on interrupt" in c["evalue"] and LOST in c["evalue"], c["evalue"]
        assert eval_text(kc, "1+1") == "2"
    else:
        assert "restarted" not in c["evalue"], c["evalue"]
        assert eval_text(kc, "ngLoopKeep") == "3"


def test_second_interrupt_restarts_a_cell_that_does_not_stop(fresh):
    km, kc = fresh
    pid = kernel_pid(km)
    run_ok(kc, "ngBlockKeep := 9")
    # blocked in compiled code (sync.WaitGroup.Wait): cancellation cannot reach it
    msg_id = kc.execute('import (\n\t"fmt"\n\t"sync"\n)\nvar ngWG sync.WaitGroup\nngWG.Add(1)\nfmt.Println("ngBlocking")\nngWG.Wait()')
    _wait_output(kc, msg_id, "ngBlocking")
    time.sleep(0.2)
    km.interrupt_kernel()
    # the kernel keeps answering, and does not call the cell stopped while
    # its code still runs
    info = send_raw_request(kc, "control", "kernel_info_request")
    assert get_reply(kc, info, channel="control", timeout=5)["msg_type"] == "kernel_info_reply"
    with pytest.raises(TimeoutError):
        get_reply(kc, msg_id, timeout=1.5)
    t0 = time.monotonic()
    km.interrupt_kernel()
    reply = get_reply(kc, msg_id, timeout=15)
    took = time.monotonic() - t0
    outputs = collect_iopub(kc, msg_id)
    c = reply["content"]
    assert c["status"] == "error" and c["ename"] == "Interrupted", describe(reply, outputs)
    evalue = strip_ansi(c["evalue"])
    assert "did not stop on interrupt" in evalue and "restarted" in evalue and LOST in evalue, evalue
    assert took < CRASH_BOUND, f"the second interrupt took {took:.1f}s"
    assert km.is_alive() and kernel_pid(km) == pid
    assert eval_text(kc, "1+1") == "2"
    reply, _ = execute(kc, "ngBlockKeep")
    assert reply["content"]["status"] == "error"
    # the execution count went on
    assert reply["content"]["execution_count"] >= 4


# --- the kernel's log ------------------------------------------------------------------


def test_kernel_log_never_reaches_the_notebook(fresh):
    """Forged and malformed messages make the kernel write log lines; none
    may appear as output of a cell."""
    km, kc = fresh
    run_ok(kc, "ngLogProbe := 1")
    info = connection_info(km)
    ctx = zmq.Context.instance()
    socks = []
    try:
        for port in ("shell_port", "control_port"):
            s = ctx.socket(zmq.DEALER)
            s.linger = 0
            s.sndtimeo = 5000
            s.connect(endpoint(info, port))
            socks.append(s)
            _, frames = wire_message(b"not the key", "execute_request", {"code": "1"})
            s.send_multipart(frames)
            s.send_multipart([b"<IDS|MSG>", b"garbage"])
        # an unknown request type is logged too
        send_raw_request(kc, "shell", "ng_unknown_request")
        time.sleep(1.0)
    finally:
        for s in socks:
            s.close()
    seen = []
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        try:
            m = kc.get_iopub_msg(timeout=0.1)
        except Exception:
            continue
        if m["msg_type"] == "stream":
            seen.append(m["content"]["text"])
    reply, outputs = execute(kc, "ngLogProbe + 1")
    assert reply["content"]["status"] == "ok"
    seen += [m["content"]["text"] for m in of_type(outputs, "stream")]
    assert not seen, f"log lines reached the notebook: {seen!r}"
