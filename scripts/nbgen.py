# Shared by the notebook generators (make_training_notebooks.py,
# make_analog_notebooks.py): a notebook from (kind, source[, metadata])
# cells, stored without outputs, and the papermill parameters tag.
import json, os

P = {"tags": ["parameters"]}
# The last code cell of a notebook: assertions for the tests, collapsed in JupyterLab and
# removed from the docs site.
CHECK = {"tags": ["check"], "jupyter": {"source_hidden": True}}


def nb(cells):
    out = []
    for kind, src, *meta in cells:
        c = {"cell_type": kind, "id": "c%02d" % len(out), "metadata": meta[0] if meta else {}, "source": src.strip("\n").splitlines(keepends=True)}
        if kind == "code":
            c["execution_count"] = None
            c["outputs"] = []
        out.append(c)
    return {"cells": out, "metadata": {"kernelspec": {"display_name": "Go (neurogo)", "language": "go", "name": "neurogo"},
            "language_info": {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}}, "nbformat": 4, "nbformat_minor": 5}


def write(name, notebook):
    """Writes notebooks/NAME next to this script's directory."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "notebooks", name), "w") as f:
        json.dump(notebook, f, indent=1, ensure_ascii=False)
        f.write("\n")
