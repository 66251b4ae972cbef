"""A sweep: a target, its points, a results folder; run on Dask."""
import dataclasses
import datetime
import hashlib
import json
import logging
import os
import sys
import time
import uuid

from .points import canonical, point_id, repro_points
from .progress import Progress, fmt_seconds
from .store import ERROR, Store
from .task import run_point

MANIFEST = "sweep.json"


@dataclasses.dataclass
class Summary:
    """What a run of a sweep did. failed lists (id, params, error) for
    every point that did not finish; it is empty when every point is
    done."""

    out: str
    points: int
    done: list
    kept: list
    failed: list
    seconds: float
    files: dict

    @property
    def ok(self):
        return not self.failed


def _code_sha(nb):
    h = hashlib.sha256()
    for c in nb.get("cells", []):
        if c.get("cell_type") == "code":
            src = c.get("source", "")
            h.update(("".join(src) if isinstance(src, list) else src).encode())
            h.update(b"\0")
    return h.hexdigest()


def coerce_params(nb, points, name="notebook"):
    """Converts each point's values to the types the notebook's parameters
    cell declares (a string parameter given 10 gets "10", a float64 one
    given 2 gets 2.0) and rejects names the cell does not declare. Without
    a parameters cell, or without the Go translator's parser, the points
    are returned as they are."""
    try:
        from neurogo_papermill.translator import inspect_parameters
    except ImportError:
        return points
    cells = [c for c in nb.get("cells", []) if "parameters" in c.get("metadata", {}).get("tags", [])]
    if not cells:
        return points
    src = cells[0].get("source", "")
    decl = {n: t for n, t, _, _ in inspect_parameters("".join(src) if isinstance(src, list) else src)}
    if not decl:
        return points
    out = []
    for p in points:
        q = {}
        for k, v in p.items():
            if k not in decl:
                raise ValueError(f"{name}: parameter {k!r} is not declared in its parameters cell "
                                 f"(declared: {', '.join(decl)})")
            t = decl[k]
            if t == "string" and not isinstance(v, str):
                v = v if not isinstance(v, bool) else ("true" if v else "false")
                v = json.dumps(v) if isinstance(v, (list, dict)) else str(v)
            elif t in ("float64", "float32") and isinstance(v, int) and not isinstance(v, bool):
                v = float(v)
            elif t in ("int", "int64", "int32") and isinstance(v, float):
                if not v.is_integer():
                    raise ValueError(f"{name}: parameter {k} is an int, not {v!r}")
                v = int(v)
            elif t == "bool" and not isinstance(v, bool):
                raise ValueError(f"{name}: parameter {k} is a bool (true or false), not {v!r}")
            q[k] = v
        out.append(q)
    return out


