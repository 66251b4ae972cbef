package sim

import (
	"hash/maphash"
	"math"

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

// dotDedup runs a block by its distinct rows (see rowDedup).
func dotDedup(d, w []float64, b block, put func(i int, acc float64)) {
	dd := b.dedup
	nx, x := b.nx, d[b.x:b.x+b.nx]
	row := func(u int) []float64 { i := dd.uniq[u]; return w[b.a+i*nx : b.a+(i+1)*nx] }
	u, n := 0, len(dd.uniq)
	for ; u+3 < n; u += 4 {
		dd.sums[u], dd.sums[u+1], dd.sums[u+2], dd.sums[u+3] = vec.Dot4(row(u), row(u+1), row(u+2), row(u+3), x)
	}
	for ; u < n; u++ {
		dd.sums[u] = vec.Dot(row(u), x)
	}
	for i, k := range dd.of {
		put(i, dd.sums[k])
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
