//go:build goexperiment.simd && amd64

package layers

import "simd/archsimd"

// The float32 products' conversions eight values at a time with AVX-512
// (VCVTPD2PS rounds to nearest as float32(v) does, VCVTPS2PD is exact:
// the same values as the scalar loops). Each ends with VZEROUPPER before
// scalar code runs (see internal/vec).

var avx512 = archsimd.X86.AVX512()

// to32 rounds src to float32 into dst.
func to32(dst []float32, src []float64) {
	if !avx512 || len(src) < 8 {
		to32Go(dst, src)
		return
	}
	dst = dst[:len(src)]
	n := len(src) &^ 7
	for i := 0; i < n; i += 8 {
		archsimd.LoadFloat64x8Slice(src[i : i+8]).ConvertToFloat32().StoreSlice(dst[i : i+8])
	}
	archsimd.ClearAVXUpperBits()
	to32Go(dst[n:], src[n:])
}

// add32 adds src to dst.
func add32(dst []float64, src []float32) {
	if !avx512 || len(src) < 8 {
		add32Go(dst, src)
		return
	}
	dst = dst[:len(src)]
	n := len(src) &^ 7
	for i := 0; i < n; i += 8 {
		d := archsimd.LoadFloat64x8Slice(dst[i : i+8])
		d.Add(archsimd.LoadFloat32x8Slice(src[i : i+8]).ConvertToFloat64()).StoreSlice(dst[i : i+8])
	}
	archsimd.ClearAVXUpperBits()
	add32Go(dst[n:], src[n:])
}

// biasAdd32 sets dst = bias + src.
func biasAdd32(dst, bias []float64, src []float32) {
	if !avx512 || len(src) < 8 {
		biasAdd32Go(dst, bias, src)
		return
	}
	dst, bias = dst[:len(src)], bias[:len(src)]
	n := len(src) &^ 7
	for i := 0; i < n; i += 8 {
		b := archsimd.LoadFloat64x8Slice(bias[i : i+8])
		b.Add(archsimd.LoadFloat32x8Slice(src[i : i+8]).ConvertToFloat64()).StoreSlice(dst[i : i+8])
	}
	archsimd.ClearAVXUpperBits()
	biasAdd32Go(dst[n:], bias[n:], src[n:])
}
