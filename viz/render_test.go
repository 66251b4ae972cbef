package viz

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Tolerances of the SVG structure goldens: element counts may drift by
// pathTol (relative) + 2 with gonum/plot's tick placement; at least
// colorFrac of the golden's colours must still be used.
const (
	pathTol   = 0.10
	colorFrac = 0.9
)

// svgFacts summarises an SVG document for golden comparison.
type svgFacts struct {
	Paths  int      `json:"paths"`
	Texts  int      `json:"texts"`
	Images int      `json:"images"`
	Colors []string `json:"colors"`
}

var colorRE = regexp.MustCompile(`(?:fill|stroke):(#[0-9A-Fa-f]{6})`)

func factsOf(svg string) svgFacts {
	f := svgFacts{
		Paths:  strings.Count(svg, "<path"),
		Texts:  strings.Count(svg, "<text"),
		Images: strings.Count(svg, "<image"),
	}
	set := map[string]bool{}
	for _, m := range colorRE.FindAllStringSubmatch(svg, -1) {
		set[strings.ToUpper(m[1])] = true
	}
	for c := range set {
		f.Colors = append(f.Colors, c)
	}
	sort.Strings(f.Colors)
	return f
}

func near(got, want int) bool {
	return math.Abs(float64(got-want)) <= pathTol*float64(want)+2
}

func TestSVGGolden(t *testing.T) {
	for _, s := range samples() {
		t.Run(s.name, func(t *testing.T) {
			p, err := s.make()
			if err != nil {
				t.Fatal(err)
			}
			svg := p.SVG()
			if !strings.HasPrefix(svg, "<?xml") || !strings.Contains(svg, "</svg>") {
				t.Fatalf("not an SVG document: %.80q", svg)
			}
			for _, l := range s.labels {
				if !strings.Contains(svg, l) {
					t.Errorf("label %q missing from the SVG", l)
				}
			}
			got := factsOf(svg)
			file := filepath.Join("testdata", s.name+".json")
			if *update {
				b, _ := json.MarshalIndent(got, "", "  ")
				if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			var want svgFacts
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if !near(got.Paths, want.Paths) || !near(got.Texts, want.Texts) || got.Images != want.Images {
				t.Errorf("structure: got paths %d texts %d images %d, golden %d %d %d",
					got.Paths, got.Texts, got.Images, want.Paths, want.Texts, want.Images)
			}
			have := map[string]bool{}
			for _, c := range got.Colors {
				have[c] = true
			}
			n := 0
			for _, c := range want.Colors {
				if have[c] {
					n++
				}
			}
			if float64(n) < colorFrac*float64(len(want.Colors)) {
				t.Errorf("colours: only %d of the golden's %d are used (got %v)", n, len(want.Colors), got.Colors)
			}
		})
	}
}

func TestPNG(t *testing.T) {
	for _, s := range samples() {
		t.Run(s.name, func(t *testing.T) {
			p, err := s.make()
			if err != nil {
				t.Fatal(err)
			}
			img, ncolors, nonWhite := decodePNG(t, p.PNG())
			w, h := p.Size()
			if b := img.Bounds(); b.Dx() != int(2*w+0.5) || b.Dy() != int(2*h+0.5) {
				t.Errorf("PNG is %dx%d, want 2× the %gx%g figure", b.Dx(), b.Dy(), w, h)
			}
			total := img.Bounds().Dx() * img.Bounds().Dy()
			// Not blank: at least 1 % ink and at least 3 colours (text,
			// axes and data).
			if nonWhite < total/100 || ncolors < 3 {
				t.Errorf("PNG looks blank: %d of %d pixels non-white, %d colours", nonWhite, total, ncolors)
			}
			// The inline bundle (built by package display, tested in
			// package notebook): the retina PNG alone, text from String.
			if !p.Retina() || !slices.Equal(p.MIMETypes(), []string{"image/png"}) || p.String() == "" {
				t.Errorf("display methods: Retina %v, MIMETypes %v, String %q", p.Retina(), p.MIMETypes(), p.String())
			}
		})
	}
}

// TestRasterPixels checks the pixel path: a single spike lands where its
// neuron and time say.
func TestRasterPixels(t *testing.T) {
	spikes := make([][]float64, 100)
	for i := range spikes {
		spikes[i] = make([]float64, 10)
	}
	spikes[10][0] = 1000 // neuron 0 (bottom), early
	spikes[90][9] = 1000 // neuron 9 (top), late
	p, err := Raster(spikes, 0.001, RasterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	img, _, _ := decodePNG(t, p.PNG())
	b := img.Bounds()
	blue := SeriesColor(0)
	var xs, ys []int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == blue.R && uint8(g>>8) == blue.G && uint8(bb>>8) == blue.B {
				xs, ys = append(xs, x), append(ys, y)
			}
		}
	}
	if len(xs) == 0 {
		t.Fatal("no spike pixels")
	}
	// The late spike is right of and above the early one.
	minX, maxX := xs[0], xs[0]
	for _, x := range xs {
		minX, maxX = min(minX, x), max(maxX, x)
	}
	if maxX-minX < b.Dx()/2 {
		t.Errorf("spikes span %d px of %d; want the two ticks far apart", maxX-minX, b.Dx())
	}
	if ys[0] > b.Dy()/3 { // first blue pixel (topmost) belongs to neuron 9
		t.Errorf("topmost spike pixel at y=%d of %d; want near the top", ys[0], b.Dy())
	}
}

func TestBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ok := [][]float64{{0, 1}, {1, 0}}
	tests := []badInput{
		{"raster empty", func() (*Plot, error) { return Raster(nil, 0.001, RasterOptions{}) }, []string{"viz.Raster", "spikes", "empty"}},
		{"raster dt", func() (*Plot, error) { return Raster(ok, 0, RasterOptions{}) }, []string{"dt = 0", "positive"}},
		{"raster NaN", func() (*Plot, error) { return Raster([][]float64{{0, nan}}, 0.001, RasterOptions{}) }, []string{"spikes[0][1] = NaN", "finite"}},
		{"raster ragged", func() (*Plot, error) { return Raster([][]float64{{0, 1}, {1}}, 0.001, RasterOptions{}) }, []string{"len(spikes[1]) = 1"}},
		{"raster subset", func() (*Plot, error) { return Raster(ok, 0.001, RasterOptions{Neurons: []int{5}}) }, []string{"opts.Neurons[0] = 5", "[0, 2)"}},
		{"raster window", func() (*Plot, error) { return Raster(ok, 0.001, RasterOptions{TStart: 1}) }, []string{"opts.TStart = 1", "outside"}},
		{"raster encoders", func() (*Plot, error) { return Raster(ok, 0.001, RasterOptions{Sort: SortDirection}) }, []string{"len(opts.Encoders) = 0"}},
		{"raster groups", func() (*Plot, error) { return Raster(ok, 0.001, RasterOptions{Groups: []int{0}}) }, []string{"len(opts.Groups) = 1"}},
		{"confusion names", func() (*Plot, error) { return ConfusionMatrix(ok, []string{"a", "b", "c"}, ConfusionOptions{}) }, []string{"viz.ConfusionMatrix", "len(classNames) = 3", "(2)"}},
		{"confusion square", func() (*Plot, error) { return ConfusionMatrix([][]float64{{1, 2, 3}}, nil, ConfusionOptions{}) }, []string{"1×3", "square"}},
		{"confusion negative", func() (*Plot, error) { return ConfusionMatrix([][]float64{{1, -2}, {0, 1}}, nil, ConfusionOptions{}) }, []string{"counts[0][1] = -2"}},
		{"confusion Inf", func() (*Plot, error) { return ConfusionMatrix([][]float64{{1, inf}, {0, 1}}, nil, ConfusionOptions{}) }, []string{"counts[0][1] = +Inf"}},
		{"temporal lengths", func() (*Plot, error) {
			return TemporalConfusion([][][]float64{ok}, []float64{1, 2}, nil, ConfusionOptions{})
		}, []string{"len(delays) = 2"}},
		{"heatmap empty", func() (*Plot, error) { return Heatmap([][]float64{{}}, HeatmapOptions{}) }, []string{"m[0]", "empty"}},
		{"heatmap ticks", func() (*Plot, error) { return Heatmap(ok, HeatmapOptions{XTicks: []string{"a"}}) }, []string{"len(opts.XTicks) = 1"}},
		{"line lengths", func() (*Plot, error) { return Line([]Series{{X: []float64{1, 2}, Y: []float64{1}}}, LineOptions{}) }, []string{"len(series[0].X) = 2"}},
		{"line log", func() (*Plot, error) {
			return Line([]Series{{X: []float64{1, 2}, Y: []float64{1, 0}}}, LineOptions{LogY: true})
		}, []string{"series[0].Y[1] = 0", "log"}},
		{"line errbars", func() (*Plot, error) {
			return Line([]Series{{Y: []float64{1, 2}, Err: []float64{1, -1}}}, LineOptions{})
		}, []string{"series[0].Err[1] = -1"}},
		{"scatter NaN", func() (*Plot, error) { return Scatter([]Series{{Y: []float64{nan}}}, LineOptions{}) }, []string{"viz.Scatter", "series[0].Y[0] = NaN"}},
		{"timeseries empty", func() (*Plot, error) { return TimeSeries(0.001, nil, Frame{}) }, []string{"probes", "empty"}},
		{"timeseries NaN", func() (*Plot, error) {
			return TimeSeries(0.001, []Probe{{Data: [][]float64{{nan}}}}, Frame{})
		}, []string{"probes[0].Data[0][0] = NaN"}},
		{"histogram empty", func() (*Plot, error) { return Histogram(nil, HistogramOptions{}) }, []string{"viz.Histogram", "values", "empty"}},
		{"rt hist negative", func() (*Plot, error) { return ResponseTimeHistograms([][]float64{{-1}}, nil, HistogramOptions{}) }, []string{"times[0][0] = -1"}},
		{"rt hist all empty", func() (*Plot, error) { return ResponseTimeHistograms([][]float64{{}, {}}, nil, HistogramOptions{}) }, []string{"at least one"}},
		{"response accuracy", func() (*Plot, error) { return ResponseTime([]float64{0.1}, []float64{1.5}, ResponseTimeOptions{}) }, []string{"accuracy[0] = 1.5", "[0, 1]"}},
		{"response order", func() (*Plot, error) {
			return ResponseTime([]float64{0.2, 0.1}, []float64{0.5, 0.6}, ResponseTimeOptions{})
		}, []string{"delays[1] = 0.1", "increase"}},
		{"response band", func() (*Plot, error) {
			return ResponseTime([]float64{0.1}, []float64{0.5}, ResponseTimeOptions{Lower: []float64{0.4}})
		}, []string{"both bounds"}},
		{"tuning shape", func() (*Plot, error) { return TuningCurves([]float64{1, 2, 3}, ok, TuningOptions{}) }, []string{"len(rates[0]) = 2", "len(x) (3)"}},
		{"training validation", func() (*Plot, error) {
			return TrainingHistory([]Metric{{Train: []float64{1}, Validation: []float64{1, 2}}}, Frame{})
		}, []string{"len(metrics[0].Validation) = 2"}},
		{"grid empty", func() (*Plot, error) { return Grid(nil, GridOptions{}) }, []string{"viz.Grid", "plots"}},
		{"graph edge", func() (*Plot, error) {
			return NetworkGraph(Graph{Nodes: []Node{{ID: "a"}}, Edges: []Edge{{From: "a", To: "b"}}}, GraphOptions{})
		}, []string{"g.Edges[0].To = b", "ID of a node"}},
		{"graph duplicate", func() (*Plot, error) {
			return NetworkGraph(Graph{Nodes: []Node{{ID: "a"}, {ID: "a"}}}, GraphOptions{})
		}, []string{"g.Nodes[1].ID = a", "unique"}},
	}
	checkBadInput(t, tests)
}

// TestNilPlot: ignoring a constructor's error and displaying the nil plot
// shows a message rather than panicking.
func TestNilPlot(t *testing.T) {
	var p *Plot
	if !strings.Contains(p.String(), "nil plot") || !strings.Contains(p.SVG(), "nil plot") {
		t.Errorf("nil plot: %q", p.String())
	}
	if _, _, n := decodePNG(t, p.PNG()); n == 0 {
		t.Error("nil plot PNG is blank")
	}
	if _, err := Grid([]*Plot{nil, nil}, GridOptions{}); err != nil {
		t.Errorf("grid of nil plots: %v", err)
	}
}

// badInput is a constructor call that must fail, and substrings its
// error must contain.
type badInput struct {
	name string
	make func() (*Plot, error)
	want []string
}

// checkBadInput runs each case: an error that names everything in want,
// and no plot beside it.
func checkBadInput(t *testing.T, tests []badInput) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.make()
			if err == nil {
				t.Fatalf("no error (plot %v)", p)
			}
			if p != nil {
				t.Errorf("plot %v returned with error", p)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
