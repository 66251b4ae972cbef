package sim_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// A connection between objects of two networks is a validation error
// naming both, not a nil pointer inside the builder.
func TestBuildForeignObject(t *testing.T) {
	a := toolkit.New("a", 1)
	b := toolkit.New("b", 2)
	x := a.Ensemble("x", 20, 1)
	y := b.Ensemble("y", 20, 1)
	a.Connect(x, y)
	_, err := sim.Build(a)
	var ve *validate.Error
	if !errors.As(err, &ve) {
		t.Fatalf("Build: %v, want a *validate.Error", err)
	}
	for _, want := range []string{`Ensemble "y"`, "Post", `network "a"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	// a probe on another network's object
	c := toolkit.New("c", 3)
	c.Ensemble("z", 10, 1)
	c.Probe("p", x, "")
	if _, err := sim.Build(c); err == nil || !strings.Contains(err.Error(), `Probe "p"`) || !strings.Contains(err.Error(), `Ensemble "x"`) {
		t.Errorf("probe of a foreign object: %v", err)
	}
}

// An ensemble far larger than memory is refused with the estimate before
// anything is allocated (an allocation that fails kills the process).
func TestBuildTooLarge(t *testing.T) {
	net := toolkit.New("huge", 1)
	net.Ensemble("big", 1_000_000_000_000, 1)
	_, err := sim.Build(net)
	var ve *validate.Error
	if !errors.As(err, &ve) || ve.Object != `Ensemble "big"` || ve.Field != "N" {
		t.Fatalf("Build: %v, want a validation error on Ensemble \"big\".N", err)
	}
	if !strings.Contains(err.Error(), "TiB") || !strings.Contains(err.Error(), "available") {
		t.Errorf("error %q does not give the estimate and what is available", err)
	}
}

// A panic in user code (a node's function, a connection's function, a
// process) ends the run with a *sim.PanicError naming the object, the
// step and the value; the simulator stays at the last completed step.
func TestRunUserPanic(t *testing.T) {
	cases := []struct {
		name, object string
		build        func(net *toolkit.Network, at float64) *toolkit.Probe
	}{
		{"node function", `Node "bad"`, func(net *toolkit.Network, at float64) *toolkit.Probe {
			n := net.Node("bad", 1, func(tt float64, out []float64) {
				if tt > at {
					panic("boom")
				}
				out[0] = tt
			})
			return net.Probe("p", n, "")
		}},
		{"node writing past its output", `Node "bad"`, func(net *toolkit.Network, at float64) *toolkit.Probe {
			n := net.Node("bad", 2, func(tt float64, out []float64) {
				k := 1
				if tt > at {
					k = 2
				}
				out[k] = tt
			})
			return net.Probe("p", n, "")
		}},
		{"connection function", `Connection "bad"`, func(net *toolkit.Network, at float64) *toolkit.Probe {
			src := net.Node("src", 1, func(tt float64, out []float64) { out[0] = tt })
			dst := net.Passthrough("dst", 1)
			c := net.Connect(src, dst)
			c.Label = "bad"
			c.Function = func(x []float64) []float64 {
				if x[0] > at {
					panic(errors.New("bad input"))
				}
				return x
			}
			return net.Probe("p", dst, "")
		}},
		{"layer function", `Node "layer"`, func(net *toolkit.Network, at float64) *toolkit.Probe {
			src := net.Node("src", 2, func(tt float64, out []float64) { out[0], out[1] = tt, 1 })
			l, err := net.Layer("layer", src, layers.Func{Out: []int{2},
				Forward: func(_ [][]float64, in, out []float64, _ int) error {
					if in[0] > at {
						panic("layer boom")
					}
					copy(out, in)
					return nil
				}})
			if err != nil {
				panic(err)
			}
			return net.Probe("p", l, "")
		}},
		{"process", `Node "proc"`, func(net *toolkit.Network, at float64) *toolkit.Probe {
			n := net.Node("proc", 1, nil)
			n.Process = panicking{at}
			return net.Probe("p", n, "")
		}},
	}
	const at = 0.0105 // the 11th step (t = 0.011) panics
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			net := toolkit.New("panic", 1)
			p := c.build(net, at)
			s, err := sim.New(net)
			if err != nil {
				t.Fatal(err)
			}
			err = s.Run(0.05)
			var pe *sim.PanicError
			if !errors.As(err, &pe) {
				t.Fatalf("Run: %v, want a *sim.PanicError", err)
			}
			if !strings.HasPrefix(pe.Object, c.object) || pe.Step != 11 || pe.Value == nil || len(pe.Stack) == 0 {
				t.Errorf("PanicError %+v: want object %s, step 11, a value and a stack", pe, c.object)
			}
			if !strings.Contains(err.Error(), "step 11") || !strings.Contains(err.Error(), c.object) {
				t.Errorf("message %q", err)
			}
			if s.Steps() != 10 || s.Time() != 10*s.Dt() {
				t.Errorf("after the panic: %d steps, t = %g; want the last completed step 10", s.Steps(), s.Time())
			}
			if d, _ := s.Data(p); len(d) != 10 {
				t.Errorf("probe has %d samples, want 10", len(d))
			}
			if err2 := s.Step(); !errors.Is(err2, err) && err2 != err {
				t.Errorf("Step after the panic: %v, want the same error", err2)
			}
			// Reset clears the failure
			s.Reset()
			if err := s.RunSteps(5); err != nil || s.Steps() != 5 {
				t.Errorf("after Reset: %v, %d steps", err, s.Steps())
			}
		})
	}
}

// panicking is a process whose step panics after time at.
type panicking struct{ at float64 }

func (panicking) Name() string    { return "panicking" }
func (panicking) Validate() error { return nil }

func (p panicking) Step(_, _ int, _ float64, _ *rand.Rand) (toolkit.NodeFunc, error) {
	return func(t float64, _, out []float64) {
		if t > p.at {
			panic("process boom")
		}
		out[0] = t
	}, nil
}
