"""Tests of nengo_neurogo.Simulator beside Nengo's reference simulator.

Run with the python of .cache/nengo-bench-venv (scripts/nengo-bench-venv):
    python -m pytest python/nengo_neurogo/tests
Nengo's own test suite runs against the backend through scripts/nengo-suite.
"""

import gc
import os
import resource
import signal
import threading

import numpy as np
import pytest

import nengo
import nengo_neurogo
from nengo.builder.operator import Operator
from nengo.exceptions import BuildError, SimulationError, SimulatorClosed

# Nengo's builder makes both simulators' parameters; what remains is the
# order of floating-point sums, which the two may merge differently
SAME = dict(rtol=1e-12, atol=1e-12)
# convolutions: neurogo adds the terms of each output in another order
CONV_RTOL = 1e-12
# decoded values of Izhikevich neurons whose spikes moved (see below)
IZHIKEVICH_DECODED = 0.05


def run_both(net, seconds=0.3, **kw):
    """Probe data of the reference simulator (Nengo's order, no merging)
    and of neurogo, and the neurogo simulator (closed)."""
    out = []
    for S, opt in ((nengo.Simulator, False), (nengo_neurogo.Simulator, True)):
        with S(net, progress_bar=False, optimize=opt, **kw) as sim:
            sim.run(seconds)
            out.append({p: np.array(sim.data[p]) for p in net.all_probes})
    return out[0], out[1], sim


def assert_same(ref, got):
    for p in ref:
        assert ref[p].shape == got[p].shape, p
        np.testing.assert_allclose(got[p], ref[p], err_msg=str(p), **SAME)


def chain(neuron_type, seed=0):
    with nengo.Network(seed=seed) as net:
        u = nengo.Node(nengo.processes.PresentInput([[0.5, -0.3], [-0.2, 0.8]], 0.05))
        a = nengo.Ensemble(60, 2, neuron_type=neuron_type)
        b = nengo.Ensemble(50, 1, neuron_type=neuron_type)
        nengo.Connection(u, a, synapse=nengo.Alpha(0.005))
        nengo.Connection(a, b, function=lambda x: x[0] * x[1], synapse=0.01)
        nengo.Connection(a[1], b, transform=-0.5, synapse=nengo.synapses.Triangle(0.004))
        nengo.Probe(a, synapse=0.02)
        nengo.Probe(b, synapse=nengo.LinearFilter([1], [0.01**2, 2 * 0.01, 1]))
        nengo.Probe(a.neurons, sample_every=0.003)
        nengo.Probe(b.neurons, "voltage" if neuron_type.spiking and "voltage" in neuron_type.state else "input")
    return net


@pytest.mark.parametrize(
    "neuron_type",
    [
        nengo.LIF(),
        nengo.LIF(min_voltage=-np.inf),
        nengo.LIFRate(),
        nengo.AdaptiveLIF(tau_n=0.1, inc_n=0.05),
        nengo.AdaptiveLIFRate(),
        nengo.RectifiedLinear(),
        nengo.SpikingRectifiedLinear(),
        nengo.Sigmoid(),
        nengo.Tanh(),
        nengo.Izhikevich(),
        nengo.RegularSpiking(nengo.LIFRate()),
    ],
    ids=lambda t: repr(t),
)
def test_neurons_synapses_processes_in_go(neuron_type):
    ref, got, sim = run_both(chain(neuron_type))
    if isinstance(neuron_type, nengo.Izhikevich):
        # its voltage is chaotic: a last-bit difference of a dot product
        # (numpy's BLAS and neurogo's kernels round differently) moves a
        # spike after some steps; the decoded values stay close
        for p in ref:
            if p.attr == "decoded_output":
                np.testing.assert_allclose(got[p], ref[p], atol=IZHIKEVICH_DECODED)
    else:
        assert_same(ref, got)
    assert all(type(op).__name__ == "SimPyFunc" for op in sim.unsupported), sim.unsupported


