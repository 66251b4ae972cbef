package viz

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// seriesPalette is the qualitative cycle for series: seaborn's
// "colorblind" palette (Michael Waskom, "seaborn: statistical data
// visualization", JOSS 2021), ten colours that stay distinct under the
// common colour-vision deficiencies, in the order of matplotlib's default
// cycle. Series 10 and later reuse the colours with a dash pattern (lines)
// or marker shape (points) of their own.
var seriesPalette = [...]color.RGBA{
	{0x01, 0x73, 0xB2, 0xFF}, // blue
	{0xDE, 0x8F, 0x05, 0xFF}, // orange
	{0x02, 0x9E, 0x73, 0xFF}, // green
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0xCC, 0x78, 0xBC, 0xFF}, // pink
	{0xCA, 0x91, 0x61, 0xFF}, // brown
	{0xFB, 0xAF, 0xE4, 0xFF}, // light pink
	{0x94, 0x94, 0x94, 0xFF}, // grey
	{0xEC, 0xE1, 0x33, 0xFF}, // yellow
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
}

// NumSeriesColors is the length of the colour cycle: series i and
// i+NumSeriesColors share a colour and differ in dash pattern or marker.
const NumSeriesColors = len(seriesPalette)

// SeriesColor is the colour of series i (seaborn's colorblind palette,
// cycled after ten).
func SeriesColor(i int) color.RGBA {
	if i < 0 {
		i = -i
	}
	return seriesPalette[i%len(seriesPalette)]
}

// seriesDashes are the dash patterns of the colour cycle's rounds: solid,
// dashed, dotted, dash-dot.
var seriesDashes = [...][]vg.Length{
	nil,
	{vg.Points(5), vg.Points(3)},
	{vg.Points(1.2), vg.Points(2)},
	{vg.Points(6), vg.Points(2.5), vg.Points(1.2), vg.Points(2.5)},
}

// seriesDash is the dash pattern of series i: solid for the first ten,
// then one pattern per round of the colour cycle.
func seriesDash(i int) []vg.Length {
	if i < 0 {
		i = -i
	}
	return seriesDashes[(i/len(seriesPalette))%len(seriesDashes)]
}

// seriesGlyphs are the marker shapes of the colour cycle's rounds.
var seriesGlyphs = [...]draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{},
}

// seriesGlyph is the marker of series i: circles for the first ten, then
// one shape per round of the colour cycle.
func seriesGlyph(i int) draw.GlyphDrawer {
	if i < 0 {
		i = -i
	}
	return seriesGlyphs[(i/len(seriesPalette))%len(seriesGlyphs)]
}

// viridisAnchors are viridis(10) (van der Walt & Smith, matplotlib's
// default map): perceptually uniform and colour-blind safe.
var viridisAnchors = [...][3]float64{
	{0x44, 0x01, 0x54}, {0x48, 0x28, 0x78}, {0x3E, 0x4A, 0x89}, {0x31, 0x68, 0x8E},
	{0x26, 0x82, 0x8E}, {0x1F, 0x9E, 0x89}, {0x35, 0xB7, 0x79}, {0x6D, 0xCD, 0x59},
	{0xB4, 0xDE, 0x2C}, {0xFD, 0xE7, 0x25},
}

// Viridis maps t in [0, 1] (clamped) to the viridis colour map.
func Viridis(t float64) color.RGBA {
	if math.IsNaN(t) || t < 0 {
		t = 0
	}
	if t > 1 {
		t = 1
	}
	x := t * float64(len(viridisAnchors)-1)
	i := int(x)
	if i >= len(viridisAnchors)-1 {
		i = len(viridisAnchors) - 2
	}
	f := x - float64(i)
	a, b := viridisAnchors[i], viridisAnchors[i+1]
	c := func(k int) uint8 { return uint8(a[k] + f*(b[k]-a[k]) + 0.5) }
	return color.RGBA{c(0), c(1), c(2), 0xFF}
}

// viridisMap implements gonum/plot's palette.ColorMap for colour bars.
type viridisMap struct{ min, max, alpha float64 }

func (m *viridisMap) At(v float64) (color.Color, error) {
	if v < m.min || v > m.max {
		return nil, fmt.Errorf("viz: value %g outside [%g, %g]", v, m.min, m.max)
	}
	return Viridis(m.norm(v)), nil
}

func (m *viridisMap) norm(v float64) float64 {
	if m.max == m.min {
		return 0.5
	}
	return (v - m.min) / (m.max - m.min)
}
func (m *viridisMap) Max() float64       { return m.max }
func (m *viridisMap) SetMax(v float64)   { m.max = v }
func (m *viridisMap) Min() float64       { return m.min }
func (m *viridisMap) SetMin(v float64)   { m.min = v }
func (m *viridisMap) Alpha() float64     { return 1 }
func (m *viridisMap) SetAlpha(a float64) { m.alpha = a }
func (m *viridisMap) Palette(n int) palette.Palette {
	cs := make(colors, n)
	for i := range cs {
		cs[i] = Viridis(float64(i) / math.Max(1, float64(n-1)))
	}
	return cs
}

type colors []color.Color

func (c colors) Colors() []color.Color { return c }

// textOn returns black or white, whichever reads better on bg.
func textOn(bg color.RGBA) color.Color {
	lum := 0.2126*float64(bg.R) + 0.7152*float64(bg.G) + 0.0722*float64(bg.B)
	if lum > 140 {
		return color.Black
	}
	return color.White
}
