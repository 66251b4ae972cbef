"""Translation of a model built by Nengo into neurogo's model description.

Nengo's builder leaves a list of operators over signals, most of them
whole base arrays, some of them views (slices, reshapes) of a base. The
description handed to the Go side (package internal/nengobridge) has one
entry per base signal, stored in the base's own memory order, and one
entry per operator: the neurogo operator it becomes, with its operands as
base indices (Copy and ElementwiseInc also take index lists, so they
read and write views), or ``Callback`` for an operator the Go side cannot
run, which Python then runs with Nengo's own step function on the same
memory.
"""

import numpy as np

import nengo
from nengo.builder.learning_rules import SimBCM, SimOja, SimPES, SimRLS, SimVoja
from nengo.builder.neurons import SimNeurons
from nengo.builder.operator import (
    Copy,
    DotInc,
    ElementwiseInc,
    Reset,
    SparseDotInc,
    TimeUpdate,
)
from nengo.builder.probe import SimProbe
from nengo.builder.processes import SimProcess

__all__ = ["Exchange"]


class _Fallback(Exception):
    """An operator the Go side cannot run as described; Python runs it."""


def _is_sparse(value):
    return hasattr(value, "tocsr") or isinstance(value, nengo.transforms.SparseMatrix)


def _csr(value):
    """(data, indices, indptr, shape) of a sparse initial value, in CSR order."""
    if isinstance(value, nengo.transforms.SparseMatrix):
        rows, cols = value.indices[:, 0], value.indices[:, 1]
        order = np.lexsort((cols, rows))
        rows, cols = rows[order], cols[order]
        data = np.asarray(value.data, dtype=np.float64)[order]
        indptr = np.zeros(value.shape[0] + 1, dtype=np.int64)
        np.add.at(indptr, rows + 1, 1)
        return data, cols.astype(np.int64), np.cumsum(indptr), value.shape
    m = value.tocsr()
    m.sort_indices()
    return (
        np.asarray(m.data, dtype=np.float64),
        m.indices.astype(np.int64),
        m.indptr.astype(np.int64),
        m.shape,
    )


class _Base:
    """One base signal: its index, size, memory layout and initial value."""

    def __init__(self, index, sig):
        self.index = index
        self.sig = sig
        value = sig.initial_value
        self.sparse = _is_sparse(value)
        if self.sparse:
            self.data, self.indices, self.indptr, self.shape = _csr(value)
            self.order = "C"
            self.size = self.data.size
            return
        value = np.asarray(value)
        self.shape = value.shape
        self.size = int(value.size)
        if value.flags.c_contiguous or value.ndim <= 1 and value.flags.contiguous:
            self.order = "C"
        elif value.flags.f_contiguous:
            self.order = "F"
        else:  # strides that are neither C nor Fortran: views cannot follow
            self.order = None
        self.data = np.asarray(
            value.ravel(order="K" if self.order else "C"), dtype=np.float64
        )


