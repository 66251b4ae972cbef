#!/usr/bin/env python3
"""Export the Nengo reference fixtures that neurogo's simulator is checked against.

Pinned: nengo==4.1.0 (checked at start-up), numpy (fixtures generated with numpy 2.2.6,
the venv of scripts/check-nengo-fixtures; any numpy that nengo 4.1.0 accepts works, up to
the last bits of BLAS-dependent values). Nothing else is imported and nothing is
downloaded at run time.

    pip install nengo==4.1.0 numpy
    python3 sim/testdata/nengo/export.py            # writes sim/testdata/nengo/*.npz
    python3 sim/testdata/nengo/export.py --out DIR  # writes elsewhere
    python3 sim/testdata/nengo/export.py --only lif_ens,pes

Each model is built with nengo.Simulator(net, dt=0.001, seed=SEED, progress_bar=False)
(optimize left at its default), run for its number of steps, and written as
<model>.npz. The keys are documented in README.md beside this file; check_fixtures.py
re-runs this script into a temporary directory and compares.

Nengo's decoder cache is switched off (nengo.rc) so that the export neither reads nor
writes ~/.cache; cached and uncached solves are the same computation.
"""

import argparse
import os
import sys
import time
import zipfile

import warnings

import numpy as np

import nengo

NENGO_VERSION = "4.1.0"
DT = 0.001

HERE = os.path.dirname(os.path.abspath(__file__))


# --------------------------------------------------------------------------------------
# Input functions. Every input node is a deterministic function of the simulator time
# t = step * dt (Nengo's TimeUpdate computes exactly that float64 product).


def sin_09(t):
    return 0.9 * np.sin(2 * np.pi * t)


def sin_1(t):
    return np.sin(2 * np.pi * t)


def sin_cos(t):
    return [np.sin(2 * np.pi * t), np.cos(2 * np.pi * t)]


def step_synapses(t):
    # 0 for t < 0.1, 1 for 0.1 <= t < 0.5, -0.5 after
    if t < 0.1:
        return 0.0
    if t < 0.5:
        return 1.0
    return -0.5


def step_integrator(t):
    # 0 until 0.2, 1 until 0.4, 0 until 0.6, -0.5 after (left-closed intervals)
    if t < 0.2:
        return 0.0
    if t < 0.4:
        return 1.0
    if t < 0.6:
        return 0.0
    return -0.5


# --------------------------------------------------------------------------------------
# Models. Each builder returns (network, steps, extra) where extra(sim, arrays) may add
# keys. Every Ensemble, Connection and Probe carries a label; labels are unique per model.


NEURON_MODELS = {
    "lif_ens": nengo.LIF,
    "lifrate_ens": nengo.LIFRate,
    "relu_ens": nengo.RectifiedLinear,
    "srelu_ens": nengo.SpikingRectifiedLinear,
    "alif_ens": nengo.AdaptiveLIF,
    "alifrate_ens": nengo.AdaptiveLIFRate,
    "izh_ens": nengo.Izhikevich,
}


def neuron_ens_model(name, neuron_type, sample_every=None):
    """One 1-D ensemble of 50 neurons driven by 0.9 sin(2 pi t), decoded to a node."""
    with nengo.Network(seed=0, label=name) as net:
        stim = nengo.Node(sin_09, label="stim")
        a = nengo.Ensemble(50, 1, neuron_type=neuron_type, label="a")
        nengo.Connection(stim, a, label="stim_a")  # default synapse Lowpass(0.005)
        out = nengo.Node(size_in=1, label="out")
        nengo.Connection(a, out, label="a_out")  # default solver LstsqL2(reg=0.1)
        nengo.Probe(a, synapse=0.01, sample_every=sample_every, label="a_decoded")
        if sample_every is None:
            nengo.Probe(a.neurons, "output", label="a_neurons")
            if "voltage" in a.neurons.probeable:
                nengo.Probe(a.neurons, "voltage", label="a_voltage")
            nengo.Probe(a.neurons, "input", label="a_input")
        nengo.Probe(out, label="out_p")
        # The input as Nengo computed it (NumPy's sin), so that a test can feed
        # exactly these values instead of recomputing them with another libm.
        nengo.Probe(stim, label="stim_p")
    return net, 1000


