"""Jupyter widgets through a real client (jupyter_client): the comm
protocol and the widget message protocol (version 2.1) as the front end's
widget manager speaks it.

Each test plays the front end: it reads the comm_open messages a displayed
widget sends, then sends comm_msg updates, custom messages and comm_open
requests as JupyterLab's widget manager does, and checks the kernel's
answers (echo_update, callbacks' output, corrective updates, comm_close).
"""
from __future__ import annotations

import time
from typing import Any

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