class Exchange:
    """The Go-side description of a built Nengo model.

    Parameters
    ----------
    model : nengo.builder.Model
        A model Nengo's builder built (without Nengo's operator merging).
    dt : float
        The time step.

    Attributes
    ----------
    bases : list of _Base
        The base signals, in the description's order.
    ops : list of dict
        One entry per operator of ``model.operators``.
    fallback : dict
        Operator index (in ``operators``) -> reason, for operators Python
        runs.
    operators : list of nengo.builder.Operator
        The operators described, in the builder's order (all but SimProbe).
    """

    def __init__(self, model, dt, step_order):
        self.model = model
        self.dt = dt
        self.bases = []
        self._base_index = {}
        self.extra = []  # signals only the description has (Voja's scale, tables)
        self.tables = {}  # WhiteSignal operator -> (table signal, rows, output shape)
        for op in model.operators:
            for sig in op.all_signals:
                self._base(sig)
        self._base(model.step)
        self._base(model.time)
        for probe in model.probes:
            self._base(model.sig[probe]["in"])
        # SimProbe only marks a probed signal: the probes are in the
        # description's probe list
        self.operators = [op for op in model.operators if type(op) is not SimProbe]
        self.ops = []
        self.fallback = {}
        for k, op in enumerate(self.operators):
            try:
                entries = self._translate(op)
                if isinstance(entries, dict):
                    entries = [entries]
            except _Fallback as e:
                self.fallback[k] = str(e)
                entries = [self._entry(op, "Callback", handle=-1)]
            self.ops.append(entries)
        self.flat_owner = []  # index in the description's list -> operator index
        self.step_order = step_order

    # ---------------------------------------------------------- signals

    def _base(self, sig):
        b = sig.base
        if b not in self._base_index:
            self._base_index[b] = len(self.bases)
            self.bases.append(_Base(len(self.bases), b))
        return self.bases[self._base_index[b]]

    def _extra(self, name, value, readonly=True):
        """A signal only the description has; returns its index."""
        self.extra.append((name, np.asarray(value, dtype=np.float64).ravel(), readonly))
        return len(self.bases) + len(self.extra) - 1

    def base_of(self, sig):
        """The _Base of a signal (a base or a view)."""
        return self.bases[self._base_index[sig.base]]

    def positions(self, sig):
        """The positions in its base's storage of a signal's elements (C order)."""
        b = self.base_of(sig)
        if b.sparse:
            raise _Fallback("a sparse signal as a dense operand")
        if b.order is None:
            raise _Fallback(f"signal {sig.name}: its base is neither C- nor Fortran-ordered")
        if sig.base is sig and b.order == "C":
            return np.arange(b.size)
        shape = sig.shape
        pos = np.full(shape, sig.elemoffset, dtype=np.int64)
        for k, (n, s) in enumerate(zip(shape, sig.elemstrides)):
            sh = [1] * len(shape)
            sh[k] = n
            pos = pos + (np.arange(n, dtype=np.int64) * s).reshape(sh)
        return pos.reshape(shape)

    def whole(self, sig, what):
        """The base index of a signal that covers its base in C order."""
        b = self.base_of(sig)
        if b.sparse:
            raise _Fallback(f"{what} is sparse")
        if sig.size != b.size or b.order is None:
            raise _Fallback(f"{what} is a view of part of a signal")
        if sig.base is not sig or b.order != "C":
            pos = self.positions(sig).ravel()
            if not np.array_equal(pos, np.arange(b.size)):
                raise _Fallback(f"{what} is a strided or reordered view")
        return b.index

    def indexed(self, sig, key=None):
        """(base index, index list or None) of a signal, indexed by key."""
        b = self.base_of(sig)
        pos = self.positions(sig)
        if key is not None and key is not Ellipsis:
            pos = np.asarray(pos[key])
            if pos.dtype.kind not in "iu":
                raise _Fallback("an index that is not a list of integers")
        flat = np.asarray(pos).ravel()
        if flat.size == b.size and np.array_equal(flat, np.arange(b.size)):
            return b.index, None
        return b.index, flat.astype(np.int64).tolist()

    def _scratch(self, sig, what, purpose):
        """(None, base, idx) for a signal that covers its base, else a new
        scratch signal of the view's size with the view's base and index
        list."""
        try:
            return None, self.whole(sig, what), None
        except _Fallback:
            pass
        base, idx = self.indexed(sig)
        return self._extra(f"{sig.name} ({purpose})", np.zeros(sig.size), readonly=False), base, idx

    def read(self, sig, what, pre):
        """The index of a signal an operator reads: its base if it covers
        it, else a scratch signal a Copy gathers the view into first
        (appended to pre)."""
        scratch, base, idx = self._scratch(sig, what, "gathered")
        if scratch is None:
            return base
        pre.append({
            "type": "Copy", "tag": f"gather {sig.name}", "sets": [scratch], "incs": [], "reads": [base],
            "updates": [], "sig": {"X": base, "Y": scratch}, "idx": {"X": idx, "Y": None},
        })
        return scratch

    def increment(self, sig, what, pre, post):
        """The index of a signal an operator increments: its base if it
        covers it, else a scratch signal reset to zero first (pre) and
        added into the view after (post)."""
        scratch, base, idx = self._scratch(sig, what, "increment")
        if scratch is None:
            return base
        pre.append({
            "type": "Reset", "tag": f"zero {sig.name}", "sets": [scratch], "incs": [], "reads": [],
            "updates": [], "sig": {"Y": scratch}, "num": {"value": 0.0},
        })
        post.append({
            "type": "Copy", "tag": f"scatter {sig.name}", "sets": [], "incs": [base], "reads": [scratch],
            "updates": [], "sig": {"X": scratch, "Y": base}, "idx": {"X": None, "Y": idx}, "inc": True,
        })
        return scratch

    def indices(self, sigs):
        return [self.base_of(s).index for s in sigs]

    # -------------------------------------------------------- operators

    def _entry(self, op, kind, **fields):
        e = {
            "type": kind,
            "tag": f"{type(op).__name__}: {op.tag or ''}".strip(),
            "sets": self.indices(op.sets),
            "incs": self.indices(op.incs),
            "reads": self.indices(op.reads),
            "updates": self.indices(op.updates),
        }
        e.update(fields)
        return e

    def _translate(self, op):  # noqa: C901 (one branch per operator type)
        t = type(op)
        if t is TimeUpdate:
            return self._entry(
                op,
                "TimeUpdate",
                sig={"step": self.whole(op.step, "step"), "time": self.whole(op.time, "time")},
            )
        if t is Reset:
            return self._entry(
                op,
                "Reset",
                sig={"Y": self.whole(op.dst, "dst")},
                num={"value": float(np.asarray(op.value).item())},
            )
        if t is Copy:
            return self._copy(op)
        if t is ElementwiseInc:
            return self._elementwise(op)
        if t is DotInc:
            return self._dot(op)
        if t is SparseDotInc:
            return self._sparse_dot(op)
        if t is SimNeurons:
            return self._neurons(op)
        if t is SimProcess:
            return self._process(op)
        if t is SimPES:
            if getattr(op, "encoders", None) is not None:
                raise _Fallback("PES on encoded errors")
            return self._rule(op, "SimPES", pre=op.pre_filtered, error=op.error, delta=op.delta)
        if t is SimBCM:
            return self._rule(
                op, "SimBCM", pre=op.pre_filtered, post=op.post_filtered, theta=op.theta,
                delta=op.delta,
            )
        if t is SimOja:
            return self._rule(
                op, "SimOja", pre=op.pre_filtered, post=op.post_filtered, weights=op.weights,
                delta=op.delta, num={"beta": float(op.beta)},
            )
        if t is SimVoja:
            scale = np.asarray(op.scale, dtype=np.float64).ravel()
            e = self._rule(
                op, "SimVoja", pre=op.pre_decoded, post=op.post_filtered,
                encoders=op.scaled_encoders, delta=op.delta, learning=op.learning_signal,
            )
            idx = self._extra("Voja scale", scale)
            e["sig"]["scale"] = idx
            e["reads"].append(idx)
            return e
        if t is SimRLS:
            return self._entry(
                op, "SimRLS",
                sig={
                    "pre": self.whole(op.pre_filtered, "pre_filtered"),
                    "error": self.whole(op.error, "error"),
                    "delta": self.whole(op.delta, "delta"),
                    "inv_gamma": self.whole(op.inv_gamma, "inv_gamma"),
                },
            )
        if t.__name__ in ("ConvInc", "ConvTransposeInc"):
            return self._conv(op, t.__name__)
        if t.__name__ == "SimPyFunc":
            raise _Fallback(f"a Python function ({getattr(op.fn, '__name__', type(op.fn).__name__)})")
        raise _Fallback(f"operator {t.__name__}")

    def _rule(self, op, kind, num=None, **sigs):
        n = {"learning_rate": float(op.learning_rate)}
        n.update(num or {})
        return self._entry(
            op, kind, sig={k: self.whole(s, k) for k, s in sigs.items()}, num=n
        )

    def _copy(self, op):
        x, xi = self.indexed(op.src, op.src_slice)
        y, yi = self.indexed(op.dst, op.dst_slice)
        nx = self.base_of(op.src).size if xi is None else len(xi)
        ny = self.base_of(op.dst).size if yi is None else len(yi)
        if nx != ny:
            if nx != 1:
                raise _Fallback("a copy that broadcasts")
            xi = [0 if xi is None else xi[0]] * ny
            if yi is None:
                yi = list(range(ny))
        return self._entry(op, "Copy", sig={"X": x, "Y": y}, idx={"X": xi, "Y": yi}, inc=bool(op.inc))

    def _elementwise(self, op):
        A, X, Y = op.A, op.X, op.Y
        shape = np.broadcast_shapes(A.shape, X.shape)
        if shape != Y.shape:
            raise _Fallback(
                f"an element-wise product that broadcasts into its output ({A.shape}·{X.shape} into {Y.shape})"
            )
        if X.size == 1 and A.size == Y.size and A.size != 1:
            A, X = X, A  # a·x = x·a: the full operand is X, the factor A
        if X.shape != Y.shape or not (A.size == 1 or A.shape == Y.shape):
            raise _Fallback(f"an element-wise product that broadcasts ({A.shape}·{X.shape} into {Y.shape})")
        a, ai = self.indexed(A)
        x, xi = self.indexed(X)
        y, yi = self.indexed(Y)
        if A.size == 1 and ai is None and self.base_of(A).size != 1:
            raise _Fallback("a broadcast factor that is not a single value")
        return self._entry(
            op, "ElementwiseInc", sig={"A": a, "X": x, "Y": y}, idx={"A": ai, "X": xi, "Y": yi}
        )

    def _dot(self, op):
        A, X, Y = op.A, op.X, op.Y
        if A.ndim != 2 or X.ndim != 1 or Y.size != A.shape[0] or X.size != A.shape[1]:
            raise _Fallback(f"a product of shapes {A.shape}·{X.shape}")
        pre, post = [], []
        a, x = self.read(A, "A", pre), self.read(X, "X", pre)
        y = self.increment(Y, "Y", pre, post)
        e = self._entry(op, "DotInc", sig={"A": a, "X": x, "Y": y})
        e["incs"], e["reads"] = [y], [a, x]
        return pre + [e] + post

    def _conv(self, op, kind):
        conv = op.conv
        if conv.dimensions not in (1, 2):
            raise _Fallback(f"a convolution of {conv.dimensions} dimensions")
        ins, outs = conv.input_shape, conv.output_shape
        if kind == "ConvTransposeInc":
            # the adjoint of the convolution from its output shape to its input shape
            ins, outs = outs, ins
        c = ins.n_channels
        spatial = tuple(ins.spatial_shape)
        out = tuple(outs.spatial_shape)
        kernel, strides = tuple(conv.kernel_size), tuple(conv.strides)
        same = conv.padding.upper() == "SAME"
        for n, o, k, st in zip(spatial, out, kernel, strides):
            if o != int(np.ceil((n if same else n - k + 1) / st)):
                raise _Fallback("a transposed convolution whose output shape is not the one its input gives")
        if conv.dimensions == 1:
            spatial, out, kernel, strides = (1,) + spatial, (1,) + out, (1,) + kernel, (1,) + strides
        pads = []
        for n, o, k, st in zip(spatial, out, kernel, strides):
            total = max((o - 1) * st + k - n, 0) if conv.padding.upper() == "SAME" else 0
            pads.append(total // 2)  # Nengo's extract_sliding_windows: floor half before
        shape = [
            spatial[0], spatial[1], c, kernel[0], kernel[1], outs.n_channels, strides[0], strides[1],
            out[0], out[1], pads[0], pads[1], getattr(conv, "groups", 1), int(conv.channels_last),
        ]
        return self._entry(
            op, kind,
            sig={"W": self.whole(op.W, "W"), "X": self.whole(op.X, "X"), "Y": self.whole(op.Y, "Y")},
            ints={"conv": [int(v) for v in shape]},
        )

    def _sparse_dot(self, op):
        a = self.base_of(op.A)
        if not a.sparse or op.A.base is not op.A:
            raise _Fallback("a sparse product on a view")
        if op.X.ndim != 1 or op.X.size != a.shape[1] or op.Y.size != a.shape[0]:
            raise _Fallback(f"a sparse product of shapes {a.shape}·{op.X.shape}")
        return self._entry(
            op, "SparseDotInc",
            sig={"A": a.index, "X": self.whole(op.X, "X"), "Y": self.whole(op.Y, "Y")},
            ints={"indptr": a.indptr.tolist(), "indices": a.indices.tolist()},
        )

    def _neurons(self, op):
        spec = _neuron_spec(op.neurons)
        names, sigs = [], []
        for name, sig in op.state.items():
            names.append(name)
            sigs.append(self.whole(sig, f"state {name}"))
        if spec["type"] == "RegularSpiking" and "rate_out" not in names:
            # neurogo's wrapper keeps the base type's last rate; Nengo's
            # has no such state: a signal of the description alone
            names.append("rate_out")
            sigs.append(self._extra("rate_out", np.zeros(op.J.size), readonly=False))
        return self._entry(
            op, "SimNeurons",
            sig={"J": self.whole(op.J, "J"), "output": self.whole(op.output, "output")},
            neuron=spec, state=sigs, state_names=names,
        )

    def _process(self, op):
        p = op.process
        if op.mode not in ("set", "update", "inc"):
            raise _Fallback(f"process mode {op.mode}")
        syn = _synapse_spec(p)
        if syn is not None:
            if op.input is None or op.mode == "inc":
                raise _Fallback("a synapse without input or in mode inc")
            for sig in op.state.values():
                if np.any(np.asarray(sig.initial_value) != 0):
                    raise _Fallback("a synapse with a nonzero initial state")
            if op.input.size != op.output.size:
                raise _Fallback("a synapse whose input and output differ in size")
            pre = []
            y = self.whole(op.output, "output")
            x = self.read(op.input, "input", pre)
            e = self._entry(op, "SimSynapse", sig={"X": x, "Y": y}, synapse=syn)
            e["reads"] = [x if r == self.base_of(op.input).index else r for r in e["reads"]]
            return pre + [e]
        if type(p) is nengo.processes.WhiteSignal and op.input is None and op.mode in ("set", "inc") and not op.state:
            # Nengo draws the signal when the simulator resets and looks it
            # up by step: Python fills the table (Simulator.reset), Go looks up
            n = 2 * int(np.ceil(p.period / self.dt / 2.0))
            d = int(op.output.size)
            table = self._extra(f"{p} table", np.zeros(n * d), readonly=False)
            self.tables[op] = (table, n, op.output.shape)
            e = self._entry(
                op, "SimProcess",
                sig={"Y": self.whole(op.output, "output"), "X": table},
                process={"type": "Table", "rows": n, "dims": d}, inc=op.mode == "inc",
            )
            e["reads"].append(table)
            return e
        proc = _process_spec(p)
        if proc is None or op.mode == "update" or op.state:
            raise _Fallback(f"process {type(p).__name__}")
        sig = {"Y": self.whole(op.output, "output")}
        if op.input is not None:
            sig["X"] = self.whole(op.input, "input")
        return self._entry(op, "SimProcess", sig=sig, process=proc, inc=op.mode == "inc")

    # ------------------------------------------------------- callbacks

    def make_callback(self, k, handle):
        """Turn operator k into a callback with the given handle."""
        op = self.operators[k]
        self.ops[k] = [self._entry(op, "Callback", handle=handle)]

    def initial_values(self):
        """Every signal's initial value, one after the other in the order
        of the description's signals (their "init" offsets)."""
        chunks = [b.data for b in self.bases] + [value for _, value, _ in self.extra]
        init = np.concatenate(chunks) if chunks else np.zeros(0)
        return np.ascontiguousarray(init, dtype=np.float64)

    def spec(self, optimize=True, nan_check=True):
        """The description (a dict for JSON); initial_values holds the
        values its signals' "init" offsets point into."""
        signals, off = [], 0
        for b in self.bases:
            signals.append(
                {"name": b.sig.name, "size": b.size, "readonly": bool(b.sig.readonly), "init": off}
            )
            off += b.size
        for name, value, readonly in self.extra:
            signals.append({"name": name, "size": value.size, "readonly": readonly, "init": off})
            off += value.size
        flat, self.flat_owner = [], []
        for k, entries in enumerate(self.ops):
            flat += entries
            self.flat_owner += [k] * len(entries)
        probes = []
        for probe in self.model.probes:
            sig = self.model.sig[probe]["in"]
            base, idx = self.indexed(sig)
            period = 1.0 if probe.sample_every is None else probe.sample_every / self.dt
            # Nengo records when n_steps % period < 1: with period < 1, every step
            period = max(period, 1.0)
            probes.append(
                {"label": str(probe), "signal": base, "idx": idx, "period": float(period)}
            )
        spec = {
            "dt": float(self.dt),
            "signals": signals,
            "time": self.base_of(self.model.time).index,
            "step": self.base_of(self.model.step).index,
            "ops": flat,
            "probes": probes,
            "no_optimize": not optimize,
            "no_nan_check": not nan_check,
        }
        return spec


_NEURON_PARAMS = {
    nengo.LIF: ("tau_rc", "tau_ref", "min_voltage", "amplitude"),
    nengo.LIFRate: ("tau_rc", "tau_ref", "amplitude"),
    nengo.AdaptiveLIF: ("tau_n", "inc_n", "tau_rc", "tau_ref", "min_voltage", "amplitude"),
    nengo.AdaptiveLIFRate: ("tau_n", "inc_n", "tau_rc", "tau_ref", "amplitude"),
    nengo.RectifiedLinear: ("amplitude",),
    nengo.SpikingRectifiedLinear: ("amplitude",),
    nengo.Sigmoid: ("tau_ref",),
    nengo.Tanh: ("tau_ref",),
    nengo.Izhikevich: ("tau_recovery", "coupling", "reset_voltage", "reset_recovery"),
}


def _neuron_spec(n):
    t = type(n)
    if t is nengo.RegularSpiking:
        # Nengo builds the base type as its own SimNeurons (J -> rate_out);
        # this operator's input is that rate. neurogo's RegularSpiking
        # steps its base type first: a rectified-linear base of amplitude 1
        # passes a non-negative rate through unchanged.
        if n.base_type.negative:
            raise _Fallback("RegularSpiking of a type with negative rates")
        return {
            "type": "RegularSpiking",
            "params": {"amplitude": float(n.amplitude)},
            "base": {"type": "RectifiedLinear", "params": {"amplitude": 1.0}},
        }
    if t not in _NEURON_PARAMS:
        raise _Fallback(f"neuron type {t.__name__}")
    return {
        "type": t.__name__,
        "params": {p: _finite(float(getattr(n, p))) for p in _NEURON_PARAMS[t]},
    }


def _finite(v):
    """v, with ±inf as ±the largest float (JSON has no infinity; as a bound
    such as LIF's min_voltage the two act alike on every finite value)."""
    if v == np.inf:
        return float(np.finfo(np.float64).max)
    if v == -np.inf:
        return float(-np.finfo(np.float64).max)
    return v


def _synapse_spec(p):
    t = type(p)
    if t is nengo.synapses.Lowpass:
        return {"type": "Lowpass", "tau": float(p.tau)}
    if t is nengo.synapses.Alpha:
        return {"type": "Alpha", "tau": float(p.tau)}
    if t is nengo.synapses.Triangle:
        return {"type": "Triangle", "t": float(p.t)}
    if t is nengo.synapses.LinearFilter:
        return {
            "type": "LinearFilter",
            "num": np.asarray(p.num, dtype=float).ravel().tolist(),
            "den": np.asarray(p.den, dtype=float).ravel().tolist(),
            "analog": bool(p.analog),
            "method": str(p.method),
        }
    return None


def _process_spec(p):
    t = type(p)
    if t is nengo.processes.PresentInput:
        inputs = np.asarray(p.inputs, dtype=float)
        inputs = inputs.reshape(inputs.shape[0], -1)
        return {
            "type": "PresentInput",
            "inputs": inputs.tolist(),
            "presentation_time": float(p.presentation_time),
        }
    if t is nengo.processes.Piecewise and p.interpolation == "zero":
        times = sorted(p.data)
        values = [p.data[k] for k in times]
        if any(callable(v) for v in values):
            return None
        return {
            "type": "Piecewise",
            "times": [float(x) for x in times],
            "values": [np.ravel(np.asarray(v, dtype=float)).tolist() for v in values],
        }
    return None
