package blas

// elem is the element type of the generic level-3 code.
type elem interface{ ~float32 | ~float64 }

// kernel is a micro-kernel: fn computes the mr×nr block C = A·B + beta·C
// from k steps of packed panels (A: mr values per step, B: nr per step),
// C row-major with row stride ldc; with beta = 0 it does not read C.
type kernel[T elem] struct {
	name string // e.g. "AVX-512 12×16"
	isa  string // "AVX-512", "AVX2", "NEON", "Go"
	mr   int
	nr   int
	fn   func(k int, a, b, c *T, ldc int, beta T)
}

// kernels64 and kernels32 are the usable micro-kernels, slowest first:
// the portable Go one, then those the CPU supports (kern_amd64.go).
var (
	kernels64 = []kernel[float64]{{name: "Go 4×4", isa: "Go", mr: 4, nr: 4, fn: goKernel4x4[float64]}}
	kernels32 = []kernel[float32]{{name: "Go 4×4", isa: "Go", mr: 4, nr: 4, fn: goKernel4x4[float32]}}
)

// kern64 and kern32 are the micro-kernels in use: the fastest usable one
// (the architecture's init sets it; tests set others through useKernel).
var (
	kern64 = kernels64[0]
	kern32 = kernels32[0]
)

// useKernel selects the i-th usable micro-kernel of each precision (0:
// portable Go) and returns a function restoring the previous ones. For
// tests.
func useKernel(i int) (restore func()) {
	k64, k32 := kern64, kern32
	kern64 = kernels64[min(i, len(kernels64)-1)]
	kern32 = kernels32[min(i, len(kernels32)-1)]
	return func() { kern64, kern32 = k64, k32 }
}

// Kernel describes the micro-kernels in use, e.g. "AVX-512 12×16
// (float64), AVX-512 12×32 (float32)".
func Kernel() string {
	return kern64.name + " (float64), " + kern32.name + " (float32)"
}

// ISA is the instruction set of the float64 micro-kernel in use:
// "AVX-512", "AVX2", "NEON" or "Go".
func ISA() string { return kern64.isa }

// goKernel4x4 is the portable micro-kernel (mr = nr = 4): sixteen
// accumulators the compiler keeps in registers.
func goKernel4x4[T elem](k int, a, b, c *T, ldc int, beta T) {
	ap := unsafeSlice(a, 4*k)
	bp := unsafeSlice(b, 4*k)
	var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 T
	for p := 0; p < k; p++ {
		av := ap[4*p : 4*p+4 : 4*p+4]
		bv := bp[4*p : 4*p+4 : 4*p+4]
		a0, a1, a2, a3 := av[0], av[1], av[2], av[3]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
	}
	cp := unsafeSlice(c, 3*ldc+4)
	acc := [16]T{c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33}
	for i := range 4 {
		row := cp[i*ldc : i*ldc+4 : i*ldc+4]
		if beta == 0 {
			copy(row, acc[4*i:4*i+4])
			continue
		}
		for j := range 4 {
			row[j] = acc[4*i+j] + beta*row[j]
		}
	}
}
