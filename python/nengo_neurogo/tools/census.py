"""Operator census of a pytest run over Nengo's test suite.

A pytest plugin: it wraps ``nengo.builder.Model.add_op`` and
``Model.__init__`` and, for every test, records each operator the builder
adds (before Nengo's optimiser merges any), classified by what neurogo's
operator vocabulary (package sim/ir) can express, and how the operator's
signals sit in their bases (whole base, contiguous slice, strided view,
index lists). One JSON line per test goes to the file named by the
environment variable NENGO_CENSUS_OUT (default ``census.jsonl``).

Usage::

    PYTHONPATH=python pytest --pyargs nengo -p nengo_neurogo.tools.census

then ``python -m nengo_neurogo.tools.summarize census.jsonl``.
"""

import json
import os
import time
from collections import Counter

import pytest

import nengo
from nengo.builder import Model

# Neuron types with an equivalent in toolkit/neurons.
NEURONS = {
    "LIF",
    "LIFRate",
    "RectifiedLinear",
    "SpikingRectifiedLinear",
    "AdaptiveLIF",
    "AdaptiveLIFRate",
    "Izhikevich",
    "Sigmoid",
    "Tanh",
}
# Spiking wrappers around a rate type.
WRAPPERS = {"RegularSpiking", "PoissonSpiking", "StochasticSpiking"}
# Synapses with an equivalent in toolkit/synapses, processes in toolkit.
SYNAPSES = {"Lowpass", "Alpha", "LinearFilter", "Triangle"}
PROCESSES = {"WhiteNoise", "WhiteSignal", "PresentInput", "Piecewise"}
# Operators with an sim/ir type (SimProbe is a no-op marker).
PLAIN_OPS = {
    "TimeUpdate",
    "Reset",
    "Copy",
    "ElementwiseInc",
    "DotInc",
    "SparseDotInc",
    "SimPES",
    "SimBCM",
    "SimOja",
    "SimVoja",
    "SimRLS",
    "SimProbe",
}


def _nengo_class(obj):
    """The class name if the class is Nengo's own, else 'module.name'."""
    cls = type(obj)
    if cls.__module__.startswith("nengo.") and not cls.__module__.startswith(
        "nengo.tests"
    ):
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


def _neuron_key(neurons):
    name = _nengo_class(neurons)
    if name in WRAPPERS:
        return f"{name}({_nengo_class(neurons.base_type)})"
    return name


def _neuron_supported(neurons):
    name = _nengo_class(neurons)
    if name in WRAPPERS:
        return _nengo_class(neurons.base_type) in NEURONS
    return name in NEURONS


def _process_supported(process):
    name = _nengo_class(process)
    return name in SYNAPSES or name in PROCESSES


def signal_layout(sig):
    """How a signal sits in its base: 'whole', 'reshape' (whole base, other
    shape), 'slice' (contiguous, offset or shorter), 'strided', 'sparse'."""
    if getattr(sig, "sparse", False):
        return "sparse"
    if not sig.is_view:
        return "whole"
    base = sig.base
    try:
        contiguous = sig.initial_value.flags.c_contiguous or sig.size <= 1
    except AttributeError:
        return "sparse"
    if contiguous and sig.elemoffset == 0 and sig.size == base.size:
        return "reshape"
    if contiguous:
        return "slice"
    return "strided"


def _index_kind(index):
    if index is None:
        return "none"
    if isinstance(index, slice):
        return "slice"
    return "list"


