package interrupt_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/neurogo/neurogo/interrupt"
)

// The tests of this package set the process's flag: none of them runs in
// parallel, and each resets the flag when it ends.

func TestFlag(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	for _, tc := range []struct {
		name  string
		calls []func()
		want  bool
	}{
		{"initial", nil, false},
		{"request", []func(){interrupt.Request}, true},
		{"request twice", []func(){interrupt.Request, interrupt.Request}, true},
		{"request then reset", []func(){interrupt.Request, interrupt.Reset}, false},
		{"reset then request", []func(){interrupt.Reset, interrupt.Request}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			interrupt.Reset()
			for _, f := range tc.calls {
				f()
			}
			if got := interrupt.Requested(); got != tc.want {
				t.Errorf("Requested() = %v, want %v", got, tc.want)
			}
			err := interrupt.Check()
			if tc.want != (err != nil) || (err != nil && !errors.Is(err, interrupt.ErrInterrupted)) {
				t.Errorf("Check() = %v, want interrupted = %v", err, tc.want)
			}
		})
	}
}

func TestErr(t *testing.T) {
	for _, tc := range []struct {
		what        string
		done, total int
		unit        string
		want        string
	}{
		{"sim: run", 1234, 1000000, "steps", "sim: run interrupted after 1234 of 1000000 steps: interrupted"},
		{"train: Fit", 0, 3, "epochs", "train: Fit interrupted after 0 of 3 epochs: interrupted"},
	} {
		err := interrupt.Err(tc.what, tc.done, tc.total, tc.unit)
		if err.Error() != tc.want {
			t.Errorf("Err(%q, %d, %d, %q) = %q, want %q", tc.what, tc.done, tc.total, tc.unit, err, tc.want)
		}
		if !errors.Is(err, interrupt.ErrInterrupted) {
			t.Errorf("Err(%q, …) does not wrap ErrInterrupted", tc.what)
		}
		if !errors.Is(fmt.Errorf("outer: %w", err), interrupt.ErrInterrupted) {
			t.Errorf("wrapped Err(%q, …) does not wrap ErrInterrupted", tc.what)
		}
	}
}

// TestConcurrent is for the race detector: Request, Reset and Requested
// from many goroutines at once.
func TestConcurrent(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				if i%2 == 0 {
					interrupt.Request()
				} else {
					interrupt.Reset()
				}
				_ = interrupt.Requested()
			}
		}()
	}
	wg.Wait()
	interrupt.Request()
	if !interrupt.Requested() {
		t.Error("Requested() = false after Request with no goroutine left")
	}
}

func TestRequestedAllocs(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	interrupt.Request()
	if n := testing.AllocsPerRun(100, func() { _ = interrupt.Requested(); _ = interrupt.Check() }); n != 0 {
		t.Errorf("Requested and Check allocate %v times, want 0", n)
	}
}

func BenchmarkRequested(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if interrupt.Requested() {
			n++
		}
	}
	_ = n
}
