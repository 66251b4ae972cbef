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
//   - NoSolver: constant decoders (zeros by default).
//
// Every solver has W (Nengo's weights=True): the builder then folds the
// post encoders into a full weight matrix.
//
// Solve never modifies A or Y and returns an *Error instead of panicking.
// Decoders from the same A and Y match Nengo's to ~1e-13 relative
// (sim/parity_test.go; issue 3 requires 1e-6).
//
//	X, err := solvers.NewLstsqL2().Solve(A, Y)
package solvers
