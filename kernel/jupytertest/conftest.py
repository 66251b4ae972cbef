"""pytest configuration for the neurogo Jupyter protocol tests.

These tests build nothing. The caller (the project's test script) must have
built the kernel and installed its kernelspec somewhere on JUPYTER_PATH, and
runs them with the Python of the venv .cache/venv (scripts/start and
scripts/test install the pinned packages of requirements.txt there):

    cd <repo>
    go build -o bin/neurogo ./cmd/neurogo
    TMP=$(mktemp -d)
    bin/neurogo install --prefix "$TMP"
    JUPYTER_PATH="$TMP/share/jupyter" .cache/venv/bin/python -m pytest kernel/jupytertest -q

Environment:
  NEUROGO_TEST_TIMEOUT       bound of one wait for a reply/output (s, default 30)
  NEUROGO_TEST_HARD_TIMEOUT  bound of one whole test phase (s, default 300);
                             a test may ask for more with @pytest.mark.timeout(N)
  NEUROGO_FUZZ_N             malformed messages per socket in the fuzz test (200)
  NEUROGO_FUZZ_SEED          base seed of the fuzz test (20240601)
  NEUROGO_REQUIRE_E2E        set to 1 to make the JupyterLab test fail, not skip,
                             when Chromium or the e2e node_modules are missing
  NEUROGO_ARTIFACTS          where the e2e screenshot goes (<repo>/artifacts)
"""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ktools import KERNEL_NAME, flush, start_kernel, stop_kernel  # noqa: E402

HARD_TIMEOUT = float(os.environ.get("NEUROGO_TEST_HARD_TIMEOUT", "300"))
REPO_ROOT = Path(__file__).resolve().parents[2]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "timeout(seconds): hard bound of each phase of this test")
    config.addinivalue_line("markers", "fuzz: malformed-message fuzzing (scale with NEUROGO_FUZZ_N)")
    config.addinivalue_line("markers", "e2e: end-to-end test in JupyterLab with headless Chromium")


# --- a hard per-test bound, so that nothing can hang forever ---------------

class HardTimeout(Exception):
    pass


def _phase_limit(item: pytest.Item) -> float:
    m = item.get_closest_marker("timeout")
    if m and m.args:
        return float(m.args[0])
    return HARD_TIMEOUT


def _with_alarm(item: pytest.Item, phase: str):
    if not hasattr(signal, "SIGALRM"):
        return None
    limit = _phase_limit(item)

    def on_alarm(signum: int, frame: Any) -> None:
        raise HardTimeout(f"{item.nodeid}: {phase} took longer than {limit:.0f}s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    return old


def _clear_alarm(old: Any) -> None:
    if old is None:
        return
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    old = _with_alarm(item, "setup")
    try:
        return (yield)
    finally:
        _clear_alarm(old)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    old = _with_alarm(item, "call")
    try:
        return (yield)
    finally:
        _clear_alarm(old)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: Any):
    old = _with_alarm(item, "teardown")
    try:
        return (yield)
    finally:
        _clear_alarm(old)


# --- the kernelspec ---------------------------------------------------------

def find_kernelspec() -> Any:
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        return KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    except NoSuchKernel:
        return None


_HOWTO = (
    "kernelspec {name!r} not found on JUPYTER_PATH={path!r}. Build and install it first:\n"
    "  go build -o bin/neurogo ./cmd/neurogo && bin/neurogo install --prefix $TMP\n"
    "  export JUPYTER_PATH=$TMP/share/jupyter"
)


@pytest.fixture(scope="session", autouse=True)
def neurogo_kernelspec() -> Any:
    """The installed neurogo kernelspec (the session fails without it)."""
    spec = find_kernelspec()
    if spec is None:
        pytest.fail(_HOWTO.format(name=KERNEL_NAME, path=os.environ.get("JUPYTER_PATH", "")), pytrace=False)
    exe = spec.argv[0]
    if not os.path.isabs(exe) or not os.access(exe, os.X_OK):
        pytest.fail(f"kernelspec {spec.resource_dir}: argv[0] {exe!r} is not an executable absolute path", pytrace=False)
    return spec


# --- kernels ------------------------------------------------------------------

class KernelBox:
    """A kernel shared by the tests of a module; restarted if a test killed it."""

    def __init__(self) -> None:
        self.km, self.kc = start_kernel()
        self.restarts = 0

    def ensure(self) -> tuple[Any, Any]:
        if not self.km.is_alive():
            stop_kernel(self.km, self.kc)
            self.km, self.kc = start_kernel()
            self.restarts += 1
        flush(self.kc)
        return self.km, self.kc

    def close(self) -> None:
        stop_kernel(self.km, self.kc)


@pytest.fixture(scope="module")
def _shared_box() -> Iterator[KernelBox]:
    box = KernelBox()
    yield box
    box.close()


@pytest.fixture
def shared(_shared_box: KernelBox) -> tuple[Any, Any]:
    """(KernelManager, BlockingKernelClient) of a kernel shared by the
    module's tests; state persists between tests, so use unique names."""
    return _shared_box.ensure()


@pytest.fixture
def kc(shared: tuple[Any, Any]) -> Any:
    """The blocking client of the shared kernel."""
    return shared[1]


@pytest.fixture
def fresh() -> Iterator[tuple[Any, Any]]:
    """(KernelManager, BlockingKernelClient) of a new kernel for this test only."""
    km, client = start_kernel()
    try:
        yield km, client
    finally:
        stop_kernel(km, client)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT

