"""Stages the documentation site for mkdocs (run by scripts/docs build).

Copies docs/ (without the tools, the browser check and the committed
tutorial copies) into BUILD/docs, adds

  * one executed notebook per notebooks/*.ipynb under tutorials/ (from
    --executed DIR when given, else the committed docs/tutorials/ copy, else
    the unexecuted notebook with a warning),
  * the API reference: one page per package from `go doc -all`,
  * the plot gallery (gallery.md and assets/gallery/, written by
    `go run ./viz/internal/gallerydoc` from viz/gallery_test.go and the
    golden images in viz/testdata/gallery),

writes BUILD/mkdocs.yml (the repository's mkdocs.yml with docs_dir, site_dir
and the generated nav sections) and BUILD/manifest.json (what the browser
check expects: the figures of each tutorial page).
"""
import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys

import yaml

# Packages left out of the API reference: generated interpreter bindings,
# internal packages and commands.
SKIP = (re.compile(r"/kernel/bindings(/|$)"), re.compile(r"/internal(/|$)"))

# The guide that explains each package (API page header).
GUIDES = {
    "kernel": "kernel", "kernel/cell": "kernel", "kernel/kernelrt": "kernel",
    "kernel/native": "kernel", "display": "kernel", "interrupt": "kernel",
    "toolkit": "modelling", "toolkit/dists": "modelling", "toolkit/neurons": "modelling",
    "toolkit/networks": "modelling", "toolkit/solvers": "modelling",
    "toolkit/synapses": "modelling", "toolkit/validate": "modelling",
    "toolkit/layers": "training",
    "sim": "simulation", "sim/bench": "simulation", "sim/npz": "simulation",
    "sim/simtest": "simulation",
    "train": "training", "train/loss": "training", "train/optim": "training",
    "train/data": "training", "repro": "training",
    "toolkit/stream": "layerwise-parallel", "sim/frames": "layerwise-parallel",
    "train/plastic": "layerwise-parallel", "train/stimulus": "layerwise-parallel",
    "train/timeres": "layerwise-parallel",
    "accel": "analog", "accel/analog": "analog", "accel/jit": "analog",
    "repro/hxtorch": "analog", "viz": "plots", "notebook": "plots",
}
GUIDE_TITLES = {
    "kernel": "Kernel and display", "modelling": "Modelling",
    "simulation": "Simulation and backends", "training": "Training",
    "layerwise-parallel": "Layerwise-parallel networks",
    "analog": "Analog accelerator", "plots": "Plots",
}
FIGURE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/svg+xml")


def log(msg):
    print(f"[docs] {msg}", file=sys.stderr, flush=True)


def first_heading(text, fallback):
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return fallback


def nav_title(heading):
    """A nav title from a heading: without a trailing parenthesis, so that
    the nav stays one line."""
    short = re.sub(r"\s*\([^()]*\)\s*$", "", heading).strip()
    return (short or heading).replace("`", "")


def notebook_figures(nb, tag="check"):
    """Figures a rendered notebook shows: outputs with an image, outside
    cells that the site removes."""
    n = 0
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        if tag in cell.get("metadata", {}).get("tags", []):
            continue
        for out in cell.get("outputs", []):
            if any(t in out.get("data", {}) for t in FIGURE_TYPES):
                n += 1
    return n


def executed(nb):
    return any(c.get("outputs") for c in nb.get("cells", []) if c.get("cell_type") == "code")


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def without_widgets(nb):
    """nb without Jupyter widgets: the widgets' saved state (which would make
    the page load the widget manager from a CDN) and the widget views of
    outputs, which keep the forms every renderer shows (the HTML bar and
    text of a training progress, a widget's text/plain). Returns the
    number of views removed."""
    nb.get("metadata", {}).pop("widgets", None)
    n = 0
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_VIEW in data:
                del data[WIDGET_VIEW]
                n += 1
                if not data:
                    data["text/plain"] = "(a Jupyter widget)"
    return n


def stage_tutorials(root, out, executed_dir):
    entries, manifest = [], {}
    dst = out / "docs" / "tutorials"
    dst.mkdir(parents=True, exist_ok=True)
    for src_nb in sorted((root / "notebooks").glob("*.ipynb")):
        name = src_nb.name
        candidates = []
        if executed_dir:
            candidates.append((executed_dir / name, f"{executed_dir}"))
        candidates.append((root / "docs" / "tutorials" / name, "docs/tutorials"))
        chosen = None
        for path, where in candidates:
            if path.is_file():
                nb = json.loads(path.read_text())
                if executed(nb):
                    chosen = (path, where, nb)
                    break
                log(f"warning: {path} has no outputs; skipped")
            elif executed_dir and where == f"{executed_dir}":
                log(f"warning: {name} is missing in {executed_dir}")
        if chosen is None:
            nb = json.loads(src_nb.read_text())
            chosen = (src_nb, "notebooks (NOT executed: no figures)", nb)
            log(f"warning: no executed copy of {name}; the site shows it without outputs "
                f"(scripts/docs refresh-tutorials {name}, or build --executed DIR)")
        path, where, nb = chosen
        views = without_widgets(nb)
        (dst / name).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        if views:
            log(f"tutorial {name}: {views} widget view{'' if views == 1 else 's'} shown in plain form (no widget state on the site)")
        md = "".join("".join(c.get("source", [])) + "\n" for c in nb.get("cells", [])
                     if c.get("cell_type") == "markdown")
        title = nav_title(first_heading(md, src_nb.stem))
        entries.append({title: f"tutorials/{name}"})
        manifest[f"tutorials/{src_nb.stem}/"] = {
            "notebook": name, "source": where, "figures": notebook_figures(nb)}
        log(f"tutorial {name}: {manifest[f'tutorials/{src_nb.stem}/']['figures']} figures from {where}")
    return entries, manifest


