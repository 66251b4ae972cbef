package viz

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ImageGridOptions configures ImageGrid. The zero value gives up to six
// images per row, viridis on one scale from the smallest to the largest
// value of all images, and one colour bar.
type ImageGridOptions struct {
	// Frame: Title is the figure's title ("": none); zero sizes choose
	// panels up to 160 px wide, the figure at most 960 px wide; XLabel and
	// YLabel are not used.
	Frame
	// Cols is the number of images per row (0: all in one row up to 6,
	// else rows of at most 6, balanced, e.g. 8 images in 2 rows of 4).
	Cols int
	// Colormap is "viridis" (or ""), "gray" (VMin black, VMax white),
	// "gray_r" (VMin white, VMax black: ink on paper) or "coolwarm"
	// (Moreland's diverging map, for signed data).
	Colormap string
	// VMin and VMax fix the colour scale; both 0 take the min and max over
	// all images (symmetric around 0 for "coolwarm"). Otherwise VMax must
	// exceed VMin; values outside are clamped to the ends of the map.
	VMin, VMax float64
	// HideColorBar leaves the shared colour bar out (false: one bar at
	// the right for all images).
	HideColorBar bool
	// ColorLabel is written along the colour bar ("": no label).
	ColorLabel string
}

// ImageGrid draws small multiples of images or matrices — images[k][row]
// [col], row 0 at the top — on ONE colour scale with one shared colour
// bar: e.g. MNIST digits, receptive fields, weight matrices per layer.
// Pixels are square and drawn without ticks, grid lines or seams; each
// image is captioned with titles[k] (nil titles: none). Images may differ
// in shape; each is fitted into its cell.
//
//	p, err := viz.ImageGrid(digits, labels, viz.ImageGridOptions{Cols: 4, Colormap: "gray_r"})
func ImageGrid(images [][][]float64, titles []string, opts ImageGridOptions) (*Plot, error) {
	const name = "ImageGrid"
	if len(images) == 0 {
		return nil, errf(name, "images", "[]", "must not be empty (want [image][row][col])")
	}
	if titles != nil {
		if err := checkSameLen(name, "images", len(images), "titles", len(titles)); err != nil {
			return nil, err
		}
	}
	if opts.Cols < 0 {
		return nil, errf(name, "opts.Cols", opts.Cols, "must be ≥ 0 (0 chooses rows of at most 6)")
	}
	cmap, ok := matrixColormap(opts.Colormap)
	if !ok {
		return nil, errf(name, "opts.Colormap", fmt.Sprintf("%q", opts.Colormap), `must be "viridis" (or ""), "gray", "gray_r" or "coolwarm"`)
	}
	if !finite(opts.VMin) {
		return nil, errf(name, "opts.VMin", opts.VMin, "must be finite")
	}
	if !finite(opts.VMax) {
		return nil, errf(name, "opts.VMax", opts.VMax, "must be finite")
	}
	auto := opts.VMin == 0 && opts.VMax == 0
	if !auto && opts.VMax <= opts.VMin {
		return nil, errf(name, "opts.VMax", opts.VMax, fmt.Sprintf("must exceed opts.VMin (%g), or both be 0 for the data's range", opts.VMin))
	}
	grids := make([]cellGrid, len(images))
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, im := range images {
		rows, cols, err := checkMatrix(name, fmt.Sprintf("images[%d]", k), im)
		if err != nil {
			return nil, err
		}
		grids[k] = cellGrid{m: im, rows: rows, cols: cols, cmap: cmap}
		for _, row := range im {
			for _, v := range row {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if !auto {
		lo, hi = opts.VMin, opts.VMax
	} else if opts.Colormap == "coolwarm" {
		a := math.Max(math.Abs(lo), math.Abs(hi))
		if a == 0 {
			a = 1
		}
		lo, hi = -a, a
	}
	for k := range grids {
		grids[k].vmin, grids[k].vmax = lo, hi
	}
	ig := &imageGrid{grids: grids, titles: titles, title: opts.Title,
		bar: colorBar{vmin: lo, vmax: hi, cmap: cmap, label: opts.ColorLabel}, hideBar: opts.HideColorBar}
	ig.cols = opts.Cols
	if ig.cols == 0 {
		n := len(images)
		rows := (n + 5) / 6
		ig.cols = (n + rows - 1) / rows
	}
	ig.cols = min(ig.cols, len(images))
	fr := opts.Frame
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width, fr.Height = ig.size()
	}
	return newPlot(name, fr, ig.draw), nil
}

// imageGrid is the laid-out data of an ImageGrid.
type imageGrid struct {
	grids   []cellGrid
	titles  []string
	title   string
	cols    int
	bar     colorBar
	hideBar bool
}

const (
	imagePanelMax = 160 // default widest image cell, CSS px
	imagePad      = 6   // space around each image
)

func (ig *imageGrid) rows() int { return (len(ig.grids) + ig.cols - 1) / ig.cols }

// barWidth is the strip of the shared colour bar (0 when hidden).
func (ig *imageGrid) barWidth() vg.Length {
	if ig.hideBar {
		return 0
	}
	return ig.bar.width()
}

// captionHeight is the height of a caption line (0 without titles).
func (ig *imageGrid) captionHeight() vg.Length {
	if ig.titles == nil {
		return 0
	}
	return textStyle(labelSize).Height("Mg") + vg.Points(4)
}

// titleHeight is the height of the figure title strip.
func (ig *imageGrid) titleHeight() vg.Length {
	if ig.title == "" {
		return 0
	}
	return textStyle(titleSize).Height(ig.title) + vg.Points(10)
}

// size is the default figure size: cells up to 160 px wide, the figure at
// most 960 px wide, rows as tall as their tallest image at that width.
func (ig *imageGrid) size() (w, h float64) {
	bw := float64(ig.barWidth())
	cellW := math.Min(imagePanelMax, (maxGridWidth-bw)/float64(ig.cols))
	inner := cellW - 2*imagePad
	for r := 0; r < ig.rows(); r++ {
		rowH := 0.0
		for k := r * ig.cols; k < min(len(ig.grids), (r+1)*ig.cols); k++ {
			g := ig.grids[k]
			rowH = math.Max(rowH, inner*float64(g.rows)/float64(g.cols))
		}
		h += rowH + 2*imagePad + float64(ig.captionHeight())
	}
	h += float64(ig.titleHeight())
	return math.Round(cellW*float64(ig.cols) + bw), math.Round(h)
}

// layout returns the rectangle of each image (square pixels, centred in
// its cell below its caption) and of the colour bar (zero when hidden) on
// canvas c.
func (ig *imageGrid) layout(c draw.Canvas) (imgs []vg.Rectangle, bar vg.Rectangle) {
	top := c.Max.Y - ig.titleHeight()
	area := vg.Rectangle{Min: c.Min, Max: vg.Point{X: c.Max.X - ig.barWidth(), Y: top}}
	rows := ig.rows()
	cellW := area.Size().X / vg.Length(ig.cols)
	cellH := area.Size().Y / vg.Length(rows)
	capH := ig.captionHeight()
	imgs = make([]vg.Rectangle, len(ig.grids))
	lo, hi := vg.Length(math.Inf(1)), vg.Length(math.Inf(-1))
	for k, g := range ig.grids {
		r, col := k/ig.cols, k%ig.cols
		x0 := area.Min.X + cellW*vg.Length(col) + imagePad
		y1 := area.Max.Y - cellH*vg.Length(r) - capH - imagePad
		aw, ah := cellW-2*imagePad, cellH-capH-2*imagePad
		px := min(aw/vg.Length(g.cols), ah/vg.Length(g.rows))
		if px <= 0 {
			continue
		}
		w, h := px*vg.Length(g.cols), px*vg.Length(g.rows)
		ix := x0 + (aw-w)/2
		imgs[k] = vg.Rectangle{Min: vg.Point{X: ix, Y: y1 - h}, Max: vg.Point{X: ix + w, Y: y1}}
		lo, hi = min(lo, y1-h), max(hi, y1)
	}
	if !ig.hideBar && hi > lo {
		bar = ig.bar.rect(area.Max.X, lo, hi)
	}
	return imgs, bar
}

func (ig *imageGrid) draw(c draw.Canvas, _ float64) {
	if ig.title != "" {
		drawFigureTitle(c, ig.title)
	}
	imgs, bar := ig.layout(c)
	cap := textStyle(labelSize)
	cap.XAlign, cap.YAlign = draw.XCenter, draw.YBottom
	border := draw.LineStyle{Color: color.Gray{0xB0}, Width: vg.Points(0.5)}
	for k := range ig.grids {
		r := imgs[k]
		if r.Size().X <= 0 {
			continue
		}
		ig.grids[k].paint(c, r)
		c.StrokeLines(border, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
		if ig.titles != nil && ig.titles[k] != "" {
			c.FillText(cap, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: r.Max.Y + vg.Points(3)}, ig.titles[k])
		}
	}
	if bar.Size().Y > 0 {
		ig.bar.draw(c, bar.Min.X-vg.Points(barGap), bar.Min.Y, bar.Max.Y)
	}
}
