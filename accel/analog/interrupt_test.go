package analog

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/neurogo/neurogo/interrupt"
)

// TestRunInterrupt: Matrix.Run (the JIT pipeline on an emulated chip) of
// a 1024 × 1024 matrix on a batch of 4096 (4·10⁹ multiply-adds, most of a
// second) interrupted after 50 ms returns within 100 ms with an error
// wrapping interrupt.ErrInterrupted (the graph takes no new instance once
// the flag is set; an instance is at most 512 vectors on one tile), and
// the matrix then runs on: after Reseed, Run equals Apply again. It sets
// the process's interrupt flag: no test of this package runs in parallel.
func TestRunInterrupt(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	interrupt.Reset()
	const rows, cols, batch = 1024, 1024, 4096
	rng := rand.New(rand.NewPCG(5, 5))
	s, err := New(ChipConfig(1))
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Configure(randInts(rng, rows*cols, -63, 63), rows, cols, Op{})
	if err != nil {
		t.Fatal(err)
	}
	x := randInts(rng, batch*rows, 0, 31)
	y := make([]float64, batch*cols)
	done := make(chan error, 1)
	var returned time.Time
	start := time.Now()
	go func() {
		_, err := m.Run(context.Background(), x, batch, y, PipelineOptions{Workers: 2})
		returned = time.Now()
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	requested := time.Now()
	interrupt.Request()
	select {
	case err = <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return within 2 s of interrupt.Request")
	}
	if !errors.Is(err, interrupt.ErrInterrupted) || !strings.Contains(err.Error(), "jit: Run: interrupted") {
		t.Fatalf("Run = %v, want a jit error wrapping interrupt.ErrInterrupted", err)
	}
	if d := returned.Sub(requested); d > 100*time.Millisecond {
		t.Errorf("Run returned %v after interrupt.Request, want at most 100 ms", d)
	}

	interrupt.Reset()
	const small = 300
	y1, y2 := make([]float64, small*cols), make([]float64, small*cols)
	m.Reseed(9)
	if err := m.Apply(x[:small*rows], small, y1); err != nil {
		t.Fatal(err)
	}
	m.Reseed(9)
	t0 := time.Now()
	if _, err := m.Run(context.Background(), x[:small*rows], small, y2, PipelineOptions{Workers: 2}); err != nil {
		t.Fatalf("Run after Reset: %v", err)
	}
	if per := time.Since(t0) * batch / small; per < 150*time.Millisecond {
		t.Logf("a whole run would take about %v (interrupted after %v): the test hardly shows an interrupt inside it", per, requested.Sub(start))
	}
	for i := range y1 {
		if y1[i] != y2[i] {
			t.Fatalf("after the interrupt, y[%d]: Run %v, Apply %v", i, y2[i], y1[i])
		}
	}
}
