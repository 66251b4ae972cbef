package viz

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one named sequence of points for Line and Scatter.
type Series struct {
	// Label names the series in the legend ("" leaves it out).
	Label string
	// X are the abscissae; nil means 0, 1, 2, ...
	X []float64
	// Y are the values; required.
	Y []float64
	// Err, if set, are symmetric error bars (±Err[i], ≥ 0). nil: none.
	Err []float64
	// Lower and Upper, if set (both or neither, not with Err), are an
	// asymmetric interval per point in data coordinates, e.g. Wilson score
	// intervals of an accuracy; Lower[i] ≤ Y[i] ≤ Upper[i]. nil: none.
	//
	// Intervals are clipped to LineOptions.Bounds. On a log y axis a bar
	// that would reach zero or below ends a decade below the value.
	Lower, Upper []float64
	// Dashed draws the line dashed (targets, validation curves).
	Dashed bool
}

// Probe is the data of one probe for TimeSeries: Data[step][dim].
type Probe struct {
	// Label names the probe in the legend, e.g. "decoded" or "target".
	Label string
	Data  [][]float64
	// Target draws the probe dashed, for reference signals.
	Target bool
	// Unit of the values, e.g. "Hz" or "mV" ("" for dimensionless); it
	// goes into the default y label.
	Unit string
}

const lineWidth = 1.6

func lineStyle(i int, dashed bool) draw.LineStyle {
	ls := draw.LineStyle{Color: SeriesColor(i), Width: vg.Points(lineWidth)}
	if dashed {
		ls.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return ls
}

func withAlpha(c color.RGBA, a float64) color.NRGBA {
	return color.NRGBA{R: c.R, G: c.G, B: c.B, A: uint8(255*a + 0.5)}
}

func xys(x, y []float64) plotter.XYs {
	pts := make(plotter.XYs, len(y))
	for i := range y {
		pts[i].X, pts[i].Y = float64(i), y[i]
		if x != nil {
			pts[i].X = x[i]
		}
	}
	return pts
}

// xyMaxAutoMarkers is the largest series that Line draws with markers
// unless LineOptions.NoMarkers is set.
const xyMaxAutoMarkers = 20

// checkSeries validates series for plot name; log* require positive data
// and every Y must lie within opts.Bounds.
func checkSeries(name string, series []Series, opts LineOptions) error {
	if len(series) == 0 {
		return errf(name, "series", "[]", "must not be empty")
	}
	if err := xyCheckBounds(name, "opts.Bounds", opts.Bounds); err != nil {
		return err
	}
	if err := xyCheckLegend(name, "opts.Legend", opts.Legend); err != nil {
		return err
	}
	lo, hi := xyBounds(opts.Bounds)
	for k, s := range series {
		arg := fmt.Sprintf("series[%d]", k)
		if err := checkSlice(name, arg+".Y", s.Y); err != nil {
			return err
		}
		if s.X != nil {
			if err := checkSameLen(name, arg+".Y", len(s.Y), arg+".X", len(s.X)); err != nil {
				return err
			}
			if err := checkSlice(name, arg+".X", s.X); err != nil {
				return err
			}
		}
		if err := xyCheckInterval(name, arg, "Y", s.Y, s.Err, s.Lower, s.Upper); err != nil {
			return err
		}
		for i, y := range s.Y {
			if y < lo || y > hi {
				return errf(name, fmt.Sprintf("%s.Y[%d]", arg, i), y,
					fmt.Sprintf("must lie within opts.Bounds [%g, %g]", lo, hi))
			}
			if opts.LogY && y <= 0 {
				return errf(name, fmt.Sprintf("%s.Y[%d]", arg, i), y, "must be > 0 on a log y axis")
			}
			if opts.LogX && s.X == nil && i == 0 {
				return errf(name, arg+".X", "nil (0, 1, ...)", "must be given and > 0 on a log x axis")
			}
			if opts.LogX && s.X != nil && s.X[i] <= 0 {
				return errf(name, fmt.Sprintf("%s.X[%d]", arg, i), s.X[i], "must be > 0 on a log x axis")
			}
		}
	}
	return nil
}

// xyCheckInterval validates the interval of values y (named arg.valName):
// symmetric err (≥ 0) or absolute lower/upper with lower ≤ y ≤ upper; all
// optional, err excludes lower/upper.
func xyCheckInterval(name, arg, valName string, y, errs, lower, upper []float64) error {
	if errs != nil {
		if lower != nil || upper != nil {
			return errf(name, arg+".Err", "set with Lower/Upper", "give a symmetric Err or a Lower/Upper interval, not both")
		}
		if err := checkSameLen(name, arg+"."+valName, len(y), arg+".Err", len(errs)); err != nil {
			return err
		}
		if err := checkSlice(name, arg+".Err", errs); err != nil {
			return err
		}
		for i, e := range errs {
			if e < 0 {
				return errf(name, fmt.Sprintf("%s.Err[%d]", arg, i), e, "error bars must be ≥ 0")
			}
		}
		return nil
	}
	if (lower == nil) != (upper == nil) {
		return errf(name, arg+".Lower/"+arg+".Upper", "one of them nil", "give both ends of the interval or neither")
	}
	if lower == nil {
		return nil
	}
	for _, b := range []struct {
		arg string
		v   []float64
	}{{arg + ".Lower", lower}, {arg + ".Upper", upper}} {
		if err := checkSameLen(name, arg+"."+valName, len(y), b.arg, len(b.v)); err != nil {
			return err
		}
		if err := checkSlice(name, b.arg, b.v); err != nil {
			return err
		}
	}
	for i := range y {
		if lower[i] > y[i] || upper[i] < y[i] {
			return errf(name, fmt.Sprintf("%s.Lower[%d], %s.Upper[%d]", arg, i, arg, i),
				fmt.Sprintf("[%g, %g]", lower[i], upper[i]),
				fmt.Sprintf("the interval must contain %s[%d] = %g (Lower and Upper are values, not distances)", valName, i, y[i]))
		}
	}
	return nil
}

// xyCheckBounds validates a Bounds option: the zero value (none) or
// lo < hi, not NaN (either may be infinite for a one-sided bound).
func xyCheckBounds(name, arg string, b [2]float64) error {
	if b == [2]float64{} {
		return nil
	}
	if math.IsNaN(b[0]) || math.IsNaN(b[1]) || b[0] >= b[1] {
		return errf(name, arg, fmt.Sprintf("{%g, %g}", b[0], b[1]),
			"must be {lo, hi} with lo < hi (the zero value: unbounded; ±Inf for one side)")
	}
	return nil
}

// xyBounds returns a validated Bounds option as [lo, hi]; the zero value
// is (−Inf, +Inf).
func xyBounds(b [2]float64) (lo, hi float64) {
	if b == [2]float64{} {
		return math.Inf(-1), math.Inf(1)
	}
	return b[0], b[1]
}

// xyInterval is the interval drawn for value y (index i): from errs
// (±errs[i]) or lower/upper, clipped to [lo, hi] — a 95 % interval
// mean ± 1.96 sd = [0.8, 1.39] of an accuracy with Bounds {0, 1} is drawn
// as [0.8, 1]. On a log axis a lower end ≤ 0 becomes y/10. ok is false
// when there is no interval.
func xyInterval(y float64, errs, lower, upper []float64, i int, lo, hi float64, logY bool) (a, b float64, ok bool) {
	switch {
	case errs != nil:
		a, b = y-errs[i], y+errs[i]
	case lower != nil:
		a, b = lower[i], upper[i]
	default:
		return 0, 0, false
	}
	a, b = math.Max(a, lo), math.Min(b, hi)
	if logY && a <= 0 {
		a = 0.1 * y
	}
	return a, b, true
}

// xyCheckLegend validates a Legend option (see LegendPlacements).
func xyCheckLegend(name, arg, where string) error {
	if validLegend(where) {
		return nil
	}
	return errf(name, arg, fmt.Sprintf("%q", where),
		`must be "" or "best" (an inside corner that covers no data, else outside), "outside", "top right", "top left", "bottom right", "bottom left" or "none"`)
}

// xyGlyph is the marker style of series i with radius r.
func xyGlyph(i int, r vg.Length) draw.GlyphStyle {
	return draw.GlyphStyle{Color: SeriesColor(i), Radius: r, Shape: seriesGlyph(i)}
}

// glyphThumb is a legend entry showing one marker (at full opacity, also
// for translucent scatter points).
type glyphThumb struct{ draw.GlyphStyle }

func (g glyphThumb) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(g.GlyphStyle, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2})
}

