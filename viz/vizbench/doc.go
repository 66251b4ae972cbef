// Package vizbench is the engine of `neurogo bench viz`: how long viz takes
// to draw two typical figures, beside matplotlib drawing the same figures
// from the same data in the same run.
//
// # Figures
//
//   - raster: Spikes(Seed), 1000 neurons × 10 s at dt = 1 ms (10 000 steps,
//     Bernoulli spikes with p = 20 Hz × dt per step, about 200 000 spikes),
//     as a dense [step][neuron] matrix, drawn by viz.Raster at the default
//     size (640×400 CSS px).
//   - confusion: Counts(), a fixed 10×10 confusion matrix, drawn by
//     viz.ConfusionMatrix (annotated cells, colour bar) at 640×400 CSS px
//     (its own default is 520×440; both figures are given the same size).
//
// Both render to PNG at 144 dpi: 1280×800 pixels.
//
// # The peer
//
// matplotlib (Agg backend) draws the same figures with the script
// python/bench/viz_matplotlib.py from the same data, which Run writes
// once to a temporary directory (raster.npy, counts.npy, meta.json): the
// raster with eventplot (one line per spike, the way a matplotlib user
// draws a raster and every spike is drawn), after turning the dense
// matrix into per-neuron spike times (np.nonzero; timed, reported apart as
// convert_ms, since viz.Raster starts from the same dense matrix); the
// confusion matrix with imshow + colorbar + one text per cell. Each
// figure is plt.subplots(figsize = CSS px / 72 in, dpi = 144,
// layout="constrained") and savefig(format="png") into memory: the same
// physical size and resolution as viz's (CSS pixels drawn as points), so
// fonts and lines have the same size in pixels and the PNGs have the same
// pixel size, which Run checks (it fails when they differ).
//
// # Protocol
//
// The timed work is construction + render + PNG encode: viz.Raster or
// viz.ConfusionMatrix followed by Plot.PNG; on the peer's side, from the
// data already loaded to the PNG bytes in memory. One warm-up run of each
// figure on each side, then Options.Repeat timed runs (default 7; the
// command's --quick: 3), the two sides alternating run by run (which side
// goes first alternates too) so machine noise hits both; a garbage
// collection before each run is not timed. Reported per figure: the median
// of each side, the ratio matplotlib ÷ neurogo (above 1: neurogo is
// faster), PNG bytes and pixel sizes. The Python process starts once and
// stays; its start and imports are not timed.
//
// # Invariants
//
//   - Fixed data: the same seed gives the same spikes; Counts is constant.
//   - No timing is asserted in tests.
//   - A Python that cannot import matplotlib and NumPy gives a MissingError
//     naming the pip command that installs MatplotlibVersion.
package vizbench
