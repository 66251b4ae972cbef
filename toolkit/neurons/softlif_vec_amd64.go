//go:build goexperiment.simd && amd64

package neurons

import (
	"math"
	"simd/archsimd"
)

// vecLIF: the 8-wide kernels need AVX-512 (F and DQ: VCVTQQ2PD, VSCALEFPD,
// VRNDSCALEPD).
var vecLIF = archsimd.X86.AVX512()

// lifRateSoftDerivVec computes LIFRateDeriv sixteen currents at a time
// and returns how many it did:
// all of them, or 0 without AVX-512. Lanes outside the vector formulas'
// domain (|j/σ| > 36, NaN, ±Inf, |j| < 1e-300 above threshold, p < 1e-300)
// are recomputed with the scalar functions, so that every value there is
// exactly Step's and Deriv's.
func lifRateSoftDerivVec(t SoftLIFRate, J, out, d []float64) int {
	if !vecLIF || len(J) == 0 {
		return 0
	}
	out, d = out[:len(J)], d[:len(J)]
	k := newLIFKernel(t)
	n := len(J) &^ 15
	for i := 0; i < n; i += 16 {
		o0, d0, o1, d1, bad0, bad1 := k.eval(archsimd.LoadFloat64x8Slice(J[i:i+8]), archsimd.LoadFloat64x8Slice(J[i+8:i+16]))
		o0.StoreSlice(out[i : i+8])
		d0.StoreSlice(d[i : i+8])
		o1.StoreSlice(out[i+8 : i+16])
		d1.StoreSlice(d[i+8 : i+16])
		if bad0|bad1 != 0 {
			archsimd.ClearAVXUpperBits()
			k.fix(J[i:i+8], out[i:i+8], d[i:i+8], bad0)
			k.fix(J[i+8:i+16], out[i+8:i+16], d[i+8:i+16], bad1)
		}
	}
	if r := len(J) - n; r > 0 {
		// the tail through the same kernel (padded with J = 1), so a
		// value does not depend on where it sits in J
		var jb, ob, db [16]float64
		for i := range jb {
			jb[i] = 1
		}
		copy(jb[:], J[n:])
		o0, d0, o1, d1, bad0, bad1 := k.eval(archsimd.LoadFloat64x8Slice(jb[:8]), archsimd.LoadFloat64x8Slice(jb[8:]))
		o0.StoreSlice(ob[:8])
		d0.StoreSlice(db[:8])
		o1.StoreSlice(ob[8:])
		d1.StoreSlice(db[8:])
		archsimd.ClearAVXUpperBits()
		k.fix(jb[:8], ob[:8], db[:8], bad0)
		k.fix(jb[8:], ob[8:], db[8:], bad1)
		copy(out[n:], ob[:r])
		copy(d[n:], db[:r])
	}
	archsimd.ClearAVXUpperBits()
	return len(J)
}

type lifKernel struct {
	t        SoftLIFRate
	logSigma float64
	c        *vconst
	// the type's parameters
	sigma, tauRC, tauRef, amp, ampTauRC, lim, negLim, tiny archsimd.Float64x8
}

// vconst holds the vector constants of exp8, log8 and recip8 (broadcast
// once, vconsts).
type vconst struct {
	zero, one, two, half, negOne archsimd.Float64x8
	log2e, negLn2Hi, negLn2Lo    archsimd.Float64x8
	taylor                       [14]archsimd.Float64x8
	off                          archsimd.Int64x8
	lnHi, lnLo                   archsimd.Float64x8
	l                            [8]archsimd.Float64x8 // l[1..7]
}

func newLIFKernel(t SoftLIFRate) lifKernel {
	b := archsimd.BroadcastFloat64x8
	return lifKernel{t: t, logSigma: math.Log(t.Sigma), c: &vconsts,
		sigma: b(t.Sigma), tauRC: b(t.TauRC), tauRef: b(t.TauRef), amp: b(t.Amplitude),
		ampTauRC: b(t.Amplitude * t.TauRC), lim: b(36), negLim: b(-36), tiny: b(1e-300)}
}

