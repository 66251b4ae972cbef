//go:build goexperiment.simd && amd64

package vec

import "simd/archsimd"

// Every function ends its vector part with VZEROUPPER
// (ClearAVXUpperBits) before scalar code runs: Go's scalar float code is
// SSE, and SSE instructions after 256-bit AVX with dirty upper halves pay
// a state-transition or false-dependency penalty on Intel CPUs (measured
// here: a 5× slower dot product and a 3× slower simulation without it).

// Vectorized reports whether the loops use SIMD instructions.
var Vectorized = archsimd.X86.AVX2()

var avx2 = archsimd.X86.AVX2()

// avx512: dot products use 8-wide vectors, two per 16-block, whose lanes
// are the same sixteen partial sums as the four 4-wide vectors (combined
// in the same order), so the sums are identical with and without it.
var avx512 = avx2 && archsimd.X86.AVX512()

// reduce16 combines a 16-block's partial sums held as two 8-wide vectors
// (lanes 0–7 and 8–15) in dot's order: lane-wise (v0 + v1) + (v2 + v3),
// then (t0 + t1) + (t2 + t3).
func reduce16(z0, z1 archsimd.Float64x8) float64 {
	var t [4]float64
	z0.GetLo().Add(z0.GetHi()).Add(z1.GetLo().Add(z1.GetHi())).Store(&t)
	archsimd.ClearAVXUpperBits()
	return (t[0] + t[1]) + (t[2] + t[3])
}

func dot512(a, x []float64) float64 {
	n := len(a) &^ 15
	x = x[:len(a)]
	var z0, z1 archsimd.Float64x8
	for j := 0; j < n; j += 16 {
		z0 = z0.Add(archsimd.LoadFloat64x8Slice(a[j : j+8]).Mul(archsimd.LoadFloat64x8Slice(x[j : j+8])))
		z1 = z1.Add(archsimd.LoadFloat64x8Slice(a[j+8 : j+16]).Mul(archsimd.LoadFloat64x8Slice(x[j+8 : j+16])))
	}
	acc := reduce16(z0, z1)
	for j := n; j < len(a); j++ {
		acc += float64(a[j] * x[j])
	}
	return acc
}

func dot2x512(a, b, x []float64) (float64, float64) {
	n := len(a) &^ 15
	b, x = b[:len(a)], x[:len(a)]
	var p0, p1, q0, q1 archsimd.Float64x8
	for j := 0; j < n; j += 16 {
		x0 := archsimd.LoadFloat64x8Slice(x[j : j+8])
		x1 := archsimd.LoadFloat64x8Slice(x[j+8 : j+16])
		p0 = p0.Add(archsimd.LoadFloat64x8Slice(a[j : j+8]).Mul(x0))
		p1 = p1.Add(archsimd.LoadFloat64x8Slice(a[j+8 : j+16]).Mul(x1))
		q0 = q0.Add(archsimd.LoadFloat64x8Slice(b[j : j+8]).Mul(x0))
		q1 = q1.Add(archsimd.LoadFloat64x8Slice(b[j+8 : j+16]).Mul(x1))
	}
	var t0, t1 [4]float64
	p0.GetLo().Add(p0.GetHi()).Add(p1.GetLo().Add(p1.GetHi())).Store(&t0)
	q0.GetLo().Add(q0.GetHi()).Add(q1.GetLo().Add(q1.GetHi())).Store(&t1)
	archsimd.ClearAVXUpperBits()
	r0 := (t0[0] + t0[1]) + (t0[2] + t0[3])
	r1 := (t1[0] + t1[1]) + (t1[2] + t1[3])
	for j := n; j < len(a); j++ {
		r0 += float64(a[j] * x[j])
		r1 += float64(b[j] * x[j])
	}
	return r0, r1
}

