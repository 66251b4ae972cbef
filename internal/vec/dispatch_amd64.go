//go:build amd64 && !purego

package vec

import "unsafe"

// The loops on amd64: each picks the kernel of the level that runs
// (cpu_amd64.go) by an integer compare before any vector instruction.
// Every kernel ends with VZEROUPPER, so the Go code after it (tails,
// reductions of a few lanes) runs SSE code on clean upper halves.

//go:noescape
func reluAVX512(out, j *float64, n int, amp float64)

//go:noescape
func reluAVX2(out, j *float64, n int, amp float64)

//go:noescape
func axpyAVX512(y, a *float64, n int, s float64)

//go:noescape
func axpyAVX2(y, a *float64, n int, s float64)

//go:noescape
func scaleAVX512(y, a *float64, n int, s float64)

//go:noescape
func scaleAVX2(y, a *float64, n int, s float64)

//go:noescape
func mulIncAVX512(y, a, x *float64, n int)

//go:noescape
func mulIncAVX2(y, a, x *float64, n int)

//go:noescape
func addAVX512(y, x *float64, n int)

//go:noescape
func addAVX2(y, x *float64, n int)

//go:noescape
func axpyToAVX512(y, b, a *float64, n int, s float64)

//go:noescape
func axpyToAVX2(y, b, a *float64, n int, s float64)

//go:noescape
func axpyReluAVX512(out, b, a *float64, n int, s, amp float64)

//go:noescape
func axpyReluAVX2(out, b, a *float64, n int, s, amp float64)

//go:noescape
func gainReluAVX512(out, x, gain, b *float64, n int, amp float64)

//go:noescape
func gainReluAVX2(out, x, gain, b *float64, n int, amp float64)

//go:noescape
func countPositiveAVX512(cnt, x, gain, b *float64, n int, mx float64, lanes *[8]float64)

//go:noescape
func countPositiveAVX2(cnt, x, gain, b *float64, n int, mx float64, lanes *[8]float64)

//go:noescape
func lowpassAVX512(y, x, u *float64, n int, a, b float64)

//go:noescape
func lowpassAVX2(y, x, u *float64, n int, a, b float64)

//go:noescape
func firstNaNAVX512(x *float64, n int) int

//go:noescape
func firstNaNAVX2(x *float64, n int) int

//go:noescape
func lifAVX512(p *lifParams, j, out, v, r *float64, n int, bad *uint8) (nbad int)

//go:noescape
func lifAVX2(p *lifParams, j, out, v, r *float64, n int, bad *uint8) (nbad int)

//go:noescape
func dotAVX512(a, x *float64, n int) float64

//go:noescape
func dotAxpyAVX512(w, x, a *float64, n int, s float64) (dot float64, nan bool)

//go:noescape
func dotAVX2(a, x *float64, n int) float64

//go:noescape
func dot2AVX512(a, b, x *float64, n int) (ra, rb float64)

//go:noescape
func dot2AVX2(a, b, x *float64, n int) (ra, rb float64)

//go:noescape
func dot4AVX512(a0, a1, a2, a3, x *float64, n int) (r0, r1, r2, r3 float64)

//go:noescape
func ensDot2AVX512(a, bias, enc, d1, d2 *float64, n int, x, amp float64, mode int) (s1, s2 float64)

//go:noescape
func ensDot2AVX2(a, bias, enc, d1, d2 *float64, n int, x, amp float64, mode int) (s1, s2 float64)

//go:noescape
func ensOctAVX2(p *float64, n int, two bool, x *[8]float64, amp float64, s1, s2 *[8]float64)

//go:noescape
func vecMatAVX512(y, x, m *float64, k, d int)

//go:noescape
func vecMatAVX2(y, x, m *float64, k, d int)

//go:noescape
func ensOct1(p *float64, n int, x, s1 *[8]float64)

//go:noescape
func ensOct1x2(p *float64, n int, xa, xb, sa, sb *[8]float64)

