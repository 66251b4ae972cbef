package viz

import (
	"fmt"
	"image"
	"image/color"
	imdraw "image/draw"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxVectorCells is the most cells drawn as SVG rectangles; larger
// matrices are embedded in the SVG as an image. PNGs always get the cells
// written straight into their pixels (no seams between cells).
const maxVectorCells = 4096

// maxTickCells is the most rows or columns that get a tick at every cell
// (when the labels fit); larger matrices get a nice subset.
const maxTickCells = 30

// cellGrid draws a matrix as coloured cells, row 0 at the top, filling
// the data area (axes 0..cols and 0..rows without padding).
type cellGrid struct {
	m          [][]float64
	rows, cols int
	vmin, vmax float64
	cmap       func(t float64) color.RGBA
	annotate   bool
	format     func(v float64) string
}

func (g *cellGrid) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, float64(g.cols), 0, float64(g.rows)
}

func (g *cellGrid) norm(v float64) float64 {
	if g.vmax == g.vmin {
		return 0.5
	}
	return (v - g.vmin) / (g.vmax - g.vmin)
}

func (g *cellGrid) color(v float64) color.RGBA { return g.cmap(g.norm(v)) }

func (g *cellGrid) image() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, g.cols, g.rows))
	for i, row := range g.m {
		for j, v := range row {
			img.SetRGBA(j, i, g.color(v))
		}
	}
	return img
}

// Plot implements plot.Plotter.
func (g *cellGrid) Plot(c draw.Canvas, _ *plot.Plot) { g.paint(c, c.Rectangle) }

// paint draws the cells into r: pixels on a PNG canvas (nearest
// neighbour), rectangles or an embedded image on vector canvases, then the
// annotations where they fit in their cells.
func (g *cellGrid) paint(c draw.Canvas, r vg.Rectangle) {
	if !paintPixels(c, r, g.image()) {
		if g.rows*g.cols > maxVectorCells {
			c.DrawImage(r, g.image())
		} else {
			cw, ch := r.Size().X/vg.Length(g.cols), r.Size().Y/vg.Length(g.rows)
			// A hair of overlap so renderers leave no seams between cells.
			eps := vg.Points(0.3)
			for i, row := range g.m {
				y1 := r.Max.Y - ch*vg.Length(i)
				y0 := y1 - ch - eps
				for j, v := range row {
					x0 := r.Min.X + cw*vg.Length(j)
					x1 := x0 + cw + eps
					c.FillPolygon(g.color(v), []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
				}
			}
		}
	}
	if !g.annotate {
		return
	}
	sty := textStyle(tickSize)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	cw, ch := r.Size().X/vg.Length(g.cols), r.Size().Y/vg.Length(g.rows)
	if ch < sty.Height("0")*1.1 {
		return
	}
	for i, row := range g.m {
		for j, v := range row {
			s := trueMinus(g.format(v))
			if sty.Width(s)+vg.Points(2) > cw {
				continue
			}
			sty.Color = textOn(g.color(v))
			c.FillText(sty, vg.Point{X: r.Min.X + cw*(vg.Length(j)+0.5), Y: r.Max.Y - ch*(vg.Length(i)+0.5)}, s)
		}
	}
}

// paintPixels copies img (row 0 at the top) into the rectangle r of a PNG
// canvas by nearest neighbour and reports whether c is one; on other
// canvases it draws nothing.
func paintPixels(c draw.Canvas, r vg.Rectangle, img *image.RGBA) bool {
	ic, ok := unwrapImg(c.Canvas)
	if !ok {
		return false
	}
	dst, dpi := ic.Image(), ic.DPI()
	H := dst.Bounds().Dy()
	x0, x1 := int(math.Round(r.Min.X.Dots(dpi))), int(math.Round(r.Max.X.Dots(dpi)))
	y0, y1 := H-int(math.Round(r.Max.Y.Dots(dpi))), H-int(math.Round(r.Min.Y.Dots(dpi)))
	w, h := x1-x0, y1-y0
	if w <= 0 || h <= 0 {
		return true
	}
	sw, sh := img.Bounds().Dx(), img.Bounds().Dy()
	tile := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		i := y * sh / h
		for x := 0; x < w; x++ {
			o := img.PixOffset(x*sw/w, i)
			copy(tile.Pix[tile.PixOffset(x, y):][:4], img.Pix[o:o+4])
		}
	}
	imdraw.Draw(dst, image.Rect(x0, y0, x1, y1), tile, image.Point{}, imdraw.Src)
	return true
}

