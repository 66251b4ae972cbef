#!/usr/bin/env python3
"""The Go distribution's own run tests, sent to the neurogo kernel as cells.

The measure of "cells are Go": every program directly in GOROOT/test,
GOROOT/test/ken and GOROOT/test/typeparam whose first line is exactly
``// run`` and that passes under ``go run`` is sent to a fresh neurogo
kernel as ONE cell (the whole file text, with its ``package main`` line and
comments), followed by a second cell ``main()``. The program passes when the
stream text of both cells (stdout and stderr, in arrival order) equals what
``go run`` prints (stdout and stderr combined) exactly, and neither cell
replied with status error.

This file is a library (used by test_goroot_sample.py) and a CLI:

    # the kernelspec must be on JUPYTER_PATH (scripts/goroot-corpus does it)
    python3 kernel/jupytertest/goroot_corpus.py [--jobs 2] [--only PATTERN]
        [--sample FILE] [--json OUT] [--report OUT.md]
    python3 kernel/jupytertest/goroot_corpus.py --make-sample OUT.txt

Reference runs (``go run FILE`` in the file's directory, GOFLAGS="",
60 s) are cached in .cache/goroot-ref/<go version>/<relpath>.json, keyed by
the file's sha256. Output that is not valid UTF-8 is compared after
decoding with U+FFFD replacement (a Jupyter stream carries text, so a
kernel can send nothing else).

Exit status: 0 when the run completed (whatever the figure), 2 on a usage
error (unknown --sample entry, no kernelspec).
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime as dt
import difflib
import hashlib
import json
import multiprocessing as mp
import os
import platform
import queue
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
KERNEL_NAME = os.environ.get("NEUROGO_KERNEL_NAME", "neurogo")
SUBDIRS = ("test", "test/ken", "test/typeparam")
REF_TIMEOUT = 60.0
CELL_TIMEOUT = 120.0
START_TIMEOUT = 60.0
MAX_JOBS = 2  # two kernels at a time at most (2-core machines)
DIFF_LINES = 20


# --- the Go toolchain ---------------------------------------------------------

_go_env_cache: dict[str, str] = {}


def go_env(name: str) -> str:
    if name not in _go_env_cache:
        _go_env_cache[name] = subprocess.run(
            ["go", "env", name], capture_output=True, text=True, check=True
        ).stdout.strip()
    return _go_env_cache[name]


def goroot() -> Path:
    return Path(go_env("GOROOT"))


def go_version() -> str:
    return go_env("GOVERSION")


# --- build constraints ----------------------------------------------------------

_TOKEN_RE = re.compile(r"\s*(\(|\)|!|&&|\|\||[A-Za-z0-9_.]+)")


def _satisfied_tags() -> set[str]:
    tags = {"linux", "amd64", "unix", "gc"}
    if go_env("CGO_ENABLED") == "1":
        tags.add("cgo")
    m = re.match(r"go1\.(\d+)", go_version())
    if m:
        tags.update(f"go1.{i}" for i in range(1, int(m.group(1)) + 1))
    return tags


def eval_constraint(expr: str, tags: set[str]) -> bool | None:
    """Evaluate a //go:build expression for linux/amd64; None when it uses a
    tag we cannot decide here (goexperiment.*, ...): go run decides then."""
    toks = _TOKEN_RE.findall(expr)
    if "".join(toks).replace(" ", "") != expr.replace(" ", ""):
        return None
    pos = 0
    unknown = False

    def peek() -> str | None:
        return toks[pos] if pos < len(toks) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return toks[pos - 1]

    def or_() -> bool:
        v = and_()
        while peek() == "||":
            take()
            v = and_() or v
        return v

    def and_() -> bool:
        v = not_()
        while peek() == "&&":
            take()
            v = not_() and v
        return v

    def not_() -> bool:
        if peek() == "!":
            take()
            return not not_()
        return atom()

    def atom() -> bool:
        nonlocal unknown
        t = take()
        if t == "(":
            v = or_()
            if take() != ")":
                raise ValueError("missing )")
            return v
        if t.startswith("goexperiment."):
            unknown = True  # go run decides
            return False
        return t in tags

    try:
        v = or_()
        if pos != len(toks):
            return None
    except (IndexError, ValueError):
        return None
    return None if unknown else v


def build_constraint(text: str) -> str | None:
    """The //go:build expression of a file (before its package clause)."""
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("package "):
            break
        if s.startswith("//go:build "):
            return s[len("//go:build "):].strip()
    return None