//go:noescape
func ensOctAmp1AVX512(p *float64, n int, x *[8]float64, amp float64, s1, s2 *[8]float64)

//go:noescape
func ensOctUnit2AVX512(p *float64, n int, x *[8]float64, amp float64, s1, s2 *[8]float64)

//go:noescape
func ensOctAmp2AVX512(p *float64, n int, x *[8]float64, amp float64, s1, s2 *[8]float64)

// ptr is the address of a's first element, nil for an empty slice (the
// kernels then read nothing).
func ptr(a []float64) *float64 { return unsafe.SliceData(a) }

func relu(out, J []float64, amp float64) {
	out = out[:len(J)]
	switch lvl {
	case levelAVX512:
		reluAVX512(ptr(out), ptr(J), len(J), amp)
	case levelAVX2:
		n := len(J) &^ 3
		reluAVX2(ptr(out), ptr(J), n, amp)
		reluGo(out[n:], J[n:], amp)
	default:
		reluGo(out, J, amp)
	}
}

func axpy(y, a []float64, s float64) {
	a = a[:len(y)]
	switch lvl {
	case levelAVX512:
		axpyAVX512(ptr(y), ptr(a), len(y), s)
	case levelAVX2:
		n := len(y) &^ 3
		axpyAVX2(ptr(y), ptr(a), n, s)
		axpyGo(y[n:], a[n:], s)
	default:
		axpyGo(y, a, s)
	}
}

func scale(y, a []float64, s float64) {
	a = a[:len(y)]
	switch lvl {
	case levelAVX512:
		scaleAVX512(ptr(y), ptr(a), len(y), s)
	case levelAVX2:
		n := len(y) &^ 3
		scaleAVX2(ptr(y), ptr(a), n, s)
		scaleGo(y[n:], a[n:], s)
	default:
		scaleGo(y, a, s)
	}
}

func mulInc(y, a, x []float64) {
	a, x = a[:len(y)], x[:len(y)]
	switch lvl {
	case levelAVX512:
		mulIncAVX512(ptr(y), ptr(a), ptr(x), len(y))
	case levelAVX2:
		n := len(y) &^ 3
		mulIncAVX2(ptr(y), ptr(a), ptr(x), n)
		mulIncGo(y[n:], a[n:], x[n:])
	default:
		mulIncGo(y, a, x)
	}
}

func add(y, x []float64) {
	x = x[:len(y)]
	switch lvl {
	case levelAVX512:
		addAVX512(ptr(y), ptr(x), len(y))
	case levelAVX2:
		n := len(y) &^ 3
		addAVX2(ptr(y), ptr(x), n)
		addGo(y[n:], x[n:])
	default:
		addGo(y, x)
	}
}

func axpyTo(y, b, a []float64, s float64) {
	b, a = b[:len(y)], a[:len(y)]
	switch lvl {
	case levelAVX512:
		axpyToAVX512(ptr(y), ptr(b), ptr(a), len(y), s)
	case levelAVX2:
		n := len(y) &^ 3
		axpyToAVX2(ptr(y), ptr(b), ptr(a), n, s)
		axpyToGo(y[n:], b[n:], a[n:], s)
	default:
		axpyToGo(y, b, a, s)
	}
}

func axpyRelu(out, b, a []float64, s, amp float64) {
	b, a = b[:len(out)], a[:len(out)]
	switch lvl {
	case levelAVX512:
		axpyReluAVX512(ptr(out), ptr(b), ptr(a), len(out), s, amp)
	case levelAVX2:
		n := len(out) &^ 3
		axpyReluAVX2(ptr(out), ptr(b), ptr(a), n, s, amp)
		axpyReluGo(out[n:], b[n:], a[n:], s, amp)
	default:
		axpyReluGo(out, b, a, s, amp)
	}
}