// LineOptions configures Line and Scatter. The zero value gives the
// defaults described per field.
type LineOptions struct {
	Frame
	// LogX and LogY use logarithmic axes (data must be > 0). false: linear.
	LogX, LogY bool
	// Markers draws a marker at every point of Line. false: markers only
	// on series of at most 20 points (see NoMarkers).
	Markers bool
	// NoMarkers turns off Line's automatic markers on series of at most 20
	// points. false: they are drawn. A series of one point always gets its
	// marker (a single point draws no line).
	NoMarkers bool
	// Legend places the legend: "" or "best" (default: the inside corner
	// that covers no data, else outside the axes on the right), "outside",
	// "top right", "top left", "bottom right", "bottom left", or "none".
	Legend string
	// Bounds is the valid range {lo, hi} of the y quantity, e.g. {0, 1}
	// for an accuracy or a probability; ±Inf for a one-sided bound such as
	// {0, math.Inf(1)}. Every Y must lie within it, and error bars and
	// intervals are clipped to it: Y = 0.95 with Err 0.44 under Bounds
	// {0, 1} is drawn from 0.51 to 1, not to 1.39. The zero value: no
	// bounds, intervals drawn as given.
	Bounds [2]float64
	// NoDataTicks turns off ticks at the data. false: when all series
	// together have at most 12 distinct x values (or at most 16 evenly
	// spaced ones, on the axis's scale: 1, 2, 4, …, 4096 on a log axis),
	// the x ticks sit exactly at those values (64, 128, 192 rather than
	// 75, 125, 175), as long as their labels have room.
	NoDataTicks bool
	// Alpha is the opacity of Scatter's points in (0, 1]. 0: chosen from
	// the number of points n: 1 up to 200 points, falling with log n to
	// 0.15 at 10 000 points and more.
	Alpha float64
	// Reference draws a reference line: "y=x" (Scatter and Line) draws a
	// grey dashed identity line across the range shared by x and y, and
	// both axes span that range (measured against ideal). "": none.
	Reference string
	// EqualAspect draws one unit of x as long as one unit of y (on log
	// axes: one decade as long as one decade), shrinking the axes as
	// needed. false: the axes fill the frame.
	EqualAspect bool
}

