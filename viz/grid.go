package viz

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxGridWidth is the widest default Grid, in CSS pixels: JupyterLab's
// output area is about 900 px wide at its default layout, so a figure up
// to this width is shown at (nearly) its own size and its text at the
// house sizes.
const maxGridWidth = 960

// GridOptions configures Grid. The zero value gives ⌈√n⌉ columns, panels
// at their own sizes scaled down to fit 960 px, and each panel's own
// colour scale.
type GridOptions struct {
	// Frame: Title is the figure's title (at the title size, above the
	// panels; "": none); zero sizes choose the size from the panels (see
	// Grid); XLabel and YLabel are not used.
	Frame
	// Cols is the number of columns (0 → ⌈√n⌉).
	Cols int
	// ShareScale draws every panel on one colour scale — the min and max
	// over all panels (symmetric around 0 for diverging maps) — with one
	// colour bar at the right of the figure instead of one per panel.
	// Every panel must then be a Heatmap or ConfusionMatrix (nil entries
	// are allowed) with the same colour map. false: each panel keeps its
	// own scale and bar.
	ShareScale bool
}

// Grid composes plots into one figure, row by row, Cols per row; each
// panel keeps its own title, legend and text at the house sizes. The
// default size gives every column the width of the widest panel, at most
// 960/Cols px (2 columns of 480, 3 of 320, …), so that the figure is at
// most 960 px wide and readable at JupyterLab's output width; each row is
// as tall as its panels scaled to that width (at least 240 px, or the
// panel's own height if smaller). A nil entry leaves its cell empty.
func Grid(plots []*Plot, opts GridOptions) (*Plot, error) {
	const name = "Grid"
	if len(plots) == 0 {
		return nil, errf(name, "plots", "[]", "must not be empty")
	}
	if opts.Cols < 0 {
		return nil, errf(name, "opts.Cols", opts.Cols, "must be ≥ 0 (0 chooses ⌈√n⌉)")
	}
	for i, p := range plots {
		if p != nil && p.draw == nil {
			return nil, errf(name, fmt.Sprintf("plots[%d]", i), p, "is not a plot made by this package")
		}
	}
	cols := opts.Cols
	if cols == 0 {
		for cols*cols < len(plots) {
			cols++
		}
	}
	cols = min(cols, len(plots))
	var shared []*matrixPlot
	var barW float64
	if opts.ShareScale {
		var err error
		if shared, err = gridMatrices(name, plots); err != nil {
			return nil, err
		}
		barW = float64(sharedScale(shared).width())
	}
	fr := opts.Frame
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width, fr.Height = gridSize(plots, cols, barW, fr.Title != "")
	}
	if shared != nil {
		return newPlot(name, fr, sharedScaleDraw(shared, cols, fr.Title)), nil
	}
	return grid(name, plots, cols, fr)
}

// grid composes plots in cols columns into a figure of size fr under the
// title fr.Title (the shared layout of Grid and multi-panel plots).
func grid(name string, plots []*Plot, cols int, fr Frame) (*Plot, error) {
	for i, p := range plots {
		if p != nil && p.draw == nil {
			return nil, errf(name, fmt.Sprintf("plots[%d]", i), p, "is not a plot made by this package")
		}
	}
	rows := (len(plots) + cols - 1) / cols
	title := fr.Title
	return newPlot(name, fr, func(c draw.Canvas, dpi float64) {
		c = drawFigureTitle(c, title)
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(8), PadY: vg.Points(8)}
		for i, p := range plots {
			if p == nil {
				continue
			}
			p.draw(tiles.At(c, i%cols, i/cols), dpi)
		}
	}), nil
}

// gridSize is the default size of a Grid of plots in cols columns, plus a
// shared colour bar strip of barW points and a title.
func gridSize(plots []*Plot, cols int, barW float64, title bool) (w, h float64) {
	rows := (len(plots) + cols - 1) / cols
	colW := 0.0
	for _, p := range plots {
		if p != nil {
			pw, _ := p.Size()
			colW = max(colW, pw)
		}
	}
	if colW == 0 {
		colW = DefaultWidth
	}
	colW = math.Min(colW, (maxGridWidth-barW)/float64(cols))
	for r := 0; r < rows; r++ {
		rowH := 0.0
		for i := r * cols; i < min(len(plots), (r+1)*cols); i++ {
			if plots[i] == nil {
				continue
			}
			pw, ph := plots[i].Size()
			scaled := ph * math.Min(1, colW/pw)
			rowH = max(rowH, math.Max(scaled, math.Min(ph, 240)))
		}
		if rowH == 0 {
			rowH = 240
		}
		h += rowH
	}
	if title {
		h += 30
	}
	return math.Round(colW*float64(cols) + barW), math.Round(h)
}

// gridMatrices returns the matrix behind every panel for a shared scale,
// or an error naming the first panel that is not a Heatmap or
// ConfusionMatrix or whose colour map differs.
func gridMatrices(name string, plots []*Plot) ([]*matrixPlot, error) {
	out := make([]*matrixPlot, len(plots))
	var first *matrixPlot
	for i, p := range plots {
		if p == nil {
			continue
		}
		m := matrixOf(p)
		if m == nil {
			return nil, errf(name, fmt.Sprintf("plots[%d]", i), p, "must be a Heatmap or ConfusionMatrix when opts.ShareScale is set")
		}
		if first == nil {
			first = m
		} else if m.cmapID != first.cmapID {
			return nil, errf(name, fmt.Sprintf("plots[%d]", i), p,
				fmt.Sprintf("uses the %s colour map, the first panel %s: panels on one scale must share the map", m.cmapID, first.cmapID))
		} else if m.label != "" && first.label != "" && m.label != first.label {
			return nil, errf(name, fmt.Sprintf("plots[%d]", i), p,
				fmt.Sprintf("colour label %q differs from the first panel's %q: panels on one scale must measure the same thing", m.label, first.label))
		}
		out[i] = m
	}
	if first == nil {
		return nil, errf(name, "plots", "all nil", "need at least one Heatmap or ConfusionMatrix when opts.ShareScale is set")
	}
	return out, nil
}
