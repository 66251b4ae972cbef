package vec

import "math"

// Relu sets out[i] = amp·max(J[i], 0) (NaN propagates, as np.maximum).
// len(out) must be at least len(J).
func Relu(out, J []float64, amp float64) { relu(out, J, amp) }

// Axpy adds a[i]·s to y[i]. len(a) must be at least len(y).
func Axpy(y, a []float64, s float64) { axpy(y, a, s) }

// Scale sets y[i] = a[i]·s. len(a) must be at least len(y).
func Scale(y, a []float64, s float64) { scale(y, a, s) }

// MulInc adds a[i]·x[i] to y[i]. a and x must be at least len(y) long.
func MulInc(y, a, x []float64) { mulInc(y, a, x) }

// Add adds x[i] to y[i]. len(x) must be at least len(y).
func Add(y, x []float64) { add(y, x) }

// Dot returns Σ a[j]·x[j] in the package's fixed summation order.
// len(x) must be at least len(a).
func Dot(a, x []float64) float64 { return dot(a, x) }

// DotAxpy returns Dot(w, x), adds a[j]·s to w[j] as Axpy(w, a, s) does
// and reports whether a NaN is among the new w: a learning rule's weight
// row read once for its product with the activities, its update and the
// NaN check of the result (one pass over w with AVX-512; Dot, Axpy and
// FirstNaN otherwise; equal results bit for bit either way). len(x) and
// len(a) must be at least len(w).
func DotAxpy(w, x, a []float64, s float64) (dot float64, nan bool) {
	return dotAxpy(w, x[:len(w)], a[:len(w)], s)
}

// Dot2 returns Dot(a, x) and Dot(b, x), computed together (x is loaded
// once for both rows). len(b) must equal len(a), len(x) at least len(a).
func Dot2(a, b, x []float64) (float64, float64) { return dot2(a, b, x) }

// Dot4 returns Dot(aK, x) for four rows of equal length, computed
// together. len(x) must be at least len(a0).
func Dot4(a0, a1, a2, a3, x []float64) (float64, float64, float64, float64) {
	return dot4(a0, a1, a2, a3, x)
}

// AxpyTo sets y[i] = b[i] + a[i]·s. b and a must be at least len(y) long.
func AxpyTo(y, b, a []float64, s float64) { axpyTo(y, b, a, s) }

// AxpyRelu sets out[i] = amp·max(b[i] + a[i]·s, 0): AxpyTo then Relu in
// one pass, with the same result. b and a must be at least len(out) long.
func AxpyRelu(out, b, a []float64, s, amp float64) { axpyRelu(out, b, a, s, amp) }

// GainRelu sets out[j] = amp·max(g[j]·x[j] + b[j], 0) (the product
// rounded before the sum): rectified-linear rates from per-neuron gains
// and biases. All slices must have len(out) elements.
func GainRelu(out, x, g, b []float64, amp float64) { gainRelu(out, x, g, b, amp) }

// CountPositive adds 1 to cnt[j] where the current g[j]·x[j] + b[j] (the
// product rounded before the sum, as a neuron type's currents) is
// positive and returns the largest current, or mx if it is larger. All
// slices must have len(cnt) elements.
func CountPositive(cnt, x, g, b []float64, mx float64) float64 {
	return countPositive(cnt, x, g, b, mx)
}

// EnsDot2 runs a one-dimensional rectified-linear ensemble and its first
// decoder rows in one pass: with the rates a[i] = amp·max(bias[i] +
// enc[i]·x, 0) (AxpyRelu) it returns Dot(d1, a) and Dot(d2, a) (0 for a
// nil d2), each summed in Dot's order, so the results equal the three
// calls'. len(a) is the number of neurons; the rates are stored in a only
// with keep (without it, a is scratch for builds without vector code).
// bias, enc, d1 and a non-nil d2 must be at least len(a) long.
func EnsDot2(a []float64, keep bool, bias, enc []float64, x, amp float64, d1, d2 []float64) (s1, s2 float64) {
	return ensDot2(a, keep, bias, enc, x, amp, d1, d2)
}

