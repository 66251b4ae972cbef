package viz

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Tolerances of the colour-bar pixel tests.
const (
	// barMatchDist is the largest RGB distance (0–441) at which a pixel
	// counts as a colour of the map: the bar is written pixel by pixel,
	// so only the 8-bit rounding of the map and the 256-step strip differ.
	barMatchDist = 6
	// barMinFrac is the shortest bar, as a fraction of the image height.
	barMinFrac = 0.3
	// barJitter is how far t may step backwards between neighbouring
	// pixels (rounding of neighbouring map entries).
	barJitter = 0.01
	// barMinLevels is the fewest distinct colours of a bar (it is drawn
	// from 256).
	barMinLevels = 64
	// barEnd is how far from 0 and 1 the bar's ends may read: near-white
	// ends of grey maps merge into the background.
	barEnd = 0.12
)

// invertMap returns the t in [0, 1] whose colour under cmap is nearest to
// c, and the distance.
func invertMap(cmap func(float64) color.RGBA, c color.RGBA) (float64, float64) {
	best, bestD := 0.0, math.Inf(1)
	for i := 0; i <= 512; i++ {
		t := float64(i) / 512
		m := cmap(t)
		d := math.Sqrt(sq(float64(m.R)-float64(c.R)) + sq(float64(m.G)-float64(c.G)) + sq(float64(m.B)-float64(c.B)))
		if d < bestD {
			best, bestD = t, d
		}
	}
	return best, bestD
}

func sq(x float64) float64 { return x * x }

// findBar looks in the right part of img (x ≥ fromFrac·width) for the
// longest vertical run of pixels in the colours of cmap that is a ramp —
// at least barMinLevels distinct colours, which flat cells are not — and
// returns the map's t along it from bottom to top.
func findBar(img image.Image, cmap func(float64) color.RGBA, fromFrac float64) []float64 {
	b := img.Bounds()
	var best []float64
	cache := map[color.RGBA][2]float64{}
	for x := b.Min.X + int(fromFrac*float64(b.Dx())); x < b.Max.X; x += 1 {
		var run []float64
		flush := func() {
			levels := map[float64]bool{}
			for _, v := range run {
				levels[v] = true
			}
			if len(run) > len(best) && len(levels) >= barMinLevels {
				best = append([]float64(nil), run...)
			}
			run = run[:0]
		}
		for y := b.Max.Y - 1; y >= b.Min.Y; y-- {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			v, ok := cache[c]
			if !ok {
				t, d := invertMap(cmap, c)
				v = [2]float64{t, d}
				cache[c] = v
			}
			if v[1] <= barMatchDist && c != (color.RGBA{255, 255, 255, 255}) {
				run = append(run, v[0])
			} else {
				flush()
			}
		}
		flush()
	}
	return best
}

// checkBar requires a colour bar: a run of at least barMinFrac of the
// image height whose colours climb the whole map monotonically.
func checkBar(t *testing.T, img image.Image, cmap func(float64) color.RGBA, fromFrac float64) {
	t.Helper()
	run := findBar(img, cmap, fromFrac)
	h := img.Bounds().Dy()
	if float64(len(run)) < barMinFrac*float64(h) {
		t.Fatalf("no colour bar: longest run of map colours is %d px of %d", len(run), h)
	}
	// Leave out the bar's outline (grey, which the grey maps contain).
	run = run[3 : len(run)-3]
	if run[0] > barEnd || run[len(run)-1] < 1-barEnd {
		t.Errorf("colour bar spans t = %.3f … %.3f, want 0 … 1", run[0], run[len(run)-1])
	}
	for i := 1; i < len(run); i++ {
		if run[i] < run[i-1]-barJitter {
			t.Fatalf("colour bar not monotonic at pixel %d of %d: t %.3f after %.3f", i, len(run), run[i], run[i-1])
		}
	}
}

func pngImage(t *testing.T, p *Plot) image.Image {
	t.Helper()
	img, _, _ := decodePNG(t, p.PNG())
	return img
}

