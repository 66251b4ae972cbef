"""Turns an executed notebook into the copy committed under docs/tutorials/
(run by scripts/docs refresh-tutorials): the cells tagged `check` are
removed, everything else is kept with its outputs. Fails, writing nothing,
when the notebook has no outputs or an error output.

usage: tutorial.py EXECUTED.ipynb OUT.ipynb
"""
import json
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src) as f:
        nb = json.load(f)
    errors, outputs, figures = [], 0, 0
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            outputs += 1
            if out.get("output_type") == "error":
                errors.append(f"{out.get('ename')}: {out.get('evalue')}")
            if any(k.startswith("image/") for k in out.get("data", {})):
                figures += 1
    if errors:
        sys.exit(f"{src}: error outputs, not kept: {'; '.join(errors)[:2000]}")
    if outputs == 0:
        sys.exit(f"{src}: no outputs (not executed?)")
    kept = [c for c in nb["cells"] if "check" not in c.get("metadata", {}).get("tags", [])]
    removed = len(nb["cells"]) - len(kept)
    nb["cells"] = kept
    with open(dst, "w") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{dst}: {len(kept)} cells ({removed} check cell(s) removed), {figures} figures")


if __name__ == "__main__":
    main()
