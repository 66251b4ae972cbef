package viz

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Default figure size in CSS pixels (one CSS pixel is drawn as one
// typographic point, 1/72 inch) and the PNG resolution.
const (
	DefaultWidth  = 640
	DefaultHeight = 400
	// retinaDPI renders PNGs at twice 72 dpi, so a W×H figure has 2W×2H
	// pixels and is declared W×H in the MIME metadata.
	retinaDPI = 144
)

// Font sizes in points: readable in a notebook at 100 % zoom.
const (
	titleSize = 14
	labelSize = 12
	tickSize  = 10.5
)

// Frame holds the options every plot shares. The zero value gives the
// defaults: a 640×400 figure and the plot's own title and axis labels.
// Put units in the labels, e.g. "time (s)".
type Frame struct {
	Title  string
	XLabel string
	YLabel string
	// Width and Height of the figure in CSS pixels (0 → 640×400).
	Width, Height float64
}

// Plot is a rendered-on-demand figure. Every constructor in this package
// returns (*Plot, error): on bad input the plot is nil and the error says
// which plot, which argument, which value and which rule. A nil *Plot is
// still safe to display: it renders a short message instead of panicking.
//
// A *Plot shows itself when it is the last expression of a notebook cell:
// package display (which viz does not import) finds its PNG method (2×
// pixels, Retina reports true), its String method for text/plain and
// MIMETypes, which keeps the inline bundle to the PNG.
type Plot struct {
	name string
	w, h vg.Length
	// draw draws the figure on c; dpi is the raster resolution of the
	// target (0 for vector output) so plots may choose image or vector
	// drawing.
	draw func(c draw.Canvas, dpi float64)

	// png caches the rendering: a plot never changes after construction,
	// and the kernel asks for the bundle and the metadata separately.
	pngOnce sync.Once
	png     []byte
}

// newPlot makes a Plot of kind name with the size from fr.
func newPlot(name string, fr Frame, fn func(c draw.Canvas, dpi float64)) *Plot {
	w, h := fr.Width, fr.Height
	if w <= 0 || math.IsNaN(w) || math.IsInf(w, 0) {
		w = DefaultWidth
	}
	if h <= 0 || math.IsNaN(h) || math.IsInf(h, 0) {
		h = DefaultHeight
	}
	return &Plot{name: name, w: vg.Length(w), h: vg.Length(h), draw: fn}
}

// Name is the kind of plot ("Raster", "ConfusionMatrix", ...).
func (p *Plot) Name() string {
	if p == nil {
		return "nil"
	}
	return p.name
}

// Size is the figure size in CSS pixels.
func (p *Plot) Size() (width, height float64) {
	if p == nil {
		return 0, 0
	}
	return float64(p.w), float64(p.h)
}

// String describes the plot, for text/plain output.
func (p *Plot) String() string {
	if p == nil {
		return "<viz: nil plot — check the error returned by the constructor>"
	}
	return fmt.Sprintf("<viz.%s %g×%g>", p.name, float64(p.w), float64(p.h))
}

// Retina reports that PNG renders at twice the declared pixel size.
func (p *Plot) Retina() bool { return true }

// nilDraw draws the message a nil plot shows.
func nilDraw(c draw.Canvas, _ float64) {
	sty := textStyle(labelSize)
	sty.Color = color.RGBA{R: 0xD5, G: 0x5E, A: 0xFF}
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2},
		"viz: nil plot — check the error returned by the constructor")
}

func (p *Plot) drawer() (vg.Length, vg.Length, func(draw.Canvas, float64)) {
	if p == nil || p.draw == nil {
		return DefaultWidth, 60, nilDraw
	}
	return p.w, p.h, safeDraw(p.name, p.draw)
}

// safeDraw runs fn and, if gonum/plot panics while drawing (it panics on
// some data, e.g. a non-positive value on a log axis), draws the message
// instead: displaying a plot never crashes the kernel or the notebook run.
func safeDraw(name string, fn func(draw.Canvas, float64)) func(draw.Canvas, float64) {
	return func(c draw.Canvas, dpi float64) {
		defer func() {
			if r := recover(); r != nil {
				sty := textStyle(labelSize)
				sty.Color = color.RGBA{R: 0xD5, G: 0x5E, A: 0xFF}
				sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
				c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2},
					fmt.Sprintf("viz.%s: cannot draw: %v", name, r))
			}
		}()
		fn(c, dpi)
	}
}

// PNG renders the plot as PNG at 144 dpi (2× pixels for sharp display).
func (p *Plot) PNG() []byte {
	if p == nil {
		return renderPNG(nil)
	}
	p.pngOnce.Do(func() { p.png = renderPNG(p) })
	return p.png
}

func renderPNG(p *Plot) []byte {
	w, h, fn := p.drawer()
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(retinaDPI))
	fn(draw.New(c), retinaDPI)
	var buf bytes.Buffer
	// BestSpeed: plots are flat colours, so the size cost is small and
	// encoding is about 3× faster than the default level.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, c.Image()); err != nil {
		return nil // cannot happen writing to a bytes.Buffer
	}
	return buf.Bytes()
}

// SVG renders the plot as an SVG document.
func (p *Plot) SVG() string {
	w, h, fn := p.drawer()
	c := vgsvg.New(w, h)
	fn(draw.New(c), 0)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return ""
	}
	return buf.String()
}

