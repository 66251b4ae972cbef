//go:build openblas

package frames

// With the build tag openblas the package links OpenBLAS, so that its tests
// and benchmarks (openblas_test.go routes blas64 to gonum's netlib cgo
// binding) build without extra flags: go test -tags openblas ./sim/frames.

// #cgo LDFLAGS: -lopenblas
import "C"
