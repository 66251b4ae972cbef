"""Sweeps with the real engine: a Dask LocalCluster of worker processes
over loopback, the neurogo kernel through papermill (or `neurogo run`).

- six points on two workers: every point done once with its value, the
  table and the summary figure written, a second run with resume runs
  nothing;
- a worker process killed while its point's cell runs: the point is run
  again on another worker, every point ends with exactly one record with
  its value, the killed run left no process behind;
- a point whose notebook fails: retried a bounded number of times, then
  reported with its error, the other points done, no record written for
  it.
"""
import glob
import json
import logging
import os
import signal
import tempfile
import threading
import time

import psutil
import pytest
from conftest import starts
from distributed import Client, LocalCluster

from neurogo_sweep import Sweep, grid
from neurogo_sweep.store import Store


@pytest.fixture
def cluster(neurogo_bin):
    import dask

    # one worker death per point is allowed (the sweep's retries=1)
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        c = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                         silence_logs=logging.ERROR)
    client = Client(c)
    yield client
    client.close()
    c.close()


def _alive(p):
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _check_records(out, xs):
    s = Store(out)
    recs = s.records()
    assert len(recs) == len(xs), sorted(recs)
    got = {}
    for pid, r in recs.items():
        assert r["status"] == "done" and r["id"] == pid
        x = r["params"]["x"]
        assert r["metrics"] == {"x": x, "square": x * x}, r
        assert s.exists(pid, "notebook.ipynb")
        names = sorted(n.rsplit("/", 1)[-1] for n in s.fs.ls(s.path(pid), detail=False))
        assert names == ["notebook.ipynb", "result.json"], names  # no temporaries, no failed run
        got[x] = r
    assert sorted(got) == sorted(xs)
    return got


def test_six_points_two_workers(cluster, small_notebook, tmp_path):
    out = (tmp_path / "out").as_uri()  # an fsspec URL (file://)
    log = str(tmp_path / "starts.log")
    sw = Sweep.notebook(str(small_notebook), grid({"x": [1, 2, 3, 4, 5, 6]}, fixed={"sleep_s": 0.5, "starts_log": log}),
                        out=out)
    t0 = time.monotonic()
    s = sw.run(client=cluster, retries=1, progress="lines")
    wall = time.monotonic() - t0
    assert s.ok, s.failed
    assert sorted(s.done) == sorted(sw.ids) and s.kept == []
    recs = _check_records(out, [1, 2, 3, 4, 5, 6])
    assert starts(log) == {x: 1 for x in range(1, 7)}
    assert len({r["worker"] for r in recs.values()}) == 2, "both workers ran points"
    table = (tmp_path / "out" / "results.csv").read_text().splitlines()
    header = table[0].split(",")
    assert header[:6] == ["id", "status", "seconds", "sleep_s", "starts_log", "x"], header
    assert {"square", "metric_x"} <= set(header), header
    assert len(table) == 7 and all(",done," in line for line in table[1:])
    assert (tmp_path / "out" / "summary.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "out" / "summary.svg").exists()
    print(f"six points on two workers: {wall:.1f} s")
    # resume: every record is kept, nothing runs (no cluster is needed)
    again = sw.run(resume=True, progress="none")
    assert again.ok and again.done == [] and sorted(again.kept) == sorted(sw.ids)
    assert starts(log) == {x: 1 for x in range(1, 7)}


def test_worker_killed_mid_point(cluster, small_notebook, tmp_path):
    out = str(tmp_path / "out")
    log = str(tmp_path / "starts.log")
    sw = Sweep.notebook(str(small_notebook), grid({"x": [1, 2, 3, 4, 5, 6]}, fixed={"sleep_s": 3.0, "starts_log": log}),
                        out=out)
    x_of = {pid: p["x"] for pid, p in zip(sw.ids, sw.points)}
    result = {}

    def sweep():
        try:
            result["s"] = sw.run(client=cluster, retries=1, progress="lines")
        except BaseException as e:  # reported by the main thread
            result["e"] = e

    th = threading.Thread(target=sweep)
    th.start()
    pids = cluster.run(os.getpid)  # worker address → process id
    victim = None
    deadline = time.monotonic() + 120
    while victim is None and time.monotonic() < deadline and th.is_alive():
        started = starts(log)
        for addr, keys in cluster.processing().items():
            for k in keys:
                pid = k.split("point-", 1)[1].rsplit("-", 1)[0]
                x = x_of[pid]
                # this worker's point is in its cell (it logged its start) and not done
                if started.get(x) == 1 and not os.path.exists(os.path.join(out, pid, "result.json")):
                    victim = (addr, pids[addr], x, pid)
                    break
            if victim:
                break
        time.sleep(0.2)
    assert victim is not None, "no point was seen mid-cell"
    addr, wpid, x_killed, pid_killed = victim
    children = psutil.Process(wpid).children(recursive=True)
    assert children, "the point's process and kernel run under the worker"
    os.kill(wpid, signal.SIGKILL)
    th.join(timeout=240)
    assert not th.is_alive(), "the sweep did not finish"
    assert "e" not in result, result.get("e")
    s = result["s"]
    assert s.ok, s.failed
    recs = _check_records(out, [1, 2, 3, 4, 5, 6])
    counts = starts(log)
    assert counts[x_killed] == 2, counts  # killed once, run again once
    assert all(counts[x] == 1 for x in range(1, 7) if x != x_killed), counts
    assert recs[x_killed]["worker_pid"] != wpid, "the killed point's record comes from another worker"
    time.sleep(2)
    left = [p.pid for p in children if _alive(p)]
    assert not left, f"processes of the killed worker's point still run: {left}"
    cells = [d for p in children for d in glob.glob(os.path.join(tempfile.gettempdir(), f"neurogo-cells-p{p.pid}-*"))]
    assert not cells, f"compiled cells of the killed kernel left behind: {cells}"


def test_failing_point_bounded_retries(neurogo_bin, small_notebook, tmp_path):
    out = str(tmp_path / "out")
    log = str(tmp_path / "starts.log")
    sw = Sweep.notebook(str(small_notebook), grid({"x": [1, 3]}, fixed={"fail_on": 3, "starts_log": log}),
                        out=out, engine="run")
    s = sw.run(workers=1, retries=1, progress="none")
    assert not s.ok
    assert [f[1]["x"] for f in s.failed] == [3] and "fails on purpose" in s.failed[0][2]
    assert starts(log) == {1: 1, 3: 2}  # 1 + retries attempts, no more
    st = Store(out)
    bad = s.failed[0][0]
    assert not st.exists(bad, "result.json") and st.exists(bad, "error.json")
    assert "fails on purpose" in st.read_json(bad, "error.json")["error"]
    _ = json.loads((tmp_path / "out" / "sweep.json").read_text())
    table = (tmp_path / "out" / "results.csv").read_text()
    assert ",failed," in table and ",done," in table
