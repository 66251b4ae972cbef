"""Compiles the Go snippets of the documentation (scripts/docs check-snippets).

Every ```go block in docs/*.md and docs/guides/*.md is a notebook cell:
imports first, then declarations (func, type) and statements. Each block
becomes a program of its own in a scratch module that requires this module
through a replace directive: the imports stay imports, the declarations stay
top-level, the statements go into main (with `_ = name` for the variables
they define, which a cell keeps as state, and a final bare expression, which
a cell displays, assigned to _). `go vet` then type-checks and vets them all;
errors point at the Markdown file and line (//line directives).
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys

FENCE = re.compile(r"^(\s*)```go\s*$")
DEFINE = re.compile(r"^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:=")
VAR = re.compile(r"^var\s+([A-Za-z_]\w*)")
DECL = re.compile(r"^(func\s+(?:\([^)]*\)\s*)?[A-Za-z_]\w*\s*[\[(]|type\s)")
BARE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\s*(?://.*)?$")


def blocks(path):
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, start, body = len(m.group(1)), i + 2, []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        yield start, body
        i += 1


def split(body):
    """(imports, decls, stmts), each a list of (line number offset, text)."""
    imports, decls, stmts = [], [], []
    i = 0
    while i < len(body):
        line = body[i]
        if line.startswith("import ("):
            while i < len(body):
                imports.append((i, body[i]))
                if body[i].strip() == ")":
                    break
                i += 1
            i += 1
            continue
        if line.startswith("import "):
            imports.append((i, line))
            i += 1
            continue
        if DECL.match(line):
            depth, seen = 0, False
            while i < len(body):
                code = re.sub(r'"(?:\\.|[^"\\])*"|`[^`]*`|//.*', "", body[i])
                depth += code.count("{") + code.count("(") - code.count("}") - code.count(")")
                seen = seen or "{" in code or "(" in code
                decls.append((i, body[i]))
                i += 1
                if depth <= 0 and (seen or not body[i - 1].rstrip().endswith(("{", "("))):
                    break
            continue
        stmts.append((i, line))
        i += 1
    return imports, decls, stmts


def program(md, start, body):
    imports, decls, stmts = split(body)
    out = ["package main", ""]

    def emit(chunk):
        prev = None
        for off, text in chunk:
            if prev is None or off != prev + 1:
                out.append(f"//line {md}:{start + off}")
            out.append(text)
            prev = off

    emit(imports)
    out.append("")
    emit(decls)
    out += ["", "func main() {"]
    # A final bare expression is the cell's displayed result.
    names = []
    for k in range(len(stmts) - 1, -1, -1):
        off, text = stmts[k]
        if text.strip() == "" or text.lstrip().startswith("//"):
            continue
        if BARE.match(text) and not text.startswith(("return", "break", "continue")):
            stmts[k] = (off, "_ = " + text)
        break
    for _, text in stmts:
        m = DEFINE.match(text) or VAR.match(text)
        if m:
            names += [n.strip() for n in m.group(1).split(",")]
    emit(stmts)
    out.append("//line generated:1")
    for n in dict.fromkeys(names):
        if n != "_":
            out.append(f"\t_ = {n}")
    out += ["}", ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, type=pathlib.Path)
    ap.add_argument("--work", required=True, type=pathlib.Path)
    a = ap.parse_args()
    root, work = a.root.resolve(), a.work.resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    gomod = (root / "go.mod").read_text()
    mod = re.search(r"^module\s+(\S+)", gomod, re.M).group(1)
    go = re.search(r"^go\s+(\S+)", gomod, re.M).group(1)
    requires = "\n".join(re.findall(r"^require\s*\((?:.|\n)*?^\)", gomod, re.M))
    (work / "go.mod").write_text(
        f"module docsnippets\n\ngo {go}\n\nrequire {mod} v0.0.0\n\n{requires}\n\n"
        f"replace {mod} => {root}\n")
    shutil.copyfile(root / "go.sum", work / "go.sum")

    pages = sorted((root / "docs").glob("*.md")) + sorted((root / "docs" / "guides").glob("*.md"))
    n = 0
    for page in pages:
        rel = page
        for start, body in blocks(page):
            n += 1
            d = work / f"s{n:03d}"
            d.mkdir()
            (d / "main.go").write_text(program(rel, start, body))
    print(f"[docs] {n} Go snippets from {len(pages)} pages; go vet", file=sys.stderr, flush=True)
    res = subprocess.run(["go", "vet", "./..."], cwd=work)
    if res.returncode != 0:
        sys.exit(f"[docs] snippets do not compile (programs in {work})")
    print(f"[docs] all {n} snippets compile and pass go vet", file=sys.stderr)


if __name__ == "__main__":
    main()
