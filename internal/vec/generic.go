package vec

import "math"

// The portable loops: the reference every assembly kernel (*_amd64.s,
// *_arm64.s) equals bit for bit, and what runs for the tails the kernels
// leave, on CPUs without vector kernels and with the build tag purego.

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
	// sixteen partial sums s[j mod 16] over the length rounded up to
	// whole 16-blocks, a missing product counted as +0 (the SIMD versions
	// load the last block zero-filled); combined lane-wise as
	// (s[l] + s[4+l]) + (s[8+l] + s[12+l]), then (t0 + t1) + (t2 + t3)
	x = x[:len(a)]
	var s [16]float64
	n := len(a)
	n16 := n &^ 15
	for j := 0; j < n16; j += 16 {
		aa, xx := a[j:j+16:j+16], x[j:j+16:j+16]
		for l := range 16 {
			s[l] = math.FMA(aa[l], xx[l], s[l])
		}
	}
	if n > n16 {
		for l := range 16 {
			var al, xl float64
			if n16+l < n {
				al, xl = a[n16+l], x[n16+l]
			}
			s[l] = math.FMA(al, xl, s[l])
		}
	}
	var t [4]float64
	for l := range 4 {
		t[l] = (s[l] + s[4+l]) + (s[8+l] + s[12+l])
	}
	return (t[0] + t[1]) + (t[2] + t[3])
}

func axpyReluGo(out, b, a []float64, s, amp float64) {
	b, a = b[:len(out)], a[:len(out)]
	for i := range out {
		out[i] = amp * max(b[i]+float64(a[i]*s), 0)
	}
}

func gainReluGo(out, x, g, b []float64, amp float64) {
	x, g, b = x[:len(out)], g[:len(out)], b[:len(out)]
	for j := range out {
		out[j] = amp * max(float64(g[j]*x[j])+b[j], 0)
	}
}

func countPositiveGo(cnt, x, g, b []float64, mx float64) float64 {
	x, g, b = x[:len(cnt)], g[:len(cnt)], b[:len(cnt)]
	for j := range cnt {
		J := float64(g[j]*x[j]) + b[j]
		if J > 0 {
			cnt[j]++
		}
		if J > mx {
			mx = J
		}
	}
	return mx
}

func ensDot2Go(a, bias, enc []float64, x, amp float64, d1, d2 []float64) (s1, s2 float64) {
	axpyReluGo(a, bias, enc, x, amp)
	s1 = dotGo(d1[:len(a)], a)
	if d2 != nil {
		s2 = dotGo(d2[:len(a)], a)
	}
	return s1, s2
}

func axpyToGo(y, b, a []float64, s float64) {
	b, a = b[:len(y)], a[:len(y)]
	for i := range y {
		y[i] = b[i] + float64(a[i]*s)
	}
}

// lifParams are the constants of one LIF step (see LIF).
type lifParams struct {
	dt, tauRC, tauRef, minV, spike, eFull, eNone float64
}

func newLIF(dt, tauRC, tauRef, minV, amp float64) lifParams {
	return lifParams{dt: dt, tauRC: tauRC, tauRef: tauRef, minV: minV, spike: amp / dt,
		eFull: math.Expm1(-dt / tauRC), eNone: math.Expm1(math.Copysign(0, -1) / tauRC)}
}

// lifOne steps neuron i (Nengo's LIF.step, one element).
func (p *lifParams) lifOne(i int, J, out, voltage, refractory []float64) {
	j := J[i]
	rt := refractory[i] - p.dt
	d := p.dt - rt
	if d < 0 {
		d = 0
	} else if d > p.dt {
		d = p.dt
	}
	var e float64
	switch d {
	case p.dt:
		e = p.eFull
	case 0:
		e = p.eNone
	default:
		e = math.Expm1(-d / p.tauRC)
	}
	v := voltage[i] - float64((j-voltage[i])*e)
	o := 0.0
	if v > 1 {
		o = p.spike
		rt = p.tauRef + (p.dt + float64(p.tauRC*math.Log1p(-(v-1)/(j-1))))
		v = 0
	} else if v < p.minV {
		v = p.minV
	}
	out[i] = o
	voltage[i] = v
	refractory[i] = rt
}

func lifGo(p lifParams, J, out, voltage, refractory []float64) {
	for i := range J {
		p.lifOne(i, J, out, voltage, refractory)
	}
}

// octStripes is the order of the stripes in an eight-ensemble pack: that
// of Dot's final sums, (s0 + s4) + (s8 + s12) first (see OctOffset).
var octStripes = [16]int{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}

func ensOctGo(p []float64, n int, two bool, x *[8]float64, amp float64, s1, s2 *[8]float64) {
	w := OctWidth(two)
	var acc1, acc2 [16][8]float64
	off := 0
	for _, k := range octStripes {
		for i := k; i < n; i += 16 {
			b := p[off : off+w : off+w]
			for e := range 8 {
				r := amp * max(b[e]+float64(b[8+e]*x[e]), 0)
				acc1[k][e] = math.FMA(b[16+e], r, acc1[k][e])
				if two {
					acc2[k][e] = math.FMA(b[24+e], r, acc2[k][e])
				}
			}
			off += w
		}
	}
	reduce := func(s *[16][8]float64, out *[8]float64) {
		for e := range 8 {
			var t [4]float64
			for l := range 4 {
				t[l] = (s[l][e] + s[4+l][e]) + (s[8+l][e] + s[12+l][e])
			}
			out[e] = (t[0] + t[1]) + (t[2] + t[3])
		}
	}
	reduce(&acc1, s1)
	if two {
		reduce(&acc2, s2)
	} else {
		*s2 = [8]float64{}
	}
}

func dotRowsGo(out, w []float64, nx int, rows []int, x []float64) {
	for k := range out {
		r := k
		if rows != nil {
			r = rows[k]
		}
		out[k] = dotGo(w[r*nx:(r+1)*nx], x)
	}
}

func lowpassGo(y, x, u []float64, a, b float64) {
	x, u = x[:len(y)], u[:len(y)]
	for i, v := range u {
		s := FlushSubnormal(float64(a*x[i]) + float64(b*v))
		x[i] = s
		y[i] = s
	}
}

func firstNaNGo(x []float64) int {
	for i, v := range x {
		if v != v {
			return i
		}
	}
	return -1
}

func vecMatGo(y, x, m []float64, d int) {
	y = y[:d]
	clear(y)
	for l, a := range x {
		r := m[l*d : (l+1)*d : (l+1)*d]
		for j, v := range r {
			y[j] += float64(a * v)
		}
	}
}

func dotAxpyGo(w, x, a []float64, s float64) (float64, bool) {
	d := dot(w, x)
	axpy(w, a, s)
	return d, firstNaN(w) >= 0
}
