package viz

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BarGroup is one named series of values, one per category, for Bar and
// Points: e.g. "before training" and "after training" over the models.
type BarGroup struct {
	// Label names the group in the legend (shown when there are two or
	// more groups; "" leaves the group out of it).
	Label string
	// Values has one value per category; required, finite.
	Values []float64
	// Err, if set, are symmetric intervals ±Err[i] (≥ 0). nil: none.
	Err []float64
	// Lower and Upper, if set (both or neither, not with Err), are an
	// asymmetric interval per category in data coordinates, e.g. Wilson
	// score intervals; Lower[i] ≤ Values[i] ≤ Upper[i]. nil: none.
	// Intervals are clipped to the options' Bounds.
	Lower, Upper []float64
}

// BarOptions configures Bar. The zero value gives vertical bars from 0,
// no value labels, unbounded intervals and the legend placed where it
// covers no data.
type BarOptions struct {
	Frame
	// Horizontal draws the bars left to right with the categories down
	// the y axis (first at the top): for long category names. false:
	// vertical bars with the categories along x — unless their names
	// would overlap there, then horizontal all the same.
	Horizontal bool
	// ValueLabels writes each bar's value at its end. false: none.
	ValueLabels bool
	// Format is the fmt verb of the value labels, e.g. "%.2f" or "%.0f µs".
	// "": %.3g.
	Format string
	// Bounds is the valid range {lo, hi} of the values, e.g. {0, 1} for
	// accuracies (±Inf for one side). Every value must lie within it and
	// each interval is clipped to it: a value 0.95 with Err 0.44 and
	// Bounds {0, 1} gets the interval [0.51, 1], not [0.51, 1.39]. The
	// zero value: no bounds.
	Bounds [2]float64
	// Legend places the legend (see LineOptions.Legend). "": "best".
	Legend string
}

// PointsOptions configures Points. The zero value gives markers with
// their intervals, groups side by side, no connecting lines, unbounded
// intervals and the legend placed where it covers no data.
type PointsOptions struct {
	Frame
	// Horizontal puts the categories down the y axis (first at the top)
	// and the values along x: for long category names. false: categories
	// along x — unless their names would overlap there, then down y all
	// the same.
	Horizontal bool
	// Connect joins each group's points from category to category. Set
	// it only when the categories are ordered (sizes, time points, an
	// ordinal scale): a line between unordered categories suggests a
	// trend that is not there. false: points only.
	Connect bool
	// Bounds is the valid range {lo, hi} of the values (see
	// BarOptions.Bounds). The zero value: no bounds.
	Bounds [2]float64
	// LogScale makes the value axis logarithmic (decades as powers of
	// ten): for values that span orders of magnitude, e.g. times of two
	// simulators. Values must then be > 0; an interval reaching 0 or
	// below ends a decade below its value. false: linear.
	LogScale bool
	// Legend places the legend (see LineOptions.Legend). "": "best".
	Legend string
}

// catMark is one bar or point of a categorical plot, in category
// coordinates (cat: centre position along the category axis, width in
// category units) and value coordinates.
type catMark struct {
	cat, width float64
	val        float64
	lo, hi     float64
	interval   bool
	label      string
}

// catPlotter draws the marks of one group of Bar or Points.
type catPlotter struct {
	horizontal bool
	bar        bool
	marks      []catMark
	fill       color.Color
	glyph      draw.GlyphStyle
	connect    draw.LineStyle // Width 0: no connecting line
	errStyle   draw.LineStyle
	labelStyle draw.TextStyle
}

// point maps (category, value) to canvas coordinates.
func (cp *catPlotter) point(trX, trY func(float64) vg.Length, cat, val float64) vg.Point {
	if cp.horizontal {
		return vg.Point{X: trX(val), Y: trY(cat)}
	}
	return vg.Point{X: trX(cat), Y: trY(val)}
}

