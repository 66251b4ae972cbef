package vec

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// matchLengths are TestMatchesPortable's lengths: every one up to 70
// (each tail of the 4-, 8- and 16-wide blocks), then a few large ones.
func matchLengths() []int {
	var ns []int
	for n := range 71 {
		ns = append(ns, n)
	}
	return append(ns, 156, 1001, 4099)
}

// The exported loops must equal the reference Go loops bit for bit,
// whatever kernels run (the AVX-512 and AVX2 ones on amd64: TestVariants
// forces each), on inputs with NaN, ±Inf and ±0, of every length up to
// 70, and on sub-slices that start off a vector's alignment.
func TestMatchesPortable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range matchLengths() {
		// off: the slices start 1–3 values into their arrays (unaligned)
		off := n % 4
		mk := func() []float64 { return make([]float64, n+off)[off:] }
		a, x, y := mk(), mk(), mk()
		for i := range a {
			a[i], x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()*1e3, rng.NormFloat64()
		}
		if n > 2 {
			x[1], x[2] = math.NaN(), math.Copysign(0, -1)
		}
		if n > 6 {
			x[n-1], y[n/2], a[n-2] = math.Inf(1), math.Copysign(0, -1), math.Inf(-1)
			y[n-3] = math.Inf(-1)
		}
		same := func(name string, got, want []float64) {
			t.Helper()
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
					if got[i] == want[i] { // ±0
						continue
					}
					t.Fatalf("%s n=%d: [%d] = %v, want %v", name, n, i, got[i], want[i])
				}
			}
		}
		g, w := mk(), mk()
		Relu(g, x, 2.5)
		reluGo(w, x, 2.5)
		same("Relu", g, w)
		copy(g, y)
		copy(w, y)
		Axpy(g, a, 0.3)
		axpyGo(w, a, 0.3)
		same("Axpy", g, w)
		Scale(g, a, 0.7)
		scaleGo(w, a, 0.7)
		same("Scale", g, w)
		AxpyTo(g, y, a, 0.3)
		axpyToGo(w, y, a, 0.3)
		same("AxpyTo", g, w)
		{
			// Lowpass: state and output, twice (the state carries over);
			// the second time in place (y = u)
			xs, xw := append([]float64(nil), a...), append([]float64(nil), a...)
			Lowpass(g, xs, x, 0.9, 0.1)
			lowpassGo(w, xw, x, 0.9, 0.1)
			same("Lowpass", g, w)
			same("Lowpass state", xs, xw)
			gu, wu := append([]float64(nil), y...), append([]float64(nil), y...)
			Lowpass(gu, xs, gu, 0.9, 0.1)
			lowpassGo(wu, xw, wu, 0.9, 0.1)
			same("Lowpass in place", gu, wu)
			same("Lowpass state 2", xs, xw)
		}
		{
			// DotAxpy: the product with the old row, then the update
			gw, ww := append([]float64(nil), y...), append([]float64(nil), y...)
			gd, gnan := DotAxpy(gw, a, x, 0.3)
			wd := dotGo(ww, a)
			axpyGo(ww, x, 0.3)
			same("DotAxpy product", []float64{gd}, []float64{wd})
			same("DotAxpy row", gw, ww)
			if wnan := firstNaNGo(ww) >= 0; gnan != wnan {
				t.Fatalf("DotAxpy n=%d: nan = %v, want %v", n, gnan, wnan)
			}
			// no NaN in finite rows; a NaN made in the loop or the tail
			fin := func() []float64 {
				r := make([]float64, n)
				for i := range r {
					r[i] = rng.NormFloat64()
				}
				return r
			}
			r, ar := fin(), fin()
			if _, nan := DotAxpy(r, ar, ar, 0.5); nan {
				t.Fatalf("DotAxpy n=%d: NaN reported in a finite row", n)
			}
			for _, at := range []int{0, n / 2, n - 1} {
				if n == 0 {
					break
				}
				r, ar := fin(), fin()
				r[at], ar[at] = math.Inf(1), math.Inf(-1) // Inf + (−Inf)·0.5 = NaN
				if _, nan := DotAxpy(r, ar, ar, 0.5); !nan {
					t.Fatalf("DotAxpy n=%d: NaN made at %d not reported", n, at)
				}
			}
			// an Inf factor: the masked tail lanes (0·Inf) must not count
			r = fin()
			if _, nan := DotAxpy(r, ar, fin(), math.Inf(1)); nan != (firstNaNGo(r) >= 0) {
				t.Fatalf("DotAxpy n=%d: Inf factor: nan = %v, row %v", n, nan, r)
			}
		}
		AxpyRelu(g, y, a, 0.3, 2.5)
		axpyToGo(w, y, a, 0.3)
		reluGo(w, w, 2.5)
		same("AxpyRelu vs AxpyTo+Relu", g, w)
		for _, two := range []bool{false, true} {
			var d2 []float64
			if two {
				d2 = x
			}
			if u1, u2 := EnsDot2(make([]float64, n), false, y, a, 0.3, 1, a, d2); true {
				w := make([]float64, n)
				axpyReluGo(w, y, a, 0.3, 1)
				v1, v2 := dotGo(a, w), 0.0
				if two {
					v2 = dotGo(x, w)
				}
				same("EnsDot2 amplitude 1", []float64{u1, u2}, []float64{v1, v2})
			}
			s1, s2 := EnsDot2(g, true, y, a, 0.3, 2.5, a, d2)
			if t1, t2 := EnsDot2(make([]float64, n), false, y, a, 0.3, 2.5, a, d2); t1 != s1 && !(t1 != t1 && s1 != s1) || t2 != s2 && !(t2 != t2 && s2 != s2) {
				t.Fatalf("EnsDot2 without keep n=%d: %v %v, want %v %v", n, t1, t2, s1, s2)
			}
			axpyReluGo(w, y, a, 0.3, 2.5)
			same("EnsDot2 rates", g, w)
			w1, w2 := dotGo(a, w), 0.0
			if two {
				w2 = dotGo(x, w)
			}
			same("EnsDot2 sums", []float64{s1, s2}, []float64{w1, w2})
		}
		GainRelu(g, x, a, y, 1.5)
		gainReluGo(w, x, a, y, 1.5)
		same("GainRelu", g, w)
		for j := range w {
			w[j] = 1.5 * max(0, float64(a[j]*x[j])+y[j]) // neurons.reluRates' form
		}
		same("GainRelu vs reluRates", g, w)
		xs0 := append([]float64(nil), x...) // no NaN: a NaN current is neither counted nor a maximum in both
		if n > 2 {
			xs0[1] = 0.5
		}
		for _, mx := range []float64{math.Inf(-1), 300} {
			copy(g, y)
			copy(w, y)
			m1, m2 := CountPositive(g, xs0, a, y, mx), countPositiveGo(w, xs0, a, y, mx)
			same("CountPositive counts", g, w)
			same("CountPositive max", []float64{m1}, []float64{m2})
		}
		AxpyRelu(g, x, a, -0.7, 1.5)
		axpyReluGo(w, x, a, -0.7, 1.5)
		same("AxpyRelu", g, w)
		copy(g, y)
		copy(w, y)
		MulInc(g, a, x)
		mulIncGo(w, a, x)
		same("MulInc", g, w)
		copy(g, y)
		copy(w, y)
		Add(g, a)
		addGo(w, a)
		same("Add", g, w)
		xs := append(mk()[:0], x...) // x without NaN and ±Inf
		for i, v := range xs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				xs[i] = 1
			}
		}
		// the dot products: bit for bit (any NaN equals any NaN: the
		// infinities of the input make some sums NaN)
		eq := func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) || u != u && v != v }
		if d, e := Dot(a, xs), dotGo(a, xs); !eq(d, e) {
			t.Fatalf("Dot n=%d = %v, want %v", n, d, e)
		}
		if d0, d1, d2, d3 := Dot4(a, y, xs, x, xs); !eq(d0, dotGo(a, xs)) || !eq(d1, dotGo(y, xs)) ||
			!eq(d2, dotGo(xs, xs)) || !eq(d3, dotGo(x, xs)) {
			t.Fatalf("Dot4 n=%d = %v %v %v %v", n, d0, d1, d2, d3)
		}
		if d1, d2 := Dot2(a, y, xs); !eq(d1, dotGo(a, xs)) || !eq(d2, dotGo(y, xs)) {
			t.Fatalf("Dot2 n=%d = %v %v, want %v %v", n, d1, d2, dotGo(a, xs), dotGo(y, xs))
		}
	}
}