// ---- colour maps ----

// coolWarm is Moreland's smooth cool-warm diverging map on [0, 1].
func coolWarm() func(t float64) color.RGBA {
	cw := moreland.SmoothBlueRed()
	cw.SetMin(0)
	cw.SetMax(1)
	return func(t float64) color.RGBA {
		if math.IsNaN(t) {
			t = 0.5
		}
		t = math.Min(1, math.Max(0, t))
		c, err := cw.At(t)
		if err != nil {
			return color.RGBA{A: 0xFF}
		}
		return color.RGBAModel.Convert(c).(color.RGBA)
	}
}

// grayMap maps 0 → black, 1 → white; reversed maps 0 → white, 1 → black.
func grayMap(reversed bool) func(t float64) color.RGBA {
	return func(t float64) color.RGBA {
		if math.IsNaN(t) {
			t = 0
		}
		t = math.Min(1, math.Max(0, t))
		if reversed {
			t = 1 - t
		}
		v := uint8(255*t + 0.5)
		return color.RGBA{v, v, v, 0xFF}
	}
}

// matrixColormap returns the colour map called name ("" is viridis).
func matrixColormap(name string) (func(float64) color.RGBA, bool) {
	switch name {
	case "", "viridis":
		return Viridis, true
	case "coolwarm":
		return coolWarm(), true
	case "gray":
		return grayMap(false), true
	case "gray_r":
		return grayMap(true), true
	}
	return nil, false
}

// ---- colour bar ----

// colorBar is the scale of a colour map: a vertical strip with ticks and
// a label, drawn to the right of the plots it belongs to.
type colorBar struct {
	vmin, vmax float64
	cmap       func(t float64) color.RGBA
	label      string
}

const (
	barGap   = 10 // between the plots and the bar
	barWidth = 12
)

// ticks are the labelled values of the bar: nice numbers in [vmin, vmax].
func (b colorBar) ticks() []plot.Tick {
	if !(b.vmax > b.vmin) {
		return []plot.Tick{{Value: b.vmin, Label: trueMinus(strconv.FormatFloat(b.vmin, 'g', 4, 64))}}
	}
	return niceTicks{target: 5}.Ticks(b.vmin, b.vmax)
}

// width is the strip the bar needs to the right of the plots.
func (b colorBar) width() vg.Length {
	sty := textStyle(tickSize)
	var w vg.Length
	for _, t := range b.ticks() {
		w = max(w, sty.Width(t.Label))
	}
	lw := vg.Length(0)
	if b.label != "" {
		lw = textStyle(labelSize).Height(b.label) + vg.Points(6)
	}
	return vg.Points(barGap+barWidth+3+4) + w + lw + vg.Points(4)
}

// rect is the bar's rectangle when its strip starts at x and it spans
// [y0, y1] vertically.
func (b colorBar) rect(x, y0, y1 vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: x + vg.Points(barGap), Y: y0}, Max: vg.Point{X: x + vg.Points(barGap+barWidth), Y: y1}}
}

