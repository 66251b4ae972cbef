package layers

import "github.com/neurogo/neurogo/internal/cvt32"

// The float32 products' conversions: internal/cvt32's (AVX-512, AVX2 or
// NEON assembly where the CPU has it, the Go loops for the rest; the same
// values as the Go loops). The assembly lives in its own package because
// this one uses cgo with the openblas tag.

// to32 rounds src to float32 into dst.
func to32(dst []float32, src []float64) { cvt32.To32(dst, src) }

// add32 adds src to dst.
func add32(dst []float64, src []float32) { cvt32.Add32(dst, src) }

// biasAdd32 sets dst = bias + src.
func biasAdd32(dst, bias []float64, src []float32) { cvt32.BiasAdd32(dst, bias, src) }