// Line plots series as lines (with error bars where Series.Err or
// Lower/Upper are set, clipped to LineOptions.Bounds), optionally on log
// axes — the benchmark figures. Series of at most 20 points get markers;
// a few distinct x values get ticks at the data. For categories (models,
// ablation rows, named conditions) use Points or Bar instead: a line
// between categories suggests a continuum that is not there.
func Line(series []Series, opts LineOptions) (*Plot, error) {
	const name = "Line"
	if err := xyCheckOptions(name, series, opts); err != nil {
		return nil, err
	}
	p := newGonum(opts.Frame, "", "x", "y")
	logAxes(p, opts.LogX, opts.LogY)
	lo, hi := xyBounds(opts.Bounds)
	for k, s := range series {
		pts := xys(s.X, s.Y)
		var thumbs []plot.Thumbnailer
		if len(pts) > 1 {
			l, err := plotter.NewLine(pts)
			if err != nil {
				return nil, errf(name, fmt.Sprintf("series[%d]", k), err, "cannot be drawn")
			}
			l.LineStyle = lineStyle(k, s.Dashed)
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		if xyMarkers(s, len(pts), opts) {
			sc, _ := plotter.NewScatter(pts)
			sc.GlyphStyle = xyGlyph(k, vg.Points(3))
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		xyAddIntervals(p, k, pts, s, lo, hi, opts.LogY)
		if s.Label != "" {
			p.Legend.Add(s.Label, thumbs...)
		}
	}
	xyFinishAxes(p, series, opts)
	return newPlot(name, opts.Frame, xyDraw(p, opts)), nil
}

// xyMarkers reports whether Line draws markers on series s of n points.
// A dashed series of two points is a reference line (chance level, a
// target): it gets no automatic markers.
func xyMarkers(s Series, n int, opts LineOptions) bool {
	if opts.Markers || n == 1 {
		return true
	}
	if s.Dashed && n == 2 {
		return false
	}
	return !opts.NoMarkers && n <= xyMaxAutoMarkers
}

// xyCheckOptions validates series and the options of Line and Scatter.
func xyCheckOptions(name string, series []Series, opts LineOptions) error {
	if err := checkSeries(name, series, opts); err != nil {
		return err
	}
	if !finite(opts.Alpha) || opts.Alpha < 0 || opts.Alpha > 1 {
		return errf(name, "opts.Alpha", opts.Alpha, "must be in (0, 1] (0 chooses from the number of points)")
	}
	switch opts.Reference {
	case "", "y=x":
	default:
		return errf(name, "opts.Reference", fmt.Sprintf("%q", opts.Reference), `must be "" (none) or "y=x"`)
	}
	if opts.EqualAspect && opts.LogX != opts.LogY {
		return errf(name, "opts.EqualAspect", true, "needs both axes linear or both logarithmic")
	}
	return nil
}

// xyAddIntervals adds the error bars of series k (if any), clipped to
// [lo, hi].
func xyAddIntervals(p *plot.Plot, k int, pts plotter.XYs, s Series, lo, hi float64, logY bool) {
	if s.Err == nil && s.Lower == nil {
		return
	}
	e := make(yErrs, len(pts))
	for i := range pts {
		a, b, _ := xyInterval(pts[i].Y, s.Err, s.Lower, s.Upper, i, lo, hi, logY)
		e[i] = yErr{pts[i].X, pts[i].Y, pts[i].Y - a, b - pts[i].Y}
	}
	eb, err := plotter.NewYErrorBars(e)
	if err == nil {
		eb.LineStyle = draw.LineStyle{Color: SeriesColor(k), Width: vg.Points(1.2)}
		eb.CapWidth = vg.Points(6)
		p.Add(eb)
	}
}

// xyFinishAxes applies what needs all series: ticks at the data, the
// identity reference line.
func xyFinishAxes(p *plot.Plot, series []Series, opts LineOptions) {
	if !opts.NoDataTicks && opts.Reference == "" {
		var xs []float64
		for _, s := range series {
			for i := range s.Y {
				if s.X != nil {
					xs = append(xs, s.X[i])
				} else {
					xs = append(xs, float64(i))
				}
			}
		}
		width := opts.Width
		if width <= 0 {
			width = DefaultWidth
		}
		xyAutoTicks(p, xs, opts.LogX, width)
	}
	if opts.Reference == "y=x" {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range series {
			for i, y := range s.Y {
				x := float64(i)
				if s.X != nil {
					x = s.X[i]
				}
				lo, hi = math.Min(lo, math.Min(x, y)), math.Max(hi, math.Max(x, y))
			}
		}
		if lo == hi {
			lo, hi = lo-1, hi+1
			if opts.LogX || opts.LogY {
				lo, hi = lo/2+1, hi*2 // lo+1 > 0 as data are > 0
			}
		}
		f := plotter.NewFunction(func(x float64) float64 { return x })
		f.XMin, f.XMax, f.Samples = lo, hi, 2
		if opts.LogX != opts.LogY {
			f.Samples = 200
		}
		f.LineStyle = draw.LineStyle{Color: color.Gray{0x80}, Width: vg.Points(1.2),
			Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
		p.Add(f)
		p.Legend.Add("y = x", f)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi
	}
}

// xyAutoTicks puts the x ticks at the data when there are few distinct
// round values (≤ 12, or ≤ 16 evenly spaced on the axis's scale, each of
// at most four significant digits) and their labels
// fit the axis (about width − 90 points long), and pads the range by 5 %
// so that the outermost points do not sit on the frame. It reports
// whether it did.
func xyAutoTicks(p *plot.Plot, xs []float64, logX bool, width float64) bool {
	u := distinct(xs)
	if len(u) < 2 || len(u) > 16 {
		return false
	}
	for _, v := range u {
		if !roundNumber(v) {
			return false // 316.228 is no label; the axis's own ticks read better
		}
	}
	pos := func(v float64) float64 {
		if logX {
			return math.Log(v)
		}
		return v
	}
	span := pos(u[len(u)-1]) - pos(u[0])
	gaps := make([]float64, len(u)-1)
	even := true
	for i := range gaps {
		gaps[i] = (pos(u[i+1]) - pos(u[i])) / span
		if math.Abs(gaps[i]*float64(len(gaps))-1) > 0.02 {
			even = false
		}
	}
	if len(u) > 12 && !even {
		return false
	}
	axis := (width - 90) / 1.1 // the data span after padding, in points
	ticks := dataTicks(u)      // the labels as drawn
	for i, g := range gaps {
		need := (xyLabelWidth(ticks[i].Label)+xyLabelWidth(ticks[i+1].Label))/2 + 6
		if g*axis < need {
			return false
		}
	}
	p.X.Tick.Marker = ticks
	if logX {
		f := math.Exp(0.05 * span)
		p.X.Min, p.X.Max = u[0]/f, u[len(u)-1]*f
	} else {
		p.X.Min, p.X.Max = u[0]-0.05*span, u[len(u)-1]+0.05*span
	}
	return true
}

// xyLabelWidth is the width of a tick label in points, as drawn.
func xyLabelWidth(s string) float64 {
	return float64(textStyle(tickSize).Width(s))
}

// xyDraw is the draw function of Line and Scatter: the legend placed as
// opts.Legend says, and the axes shrunk to equal aspect if asked.
func xyDraw(p *plot.Plot, opts LineOptions) func(draw.Canvas, float64) {
	inner := gonumDrawLegend(p, opts.Legend)
	if !opts.EqualAspect {
		return inner
	}
	return func(c draw.Canvas, dpi float64) {
		da := p.DataCanvas(c)
		w, h := float64(da.Max.X-da.Min.X), float64(da.Max.Y-da.Min.Y)
		rx, ry := p.X.Max-p.X.Min, p.Y.Max-p.Y.Min
		if opts.LogX {
			rx, ry = math.Log(p.X.Max/p.X.Min), math.Log(p.Y.Max/p.Y.Min)
		}
		if w > 0 && h > 0 && rx > 0 && ry > 0 {
			if want := h * rx / ry; want < w { // too wide: narrow the axes
				d := vg.Length((w - want) / 2)
				c = draw.Crop(c, d, -d, 0, 0)
			} else if want := w * ry / rx; want < h {
				d := vg.Length((h - want) / 2)
				c = draw.Crop(c, 0, 0, d, -d)
			}
		}
		inner(c, dpi)
	}
}

// yErrs adapts points with errors to plotter.XYer and YErrorer.
type yErrs []yErr

type yErr struct{ x, y, lo, hi float64 }

func (e yErrs) Len() int                        { return len(e) }
func (e yErrs) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e yErrs) YError(i int) (float64, float64) { return e[i].lo, e[i].hi }

// scatterAlpha is the opacity of n scatter points: 1 up to 200 points,
// then falling linearly in log n to 0.15 at 10 000 points and beyond, so
// that dense regions stay readable.
func scatterAlpha(n int) float64 {
	const n0, n1, aMin = 200, 10000, 0.15
	if n <= n0 {
		return 1
	}
	if n >= n1 {
		return aMin
	}
	t := math.Log(float64(n)/n0) / math.Log(float64(n1)/n0)
	return 1 - (1-aMin)*t
}

// scatterRadius is the marker radius for n points: 3 pt up to 200 points,
// falling with log n to 1.2 pt at 10 000 and beyond.
func scatterRadius(n int) vg.Length {
	const n0, n1, r0, r1 = 200, 10000, 3.0, 1.2
	if n <= n0 {
		return vg.Points(r0)
	}
	if n >= n1 {
		return vg.Points(r1)
	}
	t := math.Log(float64(n)/n0) / math.Log(float64(n1)/n0)
	return vg.Points(r0 - (r0-r1)*t)
}

// Scatter plots series as points. Their opacity and size follow the total
// number of points (LineOptions.Alpha overrides the opacity), so 16 384
// points show their density instead of a solid blob; Reference "y=x" adds
// the identity line for measured-against-ideal plots. Intervals (Err,
// Lower/Upper) are drawn as error bars, clipped to Bounds.
func Scatter(series []Series, opts LineOptions) (*Plot, error) {
	const name = "Scatter"
	if err := xyCheckOptions(name, series, opts); err != nil {
		return nil, err
	}
	p := newGonum(opts.Frame, "", "x", "y")
	logAxes(p, opts.LogX, opts.LogY)
	n := 0
	for _, s := range series {
		n += len(s.Y)
	}
	alpha := opts.Alpha
	if alpha == 0 {
		alpha = scatterAlpha(n)
	}
	r := scatterRadius(n)
	lo, hi := xyBounds(opts.Bounds)
	for k, s := range series {
		pts := xys(s.X, s.Y)
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, errf(name, fmt.Sprintf("series[%d]", k), err, "cannot be drawn")
		}
		g := xyGlyph(k, r)
		thumb := glyphThumb{xyGlyph(k, vg.Points(3))}
		g.Color = withAlpha(SeriesColor(k), alpha)
		sc.GlyphStyle = g
		p.Add(sc)
		xyAddIntervals(p, k, pts, s, lo, hi, opts.LogY)
		if s.Label != "" {
			p.Legend.Add(s.Label, thumb)
		}
	}
	xyFinishAxes(p, series, opts)
	return newPlot(name, opts.Frame, xyDraw(p, opts)), nil
}

// TimeSeries plots probes sampled every dt seconds against time: decoded
// values against targets. Dimension d of every probe shares colour d
// (when all probes are one-dimensional, probe k has colour k); targets are
// dashed.
func TimeSeries(dt float64, probes []Probe, opts Frame) (*Plot, error) {
	const name = "TimeSeries"
	if err := checkPositive(name, "dt", dt); err != nil {
		return nil, err
	}
	if len(probes) == 0 {
		return nil, errf(name, "probes", "[]", "must not be empty")
	}
	multi := false
	for k, pr := range probes {
		_, cols, err := checkMatrix(name, fmt.Sprintf("probes[%d].Data", k), pr.Data)
		if err != nil {
			return nil, err
		}
		multi = multi || cols > 1
	}
	title, ylabel := timeSeriesLabels(probes)
	p := newGonum(opts, title, "time (s)", ylabel)
	for k, pr := range probes {
		dims := len(pr.Data[0])
		for d := 0; d < dims; d++ {
			pts := make(plotter.XYs, len(pr.Data))
			for i, row := range pr.Data {
				pts[i].X, pts[i].Y = float64(i+1)*dt, row[d]
			}
			l, _ := plotter.NewLine(pts)
			ci := k
			if multi {
				ci = d
			}
			l.LineStyle = lineStyle(ci, pr.Target)
			if pr.Target {
				l.LineStyle.Width = vg.Points(1.2)
			}
			p.Add(l)
			label := pr.Label
			if label == "" {
				label = "probe " + strconv.Itoa(k)
			}
			if dims > 1 {
				label += "[" + strconv.Itoa(d) + "]"
			}
			p.Legend.Add(label, l)
		}
	}
	return newPlot(name, opts, gonumDraw(p)), nil
}

// timeSeriesLabels derives the default title and y label from the probes:
// the title is the label of the one probe that is not a target (else
// "Probes over time"); the y label is "value", with the unit when all
// probes share one ("value (Hz)").
func timeSeriesLabels(probes []Probe) (title, ylabel string) {
	title, ylabel = "Probes over time", "value"
	var main []Probe
	for _, pr := range probes {
		if !pr.Target {
			main = append(main, pr)
		}
	}
	if len(main) == 1 && main[0].Label != "" {
		title = main[0].Label
	}
	unit := probes[0].Unit
	for _, pr := range probes[1:] {
		if pr.Unit != unit {
			unit = ""
		}
	}
	if unit != "" {
		ylabel = "value (" + unit + ")"
	}
	return title, ylabel
}

// TuningOptions configures TuningCurves.
type TuningOptions struct {
	Frame
	// Neurons selects which curves to draw (nil → all, at most 200 evenly
	// spaced ones).
	Neurons []int
}

// TuningCurves plots the firing rate of each neuron of an ensemble,
// rates[neuron][i], against the represented value x[i].
func TuningCurves(x []float64, rates [][]float64, opts TuningOptions) (*Plot, error) {
	const name = "TuningCurves"
	if err := checkSlice(name, "x", x); err != nil {
		return nil, err
	}
	_, cols, err := checkMatrix(name, "rates", rates)
	if err != nil {
		return nil, err
	}
	if cols != len(x) {
		return nil, errf(name, "len(rates[0])", cols, fmt.Sprintf("must equal len(x) (%d): rates are [neuron][x]", len(x)))
	}
	sel := opts.Neurons
	if sel == nil {
		n := len(rates)
		k := min(n, 200)
		for i := 0; i < k; i++ {
			sel = append(sel, i*n/k)
		}
	}
	p := newGonum(opts.Frame, "Tuning curves", "input x", "firing rate (Hz)")
	width := vg.Points(1.3)
	if len(sel) > 30 {
		width = vg.Points(0.8)
	}
	for i, n := range sel {
		if n < 0 || n >= len(rates) {
			return nil, errf(name, fmt.Sprintf("opts.Neurons[%d]", i), n, fmt.Sprintf("must be in [0, %d)", len(rates)))
		}
		l, _ := plotter.NewLine(xys(x, rates[n]))
		l.LineStyle = draw.LineStyle{Color: SeriesColor(i), Width: width}
		p.Add(l)
	}
	p.Y.Min = math.Min(0, p.Y.Min)
	return newPlot(name, opts.Frame, gonumDraw(p)), nil
}

// Metric is one training curve for TrainingHistory: a value per epoch for
// the training set and, optionally, the validation set.
type Metric struct {
	// Name titles the panel and its y axis: "loss", "accuracy", ...
	Name string
	// Train is the value after each epoch 1, 2, …; required. NaN entries
	// are epochs without a value and are left out (at least one value).
	Train []float64
	// Validation is the value on the validation set per epoch; optional
	// (nil: none) and may be shorter than Train. NaN entries are epochs
	// without validation and are left out.
	Validation []float64
	// Bounds is the metric's valid range {lo, hi} (±Inf for one side):
	// every value must lie within it and the y axis spans it where it is
	// finite. The zero value: {0, 1} when Name contains "acc" in any case
	// (accuracy, sparse_categorical_accuracy, …), else unbounded (the y
	// axis follows the data).
	Bounds [2]float64
}

// metricBounds is the effective Bounds of m.
func metricBounds(m Metric) (lo, hi float64) {
	if m.Bounds == [2]float64{} && strings.Contains(strings.ToLower(m.Name), "acc") {
		return 0, 1
	}
	return xyBounds(m.Bounds)
}

// Training history panels: at least 420×300 each, at most two per row.
const (
	historyPanelW = 420
	historyPanelH = 300
	historyCols   = 2
)

// TrainingHistory plots each metric per epoch in its own panel (two per
// row, 420×300 each by default), training solid and validation dashed,
// with a marker at every epoch when there are at most 20 (so one epoch
// shows as a point), whole-number epoch ticks, and the y axis [0, 1] for
// accuracies (see Metric.Bounds).
func TrainingHistory(metrics []Metric, opts Frame) (*Plot, error) {
	const name = "TrainingHistory"
	if len(metrics) == 0 {
		return nil, errf(name, "metrics", "[]", "must not be empty")
	}
	cols := min(historyCols, len(metrics))
	rows := (len(metrics) + cols - 1) / cols
	fr := opts
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width, fr.Height = float64(cols*historyPanelW), float64(rows*historyPanelH)
		if fr.Title != "" {
			fr.Height += 30
		}
	}
	panels := make([]*plot.Plot, len(metrics))
	for k, m := range metrics {
		p, err := historyPanel(name, k, m)
		if err != nil {
			return nil, err
		}
		panels[k] = p
	}
	return newPlot(name, fr, xyPanelsDraw(panels, cols, fr.Title, "best")), nil
}

