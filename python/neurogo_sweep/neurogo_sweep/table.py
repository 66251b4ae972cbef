"""Gathering a sweep's records into one table and its figures.

results.csv (always) and results.parquet (when pyarrow is installed and
asked for) have one row per point of the sweep's manifest, in its order:
id, status (done, failed, pending), seconds, the parameters, then the
metrics (nested objects flattened as a.b; lists as JSON text; a metric
whose name is also a parameter's gets the prefix metric_), error.

summary.png and summary.svg: one metric against one parameter, the mean
and 95 % interval over the other parameters (`neurogo sweep plot`, viz).
For a spa-memory reproduction sweep, fig9.png: the NengoDL paper's Fig. 9
drawn from the points' records (`neurogo sweep spa-figure`).
"""
import csv
import io
import json
import os
import subprocess
import tempfile

from .binaries import neurogo_binary
from .store import ERROR, RESULT


# The metric each reproduction's summary figure shows by default.
REPRO_FIGURE_Y = {"spa-memory": "After", "spiking-mnist": "spiking_accuracy"}


def _flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, name + "."))
        elif isinstance(v, list):
            out[name] = json.dumps(v)
        else:
            out[name] = v
    return out


def rows(store, manifest):
    """The table's rows (dicts) and its column names."""
    pcols, mcols, out = [], [], []
    for pt in manifest["points"]:
        pid, params = pt["id"], pt["params"]
        row = {"id": pid, "status": "pending", "seconds": None}
        rec = err = None
        if store.exists(pid, RESULT):
            try:
                rec = store.read_json(pid, RESULT)
            except (OSError, ValueError):
                rec = None
        if rec is None and store.exists(pid, ERROR):
            try:
                err = store.read_json(pid, ERROR)
            except (OSError, ValueError):
                err = None
        for k, v in _flatten(params).items():
            row[k] = v
            if k not in pcols:
                pcols.append(k)
        if rec is not None:
            row["status"], row["seconds"] = "done", rec.get("seconds")
            for k, v in _flatten(rec.get("metrics") or {}).items():
                name = f"metric_{k}" if k in params or k in ("id", "status", "seconds", "error") else k
                row[name] = v
                if name not in mcols:
                    mcols.append(name)
        elif err is not None:
            row["status"], row["error"] = "failed", err.get("error")
        out.append(row)
    cols = ["id", "status", "seconds", *pcols, *mcols, "error"]
    return out, cols


def _csv(rows_, cols):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows_:
        w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in cols})
    return buf.getvalue()


def _numeric(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def pick_axes(rows_, manifest, figure_x=None, figure_y=None):
    """The figure's parameter (x) and metric (y): the ones asked for, or
    the first parameter that takes more than one value and the first
    metric that is a number in every done row. (None, None) when there is
    nothing to draw."""
    done = [r for r in rows_ if r["status"] == "done"]
    if not done:
        return None, None
    params = list(manifest["points"][0]["params"]) if manifest["points"] else []
    x = figure_x
    if x is None:
        for p in params:
            if len({json.dumps(r.get(p), sort_keys=True) for r in rows_}) > 1:
                x = p
                break
        else:
            x = params[0] if params else None
    y = figure_y or REPRO_FIGURE_Y.get(manifest.get("target", {}).get("name"))
    if y is None:
        skip = {"id", "status", "seconds", "error", *params}
        nums = [k for k in done[0] if k not in skip and all(_numeric(r.get(k)) for r in done)]
        varying = [k for k in nums if len({r.get(k) for r in done}) > 1]
        y = (varying or nums or [None])[0]
    return x, y


def gather(store, manifest, table="csv", figure=True, figure_x=None, figure_y=None, say=print):
    """Writes the table (and figures) into the results folder; returns
    {name: location} of what it wrote."""
    rows_, cols = rows(store, manifest)
    files = {}
    if table in ("csv", "both"):
        store.write_bytes(_csv(rows_, cols).encode(), "results.csv")
        files["results.csv"] = store.display("results.csv")
    if table in ("parquet", "both"):
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            say("results.parquet not written: pyarrow is not installed (pip install pyarrow); results.csv has the same table")
            if "results.csv" not in files:
                store.write_bytes(_csv(rows_, cols).encode(), "results.csv")
                files["results.csv"] = store.display("results.csv")
        else:
            with tempfile.TemporaryDirectory() as d:
                p = os.path.join(d, "results.parquet")
                pq.write_table(pa.Table.from_pylist([{k: r.get(k) for k in cols} for r in rows_]), p)
                store.put_file(p, "results.parquet")
            files["results.parquet"] = store.display("results.parquet")
    if not figure:
        return files
    exe = neurogo_binary()
    if exe is None:
        say("figures not drawn: no neurogo binary (NEUROGO_BIN, PATH or bin/neurogo)")
        return files
    with tempfile.TemporaryDirectory() as d:
        x, y = pick_axes(rows_, manifest, figure_x, figure_y)
        if x and y:
            csv_path = os.path.join(d, "results.csv")
            with open(csv_path, "w", encoding="utf-8") as f:
                f.write(_csv(rows_, cols))
            base = os.path.join(d, "summary")
            p = subprocess.run([exe, "sweep", "plot", "--table", csv_path, "--x", x, "--y", y, "--out", base],
                               capture_output=True, text=True)
            if p.returncode == 0:
                for ext in ("png", "svg"):
                    store.put_file(f"{base}.{ext}", f"summary.{ext}")
                    files[f"summary.{ext}"] = store.display(f"summary.{ext}")
            else:
                say(f"summary figure not drawn: {p.stderr.strip()}")
        target = manifest.get("target", {})
        if target.get("kind") == "repro" and target.get("name") == "spa-memory":
            pts = []
            for pt in manifest["points"]:
                if store.exists(pt["id"], RESULT):
                    pts.append(store.read_json(pt["id"], RESULT).get("metrics") or {})
            if pts:
                pj, png = os.path.join(d, "points.json"), os.path.join(d, "fig9.png")
                with open(pj, "w", encoding="utf-8") as f:
                    json.dump(pts, f)
                p = subprocess.run([exe, "sweep", "spa-figure", "--points", pj, "--out", png],
                                   capture_output=True, text=True)
                if p.returncode == 0:
                    store.put_file(png, "fig9.png")
                    files["fig9.png"] = store.display("fig9.png")
                else:
                    say(f"Fig. 9 not drawn: {p.stderr.strip()}")
    return files