@pytest.mark.parametrize(
    "rule", [nengo.PES(learning_rate=1e-3), nengo.BCM(), nengo.Oja(), nengo.RLS()], ids=repr
)
def test_learning_rules_in_go(rule):
    with nengo.Network(seed=2) as net:
        u = nengo.Node(nengo.processes.Piecewise({0: [0.4], 0.1: [-0.6], 0.2: [0.2]}))
        a = nengo.Ensemble(40, 1)
        b = nengo.Ensemble(40, 1)
        nengo.Connection(u, a)
        kind = {"PES": None, "RLS": None}.get(type(rule).__name__, "weights")
        if kind == "weights":
            c = nengo.Connection(a.neurons, b.neurons, transform=np.ones((40, 40)) * 1e-3,
                                 learning_rule_type=rule)
        else:
            c = nengo.Connection(a, b, learning_rule_type=rule)
            nengo.Connection(b, c.learning_rule)
            nengo.Connection(u, c.learning_rule, transform=-1)
        nengo.Probe(b, synapse=0.01)
        nengo.Probe(c, "weights", sample_every=0.01)
    ref, got, sim = run_both(net)
    assert_same(ref, got)
    assert not sim.unsupported


def test_voja_and_sparse_and_views_in_go():
    with nengo.Network(seed=4) as net:
        u = nengo.Node(nengo.processes.PresentInput(np.eye(3) * 0.7, 0.05))
        a = nengo.Ensemble(50, 3)
        learn = nengo.Node(0.5)
        c = nengo.Connection(u, a, learning_rule_type=nengo.Voja(learning_rate=1e-2))
        nengo.Connection(learn, c.learning_rule, synapse=None)
        b = nengo.Ensemble(30, 2)
        sparse = nengo.transforms.Sparse((30, 50), indices=[[i % 30, i] for i in range(50)], init=0.02)
        nengo.Connection(a.neurons, b.neurons, transform=sparse)
        nengo.Connection(a[[2, 0]], b, synapse=0.005)  # a fancy-indexed view
        # products from and into slices of neurons: gathered and scattered
        nengo.Connection(a.neurons[:20], b.neurons[10:], transform=np.ones((20, 20)) * 1e-3)
        nengo.Connection(a.neurons[::5], b.neurons[:10], transform=np.eye(10) * 0.01, synapse=None)
        nengo.Probe(a, synapse=0.02)
        nengo.Probe(b[1], synapse=0.02)  # a probe of a view
        nengo.Probe(c.learning_rule, "scaled_encoders", sample_every=0.05)
    ref, got, sim = run_both(net)
    assert_same(ref, got)
    assert not sim.unsupported


def test_white_signal_in_go_with_nengos_stream():
    with nengo.Network(seed=3) as net:
        u = nengo.Node(nengo.processes.WhiteSignal(0.1, high=20, rms=0.4), size_out=2)
        v = nengo.Node(nengo.processes.WhiteSignal(1.0, high=5, y0=0), size_out=1)
        a = nengo.Ensemble(50, 2)
        nengo.Connection(u, a)
        nengo.Connection(v, a[0], synapse=None)
        nengo.Probe(u)
        nengo.Probe(v)
        nengo.Probe(a, synapse=0.01)
    ref, got, sim = run_both(net, seconds=0.25, seed=5)  # longer than one period
    assert_same(ref, got)
    assert not sim.unsupported
    data = []
    for S, opt in ((nengo.Simulator, False), (nengo_neurogo.Simulator, True)):
        with S(net, progress_bar=False, optimize=opt, seed=5) as s:
            s.run(0.01)
            s.reset(seed=7)  # a new seed draws a new signal
            s.run(0.01)
            data.append(s.data[net.probes[0]])
    np.testing.assert_array_equal(data[0], data[1])


CONV_CASES = [
    ((7, 6, 4), (3, 3), (1, 1), "same", True, 1),
    ((7, 6, 4), (3, 2), (2, 1), "valid", False, 1),
    ((8, 5, 4), (2, 3), (2, 2), "same", True, 2),
    ((9, 3), (4,), (2,), "same", True, 1),
    ((3, 9), (3,), (1,), "valid", False, 1),
]


