package jit

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"
)

const ms = time.Millisecond

// handTrace is a Fig 5-like trace: two instances on chip 0, one on chip 1.
//
//	host 0: A pre [0,2) A build [2,3)           A post [6,8)
//	host 1:            B pre [1,4)                             C post [12,13)
//	chip 0:                      A exec [3,6)  B exec [6,10)
//	chip 1:                                    C exec [9,12)
func handTrace() *Trace {
	return &Trace{Wall: 20 * ms, Spans: []Span{
		{Instance: 0, Name: "A", Stage: Preprocess, Worker: 0, Start: 0, End: 2 * ms},
		{Instance: 1, Name: "B", Stage: Preprocess, Worker: 1, Start: 1 * ms, End: 4 * ms},
		{Instance: 0, Name: "A", Stage: Build, Worker: 0, Start: 2 * ms, End: 3 * ms},
		{Instance: 0, Name: "A", Stage: Execute, Worker: -1, Start: 3 * ms, End: 6 * ms},
		{Instance: 0, Name: "A", Stage: Postprocess, Worker: 0, Start: 6 * ms, End: 8 * ms},
		{Instance: 1, Name: "B", Stage: Execute, Worker: -1, Start: 6 * ms, End: 10 * ms},
		{Instance: 2, Name: "C", Stage: Execute, Resource: 1, Worker: -1, Start: 9 * ms, End: 12 * ms},
		{Instance: 2, Name: "C", Stage: Postprocess, Resource: 1, Worker: 1, Start: 12 * ms, End: 13 * ms},
	}}
}

func TestTraceMetrics(t *testing.T) {
	tr := handTrace()
	for _, tc := range []struct {
		name      string
		got, want time.Duration
	}{
		{"Total(preprocess)", tr.Total(Preprocess), 5 * ms},
		{"Total(build)", tr.Total(Build), 1 * ms},
		{"Total(execute)", tr.Total(Execute), 10 * ms},
		{"Total(postprocess)", tr.Total(Postprocess), 3 * ms},
		{"Busy(0)", tr.Busy(0), 7 * ms},
		{"Busy(1)", tr.Busy(1), 3 * ms},
		{"Busy(2)", tr.Busy(2), 0},
		// Host union [0,4) ∪ [6,8) ∪ [12,13); Execute union [3,12):
		// intersection [3,4) ∪ [6,8) = 3 ms.
		{"Overlap", tr.Overlap(), 3 * ms},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	// Utilisation is a ratio of integer nanoseconds: exact up to float64
	// rounding.
	const utilTol = 1e-12
	for _, tc := range []struct {
		resource int
		want     float64
	}{{0, 0.35}, {1, 0.15}, {5, 0}} {
		if got := tr.Utilisation(tc.resource); math.Abs(got-tc.want) > utilTol {
			t.Errorf("Utilisation(%d) = %v, want %v", tc.resource, got, tc.want)
		}
	}
	if got := (&Trace{}).Utilisation(0); got != 0 {
		t.Errorf("Utilisation of an empty trace = %v, want 0", got)
	}
	var nilTrace *Trace
	if nilTrace.Total(Execute) != 0 || nilTrace.Busy(0) != 0 || nilTrace.Utilisation(0) != 0 || nilTrace.Overlap() != 0 {
		t.Error("a nil trace must report zeros")
	}
	if got := (&Trace{}).Overlap(); got != 0 {
		t.Errorf("Overlap of an empty trace = %v, want 0", got)
	}
}

func TestLink(t *testing.T) {
	// Seconds is 8·bytes/rate; the rates are exact powers of ten times
	// small integers, so the results are exact up to float64 rounding.
	const relTol = 1e-15
	for _, tc := range []struct {
		name  string
		link  Link
		bytes float64
		want  float64
	}{
		{"host 125 MB", HostLink(), 125e6, 1},
		{"chip 1 GB", ChipLink(), 1e9, 1},
		{"host one 256x256 5-bit input vector", HostLink(), 256 * 5.0 / 8, 160e-9 * 8},
		{"zero bytes", HostLink(), 0, 0},
		{"zero rate", Link{BitsPerSecond: 0}, 1, math.Inf(1)},
		{"negative rate", Link{BitsPerSecond: -1}, 1, math.Inf(1)},
		{"negative bytes", HostLink(), -1, math.NaN()},
		{"NaN bytes", ChipLink(), math.NaN(), math.NaN()},
	} {
		got := tc.link.Seconds(tc.bytes)
		switch {
		case math.IsNaN(tc.want):
			if !math.IsNaN(got) {
				t.Errorf("%s: Seconds = %v, want NaN", tc.name, got)
			}
		case math.IsInf(tc.want, 0) || tc.want == 0:
			if got != tc.want {
				t.Errorf("%s: Seconds = %v, want %v", tc.name, got, tc.want)
			}
		default:
			if math.Abs(got-tc.want) > relTol*tc.want {
				t.Errorf("%s: Seconds = %v, want %v", tc.name, got, tc.want)
			}
		}
	}
	if got := HostLink().Name; got != "host link (1 Gbit/s)" {
		t.Errorf("HostLink().Name = %q", got)
	}
	if got := ChipLink().Name; got != "chip I/O (8 Gbit/s)" {
		t.Errorf("ChipLink().Name = %q", got)
	}
}

// countColour counts pixels within tol of c in each channel.
func countColour(img image.Image, c color.RGBA, tol int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			d := func(v uint32, w uint8) bool { return abs(int(v>>8)-int(w)) <= tol }
			if d(r, c.R) && d(g, c.G) && d(bl, c.B) {
				n++
			}
		}
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func renderPNG(t *testing.T, tr *Trace) image.Image {
	t.Helper()
	p, err := tr.Plot("JIT execution")
	if err != nil {
		t.Fatal(err)
	}
	w, err := p.WriterTo(6*vg.Inch, 3*vg.Inch, "png")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("Plot did not render a PNG: %v", err)
	}
	return img
}