// TestColorBarPresent: every heat map, confusion matrix and figure of
// them has a colour bar whose pixels climb its map from bottom to top.
func TestColorBarPresent(t *testing.T) {
	cm := [][]float64{{50, 3, 2}, {4, 40, 6}, {1, 2, 47}}
	names := []string{"walk", "sit", "stand"}
	signed := [][]float64{{-1, 0.5}, {0.25, 2}}
	tests := []struct {
		name string
		make func() (*Plot, error)
		cmap func(float64) color.RGBA
	}{
		{"confusion", func() (*Plot, error) { return ConfusionMatrix(cm, names, ConfusionOptions{}) }, Viridis},
		{"temporal confusion", func() (*Plot, error) {
			return TemporalConfusion([][][]float64{cm, {{5, 5, 5}, {5, 5, 5}, {5, 5, 5}}}, []float64{0.02, 0.2}, names, ConfusionOptions{Normalize: true})
		}, Viridis},
		{"heatmap", func() (*Plot, error) { return Heatmap(cm, HeatmapOptions{ColorLabel: "count"}) }, Viridis},
		{"heatmap diverging", func() (*Plot, error) { return Heatmap(signed, HeatmapOptions{Diverging: true}) }, coolWarm()},
		{"grid shared", func() (*Plot, error) {
			a, _ := Heatmap(cm, HeatmapOptions{})
			b, _ := Heatmap(signed, HeatmapOptions{})
			return Grid([]*Plot{a, b}, GridOptions{ShareScale: true})
		}, Viridis},
		{"grid shared with a gap", func() (*Plot, error) {
			a, _ := ConfusionMatrix(cm, names, ConfusionOptions{Normalize: true})
			return Grid([]*Plot{nil, a}, GridOptions{ShareScale: true})
		}, Viridis},
		{"image grid", func() (*Plot, error) { return ImageGrid([][][]float64{cm, signed}, nil, ImageGridOptions{}) }, Viridis},
		{"image grid gray", func() (*Plot, error) {
			return ImageGrid([][][]float64{cm}, []string{"a"}, ImageGridOptions{Colormap: "gray_r"})
		}, grayMap(true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.make()
			if err != nil {
				t.Fatal(err)
			}
			checkBar(t, pngImage(t, p), tt.cmap, 0.6)
		})
	}
	// The test can fail: a panel drawn without its bar has none.
	p, err := ConfusionMatrix(cm, names, ConfusionOptions{HideColorBar: true})
	if err != nil {
		t.Fatal(err)
	}
	if run := findBar(pngImage(t, p), Viridis, 0.6); float64(len(run)) >= barMinFrac*800 {
		t.Errorf("HideColorBar: found a %d px colour bar", len(run))
	}
}

// countColor counts the pixels of colour c in the columns [x0, x1) of img.
func countColor(img image.Image, c color.RGBA, x0, x1 int) int {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := x0; x < x1; x++ {
			if color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) == c {
				n++
			}
		}
	}
	return n
}

// TestSharedScale: two panels with different data ranges map the same
// value to the same colour when they share a scale, and do not when each
// keeps its own.
func TestSharedScale(t *testing.T) {
	a := [][]float64{{1, 0}, {0, 1}}   // own range [0, 1]
	b := [][]float64{{1, 10}, {0, 10}} // own range [0, 10]
	one := Viridis(0.1)                // 1 on the shared scale [0, 10]
	top := Viridis(1)                  // 1 on a's own scale
	tests := []struct {
		name   string
		make   func() (*Plot, error)
		shared bool
	}{
		{"grid shared", func() (*Plot, error) {
			pa, _ := Heatmap(a, HeatmapOptions{})
			pb, _ := Heatmap(b, HeatmapOptions{})
			return Grid([]*Plot{pa, pb}, GridOptions{Cols: 2, ShareScale: true})
		}, true},
		{"image grid", func() (*Plot, error) { return ImageGrid([][][]float64{a, b}, nil, ImageGridOptions{Cols: 2}) }, true},
		{"grid own scales", func() (*Plot, error) {
			pa, _ := Heatmap(a, HeatmapOptions{})
			pb, _ := Heatmap(b, HeatmapOptions{})
			return Grid([]*Plot{pa, pb}, GridOptions{Cols: 2})
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.make()
			if err != nil {
				t.Fatal(err)
			}
			img := pngImage(t, p)
			w := img.Bounds().Dx()
			// The left panel lies in the left 40 % of the figure (colour
			// bars are at the right).
			leftOne, leftTop := countColor(img, one, 0, 2*w/5), countColor(img, top, 0, 2*w/5)
			rightOne := countColor(img, one, w/2, w)
			if tt.shared {
				if leftOne < 100 || rightOne < 100 || leftTop > 0 {
					t.Errorf("shared scale: value 1 has the colour of 0.1 in %d (left) and %d (right) px; the left panel has %d px of its own maximum colour",
						leftOne, rightOne, leftTop)
				}
			} else if leftTop < 100 || leftOne > 0 {
				t.Errorf("own scales: the left panel's 1 should be its top colour (%d px), not 0.1's (%d px)", leftTop, leftOne)
			}
		})
	}
}