// MIMETypes lists what a notebook shows inline: the retina PNG (and
// text/plain, from String). SVG is left out to keep notebooks small;
// display it explicitly with display.Display(display.SVG(p.SVG())).
func (p *Plot) MIMETypes() []string { return []string{"image/png"} }

// ---- styling helpers ----

var sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// textHandler draws every text of a plot: plain text with "^{…}"
// exponents (supText).
var textHandler = supText{text.Plain{Fonts: font.DefaultCache}}

func textStyle(size vg.Length) draw.TextStyle {
	return draw.TextStyle{
		Color:   color.Black,
		Font:    font.From(sansFont, size),
		Handler: textHandler,
	}
}

// newGonum returns a gonum plot in the house style: Liberation Sans at
// the title, label and tick sizes; linear axes with nice-number ticks
// (niceTicks) that are anchored at 0 when the data come close
// (anchorAxis); title and labels from fr, or the defaults given. Draw it
// with gonumDraw, which places the legend.
func newGonum(fr Frame, title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = pick(fr.Title, title)
	p.X.Label.Text = pick(fr.XLabel, xlabel)
	p.Y.Label.Text = pick(fr.YLabel, ylabel)
	applyTheme(p)
	return p
}

// applyTheme gives p the house fonts, text handler and, where p uses
// gonum/plot's default ticks, nice-number ticks.
func applyTheme(p *plot.Plot) {
	p.Title.TextStyle.Font = font.From(sansFont, titleSize)
	p.Title.TextStyle.Handler = textHandler
	p.Title.Padding = vg.Points(8)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		if _, def := ax.Tick.Marker.(plot.DefaultTicks); def || ax.Tick.Marker == nil {
			ax.Tick.Marker = niceTicks{}
		}
		if _, lg := ax.Tick.Marker.(plot.LogTicks); lg {
			ax.Tick.Marker = logTicks{}
		}
		ax.Label.TextStyle.Font = font.From(sansFont, labelSize)
		ax.Label.TextStyle.Handler = textHandler
		ax.Tick.Label.Font = font.From(sansFont, tickSize)
		ax.Tick.Label.Handler = textHandler
		ax.Padding = vg.Points(3)
	}
	p.Legend.TextStyle.Font = font.From(sansFont, tickSize)
	p.Legend.TextStyle.Handler = textHandler
	p.Legend.ThumbnailWidth = vg.Points(18)
	p.Legend.Padding = vg.Points(1.5)
}

// logAxes makes the chosen axes logarithmic, with decade ticks written
// as powers of ten (logTicks).
func logAxes(p *plot.Plot, logX, logY bool) {
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
}

func pick(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

// ---- validation helpers: every error names plot, argument, value, rule ----

func errf(plotName, arg string, val any, rule string) error {
	return fmt.Errorf("viz.%s: %s = %v: %s", plotName, arg, val, rule)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkSlice requires a non-empty slice of finite values.
func checkSlice(plotName, arg string, xs []float64) error {
	if len(xs) == 0 {
		return errf(plotName, arg, "[]", "must not be empty")
	}
	for i, x := range xs {
		if !finite(x) {
			return errf(plotName, fmt.Sprintf("%s[%d]", arg, i), x, "must be finite (no NaN or Inf)")
		}
	}
	return nil
}

// checkMatrix requires a non-empty rectangular matrix of finite values and
// returns its shape.
func checkMatrix(plotName, arg string, m [][]float64) (rows, cols int, err error) {
	if len(m) == 0 {
		return 0, 0, errf(plotName, arg, "[]", "must not be empty")
	}
	cols = len(m[0])
	if cols == 0 {
		return 0, 0, errf(plotName, arg+"[0]", "[]", "rows must not be empty")
	}
	for i, row := range m {
		if len(row) != cols {
			return 0, 0, errf(plotName, fmt.Sprintf("len(%s[%d])", arg, i), len(row),
				fmt.Sprintf("all rows must have the length of %s[0] (%d)", arg, cols))
		}
		for j, x := range row {
			if !finite(x) {
				return 0, 0, errf(plotName, fmt.Sprintf("%s[%d][%d]", arg, i, j), x, "must be finite (no NaN or Inf)")
			}
		}
	}
	return len(m), cols, nil
}

// checkSameLen requires len(b) == len(a).
func checkSameLen(plotName, argA string, na int, argB string, nb int) error {
	if na != nb {
		return errf(plotName, "len("+argB+")", nb, fmt.Sprintf("must equal len(%s) (%d)", argA, na))
	}
	return nil
}

func checkPositive(plotName, arg string, x float64) error {
	if !finite(x) || x <= 0 {
		return errf(plotName, arg, x, "must be positive and finite")
	}
	return nil
}

// FromGonum wraps a gonum plot (one of your own, or one a neurogo package
// returns, e.g. accel/jit's Trace.Plot) as a *Plot, so that it renders as
// a cell's result and gets PNG and SVG output; fr gives the size (zero:
// the defaults). The plot takes the house style: its fonts become
// Liberation Sans at the house sizes, gonum's default ticks become
// nice-number ticks (log ticks: powers of ten) and its legend is placed
// where it covers no data (p is changed). A nil plot gives nil.
func FromGonum(p *plot.Plot, fr Frame) *Plot {
	if p == nil {
		return nil
	}
	applyTheme(p)
	return newPlot("Gonum", fr, gonumDraw(p))
}
