package notebook

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
	"github.com/neurogo/neurogo/train/timeres"
	"github.com/neurogo/neurogo/viz"
)

// sink records display calls.
type sink struct {
	data           []map[string]any
	ids            []string
	shows, updates int
}

func (s *sink) Display(data, metadata map[string]any, id string, update bool) error {
	s.data = append(s.data, data)
	s.ids = append(s.ids, id)
	if update {
		s.updates++
	} else {
		s.shows++
	}
	return nil
}
func (s *sink) Clear(bool) error { return nil }

// TestPlotBundle checks that a viz plot shown in a notebook is what it
// always was: the retina PNG alone (declared at the figure's CSS size)
// and text/plain from String, no SVG.
func TestPlotBundle(t *testing.T) {
	line, _ := viz.Line([]viz.Series{{Y: []float64{1, 0.5, 0.2}}}, viz.LineOptions{})
	conf, _ := viz.ConfusionMatrix([][]float64{{3, 1}, {0, 4}}, nil, viz.ConfusionOptions{
		Frame: viz.Frame{Width: 300, Height: 280}})
	for _, p := range []*viz.Plot{line, conf, nil} {
		data, md := display.Bundle(p)
		if len(data) != 2 || data[display.MIMEPNG] == nil || data[display.MIMEText] != p.String() {
			t.Errorf("%v: bundle has %d types (text %q), want the PNG and String", p, len(data), data[display.MIMEText])
		}
		size, _ := md[display.MIMEPNG].(map[string]any)
		w, h := p.Size()
		if p == nil {
			w, h = viz.DefaultWidth, 60
		}
		if len(md) != 1 || size["width"] != int(w) || size["height"] != int(h) {
			t.Errorf("%v: metadata %v, want %g×%g", p, md, w, h)
		}
	}
}

func TestLive(t *testing.T) {
	mk := func() (*viz.Plot, error) { return viz.Histogram([]float64{1, 2, 2, 3}, viz.HistogramOptions{}) }
	// Outside a kernel: no-op, the plot is never built.
	l := NewLive("h")
	built := 0
	for i := 0; i < 5; i++ {
		if err := l.UpdateFunc(func() (*viz.Plot, error) { built++; return mk() }); err != nil {
			t.Fatal(err)
		}
	}
	if built != 0 || l.Sent != 0 || l.Due() {
		t.Fatalf("outside a kernel: built %d, sent %d", built, l.Sent)
	}
	// Inside: show once, then at most one update per 100 ms of (fake) time.
	s := &sink{}
	display.SetSink(s)
	defer display.SetSink(nil)
	now := time.Unix(0, 0)
	l.now = func() time.Time { return now }
	for i := 0; i < 50; i++ { // 50 calls over 490 ms
		if err := l.UpdateFunc(func() (*viz.Plot, error) { built++; return mk() }); err != nil {
			t.Fatal(err)
		}
		now = now.Add(10 * time.Millisecond)
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	// Sends at 0, 100, 200, 300, 400 ms plus the flush.
	if s.shows != 1 || s.updates != 5 || built != 6 {
		t.Errorf("shows %d updates %d built %d; want 1, 5, 6", s.shows, s.updates, built)
	}
	for i, id := range s.ids {
		if id != "h" || s.data[i][display.MIMEPNG] == nil {
			t.Errorf("display %d: id %q, types %d; want h with a PNG", i, id, len(s.data[i]))
		}
	}
	if err := l.Flush(); err != nil || s.updates != 5 {
		t.Errorf("second flush sent again")
	}
	now = now.Add(time.Second)
	if err := l.UpdateFunc(func() (*viz.Plot, error) { return nil, errors.New("bad") }); err == nil {
		t.Error("a failing build should return its error")
	}
}

// squareModel is a small model learning x².
func squareModel(t *testing.T) (*train.Model, map[*toolkit.Node]*train.Array, map[*toolkit.Probe]*train.Array) {
	t.Helper()
	net := toolkit.New("square", 1)
	in := net.Const("in", 0)
	a := net.Ensemble("a", 10, 1)
	a.NeuronType = neurons.RectifiedLinear{Amplitude: 0.01}
	out := net.Passthrough("out", 1)
	net.Connect(in, a).Synapse = nil
	net.Connect(a, out).Synapse = nil
	p := net.Probe("p", out, "")
	p.Synapse = nil
	var xs, ys [][]float64
	for i := range 12 {
		x := -1 + 2*float64(i)/11
		xs, ys = append(xs, []float64{x}), append(ys, []float64{x * x})
	}
	xa, err := train.ArrayFromRows(xs, 2)
	if err != nil {
		t.Fatal(err)
	}
	ya, err := train.ArrayFromRows(ys, 2)
	if err != nil {
		t.Fatal(err)
	}
	m, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Compile(train.Config{Optimizer: &optim.Adam{LR: 0.01},
		Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}}); err != nil {
		t.Fatal(err)
	}
	return m, map[*toolkit.Node]*train.Array{in: xa}, map[*toolkit.Probe]*train.Array{p: ya}
}

