"""Helpers shared by the neurogo protocol tests.

Every wait here is bounded: a helper either returns what it was waiting for
or raises ``TimeoutError`` after ``timeout`` seconds (default ``TIMEOUT``),
so that a kernel that stops answering fails a test instead of hanging it.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import queue
import re
import time
import uuid
from datetime import datetime, timezone
from typing import Any

KERNEL_NAME = os.environ.get("NEUROGO_KERNEL_NAME", "neurogo")

# Upper bound of one wait for a reply or an output (seconds).
TIMEOUT = float(os.environ.get("NEUROGO_TEST_TIMEOUT", "30"))

ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def strip_ansi(s: str) -> str:
    return ANSI_RE.sub("", s)


def _get(kc: Any, channel: str, timeout: float) -> dict[str, Any]:
    getter = getattr(kc, f"get_{channel}_msg")
    return getter(timeout=timeout)


def get_reply(kc: Any, msg_id: str, channel: str = "shell", timeout: float = TIMEOUT) -> dict[str, Any]:
    """Return the reply to msg_id on channel, skipping unrelated replies."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no reply to {msg_id} on {channel} within {timeout}s")
        try:
            msg = _get(kc, channel, remaining)
        except queue.Empty:
            continue
        if msg.get("parent_header", {}).get("msg_id") == msg_id:
            return msg


def _stash(kc: Any) -> dict[str, list[dict[str, Any]]]:
    st = getattr(kc, "_ng_iopub_stash", None)
    if st is None:
        st = {}
        kc._ng_iopub_stash = st
    return st


