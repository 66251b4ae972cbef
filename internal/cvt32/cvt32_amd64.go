//go:build !purego

package cvt32

import "github.com/neurogo/neurogo/internal/cpufeat"

// The kernels in cvt32_amd64.s: VCVTPD2PS rounds to nearest as
// float32(v) does, VCVTPS2PD is exact, VADDPD rounds as the scalar
// addition. Each ends with VZEROUPPER before scalar code runs (see
// internal/vec).

// variants lists the kernels this CPU can run, the Go loops first.
func variants() []variant {
	v := []variant{{"go", implGo, 0}}
	if cpufeat.X86.HasAVX2 {
		v = append(v, variant{"avx2", implAVX2, 4})
	}
	if cpufeat.X86.HasAVX512F {
		v = append(v, variant{"avx512", implAVX512, 8})
	}
	return v
}

// impl is the kernel in use: the widest the CPU and OS support (tests set
// it to each of variants in turn).
var impl = func() int {
	v := variants()
	return v[len(v)-1].impl
}()

func blockOf(impl int) int {
	switch impl {
	case implAVX512:
		return 8
	case implAVX2:
		return 4
	}
	return 0
}

// The assembly kernels take n > 0, a multiple of 8 (AVX-512) or 4 (AVX2).

//go:noescape
func to32AVX512(dst *float32, src *float64, n int)

//go:noescape
func add32AVX512(dst *float64, src *float32, n int)

//go:noescape
func biasAdd32AVX512(dst, bias *float64, src *float32, n int)

//go:noescape
func to32AVX2(dst *float32, src *float64, n int)

//go:noescape
func add32AVX2(dst *float64, src *float32, n int)

//go:noescape
func biasAdd32AVX2(dst, bias *float64, src *float32, n int)

// to32Asm, add32Asm and biasAdd32Asm run impl's kernel on slices of the
// same length, a positive multiple of its width.
func to32Asm(dst []float32, src []float64) {
	if impl == implAVX512 {
		to32AVX512(&dst[0], &src[0], len(src))
	} else {
		to32AVX2(&dst[0], &src[0], len(src))
	}
}

func add32Asm(dst []float64, src []float32) {
	if impl == implAVX512 {
		add32AVX512(&dst[0], &src[0], len(src))
	} else {
		add32AVX2(&dst[0], &src[0], len(src))
	}
}

func biasAdd32Asm(dst, bias []float64, src []float32) {
	if impl == implAVX512 {
		biasAdd32AVX512(&dst[0], &bias[0], &src[0], len(src))
	} else {
		biasAdd32AVX2(&dst[0], &bias[0], &src[0], len(src))
	}
}
