"""The sweep's parts without a cluster: points and ids, the result a
notebook reports, parameter types, the results folder, the table, the
progress line."""
import io
import json

import pytest

from neurogo_sweep import grid, parse_value, point_id, repro_points
from neurogo_sweep.execute import notebook_result
from neurogo_sweep.points import parse_grid_arg, read_points
from neurogo_sweep.progress import Progress
from neurogo_sweep.store import Store
from neurogo_sweep.sweep import Sweep, coerce_params
from neurogo_sweep.table import pick_axes, rows


@pytest.mark.parametrize("text,want", [
    ("3", 3), ("-2", -2), ("0.5", 0.5), ("1e-4", 1e-4), ("true", True), ("false", False),
    ("abc", "abc"), ("[1, 2]", [1, 2]), ('{"a": 1}', {"a": 1}), ("nan", "nan"), ("5,10", "5,10"),
])
def test_parse_value(text, want):
    assert parse_value(text) == want


def test_grid_and_args():
    assert grid({"a": [1, 2], "b": ["x", "y"]}, fixed={"c": 0}) == [
        {"c": 0, "a": 1, "b": "x"}, {"c": 0, "a": 1, "b": "y"}, {"c": 0, "a": 2, "b": "x"}, {"c": 0, "a": 2, "b": "y"}]
    assert parse_grid_arg("lr=0.1,0.01") == ("lr", [0.1, 0.01])
    assert parse_grid_arg("sizes=[1,2]") == ("sizes", [[1, 2]])
    for bad in ("lr", "=1", "2x=1", "lr="):
        with pytest.raises(ValueError):
            parse_grid_arg(bad)
    with pytest.raises(ValueError):
        grid({"a": []})


def test_read_points():
    assert read_points('[{"a": 1}, {"a": 2, "b": "z"}]') == [{"a": 1}, {"a": 2, "b": "z"}]
    assert read_points("a,b\n1,x\n2.5,y\n") == [{"a": 1, "b": "x"}, {"a": 2.5, "b": "y"}]
    with pytest.raises(ValueError):
        read_points("[1, 2]")


def test_point_id_stable():
    a = point_id({"neurons": 10, "seed": 2})
    assert a == point_id({"seed": 2, "neurons": 10})
    assert a.startswith("neurons-10_seed-2-") and len(a.rsplit("-", 1)[1]) == 10
    assert a != point_id({"neurons": 10, "seed": 3})
    assert point_id({"n": 1}) != point_id({"n": 1.0}) != point_id({"n": "1"})
    assert "/" not in point_id({"path": "../../etc"}) and ".." not in point_id({"path": "../../etc"})
    assert len(point_id({"s": "x" * 500})) < 80


def test_repro_points():
    pts = repro_points("spa-memory")
    assert len(pts) == 12 and pts[0] == {"neurons": 5, "seed": 0} and pts[-1] == {"neurons": 20, "seed": 2}
    assert repro_points("spa-memory", neurons=[5], seeds=[4, 7]) == [{"neurons": 5, "seed": 4}, {"neurons": 5, "seed": 7}]
    assert repro_points("spiking-mnist", seeds=2) == [{"seed": 0}, {"seed": 1}]
    with pytest.raises(ValueError):
        repro_points("spiking-mnist", neurons=[5])
    with pytest.raises(ValueError):
        repro_points("nope")


def _nb(outputs, tags=("result",)):
    return {"cells": [{"cell_type": "code", "metadata": {"tags": list(tags)}, "source": "", "outputs": outputs}]}


def test_notebook_result():
    js = {"output_type": "execute_result", "data": {"application/json": {"acc": 0.9}, "text/plain": "{}"}}
    assert notebook_result(_nb([js])) == {"acc": 0.9}
    out = {"output_type": "stream", "name": "stdout", "text": ["training…\n", '{"acc": 0.8, "loss": 0.1}\n']}
    assert notebook_result(_nb([out])) == {"acc": 0.8, "loss": 0.1}
    assert notebook_result(_nb([{"output_type": "stream", "name": "stdout", "text": "0.75\n"}])) == {"result": 0.75}
    assert notebook_result(_nb([js], tags=())) == {}
    with pytest.raises(ValueError):
        notebook_result(_nb([{"output_type": "stream", "name": "stdout", "text": "no json here\n"}]))


