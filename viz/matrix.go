package viz

import (
	"fmt"
	"image"
	"image/color"
	imdraw "image/draw"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxVectorCells is the most cells drawn as SVG rectangles; larger
// matrices are drawn as an image.
const maxVectorCells = 4096

// cellGrid draws a matrix as coloured cells, row 0 at the top.
type cellGrid struct {
	m          [][]float64
	rows, cols int
	vmin, vmax float64
	color      func(v float64) color.RGBA
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

func (g *cellGrid) image() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, g.cols, g.rows))
	for i, row := range g.m {
		for j, v := range row {
			img.SetRGBA(j, i, g.color(v))
		}
	}
	return img
}

func (g *cellGrid) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	if g.rows*g.cols > maxVectorCells {
		img := g.image()
		if ic, ok := unwrapImg(c.Canvas); ok {
			// Nearest-neighbour scaling straight into the PNG's pixels.
			dst, dpi := ic.Image(), ic.DPI()
			H := dst.Bounds().Dy()
			x0, x1 := int(math.Round(c.Min.X.Dots(dpi))), int(math.Round(c.Max.X.Dots(dpi)))
			y0, y1 := H-int(math.Round(c.Max.Y.Dots(dpi))), H-int(math.Round(c.Min.Y.Dots(dpi)))
			w, h := x1-x0, y1-y0
			if w <= 0 || h <= 0 {
				return
			}
			tile := image.NewRGBA(image.Rect(0, 0, w, h))
			for y := 0; y < h; y++ {
				i := y * g.rows / h
				for x := 0; x < w; x++ {
					o := img.PixOffset(x*g.cols/w, i)
					copy(tile.Pix[tile.PixOffset(x, y):][:4], img.Pix[o:o+4])
				}
			}
			imdraw.Draw(dst, image.Rect(x0, y0, x1, y1), tile, image.Point{}, imdraw.Src)
			return
		}
		c.DrawImage(c.Rectangle, img)
		return
	}
	sty := textStyle(tickSize)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for i, row := range g.m {
		y0, y1 := trY(float64(g.rows-i-1)), trY(float64(g.rows-i))
		for j, v := range row {
			x0, x1 := trX(float64(j)), trX(float64(j+1))
			col := g.color(v)
			c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
			if g.annotate {
				sty.Color = textOn(col)
				c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, g.format(v))
			}
		}
	}
}

// nameTicks labels cell centres 0.5, 1.5, ... with names (reversed for
// the y axis, whose row 0 is at the top).
func nameTicks(names []string, reverse bool) plot.ConstantTicks {
	n := len(names)
	t := make(plot.ConstantTicks, n)
	for i, s := range names {
		k := i
		if reverse {
			k = n - 1 - i
		}
		t[i] = plot.Tick{Value: float64(k) + 0.5, Label: s}
	}
	return t
}

