package blas

import (
	"runtime"
	"strings"

	"github.com/neurogo/neurogo/internal/cpufeat"
)

// OpenBLAS with dynamic architecture support chooses its kernels from the
// CPU model when it is loaded; a library older than the CPU falls back to
// generic ones (measured: OpenBLAS 0.3.21 on a recent AVX-512 Xeon chose
// its SSE3 "Prescott" kernels, 2.4–5× slower than these at the decoder
// and convolution shapes). The builds with -tags openblas ask
// OpenBLASMismatch whether the kernels it chose use the CPU's vectors and
// run on this package's otherwise.

// avx512Cores and avx2Cores are OpenBLAS core names (openblas_get_corename,
// lower case) whose kernels use 512-bit and at least 256-bit FMA vectors.
var (
	avx512Cores = []string{"skylakex", "cooperlake", "sapphirerapids"}
	avx2Cores   = []string{"haswell", "zen", "skylakex", "cooperlake", "sapphirerapids", "excavator"}
)

// OpenBLASMismatch returns why the OpenBLAS kernels named core (as
// openblas_get_corename gives it, e.g. "Prescott" or "SkylakeX") use
// narrower vectors than this CPU has — then this package's kernels are the
// faster choice — or "" when they fit the CPU (and on architectures
// other than amd64, where OpenBLAS is kept).
func OpenBLASMismatch(core string) string {
	return openBLASMismatch(runtime.GOARCH, cpufeat.X86.HasAVX512F, cpufeat.X86.HasAVX2 && cpufeat.X86.HasFMA, core)
}

func openBLASMismatch(arch string, avx512, avx2 bool, core string) string {
	if arch != "amd64" {
		return ""
	}
	c := strings.ToLower(strings.TrimSpace(core))
	in := func(names []string) bool {
		for _, n := range names {
			if c == n {
				return true
			}
		}
		return false
	}
	switch {
	case avx512 && !in(avx512Cores):
		return "OpenBLAS chose its " + core + " kernels, which do not use this CPU's AVX-512 (OPENBLAS_CORETYPE=SkylakeX forces its AVX-512 ones)"
	case avx2 && !in(avx2Cores):
		return "OpenBLAS chose its " + core + " kernels, which do not use this CPU's AVX2 and FMA (OPENBLAS_CORETYPE=Haswell forces its AVX2 ones)"
	}
	return ""
}
