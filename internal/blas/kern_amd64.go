//go:build !purego

package blas

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

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// cpuFeatures reports whether AVX2 with FMA and AVX-512F are usable: the
// CPU has them (CPUID) and the OS saves the YMM and ZMM state (XGETBV).
func cpuFeatures() (avx2, avx512 bool) {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false, false
	}
	xcr0, _ := xgetbv()
	if xcr0&0x6 != 0x6 { // SSE and YMM state
		return false, false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	avx2 = ebx7&(1<<5) != 0
	avx512 = avx2 && ebx7&(1<<16) != 0 && xcr0&0xe6 == 0xe6 // opmask, ZMM0-15 upper, ZMM16-31
	return avx2, avx512
}

func init() {
	avx2, avx512 := cpuFeatures()
	if avx2 {
		kernels64 = append(kernels64, kernel[float64]{name: "AVX2+FMA 6×8", isa: "AVX2", mr: 6, nr: 8, fn: dkern6x8avx2})
		kernels32 = append(kernels32, kernel[float32]{name: "AVX2+FMA 6×16", isa: "AVX2", mr: 6, nr: 16, fn: skern6x16avx2})
	}
	if avx512 {
		kernels64 = append(kernels64, kernel[float64]{name: "AVX-512 12×16", isa: "AVX-512", mr: 12, nr: 16, fn: dkern12x16avx512})
		kernels32 = append(kernels32, kernel[float32]{name: "AVX-512 12×32", isa: "AVX-512", mr: 12, nr: 32, fn: skern12x32avx512})
	}
}
