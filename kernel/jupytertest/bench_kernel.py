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
(python3 is ipykernel), and with --json FILE writes the numbers.

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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernels", nargs="*", default=DEFAULT_KERNELS, help="kernelspec names (default: neurogo python3)")
    ap.add_argument("-n", "--starts", type=int, default=10, help="kernel starts to time (default 10)")
    ap.add_argument("--runs", type=int, default=100, help="timed trivial cells (default 100)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed trivial cells first (default 5)")
    ap.add_argument("--timeout", type=float, default=60.0, help="bound of each wait in seconds (default 60)")
    ap.add_argument("--json", metavar="FILE", help="write the numbers to FILE")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args(argv)
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
    print(f"kernel start: median of {args.starts} starts; trivial cell '1': {args.runs} runs after {args.warmup} warm-ups")
    print(fmt_table(ok))
    rat = ratios(ok)
    for pair, vals in rat.items():
        print(
            f"{pair}: start {vals['start_median']:.2f}x (p90 {vals['start_p90']:.2f}x), "
            f"reply {vals['reply_median']:.2f}x (p90 {vals['reply_p90']:.2f}x), "
            f"idle {vals['idle_median']:.2f}x (p90 {vals['idle_p90']:.2f}x)"
        )
    if args.json:
        doc = {
            "config": {"kernels": args.kernels, "starts": args.starts, "runs": args.runs, "warmup": args.warmup},
            "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()},
            "results": results,
            "ratios": rat,
        }
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=2)
        print(f"wrote {args.json}")
    return 0 if len(ok) == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
