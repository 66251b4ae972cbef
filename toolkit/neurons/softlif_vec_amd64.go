//go:build goexperiment.simd && amd64

package neurons

import (
	"math"
	"simd/archsimd"
)

// vecLIF: the 8-wide kernels need AVX-512 (F and DQ: VCVTQQ2PD, VSCALEFPD,
// VRNDSCALEPD).
var vecLIF = archsimd.X86.AVX512()

// lifRateSoftDerivVec computes LIFRateDeriv eight currents at a time
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
	n := len(J) &^ 7
	for i := 0; i < n; i += 8 {
		o, dv, bad := k.eval(archsimd.LoadFloat64x8Slice(J[i : i+8]))
		o.StoreSlice(out[i : i+8])
		dv.StoreSlice(d[i : i+8])
		if bad != 0 {
			archsimd.ClearAVXUpperBits()
			k.fix(J[i:i+8], out[i:i+8], d[i:i+8], bad)
		}
	}
	if r := len(J) - n; r > 0 {
		// the tail through the same kernel (padded with J = 1), so a
		// value does not depend on where it sits in J
		var jb, ob, db [8]float64
		for i := range jb {
			jb[i] = 1
		}
		copy(jb[:], J[n:])
		o, dv, bad := k.eval(archsimd.LoadFloat64x8Slice(jb[:]))
		o.Store(&ob)
		dv.Store(&db)
		archsimd.ClearAVXUpperBits()
		k.fix(jb[:], ob[:], db[:], bad)
		copy(out[n:], ob[:r])
		copy(d[n:], db[:r])
	}
	archsimd.ClearAVXUpperBits()
	return len(J)
}

type lifKernel struct {
	t                                         SoftLIFRate
	logSigma                                  float64
	one, two, half, sigma, tauRC, tauRef, amp archsimd.Float64x8
	ampTauRC, lim, negLim, tiny               archsimd.Float64x8
}

func newLIFKernel(t SoftLIFRate) lifKernel {
	b := archsimd.BroadcastFloat64x8
	return lifKernel{t: t, logSigma: math.Log(t.Sigma),
		one: b(1), two: b(2), half: b(0.5), sigma: b(t.Sigma), tauRC: b(t.TauRC), tauRef: b(t.TauRef), amp: b(t.Amplitude),
		ampTauRC: b(t.Amplitude * t.TauRC), lim: b(36), negLim: b(-36), tiny: b(1e-300)}
}

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

// eval is LIFRate's rate and SoftLIFRate's derivative for eight
// currents, by softLIF's middle case (the same operations in the same
// order, with vector exp and log1p), and the lanes where that does not
// apply.
func (k *lifKernel) eval(cur archsimd.Float64x8) (out, d archsimd.Float64x8, bad uint8) {
	j := cur.Sub(k.one)
	x := j.Div(k.sigma)
	ok := x.GreaterEqual(k.negLim).And(x.LessEqual(k.lim))
	// SoftLIFRate: p = σ·log1p(e), w = e/((1+e)·sp)/σ, q = log1p(1/p)
	e := exp8(x)
	sp := log1p8(e)
	p := k.sigma.Mul(sp)
	ok = ok.And(p.GreaterEqual(k.tiny))
	onePe := k.one.Add(e)
	w := e.Div(onePe.Mul(sp)).Div(k.sigma)
	q := log1p8(k.one.Div(p))
	den := k.tauRef.Add(k.tauRC.Mul(q))
	d = k.ampTauRC.Mul(w).Div(k.one.Add(p).Mul(den).Mul(den))
	// LIFRate: amplitude/(τ_ref + τ_rc·log1p(1/j)) for j > 0, else 0
	pos := j.Greater(archsimd.Float64x8{})
	small := pos.And(j.Less(k.tiny)) // 1/j may overflow
	jj := j.Merge(k.one, pos)
	r := k.amp.Div(k.tauRef.Add(k.tauRC.Mul(log1p8(k.one.Div(jj)))))
	out = r.Masked(pos)
	return out, d, ^ok.ToBits() | small.ToBits()
}

// exp8 is e^x for |x| ≤ 36 (at least): x = k·ln2 + r with |r| ≤ ln2/2
// (Cody–Waite: ln2 in two parts, the products fused), e^r by its Taylor
// polynomial to degree 13 (truncation below 5e-18), scaled by 2^k.
func exp8(x archsimd.Float64x8) archsimd.Float64x8 {
	b := archsimd.BroadcastFloat64x8
	const (
		log2e = 1.4426950408889634
		ln2Hi = 6.93147180559945286227e-01 // float64(ln 2)
		ln2Lo = 2.319046813846299558e-17   // ln 2 − ln2Hi
	)
	kd := x.Mul(b(log2e)).RoundToEvenScaled(0)
	r := kd.MulAdd(b(-ln2Hi), x)
	r = kd.MulAdd(b(-ln2Lo), r)
	p := b(expTaylor[13])
	for i := 12; i >= 0; i-- {
		p = p.MulAdd(r, b(expTaylor[i]))
	}
	return p.Scale(kd)
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

// log1p8 is log(1+u) for finite u ≥ 0: log(v) of v = fl(1+u), plus the
// first-order correction (u − (v−1))/v for the rounding of v (exact
// where u is tiny: log v = 0, correction u).
func log1p8(u archsimd.Float64x8) archsimd.Float64x8 {
	one := archsimd.BroadcastFloat64x8(1)
	v := one.Add(u)
	c := u.Sub(v.Sub(one)).Div(v)
	return log8(v).Add(c)
}

// log8 is log(v) for normal positive finite v, fdlibm's e_log.c as Go's
// math.log: v = 2^k·z with z in [√2/2, √2) (musl's exponent split),
// f = z − 1, s = f/(2+f), log(1+f) = f − hfsq + s·(hfsq + R(s²)).
func log8(v archsimd.Float64x8) archsimd.Float64x8 {
	b := archsimd.BroadcastFloat64x8
	const (
		off   = 0x3fe6a09e667f3bcd // bits of √2/2
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		l1    = 6.666666666666735130e-01
		l2    = 3.999999999940941908e-01
		l3    = 2.857142874366239149e-01
		l4    = 2.222219843214978396e-01
		l5    = 1.818357216161805012e-01
		l6    = 1.531383769920937332e-01
		l7    = 1.479819860511658591e-01
	)
	ix := v.AsInt64x8()
	tmp := ix.Sub(archsimd.BroadcastInt64x8(off))
	ki := tmp.ShiftAllRight(52)
	z := ix.Sub(ki.ShiftAllLeft(52)).AsFloat64x8()
	kf := ki.ConvertToFloat64()
	f := z.Sub(b(1))
	s := f.Div(b(2).Add(f))
	s2 := s.Mul(s)
	s4 := s2.Mul(s2)
	t1 := s2.Mul(b(l1).Add(s4.Mul(b(l3).Add(s4.Mul(b(l5).Add(s4.Mul(b(l7))))))))
	t2 := s4.Mul(b(l2).Add(s4.Mul(b(l4).Add(s4.Mul(b(l6))))))
	R := t1.Add(t2)
	hfsq := b(0.5).Mul(f).Mul(f)
	// k·ln2Hi − ((hfsq − (s·(hfsq+R) + k·ln2Lo)) − f)
	inner := s.Mul(hfsq.Add(R)).Add(kf.Mul(b(ln2Lo)))
	return kf.Mul(b(ln2Hi)).Sub(hfsq.Sub(inner).Sub(f))
}
