// Package vec holds the inner loops of the CPU simulator: element-wise
// products, rectification, axpy and dot products over float64 slices.
//
// Built with GOEXPERIMENT=simd on amd64 and run on a CPU with AVX2 and
// FMA, the loops use 4- or 8-wide vectors (simd/archsimd, and AVX-512
// assembly for the minibatch products DotRowsLanes and the one-row
// octets EnsOct); otherwise portable Go loops. All give bit-identical
// results. Dot sums element j into partial sum j mod 16 with a fused
// multiply-add (math.FMA in the Go loops), padding the last block of
// sixteen with zeros (0·0 + s = s + 0), and combines the partial sums
// lane-wise as (s[l] + s[4+l]) + (s[8+l] + s[12+l]), then (t0 + t1) +
// (t2 + t3). Everything that sums in Dot's order (Dot2, Dot4, DotRows,
// DotRowsLanes, the decoder sums of EnsDot2 and EnsOct) does exactly
// that; the other loops round every product before adding it.
package vec