// vconsts is vconst's one value.
var vconsts = func() (c vconst) {
	if !vecLIF {
		return c
	}
	b := archsimd.BroadcastFloat64x8
	c.one, c.two, c.half, c.negOne = b(1), b(2), b(0.5), b(-1)
	const (
		log2e = 1.4426950408889634
		ln2Hi = 6.93147180559945286227e-01 // float64(ln 2)
		ln2Lo = 2.319046813846299558e-17   // ln 2 − ln2Hi
	)
	c.log2e, c.negLn2Hi, c.negLn2Lo = b(log2e), b(-ln2Hi), b(-ln2Lo)
	for i, v := range expTaylor {
		c.taylor[i] = b(v)
	}
	// fdlibm's e_log.c (Go's math.log)
	c.off = archsimd.BroadcastInt64x8(0x3fe6a09e667f3bcd) // bits of √2/2
	c.lnHi, c.lnLo = b(6.93147180369123816490e-01), b(1.90821492927058770002e-10)
	for i, v := range []float64{0, 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
		2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01} {
		c.l[i] = b(v)
	}
	archsimd.ClearAVXUpperBits()
	return c
}()

// fix recomputes the lanes marked in bad with the scalar functions.
func (k *lifKernel) fix(J, out, d []float64, bad uint8) {
	t := k.t
	for l := range 8 {
		if bad&(1<<l) != 0 {
			out[l] = lifRate(J[l], t.TauRC, t.TauRef, t.Amplitude)
			d[l] = softLIFDerivAt(J[l], t.Sigma, t.TauRC, t.TauRef, t.Amplitude, k.logSigma)
		}
	}
}

// eval is LIFRate's rate and SoftLIFRate's derivative for two blocks
// of eight currents by softLIF's middle case, with vector exp and log1p,
// and the lanes where that does not apply. The derivative
// a·τ_rc·w/((1+p)·d²), w = e/((1+e)·sp·σ), is one division; the other
// reciprocals are Newton–Raphson refinements of VRCP14PD (recip8). The
// two blocks' dependency chains are interleaved (the operations are
// latency-bound one block at a time).
func (k *lifKernel) eval(cur0, cur1 archsimd.Float64x8) (out0, d0, out1, d1 archsimd.Float64x8, bad0, bad1 uint8) {
	c := k.c
	j0, j1 := cur0.Sub(c.one), cur1.Sub(c.one)
	x0, x1 := j0.Div(k.sigma), j1.Div(k.sigma)
	ok0 := x0.GreaterEqual(k.negLim).And(x0.LessEqual(k.lim))
	ok1 := x1.GreaterEqual(k.negLim).And(x1.LessEqual(k.lim))
	// SoftLIFRate: sp = log1p(e), p = σ·sp, q = log1p(1/p)
	e0 := c.exp8(x0)
	e1 := c.exp8(x1)
	// LIFRate: amplitude/(τ_ref + τ_rc·log1p(1/j)) for j > 0, else 0
	pos0, pos1 := j0.Greater(c.zero), j1.Greater(c.zero)
	small0 := pos0.And(j0.Less(k.tiny)) // 1/j may overflow
	small1 := pos1.And(j1.Less(k.tiny))
	i0, i1 := c.recip8(j0.Merge(c.one, pos0)), c.recip8(j1.Merge(c.one, pos1))
	sp0, sp1 := c.log1p8x2(e0, e1)
	ql0, ql1 := c.log1p8x2(i0, i1)
	p0, p1 := k.sigma.Mul(sp0), k.sigma.Mul(sp1)
	ok0, ok1 = ok0.And(p0.GreaterEqual(k.tiny)), ok1.And(p1.GreaterEqual(k.tiny))
	q0, q1 := c.log1p8x2(c.recip8(p0), c.recip8(p1))
	den0, den1 := k.tauRef.Add(k.tauRC.Mul(q0)), k.tauRef.Add(k.tauRC.Mul(q1))
	d0 = k.ampTauRC.Mul(e0).Div(c.one.Add(e0).Mul(sp0).Mul(k.sigma).Mul(c.one.Add(p0)).Mul(den0).Mul(den0))
	d1 = k.ampTauRC.Mul(e1).Div(c.one.Add(e1).Mul(sp1).Mul(k.sigma).Mul(c.one.Add(p1)).Mul(den1).Mul(den1))
	out0 = k.amp.Div(k.tauRef.Add(k.tauRC.Mul(ql0))).Masked(pos0)
	out1 = k.amp.Div(k.tauRef.Add(k.tauRC.Mul(ql1))).Masked(pos1)
	return out0, d0, out1, d1, ^ok0.ToBits() | small0.ToBits(), ^ok1.ToBits() | small1.ToBits()
}

// recip8 is 1/b for normal b (|b| < 2^1022): VRCP14PD's 14-bit estimate
// refined by two Newton–Raphson steps r += r·(1 − b·r) with fused
// products (to about an ulp).
func (c *vconst) recip8(b archsimd.Float64x8) archsimd.Float64x8 {
	nb := c.zero.Sub(b)
	r := b.Reciprocal()
	r = r.MulAdd(nb.MulAdd(r, c.one), r)
	return r.MulAdd(nb.MulAdd(r, c.one), r)
}