// TestProgressAndLivePlot fits for two epochs outside and inside a
// (fake) kernel: outside, Progress writes train.Progress's lines and
// LivePlot does nothing; inside, Progress shows one HTML bar updated in
// place and writes nothing, and LivePlot shows the history.
func TestProgressAndLivePlot(t *testing.T) {
	m, x, y := squareModel(t)
	fit := func(w *bytes.Buffer) *train.History {
		t.Helper()
		h, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 4,
			Callbacks: []train.Callback{NewProgress(w), &LivePlot{}}})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	var out, plain bytes.Buffer
	fit(&out)
	if _, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 4,
		Callbacks: []train.Callback{train.NewProgress(&plain)}}); err != nil {
		t.Fatal(err)
	}
	if n, want := strings.Count(out.String(), "\n"), strings.Count(plain.String(), "\n"); n != 2 || want != 2 ||
		!strings.Contains(out.String(), "Epoch 2/2 3/3 [=====") {
		t.Errorf("outside a kernel: %q, want two epoch lines as train.Progress writes (%q)", out.String(), plain.String())
	}

	s := &sink{}
	display.SetSink(s)
	defer display.SetSink(nil)
	var in bytes.Buffer
	h := fit(&in)
	if in.Len() != 0 {
		t.Errorf("inside a kernel Progress wrote %q", in.String())
	}
	var bars, plots int
	for i, d := range s.data {
		switch s.ids[i] {
		case "neurogo-fit":
			bars++
			html, _ := d[display.MIMEHTML].(string)
			if !strings.Contains(html, "<progress value=") || !strings.Contains(d[display.MIMEText].(string), "Epoch ") {
				t.Errorf("progress display %d: %v", i, d)
			}
		case "neurogo-history":
			plots++
			if d[display.MIMEPNG] == nil {
				t.Errorf("history display %d has no PNG", i)
			}
		default:
			t.Errorf("display id %q", s.ids[i])
		}
	}
	if bars == 0 || plots == 0 || s.shows != 2 {
		t.Errorf("%d bar and %d plot displays, %d shows; want some of each and 2 shows", bars, plots, s.shows)
	}
	last := s.data[len(s.data)-1]
	if s.ids[len(s.ids)-1] == "neurogo-fit" && !strings.Contains(last[display.MIMEHTML].(string), "Epoch 2/2") {
		t.Errorf("last bar %v", last)
	}
	if p, err := HistoryPlot(h, "loss"); err != nil || p.Name() != "TrainingHistory" {
		t.Errorf("HistoryPlot: %v, %v", p, err)
	}
	if _, err := HistoryPlot(&train.History{}); err == nil {
		t.Error("HistoryPlot of an empty history should fail")
	}
}

func TestTimeresPlots(t *testing.T) {
	m, _ := timeres.New(3, 2)
	m.Add([]int{0, 1, 2}, []int{0, 0, 0}, []int{0, 1, 1}, 1)
	p, err := TCMPlot(m, nil, nil)
	if err != nil || p == nil {
		t.Fatalf("TCMPlot: %v", err)
	}
	if len(p.SVG()) == 0 {
		t.Error("empty SVG")
	}
	if _, err := TCMPlot(m, nil, []int{5}); err == nil {
		t.Error("TCMPlot at δt 5 > MaxDelay should fail")
	}
	empty, _ := timeres.New(3, 2)
	if _, err := TCMPlot(empty, nil, nil); err == nil {
		t.Error("TCMPlot of an empty TCM should fail")
	}
	if _, err := TCMPlot(nil, nil, nil); err == nil {
		t.Error("TCMPlot of a nil TCM should fail")
	}
	if _, err := AccuracyPlot([]timeres.Curve{{Name: "a", Accuracy: m.Accuracy()}}, m.ChanceLevel()); err != nil {
		t.Errorf("AccuracyPlot: %v", err)
	}
	if _, err := AccuracyPlot([]timeres.Curve{{Name: "none", Accuracy: empty.Accuracy()}}, 0.1); err == nil {
		t.Error("AccuracyPlot of an all-NaN curve should fail")
	}
	if _, err := AccuracyPlot([]timeres.Curve{{Name: "a", Accuracy: m.Accuracy()}}, math.NaN()); err == nil {
		t.Error("AccuracyPlot with a NaN chance level should fail")
	}
	if _, err := ResponseTimePlot([][]int{{3, 4, 4, -1}, {5}}, []string{"a", "b"}); err != nil {
		t.Errorf("ResponseTimePlot: %v", err)
	}
	if _, err := ResponseTimePlot([][]int{{-1}}, nil); err == nil {
		t.Error("ResponseTimePlot without responses should fail")
	}
}
