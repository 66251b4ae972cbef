package dists

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"runtime"
	"testing"
)

var update = flag.Bool("update", false, "rewrite betaincinv22.bin from makeBetaTable")

// The embedded table is makeBetaTable's, byte for byte.
func TestBetaTable(t *testing.T) {
	var buf bytes.Buffer
	for _, row := range makeBetaTable() {
		for _, s := range row {
			if len(s) != betaKnots {
				t.Fatalf("%d knots, want %d", len(s), betaKnots)
			}
			for _, v := range s {
				binary.Write(&buf, binary.LittleEndian, math.Float64bits(v))
			}
		}
	}
	if *update {
		if err := os.WriteFile("betaincinv22.bin", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if bytes.Equal(buf.Bytes(), betaTableBin) {
		return
	}
	if runtime.GOARCH == "amd64" {
		t.Fatal("betaincinv22.bin is stale: go test -run TestBetaTable -update")
	}
	// Elsewhere the compiler may fuse multiply-adds in gonum's special
	// functions: the table must agree to rounding.
	got, want := buf.Bytes(), betaTableBin
	if len(got) != len(want) {
		t.Fatalf("table of %d bytes, embedded %d", len(got), len(want))
	}
	for i := 0; i < len(got); i += 8 {
		a := math.Float64frombits(binary.LittleEndian.Uint64(got[i:]))
		b := math.Float64frombits(binary.LittleEndian.Uint64(want[i:]))
		if math.Abs(a-b) > 1e-12 {
			t.Fatalf("table entry %d: %v, embedded %v", i/8, a, b)
		}
	}
}

// The first draws of NumPy's RandomState(0).random_sample().
func TestMT19937(t *testing.T) {
	m := newMT19937(0)
	for i, want := range []float64{0.5488135039273248, 0.7151893663724195, 0.6027633760716439} {
		if got := m.float64(); got != want {
			t.Errorf("draw %d: %v, NumPy %v", i, got, want)
		}
	}
}
