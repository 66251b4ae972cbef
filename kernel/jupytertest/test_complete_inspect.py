"""Completion and inspection of names that cells declared, through a real
jupyter_client: complete_request after "x." and on a prefix, inspect_request
(shift-tab) on a function with a doc comment, a method, a field and a
variable a top-level := defined.

The kernel in these tests compiles cells (the interpreter, used when Go
plugins are unavailable, knows less: the tests skip then).
"""
from __future__ import annotations

from typing import Any

import pytest

from ktools import eval_text, get_reply, run_ok

DECLS = '''import "fmt"

// ngcVec is a vector of the plane.
type ngcVec struct {
\t// Xs is the first coordinate.
\tXs float64
\tYs float64 // Ys is the second coordinate.
}

// ngcScaled returns v scaled by f.
func ngcScaled(v ngcVec, f float64) ngcVec { return ngcVec{v.Xs * f, v.Ys * f} }

// Manhattan is the sum of the coordinates' magnitudes.
func (v ngcVec) Manhattan() float64 { return abs(v.Xs) + abs(v.Ys) }

func abs(x float64) float64 { if x < 0 { return -x }; return x }
'''

STATE = '''// ngcOrigin is where the walk starts.
ngcOrigin := ngcScaled(ngcVec{1, -2}, 2)
fmt.Println(ngcOrigin.Manhattan())'''


@pytest.fixture(scope="module")
def declared(_shared_box: Any) -> None:
    _, kc = _shared_box.ensure()
    run_ok(kc, DECLS)
    run_ok(kc, STATE)
    path = eval_text(kc, 'import "reflect"\nreflect.TypeOf(ngcOrigin).PkgPath()')
    if path is None or "neurogo.cells" not in path:
        pytest.skip(f"cells run in the interpreter (PkgPath {path!r}): compiled-cell completion not in use")


def complete(kc: Any, code: str, cursor: int | None = None) -> dict[str, Any]:
    if cursor is None:
        cursor = len(code)
    c = get_reply(kc, kc.complete(code, cursor_pos=cursor))["content"]
    assert c["status"] == "ok", c
    types = c["metadata"]["_jupyter_types_experimental"]
    assert [t["text"] for t in types] == c["matches"], c
    return c


def inspect(kc: Any, code: str, cursor: int | None = None, detail: int = 0) -> str:
    if cursor is None:
        cursor = len(code)
    c = get_reply(kc, kc.inspect(code, cursor_pos=cursor, detail_level=detail))["content"]
    assert c["status"] == "ok" and c["found"], (code, c)
    text = c["data"]["text/plain"]
    assert c["data"]["text/markdown"] == "```go\n" + text + "\n```"
    return text


def kinds(c: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["text"]: t for t in c["metadata"]["_jupyter_types_experimental"]}


def test_complete_fields_and_methods(kc, declared):
    code = "ngcOrigin."
    c = complete(kc, code)
    assert {"Xs", "Ys", "Manhattan"} <= set(c["matches"]), c
    assert c["cursor_start"] == c["cursor_end"] == len(code)
    k = kinds(c)
    assert k["Xs"]["type"] == "field" and k["Xs"]["signature"] == "field Xs float64"
    assert k["Manhattan"]["type"] == "method"
    assert k["Manhattan"]["signature"] == "func (ngcVec).Manhattan() float64"


def test_complete_prefix_in_code_points(kc, declared):
    code = 's := "ünï"\nfmt.Println(ngcSc'
    c = complete(kc, code)
    assert c["matches"] == ["ngcScaled"], c
    assert c["cursor_start"] == len(code) - len("ngcSc") and c["cursor_end"] == len(code)
    assert kinds(c)["ngcScaled"]["type"] == "function"
    c = complete(kc, "ngcOr")
    assert c["matches"] == ["ngcOrigin"], c
    assert kinds(c)["ngcOrigin"]["signature"] == "var ngcOrigin ngcVec"


def test_complete_in_unfinished_function(kc, declared):
    code = "func ngcWalk(steps int) {\n\tfor i := 0; i < steps; i++ {\n\t\tngcOrigin.Ma"
    c = complete(kc, code)
    assert c["matches"] == ["Manhattan"], c
    c = complete(kc, "func ngcWalk(steps int) {\n\tst")
    assert "steps" in c["matches"], c


def test_inspect_function_doc(kc, declared):
    text = inspect(kc, "ngcScaled(ngcOrigin, 2)", cursor=4)
    assert "func ngcScaled(v ngcVec, f float64) ngcVec" in text, text
    assert "ngcScaled returns v scaled by f." in text, text
    # shift-tab inside the call's parentheses documents the function too
    assert "ngcScaled returns v scaled by f." in inspect(kc, "ngcScaled(ngcOrigin, ")


def test_inspect_method_field_and_variable(kc, declared):
    text = inspect(kc, "ngcOrigin.Manhattan()", cursor=len("ngcOrigin.Man"))
    assert "func (ngcVec).Manhattan() float64" in text and "Manhattan is the sum" in text, text
    text = inspect(kc, "ngcOrigin.Xs")
    assert "field Xs float64" in text and "Xs is the first coordinate." in text, text
    text = inspect(kc, "ngcOrigin.Ys")
    assert "Ys is the second coordinate." in text, text
    text = inspect(kc, "ngcOrigin")
    assert text.startswith("var ngcOrigin ngcVec = {2 -4}"), text
    assert "ngcOrigin is where the walk starts." in text, text
    text = inspect(kc, "ngcVec")
    assert "ngcVec is a vector of the plane." in text and "Manhattan() float64" in text, text


def test_inspect_detail_shows_source(kc, declared):
    text = inspect(kc, "ngcScaled", detail=1)
    assert "func ngcScaled(v ngcVec, f float64) ngcVec { return ngcVec{v.Xs * f, v.Ys * f} }" in text, text
