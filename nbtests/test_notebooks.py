"""Runs every notebook in notebooks/ through papermill with the real
neurogo kernel (or, for a notebook whose kernelspec is python3, the Python
kernel of the environment running the tests) and small parameters, as users
and Binder run them.

Each notebook asserts its own key results in its last cells (a failing
check is an error output); this harness fails on any error output and
checks that the expected figures exist as image/png. Executed notebooks are
kept in $NEUROGO_ARTIFACTS/notebooks. NEUROGO_FULL=1 runs the notebooks
with their own (paper-size) parameters instead of the small ones.
"""
import json
import os
import pathlib
import time

import nbformat
import papermill
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
ARTIFACTS = pathlib.Path(os.environ.get("NEUROGO_ARTIFACTS", ROOT / "artifacts")) / "notebooks"
FULL = os.environ.get("NEUROGO_FULL") == "1"

# Small parameters for CI, and the minimum number of PNG figures each
# notebook must show.
SMALL = {
    "00-quickstart.ipynb": {"params": {"n_neurons": 50, "n_points": 50, "title": "LIF rate curve (CI)"}, "min_png": 3},
    "01-nengo-modelling.ipynb": {"params": {"n_neurons": 60, "sim_time": 1.5}, "min_png": 7},
    "02-batched-simulation-and-data-feeds.ipynb": {"params": {"n_neurons": 50, "batch": 4, "sim_time": 0.5, "reps": 1}, "min_png": 4},
    "03-training-a-nengo-model.ipynb": {"params": {"n_train": 600, "epochs": 8, "spike_steps": 200}, "min_png": 2},
    "04-spiking-mnist.ipynb": {"params": {"n_train": 300, "n_test": 100, "epochs": 1, "steps": 10}, "min_png": 6},
    "05-spa-memory.ipynb": {"params": {"dims": 16, "neurons": "4", "seeds": 1, "n_train": 128, "n_test": 64, "epochs": 2},
                            "min_png": 3},
    "06-layerwise-parallel-networks.ipynb": {"params": {"agents": 32, "train_frames": 300, "test_frames": 120, "threshold": 0.5,
                                                        "cmp_train_frames": 200, "cmp_test_frames": 72}, "min_png": 4},
    "07-analog-accelerator.ipynb": {"params": {"max_log2": 9, "emulated_log2": 8, "bench_batch": 500, "max_batch_log2": 8,
                                               "bench_seconds": 0.02, "channel_steps": 1000}, "min_png": 5},
    "08-har-analog.ipynb": {"params": {"train_windows": 1500, "test_windows": 600, "epochs": 4}, "min_png": 6},
    "09-simulator-performance.ipynb": {"params": {"models": "integrator,cconv", "dims": "8", "seconds": 0.05, "repeats": 2, "batch": 3,
                                                  "compare_nengo": False, "stress": "tiny"}, "min_png": 4},
    "10-plots.ipynb": {"params": {"nNeurons": 100, "nSteps": 500, "nBig": 5000}, "min_png": 17},
    # Python 3 kernel (see kernel_name): needs nengo and nengo_neurogo in the venv
    "11-nengo-backend.ipynb": {"params": {"n_neurons": 100, "sim_time": 1.0}, "min_png": 1},
    # live=False: papermill keeps the state of displayed widgets in the notebook, which the
    # documentation site would then load from a CDN
    "12-live-exploration.ipynb": {"params": {"nNeurons": 400, "hold": 0.6, "limit": 120.0, "live": False},
                                  "min_png": 2},
}


def kernel_name(path):
    """The kernel a notebook names in its metadata: "neurogo" (Go) for most,
    "python3" for the Python ones, which then run in the Python of the
    environment running these tests (.cache/venv under scripts/test)."""
    nb = nbformat.read(str(path), as_version=4)
    return nb.metadata.get("kernelspec", {}).get("name", "neurogo")


def test_every_notebook_is_configured():
    missing = [nb.name for nb in NOTEBOOKS if nb.name not in SMALL]
    assert not missing, f"add small parameters for {missing} to nbtests/test_notebooks.py"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook(path):
    cfg = SMALL.get(path.name, {"params": {}, "min_png": 0})
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    out = ARTIFACTS / path.name
    params = {} if FULL else cfg["params"]
    t0 = time.monotonic()
    papermill.execute_notebook(
        str(path), str(out), parameters=params, kernel_name=kernel_name(path),
        cwd=str(path.parent), progress_bar=False, execution_timeout=1800,
    )
    elapsed = time.monotonic() - t0
    nb = nbformat.read(str(out), as_version=4)
    errors, pngs = [], 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for o in cell.get("outputs", []):
            if o.get("output_type") == "error":
                errors.append(f"{o.get('ename')}: {o.get('evalue')}")
            if "image/png" in o.get("data", {}):
                pngs += 1
    assert not errors, errors
    assert pngs >= cfg["min_png"], f"{path.name}: {pngs} PNG figures, want ≥ {cfg['min_png']}"
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    if params:
        assert injected, "papermill did not inject the parameters cell"
    timings = ARTIFACTS / "timings.json"
    data = json.loads(timings.read_text()) if timings.exists() else {}
    data[path.name] = round(elapsed, 2)
    timings.write_text(json.dumps(data, indent=1, sort_keys=True))
