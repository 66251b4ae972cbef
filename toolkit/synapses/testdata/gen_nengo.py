#!/usr/bin/env python3
"""Reference data for package synapses, computed by Nengo itself.

Pinned versions (the fixture records them too):

    python3 -m venv /tmp/nengo-venv
    /tmp/nengo-venv/bin/pip install nengo==4.1.0 numpy==2.2.6
    /tmp/nengo-venv/bin/python toolkit/synapses/testdata/gen_nengo.py

(numpy 2.2 is the release current when Nengo 4.1.0 came out; Nengo 4.1.0's
``Synapse.filt`` breaks on numpy >= 2.4. scipy is not needed: Nengo 4.1
discretises with its own ``nengo.utils.filter_design.cont2discrete``.)
The script downloads nothing and uses no randomness: the input signal comes
from an integer hash that the Go tests recompute bit for bit.

It writes ``nengo_synapses.json`` next to itself. For each case it records
the discrete state-space matrices Nengo simulates (``LinearFilter._get_ss``,
i.e. ``tf2ss`` then ``cont2discrete`` when analog), the name of the step
class ``make_step`` picks, and the output of ``Synapse.filt`` (which calls
``make_state``/``make_step`` and steps once per sample) on an input of
``steps`` samples: 1 at sample 0 (an impulse), 0 until sample 200, 1 from
200 to 599 (a step), then ``2 * unit(k, 0) - 1`` (noise). (The Go tests check
separately that n channels filter independently.)
"""

import json
import os
import sys
import warnings

import numpy as np

import nengo
from nengo.synapses import LinearFilter

STEPS = 1000


def unit(k, i, seed=0):
    """A uniform number in [0, 1) with 24-bit resolution from (k, i, seed)."""
    h = (k * 0x9E3779B1 + i * 0x85EBCA77 + seed * 0xC2B2AE3D) & 0xFFFFFFFF
    h ^= h >> 15
    h = (h * 0x2C1B3C6D) & 0xFFFFFFFF
    h ^= h >> 12
    h = (h * 0x297A2D39) & 0xFFFFFFFF
    h ^= h >> 15
    return (h >> 8) / 16777216.0


def signal():
    x = np.zeros(STEPS)
    for k in range(STEPS):
        if k == 0 or 200 <= k < 600:
            x[k] = 1.0
        elif k >= 600:
            x[k] = 2.0 * unit(k, 0) - 1.0
    return x


def floats(a):
    return [float(v) for v in np.asarray(a, dtype=float).ravel()]


def cases():
    c = []

    def add(name, spec, syn, dt=0.001):
        c.append((name, spec, syn, dt))

    add("Lowpass 5 ms", {"type": "Lowpass", "tau": 0.005}, nengo.Lowpass(0.005))
    add("Lowpass 100 ms", {"type": "Lowpass", "tau": 0.1}, nengo.Lowpass(0.1))
    add("Lowpass 5 ms dt 2 ms", {"type": "Lowpass", "tau": 0.005},
        nengo.Lowpass(0.005), 0.002)
    add("Lowpass 0 (passthrough)", {"type": "Lowpass", "tau": 0.0}, nengo.Lowpass(0))
    add("Alpha 5 ms", {"type": "Alpha", "tau": 0.005}, nengo.Alpha(0.005))
    add("Alpha 20 ms", {"type": "Alpha", "tau": 0.02}, nengo.Alpha(0.02))
    add("Triangle 10.5 ms (rounds to 10 ms)", {"type": "Triangle", "t": 0.0105},
        nengo.Triangle(0.0105))
    add("Triangle 20 ms", {"type": "Triangle", "t": 0.02}, nengo.Triangle(0.02))
    add("Triangle 7 ms dt 2 ms", {"type": "Triangle", "t": 0.007},
        nengo.Triangle(0.007), 0.002)
    add("Triangle 0", {"type": "Triangle", "t": 0.0}, nengo.Triangle(0.0))
    for name, num, den, kw in [
        ("2nd order underdamped", [1.0], [1e-4, 0.01, 1.0], {}),
        ("3rd order with zeros", [5e-5, 0.02, 1.0], [1e-6, 2e-4, 0.02, 1.0], {}),
        ("proper 1st order (D != 0)", [0.002, 1.0], [0.01, 1.0], {}),
        ("proper 2nd order notch (D != 0)", [1e-4, 0.0, 1.0], [1e-4, 0.01, 1.0], {}),
        ("leading zeros stripped", [0.0, 0.0, 1.0], [0.0, 0.005, 1.0], {}),
        ("unnormalised denominator", [3.0], [2e-4, 0.06, 2.0], {}),
        ("pure gain", [2.5], [0.5], {}),
        ("digital 1st order", [0.1], [1.0, -0.9], {"analog": False}),
        ("digital 2nd order with D", [0.2, 0.1, 0.05], [1.0, -1.2, 0.5],
         {"analog": False}),
        ("euler", [1.0], [1e-4, 0.01, 1.0], {"method": "euler"}),
        ("backward_diff", [1.0], [1e-4, 0.01, 1.0], {"method": "backward_diff"}),
        ("bilinear", [1.0], [1e-4, 0.01, 1.0], {"method": "bilinear"}),
    ]:
        spec = {"type": "LinearFilter", "num": num, "den": den,
                "analog": kw.get("analog", True), "method": kw.get("method", "zoh")}
        add(name, spec, LinearFilter(num, den, **kw))
    return c


def main():
    # the "leading zeros stripped" case makes Nengo warn, as intended
    warnings.filterwarnings("ignore", message="Badly conditioned filter coefficients")
    here = os.path.dirname(os.path.abspath(__file__))
    x = signal()
    out = []
    for name, spec, syn, dt in cases():
        case = dict(spec, name=name, dt=dt)
        if isinstance(syn, LinearFilter):
            A, B, C, D = syn._get_ss(dt)
            state = syn.make_state((1,), (1,), dt)
            step = syn.make_step((1,), (1,), dt, rng=None, state=state)
            case.update(
                order=int(A.shape[0]) if A.size else 0,
                A=floats(A), B=floats(B), C=floats(C), D=floats(D),
                step_class=type(step).__name__,
            )
        y = syn.filt(x, dt=dt, axis=0)
        case["y"] = floats(y)
        out.append(case)
    data = {
        "meta": {
            "nengo": nengo.__version__,
            "numpy": np.__version__,
            "python": sys.version.split()[0],
            "steps": STEPS,
            "generator": "toolkit/synapses/testdata/gen_nengo.py",
        },
        "cases": out,
    }
    path = os.path.join(here, "nengo_synapses.json")
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    if nengo.__version__ != "4.1.0":
        sys.exit(f"need nengo 4.1.0, have {nengo.__version__}")
    main()
