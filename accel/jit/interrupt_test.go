package jit

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/neurogo/neurogo/interrupt"
)

// TestRunInterruptFlag: the process's interrupt flag stops a run as a
// cancelled context does: set before Run, nothing runs; set by an
// instance, no instance starts after it and Run returns an error wrapping
// interrupt.ErrInterrupted; after Reset the graph runs whole. It sets the
// process-wide flag: no test of this package runs in parallel.
func TestRunInterruptFlag(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	for _, tc := range []struct {
		name    string
		before  bool // set the flag before Run
		at      int  // else the instance that sets it
		maxRuns int  // instances that may run (at most)
	}{
		{"before Run", true, 0, 0},
		{"by the first instance", false, 0, 1},
		{"by the tenth instance", false, 9, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			interrupt.Reset()
			var ran atomic.Int64
			var armed atomic.Bool
			armed.Store(!tc.before)
			g := NewGraph()
			prev := ID(-1)
			for i := range 50 { // a chain: one instance at a time
				task := Task{Postprocess: func() error {
					ran.Add(1)
					if i == tc.at && armed.Load() {
						interrupt.Request()
					}
					return nil
				}}
				var err error
				if prev < 0 {
					prev, err = g.Add(task)
				} else {
					prev, err = g.Add(task, prev)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if tc.before {
				interrupt.Request()
			}
			_, err := g.Run(nil, Options{Workers: 2})
			if !errors.Is(err, interrupt.ErrInterrupted) {
				t.Fatalf("Run = %v, want an error wrapping interrupt.ErrInterrupted", err)
			}
			if n := ran.Load(); n > int64(tc.maxRuns) {
				t.Errorf("%d instances ran, want at most %d", n, tc.maxRuns)
			}
			interrupt.Reset()
			armed.Store(false)
			ran.Store(0)
			if _, err := g.Run(nil, Options{Workers: 2}); err != nil || ran.Load() != 50 {
				t.Errorf("after Reset: Run = %v with %d of 50 instances run", err, ran.Load())
			}
		})
	}
}