// draw draws the bar in its strip starting at x, spanning [y0, y1].
func (b colorBar) draw(c draw.Canvas, x, y0, y1 vg.Length) {
	r := b.rect(x, y0, y1)
	if y1 <= y0 {
		return
	}
	const n = 256
	img := image.NewRGBA(image.Rect(0, 0, 1, n))
	for k := 0; k < n; k++ {
		img.SetRGBA(0, n-1-k, b.cmap(float64(k)/(n-1)))
	}
	if !paintPixels(c, r, img) {
		c.DrawImage(r, img)
	}
	ls := draw.LineStyle{Color: color.Gray{0x60}, Width: vg.Points(0.5)}
	c.StrokeLines(ls, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
	sty := textStyle(tickSize)
	sty.YAlign = draw.YCenter
	var wmax vg.Length
	for _, t := range b.ticks() {
		y := (y0 + y1) / 2
		if b.vmax > b.vmin {
			y = y0 + (y1-y0)*vg.Length((t.Value-b.vmin)/(b.vmax-b.vmin))
		}
		c.StrokeLine2(ls, r.Max.X, y, r.Max.X+vg.Points(3), y)
		c.FillText(sty, vg.Point{X: r.Max.X + vg.Points(5), Y: y}, t.Label)
		wmax = max(wmax, sty.Width(t.Label))
	}
	if b.label != "" {
		ls := textStyle(labelSize)
		// Read bottom to top, to the right of the tick labels.
		ls.XAlign, ls.YAlign = draw.XCenter, draw.YBottom
		ls.Rotation = math.Pi / 2
		x := r.Max.X + vg.Points(5) + wmax + vg.Points(6) + ls.Height(b.label)
		c.FillText(ls, vg.Point{X: x, Y: (y0 + y1) / 2}, b.label)
	}
}

// ---- matrix plots (Heatmap, ConfusionMatrix and their panels) ----

// matrixPlot is a heat map whose scale can be overridden, so that panels
// of one figure can share one colour scale and one colour bar.
type matrixPlot struct {
	grid                  cellGrid // vmin, vmax: its own scale
	cmapID                string   // "viridis", "coolwarm", ...
	symmetric             bool     // a shared scale stays symmetric around 0
	label                 string   // colour-bar label
	title, xlabel, ylabel string
	fr                    Frame
	xnames, ynames        []string // nil: cell indices
	hideBar               bool
}

// matrixQuery is the canvas Grid hands a panel's draw function to learn
// whether it is a matrixPlot: the plot records itself and draws nothing.
type matrixQuery struct {
	noopCanvas
	found *matrixPlot
}

// matrixOf returns the matrix behind a Heatmap or ConfusionMatrix plot,
// or nil.
func matrixOf(p *Plot) *matrixPlot {
	if p == nil || p.draw == nil || (p.name != "Heatmap" && p.name != "ConfusionMatrix") {
		return nil
	}
	q := &matrixQuery{}
	p.draw(draw.Canvas{Canvas: q, Rectangle: vg.Rectangle{Max: vg.Point{X: 100, Y: 100}}}, 0)
	return q.found
}

// bar is the colour bar of scale [vmin, vmax].
func (m *matrixPlot) bar(vmin, vmax float64) colorBar {
	return colorBar{vmin: vmin, vmax: vmax, cmap: m.grid.cmap, label: m.label}
}

// draw is the Plot's draw function: the matrix with its own colour bar.
func (m *matrixPlot) draw(c draw.Canvas, _ float64) {
	if q, ok := c.Canvas.(*matrixQuery); ok {
		q.found = m
		return
	}
	if m.hideBar {
		m.drawPanel(c, m.grid.vmin, m.grid.vmax)
		return
	}
	b := m.bar(m.grid.vmin, m.grid.vmax)
	left := draw.Crop(c, 0, -b.width(), 0, 0)
	da := m.drawPanel(left, m.grid.vmin, m.grid.vmax)
	b.draw(c, left.Max.X, da.Min.Y, da.Max.Y)
}

// drawPanel draws the matrix (no colour bar) in c with the scale
// [vmin, vmax] and returns its data area.
func (m *matrixPlot) drawPanel(c draw.Canvas, vmin, vmax float64) vg.Rectangle {
	p := m.gonum(c, vmin, vmax)
	p.Draw(c)
	return p.DataCanvas(c).Rectangle
}

// gonum lays the matrix out for canvas c: ticks at every cell centre when
// their labels fit, else every k-th; x labels rotated only when they
// would overlap at their width.
func (m *matrixPlot) gonum(c draw.Canvas, vmin, vmax float64) *plot.Plot {
	g := m.grid
	g.vmin, g.vmax = vmin, vmax
	p := newGonum(m.fr, m.title, m.xlabel, m.ylabel)
	p.Add(&g)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, float64(g.cols), 0, float64(g.rows)
	p.X.Padding, p.Y.Padding = 0, 0
	sty := textStyle(tickSize)
	xl := cellLabels(m.xnames, g.cols)
	yl := cellLabels(m.ynames, g.rows)
	p.X.Tick.Marker = cellTicks(xl, 1, false)
	p.Y.Tick.Marker = cellTicks(yl, 1, true)
	da := p.DataCanvas(c).Rectangle
	cw := float64(da.Size().X) / float64(g.cols)
	var wmax vg.Length
	for _, s := range xl {
		wmax = max(wmax, sty.Width(s))
	}
	need := float64(wmax + vg.Points(4))
	lineH := float64(sty.Height("0"))
	xstride := 1
	switch {
	case g.cols <= maxTickCells && need <= cw:
	case g.cols <= maxTickCells && m.xnames != nil && 1.5*lineH <= cw:
		// Named classes that would overlap: rotate rather than drop names.
		p.X.Tick.Label.Rotation = math.Pi / 4
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	default:
		xstride = cellStride(g.cols, need, cw)
	}
	p.X.Tick.Marker = cellTicks(xl, xstride, false)
	da = p.DataCanvas(c).Rectangle
	ch := float64(da.Size().Y) / float64(g.rows)
	ystride := 1
	if g.rows > maxTickCells || 1.2*lineH > ch {
		ystride = cellStride(g.rows, 1.2*lineH, ch)
	}
	p.Y.Tick.Marker = cellTicks(yl, ystride, true)
	return p
}

// cellLabels are names, or the indices 0..n-1.
func cellLabels(names []string, n int) []string {
	if names != nil {
		return names
	}
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}

// cellStride is the smallest step among 1, 2, 5, 10, 20, 50, ... (and at
// least n/10 beyond maxTickCells cells) whose labels, need points each, fit
// in cells of size cell.
func cellStride(n int, need, cell float64) int {
	for _, s := range []int{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000} {
		if float64(s)*cell >= need && (n <= maxTickCells || n/s <= 10) {
			return s
		}
	}
	return max(1, n)
}

// cellTicks labels every stride-th cell centre (reversed for the y axis,
// whose row 0 is at the top).
func cellTicks(labels []string, stride int, reverse bool) plot.ConstantTicks {
	n := len(labels)
	var t plot.ConstantTicks
	for i := 0; i < n; i += stride {
		k := float64(i)
		if reverse {
			k = float64(n - 1 - i)
		}
		t = append(t, plot.Tick{Value: k + 0.5, Label: labels[i]})
	}
	return t
}

// ---- confusion matrices ----

// ConfusionOptions configures ConfusionMatrix and TemporalConfusion. The
// zero value shows counts, with values in the cells and a colour bar.
type ConfusionOptions struct {
	// Frame: zero sizes give 520×440 for ConfusionMatrix and panels of
	// about 300×300 for TemporalConfusion (whose Frame.Title is the
	// figure's title).
	Frame
	// Normalize divides each row (true class) by its sum, so cells are the
	// fraction of that class predicted as each class (rows of zeros stay
	// 0) and the colour scale is [0, 1]; false shows counts on [0, max].
	Normalize bool
	// HideValues turns off the numbers written in the cells (false: they
	// are written in every cell they fit in, up to 20×20 classes).
	HideValues bool
	// HideColorBar leaves the colour bar out (false: it is drawn). Only
	// for panels whose scale is shown elsewhere; prefer GridOptions'
	// ShareScale, which draws one bar for all panels.
	HideColorBar bool
}

// ConfusionMatrix plots counts[true][predicted] with the class names on
// both axes (nil names: 0, 1, ...), coloured with viridis, values written
// in the cells in black or white for contrast, a colour bar labelled
// "count" (or "fraction" when normalised), and the overall accuracy
// (trace/total) in the title. Counts must be a square matrix of finite
// values ≥ 0.
func ConfusionMatrix(counts [][]float64, classNames []string, opts ConfusionOptions) (*Plot, error) {
	const name = "ConfusionMatrix"
	m, _, err := confusion(name, counts, classNames, opts)
	if err != nil {
		return nil, err
	}
	fr := opts.Frame
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width, fr.Height = 520, 440
	}
	return newPlot(name, fr, m.draw), nil
}

