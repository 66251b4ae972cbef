"""Parameter sweeps of neurogo notebooks and reproductions as Dask tasks.

A sweep is a target — a notebook, or a ``neurogo repro`` reproduction — and
a list of points (parameter dictionaries). Each point runs as one Dask task
on a worker: the notebook is executed with papermill and the neurogo kernel
(or ``neurogo run``), the reproduction with ``neurogo repro NAME --point
…``. Each finished point leaves a folder ``OUT/<point id>/`` with its
``result.json`` record (written last, atomically) and the executed notebook.

From Python (a script or a Python notebook)::

    from neurogo_sweep import Sweep, grid
    sw = Sweep.notebook("notebooks/05-spa-memory.ipynb",
                        grid({"neurons": ["5", "10"], "seeds": [1]}),
                        out="sweep-out/spa")
    summary = sw.run(workers=2)          # an in-process LocalCluster
    summary.failed                       # [] when every point is done

From the shell: ``neurogo sweep NB.ipynb --grid name=v1,v2 …`` (the Go
command runs ``python -m neurogo_sweep``); see docs/guides/sweeps.md.
"""

from .points import grid, point_id, parse_value, repro_points
from .sweep import Summary, Sweep

__all__ = ["Summary", "Sweep", "grid", "parse_value", "point_id", "repro_points"]
