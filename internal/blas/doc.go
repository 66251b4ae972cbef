// Package blas is dense linear algebra without cgo: an implementation of
// gonum's blas.Float64 and blas.Float32 interfaces that embeds gonum's
// pure-Go BLAS (gonum.org/v1/gonum/blas/gonum) and replaces the level-3
// routines that dominate the decoder solves and the float32 training
// products — Dgemm, Dsyrk, Dtrsm and Sgemm, Ssyrk, Strsm — with packed,
// cache-blocked products on assembly micro-kernels.
//
// The design is the classic one of "Anatomy of High-Performance Matrix
// Multiplication" (Kazushige Goto and Robert A. van de Geijn, 2008) and
// of BLIS ("BLIS: A Framework for Rapidly Instantiating BLAS
// Functionality", Field G. Van Zee and Robert A. van de Geijn, 2015):
// five loops around a micro-kernel. A kc×nc panel of op(B) is packed into
// micro-panels of nr columns, an mc×kc block of alpha·op(A) into
// micro-panels of mr rows (both zero-padded, so every transpose reaches
// the kernel in the same layout), and the micro-kernel accumulates an
// mr×nr block of C in registers over kc steps, then adds beta·C (beta = 0
// never reads C, so NaN there does not propagate). Blocks at the edges of
// C go through a scratch tile. Large products are split across
// GOMAXPROCS goroutines in row (or column) blocks of C, each packing its
// own panels. Dsyrk is the same loops restricted to the triangle
// (micro-tiles outside it skipped, those across its edge through the
// scratch tile), split in blocks of equal area. Dtrsm (side Left) solves
// column blocks of B in parallel, each by blocked substitution: gonum's
// kernel on 32-row diagonal blocks, gemm for the updates; side Right
// runs gonum's Dtrsm on row blocks of B in parallel.
//
// Micro-kernels (chosen at run time: the fastest that the CPU and the OS
// support, as internal/cpufeat reads them from CPUID and XGETBV):
//
//	AVX-512F       12×16 float64, 12×32 float32 (24 ZMM accumulators)
//	AVX2 + FMA     6×8 float64, 6×16 float32 (12 YMM accumulators)
//	arm64 NEON     4×8 float64, 4×16 float32 (16 accumulators, FMLA)
//	portable Go    4×4, on every architecture, and with the build tag purego
//
// On amd64 the packing runs in assembly too: rows of a stored matrix are
// copied panel by panel with AVX moves, and float64 panels of a
// transposed operand go through AVX-512 8×8 transposes (Go loops
// elsewhere, and for float32 transposes). A small op(A) (m ≤ 384) with a
// single kc step is packed once for all column blocks of C. Every amd64
// kernel and pack routine ends with VZEROUPPER. gonum's LAPACK (its blocked
// Dpotrf, used by the Cholesky decoder solves) runs on whatever blas64
// holds, so with blas64.Use(blas.Float64{}) the factorisations run on
// these kernels too.
//
// Results agree with gonum's and with a plain triple loop to rounding
// (error within k·ε·|A|·|B| elementwise), not bit for bit: the summation
// order depends on the kernel and the block sizes. Invalid arguments
// panic with gonum's messages, as every BLAS does.
//
//	blas64.Use(blas.Float64{})            // the whole process
//	blas.Float64{Threads: 1}.Dgemm(...)   // one call on this goroutine
package blas
