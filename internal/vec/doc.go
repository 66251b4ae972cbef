// Package vec holds the inner loops of the CPU simulator: element-wise
// products, rectification, axpy and dot products over float64 slices.
//
// # Variants
//
// Every loop has a portable Go version and, on amd64, two in Go
// assembly (Plan 9 syntax, no cgo, no GOEXPERIMENT):
//
//   - AVX-512 (AVX-512F): 8-wide vectors; element-wise loops end with
//     one masked block instead of a scalar tail. The minibatch kernels
//     that share loads between lanes (DotRowsLanes's four and five
//     lanes, EnsOct1Lanes2's two) exist for AVX-512 only; with AVX2
//     they run lane by lane through the AVX2 kernels.
//   - AVX2 with FMA: 4-wide vectors; the last n mod 4 elements of the
//     element-wise loops run in Go.
//   - portable Go loops (portable.go, generic.go): everything else, and
//     the reference the vector code is tested against.
//
// On arm64 the NEON kernels (neon_arm64.s, two lanes per register) take
// the vector code's place.
//
// All give bit-identical results, but for the sign of a zero: where
// Go's max gives +0 for a −0 input the vector max keeps −0, and
// CountPositive's largest current may be −0 where Go's is +0. Dot sums element
// j into partial sum j mod 16 with a fused multiply-add (math.FMA in the
// Go loops), padding the last block of sixteen with zeros (0·0 + s =
// s + 0), and combines the partial sums lane-wise as (s[l] + s[4+l]) +
// (s[8+l] + s[12+l]), then (t0 + t1) + (t2 + t3): the AVX-512 kernels
// hold the sixteen sums in two 8-wide vectors, the AVX2 ones in four
// 4-wide vectors. Everything that sums in Dot's order (Dot2, Dot4,
// DotRows, DotRowsLanes, the decoder sums of EnsDot2 and EnsOct) does
// exactly that; the other loops round every product before adding it.
//
// # Dispatch
//
// At start-up the package reads the CPU's features (internal/cpufeat:
// CPUID, and XGETBV for the vector state the operating system saves)
// and runs the highest level available: AVX-512 needs AVX-512F with the
// opmask and ZMM state enabled, AVX2 needs AVX2 and FMA with the YMM
// state. Each exported loop picks its kernel by an integer compare.
// Every kernel ends with VZEROUPPER, since Go's scalar float code is SSE
// and SSE after 256- or 512-bit code with dirty upper halves ran 3–10×
// slower; ClearUpper does the same after foreign code (cgo BLAS).
// Kernels names what runs, and why it is not the highest level.
//
// The environment variable NEUROGO_VEC caps the level for a whole
// process, for side-by-side measurements of one binary:
// NEUROGO_VEC=portable, avx2 or avx512 on amd64, portable or neon on
// arm64 (a value above what the CPU has changes nothing; an unknown
// value is ignored and shown by Kernels).
//
// The build tag purego compiles the portable loops only (no assembly),
// as do architectures without kernels of their own.
package vec
