// Package cvt32 converts between float64 and float32 vectors for the
// float32 matrix products of toolkit/layers: To32 rounds to float32,
// Add32 and BiasAdd32 add float32 results to float64 ones.
//
// The values are exactly the scalar Go loops' (float32(v) rounds to
// nearest, float64(v) is exact, the additions round as Go's): on amd64
// the loops run in assembly with AVX-512 (eight values per instruction)
// or AVX2 (four), on arm64 with Advanced SIMD (two), chosen at run time
// by the CPU's features (internal/cpufeat); elsewhere, on other CPUs and
// with the build tag purego they are the Go loops. The package has no
// cgo, so that its Go assembly can be linked into packages that have
// (toolkit/layers with the openblas tag).
package cvt32
