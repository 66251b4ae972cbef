//go:build !purego

package neurons

import (
	"math"

	"github.com/neurogo/neurogo/internal/cpufeat"
)

// LIFRateDeriv's and LIFRateDeriv32's vector kernels in AVX-512 assembly
// (softlif_amd64.s), used where the CPU and the OS support AVX-512 F and
// DQ (VCVTQQ2PD, the 8-bit opmask instructions); elsewhere, and with the
// build tag purego, the scalar loop does everything.
//
// lifDerivAVX512 takes sixteen currents at a time as two blocks of eight
// (their dependency chains interleaved: the operations are latency-bound
// one block at a time) and evaluates LIFRate's rate and SoftLIFRate's
// derivative by softLIF's middle case, with vector exp and log1p:
//
//   - exp(x), |x| ≤ 36 (at least): x = k·ln2 + r with |r| ≤ ln2/2
//     (Cody–Waite: ln2 in two parts, the products fused), e^r by its
//     Taylor polynomial to degree 13 in Estrin's scheme (truncation below
//     5e-18), scaled by 2^k (VSCALEFPD).
//   - log1p(u), finite u ≥ 0: log(v) of v = fl(1+u) plus the first-order
//     correction (u − (v−1))/v for the rounding of v (exact where u is
//     tiny); log(v) is fdlibm's e_log.c as Go's math.log (v = 2^k·z with
//     z in [√2/2, √2), f = z − 1, s = f/(2+f), log(1+f) = f − hfsq +
//     s·(hfsq + R(s²))).
//   - reciprocals: VRCP14PD's 14-bit estimate refined by two
//     Newton–Raphson steps r += r·(1 − b·r) with fused products.
//   - the derivative a·τ_rc·w/((1+p)·d²), w = e/((1+e)·sp·σ), is one
//     division.
//
// Lanes outside the vector formulas' domain (|j/σ| > 36, NaN, ±Inf,
// 0 < j < 1e-300, p < 1e-300) are flagged and recomputed with the scalar
// functions, so that every value there is exactly Step's and Deriv's.
// lifDeriv32AVX512 is the same in float32 arithmetic, blocks of sixteen
// lanes (two at a time, interleaved): j = J−1 and x = j/σ in float64 (J
// is near 1), rounded to float32, then float32 exp (Taylor to degree 7,
// Cephes's split of ln 2), musl's logf, and one Newton–Raphson step on
// VRCP14PS; it flags |x| > 36, p < 1e-30, 0 < j < 1e-30, and j > 0 whose
// float32 is not. The values are defined by these operations in this
// order (the tests hold them to stored results bit for bit). Both end
// with VZEROUPPER. There is no AVX2 variant: VRCP14PD's estimates,
// VSCALEFPD and VCVTQQ2PD have no AVX2 equivalents giving the same bits.

// LIFRateDeriv's kernels, in lifImpl.
const (
	lifPortable = iota
	lifAVX512
)

// lifImpl is the kernel LIFRateDeriv and LIFRateDeriv32 use (tests set
// it to each of lifVariants in turn).
var lifImpl = func() int {
	if cpufeat.X86.HasAVX512F && cpufeat.X86.HasAVX512DQ {
		return lifAVX512
	}
	return lifPortable
}()

type lifVariant struct {
	name string
	impl int
}

// lifVariants lists the kernels this CPU can run, the scalar loop first.
func lifVariants() []lifVariant {
	v := []lifVariant{{"portable", lifPortable}}
	if cpufeat.X86.HasAVX512F && cpufeat.X86.HasAVX512DQ {
		v = append(v, lifVariant{"avx512", lifAVX512})
	}
	return v
}

// lifChunk is the number of sixteen-current blocks per assembly call
// (the flags of the lanes to fix up come back in an array of this size).
const lifChunk = 32

// lifConsts64 holds lifDerivAVX512's constants, at the offsets the
// assembly names (C_…).
var lifConsts64 = func() (c [30]float64) {
	const (
		log2e = 1.4426950408889634
		ln2Hi = 6.93147180559945286227e-01 // float64(ln 2)
		ln2Lo = 2.319046813846299558e-17   // ln 2 − ln2Hi
	)
	c[0], c[1], c[2] = 1, 2, 0.5
	c[3], c[4], c[5] = log2e, -ln2Hi, -ln2Lo
	// fdlibm's e_log.c (Go's math.log)
	c[6] = math.Float64frombits(0x3fe6a09e667f3bcd) // bits of √2/2, subtracted as an integer
	c[7], c[8] = 6.93147180369123816490e-01, 1.90821492927058770002e-10
	copy(c[9:16], []float64{6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
		2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01})
	f := 1.0 // Taylor coefficients 1/n!
	for n := range 14 {
		if n > 0 {
			f *= float64(n)
		}
		c[16+n] = 1 / f
	}
	return c
}()