func (cp *catPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pt := func(cat, val float64) vg.Point { return cp.point(trX, trY, cat, val) }
	if cp.bar {
		for _, m := range cp.marks {
			a, b := pt(m.cat-m.width/2, 0), pt(m.cat+m.width/2, m.val)
			r := vg.Rectangle{
				Min: vg.Point{X: min(a.X, b.X), Y: min(a.Y, b.Y)},
				Max: vg.Point{X: max(a.X, b.X), Y: max(a.Y, b.Y)},
			}
			c.SetColor(cp.fill)
			c.Fill(r.Path())
		}
	}
	if cp.connect.Width > 0 && len(cp.marks) > 1 {
		line := make([]vg.Point, len(cp.marks))
		for i, m := range cp.marks {
			line[i] = pt(m.cat, m.val)
		}
		c.StrokeLines(cp.connect, line)
	}
	capHalf := vg.Points(3.5)
	for _, m := range cp.marks {
		if !m.interval {
			continue
		}
		a, b := pt(m.cat, m.lo), pt(m.cat, m.hi)
		c.StrokeLine2(cp.errStyle, a.X, a.Y, b.X, b.Y)
		for _, e := range []vg.Point{a, b} {
			if cp.horizontal {
				c.StrokeLine2(cp.errStyle, e.X, e.Y-capHalf, e.X, e.Y+capHalf)
			} else {
				c.StrokeLine2(cp.errStyle, e.X-capHalf, e.Y, e.X+capHalf, e.Y)
			}
		}
	}
	if !cp.bar {
		for _, m := range cp.marks {
			c.DrawGlyph(cp.glyph, pt(m.cat, m.val))
		}
	}
	for _, m := range cp.marks {
		if m.label == "" {
			continue
		}
		end := m.val // the label goes past the bar and its interval
		if m.interval {
			if m.val >= 0 {
				end = math.Max(end, m.hi)
			} else {
				end = math.Min(end, m.lo)
			}
		}
		at := pt(m.cat, end)
		sty := cp.labelStyle
		gap := vg.Points(3)
		switch {
		case cp.horizontal && m.val >= 0:
			sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
			at.X += gap
		case cp.horizontal:
			sty.XAlign, sty.YAlign = draw.XRight, draw.YCenter
			at.X -= gap
		case m.val >= 0:
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
			at.Y += gap
		default:
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
			at.Y -= gap
		}
		c.FillText(sty, at, m.label)
	}
}

func (cp *catPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	cmin, cmax, vmin, vmax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, m := range cp.marks {
		cmin, cmax = math.Min(cmin, m.cat-m.width/2), math.Max(cmax, m.cat+m.width/2)
		vmin, vmax = math.Min(vmin, m.val), math.Max(vmax, m.val)
		if m.interval {
			vmin, vmax = math.Min(vmin, m.lo), math.Max(vmax, m.hi)
		}
		if cp.bar {
			vmin, vmax = math.Min(vmin, 0), math.Max(vmax, 0)
		}
	}
	if cp.horizontal {
		return vmin, vmax, cmin, cmax
	}
	return cmin, cmax, vmin, vmax
}

func (cp *catPlotter) Thumbnail(c *draw.Canvas) {
	if cp.bar {
		r := c.Rectangle
		inset := (r.Max.X - r.Min.X - (r.Max.Y - r.Min.Y)) / 2
		if inset > 0 { // a square swatch
			r.Min.X += inset
			r.Max.X -= inset
		}
		c.SetColor(cp.fill)
		c.Fill(r.Path())
		return
	}
	mid := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	if cp.connect.Width > 0 {
		c.StrokeLine2(cp.connect, c.Min.X, mid.Y, c.Max.X, mid.Y)
	}
	c.DrawGlyph(cp.glyph, mid)
}

// catGuides are light lines across the value axis at each category of
// Points, that lead the eye from a category's name to its markers.
type catGuides struct {
	n          int
	horizontal bool
}

func (g catGuides) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: color.Gray{0xEB}, Width: vg.Points(0.8)} // lighter than data (legend placement)
	for i := 0; i < g.n; i++ {
		if g.horizontal {
			y := trY(float64(i))
			c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
		} else {
			x := trX(float64(i))
			c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
		}
	}
}

// catCheck validates the data of Bar and Points.
func catCheck(name string, categories []string, groups []BarGroup, bounds [2]float64, legend string) error {
	if len(categories) == 0 {
		return errf(name, "categories", "[]", "must not be empty")
	}
	if len(groups) == 0 {
		return errf(name, "groups", "[]", "must not be empty")
	}
	if err := xyCheckBounds(name, "opts.Bounds", bounds); err != nil {
		return err
	}
	if err := xyCheckLegend(name, "opts.Legend", legend); err != nil {
		return err
	}
	lo, hi := xyBounds(bounds)
	for k, g := range groups {
		arg := fmt.Sprintf("groups[%d]", k)
		if err := checkSameLen(name, "categories", len(categories), arg+".Values", len(g.Values)); err != nil {
			return err
		}
		if err := checkSlice(name, arg+".Values", g.Values); err != nil {
			return err
		}
		if err := xyCheckInterval(name, arg, "Values", g.Values, g.Err, g.Lower, g.Upper); err != nil {
			return err
		}
		for i, v := range g.Values {
			if v < lo || v > hi {
				return errf(name, fmt.Sprintf("%s.Values[%d]", arg, i), v,
					fmt.Sprintf("must lie within opts.Bounds [%g, %g]", lo, hi))
			}
		}
	}
	return nil
}

