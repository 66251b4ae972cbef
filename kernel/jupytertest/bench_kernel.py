#!/usr/bin/env python3
"""Benchmark Jupyter kernels with jupyter_client (used by `neurogo bench kernel`).

For each kernel named on the command line (default: neurogo python3):

  start      time from KernelManager.start_kernel() to the first
             kernel_info_reply on the shell channel; median (and p90) of
             --starts kernel starts (default 10)
  reply      trivial-cell round trip: execute_request "1" -> execute_reply
  idle       execute_request "1" -> execute_reply and status idle on iopub
             (what a front end waits for before the cell counts as done)
             both: median and p90 over --runs runs (default 100) after
             --warmup runs (default 5), on one kernel

It prints a table, the ratios neurogo/<other> for every other kernel
(python3 is ipykernel), and with --json FILE writes the numbers with a
"run" record: command, date (UTC), machine description (from the neurogo
binary through NEUROGO_BENCH_RUN when started by `neurogo bench kernel`,
see internal/machine; a shorter one from Python otherwise) and the versions
of ipykernel and jupyter_client. --report FILE renders that record as a
Markdown page with the renderer of scripts/measure
(scripts/measurements/render.py).

For a Go kernel it also measures compiled cells (--no-compiled skips it):

  declared   functions declared in a cell (an integer loop, a float64
             slice loop, a method on a struct in a hot loop) timed inside
             the kernel, beside the same source built by `go build` and run
             alternately with it (--rounds): the ratio kernel/go build of
             the best times
  ready      a cell declaring a 50-line function that uses the toolkit:
             execute_request to execute_reply (compile, link, load), median
             of --decl-runs runs, each with a changed body

The kernels must be installed kernelspecs (for neurogo: `neurogo install`,
or JUPYTER_PATH pointing at a prefix it was installed into).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import queue
import statistics
import sys
import time
from typing import Any

from jupyter_client.manager import KernelManager

# the trivial cell per language (the same "1" for Go and Python)
TRIVIAL = {"go": "1", "python": "1"}
DEFAULT_KERNELS = ["neurogo", "python3"]


def p90(xs: list[float]) -> float:
    s = sorted(xs)
    return s[max(0, math.ceil(0.9 * len(s)) - 1)]


def summary(xs: list[float]) -> dict[str, Any]:
    return {
        "n": len(xs),
        "median_ms": statistics.median(xs) * 1e3,
        "p90_ms": p90(xs) * 1e3,
        "min_ms": min(xs) * 1e3,
        "max_ms": max(xs) * 1e3,
    }


def wait_reply(channel_get: Any, msg_id: str, deadline: float) -> dict[str, Any]:
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError(f"no reply to {msg_id}")
        try:
            msg = channel_get(timeout=remaining)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg


def stop(km: KernelManager, kc: Any) -> None:
    try:
        kc.stop_channels()
    finally:
        km.shutdown_kernel(now=False)
        km.cleanup_resources()


def measure_start(name: str, timeout: float) -> tuple[float, str]:
    """Seconds from start_kernel() to the first kernel_info_reply."""
    km = KernelManager(kernel_name=name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        deadline = t0 + timeout
        language = ""
        # Requests sent before the kernel binds are queued by zmq and
        # delivered when it connects; ask again now and then in case one
        # was lost.
        while True:
            msg_id = kc.kernel_info()
            try:
                reply = wait_reply(kc.get_shell_msg, msg_id, min(deadline, time.perf_counter() + 2.0))
            except TimeoutError:
                if time.perf_counter() >= deadline:
                    raise TimeoutError(f"{name}: no kernel_info_reply within {timeout}s") from None
                continue
            elapsed = time.perf_counter() - t0
            language = reply["content"].get("language_info", {}).get("name", "")
            return elapsed, language
    finally:
        stop(km, kc)


def measure_cells(name: str, language: str, runs: int, warmup: int, timeout: float) -> tuple[list[float], list[float]]:
    code = TRIVIAL.get(language, "1")
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=timeout)
        replies, idles = [], []
        for i in range(warmup + runs):
            # drop anything left over
            for get in (kc.get_iopub_msg, kc.get_shell_msg):
                while True:
                    try:
                        get(timeout=0)
                    except queue.Empty:
                        break
            t0 = time.perf_counter()
            msg_id = kc.execute(code, store_history=False)
            deadline = t0 + timeout
            reply = wait_reply(kc.get_shell_msg, msg_id, deadline)
            t_reply = time.perf_counter()
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"{name}: {code!r} failed: {reply['content']}")
            while True:
                msg = wait_reply(kc.get_iopub_msg, msg_id, deadline)
                if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    break
            t_idle = time.perf_counter()
            if i >= warmup:
                replies.append(t_reply - t0)
                idles.append(t_idle - t0)
        return replies, idles
    finally:
        stop(km, kc)


# The declared-function workloads: the same source runs as cells and as a
# program built by `go build`. bench() prints "name seconds" lines (best
# of reps runs).
WORKLOADS = r"""
import (
	"fmt"
	"time"
)

