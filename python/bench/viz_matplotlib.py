"""matplotlib's side of `neurogo bench viz` (viz/vizbench).

    python viz_matplotlib.py --data DIR

DIR holds raster.npy (float64 [step][neuron], spikes > 0), counts.npy
(float64 [true][predicted]) and meta.json (dt, width and height in CSS px,
dpi, the raster colour, the class names), written by vizbench.WriteData.

The first line on stdout is {"python", "matplotlib", "numpy", "backend"},
or {"error", "missing": true} when matplotlib or NumPy cannot be imported
(exit 3). Then one command per line on stdin:

    raster [PATH]      draw the raster, reply {"figure", "ms", "convert_ms", "bytes"}
    confusion [PATH]   draw the confusion matrix, reply {"figure", "ms", "bytes"}
    quit

with PATH, the PNG is also written there (after the timing). ms is the
time from the data already loaded to the PNG bytes in memory: figure
construction, drawing with Agg and PNG encoding by savefig; a garbage
collection before it is not timed.

The figures are those of viz at the same size: figsize = CSS px / 72 in at
dpi 144 (viz draws CSS pixels as points at 144 dpi), the same titles,
labels and font sizes (title 14 pt, labels 12 pt, ticks and cell values
10.5 pt), layout="constrained" so nothing is clipped. The raster is
`eventplot` of per-neuron spike times (every spike a 0.5 pt line), after
turning the dense matrix into spike times with np.nonzero (timed, and
reported apart as convert_ms); the confusion matrix is `imshow` (viridis)
+ `colorbar` + one `text` per cell, white on dark cells and black on light
ones (the rule of viz).
"""
from __future__ import annotations

import argparse
import gc
import io
import json
import sys
import time
from pathlib import Path


def reply(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, type=Path)
    a = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import numpy as np
    except ImportError as e:
        reply({"error": str(e), "missing": True})
        return 3

    meta = json.loads((a.data / "meta.json").read_text())
    spikes = np.load(a.data / "raster.npy")
    counts = np.load(a.data / "counts.npy")
    dt = float(meta["dt"])
    dpi = int(meta["dpi"])
    figsize = (meta["width"] / 72, meta["height"] / 72)
    names = meta["class_names"]
    plt.rcParams.update({"axes.titlesize": 14, "axes.labelsize": 12, "xtick.labelsize": 10.5,
                         "ytick.labelsize": 10.5, "savefig.dpi": dpi})
    # the colour of each cell's text: black on light cells, white on dark ones
    viridis = matplotlib.colormaps["viridis"]

    def text_color(rgba) -> str:
        r, g, b = (255 * c for c in rgba[:3])
        return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 else "white"

    def raster() -> tuple[bytes, float]:
        t0 = time.perf_counter()
        n_steps, n_neurons = spikes.shape
        neuron, step = np.nonzero(spikes.T > 0)  # sorted by neuron, then step
        times = (step + 0.5) * dt
        trains = np.split(times, np.searchsorted(neuron, np.arange(1, n_neurons)))
        convert = time.perf_counter() - t0
        fig, ax = plt.subplots(figsize=figsize, dpi=dpi, layout="constrained")
        ax.eventplot(trains, lineoffsets=np.arange(n_neurons) + 0.5, linelengths=0.8, linewidths=0.5,
                     colors=meta["raster_color"])
        ax.set_xlim(0, n_steps * dt)
        ax.set_ylim(0, n_neurons)
        ax.set_title("Spike raster")
        ax.set_xlabel("time (s)")
        ax.set_ylabel("neuron")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi)
        plt.close(fig)
        return buf.getvalue(), convert

    def confusion() -> tuple[bytes, float]:
        n = counts.shape[0]
        total, trace = counts.sum(), np.trace(counts)
        title = f"Confusion matrix (accuracy {100 * trace / total:.1f} %)" if total > 0 else "Confusion matrix"
        vmax = counts.max()
        fig, ax = plt.subplots(figsize=figsize, dpi=dpi, layout="constrained")
        im = ax.imshow(counts, cmap="viridis", vmin=0, vmax=vmax, aspect="auto", interpolation="nearest")
        cb = fig.colorbar(im, ax=ax)
        cb.ax.set_title("count", fontsize=10.5)
        ax.set_xticks(range(n), names)
        ax.set_yticks(range(n), names)
        for i in range(n):
            for j in range(n):
                v = counts[i, j]
                ax.text(j, i, f"{v:.4g}", ha="center", va="center", fontsize=10.5,
                        color=text_color(viridis(v / vmax if vmax > 0 else 0.5)))
        ax.set_title(title)
        ax.set_xlabel("predicted class")
        ax.set_ylabel("true class")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi)
        plt.close(fig)
        return buf.getvalue(), 0.0

    figures = {"raster": raster, "confusion": confusion}
    reply({"python": sys.version.split()[0], "matplotlib": matplotlib.__version__, "numpy": np.__version__,
           "backend": matplotlib.get_backend()})
    for line in sys.stdin:
        words = line.split(maxsplit=1)
        if not words:
            continue
        if words[0] == "quit":
            break
        draw = figures.get(words[0])
        if draw is None:
            reply({"error": f"unknown command {words[0]!r}: want {', '.join(figures)} or quit"})
            continue
        gc.collect()
        t0 = time.perf_counter()
        png, convert = draw()
        ms = (time.perf_counter() - t0) * 1e3
        if len(words) > 1:
            Path(words[1].strip()).write_bytes(png)
        out = {"figure": words[0], "ms": ms, "bytes": len(png)}
        if words[0] == "raster":
            out["convert_ms"] = convert * 1e3
        reply(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
