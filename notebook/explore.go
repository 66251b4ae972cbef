package notebook

import (
	"errors"
	"fmt"
	"html"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/widgets"
)

// Slider is a float slider whose value a node of a model can output while
// the model runs: pass its Output method as the node's function,
//
//	stim := notebook.NewSlider("stimulus", 0, -1, 1)
//	in := net.Node("stimulus", 1, stim.Output)
//
// and moving the slider in the front end (or SetValue from Go) changes
// what the node outputs from the next simulation step on. The value is
// kept in an atomic word, so the simulation reads it without a lock. A
// Slider is a widgets.FloatSlider: it shows itself, and its Observe and
// SetValue are those of the widget.
type Slider struct {
	*widgets.FloatSlider
	v atomic.Uint64
}

// NewSlider returns a slider from min to max (in 100 steps) at value; bad
// bounds are mended as widgets.NewFloatSlider mends them.
func NewSlider(description string, value, min, max float64) *Slider {
	s := &Slider{FloatSlider: widgets.NewFloatSlider(description, value, min, max, (max-min)/100)}
	s.v.Store(math.Float64bits(s.FloatSlider.Value()))
	s.FloatSlider.Observe(func(v float64) { s.v.Store(math.Float64bits(v)) })
	return s
}

// Value returns the slider's value: one atomic load, safe from any
// goroutine (the simulation's included).
func (s *Slider) Value() float64 { return math.Float64frombits(s.v.Load()) }

// Output sets every component of out to the slider's value. Its signature
// is toolkit.TimeFunc's: use it as a node's function.
func (s *Slider) Output(t float64, out []float64) {
	v := s.Value()
	for i := range out {
		out[i] = v
	}
}

// ExploreOptions configures Explore. The zero value of every field is a
// working default; only the plots are needed to see anything.
type ExploreOptions struct {
	// ID names the explorer: making an explorer with the ID of one that
	// still runs closes the old one first, so that re-running the cell
	// that made it never leaves a simulation stepping in the background.
	// Default: the network's label.
	ID string
	// Controls are shown above the plots: sliders (Slider, or any
	// widget), checkboxes, … Their values reach the model through the
	// nodes that read them.
	Controls []widgets.Widget
	// Raster is a probe of an ensemble's spikes (a probe of
	// ens.Neurons(), attribute "spikes" or "output", unfiltered): its
	// neurons are drawn as a spike raster. nil: no raster.
	Raster *toolkit.Probe
	// RasterNeurons is the number of neurons drawn, spread evenly over
	// the probed ones (default 100, or all if fewer).
	RasterNeurons int
	// Plots are probes drawn as lines over time (decoded values, node
	// outputs), one line per dimension, in one panel.
	Plots []*toolkit.Probe
	// Range is the y range of the line panel (default [-1.25, 1.25]);
	// values outside it are drawn at its edge.
	Range [2]float64
	// Window is the simulated time shown, in seconds (default 1).
	Window float64
	// Speed is simulated seconds per wall-clock second (default 1: real
	// time). When the model cannot keep up, it runs as fast as it can
	// and Stats reports the speed reached.
	Speed float64
	// MaxFPS bounds the frames per second sent to the front end (default
	// 20). Frames are dropped, never queued: each one shows the latest
	// window.
	MaxFPS float64
	// Width and Height of the plot image in pixels (default 480×300).
	Width, Height int
	// Duration, if positive, stops the explorer after that many seconds
	// of wall-clock time (a bound for unattended runs).
	Duration float64
	// IdlePause pauses the simulation after that many seconds of
	// wall-clock time without a touch of its controls or buttons from the
	// front end or from Go (SetValue, Wait, Resume): a notebook closed in
	// the browser, whose kernel lives on, leaves no model stepping. The
	// resume button goes on. Default 600 (10 minutes); negative: never.
	IdlePause float64
	// Sim holds options for the simulator (sim.New), e.g. sim.CheckNaN.
	Sim []sim.Option
}

// ExploreStats describes a running (or stopped) explorer.
type ExploreStats struct {
	SimTime float64 // simulated time, seconds
	Steps   int     // steps since the last reset
	Frames  int     // frames sent to the front end
	Elapsed float64 // wall-clock seconds since the explorer started
	// FPS is the frame rate over the last second or so; Speed the ratio
	// of simulated to wall-clock time over the same interval.
	FPS, Speed float64
	Paused     bool
	Running    bool  // false once stopped (Close, error, interrupt, Duration)
	Err        error // why it stopped, if not by Close
}