// exp8 is e^x for |x| ≤ 36 (at least): x = k·ln2 + r with |r| ≤ ln2/2
// (Cody–Waite: ln2 in two parts, the products fused), e^r by its Taylor
// polynomial to degree 13 (truncation below 5e-18), scaled by 2^k.
// Accurate to about an ulp for the arguments eval passes.
func (c *vconst) exp8(x archsimd.Float64x8) archsimd.Float64x8 {
	kd := x.Mul(c.log2e).RoundToEvenScaled(0)
	r := kd.MulAdd(c.negLn2Hi, x)
	r = kd.MulAdd(c.negLn2Lo, r)
	// Estrin's scheme (a shorter dependency chain than Horner's)
	t := &c.taylor
	r2 := r.Mul(r)
	r4 := r2.Mul(r2)
	r8 := r4.Mul(r4)
	a0, a1 := t[1].MulAdd(r, t[0]), t[3].MulAdd(r, t[2])
	a2, a3 := t[5].MulAdd(r, t[4]), t[7].MulAdd(r, t[6])
	a4, a5 := t[9].MulAdd(r, t[8]), t[11].MulAdd(r, t[10])
	a6 := t[13].MulAdd(r, t[12])
	b0, b1 := a1.MulAdd(r2, a0), a3.MulAdd(r2, a2)
	b2 := a5.MulAdd(r2, a4)
	o0, o1 := b1.MulAdd(r4, b0), a6.MulAdd(r4, b2)
	return o1.MulAdd(r8, o0).Scale(kd)
}

// expTaylor[n] = 1/n!
var expTaylor = func() (c [14]float64) {
	f := 1.0
	for n := range c {
		if n > 0 {
			f *= float64(n)
		}
		c[n] = 1 / f
	}
	return
}()

// log1p8x2 is log(1+u) for two vectors of finite u ≥ 0: log(v) of
// v = fl(1+u), plus the first-order correction (u − (v−1))/v for the
// rounding of v (exact where u is tiny: log v = 0, correction u).
func (c *vconst) log1p8x2(u0, u1 archsimd.Float64x8) (archsimd.Float64x8, archsimd.Float64x8) {
	v0, v1 := c.one.Add(u0), c.one.Add(u1)
	r0, r1 := c.recip8(v0), c.recip8(v1)
	l0 := c.log8(v0)
	l1 := c.log8(v1)
	return l0.Add(u0.Sub(v0.Sub(c.one)).Mul(r0)), l1.Add(u1.Sub(v1.Sub(c.one)).Mul(r1))
}

// log8 is log(v) for normal positive finite v, fdlibm's e_log.c as Go's
// math.log: v = 2^k·z with z in [√2/2, √2) (musl's exponent split),
// f = z − 1, s = f/(2+f), log(1+f) = f − hfsq + s·(hfsq + R(s²)).
func (c *vconst) log8(v archsimd.Float64x8) archsimd.Float64x8 {
	ix := v.AsInt64x8()
	ki := ix.Sub(c.off).ShiftAllRight(52)
	z := ix.Sub(ki.ShiftAllLeft(52)).AsFloat64x8()
	kf := ki.ConvertToFloat64()
	f := z.Sub(c.one)
	s := f.Mul(c.recip8(c.two.Add(f)))
	s2 := s.Mul(s)
	s4 := s2.Mul(s2)
	l := &c.l
	t1 := s2.Mul(l[1].Add(s4.Mul(l[3].Add(s4.Mul(l[5].Add(s4.Mul(l[7])))))))
	t2 := s4.Mul(l[2].Add(s4.Mul(l[4].Add(s4.Mul(l[6])))))
	R := t1.Add(t2)
	hfsq := c.half.Mul(f).Mul(f)
	// k·ln2Hi − ((hfsq − (s·(hfsq+R) + k·ln2Lo)) − f)
	inner := s.Mul(hfsq.Add(R)).Add(kf.Mul(c.lnLo))
	return kf.Mul(c.lnHi).Sub(hfsq.Sub(inner).Sub(f))
}

// --- float32 (LIFRateDeriv32) ---

// lifKernel32 is lifKernel in float32 arithmetic, sixteen lanes.
type lifKernel32 struct {
	t        SoftLIFRate
	logSigma float64
	c        *vconst32
	// float64 parameters (x = (J−1)/σ and the domain tests are float64)
	sigma64, lim, negLim, tiny64 archsimd.Float64x8
	one64                        archsimd.Float64x8
	sigma, tauRC, tauRef, amp    archsimd.Float32x16
	ampTauRC, tiny               archsimd.Float32x16
}

