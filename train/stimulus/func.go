package stimulus

import (
	"fmt"
	"maps"
)

// FrameFunc computes frame t+1 of the out pools from the states of frame
// t of the in pools (see stream.Driver.Frame).
type FrameFunc func(t int, in, out map[string][]float64) error

// Func is a driver defined by a Go function, for stimuli or read-outs
// that have no built-in driver.
type Func struct {
	f       FrameFunc
	out, in map[string][3]int
	agents  int
}

// NewFunc returns a driver that calls f every frame; out and in declare
// the pools it writes and reads with their shapes [features, width,
// height], which Start checks against the network's.
func NewFunc(f FrameFunc, out, in map[string][3]int) (*Func, error) {
	if f == nil {
		return nil, fmt.Errorf("stimulus: NewFunc: nil function")
	}
	if len(out) == 0 && len(in) == 0 {
		return nil, fmt.Errorf("stimulus: NewFunc: declares no pools to write or read")
	}
	for _, m := range []map[string][3]int{out, in} {
		for p, sh := range m {
			if sh[0] < 1 || sh[1] < 1 || sh[2] < 1 {
				return nil, fmt.Errorf("stimulus: NewFunc: pool %q has shape %v: every extent must be ≥ 1", p, sh)
			}
		}
	}
	return &Func{f: f, out: maps.Clone(out), in: maps.Clone(in)}, nil
}

// Start implements stream.Driver: the pools and shapes must be the
// declared ones.
func (d *Func) Start(agents int, out, in map[string][3]int, seed int64) error {
	if agents < 1 {
		return fmt.Errorf("stimulus: Func: Start: agents = %d: need at least 1", agents)
	}
	for _, c := range []struct {
		what      string
		got, decl map[string][3]int
	}{{"writes", out, d.out}, {"reads", in, d.in}} {
		for p, sh := range c.decl {
			g, ok := c.got[p]
			if !ok {
				return fmt.Errorf("stimulus: Func: Start: declared that it %s pool %q, but the network gives no such pool (%s)", c.what, p, names(c.got))
			}
			if g != sh {
				return fmt.Errorf("stimulus: Func: Start: pool %q has shape %v in the network, declared %v", p, g, sh)
			}
		}
		for p := range c.got {
			if _, ok := c.decl[p]; !ok {
				return fmt.Errorf("stimulus: Func: Start: the network asks it to %s pool %q, which it did not declare", map[string]string{"writes": "write", "reads": "read"}[c.what], p)
			}
		}
	}
	d.agents = agents
	return nil
}

// Frame implements stream.Driver: it checks the buffer sizes and calls
// the function; a panic in it is returned as an error.
func (d *Func) Frame(t int, in, out map[string][]float64) (err error) {
	if d.agents == 0 {
		return fmt.Errorf("stimulus: Func: Frame(%d) before Start", t)
	}
	for _, c := range []struct {
		bufs map[string][]float64
		decl map[string][3]int
	}{{out, d.out}, {in, d.in}} {
		for p, sh := range c.decl {
			if want := d.agents * sh[0] * sh[1] * sh[2]; len(c.bufs[p]) != want {
				return fmt.Errorf("stimulus: Func: Frame(%d): buffer of pool %q has %d values, want %d", t, p, len(c.bufs[p]), want)
			}
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("stimulus: Func: Frame(%d): the function panicked: %v", t, r)
		}
	}()
	if err := d.f(t, in, out); err != nil {
		return fmt.Errorf("stimulus: Func: Frame(%d): %w", t, err)
	}
	return nil
}
