package viz

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HistogramOptions configures Histogram and ResponseTimeHistograms. The
// zero value gives the defaults described per field: bins chosen from the
// data, counts on the y axis, the legend placed where it covers no data.
//
// Bins follow the data: integer data (every value a whole number, e.g.
// counts or whole frames) get bins of width 1 centred on the integers;
// data on a common step (Step, or detected by ResponseTimeHistograms:
// whole-frame response times k·dt) get bins centred on the multiples of
// the step. When such data span more than 40 steps, a bin covers a whole
// number of steps (1, 2, 5, 10, 20, … of them). Other data get Bins
// equal-width bins (20 by default) over their range.
type HistogramOptions struct {
	Frame
	// Bins is the number of equal-width bins for data without a step.
	// For integer or step data it is the largest number of bins before
	// a bin covers several steps. 0: 20 bins (40 for step data).
	Bins int
	// BinWidth fixes the width of the bins (> 0), aligned on multiples of
	// BinWidth (centred on multiples of the step for integer or step
	// data). 0: chosen as above.
	BinWidth float64
	// Edges fixes the bins: at least two increasing edges; the last bin
	// includes its right edge and values outside [Edges[0], last edge]
	// are left out. nil: chosen as above. Not with BinWidth.
	Edges []float64
	// Step is the step of whole-step data, e.g. the time step dt of
	// response times measured in whole frames (0.001 s), or 1 for times in
	// frames: bins are centred on its multiples. 0: Histogram treats
	// integer data as data on step 1; ResponseTimeHistograms detects the
	// largest common step of the times (when they have one that gives at
	// most 400 bins) and otherwise bins equally.
	Step float64
	// Density normalises each histogram to unit area instead of counts.
	// false: counts.
	Density bool
	// Legend places the legend of ResponseTimeHistograms when it overlays
	// the classes (see LineOptions.Legend). "": "best".
	Legend string
}

// histMaxBins bounds the number of bins a BinWidth or Step may produce.
const histMaxBins = 10000

// checkHistOptions validates the options of plot name.
func checkHistOptions(name string, opts HistogramOptions) error {
	if opts.Bins < 0 || opts.Bins > histMaxBins {
		return errf(name, "opts.Bins", opts.Bins, fmt.Sprintf("must be in [0, %d] (0 chooses from the data)", histMaxBins))
	}
	if !finite(opts.BinWidth) || opts.BinWidth < 0 {
		return errf(name, "opts.BinWidth", opts.BinWidth, "must be finite and ≥ 0 (0 chooses from the data)")
	}
	if !finite(opts.Step) || opts.Step < 0 {
		return errf(name, "opts.Step", opts.Step, "must be finite and ≥ 0 (0 detects the step)")
	}
	if opts.Edges != nil {
		if opts.BinWidth != 0 {
			return errf(name, "opts.BinWidth", opts.BinWidth, "must be 0 when opts.Edges is set (the edges fix the bins)")
		}
		if len(opts.Edges) < 2 {
			return errf(name, "len(opts.Edges)", len(opts.Edges), "must be ≥ 2 (one bin has two edges)")
		}
		if err := checkSlice(name, "opts.Edges", opts.Edges); err != nil {
			return err
		}
		for i := 1; i < len(opts.Edges); i++ {
			if opts.Edges[i] <= opts.Edges[i-1] {
				return errf(name, fmt.Sprintf("opts.Edges[%d]", i), opts.Edges[i],
					fmt.Sprintf("edges must increase (opts.Edges[%d] = %g)", i-1, opts.Edges[i-1]))
			}
		}
	}
	return xyCheckLegend(name, "opts.Legend", opts.Legend)
}

