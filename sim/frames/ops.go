package frames

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// MatMul computes c = a·b for row-major a (m×k), b (k×n) and c (m×n),
// overwriting c. When Options.MatMul is set, every synapse-pool weight
// product of the forward pass (of the Sim and of rollouts) goes through
// it; it may be called from several goroutines at once.
type MatMul interface {
	MatMul(m, n, k int, a, b, c []float64)
}

// tileM×tileN is the largest block handed to one call of gonum's native
// Dgemm, which computes a product whose m×n extent spans fewer than 4
// blocks of 64 serially: 192×64 tiles keep every product on the calling
// goroutine (no goroutines or allocations inside BLAS); the executor's own
// workers supply the parallelism. The executor always uses gonum's native
// kernels, also in binaries built with OpenBLAS (-tags openblas), so that
// any number of workers gives bit-identical states and the workers scale:
// measured on the appendix network at 128 agents (2-core machine,
// BenchmarkStep), gonum's kernels take 76 ms per frame on one worker and
// 38 ms on two, whereas single-threaded OpenBLAS takes 45 ms on one
// worker but 46 ms on two — Debian's OpenBLAS serialises concurrent calls.
const (
	tileM = 192
	tileN = 64
)

// gemm computes c = alpha·op(a)·op(b) + beta·c in tiles of at most
// tile×tile of c (row-major, leading dimensions lda, ldb, ldc).
func gemm(ta, tb bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	impl := gonum.Implementation{}
	tA, tB := blas.NoTrans, blas.NoTrans
	if ta {
		tA = blas.Trans
	}
	if tb {
		tB = blas.Trans
	}
	if k == 0 {
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				row[j] *= beta
			}
		}
		return
	}
	for i0 := 0; i0 < m; i0 += tileM {
		mi := min(tileM, m-i0)
		for j0 := 0; j0 < n; j0 += tileN {
			nj := min(tileN, n-j0)
			var as, bs []float64
			if ta {
				as = a[i0:]
			} else {
				as = a[i0*lda:]
			}
			if tb {
				bs = b[j0*ldb:]
			} else {
				bs = b[j0:]
			}
			impl.Dgemm(tA, tB, mi, nj, k, alpha, as, lda, bs, ldb, beta, c[i0*ldc+j0:], ldc)
		}
	}
}

// cpuMatMul is the default MatMul: gonum's blas64 (OpenBLAS under the
// repository's openblas build tag), in serial tiles.
type cpuMatMul struct{}

func (cpuMatMul) MatMul(m, n, k int, a, b, c []float64) {
	gemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
}

// Activations (the statestream paper, appendix 6.1; statestream docs/neuron_pools.md).
// leakyrelu uses slope leakySlope for negative inputs (statestream's
// leakyrelu(x, leak=0.1) = max(x, 0.1·x)); elu has α = 1; selu uses
// Klambauer et al. (2017)'s λ and α; softmax is taken over the features at
// each position (and agent).
const (
	leakySlope = 0.1
	seluLambda = 1.0507009873554804934193349852946
	seluAlpha  = 1.6732632423543772848170429916717
)

// actKind numbers the activations.
type actKind int

const (
	actId actKind = iota
	actRelu
	actLeaky
	actElu
	actSelu
	actSigmoid
	actTanh
	actSoftmax
	actSoftplus
	actExp
	actAbs
	actSquare
	actLog
	actNeglog
	actMexp
	actMsquare
	actGaussian
	// actFunc is any other elementwise activation (statestream's
	// expressions such as "$**2 + B.tanh($)", spiky, relu with a
	// threshold): activation.fn computes it and its derivative.
	actFunc
)

// activation is an activation as the executor runs it: a named kind with
// loops of its own, or (kind actFunc) an elementwise function with its
// derivative (stream.NeuronPool.ActFunc).
type activation struct {
	kind actKind
	fn   func(x float64) (y, dy float64)
}

// newActivation returns the executor's form of an activation given by
// stream's ActFunc methods: the named kind when there is one, else the
// elementwise function.
func newActivation(name string, fn func(x float64) (float64, float64), err error) (activation, error) {
	if err != nil {
		return activation{}, err
	}
	if name != "" {
		if k, ok := actNames[name]; ok {
			return activation{kind: k}, nil
		}
	}
	if fn == nil {
		return activation{}, fmt.Errorf("activation %q has no elementwise form", name)
	}
	return activation{kind: actFunc, fn: fn}, nil
}

