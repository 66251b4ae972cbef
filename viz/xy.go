package viz

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

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
	// Err, if set, are symmetric error bars (±Err[i], ≥ 0) for Line. On a
	// log y axis a bar that would reach zero or below ends a decade below
	// the value.
	Err []float64
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

// checkSeries validates series for plot name; log* require positive data.
func checkSeries(name string, series []Series, logX, logY bool) error {
	if len(series) == 0 {
		return errf(name, "series", "[]", "must not be empty")
	}
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
		if s.Err != nil {
			if err := checkSameLen(name, arg+".Y", len(s.Y), arg+".Err", len(s.Err)); err != nil {
				return err
			}
			if err := checkSlice(name, arg+".Err", s.Err); err != nil {
				return err
			}
			for i, e := range s.Err {
				if e < 0 {
					return errf(name, fmt.Sprintf("%s.Err[%d]", arg, i), e, "error bars must be ≥ 0")
				}
			}
		}
		for i, y := range s.Y {
			if logY && y <= 0 {
				return errf(name, fmt.Sprintf("%s.Y[%d]", arg, i), y, "must be > 0 on a log y axis")
			}
			if logX && s.X == nil && i == 0 {
				return errf(name, arg+".X", "nil (0, 1, ...)", "must be given and > 0 on a log x axis")
			}
			if logX && s.X != nil && s.X[i] <= 0 {
				return errf(name, fmt.Sprintf("%s.X[%d]", arg, i), s.X[i], "must be > 0 on a log x axis")
			}
		}
	}
	return nil
}

// LineOptions configures Line and Scatter.
type LineOptions struct {
	Frame
	// LogX and LogY use logarithmic axes (data must be > 0).
	LogX, LogY bool
	// Markers draws a dot at every point of Line.
	Markers bool
	// Legend places the legend: "" or "top right" (default), "top left",
	// "bottom right", "bottom left".
	Legend string
}

// placeLegend applies LineOptions.Legend.
func placeLegend(p *plot.Plot, where string) error {
	switch where {
	case "", "top right":
		p.Legend.Top, p.Legend.Left = true, false
	case "top left":
		p.Legend.Top, p.Legend.Left = true, true
	case "bottom right":
		p.Legend.Top, p.Legend.Left = false, false
	case "bottom left":
		p.Legend.Top, p.Legend.Left = false, true
	default:
		return errf("Line", "opts.Legend", where, `must be "", "top right", "top left", "bottom right" or "bottom left"`)
	}
	return nil
}

// Line plots series as lines (with error bars where Series.Err is set),
// optionally on log axes — the benchmark figures.
func Line(series []Series, opts LineOptions) (*Plot, error) {
	const name = "Line"
	if err := checkSeries(name, series, opts.LogX, opts.LogY); err != nil {
		return nil, err
	}
	p := newGonum(opts.Frame, "", "x", "y")
	logAxes(p, opts.LogX, opts.LogY)
	if err := placeLegend(p, opts.Legend); err != nil {
		return nil, err
	}
	for k, s := range series {
		pts := xys(s.X, s.Y)
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, errf(name, fmt.Sprintf("series[%d]", k), err, "cannot be drawn")
		}
		l.LineStyle = lineStyle(k, s.Dashed)
		p.Add(l)
		if opts.Markers {
			sc, _ := plotter.NewScatter(pts)
			sc.GlyphStyle = draw.GlyphStyle{Color: SeriesColor(k), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
		if s.Err != nil {
			e := make(yErrs, len(pts))
			for i := range pts {
				e[i] = yErr{pts[i].X, pts[i].Y, s.Err[i], s.Err[i]}
				if opts.LogY && pts[i].Y-s.Err[i] <= 0 {
					// a bar reaching zero or below cannot be drawn on a
					// log axis: it ends a decade below the value
					e[i].lo = 0.9 * pts[i].Y
				}
			}
			eb, err := plotter.NewYErrorBars(e)
			if err == nil {
				eb.LineStyle = draw.LineStyle{Color: SeriesColor(k), Width: vg.Points(1)}
				eb.CapWidth = vg.Points(5)
				p.Add(eb)
			}
		}
		if s.Label != "" {
			p.Legend.Add(s.Label, l)
		}
	}
	return newPlot(name, opts.Frame, gonumDraw(p)), nil
}

// yErrs adapts points with errors to plotter.XYer and YErrorer.
type yErrs []yErr

type yErr struct{ x, y, lo, hi float64 }

func (e yErrs) Len() int                        { return len(e) }
func (e yErrs) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e yErrs) YError(i int) (float64, float64) { return e[i].lo, e[i].hi }