func intLoop(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i ^ (i >> 3)
	}
	return s
}

func floatLoop(xs []float64, reps int) float64 {
	s := 0.0
	for r := 0; r < reps; r++ {
		for i, x := range xs {
			s += x * float64(i&7)
		}
	}
	return s
}

type acc struct {
	sum float64
	n   int
}

func (a *acc) add(x float64) { a.sum += x; a.n++ }

func methodLoop(n int) float64 {
	var a acc
	for i := 0; i < n; i++ {
		a.add(float64(i) * 0.5)
	}
	return a.sum
}

var sink float64

func best(reps int, f func()) float64 {
	b := 1e9
	for r := 0; r < reps; r++ {
		t0 := time.Now()
		f()
		if d := time.Since(t0).Seconds(); d < b {
			b = d
		}
	}
	return b
}

func bench(reps int) {
	xs := make([]float64, 1<<16)
	for i := range xs {
		xs[i] = float64(i%13) * 0.25
	}
	fmt.Printf("intLoop %.6f\n", best(reps, func() { sink += float64(intLoop(50_000_000)) }))
	fmt.Printf("floatLoop %.6f\n", best(reps, func() { sink += floatLoop(xs, 400) }))
	fmt.Printf("methodLoop %.6f\n", best(reps, func() { sink += methodLoop(30_000_000) }))
}
"""

# A 50-line function using the toolkit (the "ready" measure); {k} changes
# the body so that every run compiles.
TOOLKIT_CELL = r"""
import (
	"math"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
)

