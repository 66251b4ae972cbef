package notebook

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/neurogo/neurogo/viz"
)

// The live explorer's frames are drawn here rather than with package viz:
// a viz plot (gonum/plot, antialiased vector drawing at retina
// resolution) takes tens to hundreds of milliseconds to render, too slow
// for 10–20 frames per second on a loaded core. A frame is a paletted
// image (one byte per pixel) whose static parts — axes, panel titles, tick
// labels — are drawn once; each frame copies them, draws the spikes and
// lines as pixels and encodes the PNG at the fastest compression level
// into a reused buffer. A 480×300 frame takes about a millisecond to draw
// and two to encode.

// frame palette indices.
const (
	cWhite uint8 = iota
	cText
	cAxis
	cGrid
	cSpike
	cLine0 // first line colour; viz's series colours follow
)

// framePalette is the frames' colours: the fixed ones above, then the
// first nLineColors of viz's series colours, so a line has the colour it
// has in the toolkit's other plots.
var framePalette = func() color.Palette {
	p := color.Palette{
		color.RGBA{255, 255, 255, 255},
		color.RGBA{34, 34, 34, 255},
		color.RGBA{136, 136, 136, 255},
		color.RGBA{228, 228, 228, 255},
		color.RGBA{20, 20, 60, 255},
	}
	for i := range nLineColors {
		p = append(p, viz.SeriesColor(i))
	}
	return p
}()

const nLineColors = 7

// frameSpec is what a frame shows: its layout is fixed when it is made.
type frameSpec struct {
	w, h        int
	window      float64 // seconds of simulated time across the panels
	rasterTitle string  // "" → no raster panel
	rasterRows  int
	lineTitle   string // "" → no line panel
	lineLabels  []string
	yLo, yHi    float64
	// xTicks label the x axis (at fractions of its width); nil: the
	// time before now, "-window s" … "now".
	xTicks []xTick
}

type xTick struct {
	at    float64 // 0 (left) … 1 (right)
	label string
}

// frameData is one snapshot of the explorer's windows.
type frameData struct {
	now     float64   // x at the right edge (simulated time)
	readout string    // drawn at the top right ("" for none)
	spikeT  []float64 // spike times
	spikeR  []int32   // their rows
	lines   []lineData
}

// lineData holds the samples of one probe: times and values, row-major
// (len(t) × dims).
type lineData struct {
	t, v []float64
	dims int
}

type frame struct {
	spec       frameSpec
	img        *image.Paletted
	bg         []uint8
	raster     image.Rectangle // data areas
	lines      image.Rectangle
	enc        png.Encoder
	buf        bytes.Buffer
	textY      int // baseline of the time readout
	lineColors []uint8
}

type pngPool struct{ b *png.EncoderBuffer }

func (p *pngPool) Get() *png.EncoderBuffer  { return p.b }
func (p *pngPool) Put(b *png.EncoderBuffer) { p.b = b }

const (
	marginL  = 46 // y tick labels
	marginR  = 8
	titleH   = 15
	xLabelsH = 16
	panelGap = 6
	glyphW   = 7
)

func newFrame(spec frameSpec) *frame {
	f := &frame{spec: spec}
	f.img = image.NewPaletted(image.Rect(0, 0, spec.w, spec.h), framePalette)
	f.enc = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngPool{}}
	for i := range nLineColors {
		f.lineColors = append(f.lineColors, cLine0+uint8(i))
	}
	img := f.img
	fill(img, img.Bounds(), cWhite)
	x0, x1 := marginL, spec.w-marginR
	y := 0
	avail := spec.h - xLabelsH
	nPanels := 0
	if spec.rasterTitle != "" {
		nPanels++
	}
	if spec.lineTitle != "" {
		nPanels++
	}
	panelH := (avail - nPanels*titleH - (nPanels-1)*panelGap) / max(nPanels, 1)
	f.textY = 11
	if spec.rasterTitle != "" {
		drawText(img, x0, y+11, spec.rasterTitle, cText)
		y += titleH
		f.raster = image.Rect(x0, y, x1, y+panelH)
		f.axes(f.raster)
		y += panelH + panelGap
	}
	if spec.lineTitle != "" {
		drawText(img, x0, y+11, spec.lineTitle, cText)
		// the legend after the title, each label in its line's colour
		lx := x0 + glyphW*(len(spec.lineTitle)+2)
		for i, l := range spec.lineLabels {
			c := f.lineColors[i%nLineColors]
			fill(img, image.Rect(lx, y+6, min(lx+12, spec.w), y+8), c)
			drawText(img, lx+15, y+11, l, c)
			lx += 15 + glyphW*(len(l)+2)
		}
		y += titleH
		f.lines = image.Rect(x0, y, x1, y+panelH)
		if spec.yLo < 0 && spec.yHi > 0 {
			zy := f.yPix(0)
			for x := f.lines.Min.X; x < f.lines.Max.X; x++ {
				img.Pix[img.PixOffset(x, zy)] = cGrid
			}
		}
		f.axes(f.lines)
		for i, v := range []float64{spec.yHi, 0, spec.yLo} {
			if v < spec.yLo || v > spec.yHi || (i == 2 && v == 0) {
				continue
			}
			s := trimFloat(v)
			yy := f.yPix(v)
			drawText(img, x0-4-glyphW*len(s), min(max(yy+4, f.lines.Min.Y+9), f.lines.Max.Y), s, cAxis)
		}
		y += panelH
	}
	// time labels under the last panel: −window … now
	last := f.lines
	if spec.lineTitle == "" {
		last = f.raster
	}
	by := last.Max.Y + 13
	ticks := spec.xTicks
	if ticks == nil {
		for k := 0; k <= 4; k++ {
			s := trimFloat(-spec.window*float64(4-k)/4) + " s"
			if k == 4 {
				s = "now"
			}
			ticks = append(ticks, xTick{float64(k) / 4, s})
		}
	}
	for _, tk := range ticks {
		s := tk.label
		x := last.Min.X + int(float64(last.Dx()-1)*min(max(tk.at, 0), 1))
		drawText(img, min(max(x-glyphW*len(s)/2, 0), spec.w-glyphW*len(s)), by, s, cAxis)
		for yy := last.Max.Y; yy < last.Max.Y+3 && yy < spec.h; yy++ {
			img.Pix[img.PixOffset(x, yy)] = cAxis
		}
	}
	f.bg = append([]uint8(nil), img.Pix...)
	return f
}

func trimFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if s == "-0" {
		s = "0"
	}
	return s
}

// axes draws the frame of a data area (its left and bottom edges).
func (f *frame) axes(r image.Rectangle) {
	img := f.img
	for y := r.Min.Y; y < r.Max.Y; y++ {
		img.Pix[img.PixOffset(r.Min.X-1, y)] = cAxis
	}
	for x := r.Min.X - 1; x < r.Max.X; x++ {
		img.Pix[img.PixOffset(x, r.Max.Y)] = cAxis
	}
}

func (f *frame) yPix(v float64) int {
	r := f.lines
	u := (v - f.spec.yLo) / (f.spec.yHi - f.spec.yLo)
	y := r.Max.Y - 1 - int(math.Round(u*float64(r.Dy()-1)))
	return min(max(y, r.Min.Y), r.Max.Y-1)
}

// render draws d and returns the PNG (valid until the next render).
func (f *frame) render(d *frameData) ([]byte, error) {
	img := f.img
	copy(img.Pix, f.bg)
	t0 := d.now - f.spec.window
	xOf := func(r image.Rectangle, t float64) int {
		return r.Min.X + int(float64(r.Dx()-1)*(t-t0)/f.spec.window)
	}
	if f.spec.rasterTitle != "" && f.spec.rasterRows > 0 {
		r := f.raster
		rows := f.spec.rasterRows
		for i, t := range d.spikeT {
			if t < t0 || t > d.now {
				continue
			}
			x := xOf(r, t)
			row := int(d.spikeR[i])
			ya := r.Min.Y + row*r.Dy()/rows
			yb := r.Min.Y + (row+1)*r.Dy()/rows
			if yb <= ya {
				yb = ya + 1
			}
			for y := ya; y < yb && y < r.Max.Y; y++ {
				img.Pix[img.PixOffset(x, y)] = cSpike
			}
		}
	}
	if f.spec.lineTitle != "" {
		r := f.lines
		series := 0
		for _, ld := range d.lines {
			for k := range ld.dims {
				f.polyline(r, ld, k, t0, d.now, f.lineColors[series%nLineColors])
				series++
			}
		}
	}
	if d.readout != "" {
		drawText(img, f.spec.w-marginR-glyphW*len(d.readout), f.textY, d.readout, cText)
	}
	f.buf.Reset()
	if err := f.enc.Encode(&f.buf, img); err != nil {
		return nil, err
	}
	return f.buf.Bytes(), nil
}

// polyline draws dimension k of ld from t0 on.
func (f *frame) polyline(r image.Rectangle, ld lineData, k int, t0, now float64, c uint8) {
	xOf := func(t float64) int {
		return r.Min.X + int(float64(r.Dx()-1)*(t-t0)/f.spec.window)
	}
	px, py := -1, 0
	for i, t := range ld.t {
		if t < t0 || t > now {
			continue
		}
		v := ld.v[i*ld.dims+k]
		if math.IsNaN(v) {
			px = -1
			continue
		}
		x, y := xOf(t), f.yPix(v)
		if px >= 0 {
			f.segment(px, py, x, y, c)
		} else {
			f.dot(x, y, c)
		}
		px, py = x, y
	}
}

// dot sets a 1×2 pixel point (lines are two pixels thick).
func (f *frame) dot(x, y int, c uint8) {
	img := f.img
	r := f.lines
	if x < r.Min.X || x >= r.Max.X {
		return
	}
	img.Pix[img.PixOffset(x, y)] = c
	if y+1 < r.Max.Y {
		img.Pix[img.PixOffset(x, y+1)] = c
	}
}

// segment draws a line from (x0, y0) to (x1, y1) (Bresenham).
func (f *frame) segment(x0, y0, x1, y1 int, c uint8) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		f.dot(x0, y0, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func fill(img *image.Paletted, r image.Rectangle, c uint8) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for i := range row {
			row[i] = c
		}
	}
}

// drawText writes s with its baseline at y (basicfont's 7×13 face).
func drawText(img *image.Paletted, x, y int, s string, c uint8) {
	d := font.Drawer{
		Dst:  img,
		Src:  image.NewUniform(framePalette[c]),
		Face: basicfont.Face7x13,
		Dot:  fixed.P(x, y),
	}
	d.DrawString(s)
}
