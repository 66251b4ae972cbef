// Package vec holds the inner loops of the CPU simulator: element-wise
// products, rectification, axpy and dot products over float64 slices.
//
// Built with GOEXPERIMENT=simd on amd64 and run on a CPU with AVX2, the
// loops use 4-wide vectors (simd/archsimd); otherwise portable Go loops.
// Both give bit-identical results: every product is rounded before it is
// added (no fused multiply-add) and Dot sums lane j mod 4 into partial sum
// j mod 4, then combines (s0 + s1) + (s2 + s3) and adds the tail in order.
package vec