// barSlot is the share of a category's width that its bars fill.
const barSlot = 0.8

// barOffsets are the centres of g grouped bars relative to their
// category, and the width of each bar, in category units.
func barOffsets(g int) (offsets []float64, width float64) {
	width = barSlot / float64(g)
	offsets = make([]float64, g)
	for k := range offsets {
		offsets[k] = -barSlot/2 + width*(float64(k)+0.5)
	}
	return offsets, width
}

// pointsOffsets are the horizontal dodges of g groups of points relative
// to their category, in category units: 0 for one group, else evenly
// spaced and centred, min(0.2, 0.7/g) apart, so that identical values of
// different groups never hide each other.
func pointsOffsets(g int) []float64 {
	d := math.Min(0.2, 0.7/float64(g))
	offsets := make([]float64, g)
	for k := range offsets {
		offsets[k] = (float64(k) - float64(g-1)/2) * d
	}
	return offsets
}

// catPosition is the position of category i of n on the category axis:
// i along x, and n−1−i down y so that the first category is at the top.
func catPosition(i, n int, horizontal bool) float64 {
	if horizontal {
		return float64(n - 1 - i)
	}
	return float64(i)
}

// catMarks computes the marks of group g at the given offset and width,
// intervals clipped to [lo, hi] (and above 0 on a log scale).
func catMarks(g BarGroup, n int, offset, width float64, horizontal bool, lo, hi float64, format string, logScale bool) []catMark {
	marks := make([]catMark, n)
	for i, v := range g.Values {
		cat := catPosition(i, n, horizontal)
		if horizontal {
			cat -= offset // group 0 on top
		} else {
			cat += offset
		}
		m := catMark{cat: cat, width: width, val: v}
		m.lo, m.hi, m.interval = xyInterval(v, g.Err, g.Lower, g.Upper, i, lo, hi, logScale)
		if format != "" { // with a true minus, like the axes
			m.label = trueMinus(fmt.Sprintf(format, v))
		}
		marks[i] = m
	}
	return marks
}

// catHorizontal reports whether a categorical plot of the given width
// (0: the default) lays its categories down y: when asked, or when their
// names would overlap along x (estimated widths against the share of the
// axis each category gets).
func catHorizontal(asked bool, categories []string, width float64) bool {
	if asked {
		return true
	}
	if width <= 0 {
		width = DefaultWidth
	}
	slot := (width - 90) / float64(len(categories))
	for _, c := range categories {
		if xyLabelWidth(c)+8 > slot {
			return true
		}
	}
	return false
}

// catAxes sets the category axis: names at their positions, the range
// one half category beyond the first and last.
func catAxes(p *plot.Plot, categories []string, horizontal bool) {
	n := len(categories)
	names := categories
	ax := &p.X
	if horizontal {
		ax = &p.Y
		names = make([]string, n)
		for i, c := range categories {
			names[n-1-i] = c
		}
	}
	ax.Tick.Marker = categoryTicks(names)
	ax.Tick.Length = 0
	ax.Min, ax.Max = -0.5, float64(n)-0.5
}

// Bar draws a categorical bar chart: one bar per category and group,
// groups side by side in their own colours, with intervals (Err or
// Lower/Upper) as error bars clipped to opts.Bounds — for models,
// ablation rows, conditions: values of named things, not of a continuum.
// Bars start at 0. A legend names the groups when there are two or more.
func Bar(categories []string, groups []BarGroup, opts BarOptions) (*Plot, error) {
	const name = "Bar"
	if err := catCheck(name, categories, groups, opts.Bounds, opts.Legend); err != nil {
		return nil, err
	}
	opts.Horizontal = catHorizontal(opts.Horizontal, categories, opts.Width)
	format := ""
	if opts.ValueLabels {
		format = pick(opts.Format, "%.3g")
		if s := fmt.Sprintf(format, 1.5); strings.Contains(s, "%!") {
			return nil, errf(name, "opts.Format", fmt.Sprintf("%q", opts.Format), "must format one float64, e.g. \"%.2f\" (gives "+s+")")
		}
	}
	xl, yl := "", "value"
	if opts.Horizontal {
		xl, yl = yl, xl
	}
	p := newGonum(opts.Frame, "", xl, yl)
	lo, hi := xyBounds(opts.Bounds)
	offsets, width := barOffsets(len(groups))
	vmax, vmin := 0.0, 0.0
	for k, g := range groups {
		cp := &catPlotter{horizontal: opts.Horizontal, bar: true, fill: SeriesColor(k),
			marks:      catMarks(g, len(categories), offsets[k], width, opts.Horizontal, lo, hi, format, false),
			errStyle:   draw.LineStyle{Color: color.Gray{0x30}, Width: vg.Points(1.2)},
			labelStyle: textStyle(tickSize - 1)}
		_, _, vlo, vhi := cp.DataRange()
		if opts.Horizontal {
			vlo, vhi, _, _ = cp.DataRange()
		}
		vmin, vmax = math.Min(vmin, vlo), math.Max(vmax, vhi)
		p.Add(cp)
		if len(groups) > 1 && g.Label != "" {
			p.Legend.Add(g.Label, cp)
		}
	}
	catAxes(p, categories, opts.Horizontal)
	if opts.ValueLabels { // room for the labels past the bars
		ax := &p.Y
		if opts.Horizontal {
			ax = &p.X
		}
		span := vmax - vmin
		if vmax > 0 {
			ax.Max = vmax + 0.1*span
		}
		if vmin < 0 {
			ax.Min = vmin - 0.1*span
		}
	}
	return newPlot(name, opts.Frame, gonumDrawLegend(p, opts.Legend)), nil
}

