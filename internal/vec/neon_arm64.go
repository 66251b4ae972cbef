//go:build arm64 && !purego

package vec

import (
	"fmt"
	"math"
	"os"

	"github.com/neurogo/neurogo/internal/cpufeat"
)

// The arm64 loops: NEON (Advanced SIMD, two float64 lanes per register)
// assembly in neon_arm64.s, equal to the Go loops of generic.go bit for
// bit. The element-wise kernels take eight values at a time and leave the
// rest to the Go loops; Dot and its relatives hold the sixteen partial
// sums in eight registers.

// useNEON selects the assembly: Advanced SIMD is part of the arm64
// architecture (internal/cpufeat), and NEUROGO_VEC=portable switches it
// off for a whole process, as on amd64 (see doc.go); the tests switch it
// off to compare with the portable loops. why says why it is off.
var (
	useNEON = cpufeat.ARM64.HasASIMD
	why     string
)

// Vectorized reports whether the loops use SIMD instructions.
var Vectorized bool

func init() {
	useNEON, why = envCap(useNEON, why, os.Getenv("NEUROGO_VEC"))
	Vectorized = useNEON
}

// envCap applies NEUROGO_VEC's value env to the choice use (with its
// reason why).
func envCap(use bool, why, env string) (bool, string) {
	if !use {
		why = "the CPU lacks Advanced SIMD"
	}
	switch env {
	case "", "neon":
	case "portable":
		use, why = false, "NEUROGO_VEC=portable"
	default:
		// not a panic: a misspelt variable must not stop a run
		why = fmt.Sprintf("NEUROGO_VEC=%q is not portable or neon", env)
	}
	return use, why
}

// Kernels names the inner loops this binary runs, for version output and
// measurement headers (a slow build should be visible).
func Kernels() string {
	name := "portable Go loops"
	if useNEON {
		name = "NEON assembly (arm64)"
	}
	if why != "" {
		name += " (" + why + ")"
	}
	return name
}

//go:noescape
func dotNEON(a, x *float64, n int) float64

//go:noescape
func dot2StepNEON(a, b, x *float64, n, count, sa, sb, sx int, oa, ob *float64, so int)

func dot2NEON(a, b, x *float64, n int) (s, t float64) {
	dot2StepNEON(a, b, x, n, 1, 0, 0, 0, &s, &t, 0)
	return s, t
}

//go:noescape
func ensOctNEON(p *float64, n, mode int, xa, xb *[8]float64, amp float64, s1, s2 *[8]float64)

//go:noescape
func reluNEON(out, j *float64, n int, amp float64)

//go:noescape
func axpyNEON(y, a *float64, n int, s float64)

//go:noescape
func scaleNEON(y, a *float64, n int, s float64)

//go:noescape
func mulIncNEON(y, a, x *float64, n int)

//go:noescape
func addNEON(y, x *float64, n int)

//go:noescape
func axpyToNEON(y, b, a *float64, n int, s float64)

//go:noescape
func axpyReluNEON(out, b, a *float64, n int, s, amp float64)

//go:noescape
func gainReluNEON(out, x, gn, b *float64, n int, amp float64)

//go:noescape
func lowpassNEON(y, x, u *float64, n int, a, b float64)

//go:noescape
func nanSumNEON(x *float64, n int) float64

//go:noescape
func vecMatNEON(y, x, m *float64, nx, d, cols int)

// blocks8 is the part of n the element-wise kernels take (0 without NEON).
func blocks8(n int) int {
	if !useNEON {
		return 0
	}
	return n &^ 7
}

func relu(out, J []float64, amp float64) {
	out = out[:len(J)]
	n := blocks8(len(J))
	if n > 0 {
		reluNEON(&out[0], &J[0], n, amp)
	}
	reluGo(out[n:], J[n:], amp)
}

