package repro

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neurogo/neurogo/interrupt"
)

// TestSPAMemoryCells: finished points are kept in CellDir and reused by a
// second run with the same settings (same numbers, no training); other
// settings recompute them.
func TestSPAMemoryCells(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	o := SPAOptions{Dims: 16, NeuronsPerDim: []int{2}, Seeds: 2, Train: 64, Test: 32, Epochs: 1, Batch: 32, CellDir: dir, Log: &log}
	first, err := SPAMemory(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"npd2_seed0.json", "npd2_seed1.json"} {
		if _, err := os.Stat(filepath.Join(dir, s)); err != nil {
			t.Fatalf("cell not kept: %v", err)
		}
	}
	log.Reset()
	again, err := SPAMemory(o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(log.String(), "kept from") != 2 {
		t.Fatalf("second run did not reuse both cells:\n%s", log.String())
	}
	for i := range first.Points {
		if first.Points[i] != again.Points[i] {
			t.Fatalf("point %d: %+v, kept %+v", i, first.Points[i], again.Points[i])
		}
	}
	if first.AfterMean[0] != again.AfterMean[0] || first.AfterLo[0] != again.AfterLo[0] {
		t.Fatalf("summary differs: %v vs %v", first.AfterMean, again.AfterMean)
	}
	log.Reset()
	o.Epochs = 2
	if _, err := SPAMemory(o); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "kept from") {
		t.Fatalf("a cell made with 1 epoch was reused for 2:\n%s", log.String())
	}
	if err := os.WriteFile(filepath.Join(dir, "npd2_seed0.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := SPAMemory(o); err == nil || !strings.Contains(err.Error(), "npd2_seed0.json") {
		t.Fatalf("corrupt cell: err = %v, want one naming the file", err)
	}
}

// TestSPAMemoryInterrupt: SPAMemory interrupted (package interrupt) 300 ms
// in — building the model, preparing its passes, evaluating or training,
// depending on the machine — returns within 100 ms with an error wrapping
// interrupt.ErrInterrupted and keeps no cell for the unfinished point. It
// sets the process-wide flag: no test of this package runs in parallel.
func TestSPAMemoryInterrupt(t *testing.T) {
	t.Cleanup(interrupt.Reset)
	interrupt.Reset()
	dir := t.TempDir()
	o := SPAOptions{Dims: 16, NeuronsPerDim: []int{2}, Seeds: 1, Train: 64, Test: 32, Epochs: 1000000, Batch: 32, CellDir: dir}
	done := make(chan error, 1)
	var returned time.Time
	go func() {
		_, err := SPAMemory(o)
		returned = time.Now()
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	requested := time.Now()
	interrupt.Request()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("SPAMemory did not return within 2 s of interrupt.Request")
	}
	if !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("SPAMemory = %v, want an error wrapping interrupt.ErrInterrupted", err)
	}
	if d := returned.Sub(requested); d > 100*time.Millisecond {
		t.Errorf("SPAMemory returned %v after interrupt.Request, want at most 100 ms", d)
	}
	if cells, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(cells) != 0 {
		t.Errorf("an interrupted point was kept: %v", cells)
	}
}
