package blas

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPack checks the packing routines against a direct definition of
// the packed layout, with the assembly copy (where there is one) and the
// Go loops, every panel width, partial panels and alpha ≠ 1.
func TestPack(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	asm, tr := packAsm, packT
	defer func() { packAsm, packT = asm, tr }()
	for _, useAsm := range []bool{false, true} {
		packAsm, packT = useAsm && asm, useAsm && tr
		for _, w := range []int{4, 6, 8, 12, 16, 32} {
			for _, rows := range []int{1, 3, 8, 17, 40} {
				for _, cols := range []int{1, w - 1, w, w + 1, 3*w + 2} {
					for _, alpha := range []float64{1, -0.5} {
						checkPack[float64](t, rng, rows, cols, w, alpha)
						checkPack[float32](t, rng, rows, cols, w, float32(alpha))
					}
				}
			}
		}
	}
}

func checkPack[T elem](t *testing.T, rng *rand.Rand, rows, cols, w int, alpha T) {
	t.Helper()
	lds := cols + 3
	src := make([]T, rows*lds)
	for i := range src {
		src[i] = T(rng.Float64()*2 - 1)
		if i%lds >= cols {
			src[i] = T(math.NaN()) // never read
		}
	}
	panels := (cols + w - 1) / w
	want := make([]T, panels*w*rows)
	for j := range cols {
		for p := range rows {
			want[j/w*w*rows+p*w+j%w] = alpha * src[p*lds+j]
		}
	}
	got := make([]T, len(want)+5)
	for i := range got {
		got[i] = T(math.NaN())
	}
	packRows(got, src, lds, rows, cols, w, alpha)
	if !slices.Equal(got[:len(want)], want) {
		t.Errorf("packRows(rows %d, cols %d, w %d, alpha %v, asm %v) differs", rows, cols, w, alpha, packAsm)
	}
	// the transpose: src read as cols rows of length rows
	tsrc := make([]T, cols*(rows+2))
	for j := range cols {
		for p := range rows {
			tsrc[j*(rows+2)+p] = src[p*lds+j] // alpha applied by packCols
		}
	}
	for i := range got {
		got[i] = T(math.NaN())
	}
	packCols(got, tsrc, rows+2, rows, cols, w, alpha)
	if !slices.Equal(got[:len(want)], want) {
		t.Errorf("packCols(rows %d, cols %d, w %d, alpha %v, asm %v) differs", rows, cols, w, alpha, packT)
	}
}
