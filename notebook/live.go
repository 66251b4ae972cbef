package notebook

import (
	"time"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/viz"
)

// DefaultLiveInterval is the shortest time between two updates of a Live
// plot: at most 10 updates per second.
const DefaultLiveInterval = 100 * time.Millisecond

// Live is a plot that updates in place in a notebook while a long loop
// (a simulation, a training run) runs: the first Update shows it with
// display.Show under its id, later ones replace it with display.Update,
// at most once per interval (10 Hz). Outside a kernel (display.Active()
// false) every method is a cheap no-op, so library code may use it
// unconditionally.
//
//	live := notebook.NewLive("accuracy")
//	for epoch := range epochs {
//		...
//		live.UpdateFunc(func() (*viz.Plot, error) { return viz.TrainingHistory(hist, viz.Frame{}) })
//	}
//	live.Flush() // make sure the final state is shown
type Live struct {
	id       string
	interval time.Duration
	now      func() time.Time
	last     time.Time
	shown    bool
	pending  func() (*viz.Plot, error)
	// Sent counts the updates actually sent to the front end.
	Sent int
}

// NewLive returns a live plot shown under display id (choose one per
// output, e.g. "raster" or "loss").
func NewLive(id string) *Live {
	return &Live{id: id, interval: DefaultLiveInterval, now: time.Now}
}

// SetInterval changes the minimum time between updates (≤ 0 → 100 ms).
func (l *Live) SetInterval(d time.Duration) {
	if d <= 0 {
		d = DefaultLiveInterval
	}
	l.interval = d
}

// Due reports whether an update now would be sent: inside a kernel and at
// least the interval after the last one. Use it to skip building a plot.
func (l *Live) Due() bool {
	return display.Active() && (!l.shown || l.now().Sub(l.last) >= l.interval)
}

// Update shows p, or replaces the shown plot with it, if Due; otherwise
// it remembers p for Flush. It returns the display error, if any.
func (l *Live) Update(p *viz.Plot) error {
	return l.UpdateFunc(func() (*viz.Plot, error) { return p, nil })
}

// UpdateFunc is Update with the plot built only when it will be sent
// (building a plot costs more than checking the clock). An error from
// build is returned and nothing is sent.
func (l *Live) UpdateFunc(build func() (*viz.Plot, error)) error {
	if !display.Active() {
		return nil
	}
	if !l.Due() {
		l.pending = build
		return nil
	}
	return l.send(build)
}

// Flush sends the last update that was held back by the throttle.
func (l *Live) Flush() error {
	if l.pending == nil || !display.Active() {
		return nil
	}
	return l.send(l.pending)
}

func (l *Live) send(build func() (*viz.Plot, error)) error {
	l.pending = nil
	p, err := build()
	if err != nil {
		return err
	}
	l.last = l.now()
	l.Sent++
	if !l.shown {
		l.shown = true
		return display.Show(l.id, p)
	}
	return display.Update(l.id, p)
}