func logAxes(p *plot.Plot, logX, logY bool) {
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
}

// Scatter plots series as points.
func Scatter(series []Series, opts LineOptions) (*Plot, error) {
	const name = "Scatter"
	if err := checkSeries(name, series, opts.LogX, opts.LogY); err != nil {
		return nil, err
	}
	p := newGonum(opts.Frame, "", "x", "y")
	logAxes(p, opts.LogX, opts.LogY)
	r := vg.Points(2.5)
	if n := len(series[0].Y); n > 2000 {
		r = vg.Points(1.2)
	}
	for k, s := range series {
		sc, err := plotter.NewScatter(xys(s.X, s.Y))
		if err != nil {
			return nil, errf(name, fmt.Sprintf("series[%d]", k), err, "cannot be drawn")
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: withAlpha(SeriesColor(k), 0.75), Radius: r, Shape: draw.CircleGlyph{}}
		p.Add(sc)
		if s.Label != "" {
			p.Legend.Add(s.Label, sc)
		}
	}
	return newPlot(name, opts.Frame, gonumDraw(p)), nil
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

// HistogramOptions configures Histogram and ResponseTimeHistograms.
type HistogramOptions struct {
	Frame
	// Bins is the number of bins (0 → 20).
	Bins int
	// Density normalises to unit area instead of counts.
	Density bool
}

// Histogram plots the distribution of values.
func Histogram(values []float64, opts HistogramOptions) (*Plot, error) {
	const name = "Histogram"
	if err := checkSlice(name, "values", values); err != nil {
		return nil, err
	}
	if opts.Bins < 0 {
		return nil, errf(name, "opts.Bins", opts.Bins, "must be ≥ 0 (0 → 20)")
	}
	bins := opts.Bins
	if bins == 0 {
		bins = 20
	}
	h, err := plotter.NewHist(plotter.Values(values), bins)
	if err != nil {
		return nil, errf(name, "values", len(values), err.Error())
	}
	if opts.Density {
		h.Normalize(1)
	}
	h.FillColor = withAlpha(SeriesColor(0), 0.8)
	h.LineStyle = draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}
	ylabel := "count"
	if opts.Density {
		ylabel = "density"
	}
	p := newGonum(opts.Frame, "Histogram", "value", ylabel)
	p.Add(h)
	return newPlot(name, opts.Frame, gonumDraw(p)), nil
}