// testCanvas is a PNG canvas of w×h CSS pixels.
func testCanvas(w, h float64) draw.Canvas {
	return draw.New(vgimg.NewWith(vgimg.UseWH(vg.Length(w), vg.Length(h)), vgimg.UseDPI(retinaDPI)))
}

// TestMatrixTicks: ticks at every cell centre up to 30 cells when they
// fit, a subset beyond; x labels rotated only when they would overlap.
func TestMatrixTicks(t *testing.T) {
	digits := make([]string, 10)
	for i := range digits {
		digits[i] = fmt.Sprint(i)
	}
	square := func(n int) [][]float64 {
		m := make([][]float64, n)
		for i := range m {
			m[i] = make([]float64, n)
			m[i][i] = 1
		}
		return m
	}
	long := []string{"walk", "upstairs", "downstairs", "sit", "stand", "lie"}
	tests := []struct {
		name         string
		make         func() (*Plot, error)
		w, h         float64
		xTicks       int // want exactly (0: at most maxLabels)
		maxLabels    int
		rotated      bool
		cellCentered bool
	}{
		{"digits", func() (*Plot, error) { return ConfusionMatrix(square(10), digits, ConfusionOptions{}) }, 520, 440, 10, 0, false, true},
		{"long names wide", func() (*Plot, error) { return ConfusionMatrix(square(6), long, ConfusionOptions{}) }, 900, 600, 6, 0, false, true},
		{"long names narrow", func() (*Plot, error) { return ConfusionMatrix(square(6), long, ConfusionOptions{}) }, 300, 300, 6, 0, true, true},
		{"heatmap 20", func() (*Plot, error) { return Heatmap(square(20), HeatmapOptions{}) }, 640, 400, 20, 0, false, true},
		{"heatmap 200", func() (*Plot, error) { return Heatmap(square(200), HeatmapOptions{}) }, 640, 400, 0, 11, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.make()
			if err != nil {
				t.Fatal(err)
			}
			m := matrixOf(p)
			if m == nil {
				t.Fatal("matrixOf: not a matrix plot")
			}
			gp := m.gonum(testCanvas(tt.w, tt.h), m.grid.vmin, m.grid.vmax)
			ticks := gp.X.Tick.Marker.Ticks(gp.X.Min, gp.X.Max)
			if tt.xTicks > 0 && len(ticks) != tt.xTicks {
				t.Errorf("%d x ticks, want %d", len(ticks), tt.xTicks)
			}
			if tt.maxLabels > 0 && (len(ticks) > tt.maxLabels || len(ticks) < 3) {
				t.Errorf("%d x ticks, want 3 to %d", len(ticks), tt.maxLabels)
			}
			for _, tk := range ticks {
				if tt.cellCentered && tk.Value-math.Floor(tk.Value) != 0.5 {
					t.Errorf("tick at %g: not a cell centre", tk.Value)
				}
			}
			if got := gp.X.Tick.Label.Rotation != 0; got != tt.rotated {
				t.Errorf("x labels rotated %v, want %v", got, tt.rotated)
			}
		})
	}
}

// TestMatrixNoSeams: a constant matrix renders as one flat colour, with
// no grid lines between the cells.
func TestMatrixNoSeams(t *testing.T) {
	m := make([][]float64, 28)
	for i := range m {
		m[i] = make([]float64, 28)
		for j := range m[i] {
			m[i][j] = 0.5
		}
	}
	m[0][0], m[27][27] = 0, 1 // the map's range; 0.5 is its middle
	p, err := ImageGrid([][][]float64{m}, nil, ImageGridOptions{HideColorBar: true})
	if err != nil {
		t.Fatal(err)
	}
	img := pngImage(t, p)
	want := Viridis(0.5)
	b := img.Bounds()
	// The middle half of the image is inside the cells.
	for y := b.Dy() / 4; y < 3*b.Dy()/4; y++ {
		for x := b.Dx() / 4; x < 3*b.Dx()/4; x++ {
			if c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA); c != want {
				t.Fatalf("pixel (%d, %d) = %v, want the flat cell colour %v", x, y, c, want)
			}
		}
	}
}