@pytest.mark.parametrize(
    "shape, kernel, strides, padding, channels_last, groups, transpose",
    # Nengo's transposed convolution has no groups
    [c + (False,) for c in CONV_CASES] + [c + (True,) for c in CONV_CASES if c[5] == 1],
)
def test_convolution_in_go(shape, kernel, strides, padding, channels_last, groups, transpose):
    rng = np.random.RandomState(9)
    channels = shape[-1 if channels_last else 0]
    if transpose:
        conv = nengo.ConvolutionTranspose(
            n_filters=6, input_shape=shape, kernel_size=kernel, strides=strides, padding=padding,
            channels_last=channels_last,
            init=rng.uniform(-0.5, 0.5, size=kernel + (channels, 6)),
        )
    else:
        conv = nengo.Convolution(
            n_filters=6, input_shape=shape, kernel_size=kernel, strides=strides, padding=padding,
            channels_last=channels_last, groups=groups,
            init=rng.uniform(-0.5, 0.5, size=kernel + (channels // groups, 6)),
        )
    with nengo.Network(seed=10) as net:
        u = nengo.Node(nengo.processes.PresentInput(rng.uniform(-1, 1, size=(3, int(np.prod(shape)))), 0.01))
        v = nengo.Node(size_in=conv.size_out)
        nengo.Connection(u, v, transform=conv, synapse=None)
        nengo.Probe(v)
    ref, got, sim = run_both(net, seconds=0.03)
    # neurogo sums each output in another order than Nengo's im2col product
    for p in ref:
        np.testing.assert_allclose(got[p], ref[p], rtol=CONV_RTOL, atol=CONV_RTOL)
    assert not sim.unsupported


def test_python_operators_run_in_their_place():
    class Square(nengo.neurons.NeuronType):
        """A neuron type neurogo does not know: it runs in Python."""

        def step(self, dt, J, output):
            output[...] = np.maximum(J, 0) ** 2

    with nengo.Network(seed=5) as net:
        u = nengo.Node(lambda t: np.sin(10 * t))
        a = nengo.Ensemble(30, 1, neuron_type=Square(), gain=np.ones(30), bias=np.zeros(30))
        noisy = nengo.Node(nengo.processes.WhiteNoise(seed=3), size_out=1)
        nengo.Connection(u, a)
        nengo.Connection(noisy, a, transform=0.1)
        nengo.Probe(a.neurons)
        nengo.Probe(noisy)
    ref, got, sim = run_both(net)
    assert_same(ref, got)
    reasons = sorted(sim.unsupported.values())
    assert reasons == ["a Python function (<lambda>)", "neuron type Square", "process WhiteNoise"], reasons


def test_signals_are_the_go_store():
    with nengo.Network(seed=6) as net:
        a = nengo.Ensemble(10, 1)
        nengo.Connection(nengo.Node(0.3), a)
    with nengo_neurogo.Simulator(net, progress_bar=False) as sim:
        sim.run_steps(3)
        v = sim.signals[sim.model.sig[a.neurons]["voltage"]]
        before = v.copy()
        sim.step()
        assert not np.array_equal(before, sim.signals[sim.model.sig[a.neurons]["voltage"]])
        assert sim.n_steps == 4 and sim.time == pytest.approx(0.004)
        bias = sim.signals[sim.model.sig[a.neurons]["bias"]]
        with pytest.raises(ValueError):
            bias[0] = 1.0  # read-only, as in Nengo


def test_exception_in_a_node_stops_the_run_at_its_step():
    def f(t):
        if t > 0.0045:
            raise ValueError("bad input at t=%g" % t)
        return 0.0

    with nengo.Network() as net:
        nengo.Probe(nengo.Node(f))
    with nengo_neurogo.Simulator(net, progress_bar=False) as sim:
        with pytest.raises(ValueError, match="bad input"):
            sim.run(0.01)
        assert sim.n_steps == 4
        assert sim.data[net.probes[0]].shape == (4, 1)


def test_ctrl_c_stops_a_long_run_with_the_data_of_its_steps():
    with nengo.Network(seed=8) as net:
        a = nengo.Ensemble(2000, 8)
        nengo.Connection(a, a, synapse=0.01)
        p = nengo.Probe(a, synapse=0.01)
    # Python's own Ctrl-C handler, also where the test runner inherited
    # SIGINT ignored (a background job of a shell)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with nengo_neurogo.Simulator(net, progress_bar=False) as sim:
            threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
            with pytest.raises(KeyboardInterrupt):
                sim.run(600.0)  # ten minutes of simulated time: far longer than 0.5 s
            n = sim.n_steps
            assert 0 < n < 600 * 1000
            assert sim.data[p].shape == (n, 8)
            sim.run_steps(10)  # and it goes on from there
            assert sim.n_steps == n + 10
    finally:
        signal.signal(signal.SIGINT, previous)


def test_nan_names_signal_and_step():
    with nengo.Network() as net:
        # from step 3 Go's transform product is 1e300·1e300 − 1e300·1e300
        # = inf − inf
        u = nengo.Node(nengo.processes.Piecewise({0: [0.0, 0.0], 0.0025: [1e300, 1e300]}))
        a = nengo.Ensemble(5, 1)
        nengo.Connection(u, a, transform=[[1e300, -1e300]])
        nengo.Probe(a.neurons)
    with nengo_neurogo.Simulator(net, progress_bar=False) as sim:
        with pytest.raises(SimulationError, match=r"NaN in signal .* at step 3"):
            sim.run(0.01)


def test_operator_neither_side_runs_is_a_build_error():
    class Opaque(Operator):
        def __init__(self, sig):
            super().__init__(tag="opaque")
            self.sets, self.incs, self.reads, self.updates = [], [], [sig], []

    with nengo.Network() as net:
        a = nengo.Ensemble(5, 1)
    model = nengo.builder.Model(dt=0.001)
    model.build(net)
    model.add_op(Opaque(model.sig[a]["in"]))  # Operator.make_step raises NotImplementedError
    with pytest.raises(BuildError, match="Opaque.*neither neurogo nor Nengo"):
        nengo_neurogo.Simulator(None, model=model, progress_bar=False)


def test_closed_simulator():
    with nengo.Network() as net:
        p = nengo.Probe(nengo.Node(1.0))
    sim = nengo_neurogo.Simulator(net, progress_bar=False)
    sim.run_steps(5)
    sim.close()
    assert sim.data[p].shape == (5, 1)
    for f in (sim.step, lambda: sim.run(0.1), sim.reset):
        with pytest.raises(SimulatorClosed):
            f()


def test_reset_repeats_and_seed_changes_random_streams():
    with nengo.Network() as net:
        p = nengo.Probe(nengo.Node(nengo.processes.WhiteNoise(), size_out=2))
    with nengo_neurogo.Simulator(net, progress_bar=False, seed=1) as sim:
        sim.run(0.05)
        first = sim.data[p].copy()
        sim.reset()
        sim.run(0.05)
        np.testing.assert_array_equal(first, sim.data[p])
        sim.reset(seed=2)
        sim.run(0.05)
        assert not np.array_equal(first, sim.data[p])
    with nengo.Simulator(net, progress_bar=False, seed=1, optimize=False) as ref:
        ref.run(0.05)
    np.testing.assert_array_equal(first, ref.data[p])  # Nengo's own random stream


def test_clear_probes_and_trange():
    with nengo.Network() as net:
        p = nengo.Probe(nengo.Node(lambda t: t), sample_every=0.002)
    with nengo_neurogo.Simulator(net, progress_bar=False) as sim:
        sim.run(0.01)
        np.testing.assert_allclose(sim.trange(sample_every=0.002), [0.002, 0.004, 0.006, 0.008, 0.010])
        np.testing.assert_allclose(sim.data[p].ravel(), sim.trange(sample_every=0.002))
        sim.clear_probes()
        assert sim.data[p].shape == (0,)
        sim.run(0.004)
        assert sim.data[p].shape == (2, 1)


def test_close_frees_go_memory():
    from nengo_neurogo import _lib  # pylint: disable=import-outside-toplevel

    lib = _lib.load()
    with nengo.Network(seed=7) as net:
        a = nengo.Ensemble(400, 4)
        nengo.Connection(a, a, synapse=0.01)
        nengo.Probe(a, synapse=0.01)
    gc.collect()
    base = lib.ng_memory()

    def cycle():
        sim = nengo_neurogo.Simulator(net, progress_bar=False)
        held = lib.ng_memory() - base
        sim.run_steps(20)
        sim.close()
        return held

    held = cycle()
    assert held > 400 * 4 * 8  # the store holds at least the encoders
    rss, heap = [], []
    for i in range(150):
        cycle()
        assert lib.ng_memory() == base, f"cycle {i}: Go store not freed"
        if i in (49, 149):
            gc.collect()
            rss.append(_rss_mib())
            heap.append(lib.ng_heap() / 2**20)
    # Go's heap after 50 and after 150 cycles: what the closed simulators'
    # Go structures held is gone
    assert heap[1] - heap[0] < GO_HEAP_GROWTH_MIB, heap
    # resident memory: the first cycles fill the allocators (Go's heap
    # arenas, malloc's), then 100 more add no more than allocator noise
    assert rss[1] - rss[0] < RSS_GROWTH_MIB, rss


# Go heap that 100 build/run/close cycles may leave (this model's Go
# structures take ~0.1 MiB: leaking them would add ~10 MiB; its store,
# ~0.05 MiB of C memory, is checked exactly with ng_memory)
GO_HEAP_GROWTH_MIB = 1
# resident memory that 100 cycles may add once the allocators are warm
# (a Python-side leak of the simulators, their Nengo model and numpy
# views, would add tens of MiB)
RSS_GROWTH_MIB = 15


def _rss_mib():
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20
