#!/usr/bin/env python3
"""Nengo side of `neurogo bench sim` and `neurogo bench nengo` (the NengoDL paper, §5.1).

Builds one of the four NengoDL benchmark models (integrator, cconv,
basal_ganglia, pes) in Python, RectifiedLinear neurons on every ensemble,
and times it with the protocol the Go side uses: build, one warm-up run,
then `--repeats` timed runs of `--seconds` simulated each on the same
simulator. `--simulator nengo` (the default) runs Nengo's reference
simulator (`optimize=True`: Nengo's operator merging); `--simulator
neurogo` runs the same built model with `nengo_neurogo.Simulator`
(`optimize=True`: neurogo's own optimiser, in Go). Prints one JSON object
on stdout: simulator, build_s (the whole constructor: Nengo's build and,
for neurogo, the translation and the Go build), times (wall seconds per
repeat), steps, peak_rss_mb, nengo, numpy and scipy versions (scipy null
when absent) and, for neurogo, python_ops (how many operators run in
Python as callbacks) and python_op_types (their classes and reasons).
`--versions` prints only {"nengo", "numpy", "scipy"} (and
"nengo_neurogo", "package", the directory it is imported from, and
"library", the path of libneurogo, with `--simulator neurogo`) and exits.

Run with the venv that scripts/nengo-bench-venv creates
(.cache/nengo-bench-venv, nengo==4.1.0, numpy==2.2.6, scipy==1.17.1 and
nengo_neurogo) or, for `--simulator nengo` only, the SciPy-free one of
scripts/check-nengo-fixtures (.cache/nengo-venv).
Nengo is GPL: this script only calls it.
"""
import argparse
import json
import os
import resource
import sys
import time

import nengo
import numpy as np


def _defaults(net, neuron_type, gain_bias):
    net.config[nengo.Ensemble].neuron_type = neuron_type
    if gain_bias:
        # NengoDL's benchmarks set these as network config defaults.
        net.config[nengo.Ensemble].gain = nengo.dists.Choice([1, -1])
        net.config[nengo.Ensemble].bias = nengo.dists.Uniform(-1, 1)


def integrator(d, npd, nt, seed):
    with nengo.Network(label="integrator", seed=seed) as net:
        _defaults(net, nt, True)
        ea = nengo.networks.EnsembleArray(npd, d)
        nengo.Connection(ea.output, ea.input, synapse=0.01)
        inp = nengo.Node([0] * d)
        nengo.Connection(inp, ea.input, transform=0.01)
        nengo.Probe(ea.output)
    return net


def cconv(d, npd, nt, seed):
    with nengo.Network(label="cconv", seed=seed) as net:
        _defaults(net, nt, True)
        cc = nengo.networks.CircularConvolution(npd, d)
        nengo.Connection(nengo.Node([0] * d), cc.input_a)
        nengo.Connection(nengo.Node([1] * d), cc.input_b)
        nengo.Probe(cc.output)
    return net


def basal_ganglia(d, npd, nt, seed):
    with nengo.Network(label="basal_ganglia", seed=seed) as net:
        _defaults(net, nt, False)
        bg = nengo.networks.BasalGanglia(d, npd)
        nengo.Connection(nengo.Node([1] * d), bg.input)
        nengo.Probe(bg.output)
    return net


def pes(d, npd, nt, seed):
    with nengo.Network(label="pes", seed=seed) as net:
        _defaults(net, nt, True)
        inp = nengo.Node([1] * d)
        pre = nengo.Ensemble(npd * d, d)
        post = nengo.Node(size_in=d)
        nengo.Connection(inp, pre)
        conn = nengo.Connection(pre, post, learning_rule_type=nengo.PES())
        nengo.Connection(post, conn.learning_rule, transform=-1)
        nengo.Connection(inp, conn.learning_rule)
        nengo.Probe(post)
    return net


MODELS = {"integrator": integrator, "cconv": cconv,
          "basal_ganglia": basal_ganglia, "pes": pes}