def op_record(op):
    """Returns (key, supported, native, reasons) for one operator: key names
    the operator with its relevant mode; supported means sim/ir can express
    it; native means no Python callback is needed."""
    cls = _nengo_class(op)
    reasons = []
    if cls == "SimNeurons":
        key = f"SimNeurons[{_neuron_key(op.neurons)}]"
        ok = _neuron_supported(op.neurons)
        if not ok:
            reasons.append(f"neuron {_neuron_key(op.neurons)}")
        return key, ok, ok, reasons
    if cls == "SimProcess":
        pname = _nengo_class(op.process)
        kind = "synapse" if isinstance(op.process, nengo.synapses.Synapse) else "process"
        inp = "x" if op.input is not None else "nox"
        key = f"SimProcess[{kind}:{pname}:{op.mode}:{inp}]"
        ok = _process_supported(op.process)
        if not ok:
            reasons.append(f"process {pname}")
        return key, ok, ok, reasons
    if cls == "SimPyFunc":
        key = "SimPyFunc[t={},x={},out={}]".format(
            int(op.t_passed), int(op.x_passed), int(op.output is not None)
        )
        return key, True, False, reasons
    if cls == "Copy":
        key = "Copy[{},src={},dst={}]".format(
            "inc" if op.inc else "set",
            _index_kind(op.src_slice),
            _index_kind(op.dst_slice),
        )
        return key, True, True, reasons
    if cls == "ElementwiseInc":
        a, y = op.A, op.Y
        if a.size == 1:
            bc = "scalarA"
        elif a.shape == y.shape and op.X.shape == y.shape:
            bc = "same"
        else:
            bc = "broadcast"
        return f"ElementwiseInc[{bc}]", True, True, reasons
    if cls in ("DotInc", "SparseDotInc"):
        key = "{}[A{}d,X{}d{}]".format(
            cls,
            op.A.ndim,
            op.X.ndim,
            ",reshape" if getattr(op, "reshape", None) else "",
        )
        return key, True, True, reasons
    if cls in PLAIN_OPS:
        return cls, True, True, reasons
    reasons.append(f"operator {cls}")
    return cls, False, False, reasons


class _State:
    def __init__(self):
        self.reset()

    def reset(self):
        self.ops = Counter()
        self.layouts = Counter()  # (op class, role, layout)
        self.op_views = Counter()  # (op class, worst layout over its signals)
        self.reasons = Counter()
        self.models = []
        self.op_list = []
        self.optimizing = False
        self.n_ops = 0
        self.supported = True
        self.native = True


STATE = _State()
_orig_add_op = Model.add_op
_orig_init = Model.__init__
_orig_optimize = nengo.simulator.opmerge_optimize

_RANK = {"whole": 0, "reshape": 1, "sparse": 1, "slice": 2, "list": 3, "strided": 4}


def _add_op(self, op):
    _orig_add_op(self, op)
    if STATE.optimizing:
        return  # Nengo's optimiser adds the merged list again
    try:
        _census_op(op)
    except Exception as e:  # the census must never change a test's outcome
        STATE.reasons[f"census error {type(e).__name__}"] += 1


def _census_op(op):
    key, ok, native, reasons = op_record(op)
    cls = _nengo_class(op)
    STATE.n_ops += 1
    STATE.ops[key] += 1
    STATE.supported &= ok
    STATE.native &= native
    for r in reasons:
        STATE.reasons[r] += 1
    worst = "whole"
    roles = (
        ("write", list(op.sets) + list(op.incs) + list(op.updates)),
        ("read", list(op.reads)),
    )
    for role, sigs in roles:
        for sig in sigs:
            lay = signal_layout(sig)
            STATE.layouts[f"{cls}|{role}|{lay}"] += 1
            if _RANK[lay] > _RANK[worst]:
                worst = lay
    if cls == "Copy" and (
        _index_kind(op.src_slice) == "list" or _index_kind(op.dst_slice) == "list"
    ):
        if _RANK["list"] > _RANK[worst]:
            worst = "list"
    STATE.op_views[f"{cls}|{worst}"] += 1
    # Nengo's optimiser later rewrites the operators' signals onto merged
    # bases, so the bases are taken now.
    STATE.op_list.append(
        tuple([sig.base for sig in lst] for lst in (op.sets, op.incs, op.reads, op.updates))
    )


