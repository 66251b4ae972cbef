package dists

import (
	"fmt"
	"github.com/neurogo/neurogo/internal/vec"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// rdPhi returns φ_d, the positive root of x^(d+1) = x + 1 (the golden
// ratio for d = 1), by Newton's method from x = 1 as
// nengo.dists.QuasirandomSequence does (tolerance 1e-10, then one more
// step has converged to rounding).
func rdPhi(d int) float64 {
	x := 1.0
	for range 100 {
		dx := (math.Pow(x, float64(d+1)) - x - 1) / (float64(d+1)*math.Pow(x, float64(d)) - 1)
		x -= dx
		if math.Abs(dx) < 1e-10 {
			break
		}
	}
	return x
}

// frac is math.Mod(x, 1) for finite x >= 0, and as exact (the
// fractional part of a float64 is representable), but without Mod's
// bit-by-bit long division (NumPy's x % 1, fmod, is exact too).
func frac(x float64) float64 { return x - math.Floor(x) }

// rdSequence writes the un-shuffled R_d points (Roberts 2018) with offset
// s: row i-1 is (s + i·α) mod 1, i = 1…n, α_j = φ_d^-(j+1). In one
// dimension it tiles [0, 1) evenly: (s + i/n) mod 1, i = 0…n-1. This is
// nengo.dists.QuasirandomSequence before its shuffle.
func rdSequence(n, d int, s []float64) []float64 {
	out := make([]float64, n*d)
	if d == 1 {
		for i := range n {
			out[i] = frac(s[0] + (1/float64(n))*float64(i))
		}
		return out
	}
	inv := 1 / rdPhi(d)
	alpha := make([]float64, d)
	for j := range alpha {
		alpha[j] = math.Pow(inv, float64(j+1))
	}
	for i := range n {
		for j := range d {
			out[i*d+j] = frac(s[j] + float64(i+1)*alpha[j])
		}
	}
	return out
}

// quasirandom is Nengo's QuasirandomSequence.sample: a random offset
// U[0, 1)^d from rng, the R_d points, rows shuffled.
func quasirandom(n, d int, rng *rand.Rand) []float64 {
	s := make([]float64, d)
	for j := range s {
		s[j] = rng.Float64()
	}
	out := rdSequence(n, d, s)
	rng.Shuffle(n, func(a, b int) {
		for j := range d {
			out[a*d+j], out[b*d+j] = out[b*d+j], out[a*d+j]
		}
	})
	return out
}

// betaCurve holds the knots with which "sct-approx" interpolates
// B⁻¹(·; dims/2, 1/2) for one angle (betaLookup).
// start[b] is the last knot at or below b/betaBuckets: for x in
// [b, b+1)/betaBuckets the bracketing knots lie in
// xp[start[b] : start[b+1]+2].
type betaCurve struct {
	xp, yp []float64
	start  []int32
}

// betaBuckets is the number of buckets of betaCurve.start.
const betaBuckets = 256

func newBetaCurve(xp, yp []float64) betaCurve {
	c := betaCurve{xp: xp, yp: yp, start: make([]int32, betaBuckets+1)}
	j := 0
	for b := range c.start {
		edge := float64(b) / betaBuckets
		for j+1 < len(xp) && xp[j+1] <= edge {
			j++
		}
		c.start[b] = int32(j)
	}
	return c
}

// at is interp(x, c.xp, c.yp), the bracketing knots found from x's bucket.
func (c *betaCurve) at(x float64) float64 {
	if !(x >= 0 && x < 1) {
		return interp(x, c.xp, c.yp)
	}
	b := int(x * betaBuckets)
	lo, hi := int(c.start[b]), int(c.start[b+1])+2
	if hi > len(c.xp) {
		hi = len(c.xp)
	}
	return interp(x, c.xp[lo:hi], c.yp[lo:hi])
}

// sphericalCoordsPPF is the inverse CDF of the j-th spherical angle (in
// units of π) whose density is ∝ sin^(dims-1)(πθ) on [0, 1]: by symmetry
// about 1/2, θ = arcsin(√z)/π with z = B⁻¹(2y; dims/2, 1/2) for y < 1/2
// and 1 - θ(1 - y) above (Fang & Wang 1994, §1.5.2; Nengo's
// spherical_coords_ppf). z is the linear interpolation of c's knots at 2y
// ("sct-approx"), or with exact set that refined to B⁻¹ by invBetaHalf
// ("sct").
func sphericalCoordsPPF(dims int, y float64, c *betaCurve, exact bool) float64 {
	r := y
	if !(y < 0.5) {
		r = 1 - y
	}
	z := c.at(2 * r)
	if exact {
		z = invBetaHalf(float64(dims)/2, 2*r, z)
	}
	x := math.Asin(math.Sqrt(z)) / math.Pi
	if y < 0.5 {
		return x
	}
	return 1 - x
}

// sphericalTransform maps a point y of [0, 1]^k to the unit sphere in
// k+1 dimensions, dst (the SCT of Fang & Wang 1994, §1.5.3, as
// nengo.dists.ScatteredHypersphere.spherical_transform_sct):
// θ_j = ppf(k-j, y_j); dst_0 = cos πθ_0,
// dst_m = Π_(l<m) sin(c_l πθ_l) · cos(c_m πθ_m), dst_k = Π_l sin(c_l πθ_l),
// where c_l = 1 except c_(k-1) = 2. curves[j] = betaLookup(k-j)
// (sctCurves(k)); exact selects "sct", else "sct-approx". The angles go
// through arcsin and back through sin and cos as in Nengo: computing
// sin πθ = √z and cos πθ = ±√(1-z) directly would be about 15% faster
// and more accurate near z = 1, but differs from Nengo's points by up to
// 1.3e-11 instead of 1.3e-13.
func sphericalTransform(dst, y []float64, curves []betaCurve, exact bool) {
	k := len(y)
	prod := 1.0
	for j := range k {
		c := 1.0
		if j == k-1 {
			c = 2
		}
		sin, cos := math.Sincos(c * math.Pi * sphericalCoordsPPF(k-j, y[j], &curves[j], exact))
		dst[j] = prod * cos
		prod *= sin
	}
	dst[k] = prod
}

// sctCurves returns the interpolation knots of "sct-approx" for the k
// angles of a point of [0, 1]^k: curves[j] for dims = k-j.
func sctCurves(k int) []betaCurve {
	curves := make([]betaCurve, k)
	for j := range curves {
		curves[j] = newBetaCurve(betaLookup(k - j))
	}
	return curves
}

// parallelRows calls f(lo, hi) on disjoint row ranges covering [0, n)
// from up to GOMAXPROCS goroutines, when the work (n·cost) is worth it.
// Each row's result must not depend on the split, so the output is the
// same for any number of goroutines.
func parallelRows(n, cost int, f func(lo, hi int)) {
	w := runtime.GOMAXPROCS(0)
	if w > n {
		w = n
	}
	if w <= 1 || n*cost < 1<<16 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for p := range w {
		lo, hi := p*n/w, (p+1)*n/w
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

// randomOrthogonal returns a random d×d orthogonal matrix, row-major:
// U·Vᵀ of the SVD of a matrix of standard normal draws (Nengo's
// ScatteredHypersphere.random_orthogonal).
func randomOrthogonal(d int, rng *rand.Rand) ([]float64, error) {
	m := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	var svd mat.SVD
	if !svd.Factorize(m, mat.SVDFull) {
		return nil, fmt.Errorf("dists: ScatteredHypersphere: SVD of the %d×%d random rotation did not converge", d, d)
	}
	var u, v, r mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	r.Mul(&u, v.T())
	out := make([]float64, d*d)
	for i := range d {
		for j := range d {
			out[i*d+j] = r.At(i, j)
		}
	}
	return out, nil
}

// rotateRows replaces each row x of xs (row-major, d columns) by x times
// the d×d matrix rot: x'_j = Σ_l x_l · rot_lj, accumulated over l in
// order, each product rounded before it is added (so every element is
// the same whatever the split into calls and whatever the build:
// vec.VecMat).
func rotateRows(xs, rot []float64, d int) {
	n := len(xs) / d
	x := make([]float64, d)
	for i := range n {
		copy(x, xs[i*d:(i+1)*d])
		vec.VecMat(xs[i*d:(i+1)*d], x, rot, d)
	}
}