# --- candidates -----------------------------------------------------------------

def first_line(path: Path) -> str:
    with open(path, "rb") as f:
        return f.readline().decode("utf-8", "replace").rstrip()


def candidates(root: Path | None = None) -> list[str]:
    """Relative paths ("test/ken/chan.go") of the files directly in
    GOROOT/test, test/ken and test/typeparam whose first line is exactly
    "// run", sorted."""
    root = root or goroot()
    out = []
    for sub in SUBDIRS:
        d = root / sub
        for p in d.glob("*.go"):
            if p.is_file() and first_line(p) == "// run":
                out.append(f"{sub}/{p.name}")
    return sorted(out)


# --- references (go run) --------------------------------------------------------

def cache_dir() -> Path:
    return Path(os.environ.get("NEUROGO_GOROOT_REF_CACHE", REPO_ROOT / ".cache" / "goroot-ref")) / go_version()


def _decode(b: bytes) -> tuple[str, bool]:
    try:
        return b.decode("utf-8"), True
    except UnicodeDecodeError:
        return b.decode("utf-8", "replace"), False


def reference(rel: str, root: Path | None = None, use_cache: bool = True) -> dict[str, Any]:
    """What `go run FILE` prints: {"rel", "sha256", "rc", "output",
    "utf8", "seconds", "excluded"} where excluded is None (rc 0),
    "constraint" or "go run fails" (with the reason in "why")."""
    root = root or goroot()
    path = root / rel
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    cpath = cache_dir() / (rel + ".json")
    if use_cache and cpath.is_file():
        try:
            c = json.loads(cpath.read_text())
            if c.get("sha256") == sha:
                c["cached"] = True
                return c
        except (OSError, ValueError):
            pass
    rec: dict[str, Any] = {"rel": rel, "sha256": sha, "rc": None, "output": "", "utf8": True,
                           "seconds": 0.0, "excluded": None, "why": ""}
    expr = build_constraint(data.decode("utf-8", "replace"))
    ok = eval_constraint(expr, _satisfied_tags()) if expr else True
    if ok is False:
        rec["excluded"] = "constraint"
        rec["why"] = f"//go:build {expr}"
    else:
        env = dict(os.environ, GOFLAGS="")
        t0 = time.monotonic()
        try:
            p = subprocess.run(["go", "run", path.name], cwd=path.parent, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=REF_TIMEOUT)
            rec["rc"] = p.returncode
            rec["output"], rec["utf8"] = _decode(p.stdout)
        except subprocess.TimeoutExpired as e:
            rec["rc"] = -1
            rec["output"], rec["utf8"] = _decode(e.stdout or b"")
            rec["why"] = f"timeout after {REF_TIMEOUT:.0f} s"
        rec["seconds"] = round(time.monotonic() - t0, 3)
        if "build constraints exclude all Go files" in rec["output"]:
            rec["excluded"] = "constraint"
            rec["why"] = rec["output"].strip().splitlines()[-1][:200]
        elif rec["rc"] != 0:
            rec["excluded"] = "go run fails"
            if not rec["why"]:
                tail = [ln for ln in rec["output"].strip().splitlines() if ln.strip()]
                rec["why"] = f"exit {rec['rc']}: " + (tail[0][:200] if tail else "")
    try:
        cpath.parent.mkdir(parents=True, exist_ok=True)
        tmp = cpath.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(rec))
        tmp.replace(cpath)
    except OSError:
        pass
    rec["cached"] = False
    return rec


