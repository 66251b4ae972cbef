import math

import papermill.translators as pt
import pytest

from neurogo_papermill import GoTranslator, go_literal


@pytest.mark.parametrize(
    "value, want",
    [
        (None, "nil"),
        (True, "true"),
        (False, "false"),
        (3, "3"),
        (-7, "-7"),
        (0.5, "0.5"),
        (2.0, "2.0"),
        (1e-30, "1e-30"),
        (float("nan"), "math.NaN()"),
        (float("inf"), "math.Inf(1)"),
        (float("-inf"), "math.Inf(-1)"),
        ("x", '"x"'),
        ('a "quoted" \\ path\n', '"a \\"quoted\\" \\\\ path\\n"'),
        ("héllo ✓ 🧠", '"héllo ✓ 🧠"'),
        ("\x00\x1f", '"\\x00\\x1f"'),
        ([1, 2, 3], "[]int{1, 2, 3}"),
        ([1, 2.5], "[]float64{1.0, 2.5}"),
        (["a", "b"], '[]string{"a", "b"}'),
        ([1, "a", None], '[]any{1, "a", nil}'),
        ([], "[]any{}"),
        ({"a": 1, "b": 2}, 'map[string]int{"a": 1, "b": 2}'),
        ({"a": [1], "b": "x"}, 'map[string]any{"a": []int{1}, "b": "x"}'),
    ],
)
def test_go_literal(value, want):
    assert go_literal(value) == want


def test_registered_for_neurogo_kernel():
    tr = pt.papermill_translators.find_translator("neurogo", "go")
    assert tr is GoTranslator


def test_codify_imports_math_when_needed():
    src = pt.translate_parameters("neurogo", "go", {"x": math.nan, "n": 5}, "Parameters")
    assert src.splitlines() == ["// Parameters", 'import "math"', "x = math.NaN()", "n = 5"]


def test_inspect_parameters_cell():
    from neurogo_papermill.translator import inspect_parameters

    src = '// Parameters\nvar n_neurons = 200 // neurons per ensemble\nvar rate float64 = 1\nlabel := "x"\nvar seed = int64(0)\nvar on = true\n'
    assert inspect_parameters(src) == [
        ("n_neurons", "int", "200", "neurons per ensemble"),
        ("rate", "float64", "1", ""),
        ("label", "string", '"x"', ""),
        ("seed", "int64", "int64(0)", ""),
        ("on", "bool", "true", ""),
    ]


def test_papermill_sees_parameters(tmp_path):
    import nbformat
    import papermill

    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "neurogo", "language": "go", "display_name": "Go"}}
    c = nbformat.v4.new_code_cell("var n_neurons = 200\nvar title = \"t\"")
    c.metadata["tags"] = ["parameters"]
    nb.cells = [c]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, str(path))
    params = papermill.inspect_notebook(str(path))
    assert params["n_neurons"]["inferred_type_name"] == "int"
    assert params["title"]["default"] == '"t"'


@pytest.mark.parametrize("first", ["neurogo_papermill.translator", "papermill.translators", "papermill"])
def test_registered_whichever_module_is_imported_first(first):
    """A fresh interpreter that imports the translator module before
    papermill (or papermill first) ends with the Go translator registered
    and prints nothing on stderr."""
    import subprocess
    import sys

    code = (f"import {first}\n"
            "import papermill.translators as pt\n"
            "print(pt.papermill_translators.find_translator('neurogo', 'go').__name__)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "GoTranslator", p.stdout
    assert p.stderr == "", p.stderr