def test_coerce_params():
    nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["parameters"]},
                     "source": 'var neurons = "5,10"\nvar lr = 0.1\nvar epochs = 2\nvar full = false\n'}]}
    pts = coerce_params(nb, [{"neurons": 10, "lr": 1, "epochs": 3.0, "full": True}])
    assert pts == [{"neurons": "10", "lr": 1.0, "epochs": 3, "full": True}]
    assert isinstance(pts[0]["lr"], float) and isinstance(pts[0]["epochs"], int)
    with pytest.raises(ValueError, match="not declared"):
        coerce_params(nb, [{"nuerons": 5}])
    with pytest.raises(ValueError):
        coerce_params(nb, [{"epochs": 2.5}])


def test_duplicate_points(small_notebook, tmp_path):
    with pytest.raises(ValueError, match="twice"):
        Sweep.notebook(str(small_notebook), [{"x": 1}, {"x": 1}], out=str(tmp_path / "o"))


def test_store_atomic_and_urls(tmp_path):
    for url in (str(tmp_path / "out"), (tmp_path / "url").as_uri(), "memory://neurogo-sweep-test/out"):
        s = Store(url)
        s.write_json({"a": 1}, "p1", "result.json")
        s.write_json({"a": 2}, "p1", "result.json")
        assert s.read_json("p1", "result.json") == {"a": 2}
        names = s.fs.ls(s.path("p1"), detail=False)
        assert [n.rsplit("/", 1)[-1] for n in names] == ["result.json"], names  # no temporary left
        assert s.records() == {"p1": {"a": 2}}


def test_table_rows(tmp_path):
    s = Store(str(tmp_path))
    man = {"points": [{"id": "a", "params": {"n": 1, "seed": 0}}, {"id": "b", "params": {"n": 2, "seed": 0}},
                      {"id": "c", "params": {"n": 2, "seed": 1}}, {"id": "d", "params": {"n": 3, "seed": 0}}]}
    s.write_json({"status": "done", "seconds": 1.5, "metrics": {"acc": 0.5, "n": 7, "hist": [1, 2], "sub": {"k": 1}}},
                 "a", "result.json")
    s.write_json({"status": "done", "seconds": 1.0, "metrics": {"acc": 0.75}}, "b", "result.json")
    s.write_json({"status": "failed", "error": "boom"}, "c", "error.json")
    r, cols = rows(s, man)
    # records are stored with sorted keys: metrics in alphabetical order
    assert cols == ["id", "status", "seconds", "n", "seed", "acc", "hist", "metric_n", "sub.k", "error"]
    assert [x["status"] for x in r] == ["done", "done", "failed", "pending"]
    assert r[0]["metric_n"] == 7 and r[0]["hist"] == "[1, 2]" and r[2]["error"] == "boom"
    assert pick_axes(r, man) == ("n", "acc")
    assert pick_axes(r, man, "seed", "acc") == ("seed", "acc")


def test_progress_line():
    buf = io.StringIO()
    p = Progress(4, skipped=2, stream=buf, mode="lines")
    p.show(running=2, slots=2)
    p.point_finished(10.0, True)
    p.show(running=2, slots=2)
    p.show(running=2, slots=2)  # nothing changed: no new line
    p.point_finished(None, False)
    p.show(running=1, slots=2, final=True)
    lines = buf.getvalue().splitlines()
    assert len(lines) == 3, lines
    assert "1/4 (2 kept): 1 done, 2 running, 0 failed" in lines[1] and "ETA 15 s" in lines[1]
    assert "2/4 (2 kept): 1 done, 1 running, 1 failed" in lines[2] and "ETA 10 s" in lines[2]
    assert json.dumps(p.eta(4)) == "10.0"