def _reset_peak():
    try:  # Linux: writing 5 resets VmHWM (peak RSS) of this process
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _peak_rss_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def versions():
    """The versions of Nengo, NumPy and SciPy (None when SciPy is absent)."""
    try:
        import scipy
        sp = scipy.__version__
    except ImportError:
        sp = None
    return {"nengo": nengo.__version__, "numpy": np.__version__, "scipy": sp}


def _simulator_class(name):
    """The simulator class for --simulator and the extra versions to report."""
    if name == "nengo":
        return nengo.Simulator, {}
    try:
        import nengo_neurogo
    except ImportError as e:
        sys.stderr.write(
            f"nengo_bench.py: --simulator neurogo: cannot import nengo_neurogo ({e}); "
            "run scripts/nengo-bench-venv\n")
        sys.exit(3)
    from nengo_neurogo import _lib
    return nengo_neurogo.Simulator, {
        "nengo_neurogo": nengo_neurogo.__version__,
        "package": os.path.dirname(os.path.abspath(nengo_neurogo.__file__)),
        "library": str(_lib.library_path())}


def _python_ops(sim):
    """The operators of a nengo_neurogo simulator that run in Python: count
    and a sorted list of "OperatorClass: reason" (with repeats counted)."""
    unsupported = getattr(sim, "unsupported", None)
    if unsupported is None:
        return None, []
    kinds = {}
    for op, reason in unsupported.items():
        key = f"{type(op).__name__}: {reason}"
        kinds[key] = kinds.get(key, 0) + 1
    return len(unsupported), [f"{n} × {k}" for k, n in sorted(kinds.items())]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--versions", action="store_true", help="print the versions of nengo, numpy and scipy and exit")
    ap.add_argument("--simulator", choices=("nengo", "neurogo"), default="nengo",
                    help="nengo.Simulator (default) or nengo_neurogo.Simulator")
    ap.add_argument("--model", choices=sorted(MODELS))
    ap.add_argument("--dims", type=int)
    ap.add_argument("--neurons", type=int, default=9984, help="total neurons; per dimension = neurons // dims")
    ap.add_argument("--warmup", type=float, default=0.1)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dt", type=float, default=0.001)
    a = ap.parse_args()
    cls, extra = _simulator_class(a.simulator)
    if a.versions:
        json.dump({**versions(), **extra}, sys.stdout)
        sys.stdout.write("\n")
        return 0
    if a.model is None or a.dims is None:
        ap.error("--model and --dims are required")

    npd = a.neurons // a.dims
    # Nengo's decoder cache (on by default, in ~/.cache/nengo) would make
    # every build after the first a cache hit; neurogo has none, so time
    # Nengo's builds cold (nengo_neurogo uses the same default cache, off
    # here too).
    nengo.rc.set("decoder_cache", "enabled", "False")
    _reset_peak()
    net = MODELS[a.model](a.dims, npd, nengo.RectifiedLinear(), a.seed)
    t0 = time.perf_counter()
    sim = cls(net, dt=a.dt, optimize=True, progress_bar=False)
    build_s = time.perf_counter() - t0
    py_ops, py_op_types = _python_ops(sim) if a.simulator == "neurogo" else (None, [])
    times = []
    with sim:
        sim.run(a.warmup, progress_bar=False)
        steps = int(round(a.seconds / a.dt))
        for _ in range(a.repeats):
            t0 = time.perf_counter()
            sim.run_steps(steps, progress_bar=False)
            times.append(time.perf_counter() - t0)
    out = {
        "simulator": a.simulator,
        "model": a.model, "dims": a.dims, "neurons_per_d": npd,
        "build_s": build_s, "times": times, "steps": steps,
        "n_neurons": sum(e.n_neurons for e in net.all_ensembles),
        "peak_rss_mb": _peak_rss_mb(),
        **versions(), **extra,
    }
    if a.simulator == "neurogo":
        out["python_ops"] = py_ops
        out["python_op_types"] = py_op_types
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
