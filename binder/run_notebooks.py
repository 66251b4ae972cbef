"""Executes notebooks with papermill through the kernelspec each one names
(the installed "neurogo" one, or "python3" for the Python notebooks) and
measures each run: wall time, peak memory and figures.

Used by binder/check (run as the notebook user, with the Binder
environment's Python):

    python3 binder/run_notebooks.py run --out RESULTS.json NB.ipynb...
    python3 binder/run_notebooks.py render RESULTS.json > binder.md

Peak memory is sampled every 100 ms from /proc: the sum of the resident
set sizes of the kernel process and all its descendants (the executor and
the compilers a cell build starts; for a Python kernel, the process that
also holds neurogo's executor as a library), and the same sum over the whole tree
under papermill (papermill itself included), since Binder's memory limit
applies to the whole container. A notebook fails when a cell has an error
output, papermill exits non-zero, its wall time exceeds the time limit or
the kernel's peak exceeds the memory limit.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

PAGE = os.sysconf("SC_PAGE_SIZE")
MIB = 1 << 20


def _children_map():
    """Maps each pid to its children's pids, read from /proc."""
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name is in parentheses and may contain spaces
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        kids.setdefault(ppid, []).append(int(name))
    return kids


def _subtree(root, kids):
    out, stack = [], [root]
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(kids.get(pid, ()))
    return out


def _rss(pid):
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _comm(pid):
    """The command name of pid (neurogo, compile, link, ...)."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def _is_kernel(pid):
    """Whether pid is a kernel: neurogo's ("neurogo kernel ...") or
    ipykernel ("python -m ipykernel_launcher ...", whose Go executor is a
    library inside the same process)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return False
    if len(argv) > 1 and os.path.basename(argv[0]) == b"neurogo" and argv[1] == b"kernel":
        return True
    return b"ipykernel_launcher" in argv[1:3]


def kernel_name(path):
    """The kernel a notebook's metadata names ("neurogo" when it names none)."""
    with open(path) as f:
        nb = json.load(f)
    return nb.get("metadata", {}).get("kernelspec", {}).get("name") or "neurogo"


class Sampler(threading.Thread):
    """Samples the process tree under root every interval seconds."""

    def __init__(self, root, interval=0.1):
        super().__init__(daemon=True)
        self.root, self.interval = root, interval
        self.peak_kernel = self.peak_total = 0
        self.peak_parts = []  # (command, MiB) of the kernel's tree at its peak, largest first
        self.samples = 0
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            kids = _children_map()
            tree = _subtree(self.root, kids)
            total = sum(_rss(p) for p in tree)
            kernel, parts = 0, []
            for p in tree:
                if _is_kernel(p):
                    for q in _subtree(p, kids):
                        r = _rss(q)
                        kernel += r
                        parts.append((_comm(q), r))
            self.peak_total = max(self.peak_total, total)
            if kernel > self.peak_kernel:
                self.peak_kernel = kernel
                self.peak_parts = sorted(((c, round(r / MIB)) for c, r in parts if r), key=lambda x: -x[1])
            self.samples += 1
            self.stop.wait(self.interval)


def _outputs(nb):
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            yield from cell.get("outputs", [])


def run_one(path, outdir, limit_s, limit_mib, kill_s):
    name = os.path.splitext(os.path.basename(path))[0]
    out = os.path.join(outdir, name + ".out.ipynb")
    log = os.path.join(outdir, name + ".log")
    cmd = ["papermill", "-k", kernel_name(path), "--cwd", os.path.dirname(os.path.abspath(path)),
           "--no-progress-bar", "--log-output", path, out]
    t0 = time.monotonic()
    with open(log, "wb") as logf:
        proc = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
        sampler = Sampler(proc.pid)
        sampler.start()
        killed = False
        try:
            rc = proc.wait(timeout=kill_s)
        except subprocess.TimeoutExpired:
            killed = True
            os.killpg(proc.pid, signal.SIGKILL)
            rc = proc.wait()
        seconds = time.monotonic() - t0
        sampler.stop.set()
        sampler.join()
    errors, figures = [], 0
    if os.path.exists(out):
        with open(out) as f:
            nb = json.load(f)
        for o in _outputs(nb):
            if o.get("output_type") == "error":
                errors.append(f"{o.get('ename', '')}: {o.get('evalue', '')}".strip()[:300])
            data = o.get("data", {})
            if "image/png" in data or "image/svg+xml" in data:
                figures += 1
    reasons = []
    if killed:
        reasons.append(f"killed after {kill_s:.0f} s")
    elif rc != 0:
        reasons.append(f"papermill exited {rc}")
    if errors:
        reasons.append(f"{len(errors)} error output(s): {errors[0]}")
    if seconds > limit_s:
        reasons.append(f"{seconds:.0f} s > {limit_s:.0f} s")
    peak_k, peak_t = sampler.peak_kernel / MIB, sampler.peak_total / MIB
    parts = ", ".join(f"{c} {m}" for c, m in sampler.peak_parts[:5])
    if peak_k > limit_mib:
        reasons.append(f"kernel + executor peak {peak_k:.0f} MiB > {limit_mib:.0f} MiB ({parts})")
    if not reasons and not sampler.samples:
        reasons.append("no memory sample taken")
    if reasons and not errors and rc != 0 and not killed:
        # papermill's own message (the last lines of its log)
        with open(log, errors="replace") as f:
            tail = [line.rstrip() for line in f.readlines()[-3:]]
        reasons.append(" | ".join(tail)[:300])
    return {
        "notebook": os.path.basename(path),
        "seconds": round(seconds, 1),
        "peak_kernel_mib": round(peak_k, 1),
        "peak_total_mib": round(peak_t, 1),
        "peak_processes_mib": sampler.peak_parts[:5],
        "figures": figures,
        "errors": len(errors),
        "passed": not reasons,
        "reason": "; ".join(reasons),
    }


