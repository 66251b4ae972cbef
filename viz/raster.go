package viz

import (
	"fmt"
	"image"
	"image/color"
	imdraw "image/draw"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// RasterSort orders the neurons (rows) of a raster.
type RasterSort int

const (
	// SortNone keeps the order of Neurons (or of the neuron axis).
	SortNone RasterSort = iota
	// SortRate puts the highest firing rate at the top.
	SortRate
	// SortDirection orders by preferred direction: the angle of the
	// encoder in its first two dimensions (1-D encoders: by sign, then
	// rate). Needs RasterOptions.Encoders.
	SortDirection
)

// RasterOptions configures Raster. The zero value draws every neuron over
// the whole run in one colour.
type RasterOptions struct {
	Frame
	// Neurons selects and orders a subset of neurons (indices into the
	// neuron axis); nil means all.
	Neurons []int
	// Sort orders the shown neurons.
	Sort RasterSort
	// Encoders [neuron][dim] for SortDirection (all neurons, not only the
	// subset).
	Encoders [][]float64
	// Groups gives each neuron (all neurons) a group index ≥ 0 that picks
	// its colour (Okabe–Ito); GroupNames labels the groups in a legend.
	Groups     []int
	GroupNames []string
	// TStart and TEnd select a time window in seconds; TEnd 0 means the
	// end of the data.
	TStart, TEnd float64
}

// Maximum resolution of the binned spike grid: about the data area of a
// large retina figure. Finer data is summed into bins (density mode).
const (
	maxTimeBins = 1600
	maxRowBins  = 1200
	// maxVectorSpikes is the most spikes drawn as individual SVG ticks;
	// beyond it the raster is embedded as an image.
	maxVectorSpikes = 20000
)

// raster is the binned data of a raster plot.
type raster struct {
	steps, rows  int // data size in the window
	tbins, rbins int // grid size
	t0, t1       float64
	groups       int
	counts       [][]uint32 // [group][rbin*tbins+tbin]
	maxCount     uint32
	spikes       int
	exact        bool // one grid cell per (step, row)
	legend       []string
}

// Raster plots spikes [step][neuron] (any value > 0 is a spike; Nengo's
// spike probes give 1/dt) sampled every dt seconds, time on x and neurons
// on y. Rasters larger than the figure are binned: each pixel shows the
// spike density of its neurons and steps, so 100 k neurons × 10 k steps
// stay readable, and rendering costs O(steps × neurons) once at
// construction plus O(pixels) per image.
func Raster(spikes [][]float64, dt float64, opts RasterOptions) (*Plot, error) {
	const name = "Raster"
	if err := checkPositive(name, "dt", dt); err != nil {
		return nil, err
	}
	if len(spikes) == 0 {
		return nil, errf(name, "spikes", "[]", "must not be empty (want [step][neuron])")
	}
	nNeurons := len(spikes[0])
	if nNeurons == 0 {
		return nil, errf(name, "spikes[0]", "[]", "must have at least one neuron")
	}
	for i, row := range spikes {
		if len(row) != nNeurons {
			return nil, errf(name, fmt.Sprintf("len(spikes[%d])", i), len(row),
				fmt.Sprintf("every step must have len(spikes[0]) = %d neurons", nNeurons))
		}
	}
	s0, s1, neurons, ngroups, err := rasterSetup(name, "spikes[0]", len(spikes), nNeurons, dt, opts)
	if err != nil {
		return nil, err
	}
	// Validate values and count rates (one pass over the window).
	rate := make([]float64, nNeurons)
	for s := s0; s < s1; s++ {
		for j, v := range spikes[s] {
			if v != 0 {
				if !finite(v) {
					return nil, errf(name, fmt.Sprintf("spikes[%d][%d]", s, j), v, "must be finite (no NaN or Inf)")
				}
				if v > 0 {
					rate[j]++
				}
			}
		}
	}
	if err := sortNeurons(name, "spikes[0]", neurons, rate, opts); err != nil {
		return nil, err
	}
	r, rbinOf, tbinOf := newRaster(s0, s1, dt, neurons, ngroups)
	for s := s0; s < s1; s++ {
		row := spikes[s]
		tb := tbinOf[s-s0]
		for i, n := range neurons {
			if row[n] > 0 {
				r.add(i, n, tb, rbinOf, &opts)
			}
		}
	}
	return r.finish(name, ngroups, opts), nil
}

// RasterTrains is Raster for spike trains given as times: trains[neuron]
// lists the spike times in seconds (in [0, duration), any order), binned
// to steps of dt. It costs O(spikes) rather than O(steps × neurons), so it
// suits long recordings of large populations (100 k neurons × 10 k steps
// would be 8 GB as a dense [step][neuron] matrix).
func RasterTrains(trains [][]float64, dt, duration float64, opts RasterOptions) (*Plot, error) {
	const name = "RasterTrains"
	if err := checkPositive(name, "dt", dt); err != nil {
		return nil, err
	}
	if err := checkPositive(name, "duration", duration); err != nil {
		return nil, err
	}
	if len(trains) == 0 {
		return nil, errf(name, "trains", "[]", "must not be empty (want [neuron][spike time])")
	}
	nSteps := int(math.Ceil(duration/dt - 1e-9))
	nNeurons := len(trains)
	s0, s1, neurons, ngroups, err := rasterSetup(name, "trains", nSteps, nNeurons, dt, opts)
	if err != nil {
		return nil, err
	}
	rate := make([]float64, nNeurons)
	for n, ts := range trains {
		for k, t := range ts {
			if !finite(t) || t < 0 || t >= duration {
				return nil, errf(name, fmt.Sprintf("trains[%d][%d]", n, k), t, fmt.Sprintf("spike times must be finite and in [0, duration) = [0, %g)", duration))
			}
			if s := int(t / dt); s >= s0 && s < s1 {
				rate[n]++
			}
		}
	}
	if err := sortNeurons(name, "trains", neurons, rate, opts); err != nil {
		return nil, err
	}
	r, rbinOf, tbinOf := newRaster(s0, s1, dt, neurons, ngroups)
	for i, n := range neurons {
		for _, t := range trains[n] {
			if s := int(t / dt); s >= s0 && s < s1 {
				r.add(i, n, tbinOf[s-s0], rbinOf, &opts)
			}
		}
	}
	return r.finish(name, ngroups, opts), nil
}

// rasterSetup validates the options shared by Raster and RasterTrains
// for nSteps steps of nNeurons neurons and returns the step window, the
// shown neurons and the number of groups.
func rasterSetup(name, neuronArg string, nSteps, nNeurons int, dt float64, opts RasterOptions) (s0, s1 int, neurons []int, ngroups int, err error) {
	// Time window.
	s0, s1 = 0, nSteps
	if !finite(opts.TStart) || opts.TStart < 0 {
		return 0, 0, nil, 0, errf(name, "opts.TStart", opts.TStart, "must be finite and ≥ 0")
	}
	if !finite(opts.TEnd) || opts.TEnd < 0 {
		return 0, 0, nil, 0, errf(name, "opts.TEnd", opts.TEnd, "must be finite and ≥ 0 (0 means the end)")
	}
	if opts.TEnd != 0 {
		if opts.TEnd <= opts.TStart {
			return 0, 0, nil, 0, errf(name, "opts.TEnd", opts.TEnd, fmt.Sprintf("must be greater than opts.TStart (%g)", opts.TStart))
		}
		s1 = min(s1, int(math.Ceil(opts.TEnd/dt-1e-9)))
	}
	s0 = int(math.Floor(opts.TStart/dt + 1e-9))
	if s0 >= s1 {
		return 0, 0, nil, 0, errf(name, "opts.TStart", opts.TStart,
			fmt.Sprintf("window is outside the data (%d steps of %g s = %g s)", nSteps, dt, float64(nSteps)*dt))
	}
	// Neuron subset.
	neurons = opts.Neurons
	if neurons == nil {
		neurons = make([]int, nNeurons)
		for i := range neurons {
			neurons[i] = i
		}
	} else {
		if len(neurons) == 0 {
			return 0, 0, nil, 0, errf(name, "opts.Neurons", "[]", "must not be empty (nil means all)")
		}
		for i, n := range neurons {
			if n < 0 || n >= nNeurons {
				return 0, 0, nil, 0, errf(name, fmt.Sprintf("opts.Neurons[%d]", i), n, fmt.Sprintf("must be in [0, %d)", nNeurons))
			}
		}
		neurons = append([]int(nil), neurons...)
	}
	if opts.Groups != nil {
		if err := checkSameLen(name, neuronArg, nNeurons, "opts.Groups", len(opts.Groups)); err != nil {
			return 0, 0, nil, 0, err
		}
	}
	ngroups = 1
	for i, g := range opts.Groups {
		if g < 0 {
			return 0, 0, nil, 0, errf(name, fmt.Sprintf("opts.Groups[%d]", i), g, "must be ≥ 0")
		}
		ngroups = max(ngroups, g+1)
	}
	if len(opts.GroupNames) > 0 && len(opts.GroupNames) < ngroups {
		return 0, 0, nil, 0, errf(name, "len(opts.GroupNames)", len(opts.GroupNames), fmt.Sprintf("must name every group (%d)", ngroups))
	}
	return s0, s1, neurons, ngroups, nil
}

// sortNeurons orders the shown neurons in place as opts.Sort asks.
func sortNeurons(name, neuronArg string, neurons []int, rate []float64, opts RasterOptions) error {
	nNeurons := len(rate)
	switch opts.Sort {
	case SortNone:
	case SortRate:
		sort.SliceStable(neurons, func(a, b int) bool { return rate[neurons[a]] < rate[neurons[b]] })
	case SortDirection:
		if err := checkSameLen(name, neuronArg, nNeurons, "opts.Encoders", len(opts.Encoders)); err != nil {
			return err
		}
		key := make([]float64, nNeurons)
		for i, e := range opts.Encoders {
			if len(e) == 0 {
				return errf(name, fmt.Sprintf("opts.Encoders[%d]", i), "[]", "encoders must have at least one dimension")
			}
			if err := checkSlice(name, fmt.Sprintf("opts.Encoders[%d]", i), e); err != nil {
				return err
			}
			if len(e) == 1 {
				key[i] = math.Copysign(1, e[0]) * 1e9 // sign, then rate below
			} else {
				key[i] = math.Atan2(e[1], e[0])
			}
		}
		sort.SliceStable(neurons, func(a, b int) bool {
			ka, kb := key[neurons[a]], key[neurons[b]]
			if ka != kb {
				return ka < kb
			}
			return rate[neurons[a]] < rate[neurons[b]]
		})
	default:
		return errf(name, "opts.Sort", int(opts.Sort), "must be SortNone, SortRate or SortDirection")
	}

	return nil
}

// newRaster allocates the binned grid for steps [s0, s1) of the shown
// neurons; rbinOf and tbinOf map a shown row and a window step to bins.
func newRaster(s0, s1 int, dt float64, neurons []int, ngroups int) (r *raster, rbinOf, tbinOf []int32) {
	r = &raster{steps: s1 - s0, rows: len(neurons), t0: float64(s0) * dt, t1: float64(s1) * dt, groups: ngroups}
	r.tbins, r.rbins = min(r.steps, maxTimeBins), min(r.rows, maxRowBins)
	r.exact = r.tbins == r.steps && r.rbins == r.rows
	r.counts = make([][]uint32, ngroups)
	// Lookup tables: row bin and group of each shown row, time bin of each step.
	rbinOf = make([]int32, len(neurons))
	for i := range neurons {
		rbinOf[i] = int32(i * r.rbins / r.rows)
	}
	tbinOf = make([]int32, r.steps)
	for s := range tbinOf {
		tbinOf[s] = int32(s * r.tbins / r.steps)
	}
	return r, rbinOf, tbinOf
}

// add counts a spike of shown row i (neuron n) in time bin tb.
func (r *raster) add(i, n int, tb int32, rbinOf []int32, opts *RasterOptions) {
	g := 0
	if opts.Groups != nil {
		g = opts.Groups[n]
	}
	if r.counts[g] == nil {
		r.counts[g] = make([]uint32, r.tbins*r.rbins)
	}
	r.counts[g][int(rbinOf[i])*r.tbins+int(tb)]++
	r.spikes++
}

// finish makes the Plot of a filled raster.
func (r *raster) finish(name string, ngroups int, opts RasterOptions) *Plot {
	for _, cs := range r.counts {
		for _, c := range cs {
			r.maxCount = max(r.maxCount, c)
		}
	}
	r.legend = opts.GroupNames

	ylabel := "neuron"
	switch opts.Sort {
	case SortRate:
		ylabel = "neuron (sorted by rate)"
	case SortDirection:
		ylabel = "neuron (sorted by preferred direction)"
	}
	var legend []string
	if len(r.legend) > 0 {
		legend = r.legend[:min(len(r.legend), ngroups)]
	}
	fr := opts.Frame
	mk := func() (*plot.Plot, *rasterDraw) {
		p := newGonum(fr, "Spike raster", "time (s)", ylabel)
		rd := &rasterDraw{raster: r}
		p.Add(rd)
		p.X.Min, p.X.Max = r.t0, r.t1
		p.Y.Min, p.Y.Max = 0, float64(r.rows)
		return p, rd
	}
	return newPlot(name, opts.Frame, r.drawFunc(mk, legend))
}

// rasterDraw is one rendering of a raster: it records whether the image
// was drawn in density mode and the density that saturates the colour, for
// the colour bar.
type rasterDraw struct {
	*raster
	dense bool
	ref   float32 // spikes per neuron and step at full colour
}

// densityBar is the colour bar of a density raster saturating at ref
// spikes per neuron and step, in group g's colour, labelled in Hz.
func (r *raster) densityBar(ref float64, g int) colorBar {
	dt := (r.t1 - r.t0) / float64(r.steps)
	col := SeriesColor(g)
	return colorBar{vmin: 0, vmax: ref / dt, label: "rate (Hz)", cmap: func(t float64) color.RGBA {
		a := densityAlpha(t)
		return color.RGBA{R: blend(col.R, a), G: blend(col.G, a), B: blend(col.B, a), A: 0xFF}
	}}
}

// densityAlpha is the opacity of a pixel at density t of the saturating
// density: 0.2 + 0.8 √t (square root, so sparse pixels stay visible).
func densityAlpha(t float64) float64 { return 0.2 + 0.8*math.Sqrt(math.Min(1, math.Max(0, t))) }

// blend is channel c at opacity a over white.
func blend(c uint8, a float64) uint8 { return uint8(float64(c)*a + 255*(1-a) + 0.5) }

// drawFunc draws the raster, with a colour bar "rate (Hz)" when a pixel
// covers several neurons or steps (density mode) and the group legend to
// the right.
func (r *raster) drawFunc(mk func() (*plot.Plot, *rasterDraw), legend []string) func(draw.Canvas, float64) {
	// Upper bound of the bar's strip: its labels are at most the peak rate.
	dt := (r.t1 - r.t0) / float64(r.steps)
	barW := colorBar{vmin: 0, vmax: math.Max(1, float64(r.maxCount)/dt), label: "rate (Hz)"}.width()
	return func(c draw.Canvas, dpi float64) {
		p, rd := mk()
		area := c
		if len(legend) > 0 {
			area = draw.Crop(c, 0, -legendStripWidth(legend), 0, 0)
		}
		legendX := area.Max.X
		withBar := draw.Crop(area, 0, -barW, 0, 0)
		dense := r.spikes > 0 && (!r.exact || (dpi > 0 && r.denseAt(p.DataCanvas(withBar).Rectangle, dpi)))
		if dense {
			area = withBar
		}
		p.Draw(area)
		da := p.DataCanvas(area).Rectangle
		if dense && rd.dense && rd.ref > 0 {
			used := r.usedGroups()
			b := r.densityBar(float64(rd.ref), used[0])
			b.draw(c, area.Max.X, da.Min.Y, da.Max.Y)
			// One stripe per further group, in its colour.
			if len(used) > 1 {
				br := b.rect(area.Max.X, da.Min.Y, da.Max.Y)
				sw := br.Size().X / vg.Length(len(used))
				for k, g := range used[1:] {
					sr := vg.Rectangle{Min: vg.Point{X: br.Min.X + sw*vg.Length(k+1), Y: br.Min.Y}, Max: vg.Point{X: br.Min.X + sw*vg.Length(k+2), Y: br.Max.Y}}
					gb := r.densityBar(float64(rd.ref), g)
					img := image.NewRGBA(image.Rect(0, 0, 1, 256))
					for i := 0; i < 256; i++ {
						img.SetRGBA(0, 255-i, gb.cmap(float64(i)/255))
					}
					if !paintPixels(c, sr, img) {
						c.DrawImage(sr, img)
					}
				}
			}
		}
		if len(legend) > 0 {
			drawLegendStrip(c, legendX, da, legend)
		}
	}
}

// denseAt reports whether the raster drawn into the data area da at dpi
// has pixels covering several steps or neurons.
func (r *raster) denseAt(da vg.Rectangle, dpi float64) bool {
	w := int(math.Round(da.Max.X.Dots(dpi))) - int(math.Round(da.Min.X.Dots(dpi)))
	h := int(math.Round(da.Max.Y.Dots(dpi))) - int(math.Round(da.Min.Y.Dots(dpi)))
	return r.tbins > w || r.rbins > h
}

// usedGroups lists the groups with spikes (at least group 0).
func (r *raster) usedGroups() []int {
	var out []int
	for g, cs := range r.counts {
		if cs != nil {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		out = []int{0}
	}
	return out
}

// legendStripWidth is the width of the group legend strip.
func legendStripWidth(names []string) vg.Length {
	sty := textStyle(tickSize)
	var wmax vg.Length
	for _, n := range names {
		wmax = max(wmax, sty.Width(n))
	}
	return wmax + vg.Points(26)
}

// drawLegendStrip draws a legend of coloured squares (group g in
// SeriesColor(g)) in a strip starting at x, from the top of the data area
// da, so it never covers the data.
func drawLegendStrip(c draw.Canvas, x0 vg.Length, da vg.Rectangle, names []string) {
	sty := textStyle(tickSize)
	sty.YAlign = draw.YCenter
	x := x0 + vg.Points(8)
	for g, n := range names {
		y := da.Max.Y - vg.Points(6) - vg.Length(g)*vg.Points(16)
		sq := vg.Points(9)
		c.FillPolygon(SeriesColor(g), []vg.Point{{X: x, Y: y - sq/2}, {X: x + sq, Y: y - sq/2}, {X: x + sq, Y: y + sq/2}, {X: x, Y: y + sq/2}})
		c.FillText(sty, vg.Point{X: x + sq + vg.Points(5), Y: y}, n)
	}
}

// Plot implements plot.Plotter.
func (rd *rasterDraw) Plot(c draw.Canvas, plt *plot.Plot) {
	r := rd.raster
	rect := c.Rectangle
	if ic, ok := unwrapImg(c.Canvas); ok {
		rd.dense, rd.ref = r.drawPixels(ic, rect)
		return
	}
	if r.exact && r.spikes <= maxVectorSpikes {
		r.drawVector(c, plt)
		return
	}
	// Other canvases (SVG): embed the grid as an image.
	var img *image.RGBA
	img, rd.dense, rd.ref = r.render(r.tbins, r.rbins)
	c.DrawImage(rect, img)
}

// drawVector draws one tick per spike (small rasters on vector canvases).
func (r *raster) drawVector(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	dt := (r.t1 - r.t0) / float64(r.steps)
	w := max(trX(r.t0+dt)-trX(r.t0), vg.Points(0.6))
	for g, cs := range r.counts {
		if cs == nil {
			continue
		}
		ls := draw.LineStyle{Color: SeriesColor(g), Width: w}
		var path vg.Path
		for k, n := range cs {
			if n == 0 {
				continue
			}
			row, tb := k/r.tbins, k%r.tbins
			x := trX(r.t0 + (float64(tb)+0.5)*dt)
			ya, yb := trY(float64(row)+0.1), trY(float64(row)+0.9)
			path.Move(vg.Point{X: x, Y: ya})
			path.Line(vg.Point{X: x, Y: yb})
		}
		c.SetLineStyle(ls)
		c.Stroke(path)
	}
}

// drawPixels writes the raster straight into the PNG canvas's pixels
// (gg's scaled DrawImage would blur and cost a bilinear pass).
func (r *raster) drawPixels(ic *vgimg.Canvas, rect vg.Rectangle) (dense bool, ref float32) {
	img := ic.Image()
	dpi := ic.DPI()
	H := img.Bounds().Dy()
	px0 := int(math.Round(rect.Min.X.Dots(dpi)))
	px1 := int(math.Round(rect.Max.X.Dots(dpi)))
	py0 := H - int(math.Round(rect.Max.Y.Dots(dpi)))
	py1 := H - int(math.Round(rect.Min.Y.Dots(dpi)))
	w, h := px1-px0, py1-py0
	if w <= 0 || h <= 0 {
		return false, 0
	}
	tile, dense, ref := r.render(w, h)
	imdraw.Draw(img, image.Rect(px0, py0, px1, py1), tile, image.Point{}, imdraw.Over)
	return dense, ref
}

// render draws the grid into a w×h RGBA image (y down, row 0 at the
// bottom). Cells larger than a pixel become ticks with a gap between rows.
// Where a pixel covers several neurons or steps (density mode) it shows
// the spike density — spikes / (neurons × steps covered), so uneven bin
// sizes do not stripe the image — as opacity ∝ √(density / max density),
// coloured by the group with most spikes. It reports whether it drew
// densities and the density that saturates the colour (spikes per neuron
// and step).
func (r *raster) render(w, h int) (img *image.RGBA, dense bool, ref float32) {
	img = image.NewRGBA(image.Rect(0, 0, w, h))
	// Pixel column → time bin range, pixel row → row bin range.
	colBins := func(x int) (int, int) {
		a := x * r.tbins / w
		b := max((x+1)*r.tbins/w, a+1)
		return a, min(b, r.tbins)
	}
	rowBins := func(y int) (int, int) { // y counted from the bottom
		a := y * r.rbins / h
		b := max((y+1)*r.rbins/h, a+1)
		return a, min(b, r.rbins)
	}
	// First step and row of each bin (prefix sums of the bin sizes), to
	// know how many steps × rows a pixel covers.
	stepStart := func(tb int) int { return (tb*r.steps + r.tbins - 1) / r.tbins }
	rowStart := func(rb int) int { return (rb*r.rows + r.rbins - 1) / r.rbins }
	rowPx := float64(h) / float64(r.rbins)
	gap := rowPx >= 4
	dense = float64(r.tbins) > float64(w) || float64(r.rbins) > float64(h) || !r.exact
	acc := make([]uint32, r.groups)
	var dens []float32
	var dom []uint8
	maxDens := float32(0)
	if dense {
		dens = make([]float32, w*h)
		dom = make([]uint8, w*h)
	}
	stride := img.Stride
	for y := 0; y < h; y++ {
		ra, rb := rowBins(y)
		if gap && !dense {
			// Leave the top and bottom 15 % of each row blank.
			fy := (float64(y)+0.5)/rowPx - float64(ra)
			if fy < 0.15 || fy > 0.85 {
				continue
			}
		}
		nrows := rowStart(rb) - rowStart(ra)
		for x := 0; x < w; x++ {
			ta, tb := colBins(x)
			// Widen ticks narrower than 2 px to the previous bin.
			if !dense && float64(w)/float64(r.tbins) < 2 && ta > 0 {
				ta--
			}
			clear(acc)
			var tot uint32
			for g, cs := range r.counts {
				if cs == nil {
					continue
				}
				for rr := ra; rr < rb; rr++ {
					base := rr * r.tbins
					for t := ta; t < tb; t++ {
						acc[g] += cs[base+t]
					}
				}
				tot += acc[g]
			}
			if tot == 0 {
				continue
			}
			g := argmax(acc)
			if dense {
				d := float32(tot) / float32(nrows*(stepStart(tb)-stepStart(ta)))
				dens[y*w+x], dom[y*w+x] = d, uint8(min(g, 255))
				maxDens = max(maxDens, d)
				continue
			}
			c := SeriesColor(g)
			o := (h-1-y)*stride + 4*x
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = c.R, c.G, c.B, 0xFF
		}
	}
	if dense {
		// Saturate at the 99th percentile of the non-empty pixels' density
		// (from a 1024-bin histogram) so a few hot pixels do not wash out
		// the rest.
		var hist [1024]int
		n := 0
		for _, d := range dens {
			if d > 0 {
				hist[min(int(d/maxDens*1023), 1023)]++
				n++
			}
		}
		cum := 0
		ref = maxDens
		for i, c := range hist {
			cum += c
			if float64(cum) >= 0.99*float64(n) {
				ref = float32(i+1) / 1024 * maxDens
				break
			}
		}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				d := dens[y*w+x]
				if d == 0 {
					continue
				}
				c := SeriesColor(int(dom[y*w+x]))
				a := densityAlpha(float64(d / ref))
				o := (h-1-y)*stride + 4*x
				// Premultiplied alpha.
				img.Pix[o] = uint8(float64(c.R)*a + 0.5)
				img.Pix[o+1] = uint8(float64(c.G)*a + 0.5)
				img.Pix[o+2] = uint8(float64(c.B)*a + 0.5)
				img.Pix[o+3] = uint8(255*a + 0.5)
			}
		}
	}
	return img, dense, ref
}

func argmax(xs []uint32) int {
	k := 0
	for i, x := range xs {
		if x > xs[k] {
			k = i
		}
	}
	return k
}

// DataRange implements plot.DataRanger.
func (r *raster) DataRange() (xmin, xmax, ymin, ymax float64) {
	return r.t0, r.t1, 0, float64(r.rows)
}

// unwrapImg finds the vgimg canvas under draw.Canvas wrappers (plot.Draw
// nests them when cropping; they add no transform).
func unwrapImg(cv vg.Canvas) (*vgimg.Canvas, bool) {
	for {
		switch x := cv.(type) {
		case *vgimg.Canvas:
			return x, true
		case draw.Canvas:
			cv = x.Canvas
		case *draw.Canvas:
			cv = x.Canvas
		default:
			return nil, false
		}
	}
}