// TestLowpassFlushesSubnormals: a filter state that decays below the
// smallest normal becomes +0 (in the state and the output), normal values,
// NaN and ±Inf pass, in every kernel's loop and tail.
func TestLowpassFlushesSubnormals(t *testing.T) {
	const a, b = 0.8187307530779818, 0.18126924692201818
	smallest := math.SmallestNonzeroFloat64
	states := []float64{1.5 * MinNormal, 1.1 * MinNormal, smallest, -1.3 * MinNormal, 1, math.NaN(),
		math.Inf(1), 0, -1.1 * MinNormal, 3 * MinNormal, smallest * 7, 2, -0.5, math.Inf(-1),
		1.2 * MinNormal, -smallest, 1e-300, 1e-310, 0.25}
	for n := 1; n <= len(states); n++ {
		xs, xw := slices.Clone(states[:n]), slices.Clone(states[:n])
		u := make([]float64, n)
		if n > 4 {
			u[4] = 1e-309 / b // a subnormal product b·u into a normal state
		}
		g, w := make([]float64, n), make([]float64, n)
		Lowpass(g, xs, u, a, b)
		lowpassGo(w, xw, u, a, b)
		for i := range n {
			want := float64(a*states[i]) + float64(b*u[i])
			if math.Float64bits(want)&expBits == 0 {
				want = 0
			}
			for _, got := range []float64{g[i], xs[i], w[i], xw[i]} {
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("n=%d: state %v → %v (bits %x), want %v", n, states[i], got, math.Float64bits(got), want)
				}
			}
		}
	}
	if FlushSubnormal(MinNormal) != MinNormal || FlushSubnormal(-MinNormal) != -MinNormal {
		t.Error("FlushSubnormal changed the smallest normal")
	}
	if v := FlushSubnormal(math.Nextafter(MinNormal, 0)); math.Float64bits(v) != 0 {
		t.Errorf("FlushSubnormal(largest subnormal) = %v, want +0", v)
	}
}

