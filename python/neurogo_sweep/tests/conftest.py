import json
import os
import pathlib
import sys

import pytest

PKG = pathlib.Path(__file__).resolve().parent.parent
ROOT = PKG.parent.parent
# the package from this checkout, in this process and in the worker
# processes a LocalCluster starts (they inherit the environment)
sys.path.insert(0, str(PKG))
os.environ["PYTHONPATH"] = str(PKG) + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else "")


def code(src, tags=None, hidden=False):
    md = {}
    if tags:
        md["tags"] = tags
    if hidden:
        md["jupyter"] = {"source_hidden": True}
    return {"cell_type": "code", "metadata": md, "source": src, "outputs": [], "execution_count": None}


# A small Go notebook: it appends "x" to starts_log when its cell starts
# (so a test can count how often each point started), sleeps sleep_s
# seconds, panics when x == fail_on, and reports {"x", "square"} as the
# JSON output of its cell tagged result.
SMALL_NOTEBOOK = {
    "nbformat": 4, "nbformat_minor": 5,
    "metadata": {"kernelspec": {"display_name": "Go (neurogo)", "language": "go", "name": "neurogo"},
                 "language_info": {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}},
    "cells": [
        code('var x = 2\nvar sleep_s = 0.0\nvar fail_on = -1\nvar starts_log = ""\n', ["parameters"]),
        code(
            'import (\n\t"fmt"\n\t"os"\n\t"time"\n\n\t"github.com/neurogo/neurogo/display"\n)\n'
            'if starts_log != "" {\n'
            '\tf, err := os.OpenFile(starts_log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)\n'
            '\tif err == nil {\n\t\tfmt.Fprintf(f, "%d\\n", x)\n\t\tf.Close()\n\t}\n}\n'
            'time.Sleep(time.Duration(sleep_s * float64(time.Second)))\n'
            'if x == fail_on {\n\tpanic(fmt.Sprintf("x = %d fails on purpose", x))\n}\n'
            'display.JSON(map[string]any{"x": x, "square": x * x})\n',
            ["result"]),
    ],
}


@pytest.fixture
def small_notebook(tmp_path):
    p = tmp_path / "small.ipynb"
    p.write_text(json.dumps(SMALL_NOTEBOOK, indent=1))
    return p


@pytest.fixture
def neurogo_bin(monkeypatch):
    """The neurogo binary of this checkout (scripts/test builds it first)."""
    exe = os.environ.get("NEUROGO_BIN") or str(ROOT / "bin" / "neurogo")
    if not os.access(exe, os.X_OK):
        pytest.fail(f"{exe} is missing: build it first (go build -o bin/neurogo ./cmd/neurogo)")
    monkeypatch.setenv("NEUROGO_BIN", exe)
    return exe


def starts(log):
    """How often each x started, from a starts_log file."""
    counts = {}
    if os.path.exists(log):
        for line in open(log).read().split():
            counts[int(line)] = counts.get(int(line), 0) + 1
    return counts
