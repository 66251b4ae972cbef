package viz

import (
	"fmt"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GridOptions configures Grid.
type GridOptions struct {
	Frame
	// Cols is the number of columns (0 → ⌈√n⌉).
	Cols int
}

// Grid composes plots into one figure, row by row, Cols per row. The
// default size is the sum of the panels' sizes, capped at 1280 wide. A
// nil entry leaves its cell empty.
func Grid(plots []*Plot, opts GridOptions) (*Plot, error) {
	const name = "Grid"
	if len(plots) == 0 {
		return nil, errf(name, "plots", "[]", "must not be empty")
	}
	if opts.Cols < 0 {
		return nil, errf(name, "opts.Cols", opts.Cols, "must be ≥ 0 (0 chooses ⌈√n⌉)")
	}
	cols := opts.Cols
	if cols == 0 {
		for cols*cols < len(plots) {
			cols++
		}
	}
	cols = min(cols, len(plots))
	fr := opts.Frame
	if fr.Width == 0 && fr.Height == 0 {
		rows := (len(plots) + cols - 1) / cols
		var w, h float64
		for i := 0; i < cols; i++ {
			pw, _ := plots[i].Size()
			w += max(pw, 200)
		}
		for r := 0; r < rows; r++ {
			_, ph := plots[r*cols].Size()
			h += max(ph, 150)
		}
		if fr.Title != "" {
			h += 30
		}
		if w > 1280 {
			h *= 1280 / w
			w = 1280
		}
		fr.Width, fr.Height = w, h
	}
	return grid(name, plots, cols, fr)
}

func grid(name string, plots []*Plot, cols int, fr Frame) (*Plot, error) {
	rows := (len(plots) + cols - 1) / cols
	for i, p := range plots {
		if p != nil && p.draw == nil {
			return nil, errf(name, fmt.Sprintf("plots[%d]", i), p, "is not a plot made by this package")
		}
	}
	title := fr.Title
	return newPlot(name, fr, func(c draw.Canvas, dpi float64) {
		if title != "" {
			sty := textStyle(titleSize + 1)
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
			c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Points(4)}, title)
			c = draw.Crop(c, 0, 0, 0, -vg.Points(26))
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(4), PadY: vg.Points(4)}
		for i, p := range plots {
			if p == nil {
				continue
			}
			p.draw(tiles.At(c, i%cols, i/cols), dpi)
		}
	}), nil
}