// histIsIntegers reports whether every value is a whole number.
func histIsIntegers(values []float64) bool {
	for _, v := range values {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}

// histStep detects the common step of values: the largest s such that
// every value is a whole multiple of s (within 1e-6 of a step), provided
// the values' range spans at most 400 steps; 0 when there is none (or
// fewer than two distinct values).
func histStep(values []float64) float64 {
	u := distinct(values)
	if len(u) < 2 {
		return 0
	}
	scale := math.Max(math.Abs(u[0]), math.Abs(u[len(u)-1]))
	tol := 1e-9 * scale
	g := 0.0
	for i := 1; i < len(u); i++ {
		g = histGCD(g, u[i]-u[i-1], tol)
	}
	for _, v := range u {
		g = histGCD(g, math.Abs(v), tol)
	}
	if g <= tol || (u[len(u)-1]-u[0])/g > 400 {
		return 0
	}
	for _, v := range u {
		if q := v / g; math.Abs(q-math.Round(q)) > 1e-6*math.Max(1, math.Abs(q)) {
			return 0
		}
	}
	return g
}

// histGCD is Euclid's algorithm on floats: remainders within tol of 0 (or
// of the divisor) count as 0.
func histGCD(a, b, tol float64) float64 {
	a, b = math.Abs(a), math.Abs(b)
	if a < b {
		a, b = b, a
	}
	for b > tol {
		r := math.Mod(a, b)
		if b-r <= tol {
			r = 0
		}
		a, b = b, r
	}
	return a
}

// histNiceInt is the smallest of 1, 2, 5, 10, 20, 50, … that is ≥ x.
func histNiceInt(x float64) float64 {
	for p := 1.0; ; p *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if m*p >= x {
				return m * p
			}
		}
	}
}

// histEdges returns the bin edges for values (non-empty, finite) under
// opts, given the step of the data (0: none); the error is about a
// BinWidth or step that gives too many bins.
func histEdges(name string, values []float64, opts HistogramOptions, step float64) ([]float64, error) {
	if opts.Edges != nil {
		return append([]float64(nil), opts.Edges...), nil
	}
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	tooMany := func(arg string, v float64, n float64) error {
		return errf(name, arg, v, fmt.Sprintf("gives %.0f bins over [%g, %g]; at most %d", n, lo, hi, histMaxBins))
	}
	if step > 0 {
		k0, k1 := math.Round(lo/step), math.Round(hi/step)
		steps := k1 - k0 + 1
		m := 1.0 // steps per bin
		switch {
		case opts.BinWidth > 0:
			m = math.Max(1, math.Round(opts.BinWidth/step))
			if steps/m > histMaxBins {
				return nil, tooMany("opts.BinWidth", opts.BinWidth, math.Ceil(steps/m))
			}
		case opts.Bins > 0 && steps > float64(opts.Bins):
			m = histNiceInt(steps / float64(opts.Bins))
		case opts.Bins == 0 && steps > 40:
			m = histNiceInt(steps / 20)
		}
		var edges []float64
		for k := k0; ; k += m {
			edges = append(edges, (k-0.5)*step)
			if k > k1 {
				break
			}
		}
		return edges, nil
	}
	if opts.BinWidth > 0 {
		w := opts.BinWidth
		a, b := math.Floor(lo/w), math.Floor(hi/w)+1
		if b-a > histMaxBins {
			return nil, tooMany("opts.BinWidth", w, b-a)
		}
		edges := make([]float64, 0, int(b-a)+1)
		for k := a; k <= b; k++ {
			edges = append(edges, k*w)
		}
		return edges, nil
	}
	bins := opts.Bins
	if bins == 0 {
		bins = 20
	}
	if hi == lo { // one bin around the single value
		w := math.Abs(lo) / 10
		if w == 0 {
			w = 1
		}
		return []float64{lo - w/2, lo + w/2}, nil
	}
	edges := make([]float64, bins+1)
	for i := range edges {
		edges[i] = lo + (hi-lo)*float64(i)/float64(bins)
	}
	edges[bins] = hi
	return edges, nil
}

