"""End-to-end: the neurogo kernel in JupyterLab 4, driven in headless
Chromium by run_e2e.mjs (playwright-core).

The test starts `jupyter lab` on a free loopback port with a random token
and JUPYTER_PATH pointing at the installed neurogo kernelspec, writes a
two-cell notebook (a print and a PNG shown with the display package), opens
it in Lab, runs all cells from the Run menu, waits for both outputs, checks
the printed text and a data:image/png <img>, and saves a screenshot to
$NEUROGO_ARTIFACTS/jupyterlab-e2e.png (default <repo>/artifacts).

A second test (drag_slider.mjs) runs a live explorer (notebook.Explore, a
1000-neuron communication channel) in Lab, drags its slider with the mouse,
waits for the plot to change, checks that the model's decoded value followed
the slider, and keeps screenshots of the page and of the plot
(jupyterlab-explorer-drag.png, jupyterlab-explorer-plot.png) and the frame
rate the page saw (jupyterlab-explorer.json).

A third test (fit_progress.mjs) trains a small model with
notebook.NewProgress in a freshly started kernel and checks that Lab draws
the progress as widgets — the bar moving while training runs, a label per
finished epoch and the loss plot — not the HTML fallback; and, with Lab's
widget manager disabled, that the HTML fallback bar is drawn and updated
instead (screenshots jupyterlab-fit-progress-widgets.png and -html.png).

Requirements: JupyterLab in the Python that runs pytest (it starts
`sys.executable -m jupyterlab`; scripts/test runs the venv .cache/venv),
Chromium (NEUROGO_CHROMIUM, default /usr/bin/chromium), node, and `npm ci`
run in this directory. Without them the test is skipped with
the reason, unless NEUROGO_REQUIRE_E2E is set (then it fails).
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
CHROMIUM = os.environ.get("NEUROGO_CHROMIUM", "/usr/bin/chromium")
NODE = shutil.which("node")
ARTIFACTS = Path(os.environ.get("NEUROGO_ARTIFACTS") or REPO / "artifacts")
SERVER_START_TIMEOUT = 90
NODE_TIMEOUT = 420

EXPECT_TEXT = "hello from neurogo"

CELL_HELLO = 'import "fmt"; fmt.Println("hello from neurogo")'

CELL_PNG = '''import (
	"bytes"
	"image"
	"image/color"
	"image/png"

	"github.com/neurogo/neurogo/display"
)

img := image.NewRGBA(image.Rect(0, 0, 160, 100))
for x := 0; x < 160; x++ {
	for y := 0; y < 100; y++ {
		img.Set(x, y, color.RGBA{uint8(x * 255 / 160), uint8(y * 255 / 100), 160, 255})
	}
}
var buf bytes.Buffer
if err := png.Encode(&buf, img); err != nil {
	panic(err)
}
_ = display.Display(display.PNG(buf.Bytes()))'''


def missing_requirements() -> list[str]:
    missing = []
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        missing.append(f"Chromium not found at {CHROMIUM} (set NEUROGO_CHROMIUM)")
    if NODE is None:
        missing.append("node is not on PATH")
    if not (HERE / "node_modules" / "playwright-core" / "package.json").is_file():
        missing.append(f"{HERE / 'node_modules'} has no playwright-core (run `npm ci` in {HERE})")
    return missing


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url: str, timeout: float = 5) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 (loopback only)
        return r.status, r.read()


def http_delete(url: str, timeout: float = 10) -> None:
    req = urllib.request.Request(url, method="DELETE")
    with urllib.request.urlopen(req, timeout=timeout):  # noqa: S310
        pass


def write_notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "neurogo", "display_name": "Go (neurogo)", "language": "go"}
    nb.metadata["language_info"] = {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}
    nb.cells = [nbformat.v4.new_code_cell(CELL_HELLO), nbformat.v4.new_code_cell(CELL_PNG)]
    nbformat.write(nb, str(path))


def check_requirements() -> None:
    """Skip (or, with NEUROGO_REQUIRE_E2E set, fail) without Chromium or
    the e2e node_modules. Called in the test body so that a missing
    requirement is a test failure, not a setup error."""
    missing = missing_requirements()
    if missing:
        reason = "JupyterLab e2e needs: " + "; ".join(missing)
        if os.environ.get("NEUROGO_REQUIRE_E2E"):
            pytest.fail(reason + " (NEUROGO_REQUIRE_E2E is set)", pytrace=False)
        pytest.skip(reason)


@contextlib.contextmanager
def lab_server(tmp_path: Path, neurogo_kernelspec, disabled_extensions: tuple[str, ...] = ()):
    """A JupyterLab server on a free loopback port, with the Lab extensions
    named in disabled_extensions disabled (as `jupyter labextension disable`
    does); yields (url, token, root, log_tail)."""
    root = tmp_path / "notebooks"
    root.mkdir()
    for d in ("config", "runtime", "lab-settings", "lab-workspaces", "data"):
        (tmp_path / d).mkdir()
    if disabled_extensions:
        (tmp_path / "config" / "labconfig").mkdir()
        (tmp_path / "config" / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": {name: True for name in disabled_extensions}}))
    port = free_port()
    token = secrets.token_hex(16)
    # share/jupyter of the installed kernelspec (…/share/jupyter/kernels/neurogo)
    spec_root = Path(neurogo_kernelspec.resource_dir).parents[1]
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in [str(spec_root), os.environ.get("JUPYTER_PATH", "")] if p)
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "config")
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp_path / "lab-settings")
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp_path / "lab-workspaces")
    env["JUPYTER_DATA_DIR"] = str(tmp_path / "data")
    cmd = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--port", str(port),
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.token={token}",
        "--notebook-dir", str(root),
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=None",
    ]
    log_path = tmp_path / "jupyter-lab.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=str(root), start_new_session=True)
    url = f"http://127.0.0.1:{port}"

    def log_tail() -> str:
        log.flush()
        return log_path.read_text(errors="replace")[-6000:]

    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {proc.returncode}:\n{log_tail()}", pytrace=False)
            try:
                status, _ = http_get(f"{url}/api/status?token={token}", timeout=2)
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not answer within {SERVER_START_TIMEOUT}s:\n{log_tail()}", pytrace=False)
            time.sleep(0.5)
        yield url, token, root, log_tail
    finally:
        # shut the kernels down through the API, then the server
        try:
            _, body = http_get(f"{url}/api/kernels?token={token}", timeout=5)
            for k in json.loads(body):
                http_delete(f"{url}/api/kernels/{k['id']}?token={token}")
        except Exception:
            pass
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        log.close()


@pytest.mark.e2e
@pytest.mark.timeout(600)
def run_script(name: str, env: dict, log_tail) -> tuple:
    """Runs the playwright script name with env and returns the process and
    the JSON result it prints last; fails the test (with the server's log)
    when it times out or prints none."""
    try:
        p = subprocess.run([NODE, str(HERE / name)], cwd=str(HERE), env=env,
                           capture_output=True, text=True, timeout=NODE_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{name} did not finish within {NODE_TIMEOUT}s; stderr:\n{e.stderr}\nserver log:\n{log_tail()}")
    lines = [ln for ln in p.stdout.splitlines() if ln.strip()]
    try:
        return p, json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        pytest.fail(f"{name} printed no result (exit {p.returncode}):\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}\nserver log:\n{log_tail()}")


def test_jupyterlab_runs_neurogo_notebook(tmp_path, neurogo_kernelspec):
    check_requirements()
    with lab_server(tmp_path, neurogo_kernelspec) as (url, token, root, log_tail):
        run_notebook_in_lab(url, token, root, log_tail, neurogo_kernelspec)


def run_notebook_in_lab(url, token, root, log_tail, neurogo_kernelspec):
    nb_name = "neurogo-e2e.ipynb"
    write_notebook(root / nb_name)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "jupyterlab-e2e.png"
    if shot.exists():
        shot.unlink()
    env = dict(os.environ)
    env.update(
        E2E_URL=url,
        E2E_TOKEN=token,
        E2E_NOTEBOOK=nb_name,
        E2E_SCREENSHOT=str(shot),
        E2E_EXPECT_TEXT=EXPECT_TEXT,
        E2E_TIMEOUT_MS="120000",
        E2E_CHROMIUM=CHROMIUM,
        E2E_KERNEL_DISPLAY_NAME=neurogo_kernelspec.display_name,
    )
    p, res = run_script("run_e2e.mjs", env, log_tail)
    context = (
        f"\nsteps: {res.get('steps')}\nerrors: {res.get('errors')}\nbrowser console errors: {res.get('console')}"
        f"\ntexts: {res.get('texts')}\nimages: {res.get('images')}\nserver log:\n{log_tail()}"
    )
    assert p.returncode == 0 and res["ok"], "JupyterLab e2e failed" + context
    assert EXPECT_TEXT in res["texts"][0], context
    assert res.get("kernelName") == neurogo_kernelspec.display_name, (
        f"notebook toolbar shows kernel {res.get('kernelName')!r}, not {neurogo_kernelspec.display_name!r}" + context
    )
    pngs = [im for im in res["images"] if im["srcPrefix"].startswith("data:image/png")]
    assert pngs, "no <img> with a data:image/png src in the output area" + context
    assert pngs[0]["natural"] == [160, 100], f"unexpected image size {pngs[0]['natural']}" + context
    assert shot.is_file() and shot.stat().st_size > 1000, f"screenshot {shot} missing or empty"
    with open(shot, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


# --- a live explorer: drag a slider, the plot and the model follow ----------

CELL_EXPLORER = '''import (
	"github.com/neurogo/neurogo/notebook"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/widgets"
)

net := toolkit.New("channel", 1)
stim := notebook.NewSlider("stimulus", 0, -1, 1)
in := net.Node("stimulus", 1, stim.Output)
a := net.Ensemble("a", 500, 1)
b := net.Ensemble("b", 500, 1)
net.Connect(in, a)
net.Connect(a, b)
spikes := net.Probe("a spikes", a.Neurons(), toolkit.AttrSpikes)
pb := net.Probe("b", b, "")
pb.Synapse = synapses.Lowpass{Tau: 0.01}
ex, err := notebook.Explore(net, notebook.ExploreOptions{
	Controls: []widgets.Widget{stim}, Raster: spikes, Plots: []*toolkit.Probe{pb}, Duration: 300})
if err != nil {
	panic(err)
}
ex'''

CELL_PROBE = '''import "fmt"

ex.Wait(0.3)
fmt.Printf("slider=%.3f decoded=%.3f frontend=%v\\n", stim.Value(), ex.Last(pb)[0], widgets.FrontEnd())'''


@pytest.mark.e2e
@pytest.mark.timeout(600)
def test_jupyterlab_drag_slider_changes_plot(tmp_path, neurogo_kernelspec):
    """A 1000-neuron explorer in JupyterLab: dragging its slider with the
    mouse moves the slider, the plot keeps changing, and the decoded value
    follows the slider. Screenshots of the page and of the plot after the
    drag are kept in $NEUROGO_ARTIFACTS (jupyterlab-explorer-drag.png,
    jupyterlab-explorer-plot.png), and the frame rate seen by the page in
    jupyterlab-explorer.json."""
    check_requirements()
    with lab_server(tmp_path, neurogo_kernelspec) as (url, token, root, log_tail):
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "neurogo", "display_name": "Go (neurogo)", "language": "go"}
        nb.metadata["language_info"] = {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}
        nb.cells = [nbformat.v4.new_code_cell(CELL_EXPLORER), nbformat.v4.new_code_cell(CELL_PROBE)]
        nb_name = "neurogo-explorer.ipynb"
        nbformat.write(nb, str(root / nb_name))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / "jupyterlab-explorer-drag.png"
        plot = ARTIFACTS / "jupyterlab-explorer-plot.png"
        for f in (shot, plot):
            if f.exists():
                f.unlink()
        env = dict(os.environ)
        env.update(
            E2E_URL=url, E2E_TOKEN=token, E2E_NOTEBOOK=nb_name, E2E_SCREENSHOT=str(shot),
            E2E_PLOT_SCREENSHOT=str(plot), E2E_TIMEOUT_MS="120000", E2E_CHROMIUM=CHROMIUM,
            E2E_KERNEL_DISPLAY_NAME=neurogo_kernelspec.display_name,
        )
        p, res = run_script("drag_slider.mjs", env, log_tail)
        (ARTIFACTS / "jupyterlab-explorer.json").write_text(json.dumps(
            {k: res.get(k) for k in ("labFrames", "labFPS", "before", "after", "readoutBefore", "readoutAfter")}) + "\n")
        context = (f"\nsteps: {res.get('steps')}\nerrors: {res.get('errors')}\nbrowser console errors: {res.get('console')}"
                   f"\nbefore: {res.get('before')} after: {res.get('after')}\nserver log:\n{log_tail()}")
        assert p.returncode == 0 and res["ok"], "JupyterLab explorer e2e failed" + context
        assert res["labFrames"] > 0, "no frames reached the page" + context
        for f in (shot, plot):
            assert f.is_file() and f.stat().st_size > 1000, f"screenshot {f} missing or empty"


# --- training progress as widgets in a freshly started kernel -------------

FIT_EPOCHS = 6

CELL_FIT = '''import (
	"time"

	"github.com/neurogo/neurogo/notebook"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

net := toolkit.New("square", 1)
x := net.Const("x", 0)
a := net.Ensemble("a", 50, 1)
net.Connect(x, a).Synapse = nil
p := net.Probe("p", a, "")
m, err := train.New(net)
if err != nil {
	panic(err)
}
if err := m.Compile(train.Config{Optimizer: &optim.Adam{}, Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}}); err != nil {
	panic(err)
}
xs, _ := train.ArrayFromRows([][]float64{{0.1}, {0.5}, {-0.3}, {0.9}, {-0.7}, {0.2}}, 1)
ys, _ := train.ArrayFromRows([][]float64{{0.01}, {0.25}, {0.09}, {0.81}, {0.49}, {0.04}}, 1)
slow := train.CallbackFuncs{BatchEnd: func(*train.Model, int, int, train.Logs) error {
	time.Sleep(250 * time.Millisecond) // long enough to watch the bar move
	return nil
}}
_, err = m.Fit(map[*toolkit.Node]*train.Array{x: xs}, map[*toolkit.Probe]*train.Array{p: ys},
	train.FitOptions{Epochs: %d, BatchSize: 2, Callbacks: []train.Callback{notebook.NewProgress(nil), slow}})
if err != nil {
	panic(err)
}''' % FIT_EPOCHS


@pytest.mark.e2e
@pytest.mark.timeout(600)
@pytest.mark.parametrize("mode", ["widgets", "html"])
def test_jupyterlab_fit_progress(tmp_path, neurogo_kernelspec, mode):
    """Training in a kernel JupyterLab has just started.

    widgets: the progress is drawn as widgets (Lab's widget manager renders
    the widget view of the display), the bar moves while training runs and
    ends full and green, every finished epoch has its label, the loss plot
    is an Image widget, and the HTML fallback bar is not drawn.

    html: Lab runs with its widget manager (@jupyter-widgets/jupyterlab-manager)
    disabled, so it closes the widgets' comms; the display falls back to the
    HTML bar, which moves through the epochs while training runs and ends
    at the last epoch, full; no widget is drawn.

    Kept in $NEUROGO_ARTIFACTS: a screenshot of the cell's outputs
    (jupyterlab-fit-progress-MODE.png) and what the page saw
    (jupyterlab-fit-progress-MODE.json)."""
    check_requirements()
    disabled = ("@jupyter-widgets/jupyterlab-manager",) if mode == "html" else ()
    with lab_server(tmp_path, neurogo_kernelspec, disabled) as (url, token, root, log_tail):
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "neurogo", "display_name": "Go (neurogo)", "language": "go"}
        nb.metadata["language_info"] = {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}
        nb.cells = [nbformat.v4.new_code_cell(CELL_FIT)]
        nb_name = "neurogo-fit.ipynb"
        nbformat.write(nb, str(root / nb_name))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / f"jupyterlab-fit-progress-{mode}.png"
        if shot.exists():
            shot.unlink()
        env = dict(os.environ)
        env.update(
            E2E_URL=url, E2E_TOKEN=token, E2E_NOTEBOOK=nb_name, E2E_SCREENSHOT=str(shot),
            E2E_TIMEOUT_MS="120000", E2E_CHROMIUM=CHROMIUM, E2E_EPOCHS=str(FIT_EPOCHS), E2E_MODE=mode,
            E2E_KERNEL_DISPLAY_NAME=neurogo_kernelspec.display_name,
        )
        p, res = run_script("fit_progress.mjs", env, log_tail)
        (ARTIFACTS / f"jupyterlab-fit-progress-{mode}.json").write_text(json.dumps(
            {k: res.get(k) for k in ("widths", "labels", "htmlBars", "lossImage", "htmlSamples", "htmlText", "widgetBars")})
            + "\n")
        context = (f"\nsteps: {res.get('steps')}\nerrors: {res.get('errors')}\nbrowser console errors: {res.get('console')}"
                   f"\nbar widths: {res.get('widths')}\nlabels: {res.get('labels')}\nHTML bars: {res.get('htmlBars')}"
                   f"\nloss image: {res.get('lossImage')}\nHTML samples: {res.get('htmlSamples')}"
                   f"\nwidget bars: {res.get('widgetBars')}\nserver log:\n{log_tail()}")
        assert p.returncode == 0 and res["ok"], f"JupyterLab training progress ({mode}) e2e failed" + context
        if mode == "widgets":
            finished = [lbl for lbl in res["labels"] if re.match(rf"Epoch \d+/{FIT_EPOCHS} 3/3 \[=+\] .* loss: ", lbl)]
            assert len(finished) == FIT_EPOCHS, f"{len(finished)} finished epochs' labels" + context
        else:
            for e in range(1, FIT_EPOCHS + 1):
                assert f"Epoch {e}/{FIT_EPOCHS}" in res["htmlText"], f"epoch {e} missing from the HTML bar" + context
        assert shot.is_file() and shot.stat().st_size > 1000, f"screenshot {shot} missing or empty"
