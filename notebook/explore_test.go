package notebook

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/widgets"
)

// channel is Nengo GUI's communication channel: a slider drives node
// "stimulus", ensemble a represents it and passes it on to b.
func channel(t *testing.T, label string, n int) (*toolkit.Network, *Slider, *toolkit.Probe, *toolkit.Probe) {
	t.Helper()
	net := toolkit.New(label, 3)
	stim := NewSlider("stimulus", 0, -1, 1)
	in := net.Node("stimulus", 1, stim.Output)
	a := net.Ensemble("a", n, 1)
	b := net.Ensemble("b", n, 1)
	net.Connect(in, a)
	net.Connect(a, b)
	spikes := net.Probe("a spikes", a.Neurons(), toolkit.AttrSpikes)
	pb := net.Probe("b", b, "")
	pb.Synapse = synapses.Lowpass{Tau: 0.01}
	return net, stim, spikes, pb
}

// waitFor polls cond for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

func TestExploreFollowsSlider(t *testing.T) {
	net, stim, spikes, pb := channel(t, "follow", 200)
	before := runtime.NumGoroutine()
	e, err := Explore(net, ExploreOptions{Raster: spikes, Plots: []*toolkit.Probe{pb}, Speed: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, v := range []float64{0.5, -0.6} {
		stim.SetValue(v)
		if err := e.Wait(0.4); err != nil {
			t.Fatal(err)
		}
		// b follows through two 5 ms synapses and the 10 ms probe filter
		// within 0.4 s; the decoding error of 200 LIF neurons is a few
		// percent of the radius.
		if got := e.Last(pb); len(got) != 1 || math.Abs(got[0]-v) > 0.15 {
			t.Errorf("slider at %g: b decodes %v", v, got)
		}
	}
	ts, vs, err := e.Window(pb)
	if err != nil || len(ts) != len(vs) || len(ts) == 0 {
		t.Fatalf("Window: %d times, %d values, %v", len(ts), len(vs), err)
	}
	if span := ts[len(ts)-1] - ts[0]; span > 1.06 || span < 0.5 {
		t.Errorf("window spans %g s, want about 1 s", span)
	}
	if !waitFor(2*time.Second, func() bool { return e.Stats().Frames > 2 }) {
		t.Errorf("no frames drawn: %+v", e.Stats())
	}
	if _, _, err := e.Window(spikes); err == nil {
		t.Error("Window of the raster probe should fail (not one of Plots)")
	}
	e.Close()
	st := e.Stats()
	if st.Running || st.Err != nil {
		t.Errorf("after Close: %+v", st)
	}
	if err := e.Wait(1); err == nil {
		t.Error("Wait after Close should fail")
	}
	if !waitFor(time.Second, func() bool { return runtime.NumGoroutine() <= before }) {
		t.Errorf("goroutines: %d before Explore, %d after Close", before, runtime.NumGoroutine())
	}
	if !strings.Contains(e.String(), "stopped") {
		t.Errorf("String: %s", e)
	}
}

func TestExplorePauseResumeReset(t *testing.T) {
	net, _, _, pb := channel(t, "pause", 50)
	e, err := Explore(net, ExploreOptions{Plots: []*toolkit.Probe{pb}, Speed: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if err := e.Wait(0.2); err != nil {
		t.Fatal(err)
	}
	e.Pause()
	time.Sleep(60 * time.Millisecond) // the chunk running when Pause came ends
	s0 := e.Stats().Steps
	time.Sleep(150 * time.Millisecond)
	if s1 := e.Stats(); s1.Steps != s0 || !s1.Paused {
		t.Errorf("paused: steps went from %d to %d (%+v)", s0, s1.Steps, s1)
	}
	e.Resume()
	if !waitFor(2*time.Second, func() bool { return e.Stats().Steps > s0+50 }) {
		t.Errorf("resumed: steps stay at %d", e.Stats().Steps)
	}
	e.Reset()
	if !waitFor(2*time.Second, func() bool { st := e.Stats(); return st.SimTime < 0.1 && st.Steps > 0 }) {
		t.Errorf("reset: %+v", e.Stats())
	}
}

// TestExploreSameIDStopsOld: re-running the cell that made an explorer
// (the same ID) ends the old one's goroutines.
func TestExploreSameIDStopsOld(t *testing.T) {
	net, _, _, pb := channel(t, "again", 20)
	e1, err := Explore(net, ExploreOptions{Plots: []*toolkit.Probe{pb}})
	if err != nil {
		t.Fatal(err)
	}
	e2, err := Explore(net, ExploreOptions{Plots: []*toolkit.Probe{pb}})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if e1.Stats().Running || !e2.Stats().Running {
		t.Errorf("old running %v, new running %v", e1.Stats().Running, e2.Stats().Running)
	}
	other, _, _, po := channel(t, "other", 20)
	e3, err := Explore(other, ExploreOptions{Plots: []*toolkit.Probe{po}})
	if err != nil {
		t.Fatal(err)
	}
	defer e3.Close()
	if !e2.Stats().Running {
		t.Error("an explorer of another ID stopped the running one")
	}
}

// TestExplorePanicShown: a node function that panics stops the explorer
// and its error is shown in the output area below the plot.
func TestExplorePanicShown(t *testing.T) {
	net := toolkit.New("panicky", 1)
	in := net.Node("bad", 1, func(t float64, out []float64) {
		if t > 0.05 {
			panic("the node gave up")
		}
		out[0] = 0
	})
	a := net.Ensemble("a", 10, 1)
	net.Connect(in, a)
	p := net.Probe("a", a, "")
	e, err := Explore(net, ExploreOptions{Plots: []*toolkit.Probe{p}, Speed: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !waitFor(3*time.Second, func() bool { return !e.Stats().Running }) {
		t.Fatal("the explorer kept running after a panic")
	}
	if err := e.Err(); err == nil || !strings.Contains(err.Error(), "the node gave up") {
		t.Errorf("Err = %v", err)
	}
	outs := e.out.Outputs()
	if len(outs) != 1 || !strings.Contains(toString(outs[0]), "the node gave up") {
		t.Errorf("output area: %v", outs)
	}
	if err := e.Wait(1); err == nil || !strings.Contains(err.Error(), "the node gave up") {
		t.Errorf("Wait after the failure: %v", err)
	}
}

func toString(v any) string {
	m, _ := v.(map[string]any)
	d, _ := m["data"].(map[string]any)
	s, _ := d["text/plain"].(string)
	return s
}

// TestExploreInterrupt: the kernel's interrupt stops a running explorer
// and a Wait on it.
func TestExploreInterrupt(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	net, _, _, pb := channel(t, "interrupted", 20)
	e, err := Explore(net, ExploreOptions{Plots: []*toolkit.Probe{pb}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	go func() { time.Sleep(100 * time.Millisecond); interrupt.Request() }()
	if err := e.Wait(60); !errors.Is(err, interrupt.ErrInterrupted) {
		t.Errorf("Wait: %v, want an interrupt", err)
	}
	if !waitFor(2*time.Second, func() bool { return !e.Stats().Running }) {
		t.Fatal("still running after the interrupt")
	}
	if !errors.Is(e.Err(), interrupt.ErrInterrupted) {
		t.Errorf("Err = %v", e.Err())
	}
}

func TestExploreDuration(t *testing.T) {
	net, _, _, pb := channel(t, "bounded", 20)
	e, err := Explore(net, ExploreOptions{Plots: []*toolkit.Probe{pb}, Duration: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !waitFor(3*time.Second, func() bool { return !e.Stats().Running }) {
		t.Fatal("still running after Duration")
	}
}

func TestExploreBadInput(t *testing.T) {
	net, _, _, pb := channel(t, "bad", 10)
	other := toolkit.New("other", 1)
	foreign := other.Probe("x", other.Const("c", 1), "")
	filtered := net.Probe("filtered spikes", net.Ensembles[0].Neurons(), toolkit.AttrSpikes)
	filtered.Synapse = synapses.Lowpass{Tau: 0.01}
	for _, tc := range []struct {
		name string
		opts ExploreOptions
		want string
	}{
		{"nil plot", ExploreOptions{Plots: []*toolkit.Probe{nil}}, "Plots[0] is nil"},
		{"foreign plot", ExploreOptions{Plots: []*toolkit.Probe{foreign}}, "not part of network"},
		{"decoded raster", ExploreOptions{Raster: pb}, "want the spikes"},
		{"filtered raster", ExploreOptions{Raster: filtered}, "unfiltered"},
		{"NaN window", ExploreOptions{Window: math.NaN()}, "Window"},
		{"negative speed", ExploreOptions{Speed: -1}, "Speed"},
		{"reversed range", ExploreOptions{Range: [2]float64{1, -1}}, "Range"},
		{"huge fps", ExploreOptions{MaxFPS: 1000}, "MaxFPS"},
		{"tiny image", ExploreOptions{Width: 10}, "Width"},
		{"negative duration", ExploreOptions{Duration: -1}, "Duration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Explore(net, tc.opts)
			if err == nil {
				e.Close()
				t.Fatalf("no error, want one containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "notebook: Explore: ") {
				t.Errorf("error %q, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := Explore(nil, ExploreOptions{}); err == nil {
		t.Error("Explore(nil) should fail")
	}
}

func TestSlider(t *testing.T) {
	s := NewSlider("x", 0.25, -1, 1)
	out := make([]float64, 3)
	s.Output(0, out)
	if out[0] != 0.25 || out[2] != 0.25 {
		t.Errorf("Output = %v", out)
	}
	s.SetValue(5) // clamped
	if s.Value() != 1 {
		t.Errorf("after SetValue(5): %g", s.Value())
	}
	s.SetValue(math.NaN())
	if s.Value() != 1 {
		t.Errorf("after SetValue(NaN): %g", s.Value())
	}
}

// TestFrameRender draws a frame of a 1000-neuron raster (100 rows shown)
// and two lines, and checks the PNG and where the pixels went.
func TestFrameRender(t *testing.T) {
	spec := frameSpec{w: 480, h: 300, window: 1, rasterTitle: "spikes", rasterRows: 100,
		lineTitle: "values", lineLabels: []string{"x", "y"}, yLo: -1.25, yHi: 1.25}
	f := newFrame(spec)
	d := &frameData{now: 3}
	for k := range 1000 {
		tk := 2 + float64(k+1)*0.001
		if k%10 == 0 {
			d.spikeT = append(d.spikeT, tk)
			d.spikeR = append(d.spikeR, int32(k%100))
		}
	}
	ld := lineData{dims: 2}
	for k := range 1000 {
		tk := 2 + float64(k+1)*0.001
		ld.t = append(ld.t, tk)
		ld.v = append(ld.v, math.Sin(2*math.Pi*tk), 0.5)
	}
	d.lines = []lineData{ld}
	start := time.Now()
	var b []byte
	var err error
	const n = 20
	for range n {
		if b, err = f.render(d); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("frame: %v per render, %d bytes", time.Since(start)/n, len(b))
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 480 || r.Dy() != 300 {
		t.Fatalf("size %v", r)
	}
	spikesDrawn, lineDrawn := 0, 0
	for y := f.raster.Min.Y; y < f.raster.Max.Y; y++ {
		for x := f.raster.Min.X; x < f.raster.Max.X; x++ {
			if f.img.ColorIndexAt(x, y) == cSpike {
				spikesDrawn++
			}
		}
	}
	// the constant 0.5 line of dimension 1
	y := f.yPix(0.5)
	for x := f.lines.Min.X; x < f.lines.Max.X; x++ {
		if f.img.ColorIndexAt(x, y) == cLine0+1 {
			lineDrawn++
		}
	}
	if spikesDrawn < 100 || lineDrawn < f.lines.Dx()*9/10 {
		t.Errorf("%d spike pixels, %d of %d pixels of the line at 0.5", spikesDrawn, lineDrawn, f.lines.Dx())
	}
}

// TestExploreIdlePause: without a touch for IdlePause seconds the model
// pauses (a notebook closed in the browser leaves nothing stepping); a
// touch of a control or Resume goes on.
func TestExploreIdlePause(t *testing.T) {
	net, stim, _, pb := channel(t, "idle", 20)
	e, err := Explore(net, ExploreOptions{Controls: []widgets.Widget{stim}, Plots: []*toolkit.Probe{pb}, IdlePause: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !waitFor(3*time.Second, func() bool { return e.Stats().Paused }) {
		t.Fatalf("not paused after IdlePause: %+v", e.Stats())
	}
	e.Resume()
	stim.SetValue(0.3)
	if err := e.Wait(0.05); err != nil || e.Stats().Paused {
		t.Errorf("after Resume: %v, %+v", err, e.Stats())
	}
	if _, err := Explore(net, ExploreOptions{IdlePause: math.NaN()}); err == nil {
		t.Error("IdlePause NaN accepted")
	}
}
