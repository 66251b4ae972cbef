"""Report of an operator census (the JSON lines written by ``census``).

Usage: ``python -m nengo_neurogo.tools.summarize census.jsonl [more ...]``
prints Markdown tables: test outcomes, how many tests sim/ir can run
natively, with a Python callback or not at all (and why), every operator
with its mode, how operators' signals sit in their bases, and probes.
"""

import json
import sys
from collections import Counter, defaultdict


def load(paths):
    recs = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            recs.extend(json.loads(line) for line in f if line.strip())
    return recs


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def pct(a, b):
    return f"{100.0 * a / b:.1f} %" if b else "–"


def main(paths):
    recs = load(paths)
    ran = [r for r in recs if r["outcome"] not in ("skipped",)]
    sim = [r for r in recs if r["sim_fixture"]]
    sim_ran = [r for r in sim if r["outcome"] != "skipped"]
    print("## Outcomes\n")
    outcomes = ["passed", "failed", "error", "skipped", "xfailed", "xpassed"]
    rows = []
    for name, rs in (("all tests", recs), ("tests with the Simulator fixture", sim)):
        c = Counter(r["outcome"] for r in rs)
        rows.append([name, len(rs)] + [c.get(o, 0) for o in outcomes])
    print(table(["set", "total"] + outcomes, rows))

    print("\n## What sim/ir can run\n")
    print(
        "native: every operator, neuron type and process has an sim/ir/toolkit "
        "equivalent; callback: the same, plus SimPyFunc (a Python function "
        "called each step); unsupported: at least one operator, neuron type "
        "or process without an equivalent; no_build: builds no model.\n"
    )
    cats = ["native", "callback", "unsupported", "no_build"]
    rows = []
    for name, rs in (
        ("all tests", recs),
        ("all tests, not skipped", ran),
        ("Simulator-fixture tests", sim),
        ("Simulator-fixture tests, not skipped", sim_ran),
    ):
        c = Counter(r["category"] for r in rs)
        rows.append(
            [name, len(rs)] + [f"{c.get(k, 0)} ({pct(c.get(k, 0), len(rs))})" for k in cats]
        )
    print(table(["set", "tests"] + cats, rows))

    print("\n## Why a test is unsupported (Simulator-fixture tests, not skipped)\n")
    reasons = Counter()
    for r in sim_ran:
        for k in r["reasons"]:
            reasons[k] += 1
    only = Counter()
    for r in sim_ran:
        if len(r["reasons"]) == 1:
            only[next(iter(r["reasons"]))] += 1
    print(
        table(
            ["missing", "tests", "tests where it is the only missing piece"],
            [[k, v, only.get(k, 0)] for k, v in reasons.most_common()],
        )
    )

    print("\n## Operators as the builder adds them (all tests, before merging)\n")
    inst, tests = Counter(), Counter()
    for r in recs:
        for k, v in r["ops"].items():
            inst[k] += v
            tests[k] += 1
    print(
        table(
            ["operator [mode]", "instances", "tests"],
            [[k, inst[k], tests[k]] for k in sorted(inst, key=lambda k: (-tests[k], k))],
        )
    )

    print("\n## Operators by the worst layout among their signals (all tests)\n")
    print(
        "whole: every signal is a whole base; reshape: whole base in another "
        "shape; slice: a contiguous part at an offset; list: Copy with a "
        "fancy index list; strided: a non-contiguous view (step slice, "
        "transposed, column).\n"
    )
    lays = ["whole", "reshape", "sparse", "slice", "list", "strided"]
    byop = defaultdict(Counter)
    for r in recs:
        for k, v in r["op_views"].items():
            cls, lay = k.split("|")
            byop[cls][lay] += v
    rows = []
    for cls in sorted(byop, key=lambda c: -sum(byop[c].values())):
        tot = sum(byop[cls].values())
        rows.append([cls, tot] + [byop[cls].get(lay, 0) for lay in lays])
    tot = Counter()
    for c in byop.values():
        tot.update(c)
    rows.append(["**all**", sum(tot.values())] + [tot.get(lay, 0) for lay in lays])
    print(table(["operator", "instances"] + lays, rows))

    print("\n## Signal uses by role and layout (all tests)\n")
    uses = defaultdict(Counter)
    for r in recs:
        for k, v in r["layouts"].items():
            cls, role, lay = k.split("|")
            uses[role][lay] += v
    print(
        table(
            ["role", "total"] + lays,
            [[role, sum(c.values())] + [c.get(lay, 0) for lay in lays] for role, c in uses.items()],
        )
    )
    strided = Counter()
    for r in recs:
        for k, v in r["layouts"].items():
            cls, role, lay = k.split("|")
            if lay == "strided":
                strided[f"{cls} {role}"] += v
    print("\nStrided signal uses by operator and role:\n")
    print(table(["operator role", "uses"], strided.most_common()))
    tests_strided = sum(1 for r in sim_ran if any(k.endswith("|strided") for k in r["op_views"]))
    tests_view = sum(
        1
        for r in sim_ran
        if any(not k.endswith("|whole") for k in r["op_views"])
    )
    print(
        f"\nSimulator-fixture tests (not skipped) with at least one operator on a "
        f"view: {tests_view} of {len(sim_ran)}; on a strided view: {tests_strided}."
    )

    print("\n## Ordering with views replaced by their bases\n")
    print(
        "Per test, the builder's operators ordered by neurogo's rule with "
        "every view replaced by its base (per base: setters, incrementers, "
        "readers, updaters).\n"
    )
    bl = [r["base_level"] for r in recs if r.get("base_level") and r["n_ops"]]
    rows = [
        ["tests that build", len(bl)],
        ["with a dependency cycle", sum(1 for b in bl if b.get("cycle"))],
        ["with a base set by more than one operator", sum(1 for b in bl if b.get("multi_set"))],
        ["with a base updated by more than one operator", sum(1 for b in bl if b.get("multi_update"))],
        ["with an operator reading a base it writes", sum(1 for b in bl if b.get("self_rw"))],
        ["census errors", sum(1 for b in bl if "error" in b)],
    ]
    print(table(["tests", "count"], rows))
    bad = [r["nodeid"] for r in recs if r.get("base_level", {}).get("cycle")]
    if bad:
        print("\nTests with a cycle: " + ", ".join(f"`{n}`" for n in bad[:20]))

    print("\n## Probes (all tests)\n")
    probes, ptests = Counter(), Counter()
    for r in recs:
        for k, v in r["probes"].items():
            probes[k] += v
            ptests[k] += 1
    print(
        table(
            ["probe", "instances", "tests"],
            [[k, probes[k], ptests[k]] for k in sorted(probes, key=lambda k: -ptests[k])],
        )
    )

    print("\n## Model sizes (tests that build)\n")
    built = sorted(r["n_ops"] for r in recs if r["n_ops"])
    merged = sorted(r.get("n_ops_merged", 0) for r in recs if r["n_ops"])
    if built:
        med = built[len(built) // 2]
        print(
            f"operators per test: median {med}, max {built[-1]}, total {sum(built)}; "
            f"after Nengo's merging: median {merged[len(merged) // 2]}, total {sum(merged)}; "
            f"models built: {sum(r['models'] for r in recs)}."
        )
    slow = sorted(recs, key=lambda r: -r["seconds"])[:10]
    print("\nSlowest tests on the reference simulator:\n")
    print(table(["test", "s", "outcome"], [[r["nodeid"], r["seconds"], r["outcome"]] for r in slow]))
    print(f"\nSum of per-test times: {sum(r['seconds'] for r in recs):.0f} s.")


if __name__ == "__main__":
    main(sys.argv[1:])
