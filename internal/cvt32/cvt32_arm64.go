//go:build !purego

package cvt32

import "github.com/neurogo/neurogo/internal/cpufeat"

// The kernels in cvt32_arm64.s, eight values per iteration in Advanced
// SIMD registers of two: FCVTN rounds to nearest as float32(v) does
// (FPCR's rounding mode, which Go leaves at its default), FCVTL is exact,
// FADD rounds as the scalar addition.

// variants lists the kernels this CPU can run, the Go loops first.
func variants() []variant {
	v := []variant{{"go", implGo, 0}}
	if cpufeat.ARM64.HasASIMD {
		v = append(v, variant{"neon", implNEON, 8})
	}
	return v
}

// impl is the kernel in use (tests set it to each of variants in turn).
var impl = func() int {
	v := variants()
	return v[len(v)-1].impl
}()

func blockOf(impl int) int {
	if impl == implNEON {
		return 8
	}
	return 0
}

// The assembly kernels take n > 0, a multiple of 8.

//go:noescape
func to32NEON(dst *float32, src *float64, n int)

//go:noescape
func add32NEON(dst *float64, src *float32, n int)

//go:noescape
func biasAdd32NEON(dst, bias *float64, src *float32, n int)

func to32Asm(dst []float32, src []float64) { to32NEON(&dst[0], &src[0], len(src)) }

func add32Asm(dst []float64, src []float32) { add32NEON(&dst[0], &src[0], len(src)) }

func biasAdd32Asm(dst, bias []float64, src []float32) {
	biasAdd32NEON(&dst[0], &bias[0], &src[0], len(src))
}
