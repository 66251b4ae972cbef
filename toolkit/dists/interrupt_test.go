package dists_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit/dists"
)

// TestScatteredInterrupt: the exact ScatteredHypersphere (MethodSCT, ~2 µs
// per row and dimension) checks the process's interrupt flag every row:
// with the flag set it returns an error wrapping interrupt.ErrInterrupted,
// a large draw (20000 × 64, seconds) interrupted after 50 ms returns
// within 100 ms, and after Reset it samples again. It sets the process's
// flag: no test of this package runs in parallel.
func TestScatteredInterrupt(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	exact := dists.ScatteredHypersphere{Method: dists.MethodSCT}
	interrupt.Request()
	if _, err := exact.Sample(100, 8, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, interrupt.ErrInterrupted) {
		t.Errorf("with the flag set: %v, want an error wrapping interrupt.ErrInterrupted", err)
	}
	interrupt.Reset()
	if _, err := exact.Sample(100, 8, rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Errorf("after Reset: %v", err)
	}

	done := make(chan error, 1)
	var returned time.Time
	go func() {
		_, err := exact.Sample(20000, 64, rand.New(rand.NewPCG(1, 1)))
		returned = time.Now()
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	requested := time.Now()
	interrupt.Request()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Sample did not return within 5 s of interrupt.Request")
	}
	if !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("Sample = %v, want an error wrapping interrupt.ErrInterrupted", err)
	}
	if d := returned.Sub(requested); d > 100*time.Millisecond {
		t.Errorf("Sample returned %v after interrupt.Request, want at most 100 ms", d)
	}
}
