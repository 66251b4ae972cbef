package jit

import (
	"errors"
	"fmt"
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// stageColors are the colours of the stages in Plot, in stage order:
// the first four series colours of package viz (seaborn's colour-blind
// safe palette) written out here, so that jit needs no plotting package
// of neurogo: preprocess blue, build orange, execute green, postprocess
// vermillion.
var stageColors = [...]color.RGBA{
	{0x01, 0x73, 0xB2, 0xFF}, // blue
	{0xDE, 0x8F, 0x05, 0xFF}, // orange
	{0x02, 0x9E, 0x73, 0xFF}, // green
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
}

// stageColor is the colour of stage s in Plot.
func stageColor(s Stage) color.RGBA {
	if s < 0 || int(s) >= len(stageColors) {
		return color.RGBA{0x94, 0x94, 0x94, 0xFF} // grey
	}
	return stageColors[s]
}

// Plot draws the trace as a Gantt chart like Fig 5 (right) of the hxtorch
// paper: one
// row per resource for Execute ("chip r", top) and one row per host
// worker lane ("host w") for Preprocess, Build and Postprocess (only
// resources and lanes that appear in the trace get a row), time
// since the run began on the x axis in seconds, bars coloured by stage
// with a legend. The trace must hold spans (Run with Options.Trace).
func (t *Trace) Plot(title string) (*plot.Plot, error) {
	if t == nil {
		return nil, errors.New("jit: Trace.Plot: trace is nil")
	}
	if len(t.Spans) == 0 {
		return nil, errors.New("jit: Trace.Plot: trace has no spans: run the graph with Options.Trace = true")
	}
	chips, lanes := map[int]int{}, map[int]int{}
	for i := range t.Spans {
		sp := &t.Spans[i]
		if sp.Stage < 0 || sp.Stage >= numStages {
			return nil, fmt.Errorf("jit: Trace.Plot: Spans[%d].Stage = %d: not a stage", i, int(sp.Stage))
		}
		if sp.End < sp.Start {
			return nil, fmt.Errorf("jit: Trace.Plot: Spans[%d]: End = %v: must not precede Start = %v", i, sp.End, sp.Start)
		}
		if sp.Stage == Execute {
			if sp.Resource < 0 {
				return nil, fmt.Errorf("jit: Trace.Plot: Spans[%d].Resource = %d: must be non-negative", i, sp.Resource)
			}
			chips[sp.Resource] = 0
		} else {
			if sp.Worker < 0 {
				return nil, fmt.Errorf("jit: Trace.Plot: Spans[%d].Worker = %d: must be non-negative for a host stage", i, sp.Worker)
			}
			lanes[sp.Worker] = 0
		}
	}

	// Rows bottom to top: the host lanes, then the chips that appear.
	var names []string
	for _, set := range []struct {
		rows   map[int]int
		format string
	}{{lanes, "host %d"}, {chips, "chip %d"}} {
		keys := make([]int, 0, len(set.rows))
		for k := range set.rows {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		for _, k := range keys {
			set.rows[k] = len(names)
			names = append(names, fmt.Sprintf(set.format, k))
		}
	}
	g := &gantt{rows: len(names)}
	var used [numStages]bool
	for i := range t.Spans {
		sp := &t.Spans[i]
		row := lanes[sp.Worker]
		if sp.Stage == Execute {
			row = chips[sp.Resource]
		}
		g.bars = append(g.bars, bar{x0: sp.Start.Seconds(), x1: sp.End.Seconds(), y: float64(row), c: stageColor(sp.Stage)})
		g.xmax = max(g.xmax, sp.End.Seconds())
		used[sp.Stage] = true
	}
	g.xmax = max(g.xmax, t.Wall.Seconds())
	if g.xmax == 0 {
		g.xmax = 1e-9
	}

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time since run start (s)"
	p.Add(g)
	p.NominalY(names...)
	p.Legend.Top = true
	for s := range Stage(numStages) {
		if used[s] {
			p.Legend.Add(s.String(), swatch{stageColor(s)})
		}
	}
	return p, nil
}

type bar struct {
	x0, x1, y float64
	c         color.Color
}

// gantt is a plot.Plotter of horizontal bars, one row per unit of y.
type gantt struct {
	bars []bar
	rows int
	xmax float64
}

const (
	barHeight   = 0.7            // fraction of a row
	minBarWidth = vg.Length(0.5) // points, so the shortest stages stay visible
	legendRoom  = 0.3            // extra x range on the right for the legend
)

func (g *gantt) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, b := range g.bars {
		x0, x1 := trX(b.x0), trX(b.x1)
		if x1-x0 < minBarWidth {
			x1 = x0 + minBarWidth
		}
		y0, y1 := trY(b.y-barHeight/2), trY(b.y+barHeight/2)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(b.c, c.ClipPolygonXY(pts))
		if x1-x0 > 4*separator.Width {
			// A white left edge separates back-to-back bars of one stage.
			c.StrokeLines(separator, c.ClipLinesXY([]vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}})...)
		}
	}
}

var separator = draw.LineStyle{Color: color.White, Width: vg.Points(0.75)}

func (g *gantt) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, g.xmax * (1 + legendRoom), -0.5, float64(g.rows) - 0.5
}

// swatch is a legend thumbnail: a filled box.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
	c.FillPolygon(s.c, pts)
}