func gainRelu(out, x, g, b []float64, amp float64) {
	x, g, b = x[:len(out)], g[:len(out)], b[:len(out)]
	switch lvl {
	case levelAVX512:
		gainReluAVX512(ptr(out), ptr(x), ptr(g), ptr(b), len(out), amp)
	case levelAVX2:
		n := len(out) &^ 3
		gainReluAVX2(ptr(out), ptr(x), ptr(g), ptr(b), n, amp)
		gainReluGo(out[n:], x[n:], g[n:], b[n:], amp)
	default:
		gainReluGo(out, x, g, b, amp)
	}
}

// countPositive keeps the maximum per lane and reduces the lanes in order
// at the end, as Go's loop would over the lane maxima (max is exact in
// any order; only the sign of a zero maximum may differ).
func countPositive(cnt, x, g, b []float64, mx float64) float64 {
	if lvl == levelPortable || len(cnt) < 8 {
		return countPositiveGo(cnt, x, g, b, mx)
	}
	x, g, b = x[:len(cnt)], g[:len(cnt)], b[:len(cnt)]
	var lanes [8]float64
	w, n := 8, len(cnt)
	if lvl == levelAVX512 {
		countPositiveAVX512(ptr(cnt), ptr(x), ptr(g), ptr(b), n, mx, &lanes)
	} else {
		w, n = 4, n&^3
		countPositiveAVX2(ptr(cnt), ptr(x), ptr(g), ptr(b), n, mx, &lanes)
	}
	for _, v := range lanes[:w] {
		if v > mx {
			mx = v
		}
	}
	return countPositiveGo(cnt[n:], x[n:], g[n:], b[n:], mx)
}

// lif steps the neurons in a kernel where a neuron integrates the whole
// step or none of it and does not spike (the common case), a chunk of
// blocks (eight or four neurons) per call; the kernel marks the others
// per block, and they, and the tail, go through the scalar step (the
// neurons are independent, so the order does not matter).
func lif(p lifParams, J, out, voltage, refractory []float64) {
	n := len(J)
	out, voltage, refractory = out[:n], voltage[:n], refractory[:n]
	if lvl == levelPortable {
		lifGo(p, J, out, voltage, refractory)
		return
	}
	w := 8
	if lvl == levelAVX2 {
		w = 4
	}
	const chunk = 1024 // neurons per call
	var bad [chunk / 4]uint8
	nv := n &^ (w - 1)
	for i := 0; i < nv; i += chunk {
		m := min(chunk, nv-i)
		var nbad int
		if w == 8 {
			nbad = lifAVX512(&p, &J[i], &out[i], &voltage[i], &refractory[i], m, &bad[0])
		} else {
			nbad = lifAVX2(&p, &J[i], &out[i], &voltage[i], &refractory[i], m, &bad[0])
		}
		for b := 0; nbad > 0; b++ {
			mask := bad[b]
			if mask == 0 {
				continue
			}
			nbad--
			for k := range w {
				if mask>>k&1 != 0 {
					p.lifOne(i+b*w+k, J, out, voltage, refractory)
				}
			}
		}
	}
	for k := nv; k < n; k++ {
		p.lifOne(k, J, out, voltage, refractory)
	}
}

// The dot-product family. Every sum is Dot's (see dotGo): sixteen partial
// sums over the length rounded up to whole 16-blocks, the missing
// products of the last block counted as +0. With AVX-512 the partial sums
// are two 8-wide vectors per row, with AVX2 four 4-wide ones; the last
// block is loaded zero-filled (masked), so no scalar tail remains.

func dot(a, x []float64) float64 {
	x = x[:len(a)]
	switch lvl {
	case levelAVX512:
		return dotAVX512(ptr(a), ptr(x), len(a))
	case levelAVX2:
		return dotAVX2(ptr(a), ptr(x), len(a))
	}
	return dotGo(a, x)
}

func dotAxpy(w, x, a []float64, s float64) (float64, bool) {
	if lvl == levelAVX512 {
		return dotAxpyAVX512(ptr(w), ptr(x), ptr(a), len(w), s)
	}
	return dotAxpyGo(w, x, a, s)
}