// vconst32 holds exp16's and log16's constants.
type vconst32 struct {
	zero, one, two, half           archsimd.Float32x16
	log2e, negLn2Hi, negLn2Lo      archsimd.Float32x16
	taylor                         [8]archsimd.Float32x16
	off                            archsimd.Int32x16
	lnHi, lnLo, lg1, lg2, lg3, lg4 archsimd.Float32x16
}

var vconsts32 = func() (c vconst32) {
	if !vecLIF {
		return c
	}
	b := archsimd.BroadcastFloat32x16
	c.one, c.two, c.half = b(1), b(2), b(0.5)
	// Cody–Waite split of ln 2 for float32 (Cephes expf)
	c.log2e, c.negLn2Hi, c.negLn2Lo = b(1.44269504088896341), b(-0.693359375), b(2.12194440e-4)
	f := 1.0
	for n := range c.taylor {
		if n > 0 {
			f *= float64(n)
		}
		c.taylor[n] = b(float32(1 / f))
	}
	// musl's logf (fdlibm e_logf.c with a degree-4 polynomial)
	c.off = archsimd.BroadcastInt32x16(0x3f3504f3) // bits of √2/2
	c.lnHi, c.lnLo = b(6.9313812256e-01), b(9.0580006145e-06)
	c.lg1, c.lg2, c.lg3, c.lg4 = b(0.66666662693), b(0.40000972152), b(0.28498786688), b(0.24279078841)
	archsimd.ClearAVXUpperBits()
	return c
}()

func newLIFKernel32(t SoftLIFRate) lifKernel32 {
	b, b64 := archsimd.BroadcastFloat32x16, archsimd.BroadcastFloat64x8
	return lifKernel32{t: t, logSigma: math.Log(t.Sigma), c: &vconsts32,
		sigma64: b64(t.Sigma), lim: b64(36), negLim: b64(-36), tiny64: b64(1e-30), one64: b64(1),
		sigma: b(float32(t.Sigma)), tauRC: b(float32(t.TauRC)), tauRef: b(float32(t.TauRef)), amp: b(float32(t.Amplitude)),
		ampTauRC: b(float32(t.Amplitude * t.TauRC)), tiny: b(1e-30)}
}

// lifRateSoftDeriv32Vec is lifRateSoftDerivVec with lifKernel32.
func lifRateSoftDeriv32Vec(t SoftLIFRate, J, out, d []float64) int {
	if !vecLIF || len(J) == 0 {
		return 0
	}
	out, d = out[:len(J)], d[:len(J)]
	k := newLIFKernel32(t)
	n := len(J) &^ 15
	for i := 0; i < n; i += 16 {
		bad := k.eval(J[i:i+16], out[i:i+16], d[i:i+16])
		if bad != 0 {
			archsimd.ClearAVXUpperBits()
			k.fix(J[i:i+16], out[i:i+16], d[i:i+16], bad)
		}
	}
	if r := len(J) - n; r > 0 {
		var jb, ob, db [16]float64
		for i := range jb {
			jb[i] = 1
		}
		copy(jb[:], J[n:])
		bad := k.eval(jb[:], ob[:], db[:])
		archsimd.ClearAVXUpperBits()
		k.fix(jb[:], ob[:], db[:], bad)
		copy(out[n:], ob[:r])
		copy(d[n:], db[:r])
	}
	archsimd.ClearAVXUpperBits()
	return len(J)
}

// fix recomputes the lanes marked in bad in float64 (Step's and Deriv's values).
func (k *lifKernel32) fix(J, out, d []float64, bad uint16) {
	t := k.t
	for l := range 16 {
		if bad&(1<<l) != 0 {
			out[l] = lifRate(J[l], t.TauRC, t.TauRef, t.Amplitude)
			d[l] = softLIFDerivAt(J[l], t.Sigma, t.TauRC, t.TauRef, t.Amplitude, k.logSigma)
		}
	}
}