// confusion validates counts and returns its matrix plot and accuracy
// (NaN without samples).
func confusion(name string, counts [][]float64, classNames []string, opts ConfusionOptions) (*matrixPlot, float64, error) {
	rows, cols, err := checkMatrix(name, "counts", counts)
	if err != nil {
		return nil, 0, err
	}
	if rows != cols {
		return nil, 0, errf(name, "shape of counts", fmt.Sprintf("%d×%d", rows, cols), "must be square (true × predicted classes)")
	}
	if classNames == nil {
		classNames = cellLabels(nil, rows)
	}
	if len(classNames) != rows {
		return nil, 0, errf(name, "len(classNames)", len(classNames), fmt.Sprintf("must equal the number of classes in counts (%d)", rows))
	}
	var total, trace float64
	m := make([][]float64, rows)
	for i, row := range counts {
		m[i] = append([]float64(nil), row...)
		var s float64
		for j, v := range row {
			if v < 0 {
				return nil, 0, errf(name, fmt.Sprintf("counts[%d][%d]", i, j), v, "counts must be ≥ 0")
			}
			s += v
		}
		total += s
		trace += row[i]
		if opts.Normalize && s > 0 {
			for j := range m[i] {
				m[i][j] /= s
			}
		}
	}
	g := cellGrid{m: m, rows: rows, cols: cols, cmap: Viridis, annotate: !opts.HideValues && rows <= 20}
	g.vmin, g.vmax = 0, 1
	if !opts.Normalize {
		g.vmax = 0
		for _, row := range m {
			for _, v := range row {
				g.vmax = math.Max(g.vmax, v)
			}
		}
	}
	g.format = func(v float64) string {
		if opts.Normalize {
			return strconv.FormatFloat(v, 'f', 2, 64)
		}
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	acc := math.NaN()
	title := "Confusion matrix"
	if total > 0 {
		acc = trace / total
		title = fmt.Sprintf("Confusion matrix (accuracy %.1f %%)", 100*acc)
	}
	label := "count"
	if opts.Normalize {
		label = "fraction"
	}
	mp := &matrixPlot{grid: g, cmapID: "viridis", label: label, title: title,
		xlabel: "predicted class", ylabel: "true class", fr: opts.Frame,
		xnames: classNames, ynames: classNames, hideBar: opts.HideColorBar}
	return mp, acc, nil
}

// TemporalConfusion plots one confusion matrix per delay Δt after stimulus
// onset (counts[delay][true][predicted], delays in seconds) as panels of
// one figure, titled "Δt = … (accuracy …)", all on ONE colour scale with
// one colour bar: [0, 1] when opts.Normalize, else [0, the largest count
// of any panel]. Values are written in the cells up to 6 classes (and
// unless opts.HideValues). opts.Frame.Title is the figure's title.
func TemporalConfusion(counts [][][]float64, delays []float64, classNames []string, opts ConfusionOptions) (*Plot, error) {
	const name = "TemporalConfusion"
	if len(counts) == 0 {
		return nil, errf(name, "counts", "[]", "must not be empty (want [delay][true][predicted])")
	}
	if err := checkSameLen(name, "counts", len(counts), "delays", len(delays)); err != nil {
		return nil, err
	}
	if err := checkSlice(name, "delays", delays); err != nil {
		return nil, err
	}
	panels := make([]*matrixPlot, len(counts))
	for k, cm := range counts {
		o := opts
		o.Frame = Frame{}
		o.HideValues = opts.HideValues || len(cm) > 6
		m, acc, err := confusion(name, cm, classNames, o)
		if err != nil {
			return nil, fmt.Errorf("%w (panel %d, Δt = %g s)", err, k, delays[k])
		}
		m.title = fmt.Sprintf("Δt = %s", formatSeconds(delays[k]))
		if !math.IsNaN(acc) {
			m.title += fmt.Sprintf(" (accuracy %.1f %%)", 100*acc)
		}
		panels[k] = m
	}
	cols := len(panels)
	if cols > 3 {
		cols = min(3, int(math.Ceil(math.Sqrt(float64(len(panels))))))
	}
	fr := opts.Frame
	fr.Title = pick(fr.Title, "Confusion matrices over time since stimulus onset")
	if fr.Width == 0 && fr.Height == 0 {
		rowsN := (len(panels) + cols - 1) / cols
		bw := float64(panels[0].bar(0, 1).width())
		fr.Width = math.Round(float64(290*cols) + bw)
		fr.Height = float64(300*rowsN) + 30
	}
	return newPlot(name, fr, sharedScaleDraw(panels, cols, fr.Title)), nil
}

// sharedScale is the one colour scale of panels (nil entries are
// skipped; at least one must be set): the min and max over all of them
// (symmetric around 0 for diverging maps), with the label of the first
// panel that has one.
func sharedScale(panels []*matrixPlot) colorBar {
	lo, hi := math.Inf(1), math.Inf(-1)
	label := ""
	sym := false
	var cmap func(float64) color.RGBA
	for _, m := range panels {
		if m == nil {
			continue
		}
		lo, hi = math.Min(lo, m.grid.vmin), math.Max(hi, m.grid.vmax)
		label = pick(label, m.label)
		sym = sym || m.symmetric
		if cmap == nil {
			cmap = m.grid.cmap
		}
	}
	if sym {
		a := math.Max(math.Abs(lo), math.Abs(hi))
		lo, hi = -a, a
	}
	return colorBar{vmin: lo, vmax: hi, cmap: cmap, label: label}
}

// sharedScaleDraw draws panels in a grid of cols columns on one colour
// scale, with one colour bar at the right spanning the panels' data areas
// and the figure title on top.
func sharedScaleDraw(panels []*matrixPlot, cols int, title string) func(draw.Canvas, float64) {
	b := sharedScale(panels)
	rows := (len(panels) + cols - 1) / cols
	return func(c draw.Canvas, _ float64) {
		c = drawFigureTitle(c, title)
		area := draw.Crop(c, 0, -b.width(), 0, 0)
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(8), PadY: vg.Points(8)}
		lo, hi := vg.Length(math.Inf(1)), vg.Length(math.Inf(-1))
		for i, m := range panels {
			if m == nil {
				continue
			}
			da := m.drawPanel(tiles.At(area, i%cols, i/cols), b.vmin, b.vmax)
			lo, hi = min(lo, da.Min.Y), max(hi, da.Max.Y)
		}
		if hi > lo {
			b.draw(c, area.Max.X, lo, hi)
		}
	}
}

