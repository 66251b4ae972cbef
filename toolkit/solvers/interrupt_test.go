package solvers

import (
	"errors"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/neurogo/neurogo/interrupt"
)

// The interrupt tests set the process's interrupt flag (package
// interrupt): no test of this package runs in parallel, and each resets
// the flag when it ends.

// TestSolveInterrupted: with the interrupt flag set every solver that
// computes returns an error wrapping interrupt.ErrInterrupted; after
// Reset it solves again.
func TestSolveInterrupted(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	A, Y := randActivities(120, 40, 2, 7)
	for _, tc := range []struct {
		name  string
		solve func() (*mat.Dense, error)
	}{
		{"LstsqL2", func() (*mat.Dense, error) { return NewLstsqL2().Solve(A, Y) }},
		{"LstsqL2 blocks", func() (*mat.Dense, error) { return NewLstsqL2().SolveBlocks(denseBlocks{A}, Y) }},
		{"LstsqL2nz", func() (*mat.Dense, error) { return LstsqL2nz{Reg: 0.1}.Solve(A, Y) }},
		{"LstsqL2nz blocks", func() (*mat.Dense, error) { return LstsqL2nz{Reg: 0.1}.SolveBlocks(denseBlocks{A}, Y) }},
		{"Lstsq", func() (*mat.Dense, error) { return NewLstsq().Solve(A, Y) }},
		{"LstsqNoise", func() (*mat.Dense, error) { return NewLstsqNoise().Solve(A, Y) }},
		{"Nnls", func() (*mat.Dense, error) { return Nnls{}.Solve(A, Y) }},
		{"NnlsL2", func() (*mat.Dense, error) { return NnlsL2{Reg: 0.1}.Solve(A, Y) }},
		{"NnlsL2nz", func() (*mat.Dense, error) { return NewNnlsL2nz().Solve(A, Y) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			interrupt.Request()
			if _, err := tc.solve(); !errors.Is(err, interrupt.ErrInterrupted) {
				t.Errorf("with the interrupt flag set: %v, want an error wrapping interrupt.ErrInterrupted", err)
			}
			interrupt.Reset()
			if _, err := tc.solve(); err != nil {
				t.Errorf("after Reset: %v", err)
			}
		})
	}
}

// patternBlocks is an m×n activity matrix whose rows repeat those of a
// small pattern (rectified hashes of the indices): cheap to serve in row
// blocks, so that a solve's time is its own.
type patternBlocks struct {
	m, n    int
	pattern []float64 // 97 rows
}

func newPatternBlocks(m, n int) patternBlocks {
	b := patternBlocks{m: m, n: n, pattern: make([]float64, 97*n)}
	for i := range b.pattern {
		h := uint64(i+1) * 0x9e3779b97f4a7c15 // Fibonacci hashing
		h ^= h >> 29
		b.pattern[i] = math.Max(0, float64(int64(h))/(1<<56))
	}
	return b
}

func (b patternBlocks) Dims() (int, int) { return b.m, b.n }
func (b patternBlocks) Rows(dst []float64, i0, i1 int) error {
	for i := i0; i < i1; i++ {
		copy(dst[(i-i0)*b.n:(i-i0+1)*b.n], b.pattern[i%97*b.n:])
	}
	return nil
}

// TestSolveBlocksInterrupt: a decode of 400000 × 100 activities (about a
// second: 2·10⁹ multiply-adds for the Gram matrix) interrupted during its
// first pass or its Gram updates returns within 100 ms (300 ms with the
// portable loops of the purego build) with an error wrapping
// interrupt.ErrInterrupted: the flag is checked every row of the first
// pass, between row blocks (here
// 41943 rows) and between the tasks of each block's update (here 25
// columns, ~2.6·10⁷ multiply-adds). A task of a larger ensemble takes
// longer (in proportion to its neurons), and the Cholesky factorisation
// is one call (see doc.go).
func TestSolveBlocksInterrupt(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	interrupt.Reset()
	const m, n = 400000, 100
	Y := mat.NewDense(m, 1, nil)
	for i := range m {
		Y.Set(i, 0, float64(i%7)/7)
	}
	done := make(chan error, 1)
	var returned time.Time
	go func() {
		_, err := NewLstsqL2().SolveBlocks(newPatternBlocks(m, n), Y)
		returned = time.Now()
		done <- err
	}()
	time.Sleep(300 * time.Millisecond) // into the first pass (scan) or the Gram updates
	requested := time.Now()
	interrupt.Request()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("SolveBlocks did not return within 5 s of interrupt.Request")
	}
	if !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("SolveBlocks = %v, want an error wrapping interrupt.ErrInterrupted", err)
	}
	if d := returned.Sub(requested); d > interruptLatency {
		t.Errorf("SolveBlocks returned %v after interrupt.Request, want at most %v", d, interruptLatency)
	}
}