// historyPanel validates metric k and draws its panel.
func historyPanel(name string, k int, m Metric) (*plot.Plot, error) {
	arg := fmt.Sprintf("metrics[%d]", k)
	if len(m.Train) == 0 {
		return nil, errf(name, arg+".Train", "[]", "must not be empty")
	}
	trained := false
	for _, v := range m.Train {
		trained = trained || !math.IsNaN(v)
	}
	if !trained {
		return nil, errf(name, arg+".Train", "all NaN", "needs at least one value")
	}
	if err := xyCheckBounds(name, arg+".Bounds", m.Bounds); err != nil {
		return nil, err
	}
	lo, hi := metricBounds(m)
	if len(m.Validation) > len(m.Train) {
		return nil, errf(name, "len("+arg+".Validation)", len(m.Validation), fmt.Sprintf("must be ≤ len(%s.Train) (%d)", arg, len(m.Train)))
	}
	for _, v := range []struct {
		arg string
		y   []float64
	}{{arg + ".Train", m.Train}, {arg + ".Validation", m.Validation}} {
		for i, y := range v.y {
			if math.IsInf(y, 0) {
				return nil, errf(name, fmt.Sprintf("%s[%d]", v.arg, i), y, "must be finite (NaN marks an epoch without a value)")
			}
			if y < lo || y > hi {
				rule := fmt.Sprintf("must lie within [%g, %g]", lo, hi)
				if m.Bounds == [2]float64{} {
					rule += fmt.Sprintf(" (the range of a metric named %q; set %s.Bounds for another)", m.Name, arg)
				} else {
					rule += " (" + arg + ".Bounds)"
				}
				return nil, errf(name, fmt.Sprintf("%s[%d]", v.arg, i), y, rule)
			}
		}
	}
	p := newGonum(Frame{}, pick(m.Name, "metric "+strconv.Itoa(k)), "epoch", pick(m.Name, "value"))
	validated := false
	for _, v := range m.Validation {
		validated = validated || !math.IsNaN(v)
	}
	historyCurve(p, m.Train, 0, false, "train", validated)
	historyCurve(p, m.Validation, 1, true, "validation", true)
	n := len(m.Train)
	if n <= 12 {
		e := make([]float64, n)
		for i := range e {
			e[i] = float64(i + 1)
		}
		p.X.Tick.Marker = dataTicks(e)
		p.X.Min, p.X.Max = 0.5, float64(n)+0.5
	} else {
		p.X.Tick.Marker = niceTicks{integer: true}
		p.X.Min, p.X.Max = 1, float64(n)
	}
	// pad the data's range (a single value gets ±10 %) except at a
	// finite bound, where the axis ends
	span := p.Y.Max - p.Y.Min
	if span == 0 {
		span = math.Max(2*math.Abs(p.Y.Max), 1)
	}
	p.Y.Min, p.Y.Max = p.Y.Min-0.05*span, p.Y.Max+0.05*span
	if !math.IsInf(lo, 0) {
		p.Y.Min = lo
	}
	if !math.IsInf(hi, 0) {
		p.Y.Max = hi
	}
	return p, nil
}