func axpy(y, a []float64, s float64) {
	a = a[:len(y)]
	n := blocks8(len(y))
	if n > 0 {
		axpyNEON(&y[0], &a[0], n, s)
	}
	axpyGo(y[n:], a[n:], s)
}

func scale(y, a []float64, s float64) {
	a = a[:len(y)]
	n := blocks8(len(y))
	if n > 0 {
		scaleNEON(&y[0], &a[0], n, s)
	}
	scaleGo(y[n:], a[n:], s)
}

func mulInc(y, a, x []float64) {
	a, x = a[:len(y)], x[:len(y)]
	n := blocks8(len(y))
	if n > 0 {
		mulIncNEON(&y[0], &a[0], &x[0], n)
	}
	mulIncGo(y[n:], a[n:], x[n:])
}

func add(y, x []float64) {
	x = x[:len(y)]
	n := blocks8(len(y))
	if n > 0 {
		addNEON(&y[0], &x[0], n)
	}
	addGo(y[n:], x[n:])
}

func dot(a, x []float64) float64 {
	x = x[:len(a)]
	if !useNEON || len(a) == 0 {
		return dotGo(a, x)
	}
	return dotNEON(&a[0], &x[0], len(a))
}

func dotAxpy(w, x, a []float64, s float64) (float64, bool) { return dotAxpyGo(w, x, a, s) }

func dot2(a, b, x []float64) (float64, float64) {
	b, x = b[:len(a)], x[:len(a)]
	if !useNEON || len(a) == 0 {
		return dotGo(a, x), dotGo(b, x)
	}
	return dot2NEON(&a[0], &b[0], &x[0], len(a))
}

// dot4: sixteen partial sums for each of four rows need 32 registers
// before any load, so the rows go two at a time (x is read twice).
func dot4(a0, a1, a2, a3, x []float64) (float64, float64, float64, float64) {
	n := len(a0)
	s0, s1 := dot2(a0, a1[:n], x)
	s2, s3 := dot2(a2[:n], a3[:n], x)
	return s0, s1, s2, s3
}

func axpyTo(y, b, a []float64, s float64) {
	b, a = b[:len(y)], a[:len(y)]
	n := blocks8(len(y))
	if n > 0 {
		axpyToNEON(&y[0], &b[0], &a[0], n, s)
	}
	axpyToGo(y[n:], b[n:], a[n:], s)
}

// ensDot2 writes the rates to a (scratch without keep) and sums them
// with both decoder rows in one pass over a.
func ensDot2(a []float64, keep bool, bias, enc []float64, x, amp float64, d1, d2 []float64) (s1, s2 float64) {
	if !useNEON {
		return ensDot2Go(a, bias, enc, x, amp, d1, d2)
	}
	n := len(a)
	axpyRelu(a, bias, enc, x, amp)
	if d2 == nil {
		return dot(d1[:n], a), 0
	}
	return dot2(d1[:n], d2[:n], a)
}

func axpyRelu(out, b, a []float64, s, amp float64) {
	b, a = b[:len(out)], a[:len(out)]
	n := blocks8(len(out))
	if n > 0 {
		axpyReluNEON(&out[0], &b[0], &a[0], n, s, amp)
	}
	axpyReluGo(out[n:], b[n:], a[n:], s, amp)
}

func gainRelu(out, x, g, b []float64, amp float64) {
	x, g, b = x[:len(out)], g[:len(out)], b[:len(out)]
	n := blocks8(len(out))
	if n > 0 {
		gainReluNEON(&out[0], &x[0], &g[0], &b[0], n, amp)
	}
	gainReluGo(out[n:], x[n:], g[n:], b[n:], amp)
}

//go:noescape
func countPositiveNEON(cnt, x, gn, b *float64, n int, mx float64, m *[4]float64)

