"""The command line: `neurogo sweep …` (or `python -m neurogo_sweep …`)."""
import argparse
import shlex
import sys

from .points import canonical, grid, parse_grid_arg, parse_value, read_points
from .sweep import MANIFEST, Sweep

USAGE = """\
neurogo sweep NOTEBOOK.ipynb [--grid NAME=V1,V2,…]... [-p NAME VALUE]... [--points FILE] [options]
neurogo sweep --repro spa-memory|spiking-mnist [--neurons 5,10,…] [--seeds N|S1,S2,…] [--quick]
              [--repro-args "…"] [options]
neurogo sweep gather OUT [--table csv|parquet|both] [--figure-x P] [--figure-y M]

options: --out DIR|URL  --scheduler tcp://HOST:8786  --workers N  --resume  --retries N
         --engine papermill|run  --kernel NAME  --cwd DIR  --timeout S  --table csv|parquet|both
         --figure-x PARAM  --figure-y METRIC  --no-figure  --progress auto|tty|lines|none  --dry-run
"""


def _parser():
    ap = argparse.ArgumentParser(prog="neurogo sweep", usage=USAGE, description=(
        "Run a notebook or a reproduction over a grid of parameters as Dask tasks: an in-process "
        "LocalCluster by default, or an existing Dask scheduler (--scheduler). Each point leaves "
        "OUT/<point id>/result.json and the executed notebook; the results are gathered into "
        "OUT/results.csv and OUT/summary.png."))
    ap.add_argument("notebook", nargs="?", help="the notebook to sweep (.ipynb)")
    ap.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,…",
                    help="a swept parameter; several --grid make the Cartesian product (last varies fastest)")
    ap.add_argument("-p", "--param", action="append", nargs=2, default=[], metavar=("NAME", "VALUE"),
                    help="a parameter with one value for every point")
    ap.add_argument("--points", metavar="FILE", help="points from a JSON list of objects or a CSV with a header "
                    "(combined with --grid as a product)")
    ap.add_argument("--repro", metavar="NAME", help="sweep `neurogo repro NAME --point …` instead of a notebook")
    ap.add_argument("--neurons", help="spa-memory: neurons per dimension (default 5,10,15,20)")
    ap.add_argument("--seeds", help="a count N (seeds 0…N−1) or a list S1,S2,… (spa-memory default 3, spiking-mnist 1)")
    ap.add_argument("--quick", action="store_true", help="pass --quick to the reproduction (its small size)")
    ap.add_argument("--repro-args", default="", help="further flags for `neurogo repro NAME` (one string)")
    ap.add_argument("--out", help="results folder or fsspec URL (default sweep-out/NAME)")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: an in-process LocalCluster)")
    ap.add_argument("--workers", type=int, help="LocalCluster worker processes (default: the number of cores)")
    ap.add_argument("--resume", action="store_true", help="skip points whose result record exists")
    ap.add_argument("--retries", type=int, default=2, help="extra attempts of a point after an error or a worker's death (2)")
    ap.add_argument("--engine", choices=["papermill", "run"], default="papermill",
                    help="papermill with the kernel (default) or `neurogo run`")
    ap.add_argument("--kernel", default="neurogo", help="kernel name for papermill (neurogo)")
    ap.add_argument("--cwd", help="folder the notebook runs in on the workers (default: the notebook's folder)")
    ap.add_argument("--timeout", type=float, help="seconds per cell (papermill) or per point (run, repro)")
    ap.add_argument("--table", choices=["csv", "parquet", "both"], default="csv")
    ap.add_argument("--figure-x", help="parameter along the summary figure's axis (default: the first that varies)")
    ap.add_argument("--figure-y", help="metric of the summary figure (default: the first numeric one)")
    ap.add_argument("--no-figure", action="store_true", help="no summary figure")
    ap.add_argument("--progress", choices=["auto", "tty", "lines", "none"], default="auto")
    ap.add_argument("--dry-run", action="store_true", help="list the points and their ids, run nothing")
    return ap


def _points(a):
    axes, fixed = {}, {}
    for g in a.grid:
        name, vals = parse_grid_arg(g)
        if name in axes:
            raise ValueError(f"--grid {name} given twice")
        axes[name] = vals
    for name, val in a.param:
        fixed[name] = parse_value(val)
    base = [{}]
    if a.points:
        with open(a.points, encoding="utf-8") as f:
            base = read_points(f.read(), a.points)
    pts = []
    for b in base:
        for g in (grid(axes) if axes else [{}]):
            p = dict(fixed)
            p.update(b)
            p.update(g)
            pts.append(p)
    return pts


def _int_list(s, name):
    try:
        return [int(v) for v in s.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--{name} {s!r}: integers separated by commas") from None


def build(a):
    if a.repro:
        from .points import repro_points

        seeds = None
        if a.seeds:
            seeds = _int_list(a.seeds, "seeds") if "," in a.seeds else int(a.seeds)
        neurons = _int_list(a.neurons, "neurons") if a.neurons else None
        pts = repro_points(a.repro, neurons=neurons, seeds=seeds)
        if a.grid or a.param or a.points:
            raise ValueError("--repro takes its points from --neurons and --seeds, not --grid, -p or --points")
        args = (["--quick"] if a.quick else []) + shlex.split(a.repro_args)
        return Sweep.repro(a.repro, pts, out=a.out, args=args, timeout=a.timeout)
    if not a.notebook:
        raise ValueError("give a notebook (NB.ipynb) or --repro NAME")
    if a.neurons or a.seeds or a.quick or a.repro_args:
        raise ValueError("--neurons, --seeds, --quick and --repro-args are for --repro")
    return Sweep.notebook(a.notebook, _points(a), out=a.out, engine=a.engine, kernel=a.kernel, cwd=a.cwd,
                          timeout=a.timeout)


def gather_main(argv):
    ap = argparse.ArgumentParser(prog="neurogo sweep gather",
                                 description="Rebuild OUT/results.csv and the figures from OUT's records.")
    ap.add_argument("out")
    ap.add_argument("--table", choices=["csv", "parquet", "both"], default="csv")
    ap.add_argument("--figure-x")
    ap.add_argument("--figure-y")
    ap.add_argument("--no-figure", action="store_true")
    a = ap.parse_args(argv)
    from .store import Store
    from .table import gather

    store = Store(a.out)
    if not store.exists(MANIFEST):
        print(f"neurogo sweep gather: {store.display(MANIFEST)} not found: not a sweep's results folder", file=sys.stderr)
        return 2
    files = gather(store, store.read_json(MANIFEST), table=a.table, figure=not a.no_figure, figure_x=a.figure_x,
                   figure_y=a.figure_y, say=lambda m: print(f"neurogo sweep: {m}", file=sys.stderr))
    for name, where in files.items():
        print(f"{name}: {where}")
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "gather":
        return gather_main(argv[1:])
    a = _parser().parse_args(argv)
    try:
        sw = build(a)
    except (ValueError, OSError) as e:
        print(f"neurogo sweep: {e}", file=sys.stderr)
        return 2
    if a.dry_run:
        for pid, p in zip(sw.ids, sw.points):
            print(f"{pid}\t{canonical(p)}")
        print(f"{len(sw.points)} points → {sw.out}", file=sys.stderr)
        return 0
    s = sw.run(scheduler=a.scheduler, workers=a.workers, resume=a.resume, retries=a.retries, progress=a.progress,
               table=a.table, figure=not a.no_figure, figure_x=a.figure_x, figure_y=a.figure_y)
    for name, where in s.files.items():
        print(f"{name}: {where}")
    return 0 if s.ok else 1


__all__ = ["main", "build"]
