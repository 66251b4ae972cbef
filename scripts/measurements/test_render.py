"""Tests of the measurement pages' renderer (python3 -m pytest scripts/measurements)."""
from __future__ import annotations

import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render as R  # noqa: E402

MACHINE = {"cpu": "Test CPU", "cpu_features": ["avx2"], "logical_cores": 2, "gomaxprocs": 2,
           "memory_bytes": 8 << 30, "os": "Debian GNU/Linux 12 (bookworm)", "kernel": "6.1.0", "arch": "amd64",
           "go": "go1.26.8", "goexperiment": "simd", "build_tags": "openblas", "blas": "OpenBLAS 0.3.21",
           "openblas": True, "peers": {"nengo": "4.1.0", "numpy": "2.2.6"}}


def sim_doc(quick: bool = False) -> dict:
    run = {"command": "bin/neurogo bench sim --json --compare nengo", "date": "2026-01-02T03:04:05Z",
           "machine": MACHINE, "quick": quick,
           "protocol": {"models": ["integrator"], "dims": [64], "batches": [1, 10], "neurons": 9984,
                        "warmup_s": 0.1, "seconds": 5, "repeats": 5, "dt": 0.001, "opt": "all", "copy_gbps": 4.0}}
    rows = [{"model": "integrator", "dims": 64, "batch": b, "us_per_step": 10.0 * b, "ci_low": 0.01, "ci_high": 0.012,
             "simulated_s": 5, "steps": 5000, "build_s": 0.8, "allocs_per_step": 0, "copy_gbps": 4.0,
             "roofline": 0.5, "nengo_us_per_step": 300.0 * b, "nengo_build_s": 30.0, "speedup": s}
            for b, s in ((10, 12.5), (1, 30.0))]
    return {"run": run, "rows": rows}


def test_sim_page():
    md = R.render("sim", sim_doc())
    assert md.startswith("# Simulator speed beside Nengo\n")
    for want in ("- Command: `bin/neurogo bench sim --json --compare nengo`", "- Date: 2026-01-02 03:04:05 UTC",
                 "- Mode: full", "Test CPU (avx2); 2 logical cores, GOMAXPROCS 2; 8.0 GiB memory",
                 "GOEXPERIMENT=simd", "build tags: openblas", "- Peers: nengo 4.1.0, numpy 2.2.6",
                 "**30.0×**", "- Batch 1: 30.0× Nengo's speed"):
        assert want in md, want
    # rows sorted by batch whatever their order in the JSON
    assert md.index("| integrator | 64 | 1 |") < md.index("| integrator | 64 | 10 |")


def test_deterministic_and_pure():
    d = sim_doc()
    before = copy.deepcopy(d)
    assert R.render("sim", d) == R.render("sim", d)
    assert d == before


def test_quick_mode_and_summary():
    assert "- Mode: quick" in R.render("sim", sim_doc(quick=True))
    assert R.summary("sim", sim_doc()) == "simulator: 30.0× Nengo at batch 1, 12.5× Nengo at batch 10"


def test_index_lists_pages():
    idx = R.render_index({"sim": sim_doc()}, {})
    assert "[Simulator speed beside Nengo](sim.md): simulator: 30.0× Nengo at batch 1" in idx
    assert "(2026-01-02)" in idx


def test_train_ratio():
    doc = {"run": {"command": "bin/neurogo bench train --json", "date": "2026-01-02T03:04:05Z", "machine": MACHINE,
                   "protocol": {"examples": 60000, "batch": 200, "epochs": 1}},
           "seconds_per_epoch": 50.0, "torch_seconds_per_epoch": 100.0, "ratio_vs_torch": 0.5,
           "torch_version": "2.15.0", "train_accuracy": 0.9}
    md = R.render("train", doc)
    assert "**0.50×**" in md and "| PyTorch 2.15.0 | 100.0 | – |" in md
    assert R.summary("train", doc) == "training: 0.50× PyTorch's time per epoch"


def test_missing_machine():
    assert R.machine_lines(None) == ["- Machine: not recorded with these results"]


def test_formatting():
    assert R.g(1234.5) == "1234"
    assert R.g(0.012345) == "0.0123"
    assert R.g(3.2e9) == "3.20e+09"
    assert R.f(float("nan")) == "–"
    assert R.span([2.0, 1.0]) == "1.0–2.0×"
    assert R.span([]) == "–"


