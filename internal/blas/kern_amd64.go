//go:build !purego

package blas

import "github.com/neurogo/neurogo/internal/cpufeat"

// The amd64 micro-kernels (kern_amd64.s, written by asmgen.py): C (mr×nr,
// row-major, row stride ldc) = A·B + beta·C over k steps of packed panels
// (A: mr values per step, B: nr values per step), beta = 0 not reading C.
// Each ends with VZEROUPPER.

//go:noescape
func dkern12x16avx512(k int, a, b, c *float64, ldc int, beta float64)

//go:noescape
func skern12x32avx512(k int, a, b, c *float32, ldc int, beta float32)

//go:noescape
func dkern6x8avx2(k int, a, b, c *float64, ldc int, beta float64)

//go:noescape
func skern6x16avx2(k int, a, b, c *float32, ldc int, beta float32)

// init adds the kernels the CPU and the OS support (internal/cpufeat
// reads CPUID and XGETBV).
func init() {
	avx2 := cpufeat.X86.HasAVX2 && cpufeat.X86.HasFMA
	avx512 := avx2 && cpufeat.X86.HasAVX512F
	if avx2 {
		kernels64 = append(kernels64, kernel[float64]{name: "AVX2+FMA 6×8", isa: "AVX2", mr: 6, nr: 8, fn: dkern6x8avx2})
		kernels32 = append(kernels32, kernel[float32]{name: "AVX2+FMA 6×16", isa: "AVX2", mr: 6, nr: 16, fn: skern6x16avx2})
	}
	if avx512 {
		kernels64 = append(kernels64, kernel[float64]{name: "AVX-512 12×16", isa: "AVX-512", mr: 12, nr: 16, fn: dkern12x16avx512})
		kernels32 = append(kernels32, kernel[float32]{name: "AVX-512 12×32", isa: "AVX-512", mr: 12, nr: 32, fn: skern12x32avx512})
	}
	kern64, kern32 = kernels64[len(kernels64)-1], kernels32[len(kernels32)-1]
}
