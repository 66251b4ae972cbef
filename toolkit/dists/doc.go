// Package dists holds the random distributions of Nengo 4.1
// (nengo.dists) that parameterise ensembles: Uniform, Gaussian, Choice,
// UniformHypersphere (volume or surface), ScatteredHypersphere,
// Exponential and Samples (fixed arrays).
//
// Every Distribution samples n×d values row-major from an explicit
// *rand.Rand (math/rand/v2; the builder seeds a PCG from the object's
// seed), so results depend only on the seed. They follow Nengo's
// definitions, not NumPy's random bits: the same seed in Nengo and
// neurogo gives different draws from the same distribution. Invalid
// parameters return a *validate.Error (package toolkit/validate) naming
// the distribution, field, value and rule; nothing panics. The exact
// ScatteredHypersphere (MethodSCT, seconds for large draws) stops on the
// process's interrupt flag (package interrupt) with an error wrapping
// interrupt.ErrInterrupted; the other distributions are fast and do not
// check it.
//
//	rng := rand.New(rand.NewPCG(1, 2))
//	enc, err := dists.UniformHypersphere{Surface: true}.Sample(50, 2, rng) // 50 unit vectors
package dists