// Explorer runs a model in the background, in real time (or at Speed),
// with its inputs bound to sliders and its spikes and decoded values drawn
// as a live plot, as Nengo GUI does. Make one with Explore; it is shown
// when it is the last value of a cell (or with display.Display). It stops
// with Close, when another explorer with its ID is made, when the kernel
// is interrupted, when a node's function panics (the error is shown below
// the plot) or after Duration; restarting the kernel ends it too.
type Explorer struct {
	id    string
	opts  ExploreOptions
	s     *sim.Simulator
	dt    float64
	box   *widgets.Box
	image *widgets.Image
	state *widgets.Label
	out   *widgets.Output

	rasterIdx int   // index in the model's probes (-1: none)
	rasterSel []int // probed neuron → row (-1: not drawn)
	rows      int
	plotIdx   []int
	plotDims  []int
	period    []float64 // probe periods in steps: raster first, then plots

	// mu guards the windows and the counters below; the simulation
	// holds it only to append a chunk's samples.
	mu       sync.Mutex
	spikeT   []float64
	spikeR   []int32
	lineT    [][]float64
	lineV    [][]float64
	steps    int
	simTime  float64
	dirty    bool
	frames   int
	last     []byte // the last frame (PNG)
	paused   bool
	running  bool
	err      error
	started  time.Time
	rate     rateMeter
	resetReq bool

	touched atomic.Int64 // wall clock (UnixNano) of the last touch (IdlePause)

	wake chan struct{} // resume or reset
	quit chan struct{}
	done sync.WaitGroup
	once sync.Once
}

// rateMeter measures frames and simulated time per wall-clock second
// over the last second or so.
type rateMeter struct {
	t0            time.Time
	frames0       int
	sim0          float64
	fps, simSpeed float64
}

var explorers = struct {
	sync.Mutex
	byID map[string]*Explorer
}{byID: map[string]*Explorer{}}