// forward writes out = act(in) (softmax: over groups of c values).
func (a activation) forward(in, out []float64, c int) {
	if a.kind != actFunc {
		actForward(a.kind, in, out, c)
		return
	}
	for i, x := range in {
		out[i], _ = a.fn(x)
	}
}

// backward writes din = ∂act/∂in · dout given in and out = act(in); din
// may be dout (each value is read before it is written).
func (a activation) backward(in, out, dout, din []float64, c int) {
	if a.kind != actFunc {
		actBackward(a.kind, in, out, dout, din, c)
		return
	}
	for i, x := range in {
		_, d := a.fn(x)
		din[i] = d * dout[i]
	}
}

// logEps is the floor of the logarithm's argument: statestream's log and
// neglog compute ±ln max(x, 1e-6).
const logEps = 1e-6

var actNames = map[string]actKind{
	"": actId, "Id": actId, "id": actId, "relu": actRelu, "leakyrelu": actLeaky,
	"elu": actElu, "selu": actSelu, "sigmoid": actSigmoid, "tanh": actTanh,
	"softmax": actSoftmax, "softplus": actSoftplus, "exp": actExp, "abs": actAbs,
	"square": actSquare, "log": actLog, "neglog": actNeglog, "mexp": actMexp,
	"msquare": actMsquare, "gaussian": actGaussian,
}

// actForward writes out = act(in) elementwise (softmax: over groups of c
// consecutive values, the features of one position).
func actForward(k actKind, in, out []float64, c int) {
	switch k {
	case actId:
		copy(out, in)
	case actRelu:
		for i, x := range in {
			out[i] = max(x, 0)
		}
	case actLeaky:
		for i, x := range in {
			if x < 0 {
				x *= leakySlope
			}
			out[i] = x
		}
	case actElu:
		for i, x := range in {
			if x < 0 {
				x = math.Expm1(x)
			}
			out[i] = x
		}
	case actSelu:
		for i, x := range in {
			if x < 0 {
				x = seluAlpha * math.Expm1(x)
			}
			out[i] = seluLambda * x
		}
	case actSigmoid:
		for i, x := range in {
			out[i] = 1 / (1 + math.Exp(-x))
		}
	case actTanh:
		for i, x := range in {
			out[i] = math.Tanh(x)
		}
	case actSoftmax:
		for p := 0; p+c <= len(in); p += c {
			x, y := in[p:p+c], out[p:p+c]
			m := math.Inf(-1)
			for _, v := range x {
				m = max(m, v)
			}
			s := 0.0
			for j, v := range x {
				y[j] = math.Exp(v - m)
				s += y[j]
			}
			for j := range y {
				y[j] /= s
			}
		}
	case actSoftplus:
		for i, x := range in {
			// log(1+e^x), stable for large |x|
			out[i] = max(x, 0) + math.Log1p(math.Exp(-math.Abs(x)))
		}
	case actExp:
		for i, x := range in {
			out[i] = math.Exp(x)
		}
	case actAbs:
		for i, x := range in {
			out[i] = math.Abs(x)
		}
	case actSquare:
		for i, x := range in {
			out[i] = x * x
		}
	case actLog:
		for i, x := range in {
			out[i] = math.Log(max(x, logEps))
		}
	case actNeglog:
		for i, x := range in {
			out[i] = -math.Log(max(x, logEps))
		}
	case actMexp:
		for i, x := range in {
			out[i] = -math.Exp(x)
		}
	case actMsquare:
		for i, x := range in {
			out[i] = -x * x
		}
	case actGaussian:
		for i, x := range in {
			out[i] = math.Exp(-x * x)
		}
	}
}