// eval is lifKernel.eval for sixteen currents in float32: j = J−1 and
// x = j/σ in float64 (J is near 1), rounded to float32, then the same
// formulas with exp16 and log16; it writes out and d and returns the
// lanes outside the float32 domain (|x| > 36, p or 0 < j below 1e-30).
func (k *lifKernel32) eval(J, out, d []float64) uint16 {
	c := k.c
	j0 := archsimd.LoadFloat64x8Slice(J[:8]).Sub(k.one64)
	j1 := archsimd.LoadFloat64x8Slice(J[8:16]).Sub(k.one64)
	x0, x1 := j0.Div(k.sigma64), j1.Div(k.sigma64)
	ok := uint16(x0.GreaterEqual(k.negLim).And(x0.LessEqual(k.lim)).ToBits()) |
		uint16(x1.GreaterEqual(k.negLim).And(x1.LessEqual(k.lim)).ToBits())<<8
	pos64 := uint16(j0.Greater(archsimd.Float64x8{}).ToBits()) | uint16(j1.Greater(archsimd.Float64x8{}).ToBits())<<8
	small := uint16(j0.Less(k.tiny64).ToBits()) | uint16(j1.Less(k.tiny64).ToBits())<<8
	var z archsimd.Float32x16
	x := z.SetLo(x0.ConvertToFloat32()).SetHi(x1.ConvertToFloat32())
	j := z.SetLo(j0.ConvertToFloat32()).SetHi(j1.ConvertToFloat32())
	e := c.exp16(x)
	pos := j.Greater(c.zero)
	inv := c.recip16(j.Merge(c.one, pos))
	sp, ql := c.log1p16(e), c.log1p16(inv)
	p := k.sigma.Mul(sp)
	ok &= p.GreaterEqual(k.tiny).ToBits()
	q := c.log1p16(c.recip16(p))
	den := k.tauRef.Add(k.tauRC.Mul(q))
	dv := k.ampTauRC.Mul(e).Div(c.one.Add(e).Mul(sp).Mul(k.sigma).Mul(c.one.Add(p)).Mul(den).Mul(den))
	ov := k.amp.Div(k.tauRef.Add(k.tauRC.Mul(ql))).Masked(pos)
	ov.GetLo().ConvertToFloat64().StoreSlice(out[:8])
	ov.GetHi().ConvertToFloat64().StoreSlice(out[8:16])
	dv.GetLo().ConvertToFloat64().StoreSlice(d[:8])
	dv.GetHi().ConvertToFloat64().StoreSlice(d[8:16])
	// j > 0 in float64 but not in float32, or 1/j overflowing: scalar
	return ^ok | (pos64 & small) | (pos64 &^ pos.ToBits())
}

// recip16 is 1/b (VRCP14PS refined by one Newton–Raphson step).
func (c *vconst32) recip16(b archsimd.Float32x16) archsimd.Float32x16 {
	r := b.Reciprocal()
	return r.MulAdd(c.zero.Sub(b).MulAdd(r, c.one), r)
}

// exp16 is e^x in float32 for |x| ≤ 36: Cody–Waite reduction, Taylor
// polynomial to degree 7 (truncation below 6e-9), scaled by 2^k.
func (c *vconst32) exp16(x archsimd.Float32x16) archsimd.Float32x16 {
	kd := x.Mul(c.log2e).RoundToEvenScaled(0)
	r := kd.MulAdd(c.negLn2Hi, x)
	r = kd.MulAdd(c.negLn2Lo, r)
	t := &c.taylor
	r2 := r.Mul(r)
	a0, a1 := t[1].MulAdd(r, t[0]), t[3].MulAdd(r, t[2])
	a2, a3 := t[5].MulAdd(r, t[4]), t[7].MulAdd(r, t[6])
	r4 := r2.Mul(r2)
	return a3.MulAdd(r2, a2).MulAdd(r4, a1.MulAdd(r2, a0)).Scale(kd)
}

// log1p16 is log(1+u) for finite u ≥ 0 in float32 (log1p8's method).
func (c *vconst32) log1p16(u archsimd.Float32x16) archsimd.Float32x16 {
	v := c.one.Add(u)
	return c.log16(v).Add(u.Sub(v.Sub(c.one)).Mul(c.recip16(v)))
}

// log16 is log(v) for normal positive finite float32 v (musl's logf).
func (c *vconst32) log16(v archsimd.Float32x16) archsimd.Float32x16 {
	ix := v.AsInt32x16()
	ki := ix.Sub(c.off).ShiftAllRight(23)
	zz := ix.Sub(ki.ShiftAllLeft(23)).AsFloat32x16()
	kf := ki.ConvertToFloat32()
	f := zz.Sub(c.one)
	s := f.Mul(c.recip16(c.two.Add(f)))
	z := s.Mul(s)
	w := z.Mul(z)
	R := z.Mul(c.lg1.Add(w.Mul(c.lg3))).Add(w.Mul(c.lg2.Add(w.Mul(c.lg4))))
	hfsq := c.half.Mul(f).Mul(f)
	return s.Mul(hfsq.Add(R)).Add(kf.Mul(c.lnLo)).Sub(hfsq).Add(f).Add(kf.Mul(c.lnHi))
}
