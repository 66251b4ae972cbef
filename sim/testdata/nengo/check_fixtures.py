#!/usr/bin/env python3
"""Prove that the committed fixtures in this directory come from Nengo 4.1.0.

Re-runs export.py into a temporary directory and compares every array of every
<model>.npz with the committed one: same files, same keys, same shapes, and values
bitwise equal or, failing that, within 1e-12 * max(1, max |committed|) (room for a
BLAS or CPU that rounds a dot product differently). Exits 1 on any difference.

    pip install nengo==4.1.0 numpy
    python3 sim/testdata/nengo/check_fixtures.py

The last line is "N passed, M failed" (one count per model file).
"""

import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import export  # noqa: E402  (this directory's exporter)

REL_TOL = 1e-12


def compare(name, committed_path, fresh_path):
    """Returns (problems, n_inexact) for one model file."""
    problems = []
    inexact = 0
    with np.load(committed_path) as old, np.load(fresh_path) as new:
        old_keys, new_keys = set(old.files), set(new.files)
        for k in sorted(old_keys - new_keys):
            problems.append(f"{k}: committed but no longer exported")
        for k in sorted(new_keys - old_keys):
            problems.append(f"{k}: exported but not committed")
        for k in sorted(old_keys & new_keys):
            a, b = old[k], new[k]
            if a.dtype != np.float64 or b.dtype != np.float64:
                problems.append(f"{k}: dtype {a.dtype} vs {b.dtype}, want float64")
                continue
            if a.shape != b.shape:
                problems.append(f"{k}: shape {a.shape} committed, {b.shape} exported")
                continue
            if np.array_equal(a, b, equal_nan=True):
                continue
            scale = max(1.0, float(np.max(np.abs(a), initial=0.0)))
            err = float(np.max(np.abs(a - b)))
            if err <= REL_TOL * scale:
                inexact += 1
            else:
                problems.append(
                    f"{k}: max |diff| {err:.3g} > {REL_TOL:g} * {scale:.3g}"
                )
    return problems, inexact


def main():
    committed = sorted(f for f in os.listdir(HERE) if f.endswith(".npz"))
    with tempfile.TemporaryDirectory() as tmp:
        export.main(["--out", tmp, "--quiet"])
        fresh = sorted(f for f in os.listdir(tmp) if f.endswith(".npz"))
        passed = failed = 0
        for f in sorted(set(committed) | set(fresh)):
            if f not in fresh:
                print(f"FAIL {f}: committed but export.py no longer writes it")
                failed += 1
                continue
            if f not in committed:
                print(f"FAIL {f}: export.py writes it but it is not committed")
                failed += 1
                continue
            problems, inexact = compare(f, os.path.join(HERE, f), os.path.join(tmp, f))
            if problems:
                failed += 1
                print(f"FAIL {f}")
                for p in problems:
                    print(f"    {p}")
            else:
                passed += 1
                note = f" ({inexact} arrays within {REL_TOL:g}, rest bitwise)" if inexact else " (bitwise)"
                print(f"ok   {f}{note}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
