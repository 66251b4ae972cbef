package sim

import (
	"hash/maphash"
	"math"
	"slices"
	"unsafe"

	"github.com/neurogo/neurogo/internal/vec"
)

// Duplicate rows. Networks built from the usual templates multiply by
// matrices with many identical rows: the circular convolution's Fourier
// transforms hold every row twice (the real and imaginary parts of a
// frequency feed two products each), the basal ganglia's all-to-all
// transforms are ones matrices times a weight (every row the same). A
// product y = W·x of such a read-only matrix computes each distinct row's
// sum once and writes it to every output row it belongs to: the same
// sums, bit for bit, in the same order of writes, with a fraction of the
// multiply-adds and of the weights read.

// rowDedup maps a block's rows to its distinct rows.
type rowDedup struct {
	uniq []int     // first row of each distinct row, ascending
	of   []int     // of[i]: index in uniq of row i's distinct row
	sums []float64 // scratch: the distinct rows' sums
}

// minDupFraction is the share of duplicate rows from which a block is
// computed by distinct rows.
var minDupFraction = 0.25

// dedupRows returns the distinct-row map of the ny×nx row-major matrix w,
// or nil when fewer than minDupFraction of its rows repeat an earlier one.
// Rows are equal when their float64 bit patterns are (so −0 and +0
// differ, and NaN rows never merge with non-identical ones).
func dedupRows(w []float64, nx, ny int) *rowDedup {
	if nx < 2 || ny < 4 {
		return nil
	}
	seed := maphash.MakeSeed()
	first := map[uint64][]int{} // hash → distinct rows with it
	dd := &rowDedup{of: make([]int, ny)}
	row := func(i int) []float64 { return w[i*nx : (i+1)*nx] }
	same := func(a, b []float64) bool {
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				return false
			}
		}
		return true
	}
	var h maphash.Hash
	h.SetSeed(seed)
	buf := make([]byte, 8*nx)
	for i := range ny {
		r := row(i)
		for k, v := range r {
			u := math.Float64bits(v)
			for j := range 8 {
				buf[8*k+j] = byte(u >> (8 * j))
			}
		}
		h.Reset()
		h.Write(buf)
		key := h.Sum64()
		found := -1
		for _, u := range first[key] {
			if same(row(dd.uniq[u]), r) {
				found = u
				break
			}
		}
		if found < 0 {
			found = len(dd.uniq)
			dd.uniq = append(dd.uniq, i)
			first[key] = append(first[key], found)
		}
		dd.of[i] = found
	}
	if float64(ny-len(dd.uniq)) < minDupFraction*float64(ny) {
		return nil
	}
	return dd
}

// withDedup attaches the distinct-row map to a block whose weights are
// read-only (found from their initial values, which Reset restores) and
// whose output overlaps neither input nor weights. The maps are computed
// once per simulator and shared by its lanes; each block gets its own
// scratch.
func (s *Simulator) withDedup(b block, readonly bool) block {
	if !readonly || !b.pairs || b.nx < 2 || b.ny < 4 {
		return b
	}
	key := [3]int{b.a, b.nx, b.ny}
	dd, ok := s.dedups[key]
	if !ok {
		if s.img == nil {
			s.img = s.model.initImage()
		}
		dd = dedupRows(s.img[b.a:b.a+b.nx*b.ny], b.nx, b.ny)
		if s.dedups == nil {
			s.dedups = map[[3]int]*rowDedup{}
		}
		s.dedups[key] = dd
	}
	if dd != nil {
		b.dedup = &rowDedup{uniq: dd.uniq, of: dd.of, sums: make([]float64, len(dd.uniq))}
	}
	return b
}

// dotDedup runs a block by its distinct rows (see rowDedup), writing as
// dotBlocks does (putRows).
func dotDedup(d, w []float64, b block, set bool) {
	dd := b.dedup
	nx, x := b.nx, d[b.x:b.x+b.nx]
	if b.wa != nil {
		// the distinct rows, compacted and aligned (alignRows)
		copy(b.xs, x)
		vec.DotRows(dd.sums, b.wa, len(b.xs), nil, b.xs)
	} else {
		vec.DotRows(dd.sums, w[b.a:b.a+b.ny*nx], nx, dd.uniq, x)
	}
	putRows(d, b, set, dd.sums, dd.of)
}