// drawFigureTitle writes a figure title at the top of c at the house
// title size and returns the canvas below it (c itself without a title).
func drawFigureTitle(c draw.Canvas, title string) draw.Canvas {
	if title == "" {
		return c
	}
	sty := textStyle(titleSize)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Points(4)}, title)
	return draw.Crop(c, 0, 0, 0, -(sty.Height(title) + vg.Points(10)))
}

// formatSeconds writes a delay in ms below 1 s.
func formatSeconds(s float64) string {
	if math.Abs(s) < 1 {
		return strconv.FormatFloat(s*1000, 'g', 4, 64) + " ms"
	}
	return strconv.FormatFloat(s, 'g', 4, 64) + " s"
}

// ---- heat maps ----

// HeatmapOptions configures Heatmap. The zero value draws viridis from the
// matrix's min to max, index ticks, and a colour bar labelled "value".
type HeatmapOptions struct {
	// Frame: zero sizes give 640×400.
	Frame
	// ColorLabel is written along the colour bar, e.g. "weight" or
	// "spikes" ("": "value").
	ColorLabel string
	// Diverging uses a blue–white–red map symmetric around 0 (Moreland's
	// smooth cool-warm, colour-blind safe), for signed data like weights;
	// false: viridis from min to max.
	Diverging bool
	// Annotate writes each value in its cell, in black or white for
	// contrast, where it fits (up to 20×20 cells); false: no values.
	Annotate bool
	// XTicks and YTicks name the columns and rows (nil: the indices).
	XTicks, YTicks []string
}