def builds_doc() -> dict:
    plain = dict(MACHINE, goexperiment="", build_tags="", cgo="0", blas="neurogo (pure Go)",
                 kernels="AVX-512 assembly", openblas=False)
    sim = sim_doc()
    sim["run"]["machine"] = plain
    sim["run"]["protocol"]["beside"] = {"binary": "/x/neurogo-openblas", "kernels": "AVX-512 assembly",
                                        "blas": "OpenBLAS 0.3.21", "cgo": "1"}
    for r in sim["rows"]:
        r["beside"] = {"us_per_step": r["us_per_step"] / 1.1, "ci_half_us": 0.1, "build_s": 0.5,
                       "step_ratio": 1.1 if r["batch"] == 1 else 1.05, "build_ratio": 1.6}
    train = {"run": {"command": ".cache/builds/neurogo-plain bench train --json", "machine": plain},
             "examples": 6000, "batch": 200, "seconds_per_epoch": 12.0, "beside_seconds_per_epoch": 10.0,
             "ratio_vs_beside": 1.2, "torch_seconds_per_epoch": 9.0, "ratio_vs_torch": 12 / 9, "torch_version": "2.5"}
    blas = {"run": {"command": ".cache/builds/neurogo-openblas bench blas --json"},
            "rows": [{"op": "dgemm TN", "shape": "1000×500×500", "why": "Gram", "neurogo_gflops": 40.0,
                      "peer_gflops": 50.0, "ratio": 0.8, "peer": "OpenBLAS"}]}
    return {"run": {"command": "scripts/measure --only builds", "date": "2026-01-02T03:04:05Z", "machine": plain},
            "builds": {"plain": "CGO_ENABLED=0 go build -o .cache/builds/neurogo-plain ./cmd/neurogo",
                       "tuned": "go build -tags openblas -o .cache/builds/neurogo-openblas ./cmd/neurogo"},
            "sim": sim, "train": train, "blas": blas}


def test_builds_page():
    md = R.render("builds", builds_doc())
    assert "# Plain go build beside the OpenBLAS build" in md
    assert "**1.10**" in md and "**1.60**" in md  # step and build ratios per row
    assert "1.05–1.10× the OpenBLAS build's time" in md and "the worst 1.10" in md
    assert "Plain ÷ OpenBLAS build: **1.20×**" in md or "Plain ÷ OpenBLAS build: **1.2" in md
    assert "| dgemm TN | 1000×500×500 | Gram | 40.0 | 50.0 | **0.80** |" in md
    assert "CGO_ENABLED=0" in md and "OpenBLAS 0.3.21" in md
    assert R.summary("builds", builds_doc()).startswith("plain go build 1.10× the OpenBLAS build's step time")


def nengo_doc() -> dict:
    run = {"command": "bin/neurogo bench nengo --json", "date": "2026-01-02T03:04:05Z", "machine": MACHINE,
           "quick": False, "protocol": {"models": ["integrator", "pes"], "dims": [64], "neurons": 9984,
                                        "warmup_s": 0.1, "seconds": 5, "repeats": 5, "dt": 0.001, "rounds": 3}}
    rows = [{"model": "pes", "dims": 64, "batch": 1, "nengo_us_per_step": 200.0, "nengo_ci_half_us": 2.0,
             "neurogo_us_per_step": 10.0, "neurogo_ci_half_us": 0.5, "speedup": 20.0, "nengo_build_s": 2.0,
             "neurogo_build_s": 2.2, "build_ratio": 1.1, "python_ops": 0, "python_op_types": [],
             "nengo_rounds_us_per_step": [200.0, 210.0, 190.0], "neurogo_rounds_us_per_step": [10.0, 11.0, 9.0],
             "nengo_rounds_build_s": [2.0, 2.1, 1.9], "neurogo_rounds_build_s": [2.2, 2.3, 2.1]},
            {"model": "integrator", "dims": 64, "batch": 1, "nengo_us_per_step": 90.0, "nengo_ci_half_us": 1.0,
             "neurogo_us_per_step": 20.0, "neurogo_ci_half_us": 1.0, "speedup": 4.5, "nengo_build_s": 2.0,
             "neurogo_build_s": 3.0, "build_ratio": 1.5, "python_ops": 1,
             "python_op_types": ["1 × ElementwiseInc: an element-wise product that broadcasts"]}]
    return {"run": run, "rows": rows}


def test_nengo_page():
    md = R.render("nengo", nengo_doc())
    assert md.startswith("# The Nengo backend beside Nengo\n")
    for want in ("- Command: `bin/neurogo bench nengo --json`", "**20.0×**", "**1.10**", "**4.5×**",
                 "- Speed-up ≥ 10×: 1 of 2 cells (not: integrator D=64).",
                 "- Build ratio ≤ 1.2: 1 of 2 cells (not: integrator D=64).",
                 "- Both: 1 of 2 cells (pes D=64).",
                 "- integrator D=64: 1 × ElementwiseInc: an element-wise product that broadcasts",
                 "| pes | 64 | 200.0, 210.0, 190.0 | 10.0, 11.0, 9.0 |", "Each cell runs 3 rounds"):
        assert want in md, want
    assert md.index("| integrator | 64 |") < md.index("| pes | 64 |")
    assert "pes and the length of a run" in md
    d = nengo_doc()
    d["rows"] = [r for r in d["rows"] if r["model"] != "pes"]
    assert "pes and the length of a run" not in R.render("nengo", d)
    assert R.summary("nengo", nengo_doc()) == (
        "Nengo backend: 4.5–20.0× Nengo's speed per step, build 1.10–1.50× Nengo's; "
        "2 / 2 cells meet ≥ 10× and build ≤ 1.2×".replace("2 / 2", "1 / 2"))
    d = nengo_doc()
    for r in d["rows"]:
        r.update(speedup=12.0, build_ratio=1.0)
    assert "every cell meets the goal" in R.render("nengo", d)
    assert "[The Nengo backend beside Nengo](nengo.md)" in R.render_index({"nengo": nengo_doc()}, {})