// Explore builds net, shows its controls, a spike raster and the decoded
// values of its probes over a sliding window, with pause, resume and
// reset buttons and a readout of simulated time, speed and frame rate,
// and starts running it in the background. The simulation steps in
// chunks sized to the wall clock (at opts.Speed) and never waits for the
// front end; a renderer draws the latest window at most MaxFPS times a
// second and drops frames rather than queueing them.
//
// The probes must belong to net. Inside a kernel the explorer keeps
// running after the cell ends; outside one (tests, programs) it runs all
// the same, without anything to show.
func Explore(net *toolkit.Network, opts ExploreOptions) (*Explorer, error) {
	if net == nil {
		return nil, errors.New("notebook: Explore: nil network")
	}
	if err := opts.defaults(net); err != nil {
		return nil, err
	}
	owned := map[*toolkit.Probe]bool{}
	for _, p := range net.AllProbes() {
		owned[p] = true
	}
	if opts.Raster != nil {
		if !owned[opts.Raster] {
			return nil, fmt.Errorf("notebook: Explore: Raster probe %q is not part of network %q", opts.Raster.Label, net.Label)
		}
		if _, ok := opts.Raster.Target.Obj().(*toolkit.Neurons); !ok || (opts.Raster.Attr != toolkit.AttrSpikes && opts.Raster.Attr != toolkit.AttrOutput) {
			return nil, fmt.Errorf("notebook: Explore: Raster probe %q reads %s of %v: want the spikes of an ensemble's neurons (net.Probe(label, ens.Neurons(), \"spikes\"))", opts.Raster.Label, opts.Raster.Attr, opts.Raster.Target)
		}
		if opts.Raster.Synapse != nil {
			return nil, fmt.Errorf("notebook: Explore: Raster probe %q is filtered (Synapse %s): spikes need an unfiltered probe (Synapse nil)", opts.Raster.Label, opts.Raster.Synapse.Name())
		}
	}
	for i, p := range opts.Plots {
		if p == nil {
			return nil, fmt.Errorf("notebook: Explore: Plots[%d] is nil", i)
		}
		if !owned[p] {
			return nil, fmt.Errorf("notebook: Explore: Plots[%d] (probe %q) is not part of network %q", i, p.Label, net.Label)
		}
	}
	s, err := sim.New(net, opts.Sim...)
	if err != nil {
		return nil, fmt.Errorf("notebook: Explore: %w", err)
	}
	e := &Explorer{id: opts.ID, opts: opts, s: s, dt: s.Dt(), rasterIdx: -1,
		wake: make(chan struct{}, 1), quit: make(chan struct{})}
	index := func(p *toolkit.Probe) (int, *sim.ProbeInfo) {
		for i, info := range s.Model().Probes {
			if info.Probe == p {
				return i, info
			}
		}
		// Build makes one entry per probe of the network
		panic(fmt.Sprintf("notebook: Explore: probe %q missing from the built model", p.Label))
	}
	var labels []string
	if opts.Raster != nil {
		i, info := index(opts.Raster)
		e.rasterIdx = i
		e.period = append(e.period, info.Period)
		n := info.Dims
		e.rows = min(opts.RasterNeurons, n)
		e.rasterSel = make([]int, n)
		for k := range e.rasterSel {
			e.rasterSel[k] = -1
		}
		for r := range e.rows {
			e.rasterSel[r*n/e.rows] = r
		}
	}
	for _, p := range opts.Plots {
		i, info := index(p)
		e.plotIdx = append(e.plotIdx, i)
		e.plotDims = append(e.plotDims, info.Dims)
		e.period = append(e.period, info.Period)
		for d := range info.Dims {
			l := p.Label
			if info.Dims > 1 {
				l = fmt.Sprintf("%s[%d]", p.Label, d)
			}
			labels = append(labels, l)
		}
	}
	e.lineT = make([][]float64, len(opts.Plots))
	e.lineV = make([][]float64, len(opts.Plots))
	spec := frameSpec{w: opts.Width, h: opts.Height, window: opts.Window,
		rasterRows: e.rows, lineLabels: labels, yLo: opts.Range[0], yHi: opts.Range[1]}
	if opts.Raster != nil {
		name := opts.Raster.Target.Obj().(*toolkit.Neurons).Ensemble.Label
		spec.rasterTitle = fmt.Sprintf("spikes of %s (%d of %d neurons)", name, e.rows, len(e.rasterSel))
	}
	if len(opts.Plots) > 0 {
		spec.lineTitle = "values"
	}
	if spec.rasterTitle == "" && spec.lineTitle == "" {
		spec.lineTitle = "values" // nothing to draw but the time axis
	}
	e.makeWidgets()

	explorers.Lock()
	old := explorers.byID[e.id]
	explorers.byID[e.id] = e
	explorers.Unlock()
	if old != nil {
		old.stop(nil)
	}

	e.started = time.Now()
	e.touch()
	e.running = true
	e.rate.t0 = e.started
	f := newFrame(spec)
	e.done.Add(2)
	go e.simLoop()
	go e.renderLoop(f)
	return e, nil
}

func (o *ExploreOptions) defaults(net *toolkit.Network) error {
	if o.ID == "" {
		o.ID = net.Label
	}
	if o.RasterNeurons <= 0 {
		o.RasterNeurons = 100
	}
	if o.Range == ([2]float64{}) {
		o.Range = [2]float64{-1.25, 1.25}
	}
	if !(o.Range[0] < o.Range[1]) || math.IsInf(o.Range[0], 0) || math.IsInf(o.Range[1], 0) {
		return fmt.Errorf("notebook: Explore: Range = %v: must be finite with Range[0] < Range[1]", o.Range)
	}
	if o.Window == 0 {
		o.Window = 1
	}
	if !(o.Window > 0) || math.IsInf(o.Window, 0) {
		return fmt.Errorf("notebook: Explore: Window = %v: must be a positive number of seconds", o.Window)
	}
	if o.Speed == 0 {
		o.Speed = 1
	}
	if !(o.Speed > 0) || math.IsInf(o.Speed, 0) {
		return fmt.Errorf("notebook: Explore: Speed = %v: must be positive and finite", o.Speed)
	}
	if o.MaxFPS == 0 {
		o.MaxFPS = 20
	}
	if !(o.MaxFPS > 0) || o.MaxFPS > 100 {
		return fmt.Errorf("notebook: Explore: MaxFPS = %v: must be in (0, 100]", o.MaxFPS)
	}
	if o.Width == 0 {
		o.Width = 480
	}
	if o.Height == 0 {
		o.Height = 300
	}
	if o.Width < 200 || o.Width > 4000 || o.Height < 100 || o.Height > 4000 {
		return fmt.Errorf("notebook: Explore: Width×Height = %d×%d: must be within 200×100 and 4000×4000", o.Width, o.Height)
	}
	if o.IdlePause == 0 {
		o.IdlePause = 600
	}
	if math.IsNaN(o.IdlePause) {
		return fmt.Errorf("notebook: Explore: IdlePause = NaN: must be a number of seconds (negative: never)")
	}
	if math.IsNaN(o.Duration) || o.Duration < 0 {
		return fmt.Errorf("notebook: Explore: Duration = %v: must be ≥ 0 seconds (0: until stopped)", o.Duration)
	}
	return nil
}