def base_level_check(ops):
    """Orders ops, given as their (sets, incs, reads, updates) lists of base
    signals, as neurogo does once every view is replaced by its base
    (per base: setters, incrementers, readers, updater) and returns
    (cycle, bases set by more than one operator, bases updated by more
    than one, operators that read a base they also write)."""
    sets, incs, reads, upds = {}, {}, {}, {}
    self_rw = 0
    for i, (o_sets, o_incs, o_reads, o_upds) in enumerate(ops):
        w = set()
        for lst, d in ((o_sets, sets), (o_incs, incs), (o_upds, upds)):
            for base in lst:
                d.setdefault(id(base), set()).add(i)
                w.add(id(base))
        r = {id(base) for base in o_reads}
        for b in r:
            reads.setdefault(b, set()).add(i)
        if r & w:
            self_rw += 1
    edges = {i: set() for i in range(len(ops))}
    for b in set(sets) | set(incs) | set(reads) | set(upds):
        layers = [sets.get(b, set()), incs.get(b, set()), reads.get(b, set()), upds.get(b, set())]
        for k in range(3):
            for m in range(k + 1, 4):
                for i in layers[k]:
                    for j in layers[m]:
                        if i != j:
                            edges[i].add(j)
    indeg = {i: 0 for i in edges}
    for i in edges:
        for j in edges[i]:
            indeg[j] += 1
    todo = [i for i, d in indeg.items() if d == 0]
    seen = 0
    while todo:
        i = todo.pop()
        seen += 1
        for j in edges[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                todo.append(j)
    multi_set = sum(1 for v in sets.values() if len(v) > 1)
    multi_upd = sum(1 for v in upds.values() if len(v) > 1)
    return seen < len(ops), multi_set, multi_upd, self_rw


def _optimize(model, dg, *args, **kwargs):
    STATE.optimizing = True
    try:
        return _orig_optimize(model, dg, *args, **kwargs)
    finally:
        STATE.optimizing = False


def _init(self, *args, **kwargs):
    _orig_init(self, *args, **kwargs)
    STATE.models.append(self)


def _probe_keys(models):
    out = Counter()
    for m in models:
        for p in m.probes:
            target = type(p.obj).__name__
            syn = "none" if p.synapse is None else type(p.synapse).__name__
            out[f"Probe[{target}.{p.attr},synapse={syn}]"] += 1
            sig = m.sig.get(p, {}).get("in")
            if sig is not None:
                out[f"ProbeSignal[{signal_layout(sig)}]"] += 1
    return out


def pytest_configure(config):
    Model.add_op = _add_op
    Model.__init__ = _init
    nengo.simulator.opmerge_optimize = _optimize
    path = os.environ.get("NENGO_CENSUS_OUT", "census.jsonl")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        path = f"{path}.{worker}"
    config._census_file = open(path, "w", encoding="utf-8")
    config._census_outcome = {}


def pytest_unconfigure(config):
    Model.add_op = _orig_add_op
    Model.__init__ = _orig_init
    nengo.simulator.opmerge_optimize = _orig_optimize
    f = getattr(config, "_census_file", None)
    if f is not None:
        f.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    STATE.reset()
    outcome = {"outcome": "passed"}
    _CURRENT_OUTCOME["ref"] = outcome
    t0 = time.perf_counter()
    yield
    seconds = time.perf_counter() - t0
    try:
        probes = _probe_keys(STATE.models)
    except Exception as e:
        probes = Counter({f"census error {type(e).__name__}": 1})
    try:
        cycle, multi_set, multi_upd, self_rw = base_level_check(STATE.op_list)
        base_level = {
            "cycle": cycle,
            "multi_set": multi_set,
            "multi_update": multi_upd,
            "self_rw": self_rw,
        }
    except Exception as e:
        base_level = {"error": type(e).__name__}
    STATE.op_list = []
    if STATE.n_ops == 0:
        category = "no_build"
    elif not STATE.supported:
        category = "unsupported"
    elif not STATE.native:
        category = "callback"
    else:
        category = "native"
    rec = {
        "nodeid": item.nodeid,
        "sim_fixture": "Simulator" in getattr(item, "fixturenames", ()),
        "outcome": outcome["outcome"],
        "seconds": round(seconds, 4),
        "models": len(STATE.models),
        "n_ops": STATE.n_ops,
        "n_ops_merged": sum(len(m.operators) for m in STATE.models),
        "category": category,
        "ops": dict(STATE.ops),
        "layouts": dict(STATE.layouts),
        "op_views": dict(STATE.op_views),
        "reasons": dict(STATE.reasons),
        "probes": dict(probes),
        "base_level": base_level,
    }
    f = item.config._census_file
    f.write(json.dumps(rec) + "\n")
    f.flush()
    STATE.models = []


def pytest_runtest_logreport(report):
    # The worst outcome over setup, call and teardown.
    out = _CURRENT_OUTCOME.get("ref")
    if out is None:
        return
    if hasattr(report, "wasxfail"):
        out["outcome"] = "xfailed" if report.skipped else "xpassed"
    elif report.failed:
        out["outcome"] = "failed" if report.when == "call" else "error"
    elif report.skipped and out["outcome"] == "passed":
        out["outcome"] = "skipped"


_CURRENT_OUTCOME = {}