func TestReluNaN(t *testing.T) {
	out := make([]float64, 8)
	J := []float64{-1, 2, math.NaN(), 0, -0.5, 3, math.Inf(-1), math.Inf(1)}
	Relu(out, J, 2)
	want := []float64{0, 4, math.NaN(), 0, 0, 6, 0, math.Inf(1)}
	for i := range want {
		if out[i] != want[i] && !(math.IsNaN(out[i]) && math.IsNaN(want[i])) {
			t.Errorf("Relu[%d] = %v, want %v", i, out[i], want[i])
		}
	}
}

// TestLIFMatchesPortable steps neurons in every regime (refractory, partly
// refractory, spiking, clipped, NaN input) with LIF and the portable loop.
func TestLIFMatchesPortable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 2503 // beyond two of the kernels' chunks, and a tail
	J := make([]float64, n)
	v1, r1 := make([]float64, n), make([]float64, n)
	for i := range J {
		J[i] = rng.Float64()*6 - 2
		v1[i] = rng.Float64()
		if i%3 == 0 {
			r1[i] = rng.Float64() * 0.003
		}
	}
	J[10] = math.NaN()
	v2, r2 := append([]float64(nil), v1...), append([]float64(nil), r1...)
	o1, o2 := make([]float64, n), make([]float64, n)
	p := newLIF(0.001, 0.02, 0.002, -1, 1)
	for step := range 200 {
		LIF(0.001, 0.02, 0.002, -1, 1, J, o1, v1, r1)
		lifGo(p, J, o2, v2, r2)
		for i := range J {
			for _, c := range [][2]float64{{o1[i], o2[i]}, {v1[i], v2[i]}, {r1[i], r2[i]}} {
				if math.Float64bits(c[0]) != math.Float64bits(c[1]) && !(c[0] != c[0] && c[1] != c[1]) {
					t.Fatalf("step %d neuron %d: %v, want %v", step, i, c[0], c[1])
				}
			}
		}
	}
	spikes := 0
	for _, o := range o1 {
		if o > 0 {
			spikes++
		}
	}
	if spikes == 0 {
		t.Error("no neuron spiked in the last step: the test misses the spiking path")
	}
}

