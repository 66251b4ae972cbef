package sim_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
)

// The interrupt tests set the process's interrupt flag (package
// interrupt), which every simulator of the test binary reads: they do not
// call t.Parallel, no test of this package may (a parallel test's runs
// would stop too), and each resets the flag when it ends.

// interruptLatency is how soon after interrupt.Request a run must return.
const interruptLatency = 100 * time.Millisecond

// interruptNet is a constant input into an ensemble of 100 neurons, its
// decoded output probed (one value per step, so the probe storage RunSteps
// reserves for 10⁶ steps stays at 8 MB per lane).
func interruptNet() (*toolkit.Network, *toolkit.Probe) {
	net := toolkit.New("interrupt", 3)
	in := net.Const("in", 0.5)
	a := net.Ensemble("a", 100, 1)
	net.Connect(in, a)
	return net, net.Probe("a", a, "")
}

// runInterrupted starts run on another goroutine, requests an interrupt
// once wait has passed and started (if not nil) reports true, and returns
// run's error and how long after the request it returned (it fails the
// test if run does not return within 2 s).
func runInterrupted(t *testing.T, wait time.Duration, started func() bool, run func() error) (error, time.Duration) {
	t.Helper()
	t.Cleanup(interrupt.Reset)
	interrupt.Reset()
	done := make(chan error, 1)
	var returned time.Time
	go func() {
		err := run()
		returned = time.Now()
		done <- err
	}()
	time.Sleep(wait)
	for started != nil && !started() { // a busy machine may not have begun
		time.Sleep(time.Millisecond)
	}
	requested := time.Now()
	interrupt.Request()
	select {
	case err := <-done:
		return err, returned.Sub(requested)
	case <-time.After(2 * time.Second):
		t.Fatalf("run did not return within 2 s of interrupt.Request")
		return nil, 0
	}
}

// TestRunInterrupt runs 10⁶ steps (Run(1000)), interrupts after 50 ms and
// checks that the run stops within interruptLatency with an error wrapping
// interrupt.ErrInterrupted, that time, steps and probe data (of every
// lane) are those of the steps done, and that after Reset of the flag a
// further RunSteps(10) continues exactly: the data equal those of a
// simulator that ran the same number of steps without interruption.
func TestRunInterrupt(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []sim.Option
	}{
		{"one lane", nil},
		{"unrolled", []sim.Option{sim.Unroll(7)}},
		{"batch 4 parallel", []sim.Option{sim.Batch(4), sim.Parallel(2)}},
		{"batch 3 serial", []sim.Option{sim.Batch(3), sim.Parallel(1)}},
		{"float32", []sim.Option{sim.Float32()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net, p := interruptNet()
			s, err := sim.New(net, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var progress atomic.Int64
			s.Progress = func(done, total int) { progress.Store(int64(done)) }
			err, latency := runInterrupted(t, 50*time.Millisecond, func() bool { return progress.Load() > 0 },
				func() error { return s.Run(1000) })
			if !errors.Is(err, interrupt.ErrInterrupted) {
				t.Fatalf("Run(1000) = %v, want an error wrapping interrupt.ErrInterrupted", err)
			}
			if latency > interruptLatency {
				t.Errorf("Run returned %v after interrupt.Request, want at most %v", latency, interruptLatency)
			}
			steps := s.Steps()
			if steps <= 0 || steps >= 1000000 {
				t.Fatalf("Steps() = %d after the interrupt, want between 0 and 10⁶", steps)
			}
			if want := fmt.Sprintf("sim: run interrupted after %d of 1000000 steps", steps); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
			if int(progress.Load()) != steps {
				t.Errorf("Progress reported %d steps done, Steps() = %d", progress.Load(), steps)
			}
			if got, want := s.Time(), float64(steps)*s.Dt(); got != want {
				t.Errorf("Time() = %v, want %v (%d steps)", got, want, steps)
			}
			data, err := s.DataBatch(p)
			if err != nil {
				t.Fatal(err)
			}
			for b, d := range data {
				if len(d) != steps {
					t.Errorf("lane %d: %d probe samples after %d steps", b, len(d), steps)
				}
			}

			interrupt.Reset()
			if err := s.RunSteps(10); err != nil {
				t.Fatalf("RunSteps(10) after Reset: %v", err)
			}
			if got := s.Steps(); got != steps+10 {
				t.Errorf("Steps() = %d after RunSteps(10), want %d", got, steps+10)
			}
			got, _ := s.DataBatch(p)
			ref, err := sim.New(net, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if err := ref.RunSteps(steps + 10); err != nil {
				t.Fatal(err)
			}
			want, _ := ref.DataBatch(p)
			for b := range want {
				if !slices.EqualFunc(got[b], want[b], slices.Equal) {
					t.Errorf("lane %d: interrupted and continued run differs from an uninterrupted run of %d steps", b, steps+10)
				}
			}
		})
	}
}

// TestRunInterruptedBefore: with the flag already set, Run does no step.
func TestRunInterruptedBefore(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	net, _ := interruptNet()
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	interrupt.Request()
	for _, n := range []int{1, 100} {
		if err := s.RunSteps(n); !errors.Is(err, interrupt.ErrInterrupted) || s.Steps() != 0 {
			t.Errorf("RunSteps(%d) with the flag set = %v after %d steps, want interrupted after 0", n, err, s.Steps())
		}
	}
	if err := s.Step(); err != nil || s.Steps() != 1 {
		t.Errorf("Step with the flag set = %v, %d steps; want a step (a single step is not checked)", err, s.Steps())
	}
}

// TestBuildInterrupt: Build checks the interrupt flag between ensembles
// and connections and inside decoder solves: with the flag set it builds
// nothing, and a build of a chain of 15 ensembles (a decoder solve per
// connection: most of a second) interrupted after 50 ms returns within
// interruptLatency; after Reset the same network builds.
func TestBuildInterrupt(t *testing.T) {
	net := toolkit.New("chain", 1)
	prev := net.Ensemble("e0", 200, 2)
	for i := 1; i < 15; i++ {
		e := net.Ensemble(fmt.Sprintf("e%d", i), 200, 2)
		net.Connect(prev, e)
		prev = e
	}
	t.Cleanup(interrupt.Reset)
	interrupt.Request()
	if _, err := sim.Build(net); !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("Build with the flag set = %v, want an error wrapping interrupt.ErrInterrupted", err)
	}
	err, latency := runInterrupted(t, 50*time.Millisecond, nil, func() error { _, err := sim.Build(net); return err })
	if !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("Build = %v, want an error wrapping interrupt.ErrInterrupted", err)
	}
	if latency > interruptLatency {
		t.Errorf("Build returned %v after interrupt.Request, want at most %v", latency, interruptLatency)
	}
	interrupt.Reset()
	start := time.Now()
	if _, err := sim.Build(net); err != nil {
		t.Fatalf("Build after Reset: %v", err)
	}
	if d := time.Since(start); d < 2*interruptLatency {
		t.Logf("the whole build took only %v: the test does not show an interrupt inside it", d)
	}
}