def lif_ens_extra(net, sim, arrays):
    """conn/a_out/decoders_check: LstsqL2 re-solved from the exported parameters."""
    a = find(net.all_ensembles, "a")
    conn = find(net.all_connections, "a_out")
    built = sim.data[a]
    eval_points = sim.data[conn].eval_points
    x = np.dot(eval_points, built.encoders.T / a.radius)
    activities = a.neuron_type.rates(x, built.gain, built.bias)
    targets = eval_points  # identity function
    decoders, _ = nengo.solvers.LstsqL2()(activities, targets)
    check = np.asarray(decoders.T, dtype=np.float64)  # same layout as weights
    weights = sim.data[conn].weights
    if not np.allclose(check, weights, rtol=1e-12, atol=1e-15):
        raise SystemExit("lif_ens: decoders_check disagrees with sim.data[a_out].weights")
    arrays["conn/a_out/decoders_check"] = check


def synapses_model():
    with nengo.Network(seed=0, label="synapses") as net:
        stim = nengo.Node(step_synapses, label="stim")
        lp = nengo.Node(size_in=1, label="lp")
        al = nengo.Node(size_in=1, label="al")
        lf = nengo.Node(size_in=1, label="lf")
        lp2a = nengo.Node(size_in=1, label="lp2a")
        lp2 = nengo.Node(size_in=1, label="lp2")
        nengo.Connection(stim, lp, synapse=nengo.Lowpass(0.01), label="stim_lp")
        nengo.Connection(stim, al, synapse=nengo.Alpha(0.005), label="stim_al")
        lf_syn = nengo.LinearFilter([1], [0.0001, 0.03, 1])
        poles = np.roots([0.0001, 0.03, 1])
        assert np.all(poles.real < 0), f"LinearFilter not stable: poles {poles}"
        nengo.Connection(stim, lf, synapse=lf_syn, label="stim_lf")
        nengo.Connection(stim, lp2a, synapse=nengo.Lowpass(0.005), label="stim_lp2a")
        nengo.Connection(lp2a, lp2, synapse=nengo.Lowpass(0.005), label="lp2a_lp2")
        nengo.Probe(lp, label="lp_p")
        nengo.Probe(al, label="al_p")
        nengo.Probe(lf, label="lf_p")
        nengo.Probe(lp2, label="lp2_p")
    return net, 1000


def integrator_model():
    with nengo.Network(seed=0, label="integrator") as net:
        stim = nengo.Node(step_integrator, label="stim")
        A = nengo.Ensemble(100, 1, label="A")
        nengo.Connection(stim, A, transform=0.1, synapse=0.1, label="stim_A")
        nengo.Connection(A, A, synapse=0.1, label="recur")
        nengo.Probe(A, synapse=0.01, label="A_p")
    return net, 1000


def square_fn(x):
    return x**2


def square_model():
    with nengo.Network(seed=0, label="square") as net:
        stim = nengo.Node(sin_1, label="stim")
        a = nengo.Ensemble(100, 1, label="a")
        b = nengo.Ensemble(100, 1, label="b")
        nengo.Connection(stim, a, label="stim_a")
        nengo.Connection(a, b, function=square_fn, label="a_b")
        nengo.Probe(b, synapse=0.01, label="b_p")
    return net, 1000


def product_fn(x):
    return x[0] * x[1]


def product_model():
    with nengo.Network(seed=0, label="product") as net:
        stim = nengo.Node(sin_cos, label="stim")
        ab = nengo.Ensemble(200, 2, radius=1.5, label="ab")
        prod = nengo.Node(size_in=1, label="prod")
        nengo.Connection(stim, ab, label="stim_ab")
        nengo.Connection(ab, prod, function=product_fn, label="ab_prod")
        nengo.Probe(prod, synapse=0.01, label="prod_p")
    return net, 1000


def twice_fn(t, x):
    return 2 * x + t


