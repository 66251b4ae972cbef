"""The Dask task: one point, run on a worker."""
import datetime
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from .store import ERROR, FAILED_NOTEBOOK, NOTEBOOK, RESULT


class PointError(Exception):
    """A point's run failed (its notebook raised, the reproduction exited
    with an error, or the point's process died). Dask retries it up to
    the sweep's retry count."""


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _worker_address():
    try:
        from distributed import get_worker

        return get_worker().address
    except Exception:
        return None


def run_point(store, pid, params, target, run_token):
    """Runs one point and returns its record (also written to
    store/pid/result.json, last and atomically).

    target: {"kind": "notebook", "name", "sha256", "notebook_text",
    "engine", "kernel", "cwd", "timeout"} or {"kind": "repro", "name",
    "sha256", "repro_args", "timeout"}. run_token names this run of the
    sweep: when an earlier attempt of the same run already wrote the
    record (its worker died after writing it, before Dask heard of it), the
    record is returned as it is, so a point is done exactly once."""
    if store.exists(pid, RESULT):
        try:
            rec = store.read_json(pid, RESULT)
        except (OSError, ValueError):
            rec = None
        if rec and rec.get("run") == run_token:
            return rec
    started, t0 = _now(), time.monotonic()
    work = tempfile.mkdtemp(prefix=f"neurogo-sweep-{pid[-10:]}-")
    try:
        job = {"kind": target["kind"], "params": params, "workdir": work, "parent_pid": os.getpid(),
               "timeout": target.get("timeout")}
        if target["kind"] == "notebook":
            nb = os.path.join(work, "input.ipynb")
            with open(nb, "w", encoding="utf-8") as f:
                f.write(target["notebook_text"])
            cwd = target.get("cwd")
            job.update(notebook=nb, engine=target.get("engine", "papermill"), kernel=target.get("kernel", "neurogo"),
                       cwd=cwd if cwd and os.path.isdir(cwd) else None)
        else:
            job.update(repro=target["name"], repro_args=target.get("repro_args", []))
        jobfile = os.path.join(work, "job.json")
        with open(jobfile, "w", encoding="utf-8") as f:
            json.dump(job, f)
        env = dict(os.environ)
        pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = pkg + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        p = subprocess.run([sys.executable, "-m", "neurogo_sweep.execute", jobfile], cwd=work, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            with open(os.path.join(work, "status.json"), encoding="utf-8") as f:
                status = json.load(f)
        except (OSError, ValueError):
            status = {"ok": False, "error": f"the point's process exited with status {p.returncode} "
                                             f"and wrote no status: {p.stdout.strip()[-2000:]}"}
        out_nb = os.path.join(work, "notebook.ipynb")
        if not status.get("ok"):
            if os.path.isfile(out_nb):
                store.put_file(out_nb, pid, FAILED_NOTEBOOK)
            raise PointError(f"{pid}: {status.get('error')}")
        files = []
        if os.path.isfile(out_nb):
            store.put_file(out_nb, pid, NOTEBOOK)
            files.append(NOTEBOOK)
        for name in ("log.txt",):
            if os.path.isfile(os.path.join(work, name)):
                store.put_file(os.path.join(work, name), pid, name)
                files.append(name)
        fdir = os.path.join(work, "files")
        if os.path.isdir(fdir):
            for name in sorted(os.listdir(fdir)):
                full = os.path.join(fdir, name)
                if os.path.isfile(full):
                    store.put_file(full, pid, "files", name)
                    files.append(f"files/{name}")
        rec = {
            "id": pid, "status": "done", "params": params, "metrics": status.get("metrics") or {},
            "target": {k: target.get(k) for k in ("kind", "name", "sha256", "engine", "repro_args") if k in target},
            "run": run_token, "started": started, "finished": _now(),
            "seconds": round(time.monotonic() - t0, 3), "host": socket.gethostname(),
            "worker": _worker_address(), "worker_pid": os.getpid(), "files": files,
        }
        store.write_json(rec, pid, RESULT)
        try:
            store.remove(pid, ERROR)
        except OSError:
            pass
        return rec
    finally:
        shutil.rmtree(work, ignore_errors=True)
