"""Runs one point in a process of its own (``python -m
neurogo_sweep.execute JOB.json``), started by the task on a worker.

A process of its own, so that the point's processes (the papermill client,
the neurogo kernel and its executor, or ``neurogo repro``) end with it: on
Linux it asks to be sent SIGTERM when the worker that started it dies
(prctl PR_SET_PDEATHSIG), and on SIGTERM it kills every process it started
before it exits. A worker killed mid-point therefore leaves no kernel
behind, and the retry on another worker starts clean.

Killed, it also removes the folders of compiled cells of the kernels it
killed, which those could not remove themselves.

The job file (JSON) names: kind ("notebook" or "repro"), params, workdir
(a local folder for the outputs), and for notebooks: notebook (a local
copy), engine ("papermill" or "run"), kernel, cwd, timeout; for
reproductions: repro (the name) and repro_args. It writes
``workdir/status.json``: {"ok", "error", "metrics"}; exit status 0 when ok.
"""
import glob
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback

from .binaries import ensure_kernelspec, neurogo_binary


def _die_with_parent(parent):
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except Exception:
            pass
    if parent and os.getppid() != parent:  # the parent died before prctl
        os._exit(3)


def _kill_children():
    """Kills every process this one started (the kernel and its executor,
    `neurogo run`, `neurogo repro`) and removes the folders of compiled
    cells a killed kernel could not remove (neurogo-cells-p<pid>-…)."""
    try:
        import psutil

        procs = psutil.Process().children(recursive=True)
    except Exception:
        return
    for p in procs:
        try:
            p.kill()
        except Exception:
            pass
    try:
        psutil.wait_procs(procs, timeout=5)
    except Exception:
        pass
    for p in procs:
        for d in glob.glob(os.path.join(tempfile.gettempdir(), f"neurogo-cells-p{p.pid}-*")):
            shutil.rmtree(d, ignore_errors=True)


def _on_term(signum, frame):
    _kill_children()
    os._exit(128 + signum)


def notebook_result(nb):
    """The metrics a notebook reports: the outputs of its last cell tagged
    ``result`` — its last application/json output (``display.JSON(v)`` in
    a Go cell), or else the last line of its printed output that is a JSON
    value. An object is the metrics; any other value v becomes {"result":
    v}. A notebook without such a cell reports {}; one whose result cell
    printed nothing that is JSON is an error (ValueError)."""
    cells = [c for c in nb.get("cells", []) if "result" in c.get("metadata", {}).get("tags", [])]
    if not cells:
        return {}
    cell = cells[-1]
    value, found = None, False
    for o in cell.get("outputs", []):
        if o.get("output_type") in ("execute_result", "display_data") and "application/json" in o.get("data", {}):
            value, found = o["data"]["application/json"], True
    if not found:
        text = ""
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream" and o.get("name") == "stdout":
                t = o.get("text", "")
                text += "".join(t) if isinstance(t, list) else t
        for line in reversed(text.strip().splitlines()):
            try:
                value, found = json.loads(line), True
                break
            except ValueError:
                continue
        if not found and text.strip():
            try:
                value, found = json.loads(text), True
            except ValueError:
                pass
    if not found:
        raise ValueError("the cell tagged result shows no JSON (display.JSON(v), or print one JSON line)")
    if isinstance(value, str):
        try:  # some front ends store application/json as text
            value = json.loads(value)
        except ValueError:
            pass
    return value if isinstance(value, dict) else {"result": value}


def _run_papermill(job, out_nb):
    import papermill
    from papermill.exceptions import PapermillExecutionError

    try:  # the Go translator (registered at start-up when installed; here when only importable)
        from neurogo_papermill.translator import register

        register()
    except ImportError:
        pass
    ensure_kernelspec(job.get("kernel", "neurogo"), job["workdir"])
    try:
        papermill.execute_notebook(
            job["notebook"], out_nb, parameters=job["params"], kernel_name=job.get("kernel", "neurogo"),
            cwd=job.get("cwd") or job["workdir"], progress_bar=False, log_output=False,
            execution_timeout=job.get("timeout") or None, request_save_on_cell_execute=False, start_timeout=180,
        )
    except PapermillExecutionError as e:
        return f"cell {e.exec_count}: {e.ename}: {e.evalue}"
    return None


def _run_neurogo(job, out_nb):
    cmd = [neurogo_binary(required=True), "run", job["notebook"], "-o", out_nb]
    for k, v in job["params"].items():
        cmd += ["-p", k, v if isinstance(v, str) else json.dumps(v)]
    p = subprocess.run(cmd, cwd=job.get("cwd") or job["workdir"], capture_output=True, text=True,
                       timeout=job.get("timeout") or None)
    if p.returncode != 0:
        return f"neurogo run exited with {p.returncode}: {_tail(p.stderr)}"
    return None


def _tail(text, n=15):
    lines = (text or "").strip().splitlines()
    return "\n".join(lines[-n:])


def _repro_point_arg(params):
    parts = []
    for k, v in params.items():
        if isinstance(v, (list, dict)) or "," in str(v) or "=" in str(v):
            raise ValueError(f"reproduction point parameter {k}={v!r}: plain values only")
        parts.append(f"{k}={v}")
    return ",".join(parts)


def _run_repro(job):
    out = os.path.join(job["workdir"], "files")
    cmd = [neurogo_binary(required=True), "repro", job["repro"], "--point", _repro_point_arg(job["params"]),
           "--out", out, "--json", *job.get("repro_args", [])]
    p = subprocess.run(cmd, cwd=job["workdir"], capture_output=True, text=True, timeout=job.get("timeout") or None)
    with open(os.path.join(job["workdir"], "log.txt"), "w") as f:
        f.write("$ " + " ".join(shlex.quote(c) for c in cmd) + "\n" + p.stderr)
    if p.returncode != 0:
        return None, f"neurogo repro exited with {p.returncode}: {_tail(p.stderr)}"
    for line in reversed(p.stdout.strip().splitlines()):
        try:
            v = json.loads(line)
        except ValueError:
            continue
        return (v if isinstance(v, dict) else {"result": v}), None
    return None, f"neurogo repro printed no JSON: {_tail(p.stdout)}"


def run_job(job):
    """Runs the point described by job; returns the status dict."""
    status = {"ok": False, "error": None, "metrics": None}
    try:
        if job["kind"] == "notebook":
            out_nb = os.path.join(job["workdir"], "notebook.ipynb")
            if job.get("engine", "papermill") == "papermill":
                err = _run_papermill(job, out_nb)
            else:
                err = _run_neurogo(job, out_nb)
            if err is None:
                with open(out_nb, encoding="utf-8") as f:
                    status["metrics"] = notebook_result(json.load(f))
            status["error"] = err
        else:
            status["metrics"], status["error"] = _run_repro(job)
    except subprocess.TimeoutExpired as e:
        status["error"] = f"timed out after {e.timeout} s"
    except Exception as e:
        status["error"] = f"{type(e).__name__}: {e}\n{_tail(traceback.format_exc(), 8)}"
    status["ok"] = status["error"] is None
    return status


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0], encoding="utf-8") as f:
        job = json.load(f)
    _die_with_parent(job.get("parent_pid"))
    signal.signal(signal.SIGTERM, _on_term)
    status = run_job(job)
    with open(os.path.join(job["workdir"], "status.json"), "w", encoding="utf-8") as f:
        json.dump(status, f)
    _kill_children()  # a kernel that papermill failed to stop
    return 0 if status["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
