package dists

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
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

// rdSequence writes the un-shuffled R_d points (Roberts 2018) with offset
// s: row i-1 is (s + i·α) mod 1, i = 1…n, α_j = φ_d^-(j+1). In one
// dimension it tiles [0, 1) evenly: (s + i/n) mod 1, i = 0…n-1. This is
// nengo.dists.QuasirandomSequence before its shuffle.
func rdSequence(n, d int, s []float64) []float64 {
	out := make([]float64, n*d)
	if d == 1 {
		for i := range n {
			out[i] = math.Mod(s[0]+(1/float64(n))*float64(i), 1)
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
			out[i*d+j] = math.Mod(s[j]+float64(i+1)*alpha[j], 1)
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

// sphericalCoordsPPF is the inverse CDF of the j-th spherical angle (in
// units of π) whose density is ∝ sin^(dims-1)(πθ) on [0, 1]: by symmetry
// about 1/2, θ = arcsin(√z)/π with z = B⁻¹(2y; dims/2, 1/2) for y < 1/2
// and 1 - θ(1 - y) above (Fang & Wang 1994, §1.5.2; Nengo's
// spherical_coords_ppf).
func sphericalCoordsPPF(dims int, y float64) float64 {
	r := y
	if y >= 0.5 {
		r = 1 - y
	}
	z := mathext.InvRegIncBeta(float64(dims)/2, 0.5, 2*r)
	x := math.Asin(math.Sqrt(z)) / math.Pi
	if y < 0.5 {
		return x
	}
	return 1 - x
}

// sphericalTransform maps a point y of [0, 1]^k to the unit sphere in
// k+1 dimensions, dst (the SCT of Fang & Wang 1994, §1.5.3, as
// nengo.dists.ScatteredHypersphere.spherical_transform_sct with method
// "sct"): θ_j = ppf(k-j, y_j); dst_0 = cos πθ_0,
// dst_m = Π_(l<m) sin(c_l πθ_l) · cos(c_m πθ_m), dst_k = Π_l sin(c_l πθ_l),
// where c_l = 1 except c_(k-1) = 2.
func sphericalTransform(dst, y []float64) {
	k := len(y)
	prod := 1.0
	for j := range k {
		c := 1.0
		if j == k-1 {
			c = 2
		}
		th := c * math.Pi * sphericalCoordsPPF(k-j, y[j])
		dst[j] = prod * math.Cos(th)
		prod *= math.Sin(th)
	}
	dst[k] = prod
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