func (e *Explorer) makeWidgets() {
	e.image = widgets.NewImage()
	e.image.SetSize(fmt.Sprintf("%dpx", e.opts.Width), fmt.Sprintf("%dpx", e.opts.Height))
	e.state = widgets.NewLabel("starting")
	e.out = widgets.NewOutput()
	pause, resume, reset := widgets.NewButton("pause"), widgets.NewButton("resume"), widgets.NewButton("reset")
	pause.OnClick(e.Pause)
	resume.OnClick(e.Resume)
	reset.OnClick(e.Reset)
	var rows []widgets.Widget
	for _, c := range e.opts.Controls {
		if c == nil {
			continue
		}
		rows = append(rows, c)
		// a control moved counts as a touch (IdlePause)
		switch w := c.(type) {
		case *Slider:
			w.Observe(func(float64) { e.touch() })
		case *widgets.FloatSlider:
			w.Observe(func(float64) { e.touch() })
		case *widgets.FloatLogSlider:
			w.Observe(func(float64) { e.touch() })
		case *widgets.IntSlider:
			w.Observe(func(int) { e.touch() })
		case *widgets.Checkbox:
			w.Observe(func(bool) { e.touch() })
		case *widgets.Button:
			w.OnClick(e.touch)
		}
	}
	rows = append(rows, widgets.HBox(pause, resume, reset, e.state), e.image, e.out)
	e.box = widgets.VBox(rows...)
}

// MIMEBundle shows the explorer inside a kernel: its controls, buttons,
// readout, plot and error area (a widgets.VBox), with one line of text for
// front ends that cannot draw widgets. Outside a kernel it is the text.
func (e *Explorer) MIMEBundle() map[string]any {
	if !display.Active() {
		return map[string]any{display.MIMEText: e.String()}
	}
	b := e.box.MIMEBundle()
	b[display.MIMEText] = e.String()
	return b
}

// Widget returns the explorer's widget (a VBox), to place it in another
// box or tab.
func (e *Explorer) Widget() widgets.Widget { return e.box }

// String describes the explorer in one line.
func (e *Explorer) String() string {
	st := e.Stats()
	what := "running"
	switch {
	case !st.Running:
		what = "stopped"
	case st.Paused:
		what = "paused"
	}
	return fmt.Sprintf("Explorer(%q, %s, t = %.3f s, %d frames)", e.id, what, st.SimTime, st.Frames)
}

func (e *Explorer) touch() { e.touched.Store(time.Now().UnixNano()) }

// Pause stops the simulation where it is; the plot stays.
func (e *Explorer) Pause() {
	e.touch()
	e.mu.Lock()
	e.paused = true
	e.mu.Unlock()
	e.poke()
}

// Resume continues a paused simulation (from its current state, in real
// time from now).
func (e *Explorer) Resume() {
	e.touch()
	e.mu.Lock()
	e.paused = false
	e.mu.Unlock()
	e.poke()
}

// Reset restarts the simulation at t = 0 from its initial state (the
// sliders keep their values).
func (e *Explorer) Reset() {
	e.touch()
	e.mu.Lock()
	e.resetReq = true
	e.mu.Unlock()
	e.poke()
}

func (e *Explorer) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Close stops the explorer: the simulation and the renderer end before it
// returns (within one chunk of steps, tens of milliseconds). The plot
// keeps its last frame. Close is idempotent.
func (e *Explorer) Close() error {
	e.stop(nil)
	return nil
}

// stop ends the goroutines (err: why, nil for Close) and waits for them
// unless called from one of them.
func (e *Explorer) stop(err error) {
	e.stopAsync(err)
	e.done.Wait()
}