// countPositive: four lanes, each keeping the first of its largest
// currents; the first overall is the lanes' largest, except between +0
// and −0, where the lanes cannot tell which came first and a scalar pass
// over the currents decides.
func countPositive(cnt, x, g, b []float64, mx float64) float64 {
	x, g, b = x[:len(cnt)], g[:len(cnt)], b[:len(cnt)]
	n := 0
	if useNEON {
		n = len(cnt) &^ 3
	}
	if n > 0 {
		var m [4]float64
		countPositiveNEON(&cnt[0], &x[0], &g[0], &b[0], n, mx, &m)
		r, tie := m[0], false
		for _, v := range m[1:] {
			if v > r {
				r, tie = v, false
			} else if v == r && math.Float64bits(v) != math.Float64bits(r) {
				tie = true
			}
		}
		if tie {
			for j := range n {
				if J := float64(g[j]*x[j]) + b[j]; J > mx {
					mx = J
				}
			}
		} else {
			mx = r
		}
	}
	return countPositiveGo(cnt[n:], x[n:], g[n:], b[n:], mx)
}

//go:noescape
func lifNEON(j, out, voltage, refractory *float64, n int, dt, minV, eFull, eNone float64) int

// lif steps two neurons at a time while both integrate the whole step or
// none of it and neither spikes (the common case); a pair that does not
// goes through the scalar step, as does the last odd neuron.
func lif(p lifParams, J, out, voltage, refractory []float64) {
	n := len(J)
	out, voltage, refractory = out[:n], voltage[:n], refractory[:n]
	i := 0
	if useNEON {
		for n2 := n &^ 1; i < n2; {
			i += lifNEON(&J[i], &out[i], &voltage[i], &refractory[i], n2-i, p.dt, p.minV, p.eFull, p.eNone)
			if i < n2 {
				p.lifOne(i, J, out, voltage, refractory)
				p.lifOne(i+1, J, out, voltage, refractory)
				i += 2
			}
		}
	}
	for ; i < n; i++ {
		p.lifOne(i, J, out, voltage, refractory)
	}
}

// ClearUpper is a no-op on arm64 (no AVX state to clear).
func ClearUpper() {}

// EnsOct's kernel modes (see ensOctNEON in neon_arm64.s).
const (
	octUnit1 = iota
	octAmp1
	octUnit2
	octAmp2
	octLanes2
)

func ensOctUnit1(p []float64, n int, x, s1 *[8]float64) {
	if !useNEON || n <= 0 {
		var s2 [8]float64
		ensOctGo(p, n, false, x, 1, s1, &s2)
		return
	}
	_ = p[n*OctWidth(false)-1]
	ensOctNEON(&p[0], n, octUnit1, x, x, 1, s1, s1)
}

func ensOctUnit2(p []float64, n int, x, s1, s2 *[8]float64) {
	if !useNEON || n <= 0 {
		ensOctGo(p, n, true, x, 1, s1, s2)
		return
	}
	_ = p[n*OctWidth(true)-1]
	ensOctNEON(&p[0], n, octUnit2, x, x, 1, s1, s2)
}

func ensOctAmp(p []float64, n int, two bool, x *[8]float64, amp float64, s1, s2 *[8]float64) {
	if !useNEON || n <= 0 {
		ensOctGo(p, n, two, x, amp, s1, s2)
		return
	}
	_ = p[n*OctWidth(two)-1]
	if two {
		ensOctNEON(&p[0], n, octAmp2, x, x, amp, s1, s2)
		return
	}
	ensOctNEON(&p[0], n, octAmp1, x, x, amp, s1, s1)
	*s2 = [8]float64{}
}

func ensOct1Lanes2(p []float64, n int, xa, xb, sa, sb *[8]float64) {
	if !useNEON || n <= 0 {
		var s2 [8]float64
		ensOctGo(p, n, false, xa, 1, sa, &s2)
		ensOctGo(p, n, false, xb, 1, sb, &s2)
		return
	}
	_ = p[n*OctWidth(false)-1]
	ensOctNEON(&p[0], n, octLanes2, xa, xb, 1, sa, sb)
}