// Heatmap plots a matrix m[row][col] (row 0 at the top) with a colour bar:
// weight matrices, spike counts per neuron and time bin. Ticks sit at cell
// centres, every cell up to 30 when the labels fit, else a nice subset.
// The cells are drawn without grid lines; in SVG, matrices beyond 4096
// cells are embedded as an image. For small multiples of images on one
// scale use ImageGrid, or Grid with GridOptions.ShareScale.
func Heatmap(m [][]float64, opts HeatmapOptions) (*Plot, error) {
	const name = "Heatmap"
	rows, cols, err := checkMatrix(name, "m", m)
	if err != nil {
		return nil, err
	}
	if opts.XTicks != nil && len(opts.XTicks) != cols {
		return nil, errf(name, "len(opts.XTicks)", len(opts.XTicks), fmt.Sprintf("must equal the number of columns (%d)", cols))
	}
	if opts.YTicks != nil && len(opts.YTicks) != rows {
		return nil, errf(name, "len(opts.YTicks)", len(opts.YTicks), fmt.Sprintf("must equal the number of rows (%d)", rows))
	}
	g := cellGrid{m: m, rows: rows, cols: cols, annotate: opts.Annotate && rows*cols <= 400, cmap: Viridis}
	g.vmin, g.vmax = math.Inf(1), math.Inf(-1)
	for _, row := range m {
		for _, v := range row {
			g.vmin, g.vmax = math.Min(g.vmin, v), math.Max(g.vmax, v)
		}
	}
	mp := &matrixPlot{cmapID: "viridis", label: pick(opts.ColorLabel, "value"), title: "Heatmap", xlabel: "column", ylabel: "row",
		fr: opts.Frame, xnames: opts.XTicks, ynames: opts.YTicks}
	if opts.Diverging {
		a := math.Max(math.Abs(g.vmin), math.Abs(g.vmax))
		if a == 0 {
			a = 1
		}
		g.vmin, g.vmax = -a, a
		g.cmap = coolWarm()
		mp.cmapID, mp.symmetric = "coolwarm", true
	}
	g.format = func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
	mp.grid = g
	return newPlot(name, opts.Frame, mp.draw), nil
}

// noopCanvas is a vg.Canvas that draws nothing.
type noopCanvas struct{}

func (noopCanvas) SetLineWidth(vg.Length)                 {}
func (noopCanvas) SetLineDash([]vg.Length, vg.Length)     {}
func (noopCanvas) SetColor(color.Color)                   {}
func (noopCanvas) Rotate(float64)                         {}
func (noopCanvas) Translate(vg.Point)                     {}
func (noopCanvas) Scale(float64, float64)                 {}
func (noopCanvas) Push()                                  {}
func (noopCanvas) Pop()                                   {}
func (noopCanvas) Stroke(vg.Path)                         {}
func (noopCanvas) Fill(vg.Path)                           {}
func (noopCanvas) FillString(font.Face, vg.Point, string) {}
func (noopCanvas) DrawImage(vg.Rectangle, image.Image)    {}