func (e *Explorer) stopAsync(err error) {
	e.once.Do(func() {
		e.mu.Lock()
		e.running = false
		e.err = err
		e.mu.Unlock()
		close(e.quit)
		explorers.Lock()
		if explorers.byID[e.id] == e {
			delete(explorers.byID, e.id)
		}
		explorers.Unlock()
	})
}

// Err returns why the explorer stopped (nil while it runs or after Close).
func (e *Explorer) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// Stats returns the explorer's counters.
func (e *Explorer) Stats() ExploreStats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return ExploreStats{SimTime: e.simTime, Steps: e.steps, Frames: e.frames,
		Elapsed: time.Since(e.started).Seconds(), FPS: e.rate.fps, Speed: e.rate.simSpeed,
		Paused: e.paused, Running: e.running, Err: e.err}
}

// Wait blocks until the simulation has advanced by seconds of simulated
// time (not counting a reset meanwhile), and returns nil; or until the
// explorer stops or the kernel is interrupted, and returns why. A cell
// that moves sliders from Go and waits in between shows the model's
// response without a front end (headless runs, tests).
func (e *Explorer) Wait(seconds float64) error {
	if math.IsNaN(seconds) || seconds < 0 {
		return fmt.Errorf("notebook: Explorer.Wait: seconds = %v: must be ≥ 0", seconds)
	}
	need := int(math.Round(seconds / e.dt))
	e.touch()
	e.mu.Lock()
	target := e.steps + need
	e.mu.Unlock()
	for {
		e.mu.Lock()
		steps, running, err := e.steps, e.running, e.err
		if steps < target-need { // reset meanwhile: count from the reset
			target = steps + need
		}
		e.mu.Unlock()
		switch {
		case steps >= target:
			return nil
		case !running && err != nil:
			return fmt.Errorf("notebook: Explorer.Wait: %w", err)
		case !running:
			return errors.New("notebook: Explorer.Wait: the explorer was closed")
		case interrupt.Requested():
			return fmt.Errorf("notebook: Explorer.Wait: %w", interrupt.ErrInterrupted)
		}
		e.touch() // a Go cell waiting on the model is attending to it
		time.Sleep(5 * time.Millisecond)
	}
}

// Frame returns the last frame drawn, a PNG (nil before the first): show
// it with display.PNG to keep a still of the live plot in the notebook.
func (e *Explorer) Frame() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.last) == 0 {
		return nil
	}
	return append([]byte(nil), e.last...)
}