def cmd_run(args):
    os.makedirs(args.outdir, exist_ok=True)
    results = []
    for nb in args.notebooks:
        r = run_one(nb, args.outdir, args.limit_seconds, args.limit_mib, args.kill_seconds)
        results.append(r)
        status = "ok" if r["passed"] else "FAILED"
        print(f"binder check: {r['notebook']}: {status}, {r['seconds']:.1f} s, "
              f"peak {r['peak_kernel_mib']:.0f} MiB kernel + executor "
              f"({r['peak_total_mib']:.0f} MiB with papermill; at the peak: "
              f"{', '.join(f'{c} {m}' for c, m in r['peak_processes_mib'])}), {r['figures']} figures"
              + (f" — {r['reason']}" if r["reason"] else ""), flush=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)
    return 0 if all(r["passed"] for r in results) else 1


def cmd_render(args):
    with open(args.results) as f:
        doc = json.load(f)
    m, lim = doc["machine"], doc["limits"]
    w = sys.stdout.write
    w("# Binder: notebooks at their default parameters\n\n")
    w("Generated by `binder/check`: it installs repo2docker's frozen base environment "
      f"for Python 3.11 (jupyter-repo2docker {doc['repo2docker']}) from PyPI, then "
      "`binder/requirements.txt`, the packages of `binder/apt.txt` and `binder/postBuild` "
      "as a non-root user, and executes each notebook with papermill through the kernelspec "
      "postBuild installed. Peak memory is the largest sum of resident set sizes, sampled "
      "every 100 ms, of the kernel and all its descendants (the executor and the compilers "
      "of cell builds), with the largest processes at that moment (the executor and the "
      "kernel are both `neurogo`; `link`, `ld` and `compile` build a cell); the column after "
      "adds papermill. A notebook fails above "
      f"{lim['seconds']:.0f} s, above {lim['kernel_mib']:.0f} MiB, on an error output or a "
      "non-zero papermill exit.\n\n")
    w(f"- Command: `{doc['command']}`\n")
    w(f"- Date: {doc['date']}\n")
    w(f"- Machine: {m['cpu']}, {m['cores']} cores, {m['memory']} memory, {m['os']}\n")
    w(f"- Go {m['go']}, Python {m['python']}\n")
    if m.get("load"):
        w(f"- Load average (1, 5, 15 min) when the notebooks started: {m['load']}\n")
    base = ", ".join(f"{k} {v}" for k, v in doc["resolved"].items())
    w(f"- Resolved against the frozen base: {base}\n")
    w(f"- Total time of `binder/check`: {doc['total_seconds']:.0f} s "
      f"(postBuild {doc['postbuild_seconds']:.0f} s)\n\n")
    w("| notebook | time (s) | peak kernel + executor (MiB) | at the peak (MiB) "
      "| peak with papermill (MiB) | figures | result |\n")
    w("| --- | ---: | ---: | --- | ---: | ---: | --- |\n")
    for r in doc["notebooks"]:
        res = "pass" if r["passed"] else "FAIL: " + r["reason"].replace("|", "\\|")
        parts = ", ".join(f"{c} {m}" for c, m in r.get("peak_processes_mib", [])[:3]) or "—"
        w(f"| {r['notebook']} | {r['seconds']:.1f} | {r['peak_kernel_mib']:.0f} | {parts} "
          f"| {r['peak_total_mib']:.0f} | {r['figures']} | {res} |\n")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", required=True)
    r.add_argument("--outdir", required=True)
    r.add_argument("--limit-seconds", type=float, default=300)
    r.add_argument("--limit-mib", type=float, default=1536)
    r.add_argument("--kill-seconds", type=float, default=330)
    r.add_argument("notebooks", nargs="+")
    r.set_defaults(fn=cmd_run)
    d = sub.add_parser("render")
    d.add_argument("results")
    d.set_defaults(fn=cmd_render)
    args = p.parse_args()
    sys.exit(args.fn(args))


if __name__ == "__main__":
    main()