def references(rels: list[str], jobs: int = MAX_JOBS, root: Path | None = None,
               progress: bool = False) -> dict[str, dict[str, Any]]:
    """References of many files, `jobs` go run processes at a time."""
    root = root or goroot()
    out: dict[str, dict[str, Any]] = {}
    with cf.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futs = {pool.submit(reference, r, root): r for r in rels}
        for i, f in enumerate(cf.as_completed(futs), 1):
            r = futs[f]
            out[r] = f.result()
            if progress and not out[r]["cached"]:
                print(f"  ref [{i}/{len(rels)}] {r}: rc={out[r]['rc']} {out[r]['seconds']:.1f}s",
                      file=sys.stderr, flush=True)
    return out


# --- the kernel run -------------------------------------------------------------

@dataclass
class CellRun:
    status: str = ""          # ok, error, timeout, died
    ename: str = ""
    evalue: str = ""
    traceback: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class KernelRun:
    rel: str
    streams: list[tuple[int, str, str]] = field(default_factory=list)  # (cell, name, text)
    cells: list[CellRun] = field(default_factory=list)
    start_seconds: float = 0.0
    total_seconds: float = 0.0
    problem: str = ""         # "", "timeout", "kernel died", "start failed: ..."

    def text(self) -> str:
        return "".join(t for _, _, t in self.streams)


_ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _run_cell(km: Any, kc: Any, code: str, cell: int, run: KernelRun, timeout: float) -> CellRun:
    cr = CellRun()
    t0 = time.monotonic()
    deadline = t0 + timeout
    msg_id = kc.execute(code, store_history=True, allow_stdin=False)
    idle = False
    while not idle:
        left = deadline - time.monotonic()
        if left <= 0:
            cr.status = "timeout"
            cr.seconds = round(time.monotonic() - t0, 3)
            return cr
        try:
            msg = kc.get_iopub_msg(timeout=min(1.0, left))
        except queue.Empty:
            if not km.is_alive():
                cr.status = "died"
                cr.seconds = round(time.monotonic() - t0, 3)
                return cr
            continue
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        t = msg["msg_type"]
        c = msg["content"]
        if t == "stream":
            run.streams.append((cell, c.get("name", ""), c.get("text", "")))
        elif t == "error" and not cr.ename:
            cr.ename, cr.evalue = c.get("ename", ""), c.get("evalue", "")
            cr.traceback = [_ANSI_RE.sub("", x) for x in c.get("traceback", [])]
        elif t == "status" and c.get("execution_state") == "idle":
            idle = True
    # the execute_reply
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            cr.status = "timeout"
            break
        try:
            msg = kc.get_shell_msg(timeout=min(1.0, left))
        except queue.Empty:
            if not km.is_alive():
                cr.status = "died"
                break
            continue
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        c = msg["content"]
        cr.status = c.get("status", "")
        if cr.status == "error":
            cr.ename = c.get("ename", cr.ename)
            cr.evalue = c.get("evalue", cr.evalue)
            cr.traceback = [_ANSI_RE.sub("", x) for x in c.get("traceback", [])] or cr.traceback
        break
    cr.seconds = round(time.monotonic() - t0, 3)
    return cr


def kernel_run(rel: str, root: str | None = None, cell_timeout: float = CELL_TIMEOUT,
               kernel_name: str = KERNEL_NAME) -> KernelRun:
    """Send the file as one cell, then `main()`, to a fresh kernel started
    in the file's directory."""
    from jupyter_client.manager import KernelManager  # noqa: PLC0415

    path = Path(root or goroot()) / rel
    code = path.read_text(encoding="utf-8", errors="replace")
    run = KernelRun(rel=rel)
    t0 = time.monotonic()
    km = KernelManager(kernel_name=kernel_name)
    km.shutdown_wait_time = 5.0
    kc = None
    try:
        try:
            km.start_kernel(cwd=str(path.parent), env=dict(os.environ, GOFLAGS=""))
            kc = km.client()
            kc.start_channels()
            kc.wait_for_ready(timeout=START_TIMEOUT)
        except Exception as e:  # noqa: BLE001
            run.problem = f"start failed: {type(e).__name__}: {str(e)[:200]}"
            return run
        run.start_seconds = round(time.monotonic() - t0, 3)
        for i, src in enumerate((code, "main()"), 1):
            cr = _run_cell(km, kc, src, i, run, cell_timeout)
            run.cells.append(cr)
            if cr.status == "timeout":
                run.problem = "timeout"
                try:
                    km.interrupt_kernel()
                    time.sleep(2.0)
                except Exception:  # noqa: BLE001
                    pass
                break
            if cr.status == "died":
                run.problem = "kernel died"
                break
            if cr.status != "ok":
                break  # main() would only repeat the first cell's error
        return run
    finally:
        if kc is not None:
            try:
                kc.stop_channels()
            except Exception:  # noqa: BLE001
                pass
        try:
            km.shutdown_kernel(now=bool(run.problem) or not km.is_alive())
        except Exception:  # noqa: BLE001
            try:
                km.shutdown_kernel(now=True)
            except Exception:  # noqa: BLE001
                pass
        try:
            km.cleanup_resources()
        except Exception:  # noqa: BLE001
            pass
        run.total_seconds = round(time.monotonic() - t0, 3)