// TestMatrixBadInput: new options reject bad values with errors naming
// plot, argument, value and rule.
func TestMatrixBadInput(t *testing.T) {
	ok := [][]float64{{0, 1}, {1, 0}}
	hist, err := Heatmap(ok, HeatmapOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tcm, err := TemporalConfusion([][][]float64{ok}, []float64{0.1}, nil, ConfusionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	div, _ := Heatmap(ok, HeatmapOptions{Diverging: true})
	tests := []badInput{
		{"image grid empty", func() (*Plot, error) { return ImageGrid(nil, nil, ImageGridOptions{}) }, []string{"viz.ImageGrid", "images", "empty"}},
		{"image grid NaN", func() (*Plot, error) {
			return ImageGrid([][][]float64{ok, {{math.NaN()}}}, nil, ImageGridOptions{})
		}, []string{"images[1][0][0] = NaN", "finite"}},
		{"image grid titles", func() (*Plot, error) { return ImageGrid([][][]float64{ok}, []string{"a", "b"}, ImageGridOptions{}) }, []string{"len(titles) = 2", "len(images) (1)"}},
		{"image grid colormap", func() (*Plot, error) { return ImageGrid([][][]float64{ok}, nil, ImageGridOptions{Colormap: "jet"}) }, []string{"opts.Colormap = \"jet\"", "viridis"}},
		{"image grid range", func() (*Plot, error) { return ImageGrid([][][]float64{ok}, nil, ImageGridOptions{VMin: 1, VMax: 1}) }, []string{"opts.VMax = 1", "exceed opts.VMin"}},
		{"image grid cols", func() (*Plot, error) { return ImageGrid([][][]float64{ok}, nil, ImageGridOptions{Cols: -1}) }, []string{"opts.Cols = -1"}},
		{"grid share non-matrix", func() (*Plot, error) { return Grid([]*Plot{hist, tcm}, GridOptions{ShareScale: true}) }, []string{"viz.Grid", "plots[1]", "Heatmap or ConfusionMatrix"}},
		{"grid share maps", func() (*Plot, error) { return Grid([]*Plot{hist, div}, GridOptions{ShareScale: true}) }, []string{"plots[1]", "coolwarm", "share the map"}},
		{"grid share nil", func() (*Plot, error) { return Grid([]*Plot{nil}, GridOptions{ShareScale: true}) }, []string{"plots", "at least one"}},
	}
	checkBadInput(t, tests)
}

// TestTemporalConfusionTitles: panels say their delay and accuracy.
func TestTemporalConfusionTitles(t *testing.T) {
	p, err := TemporalConfusion([][][]float64{{{9, 1}, {2, 8}}}, []float64{0.2}, []string{"l", "r"}, ConfusionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if svg := p.SVG(); !strings.Contains(svg, "Δt = 200 ms (accuracy 85.0 %)") {
		t.Error("panel title with delay and accuracy missing from the SVG")
	}
}

// Small multiples of images on one scale: e.g. the first MNIST digits.
func ExampleImageGrid() {
	images := make([][][]float64, 8)
	titles := make([]string, 8)
	for k := range images {
		images[k] = make([][]float64, 28)
		for i := range images[k] {
			images[k][i] = make([]float64, 28)
			for j := range images[k][i] {
				images[k][i][j] = math.Max(0, 1-math.Hypot(float64(i-14), float64(j-14))/float64(6+k))
			}
		}
		titles[k] = fmt.Sprintf("label %d", k)
	}
	p, err := ImageGrid(images, titles, ImageGridOptions{Colormap: "gray_r", ColorLabel: "intensity"})
	if err != nil {
		fmt.Println(err)
		return
	}
	w, h := p.Size()
	fmt.Println(p.Name(), w, h)
	// Output: ImageGrid 707 355
}