func dot2(a, b, x []float64) (float64, float64) {
	b, x = b[:len(a)], x[:len(a)]
	switch lvl {
	case levelAVX512:
		return dot2AVX512(ptr(a), ptr(b), ptr(x), len(a))
	case levelAVX2:
		return dot2AVX2(ptr(a), ptr(b), ptr(x), len(a))
	}
	return dotGo(a, x), dotGo(b, x)
}

func dot4(a0, a1, a2, a3, x []float64) (r0, r1, r2, r3 float64) {
	n := len(a0)
	a1, a2, a3, x = a1[:n], a2[:n], a3[:n], x[:n]
	switch lvl {
	case levelAVX512:
		return dot4AVX512(ptr(a0), ptr(a1), ptr(a2), ptr(a3), ptr(x), n)
	case levelAVX2:
		r0, r1 = dot2AVX2(ptr(a0), ptr(a1), ptr(x), n)
		r2, r3 = dot2AVX2(ptr(a2), ptr(a3), ptr(x), n)
		return r0, r1, r2, r3
	}
	return dotGo(a0, x), dotGo(a1, x), dotGo(a2, x), dotGo(a3, x)
}

// dotRows runs the rows in pairs through the two-row kernel.
func dotRows(out, w []float64, nx int, rows []int, x []float64) {
	if lvl == levelPortable {
		dotRowsGo(out, w, nx, rows, x)
		return
	}
	x = x[:nx]
	row := func(k int) []float64 {
		r := k
		if rows != nil {
			r = rows[k]
		}
		return w[r*nx : (r+1)*nx : (r+1)*nx]
	}
	k := 0
	for ; k+1 < len(out); k += 2 {
		a, b := row(k), row(k+1)
		if lvl == levelAVX512 {
			out[k], out[k+1] = dot2AVX512(ptr(a), ptr(b), ptr(x), nx)
		} else {
			out[k], out[k+1] = dot2AVX2(ptr(a), ptr(b), ptr(x), nx)
		}
	}
	if k < len(out) {
		out[k] = dot(row(k), x)
	}
}

// ensDot2 computes the rates a vector at a time (amp·max(0, bias +
// enc·x) with VMAXPD's zero-first operand order, as relu) and
// accumulates both decoder rows in dot's partial sums, in one kernel.
func ensDot2(a []float64, keep bool, bias, enc []float64, x, amp float64, d1, d2 []float64) (s1, s2 float64) {
	n := len(a)
	bias, enc, d1 = bias[:n], enc[:n], d1[:n]
	if lvl == levelPortable {
		return ensDot2Go(a, bias, enc, x, amp, d1, d2)
	}
	mode := 0
	if keep {
		mode |= 1
	}
	if amp == 1 && !keep {
		mode |= 2
	}
	pd2 := ptr(d1)
	if d2 != nil {
		pd2 = ptr(d2[:n])
	} else {
		mode |= 4
	}
	if lvl == levelAVX512 {
		s1, s2 = ensDot2AVX512(ptr(a), ptr(bias), ptr(enc), ptr(d1), pd2, n, x, amp, mode)
	} else {
		s1, s2 = ensDot2AVX2(ptr(a), ptr(bias), ptr(enc), ptr(d1), pd2, n, x, amp, mode)
	}
	if d2 == nil {
		s2 = 0
	}
	return s1, s2
}

// The eight-ensemble octets (EnsOct): AVX-512 kernels (an 8-wide vector
// per stripe; ensOct1 and ensOct1x2 in oct_amd64.s), and one AVX2 kernel
// for every variant (two 4-wide halves).

func ensOctUnit1(p []float64, n int, x, s1 *[8]float64) {
	_ = p[n*OctWidth(false)-1]
	switch lvl {
	case levelAVX512:
		ensOct1(unsafe.SliceData(p), n, x, s1)
	case levelAVX2:
		var s2 [8]float64
		ensOctAVX2(unsafe.SliceData(p), n, false, x, 1, s1, &s2)
	default:
		var s2 [8]float64
		ensOctGo(p, n, false, x, 1, s1, &s2)
	}
}