def _kernel_run_dict(rel: str, root: str, cell_timeout: float) -> dict[str, Any]:
    return asdict(kernel_run(rel, root, cell_timeout))


# --- judging -------------------------------------------------------------------

@dataclass
class Result:
    rel: str
    passed: bool
    kind: str = ""            # "", compile error, panic, output differs, timeout, kernel died, error
    reason: str = ""
    diff: str = ""
    ref_seconds: float = 0.0
    start_seconds: float = 0.0
    cell_seconds: list[float] = field(default_factory=list)
    cell_output_chars: list[int] = field(default_factory=list)  # stream text per cell
    want_chars: int = 0
    total_seconds: float = 0.0


def _first_line(s: str) -> str:
    for ln in s.splitlines():
        if ln.strip():
            return ln.strip()
    return s.strip()


def short_diff(want: str, got: str, n: int = DIFF_LINES) -> str:
    d = list(difflib.unified_diff(want.splitlines(keepends=True), got.splitlines(keepends=True),
                                  "go run", "kernel", n=1))
    lines = []
    for ln in d[:n]:
        ln = ln.rstrip("\n")
        lines.append(ln if len(ln) <= 200 else ln[:200] + "…")
    if len(d) > n:
        lines.append(f"… ({len(d) - n} more diff lines)")
    if not d:  # equal lines, different line ends
        lines.append(f"(same lines; go run {len(want)} chars, kernel {len(got)} chars)")
    return "\n".join(lines)


def judge(ref: dict[str, Any], run: KernelRun) -> Result:
    r = Result(rel=run.rel, passed=False, ref_seconds=ref.get("seconds", 0.0),
               start_seconds=run.start_seconds, cell_seconds=[c.seconds for c in run.cells],
               cell_output_chars=[sum(len(t) for c, _, t in run.streams if c == i)
                                  for i in range(1, len(run.cells) + 1)],
               want_chars=len(ref["output"]), total_seconds=run.total_seconds)
    got = run.text()
    want = ref["output"]
    if run.problem.startswith("start failed"):
        r.kind, r.reason = "kernel died", run.problem
        return r
    if run.problem == "timeout":
        which = len(run.cells)
        r.kind, r.reason = "timeout", f"timeout in cell {which} after {CELL_TIMEOUT:.0f} s"
        return r
    if run.problem == "kernel died":
        r.kind, r.reason = "kernel died", f"kernel died in cell {len(run.cells)}"
        if got != want:
            r.diff = short_diff(want, got)
        return r
    for i, c in enumerate(run.cells, 1):
        if c.status != "ok":
            ev = _first_line(c.evalue)
            if c.ename == "CompileError":
                r.kind = "compile error"
            elif c.ename == "panic":
                r.kind = "panic"
            else:
                r.kind = "error"
                ev = f"{c.ename}: {ev}"
            where = "" if i == 1 else " (in main())"
            r.reason = f"{r.kind}{where}: {ev[:300]}"
            if got != want:
                r.diff = short_diff(want, got)
            return r
    if got != want:
        r.kind, r.reason = "output differs", "output differs"
        r.diff = short_diff(want, got)
        return r
    r.passed = True
    return r


