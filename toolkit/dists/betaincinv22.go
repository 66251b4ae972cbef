package dists

import (
	_ "embed"
	"encoding/binary"
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// The lookup table of ScatteredHypersphere's method "sct-approx": for
// each of betaDims, betaKnots knots x (ascending, in [0, 1]) and
// y = B⁻¹(x; dim/2, 1/2). It is built by makeBetaTable, the construction
// Nengo 4.1 documents for its betaincinv22 table (nengo/dists.py,
// _betaincinv22.make_table): the union of 40 evenly spaced x in [0, 1]
// and x = I(y; dim/2, 1/2) at 160 evenly spaced y in [1e-16, 1 - 1e-7],
// duplicates removed, topped up to 200 with uniform draws of NumPy's
// RandomState(0) (MT19937) shared across the dimensions in order. Here
// the incomplete beta and its inverse are gonum's; Nengo stored SciPy's
// of its day, which like gonum's inverse was Cephes' incbi (today's
// SciPy, Boost-based, gives another number of distinct knots from
// dim 402 on, and so another table). Compared with the table shipped in Nengo 4.1
// (nengo/data/betaincinv22_table.npz, checked once while writing this,
// not copied): the same number of distinct knots in every dimension, so
// the same top-up draws; knots x within 3.3e-14 and values y within
// 1.7e-12 (dim 119; at most 3.7e-13 elsewhere).
//
// betaincinv22.bin holds the table (little-endian float64: for each dim,
// its 200 x then its 200 y); `go test -run TestBetaTable -update`
// rewrites it from makeBetaTable.
//
//go:embed betaincinv22.bin
var betaTableBin []byte

const betaKnots = 200

// betaDims are the tabulated dimensions: 1…25 and 25 from 26 to 1000
// spaced logarithmically (Nengo's dims_lin and dims_log for n_dims = 50).
var betaDims = [...]int{
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
	21, 22, 23, 24, 25, 26, 30, 35, 41, 48, 56, 65, 75, 88, 102, 119, 138,
	161, 188, 219, 254, 296, 345, 402, 468, 544, 634, 738, 859, 1000,
}

// betaTableRow returns the knots of the i-th tabulated dimension, views
// into the embedded table (read only).
func betaTableRow(i int) (xp, yp []float64) {
	off := i * 2 * betaKnots * 8
	row := make([]float64, 2*betaKnots)
	for j := range row {
		row[j] = math.Float64frombits(binary.LittleEndian.Uint64(betaTableBin[off+8*j:]))
	}
	return row[:betaKnots], row[betaKnots:]
}

// linspace is numpy.linspace(start, stop, num): start + i·step with
// step = (stop - start)/(num - 1), the last point exactly stop.
func linspace(start, stop float64, num int) []float64 {
	out := make([]float64, num)
	step := (stop - start) / float64(num-1)
	for i := range out {
		out[i] = float64(i)*step + start
	}
	out[num-1] = stop
	return out
}

// mt19937 is the Mersenne Twister (Matsumoto & Nishimura 1998) as NumPy's
// legacy RandomState seeds it from an integer (init_genrand).
type mt19937 struct {
	mt  [624]uint32
	pos int
}

func newMT19937(seed uint32) *mt19937 {
	m := &mt19937{pos: 624}
	m.mt[0] = seed
	for i := 1; i < 624; i++ {
		m.mt[i] = 1812433253*(m.mt[i-1]^(m.mt[i-1]>>30)) + uint32(i)
	}
	return m
}

func (m *mt19937) uint32() uint32 {
	if m.pos >= 624 {
		const upper, lower = 0x80000000, 0x7fffffff
		for i := range 624 {
			y := m.mt[i]&upper | m.mt[(i+1)%624]&lower
			v := m.mt[(i+397)%624] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.mt[i] = v
		}
		m.pos = 0
	}
	y := m.mt[m.pos]
	m.pos++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// float64 is RandomState.random_sample: 53 random bits from two draws.
func (m *mt19937) float64() float64 {
	a, b := m.uint32()>>5, m.uint32()>>6
	return (float64(a)*67108864 + float64(b)) / 9007199254740992
}

// makeBetaTable computes the table described at betaTableBin.
func makeBetaTable() [][2][]float64 {
	rng := newMT19937(0)
	out := make([][2][]float64, len(betaDims))
	x0 := linspace(0, 1, betaKnots-int(0.8*betaKnots))
	y0 := linspace(1e-16, 1-1e-7, int(0.8*betaKnots))
	for i, dim := range betaDims {
		a := float64(dim) / 2
		x := slices.Clone(x0)
		for _, y := range y0 {
			x = append(x, mathext.RegIncBeta(a, 0.5, y))
		}
		slices.Sort(x)
		x = slices.Compact(x)
		for len(x) < betaKnots {
			for range betaKnots - len(x) {
				x = append(x, rng.float64())
			}
			slices.Sort(x)
			x = slices.Compact(x)
		}
		y := make([]float64, betaKnots)
		for j, v := range x {
			y[j] = mathext.InvRegIncBeta(a, 0.5, v)
		}
		out[i] = [2][]float64{x, y}
	}
	return out
}

// interp is numpy.interp(x, xp, yp) for ascending xp: yp[0] below xp[0],
// yp[last] from xp[last] on, at a knot its y, else the line through the
// bracketing knots, slope·(x - xp[j]) + yp[j] (NaN from an infinite slope
// retried from the right knot, as NumPy does).
func interp(x float64, xp, yp []float64) float64 {
	n := len(xp)
	switch {
	case math.IsNaN(x):
		return x
	case x < xp[0]:
		return yp[0]
	case x >= xp[n-1]:
		return yp[n-1]
	}
	// j: the last knot with xp[j] <= x
	lo, hi := 0, n-1 // xp[lo] <= x < xp[hi]
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if xp[mid] <= x {
			lo = mid
		} else {
			hi = mid
		}
	}
	j := lo
	if xp[j] == x {
		return yp[j]
	}
	slope := (yp[j+1] - yp[j]) / (xp[j+1] - xp[j])
	r := slope*(x-xp[j]) + yp[j]
	if math.IsNaN(r) {
		r = slope*(x-xp[j+1]) + yp[j+1]
		if math.IsNaN(r) && yp[j] == yp[j+1] {
			r = yp[j]
		}
	}
	return r
}

// betaLookup returns the knots with which "sct-approx" interpolates
// B⁻¹(·; dim/2, 1/2) (Nengo's _betaincinv22.lookup): a tabulated dim's
// own; above 1000 those of 1000; between tabulated dims d0 < dim < d1
// the average of the two curves with weights r0 = (d1 - dim)/(d1 - d0)
// and r1 = 1 - r0: x = r0·x0 + r1·x1 and y = r0·interp(x; x0, y0) +
// r1·interp(x; x1, y1).
func betaLookup(dim int) (xp, yp []float64) {
	i, found := slices.BinarySearch(betaDims[:], dim)
	if found {
		return betaTableRow(i)
	}
	if i >= len(betaDims) {
		return betaTableRow(len(betaDims) - 1)
	}
	d0, d1 := betaDims[i-1], betaDims[i]
	xp0, yp0 := betaTableRow(i - 1)
	xp1, yp1 := betaTableRow(i)
	r0 := float64(d1-dim) / float64(d1-d0)
	r1 := 1 - r0
	xp = make([]float64, betaKnots)
	yp = make([]float64, betaKnots)
	for j := range xp {
		xp[j] = r0*xp0[j] + r1*xp1[j]
	}
	for j, x := range xp {
		yp[j] = r0*interp(x, xp0, yp0) + r1*interp(x, xp1, yp1)
	}
	return xp, yp
}