func TestPlot(t *testing.T) {
	// A rendered Gantt chart shows a bar of every stage's colour.
	const colourTol = 2 // PNG is lossless; allow anti-aliasing rounding
	img := renderPNG(t, handTrace())
	for s := range Stage(numStages) {
		if k := countColour(img, stageColor(s), colourTol); k < 20 {
			t.Errorf("%s: %d pixels of its colour, want a visible bar", s, k)
		}
	}

	// A real run renders too, with one row per resource and worker.
	g := NewGraph()
	for i := range 8 {
		g.Add(Task{Resource: i % 2, Preprocess: nop, Build: nop, Execute: func() error { spin(50); return nil }, Postprocess: nop})
	}
	tr, err := g.Run(context.Background(), Options{Workers: 2, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	if k := countColour(renderPNG(t, tr), stageColor(Execute), colourTol); k == 0 {
		t.Error("the plot of a real run shows no Execute bar")
	}

	// Rows: host lanes bottom to top, then chips; only those present.
	for _, tc := range []struct {
		name string
		tr   *Trace
		want []string
	}{
		{"hand", handTrace(), []string{"host 0", "host 1", "chip 0", "chip 1"}},
		{"sparse", &Trace{Spans: []Span{
			{Stage: Execute, Resource: 1 << 40, Worker: -1, End: ms},
			{Stage: Postprocess, Worker: 5, Start: ms, End: 2 * ms},
		}}, []string{"host 5", "chip 1099511627776"}},
	} {
		p, err := tc.tr.Plot(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: rows %q, want %q", tc.name, got, tc.want)
		}
	}

	for _, tc := range []struct {
		name string
		tr   *Trace
		want string
	}{
		{"nil", nil, "jit: Trace.Plot: trace is nil"},
		{"untraced", &Trace{Wall: ms}, "no spans: run the graph with Options.Trace = true"},
		{"bad stage", &Trace{Spans: []Span{{Stage: 9}}}, "Spans[0].Stage = 9: not a stage"},
		{"reversed", &Trace{Spans: []Span{{Start: 2 * ms, End: ms}}}, "Spans[0]: End = 1ms: must not precede Start = 2ms"},
		{"bad worker", &Trace{Spans: []Span{{Stage: Build, Worker: -1}}}, "Spans[0].Worker = -1"},
	} {
		if p, err := tc.tr.Plot("x"); err == nil || p != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Plot = %v, %v; want error containing %q", tc.name, p, err, tc.want)
		}
	}
}
