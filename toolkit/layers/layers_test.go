package layers

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// exactTol is for outputs that are sums of a few small integers or halves:
// computed exactly in float64.
const exactTol = 0

func mustBuild(t *testing.T, s Spec, in []int) Layer {
	t.Helper()
	l, err := s.Build(in, 1)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func forward(t *testing.T, l Layer, params [][]float64, in []float64, batch int, training bool) []float64 {
	t.Helper()
	ex, err := l.NewExec(batch, 1)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, batch*Size(l.OutShape()))
	if err := ex.Forward(params, in, out, batch, training); err != nil {
		t.Fatal(err)
	}
	return out
}

func seq(n int, start float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = start + float64(i)
	}
	return v
}

func equalTol(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// TestHandComputed checks small cases worked out by hand. Same padding
// follows TensorFlow (tf.nn.convolution docs): out = ceil(n/s),
// pad_total = max((out-1)·s + k - n, 0), pad_before = floor(pad_total/2).
func TestHandComputed(t *testing.T) {
	ones9 := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}
	cases := []struct {
		name   string
		spec   Spec
		in     []int
		params [][]float64
		x      []float64
		want   []float64
		shape  []int
	}{
		// x[r][c] = 4r+c+1 (4×4), k[i][j] = 3i+j+1; out 2×2; pad_total =
		// (2-1)·2+3-4 = 1 → 0 before, 1 after (bottom/right).
		// out(0,0) = Σ_{i,j<3} x·k = 14+92+242 = 348
		// out(0,1) = cols 2,3: (3·1+4·2)+(7·4+8·5)+(11·7+12·8) = 252
		// out(1,0) = rows 2,3: (9+20+33)+(52+70+90) = 274
		// out(1,1) = rows 2,3, cols 2,3: (11+24)+(60+80) = 175
		{"Conv2D/3x3/s2/same/4x4", Conv2D{Filters: 1, Kernel: []int{3}, Strides: []int{2}, Padding: "same", NoBias: true},
			[]int{4, 4, 1}, [][]float64{seq(9, 1)}, seq(16, 1), []float64{348, 252, 274, 175}, []int{2, 2, 1}},
		// 3×3 ones kernel, stride 1, same on 3×3: pad 1/1; box sums of 1..9.
		{"Conv2D/3x3/same/box", Conv2D{Filters: 1, Kernel: []int{3}, Padding: "same"},
			[]int{3, 3, 1}, [][]float64{ones9, {0.5}}, seq(9, 1),
			[]float64{12.5, 21.5, 16.5, 27.5, 45.5, 33.5, 24.5, 39.5, 28.5}, []int{3, 3, 1}},
		// even kernel 2×2 ones, stride 1, same on 3×3: pad_total 1 → after
		// only, so out(i,j) = x(i,j)+x(i,j+1)+x(i+1,j)+x(i+1,j+1) with zeros outside.
		{"Conv2D/2x2/same/after", Conv2D{Filters: 1, Kernel: []int{2}, Padding: "same", NoBias: true},
			[]int{3, 3, 1}, [][]float64{{1, 1, 1, 1}}, seq(9, 1),
			[]float64{12, 16, 9, 24, 28, 15, 15, 17, 9}, []int{3, 3, 1}},
		// two channels in, two filters out, 1×1: a per-pixel matrix product.
		{"Conv2D/1x1/channels", Conv2D{Filters: 2, Kernel: []int{1}},
			[]int{1, 2, 2}, [][]float64{{1, 2, 3, 4}, {10, 20}}, []float64{1, 2, 3, 4},
			[]float64{1 + 6 + 10, 2 + 8 + 20, 3 + 12 + 10, 6 + 16 + 20}, []int{1, 2, 2}},
		// causal Conv1D, kernel 2 [1, 10] (taps x[t-1], x[t]): out = x[t-1]+10x[t].
		{"Conv1D/causal", Conv1D{Filters: 1, Kernel: 2, Padding: "causal", NoBias: true},
			[]int{4, 1}, [][]float64{{1, 10}}, []float64{1, 2, 3, 4},
			[]float64{10, 21, 32, 43}, []int{4, 1}},
		// dilation 2, kernel 2 [1, 1], valid on length 5: out = x[t]+x[t+2].
		{"Conv1D/dilated", Conv1D{Filters: 1, Kernel: 2, Dilation: 2, NoBias: true},
			[]int{5, 1}, [][]float64{{1, 1}}, []float64{1, 2, 3, 4, 5},
			[]float64{4, 6, 8}, []int{3, 1}},
		// Dense: [1 2]·[[1 2 3] [4 5 6]] + [1 1 1]
		{"Dense", Dense{Units: 3}, []int{2}, [][]float64{{1, 2, 3, 4, 5, 6}, {1, 1, 1}},
			[]float64{1, 2}, []float64{10, 13, 16}, []int{3}},
		// AvgPool 2, stride 2, same on 3×3 (1..9): pad 1 after; the edge
		// windows average only the valid elements (Keras/TF).
		{"AvgPool/same/count", AvgPool{Pool: []int{2}, Padding: "same"}, []int{3, 3, 1}, nil, seq(9, 1),
			[]float64{3, 4.5, 7.5, 9}, []int{2, 2, 1}},
		// AvgPool 1-D, pool 3, stride 1, same on length 4: pad 1/1.
		{"AvgPool1D/same", AvgPool{Pool: []int{3}, Strides: []int{1}, Padding: "same"}, []int{4, 1}, nil,
			[]float64{1, 2, 3, 4}, []float64{1.5, 2, 3, 3.5}, []int{4, 1}},
		{"MaxPool/valid", MaxPool{}, []int{4, 4, 1}, nil, seq(16, 1), []float64{6, 8, 14, 16}, []int{2, 2, 1}},
		// negative inputs: the padding never wins.
		{"MaxPool/same/negative", MaxPool{Pool: []int{2}, Padding: "same"}, []int{3, 1}, nil,
			[]float64{-3, -2, -1}, []float64{-2, -1}, []int{2, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := mustBuild(t, c.spec, c.in)
			if got := l.OutShape(); !equalInts(got, c.shape) {
				t.Fatalf("OutShape = %v, want %v", got, c.shape)
			}
			got := forward(t, l, c.params, c.x, 1, false)
			if !equalTol(got, c.want, exactTol) {
				t.Fatalf("out = %v, want %v", got, c.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSamePaddingGeometry checks TF's "same" output sizes and leading pads.
func TestSamePaddingGeometry(t *testing.T) {
	cases := []struct{ n, k, s, d, out, before int }{
		{4, 3, 2, 1, 2, 0}, // total 1: after
		{5, 3, 2, 1, 3, 1}, // total 2: 1/1
		{4, 2, 1, 1, 4, 0}, // total 1
		{4, 4, 1, 1, 4, 1}, // total 3: 1 before, 2 after
		{6, 3, 3, 1, 2, 0}, // total 0
		{7, 3, 1, 2, 7, 2}, // dilated 5: total 4
		{3, 5, 1, 1, 3, 2}, // kernel larger than input: total 4
	}
	for _, c := range cases {
		out, before, ok := window(c.n, c.k, c.s, c.d, "same")
		if !ok || out != c.out || before != c.before {
			t.Errorf("window(%d, k %d, s %d, d %d) = %d, %d, %v; want %d, %d", c.n, c.k, c.s, c.d, out, before, ok, c.out, c.before)
		}
	}
}

// TestMaxPoolTies: equal values route the whole gradient to the first one
// in row-major window order.
func TestMaxPoolTies(t *testing.T) {
	l := mustBuild(t, MaxPool{Pool: []int{2}}, []int{2, 2, 2})
	ex, _ := l.NewExec(1, 0)
	in := []float64{5, 1, 5, 2, 5, 2, 3, 2} // channel 0 all 5 but the last; channel 1: 1,2,2,2
	out := make([]float64, 2)
	if err := ex.Forward(nil, in, out, 1, false); err != nil {
		t.Fatal(err)
	}
	dIn := make([]float64, 8)
	if err := ex.Backward(nil, in, out, []float64{1, 10}, dIn, nil, 1); err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 0, 0, 10, 0, 0, 0, 0}
	if !equalTol(out, []float64{5, 2}, exactTol) || !equalTol(dIn, want, exactTol) {
		t.Fatalf("out %v dIn %v, want [5 2] and %v", out, dIn, want)
	}
}

// naiveConv is a direct 2-D convolution with explicit padding (reference).
func naiveConv(g convGeom, x, k, b []float64, batch int) []float64 {
	out := make([]float64, batch*g.OH*g.OW*g.F)
	for n := 0; n < batch; n++ {
		for oy := 0; oy < g.OH; oy++ {
			for ox := 0; ox < g.OW; ox++ {
				for f := 0; f < g.F; f++ {
					s := 0.0
					if b != nil {
						s = b[f]
					}
					for ky := 0; ky < g.KH; ky++ {
						for kx := 0; kx < g.KW; kx++ {
							iy, ix := oy*g.SH-g.PT+ky*g.DH, ox*g.SW-g.PL+kx*g.DW
							if iy < 0 || iy >= g.H || ix < 0 || ix >= g.W {
								continue
							}
							for c := 0; c < g.C; c++ {
								s += x[((n*g.H+iy)*g.W+ix)*g.C+c] * k[((ky*g.KW+kx)*g.C+c)*g.F+f]
							}
						}
					}
					out[((n*g.OH+oy)*g.OW+ox)*g.F+f] = s
				}
			}
		}
	}
	return out
}

// convTol: im2col+GEMM and the direct loop sum the same products in a
// different order; for O(1) values and ≤ 100 terms the difference is a few ulps.
const convTol = 1e-12

// TestConvMatchesDirect compares im2col+GEMM (with and without batch
// chunking) against the direct loop.
func TestConvMatchesDirect(t *testing.T) {
	specs := []struct {
		s  Conv2D
		in []int
	}{
		{Conv2D{Filters: 4, Kernel: []int{3}, Padding: "same"}, []int{7, 6, 3}},
		{Conv2D{Filters: 3, Kernel: []int{4, 2}, Strides: []int{2, 3}, Padding: "same"}, []int{9, 8, 2}},
		{Conv2D{Filters: 2, Kernel: []int{3}, Dilation: []int{2, 1}, Strides: []int{1, 2}}, []int{8, 7, 2}},
		{Conv2D{Filters: 5, Kernel: []int{1}}, []int{3, 4, 3}},
		// large enough (5·400·36 > parallelMin) for im2col to be split between goroutines
		{Conv2D{Filters: 3, Kernel: []int{3}, Padding: "same"}, []int{20, 20, 4}},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, sp := range specs {
		l := mustBuild(t, sp.s, sp.in)
		cl := l.(*convLayer)
		params := testParams(l, r)
		const batch = 5
		x := randn(r, batch*Size(sp.in))
		want := naiveConv(cl.g, x, params[0], params[1], batch)
		for _, chunk := range []int{0, 1, 2} {
			ex, _ := l.NewExec(batch, 0)
			ce := ex.(*convExec)
			if chunk > 0 && !ce.direct {
				ce.chunk = chunk
			}
			out := make([]float64, len(want))
			if err := ex.Forward(params, x, out, batch, false); err != nil {
				t.Fatal(err)
			}
			if !equalTol(out, want, convTol) {
				t.Fatalf("%v chunk %d: im2col result differs from the direct convolution", cl, chunk)
			}
		}
	}
}

// TestConvChunkedBackward: gradients do not depend on the chunking (nor on
// the split of im2col/col2im between goroutines: 4·576·36 > parallelMin).
func TestConvChunkedBackward(t *testing.T) {
	l := mustBuild(t, Conv2D{Filters: 3, Kernel: []int{3}, Padding: "same"}, []int{24, 24, 4})
	r := rand.New(rand.NewPCG(5, 6))
	params := testParams(l, r)
	const batch = 4
	x := randn(r, batch*Size(l.InShape()))
	dOut := randn(r, batch*Size(l.OutShape()))
	run := func(chunk int) ([]float64, []float64, []float64) {
		ex, _ := l.NewExec(batch, 0)
		if chunk > 0 {
			ex.(*convExec).chunk = chunk
		}
		out := make([]float64, len(dOut))
		dIn := make([]float64, len(x))
		dk, db := make([]float64, len(params[0])), make([]float64, len(params[1]))
		if err := ex.Forward(params, x, out, batch, true); err != nil {
			t.Fatal(err)
		}
		if err := ex.Backward(params, x, out, dOut, dIn, [][]float64{dk, db}, batch); err != nil {
			t.Fatal(err)
		}
		return dIn, dk, db
	}
	a1, a2, a3 := run(0)
	b1, b2, b3 := run(1)
	if !equalTol(a1, b1, convTol) || !equalTol(a2, b2, convTol) || !equalTol(a3, b3, convTol) {
		t.Fatal("chunked gradients differ")
	}
}

func TestDropout(t *testing.T) {
	const rate = 0.3
	l := mustBuild(t, Dropout{Rate: rate}, []int{1000})
	r := rand.New(rand.NewPCG(1, 2))
	const batch = 10
	in := make([]float64, batch*1000)
	for i := range in {
		in[i] = 1 + r.Float64()
	}
	t.Run("identity when not training", func(t *testing.T) {
		out := forward(t, l, nil, in, batch, false)
		if !equalTol(out, in, exactTol) {
			t.Fatal("Dropout changed its input outside training")
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		a := forward(t, l, nil, in, batch, true)
		b := forward(t, l, nil, in, batch, true)
		if !equalTol(a, b, exactTol) {
			t.Fatal("same seed, different masks")
		}
		ex, _ := l.NewExec(batch, 1)
		c := make([]float64, len(in))
		ex.Forward(nil, in, c, batch, true)
		ex.Forward(nil, in, c, batch, true)
		if equalTol(a, c, exactTol) {
			t.Fatal("second call repeated the first mask")
		}
	})
	t.Run("mean preserved", func(t *testing.T) {
		// Each element is kept with probability 1-rate and scaled by 1/(1-rate);
		// the sum over n = 10^4 elements has relative standard deviation
		// about sqrt(rate/((1-rate)·n))·(rms/mean) ≈ 0.0066; allow 4σ.
		const meanRelTol = 0.03
		out := forward(t, l, nil, in, batch, true)
		var s0, s1 float64
		zeros := 0
		for i := range in {
			s0 += in[i]
			s1 += out[i]
			switch {
			case out[i] == 0:
				zeros++
			case math.Abs(out[i]-in[i]/(1-rate)) > 1e-12:
				t.Fatalf("kept element not scaled by 1/(1-rate): %v → %v", in[i], out[i])
			}
		}
		if math.Abs(s1/s0-1) > meanRelTol {
			t.Fatalf("mean ratio %v", s1/s0)
		}
		if f := float64(zeros) / float64(len(in)); math.Abs(f-rate) > 0.02 {
			t.Fatalf("dropped fraction %v, want %v", f, rate)
		}
	})
}

// bnTol: a handful of float64 operations on O(1) values.
const bnTol = 1e-12

func TestBatchNormMovingStatistics(t *testing.T) {
	l := mustBuild(t, BatchNorm{}, []int{2})
	ps := l.Params()
	params := [][]float64{ps[0].Value, ps[1].Value, ps[2].Value, ps[3].Value}
	if ps[2].Trainable || ps[3].Trainable || !ps[0].Trainable || !ps[1].Trainable {
		t.Fatal("trainable flags wrong")
	}
	// channel 0: 1, 3 → mean 2, var 1; channel 1: 0, 4 → mean 2, var 4.
	in := []float64{1, 0, 3, 4}
	out := forward(t, l, params, in, 2, true)
	wantOut := []float64{-1 / math.Sqrt(1+1e-3), -2 / math.Sqrt(4+1e-3), 1 / math.Sqrt(1+1e-3), 2 / math.Sqrt(4+1e-3)}
	if !equalTol(out, wantOut, bnTol) {
		t.Fatalf("training out %v, want %v", out, wantOut)
	}
	// Keras: moving = 0.99·moving + 0.01·batch.
	if !equalTol(params[2], []float64{0.02, 0.02}, bnTol) || !equalTol(params[3], []float64{0.99 + 0.01, 0.99 + 0.04}, bnTol) {
		t.Fatalf("moving stats %v %v", params[2], params[3])
	}
	// inference uses the moving statistics.
	out = forward(t, l, params, []float64{1, 1}, 1, false)
	want := []float64{(1 - 0.02) / math.Sqrt(1+1e-3), (1 - 0.02) / math.Sqrt(1.03+1e-3)}
	if !equalTol(out, want, bnTol) {
		t.Fatalf("inference out %v, want %v", out, want)
	}
}

func TestFuncNotDifferentiable(t *testing.T) {
	l := mustBuild(t, squareFunc(false), []int{6})
	ex, _ := l.NewExec(1, 0)
	ps := l.Params()
	params := [][]float64{ps[0].Value, ps[1].Value}
	in, out := make([]float64, 6), make([]float64, 6)
	if err := ex.Forward(params, in, out, 1, false); err != nil {
		t.Fatal(err)
	}
	err := ex.Backward(params, in, out, out, in, nil, 1)
	if err == nil || !strings.Contains(err.Error(), "not differentiable") {
		t.Fatalf("err = %v", err)
	}
}

func TestParamsAreCopies(t *testing.T) {
	l := mustBuild(t, Conv2D{Filters: 2, Kernel: []int{3}}, []int{4, 4, 1})
	p := l.Params()
	p[0].Value[0] = 1e9
	p[0].Shape[0] = 99
	if q := l.Params(); q[0].Value[0] == 1e9 || q[0].Shape[0] == 99 {
		t.Fatal("Params returned shared storage")
	}
	if p[0].Name != "kernel" || !equalInts(l.Params()[0].Shape, []int{3, 3, 1, 2}) || p[1].Name != "bias" {
		t.Fatalf("params %v", l.Params())
	}
	// glorot_uniform limit sqrt(6/(9+18)).
	lim := math.Sqrt(6.0 / 27)
	for _, v := range p[1].Value {
		if v != 0 {
			t.Fatal("bias not zero")
		}
	}
	for _, v := range l.Params()[0].Value {
		if math.Abs(v) > lim {
			t.Fatalf("kernel value %v outside ±%v", v, lim)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	// Small enough that gonum's native Dgemm runs serially (its parallel
	// path starts goroutines, which allocate inside gonum).
	cases := []struct {
		name string
		spec Spec
		in   []int
	}{
		{"Conv2D", Conv2D{Filters: 4, Kernel: []int{3}, Padding: "same"}, []int{6, 6, 2}},
		{"Dense", Dense{Units: 8}, []int{16}},
		{"MaxPool", MaxPool{}, []int{8, 8, 2}},
		{"BatchNorm", BatchNorm{}, []int{4, 3}},
		{"Dropout", Dropout{Rate: 0.5}, []int{10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := mustBuild(t, c.spec, c.in)
			const batch = 4
			r := rand.New(rand.NewPCG(1, 1))
			params := testParams(l, r)
			in := randn(r, batch*Size(l.InShape()))
			out := make([]float64, batch*Size(l.OutShape()))
			dOut := randn(r, len(out))
			dIn := make([]float64, len(in))
			dParams := cloneParams(params)
			ex, err := l.NewExec(batch, 1)
			if err != nil {
				t.Fatal(err)
			}
			n := testing.AllocsPerRun(20, func() {
				if err := ex.Forward(params, in, out, batch, true); err != nil {
					t.Fatal(err)
				}
				if err := ex.Backward(params, in, out, dOut, dIn, dParams, batch); err != nil {
					t.Fatal(err)
				}
			})
			if n != 0 {
				t.Fatalf("%v allocations per Forward+Backward", n)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		in   []int
		rule string
	}{
		{"Conv2D kernel too large", Conv2D{Filters: 1, Kernel: []int{5, 5}}, []int{3, 3, 1}, "layers: Conv2D.Kernel = [5 5]: larger than the padded input (3, 3)"},
		{"Conv2D dilated too large", Conv2D{Filters: 1, Kernel: []int{3}, Dilation: []int{2}}, []int{4, 4, 1}, "dilated to (5, 5)"},
		{"Conv2D no filters", Conv2D{Kernel: []int{3}}, []int{4, 4, 1}, "Conv2D.Filters = 0: must be positive"},
		{"Conv2D no kernel", Conv2D{Filters: 1}, []int{4, 4, 1}, "Conv2D.Kernel"},
		{"Conv2D negative stride", Conv2D{Filters: 1, Kernel: []int{1}, Strides: []int{-1}}, []int{4, 4, 1}, "Strides"},
		{"Conv2D three kernel values", Conv2D{Filters: 1, Kernel: []int{1, 2, 3}}, []int{4, 4, 1}, "want 1 or 2 values"},
		{"Conv2D unknown padding", Conv2D{Filters: 1, Kernel: []int{1}, Padding: "full"}, []int{4, 4, 1}, "unknown padding"},
		{"Conv2D causal", Conv2D{Filters: 1, Kernel: []int{1}, Padding: "causal"}, []int{4, 4, 1}, "unknown padding"},
		{"Conv2D rank", Conv2D{Filters: 1, Kernel: []int{1}}, []int{4, 4}, "rank-3"},
		{"Conv1D kernel too large", Conv1D{Filters: 1, Kernel: 5}, []int{3, 1}, "layers: Conv1D.Kernel = 5: larger than the padded input (3)"},
		{"Conv1D negative dilation", Conv1D{Filters: 1, Kernel: 2, Dilation: -2}, []int{3, 1}, "Dilation"},
		{"Dense units", Dense{}, []int{3}, "Dense.Units = 0: must be positive"},
		{"Dense bad input", Dense{Units: 1}, []int{0}, "must be positive"},
		{"Dense empty input", Dense{Units: 1}, nil, "at least one dimension"},
		{"AvgPool too large", AvgPool{Pool: []int{4}}, []int{3, 3, 1}, "larger than the padded input (3, 3)"},
		{"MaxPool rank", MaxPool{}, []int{3}, "rank-2"},
		{"MaxPool 1-D with 2 values", MaxPool{Pool: []int{2, 2}}, []int{4, 1}, "want 1 value for a 1-D layer"},
		{"Reshape mismatch", Reshape{Shape: []int{4, 2}}, []int{3, 3}, "differs from the size 9"},
		{"Reshape -1 mismatch", Reshape{Shape: []int{-1, 2}}, []int{3, 3}, "not a multiple of 2"},
		{"Reshape two -1", Reshape{Shape: []int{-1, -1}}, []int{4}, "at most one"},
		{"Dropout rate 1", Dropout{Rate: 1}, []int{3}, "Dropout.Rate = 1: must be in [0, 1)"},
		{"Dropout rate negative", Dropout{Rate: -0.1}, []int{3}, "must be in [0, 1)"},
		{"Dropout rate NaN", Dropout{Rate: math.NaN()}, []int{3}, "must be in [0, 1)"},
		{"BatchNorm momentum", BatchNorm{Momentum: 2}, []int{3}, "Momentum"},
		{"BatchNorm epsilon", BatchNorm{Epsilon: -1}, []int{3}, "Epsilon"},
		{"BatchNorm NaN", BatchNorm{Momentum: math.NaN()}, []int{3}, "must be finite"},
		{"Func no forward", Func{Out: []int{1}}, []int{1}, "Func.Forward"},
		{"Func bad out", Func{Out: []int{0}, Forward: squareFunc(false).Forward}, []int{1}, "Out"},
		{"Func param size", Func{Out: []int{1}, Forward: squareFunc(false).Forward,
			Params: []Param{{Name: "w", Shape: []int{2}, Value: []float64{1}}}}, []int{1}, "has 1 values, want 2"},
		{"Func duplicate param", Func{Out: []int{1}, Forward: squareFunc(false).Forward,
			Params: []Param{{Name: "w", Shape: []int{1}, Value: []float64{1}}, {Name: "w", Shape: []int{1}, Value: []float64{1}}}}, []int{1}, "duplicate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := c.spec.Build(c.in, 1)
			if err == nil {
				t.Fatalf("no error, layer %v", l.OutShape())
			}
			var le *validate.Error
			if !errors.As(err, &le) {
				t.Fatalf("error %T is not *validate.Error", err)
			}
			if !strings.Contains(err.Error(), c.rule) {
				t.Fatalf("error %q does not contain %q", err, c.rule)
			}
		})
	}
}

func TestExecErrors(t *testing.T) {
	l := mustBuild(t, Conv2D{Filters: 2, Kernel: []int{3}}, []int{4, 4, 1})
	if _, err := l.NewExec(0, 0); err == nil {
		t.Fatal("maxBatch 0 accepted")
	}
	ex, _ := l.NewExec(2, 0)
	ps := l.Params()
	params := [][]float64{ps[0].Value, ps[1].Value}
	in, out := make([]float64, 32), make([]float64, 16)
	cases := []struct {
		name string
		call func() error
		rule string
	}{
		{"batch too large", func() error { return ex.Forward(params, make([]float64, 48), make([]float64, 24), 3, false) }, "must be in [1, 2]"},
		{"batch zero", func() error { return ex.Forward(params, nil, nil, 0, false) }, "must be in [1, 2]"},
		{"short in", func() error { return ex.Forward(params, in[:31], out, 2, false) }, "Conv2D.in = 31"},
		{"short out", func() error { return ex.Forward(params, in, out[:3], 2, false) }, "Conv2D.out = 3"},
		{"missing params", func() error { return ex.Forward(params[:1], in, out, 2, false) }, "want 2 parameter arrays"},
		{"short kernel", func() error { return ex.Forward([][]float64{params[0][:3], params[1]}, in, out, 2, false) }, "has length 3, want 18"},
		{"short dOut", func() error { return ex.Backward(params, in, out, out[:5], nil, nil, 2) }, "Conv2D.dOut = 5"},
		{"short dIn", func() error { return ex.Backward(params, in, out, out, in[:5], nil, 2) }, "Conv2D.dIn = 5"},
		{"short dParams", func() error { return ex.Backward(params, in, out, out, nil, [][]float64{nil}, 2) }, "want 2 entries"},
		{"short dKernel", func() error { return ex.Backward(params, in, out, out, nil, [][]float64{{1}, nil}, 2) }, "gradient 0 has length 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.call()
			if err == nil || !strings.Contains(err.Error(), c.rule) {
				t.Fatalf("err = %v, want it to contain %q", err, c.rule)
			}
		})
	}
}

// TestWorkersStop: the goroutines of an unreachable convolution Exec end.
func TestWorkersStop(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("no worker goroutines with GOMAXPROCS 1")
	}
	l := mustBuild(t, Conv2D{Filters: 2, Kernel: []int{3}}, []int{8, 8, 1})
	// let the Execs of earlier tests go first
	for range 20 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	before := runtime.NumGoroutine()
	for range 10 {
		if _, err := l.NewExec(2, 0); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.NumGoroutine() <= before {
		t.Fatal("no worker goroutines started")
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines, %d before the Execs", runtime.NumGoroutine(), before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