func BenchmarkLIF(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	J, out, v, r := make([]float64, 9984), make([]float64, 9984), make([]float64, 9984), make([]float64, 9984)
	for i := range J {
		J[i] = rng.Float64()*4 - 1
	}
	for b.Loop() {
		LIF(0.001, 0.02, 0.002, -1, 1, J, out, v, r)
	}
}

// EnsOct must give every ensemble of the eight what EnsDot2 gives it
// alone, bit for bit, whatever the sizes (shorter ensembles zero-padded
// to the octet's n), the number of decoder rows and the amplitude.
func TestEnsOct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 15, 16, 17, 26, 31, 32, 33, 52, 156} {
		for _, two := range []bool{false, true} {
			for _, amp := range []float64{1, 0.37, 2.5} {
				p := make([]float64, n*OctWidth(two))
				var x [8]float64
				sizes := [8]int{}
				type ens struct{ bias, enc, d1, d2 []float64 }
				var es [8]ens
				for e := range 8 {
					sizes[e] = n
					if e%3 == 1 {
						sizes[e] = 1 + rng.IntN(n) // shorter, padded
					}
					x[e] = rng.NormFloat64()
					m := sizes[e]
					es[e] = ens{make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)}
					for i := range m {
						es[e].bias[i], es[e].enc[i] = rng.NormFloat64(), rng.NormFloat64()
						es[e].d1[i], es[e].d2[i] = rng.NormFloat64()*1e-3, rng.NormFloat64()
						o := OctOffset(n, i, two)
						p[o+e], p[o+8+e], p[o+16+e] = es[e].bias[i], es[e].enc[i], es[e].d1[i]
						if two {
							p[o+24+e] = es[e].d2[i]
						}
					}
				}
				var s1, s2 [8]float64
				EnsOct(p, n, two, &x, amp, &s1, &s2)
				if !two && amp == 1 {
					// two lanes at once: each equals its own EnsOct
					var y, sy, sa, sb, u [8]float64
					for e := range y {
						y[e] = rng.NormFloat64()
					}
					EnsOct(p, n, false, &y, 1, &sy, &u)
					EnsOct1Lanes2(p, n, &x, &y, &sa, &sb)
					for e := range 8 {
						if math.Float64bits(sa[e]) != math.Float64bits(s1[e]) || math.Float64bits(sb[e]) != math.Float64bits(sy[e]) {
							t.Fatalf("n=%d: EnsOct1Lanes2 = %v, %v; want %v, %v", n, sa, sb, s1, sy)
						}
					}
				}
				for e := range 8 {
					m := sizes[e]
					var d2 []float64
					if two {
						d2 = es[e].d2
					}
					w1, w2 := ensDot2Go(make([]float64, m), es[e].bias, es[e].enc, x[e], amp, es[e].d1, d2)
					if math.Float64bits(s1[e]) != math.Float64bits(w1) || math.Float64bits(s2[e]) != math.Float64bits(w2) {
						t.Fatalf("n=%d two=%v amp=%v ensemble %d (%d neurons): %v %v, want %v %v", n, two, amp, e, m, s1[e], s2[e], w1, w2)
					}
				}
			}
		}
	}
}

// OctOffset must place the n neurons in n distinct blocks, stripe-major.
func TestOctOffset(t *testing.T) {
	for _, n := range []int{1, 5, 16, 17, 40} {
		seen := map[int]bool{}
		prev := -32
		for _, k := range octStripes {
			for i := k; i < n; i += 16 {
				o := OctOffset(n, i, true)
				if o != prev+32 || seen[o] {
					t.Fatalf("n=%d neuron %d at %d after %d", n, i, o, prev)
				}
				seen[o], prev = true, o
			}
		}
		if prev+32 != n*OctWidth(true) {
			t.Fatalf("n=%d: pack ends at %d, want %d", n, prev+32, n*OctWidth(true))
		}
	}
}