def stage_measurements(out):
    """(index, entries): measurements/index.md, which becomes the section's
    own page, and one entry per other page."""
    index, entries = None, []
    for page in sorted((out / "docs" / "measurements").glob("*.md")):
        if page.name == "index.md":
            index = "measurements/index.md"
            continue
        title = nav_title(first_heading(page.read_text(), page.stem))
        entries.append({title: f"measurements/{page.name}"})
    return index, entries


def go_packages(root):
    res = subprocess.run(
        ["go", "list", "-f", "{{.ImportPath}}\t{{.Name}}\t{{.Doc}}", "./..."],
        cwd=root, check=True, capture_output=True, text=True)
    pkgs = []
    for line in res.stdout.splitlines():
        path, name, doc = (line.split("\t") + ["", ""])[:3]
        if name == "main" or any(r.search(path) for r in SKIP):
            continue
        pkgs.append((path, doc))
    return pkgs


def stage_api(root, out):
    mod = subprocess.run(["go", "list", "-m"], cwd=root, check=True,
                         capture_output=True, text=True).stdout.strip()
    api = out / "docs" / "api"
    api.mkdir(parents=True, exist_ok=True)
    entries, rows = [], []
    pkgs = go_packages(root)
    log(f"API reference: go doc -all for {len(pkgs)} packages")
    for path, synopsis in pkgs:
        rel = path[len(mod) + 1:] if path != mod else "neurogo"
        slug = rel.replace("/", "-")
        res = subprocess.run(["go", "doc", "-all", path], cwd=root,
                             capture_output=True, text=True)
        if res.returncode != 0:
            raise SystemExit(f"go doc -all {path} failed:\n{res.stderr}")
        text = res.stdout.rstrip()
        fence = "~" * max(4, max((len(m) for m in re.findall(r"~{3,}", text)), default=0) + 1)
        guide = GUIDES.get(rel)
        lines = [f"# {rel}", "", f"`import \"{path}\"`", ""]
        if synopsis:
            lines += [synopsis, ""]
        if guide:
            lines += [f"Guide: [{GUIDE_TITLES[guide]}](../guides/{guide}.md). ", ""]
        lines += ["Generated from `go doc -all " + path + "`; "
                  "run the same command in a clone for the current text.", "",
                  fence + "text", text, fence, ""]
        (api / f"{slug}.md").write_text("\n".join(lines))
        entries.append({rel: f"api/{slug}.md"})
        cell = synopsis.replace("|", "\\|")
        rows.append(f"| [`{rel}`]({slug}.md) | {cell} |")
    index = api / "index.md"
    body = index.read_text() if index.exists() else "# API reference\n"
    marker = "<!-- packages -->"
    table = "\n".join(["| package | synopsis |", "|---|---|"] + rows)
    index.write_text(body.replace(marker, table) if marker in body else body + "\n" + table + "\n")
    return entries


def stage_gallery(root, out):
    """gallery.md and its images, from package viz's gallery test."""
    log("plot gallery: go run ./viz/internal/gallerydoc")
    res = subprocess.run(["go", "run", "./viz/internal/gallerydoc", "-out", str(out / "docs")],
                         cwd=root, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"go run ./viz/internal/gallerydoc failed:\n{res.stderr}")
    log(res.stderr.strip())


def fill_nav(nav, section, entries, first=None):
    for item in nav:
        if isinstance(item, dict) and section in item:
            item[section] = ([first] if first else []) + list(item[section]) + entries
            return
    raise SystemExit(f"mkdocs.yml: no nav section {section!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    ap.add_argument("--site", required=True, type=pathlib.Path)
    ap.add_argument("--executed", type=pathlib.Path)
    a = ap.parse_args()
    root, out = a.root.resolve(), a.out.resolve()
    if a.executed and not a.executed.is_dir():
        log(f"warning: --executed {a.executed} is not a directory (were the notebooks "
            f"executed?); using the committed copies in docs/tutorials")
        a.executed = None

    docs_out = out / "docs"
    if docs_out.exists():
        shutil.rmtree(docs_out)
    shutil.copytree(root / "docs", docs_out, ignore=shutil.ignore_patterns(
        "tools", "check", "requirements.txt", "*.ipynb", "__pycache__", "node_modules"))

    tutorials, manifest = stage_tutorials(root, out, a.executed.resolve() if a.executed else None)
    measurements_index, measurements = stage_measurements(out)
    api = stage_api(root, out)
    stage_gallery(root, out)

    cfg = yaml.safe_load((root / "mkdocs.yml").read_text())
    cfg["docs_dir"] = str(docs_out)
    cfg["site_dir"] = str(a.site.resolve())
    cfg["hooks"] = [str(root / "docs" / "tools" / "hooks.py")]
    fill_nav(cfg["nav"], "Tutorials", tutorials)
    fill_nav(cfg["nav"], "Measurements", measurements, first=measurements_index)
    fill_nav(cfg["nav"], "API reference", api)
    (out / "mkdocs.yml").write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True))
    (out / "manifest.json").write_text(json.dumps({"tutorials": manifest}, indent=1))
    log(f"staged {len(tutorials)} tutorials, {len(measurements)} measurement pages, "
        f"{len(api)} API pages in {out}")


if __name__ == "__main__":
    main()