// Window returns the samples of probe p (one of Plots) in the window
// shown: their times and values ([sample][dim]). Both are copies.
func (e *Explorer) Window(p *toolkit.Probe) (t []float64, v [][]float64, err error) {
	k := e.plotIndex(p)
	if k < 0 {
		return nil, nil, fmt.Errorf("notebook: Explorer.Window: probe %v is not one of the explorer's Plots", probeName(p))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	d := e.plotDims[k]
	t = append([]float64(nil), e.lineT[k]...)
	v = make([][]float64, len(t))
	for i := range v {
		v[i] = append([]float64(nil), e.lineV[k][i*d:(i+1)*d]...)
	}
	return t, v, nil
}

// Last returns the last sample of probe p (one of Plots), or nil before
// the first.
func (e *Explorer) Last(p *toolkit.Probe) []float64 {
	k := e.plotIndex(p)
	if k < 0 {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	d := e.plotDims[k]
	n := len(e.lineV[k])
	if n < d || d == 0 {
		return nil
	}
	return append([]float64(nil), e.lineV[k][n-d:]...)
}

func probeName(p *toolkit.Probe) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%q", p.Label)
}

func (e *Explorer) plotIndex(p *toolkit.Probe) int {
	for k, q := range e.opts.Plots {
		if q == p && p != nil {
			return k
		}
	}
	return -1
}

// simLoop steps the simulation in chunks sized to the wall clock.
func (e *Explorer) simLoop() {
	defer e.done.Done()
	var deadline time.Time
	if e.opts.Duration > 0 {
		deadline = e.started.Add(time.Duration(e.opts.Duration * float64(time.Second)))
	}
	speed := e.opts.Speed
	// at most 50 ms of wall-clock time per chunk: the loop stays
	// responsive to pause, reset and Close
	maxChunk := max(1, int(0.05*speed/e.dt))
	base, baseSim := time.Now(), e.s.Time()
	for {
		select {
		case <-e.quit:
			return
		default:
		}
		if interrupt.Requested() {
			e.stopAsync(fmt.Errorf("interrupted: %w", interrupt.ErrInterrupted))
			return
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			e.stopAsync(fmt.Errorf("ran for Duration = %g s", e.opts.Duration))
			return
		}
		if idle := e.opts.IdlePause; idle > 0 && time.Since(time.Unix(0, e.touched.Load())).Seconds() > idle {
			e.mu.Lock()
			e.paused = true
			e.mu.Unlock()
		}
		e.mu.Lock()
		reset, paused := e.resetReq, e.paused
		e.resetReq = false
		e.mu.Unlock()
		if reset {
			e.s.Reset()
			e.mu.Lock()
			e.steps, e.simTime, e.dirty = 0, 0, true
			e.spikeT, e.spikeR = e.spikeT[:0], e.spikeR[:0]
			for k := range e.lineT {
				e.lineT[k], e.lineV[k] = e.lineT[k][:0], e.lineV[k][:0]
			}
			e.mu.Unlock()
			base, baseSim = time.Now(), 0
		}
		if paused {
			select {
			case <-e.quit:
				return
			case <-e.wake:
			case <-time.After(100 * time.Millisecond): // interrupts, Duration
			}
			base, baseSim = time.Now(), e.s.Time()
			continue
		}
		target := baseSim + speed*time.Since(base).Seconds()
		n := int((target - e.s.Time()) / e.dt)
		if n <= 0 {
			wait := time.Duration((e.s.Time() + e.dt - target) / speed * float64(time.Second))
			select {
			case <-e.quit:
				return
			case <-e.wake:
			// at least 5 ms: chunks of several steps, not a wake-up per step
			case <-time.After(min(max(wait, 5*time.Millisecond), 20*time.Millisecond)):
			}
			continue
		}
		if n > maxChunk {
			// behind the clock: run what a chunk allows and let the clock
			// go (no catching up in a burst later)
			n = maxChunk
			base, baseSim = time.Now(), e.s.Time()+float64(n)*e.dt
		}
		err := e.s.RunSteps(n)
		e.collect()
		if err != nil {
			if errors.Is(err, interrupt.ErrInterrupted) {
				e.stopAsync(fmt.Errorf("interrupted: %w", interrupt.ErrInterrupted))
			} else {
				e.fail(err)
			}
			return
		}
	}
}

// fail shows a simulation error (a node function that panicked, a NaN)
// in the output area below the plot and stops.
func (e *Explorer) fail(err error) {
	e.out.Display(display.Value{Data: map[string]any{
		display.MIMEText: "error: " + err.Error(),
		display.MIMEHTML: `<pre style="color:#b00020;white-space:pre-wrap">error: ` + html.EscapeString(err.Error()) + `</pre>`,
	}})
	e.stopAsync(err)
}

// collect moves the samples of the last chunk into the windows and
// clears the simulator's probe data.
func (e *Explorer) collect() {
	s := e.s
	steps := s.Steps()
	now := s.Time()
	e.mu.Lock()
	prev := e.steps
	t0 := now - e.opts.Window - 0.05
	pi := 0
	if e.rasterIdx >= 0 {
		flat := s.ProbeValues(0, e.rasterIdx)
		n := len(e.rasterSel)
		times := sampleTimes(prev, steps, e.period[0], len(flat)/max(n, 1), e.dt)
		for k, t := range times {
			row := flat[k*n : (k+1)*n]
			for j, x := range row {
				if x != 0 && e.rasterSel[j] >= 0 {
					e.spikeT = append(e.spikeT, t)
					e.spikeR = append(e.spikeR, int32(e.rasterSel[j]))
				}
			}
		}
		e.spikeT, e.spikeR = trimSpikes(e.spikeT, e.spikeR, t0)
		pi = 1
	}
	for k, idx := range e.plotIdx {
		flat := s.ProbeValues(0, idx)
		d := e.plotDims[k]
		times := sampleTimes(prev, steps, e.period[pi+k], len(flat)/max(d, 1), e.dt)
		e.lineT[k] = append(e.lineT[k], times...)
		e.lineV[k] = append(e.lineV[k], flat[:len(times)*d]...)
		e.lineT[k], e.lineV[k] = trimLine(e.lineT[k], e.lineV[k], d, t0)
	}
	e.steps, e.simTime, e.dirty = steps, now, true
	e.mu.Unlock()
	s.ClearProbes()
}

// sampleTimes returns the times of the n samples taken in steps
// (from, to] with the given period in steps (the simulator samples at
// step k when k mod period < 1).
func sampleTimes(from, to int, period float64, n int, dt float64) []float64 {
	ts := make([]float64, 0, n)
	if period <= 1 {
		for k := to - n + 1; k <= to; k++ {
			ts = append(ts, float64(k)*dt)
		}
		return ts
	}
	for k := from + 1; k <= to && len(ts) < n; k++ {
		if math.Mod(float64(k), period) < 1 {
			ts = append(ts, float64(k)*dt)
		}
	}
	for len(ts) < n { // should not happen; keep the data aligned
		ts = append(ts, float64(to)*dt)
	}
	return ts
}

// trimSpikes drops spikes before t0, compacting in place.
func trimSpikes(t []float64, r []int32, t0 float64) ([]float64, []int32) {
	i := 0
	for i < len(t) && t[i] < t0 {
		i++
	}
	if i == 0 {
		return t, r
	}
	n := copy(t, t[i:])
	copy(r, r[i:])
	return t[:n], r[:n]
}

func trimLine(t, v []float64, d int, t0 float64) ([]float64, []float64) {
	i := 0
	for i < len(t) && t[i] < t0 {
		i++
	}
	if i == 0 {
		return t, v
	}
	n := copy(t, t[i:])
	copy(v, v[i*d:])
	return t[:n], v[:n*d]
}

// renderLoop draws the latest window at most MaxFPS times a second.
func (e *Explorer) renderLoop(f *frame) {
	defer e.done.Done()
	tick := time.NewTicker(time.Duration(float64(time.Second) / e.opts.MaxFPS))
	defer tick.Stop()
	var snap frameData
	lastState := time.Time{}
	for {
		select {
		case <-e.quit:
			// the last word on the readout is the renderer's
			msg := "stopped"
			if err := e.Err(); err != nil {
				msg = "stopped: " + err.Error()
			}
			e.state.SetValue(e.readout(msg))
			return
		case <-tick.C:
		}
		e.mu.Lock()
		dirty := e.dirty
		e.dirty = false
		if dirty {
			snap.now = e.simTime
			snap.readout = fmt.Sprintf("t = %.2f s", e.simTime)
			snap.spikeT = append(snap.spikeT[:0], e.spikeT...)
			snap.spikeR = append(snap.spikeR[:0], e.spikeR...)
			if len(snap.lines) != len(e.lineT) {
				snap.lines = make([]lineData, len(e.lineT))
			}
			for k := range e.lineT {
				ld := &snap.lines[k]
				ld.t = append(ld.t[:0], e.lineT[k]...)
				ld.v = append(ld.v[:0], e.lineV[k]...)
				ld.dims = e.plotDims[k]
			}
		}
		e.mu.Unlock()
		if dirty {
			b, err := f.render(&snap)
			if err != nil {
				e.out.Display(display.Value{Data: map[string]any{display.MIMEText: "error: drawing the plot: " + err.Error()}})
				e.stopAsync(err)
				e.state.SetValue(e.readout("stopped: " + err.Error()))
				return
			}
			e.image.SetPNG(b)
			e.mu.Lock()
			e.frames++
			e.last = append(e.last[:0], b...)
			e.mu.Unlock()
		}
		now := time.Now()
		e.mu.Lock()
		if el := now.Sub(e.rate.t0).Seconds(); el >= 1 {
			e.rate.fps = float64(e.frames-e.rate.frames0) / el
			e.rate.simSpeed = max(0, e.simTime-e.rate.sim0) / el
			e.rate.t0, e.rate.frames0, e.rate.sim0 = now, e.frames, e.simTime
		}
		paused := e.paused
		e.mu.Unlock()
		if now.Sub(lastState) >= 500*time.Millisecond {
			lastState = now
			what := "running"
			if paused {
				what = "paused"
			}
			e.state.SetValue(e.readout(what))
		}
	}
}

// readout is the status line beside the buttons.
func (e *Explorer) readout(what string) string {
	st := e.Stats()
	return fmt.Sprintf("%s · t = %.2f s · %.2f× real time · %.1f frames/s", what, st.SimTime, st.Speed, st.FPS)
}