// LIF steps leaky integrate-and-fire neurons by dt as Nengo's LIF.step
// does (the reference neuron of "NengoDL: Combining deep learning and
// neuromorphic modelling methods", Daniel Rasmussen, 2019): the voltage
// decays towards J over
// the part of the step outside the refractory period, a neuron whose
// voltage passes 1 spikes (out = amp/dt) with its refractory period
// starting at the interpolated crossing time, and the voltage is clipped
// below at minV. All slices must have len(J) elements.
func LIF(dt, tauRC, tauRef, minV, amp float64, J, out, voltage, refractory []float64) {
	lif(newLIF(dt, tauRC, tauRef, minV, amp), J, out[:len(J)], voltage[:len(J)], refractory[:len(J)])
}

// OctWidth is the number of float64s of one neuron block of an
// eight-ensemble pack (EnsOct): bias, encoder and one decoder row, each
// eight wide, plus a second decoder row with two.
func OctWidth(two bool) int {
	if two {
		return 32
	}
	return 24
}

// OctOffset returns where neuron i's block starts in an eight-ensemble
// pack of n neurons per ensemble (EnsOct). The blocks are ordered by the
// neuron's stripe k = i mod 16 of Dot's sixteen partial sums, in the
// order the sums are combined (k = 0, 4, 8, 12, 1, 5, …, 15), then by i,
// so EnsOct reads the pack front to back; within a block, field f (0 bias,
// 1 encoder, 2 first and 3 second decoder row) of ensemble e is at
// OctOffset + 8·f + e.
func OctOffset(n, i int, two bool) int {
	k, q := i%16, i/16
	before := 0
	for _, s := range octStripes {
		if s == k {
			break
		}
		if s < n {
			before += (n - s + 15) / 16
		}
	}
	return (before + q) * OctWidth(two)
}

// EnsOct runs eight one-dimensional rectified-linear ensembles side by
// side, one per vector lane: ensemble e's rates a[i] = amp·max(bias +
// enc·x[e], 0) and s1[e] = Σ d1·a (s2[e] = Σ d2·a with two), each summed
// in Dot's order, so the results equal EnsDot2's on every ensemble alone
// (an ensemble with fewer than n neurons is padded with zero weights,
// which add +0 exactly as Dot's last block does). p holds the weights as
// OctOffset lays them out, n·OctWidth(two) values; x must be finite and
// amp positive (the padding's rates are then +0). The sixteen partial
// sums of all eight ensembles are combined by vertical vector adds: no
// horizontal reduction per ensemble, which dominates EnsDot2 for small
// ensembles.
func EnsOct(p []float64, n int, two bool, x *[8]float64, amp float64, s1, s2 *[8]float64) {
	if n <= 0 {
		*s1, *s2 = [8]float64{}, [8]float64{}
		return
	}
	// the variant is decided here by scalar compares, before any vector
	// instruction (a legacy-SSE compare after 512-bit work pays the
	// transition penalty), and amplitude 1 (every rectified-linear
	// model's default) runs loops without a branch on it
	p = p[:n*OctWidth(two)]
	switch {
	case amp == 1 && !two:
		ensOctUnit1(p, n, x, s1)
		*s2 = [8]float64{}
	case amp == 1:
		ensOctUnit2(p, n, x, s1, s2)
	default:
		ensOctAmp(p, n, two, x, amp, s1, s2)
	}
}

// EnsOct1Lanes2 is EnsOct with amplitude 1 and one decoder row for two
// minibatch lanes at once: the same pack p and n, inputs xa and xb, sums
// sa and sb, each equal to EnsOct's for that lane alone. On AVX-512 the
// two lanes share every load of the pack (an assembly kernel; 21–29 %
// faster than two EnsOct calls on 26–156 neurons).
func EnsOct1Lanes2(p []float64, n int, xa, xb, sa, sb *[8]float64) {
	ensOct1Lanes2(p, n, xa, xb, sa, sb)
}

// VecMat sets y[j] = Σ_l x[l]·m[l·d+j] for j < d (the row vector x
// times the len(x)×d row-major matrix m), each sum over l in order from
// +0 with every product rounded before it is added: the same values as
// the plain loop on every build. len(y) must be at least d.
func VecMat(y, x, m []float64, d int) { vecMat(y, x, m, d) }

