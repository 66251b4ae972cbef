package synapses

import (
	"math"
	"math/big"
)

// expm returns exp(a) for the m×m row-major matrix a with the scaling and
// squaring algorithm of A. H. Al-Mohy and N. J. Higham, "A new scaling and
// squaring algorithm for the matrix exponential", SIAM J. Matrix Anal.
// Appl. 31(3), 2009 (Algorithm 6.1, exact 1-norms of matrix powers), which
// is what Nengo 4.1 discretises filters with (its copy of SciPy's expm).
// To give Nengo's coefficients bit for bit, the degree selection (the η
// bounds and the ℓ correction of §5), the order in which the Padé sums are
// accumulated, the matrix products (fused multiply-add accumulation, as
// OpenBLAS's dgemm kernels) and the LU solve (LAPACK dgetf2/dgetrs with
// reciprocal pivots) follow that implementation; for an upper-triangular
// matrix the degree-13 branch recomputes the diagonal and superdiagonal
// exactly while squaring (Code Fragment 2.1 of the paper). The matrices
// here are tiny (filter order + 1), so plain loops are used.
func expm(a []float64, m int) []float64 {
	if m == 1 {
		return []float64{math.Exp(a[0])}
	}
	upper := true
	for i := 1; i < m && upper; i++ {
		for j := 0; j < i; j++ {
			if a[i*m+j] != 0 {
				upper = false
				break
			}
		}
	}
	id := identity(m)
	a2 := matmul(a, a, m)
	a4 := matmul(a2, a2, m)
	a6 := matmul(a4, a2, m)
	d4 := math.Pow(norm1(a4, m), 1/4.)
	d6 := math.Pow(norm1(a6, m), 1/6.)
	// θ_m: Al-Mohy & Higham 2009, Table 3.1.
	if math.Max(d4, d6) < 1.495585217958292e-2 && ell(a, m, 3) == 0 {
		b := []float64{120, 60, 12, 1}
		u := matmul(a, lincomb(m, b[3], a2, b[1], id), m)
		v := lincomb(m, b[2], a2, b[0], id)
		return solvePQ(u, v, m)
	}
	if math.Max(d4, d6) < 2.539398330063230e-1 && ell(a, m, 5) == 0 {
		b := []float64{30240, 15120, 3360, 420, 30, 1}
		u := matmul(a, lincomb(m, b[5], a4, b[3], a2, b[1], id), m)
		v := lincomb(m, b[4], a4, b[2], a2, b[0], id)
		return solvePQ(u, v, m)
	}
	a8 := matmul(a6, a2, m)
	d8 := math.Pow(norm1(a8, m), 1/8.)
	eta3 := math.Max(d6, d8)
	if eta3 < 9.504178996162932e-1 && ell(a, m, 7) == 0 {
		b := []float64{17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1}
		u := matmul(a, lincomb(m, b[7], a6, b[5], a4, b[3], a2, b[1], id), m)
		v := lincomb(m, b[6], a6, b[4], a4, b[2], a2, b[0], id)
		return solvePQ(u, v, m)
	}
	if eta3 < 2.097847961257068e0 && ell(a, m, 9) == 0 {
		b := []float64{17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1}
		u := matmul(a, lincomb(m, b[9], a8, b[7], a6, b[5], a4, b[3], a2, b[1], id), m)
		v := lincomb(m, b[8], a8, b[6], a6, b[4], a4, b[2], a2, b[0], id)
		return solvePQ(u, v, m)
	}
	a10 := matmul(a4, a6, m)
	d10 := math.Pow(norm1(a10, m), 1/10.)
	eta5 := math.Min(eta3, math.Max(d8, d10))
	const theta13 = 4.25
	s := max(int(math.Ceil(math.Log2(eta5/theta13))), 0)
	s += ell(scale(a, math.Pow(2, float64(-s))), m, 13)
	b := []float64{64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800,
		129060195264000, 10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960,
		16380, 182, 1}
	B := scale(a, math.Pow(2, float64(-s)))
	B2 := scale(a2, math.Pow(2, float64(-2*s)))
	B4 := scale(a4, math.Pow(2, float64(-4*s)))
	B6 := scale(a6, math.Pow(2, float64(-6*s)))
	u2 := matmul(B6, lincomb(m, b[13], B6, b[11], B4, b[9], B2), m)
	u := matmul(B, lincomb(m, 1.0, u2, b[7], B6, b[5], B4, b[3], B2, b[1], id), m)
	v2 := matmul(B6, lincomb(m, b[12], B6, b[10], B4, b[8], B2), m)
	v := lincomb(m, 1.0, v2, b[6], B6, b[4], B4, b[2], B2, b[0], id)
	x := solvePQ(u, v, m)
	if !upper {
		for range s {
			x = matmul(x, x, m)
		}
		return x
	}
	// Code Fragment 2.1: exact diagonal and superdiagonal at every squaring.
	fix := func(i int) {
		sc := math.Pow(2, float64(-i))
		for k := range m {
			x[k*m+k] = math.Exp(sc * a[k*m+k])
		}
		if i == s {
			return
		}
		for k := 0; k < m-1; k++ {
			l1, l2, t12 := sc*a[k*m+k], sc*a[(k+1)*m+k+1], sc*a[k*m+k+1]
			x[k*m+k+1] = t12 * math.Exp(0.5*(l1+l2)) * sinch(0.5*(l1-l2))
		}
	}
	fix(s)
	for i := s - 1; i >= 0; i-- {
		x = matmul(x, x, m)
		fix(i)
	}
	return x
}

