//go:build !purego

package layers

import "github.com/neurogo/neurogo/internal/cpufeat"

// The float32 products' conversions in assembly (conv32_amd64.s), chosen
// by the CPU's features: with AVX-512 eight values per instruction, with
// AVX2 four (VCVTPD2PS rounds to nearest as float32(v) does, VCVTPS2PD is
// exact, VADDPD rounds as the scalar addition: the same values as the Go
// loops). The Go loops do the tails (fewer than eight or four values) and
// everything on other CPUs. The assembly ends with VZEROUPPER before
// scalar code runs (see internal/vec).

// Conversion kernels, in conv32Impl.
const (
	conv32Go = iota
	conv32AVX2
	conv32AVX512
)

// conv32Impl is the kernel to32, add32 and biasAdd32 use: the widest the
// CPU and OS support (tests set it to each in turn).
var conv32Impl = func() int {
	switch {
	case cpufeat.X86.HasAVX512F:
		return conv32AVX512
	case cpufeat.X86.HasAVX2:
		return conv32AVX2
	}
	return conv32Go
}()

// conv32Variants lists the kernels this CPU can run, the Go loops first.
func conv32Variants() []conv32Variant {
	v := []conv32Variant{{"go", conv32Go}}
	if cpufeat.X86.HasAVX2 {
		v = append(v, conv32Variant{"avx2", conv32AVX2})
	}
	if cpufeat.X86.HasAVX512F {
		v = append(v, conv32Variant{"avx512", conv32AVX512})
	}
	return v
}

type conv32Variant struct {
	name string
	impl int
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

// conv32Block is the number of values the kernel conv32Impl takes at a
// time (0: the Go loops).
func conv32Block() int {
	switch conv32Impl {
	case conv32AVX512:
		return 8
	case conv32AVX2:
		return 4
	}
	return 0
}

// to32 rounds src to float32 into dst.
func to32(dst []float32, src []float64) {
	b := conv32Block()
	if b == 0 || len(src) < b {
		to32Go(dst, src)
		return
	}
	dst = dst[:len(src)]
	n := len(src) &^ (b - 1)
	if b == 8 {
		to32AVX512(&dst[0], &src[0], n)
	} else {
		to32AVX2(&dst[0], &src[0], n)
	}
	to32Go(dst[n:], src[n:])
}

// add32 adds src to dst.
func add32(dst []float64, src []float32) {
	b := conv32Block()
	if b == 0 || len(src) < b {
		add32Go(dst, src)
		return
	}
	dst = dst[:len(src)]
	n := len(src) &^ (b - 1)
	if b == 8 {
		add32AVX512(&dst[0], &src[0], n)
	} else {
		add32AVX2(&dst[0], &src[0], n)
	}
	add32Go(dst[n:], src[n:])
}

// biasAdd32 sets dst = bias + src.
func biasAdd32(dst, bias []float64, src []float32) {
	b := conv32Block()
	if b == 0 || len(src) < b {
		biasAdd32Go(dst, bias, src)
		return
	}
	dst, bias = dst[:len(src)], bias[:len(src)]
	n := len(src) &^ (b - 1)
	if b == 8 {
		biasAdd32AVX512(&dst[0], &bias[0], &src[0], n)
	} else {
		biasAdd32AVX2(&dst[0], &bias[0], &src[0], n)
	}
	biasAdd32Go(dst[n:], bias[n:], src[n:])
}