class Sweep:
    """A target and its points. Build one with Sweep.notebook or
    Sweep.repro, then call run."""

    def __init__(self, target, points, out):
        self.target, self.out = target, str(out)
        self.points = [dict(p) for p in points]
        if not self.points:
            raise ValueError("a sweep needs at least one point")
        self.ids = [point_id(p) for p in self.points]
        seen = {}
        for pid, p in zip(self.ids, self.points):
            if pid in seen:
                raise ValueError(f"the point {canonical(p)} is listed twice")
            seen[pid] = p

    @classmethod
    def notebook(cls, path, points, out=None, engine="papermill", kernel="neurogo", cwd=None, timeout=None,
                 check_params=True):
        """A sweep of the notebook at path. engine "papermill" executes it
        with papermill and the kernel (default neurogo, the Go kernel; the
        Go translator of python/neurogo_papermill writes the parameters);
        "run" with `neurogo run`. cwd: the folder the notebook runs in on
        the workers (default the notebook's own folder when it exists
        there, else a scratch folder). timeout: seconds per cell
        (papermill) or per notebook (run)."""
        if engine not in ("papermill", "run"):
            raise ValueError(f"engine {engine!r}: papermill or run")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        nb = json.loads(text)
        if check_params:
            points = coerce_params(nb, points, os.path.basename(path))
        target = {"kind": "notebook", "name": os.path.basename(path), "path": os.path.abspath(path),
                  "sha256": _code_sha(nb), "notebook_text": text, "engine": engine, "kernel": kernel,
                  "cwd": os.path.abspath(cwd) if cwd else os.path.dirname(os.path.abspath(path)),
                  "timeout": timeout}
        if out is None:
            out = os.path.join("sweep-out", os.path.splitext(os.path.basename(path))[0])
        return cls(target, points, out)

    @classmethod
    def repro(cls, name, points=None, out=None, args=(), timeout=None):
        """A sweep of `neurogo repro name --point …` (spa-memory: neurons ×
        seed, spiking-mnist: seed); args are passed on (e.g. ["--quick"])."""
        if points is None:
            points = repro_points(name)
        args = list(args)
        sha = hashlib.sha256(canonical({"repro": name, "args": args}).encode()).hexdigest()
        target = {"kind": "repro", "name": name, "sha256": sha, "repro_args": args, "timeout": timeout}
        if out is None:
            out = os.path.join("sweep-out", name)
        return cls(target, points, out)

    def manifest(self):
        t = {k: v for k, v in self.target.items() if k != "notebook_text"}
        return {"target": t, "points": [{"id": i, "params": p} for i, p in zip(self.ids, self.points)]}

    def pending(self, store, resume):
        """The points to run: all, or with resume those without a record
        made from the same target (same notebook code or reproduction
        arguments). Returns (indices to run, kept ids, stale ids)."""
        if not resume:
            return list(range(len(self.points))), [], []
        recs = store.records()
        run, kept, stale = [], [], []
        for i, pid in enumerate(self.ids):
            r = recs.get(pid)
            if r and r.get("status") == "done" and r.get("target", {}).get("sha256") == self.target["sha256"]:
                kept.append(pid)
            else:
                if r:
                    stale.append(pid)
                run.append(i)
        return run, kept, stale

    def run(self, scheduler=None, workers=None, client=None, resume=False, retries=2, progress="auto",
            table="csv", figure=True, figure_x=None, figure_y=None, log=None):
        """Runs the points as Dask tasks and gathers the results.

        scheduler: an address (tcp://host:8786) of a running Dask
        scheduler, or None for an in-process LocalCluster of workers
        processes (default: the number of cores) with one thread each.
        client: a distributed.Client to use instead (a SLURMCluster's or
        KubeCluster's). resume: skip points whose record exists. retries: a
        point is run at most retries+1 times, whether its run raised an
        error or its worker died (Dask's retries and, for a LocalCluster,
        distributed.scheduler.allowed-failures). progress: "auto", "tty",
        "lines", "notebook" or "none". table: "csv", "parquet" or "both".
        """
        import dask
        from distributed import Client, LocalCluster

        log = log or sys.stderr
        say = (lambda msg: print(f"neurogo sweep: {msg}", file=log, flush=True)) if progress != "none" else (lambda m: None)
        store = Store(self.out)
        store.makedirs()
        todo, kept, stale = self.pending(store, resume)
        if stale:
            say(f"{len(stale)} records were made from another version of the target: those points run again")
        man = self.manifest()
        man["updated"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        store.write_json(man, MANIFEST)
        t0 = time.monotonic()
        cluster = own = None
        done, failed = [], []
        if todo:
            if client is None:
                if scheduler:
                    client = own = Client(scheduler, timeout="60s")
                else:
                    n = workers or os.cpu_count() or 1
                    with dask.config.set({"distributed.scheduler.allowed-failures": retries}):
                        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                               dashboard_address=None, silence_logs=logging.CRITICAL)
                    client = own = Client(cluster)
            where = scheduler or (f"a LocalCluster of {len(cluster.workers)} worker processes" if cluster else
                                  f"the cluster of {client.scheduler.address}")
            say(f"{len(todo)} of {len(self.points)} points to run on {where}; results in {store.display()}"
                + (f" ({len(kept)} kept from an earlier run)" if kept else ""))
            try:
                done, failed = self._execute(client, store, todo, retries, Progress(len(todo), len(kept), log, progress))
            finally:
                if own is not None:
                    own.close()
                if cluster is not None:
                    cluster.close()
        else:
            say(f"all {len(self.points)} points have records in {store.display()} (resume): nothing to run")
        from .table import gather

        files = gather(store, man, table=table, figure=figure, figure_x=figure_x, figure_y=figure_y, say=say)
        s = Summary(out=store.display(), points=len(self.points), done=done, kept=kept, failed=failed,
                    seconds=time.monotonic() - t0, files=files)
        say(f"{len(done)} done, {len(kept)} kept, {len(failed)} failed in {fmt_seconds(s.seconds)}")
        for pid, params, err in failed:  # always reported, whatever the progress setting
            print(f"neurogo sweep: FAILED {pid} {canonical(params)}: {err}", file=log, flush=True)
        return s

    def _execute(self, client, store, todo, retries, prog):
        run_token = uuid.uuid4().hex
        futures = {}
        for i in todo:
            pid, params = self.ids[i], self.points[i]
            f = client.submit(run_point, store, pid, params, self.target, run_token, key=f"point-{pid}-{run_token[:8]}",
                              retries=retries, pure=False)
            futures[f] = (pid, params)
        done, failed = [], []
        pending = set(futures)
        try:
            while pending:
                finished = [f for f in pending if f.done()]
                for f in finished:
                    pending.discard(f)
                    pid, params = futures[f]
                    if f.status == "finished":
                        rec = f.result()
                        done.append(pid)
                        prog.point_finished(rec.get("seconds"), True)
                    else:
                        try:
                            exc = f.exception()
                            err = f"{type(exc).__name__}: {exc}"
                        except Exception as e:  # cancelled, or the scheduler went away
                            err = f"{type(e).__name__}: {e}"
                        failed.append((pid, params, err))
                        prog.point_finished(None, False)
                        try:
                            store.write_json({"id": pid, "params": params, "status": "failed", "error": err,
                                              "run": run_token, "attempts_allowed": retries + 1,
                                              "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")},
                                             pid, ERROR)
                        except OSError:
                            pass
                running, slots = self._running(client, futures, pending)
                prog.show(running, slots, final=not pending)
                if pending:
                    time.sleep(0.5)
        except KeyboardInterrupt:
            client.cancel(list(pending))
            raise
        return done, failed

    @staticmethod
    def _running(client, futures, pending):
        try:
            nthreads = client.nthreads()
            slots = sum(nthreads.values())
            keys = {f.key for f in pending}
            running = 0
            for w, ks in client.processing().items():
                running += min(nthreads.get(w, 1), sum(1 for k in ks if k in keys))
            return running, slots
        except Exception:
            return 0, 1
