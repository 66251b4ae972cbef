//go:build goexperiment.simd && amd64

package vec

import (
	"simd/archsimd"
	"unsafe"
)

// Every function ends its vector part with VZEROUPPER
// (ClearAVXUpperBits) before scalar code runs: Go's scalar float code is
// SSE, and SSE instructions after 256-bit AVX with dirty upper halves pay
// a state-transition or false-dependency penalty on Intel CPUs (measured
// here: a 5× slower dot product and a 3× slower simulation without it).

// Vectorized reports whether the loops use SIMD instructions.
var Vectorized = archsimd.X86.AVX2()

// Kernels names the inner loops this binary runs on this CPU, for version
// output and measurement headers (a slow build should be visible).
func Kernels() string {
	switch {
	case avx512 && fma:
		return "AVX-512 and AVX2/FMA loops (GOEXPERIMENT=simd)"
	case avx2 && fma:
		return "AVX2/FMA loops (GOEXPERIMENT=simd)"
	case avx2:
		return "AVX2 loops without FMA (GOEXPERIMENT=simd)"
	}
	return "portable Go loops (the CPU lacks AVX2)"
}

var avx2 = archsimd.X86.AVX2()

// fma: the 256-bit dot product needs fused multiply-adds (every AVX-512
// machine has them)
var fma = archsimd.X86.FMA()

