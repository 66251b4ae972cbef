#!/usr/bin/env python3
"""Reference data for package neurons, computed by Nengo itself.

Pinned versions (the fixture records them too):

    python3 -m venv /tmp/nengo-venv
    /tmp/nengo-venv/bin/pip install nengo==4.1.0 numpy==2.2.6
    /tmp/nengo-venv/bin/python toolkit/neurons/testdata/gen_nengo.py

(numpy 2.2 is the release current when Nengo 4.1.0 came out; Nengo 4.1.0's
``Synapse.filt`` breaks on numpy >= 2.4.) The script downloads nothing and
uses no randomness: inputs come from an integer hash that the Go tests
recompute bit for bit (see ``unit`` below and ``unit`` in nengo_test.go).

It writes ``nengo_neurons.json`` next to itself:

- ``step``: for each case, Nengo's ``NeuronType.step`` (for the
  RatesToSpikes wrappers: the base type's ``step`` into ``rate_out``, then
  the wrapper's ``step``, the two SimNeurons operators Nengo's builder makes)
  run for ``steps`` steps on input currents ``J[k][i] = c[i] + d[i] *
  unit(k // hold[i], i, seed)`` from the given initial state. A spiking
  type's output is recorded after every step; continuous values (a rate
  type's output, state variables, ``rate_out``) after the steps listed in
  ``meta.sampled_steps`` (the first 20, then every 10th), which keeps the
  file small while every step is still simulated and checked for spikes.
- ``gain_bias``, ``max_rates_intercepts``, ``rates``: Nengo's own methods on
  fixed arguments; ``error`` is true where Nengo raises.

Run it again after changing it; the Go tests read the JSON only.
"""

import json
import os
import sys

import numpy as np

import nengo

DT = 0.001
STEPS = 1000


def unit(k, i, seed):
    """A uniform number in [0, 1) with 24-bit resolution from (k, i, seed)."""
    h = (k * 0x9E3779B1 + i * 0x85EBCA77 + seed * 0xC2B2AE3D) & 0xFFFFFFFF
    h ^= h >> 15
    h = (h * 0x2C1B3C6D) & 0xFFFFFFFF
    h ^= h >> 12
    h = (h * 0x297A2D39) & 0xFFFFFFFF
    h ^= h >> 15
    return (h >> 8) / 16777216.0


def make_type(spec):
    cls = getattr(nengo, spec["type"])
    params = dict(spec.get("params", {}))
    if "base" in spec:
        return cls(make_type(spec["base"]), **params)
    return cls(**params)


# Continuous values (states, rates) are recorded at these steps only, to keep
# the fixture small; spiking outputs are recorded at every step.
SAMPLED = frozenset(k for k in range(STEPS) if k < 20 or k % 10 == 9)


def floats(a):
    return [float(v) for v in np.asarray(a, dtype=float).ravel()]


def compact(a):
    """Floats, with integral values written as JSON integers (spike outputs)."""
    return [int(v) if float(v).is_integer() else float(v) for v in floats(a)]