// sinch is sinh(x)/x, by its Taylor series near 0.
func sinch(x float64) float64 {
	x2 := x * x
	if math.Abs(x) < 0.0135 {
		return 1 + (x2/6.)*(1+(x2/20.)*(1+(x2/42.)))
	}
	return math.Sinh(x) / x
}

// ell is ℓ(A, m) of Al-Mohy & Higham 2009, eq. (5.3): the number of extra
// squarings that keep the backward error of the degree-m approximant
// below the unit roundoff u = 2⁻⁵³, from ‖|A|^(2m+1)‖₁.
func ell(a []float64, n, m int) int {
	p := 2*m + 1
	var c, f big.Int
	c.Binomial(int64(2*p), int64(p))
	f.MulRange(1, int64(2*p+1))
	c.Mul(&c, &f)
	absCRecip, _ := new(big.Float).SetInt(&c).Float64()
	// ‖|A|^p‖₁ as max(|A|ᵀ^p · 1), evaluated as v ← |A|ᵀ·v.
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	w := make([]float64, n)
	for range p {
		for i := range n {
			var acc float64
			for k := range n {
				acc = math.FMA(math.Abs(a[k*n+i]), v[k], acc)
			}
			w[i] = acc
		}
		v, w = w, v
	}
	normP := 0.0
	for _, x := range v {
		normP = math.Max(normP, x)
	}
	if normP == 0 {
		return 0
	}
	alpha := normP / (norm1(a, n) * absCRecip)
	value := int(math.Ceil(math.Log2(alpha/math.Ldexp(1, -53)) / float64(2*m)))
	return max(value, 0)
}

// lincomb returns c₀·M₀ + c₁·M₁ + …, summed left to right (pairs c, M).
func lincomb(m int, terms ...any) []float64 {
	var out []float64
	for i := 0; i < len(terms); i += 2 {
		t := scale(terms[i+1].([]float64), terms[i].(float64))
		if out == nil {
			out = t
		} else {
			out = add(out, t)
		}
	}
	return out
}

func scale(a []float64, s float64) []float64 {
	out := make([]float64, len(a))
	for i, v := range a {
		out[i] = s * v
	}
	return out
}

func add(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] + b[i]
	}
	return out
}

// solvePQ returns (V - U)⁻¹(V + U), with P = U + V and Q = -U + V formed as
// Nengo's copy of SciPy does.
func solvePQ(u, v []float64, m int) []float64 {
	p := make([]float64, m*m)
	q := make([]float64, m*m)
	for i := range p {
		p[i] = u[i] + v[i]
		q[i] = -u[i] + v[i]
	}
	r, _ := luSolve(q, p, m, m)
	return r
}

// fmsub returns c - a·b with one rounding.
func fmsub(a, b, c float64) float64 { return math.FMA(-a, b, c) }