// dot4 is dot for four rows of equal length at once (x loaded once).
func dot4(a0, a1, a2, a3, x []float64) (r0, r1, r2, r3 float64) {
	if !avx512 || len(a0) < 16 {
		return dot(a0, x), dot(a1, x), dot(a2, x), dot(a3, x)
	}
	n := len(a0) &^ 15
	x = x[:len(a0)]
	a1, a2, a3 = a1[:len(a0)], a2[:len(a0)], a3[:len(a0)]
	var p0, p1, q0, q1, u0, u1, w0, w1 archsimd.Float64x8
	for j := 0; j < n; j += 16 {
		x0 := archsimd.LoadFloat64x8Slice(x[j : j+8])
		x1 := archsimd.LoadFloat64x8Slice(x[j+8 : j+16])
		p0 = p0.Add(archsimd.LoadFloat64x8Slice(a0[j : j+8]).Mul(x0))
		p1 = p1.Add(archsimd.LoadFloat64x8Slice(a0[j+8 : j+16]).Mul(x1))
		q0 = q0.Add(archsimd.LoadFloat64x8Slice(a1[j : j+8]).Mul(x0))
		q1 = q1.Add(archsimd.LoadFloat64x8Slice(a1[j+8 : j+16]).Mul(x1))
		u0 = u0.Add(archsimd.LoadFloat64x8Slice(a2[j : j+8]).Mul(x0))
		u1 = u1.Add(archsimd.LoadFloat64x8Slice(a2[j+8 : j+16]).Mul(x1))
		w0 = w0.Add(archsimd.LoadFloat64x8Slice(a3[j : j+8]).Mul(x0))
		w1 = w1.Add(archsimd.LoadFloat64x8Slice(a3[j+8 : j+16]).Mul(x1))
	}
	var t0, t1, t2, t3 [4]float64
	p0.GetLo().Add(p0.GetHi()).Add(p1.GetLo().Add(p1.GetHi())).Store(&t0)
	q0.GetLo().Add(q0.GetHi()).Add(q1.GetLo().Add(q1.GetHi())).Store(&t1)
	u0.GetLo().Add(u0.GetHi()).Add(u1.GetLo().Add(u1.GetHi())).Store(&t2)
	w0.GetLo().Add(w0.GetHi()).Add(w1.GetLo().Add(w1.GetHi())).Store(&t3)
	archsimd.ClearAVXUpperBits()
	r0 = (t0[0] + t0[1]) + (t0[2] + t0[3])
	r1 = (t1[0] + t1[1]) + (t1[2] + t1[3])
	r2 = (t2[0] + t2[1]) + (t2[2] + t2[3])
	r3 = (t3[0] + t3[1]) + (t3[2] + t3[3])
	for j := n; j < len(a0); j++ {
		r0 += float64(a0[j] * x[j])
		r1 += float64(a1[j] * x[j])
		r2 += float64(a2[j] * x[j])
		r3 += float64(a3[j] * x[j])
	}
	return r0, r1, r2, r3
}

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

func dot(a, x []float64) float64 {
	if !avx2 || len(a) < 16 {
		return dotGo(a, x)
	}
	if avx512 {
		return dot512(a, x)
	}
	x = x[:len(a)]
	n := len(a) &^ 15
	var v0, v1, v2, v3 archsimd.Float64x4
	for j := 0; j < n; j += 16 {
		v0 = v0.Add(archsimd.LoadFloat64x4Slice(a[j : j+4]).Mul(archsimd.LoadFloat64x4Slice(x[j : j+4])))
		v1 = v1.Add(archsimd.LoadFloat64x4Slice(a[j+4 : j+8]).Mul(archsimd.LoadFloat64x4Slice(x[j+4 : j+8])))
		v2 = v2.Add(archsimd.LoadFloat64x4Slice(a[j+8 : j+12]).Mul(archsimd.LoadFloat64x4Slice(x[j+8 : j+12])))
		v3 = v3.Add(archsimd.LoadFloat64x4Slice(a[j+12 : j+16]).Mul(archsimd.LoadFloat64x4Slice(x[j+12 : j+16])))
	}
	var t [4]float64
	v0.Add(v1).Add(v2.Add(v3)).Store(&t)
	archsimd.ClearAVXUpperBits()
	acc := (t[0] + t[1]) + (t[2] + t[3])
	for j := n; j < len(a); j++ {
		acc += float64(a[j] * x[j])
	}
	return acc
}

