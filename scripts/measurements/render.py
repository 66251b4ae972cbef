"""Renders the pages under docs/measurements from the JSON the benches write.

Deterministic: the same JSON gives the same Markdown, byte for byte (no
clock, no environment, no locale). Every page has a title, what is measured
and how, the command, the machine description, the date, and the tables;
figures compared with a peer are given as ratios measured in the same run.

    render(name, doc)         one bench page: sim, nengo, ablation, train,
                              stream, accel, kernel, goroot-corpus, viz
    render_reproductions(docs)  reproductions.md from {name: doc}
    render_index(docs)        index.md from {name: doc}
    summary(name, doc)        the one-line summary the index shows
"""
from __future__ import annotations

import math
from typing import Any, Callable

NOISE = ("Machines are noisy and other work may share them: the figure is the ratio "
         "to the peer measured in the same run; absolute times vary from run to run.")


# --- formatting ----------------------------------------------------------------

def f(x: Any, nd: int = 2) -> str:
    """A float with nd decimals ("–" for missing or not finite)."""
    if x is None or not isinstance(x, (int, float)) or not math.isfinite(x):
        return "–"
    return f"{x:.{nd}f}"


def g(x: Any, sig: int = 3) -> str:
    """A float with sig significant digits, no exponent below 1e6."""
    if x is None or not isinstance(x, (int, float)) or not math.isfinite(x):
        return "–"
    if x == 0:
        return "0"
    if abs(x) >= 1e6 or abs(x) < 1e-3:
        return f"{x:.{sig - 1}e}"
    d = max(0, sig - 1 - int(math.floor(math.log10(abs(x)))))
    return f"{x:.{d}f}"


