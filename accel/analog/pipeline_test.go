package analog

import (
	"context"
	"math/rand/v2"
	"testing"
)

// Run (the JIT pipeline through instruction streams) gives exactly
// Apply's results: same tiles, same noise streams per (call, tile, chunk).
func TestRunEqualsApply(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, tc := range []struct {
		name              string
		chips             int
		batch, rows, cols int
		unsigned          bool
	}{
		{"small", 1, 3, 50, 20, false},
		{"splits, 2 chips", 2, 300, 700, 600, false},
		{"unsigned, row 255 events", 1, 130, 512, 40, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ChipConfig(2)
			cfg.Chips = tc.chips
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			lo := -63
			if tc.unsigned {
				lo = 0
			}
			x := randInts(rng, tc.batch*tc.rows, 0, 31)
			w := randInts(rng, tc.rows*tc.cols, lo, 63)
			m, err := s.Configure(w, tc.rows, tc.cols, Op{Unsigned: tc.unsigned})
			if err != nil {
				t.Fatal(err)
			}
			y1 := make([]float64, tc.batch*tc.cols)
			y2 := make([]float64, tc.batch*tc.cols)
			m.Reseed(9)
			if err := m.Apply(x, tc.batch, y1); err != nil {
				t.Fatal(err)
			}
			m.Reseed(9)
			st, err := m.Run(context.Background(), x, tc.batch, y2, PipelineOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for i := range y1 {
				if y1[i] != y2[i] {
					t.Fatalf("y[%d]: Run %v, Apply %v", i, y2[i], y1[i])
				}
			}
			p := m.Partition()
			if want := p.RowSplits + len(p.Tiles) + p.ColSplits; st.Instances != want {
				t.Errorf("%d instances, want %d", st.Instances, want)
			}
			if st.OutputBytes != int64(tc.batch*tc.cols*p.RowSplits) {
				t.Errorf("output bytes %d, want %d", st.OutputBytes, tc.batch*tc.cols*p.RowSplits)
			}
			// the mock partner runs the same graph without computing
			st2, err := m.Run(context.Background(), x, tc.batch, y2, PipelineOptions{MockPartner: true})
			if err != nil {
				t.Fatal(err)
			}
			if st2.InputBytes != st.InputBytes {
				t.Errorf("mock partner streams %d bytes, emulation %d", st2.InputBytes, st.InputBytes)
			}
		})
	}
	s, _ := New(MockConfig())
	m, _ := s.Configure([]float64{1, 2}, 2, 1, Op{})
	if _, err := m.Run(context.Background(), []float64{40, 1}, 1, make([]float64, 1), PipelineOptions{}); err == nil {
		t.Error("input 40: no error")
	}
}