// DotRows must equal Dot row by row, bit for bit.
func TestDotRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, nx := range []int{0, 1, 15, 16, 17, 32, 40, 192, 388} {
		for _, ny := range []int{0, 1, 2, 5} {
			w, x := make([]float64, nx*ny), make([]float64, nx+3)
			for i := range w {
				w[i] = rng.NormFloat64()
			}
			for i := range x {
				x[i] = rng.NormFloat64() * 10
			}
			for _, rows := range [][]int{nil, {ny - 1, 0, ny - 1}} {
				n := ny
				if rows != nil {
					if ny == 0 {
						continue
					}
					n = len(rows)
				}
				out := make([]float64, n)
				DotRows(out, w, nx, rows, x)
				for k := range out {
					r := k
					if rows != nil {
						r = rows[k]
					}
					if want := dotGo(w[r*nx:(r+1)*nx], x); math.Float64bits(out[k]) != math.Float64bits(want) {
						t.Fatalf("nx=%d ny=%d rows=%v: out[%d] = %v, want %v", nx, ny, rows, k, out[k], want)
					}
				}
			}
		}
	}
}

// TestDotRowsLanes: every lane's sums equal DotRows's for that lane alone,
// bit for bit (tails of 1–15 values, short rows, a row of −0, lane counts
// around the four-lane kernel's).
func TestDotRowsLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, nx := range []int{1, 8, 15, 16, 17, 24, 31, 32, 40, 192, 388, 400} {
		for _, ny := range []int{0, 1, 3, 7} {
			for _, lanes := range []int{1, 3, 4, 5, 8, 9} {
				w := make([]float64, nx*ny)
				for i := range w {
					w[i] = rng.NormFloat64()
				}
				if ny > 1 {
					for i := range nx {
						w[nx+i] = math.Copysign(0, -1)
					}
				}
				x, out := make([][]float64, lanes), make([][]float64, lanes)
				for l := range x {
					x[l] = make([]float64, nx+l%3)
					for i := range x[l] {
						x[l][i] = rng.NormFloat64() * 10
					}
					out[l] = make([]float64, ny)
				}
				DotRowsLanes(out, w, nx, x)
				want := make([]float64, ny)
				for l := range x {
					dotRowsGo(want, w, nx, nil, x[l][:nx])
					for k := range want {
						if math.Float64bits(out[l][k]) != math.Float64bits(want[k]) {
							t.Fatalf("nx=%d ny=%d lanes=%d: lane %d row %d = %v, want %v", nx, ny, lanes, l, k, out[l][k], want[k])
						}
					}
				}
			}
		}
	}
}

// TestFirstNaN: the first NaN anywhere (vector blocks and the tail),
// none, and infinities (which the vector test flags) that are not NaN.
func TestFirstNaN(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 16, 37, 64} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i) - 3.5
		}
		if got := FirstNaN(x); got != -1 {
			t.Fatalf("n=%d, no NaN: got %d", n, got)
		}
		for at := range n {
			y := slices.Clone(x)
			y[at] = math.NaN()
			if at+2 < n {
				y[at+2] = math.NaN()
			}
			if got := FirstNaN(y); got != at {
				t.Fatalf("n=%d, NaN at %d: got %d", n, at, got)
			}
			y = slices.Clone(x)
			y[at] = math.Inf(1 - 2*(at%2))
			if got := FirstNaN(y); got != -1 {
				t.Fatalf("n=%d, Inf at %d: got %d", n, at, got)
			}
		}
	}
}

// TestVecMat: every output is the in-order sum of rounded products, bit
// for bit, for widths around the 32-column blocks.
func TestVecMat(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, d := range []int{1, 8, 31, 32, 33, 64, 70, 192} {
		for _, k := range []int{0, 1, 7, 192} {
			x, m := make([]float64, k), make([]float64, k*d)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			for i := range m {
				m[i] = rng.NormFloat64()
			}
			y := make([]float64, d)
			for i := range y {
				y[i] = 5 // overwritten
			}
			VecMat(y, x, m, d)
			for j := range d {
				acc := 0.0
				for l := range k {
					acc += float64(x[l] * m[l*d+j])
				}
				if math.Float64bits(y[j]) != math.Float64bits(acc) {
					t.Fatalf("d=%d k=%d: y[%d] = %v, want %v", d, k, j, y[j], acc)
				}
			}
		}
	}
}

// TestKernels: the name of the inner loops agrees with Vectorized.
func TestKernels(t *testing.T) {
	k := Kernels()
	if portable := strings.HasPrefix(k, "portable"); portable == Vectorized {
		t.Errorf("Kernels() = %q with Vectorized = %v", k, Vectorized)
	}
}
