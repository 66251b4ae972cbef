// Package solvers finds decoders for decoded connections, as Nengo 4.1's
// nengo.solvers do: given activities A (m eval points × n neurons, Hz) and
// targets Y (m × d), find X (n × d) with A·X ≈ Y.
//
//   - LstsqL2 (Nengo's default, Reg 0.1): sigma = Reg·max(A); solves
//     (AᵀA + m·sigma²·I)·X = AᵀY by Cholesky (gonum), or the dual form
//     Aᵀ(AAᵀ + m·sigma²·I)⁻¹Y when m < n — Nengo's Cholesky solver.
//   - LstsqL2nz: per-neuron sigma scaled by sqrt(fraction of active points).
//   - Lstsq: minimum-norm least squares by SVD with Rcond truncation.
//   - LstsqNoise: least squares on activities perturbed by Gaussian noise
//     (Noise·max(A)), seeded by Seed.
//   - Nnls, NnlsL2: non-negative least squares (Lawson–Hanson), plain or
//     on the regularised Gram system as Nengo's NnlsL2.
//   - NnlsL2nz: NnlsL2 with LstsqL2nz's per-neuron sigma
//     (Reg·max(A)·sqrt(fraction of points where the neuron is active);
//     1 for a neuron that is never active, as Nengo sets it).
//   - NoSolver: constant decoders (zeros by default).
//
// Every solver has W (Nengo's weights=True): the builder then folds the
// post encoders into a full weight matrix.
//
// Solve never modifies A or Y and returns a *validate.Error (package
// toolkit/validate) instead of panicking.
//
// Solvers check the process's interrupt flag (package interrupt) — every
// row of SolveBlocks' first pass, between row blocks, between the tasks of
// a block's Gram update and between NNLS iterations — and return an error
// wrapping interrupt.ErrInterrupted when it is set. A Cholesky
// factorisation, an SVD and one Gram task are single calls, checked only
// before and after: an interrupt waits for the one running (the
// factorisation of the largest ensembles takes seconds).
// Decoders from the same A and Y match Nengo's to ~1e-13 relative
// (sim/parity_test.go requires 1e-6).
//
//	X, err := solvers.NewLstsqL2().Solve(A, Y)
//
// # Large decodes
//
// The Cholesky solvers form only the upper triangle of the Gram matrix
// (BLAS syrk into the storage that LAPACK's potrf then factorises in
// place) and AᵀY by gemm: one k×k matrix, k = min(m, n), besides A and Y.
// LstsqL2 and LstsqL2nz are also BlockSolvers: SolveBlocks reads A in row
// blocks (Blocks) twice — once for max(A), the active counts and the silent
// neurons, once to accumulate AᵀA and AᵀY — so A is never held whole, and
// silent neurons (zero columns, whose decoders are exactly zero) are left
// out of the Gram matrix. The builder uses it: the pes benchmark's
// 9984-neuron ensemble with Nengo's 19968 eval points builds in 0.4–0.5 GiB
// peak RSS (Nengo 4.1: 6.3 GB). Its cost is m·k² + k³/3 flops for k
// non-silent neurons: 0.9–1.2 TFLOP there (k ≈ 6450 at D = 192, 7430 at
// D = 64), against 2.3 TFLOP for the full system.
//
// Rectified-linear activities go further (Affine, Counter, ColumnBlocks,
// which the builder's activities implement for RectifiedLinear and
// SpikingRectifiedLinear): the first pass only counts positive currents
// (one vector pass over X·Eᵀ, no rates); a neuron active at every eval
// point is affine in the features [x 1], so the Gram blocks of these
// "linear" neurons come from ZᵀZ, ZᵀA_N and ZᵀY (d+1 features), and
// their block — a diagonal plus a rank-(d+1) term — is eliminated before
// the factorisation (Schur complement with the Woodbury identity): the
// second pass reads only the k_N mixed neurons, for m·k_N²/2 + k_N³/3
// flops. In the pes benchmark at D = 192, 3581 of the 6436 active
// neurons are linear: 0.16 TFLOP instead of 1.1. The decoders equal the
// plain solve's to 1e-9 relative (TestAffineSolve).
//
// # BLAS backends
//
// By default every BLAS and LAPACK call runs without cgo: blas64 holds
// internal/blas, gonum's pure-Go BLAS whose level-3 routines (Dgemm,
// Dsyrk, Dtrsm) run on packed assembly micro-kernels (AVX-512 or AVX2+FMA
// where the CPU has them, portable Go otherwise, or with the build tag
// purego), on GOMAXPROCS goroutines; gonum's blocked LAPACK (Dpotrf, the
// Cholesky factorisation) runs on top of them. The build tag openblas
// routes gonum's blas64 — and with it mat and gonum's blocked LAPACK — to
// OpenBLAS through cgo (gonum.org/v1/netlib), and factorises with
// OpenBLAS's own dpotrf. It needs a C compiler and OpenBLAS (Debian:
// apt-get install libopenblas-dev):
//
//	go build -tags openblas ./cmd/neurogo
//	go test -tags openblas ./toolkit/solvers ./sim/...
//
// `neurogo bench blas` measures both at the solvers' shapes.
//
// OpenBLAS uses one thread per core unless OPENBLAS_NUM_THREADS says
// otherwise; BLAS() reports the implementation and its thread count.
//
// # Cost
//
// The decoder solve dominates the build of large ensembles; its float64
// floor is its flop count over the BLAS rate. For the pes benchmark at
// D = 192 that is about 1.1 TFLOP with the silent-neuron shortcut and
// 0.16 TFLOP with the rectified-linear path. Two benchmarks measure it,
// with or without the tag:
//
//	go test ./sim/bench -run '^$' -bench 'BuildPES/D=192$' -benchtime 1x
//	go test ./toolkit/solvers -run '^$' -bench LstsqL2 -benchtime 1x
//
// BuildPES is the whole build with sim.Build (eval points, activities,
// decode); LstsqL2 the solve alone on a dense 19968×9984 problem
// (2.4 TFLOP).
package solvers