// actBackward writes din = ∂act/∂in · dout given in and out = act(in).
func actBackward(k actKind, in, out, dout, din []float64, c int) {
	switch k {
	case actId:
		copy(din, dout)
	case actRelu:
		for i, x := range in {
			if x > 0 {
				din[i] = dout[i]
			} else {
				din[i] = 0
			}
		}
	case actLeaky:
		for i, x := range in {
			if x < 0 {
				din[i] = leakySlope * dout[i]
			} else {
				din[i] = dout[i]
			}
		}
	case actElu:
		for i, x := range in {
			if x < 0 {
				din[i] = (out[i] + 1) * dout[i]
			} else {
				din[i] = dout[i]
			}
		}
	case actSelu:
		for i, x := range in {
			if x < 0 {
				din[i] = (out[i] + seluLambda*seluAlpha) * dout[i]
			} else {
				din[i] = seluLambda * dout[i]
			}
		}
	case actSigmoid:
		for i, y := range out {
			din[i] = y * (1 - y) * dout[i]
		}
	case actTanh:
		for i, y := range out {
			din[i] = (1 - y*y) * dout[i]
		}
	case actSoftmax:
		for p := 0; p+c <= len(in); p += c {
			y, g, d := out[p:p+c], dout[p:p+c], din[p:p+c]
			s := 0.0
			for j := range y {
				s += y[j] * g[j]
			}
			for j := range y {
				d[j] = y[j] * (g[j] - s)
			}
		}
	case actSoftplus:
		for i, x := range in {
			din[i] = dout[i] / (1 + math.Exp(-x))
		}
	case actExp:
		for i, y := range out {
			din[i] = y * dout[i]
		}
	case actAbs:
		for i, x := range in {
			switch {
			case x > 0:
				din[i] = dout[i]
			case x < 0:
				din[i] = -dout[i]
			default:
				din[i] = 0
			}
		}
	case actSquare:
		for i, x := range in {
			din[i] = 2 * x * dout[i]
		}
	case actLog, actNeglog:
		sign := 1.0
		if k == actNeglog {
			sign = -1
		}
		for i, x := range in {
			if x > logEps {
				din[i] = sign * dout[i] / x
			} else {
				din[i] = 0 // the floor is constant
			}
		}
	case actMexp:
		for i, y := range out {
			din[i] = y * dout[i]
		}
	case actMsquare:
		for i, x := range in {
			din[i] = -2 * x * dout[i]
		}
	case actGaussian:
		for i, x := range in {
			din[i] = -2 * x * out[i] * dout[i]
		}
	}
}

// Weight functions applied to W before use (statestream weight_fnc).
type wfnKind int

const (
	wfnId wfnKind = iota
	wfnExp
	wfnAbs
	wfnSquare
)

var wfnNames = map[string]wfnKind{"": wfnId, "Id": wfnId, "id": wfnId, "exp": wfnExp, "abs": wfnAbs, "square": wfnSquare}

func wfnForward(k wfnKind, w, out []float64) {
	switch k {
	case wfnExp:
		for i, x := range w {
			out[i] = math.Exp(x)
		}
	case wfnAbs:
		for i, x := range w {
			out[i] = math.Abs(x)
		}
	case wfnSquare:
		for i, x := range w {
			out[i] = x * x
		}
	default:
		copy(out, w)
	}
}

// wfnBackward adds ∂f/∂w · dEff to dw.
func wfnBackward(k wfnKind, w, eff, dEff, dw []float64) {
	for i, x := range w {
		var d float64
		switch k {
		case wfnExp:
			d = eff[i]
		case wfnAbs:
			switch {
			case x > 0:
				d = 1
			case x < 0:
				d = -1
			}
		case wfnSquare:
			d = 2 * x
		default:
			d = 1
		}
		dw[i] += d * dEff[i]
	}
}

// Counter-based random numbers: every draw is a hash of (seed, stream,
// item, frame, element), so results do not depend on how the work is split
// between workers or on the order of jobs.
const (
	streamNoise    = 1
	streamNoise2   = 2
	streamDropout  = 3
	streamZoneout  = 4
	streamSPNoise  = 5
	streamSPNoise2 = 6
)

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// uniform01 returns a number in [0, 1) for the key.
func uniform01(seed uint64, stream, item, frame, i int) float64 {
	h := mix64(seed ^ 0x9e3779b97f4a7c15*uint64(stream+1))
	h = mix64(h ^ uint64(item)*0xd1b54a32d192ed03)
	h = mix64(h ^ uint64(frame)*0xaef17502108ef2d9)
	h = mix64(h ^ uint64(i)*0x9e3779b97f4a7c15)
	return float64(h>>11) * (1.0 / (1 << 53))
}

// normal01 returns a standard normal draw (Box–Muller).
func normal01(seed uint64, stream, item, frame, i int) float64 {
	u1 := 1 - uniform01(seed, stream, item, frame, i) // (0, 1]
	u2 := uniform01(seed, stream+1, item, frame, i)
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}
