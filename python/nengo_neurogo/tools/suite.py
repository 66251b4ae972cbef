"""Run Nengo's test suite against nengo_neurogo and against Nengo's
reference simulator, and compare.

    python -m tools.suite OUT_DIR [--workers N] [--no-reference]

(run from python/nengo_neurogo with the python of .cache/nengo-bench-venv;
scripts/nengo-suite does that). Both runs are ``pytest --pyargs nengo``
from the same directory, so every test has the same node id, and with it
the same seed from pytest-rng, in both. Writes OUT_DIR/neurogo.xml and
OUT_DIR/reference.xml (JUnit), OUT_DIR/summary.json and OUT_DIR/summary.md,
prints the summary, and exits 1 when a test that passes on the reference
simulator fails on neurogo without being listed in nengo_test_unsupported,
or when fewer than 95 % of the tests that pass on the reference pass on
neurogo.
"""

import argparse
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SUITE = HERE / "suite"
TARGET = 0.95


def run(ini, xml, workers, stats=None):
    cmd = [
        sys.executable, "-m", "pytest", "--pyargs", "nengo", "-c", str(SUITE / ini),
        "-p", "no:cacheprovider", "-q", "-rN", "--junitxml", str(xml),
        "-o", "junit_family=xunit1",
    ]
    if workers > 1:
        cmd += ["-n", str(workers)]
    env = dict(os.environ, MPLBACKEND="Agg")
    if stats is not None:
        stats.unlink(missing_ok=True)
        env["NENGO_NEUROGO_STATS"] = str(stats)
    t0 = time.time()
    print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
    r = subprocess.run(cmd, cwd=SUITE, env=env, check=False)
    # pytest: 0 all passed, 1 some failed; anything else is a broken run
    if r.returncode not in (0, 1):
        sys.exit(f"pytest ({ini}) stopped with exit code {r.returncode}")
    return time.time() - t0


def outcomes(xml):
    """test id -> (outcome, message) from a JUnit file."""
    out = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        cls, name = case.get("classname", ""), case.get("name", "")
        key = f"{cls}::{name}"
        outcome, msg = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, msg = "failed", (child.get("message") or "")[:300]
                break
            if child.tag == "skipped":
                outcome, msg = "skipped", (child.get("message") or "")[:300]
        out[key] = (outcome, msg)
    return out


def operator_stats(path):
    """Where the operators of every build ran (the backend's stats lines)."""
    st = {"builds": 0, "go": 0, "python": 0, "builds_all_go": 0, "python_by_reason": []}
    if not path.exists():
        return st
    reasons = {}
    for line in path.read_text().splitlines():
        b = json.loads(line)
        st["builds"] += 1
        st["go"] += sum(b["go"].values())
        npy = sum(b["python"].values())
        st["python"] += npy
        st["builds_all_go"] += npy == 0
        for r, n in b["python"].items():
            if ": a Python function (" in r:  # one line for every Node function
                r = r[: r.index(" (")]
            reasons[r] = reasons.get(r, 0) + n
    st["python_by_reason"] = sorted(((r, n) for r, n in reasons.items()), key=lambda x: -x[1])
    st["python_by_reason"] = [(n, r) for r, n in st["python_by_reason"]]
    return st


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-reference", action="store_true",
                    help="skip the reference run (no comparison; counts of the neurogo run only)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    ng_xml, ref_xml = args.out / "neurogo.xml", args.out / "reference.xml"
    stats_file = args.out / "operators.jsonl"
    t_ng = run("neurogo.ini", ng_xml, args.workers, stats_file)
    ng = outcomes(ng_xml)
    t_ref = None
    ref = {}
    if not args.no_reference:
        t_ref = run("reference.ini", ref_xml, args.workers)
        ref = outcomes(ref_xml)

    count = lambda d, o: sum(1 for v in d.values() if v[0] == o)  # noqa: E731
    summary = {
        "selected": len(ng),
        "neurogo": {o: count(ng, o) for o in ("passed", "failed", "skipped")},
        "seconds": {"neurogo": round(t_ng, 1)},
    }
    failures, unsupported, missing = [], [], []
    if ref:
        summary["seconds"]["reference"] = round(t_ref, 1)
        passing_ref = [k for k in ng if ref.get(k, ("missing",))[0] == "passed"]
        missing = [k for k in ng if k not in ref]
        both = [k for k in passing_ref if ng[k][0] == "passed"]
        summary["reference_passed"] = len(passing_ref)
        summary["both_passed"] = len(both)
        summary["fraction"] = len(both) / len(passing_ref) if passing_ref else 0.0
        summary["reference_failed_or_skipped"] = {
            k: ref[k] for k in ng if k in ref and ref[k][0] != "passed"
        }
        for k in passing_ref:
            if ng[k][0] == "failed":
                failures.append((k, ng[k][1]))
            elif ng[k][0] == "skipped":
                unsupported.append((k, ng[k][1]))
    else:
        failures = [(k, v[1]) for k, v in ng.items() if v[0] == "failed"]
    summary["failures"] = failures
    summary["skipped_on_neurogo_only"] = unsupported
    summary["missing_in_reference"] = missing
    summary["operators"] = operator_stats(stats_file)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")

    lines = [
        f"Nengo's test suite (pytest --pyargs nengo, the Simulator-fixture tests pytest_nengo selects "
        f"for a backend): {summary['selected']} tests.",
        f"neurogo: {summary['neurogo']['passed']} passed, {summary['neurogo']['failed']} failed, "
        f"{summary['neurogo']['skipped']} skipped ({t_ng:.0f} s).",
    ]
    if ref:
        lines.append(
            f"Of the {summary['reference_passed']} that pass on Nengo's reference simulator "
            f"({t_ref:.0f} s for the whole suite), {summary['both_passed']} pass on neurogo: "
            f"{100 * summary['fraction']:.1f} % (target {100 * TARGET:.0f} %)."
        )
        if unsupported:
            lines.append(f"Listed as unsupported (skipped on neurogo, pass on the reference): {len(unsupported)}")
            lines += [f"  - {k}: {m}" for k, m in unsupported]
    if failures:
        lines.append(f"FAILED on neurogo ({len(failures)}):")
        lines += [f"  - {k}: {m}" for k, m in failures]
    st = summary["operators"]
    if st["builds"]:
        lines.append(
            f"Operators: {st['builds']} builds, {st['go']} operators in Go, {st['python']} in Python "
            f"({100 * st['go'] / max(st['go'] + st['python'], 1):.1f} % in Go); "
            f"{st['builds_all_go']} builds ran wholly in Go. Operators run in Python, by reason:"
        )
        lines += [f"  - {n} × {r}" for r, n in st["python_by_reason"]]
    text = "\n".join(lines)
    (args.out / "summary.md").write_text(text + "\n")
    print(text)
    if failures or (ref and summary["fraction"] < TARGET):
        sys.exit(1)


if __name__ == "__main__":
    main()