// withColorBar draws p in c minus a strip on the right, then a vertical
// colour bar aligned with p's data area.
func withColorBar(p *plot.Plot, vmin, vmax float64, cmap func(float64) color.RGBA, label string) func(draw.Canvas, float64) {
	return func(c draw.Canvas, _ float64) {
		const strip = 62
		left := draw.Crop(c, 0, -vg.Points(strip), 0, 0)
		p.Draw(left)
		da := p.DataCanvas(left)
		x0 := left.Max.X + vg.Points(10)
		x1 := x0 + vg.Points(12)
		y0, y1 := da.Min.Y, da.Max.Y
		const n = 64
		for k := 0; k < n; k++ {
			ya := y0 + (y1-y0)*vg.Length(k)/n
			yb := y0 + (y1-y0)*vg.Length(k+1)/n + 0.3
			col := cmap(float64(k) / (n - 1))
			c.FillPolygon(col, []vg.Point{{X: x0, Y: ya}, {X: x1, Y: ya}, {X: x1, Y: yb}, {X: x0, Y: yb}})
		}
		ls := draw.LineStyle{Color: color.Gray{0x60}, Width: vg.Points(0.5)}
		c.StrokeLines(ls, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
		sty := textStyle(tickSize)
		sty.YAlign = draw.YCenter
		if vmax > vmin {
			for _, t := range (plot.DefaultTicks{}).Ticks(vmin, vmax) {
				if t.IsMinor() || t.Value < vmin || t.Value > vmax {
					continue
				}
				y := y0 + (y1-y0)*vg.Length((t.Value-vmin)/(vmax-vmin))
				c.StrokeLine2(ls, x1, y, x1+vg.Points(3), y)
				c.FillText(sty, vg.Point{X: x1 + vg.Points(5), Y: y}, t.Label)
			}
		} else {
			c.FillText(sty, vg.Point{X: x1 + vg.Points(5), Y: (y0 + y1) / 2}, strconv.FormatFloat(vmin, 'g', 4, 64))
		}
		if label != "" {
			ls := textStyle(tickSize)
			ls.XAlign, ls.YAlign = draw.XCenter, draw.YBottom
			c.FillText(ls, vg.Point{X: (x0 + x1) / 2, Y: y1 + vg.Points(4)}, label)
		}
	}
}

// ConfusionOptions configures ConfusionMatrix.
type ConfusionOptions struct {
	Frame
	// Normalize divides each row (true class) by its sum, so cells are the
	// fraction of that class predicted as each class (rows of zeros stay 0).
	Normalize bool
	// HideValues turns off the numbers written in the cells (they are
	// also left out above 20×20 classes).
	HideValues bool
	// HideColorBar turns off the colour bar.
	HideColorBar bool
}

// ConfusionMatrix plots counts[true][predicted] with the class names on
// both axes (nil names: 0, 1, ...), coloured with viridis, annotated, with
// a colour bar, and the overall accuracy (trace/total) in the title.
// Counts must be a square matrix of finite values ≥ 0.
func ConfusionMatrix(counts [][]float64, classNames []string, opts ConfusionOptions) (*Plot, error) {
	p, err := confusion("ConfusionMatrix", counts, classNames, opts)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func confusion(name string, counts [][]float64, classNames []string, opts ConfusionOptions) (*Plot, error) {
	rows, cols, err := checkMatrix(name, "counts", counts)
	if err != nil {
		return nil, err
	}
	if rows != cols {
		return nil, errf(name, "shape of counts", fmt.Sprintf("%d×%d", rows, cols), "must be square (true × predicted classes)")
	}
	if classNames == nil {
		classNames = make([]string, rows)
		for i := range classNames {
			classNames[i] = strconv.Itoa(i)
		}
	}
	if len(classNames) != rows {
		return nil, errf(name, "len(classNames)", len(classNames), fmt.Sprintf("must equal the number of classes in counts (%d)", rows))
	}
	var total, trace float64
	m := make([][]float64, rows)
	for i, row := range counts {
		m[i] = append([]float64(nil), row...)
		var s float64
		for j, v := range row {
			if v < 0 {
				return nil, errf(name, fmt.Sprintf("counts[%d][%d]", i, j), v, "counts must be ≥ 0")
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
	g := &cellGrid{m: m, rows: rows, cols: cols, color: nil, annotate: !opts.HideValues && rows <= 20}
	g.vmin, g.vmax = 0, 1
	if !opts.Normalize {
		g.vmax = 0
		for _, row := range m {
			for _, v := range row {
				g.vmax = math.Max(g.vmax, v)
			}
		}
	}
	g.color = func(v float64) color.RGBA { return Viridis(g.norm(v)) }
	g.format = func(v float64) string {
		if opts.Normalize {
			return strconv.FormatFloat(v, 'f', 2, 64)
		}
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	title := "Confusion matrix"
	if total > 0 {
		title = fmt.Sprintf("Confusion matrix (accuracy %.1f %%)", 100*trace/total)
	}
	p := newGonum(opts.Frame, title, "predicted class", "true class")
	p.Add(g)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, float64(cols), 0, float64(rows)
	p.X.Padding, p.Y.Padding = 0, 0
	p.X.Tick.Marker = nameTicks(classNames, false)
	p.Y.Tick.Marker = nameTicks(classNames, true)
	if cols > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 4
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
	fr := opts.Frame
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width, fr.Height = 520, 440
	}
	if opts.HideColorBar {
		return newPlot(name, fr, gonumDraw(p)), nil
	}
	label := "count"
	if opts.Normalize {
		label = "fraction"
	}
	return newPlot(name, fr, withColorBar(p, g.vmin, g.vmax, Viridis, label)), nil
}

// TemporalConfusion plots one confusion matrix per delay Δt after stimulus
// onset (counts[delay][true][predicted], delays in seconds), side by side
// in a grid with shared normalisation. Each panel is titled with its Δt
// and accuracy; values are written in the cells only up to 6 classes.
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
	panels := make([]*Plot, len(counts))
	for k, cm := range counts {
		o := opts
		o.Frame = Frame{Title: fmt.Sprintf("Δt = %s", formatSeconds(delays[k]))}
		o.HideColorBar = true
		o.HideValues = opts.HideValues || len(cm) > 6
		p, err := confusion(name, cm, classNames, o)
		if err != nil {
			return nil, fmt.Errorf("%w (panel %d, Δt = %g s)", err, k, delays[k])
		}
		panels[k] = p
	}
	cols := int(math.Ceil(math.Sqrt(float64(len(panels)))))
	fr := opts.Frame
	if fr.Width == 0 && fr.Height == 0 {
		rowsN := (len(panels) + cols - 1) / cols
		fr.Width, fr.Height = float64(300*cols), float64(280*rowsN)+30
	}
	fr.Title = pick(fr.Title, "Confusion matrices over time since stimulus onset")
	return grid(name, panels, cols, fr)
}

// formatSeconds writes a delay in ms below 1 s.
func formatSeconds(s float64) string {
	if math.Abs(s) < 1 {
		return strconv.FormatFloat(s*1000, 'g', 4, 64) + " ms"
	}
	return strconv.FormatFloat(s, 'g', 4, 64) + " s"
}

// HeatmapOptions configures Heatmap.
type HeatmapOptions struct {
	Frame
	// ColorLabel is written above the colour bar, e.g. "weight" or
	// "spikes".
	ColorLabel string
	// Diverging uses a blue–white–red map symmetric around 0 (Moreland's
	// smooth cool-warm, colour-blind safe), for signed data like weights;
	// otherwise viridis from min to max.
	Diverging bool
	// Annotate writes each value in its cell (up to 20×20 cells).
	Annotate bool
	// XTicks and YTicks name the columns and rows (optional).
	XTicks, YTicks []string
}

// Heatmap plots a matrix m[row][col] (row 0 at the top) with a colour bar:
// weight matrices, spike counts per neuron and time bin. Matrices beyond
// 4096 cells are drawn as an image (nearest neighbour).
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
	g := &cellGrid{m: m, rows: rows, cols: cols, annotate: opts.Annotate && rows*cols <= 400}
	g.vmin, g.vmax = math.Inf(1), math.Inf(-1)
	for _, row := range m {
		for _, v := range row {
			g.vmin, g.vmax = math.Min(g.vmin, v), math.Max(g.vmax, v)
		}
	}
	cmap := Viridis
	if opts.Diverging {
		a := math.Max(math.Abs(g.vmin), math.Abs(g.vmax))
		if a == 0 {
			a = 1
		}
		g.vmin, g.vmax = -a, a
		cw := moreland.SmoothBlueRed()
		cw.SetMin(0)
		cw.SetMax(1)
		cmap = func(t float64) color.RGBA {
			t = math.Min(1, math.Max(0, t))
			c, err := cw.At(t)
			if err != nil {
				return color.RGBA{A: 0xFF}
			}
			return color.RGBAModel.Convert(c).(color.RGBA)
		}
	}
	g.color = func(v float64) color.RGBA { return cmap(g.norm(v)) }
	g.format = func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
	p := newGonum(opts.Frame, "Heatmap", "column", "row")
	p.Add(g)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, float64(cols), 0, float64(rows)
	p.X.Padding, p.Y.Padding = 0, 0
	if opts.XTicks != nil {
		p.X.Tick.Marker = nameTicks(opts.XTicks, false)
	} else {
		p.X.Tick.Marker = indexTicks{n: cols}
	}
	if opts.YTicks != nil {
		p.Y.Tick.Marker = nameTicks(opts.YTicks, true)
	} else {
		p.Y.Tick.Marker = indexTicks{n: rows, reverse: true}
	}
	return newPlot(name, opts.Frame, withColorBar(p, g.vmin, g.vmax, cmap, opts.ColorLabel)), nil
}

// indexTicks labels integer cell indices at cell centres.
type indexTicks struct {
	n       int
	reverse bool
}

func (t indexTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range (plot.DefaultTicks{}).Ticks(0, float64(t.n-1)) {
		if tk.IsMinor() || tk.Value != math.Trunc(tk.Value) || tk.Value < 0 || tk.Value > float64(t.n-1) {
			continue
		}
		pos := tk.Value + 0.5
		if t.reverse {
			pos = float64(t.n) - tk.Value - 0.5
		}
		out = append(out, plot.Tick{Value: pos, Label: strconv.Itoa(int(tk.Value))})
	}
	return out
}
