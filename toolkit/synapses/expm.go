package synapses

import "math"

// expm returns exp(a) for the m×m row-major matrix a by scaling and
// squaring with a diagonal Padé approximant of degree 3, 5, 7, 9 or 13,
// chosen from the 1-norm: N. J. Higham, "The scaling and squaring method
// for the matrix exponential revisited", SIAM J. Matrix Anal. Appl. 26(4),
// 2005, Algorithm 2.3 (the θ_m bounds of its Table 2.3). The matrices here
// are tiny (filter order + 1), so plain loops are used.
func expm(a []float64, m int) []float64 {
	// θ_m: the largest 1-norm for which the degree-m approximant is
	// accurate to double precision (Higham 2005, Table 2.3).
	thetas := [...]struct {
		m     int
		theta float64
	}{{3, 1.495585217958292e-2}, {5, 2.539398330063230e-1}, {7, 9.504178996162932e-1}, {9, 2.097847961257068e0}}
	norm := norm1(a, m)
	for _, t := range thetas {
		if norm <= t.theta {
			u, v := padeUV(a, m, t.m)
			return padeSolve(u, v, m)
		}
	}
	const theta13 = 5.371920351148152
	s := 0
	if norm > theta13 {
		s = int(math.Ceil(math.Log2(norm / theta13)))
	}
	scaled := make([]float64, len(a))
	f := math.Ldexp(1, -s)
	for i, v := range a {
		scaled[i] = v * f
	}
	u, v := pade13UV(scaled, m)
	r := padeSolve(u, v, m)
	for range s {
		r = matmul(r, r, m)
	}
	return r
}

// padeCoeffs holds b_0…b_m of the [m/m] Padé approximant to exp.
func padeCoeffs(deg int) []float64 {
	switch deg {
	case 3:
		return []float64{120, 60, 12, 1}
	case 5:
		return []float64{30240, 15120, 3360, 420, 30, 1}
	case 7:
		return []float64{17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1}
	case 9:
		return []float64{17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1}
	}
	return []float64{64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800,
		129060195264000, 10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1}
}

// padeUV returns U (odd part) and V (even part) of the degree-deg
// approximant, p(A) = V + U, q(A) = V - U.
func padeUV(a []float64, m, deg int) (u, v []float64) {
	b := padeCoeffs(deg)
	a2 := matmul(a, a, m)
	uo := scaledIdentity(b[1], m) // Σ b_{2j+1} A^{2j}
	v = scaledIdentity(b[0], m)   // Σ b_{2j} A^{2j}
	p := identity(m)
	for j := 2; j <= deg; j += 2 {
		p = matmul(p, a2, m)
		axpy(v, b[j], p)
		axpy(uo, b[j+1], p)
	}
	return matmul(a, uo, m), v
}

// pade13UV is padeUV for degree 13 evaluated with Higham's 6 products.
func pade13UV(a []float64, m int) (u, v []float64) {
	b := padeCoeffs(13)
	a2 := matmul(a, a, m)
	a4 := matmul(a2, a2, m)
	a6 := matmul(a4, a2, m)
	t := make([]float64, m*m)
	axpy(t, b[13], a6)
	axpy(t, b[11], a4)
	axpy(t, b[9], a2)
	uo := matmul(a6, t, m)
	axpy(uo, b[7], a6)
	axpy(uo, b[5], a4)
	axpy(uo, b[3], a2)
	for i := range m {
		uo[i*m+i] += b[1]
	}
	u = matmul(a, uo, m)
	clear(t)
	axpy(t, b[12], a6)
	axpy(t, b[10], a4)
	axpy(t, b[8], a2)
	v = matmul(a6, t, m)
	axpy(v, b[6], a6)
	axpy(v, b[4], a4)
	axpy(v, b[2], a2)
	for i := range m {
		v[i*m+i] += b[0]
	}
	return u, v
}

// padeSolve returns (V - U)⁻¹(V + U).
func padeSolve(u, v []float64, m int) []float64 {
	p := make([]float64, m*m)
	q := make([]float64, m*m)
	for i := range p {
		p[i] = v[i] + u[i]
		q[i] = v[i] - u[i]
	}
	r, _ := solve(q, p, m, m) // q is well conditioned for norm(A) <= θ_m
	return r
}

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

func matmul(a, b []float64, m int) []float64 {
	c := make([]float64, m*m)
	for i := range m {
		for k := range m {
			aik := a[i*m+k]
			if aik == 0 {
				continue
			}
			for j := range m {
				c[i*m+j] += aik * b[k*m+j]
			}
		}
	}
	return c
}

func identity(m int) []float64 { return scaledIdentity(1, m) }

func scaledIdentity(s float64, m int) []float64 {
	c := make([]float64, m*m)
	for i := range m {
		c[i*m+i] = s
	}
	return c
}

// axpy sets y += alpha·x.
func axpy(y []float64, alpha float64, x []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}
