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

func relu(out, J []float64, amp float64) {
	if !avx2 {
		reluGo(out, J, amp)
		return
	}
	out = out[:len(J)]
	n := len(J) &^ 3
	zero := archsimd.BroadcastFloat64x4(0)
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
	zero := archsimd.BroadcastFloat64x4(0)
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
