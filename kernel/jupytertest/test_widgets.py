"""Jupyter widgets through a real client (jupyter_client): the comm
protocol and the widget message protocol (version 2.1) as the front end's
widget manager speaks it.

Each test plays the front end: it reads the comm_open messages a displayed
widget sends, then sends comm_msg updates, custom messages and comm_open
requests as JupyterLab's widget manager does, and checks the kernel's
answers (echo_update, callbacks' output, corrective updates, comm_close).
"""
from __future__ import annotations

import json
import os
import queue
import time
from pathlib import Path
from typing import Any

import pytest

from ktools import collect_iopub, describe, get_reply, of_type, result_data, run_ok, stream_text, strip_ansi

VIEW = "application/vnd.jupyter.widget-view+json"


def need_widgets(kc: Any) -> None:
    if getattr(kc, "_ng_widgets", False):
        return
    run_ok(kc, 'import (\n\t"fmt"\n\t"time"\n\t"github.com/neurogo/neurogo/widgets"\n)')
    kc._ng_widgets = True


def opens(outputs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """comm_open messages by comm id."""
    return {m["content"]["comm_id"]: m for m in of_type(outputs, "comm_open")}


def show(kc: Any, code: str) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """Run a cell whose value is a widget; return its model id, its state
    and the cell's iopub messages."""
    _, outputs = run_ok(kc, code)
    data = result_data(outputs)
    assert data and VIEW in data, f"no widget view in the result: {data}"
    assert "text/plain" in data
    mid = data[VIEW]["model_id"]
    o = opens(outputs)
    assert mid in o, f"widget {mid} shown without comm_open: {list(o)}"
    return mid, o[mid]["content"]["data"]["state"], outputs


def comm_msg(kc: Any, comm_id: str, data: dict[str, Any]) -> str:
    msg = kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
    kc.shell_channel.send(msg)
    return msg["header"]["msg_id"]


def update(kc: Any, comm_id: str, state: dict[str, Any]) -> str:
    return comm_msg(kc, comm_id, {"method": "update", "state": state, "buffer_paths": []})


def comm_msgs(outputs: list[dict[str, Any]], comm_id: str, method: str) -> list[dict[str, Any]]:
    return [m for m in of_type(outputs, "comm_msg")
            if m["content"]["comm_id"] == comm_id and m["content"]["data"].get("method") == method]


def test_display_opens_comms_with_full_state(kc: Any) -> None:
    need_widgets(kc)
    mid, state, outputs = show(kc, 'widgets.NewFloatSlider("gain", 0.5, 0, 2, 0.1)')
    o = opens(outputs)
    msg = o[mid]
    assert msg["content"]["target_name"] == "jupyter.widget"
    assert msg["metadata"].get("version") == "2.1.0"
    assert state["_model_name"] == "FloatSliderModel" and state["_view_name"] == "FloatSliderView"
    assert state["_model_module"] == "@jupyter-widgets/controls" and state["_model_module_version"] == "2.0.0"
    assert state["value"] == 0.5 and state["max"] == 2 and state["description"] == "gain"
    for key in ("layout", "style"):
        ref = state[key]
        assert ref.startswith("IPY_MODEL_") and ref[len("IPY_MODEL_"):] in o, f"{key} {ref} not opened"
    style = o[state["style"][len("IPY_MODEL_"):]]["content"]["data"]["state"]
    assert style["_model_name"] == "SliderStyleModel"
    # comm_open precedes the result that shows the widget.
    types = [m["msg_type"] for m in outputs]
    assert types.index("comm_open") < types.index("execute_result")


def test_comm_info_lists_open_widgets(kc: Any) -> None:
    need_widgets(kc)
    mid, _, _ = show(kc, 'widgets.NewCheckbox("on", true)')
    reply = get_reply(kc, kc.comm_info(target_name="jupyter.widget"))
    assert reply["msg_type"] == "comm_info_reply", reply
    comms = reply["content"]["comms"]
    assert comms.get(mid) == {"target_name": "jupyter.widget"}, comms
    reply = get_reply(kc, kc.comm_info(target_name="no.such.target"))
    assert reply["content"]["comms"] == {}


def test_update_from_front_end_runs_callback_and_echoes(kc: Any) -> None:
    need_widgets(kc)
    mid, _, _ = show(kc, 'wgN := widgets.NewIntSlider("n", 1, 0, 10, 1)\n'
                         'wgN.Observe(func(v int) { fmt.Println("observed", v) })\nwgN')
    msg_id = update(kc, mid, {"value": 7})
    outputs = collect_iopub(kc, msg_id)
    echoes = comm_msgs(outputs, mid, "echo_update")
    assert echoes and echoes[0]["content"]["data"]["state"] == {"value": 7}, describe({}, outputs)
    assert echoes[0]["parent_header"]["msg_id"] == msg_id
    assert "observed 7" in stream_text(outputs), describe({}, outputs)
    _, outs = run_ok(kc, "fmt.Println(wgN.Value())")
    assert stream_text(outs) == "7\n"


def test_set_value_from_go_updates_front_end(kc: Any) -> None:
    need_widgets(kc)
    mid, _, _ = show(kc, 'wgP := widgets.NewProgress(0, 10)\nwgP')
    _, outputs = run_ok(kc, "go func() { wgP.SetValue(4) }()\ntime.Sleep(200 * time.Millisecond)")
    ups = comm_msgs(outputs, mid, "update")
    assert ups and ups[-1]["content"]["data"]["state"] == {"value": 4}, describe({}, outputs)


def test_malformed_update_is_refused(kc: Any) -> None:
    need_widgets(kc)
    mid, _, _ = show(kc, 'wgM := widgets.NewFloatSlider("m", 3, 0, 10, 1)\n'
                         'wgM.Observe(func(v float64) { fmt.Println("observed", v) })\nwgM')
    for bad in ({"value": "abc"}, {"value": 5, "no_such_attr": 1}, {"max": 1000}):
        msg_id = update(kc, mid, bad)
        outputs = collect_iopub(kc, msg_id)
        assert "observed" not in stream_text(outputs), describe({}, outputs)
        assert not comm_msgs(outputs, mid, "echo_update")
        back = comm_msgs(outputs, mid, "update")
        assert back and back[0]["content"]["data"]["state"].get("value", 3) == 3, describe({}, outputs)
    msg_id = comm_msg(kc, mid, {"no": "method"})
    collect_iopub(kc, msg_id)
    _, outs = run_ok(kc, "fmt.Println(wgM.Value())")
    assert stream_text(outs) == "3\n"


def test_panicking_callback_keeps_the_kernel(kc: Any) -> None:
    need_widgets(kc)
    mid, _, _ = show(kc, 'wgB := widgets.NewButton("boom")\n'
                         'wgB.OnClick(func() { var m map[string]int; m["x"] = 1 })\nwgB')
    msg_id = comm_msg(kc, mid, {"method": "custom", "content": {"event": "click"}})
    outputs = collect_iopub(kc, msg_id)
    err = strip_ansi(stream_text(outputs, "stderr"))
    assert "OnClick callback of ButtonModel panicked" in err and "nil map" in err, describe({}, outputs)
    _, outs = run_ok(kc, 'fmt.Println("alive")')
    assert stream_text(outs) == "alive\n"


def test_interact_shows_error_in_its_output(kc: Any) -> None:
    need_widgets(kc)
    _, outputs = run_ok(kc, 'wgX := widgets.NewIntSlider("x", 1, 0, 5, 1)\n'
                            'widgets.Interact(func(x int) int { return 10 / (x - 2) }, wgX)')
    mid = [m["content"]["comm_id"] for m in of_type(outputs, "comm_open")
           if m["content"]["data"]["state"]["_model_name"] == "IntSliderModel"][-1]
    outid = [m["content"]["comm_id"] for m in of_type(outputs, "comm_open")
             if m["content"]["data"]["state"]["_model_name"] == "OutputModel"][-1]
    msg_id = update(kc, mid, {"value": 2})
    outs = collect_iopub(kc, msg_id)
    shown = [m["content"]["data"]["state"]["outputs"] for m in comm_msgs(outs, outid, "update")]
    assert any("integer divide by zero" in str(o) for o in shown), describe({}, outs)
    run_ok(kc, 'fmt.Println("alive")')


def test_callbacks_run_while_a_cell_runs(kc: Any) -> None:
    need_widgets(kc)
    mid, _, _ = show(kc, 'wgL := widgets.NewIntSlider("l", 0, 0, 10, 1)\nwgL')
    cell = kc.execute('deadline := time.Now().Add(20 * time.Second)\n'
                      'for wgL.Value() != 9 && time.Now().Before(deadline) { time.Sleep(20 * time.Millisecond) }\n'
                      'fmt.Println("saw", wgL.Value())')
    time.sleep(1.0)
    update(kc, mid, {"value": 9})
    outputs = collect_iopub(kc, cell, timeout=40)
    assert "saw 9" in stream_text(outputs), describe({}, outputs)


def test_unknown_target_is_closed_with_reason(kc: Any) -> None:
    msg = kc.session.msg("comm_open", {"comm_id": "c-unknown-1", "target_name": "no.such.target", "data": {}})
    kc.shell_channel.send(msg)
    outputs = collect_iopub(kc, msg["header"]["msg_id"])
    closes = of_type(outputs, "comm_close")
    assert closes and closes[0]["content"]["comm_id"] == "c-unknown-1", describe({}, outputs)
    assert "no.such.target" in closes[0]["content"]["data"]["reason"]
    # A widget model opened by the front end is refused too.
    msg = kc.session.msg("comm_open", {"comm_id": "c-front-1", "target_name": "jupyter.widget", "data": {"state": {}}})
    kc.shell_channel.send(msg)
    outputs = collect_iopub(kc, msg["header"]["msg_id"])
    closes = of_type(outputs, "comm_close")
    assert closes and "reason" in closes[0]["content"]["data"], describe({}, outputs)


def test_control_comm_serves_all_states(kc: Any) -> None:
    need_widgets(kc)
    mid, _, _ = show(kc, 'widgets.NewText("t", "hello")')
    msg = kc.session.msg("comm_open", {"comm_id": "ctl-1", "target_name": "jupyter.widget.control", "data": {}})
    kc.shell_channel.send(msg)
    outputs = collect_iopub(kc, msg["header"]["msg_id"])
    assert not of_type(outputs, "comm_close"), describe({}, outputs)
    msg_id = comm_msg(kc, "ctl-1", {"method": "request_states"})
    outputs = collect_iopub(kc, msg_id)
    states = comm_msgs(outputs, "ctl-1", "update_states")
    assert states, describe({}, outputs)
    assert states[0]["content"]["data"]["states"][mid]["value"] == "hello"


def test_image_value_is_a_binary_buffer(kc: Any) -> None:
    need_widgets(kc)
    mid, state, outputs = show(kc, 'wgI := widgets.NewImage()\nwgI')
    assert "value" not in state
    assert opens(outputs)[mid]["content"]["data"]["buffer_paths"] == [["value"]]
    _, outputs = run_ok(kc, 'wgI.SetPNG([]byte("\\x89PNG fake"))')
    ups = comm_msgs(outputs, mid, "update")
    assert ups, describe({}, outputs)
    m = ups[-1]
    assert m["content"]["data"]["buffer_paths"] == [["value"]]
    assert bytes(m["buffers"][0]) == b"\x89PNG fake"


def test_executor_death_closes_widget_comms(fresh: tuple[Any, Any]) -> None:
    _, kc = fresh
    need_widgets(kc)
    mid, _, _ = show(kc, 'widgets.NewIntSlider("doomed", 1, 0, 5, 1)')
    msg_id = kc.execute("func deep(n int) int { return deep(n+1) + 1 }\ndeep(0)")
    outputs = collect_iopub(kc, msg_id, timeout=60)
    closed = {m["content"]["comm_id"] for m in of_type(outputs, "comm_close")}
    assert mid in closed, describe({}, outputs)
    reply = get_reply(kc, kc.comm_info(target_name="jupyter.widget"))
    assert reply["content"]["comms"] == {}, reply["content"]


# --- the live explorer (notebook.Explore) --------------------------------------

EXPLORER_IMPORTS = '''import (
\t"fmt"
\t"github.com/neurogo/neurogo/notebook"
\t"github.com/neurogo/neurogo/toolkit"
\t"github.com/neurogo/neurogo/toolkit/synapses"
\t"github.com/neurogo/neurogo/widgets"
)'''

# A communication channel of 1000 LIF neurons (two ensembles of 500) with a
# slider on its input, a raster of a's spikes and b's decoded value.
EXPLORER_CELL = '''xNet := toolkit.New("channel", 1)
xStim := notebook.NewSlider("stimulus", 0, -1, 1)
xIn := xNet.Node("stimulus", 1, xStim.Output)
xA := xNet.Ensemble("a", 500, 1)
xB := xNet.Ensemble("b", 500, 1)
xNet.Connect(xIn, xA)
xNet.Connect(xA, xB)
xSpikes := xNet.Probe("a spikes", xA.Neurons(), toolkit.AttrSpikes)
xPB := xNet.Probe("b", xB, "")
xPB.Synapse = synapses.Lowpass{Tau: 0.01}
xEx, err := notebook.Explore(xNet, notebook.ExploreOptions{
\tControls: []widgets.Widget{xStim}, Raster: xSpikes, Plots: []*toolkit.Probe{xPB}})
if err != nil {
\tpanic(err)
}
xEx'''

FPS_SECONDS = float(os.environ.get("NEUROGO_EXPLORER_SECONDS", "5"))
MIN_FPS = float(os.environ.get("NEUROGO_EXPLORER_MIN_FPS", "10"))


def image_frames(kc: Any, image_id: str, seconds: float) -> tuple[int, int]:
    """Count the image updates (comm_msg with a PNG buffer) of comm
    image_id read on iopub during seconds; return (frames, bytes)."""
    frames = nbytes = 0
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            msg = kc.get_iopub_msg(timeout=left)
        except queue.Empty:
            break
        c = msg["content"]
        if msg["msg_type"] == "comm_msg" and c.get("comm_id") == image_id and msg.get("buffers"):
            buf = bytes(msg["buffers"][0])
            assert buf[:8] == b"\x89PNG\r\n\x1a\n", buf[:16]
            frames += 1
            nbytes += len(buf)
    return frames, nbytes


@pytest.mark.timeout(300)
def test_explorer_frame_rate_and_interrupt(fresh: tuple[Any, Any]) -> None:
    """A 1000-neuron explorer delivers ≥ 10 frames per second to a real
    client as image comm_msg updates, its decoded value follows a slider
    moved by the front end, and an interrupt stops it."""
    km, kc = fresh
    run_ok(kc, EXPLORER_IMPORTS, timeout=120)
    _, outputs = run_ok(kc, EXPLORER_CELL, timeout=120)
    models = {m["content"]["data"]["state"]["_model_name"]: m["content"]["comm_id"] for m in of_type(outputs, "comm_open")}
    assert "ImageModel" in models and "FloatSliderModel" in models, describe({}, outputs)
    image, slider = models["ImageModel"], models["FloatSliderModel"]
    image_frames(kc, image, 1.0)  # the first second: the simulation settles
    frames, nbytes = image_frames(kc, image, FPS_SECONDS)
    fps = frames / FPS_SECONDS
    report = {"seconds": FPS_SECONDS, "frames": frames, "fps": round(fps, 2),
              "mean_png_bytes": round(nbytes / max(frames, 1)), "neurons": 1000}
    artifacts = Path(os.environ.get("NEUROGO_ARTIFACTS") or Path(__file__).resolve().parents[2] / "artifacts")
    artifacts.mkdir(parents=True, exist_ok=True)
    (artifacts / "explorer-fps.json").write_text(json.dumps(report) + "\n")
    print(f"explorer: {frames} frames in {FPS_SECONDS:g} s = {fps:.1f} frames/s, "
          f"{report['mean_png_bytes']} bytes per PNG")
    assert fps >= MIN_FPS, report

    # The front end drags the slider; b's decoded value follows.
    msg_id = update(kc, slider, {"value": 0.8})
    collect_iopub(kc, msg_id)
    _, outs = run_ok(kc, 'if err := xEx.Wait(0.5); err != nil {\n\tpanic(err)\n}\n'
                         'fmt.Printf("%.3f %.3f\\n", xStim.Value(), xEx.Last(xPB)[0])')
    slider_value, decoded = map(float, stream_text(outs).split())
    assert slider_value == 0.8 and abs(decoded - 0.8) < 0.2, stream_text(outs)

    # An interrupt between cells stops the explorer: no more frames.
    km.interrupt_kernel()
    time.sleep(0.5)
    image_frames(kc, image, 0.5)
    late, _ = image_frames(kc, image, 1.5)
    assert late == 0, f"{late} frames after the interrupt"
    _, outs = run_ok(kc, "fmt.Println(xEx.Stats().Running, xEx.Err())")
    assert stream_text(outs).strip() == "false interrupted: interrupted", stream_text(outs)

