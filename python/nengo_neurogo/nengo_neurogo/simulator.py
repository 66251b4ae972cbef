"""nengo_neurogo.Simulator: Nengo's builder, neurogo's Go executor."""

import ctypes
import json
import os
import time
import warnings

import numpy as np

import nengo.transforms
import nengo.utils.numpy as npext
from nengo.builder import Model
from nengo.builder.operator import Operator
from nengo.builder.signal import SignalDict
from nengo.cache import get_default_decoder_cache
from nengo.exceptions import (
    BuildError,
    ReadonlyError,
    SimulationError,
    SimulatorClosed,
    ValidationError,
)
from nengo.simulator import SimulationData
from nengo.utils.graphs import toposort
from nengo.utils.progress import Progress, ProgressTracker
from nengo.utils.simulator import operator_dependency_graph

from . import _lib
from .exchange import Exchange

__all__ = ["Simulator"]

# wall time of one call into Go during run_steps (progress and Ctrl-C
# are handled between calls; a call costs about a microsecond)
CHUNK_SECONDS = 0.1


class _Data(SimulationData):
    """sim.data: probe samples read from the Go side, built objects from Nengo."""

    def __init__(self, sim):
        super().__init__(sim.model.params)
        self._sim = sim

    def __getitem__(self, key):
        sim = self._sim
        if key in sim._probe_index:
            return sim._probe_data(key)
        return super().__getitem__(key)

    def __iter__(self):
        return iter(set(self.raw) | set(self._sim._probe_index))

    def __len__(self):
        return len(set(self.raw) | set(self._sim._probe_index))

    def __contains__(self, key):
        return key in self._sim._probe_index or key in self.raw


