//go:build goexperiment.simd && amd64

package vec

import "simd/archsimd"

//go:noescape
func dotLanes4(a, x0, x1, x2, x3 *float64, n16 int, acc *[64]float64)

// dotRowsLanes4 is DotRows for four inputs sharing the matrix.
func dotRowsLanes4(out *[4][]float64, w []float64, nx int, x *[4][]float64) {
	if !avx512 || nx < 16 {
		for l := range 4 {
			dotRows(out[l], w, nx, nil, x[l])
		}
		return
	}
	n16 := nx &^ 15
	x0, x1, x2, x3 := x[0][:nx], x[1][:nx], x[2][:nx], x[3][:nx]
	o0, o1, o2, o3 := out[0], out[1][:len(out[0])], out[2][:len(out[0])], out[3][:len(out[0])]
	var acc [64]float64
	for k := range o0 {
		row := w[k*nx : (k+1)*nx : (k+1)*nx]
		dotLanes4(&row[0], &x0[0], &x1[0], &x2[0], &x3[0], n16, &acc)
		v := func(i int) archsimd.Float64x8 { return archsimd.LoadFloat64x8((*[8]float64)(acc[8*i : 8*i+8])) }
		p0, p1, q0, q1 := v(0), v(1), v(2), v(3)
		u0, u1, s0, s1 := v(4), v(5), v(6), v(7)
		if nx > n16 {
			a0, a1 := tail8(row, n16, nx)
			t0, t1 := tail8(x0, n16, nx)
			p0, p1 = p0.Add(a0.Mul(t0)), p1.Add(a1.Mul(t1))
			t0, t1 = tail8(x1, n16, nx)
			q0, q1 = q0.Add(a0.Mul(t0)), q1.Add(a1.Mul(t1))
			t0, t1 = tail8(x2, n16, nx)
			u0, u1 = u0.Add(a0.Mul(t0)), u1.Add(a1.Mul(t1))
			t0, t1 = tail8(x3, n16, nx)
			s0, s1 = s0.Add(a0.Mul(t0)), s1.Add(a1.Mul(t1))
		}
		o0[k], o1[k] = reduce16x2(p0, p1, q0, q1)
		o2[k], o3[k] = reduce16x2(u0, u1, s0, s1)
	}
}