def num(x: Any) -> str:
    """A protocol number as written: 2, 0.5, 0.001."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return "?" if x is None else str(x)
    return f"{x:g}"


def ratio(x: Any, nd: int = 2) -> str:
    s = f(x, nd)
    return s if s == "–" else s + "×"


def span(xs: list[float], nd: int = 1) -> str:
    """min–max of xs as ratios, or one value."""
    xs = [x for x in xs if isinstance(x, (int, float)) and math.isfinite(x)]
    if not xs:
        return "–"
    lo, hi = min(xs), max(xs)
    if f(lo, nd) == f(hi, nd):
        return f"{f(lo, nd)}×"
    return f"{f(lo, nd)}–{f(hi, nd)}×"


def table(head: list[str], rows: list[list[str]], align: str = "") -> list[str]:
    """A Markdown table; align has one letter per column (l or r)."""
    align = align or "l" * len(head)
    out = ["| " + " | ".join(head) + " |",
           "| " + " | ".join("---:" if a == "r" else "---" for a in align) + " |"]
    for r in rows:
        out.append("| " + " | ".join(r) + " |")
    return out


def human_bytes(n: Any) -> str:
    if not isinstance(n, (int, float)) or n <= 0:
        return "–"
    return f"{n / 2**30:.1f} GiB"


def date_text(date: str) -> str:
    """2026-11-28T01:55:45Z → 2026-11-28 01:55:45 UTC."""
    if not date:
        return "not recorded"
    d = date.replace("T", " ")
    if d.endswith("Z"):
        d = d[:-1] + " UTC"
    elif d.endswith("+00:00"):
        d = d[:-6] + " UTC"
    return d


def machine_lines(m: dict[str, Any] | None) -> list[str]:
    """The machine description as list items."""
    if not m:
        return ["- Machine: not recorded with these results"]
    cpu = m.get("cpu") or "CPU model unknown"
    feats = m.get("cpu_features")
    if feats:
        cpu += f" ({', '.join(feats)})"
    cores = f"{m.get('logical_cores', '?')} logical cores"
    if m.get("gomaxprocs"):
        cores += f", GOMAXPROCS {m['gomaxprocs']}"
    osk = m.get("os") or ""
    if m.get("kernel"):
        osk += f", Linux {m['kernel']}" if "linux" in osk.lower() or "debian" in osk.lower() else f", kernel {m['kernel']}"
    if m.get("arch"):
        osk += f", {m['arch']}"
    lines = [f"- Machine: {cpu}; {cores}; {human_bytes(m.get('memory_bytes'))} memory; {osk}"]
    if m.get("go"):
        b = [m["go"], f"GOEXPERIMENT={m.get('goexperiment') or '(none)'}",
             f"build tags: {m.get('build_tags') or '(none)'}"]
        blas = (m.get("blas") or "").replace("OpenBLAS OpenBLAS", "OpenBLAS")
        b.append(f"BLAS: {blas}" if blas else "BLAS: not recorded")
        if m.get("kernels"):
            b.append(f"inner loops: {m['kernels']}")
        lines.append("- Binary: " + "; ".join(b))
    peers = m.get("peers") or {}
    if peers:
        lines.append("- Peers: " + ", ".join(f"{k} {v}" for k, v in sorted(peers.items())))
    return lines


def header(title: str, run: dict[str, Any] | None, source: str, what: list[str], noise: str = NOISE) -> list[str]:
    """Title, what is measured, command, date, mode, machine."""
    run = run or {}
    out = [f"# {title}", ""]
    out += what
    out += ["", f"- Command: `{run.get('command') or 'not recorded'}`",
            f"- Date: {date_text(run.get('date', ''))}"]
    out.append("- Mode: quick (small sizes and short timings)" if run.get("quick") else "- Mode: full")
    out += machine_lines(run.get("machine"))
    out += ["", f"Generated by `scripts/measure` from [`{source}`]({source}); the figures are of this one run. {noise}", ""]
    return out


# --- sim -----------------------------------------------------------------------

MODEL_ORDER = {"integrator": 0, "cconv": 1, "basal_ganglia": 2, "pes": 3}


def sim_rows(doc: dict[str, Any]) -> list[dict[str, Any]]:
    rows = [r for r in doc.get("rows", []) if "model" in r]
    return sorted(rows, key=lambda r: (MODEL_ORDER.get(r["model"], 9), r["model"], r["dims"], r["batch"]))


def render_sim(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    p = run.get("protocol", {})
    rows = sim_rows(doc)
    what = [
        "The simulation benchmark of the NengoDL paper (\"NengoDL: Combining deep learning and "
        "neuromorphic modelling methods\", Daniel Rasmussen, 2019, §5.1, Figs 6–7): the models "
        f"{', '.join(p.get('models', []))} at D = {', '.join(map(str, p.get('dims', [])))} dimensions, "
        f"{p.get('neurons', 9984)} {p.get('neuron_type', 'RectifiedLinear')} neurons in total "
        f"({p.get('neurons', 9984)}/D per dimension), batch {', '.join(map(str, p.get('batches', [])))}.",
        "",
        f"Protocol: each cell is built once, then simulated {num(p.get('warmup_s'))} s as warm-up and "
        f"{p.get('repeats')} × {num(p.get('seconds'))} s timed (dt {num(p.get('dt'))} s, optimizer passes "
        f"`{p.get('opt', 'all')}`); µs/step is the mean over the repeats ± the half-width of its "
        f"interval ({p.get('interval', '95% Student t over the repeats')}). "
        "Nengo 4.1's reference simulator (`optimize=True`) runs the same models with the same protocol; "
        "its time for a batch-b row is b × one serial run. "
        "Speed-up = Nengo's time ÷ neurogo's time for the same work.",
    ]
    out = header("Simulator speed beside Nengo", run, "sim.json", what)
    cmp = any(r.get("speedup") is not None for r in rows)
    head = ["model", "D", "batch", "neurogo µs/step", "build s"]
    al = "lrrrr"
    if cmp:
        head += ["Nengo µs/step", "Nengo build s", "speed-up vs Nengo"]
        al += "rrr"
    head += ["allocs/step", "roofline"]
    al += "rr"
    body = []
    for r in rows:
        half = (r.get("ci_high", 0) - r.get("ci_low", 0)) / 2 * r.get("simulated_s", 0) / max(r.get("steps", 1), 1) * 1e6
        line = [r["model"], str(r["dims"]), str(r["batch"]), f"{f(r.get('us_per_step'), 1)} ± {f(half, 1)}",
                f(r.get("build_s"))]
        if cmp:
            line += [f(r.get("nengo_us_per_step"), 1), f(r.get("nengo_build_s")), f"**{ratio(r.get('speedup'), 1)}**"]
        roof = f"{f(100 * r['roofline'], 0)} %" if r.get("copy_gbps") else "–"
        line += [g(r.get("allocs_per_step")), roof]
        body.append(line)
    out += ["## Results", ""] + table(head, body, al)
    if cmp:
        out += [""]
        for b in sorted({r["batch"] for r in rows}):
            sp = [r["speedup"] for r in rows if r["batch"] == b and r.get("speedup") is not None]
            out.append(f"- Batch {b}: {span(sp)} Nengo's speed (over {len(sp)} cells).")
    copy = p.get("copy_gbps")
    out += ["", f"Roofline: the bytes of weights and state a step touches ÷ the step time, as a fraction of the "
                f"copy bandwidth of one core measured in the same run ({f(copy)} GB/s, STREAM-like copy of 64 MiB, "
                "best of 10); above 100 % the step's data fit in the caches or batched lanes ran on several cores."]
    return "\n".join(out) + "\n"


def summary_sim(doc: dict[str, Any]) -> str:
    rows = sim_rows(doc)
    parts = []
    for b in sorted({r["batch"] for r in rows}):
        sp = [r["speedup"] for r in rows if r["batch"] == b and r.get("speedup") is not None]
        if sp:
            parts.append(f"{span(sp)} Nengo at batch {b}")
    if not parts:
        us = [r["us_per_step"] for r in rows]
        return f"simulator: {len(rows)} cells, {span(us)} µs/step (no peer)".replace("×", "")
    return "simulator: " + ", ".join(parts)


# --- nengo (the Nengo backend beside Nengo's reference simulator) ----------------

# what the Nengo backend is asked for: this speed-up per step and at most
# this build time ratio (neurogo ÷ Nengo)
NENGO_SPEEDUP_GOAL = 10.0
NENGO_BUILD_GOAL = 1.2


def nengo_meets(r: dict[str, Any]) -> tuple[bool, bool]:
    """(speed-up ≥ goal, build ratio ≤ goal) of one row of nengo.json."""
    sp, br = r.get("speedup"), r.get("build_ratio")
    ok_sp = isinstance(sp, (int, float)) and math.isfinite(sp) and sp >= NENGO_SPEEDUP_GOAL
    ok_br = isinstance(br, (int, float)) and math.isfinite(br) and br <= NENGO_BUILD_GOAL
    return ok_sp, ok_br


def cells_text(rows: list[dict[str, Any]]) -> str:
    """model D=…, … for a list of rows ("none" when empty)."""
    if not rows:
        return "none"
    return ", ".join(f"{r['model']} D={r['dims']}" for r in rows)


def render_nengo(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    p = run.get("protocol", {})
    rows = sim_rows(doc)
    rounds = p.get("rounds", 1)
    what = [
        "The Nengo backend (`nengo_neurogo.Simulator`, `python/nengo_neurogo`) beside Nengo's reference "
        "simulator (`nengo.Simulator`) on the four benchmark models of the NengoDL paper (\"NengoDL: "
        "Combining deep learning and neuromorphic modelling methods\", Daniel Rasmussen, 2019, §5.1): "
        f"{', '.join(p.get('models', []))} at D = {', '.join(map(str, p.get('dims', [])))} dimensions, "
        f"{p.get('neurons', 9984)} {p.get('neuron_type', 'RectifiedLinear')} neurons in total "
        f"({p.get('neurons', 9984)}/D per dimension), batch 1. Both sides build the same Python model with "
        "Nengo's builder; Nengo runs it with `optimize=True` (its operator merging), the backend hands the "
        "built signals and operators to neurogo's Go executor (`optimize=True`: neurogo's own optimiser) and "
        "runs in Python, as callbacks from the Go step, the operators it has no Go equivalent for.",
        "",
        f"Protocol: each side builds the model, simulates {num(p.get('warmup_s'))} s as warm-up and "
        f"{p.get('repeats')} × {num(p.get('seconds'))} s timed (dt {num(p.get('dt'))} s), in a fresh "
        f"process (`sim/bench/nengo_bench.py --simulator nengo|neurogo`). Each cell runs {rounds} "
        f"round{'s' if rounds != 1 else ''} of the two sides, their order alternating from round to round "
        "and cell to cell; each side's µs/step is that of its round with the median µs/step (the mean over "
        "the repeats ± the half-width of its 95 % Student t interval) and its build time the median over "
        "the rounds. The build time is the whole constructor: Nengo's build and, for the backend, the "
        "translation and the Go build. Speed-up = Nengo µs/step ÷ neurogo µs/step; build ratio = neurogo "
        "build ÷ Nengo build. Python ops: the operators the backend runs in Python.",
    ]
    out = header("The Nengo backend beside Nengo", run, "nengo.json", what)
    head = ["model", "D", "Nengo µs/step", "neurogo µs/step", "speed-up", "Nengo build s", "neurogo build s",
            "build ratio", "Python ops"]
    body = []
    for r in rows:
        body.append([r["model"], str(r["dims"]),
                     f"{f(r.get('nengo_us_per_step'), 1)} ± {f(r.get('nengo_ci_half_us'), 1)}",
                     f"{f(r.get('neurogo_us_per_step'), 1)} ± {f(r.get('neurogo_ci_half_us'), 1)}",
                     f"**{ratio(r.get('speedup'), 1)}**", f(r.get("nengo_build_s")), f(r.get("neurogo_build_s")),
                     f"**{f(r.get('build_ratio'))}**", str(r.get("python_ops", "–"))])
    out += ["## Results", ""] + table(head, body, "lrrrrrrrr")
    fast = [r for r in rows if nengo_meets(r)[0]]
    light = [r for r in rows if nengo_meets(r)[1]]
    both = [r for r in rows if all(nengo_meets(r))]
    n = len(rows)
    goal = f"≥ {num(NENGO_SPEEDUP_GOAL)}× Nengo's speed per step and a build ≤ {num(NENGO_BUILD_GOAL)}× Nengo's"
    out += ["", f"Goal: {goal}.", ""]
    if n:
        out += [f"- Speed-up ≥ {num(NENGO_SPEEDUP_GOAL)}×: {len(fast)} of {n} cells"
                + (f" (not: {cells_text([r for r in rows if r not in fast])})" if len(fast) < n else "") + ".",
                f"- Build ratio ≤ {num(NENGO_BUILD_GOAL)}: {len(light)} of {n} cells"
                + (f" (not: {cells_text([r for r in rows if r not in light])})" if len(light) < n else "") + ".",
                f"- Both: {len(both)} of {n} cells"
                + (" — every cell meets the goal." if len(both) == n else
                   f" ({cells_text(both)})." if both else "; no cell meets the goal.")]
    if any(r["model"] == "pes" for r in rows):
        out += ["", "pes and the length of a run: the learning rule filters the neuron activities "
                "(`pre_synapse`, Lowpass 5 ms); the filtered activity of every neuron that fell silent decays "
                "into the subnormal floating-point range after about 3.5 s of simulated time and stays there, "
                "and from then on Nengo's NumPy multiplies those values into the whole weight matrix in the "
                "CPU's slow microcode assists, several times slower per step. neurogo's filters flush such "
                "states to zero (`toolkit/synapses`, as TensorFlow and so NengoDL do with the CPU's "
                "flush-to-zero mode), so its step time does not change. A protocol whose timed repeats end "
                "before 3.5 s (the quick one) measures pes before the slow-down; the full one mostly after it."]
    py = [r for r in rows if r.get("python_ops")]
    if py:
        out += ["", "Operators run in Python (per cell: count × operator class: the backend's reason):", ""]
        for r in py:
            out.append(f"- {r['model']} D={r['dims']}: " + "; ".join(r.get("python_op_types") or ["?"]))
    else:
        out += ["", "Every operator of every cell ran in Go (no Python operators)."]
    if rows:
        out += ["", "Every round (µs/step; build s), for the record:", ""]
        rb = []
        for r in rows:
            rb.append([r["model"], str(r["dims"]),
                       ", ".join(f(x, 1) for x in r.get("nengo_rounds_us_per_step", [])),
                       ", ".join(f(x, 1) for x in r.get("neurogo_rounds_us_per_step", [])),
                       ", ".join(f(x) for x in r.get("nengo_rounds_build_s", [])),
                       ", ".join(f(x) for x in r.get("neurogo_rounds_build_s", []))])
        out += table(["model", "D", "Nengo µs/step", "neurogo µs/step", "Nengo build s", "neurogo build s"], rb,
                     "lrrrrr")
    return "\n".join(out) + "\n"


def summary_nengo(doc: dict[str, Any]) -> str:
    rows = sim_rows(doc)
    if not rows:
        return "Nengo backend: no cells"
    sp = [r.get("speedup") for r in rows]
    br = [r.get("build_ratio") for r in rows]
    both = sum(1 for r in rows if all(nengo_meets(r)))
    return (f"Nengo backend: {span(sp)} Nengo's speed per step, build {span(br, 2)} Nengo's; "
            f"{both} / {len(rows)} cells meet ≥ {num(NENGO_SPEEDUP_GOAL)}× and build ≤ {num(NENGO_BUILD_GOAL)}×")


# --- ablation ------------------------------------------------------------------

def render_ablation(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    p = run.get("protocol", {})
    rows = [r for r in doc.get("rows", []) if "ablation" in r]
    what = [
        "The graph optimizer's ablation (the NengoDL paper, Fig 8): an SPA-style stress model built with "
        f"the networks library ({p.get('model', '')}: {p.get('neurons', '?')} neurons in "
        f"{p.get('ensembles', '?')} ensembles), batch 1, built once per row with one optimizer pass "
        "switched off (or all, or none).",
        "",
        f"Protocol: {num(p.get('warmup_s'))} s warm-up, then {p.get('repeats')} × {num(p.get('seconds'))} s "
        "timed; build includes the optimizer. vs none / vs all = that row's time ÷ this row's time "
        "(above 1 is faster), all in the same run.",
    ]
    out = header("Graph optimizer ablation", run, "ablation.json", what)
    body = [[r["ablation"], f(r.get("build_s")), f(r.get("us_per_step"), 1), str(r.get("groups", "")),
             ratio(r.get("vs_none")), ratio(r.get("vs_all"))] for r in rows]
    out += ["## Results", ""] + table(["row", "build s", "µs/step", "groups", "vs none", "vs all"], body, "lrrrrr")
    return "\n".join(out) + "\n"


def summary_ablation(doc: dict[str, Any]) -> str:
    rows = {r["ablation"]: r for r in doc.get("rows", []) if "ablation" in r}
    a = rows.get("all")
    if a:
        return f"optimizer ablation: all passes {ratio(a.get('vs_none'), 1)} the speed of none"
    return "optimizer ablation"


# --- train ---------------------------------------------------------------------

def render_train(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    p = run.get("protocol", {})
    what = [
        "Training time of the spiking-MNIST network of the NengoDL paper (§5.2.1: three convolutions "
        "with SoftLIF rates, average pooling, a dense read-out; RMSProp lr 1e-3), neurogo beside PyTorch "
        f"on the CPU, on the same {p.get('examples', doc.get('examples'))} MNIST images in the same run "
        f"(minibatch {p.get('batch', doc.get('batch'))}, {p.get('epochs', doc.get('epochs'))} epoch(s), "
        f"{p.get('dtype', doc.get('torch_dtype', 'float32'))}, PyTorch on {p.get('torch_threads', 2)} threads).",
        "",
        f"Protocol: {p.get('timing', 'median over the epochs of the training loop wall time')}; "
        "reading the data and building the model are not timed. PyTorch's side is "
        "`train/bench/torch_mnist.py`.",
    ]
    out = header("Training time beside PyTorch", run, "train.json", what)
    body = [["neurogo", f(doc.get("seconds_per_epoch"), 1), f(doc.get("train_accuracy"), 3)]]
    if doc.get("torch_seconds_per_epoch") is not None:
        body.append([f"PyTorch {doc.get('torch_version', '')}", f(doc.get("torch_seconds_per_epoch"), 1), "–"])
    out += ["## Results", ""] + table(["trainer", "seconds per epoch", "training accuracy"], body, "lrr")
    if doc.get("ratio_vs_torch") is not None:
        out += ["", f"neurogo ÷ PyTorch time per epoch: **{ratio(doc['ratio_vs_torch'])}** (below 1: neurogo is faster)."]
    return "\n".join(out) + "\n"


def summary_train(doc: dict[str, Any]) -> str:
    r = doc.get("ratio_vs_torch")
    if r is None:
        return f"training: {f(doc.get('seconds_per_epoch'), 1)} s per epoch (no peer)"
    return f"training: {ratio(r)} PyTorch's time per epoch"


# --- builds --------------------------------------------------------------------

def build_line(name: str, cmd: str, m: dict[str, Any] | None) -> str:
    m = m or {}
    what = [f"inner loops: {m.get('kernels') or 'not recorded'}",
            f"BLAS: {(m.get('blas') or 'not recorded').replace('OpenBLAS OpenBLAS', 'OpenBLAS')}"]
    if m.get("cgo"):
        what.append(f"CGO_ENABLED={m['cgo']}")
    return f"- {name}: `{cmd}` ({'; '.join(what)})"


def render_builds(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    sim, tr, bl = doc.get("sim") or {}, doc.get("train") or {}, doc.get("blas") or {}
    b = doc.get("builds") or {}
    plain_m = (sim.get("run") or {}).get("machine")
    tuned_m = None
    for d in (sim, tr):
        bes = ((d.get("run") or {}).get("protocol") or {}).get("beside")
        if bes:
            tuned_m = bes
            break
    what = [
        "The same benches run by two builds of neurogo side by side in one run: a plain "
        "`CGO_ENABLED=0 go build` (what `go build` and `go install` give, with no C compiler and no "
        "OpenBLAS) beside the build with OpenBLAS. Each bench is started from the plain binary with "
        "`--beside` the other, which runs the same cells with the same protocol right before or after "
        "(alternating). Ratios are plain ÷ OpenBLAS build (above 1: the plain build is slower).",
        "",
        build_line("Plain build", b.get("plain", "CGO_ENABLED=0 go build ./cmd/neurogo"), plain_m),
        build_line("OpenBLAS build", b.get("tuned", "go build -tags openblas ./cmd/neurogo"), tuned_m),
    ]
    oc = doc.get("openblas_coretype")
    if oc:
        what += ["", f"OpenBLAS chose kernels for another CPU here (`{oc.get('chosen', '')}`: the library predates "
                     "this CPU model, and the OpenBLAS build then runs on neurogo's BLAS); the run sets "
                     "`OPENBLAS_CORETYPE=" + str(oc.get("forced")) + "` so that the plain build is compared with "
                     "OpenBLAS's AVX-512 kernels, its fastest on this CPU."]
    out = header("Plain go build beside the OpenBLAS build", run, "builds.json", what)
    rows = sim_rows(sim)
    if rows:
        p = (sim.get("run") or {}).get("protocol") or {}
        cmds = sim.get("commands") or [(sim.get("run") or {}).get("command", "")]
        out += ["## Simulator steps and model builds", "",
                f"{' and '.join(f'`{c}`' for c in cmds)}: the models of `neurogo bench sim` "
                f"({p.get('repeats')} × {num(p.get('seconds'))} s timed per cell, µs/step ± the half-width of "
                "the 95 % interval" + (f"; the step cells in {p['rounds']} rounds of the two builds, their order alternating, "
                                       "each side's median round shown" if (p.get("rounds") or 1) > 1 else "")
                + ").", ""]
        body = []
        for r in rows:
            be = r.get("beside") or {}
            half = (r.get("ci_high", 0) - r.get("ci_low", 0)) / 2 * r.get("simulated_s", 0) / max(r.get("steps", 1), 1) * 1e6
            body.append([r["model"], str(r["dims"]), str(r["batch"]),
                         f"{f(r.get('us_per_step'), 1)} ± {f(half, 1)}",
                         f"{f(be.get('us_per_step'), 1)} ± {f(be.get('ci_half_us'), 1)}",
                         f"**{f(be.get('step_ratio'))}**", f(r.get("build_s")), f(be.get("build_s")),
                         f"**{f(be.get('build_ratio'))}**"])
        out += table(["model", "D", "batch", "plain µs/step", "OpenBLAS build µs/step", "÷ step",
                      "plain build s", "OpenBLAS build s", "÷ build"], body, "lrrrrrrrr")
        st = [r["beside"]["step_ratio"] for r in rows if r.get("beside")]
        bu = [r["beside"]["build_ratio"] for r in rows if r.get("beside")]
        if st:
            out += ["", f"- Per step: the plain build takes {span(st, 2)} the OpenBLAS build's time "
                        f"(over {len(st)} rows; the worst {max(st):.2f})."]
        if bu:
            out += [f"- Model builds (decoder solves): {span(bu, 2)} the OpenBLAS build's time (the worst {max(bu):.2f})."]
        out.append("")
    if tr:
        out += ["## Training", "",
                f"`{(tr.get('run') or {}).get('command', '')}`: one epoch of the spiking-MNIST network "
                f"({tr.get('examples')} images, minibatch {tr.get('batch')}, {tr.get('torch_dtype', 'float32')}).", ""]
        body = [["plain build", f(tr.get("seconds_per_epoch"), 1)]]
        if tr.get("beside_seconds_per_epoch") is not None:
            body.append(["OpenBLAS build", f(tr.get("beside_seconds_per_epoch"), 1)])
        if tr.get("torch_seconds_per_epoch") is not None:
            body.append([f"PyTorch {tr.get('torch_version', '')}", f(tr.get("torch_seconds_per_epoch"), 1)])
        out += table(["trainer", "seconds per epoch"], body, "lr")
        out.append("")
        if tr.get("ratio_vs_beside") is not None:
            out.append(f"- Plain ÷ OpenBLAS build: **{ratio(tr['ratio_vs_beside'])}**.")
        if tr.get("ratio_vs_torch") is not None:
            out.append(f"- Plain build ÷ PyTorch: **{ratio(tr['ratio_vs_torch'])}**.")
        out.append("")
    brows = [r for r in bl.get("rows", []) if "op" in r]
    if brows:
        out += ["## Dense linear algebra", "",
                f"`{(bl.get('run') or {}).get('command', '')}` (run by the OpenBLAS build, which holds both "
                "implementations): GFLOP/s of neurogo's pure-Go BLAS (assembly micro-kernels) beside OpenBLAS "
                "at the shapes the decoder solves and the MNIST convolutions use.", ""]
        body = []
        for r in brows:
            body.append([str(r.get("op")), str(r.get("shape", "")), str(r.get("why", "")), f(r.get("neurogo_gflops"), 1),
                         f(r.get("peer_gflops"), 1), f"**{f(r.get('ratio'))}**"])
        peer = " ".join(str(brows[0].get("peer", "OpenBLAS")).split()[:2])  # name and version
        out += table(["routine", "shape", "used by", "neurogo GFLOP/s", f"{peer} GFLOP/s", "neurogo ÷ peer"], body, "lllrrr")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def summary_builds(doc: dict[str, Any]) -> str:
    rows = [r for r in sim_rows(doc.get("sim") or {}) if r.get("beside")]
    parts = []
    if rows:
        parts.append(f"plain go build {max(r['beside']['step_ratio'] for r in rows):.2f}× the OpenBLAS build's "
                     "step time at worst")
    tr = doc.get("train") or {}
    if tr.get("ratio_vs_torch") is not None:
        parts.append(f"trains in {ratio(tr['ratio_vs_torch'])} PyTorch's time")
    return "; ".join(parts) or "plain go build beside the OpenBLAS build"


# --- stream --------------------------------------------------------------------

def render_stream(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    p = run.get("protocol", {})
    rows = [r for r in doc.get("rows", []) if "agents" in r]
    cores = rows[0]["cores"] if rows else p.get("all_cores", "?")
    what = [
        "Frames per second of the two-path network of the statestream paper (\"statestream: a toolbox "
        "to explore layerwise-parallel deep neural networks\", Volker Fischer, 2018, Fig. 3a) at "
        f"{', '.join(map(str, p.get('agents', [])))} agents, executed layerwise-parallel (inference, and with "
        "its two loss plasticities as in training) and layerwise-sequential, on one core (GOMAXPROCS 1) "
        f"and on all {cores} cores, with MNIST images streamed in.",
        "",
        f"Protocol: each figure runs at least {num(p.get('min_seconds'))} s; the ratios compare rows measured "
        "in the same run.",
    ]
    out = header("Layerwise-parallel frame rate", run, "stream.json", what)
    body = [[str(r["agents"]), r["mode"], f(r["fps_one_core"], 1), f(r["fps_all_cores"], 1),
             ratio(r["parallel_speedup"])] for r in rows]
    out += ["## Results", ""] + table(["agents", "mode", "frames/s, 1 core", f"frames/s, {cores} cores",
                                       f"{cores} cores ÷ 1 core"], body, "llrrr")
    par = parallel_vs_sequential(rows)
    if par:
        out += ["", "Layerwise-parallel ÷ layerwise-sequential frame rate (all cores):", ""]
        out += table(["agents", "ratio"], [[str(a), ratio(v)] for a, v in par], "lr")
    return "\n".join(out) + "\n"


def parallel_vs_sequential(rows: list[dict[str, Any]]) -> list[tuple[int, float]]:
    by = {(r["agents"], r["mode"]): r for r in rows}
    out = []
    for a in sorted({r["agents"] for r in rows}):
        p, s = by.get((a, "parallel")), by.get((a, "sequential"))
        if p and s and s["fps_all_cores"] > 0:
            out.append((a, p["fps_all_cores"] / s["fps_all_cores"]))
    return out


def summary_stream(doc: dict[str, Any]) -> str:
    rows = [r for r in doc.get("rows", []) if "agents" in r]
    sp = [r["parallel_speedup"] for r in rows if r["mode"] == "parallel"]
    par = [v for _, v in parallel_vs_sequential(rows)]
    cores = rows[0]["cores"] if rows else "?"
    return (f"statestream frame rate: {span(sp, 2)} on {cores} cores vs 1 (parallel), "
            f"layerwise-parallel {span(par, 2)} sequential")


# --- accel ---------------------------------------------------------------------

MODE_NAMES = {"gemm_float32": "float32 GEMM (host)", "mock_partner": "pipeline, mock partner",
              "emulated": "pipeline, emulated chip"}


def render_accel(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    p = run.get("protocol", {})
    rows = [r for r in doc.get("rows", []) if r.get("sweep") in ("size", "batch")]
    summ = next((r for r in doc.get("rows", []) if r.get("sweep") == "summary"), {})
    what = [
        "Fig 8 of the BrainScaleS-2/hxtorch paper (\"hxtorch: PyTorch for BrainScaleS-2 — Perceptrons on "
        "Analog Neuromorphic Hardware\", Spilger et al., 2020) on the emulated analog system: "
        "multiply-accumulates per second against the square matrix size (batch "
        f"{p.get('size_batch', 2000)}, up to 2^{p.get('max_log2', '?')}) and against the batch (256², up to "
        f"2^{p.get('max_batch_log2', '?')}), for the host's float32 GEMM (the peer), the just-in-time pipeline "
        "with a mock communication partner (software overhead alone) and with the emulated chip computing "
        f"(up to 2^{p.get('emulated_max_log2', '?')}).",
        "",
        f"Protocol: every figure is the best of repeated runs lasting at least {num(p.get('min_seconds'))} s "
        "together; MAC/s include the static configuration; \"of GEMM\" divides by the float32 GEMM rate "
        "of the same shape measured in the same run.",
    ]
    out = header("Emulated analog accelerator: MAC rate", run, "accel.json", what)
    for sweep, title in (("size", "Against matrix size"), ("batch", "Against batch (256²)")):
        body = [[f"{r['rows']}²", str(r["batch"]), MODE_NAMES.get(r["mode"], r["mode"]), g(r["macs_per_second"]),
                 f(r["fraction_of_gemm"], 3)] for r in rows if r["sweep"] == sweep]
        if body:
            out += [f"## {title}", ""] + table(["matrix", "batch", "mode", "MAC/s", "of GEMM"], body, "rrlrr") + [""]
    if summ:
        out += ["## Summary", "",
                f"- Mock partner, matrices of at least one chip (256²): at least {f(summ.get('min_fraction_of_gemm_one_chip'), 3)} "
                "of the float32 GEMM rate.",
                f"- 256²: configuration volume equals data volume at batch {f(summ.get('model_crossover_batch'), 0)} "
                f"(cost model); measured pipeline time equals configuration time at batch "
                f"{f(summ.get('measured_crossover_batch'), 0)}.", ""]
    figs = doc.get("figures") or []
    if figs:
        out += ["## Figures", ""] + [f"![{x}](accel/{x})" for x in figs] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def summary_accel(doc: dict[str, Any]) -> str:
    summ = next((r for r in doc.get("rows", []) if r.get("sweep") == "summary"), {})
    return (f"analog accelerator: mock-partner pipeline ≥ {f(summ.get('min_fraction_of_gemm_one_chip'), 2)} "
            "of float32 GEMM from one chip's size")


# --- kernel --------------------------------------------------------------------

def render_kernel(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    c = doc.get("config", {})
    ok = [r for r in doc.get("results", []) if "error" not in r]
    what = [
        "Jupyter kernel latency, neurogo beside ipykernel (`python3`), through jupyter_client: "
        "start = `KernelManager.start_kernel()` to the first kernel_info_reply; reply = execute_request "
        "of the trivial cell `1` to its execute_reply; idle = to the status idle that follows "
        "(what a front end waits for).",
        "",
        f"Protocol: median and 90th percentile of {c.get('starts')} starts, and of {c.get('runs')} cells "
        f"after {c.get('warmup')} warm-ups on one kernel. Compiled cells: functions declared in a cell beside the "
        f"same source built by `go build`, best of {c.get('reps', 5)} runs in each of {c.get('rounds', 5)} rounds "
        "that alternate the two; and a 50-line cell using the toolkit, execute_request to execute_reply. "
        "The bench is `kernel/jupytertest/bench_kernel.py`.",
    ]
    out = header("Kernel latency beside ipykernel", run, "bench-kernel.json", what)
    body = [[r["kernel"], f"{f(r['start']['median_ms'], 1)} ms", f"{f(r['start']['p90_ms'], 1)} ms",
             f"{f(r['reply']['median_ms'])} ms", f"{f(r['reply']['p90_ms'])} ms",
             f"{f(r['idle']['median_ms'])} ms", f"{f(r['idle']['p90_ms'])} ms"] for r in ok]
    out += ["## Start and trivial cell", ""] + table(
        ["kernel", "start median", "start p90", "reply median", "reply p90", "idle median", "idle p90"], body, "lrrrrrr")
    for pair, v in sorted(doc.get("ratios", {}).items()):
        out += ["", f"{pair} (medians): start **{ratio(v['start_median'])}**, reply **{ratio(v['reply_median'])}**, "
                    f"idle **{ratio(v['idle_median'])}** (below 1: neurogo is faster)."]
    for r in doc.get("results", []):
        if "error" in r:
            out += ["", f"{r['kernel']}: failed: {r['error']}"]
    for cc in doc.get("compiled", []):
        if "error" in cc:
            out += ["", f"Compiled-cell measures of {cc['kernel']} failed: {cc['error']}"]
            continue
        body = [[k, f"{f(cc['declared_s'][k] * 1e3)} ms", f"{f(cc['go_build_s'][k] * 1e3)} ms", f"**{ratio(v)}**"]
                for k, v in cc["declared_ratio"].items()]
        rd = cc["ready"]
        out += ["", f"## Functions declared in a cell beside `go build` ({cc['kernel']})", ""]
        out += table(["workload", "cell", "go build", "cell ÷ go build"], body, "lrrr")
        out += ["", "A cell declaring a 50-line function that uses the toolkit (`TOOLKIT_CELL` in "
                    "bench_kernel.py), execute_request to execute_reply: "
                    f"median {f(rd['median_ms'], 0)} ms, min {f(rd['min_ms'], 0)} ms, max {f(rd['max_ms'], 0)} ms "
                    f"over {rd['n']} runs, each with a changed body (the kernel's first such cell, not counted, "
                    "may compile the toolkit for plugins)."]
    return "\n".join(out) + "\n"


def summary_kernel(doc: dict[str, Any]) -> str:
    v = next(iter(sorted(doc.get("ratios", {}).items())), None)
    if not v:
        return "kernel latency"
    pair, r = v
    return (f"kernel: start {ratio(r['start_median'])}, trivial cell {ratio(r['reply_median'])} ipykernel's time "
            f"({pair}, medians)")


# --- goroot corpus ---------------------------------------------------------------

def render_goroot(doc: dict[str, Any]) -> str:
    # goroot_corpus.py's own record (command, date, a one-line machine) when
    # scripts/measure has not added its run record
    run = doc.get("run") or {"command": doc.get("command"), "date": doc.get("date"), "machine": None}
    s = doc.get("summary", {})
    what = [
        "The Go distribution's own `// run` programs (GOROOT/test, test/ken, test/typeparam) as neurogo "
        "cells: each program is sent to a fresh kernel as one cell (the whole file), then `main()`; it "
        "passes when the stream text of both cells equals `go run`'s combined output exactly and neither "
        "cell replied with an error. Run by `scripts/goroot-corpus` (kernel/jupytertest/goroot_corpus.py).",
        "",
        f"Protocol: {doc.get('jobs', '?')} kernels at a time; wall time {f(doc.get('wall_seconds'), 0)} s; "
        f"per program mean {f(s.get('seconds_per_program_mean'))} s, median "
        f"{f(s.get('seconds_per_program_median'))} s (kernel start, both cells, shutdown).",
    ]
    out = header("The Go distribution's `// run` programs as neurogo cells", run, "goroot-corpus.json", what,
                 "The pass count does not depend on the machine; the times do.")
    if run.get("machine") is None and doc.get("machine"):
        i = out.index("- Machine: not recorded with these results")
        out[i:i + 1] = [f"- Machine: `{doc['machine']}`", f"- Go: {doc.get('go', 'not recorded')}"]
    runnable, passed = s.get("runnable", 0), s.get("passed", 0)
    pct = f"{100.0 * passed / runnable:.1f}%" if runnable else "n/a"
    out += [f"**{passed} / {runnable} passed ({pct})**"
            + ("" if s.get("run") == runnable else f" — only {s.get('run')} of them were run"), ""]
    out += table(["", "programs"], [
        ["candidates (`// run`)", str(s.get("candidates"))],
        ["excluded: build constraint", str(s.get("excluded_constraint"))],
        ["excluded: fails under go run", str(s.get("excluded_go_run_fails"))],
        ["pass under go run", str(runnable)],
        ["passed in the kernel", str(passed)],
        ["failed in the kernel", str(s.get("failed"))],
    ], "lr")
    out += ["", "## Failures by kind", ""]
    out += table(["kind", "count"], [[k, str(n)] for k, n in s.get("kinds", {}).items()], "lr")
    out += ["", "## Most common reasons", ""]
    out += table(["reason (positions, quoted text and numbers blurred)", "count"],
                 [[k.replace("|", "\\|"), str(n)] for k, n in list(s.get("reasons", {}).items())[:25]], "lr")
    out += ["", "## Failures", ""]
    res = doc.get("results", {})
    for rel in sorted(res):
        r = res[rel]
        if r.get("passed"):
            continue
        out.append(f"- `{rel}` — {r.get('reason', '').replace(chr(10), ' ')}")
        if r.get("diff"):
            out += ["", "  ```diff"] + ["  " + ln for ln in r["diff"].splitlines()] + ["  ```"]
    out += ["", "## Excluded", ""]
    out += [f"- `{k}` — {w}" for k, w in s.get("excluded", {}).items()]
    return "\n".join(out) + "\n"


def summary_goroot(doc: dict[str, Any]) -> str:
    s = doc.get("summary", {})
    return f"GOROOT `// run` programs as cells: {s.get('passed')} / {s.get('runnable')} pass ({f(s.get('percent'), 1)} %)"


# --- viz -----------------------------------------------------------------------

VIZ_NAMES = {"raster": "spike raster", "confusion": "confusion matrix"}


def kib(n: Any) -> str:
    return f(n / 1024, 0) if isinstance(n, (int, float)) else "–"


def render_viz(doc: dict[str, Any]) -> str:
    run = doc.get("run", {})
    p = run.get("protocol", {})
    ra, cm = p.get("raster", {}), p.get("confusion", {})
    css = p.get("css_px") or [640, 400]
    dpi = p.get("dpi", 144)
    rows = doc.get("results", [])
    peer = any(r.get("matplotlib") for r in rows)
    what = [
        "How long viz takes to draw two typical figures, beside matplotlib drawing the same figures from the "
        f"same data in the same run: a spike raster of {ra.get('neurons', '?')} neurons × {ra.get('steps', '?')} "
        f"steps (dt = {num(ra.get('dt'))} s, spikes drawn independently per step at ~{num(ra.get('rate_hz'))} Hz "
        f"from seed {ra.get('seed', '?')}, given as a dense [step][neuron] matrix) with `viz.Raster`, and a "
        f"{cm.get('classes', '?')}×{cm.get('classes', '?')} confusion matrix (fixed counts, annotated, with a "
        f"colour bar) with `viz.ConfusionMatrix`, both {css[0]}×{css[1]} CSS px rendered to PNG at {num(dpi)} dpi. "
        "matplotlib (Agg backend, `python/bench/viz_matplotlib.py`) draws the raster with `eventplot` (every spike "
        "a line, after turning the dense matrix into per-neuron spike times with `np.nonzero`, which is timed) "
        "and the confusion matrix with `imshow` + `colorbar` + one `text` per cell, in "
        f"`plt.subplots(figsize=({css[0]}/72, {css[1]}/72), dpi={num(dpi)}, layout=\"constrained\")`: the same "
        "physical size, resolution, titles, labels and font sizes, so both PNGs have the same pixel size "
        "(checked; the bench fails when they differ).",
        "",
        f"Protocol: the timed work is construction + render + PNG encode (matplotlib: `savefig(format=\"png\")` "
        f"into memory); one warm-up run of each figure on each side, then {p.get('repeat', '?')} timed runs, the "
        "two sides alternating run by run (which goes first alternates too), a garbage collection before each "
        "run not timed; each figure is the median of its runs. Ratio = matplotlib's median ÷ neurogo's median "
        "(above 1: neurogo is faster). The PNG sizes differ partly by compression level: viz encodes with "
        "`BestSpeed`, matplotlib with Pillow's default.",
    ]
    out = header("Rendering speed beside matplotlib", run, "viz.json", what)
    head = ["figure", "pixels", "neurogo ms", "neurogo PNG KiB"]
    al = "lrrr"
    if peer:
        head += ["matplotlib ms", "matplotlib PNG KiB", "matplotlib ÷ neurogo"]
        al += "rrr"
    body = []
    for r in rows:
        n, m = r.get("neurogo", {}), r.get("matplotlib") or {}
        line = [VIZ_NAMES.get(r.get("figure"), r.get("figure", "?")), f"{n.get('width')}×{n.get('height')}",
                f(n.get("median_ms"), 1), kib(n.get("png_bytes"))]
        if peer:
            line += [f(m.get("median_ms"), 1), kib(m.get("png_bytes")), f"**{ratio(r.get('ratio'), 1)}**"]
        body.append(line)
    out += ["## Results", ""] + table(head, body, al)
    for r in rows:
        m = r.get("matplotlib") or {}
        if m.get("convert_ms"):
            out += ["", f"Of matplotlib's {f(m.get('median_ms'), 1)} ms for the {VIZ_NAMES.get(r['figure'], r['figure'])}, "
                        f"{f(m['convert_ms'], 1)} ms (median) turn the dense matrix into spike times."]
    out += ["", "Each side's runs (ms), in order:", ""]
    for r in rows:
        name = VIZ_NAMES.get(r.get("figure"), r.get("figure", "?"))
        sides = [("neurogo", r.get("neurogo") or {})] + ([("matplotlib", r["matplotlib"])] if r.get("matplotlib") else [])
        for side, d in sides:
            out.append(f"- {name}, {side}: {', '.join(f(x, 1) for x in d.get('runs_ms', []))}")
    return "\n".join(out) + "\n"


def summary_viz(doc: dict[str, Any]) -> str:
    rows = doc.get("results", [])
    parts = [f"{VIZ_NAMES.get(r.get('figure'), r.get('figure'))} {ratio(r['ratio'], 1)}" for r in rows if r.get("ratio")]
    if not parts:
        ms = ", ".join(f"{VIZ_NAMES.get(r.get('figure'), r.get('figure'))} {f(r.get('neurogo', {}).get('median_ms'), 1)} ms"
                       for r in rows)
        return f"plots: {ms} (no peer)"
    return "plots: matplotlib takes " + ", ".join(parts) + " neurogo's time"


# --- reproductions ----------------------------------------------------------------

REPRO_TITLES = {
    "spa-memory": "SPA memory retrieval before and after training (the NengoDL paper, Fig. 9)",
    "spiking-mnist": "Spiking MNIST (the NengoDL paper, §5.2.1)",
    "statestream-2path": "Two-path layerwise-parallel network (the statestream paper, Fig. 3b)",
    "har-analog": "Human activity recognition on the emulated chip (the hxtorch paper, §4.2 / Fig. 9)",
}
REPRO_ORDER = ["spa-memory", "spiking-mnist", "statestream-2path", "har-analog"]


def scalars(d: Any, prefix: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """The scalar fields of a results.json (nested one level), in key order."""
    out: list[tuple[str, str]] = []
    if not isinstance(d, dict):
        return out
    for k in sorted(d):
        v = d[k]
        key = f"{prefix}{k}"
        if isinstance(v, bool):
            out.append((key, "true" if v else "false"))
        elif isinstance(v, int):
            out.append((key, str(v)))
        elif isinstance(v, float):
            out.append((key, g(v, 4)))
        elif isinstance(v, str) and len(v) <= 80:
            out.append((key, v))
        elif isinstance(v, dict) and depth < 1:
            out += scalars(v, key + ".", depth + 1)
        elif isinstance(v, list) and 0 < len(v) <= 16 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v):
            out.append((key, ", ".join(g(x, 4) if isinstance(x, float) else str(x) for x in v)))
    return out


def render_spa(res: dict[str, Any]) -> list[str]:
    npd = res.get("NeuronsPerDim", [])
    body = []
    for i, n in enumerate(npd):
        body.append([str(n), f"{f(res['BeforeMean'][i], 3)} [{f(res['BeforeLo'][i], 3)}, {f(res['BeforeHi'][i], 3)}]",
                     f"{f(res['AfterMean'][i], 3)} [{f(res['AfterLo'][i], 3)}, {f(res['AfterHi'][i], 3)}]"])
    o = res.get("Options", {})
    out = [f"Retrieval accuracy over {o.get('Seeds', '?')} seeds (mean and 95 % interval), D = {o.get('Dims', '?')}, "
           f"{o.get('Train', '?')} training and {o.get('Test', '?')} test examples, {o.get('Epochs', '?')} epochs:", ""]
    return out + table(["neurons per dimension", "before training", "after training"], body, "rrr")


def render_reproductions(docs: dict[str, dict[str, Any]]) -> str:
    out = ["# Reproductions of the papers' figures", "",
           "Each section: the command, the size it ran at, the machine, the date, the results the "
           "reproduction wrote (results.json) and its figures. Generated by `scripts/measure` from "
           "the JSON under `docs/measurements/reproductions/`.", ""]
    for name in [n for n in REPRO_ORDER if n in docs] + sorted(n for n in docs if n not in REPRO_ORDER):
        d = docs[name]
        run = d.get("run", {})
        out += [f"## {REPRO_TITLES.get(name, name)}", ""]
        out += [f"- Command: `{run.get('command') or 'not recorded'}`",
                f"- Size: {d.get('size', 'not recorded')}",
                f"- Date: {date_text(run.get('date', ''))}"]
        if d.get("wall_seconds") is not None:
            out.append(f"- Wall time: {f(d['wall_seconds'], 0)} s")
        out += machine_lines(run.get("machine"))
        out.append("")
        res = d.get("results", {})
        if name == "spa-memory" and "NeuronsPerDim" in res:
            out += render_spa(res)
        else:
            sc = scalars(res)
            if sc:
                out += table(["result", "value"], [[f"`{k}`", v] for k, v in sc], "lr")
        for fig in d.get("figures", []):
            out += ["", f"![{name}: {fig}](reproductions/{name}/{fig})"]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


# --- index -------------------------------------------------------------------------

PAGES = [  # (name, page, title)
    ("sim", "sim.md", "Simulator speed beside Nengo"),
    ("nengo", "nengo.md", "The Nengo backend beside Nengo"),
    ("ablation", "ablation.md", "Graph optimizer ablation"),
    ("train", "train.md", "Training time beside PyTorch"),
    ("builds", "builds.md", "Plain go build beside the OpenBLAS build"),
    ("stream", "stream.md", "Layerwise-parallel frame rate"),
    ("accel", "accel.md", "Emulated analog accelerator: MAC rate"),
    ("viz", "viz.md", "Rendering speed beside matplotlib"),
    ("kernel", "bench-kernel.md", "Kernel latency beside ipykernel"),
    ("goroot-corpus", "goroot-corpus.md", "GOROOT `// run` programs as cells"),
]

RENDER: dict[str, Callable[[dict[str, Any]], str]] = {
    "sim": render_sim, "nengo": render_nengo, "ablation": render_ablation, "train": render_train, "builds": render_builds,
    "stream": render_stream,
    "accel": render_accel, "kernel": render_kernel, "goroot-corpus": render_goroot, "viz": render_viz,
}
SUMMARY: dict[str, Callable[[dict[str, Any]], str]] = {
    "sim": summary_sim, "nengo": summary_nengo, "ablation": summary_ablation, "train": summary_train, "builds": summary_builds,
    "stream": summary_stream,
    "accel": summary_accel, "kernel": summary_kernel, "goroot-corpus": summary_goroot, "viz": summary_viz,
}


def render(name: str, doc: dict[str, Any]) -> str:
    if name not in RENDER:
        raise KeyError(f"no renderer for {name!r}: want one of {', '.join(RENDER)}")
    return RENDER[name](doc)


def summary(name: str, doc: dict[str, Any]) -> str:
    return SUMMARY[name](doc)


def render_index(docs: dict[str, dict[str, Any]], repros: dict[str, dict[str, Any]]) -> str:
    out = ["# Measurements", "",
           "Every figure here comes from one run of a bench or a reproduction, stored as JSON beside its page "
           "with the command, the date and a description of the machine, and rendered by `scripts/measure` "
           "(`scripts/measure --render-only` re-renders every page from the stored JSON; "
           "`scripts/measure --check-rendered` checks that the pages match it). " + NOISE, ""]
    for name, page, title in PAGES:
        if name in docs:
            d = docs[name]
            run = d.get("run") or {"date": d.get("date", "")}
            mode = ", quick mode" if run.get("quick") else ""
            out.append(f"- [{title}]({page}): {summary(name, d)} ({date_text(run.get('date', ''))[:10]}{mode})")
    if repros:
        names = [n for n in REPRO_ORDER if n in repros] + sorted(n for n in repros if n not in REPRO_ORDER)
        out.append(f"- [Reproductions of the papers' figures](reproductions.md): {', '.join(names)}")
    b = docs.get("binder")
    if b is not None:  # generated by binder/check, not by scripts/measure
        nbs = b.get("notebooks") or []
        ok = sum(1 for n in nbs if isinstance(n, dict) and n.get("ok", n.get("passed")) is True)
        what = f"{ok} / {len(nbs)} notebooks pass" if nbs else "notebooks"
        out.append(f"- [Binder: notebooks at their default parameters](binder.md): {what} through the Binder "
                   f"environment (`{b.get('command', 'binder/check')}`, {str(b.get('date', ''))[:10]})")
    return "\n".join(out) + "\n"
