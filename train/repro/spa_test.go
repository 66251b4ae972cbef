package repro

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