// FirstNaN returns the index of the first NaN in x, or -1 if there is
// none. ±Inf is not NaN.
func FirstNaN(x []float64) int { return firstNaN(x) }

// DotRowsLanes sets out[l][k] = Dot(w[k·nx:(k+1)·nx], x[l]) for every
// row k < len(out[0]) of the row-major matrix w and every input x[l]:
// the matrix–matrix product of a minibatch, each sum in Dot's order (so
// every lane's results equal DotRows's for it alone). Lanes go four at a
// time (five when five or nine are left) and share each load of the
// matrix: on AVX-512 an assembly kernel holds their partial sums for two
// rows in 16 or 20 vector registers. The lanes beyond run DotRows. It
// panics if len(x) != len(out), a row lies outside w or an input is
// shorter than nx.
func DotRowsLanes(out [][]float64, w []float64, nx int, x [][]float64) {
	if len(x) != len(out) {
		panic("vec: DotRowsLanes: inputs and outputs differ in number")
	}
	l := 0
	for ; l+3 < len(out); l += 4 {
		if len(out)-l == 5 || len(out)-l == 9 {
			// five lanes at once rather than four and one alone
			dotRowsGroup(out[l:l+5], w, nx, x[l:l+5])
			l++
			continue
		}
		dotRowsGroup(out[l:l+4], w, nx, x[l:l+4])
	}
	for ; l < len(out); l++ {
		DotRows(out[l], w, nx, nil, x[l])
	}
}

// DotRows sets out[k] = Dot(w[r·nx:(r+1)·nx], x) for the rows r =
// rows[k] of the row-major matrix w (rows nil: r = k), each in Dot's
// order, so the results equal Dot's; rows are computed two at a time
// with no per-row call. It panics if a row lies outside w or x is shorter
// than nx.
func DotRows(out, w []float64, nx int, rows []int, x []float64) {
	if nx < 0 || len(x) < nx {
		panic("vec.DotRows: x shorter than a row")
	}
	last := len(out) - 1
	if rows != nil {
		rows = rows[:len(out)]
		last = -1
		for _, r := range rows {
			if r < 0 {
				panic("vec.DotRows: negative row")
			}
			last = max(last, r)
		}
	}
	if last >= 0 && (last+1)*nx > len(w) {
		panic("vec.DotRows: row outside w")
	}
	dotRows(out, w, nx, rows, x[:nx])
}

// Lowpass steps first-order filters (Nengo's LinearFilter with one state
// and no pass-through, e.g. Lowpass): x[i] = a·x[i] + b·u[i] (each product
// rounded before the sum), flushed to zero when below the smallest normal
// float64 in magnitude (see FlushSubnormal), then y[i] = x[i]. x and u must be at least
// len(y) long; y may be u itself but must not otherwise overlap x or u.
func Lowpass(y, x, u []float64, a, b float64) {
	lowpass(y, x[:len(y)], u[:len(y)], a, b)
}

// MinNormal is the smallest positive normal float64, 2^-1022
// (2.2250738585072014e-308).
const MinNormal = 0x1p-1022

// FlushSubnormal returns v, or +0 when |v| < MinNormal (a subnormal or a
// signed zero); NaN and ±Inf pass.
//
// The decaying states of filters are flushed so: the state of a Lowpass
// whose input stopped falls by a·x each step, enters the subnormal range
// after about 708·τ/dt steps (3.5 s for τ = 5 ms, dt = 1 ms) and then
// stays at the smallest subnormal, 4.9e-324, for ever (a·4.9e-324 rounds
// back to it for a > 0.5). x86 CPUs compute with subnormal operands in
// microcode assists tens of times slower than normal arithmetic, and a
// learning rule multiplying such filtered activities into a weight
// matrix was measured 3× slower per step from then on (NumPy suffers
// the same in Nengo's reference simulator; TensorFlow, and so NengoDL,
// sets the CPU's flush-to-zero and denormals-are-zero modes in its
// threads). The value lost is below 2.3e-308 in magnitude.
func FlushSubnormal(v float64) float64 {
	if math.Float64bits(v)&expBits == 0 {
		return 0
	}
	return v
}

// expBits masks the exponent of a float64: zero for zeros and subnormals.
const expBits = 0x7ff0000000000000