func relu(out, J []float64, amp float64) {
	if !avx2 {
		reluGo(out, J, amp)
		return
	}
	out = out[:len(J)]
	n := len(J) &^ 3
	var zero archsimd.Float64x4 // the zero value: a broadcast of 0 compiles to a legacy-SSE XORPS that made the loop 3× slower
	a := archsimd.BroadcastFloat64x4(amp)
	for i := 0; i < n; i += 4 {
		// zero.Max(j) is VMAXPD(0, j): j when j is NaN or −0, as max(j, 0)
		// gives NaN and a zero
		v := archsimd.LoadFloat64x4Slice(J[i : i+4])
		a.Mul(zero.Max(v)).StoreSlice(out[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	reluGo(out[n:], J[n:], amp)
}

func axpy(y, a []float64, s float64) {
	if !avx2 {
		axpyGo(y, a, s)
		return
	}
	a = a[:len(y)]
	n := len(y) &^ 3
	sv := archsimd.BroadcastFloat64x4(s)
	for i := 0; i < n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i : i+4]).Mul(sv)
		archsimd.LoadFloat64x4Slice(y[i : i+4]).Add(p).StoreSlice(y[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	axpyGo(y[n:], a[n:], s)
}

func scale(y, a []float64, s float64) {
	if !avx2 {
		scaleGo(y, a, s)
		return
	}
	a = a[:len(y)]
	n := len(y) &^ 3
	sv := archsimd.BroadcastFloat64x4(s)
	for i := 0; i < n; i += 4 {
		archsimd.LoadFloat64x4Slice(a[i : i+4]).Mul(sv).StoreSlice(y[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	scaleGo(y[n:], a[n:], s)
}

func mulInc(y, a, x []float64) {
	if !avx2 {
		mulIncGo(y, a, x)
		return
	}
	a, x = a[:len(y)], x[:len(y)]
	n := len(y) &^ 3
	for i := 0; i < n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i : i+4]).Mul(archsimd.LoadFloat64x4Slice(x[i : i+4]))
		archsimd.LoadFloat64x4Slice(y[i : i+4]).Add(p).StoreSlice(y[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	mulIncGo(y[n:], a[n:], x[n:])
}

func add(y, x []float64) {
	if !avx2 {
		addGo(y, x)
		return
	}
	x = x[:len(y)]
	n := len(y) &^ 3
	for i := 0; i < n; i += 4 {
		archsimd.LoadFloat64x4Slice(y[i : i+4]).Add(archsimd.LoadFloat64x4Slice(x[i : i+4])).StoreSlice(y[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	addGo(y[n:], x[n:])
}

func axpyTo(y, b, a []float64, s float64) {
	if !avx2 {
		axpyToGo(y, b, a, s)
		return
	}
	b, a = b[:len(y)], a[:len(y)]
	n := len(y) &^ 3
	sv := archsimd.BroadcastFloat64x4(s)
	for i := 0; i < n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i : i+4]).Mul(sv)
		archsimd.LoadFloat64x4Slice(b[i : i+4]).Add(p).StoreSlice(y[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	axpyToGo(y[n:], b[n:], a[n:], s)
}

func axpyRelu(out, b, a []float64, s, amp float64) {
	if !avx2 {
		axpyReluGo(out, b, a, s, amp)
		return
	}
	b, a = b[:len(out)], a[:len(out)]
	n := len(out) &^ 3
	sv := archsimd.BroadcastFloat64x4(s)
	var zero archsimd.Float64x4 // the zero value: a broadcast of 0 compiles to a legacy-SSE XORPS that made the loop 3× slower
	av := archsimd.BroadcastFloat64x4(amp)
	for i := 0; i < n; i += 4 {
		p := archsimd.LoadFloat64x4Slice(a[i : i+4]).Mul(sv)
		j := archsimd.LoadFloat64x4Slice(b[i : i+4]).Add(p)
		av.Mul(zero.Max(j)).StoreSlice(out[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	axpyReluGo(out[n:], b[n:], a[n:], s, amp)
}

// gainRelu is gainReluGo four neurons at a time (as axpyRelu).
func gainRelu(out, x, g, b []float64, amp float64) {
	if !avx2 {
		gainReluGo(out, x, g, b, amp)
		return
	}
	x, g, b = x[:len(out)], g[:len(out)], b[:len(out)]
	n := len(out) &^ 3
	var zero archsimd.Float64x4 // see axpyRelu
	av := archsimd.BroadcastFloat64x4(amp)
	for i := 0; i < n; i += 4 {
		J := archsimd.LoadFloat64x4Slice(g[i : i+4]).Mul(archsimd.LoadFloat64x4Slice(x[i : i+4])).Add(archsimd.LoadFloat64x4Slice(b[i : i+4]))
		av.Mul(zero.Max(J)).StoreSlice(out[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	gainReluGo(out[n:], x[n:], g[n:], b[n:], amp)
}

// countPositive is countPositiveGo four currents at a time (the maximum
// kept per lane and reduced at the end: max is exact in any order).
func countPositive(cnt, x, g, b []float64, mx float64) float64 {
	if !avx2 || len(cnt) < 8 {
		return countPositiveGo(cnt, x, g, b, mx)
	}
	x, g, b = x[:len(cnt)], g[:len(cnt)], b[:len(cnt)]
	n := len(cnt) &^ 3
	one := archsimd.BroadcastFloat64x4(1)
	var zero archsimd.Float64x4 // see axpyRelu
	mv := archsimd.BroadcastFloat64x4(mx)
	for i := 0; i < n; i += 4 {
		J := archsimd.LoadFloat64x4Slice(g[i : i+4]).Mul(archsimd.LoadFloat64x4Slice(x[i : i+4])).Add(archsimd.LoadFloat64x4Slice(b[i : i+4]))
		c := archsimd.LoadFloat64x4Slice(cnt[i : i+4])
		c.Add(one.Masked(J.Greater(zero))).StoreSlice(cnt[i : i+4])
		mv = mv.Max(J)
	}
	var lanes [4]float64
	mv.StoreSlice(lanes[:])
	archsimd.ClearAVXUpperBits()
	for _, v := range lanes {
		if v > mx {
			mx = v
		}
	}
	return countPositiveGo(cnt[n:], x[n:], g[n:], b[n:], mx)
}

// lif steps four neurons at a time when all four integrate the whole step
// or none of it and none spikes (the common case); any other group of
// four, and the tail, go through the scalar step.
func lif(p lifParams, J, out, voltage, refractory []float64) {
	if !avx2 {
		lifGo(p, J, out, voltage, refractory)
		return
	}
	n := len(J) &^ 3
	dtv := archsimd.BroadcastFloat64x4(p.dt)
	var zero archsimd.Float64x4 // the zero value: a broadcast of 0 compiles to a legacy-SSE XORPS that made the loop 3× slower
	one := archsimd.BroadcastFloat64x4(1)
	minV := archsimd.BroadcastFloat64x4(p.minV)
	eFull := archsimd.BroadcastFloat64x4(p.eFull)
	eNone := archsimd.BroadcastFloat64x4(p.eNone)
	scalar := false
	for i := 0; i < n; i += 4 {
		rt := archsimd.LoadFloat64x4Slice(refractory[i : i+4]).Sub(dtv)
		d := dtv.Sub(rt)
		full := d.GreaterEqual(dtv)
		none := d.LessEqual(zero)
		if full.Or(none).ToBits() != 0xF {
			scalar = true
		} else {
			e := eFull.Merge(eNone, full)
			v0 := archsimd.LoadFloat64x4Slice(voltage[i : i+4])
			v := v0.Sub(archsimd.LoadFloat64x4Slice(J[i : i+4]).Sub(v0).Mul(e))
			if v.Greater(one).ToBits() != 0 {
				scalar = true
			} else {
				v = minV.Merge(v, v.Less(minV))
				zero.StoreSlice(out[i : i+4])
				v.StoreSlice(voltage[i : i+4])
				rt.StoreSlice(refractory[i : i+4])
				continue
			}
		}
		if scalar {
			archsimd.ClearAVXUpperBits()
			for k := i; k < i+4; k++ {
				p.lifOne(k, J, out, voltage, refractory)
			}
			scalar = false
		}
	}
	archsimd.ClearAVXUpperBits()
	for k := n; k < len(J); k++ {
		p.lifOne(k, J, out, voltage, refractory)
	}
}

// ClearUpper executes VZEROUPPER: call it after foreign code (cgo, e.g.
// OpenBLAS's AVX-512 kernels) that may return with dirty upper vector
// halves, before Go's SSE scalar code (math.Exp, …) runs on this thread —
// measured: math.Exp 10× slower after an OpenBLAS product without it.
func ClearUpper() {
	if avx2 {
		archsimd.ClearAVXUpperBits()
	}
}

// The dot-product family. Every sum is Dot's (see dotGo): sixteen partial
// sums over the length rounded up to whole 16-blocks, the missing
// products of the last block counted as +0. With AVX-512 the partial sums
// are two 8-wide vectors per row (lanes 0–7 and 8–15), with AVX2 four
// 4-wide ones; the last block is loaded zero-filled (SlicePart), so no
// scalar tail remains. Rows are processed one, two or four at a time
// (x loaded once), with the same sums.

var avx512 = avx2 && archsimd.X86.AVX512()

// ld8 loads a[j : j+8] through the slice's base pointer p, without a
// bounds check: the block loops only call it for j+8 ≤ len (checked once
// by the loop condition), which keeps the loops to their vector work.
func ld8(p unsafe.Pointer, j int) archsimd.Float64x8 {
	return archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(p, j*8)))
}

func base(a []float64) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(a)) }

// ldp loads eight values at p. The hot loops walk pointers forward with
// next8 and next16 instead of indexing (ld8): the compiler folds a
// constant offset into the load but builds every indexed address with
// two LEAs, which made Dot4 issue-bound (10.2 → 15.1 GMAC/s on an
// L2-resident matrix). A loop advances its pointers only while a block
// remains, so none ever points past its slice (Go's unsafe.Pointer rules).
func ldp(p unsafe.Pointer) archsimd.Float64x8 { return archsimd.LoadFloat64x8((*[8]float64)(p)) }

func next8(p unsafe.Pointer) unsafe.Pointer  { return unsafe.Add(p, 64) }
func next16(p unsafe.Pointer) unsafe.Pointer { return unsafe.Add(p, 128) }

// zero8 is the zero vector added where the last block has no products,
// so a partial sum of −0 turns +0 exactly as dotGo's +0 does.
var zero8 archsimd.Float64x8

// reduce16 combines partial sums held as two 8-wide vectors in dotGo's
// order: lane-wise (s0..3 + s4..7) + (s8..11 + s12..15), then
// (t0 + t1) + (t2 + t3).
func reduce16(z0, z1 archsimd.Float64x8) float64 {
	r := hsum(z0.GetLo().Add(z0.GetHi()).Add(z1.GetLo().Add(z1.GetHi())))
	archsimd.ClearAVXUpperBits()
	return r
}

// reduce16x2 is reduce16 for two rows at once: one VHADDPD on both rows'
// four lane sums gives a0+a1, b0+b1 | a2+a3, b2+b3, and adding the halves
// gives (a0+a1)+(a2+a3) and (b0+b1)+(b2+b3), the same two-level sums.
func reduce16x2(z0, z1, w0, w1 archsimd.Float64x8) (float64, float64) {
	a := z0.GetLo().Add(z0.GetHi()).Add(z1.GetLo().Add(z1.GetHi()))
	b := w0.GetLo().Add(w0.GetHi()).Add(w1.GetLo().Add(w1.GetHi()))
	h := a.AddPairsGrouped(b)
	r := h.GetLo().Add(h.GetHi())
	x, y := r.GetElem(0), r.GetElem(1)
	archsimd.ClearAVXUpperBits()
	return x, y
}

// hsum returns (t0 + t1) + (t2 + t3) without leaving the vector
// registers (HADDPD twice: the same two-level sum).
func hsum(t archsimd.Float64x4) float64 {
	p := t.GetLo().AddPairs(t.GetHi()) // t0 + t1, t2 + t3
	return p.AddPairs(p).GetElem(0)
}

// tail8 returns a[j:n]'s last block as two zero-filled 8-wide vectors.
func tail8(a []float64, j, n int) (archsimd.Float64x8, archsimd.Float64x8) {
	lo := archsimd.LoadFloat64x8SlicePart(a[j:n])
	if n-j > 8 {
		return lo, archsimd.LoadFloat64x8SlicePart(a[j+8 : n])
	}
	return lo, zero8
}

func dot(a, x []float64) float64 {
	if !avx2 {
		return dotGo(a, x)
	}
	n := len(a)
	x = x[:n]
	n16 := n &^ 15
	if !avx512 {
		if !fma {
			return dotGo(a, x)
		}
		var v0, v1, v2, v3 archsimd.Float64x4
		for j := 0; j < n16; j += 16 {
			v0 = archsimd.LoadFloat64x4Slice(a[j:j+4]).MulAdd(archsimd.LoadFloat64x4Slice(x[j:j+4]), v0)
			v1 = archsimd.LoadFloat64x4Slice(a[j+4:j+8]).MulAdd(archsimd.LoadFloat64x4Slice(x[j+4:j+8]), v1)
			v2 = archsimd.LoadFloat64x4Slice(a[j+8:j+12]).MulAdd(archsimd.LoadFloat64x4Slice(x[j+8:j+12]), v2)
			v3 = archsimd.LoadFloat64x4Slice(a[j+12:j+16]).MulAdd(archsimd.LoadFloat64x4Slice(x[j+12:j+16]), v3)
		}
		if n > n16 {
			// the last block zero-filled: a missing product adds 0·0
			part := func(j int, v archsimd.Float64x4) archsimd.Float64x4 {
				var aj, xj archsimd.Float64x4
				if j < n {
					aj, xj = archsimd.LoadFloat64x4SlicePart(a[j:n]), archsimd.LoadFloat64x4SlicePart(x[j:n])
				}
				return aj.MulAdd(xj, v)
			}
			v0, v1, v2, v3 = part(n16, v0), part(n16+4, v1), part(n16+8, v2), part(n16+12, v3)
		}
		var t [4]float64
		v0.Add(v1).Add(v2.Add(v3)).Store(&t)
		archsimd.ClearAVXUpperBits()
		return (t[0] + t[1]) + (t[2] + t[3])
	}
	var z0, z1 archsimd.Float64x8
	pa, px := base(a), base(x)
	for j := 16; j <= n16; j += 16 {
		z0 = ldp(pa).MulAdd(ldp(px), z0)
		z1 = ldp(next8(pa)).MulAdd(ldp(next8(px)), z1)
		if j == n16 {
			break
		}
		pa, px = next16(pa), next16(px)
	}
	if n > n16 {
		a0, a1 := tail8(a, n16, n)
		x0, x1 := tail8(x, n16, n)
		z0, z1 = a0.MulAdd(x0, z0), a1.MulAdd(x1, z1)
	}
	return reduce16(z0, z1)
}

// dot2 is dot for two rows at once.
func dot2(a, b, x []float64) (float64, float64) {
	if !avx512 {
		return dot(a, x), dot(b[:len(a)], x)
	}
	n := len(a)
	b, x = b[:n], x[:n]
	n16 := n &^ 15
	var p0, p1, q0, q1 archsimd.Float64x8
	if n16 > 0 {
		p0, p1, q0, q1 = dot2Blocks(base(x), base(a), base(b), n16)
	}
	if n > n16 {
		x0, x1 := tail8(x, n16, n)
		a0, a1 := tail8(a, n16, n)
		b0, b1 := tail8(b, n16, n)
		p0, p1 = a0.MulAdd(x0, p0), a1.MulAdd(x1, p1)
		q0, q1 = b0.MulAdd(x0, q0), b1.MulAdd(x1, q1)
	}
	return reduce16x2(p0, p1, q0, q1)
}

// dot2Blocks returns the partial sums of two rows over the n16/16 whole
// blocks (n16 > 0). It is a function of its own, and dot4 calls it for
// two pairs of rows: four rows in one loop need eight accumulators, two
// inputs and eight products, more than the fifteen vector registers Go
// allocates, and the allocator spilled an accumulator to the stack and
// reloaded it every block (a store-forwarding chain). Measured on an
// L2-resident 192×192 matrix: 10.3 GMAC/s before, 13.7 now.
//
//go:noinline
func dot2Blocks(px, pa, pb unsafe.Pointer, n16 int) (p0, p1, q0, q1 archsimd.Float64x8) {
	for j := 16; j <= n16; j += 16 {
		x0, x1 := ldp(px), ldp(next8(px))
		p0 = ldp(pa).MulAdd(x0, p0)
		p1 = ldp(next8(pa)).MulAdd(x1, p1)
		q0 = ldp(pb).MulAdd(x0, q0)
		q1 = ldp(next8(pb)).MulAdd(x1, q1)
		if j == n16 {
			break
		}
		px, pa, pb = next16(px), next16(pa), next16(pb)
	}
	return
}

// dot4 is dot for four rows at once.
func dot4(a0, a1, a2, a3, x []float64) (r0, r1, r2, r3 float64) {
	if !avx512 {
		return dot(a0, x), dot(a1[:len(a0)], x), dot(a2[:len(a0)], x), dot(a3[:len(a0)], x)
	}
	n := len(a0)
	x = x[:n]
	a1, a2, a3 = a1[:n], a2[:n], a3[:n]
	n16 := n &^ 15
	var p0, p1, q0, q1, u0, u1, w0, w1 archsimd.Float64x8
	if n16 > 0 {
		p0, p1, q0, q1 = dot2Blocks(base(x), base(a0), base(a1), n16)
		u0, u1, w0, w1 = dot2Blocks(base(x), base(a2), base(a3), n16)
	}
	if n > n16 {
		x0, x1 := tail8(x, n16, n)
		b0, b1 := tail8(a0, n16, n)
		p0, p1 = b0.MulAdd(x0, p0), b1.MulAdd(x1, p1)
		b0, b1 = tail8(a1, n16, n)
		q0, q1 = b0.MulAdd(x0, q0), b1.MulAdd(x1, q1)
		b0, b1 = tail8(a2, n16, n)
		u0, u1 = b0.MulAdd(x0, u0), b1.MulAdd(x1, u1)
		b0, b1 = tail8(a3, n16, n)
		w0, w1 = b0.MulAdd(x0, w0), b1.MulAdd(x1, w1)
	}
	r0, r1 = reduce16x2(p0, p1, q0, q1)
	r2, r3 = reduce16x2(u0, u1, w0, w1)
	return r0, r1, r2, r3
}

// ensDot2 computes the rates eight at a time (amp·max(0, bias + enc·x)
// with VMAXPD's zero-first operand order, as relu) and accumulates both
// decoder rows in dot's partial sums; the last block's rates are stored
// and read back zero-filled, so lanes past the end add +0.
func ensDot2(a []float64, keep bool, bias, enc []float64, x, amp float64, d1, d2 []float64) (s1, s2 float64) {
	n := len(a)
	if !avx512 {
		axpyRelu(a, bias, enc, x, amp)
		s1 = dot(d1[:n], a)
		if d2 != nil {
			s2 = dot(d2[:n], a)
		}
		return s1, s2
	}
	bias, enc, d1 = bias[:n], enc[:n], d1[:n]
	two := d2 != nil
	if !two {
		d2 = d1 // summed, then dropped
	}
	d2 = d2[:n]
	// scalar float compares before the first vector instruction: a
	// legacy-SSE UCOMISD after 512-bit work pays the transition penalty
	unit := amp == 1 && !keep
	xv := archsimd.BroadcastFloat64x8(x)
	av := archsimd.BroadcastFloat64x8(amp)
	var zero archsimd.Float64x8
	n16 := n &^ 15
	var p0, p1, q0, q1 archsimd.Float64x8
	pb, pe, pd1, pd2, pa := base(bias), base(enc), base(d1), base(d2), base(a)
	if unit && !two {
		// amplitude 1, one decoder row
		for i := 0; i < n16; i += 16 {
			r := zero.Max(ld8(pb, i).Add(ld8(pe, i).Mul(xv)))
			p0 = ld8(pd1, i).MulAdd(r, p0)
			r = zero.Max(ld8(pb, i+8).Add(ld8(pe, i+8).Mul(xv)))
			p1 = ld8(pd1, i+8).MulAdd(r, p1)
		}
	} else if unit {
		// amplitude 1 (the default): 1·r is r, bit for bit (NaN too)
		for i := 0; i < n16; i += 16 {
			r := zero.Max(ld8(pb, i).Add(ld8(pe, i).Mul(xv)))
			p0 = ld8(pd1, i).MulAdd(r, p0)
			q0 = ld8(pd2, i).MulAdd(r, q0)
			r = zero.Max(ld8(pb, i+8).Add(ld8(pe, i+8).Mul(xv)))
			p1 = ld8(pd1, i+8).MulAdd(r, p1)
			q1 = ld8(pd2, i+8).MulAdd(r, q1)
		}
	}
	for i := 0; i < n16 && !unit; i += 16 {
		r := av.Mul(zero.Max(ld8(pb, i).Add(ld8(pe, i).Mul(xv))))
		if keep {
			r.Store((*[8]float64)(unsafe.Add(pa, i*8)))
		}
		p0 = ld8(pd1, i).MulAdd(r, p0)
		q0 = ld8(pd2, i).MulAdd(r, q0)
		r = av.Mul(zero.Max(ld8(pb, i+8).Add(ld8(pe, i+8).Mul(xv))))
		if keep {
			r.Store((*[8]float64)(unsafe.Add(pa, (i+8)*8)))
		}
		p1 = ld8(pd1, i+8).MulAdd(r, p1)
		q1 = ld8(pd2, i+8).MulAdd(r, q1)
	}
	if n > n16 {
		// the last block's rates, lanes past the end zeroed by a mask
		rate := func(i int) archsimd.Float64x8 {
			if i >= n {
				return zero8
			}
			b := archsimd.LoadFloat64x8SlicePart(bias[i:n])
			e := archsimd.LoadFloat64x8SlicePart(enc[i:n])
			r := av.Mul(zero.Max(b.Add(e.Mul(xv))))
			if keep {
				r.StoreSlicePart(a[i:n])
			}
			if k := n - i; k < 8 {
				r = r.Masked(archsimd.Mask64x8FromBits(uint8(1)<<k - 1))
			}
			return r
		}
		r0, r1 := rate(n16), rate(n16+8)
		e0, e1 := tail8(d1, n16, n)
		p0, p1 = e0.MulAdd(r0, p0), e1.MulAdd(r1, p1)
		e0, e1 = tail8(d2, n16, n)
		q0, q1 = e0.MulAdd(r0, q0), e1.MulAdd(r1, q1)
	}
	s1, s2 = reduce16x2(p0, p1, q0, q1)
	if !two {
		s2 = 0
	}
	return s1, s2
}

// ensOct walks the pack's stripes in the order of Dot's final sums,
// k = j + 4q: each stripe's partial sums of the eight ensembles stay in
// one vector while its neurons are read, and are folded at once into
// t_j = (s_j + s_{4+j}) + (s_{8+j} + s_{12+j}) and then into
// (t0 + t1) + (t2 + t3): vertical adds only, all in registers.
//
// The variant comes as an integer (octMode), decided by the caller: the
// compiler schedules a float compare here after the first vector
// instructions, and a legacy-SSE UCOMISD after 512-bit work pays the
// transition penalty (it took 60 % of the time).
// ensOctAmp is ensOct for an amplitude other than 1. Its stripe walk and
// tree folding repeat ensOctUnit1/2's on purpose (see there: a shared
// helper cost 35 % at 26 neurons).
//
//go:noinline
func ensOctAmp(p []float64, n int, two bool, x *[8]float64, amp float64, s1, s2 *[8]float64) {
	if !avx512 {
		ensOctGo(p, n, two, x, amp, s1, s2)
		return
	}
	mode := 2
	if two {
		mode = 3
	}
	xv := archsimd.LoadFloat64x8(x)
	av := archsimd.BroadcastFloat64x8(amp)
	var zero, p1, q1, p2, q2 archsimd.Float64x8
	pp := base(p)
	w := uintptr(8 * OctWidth(two)) // bytes per neuron block
	off := uintptr(0)
	for j := range 4 {
		var u1, v1, u2, v2 archsimd.Float64x8
		for q := range 4 {
			var a1, a2 archsimd.Float64x8
			if i := j + 4*q; i < n {
				// the stripe's blocks, walked by pointer (no index
				// arithmetic per load), which never passes the last one
				b := unsafe.Add(pp, off)
				switch mode {
				case 0:
					for {
						r := zero.Max(ldp(b).Add(ldp(next8(b)).Mul(xv)))
						a1 = ldp(next16(b)).MulAdd(r, a1)
						if i += 16; i >= n {
							break
						}
						b, off = unsafe.Add(b, w), off+w
					}
				case 1:
					for {
						r := zero.Max(ldp(b).Add(ldp(next8(b)).Mul(xv)))
						a1 = ldp(next16(b)).MulAdd(r, a1)
						a2 = ldp(next8(next16(b))).MulAdd(r, a2)
						if i += 16; i >= n {
							break
						}
						b, off = unsafe.Add(b, w), off+w
					}
				case 2:
					for {
						r := av.Mul(zero.Max(ldp(b).Add(ldp(next8(b)).Mul(xv))))
						a1 = ldp(next16(b)).MulAdd(r, a1)
						if i += 16; i >= n {
							break
						}
						b, off = unsafe.Add(b, w), off+w
					}
				default:
					for {
						r := av.Mul(zero.Max(ldp(b).Add(ldp(next8(b)).Mul(xv))))
						a1 = ldp(next16(b)).MulAdd(r, a1)
						a2 = ldp(next8(next16(b))).MulAdd(r, a2)
						if i += 16; i >= n {
							break
						}
						b, off = unsafe.Add(b, w), off+w
					}
				}
				off += w
			}
			switch q {
			case 0:
				u1, u2 = a1, a2
			case 1:
				u1, u2 = u1.Add(a1), u2.Add(a2)
			case 2:
				v1, v2 = a1, a2
			default:
				v1, v2 = v1.Add(a1), v2.Add(a2)
			}
		}
		t1, t2 := u1.Add(v1), u2.Add(v2)
		switch j {
		case 0:
			p1, p2 = t1, t2
		case 1:
			p1, p2 = p1.Add(t1), p2.Add(t2)
		case 2:
			q1, q2 = t1, t2
		default:
			q1, q2 = q1.Add(t1), q2.Add(t2)
		}
	}
	p1.Add(q1).Store(s1)
	if two {
		p2.Add(q2).Store(s2)
	} else {
		*s2 = [8]float64{}
	}
	archsimd.ClearAVXUpperBits()
}

// dotRows runs the rows in pairs through dot2Blocks, then the pair's
// zero-filled last block, then one two-row reduction.
func dotRows(out, w []float64, nx int, rows []int, x []float64) {
	if !avx512 || nx < 16 {
		for k := range out {
			r := k
			if rows != nil {
				r = rows[k]
			}
			out[k] = dot(w[r*nx:(r+1)*nx], x)
		}
		return
	}
	n16 := nx &^ 15
	row := func(k int) []float64 {
		r := k
		if rows != nil {
			r = rows[k]
		}
		return w[r*nx : (r+1)*nx : (r+1)*nx]
	}
	k := 0
	for ; k+1 < len(out); k += 2 {
		a, b := row(k), row(k+1)
		p0, p1, q0, q1 := dot2Blocks(base(x), base(a), base(b), n16)
		if nx > n16 {
			x0, x1 := tail8(x, n16, nx)
			a0, a1 := tail8(a, n16, nx)
			b0, b1 := tail8(b, n16, nx)
			p0, p1 = a0.MulAdd(x0, p0), a1.MulAdd(x1, p1)
			q0, q1 = b0.MulAdd(x0, q0), b1.MulAdd(x1, q1)
		}
		out[k], out[k+1] = reduce16x2(p0, p1, q0, q1)
	}
	if k < len(out) {
		out[k] = dot(row(k), x)
	}
}

//go:noescape
func ensOct1(p *float64, n int, x, s1 *[8]float64)

// ensOctUnit1 and ensOctUnit2 are ensOct for amplitude 1 (every
// rectified-linear model's default) with one and two decoder rows: loops
// without a branch on the variant, which Go compiles 12–18 % faster than
// the general one (measured on 26–156 neurons). The tree folding is
// written out in each on purpose: a shared helper returning the folded
// vectors made 26 neurons take 75 instead of 55 ns. With one decoder row
// an assembly kernel (oct_amd64.s) sums four stripes side by side: 26,
// 52, 156 neurons in 32, 51, 135 ns (the Go loop: 52, 69, 160).
//
//go:noinline
func ensOctUnit1(p []float64, n int, x, s1 *[8]float64) {
	if !avx512 {
		var s2 [8]float64
		ensOctGo(p, n, false, x, 1, s1, &s2)
		return
	}
	if n <= 0 {
		*s1 = [8]float64{}
		return
	}
	_ = p[n*OctWidth(false)-1]
	ensOct1(unsafe.SliceData(p), n, x, s1)
}

//go:noinline
func ensOctUnit2(p []float64, n int, x, s1, s2 *[8]float64) {
	if !avx512 {
		ensOctGo(p, n, true, x, 1, s1, s2)
		return
	}
	xv := archsimd.LoadFloat64x8(x)
	var zero, p1, q1, p2, q2 archsimd.Float64x8
	pp := base(p)
	off := uintptr(0)
	for j := range 4 {
		var u1, v1, u2, v2 archsimd.Float64x8
		for q := range 4 {
			var a1, a2 archsimd.Float64x8
			if i := j + 4*q; i < n {
				b := unsafe.Add(pp, off)
				for {
					r := zero.Max(ldp(b).Add(ldp(next8(b)).Mul(xv)))
					a1 = ldp(next16(b)).MulAdd(r, a1)
					a2 = ldp(next8(next16(b))).MulAdd(r, a2)
					if i += 16; i >= n {
						break
					}
					b, off = unsafe.Add(b, 256), off+256
				}
				off += 256
			}
			switch q {
			case 0:
				u1, u2 = a1, a2
			case 1:
				u1, u2 = u1.Add(a1), u2.Add(a2)
			case 2:
				v1, v2 = a1, a2
			default:
				v1, v2 = v1.Add(a1), v2.Add(a2)
			}
		}
		t1, t2 := u1.Add(v1), u2.Add(v2)
		switch j {
		case 0:
			p1, p2 = t1, t2
		case 1:
			p1, p2 = p1.Add(t1), p2.Add(t2)
		case 2:
			q1, q2 = t1, t2
		default:
			q1, q2 = q1.Add(t1), q2.Add(t2)
		}
	}
	p1.Add(q1).Store(s1)
	p2.Add(q2).Store(s2)
	archsimd.ClearAVXUpperBits()
}

func lowpass(y, x, u []float64, a, b float64) {
	if !avx2 {
		lowpassGo(y, x, u, a, b)
		return
	}
	n := len(y) &^ 3
	av, bv := archsimd.BroadcastFloat64x4(a), archsimd.BroadcastFloat64x4(b)
	for i := 0; i < n; i += 4 {
		s := av.Mul(archsimd.LoadFloat64x4Slice(x[i : i+4])).Add(bv.Mul(archsimd.LoadFloat64x4Slice(u[i : i+4])))
		s.StoreSlice(x[i : i+4])
		s.StoreSlice(y[i : i+4])
	}
	archsimd.ClearAVXUpperBits()
	lowpassGo(y[n:], x[n:], u[n:], a, b)
}

// firstNaN sums v − v over 8-wide blocks (0 for finite values, NaN for
// NaN and ±Inf) and scans the values one by one only when the sum is NaN.
func firstNaN(x []float64) int {
	n8 := len(x) &^ 7
	if !avx512 || n8 == 0 {
		return firstNaNGo(x)
	}
	var acc archsimd.Float64x8
	p := base(x)
	for j := 8; j <= n8; j += 8 {
		v := ldp(p)
		acc = acc.Add(v.Sub(v))
		if j == n8 {
			break
		}
		p = next8(p)
	}
	var t [8]float64
	acc.Store(&t)
	archsimd.ClearAVXUpperBits()
	for _, v := range t {
		if v != v {
			return firstNaNGo(x)
		}
	}
	if i := firstNaNGo(x[n8:]); i >= 0 {
		return n8 + i
	}
	return -1
}

//go:noescape
func ensOct1x2(p *float64, n int, xa, xb, sa, sb *[8]float64)

func ensOct1Lanes2(p []float64, n int, xa, xb, sa, sb *[8]float64) {
	if !avx512 || n <= 0 {
		ensOctUnit1(p, n, xa, sa)
		ensOctUnit1(p, n, xb, sb)
		return
	}
	_ = p[n*OctWidth(false)-1]
	ensOct1x2(unsafe.SliceData(p), n, xa, xb, sa, sb)
}

// vecMat keeps 32 outputs in four vectors while it walks the rows of m,
// so each output is summed over l in order without a load and store per
// row (a product rounded, then added: no fused multiply-add).
func vecMat(y, x, m []float64, d int) {
	if !avx512 || d < 32 || len(x) == 0 {
		vecMatGo(y, x, m, d)
		return
	}
	y = y[:d]
	_ = m[len(x)*d-1]
	pm := base(m)
	j := 0
	for ; j+32 <= d; j += 32 {
		var s0, s1, s2, s3 archsimd.Float64x8
		for l, a := range x {
			av := archsimd.BroadcastFloat64x8(a)
			p := unsafe.Add(pm, (l*d+j)*8)
			s0 = s0.Add(ldp(p).Mul(av))
			s1 = s1.Add(ldp(next8(p)).Mul(av))
			s2 = s2.Add(ldp(next16(p)).Mul(av))
			s3 = s3.Add(ldp(next16(next8(p))).Mul(av))
		}
		s0.Store((*[8]float64)(y[j : j+8]))
		s1.Store((*[8]float64)(y[j+8 : j+16]))
		s2.Store((*[8]float64)(y[j+16 : j+24]))
		s3.Store((*[8]float64)(y[j+24 : j+32]))
	}
	archsimd.ClearAVXUpperBits()
	if j < d {
		// the last columns, in the same order
		rest := y[j:]
		clear(rest)
		for l, a := range x {
			r := m[l*d+j : (l+1)*d : (l+1)*d]
			for k, v := range r {
				rest[k] += float64(a * v)
			}
		}
	}
}