func ensOctUnit2(p []float64, n int, x, s1, s2 *[8]float64) {
	_ = p[n*OctWidth(true)-1]
	switch lvl {
	case levelAVX512:
		ensOctUnit2AVX512(unsafe.SliceData(p), n, x, 1, s1, s2)
	case levelAVX2:
		ensOctAVX2(unsafe.SliceData(p), n, true, x, 1, s1, s2)
	default:
		ensOctGo(p, n, true, x, 1, s1, s2)
	}
}

func ensOctAmp(p []float64, n int, two bool, x *[8]float64, amp float64, s1, s2 *[8]float64) {
	_ = p[n*OctWidth(two)-1]
	switch {
	case lvl == levelAVX512 && two:
		ensOctAmp2AVX512(unsafe.SliceData(p), n, x, amp, s1, s2)
	case lvl == levelAVX512:
		ensOctAmp1AVX512(unsafe.SliceData(p), n, x, amp, s1, s2)
	case lvl == levelAVX2:
		ensOctAVX2(unsafe.SliceData(p), n, two, x, amp, s1, s2)
		if !two {
			*s2 = [8]float64{}
		}
	default:
		ensOctGo(p, n, two, x, amp, s1, s2)
	}
}

func ensOct1Lanes2(p []float64, n int, xa, xb, sa, sb *[8]float64) {
	if n <= 0 {
		*sa, *sb = [8]float64{}, [8]float64{}
		return
	}
	if lvl != levelAVX512 {
		ensOctUnit1(p, n, xa, sa)
		ensOctUnit1(p, n, xb, sb)
		return
	}
	_ = p[n*OctWidth(false)-1]
	ensOct1x2(unsafe.SliceData(p), n, xa, xb, sa, sb)
}

func lowpass(y, x, u []float64, a, b float64) {
	x, u = x[:len(y)], u[:len(y)]
	switch lvl {
	case levelAVX512:
		lowpassAVX512(ptr(y), ptr(x), ptr(u), len(y), a, b)
	case levelAVX2:
		n := len(y) &^ 3
		lowpassAVX2(ptr(y), ptr(x), ptr(u), n, a, b)
		lowpassGo(y[n:], x[n:], u[n:], a, b)
	default:
		lowpassGo(y, x, u, a, b)
	}
}

func firstNaN(x []float64) int {
	switch lvl {
	case levelAVX512:
		return firstNaNAVX512(ptr(x), len(x))
	case levelAVX2:
		n := len(x) &^ 3
		if i := firstNaNAVX2(ptr(x), n); i >= 0 {
			return i
		}
		if i := firstNaNGo(x[n:]); i >= 0 {
			return n + i
		}
		return -1
	}
	return firstNaNGo(x)
}

// vecMat keeps 32 outputs in vector registers while it walks the rows of
// m, so each output is summed over l in order without a load and store
// per row (a product rounded, then added: no fused multiply-add).
func vecMat(y, x, m []float64, d int) {
	if lvl == levelPortable || d <= 0 {
		vecMatGo(y, x, m, d)
		return
	}
	y = y[:d]
	if len(x) > 0 {
		_ = m[len(x)*d-1]
	}
	if lvl == levelAVX512 {
		vecMatAVX512(ptr(y), ptr(x), ptr(m), len(x), d)
		return
	}
	vecMatAVX2(ptr(y), ptr(x), ptr(m), len(x), d)
	if j := d &^ 3; j < d {
		// the last columns, in the same order
		rest := y[j:]
		clear(rest)
		for l, a := range x {
			r := m[l*d+j : (l+1)*d : (l+1)*d]
			for k, v := range r {
				rest[k] += float64(a * v)
			}
		}
	}
}