def node_size_in_model():
    with nengo.Network(seed=0, label="node_size_in") as net:
        stim = nengo.Node(sin_1, label="stim")
        a = nengo.Ensemble(50, 1, label="a")
        twice = nengo.Node(twice_fn, size_in=1, label="twice")
        nengo.Connection(stim, a, label="stim_a")
        nengo.Connection(a, twice, label="a_twice")
        nengo.Probe(twice, label="twice_p")
    return net, 1000


def zero_fn(x):
    return 0


def pes_model():
    with nengo.Network(seed=0, label="pes") as net:
        stim = nengo.Node(sin_1, label="stim")
        pre = nengo.Ensemble(60, 1, label="pre")
        post = nengo.Ensemble(60, 1, label="post")
        error = nengo.Ensemble(60, 1, label="error")
        nengo.Connection(stim, pre, label="stim_pre")
        learned = nengo.Connection(
            pre,
            post,
            function=zero_fn,
            learning_rule_type=nengo.PES(learning_rate=1e-4),
            label="learned",
        )
        nengo.Connection(post, error, label="post_err")
        nengo.Connection(stim, error, transform=-1, label="stim_err")
        nengo.Connection(error, learned.learning_rule, label="err_rule")
        nengo.Probe(post, synapse=0.01, label="post_p")
        nengo.Probe(error, synapse=0.01, label="error_p")
        nengo.Probe(learned, "weights", sample_every=0.01, label="weights_p")
    return net, 1000


def hebb_weights():
    """Initial 40 x 50 neuron-to-neuron weights of the bcm and oja models: small
    random values, drawn from their own RandomState so the network seed is untouched."""
    return np.random.RandomState(1).normal(0.0, 2e-4, size=(40, 50))


def hebb_model(name, rule):
    """Neuron-to-neuron connection pre.neurons -> post.neurons learning with BCM or Oja."""
    with nengo.Network(seed=0, label=name) as net:
        stim = nengo.Node(sin_1, label="stim")
        pre = nengo.Ensemble(50, 1, label="pre")
        post = nengo.Ensemble(40, 1, label="post")
        nengo.Connection(stim, pre, label="stim_pre")
        learned = nengo.Connection(
            pre.neurons,
            post.neurons,
            transform=hebb_weights(),
            learning_rule_type=rule,
            label="learned",
        )
        nengo.Probe(post, synapse=0.01, label="post_p")
        nengo.Probe(learned, "weights", sample_every=0.05, label="weights_p")
        nengo.Probe(stim, label="stim_p")
    return net, 1000


def learn_signal(t):
    # Voja's learning signal: 0.5 before t = 0.5, 1 after
    return 0.5 if t < 0.5 else 1.0


def voja_model():
    with nengo.Network(seed=0, label="voja") as net:
        stim = nengo.Node(sin_1, label="stim")
        pre = nengo.Ensemble(50, 1, label="pre")
        post = nengo.Ensemble(40, 1, label="post")
        nengo.Connection(stim, pre, label="stim_pre")
        learned = nengo.Connection(
            pre, post, learning_rule_type=nengo.Voja(learning_rate=1e-2), label="learned"
        )
        learn = nengo.Node(learn_signal, label="learn")
        nengo.Connection(learn, learned.learning_rule, synapse=None, label="learn_rule")
        nengo.Probe(post, synapse=0.01, label="post_p")
        nengo.Probe(
            learned.learning_rule, "scaled_encoders", sample_every=0.01, label="enc_p"
        )
        nengo.Probe(stim, label="stim_p")
    return net, 1000


def rls_model():
    with nengo.Network(seed=0, label="rls") as net:
        stim = nengo.Node(sin_1, label="stim")
        pre = nengo.Ensemble(30, 1, label="pre")
        post = nengo.Node(size_in=1, label="post")
        nengo.Connection(stim, pre, label="stim_pre")
        learned = nengo.Connection(
            pre,
            post,
            function=zero_fn,
            learning_rule_type=nengo.RLS(learning_rate=1e-3),
            label="learned",
        )
        err = nengo.Node(size_in=1, label="err")
        nengo.Connection(post, err, label="post_err")
        nengo.Connection(stim, err, transform=-1, label="stim_err")
        nengo.Connection(err, learned.learning_rule, label="err_rule")
        nengo.Probe(post, label="post_p")
        nengo.Probe(learned, "weights", sample_every=0.01, label="weights_p")
        nengo.Probe(stim, label="stim_p")
    return net, 1000