// luSolve solves A·X = B as LAPACK's dgesv: LU with partial pivoting
// (left-looking dgetf2; the column below each pivot scaled by the
// reciprocal of the pivot), then forward and back substitution with the
// reciprocal diagonal. a and b are overwritten; ok is false if a is singular.
func luSolve(a, b []float64, m, cols int) (x []float64, ok bool) {
	piv := make([]int, m)
	for j := range m {
		// apply earlier interchanges to column j
		for i := 0; i < j; i++ {
			if piv[i] != i {
				a[i*m+j], a[piv[i]*m+j] = a[piv[i]*m+j], a[i*m+j]
			}
		}
		// U part: forward substitution with the unit lower triangle
		for i := 1; i < j; i++ {
			var d float64
			for k := 0; k < i; k++ {
				d = fmaOr(a[i*m+k], a[k*m+j], d)
			}
			a[i*m+j] -= d
		}
		// rest of column j: b[j:] -= A[j:, :j]·b[:j]
		for i := j; i < m; i++ {
			var d float64
			for k := 0; k < j; k++ {
				d = fmaOr(a[i*m+k], a[k*m+j], d)
			}
			a[i*m+j] -= d
		}
		p := j
		for i := j + 1; i < m; i++ {
			if math.Abs(a[i*m+j]) > math.Abs(a[p*m+j]) {
				p = i
			}
		}
		piv[j] = p
		if a[p*m+j] == 0 {
			return nil, false
		}
		if p != j {
			for k := 0; k <= j; k++ {
				a[p*m+k], a[j*m+k] = a[j*m+k], a[p*m+k]
			}
		}
		r := 1 / a[j*m+j]
		for i := j + 1; i < m; i++ {
			a[i*m+j] *= r
		}
	}
	// permute b
	for i := range m {
		if piv[i] != i {
			for c := range cols {
				b[i*cols+c], b[piv[i]*cols+c] = b[piv[i]*cols+c], b[i*cols+c]
			}
		}
	}
	for c := range cols {
		// L y = b (unit lower), right-looking
		for i := range m {
			yi := b[i*cols+c]
			for k := i + 1; k < m; k++ {
				b[k*cols+c] = fmsub(yi, a[k*m+i], b[k*cols+c])
			}
		}
		// U x = y, right-looking from the bottom
		for i := m - 1; i >= 0; i-- {
			xi := b[i*cols+c] * (1 / a[i*m+i])
			b[i*cols+c] = xi
			for k := 0; k < i; k++ {
				b[k*cols+c] = fmsub(xi, a[k*m+i], b[k*cols+c])
			}
		}
	}
	return b, true
}

func fmaOr(a, b, acc float64) float64 { return math.FMA(a, b, acc) }

// solve returns X with A·X = B for the m×m matrix a and the m×cols matrix
// b (both row-major, both overwritten) by Gaussian elimination with
// partial pivoting (as LAPACK's dgesv); ok is false for a singular a.
func solve(a, b []float64, m, cols int) (x []float64, ok bool) {
	for col := range m {
		p := col
		for r := col + 1; r < m; r++ {
			if math.Abs(a[r*m+col]) > math.Abs(a[p*m+col]) {
				p = r
			}
		}
		if a[p*m+col] == 0 {
			return nil, false
		}
		if p != col {
			for j := range m {
				a[p*m+j], a[col*m+j] = a[col*m+j], a[p*m+j]
			}
			for j := range cols {
				b[p*cols+j], b[col*cols+j] = b[col*cols+j], b[p*cols+j]
			}
		}
		for r := col + 1; r < m; r++ {
			f := a[r*m+col] / a[col*m+col]
			if f == 0 {
				continue
			}
			for j := col; j < m; j++ {
				a[r*m+j] -= f * a[col*m+j]
			}
			for j := range cols {
				b[r*cols+j] -= f * b[col*cols+j]
			}
		}
	}
	for r := m - 1; r >= 0; r-- {
		for j := range cols {
			s := b[r*cols+j]
			for c := r + 1; c < m; c++ {
				s -= a[r*m+c] * b[c*cols+j]
			}
			b[r*cols+j] = s / a[r*m+r]
		}
	}
	return b, true
}

func norm1(a []float64, m int) float64 {
	n := 0.0
	for j := range m {
		s := 0.0
		for i := range m {
			s += math.Abs(a[i*m+j])
		}
		n = math.Max(n, s)
	}
	return n
}

// matmul returns a·b, each entry accumulated over k in order with fused
// multiply-adds (as OpenBLAS's small-matrix dgemm kernels).
func matmul(a, b []float64, m int) []float64 {
	c := make([]float64, m*m)
	for i := range m {
		for j := range m {
			var acc float64
			for k := range m {
				acc = math.FMA(a[i*m+k], b[k*m+j], acc)
			}
			c[i*m+j] = acc
		}
	}
	return c
}

func identity(m int) []float64 {
	c := make([]float64, m*m)
	for i := range m {
		c[i*m+i] = 1
	}
	return c
}