// Points draws a categorical dot plot: a marker per category and group
// with its interval (Err or Lower/Upper, clipped to opts.Bounds), the
// groups dodged side by side (min(0.2, 0.7/len(groups)) of a category
// apart, centred on it) so that identical values never hide each other,
// in their own colours and, from the eleventh group on, their own marker
// shapes; light guide lines mark the categories. The value axis need not include 0.
// Connect joins the points of a group across ordered categories.
func Points(categories []string, groups []BarGroup, opts PointsOptions) (*Plot, error) {
	const name = "Points"
	if err := catCheck(name, categories, groups, opts.Bounds, opts.Legend); err != nil {
		return nil, err
	}
	opts.Horizontal = catHorizontal(opts.Horizontal, categories, opts.Width)
	xl, yl := "", "value"
	if opts.Horizontal {
		xl, yl = yl, xl
	}
	if opts.LogScale {
		for k, g := range groups {
			for i, v := range g.Values {
				if v <= 0 {
					return nil, errf(name, fmt.Sprintf("groups[%d].Values[%d]", k, i), v, "must be > 0 with opts.LogScale")
				}
			}
		}
	}
	p := newGonum(opts.Frame, "", xl, yl)
	p.Add(catGuides{n: len(categories), horizontal: opts.Horizontal})
	logAxes(p, opts.LogScale && opts.Horizontal, opts.LogScale && !opts.Horizontal)
	lo, hi := xyBounds(opts.Bounds)
	offsets := pointsOffsets(len(groups))
	for k, g := range groups {
		cp := &catPlotter{horizontal: opts.Horizontal,
			marks:    catMarks(g, len(categories), offsets[k], 0, opts.Horizontal, lo, hi, "", opts.LogScale),
			glyph:    xyGlyph(k, vg.Points(3.5)),
			errStyle: draw.LineStyle{Color: SeriesColor(k), Width: vg.Points(1.4)}}
		if opts.Connect {
			cp.connect = lineStyle(k, false)
			cp.connect.Width = vg.Points(1.2)
		}
		p.Add(cp)
		if len(groups) > 1 && g.Label != "" {
			p.Legend.Add(g.Label, cp)
		}
	}
	catAxes(p, categories, opts.Horizontal)
	// pad the value axis so that markers do not sit on the frame
	ax := &p.Y
	if opts.Horizontal {
		ax = &p.X
	}
	pointsPadAxis(ax, opts.LogScale, opts.Bounds)
	return newPlot(name, opts.Frame, gonumDrawLegend(p, opts.Legend)), nil
}

// pointsPadAxis pads the value axis of Points by 5 % (a single value by
// 10 % of itself) so that markers do not sit on the frame, but never
// beyond the quantity's valid range (an accuracy stays in [0, 1]).
func pointsPadAxis(ax *plot.Axis, logScale bool, bounds [2]float64) {
	if logScale {
		f := math.Pow(ax.Max/ax.Min, 0.05)
		if !(f > 1) || !finite(f) {
			f = 2
		}
		ax.Min, ax.Max = ax.Min/f, ax.Max*f
	} else if span := ax.Max - ax.Min; span > 0 {
		ax.Min, ax.Max = ax.Min-0.05*span, ax.Max+0.05*span
	} else {
		d := 0.1 * math.Abs(ax.Min)
		if d == 0 {
			d = 1
		}
		ax.Min, ax.Max = ax.Min-d, ax.Max+d
	}
	if blo, bhi := xyBounds(bounds); !math.IsInf(blo, 0) && !math.IsInf(bhi, 0) {
		m := 0.02 * (bhi - blo)
		ax.Min, ax.Max = math.Max(ax.Min, blo-m), math.Min(ax.Max, bhi+m)
	}
}
