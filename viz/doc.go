// Package viz holds plots as values: spike rasters, confusion matrices,
// accuracy-over-time and response-time plots, time series, tuning curves,
// training histories, heatmaps, histograms, scatter and line plots, grids
// of subplots and network graphs. Each plot renders a retina PNG and an
// SVG through its own methods (PNG, SVG, Retina, String, MIMETypes), so a
// plot that is the last expression of a notebook cell shows itself:
// package display turns those methods into the MIME bundle. viz does not
// import display; live plots that update in place while a loop runs are
// in package notebook (notebook.Live). Plots are built on
// gonum.org/v1/plot.
//
// # One pattern for every plot
//
// Every constructor takes plain data (float64 slices, [][]float64 as
// [step][neuron] or [row][col]), an options struct whose zero value gives
// the defaults, and returns (*Plot, error):
//
//	p, err := viz.Raster(spikes, 0.001, viz.RasterOptions{Sort: viz.SortRate})
//	if err != nil { ... }
//	p // shows the raster
//
// Bad input never panics and never yields an empty or broken image: the
// plot is nil and the error names the plot, the argument, the value and
// the rule, e.g. "viz.ConfusionMatrix: len(classNames) = 3: must equal the
// number of classes in counts (2)". A nil *Plot that is displayed anyway
// renders a one-line message. The API is non-generic so the notebook
// interpreter can call it.
//
// The plots: Raster (and RasterTrains for spike times), ConfusionMatrix,
// TemporalConfusion, ResponseTime, ResponseTimeHistograms, TimeSeries,
// Line, Scatter, Bar, Points, Histogram, Heatmap, ImageGrid (small
// multiples of images on one colour scale), TuningCurves,
// TrainingHistory, NetworkGraph and Grid (subplots).
//
// # Choosing the form
//
// Categories — models, ablation rows, conditions, batch members — are
// drawn with Bar (bars from 0, groups side by side, optional value
// labels, Horizontal for long names, chosen anyway when names would
// overlap) or Points (markers with intervals, groups dodged so that equal
// values stay visible, Connect only for ordered categories, LogScale for
// values that span decades). Line is for a continuous x: with few
// distinct round x values (≤ 12, or ≤ 16 evenly spaced such as 1, 2, 4,
// …, 4096 on a log axis) its ticks sit at the data, and series of at most
// 20 points get markers. Scatter fades and shrinks its points with their
// number (opacity 1 up to 200 points, 0.15 from 10 000) and draws the
// identity line with Reference "y=x" for measured-against-ideal plots.
//
// # Intervals and bounds
//
// Series and BarGroup take a symmetric Err or an asymmetric Lower/Upper
// interval (e.g. Wilson score intervals). The options' Bounds give the
// valid range of the quantity ({0, 1} for an accuracy): values outside it
// are an error and intervals are clipped to it, so mean ± 1.96 sd =
// [0.8, 1.39] of an accuracy is drawn as [0.8, 1].
//
// # Histograms, matrices and training histories
//
// Integer data get one bin per integer and whole-step data (response
// times in whole frames) one bin per step; otherwise Bins equal bins, or
// BinWidth or Edges. ResponseTimeHistograms overlays up to four classes
// and draws more as small multiples on shared scales. Heat maps,
// confusion matrices, TemporalConfusion and ImageGrid always carry a
// labelled colour bar; TemporalConfusion, ImageGrid and a Grid with
// ShareScale put all panels on one scale with one bar; density rasters
// carry a "rate (Hz)" bar. TrainingHistory draws one 420×300 panel per
// metric, two per row, with markers up to 20 epochs (one epoch shows as
// points), whole-number epoch ticks and the y axis [0, 1] for metrics
// whose name contains "acc". Grid is at most 960 px wide by default, so
// that text stays readable at JupyterLab's default width.
//
// # Invariants and units
//
//   - Sizes are CSS pixels (drawn as points, 1/72 inch; default 640×400).
//     PNG renders at 144 dpi, twice the pixels, and the MIME metadata
//     declares the CSS size (Retina reports true). The inline bundle
//     carries PNG and text/plain (MIMETypes lists only the PNG); SVG()
//     gives the vector version.
//   - Time is in seconds (dt, delays, response times), rates in Hz. Put
//     units in axis labels: "time (s)". Defaults already do.
//   - Colours are colour-blind safe: series cycle through seaborn's ten
//     "colorblind" colours (SeriesColor), then repeat them dashed (lines)
//     or with other markers; maps use viridis (Viridis), signed maps
//     Moreland's cool-warm.
//   - One style: Liberation Sans at 14/12/10.5 pt (title, labels, ticks).
//     Linear axes get nice-number ticks (steps 1, 2, 2.5 or 5 × 10ⁿ, 0
//     labelled whenever in range, an axis that comes within 10 % of 0
//     starts there); log axes label decades as powers of ten; sparse or
//     categorical axes put ticks on the data.
//   - A legend sits in a white box where it covers no data — found on a
//     trial rendering — or else outside the axes on the right; options
//     named Legend accept LegendPlacements.
//   - A plot does not change after construction and keeps no reference
//     to mutable state except the slices passed in (do not modify them
//     before the plot is rendered); PNG is rendered once and cached.
//   - Rasters bin spikes at construction into at most 1600×1200 cells
//     (one pass over [step][neuron]); a PNG is then drawn straight into
//     its pixels, with each pixel showing spike density when it covers
//     several neurons or steps. 1000 neurons × 1000 steps at 5 % renders
//     in well under the 200 ms budget (BenchmarkRasterPNG). RasterTrains
//     bins spike times in O(spikes), for populations too large for a
//     dense matrix (100 k neurons × 10 k steps: BenchmarkRasterTrains100k).
//
// # Graphs
//
// NetworkGraph draws a Graph — Nodes with a NodeKind (Nengo nodes and
// ensembles, statestream neuron-pools in green and synapse-pools in blue)
// and Edges by node ID — left to right in layers; recurrent edges are
// dashed, edges bow around nodes, and labels go where they overlap no
// node or other label (else into a numbered key); the canvas fits the
// layout. Graph is deliberately tiny and independent of package toolkit,
// which adapts its networks to it.
//
// # Tests
//
// The gallery (gallery_test.go) renders every plot kind and notable
// variant from fixed data and compares the PNG with its golden in
// testdata/gallery within a tolerance (package internal/imagediff); a
// failure writes the rendered image and a difference image and names
// them. The same cases make the documentation's plot gallery. Goldens in
// testdata/*.json record the structure of each sample plot's SVG
// (element counts, colours). Refresh both with go test -update (the
// gallery alone: go test -run TestGallery -update).
package viz