def run_step_case(case):
    ntype = make_type(case)
    c = np.asarray(case["c"], dtype=float)
    d = np.asarray(case["d"], dtype=float)
    hold = case["hold"]
    seed = case["seed"]
    n = len(c)
    wrapper = isinstance(ntype, nengo.neurons.RatesToSpikesNeuronType)
    base = ntype.base_type if wrapper else None

    # state: Nengo's names, with the initial values given by the case
    init = case["initial"]
    own = {name: np.array(init[name], dtype=float) for name in ntype.state}
    base_state = (
        {name: np.array(init[name], dtype=float) for name in base.state} if wrapper else {}
    )
    output = np.zeros(n)
    rate_out = np.zeros(n)

    out_trace = []
    traces = {name: [] for name in list(own) + list(base_state)}
    if wrapper:
        traces["rate_out"] = []
    for k in range(STEPS):
        u = np.array([unit(k // hold[i], i, seed) for i in range(n)])
        J = c + d * u
        if wrapper:
            base.step(DT, J, rate_out, **base_state)
            ntype.step(DT, rate_out, output, **own)
            if k in SAMPLED:
                traces["rate_out"].append(floats(rate_out))
        else:
            ntype.step(DT, J, output, **own)
        if ntype.spiking:
            out_trace.append(compact(output))
        elif k in SAMPLED:
            out_trace.append(floats(output))
        if k in SAMPLED:
            for name, v in list(own.items()) + list(base_state.items()):
                traces[name].append(floats(v))
    result = dict(case)
    result["output"] = out_trace
    result["state"] = traces
    return result


def spec(t, base=None, **params):
    s = {"type": t, "params": params}
    if base is not None:
        s["base"] = base
    return s


def step_cases():
    cases = []

    def add(name, s, c, d, hold, initial, seed):
        case = dict(s)
        case.update(
            name=name, c=c, d=d, hold=hold, initial=initial, seed=seed
        )
        cases.append(case)

    lif_c = [-2.0, 0.9, 1.5, 5.0, 40.0, 3.0]
    lif_d = [1.0, 0.2, 1.0, 2.0, 20.0, 0.0]
    hold = [1, 3, 10, 1, 50, 1]
    v0 = [0.1, 0.5, 0.9, 0.0, 0.99, 0.3]
    zeros = [0.0] * 6
    add("LIF default", spec("LIF"), lif_c, lif_d, hold,
        {"voltage": v0, "refractory_time": zeros}, 1)
    add("LIF tau_ref not a multiple of dt, min_voltage<0, amplitude",
        spec("LIF", tau_rc=0.05, tau_ref=0.0035, min_voltage=-0.5, amplitude=0.3),
        lif_c, lif_d, hold,
        {"voltage": v0, "refractory_time": [0.0, 0.0, 0.0012, 0.0, 0.003, 0.0]}, 2)
    add("LIF tau_ref=0", spec("LIF", tau_ref=0.0), lif_c, lif_d, hold,
        {"voltage": v0, "refractory_time": zeros}, 3)
    add("LIFRate default", spec("LIFRate"), lif_c, lif_d, hold, {}, 4)
    add("LIFRate params", spec("LIFRate", tau_rc=0.03, tau_ref=0.001, amplitude=2.0),
        lif_c, lif_d, hold, {}, 5)
    add("AdaptiveLIF default", spec("AdaptiveLIF"), lif_c, lif_d, hold,
        {"voltage": v0, "refractory_time": zeros, "adaptation": zeros}, 6)
    add("AdaptiveLIF strong",
        spec("AdaptiveLIF", tau_n=0.1, inc_n=0.5, tau_rc=0.03, tau_ref=0.0025,
             min_voltage=-1.0, amplitude=0.5),
        lif_c, lif_d, hold,
        {"voltage": v0, "refractory_time": zeros,
         "adaptation": [0.0, 0.1, 0.2, 0.3, 2.0, 0.05]}, 7)
    add("AdaptiveLIFRate default", spec("AdaptiveLIFRate"), lif_c, lif_d, hold,
        {"adaptation": zeros}, 8)
    add("AdaptiveLIFRate strong", spec("AdaptiveLIFRate", tau_n=0.1, inc_n=0.5),
        lif_c, lif_d, hold, {"adaptation": [0.0, 0.1, 0.2, 0.3, 2.0, 0.05]}, 9)

    relu_c = [-1.0, 0.0, 0.5, 3.0, 10.0, 2.0]
    relu_d = [1.5, 1.0, 1.0, 2.0, 5.0, 0.0]
    add("RectifiedLinear default", spec("RectifiedLinear"), relu_c, relu_d, hold, {}, 10)
    add("RectifiedLinear amplitude", spec("RectifiedLinear", amplitude=0.25),
        relu_c, relu_d, hold, {}, 11)
    srl_c = [-100.0, 10.0, 150.0, 700.0, 2500.0, 333.0]
    srl_d = [200.0, 20.0, 100.0, 600.0, 1000.0, 0.0]
    add("SpikingRectifiedLinear default", spec("SpikingRectifiedLinear"),
        srl_c, srl_d, hold, {"voltage": v0}, 12)
    add("SpikingRectifiedLinear amplitude", spec("SpikingRectifiedLinear", amplitude=2.0),
        srl_c, srl_d, hold, {"voltage": v0}, 13)

    sig_c = [-8.0, -1.0, 0.0, 1.0, 4.0, 30.0]
    sig_d = [4.0, 2.0, 1.0, 2.0, 4.0, 10.0]
    add("Sigmoid default", spec("Sigmoid"), sig_c, sig_d, hold, {}, 14)
    add("Sigmoid tau_ref", spec("Sigmoid", tau_ref=0.01), sig_c, sig_d, hold, {}, 15)
    add("Tanh default", spec("Tanh"), sig_c, sig_d, hold, {}, 16)
    add("Tanh tau_ref", spec("Tanh", tau_ref=0.004), sig_c, sig_d, hold, {}, 17)

    izh_c = [-40.0, 0.0, 5.0, 10.0, 20.0, 14.0]
    izh_d = [10.0, 4.0, 5.0, 10.0, 20.0, 0.0]
    izh_v0 = [0.2, 0.5, -65.0, -70.0, 0.9, 29.5]
    izh_u0 = [0.0, 0.0, -13.0, -14.0, 0.0, 5.0]
    add("Izhikevich default (RS)", spec("Izhikevich"), izh_c, izh_d, hold,
        {"voltage": izh_v0, "recovery": izh_u0}, 18)
    add("Izhikevich FS", spec("Izhikevich", tau_recovery=0.1), izh_c, izh_d, hold,
        {"voltage": izh_v0, "recovery": izh_u0}, 19)
    add("Izhikevich CH", spec("Izhikevich", reset_voltage=-50.0, reset_recovery=2.0),
        izh_c, izh_d, hold, {"voltage": izh_v0, "recovery": izh_u0}, 20)
    add("Izhikevich RZ",
        spec("Izhikevich", tau_recovery=0.1, coupling=0.26), izh_c, izh_d, hold,
        {"voltage": izh_v0, "recovery": izh_u0}, 21)

    add("RegularSpiking(LIFRate)", spec("RegularSpiking", base=spec("LIFRate")),
        lif_c, lif_d, hold, {"voltage": v0}, 22)
    add("RegularSpiking(Tanh) amplitude (negative rates)",
        spec("RegularSpiking", base=spec("Tanh"), amplitude=0.5),
        sig_c, [-v for v in sig_d], hold, {"voltage": v0}, 23)
    add("RegularSpiking(AdaptiveLIFRate strong)",
        spec("RegularSpiking", base=spec("AdaptiveLIFRate", tau_n=0.1, inc_n=0.5)),
        lif_c, lif_d, hold, {"voltage": v0, "adaptation": zeros}, 24)
    add("RegularSpiking(RectifiedLinear) amplitude",
        spec("RegularSpiking", base=spec("RectifiedLinear", amplitude=100.0),
             amplitude=2.0),
        relu_c, relu_d, hold, {"voltage": v0}, 25)
    return cases


def method_cases():
    mr = [20.0, 80.0, 150.0, 200.0, 250.0, 300.0, 399.0, 450.0]
    ic = [-0.95, -0.5, -0.1, 0.0, 0.2, 0.5, 0.8, 0.95]
    sig_frac = [0.5025, 0.55, 0.625, 0.75, 0.875, 0.95, 0.975, 0.9975]
    gb_types = [
        spec("LIF"),
        spec("LIF", tau_rc=0.05, tau_ref=0.001),
        spec("LIF", tau_ref=0.0),
        spec("LIFRate", tau_rc=0.03),
        spec("AdaptiveLIF"),
        spec("AdaptiveLIFRate", tau_n=0.5),
        spec("RectifiedLinear"),
        spec("RectifiedLinear", amplitude=3.0),
        spec("SpikingRectifiedLinear"),
        spec("Tanh"),
        spec("Tanh", tau_ref=0.001),
        spec("Sigmoid"),
        spec("Sigmoid", tau_ref=0.002),
        spec("RegularSpiking", base=spec("LIFRate")),
        spec("PoissonSpiking", base=spec("Tanh")),
        spec("StochasticSpiking", base=spec("RectifiedLinear")),
    ]
    gain_bias = []
    mri = []
    rates = []
    x = list(np.linspace(-1.0, 1.0, 21))
    for s in gb_types:
        t = make_type(s)
        kind = s["base"] if "base" in s else s
        if kind["type"] in ("Sigmoid", "Tanh"):
            # below 1/tau_ref, and for Sigmoid above half of it (positive gain)
            inv = 1.0 / kind["params"].get("tau_ref", 0.0025)
            rmax = [inv * f for f in sig_frac]
        else:
            rmax = mr
        g, b = t.gain_bias(np.array(rmax), np.array(ic))
        gain_bias.append(dict(s, max_rates=rmax, intercepts=ic, gain=floats(g),
                              bias=floats(b), error=False))
        m, i = t.max_rates_intercepts(g, b)
        mri.append(dict(s, gain=floats(g), bias=floats(b), max_rates=floats(m),
                        intercepts=floats(i)))
        r = t.rates(np.array(x), g, b)
        rates.append(dict(s, gain=floats(g), bias=floats(b), x=x,
                          rates=[floats(row) for row in r]))

    # Izhikevich has no closed form: Nengo's generic numerical gain_bias,
    # max_rates_intercepts and a simulated rates (1 s after 1 ms settling)
    izh_mr = [10.0, 20.0, 35.0, 50.0, 80.0, 100.0]
    izh_ic = [-0.9, -0.5, 0.0, 0.3, 0.6, 0.9]
    for s in [spec("Izhikevich"), spec("Izhikevich", tau_recovery=0.1)]:
        t = make_type(s)
        g, b = t.gain_bias(np.array(izh_mr), np.array(izh_ic))
        gain_bias.append(dict(s, max_rates=izh_mr, intercepts=izh_ic,
                              gain=floats(g), bias=floats(b), error=False))
        m, i = t.max_rates_intercepts(g, b)
        mri.append(dict(s, gain=floats(g), bias=floats(b), max_rates=floats(m),
                        intercepts=floats(i)))
        xs = x[::4]
        r = t.rates(np.array(xs), g, b)
        rates.append(dict(s, gain=floats(g), bias=floats(b), x=xs,
                          rates=[floats(row) for row in r]))

    # where Nengo's gain_bias itself raises
    for s, rmax, icpt in [
        (spec("LIF"), [100.0, 500.0], [0.0, 0.0]),
        (spec("LIFRate", tau_ref=0.01), [99.0, 100.5], [0.0, 0.0]),
        (spec("Sigmoid"), [100.0, 400.0], [0.0, 0.0]),
        (spec("Tanh"), [100.0, 401.0], [0.0, 0.0]),
    ]:
        try:
            make_type(s).gain_bias(np.array(rmax), np.array(icpt))
            err = False
        except nengo.exceptions.ValidationError:
            err = True
        assert err, s
        gain_bias.append(dict(s, max_rates=rmax, intercepts=icpt, error=True))
    return gain_bias, mri, rates


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    steps = [run_step_case(c) for c in step_cases()]
    gain_bias, mri, rates = method_cases()
    data = {
        "meta": {
            "nengo": nengo.__version__,
            "numpy": np.__version__,
            "python": sys.version.split()[0],
            "dt": DT,
            "steps": STEPS,
            "sampled_steps": sorted(SAMPLED),
            "generator": "toolkit/neurons/testdata/gen_nengo.py",
        },
        "step": steps,
        "gain_bias": gain_bias,
        "max_rates_intercepts": mri,
        "rates": rates,
    }
    path = os.path.join(here, "nengo_neurons.json")
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    if nengo.__version__ != "4.1.0":
        sys.exit(f"need nengo 4.1.0, have {nengo.__version__}")
    main()