// channel builds a two-ensemble communication channel driven by a sine,
// runs it and returns the root-mean-square error of the decoded output.
func channel(n int, seconds float64, seed int64) (float64, error) {
	net := toolkit.New("channel", seed)
	freq := 1.0 + float64({k})*0.0
	stim := net.Node("stim", 1, func(t float64, out []float64) {
		out[0] = math.Sin(2 * math.Pi * freq * t)
	})
	a := net.Ensemble("a", n, 1)
	b := net.Ensemble("b", n, 1)
	net.Connect(stim, a)
	net.Connect(a, b)
	pin := net.Probe("in", stim, toolkit.AttrOutput)
	pout := net.Probe("out", b, toolkit.AttrDecoded)
	s, err := sim.New(net)
	if err != nil {
		return 0, err
	}
	if err := s.Run(seconds); err != nil {
		return 0, err
	}
	in, err := s.Data(pin)
	if err != nil {
		return 0, err
	}
	out, err := s.Data(pout)
	if err != nil {
		return 0, err
	}
	var sum float64
	count := 0
	for i := range out {
		// the output lags the input by two synaptic filters
		if i < 20 || i >= len(in) {
			continue
		}
		d := out[i][0] - in[i][0]
		sum += d * d
		count++
	}
	if len(out) < 21 {
		return 0, nil
	}
	if count == 0 {
		return 0, nil
	}
	return math.Sqrt(sum / float64(count)), nil
}
"""


def run_cell(kc: Any, code: str, timeout: float) -> tuple[str, float, dict[str, Any]]:
    """Executes code; returns its stdout, the request-to-reply seconds and the reply."""
    t0 = time.perf_counter()
    msg_id = kc.execute(code, store_history=False)
    deadline = t0 + timeout
    reply = wait_reply(kc.get_shell_msg, msg_id, deadline)
    elapsed = time.perf_counter() - t0
    out = []
    while True:
        msg = wait_reply(kc.get_iopub_msg, msg_id, deadline)
        if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
            out.append(msg["content"]["text"])
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"cell failed: {reply['content'].get('ename')}: {reply['content'].get('evalue')}")
    return "".join(out), elapsed, reply


def parse_times(text: str) -> dict[str, float]:
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            out[parts[0]] = float(parts[1])
    return out


def build_workloads(d: str, timeout: float) -> str:
    """Builds WORKLOADS as a program with `go build` in d; returns the executable."""
    import subprocess

    src = "package main\n" + WORKLOADS + "\nfunc main() {\n\treps := 5\n\tif len(os.Args) > 1 {\n\t\treps, _ = strconv.Atoi(os.Args[1])\n\t}\n\tbench(reps)\n}\n"
    src = src.replace('import (\n\t"fmt"', 'import (\n\t"fmt"\n\t"os"\n\t"strconv"', 1)
    with open(os.path.join(d, "main.go"), "w") as f:
        f.write(src)
    with open(os.path.join(d, "go.mod"), "w") as f:
        f.write("module bench\n\ngo 1.22\n")
    exe = os.path.join(d, "bench")
    subprocess.run(["go", "build", "-o", exe, "."], cwd=d, check=True, timeout=timeout)
    return exe


def bench_compiled(name: str, reps: int, rounds: int, decl_runs: int, timeout: float, quiet: bool) -> dict[str, Any]:
    """Declared-function speed beside go build, and the toolkit cell's ready time.

    The kernel's cell and the go-built program run alternately, rounds
    times, and each keeps its best: shared machines are noisy.
    """
    import subprocess
    import tempfile

    km = KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kernel_t: dict[str, float] = {}
    built: dict[str, float] = {}
    try:
        kc.wait_for_ready(timeout=timeout)
        run_cell(kc, WORKLOADS, timeout)
        with tempfile.TemporaryDirectory() as d:
            exe = build_workloads(d, timeout)
            for r in range(rounds):
                out, _, _ = run_cell(kc, f"bench({reps})", timeout)
                for k, v in parse_times(out).items():
                    kernel_t[k] = min(v, kernel_t.get(k, v))
                prog = subprocess.run([exe, str(reps)], check=True, capture_output=True, text=True, timeout=timeout).stdout
                for k, v in parse_times(prog).items():
                    built[k] = min(v, built.get(k, v))
                if not quiet:
                    print(f"  {name}: declared-function round {r + 1}/{rounds}", file=sys.stderr)
        ready = []
        for k in range(decl_runs + 1):
            _, t, _ = run_cell(kc, TOOLKIT_CELL.replace("{k}", str(k + 1)), timeout)
            if k > 0:  # the first run may list and compile the toolkit for plugins
                ready.append(t)
            if not quiet:
                print(f"  {name}: toolkit function cell {k + 1}/{decl_runs + 1}: {t * 1e3:.0f} ms", file=sys.stderr)
        out, _, _ = run_cell(kc, "e, err := channel(100, 0.2, 1)\nfmt.Println(\"rmse\", e, err)", timeout)
    finally:
        stop(km, kc)
    ratios = {k: kernel_t[k] / built[k] for k in kernel_t if k in built and built[k] > 0}
    return {
        "kernel": name,
        "declared_s": kernel_t,
        "go_build_s": built,
        "declared_ratio": ratios,
        "ready": summary(ready),
        "raw": {"ready_s": ready, "channel": out.strip()},
    }


def bench(name: str, starts: int, runs: int, warmup: int, timeout: float, quiet: bool) -> dict[str, Any]:
    start_times = []
    language = ""
    for i in range(starts):
        t, language = measure_start(name, timeout)
        start_times.append(t)
        if not quiet:
            print(f"  {name}: start {i + 1}/{starts}: {t * 1e3:.1f} ms", file=sys.stderr)
    replies, idles = measure_cells(name, language, runs, warmup, timeout)
    return {
        "kernel": name,
        "language": language,
        "start": summary(start_times),
        "reply": summary(replies),
        "idle": summary(idles),
        "raw": {"start_s": start_times, "reply_s": replies, "idle_s": idles},
    }


def fmt_table(results: list[dict[str, Any]]) -> str:
    head = f"{'kernel':<12} {'start med':>10} {'start p90':>10} {'reply med':>10} {'reply p90':>10} {'idle med':>10} {'idle p90':>10}"
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r['kernel']:<12} {r['start']['median_ms']:>8.1f}ms {r['start']['p90_ms']:>8.1f}ms "
            f"{r['reply']['median_ms']:>8.2f}ms {r['reply']['p90_ms']:>8.2f}ms "
            f"{r['idle']['median_ms']:>8.2f}ms {r['idle']['p90_ms']:>8.2f}ms"
        )
    return "\n".join(lines)


def ratios(results: list[dict[str, Any]], ref: str = "neurogo") -> dict[str, dict[str, float]]:
    by = {r["kernel"]: r for r in results}
    if ref not in by:
        return {}
    out = {}
    for other, r in by.items():
        if other == ref:
            continue
        out[f"{ref}/{other}"] = {
            f"{m}_{s}": by[ref][m][f"{s}_ms"] / r[m][f"{s}_ms"]
            for m in ("start", "reply", "idle")
            for s in ("median", "p90")
        }
    return out


def python_machine() -> dict[str, Any]:
    """The machine description when no neurogo binary handed one over
    (same keys as internal/machine.Description; the binary's own are empty)."""
    import subprocess

    d: dict[str, Any] = {"cpu": "", "logical_cores": len(os.sched_getaffinity(0)), "gomaxprocs": 0,
                         "memory_bytes": 0, "os": platform.system().lower(), "kernel": platform.release(),
                         "arch": platform.machine(), "go": "", "goexperiment": "", "build_tags": "",
                         "blas": "", "openblas": False}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    d["cpu"] = " ".join(line.split(":", 1)[1].split())
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    d["memory_bytes"] = int(line.split()[1]) * 1024
                    break
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    d["os"] = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    try:
        d["go"] = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception:
        pass
    return d


def run_record(argv: list[str], args: Any) -> dict[str, Any]:
    """The run record: command, date, machine (with the Python peers), protocol."""
    run: dict[str, Any] = {}
    env = os.environ.get("NEUROGO_BENCH_RUN")
    if env:
        try:
            run = json.loads(env)
        except ValueError:
            run = {}
    if not run:
        run = {
            "command": " ".join(["python3", "kernel/jupytertest/bench_kernel.py", *argv]),
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "machine": python_machine(),
        }
    peers = run["machine"].setdefault("peers", {})
    peers["python"] = platform.python_version()
    for mod in ("ipykernel", "jupyter_client"):
        try:
            peers[mod] = __import__(mod).__version__
        except Exception:
            pass
    run["quick"] = args.starts < 10 or args.runs < 100
    run["protocol"] = {
        "bench": "kernel", "kernels": args.kernels, "starts": args.starts, "runs": args.runs,
        "warmup": args.warmup, "compiled": not args.no_compiled, "reps": args.reps,
        "rounds": args.rounds, "decl_runs": args.decl_runs,
    }
    return run


def write_report(path: str, doc: dict[str, Any]) -> None:
    """Writes doc as the generated Markdown page (scripts/measurements/render.py)."""
    import importlib.util

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    spec = importlib.util.spec_from_file_location("measurements_render", os.path.join(root, "scripts", "measurements", "render.py"))
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    with open(path, "w") as f:
        f.write(mod.render("kernel", doc))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernels", nargs="*", default=DEFAULT_KERNELS, help="kernelspec names (default: neurogo python3)")
    ap.add_argument("-n", "--starts", type=int, default=10, help="kernel starts to time (default 10)")
    ap.add_argument("--runs", type=int, default=100, help="timed trivial cells (default 100)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed trivial cells first (default 5)")
    ap.add_argument("--timeout", type=float, default=60.0, help="bound of each wait in seconds (default 60)")
    ap.add_argument("--json", metavar="FILE", help="write the numbers to FILE")
    ap.add_argument("--report", metavar="FILE", help="write a Markdown page (command, machine, date, results) to FILE")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    ap.add_argument("--no-compiled", action="store_true", help="skip the compiled-cell measures")
    ap.add_argument("--reps", type=int, default=5, help="runs of each declared-function workload, best taken (default 5)")
    ap.add_argument("--rounds", type=int, default=5, help="alternations of the kernel's and the go-built workloads, best kept (default 5)")
    ap.add_argument("--decl-runs", type=int, default=3, help="timed toolkit function cells (default 3)")
    args = ap.parse_args(argv)
    run = run_record(argv if argv is not None else sys.argv[1:], args)
    if args.starts < 1 or args.runs < 1 or args.warmup < 0:
        ap.error("--starts and --runs must be >= 1, --warmup >= 0")

    results = []
    for name in args.kernels:
        if not args.quiet:
            print(f"benchmarking {name} …", file=sys.stderr)
        try:
            results.append(bench(name, args.starts, args.runs, args.warmup, args.timeout, args.quiet))
        except Exception as e:  # report and go on with the other kernels
            print(f"{name}: benchmark failed: {e}", file=sys.stderr)
            results.append({"kernel": name, "error": str(e)})
    ok = [r for r in results if "error" not in r]
    compiled = []
    if not args.no_compiled:
        for r in ok:
            if r.get("language") != "go":
                continue
            if not args.quiet:
                print(f"compiled cells of {r['kernel']} …", file=sys.stderr)
            try:
                compiled.append(bench_compiled(r["kernel"], args.reps, args.rounds, args.decl_runs, max(args.timeout, 300.0), args.quiet))
            except Exception as e:
                print(f"{r['kernel']}: compiled-cell benchmark failed: {e}", file=sys.stderr)
                compiled.append({"kernel": r["kernel"], "error": str(e)})
    print(f"kernel start: median of {args.starts} starts; trivial cell '1': {args.runs} runs after {args.warmup} warm-ups")
    print(fmt_table(ok))
    rat = ratios(ok)
    for pair, vals in rat.items():
        print(
            f"{pair}: start {vals['start_median']:.2f}x (p90 {vals['start_p90']:.2f}x), "
            f"reply {vals['reply_median']:.2f}x (p90 {vals['reply_p90']:.2f}x), "
            f"idle {vals['idle_median']:.2f}x (p90 {vals['idle_p90']:.2f}x)"
        )
    for c in compiled:
        if "error" in c:
            continue
        print(f"declared functions in {c['kernel']} cells beside `go build` (best of {args.reps} runs x {args.rounds} alternating rounds):")
        for k, v in c["declared_ratio"].items():
            print(f"  {k:<11} cell {c['declared_s'][k] * 1e3:8.2f} ms   go build {c['go_build_s'][k] * 1e3:8.2f} ms   ratio {v:.2f}x")
        print(f"toolkit function cell (50 lines) ready to call: median {c['ready']['median_ms']:.0f} ms (max {c['ready']['max_ms']:.0f} ms) over {c['ready']['n']} runs")
    doc = {
        "run": run,
        "config": {"kernels": args.kernels, "starts": args.starts, "runs": args.runs, "warmup": args.warmup,
                   "reps": args.reps, "rounds": args.rounds, "decl_runs": args.decl_runs},
        "results": results,
        "ratios": rat,
        "compiled": compiled,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print(f"wrote {args.json}")
    if args.report:
        write_report(args.report, doc)
        print(f"wrote {args.report}")
    failed = len(ok) != len(results) or any("error" in c for c in compiled)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
