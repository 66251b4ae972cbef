#!/usr/bin/env python3
"""Reference data for ScatteredHypersphere in package dists, computed by Nengo.

    bash scripts/nengo-bench-venv   # nengo==4.1.0, numpy==2.2.6, scipy==1.17.1
    .cache/nengo-bench-venv/bin/python toolkit/dists/testdata/gen_nengo.py

SciPy is needed for Nengo's exact method "sct" (scipy.special.betaincinv); the
fixture venv of scripts/check-nengo-fixtures has none. Writes
``nengo_scattered.json`` next to itself:

- ``phi``: ``QuasirandomSequence._phi(d)`` for d = 1..8 (the root of
  x^(d+1) = x + 1).
- ``quasirandom``: ``QuasirandomSequence().sample(n, d, rng=RandomState(seed))``
  with the offset that sample drew (``RandomState(seed).uniform(0, 1, size=d)``)
  and the row permutation of its shuffle (the same state shuffling
  ``arange(n)``), so that Go can check its un-shuffled R_d points bit for bit.
- ``sct``: ``ScatteredHypersphere.spherical_transform_sct(samples)`` for fixed
  samples in [0, 1]^k, k = 1..6, plus edge values: ``mapped`` with
  ``approx=False`` (method "sct") and ``mapped_approx`` with ``approx=True``
  (Nengo's default "sct-approx": the inverse incomplete beta interpolated
  from a stored table). k = 1..6 with 25 random samples plus edge values;
  k = 27, 191 and 1200 (between tabulated dims and above the table) with 4.
- ``lookup``: ``_betaincinv22.lookup(dims, x)``, the interpolated
  B^-1(x; dims/2, 1/2) of "sct-approx", at 501 evenly spaced x in [0, 1], the
  knots of the nearest table dimension and 200 log-spaced x in [1e-300, 1e-3],
  for tabulated dims, dims between them and dims above 1000.
- ``invbeta``: ``scipy.special.betaincinv(dims / 2, 0.5, p)`` (what method "sct"
  evaluates) at 300 p spread over [0, 1] and both tails (down to 1e-300 and
  1 - 1e-15), dims from 1 to 1200.

The random rotation is not exported: it comes from NumPy's generator.
"""

import json
import os

import numpy as np

import nengo
from nengo.dists import QuasirandomSequence, ScatteredHypersphere, _betaincinv22

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    assert nengo.__version__ == "4.1.0", nengo.__version__
    import scipy

    out = {
        "meta": {"nengo": nengo.__version__, "numpy": np.__version__, "scipy": scipy.__version__}
    }
    out["phi"] = [QuasirandomSequence._phi(d) for d in range(1, 9)]
    cases = []
    for n, d, seed in [(10, 1, 1), (7, 1, 9), (20, 2, 2), (15, 3, 3), (12, 5, 4), (9, 8, 5)]:
        z = QuasirandomSequence().sample(n, d, rng=np.random.RandomState(seed))
        r = np.random.RandomState(seed)
        offset = r.uniform(0, 1, size=d)
        perm = np.arange(n)
        r.shuffle(perm)
        cases.append(
            {"n": n, "d": d, "offset": offset.tolist(), "perm": perm.tolist(), "z": z.ravel().tolist()}
        )
    out["quasirandom"] = cases
    sct = []
    rng = np.random.RandomState(6)
    for k in range(1, 7):
        samples = rng.uniform(0, 1, size=(25, k))
        edges = np.array([[0.0] * k, [0.5] * k, [1e-9] * k, [1 - 1e-9] * k, [0.25] * k])
        samples = np.vstack([samples, edges])
        mapped = ScatteredHypersphere.spherical_transform_sct(samples, approx=False)
        approx = ScatteredHypersphere.spherical_transform_sct(samples, approx=True)
        sct.append(
            {
                "k": k,
                "samples": samples.ravel().tolist(),
                "mapped": mapped.ravel().tolist(),
                "mapped_approx": approx.ravel().tolist(),
            }
        )
    for k in (27, 191, 1200):
        samples = rng.uniform(0, 1, size=(4, k))
        mapped = ScatteredHypersphere.spherical_transform_sct(samples, approx=False)
        approx = ScatteredHypersphere.spherical_transform_sct(samples, approx=True)
        sct.append(
            {
                "k": k,
                "samples": samples.ravel().tolist(),
                "mapped": mapped.ravel().tolist(),
                "mapped_approx": approx.ravel().tolist(),
            }
        )
    out["sct"] = sct
    table = _betaincinv22.load_table()
    known = np.array(sorted(table))
    lookup = []
    for dims in (1, 2, 3, 7, 25, 26, 27, 29, 40, 100, 119, 190, 191, 345, 400, 1000, 1001, 5000):
        near = known[np.argmin(np.abs(known - dims))]
        x = np.concatenate(
            [np.linspace(0, 1, 501), table[near][0], np.logspace(-300, -3, 200)]
        )
        lookup.append({"dims": dims, "x": x.tolist(), "y": _betaincinv22.lookup(dims, x).tolist()})
    out["lookup"] = lookup
    import scipy.special

    u = np.random.RandomState(7).uniform(size=100)
    p = np.concatenate([u, u**20, 1 - u**20, np.logspace(-300, -1, 30), 1 - np.logspace(-15, -1, 15)])
    out["invbeta"] = [
        {"dims": dims, "p": p.tolist(), "z": scipy.special.betaincinv(dims / 2.0, 0.5, p).tolist()}
        for dims in (1, 2, 3, 5, 8, 27, 100, 191, 400, 1200)
    ]
    with open(os.path.join(HERE, "nengo_scattered.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