// ResponseTimeHistograms overlays one outline histogram per class (or
// path) of response times in seconds, times[class][trial], on shared bins.
// Empty classes are allowed as long as some class has data.
func ResponseTimeHistograms(times [][]float64, classNames []string, opts HistogramOptions) (*Plot, error) {
	const name = "ResponseTimeHistograms"
	if len(times) == 0 {
		return nil, errf(name, "times", "[]", "must not be empty (want [class][trial])")
	}
	if classNames != nil {
		if err := checkSameLen(name, "times", len(times), "classNames", len(classNames)); err != nil {
			return nil, err
		}
	}
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for k, ts := range times {
		for i, t := range ts {
			if !finite(t) || t < 0 {
				return nil, errf(name, fmt.Sprintf("times[%d][%d]", k, i), t, "response times must be finite and ≥ 0")
			}
			lo, hi = math.Min(lo, t), math.Max(hi, t)
			n++
		}
	}
	if n == 0 {
		return nil, errf(name, "times", "all classes empty", "need at least one response time")
	}
	bins := opts.Bins
	if bins <= 0 {
		bins = 20
	}
	if hi == lo {
		hi = lo + 1e-3
	}
	width := (hi - lo) / float64(bins)
	p := newGonum(opts.Frame, "Response times", "response time (s)", pick("", map[bool]string{true: "density", false: "count"}[opts.Density]))
	for k, ts := range times {
		if len(ts) == 0 {
			continue
		}
		counts := make([]float64, bins)
		for _, t := range ts {
			b := min(int((t-lo)/width), bins-1)
			counts[b]++
		}
		if opts.Density {
			for b := range counts {
				counts[b] /= float64(len(ts)) * width
			}
		}
		// Step outline.
		pts := plotter.XYs{{X: lo, Y: 0}}
		for b, c := range counts {
			x0 := lo + float64(b)*width
			pts = append(pts, plotter.XY{X: x0, Y: c}, plotter.XY{X: x0 + width, Y: c})
		}
		pts = append(pts, plotter.XY{X: hi, Y: 0})
		poly, err := plotter.NewPolygon(pts)
		if err != nil {
			continue
		}
		poly.Color = withAlpha(SeriesColor(k), 0.25)
		poly.LineStyle = draw.LineStyle{Color: SeriesColor(k), Width: vg.Points(1.4)}
		p.Add(poly)
		label := strconv.Itoa(k)
		if classNames != nil {
			label = classNames[k]
		}
		p.Legend.Add(label, poly)
	}
	p.Y.Min = 0
	return newPlot(name, opts.Frame, gonumDraw(p)), nil
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
	Name       string // "loss", "accuracy", ...
	Train      []float64
	Validation []float64 // optional; may be shorter (validated less often)
}

// TrainingHistory plots each metric per epoch in its own panel, training
// solid and validation dashed. Width defaults to 320 per panel.
func TrainingHistory(metrics []Metric, opts Frame) (*Plot, error) {
	const name = "TrainingHistory"
	if len(metrics) == 0 {
		return nil, errf(name, "metrics", "[]", "must not be empty")
	}
	panels := make([]*Plot, len(metrics))
	for k, m := range metrics {
		arg := fmt.Sprintf("metrics[%d]", k)
		if err := checkSlice(name, arg+".Train", m.Train); err != nil {
			return nil, err
		}
		if m.Validation != nil {
			if err := checkSlice(name, arg+".Validation", m.Validation); err != nil {
				return nil, err
			}
			if len(m.Validation) > len(m.Train) {
				return nil, errf(name, "len("+arg+".Validation)", len(m.Validation), fmt.Sprintf("must be ≤ len(%s.Train) (%d)", arg, len(m.Train)))
			}
		}
		p := newGonum(Frame{}, pick(m.Name, "metric "+strconv.Itoa(k)), "epoch", pick(m.Name, "value"))
		epochs := func(n int) []float64 {
			e := make([]float64, n)
			for i := range e {
				e[i] = float64(i + 1)
			}
			return e
		}
		lt, _ := plotter.NewLine(xys(epochs(len(m.Train)), m.Train))
		lt.LineStyle = lineStyle(0, false)
		p.Add(lt)
		p.Legend.Add("train", lt)
		if len(m.Validation) > 0 {
			lv, _ := plotter.NewLine(xys(epochs(len(m.Validation)), m.Validation))
			lv.LineStyle = lineStyle(1, true)
			p.Add(lv)
			p.Legend.Add("validation", lv)
		}
		panels[k] = newPlot(name, Frame{}, gonumDraw(p))
	}
	fr := opts
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width, fr.Height = float64(min(4, len(metrics))*320), 300
		if len(metrics) > 4 {
			fr.Height = float64((len(metrics)+3)/4) * 300
		}
	}
	fr.Title = pick(fr.Title, "")
	return grid(name, panels, min(4, len(metrics)), fr)
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
	p.Legend.Top = false
	return newPlot(name, opts.Frame, gonumDraw(p)), nil
}

// wilson is the Wilson score interval for a binomial proportion p over n
// trials at normal quantile z (Wilson 1927).
func wilson(p, n, z float64) (lo, hi float64) {
	z2 := z * z
	c := (p + z2/(2*n)) / (1 + z2/n)
	h := z / (1 + z2/n) * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return math.Max(0, c-h), math.Min(1, c+h)
}