_POS_RE = re.compile(r"(?:(?:cell line )?\d+:\d+:\s*)+")
_QUOTED_RE = re.compile(r"\"[^\"]*\"|'[^']*'|`[^`]*`")
_NUM_RE = re.compile(r"\b\d+\b")


def reason_group(res: Result) -> str:
    """The reason with positions, quoted text and numbers blurred, so that
    failures of the same cause group together."""
    if res.kind in ("output differs", "timeout"):
        return res.kind
    s = _POS_RE.sub("", res.reason)
    s = _QUOTED_RE.sub("…", s)
    s = _NUM_RE.sub("N", s)
    return s[:160]


# --- selection ------------------------------------------------------------------

def read_sample(path: str | Path) -> list[str]:
    out = []
    for ln in Path(path).read_text().splitlines():
        ln = ln.split("#", 1)[0].strip()
        if ln:
            out.append(ln)
    return out


SAMPLE_FILE = Path(__file__).resolve().parent / "goroot_sample.txt"

# Programs named in the sample for the features they exercise (each passes
# under go run in well under 2 s); the rest of the sample is every k-th
# quick program of each directory. (test/typeparam/issue49547.go, which
# prints a generic function's symbol name, is not named: in the kernel
# that name carries the cell package's path where go run has main — one of
# the differences kernel/native/doc.go lists; the full corpus reports it.)
SAMPLE_FEATURES = {
    "closures in loops": ["test/closure2.go", "test/closure.go", "test/range4.go", "test/ken/litfun.go"],
    "generics": ["test/typeparam/list.go", "test/typeparam/orderedmap.go", "test/typeparam/graph.go",
                 "test/typeparam/sets.go", "test/typeparam/slices.go", "test/typeparam/map.go"],
    "interfaces": ["test/ken/interbasic.go", "test/ken/intervar.go", "test/ken/interfun.go", "test/typeswitch.go"],
    "reflection and %T": ["test/reflectmethod1.go", "test/reflectmethod2.go", "test/typeparam/issue53087.go",
                          "test/typeparam/stringer.go"],
    "maps": ["test/map.go", "test/typeparam/maps.go", "test/ken/range.go"],
    "goroutines and channels": ["test/ken/chan.go", "test/ken/chan1.go", "test/chancap.go", "test/typeparam/chans.go",
                                "test/235.go"],
    "defer and recover": ["test/recover.go", "test/recover1.go", "test/recover2.go", "test/defernil.go",
                          "test/defer.go", "test/deferprint.go"],
    "method values": ["test/method5.go", "test/typeparam/boundmethod.go", "test/method7.go", "test/method.go"],
}
SAMPLE_QUICK = 2.0     # seconds of go run for an every-k-th pick
SAMPLE_PER_DIR = {"test": 20, "test/ken": 10, "test/typeparam": 20}
# Left out of the sample (not of the corpus): programs whose outcome hangs on
# the runtime's internals or the machine rather than on the language —
# finalizers and GC timing, allocation counts, wall-clock timing, running
# the go tool — so that the sample's verdict is stable on a loaded machine.
SAMPLE_AVOID_RE = re.compile(r"runtime\.GC\(|SetFinalizer|MemStats|exec\.Command|time\.Now|runtime\.MemProfileRate")