// histCounts counts values per bin of edges (the last bin includes its
// right edge; values outside are left out), as densities (count / (n ·
// width), n = len(values)) if density.
func histCounts(values, edges []float64, density bool) []float64 {
	counts := make([]float64, len(edges)-1)
	last := edges[len(edges)-1]
	for _, v := range values {
		if v < edges[0] || v > last {
			continue
		}
		b := sort.SearchFloat64s(edges, v) // first edge ≥ v
		if b == len(edges) || edges[b] > v {
			b--
		}
		counts[min(b, len(counts)-1)]++
	}
	if density && len(values) > 0 {
		for b := range counts {
			counts[b] /= float64(len(values)) * (edges[b+1] - edges[b])
		}
	}
	return counts
}

// histBars draws a histogram as filled rectangles from 0.
type histBars struct {
	edges, heights []float64
	fill           color.Color
	line           draw.LineStyle
}

func (h histBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for b, y := range h.heights {
		if y == 0 {
			continue
		}
		r := vg.Rectangle{
			Min: vg.Point{X: trX(h.edges[b]), Y: trY(0)},
			Max: vg.Point{X: trX(h.edges[b+1]), Y: trY(y)},
		}
		c.SetColor(h.fill)
		c.Fill(r.Path())
		if h.line.Width > 0 {
			c.SetLineStyle(h.line)
			c.Stroke(r.Path())
		}
	}
}

func (h histBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymax = 0
	for _, y := range h.heights {
		ymax = math.Max(ymax, y)
	}
	return h.edges[0], h.edges[len(h.edges)-1], 0, ymax
}

func (h histBars) Thumbnail(c *draw.Canvas) {
	c.SetColor(h.fill)
	c.Fill(c.Rectangle.Path())
}

// histOutline is the step outline of a histogram, closed along y = 0.
func histOutline(edges, heights []float64) plotter.XYs {
	pts := plotter.XYs{{X: edges[0], Y: 0}}
	for b, y := range heights {
		pts = append(pts, plotter.XY{X: edges[b], Y: y}, plotter.XY{X: edges[b+1], Y: y})
	}
	return append(pts, plotter.XY{X: edges[len(edges)-1], Y: 0})
}

// histCentres are the bin centres when every bin is one step wide.
func histCentres(edges []float64) []float64 {
	c := make([]float64, len(edges)-1)
	for i := range c {
		c[i] = (edges[i] + edges[i+1]) / 2
	}
	return c
}

// histAxes labels the bin centres when the bins are few and one step
// wide, keeps the x range on the edges and starts y at 0 (counts get
// whole-number ticks).
func histAxes(p *plot.Plot, edges []float64, step float64, density bool, width float64) {
	if step > 0 && math.Abs((edges[1]-edges[0])-step) < 1e-9*step {
		xyAutoTicks(p, histCentres(edges), false, width)
	}
	p.X.Min, p.X.Max = edges[0], edges[len(edges)-1]
	p.Y.Min = 0
	p.Y.Max *= 1.05 // the highest bar below the top of the axes
	if !density {
		p.Y.Tick.Marker = niceTicks{integer: true}
	}
}

// Histogram plots the distribution of values. Integer values get one bin
// per integer (width 1, centred, labelled at the integers when few):
// {0, 1, 1, 2, 4} gives bins centred on 0, 1, 2, 3, 4 with counts 1, 2,
// 1, 0, 1. See HistogramOptions for the bins of other data.
func Histogram(values []float64, opts HistogramOptions) (*Plot, error) {
	const name = "Histogram"
	if err := checkSlice(name, "values", values); err != nil {
		return nil, err
	}
	if err := checkHistOptions(name, opts); err != nil {
		return nil, err
	}
	step := opts.Step
	if step == 0 && histIsIntegers(values) {
		step = 1
	}
	edges, err := histEdges(name, values, opts, step)
	if err != nil {
		return nil, err
	}
	counts := histCounts(values, edges, opts.Density)
	ylabel := "count"
	if opts.Density {
		ylabel = "density"
	}
	p := newGonum(opts.Frame, "Histogram", "value", ylabel)
	p.Add(histBars{edges: edges, heights: counts, fill: withAlpha(SeriesColor(0), 0.85),
		line: draw.LineStyle{Color: color.White, Width: vg.Points(0.6)}})
	histAxes(p, edges, step, opts.Density, opts.Width)
	return newPlot(name, opts.Frame, gonumDraw(p)), nil
}