// historyCurve adds one curve of a training history (NaN entries left
// out): a line, and markers when there are at most 20 epochs or the
// curve has a single point.
func historyCurve(p *plot.Plot, y []float64, i int, dashed bool, label string, legend bool) {
	var pts plotter.XYs
	for e, v := range y {
		if !math.IsNaN(v) {
			pts = append(pts, plotter.XY{X: float64(e + 1), Y: v})
		}
	}
	if len(pts) == 0 {
		return
	}
	var thumbs []plot.Thumbnailer
	if len(pts) > 1 {
		l, _ := plotter.NewLine(pts)
		l.LineStyle = lineStyle(i, dashed)
		p.Add(l)
		thumbs = append(thumbs, l)
	}
	if len(y) <= xyMaxAutoMarkers || len(pts) == 1 {
		sc, _ := plotter.NewScatter(pts)
		sc.GlyphStyle = xyGlyph(i, vg.Points(3))
		p.Add(sc)
		thumbs = append(thumbs, sc)
	}
	if legend {
		p.Legend.Add(label, thumbs...)
	}
}

// xyPanelsDraw draws gonum plots in a grid of cols columns, row by row,
// with aligned data areas (plot.Align) and each panel's title in a band
// above its tile (so that titles line up too), under the figure's title
// ("" for none); each panel's legend is placed as legend says.
func xyPanelsDraw(panels []*plot.Plot, cols int, title, legend string) func(draw.Canvas, float64) {
	rows := (len(panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	titles := make([]draw.TextStyle, len(panels))
	texts := make([]string, len(panels))
	var band vg.Length
	for i, p := range panels {
		texts[i], titles[i] = p.Title.Text, p.Title.TextStyle
		p.Title.Text = "" // drawn by the grid
		if texts[i] != "" {
			band = max(band, titles[i].Height(texts[i])+vg.Points(8))
		}
	}
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
		for c := range grid[r] {
			if i := r*cols + c; i < len(panels) {
				grid[r][c] = panels[i]
			}
		}
	}
	return func(c draw.Canvas, dpi float64) {
		if title != "" {
			sty := textStyle(titleSize)
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
			c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Points(6)}, title)
			c = draw.Crop(c, 0, 0, 0, -vg.Points(30))
		}
		for _, p := range panels { // the ranges drawing uses, before aligning
			anchorAxis(&p.X)
			anchorAxis(&p.Y)
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(14), PadY: vg.Points(10) + band,
			PadTop: vg.Points(2) + band, PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(6)}
		cs := plot.Align(grid, tiles, c)
		for r := range grid {
			for k, p := range grid[r] {
				if p == nil {
					continue
				}
				gonumDrawLegend(p, legend)(cs[r][k], dpi)
				if i := r*cols + k; texts[i] != "" {
					dc := p.DataCanvas(cs[r][k])
					sty := titles[i]
					sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
					top := tiles.At(c, k, r).Max.Y
					c.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: top + band/2}, texts[i])
				}
			}
		}
	}
}

