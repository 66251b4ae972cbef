"""The pinned sample of the Go distribution's `// run` programs, each sent to
a fresh neurogo kernel as one cell (the whole file), then `main()`: the
stream text of both cells must equal what `go run` prints, and neither cell
may reply with an error. See goroot_corpus.py (the full corpus and the
rules) and goroot_sample.txt (how the sample was chosen).

Not in scripts/test or .ci/run yet: on the interpreter-based cell path many
of these fail; the kernel owner wires this in with the compiled cell path.

    JUPYTER_PATH=$TMP/share/jupyter python3 -m pytest kernel/jupytertest/test_goroot_sample.py -q
"""
from __future__ import annotations

import pytest

import goroot_corpus as gc

SAMPLE = gc.read_sample(gc.SAMPLE_FILE)

# start + two cells of CELL_TIMEOUT each + shutdown, with room to spare
PHASE_LIMIT = 2 * gc.CELL_TIMEOUT + gc.START_TIMEOUT + 60


@pytest.fixture(scope="module")
def goroot():
    return gc.goroot()


def test_sample_is_pinned_and_large_enough(goroot):
    cands = set(gc.candidates(goroot))
    missing = [r for r in SAMPLE if r not in cands]
    assert not missing, f"sample entries that are not `// run` candidates of {goroot}: {missing}"
    assert len(SAMPLE) >= 60
    assert len(set(SAMPLE)) == len(SAMPLE), "duplicates in goroot_sample.txt"
    for sub in gc.SUBDIRS:
        assert any(r.rsplit("/", 1)[0] == sub for r in SAMPLE), f"nothing from {sub}"


@pytest.mark.timeout(PHASE_LIMIT)
@pytest.mark.parametrize("rel", [pytest.param(r, id=r) for r in SAMPLE])
def test_goroot_program(rel, goroot):
    ref = gc.reference(rel, goroot)
    assert ref["excluded"] is None, f"{rel} no longer passes under go run: {ref['excluded']}: {ref['why']}"
    run = gc.kernel_run(rel, str(goroot))
    res = gc.judge(ref, run)
    msg = res.reason + (("\n" + res.diff) if res.diff else "")
    assert res.passed, f"{rel}: {msg}"