def sparse_pattern():
    """(indices, data) of the 40 x 60 neurons -> neurons sparse transform of the
    sparse model: 6 distinct pre neurons per post neuron, listed in shuffled order
    (so a builder must not assume sorted indices), from their own RandomState."""
    rng = np.random.RandomState(2)
    indices = []
    for i in range(40):
        for j in rng.choice(60, size=6, replace=False):
            indices.append((i, int(j)))
    indices = np.array(indices, dtype=np.int64)
    indices = indices[rng.permutation(len(indices))]
    data = rng.normal(5e-4, 1e-3, size=len(indices))
    return indices, data


def sparse_model():
    """nengo.transforms.Sparse on a node -> ensemble and a neurons -> neurons
    connection (LIF)."""
    with nengo.Network(seed=0, label="sparse") as net:
        stim = nengo.Node(sin_cos, label="stim")
        a = nengo.Ensemble(60, 3, label="a")
        b = nengo.Ensemble(40, 1, label="b")
        nengo.Connection(
            stim,
            a,
            transform=nengo.transforms.Sparse(
                (3, 2), indices=[[2, 1], [0, 0], [1, 1], [2, 0]], init=[0.5, 1.0, -0.8, 0.5]
            ),
            label="stim_a",
        )
        indices, data = sparse_pattern()
        nengo.Connection(
            a.neurons,
            b.neurons,
            transform=nengo.transforms.Sparse((40, 60), indices=indices, init=data),
            label="a_b",
        )
        nengo.Probe(a, synapse=0.01, label="a_p")
        nengo.Probe(b.neurons, "output", label="b_neurons")
        nengo.Probe(b, synapse=0.01, label="b_p")
        nengo.Probe(stim, label="stim_p")
    return net, 1000


def models():
    """Name -> (builder, extra). Order is the order of the README."""
    out = {}
    for name, cls in NEURON_MODELS.items():
        out[name] = (lambda cls=cls, name=name: neuron_ens_model(name, cls()), None)
    out["lif_ens"] = (out["lif_ens"][0], lif_ens_extra)
    out["synapses"] = (synapses_model, None)
    out["integrator"] = (integrator_model, None)
    out["square"] = (square_model, None)
    out["product"] = (product_model, None)
    out["node_size_in"] = (node_size_in_model, None)
    out["pes"] = (pes_model, None)
    out["bcm"] = (lambda: hebb_model("bcm", nengo.BCM(learning_rate=1e-7)), None)
    out["oja"] = (lambda: hebb_model("oja", nengo.Oja(learning_rate=1e-5)), None)
    out["voja"] = (voja_model, None)
    out["rls"] = (rls_model, None)
    out["sparse"] = (sparse_model, None)
    out["sample_every"] = (
        lambda: neuron_ens_model("sample_every", nengo.LIF(), sample_every=0.005),
        None,
    )
    return out


# --------------------------------------------------------------------------------------
# Export.


def find(objs, label):
    hits = [o for o in objs if o.label == label]
    if len(hits) != 1:
        raise SystemExit(f"expected one object labelled {label!r}, found {len(hits)}")
    return hits[0]


def f64(x, what):
    arr = np.asarray(x)
    if arr.dtype == object:
        raise SystemExit(f"{what}: not numeric ({type(x).__name__})")
    return np.array(arr, dtype=np.float64, order="C")  # keeps 0-d arrays 0-d


def check_labels(net):
    seen = set()
    for kind, objs in (
        ("ensemble", net.all_ensembles),
        ("node", net.all_nodes),
        ("connection", net.all_connections),
        ("probe", net.all_probes),
    ):
        for o in objs:
            if not o.label:
                raise SystemExit(f"{net.label}: unlabelled {kind} {o}")
            key = (kind, o.label)
            if key in seen:
                raise SystemExit(f"{net.label}: duplicate {kind} label {o.label!r}")
            seen.add(key)