// lifConsts32 holds lifDeriv32AVX512's constants (C32_…).
var lifConsts32 = func() (c [21]float32) {
	c[0], c[1], c[2] = 1, 2, 0.5
	// Cody–Waite split of ln 2 for float32 (Cephes expf)
	c[3], c[4], c[5] = 1.44269504088896341, -0.693359375, 2.12194440e-4
	// musl's logf (fdlibm e_logf.c with a degree-4 polynomial)
	c[6] = math.Float32frombits(0x3f3504f3) // bits of √2/2
	c[7], c[8] = 6.9313812256e-01, 9.0580006145e-06
	c[9], c[10], c[11], c[12] = 0.66666662693, 0.40000972152, 0.28498786688, 0.24279078841
	f := 1.0
	for n := range 8 {
		if n > 0 {
			f *= float64(n)
		}
		c[13+n] = float32(1 / f)
	}
	return c
}()

// lifParams64 is a SoftLIFRate's parameters for lifDerivAVX512 (P_…):
// σ, τ_rc, τ_ref, amplitude, amplitude·τ_rc, 36, −36, 1e-300.
type lifParams64 [8]float64

// lifParams32 is a SoftLIFRate's parameters for lifDeriv32AVX512 (Q_…).
type lifParams32 struct {
	sigma64, lim, negLim, tiny64, one64 float64
	sigma, tauRC, tauRef, amp, ampTauRC float32
	tiny                                float32
}

// lifDerivAVX512 writes out and d for n > 0 blocks of sixteen currents
// and each block's lanes to fix up to bad[0:n].
//
//go:noescape
func lifDerivAVX512(c *[30]float64, p *lifParams64, J, out, d *float64, n int, bad *uint16)

// lifDeriv32AVX512 is lifDerivAVX512 in float32 arithmetic.
//
//go:noescape
func lifDeriv32AVX512(c *[21]float32, p *lifParams32, J, out, d *float64, n int, bad *uint16)

// lifRateSoftDerivVec computes LIFRateDeriv with the AVX-512 kernel and
// returns how many currents it did: all of them, or 0 without AVX-512.
func lifRateSoftDerivVec(t SoftLIFRate, J, out, d []float64) int {
	if lifImpl != lifAVX512 || len(J) == 0 {
		return 0
	}
	p := lifParams64{t.Sigma, t.TauRC, t.TauRef, t.Amplitude, t.Amplitude * t.TauRC, 36, -36, 1e-300}
	return lifRun(t, J, out, d, &p, nil)
}

// lifRateSoftDeriv32Vec computes LIFRateDeriv32 with the float32 AVX-512
// kernel and returns how many currents it did (0 without AVX-512).
func lifRateSoftDeriv32Vec(t SoftLIFRate, J, out, d []float64) int {
	if lifImpl != lifAVX512 || len(J) == 0 {
		return 0
	}
	p := lifParams32{sigma64: t.Sigma, lim: 36, negLim: -36, tiny64: 1e-30, one64: 1,
		sigma: float32(t.Sigma), tauRC: float32(t.TauRC), tauRef: float32(t.TauRef), amp: float32(t.Amplitude),
		ampTauRC: float32(t.Amplitude * t.TauRC), tiny: 1e-30}
	return lifRun(t, J, out, d, nil, &p)
}

// lifRun runs lifDerivAVX512 with p64 (or lifDeriv32AVX512 with p32 when
// p64 is nil) over J in blocks of sixteen, the tail padded with J = 1 (so
// that a value does not depend on where it sits in J), and recomputes the
// flagged lanes with the scalar functions.
func lifRun(t SoftLIFRate, J, out, d []float64, p64 *lifParams64, p32 *lifParams32) int {
	kernel := func(J, out, d *float64, n int, bad *uint16) {
		if p64 != nil {
			lifDerivAVX512(&lifConsts64, p64, J, out, d, n, bad)
		} else {
			lifDeriv32AVX512(&lifConsts32, p32, J, out, d, n, bad)
		}
	}
	out, d = out[:len(J)], d[:len(J)]
	logSigma := math.Log(t.Sigma)
	var bad [lifChunk]uint16
	n := len(J) &^ 15
	for i := 0; i < n; i += 16 * lifChunk {
		nb := min(lifChunk, (n-i)/16)
		kernel(&J[i], &out[i], &d[i], nb, &bad[0])
		for b, m := range bad[:nb] {
			if m != 0 {
				k := i + 16*b
				lifFix(t, logSigma, J[k:k+16], out[k:k+16], d[k:k+16], m)
			}
		}
	}
	if r := len(J) - n; r > 0 {
		var jb, ob, db [16]float64
		for i := range jb {
			jb[i] = 1
		}
		copy(jb[:], J[n:])
		kernel(&jb[0], &ob[0], &db[0], 1, &bad[0])
		lifFix(t, logSigma, jb[:], ob[:], db[:], bad[0])
		copy(out[n:], ob[:r])
		copy(d[n:], db[:r])
	}
	return len(J)
}

// lifFix recomputes the lanes marked in bad with the scalar functions
// (Step's and Deriv's values).
func lifFix(t SoftLIFRate, logSigma float64, J, out, d []float64, bad uint16) {
	for l := range 16 {
		if bad&(1<<l) != 0 {
			out[l] = lifRate(J[l], t.TauRC, t.TauRef, t.Amplitude)
			d[l] = softLIFDerivAt(J[l], t.Sigma, t.TauRC, t.TauRef, t.Amplitude, logSigma)
		}
	}
}