// dotRows: two rows at a time, sharing each load of x; consecutive rows
// (rows nil) in one assembly call.
func dotRows(out, w []float64, nx int, rows []int, x []float64) {
	if !useNEON || nx == 0 || len(out) == 0 {
		dotRowsGo(out, w, nx, rows, x)
		return
	}
	x = x[:nx]
	k := 0
	if rows == nil {
		w = w[:len(out)*nx]
		if k = len(out) &^ 1; k > 0 {
			dot2StepNEON(&w[0], &w[nx], &x[0], nx, k/2, 16*nx, 16*nx, 0, &out[0], &out[1], 16)
		}
		if k < len(out) {
			out[k] = dotNEON(&w[k*nx], &x[0], nx)
		}
		return
	}
	row := func(k int) []float64 {
		r := rows[k]
		return w[r*nx : (r+1)*nx]
	}
	for ; k+1 < len(out); k += 2 {
		a, b := row(k), row(k+1)
		out[k], out[k+1] = dot2NEON(&a[0], &b[0], &x[0], nx)
	}
	if k < len(out) {
		out[k] = dotNEON(&row(k)[0], &x[0], nx)
	}
}

func lowpass(y, x, u []float64, a, b float64) {
	x, u = x[:len(y)], u[:len(y)]
	n := blocks8(len(y))
	if n > 0 {
		lowpassNEON(&y[0], &x[0], &u[0], n, a, b)
		// the NEON loop does not flush subnormals: a second pass does
		for i, v := range x[:n] {
			v = FlushSubnormal(v)
			x[i], y[i] = v, v
		}
	}
	lowpassGo(y[n:], x[n:], u[n:], a, b)
}

// dotRowsGroup: lanes two at a time, sharing each load of a row of w
// (Dot(row, x) = Dot(x, row): the products commute exactly), all rows in
// one assembly call; the partial sums of two lanes fill 16 of the 32
// registers, as Dot2's two rows do.
func dotRowsGroup(out [][]float64, w []float64, nx int, x [][]float64) {
	l := 0
	if useNEON && nx > 0 {
		for ; l+1 < len(out); l += 2 {
			o0, o1 := out[l], out[l+1]
			if len(o1) != len(o0) {
				break
			}
			if len(o0) == 0 {
				continue
			}
			x0, x1 := x[l][:nx], x[l+1][:nx]
			wr := w[:len(o0)*nx]
			dot2StepNEON(&x0[0], &x1[0], &wr[0], nx, len(o0), 0, 0, 8*nx, &o0[0], &o1[0], 8)
		}
	}
	for ; l < len(out); l++ {
		dotRows(out[l], w, nx, nil, x[l])
	}
}

// firstNaN sums v − v over the 8-blocks (0 for finite values, NaN for NaN
// and ±Inf) and scans the values one by one only when the sum is NaN.
func firstNaN(x []float64) int {
	n := blocks8(len(x))
	if n == 0 {
		return firstNaNGo(x)
	}
	if s := nanSumNEON(&x[0], n); s != s {
		return firstNaNGo(x)
	}
	if i := firstNaNGo(x[n:]); i >= 0 {
		return n + i
	}
	return -1
}

// vecMat: eight columns at a time in four registers down the rows of m,
// each output summed over l in order (a product rounded, then added).
func vecMat(y, x, m []float64, d int) {
	cols := blocks8(d)
	if cols == 0 || len(x) == 0 {
		vecMatGo(y, x, m, d)
		return
	}
	y = y[:d]
	_ = m[len(x)*d-1]
	vecMatNEON(&y[0], &x[0], &m[0], len(x), d, cols)
	if cols < d {
		// the last columns, in the same order
		rest := y[cols:]
		clear(rest)
		for l, a := range x {
			r := m[l*d+cols : (l+1)*d : (l+1)*d]
			for k, v := range r {
				rest[k] += float64(a * v)
			}
		}
	}
}