// ResponseTimeOptions configures ResponseTime.
type ResponseTimeOptions struct {
	Frame
	// Lower and Upper bound a confidence band per delay (both or neither).
	Lower, Upper []float64
	// Trials, if > 0 and no band is given, draws a 95 % Wilson score
	// interval for a binomial accuracy over that many trials per delay.
	Trials int
	// Threshold is the accuracy that defines the response time: the first
	// delay at which accuracy reaches it (0 → 0.9 × the final accuracy).
	Threshold float64
	// Legend places the legend (see LineOptions.Legend). "": "best".
	Legend string
}

// ResponseTime plots accuracy against the delay Δt since stimulus onset
// (seconds) with a confidence band, the threshold line and a marker at the
// response time — the time-resolved evaluation of "statestream: a toolbox
// to explore layerwise-parallel deep neural networks" (Volker Fischer,
// 2018, Fig. 3b).
func ResponseTime(delays, accuracy []float64, opts ResponseTimeOptions) (*Plot, error) {
	const name = "ResponseTime"
	if err := checkSlice(name, "delays", delays); err != nil {
		return nil, err
	}
	if err := checkSlice(name, "accuracy", accuracy); err != nil {
		return nil, err
	}
	if err := checkSameLen(name, "delays", len(delays), "accuracy", len(accuracy)); err != nil {
		return nil, err
	}
	for i := 1; i < len(delays); i++ {
		if delays[i] <= delays[i-1] {
			return nil, errf(name, fmt.Sprintf("delays[%d]", i), delays[i], fmt.Sprintf("delays must increase (delays[%d] = %g)", i-1, delays[i-1]))
		}
	}
	for i, a := range accuracy {
		if a < 0 || a > 1 {
			return nil, errf(name, fmt.Sprintf("accuracy[%d]", i), a, "must be in [0, 1]")
		}
	}
	if (opts.Lower == nil) != (opts.Upper == nil) {
		return nil, errf(name, "opts.Lower/opts.Upper", "one of them nil", "give both bounds of the band or neither")
	}
	lower, upper := opts.Lower, opts.Upper
	if lower != nil {
		for _, b := range []struct {
			arg string
			v   []float64
		}{{"opts.Lower", lower}, {"opts.Upper", upper}} {
			if err := checkSameLen(name, "delays", len(delays), b.arg, len(b.v)); err != nil {
				return nil, err
			}
			if err := checkSlice(name, b.arg, b.v); err != nil {
				return nil, err
			}
		}
	} else if opts.Trials > 0 {
		lower, upper = make([]float64, len(accuracy)), make([]float64, len(accuracy))
		for i, a := range accuracy {
			lower[i], upper[i] = wilson(a, float64(opts.Trials), 1.959964)
		}
	} else if opts.Trials < 0 {
		return nil, errf(name, "opts.Trials", opts.Trials, "must be ≥ 0")
	}
	if err := xyCheckLegend(name, "opts.Legend", opts.Legend); err != nil {
		return nil, err
	}
	th := opts.Threshold
	if !finite(th) || th < 0 || th > 1 {
		return nil, errf(name, "opts.Threshold", th, "must be in [0, 1] (0 → 0.9 × final accuracy)")
	}
	if th == 0 {
		th = 0.9 * accuracy[len(accuracy)-1]
	}
	rt := math.NaN()
	for i, a := range accuracy {
		if a >= th {
			rt = delays[i]
			if i > 0 { // interpolate the crossing
				a0 := accuracy[i-1]
				rt = delays[i-1] + (th-a0)/(a-a0)*(delays[i]-delays[i-1])
			}
			break
		}
	}
	title := "Accuracy over time"
	if !math.IsNaN(rt) {
		title = fmt.Sprintf("Accuracy over time (response time %s)", formatSeconds(rt))
	}
	p := newGonum(opts.Frame, title, "time since stimulus onset Δt (s)", "accuracy")
	if lower != nil {
		band := make(plotter.XYs, 0, 2*len(delays))
		for i := range delays {
			band = append(band, plotter.XY{X: delays[i], Y: lower[i]})
		}
		for i := len(delays) - 1; i >= 0; i-- {
			band = append(band, plotter.XY{X: delays[i], Y: upper[i]})
		}
		poly, err := plotter.NewPolygon(band)
		if err == nil {
			poly.Color = withAlpha(SeriesColor(0), 0.22)
			poly.LineStyle.Width = 0
			p.Add(poly)
			p.Legend.Add("95 % band", poly)
		}
	}
	l, _ := plotter.NewLine(xys(delays, accuracy))
	l.LineStyle = lineStyle(0, false)
	p.Add(l)
	p.Legend.Add("accuracy", l)
	thl := plotter.NewFunction(func(float64) float64 { return th })
	thl.LineStyle = draw.LineStyle{Color: color.Gray{0x70}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	p.Add(thl)
	p.Legend.Add(fmt.Sprintf("threshold %.2f", th), thl)
	if !math.IsNaN(rt) {
		m, _ := plotter.NewLine(plotter.XYs{{X: rt, Y: 0}, {X: rt, Y: th}})
		m.LineStyle = lineStyle(1, false)
		p.Add(m)
		sc, _ := plotter.NewScatter(plotter.XYs{{X: rt, Y: th}})
		sc.GlyphStyle = draw.GlyphStyle{Color: SeriesColor(1), Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		p.Legend.Add("response time", m)
	}
	p.Y.Min, p.Y.Max = 0, 1.02
	p.X.Min = math.Min(0, delays[0])
	return newPlot(name, opts.Frame, gonumDrawLegend(p, opts.Legend)), nil
}

// wilson is the Wilson score interval for a binomial proportion p over n
// trials at normal quantile z (Wilson 1927).
func wilson(p, n, z float64) (lo, hi float64) {
	z2 := z * z
	c := (p + z2/(2*n)) / (1 + z2/n)
	h := z / (1 + z2/n) * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return math.Max(0, c-h), math.Min(1, c+h)
}