// rtMaxOverlay is the largest number of classes ResponseTimeHistograms
// overlays; more are drawn as small multiples.
const rtMaxOverlay = 4

// ResponseTimeHistograms plots the distribution of response times per
// class (or path), times[class][trial] in seconds (or frames), on shared
// bins. Whole-frame times — all multiples of one step, given as
// opts.Step or detected — are binned on that step, one bin per frame.
// Up to four classes are overlaid as outlines with a light fill, each in
// its own colour; more classes are drawn as small multiples, one panel
// per class with shared x and y scales, in a grid at most 960 wide (the
// default size), so that no two classes share a colour in one axes.
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
	if err := checkHistOptions(name, opts); err != nil {
		return nil, err
	}
	var all []float64
	var classes []int // the non-empty ones
	for k, ts := range times {
		for i, t := range ts {
			if !finite(t) || t < 0 {
				return nil, errf(name, fmt.Sprintf("times[%d][%d]", k, i), t, "response times must be finite and ≥ 0")
			}
		}
		all = append(all, ts...)
		if len(ts) > 0 {
			classes = append(classes, k)
		}
	}
	if len(all) == 0 {
		return nil, errf(name, "times", "all classes empty", "need at least one response time")
	}
	step := opts.Step
	if step == 0 {
		step = histStep(all)
	}
	edges, err := histEdges(name, all, opts, step)
	if err != nil {
		return nil, err
	}
	label := func(k int) string {
		if classNames != nil {
			return classNames[k]
		}
		return fmt.Sprintf("class %d", k)
	}
	ylabel := "count"
	if opts.Density {
		ylabel = "density"
	}
	xlabel := "response time (s)"
	if len(classes) <= rtMaxOverlay {
		p := newGonum(opts.Frame, "Response times", xlabel, ylabel)
		for _, k := range classes {
			counts := histCounts(times[k], edges, opts.Density)
			poly, err := plotter.NewPolygon(histOutline(edges, counts))
			if err != nil {
				continue
			}
			poly.Color = withAlpha(SeriesColor(k), 0.15)
			poly.LineStyle = draw.LineStyle{Color: SeriesColor(k), Width: vg.Points(1.6)}
			p.Add(poly)
			p.Legend.Add(label(k), poly)
		}
		histAxes(p, edges, step, opts.Density, opts.Width)
		return newPlot(name, opts.Frame, gonumDrawLegend(p, opts.Legend)), nil
	}
	// Small multiples on shared scales.
	n := len(classes)
	cols := min(4, int(math.Ceil(math.Sqrt(float64(n)))))
	rows := (n + cols - 1) / cols
	fr := opts.Frame
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width, fr.Height = 960, float64(rows)*210
		if pick(fr.Title, "Response times") != "" {
			fr.Height += 30
		}
	}
	counts := make([][]float64, n)
	top := 0.0
	for i, k := range classes {
		counts[i] = histCounts(times[k], edges, opts.Density)
		for _, c := range counts[i] {
			top = math.Max(top, c)
		}
	}
	panels := make([]*plot.Plot, n)
	for i, k := range classes {
		xl, yl := "", ""
		if i/cols == rows-1 || i+cols >= n {
			xl = pick(opts.XLabel, xlabel)
		}
		if i%cols == 0 {
			yl = pick(opts.YLabel, ylabel)
		}
		p := newGonum(Frame{}, label(k), xl, yl)
		p.Title.TextStyle.Font.Size = labelSize
		p.Add(histBars{edges: edges, heights: counts[i], fill: withAlpha(SeriesColor(0), 0.85),
			line: draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}})
		histAxes(p, edges, step, opts.Density, fr.Width/float64(cols)+90)
		p.Y.Max = top * 1.05
		panels[i] = p
	}
	return newPlot(name, fr, xyPanelsDraw(panels, cols, pick(opts.Title, "Response times"), "none")), nil
}