// putRows writes row i's sum sums[of[i]] (of nil: sums[i]) into the
// block's output: y = bias + sum with a bias, y = sum when set, y += sum
// otherwise (dotBlocks's writes, one loop per kind).
func putRows(d []float64, b block, set bool, sums []float64, of []int) {
	y := d[b.y : b.y+b.ny]
	switch {
	case b.b >= 0:
		bias := d[b.b : b.b+b.ny]
		if of == nil {
			for i, v := range sums[:len(y)] {
				y[i] = bias[i] + v
			}
			return
		}
		for i, k := range of[:len(y)] {
			y[i] = bias[i] + sums[k]
		}
	case set:
		if of == nil {
			copy(y, sums)
			return
		}
		for i, k := range of[:len(y)] {
			y[i] = sums[k]
		}
	default:
		if of == nil {
			for i, v := range sums[:len(y)] {
				y[i] += v
			}
			return
		}
		for i, k := range of[:len(y)] {
			y[i] += sums[k]
		}
	}
}

// initImage returns the store with every signal at its initial value.
func (m *Model) initImage() []float64 {
	img := make([]float64, m.size)
	for _, g := range m.sigs {
		if g.init != nil {
			copy(img[g.off:g.off+g.n], g.init)
		}
	}
	return img
}

// Aligned weights. The store packs signals end to end, so a weight row
// starts at any multiple of 8 bytes, and a 64-byte vector load from it
// usually spans two cache lines: Dot4 on an L2-resident 194×192 matrix
// ran at 13.3 GMAC/s aligned, 10.7 and 7.1 misaligned by 8 and 32 bytes.
// A read-only product block (its weights never change after Reset) is
// therefore computed from a copy made at compile time: its rows (only
// the distinct ones with dedup, compacted) with the row stride rounded up
// to 8 values, 64-byte aligned, zero-padded, and the input copied into an
// aligned scratch of that stride whose padding stays zero. Padding adds
// +0 products to the zero-filled last block exactly as Dot does, so the
// sums are identical. The copies are shared by the lanes and bounded by
// maxAlignedBytes per simulator.

// maxAlignedBytes bounds the aligned weight copies of one simulator.
var maxAlignedBytes = 64 << 20

// alignOn switches the aligned copies (tests compare with and without).
var alignOn = true

// aligned64 returns n zeroed float64s starting on a 64-byte boundary.
func aligned64(n int) []float64 {
	buf := make([]float64, n+7)
	k := 0
	for uintptr(unsafe.Pointer(&buf[k]))%64 != 0 {
		k++
	}
	return buf[k : k+n : k+n]
}

// withAligned gives a read-only pairs block its aligned weight copy and
// input scratch (shared copies keyed like withDedup's maps).
func (s *Simulator) withAligned(b block, readonly bool) block {
	if !alignOn || !readonly || !b.pairs || b.nx < 16 || b.ny < 2 {
		return b
	}
	stride := (b.nx + 7) &^ 7
	rows := b.ny
	if b.dedup != nil {
		rows = len(b.dedup.uniq)
	}
	key := [3]int{b.a, b.nx, b.ny}
	wa, ok := s.aligned[key]
	if !ok {
		if s.alignedBytes+8*rows*stride > maxAlignedBytes {
			return b
		}
		if s.img == nil {
			s.img = s.model.initImage()
		}
		wa = aligned64(rows * stride)
		for k := range rows {
			r := k
			if b.dedup != nil {
				r = b.dedup.uniq[k]
			}
			copy(wa[k*stride:], s.img[b.a+r*b.nx:b.a+(r+1)*b.nx])
		}
		if s.aligned == nil {
			s.aligned = map[[3]int][]float64{}
		}
		// another product's copy with the same values is shared: circular
		// convolution's two input transforms have the same distinct rows
		// (the real and imaginary Fourier rows), which halves their
		// weights in the cache
		shared := false
		for _, c := range s.alignedBy[contentKey(wa)] {
			if slices.Equal(c, wa) {
				wa, shared = c, true
				break
			}
		}
		s.aligned[key] = wa
		if !shared {
			if s.alignedBy == nil {
				s.alignedBy = map[uint64][][]float64{}
			}
			h := contentKey(wa)
			s.alignedBy[h] = append(s.alignedBy[h], wa)
			s.alignedBytes += 8 * len(wa)
		}
	}
	b.wa, b.xs = wa, aligned64(stride)
	return b
}

// contentKey hashes a weight copy's length and values (FNV-1a over the
// bits), the key under which withAligned finds equal copies.
func contentKey(w []float64) uint64 {
	h := uint64(14695981039346656037) ^ uint64(len(w))
	for _, v := range w {
		h = (h ^ math.Float64bits(v)) * 1099511628211
	}
	return h
}
