//go:build !purego

package blas

// The arm64 micro-kernels (kern_arm64.s, written by asmgen_arm64.py):
// C (4×nr, row-major, row stride ldc) = A·B + beta·C over k steps of
// packed panels with NEON FMLA, 16 accumulator registers; beta = 0 does
// not read C. Advanced SIMD is part of arm64.

//go:noescape
func dkern4x8neon(k int, a, b, c *float64, ldc int, beta float64)

//go:noescape
func skern4x16neon(k int, a, b, c *float32, ldc int, beta float32)

func init() {
	kernels64 = append(kernels64, kernel[float64]{name: "NEON 4×8", isa: "NEON", mr: 4, nr: 8, fn: dkern4x8neon})
	kernels32 = append(kernels32, kernel[float32]{name: "NEON 4×16", isa: "NEON", mr: 4, nr: 16, fn: skern4x16neon})
	kern64, kern32 = kernels64[len(kernels64)-1], kernels32[len(kernels32)-1]
}