def collect_iopub(kc: Any, msg_id: str, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
    """Collect the iopub messages whose parent is msg_id up to (and
    including) its status idle. Returns them in arrival order. Messages of
    other requests read on the way are kept for later calls (requests sent
    without waiting interleave their outputs)."""
    deadline = time.monotonic() + timeout
    stash = _stash(kc)
    out = stash.pop(msg_id, [])
    for i, m in enumerate(out):
        if m["msg_type"] == "status" and m["content"].get("execution_state") == "idle":
            rest = out[i + 1:]
            if rest:
                stash[msg_id] = rest
            return out[: i + 1]
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(
                f"no status idle for {msg_id} within {timeout}s; got {[m['msg_type'] for m in out]}"
            )
        try:
            msg = kc.get_iopub_msg(timeout=remaining)
        except queue.Empty:
            continue
        parent = msg.get("parent_header", {}).get("msg_id")
        if parent != msg_id:
            if parent and sum(len(v) for v in stash.values()) < 100000:
                stash.setdefault(parent, []).append(msg)
            continue
        out.append(msg)
        if msg["msg_type"] == "status" and msg["content"].get("execution_state") == "idle":
            return out


def execute(kc: Any, code: str, timeout: float = TIMEOUT, **kw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run code; return (execute_reply, iopub messages of the request)."""
    msg_id = kc.execute(code, **kw)
    reply = get_reply(kc, msg_id, timeout=timeout)
    outputs = collect_iopub(kc, msg_id, timeout=timeout)
    return reply, outputs


def flush(kc: Any) -> None:
    """Drop messages left on the shell, iopub and stdin channels."""
    _stash(kc).clear()
    for ch in ("shell", "iopub", "stdin"):
        for _ in range(10000):
            try:
                _get(kc, ch, 0.05)
            except queue.Empty:
                break


def of_type(outputs: list[dict[str, Any]], msg_type: str) -> list[dict[str, Any]]:
    return [m for m in outputs if m["msg_type"] == msg_type]


def stream_text(outputs: list[dict[str, Any]], name: str = "stdout") -> str:
    return "".join(m["content"]["text"] for m in of_type(outputs, "stream") if m["content"]["name"] == name)


def result_data(outputs: list[dict[str, Any]]) -> dict[str, Any] | None:
    res = of_type(outputs, "execute_result")
    if not res:
        return None
    return res[-1]["content"]["data"]


def result_text(outputs: list[dict[str, Any]]) -> str | None:
    data = result_data(outputs)
    return None if data is None else data.get("text/plain")


def describe(reply: dict[str, Any], outputs: list[dict[str, Any]]) -> str:
    """A readable summary of an execution, for assertion messages."""
    c = reply["content"]
    parts = [f"status={c.get('status')!r}"]
    if c.get("status") == "error":
        parts.append(f"ename={c.get('ename')!r} evalue={c.get('evalue')!r}")
        parts.append("traceback=" + repr([strip_ansi(t) for t in c.get("traceback", [])]))
    for m in outputs:
        t = m["msg_type"]
        if t == "stream":
            parts.append(f"{m['content']['name']}: {m['content']['text']!r}")
        elif t in ("execute_result", "display_data", "update_display_data"):
            d = dict(m["content"]["data"])
            for k, v in d.items():
                if isinstance(v, str) and len(v) > 200:
                    d[k] = v[:200] + "…"
            parts.append(f"{t}: {d!r}")
        elif t == "error":
            parts.append(f"error: {m['content'].get('ename')!r} {m['content'].get('evalue')!r}")
    return "; ".join(parts)


def run_ok(kc: Any, code: str, timeout: float = TIMEOUT, **kw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run code and assert it succeeded."""
    reply, outputs = execute(kc, code, timeout=timeout, **kw)
    assert reply["content"]["status"] == "ok", f"cell failed:\n{code}\n-> {describe(reply, outputs)}"
    return reply, outputs


def eval_text(kc: Any, code: str, timeout: float = TIMEOUT) -> str | None:
    """Run code that must succeed; return its execute_result text/plain."""
    _, outputs = run_ok(kc, code, timeout=timeout)
    return result_text(outputs)


def send_raw_request(kc: Any, channel: str, msg_type: str, content: dict[str, Any] | None = None) -> str:
    """Send a message of any type on shell or control with the client's
    session; return its msg_id."""
    msg = kc.session.msg(msg_type, content or {})
    getattr(kc, f"{channel}_channel").send(msg)
    return msg["header"]["msg_id"]


# --- raw wire helpers (for fuzzing and forged messages) -------------------

DELIM = b"<IDS|MSG>"


def sign(key: bytes, *frames: bytes) -> bytes:
    h = hmac.new(key, digestmod=hashlib.sha256)
    for f in frames:
        h.update(f)
    return h.hexdigest().encode()


def header(msg_type: str, session: str | None = None) -> dict[str, Any]:
    return {
        "msg_id": uuid.uuid4().hex,
        "session": session or uuid.uuid4().hex,
        "username": "fuzz",
        "date": datetime.now(timezone.utc).isoformat(),
        "msg_type": msg_type,
        "version": "5.4",
    }


def wire_message(key: bytes, msg_type: str, content: dict[str, Any], *, sig: bytes | None = None,
                 session: str | None = None) -> tuple[str, list[bytes]]:
    """Frames of a message (without routing identities), signed with key
    unless sig is given. Returns (msg_id, frames)."""
    h = header(msg_type, session)
    hb = json.dumps(h).encode()
    pb = b"{}"
    mb = b"{}"
    cb = json.dumps(content).encode()
    s = sign(key, hb, pb, mb, cb) if sig is None else sig
    return h["msg_id"], [DELIM, s, hb, pb, mb, cb]


def connection_info(km: Any) -> dict[str, Any]:
    info = km.get_connection_info()
    key = info["key"]
    if isinstance(key, str):
        key = key.encode()
    info["key"] = key
    return info


def endpoint(info: dict[str, Any], port_name: str) -> str:
    transport = info.get("transport", "tcp")
    if transport == "ipc":
        return f"ipc://{info['ip']}-{info[port_name]}"
    return f"tcp://{info['ip']}:{info[port_name]}"


def wait_until(pred: Any, timeout: float = TIMEOUT, interval: float = 0.05) -> bool:
    """Poll pred until it is true or timeout passes; return its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(interval)
    return bool(pred())


def need(kc: Any, *paths: str) -> None:
    """Import packages into the kernel of kc once per kernel, so that a test
    that is not about imports does not depend on re-importing a package
    (tests about imports import explicitly)."""
    done = getattr(kc, "_ng_imported", None)
    if done is None:
        done = set()
        kc._ng_imported = done
    todo = [p for p in paths if p not in done]
    if not todo:
        return
    code = "import (\n" + "".join(f'\t"{p}"\n' for p in todo) + ")"
    run_ok(kc, code)
    done.update(todo)


def start_kernel(kernel_name: str = KERNEL_NAME, ready_timeout: float = 2 * TIMEOUT) -> tuple[Any, Any]:
    """Start a kernel and a blocking client whose channels are ready."""
    from jupyter_client.manager import KernelManager  # noqa: PLC0415

    km = KernelManager(kernel_name=kernel_name)
    km.shutdown_wait_time = 5.0
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=ready_timeout)
    except Exception:
        stop_kernel(km, kc)
        raise
    return km, kc


def stop_kernel(km: Any, kc: Any) -> None:
    try:
        kc.stop_channels()
    except Exception:
        pass
    try:
        km.shutdown_kernel(now=not km.is_alive())
    except Exception:
        try:
            km.shutdown_kernel(now=True)
        except Exception:
            pass
    try:
        km.cleanup_resources()
    except Exception:
        pass
