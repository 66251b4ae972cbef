package viz

import (
	"image"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Legend placement. A legend sits in a white box with a light border.
// "best" (the default) tries the inside positions in matplotlib's order
// of preference and takes the first that covers no data — found on a
// trial rendering at low resolution, so lines, bands, images and markers
// all count — and otherwise puts the legend outside the axes, on the
// right. The decision does not depend on the output (PNG or SVG).

// LegendPlacements are the values a Legend option accepts.
var LegendPlacements = []string{"best", "outside", "top right", "top left", "bottom right", "bottom left", "none"}

// legendCandidates are the inside positions "best" tries, in order:
// (horizontal, vertical) with 0 = left/bottom, 0.5 = centre, 1 =
// right/top.
var legendCandidates = [...][2]float64{
	{1, 1}, {0, 1}, {0, 0}, {1, 0}, {1, 0.5}, {0, 0.5}, {0.5, 0}, {0.5, 1},
}

// legendCorner maps a named inside placement to its position.
var legendCorner = map[string][2]float64{
	"top right": {1, 1}, "top left": {0, 1}, "bottom right": {1, 0}, "bottom left": {0, 0},
}

// validLegend reports whether where is a known placement ("" = "best").
func validLegend(where string) bool {
	if where == "" {
		return true
	}
	for _, w := range LegendPlacements {
		if w == where {
			return true
		}
	}
	return false
}

const (
	legendPad    = 4   // points between the box and its entries
	legendInset  = 6   // points between the box and the axes
	legendGap    = 10  // points between the axes and an outside legend
	trialDPI     = 36  // resolution of the trial rendering
	inkThreshold = 232 // a trial pixel darker than this in any channel is data
)

// gonumDraw draws p with its legend placed "best".
func gonumDraw(p *plot.Plot) func(draw.Canvas, float64) {
	return gonumDrawLegend(p, "best")
}

// gonumDrawLegend draws p, anchoring its linear axes (anchorAxis) and
// placing its legend as where says (see LegendPlacements).
func gonumDrawLegend(p *plot.Plot, where string) func(draw.Canvas, float64) {
	return func(c draw.Canvas, _ float64) {
		anchorAxis(&p.X)
		anchorAxis(&p.Y)
		lg := p.Legend
		size := lg.Rectangle(c).Size()
		if size.X <= 0 || size.Y <= 0 || where == "none" {
			p.Legend = plot.NewLegend()
			p.Draw(c)
			p.Legend = lg
			return
		}
		lg.Top, lg.Left, lg.XOffs, lg.YOffs = true, true, 0, 0
		p.Legend = plot.NewLegend()
		size = lg.Rectangle(c).Size()
		defer func() { p.Legend = lg }()
		box := vg.Point{X: size.X + 2*vg.Points(legendPad), Y: size.Y + 2*vg.Points(legendPad)}

		pos, inside := legendCorner[where]
		if where == "" || where == "best" {
			pos, inside = bestLegendPosition(p, c, box)
		}
		if where == "outside" || !inside {
			w := box.X + vg.Points(legendGap)
			pc := draw.Crop(c, 0, -w, 0, 0)
			p.Draw(pc)
			dc := p.DataCanvas(pc)
			r := vg.Rectangle{Min: vg.Point{X: pc.Max.X + vg.Points(legendGap), Y: dc.Max.Y - box.Y}}
			r.Max = r.Min.Add(box)
			drawLegendBox(c, &lg, r)
			return
		}
		p.Draw(c)
		dc := p.DataCanvas(c)
		drawLegendBox(c, &lg, legendRect(dc, box, pos))
	}
}

// legendRect is the box of size box at position pos inside the data
// area dc.
func legendRect(dc draw.Canvas, box vg.Point, pos [2]float64) vg.Rectangle {
	in := vg.Points(legendInset)
	free := vg.Point{X: dc.Max.X - dc.Min.X - 2*in - box.X, Y: dc.Max.Y - dc.Min.Y - 2*in - box.Y}
	min := vg.Point{
		X: dc.Min.X + in + vg.Length(pos[0])*max(free.X, 0),
		Y: dc.Min.Y + in + vg.Length(pos[1])*max(free.Y, 0),
	}
	return vg.Rectangle{Min: min, Max: min.Add(box)}
}

// drawLegendBox draws the legend's background box at r and its entries
// inside.
func drawLegendBox(c draw.Canvas, lg *plot.Legend, r vg.Rectangle) {
	c.SetColor(color.NRGBA{R: 255, G: 255, B: 255, A: 235})
	c.Fill(r.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{0xC8}, Width: vg.Points(0.6)})
	c.Stroke(r.Path())
	pad := vg.Points(legendPad)
	inner := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: r.Min.X + pad, Y: r.Min.Y + pad},
		Max: vg.Point{X: r.Max.X - pad, Y: r.Max.Y - pad},
	}}
	lg.Draw(inner)
}

// bestLegendPosition renders p without its legend at low resolution and
// returns the first candidate position whose box covers no data; inside
// is false when every candidate covers some (or the box does not fit).
func bestLegendPosition(p *plot.Plot, c draw.Canvas, box vg.Point) (pos [2]float64, inside bool) {
	size := c.Size()
	dc := p.DataCanvas(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Max: size}})
	in := vg.Points(legendInset)
	if box.X+2*in > dc.Max.X-dc.Min.X || box.Y+2*in > dc.Max.Y-dc.Min.Y {
		return pos, false
	}
	trial := vgimg.NewWith(vgimg.UseWH(size.X, size.Y), vgimg.UseDPI(trialDPI))
	tc := draw.New(trial)
	p.Draw(tc)
	img := trial.Image()
	dc = p.DataCanvas(tc)
	for _, cand := range legendCandidates {
		if !covers(img, trialRect(legendRect(dc, box, cand), size.Y)) {
			return cand, true
		}
	}
	return pos, false
}

// trialRect converts a rectangle in points (origin bottom left) to pixel
// bounds in the trial image (origin top left), grown by one pixel.
func trialRect(r vg.Rectangle, height vg.Length) image.Rectangle {
	px := func(l vg.Length) int { return int(float64(l) / 72 * trialDPI) }
	return image.Rect(px(r.Min.X)-1, px(height-r.Max.Y)-1, px(r.Max.X)+2, px(height-r.Min.Y)+2)
}

// covers reports whether any pixel of img inside r is ink.
func covers(img image.Image, r image.Rectangle) bool {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			if ca>>8 < 16 {
				continue
			}
			if cr>>8 < inkThreshold || cg>>8 < inkThreshold || cb>>8 < inkThreshold {
				return true
			}
		}
	}
	return false
}
