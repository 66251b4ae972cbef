// Package vec holds the inner loops of the CPU simulator: element-wise
// products, rectification, axpy and dot products over float64 slices.
//
// Built with GOEXPERIMENT=simd on amd64 and run on a CPU with AVX2, the
// loops use 4-wide vectors (simd/archsimd); otherwise portable Go loops.
// Both give bit-identical results: every product is rounded before it is
// added (no fused multiply-add) and Dot sums element j into partial sum
// j mod 16, combines them as four 4-wide vectors (v0 + v1) + (v2 + v3),
// the four lanes as (t0 + t1) + (t2 + t3), and adds the tail in order.
package vec