def export_model(name, builder, extra):
    net, steps = builder()
    check_labels(net)
    seed = net.seed
    with nengo.Simulator(net, dt=DT, seed=seed, progress_bar=False) as sim:
        arrays = {
            "meta/dt": f64(DT, "meta/dt"),
            "meta/steps": f64(steps, "meta/steps"),
            "meta/seed": f64(seed, "meta/seed"),
        }
        for ens in net.all_ensembles:
            b = sim.data[ens]
            p = f"ens/{ens.label}/"
            for field in (
                "gain",
                "bias",
                "encoders",
                "scaled_encoders",
                "eval_points",
                "max_rates",
                "intercepts",
            ):
                arrays[p + field] = f64(getattr(b, field), p + field)
            # Initial neuron state (e.g. LIF voltages drawn from Uniform(0, 1) with
            # the seed model.seeds[ens] + 1): needed to reproduce spiking probes.
            for key in ens.neuron_type.state:
                init = sim.model.sig[ens.neurons][key].initial_value
                arrays[p + "state/" + key] = f64(init, p + "state/" + key)
        for conn in net.all_connections:
            b = sim.data[conn]
            p = f"conn/{conn.label}/"
            if isinstance(b.weights, nengo.transforms.SparseMatrix):
                # Sparse transform: the fields of the SparseMatrix, as given
                # (unsorted); the dense array would be size_out x size_in.
                arrays[p + "sparse_indices"] = f64(b.weights.indices, p + "sparse_indices")
                arrays[p + "sparse_data"] = f64(b.weights.data, p + "sparse_data")
                arrays[p + "sparse_shape"] = f64(b.weights.shape, p + "sparse_shape")
            elif b.weights is not None:  # None: transform=None (NoTransform), identity
                arrays[p + "weights"] = f64(b.weights, p + "weights")
            if b.eval_points is not None:
                ep = f64(b.eval_points, p + "eval_points")
                arrays[p + "eval_points"] = ep
                # Decoded connection: the solver's targets are the function applied
                # to the eval points (nengo.builder.connection.get_targets).
                targets = nengo.builder.connection.get_targets(conn, ep, np.float64)
                arrays[p + "solver_targets"] = f64(targets, p + "solver_targets")
        sim.run_steps(steps)
        for probe in net.all_probes:
            key = f"probe/{probe.label}"
            arrays[key] = f64(sim.data[probe], key)
        if extra is not None:
            extra(net, sim, arrays)
    return arrays


def write_npz(path, arrays):
    """np.savez_compressed layout with fixed timestamps and sorted keys, so that the
    same arrays give the same bytes (for a given zlib)."""
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for key in sorted(arrays):
            info = zipfile.ZipInfo(key + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with zf.open(info, "w", force_zip64=False) as f:
                np.lib.format.write_array(f, arrays[key], allow_pickle=False)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=HERE, help="output directory (default: beside this script)")
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    if nengo.__version__ != NENGO_VERSION:
        raise SystemExit(f"need nengo=={NENGO_VERSION}, have {nengo.__version__}")
    nengo.rc.set("decoder_cache", "enabled", "False")
    # Without SciPy the optimizer skips a step and says so; the fixtures are made
    # (and checked) without SciPy, as the pinned requirements imply.
    warnings.filterwarnings("ignore", message="Skipping some optimization steps")
    # Likewise Sparse transforms run as dense matrices without SciPy (same values).
    warnings.filterwarnings("ignore", message="Sparse operations require Scipy")

    table = models()
    names = [n for n in args.only.split(",") if n] or list(table)
    for n in names:
        if n not in table:
            raise SystemExit(f"unknown model {n!r}; have {', '.join(table)}")
    os.makedirs(args.out, exist_ok=True)
    t_all = time.perf_counter()
    for n in names:
        t0 = time.perf_counter()
        builder, extra = table[n]
        arrays = export_model(n, builder, extra)
        path = os.path.join(args.out, n + ".npz")
        write_npz(path, arrays)
        if not args.quiet:
            print(
                f"{n}.npz: {len(arrays)} arrays, {os.path.getsize(path)} bytes, "
                f"{time.perf_counter() - t0:.2f} s",
                flush=True,
            )
    if not args.quiet:
        print(f"total {time.perf_counter() - t_all:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
