package vec

// The portable loops; the vector versions (simd_amd64.go) call them for
// tails and on CPUs without AVX2.

func reluGo(out, J []float64, amp float64) {
	out = out[:len(J)]
	for i, j := range J {
		out[i] = amp * max(j, 0)
	}
}

func axpyGo(y, a []float64, s float64) {
	a = a[:len(y)]
	for i := range y {
		y[i] += float64(a[i] * s)
	}
}

func scaleGo(y, a []float64, s float64) {
	a = a[:len(y)]
	for i := range y {
		y[i] = a[i] * s
	}
}

func mulIncGo(y, a, x []float64) {
	a, x = a[:len(y)], x[:len(y)]
	for i := range y {
		y[i] += float64(a[i] * x[i])
	}
}

func addGo(y, x []float64) {
	x = x[:len(y)]
	for i := range y {
		y[i] += x[i]
	}
}

func dotGo(a, x []float64) float64 {
	x = x[:len(a)]
	var s0, s1, s2, s3 float64
	n := len(a) &^ 3
	for j := 0; j < n; j += 4 {
		s0 += float64(a[j] * x[j])
		s1 += float64(a[j+1] * x[j+1])
		s2 += float64(a[j+2] * x[j+2])
		s3 += float64(a[j+3] * x[j+3])
	}
	acc := (s0 + s1) + (s2 + s3)
	for j := n; j < len(a); j++ {
		acc += float64(a[j] * x[j])
	}
	return acc
}

func axpyToGo(y, b, a []float64, s float64) {
	b, a = b[:len(y)], a[:len(y)]
	for i := range y {
		y[i] = b[i] + float64(a[i]*s)
	}
}
