package viz

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// synthSpikes returns [steps][neurons] spikes with probability p per bin,
// amplitude 1/dt as Nengo's spike probes give.
func synthSpikes(steps, neurons int, p, dt float64, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := make([][]float64, steps)
	for i := range s {
		s[i] = make([]float64, neurons)
		for j := range s[i] {
			if rng.Float64() < p {
				s[i][j] = 1 / dt
			}
		}
	}
	return s
}

// decodePNG decodes b and returns the image and the number of distinct
// non-white colours and non-white pixels.
func decodePNG(t testing.TB, b []byte) (image.Image, int, int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	seen := map[color.RGBA]bool{}
	nonWhite := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if c != (color.RGBA{255, 255, 255, 255}) {
				nonWhite++
				seen[c] = true
			}
		}
	}
	return img, len(seen), nonWhite
}

func BenchmarkRasterPNG(b *testing.B) {
	spikes := synthSpikes(1000, 1000, 0.05, 0.001, 1)
	b.ReportAllocs()
	for b.Loop() {
		p, err := Raster(spikes, 0.001, RasterOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(p.PNG()) == 0 {
			b.Fatal("empty PNG")
		}
	}
}

func BenchmarkRasterPNGRenderOnly(b *testing.B) {
	spikes := synthSpikes(1000, 1000, 0.05, 0.001, 1)
	p, err := Raster(spikes, 0.001, RasterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(renderPNG(p)) == 0 { // uncached
			b.Fatal("empty PNG")
		}
	}
}

// BenchmarkRasterTrains100k: 100 k neurons × 10 k steps (10 s at 1 ms) at
// 5 Hz, about 5 M spikes given as times; construction and PNG.
func BenchmarkRasterTrains100k(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	trains := make([][]float64, 100000)
	for n := range trains {
		for t := rng.ExpFloat64() / 5; t < 10; t += rng.ExpFloat64() / 5 {
			trains[n] = append(trains[n], t)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := RasterTrains(trains, 0.001, 10, RasterOptions{Sort: SortRate})
		if err != nil {
			b.Fatal(err)
		}
		if len(p.PNG()) == 0 {
			b.Fatal("empty PNG")
		}
	}
}

// TestRasterTrains: spike times give the same picture as the dense matrix.
func TestRasterTrains(t *testing.T) {
	const dt = 0.001
	spikes := synthSpikes(300, 30, 0.05, dt, 9)
	trains := make([][]float64, 30)
	for s, row := range spikes {
		for n, v := range row {
			if v > 0 {
				trains[n] = append(trains[n], (float64(s)+0.5)*dt)
			}
		}
	}
	opts := RasterOptions{Sort: SortRate, TStart: 0.05, TEnd: 0.25}
	a, err := Raster(spikes, dt, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := RasterTrains(trains, dt, 0.3, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.PNG(), b.PNG()) {
		t.Error("RasterTrains and Raster differ on the same spikes")
	}
	if _, err := RasterTrains([][]float64{{0.5}}, dt, 0.3, RasterOptions{}); err == nil ||
		!strings.Contains(err.Error(), "trains[0][0] = 0.5") {
		t.Errorf("spike after duration: %v", err)
	}
}

// Titles and axis labels default to the probes' labels and units.
func TestTimeSeriesLabelsFromProbes(t *testing.T) {
	data := [][]float64{{1}, {2}, {3}}
	cases := []struct {
		probes     []Probe
		title, ylb string
	}{
		{[]Probe{{Label: "rate", Data: data, Unit: "Hz"}}, "rate", "value (Hz)"},
		{[]Probe{{Label: "decoded", Data: data}, {Label: "target", Data: data, Target: true}}, "decoded", "value"},
		{[]Probe{{Label: "a", Data: data, Unit: "mV"}, {Label: "b", Data: data, Unit: "mV"}}, "Probes over time", "value (mV)"},
		{[]Probe{{Label: "a", Data: data, Unit: "mV"}, {Label: "b", Data: data}}, "Probes over time", "value"},
	}
	for _, c := range cases {
		p, err := TimeSeries(0.001, c.probes, Frame{})
		if err != nil {
			t.Fatal(err)
		}
		svg := p.SVG()
		if !strings.Contains(svg, c.title) || !strings.Contains(svg, c.ylb) {
			t.Errorf("%v: SVG lacks title %q or y label %q", c.probes[0].Label, c.title, c.ylb)
		}
	}
}

// Error bars reaching below zero on a log axis used to make gonum/plot
// panic while rendering (killing the notebook run); they are clipped.
func TestLineLogYErrorBelowZero(t *testing.T) {
	p, err := Line([]Series{{X: []float64{1, 2}, Y: []float64{48.8, 27.7}, Err: []float64{184.9, 0.6}}}, LineOptions{LogY: true})
	if err != nil {
		t.Fatal(err)
	}
	if png := p.PNG(); len(png) < 1000 {
		t.Fatalf("PNG of %d bytes", len(png))
	}
	if svg := p.SVG(); !strings.Contains(svg, "<svg") || strings.Contains(svg, "cannot draw") {
		t.Fatal("no SVG, or the drawing failed")
	}
}