// dot2 is dot for two rows at once, each with dot's partial sums.
func dot2(a, b, x []float64) (float64, float64) {
	if !avx2 || len(a) < 16 {
		return dotGo(a, x), dotGo(b[:len(a)], x)
	}
	if avx512 {
		return dot2x512(a, b, x)
	}
	n := len(a) &^ 15
	b, x = b[:len(a)], x[:len(a)]
	var v0, v1, v2, v3, w0, w1, w2, w3 archsimd.Float64x4
	for j := 0; j < n; j += 16 {
		x0 := archsimd.LoadFloat64x4Slice(x[j : j+4])
		v0 = v0.Add(archsimd.LoadFloat64x4Slice(a[j : j+4]).Mul(x0))
		w0 = w0.Add(archsimd.LoadFloat64x4Slice(b[j : j+4]).Mul(x0))
		x1 := archsimd.LoadFloat64x4Slice(x[j+4 : j+8])
		v1 = v1.Add(archsimd.LoadFloat64x4Slice(a[j+4 : j+8]).Mul(x1))
		w1 = w1.Add(archsimd.LoadFloat64x4Slice(b[j+4 : j+8]).Mul(x1))
		x2 := archsimd.LoadFloat64x4Slice(x[j+8 : j+12])
		v2 = v2.Add(archsimd.LoadFloat64x4Slice(a[j+8 : j+12]).Mul(x2))
		w2 = w2.Add(archsimd.LoadFloat64x4Slice(b[j+8 : j+12]).Mul(x2))
		x3 := archsimd.LoadFloat64x4Slice(x[j+12 : j+16])
		v3 = v3.Add(archsimd.LoadFloat64x4Slice(a[j+12 : j+16]).Mul(x3))
		w3 = w3.Add(archsimd.LoadFloat64x4Slice(b[j+12 : j+16]).Mul(x3))
	}
	var t, u [4]float64
	v0.Add(v1).Add(v2.Add(v3)).Store(&t)
	w0.Add(w1).Add(w2.Add(w3)).Store(&u)
	archsimd.ClearAVXUpperBits()
	s1 := (t[0] + t[1]) + (t[2] + t[3])
	s2 := (u[0] + u[1]) + (u[2] + u[3])
	for j := n; j < len(a); j++ {
		s1 += float64(a[j] * x[j])
		s2 += float64(b[j] * x[j])
	}
	return s1, s2
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

// ensDot2 computes the rates four at a time as axpyRelu does (the last
// len%4 with the scalar code) and accumulates the decoder products in
// dot's lanes: four 4-wide partial sums over whole 16-blocks, then the
// rest in order.
func ensDot2(a, bias, enc []float64, x, amp float64, d1, d2 []float64) (s1, s2 float64) {
	n := len(a)
	if !avx2 || n < 16 {
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
		d2 = d1 // read, never summed
	}
	d2 = d2[:n]
	xv := archsimd.BroadcastFloat64x4(x)
	av := archsimd.BroadcastFloat64x4(amp)
	var zero archsimd.Float64x4
	rate := func(i int) archsimd.Float64x4 {
		j := archsimd.LoadFloat64x4Slice(bias[i : i+4]).Add(archsimd.LoadFloat64x4Slice(enc[i : i+4]).Mul(xv))
		r := av.Mul(zero.Max(j))
		r.StoreSlice(a[i : i+4])
		return r
	}
	n16 := n &^ 15
	// one rate vector live at a time: eight accumulators, three
	// constants and two temporaries fit the sixteen registers (more
	// spills, and the spill code's SSE moves cost far more than the loop)
	var p0, p1, p2, p3, q0, q1, q2, q3 archsimd.Float64x4
	for i := 0; i < n16; i += 16 {
		r := rate(i)
		p0 = p0.Add(archsimd.LoadFloat64x4Slice(d1[i : i+4]).Mul(r))
		q0 = q0.Add(archsimd.LoadFloat64x4Slice(d2[i : i+4]).Mul(r))
		r = rate(i + 4)
		p1 = p1.Add(archsimd.LoadFloat64x4Slice(d1[i+4 : i+8]).Mul(r))
		q1 = q1.Add(archsimd.LoadFloat64x4Slice(d2[i+4 : i+8]).Mul(r))
		r = rate(i + 8)
		p2 = p2.Add(archsimd.LoadFloat64x4Slice(d1[i+8 : i+12]).Mul(r))
		q2 = q2.Add(archsimd.LoadFloat64x4Slice(d2[i+8 : i+12]).Mul(r))
		r = rate(i + 12)
		p3 = p3.Add(archsimd.LoadFloat64x4Slice(d1[i+12 : i+16]).Mul(r))
		q3 = q3.Add(archsimd.LoadFloat64x4Slice(d2[i+12 : i+16]).Mul(r))
	}
	for i := n16; i < n&^3; i += 4 {
		rate(i)
	}
	var t, u [4]float64
	p0.Add(p1).Add(p2.Add(p3)).Store(&t)
	q0.Add(q1).Add(q2.Add(q3)).Store(&u)
	archsimd.ClearAVXUpperBits()
	axpyReluGo(a[n&^3:], bias[n&^3:], enc[n&^3:], x, amp)
	s1 = (t[0] + t[1]) + (t[2] + t[3])
	s2 = (u[0] + u[1]) + (u[2] + u[3])
	for j := n16; j < n; j++ {
		s1 += float64(d1[j] * a[j])
		s2 += float64(d2[j] * a[j])
	}
	if !two {
		s2 = 0
	}
	return s1, s2
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
