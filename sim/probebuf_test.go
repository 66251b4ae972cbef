package sim

import (
	"slices"
	"testing"
)

// probeBuf keeps samples in blocks that are never moved while recording;
// reading gathers them in order, copyTo reads any range without
// gathering, and clear keeps the blocks for the next run.
func TestProbeBufBlocks(t *testing.T) {
	for _, dims := range []int{1, 3, 192, probeBlockBytes / 8 / 2, probeBlockBytes/8 + 5} {
		var p probeBuf
		const samples = 7
		var want []float64
		p.reserve(3, dims)
		reserved := len(p.blocks)
		for s := range samples {
			dst := p.next(dims)
			if len(dst) != dims {
				t.Fatalf("dims %d: next gave %d values", dims, len(dst))
			}
			for j := range dst {
				dst[j] = float64(s*dims + j)
				want = append(want, dst[j])
			}
			if s == 2 && len(p.blocks) != reserved {
				t.Errorf("dims %d: recording 3 reserved samples added blocks (%d, reserved %d)", dims, len(p.blocks), reserved)
			}
		}
		if p.n != len(want) {
			t.Fatalf("dims %d: n = %d, want %d", dims, p.n, len(want))
		}
		for _, from := range []int{0, 1, dims, len(want) - 1, len(want)} {
			got := make([]float64, len(want)-from+3)
			k := p.copyTo(from, got)
			if k != len(want)-from || !slices.Equal(got[:k], want[from:]) {
				t.Errorf("dims %d: copyTo(%d) = %d values, want %d equal to the recorded ones", dims, from, k, len(want)-from)
			}
		}
		short := make([]float64, 2)
		if k := p.copyTo(1, short); k != 2 || short[0] != want[1] || short[1] != want[2] {
			t.Errorf("dims %d: copyTo into 2 values = %d %v", dims, k, short)
		}
		if got := p.values(); !slices.Equal(got, want) {
			t.Errorf("dims %d: values differ from what was recorded", dims)
		}
		if got := p.values(); !slices.Equal(got, want) || len(p.blocks) != 1 {
			t.Errorf("dims %d: second values() differs or did not keep one block (%d)", dims, len(p.blocks))
		}
		p.clear()
		if p.n != 0 || p.values() != nil {
			t.Errorf("dims %d: clear left %d values", dims, p.n)
		}
		copy(p.next(dims), want[:dims])
		if got := p.values(); !slices.Equal(got, want[:dims]) {
			t.Errorf("dims %d: after clear, one sample reads back as %d values", dims, len(got))
		}
	}
}