def make_sample(refs: dict[str, dict[str, Any]]) -> tuple[list[str], dict[str, str]]:
    """The pinned sample: the named feature programs that exist, pass and are
    quick, plus every k-th quick passing program of each directory's sorted
    list (k = count // wanted), without duplicates; programs matching
    SAMPLE_AVOID_RE are never picked. Returns (sorted list,
    why each was picked)."""
    root = goroot()
    ok = {r for r, ref in refs.items() if ref["excluded"] is None and ref["seconds"] < SAMPLE_QUICK
          and not SAMPLE_AVOID_RE.search((root / r).read_text(encoding="utf-8", errors="replace"))}
    why: dict[str, str] = {}
    for feat, rels in SAMPLE_FEATURES.items():
        for r in rels:
            if r in ok and r not in why:
                why[r] = feat
    for sub, want in SAMPLE_PER_DIR.items():
        pool = sorted(r for r in ok if r.rsplit("/", 1)[0] == sub)
        if not pool:
            continue
        k = max(1, len(pool) // want)
        for r in pool[::k][:want]:
            why.setdefault(r, f"every {k}th of {sub}")
    return sorted(why), why


# --- the CLI -------------------------------------------------------------------

def _machine() -> str:
    try:
        un = subprocess.run(["uname", "-a"], capture_output=True, text=True).stdout.strip()
    except OSError:
        un = platform.platform()
    return f"{un}; nproc {os.cpu_count() if not hasattr(os, 'sched_getaffinity') else len(os.sched_getaffinity(0))}"


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def summarize(cands: list[str], refs: dict[str, dict[str, Any]], results: dict[str, Result]) -> dict[str, Any]:
    excl_constraint = sorted(r for r in cands if refs[r]["excluded"] == "constraint")
    excl_fails = sorted(r for r in cands if refs[r]["excluded"] == "go run fails")
    runnable = [r for r in cands if refs[r]["excluded"] is None]
    passed = sorted(r for r in runnable if r in results and results[r].passed)
    failed = sorted(r for r in runnable if r in results and not results[r].passed)
    kinds: dict[str, int] = {}
    groups: dict[str, int] = {}
    for r in failed:
        kinds[results[r].kind] = kinds.get(results[r].kind, 0) + 1
        g = reason_group(results[r])
        groups[g] = groups.get(g, 0) + 1
    times = [results[r].total_seconds for r in runnable if r in results]
    return {
        "candidates": len(cands),
        "excluded_constraint": len(excl_constraint),
        "excluded_go_run_fails": len(excl_fails),
        "runnable": len(runnable),
        "run": len(passed) + len(failed),
        "passed": len(passed),
        "failed": len(failed),
        "percent": round(100.0 * len(passed) / len(runnable), 1) if runnable and results else None,
        "kinds": dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
        "reasons": dict(sorted(groups.items(), key=lambda kv: (-kv[1], kv[0]))),
        "seconds_per_program_mean": round(sum(times) / len(times), 2) if times else None,
        "seconds_per_program_median": round(sorted(times)[len(times) // 2], 2) if times else None,
        "excluded": {r: f"{refs[r]['excluded']}: {refs[r]['why']}" for r in excl_constraint + excl_fails},
    }


def write_report(path: Path, argv: list[str], summary: dict[str, Any], results: dict[str, Result],
                 wall: float, jobs: int) -> None:
    s = summary
    lines = [
        "# The Go distribution's `// run` programs as neurogo cells",
        "",
        f"- Command: `{' '.join(argv)}`",
        f"- Date: {dt.datetime.now(dt.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')}",
        f"- Go: {go_version()} (GOROOT {goroot()})",
        f"- Machine: `{_machine()}`",
        f"- Kernels at a time: {jobs}; wall time {wall:.0f} s; "
        f"per program mean {s['seconds_per_program_mean']} s, median {s['seconds_per_program_median']} s "
        "(kernel start + both cells + shutdown)",
        "",
        "Each program (first line exactly `// run`, directly in GOROOT/test, test/ken or "
        "test/typeparam) is sent to a fresh kernel as one cell (the whole file), then `main()`; "
        "it passes when the stream text of both cells equals `go run`'s combined output "
        "exactly and neither cell replied with an error.",
        "",
        f"**{s['passed']} / {s['runnable']} passed ({_pct(s['passed'], s['runnable'])})**"
        + ("" if s["run"] == s["runnable"] else f" — only {s['run']} of them were run"),
        "",
        "| | programs |",
        "| --- | ---: |",
        f"| candidates (`// run`) | {s['candidates']} |",
        f"| excluded: build constraint | {s['excluded_constraint']} |",
        f"| excluded: fails under go run | {s['excluded_go_run_fails']} |",
        f"| pass under go run | {s['runnable']} |",
        f"| passed in the kernel | {s['passed']} |",
        f"| failed in the kernel | {s['failed']} |",
        "",
        "## Failures by kind",
        "",
        "| kind | count |",
        "| --- | ---: |",
    ]
    lines += [f"| {k} | {n} |" for k, n in s["kinds"].items()]
    lines += ["", "## Most common reasons", "", "| reason (positions, quoted text and numbers blurred) | count |",
              "| --- | ---: |"]
    lines += ["| " + g.replace("|", "\\|") + f" | {n} |" for g, n in list(s["reasons"].items())[:25]]
    lines += ["", "## Failures", ""]
    for r in sorted(results):
        res = results[r]
        if res.passed:
            continue
        lines.append(f"- `{r}` — {res.reason.replace(chr(10), ' ')}")
        if res.diff:
            lines.append("")
            lines.append("  ```diff")
            lines += ["  " + ln for ln in res.diff.splitlines()]
            lines.append("  ```")
    lines += ["", "## Excluded", ""]
    lines += [f"- `{r}` — {w}" for r, w in s["excluded"].items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def _have_kernelspec() -> bool:
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel  # noqa: PLC0415

    try:
        KernelSpecManager().get_kernel_spec(KERNEL_NAME)
        return True
    except NoSuchKernel:
        return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=MAX_JOBS, help="kernels (and go run processes) at a time, at most 2")
    ap.add_argument("--only", metavar="PATTERN", help="only the candidates whose relative path matches this regexp")
    ap.add_argument("--sample", metavar="FILE", help="only the programs listed in FILE (one relative path a line)")
    ap.add_argument("--json", metavar="OUT", help="write the results as JSON")
    ap.add_argument("--report", metavar="OUT.md", help="write a Markdown report")
    ap.add_argument("--refs-only", action="store_true", help="only compute (and cache) the go run references")
    ap.add_argument("--make-sample", metavar="OUT.txt", help="write the pinned sample (from the references) and stop")
    ap.add_argument("--cell-timeout", type=float, default=CELL_TIMEOUT, help="seconds per cell (120)")
    args = ap.parse_args(argv)
    jobs = max(1, min(args.jobs, MAX_JOBS))
    if args.jobs > MAX_JOBS:
        print(f"--jobs {args.jobs}: running {MAX_JOBS} kernels at a time at most", file=sys.stderr)

    root = goroot()
    cands = candidates(root)
    if args.sample:
        sample = read_sample(args.sample)
        unknown = [r for r in sample if r not in set(cands)]
        if unknown:
            print(f"--sample {args.sample}: not `// run` candidates: {unknown}", file=sys.stderr)
            return 2
        cands = [r for r in cands if r in set(sample)]
    if args.only:
        pat = re.compile(args.only)
        cands = [r for r in cands if pat.search(r)]
    t0 = time.monotonic()
    print(f"{len(cands)} candidates; go run references ({jobs} at a time, cached in {cache_dir()})",
          file=sys.stderr, flush=True)
    refs = references(cands, jobs, root, progress=True)
    print(f"references: {time.monotonic() - t0:.1f} s", file=sys.stderr, flush=True)

    if args.make_sample:
        if args.sample or args.only:
            print("--make-sample works on the whole candidate list", file=sys.stderr)
            return 2
        picked, why = make_sample(refs)
        head = SAMPLE_HEADER.format(quick=SAMPLE_QUICK, per_dir=", ".join(f"{k}: {v}" for k, v in SAMPLE_PER_DIR.items()),
                                    n=len(picked), go=go_version())
        body = [f"{r:<40} # {why[r]} ({refs[r]['seconds']:.2f} s)" for r in picked]
        Path(args.make_sample).write_text(head + "\n".join(body) + "\n")
        print(f"wrote {len(picked)} programs to {args.make_sample}", file=sys.stderr)
        return 0
    if args.refs_only:
        s = summarize(cands, refs, {})
        print(json.dumps({k: v for k, v in s.items() if k != "excluded"}, indent=1))
        return 0
    if not _have_kernelspec():
        print(f"kernelspec {KERNEL_NAME!r} not found on JUPYTER_PATH={os.environ.get('JUPYTER_PATH', '')!r}; "
              "use scripts/goroot-corpus, or: bin/neurogo install --prefix $TMP && "
              "export JUPYTER_PATH=$TMP/share/jupyter", file=sys.stderr)
        return 2

    runnable = [r for r in cands if refs[r]["excluded"] is None]
    results: dict[str, Result] = {}
    t1 = time.monotonic()
    ctx = mp.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        futs = {pool.submit(_kernel_run_dict, r, str(root), args.cell_timeout): r for r in runnable}
        for i, f in enumerate(cf.as_completed(futs), 1):
            r = futs[f]
            try:
                d = f.result()
                run = KernelRun(rel=d["rel"], streams=[tuple(s) for s in d["streams"]],
                                cells=[CellRun(**c) for c in d["cells"]], start_seconds=d["start_seconds"],
                                total_seconds=d["total_seconds"], problem=d["problem"])
            except Exception as e:  # noqa: BLE001
                run = KernelRun(rel=r, problem=f"start failed: worker: {type(e).__name__}: {e}")
            res = judge(refs[r], run)
            results[r] = res
            mark = "PASS" if res.passed else "FAIL"
            print(f"[{i}/{len(runnable)}] {mark} {r} ({res.total_seconds:.1f} s)"
                  + ("" if res.passed else f": {res.reason[:200]}"), flush=True)
    wall = time.monotonic() - t1
    s = summarize(cands, refs, results)

    print()
    print(f"candidates: {s['candidates']}")
    print(f"excluded: {s['excluded_constraint'] + s['excluded_go_run_fails']} "
          f"(build constraint {s['excluded_constraint']}, fails under go run {s['excluded_go_run_fails']})")
    print(f"passed: {s['passed']}")
    print(f"failed: {s['failed']}")
    print(f"pass rate: {s['passed']}/{s['runnable']} = {_pct(s['passed'], s['runnable'])}")
    print(f"time: {wall:.0f} s for {len(runnable)} programs, {jobs} at a time "
          f"(per program mean {s['seconds_per_program_mean']} s, median {s['seconds_per_program_median']} s)")
    if s["kinds"]:
        print("\nfailures by kind:")
        for k, n in s["kinds"].items():
            print(f"  {n:5d}  {k}")
        print("\nmost common reasons:")
        for g, n in list(s["reasons"].items())[:10]:
            print(f"  {n:5d}  {g}")
    cmd = ["python3", "kernel/jupytertest/goroot_corpus.py"] + (sys.argv[1:] if argv is None else argv)
    if args.json:
        out = {
            "command": " ".join(cmd),
            "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "go": go_version(),
            "machine": _machine(),
            "jobs": jobs,
            "wall_seconds": round(wall, 1),
            "summary": s,
            "results": {r: asdict(res) for r, res in sorted(results.items())},
        }
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    if args.report:
        write_report(Path(args.report), cmd, s, results, wall, jobs)
    return 0


SAMPLE_HEADER = """\
# A pinned sample of the Go distribution's `// run` programs for the
# neurogo kernel (test_goroot_sample.py runs each as its own test).
#
# Made by `python3 kernel/jupytertest/goroot_corpus.py --make-sample FILE`
# ({go}), deterministically from the sorted candidate list and the cached
# go run references:
#   1. the programs named in goroot_corpus.SAMPLE_FEATURES for a feature
#      (closures in loops, generics, interfaces, reflection/%T, maps,
#      goroutines/channels, defer/recover, method values) that exist and
#      pass under go run in < {quick} s;
#   2. every k-th program of each directory's sorted list of the programs
#      that pass under go run in < {quick} s (k = that count // wanted;
#      wanted per directory: {per_dir}).
# Never picked: programs matching goroot_corpus.SAMPLE_AVOID_RE (finalizers,
# runtime.GC, MemStats, time.Now, exec.Command: their outcome hangs on the
# runtime or the machine, not on the language).
# No program whose reference run takes > 5 s is here. The comment after
# each path says why it was picked and its go run time when the sample was
# made. Edit by hand only with care: the file is the pinned list.
# {n} programs.
"""


if __name__ == "__main__":
    sys.exit(main())