class Simulator:
    """A Nengo simulator that runs the built model on neurogo's Go executor.

    It takes the same arguments as `nengo.Simulator` and offers the same
    interface: ``run``, ``run_steps``, ``step``, ``reset``, ``trange``,
    ``clear_probes``, ``close``, ``data``, ``signals``, ``n_steps``,
    ``time`` and ``dt``, and use as a context manager.

    Nengo's builder builds the model, so random streams, defaults,
    solvers and build rules are Nengo's own. Operators with a Go
    equivalent run in Go; the others run their Nengo step function in
    Python, in their place in the step, on the same memory
    (``unsupported`` lists them with the reason). Nengo's operator merging
    is not used: neurogo's optimiser merges in Go (``optimize=False``
    switches it off).

    Parameters
    ----------
    network : nengo.Network or None
        The network to build and simulate; None if ``model`` is built.
    dt : float, optional
        The time step in seconds.
    seed : int, optional
        Seed of the stochastic operators (``network.seed + 1`` if not given).
    model : nengo.builder.Model, optional
        A model to build into (or an already built one, with
        ``network=None``).
    progress_bar : bool or nengo.utils.progress.ProgressBar, optional
        Progress of the build and of runs.
    optimize : bool, optional
        Whether neurogo's optimiser merges and reorders operators.
    """

    def __init__(
        self, network, dt=0.001, seed=None, model=None, progress_bar=True, optimize=True
    ):
        self.closed = True  # until construction succeeds
        self._handle = 0
        self._lib = _lib.load()
        self.progress_bar = progress_bar
        self.optimize = optimize
        if model is None:
            self.model = Model(
                dt=float(dt),
                label=f"{network}, dt={dt:f}",
                decoder_cache=get_default_decoder_cache(),
            )
        else:
            self.model = model
        pt = ProgressTracker(progress_bar, Progress("Building", "Build"))
        with pt:
            if network is not None:
                self.model.build(network, progress=pt.next_stage("Building", "Build"))
            self.dg = operator_dependency_graph(self.model.operators)
            self._step_order = [op for op in toposort(self.dg) if hasattr(op, "make_step")]
            with pt.next_stage("Building (neurogo)", "Translation"):
                self._build_go()
        self._sim_data = self.model.params
        self.data = _Data(self)
        if seed is None:
            if network is not None and network.seed is not None:
                seed = network.seed + 1
            else:
                seed = np.random.randint(npext.maxint)
        self.closed = False
        self.reset(seed=seed)

    # ------------------------------------------------------------ build

    def _build_go(self):
        if not self.model.dt > 0:
            raise BuildError(f"neurogo needs a positive time step (dt = {self.model.dt})")
        ex = Exchange(self.model, self.model.dt, self._step_order)
        self._exchange = ex
        # ask the Go side which of the translated operators it cannot run
        spec = ex.spec(self.optimize)
        out = ctypes.c_void_p()
        js = json.dumps(spec).encode()
        if self._lib.ng_check(js, len(js), ctypes.byref(out)) != 0:
            raise BuildError(f"neurogo rejected the model: {_lib.take_string(self._lib, out.value)}")
        for u in json.loads(_lib.take_string(self._lib, out.value)):
            ex.fallback.setdefault(ex.flat_owner[u["op"]], u["reason"])
        self._py_ops = []  # handle -> operator
        for k in sorted(ex.fallback):
            op = ex.operators[k]
            if getattr(type(op), "make_step", Operator.make_step) is Operator.make_step:
                raise BuildError(
                    f"{op}: neither neurogo nor Nengo can run it: neurogo has no Go equivalent "
                    f"({ex.fallback[k]}) and the operator has no step function (make_step)"
                )
            ex.make_callback(k, len(self._py_ops))
            self._py_ops.append(op)
        self.unsupported = {ex.operators[k]: r for k, r in ex.fallback.items()}
        stats = os.environ.get("NENGO_NEUROGO_STATS")
        if stats:  # one JSON line per build: where its operators run
            go = {}
            for k, op in enumerate(ex.operators):
                if k not in ex.fallback:
                    go[type(op).__name__] = go.get(type(op).__name__, 0) + 1
            py = {}
            for k, r in ex.fallback.items():
                key = f"{type(ex.operators[k]).__name__}: {r}"
                py[key] = py.get(key, 0) + 1
            line = {"test": os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0], "go": go, "python": py}
            with open(stats, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
        js = json.dumps(ex.spec(self.optimize)).encode()
        init = self._init = ex.initial_values()
        self._callback = _lib.CALLBACK(self._run_py_op)
        self._py_steps = [None] * len(self._py_ops)
        self._py_error = None
        err = ctypes.c_void_p()
        h = self._lib.ng_new(
            js, len(js), init.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), init.size,
            self._callback, ctypes.byref(err),
        )
        if h == 0:
            raise BuildError(f"neurogo could not build the model: {_lib.take_string(self._lib, err.value)}")
        self._handle = h
        self._signal_views(ex)
        self._probe_index = {p: i for i, p in enumerate(self.model.probes)}
        self._probe_cache = {}

    def _signal_views(self, ex):
        """sim.signals: numpy views of the Go store."""
        self.signals = SignalDict()
        self._store = []
        for b in ex.bases:
            ptr = ctypes.POINTER(ctypes.c_double)()
            n = ctypes.c_longlong()
            if self._lib.ng_signal(self._handle, b.index, ctypes.byref(ptr), ctypes.byref(n)) != 0:
                raise BuildError(f"neurogo has no signal {b.index} ({b.sig.name})")
            if n.value != b.size:
                raise BuildError(f"signal {b.sig.name}: {n.value} values in Go, {b.size} in Nengo")
            flat = (
                np.ctypeslib.as_array(ptr, shape=(n.value,)) if n.value else np.zeros(0)
            )
            self._store.append(flat)
            if b.sparse:
                sp = nengo.transforms.scipy_sparse
                if sp is not None:  # a scipy matrix on the Go values
                    arr = sp.csr_matrix((flat, b.indices, b.indptr), shape=b.shape, copy=False)
                elif isinstance(b.sig.initial_value, nengo.transforms.SparseMatrix):
                    arr = b.sig.initial_value.allocate()  # dense, with Nengo's warning
                else:
                    arr = b.sig.initial_value
            else:
                arr = flat.reshape(b.shape, order=b.order or "C")
                if b.sig.readonly:
                    arr.setflags(write=False)
            dict.__setitem__(self.signals, b.sig, arr)
        self._tables = {}  # WhiteSignal operator -> its table in the Go store
        for op, (idx, n, shape) in ex.tables.items():
            ptr = ctypes.POINTER(ctypes.c_double)()
            size = ctypes.c_longlong()
            if self._lib.ng_signal(self._handle, idx, ctypes.byref(ptr), ctypes.byref(size)) != 0:
                raise BuildError(f"neurogo has no table signal for {op}")
            self._tables[op] = np.ctypeslib.as_array(ptr, shape=(size.value,)).reshape((n, -1))

    # ----------------------------------------------------- interface

    def __del__(self):
        if not getattr(self, "closed", True):
            warnings.warn(
                f"Simulator with model={self.model} was deallocated while open. Please "
                "close simulators manually to ensure resources are properly freed.",
                ResourceWarning,
            )
        self._free()

    def __getstate__(self):
        raise TypeError(
            "nengo_neurogo.Simulator cannot be pickled: neurogo keeps the state of "
            "synapses and Go processes inside its executor, not in Nengo's signals, "
            "so a restored simulator could not continue where this one stopped"
        )

    def __enter__(self):
        if self.closed:
            raise SimulatorClosed("Cannot re-open after simulator is closed")
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    @property
    def dt(self):
        """(float) The time step of the simulator."""
        return self.model.dt

    @dt.setter
    def dt(self, dummy):
        raise ReadonlyError(attr="dt", obj=self)

    @property
    def n_steps(self):
        """(int) The current time step of the simulator."""
        if self._handle:  # live: a Ctrl-C may have ended a run mid-way
            self._probe_step_time()
        return self._n_steps

    @property
    def time(self):
        """(float) The current time of the simulator."""
        if self._handle:
            self._probe_step_time()
        return self._time

    @property
    def step_order(self):
        """(list) The operators in Nengo's order (neurogo may merge them)."""
        return self._step_order

    def plan(self):
        """What neurogo's optimiser made of the model (text)."""
        self._check_open("read the plan of")
        return _lib.take_string(self._lib, self._lib.ng_plan(self._handle))

    def _check_open(self, what):
        if self.closed:
            raise SimulatorClosed(f"Cannot {what} closed Simulator.")

    def _probe_step_time(self):
        self._n_steps = int(self.signals[self.model.step].item())
        self._time = float(self.signals[self.model.time].item())

    def clear_probes(self):
        """Clear all probe histories."""
        if self._handle:
            self._lib.ng_clear_probes(self._handle)
        self._probe_cache = {}
        self.data.reset()

    def close(self):
        """Close the simulator and free the Go side's memory.

        Probe data stays readable through ``data``; running, stepping and
        resetting raise `nengo.exceptions.SimulatorClosed`.
        """
        if self._handle:
            for p in self.model.probes:  # keep the data readable
                self._probe_data(p)
        self.closed = True
        self.signals = None
        self._free()

    def _free(self):
        h = getattr(self, "_handle", 0)
        if h:
            self._handle = 0
            self._py_steps = []
            self._store = []
            self._lib.ng_close(h)

    def reset(self, seed=None):
        """Reset the simulator state.

        Parameters
        ----------
        seed : int, optional
            A new seed for the stochastic operators; the built objects
            (encoders, decoders, …) stay as they are.
        """
        self._check_open("reset")
        if seed is not None:
            self.seed = seed
        err = ctypes.c_void_p()
        if self._lib.ng_reset(self._handle, ctypes.byref(err)) != 0:
            raise SimulationError(_lib.take_string(self._lib, err.value))
        # Nengo's order of make_step calls, so that Python operators draw
        # the same seeds from the simulator's generator as in Nengo
        self.rng = np.random.RandomState(self.seed)
        handles = {id(op): h for h, op in enumerate(self._py_ops)}
        for op in self._step_order:
            h = handles.get(id(op))
            if h is not None:
                self._py_steps[h] = op.make_step(self.signals, self.dt, self.rng)
            elif op in self._tables:
                self._fill_table(op)
            elif hasattr(op, "process"):
                op.process.get_rng(self.rng)  # a process in Go draws its seed too
        self._probe_cache = {}
        self.data.reset()
        self._probe_step_time()

    def _fill_table(self, op):
        """Fill a WhiteSignal's table with Nengo's own signal for this seed."""
        table = self._tables[op]
        shape_out = op.output.shape
        f = op.process.make_step((0,), shape_out, self.dt, op.process.get_rng(self.rng), {})
        for k in range(table.shape[0]):
            table[k] = np.ravel(f(k * self.dt))

    def _run_py_op(self, handle, step, t):
        try:
            self._py_steps[handle]()
            return 0
        except BaseException as e:  # pylint: disable=broad-except
            self._py_error = e
            return 1

    def run(self, time_in_seconds, progress_bar=None):
        """Simulate for the given length of time (rounded to whole steps)."""
        if time_in_seconds < 0:
            raise ValidationError(
                f"Must be positive (got {time_in_seconds:g})", attr="time_in_seconds"
            )
        steps = int(np.round(float(time_in_seconds) / self.dt))
        if steps == 0:
            warnings.warn(
                f"{time_in_seconds} results in running for 0 timesteps. Simulator "
                f"still at time {self.time}."
            )
        else:
            self.run_steps(steps, progress_bar=progress_bar)

    def run_steps(self, steps, progress_bar=None):
        """Simulate for the given number of steps.

        The steps run in Go in chunks of about a tenth of a second, so that
        the progress bar moves and Ctrl-C (KeyboardInterrupt) stops the run
        after the chunk it arrives in, with the simulator and its probe
        data at that step.
        """
        if progress_bar is None:
            progress_bar = self.progress_bar
        steps = int(steps)
        with ProgressTracker(progress_bar, Progress("Simulating", "Simulation", steps)) as pt:
            done, chunk = 0, 1
            while done < steps:
                n = min(chunk, steps - done)
                t0 = time.perf_counter()
                self._run(n)
                elapsed = time.perf_counter() - t0
                done += n
                pt.total_progress.step(n)
                # the next chunk: about CHUNK_SECONDS of work
                rate = n / max(elapsed, 1e-6)
                chunk = int(min(max(1, rate * CHUNK_SECONDS), max(1, 4 * n)))

    def step(self):
        """Advance the simulator by one step (``dt`` seconds)."""
        self._run(1)

    def _run(self, steps):
        if self.closed:
            raise SimulatorClosed("Simulator cannot run because it is closed.")
        if steps <= 0:
            return
        self._py_error = None
        self._probe_cache = {}  # before the call: a Ctrl-C may cut what follows it
        err = ctypes.c_void_p()
        old = np.seterr(invalid="raise", divide="ignore")
        try:
            rc = self._lib.ng_run(self._handle, steps, ctypes.byref(err))
        finally:
            np.seterr(**old)
        self._probe_cache = {}
        self._probe_step_time()
        if rc != 0:
            msg = _lib.take_string(self._lib, err.value)
            if self._py_error is not None:
                e, self._py_error = self._py_error, None
                raise e
            raise SimulationError(msg)

    def _probe_data(self, probe):
        if probe in self._probe_cache:
            return self._probe_cache[probe]
        if not self._handle:
            return self._probe_cache.get(probe, np.zeros(0))
        i = self._probe_index[probe]
        n = self._lib.ng_probe_len(self._handle, i)
        flat = np.empty(max(n, 0))
        if n > 0:
            got = self._lib.ng_probe(
                self._handle, i, 0, flat.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), n
            )
            if got != n:
                raise SimulationError(f"probe {probe}: read {got} of {n} values")
        shape = self.model.sig[probe]["in"].shape
        size = int(np.prod(shape)) if shape else 1
        if n == 0:
            data = np.zeros(0)
        else:
            data = flat.reshape((n // size,) + tuple(shape))
        data.setflags(write=False)
        self._probe_cache[probe] = data
        return data

    def trange(self, dt=None, sample_every=None):
        """The times of the probed samples (from ``dt``, not 0)."""
        if dt is not None:
            if sample_every is not None:
                raise ValidationError(
                    "Cannot specify both `dt` and `sample_every`. Use `sample_every` only.",
                    attr="dt",
                    obj=self,
                )
            warnings.warn("`dt` is deprecated. Use `sample_every` instead.", DeprecationWarning)
            sample_every = dt
        period = 1 if sample_every is None else sample_every / self.dt
        steps = np.arange(1, self.n_steps + 1)
        return self.dt * steps[steps % period < 1]

