package loss

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Tolerances.
const (
	// fdStep and fdTol: central differences have truncation error O(h²·f''')
	// and rounding error O(ε·|L|/h); with h = 1e-5 and losses of order 1
	// both are below 1e-8, so 1e-7 (absolute, on gradients of order 0.1)
	// leaves a margin.
	fdStep = 1e-5
	fdTol  = 1e-7
	// handTol: closed forms of a few operations; a few ulp.
	handTol = 1e-14
	// stabilityTol: lse(±1000 logits) = 1000 + ln 2 is rounded at the ulp of
	// 1000 (1.1e-13) before 1000 is subtracted; a few such ulp.
	stabilityTol = 1e-12
	// splitTol: sums over split batches regroup the additions (MSEMetric).
	splitTol = 1e-12
)

type lossCase struct {
	name   string
	loss   Loss
	pred   func(r *rand.Rand) float64
	target func(r *rand.Rand, b, s, d, dims int) float64 // per element, or per row when sparse
	sparse bool
}

func lossCases() []lossCase {
	normal := func(r *rand.Rand) float64 { return r.NormFloat64() }
	prob := func(r *rand.Rand) float64 { return 0.05 + r.Float64() } // unnormalised, away from clipping
	oneHot := func(r *rand.Rand, b, s, d, dims int) float64 {
		if (b+2*s)%dims == d {
			return 1
		}
		return 0
	}
	soft := func(r *rand.Rand, b, s, d, dims int) float64 { return r.Float64() }
	class := func(r *rand.Rand, b, s, d, dims int) float64 { return float64((b + 2*s) % dims) }
	someNaN := func(r *rand.Rand, b, s, d, dims int) float64 {
		if (b+s+d)%3 == 0 {
			return math.NaN()
		}
		return r.NormFloat64()
	}
	return []lossCase{
		{"MSE", MSE{}, normal, func(r *rand.Rand, b, s, d, dims int) float64 { return r.NormFloat64() }, false},
		{"MaskedMSE", MaskedMSE{}, normal, someNaN, false},
		{"MaskedMSE CountAll", MaskedMSE{CountAll: true}, normal, someNaN, false},
		{"CE logits one-hot", CrossEntropy{FromLogits: true}, normal, oneHot, false},
		{"CE logits soft", CrossEntropy{FromLogits: true}, normal, soft, false},
		{"CE logits sparse", CrossEntropy{FromLogits: true, Sparse: true}, normal, class, true},
		{"CE probs one-hot", CrossEntropy{}, prob, oneHot, false},
		{"CE probs soft", CrossEntropy{}, prob, soft, false},
		{"CE probs sparse", CrossEntropy{Sparse: true}, prob, class, true},
	}
}

func fill(c lossCase, r *rand.Rand, batch, steps, dims int) (pred, target []float64) {
	pred = make([]float64, batch*steps*dims)
	for i := range pred {
		pred[i] = c.pred(r)
	}
	for b := range batch {
		for s := range steps {
			if c.sparse {
				target = append(target, c.target(r, b, s, 0, dims))
				continue
			}
			for d := range dims {
				target = append(target, c.target(r, b, s, d, dims))
			}
		}
	}
	return pred, target
}

func TestGradientFiniteDifference(t *testing.T) {
	const batch, steps, dims = 2, 3, 4
	for _, c := range lossCases() {
		r := rand.New(rand.NewPCG(1, 2))
		pred, target := fill(c, r, batch, steps, dims)
		grad := make([]float64, len(pred))
		scratch := make([]float64, len(pred))
		if _, err := c.loss.Eval(pred, target, batch, steps, dims, grad); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i := range pred {
			p := pred[i]
			pred[i] = p + fdStep
			lp, err1 := c.loss.Eval(pred, target, batch, steps, dims, scratch)
			pred[i] = p - fdStep
			lm, err2 := c.loss.Eval(pred, target, batch, steps, dims, scratch)
			pred[i] = p
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %v %v", c.name, err1, err2)
			}
			if fd := (lp - lm) / (2 * fdStep); math.Abs(fd-grad[i]) > fdTol {
				t.Errorf("%s: grad[%d] = %.10g, finite difference %.10g", c.name, i, grad[i], fd)
			}
		}
	}
	// The regulariser's gradient, away from w = 0 where |w| has a kink.
	reg := Regularizer{L1: 0.3, L2: 0.7}
	w := []float64{-1.5, -0.2, 0.4, 2}
	g := make([]float64, len(w))
	if err := reg.AddGrad(w, g); err != nil {
		t.Fatal(err)
	}
	for i := range w {
		x := w[i]
		w[i] = x + fdStep
		lp := reg.Penalty(w)
		w[i] = x - fdStep
		lm := reg.Penalty(w)
		w[i] = x
		if fd := (lp - lm) / (2 * fdStep); math.Abs(fd-g[i]) > fdTol {
			t.Errorf("Regularizer: grad[%d] = %.10g, finite difference %.10g", i, g[i], fd)
		}
	}
}

func TestHandValues(t *testing.T) {
	cases := []struct {
		name              string
		loss              Loss
		pred, target      []float64
		batch, steps, dim int
		want              float64
		wantGrad          []float64
	}{
		{"MSE", MSE{}, []float64{1, 2, 3, 4}, []float64{1, 0, 3, 1}, 1, 2, 2, (4 + 9) / 4.0,
			[]float64{0, 1, 0, 1.5}},
		{"MaskedMSE", MaskedMSE{}, []float64{1, 2, 3, 4}, []float64{math.NaN(), 0, 3, math.NaN()}, 2, 1, 2, 4 / 2.0,
			[]float64{0, 2, 0, 0}},
		{"MaskedMSE CountAll", MaskedMSE{CountAll: true}, []float64{1, 2, 3, 4}, []float64{math.NaN(), 0, 3, math.NaN()},
			2, 1, 2, 4 / 4.0, []float64{0, 1, 0, 0}},
		{"MaskedMSE all NaN", MaskedMSE{}, []float64{1, 2}, []float64{math.NaN(), math.NaN()}, 1, 1, 2, 0,
			[]float64{0, 0}},
		{"CE logits equal", CrossEntropy{FromLogits: true}, []float64{0, 0}, []float64{1, 0}, 1, 1, 2, math.Ln2,
			[]float64{-0.5, 0.5}},
		{"CE logits ln 3", CrossEntropy{FromLogits: true, Sparse: true}, []float64{0, math.Log(3)}, []float64{1}, 1, 1, 2,
			math.Log(4.0 / 3), []float64{0.25, -0.25}},
		{"CE probs", CrossEntropy{}, []float64{0.25, 0.75, 0.5, 0.5}, []float64{0, 1, 1, 0}, 2, 1, 2,
			(-math.Log(0.75) + math.Ln2) / 2, []float64{0.5, -1.0 / 6, -0.5, 0.5}},
		{"CE probs unnormalised", CrossEntropy{}, []float64{1, 3}, []float64{0, 1}, 1, 1, 2, -math.Log(0.75),
			[]float64{0.25, -1.0 / 12}},
		{"CE probs clipped", CrossEntropy{Sparse: true}, []float64{0, 1}, []float64{0}, 1, 1, 2, -math.Log(ProbEpsilon),
			[]float64{0, 0}},
	}
	for _, c := range cases {
		grad := make([]float64, len(c.pred))
		for i := range grad {
			grad[i] = 99 // Eval overwrites
		}
		got, err := c.loss.Eval(c.pred, c.target, c.batch, c.steps, c.dim, grad)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(got-c.want) > handTol {
			t.Errorf("%s: loss %.17g, want %.17g", c.name, got, c.want)
		}
		for i := range grad {
			if math.Abs(grad[i]-c.wantGrad[i]) > handTol {
				t.Errorf("%s: grad %v, want %v", c.name, grad, c.wantGrad)
				break
			}
		}
	}
	reg := Regularizer{L1: 0.5, L2: 2}
	if got := reg.Penalty([]float64{-1, 0, 3}); math.Abs(got-(0.5*4+2*10)) > handTol {
		t.Errorf("Penalty = %g, want 22", got)
	}
	g := []float64{1, 1, 1}
	if err := reg.AddGrad([]float64{-1, 0, 3}, g); err != nil || g[0] != 1-0.5-4 || g[1] != 1 || g[2] != 1+0.5+12 {
		t.Errorf("AddGrad: %v %v, want [-3.5 1 13.5]", g, err)
	}
}

func TestLogitStability(t *testing.T) {
	pred := []float64{1000, -1000, 0, -1000, 1000, 1000}
	cases := []struct {
		target []float64
		want   float64
	}{
		// Row 0 is (1000, −1000, 0), row 1 (−1000, 1000, 1000); lse = 1000, 1000 + ln 2.
		{[]float64{0, 1}, (0 + math.Ln2) / 2},
		{[]float64{1, 0}, (2000 + 2000 + math.Ln2) / 2},
	}
	for _, c := range cases {
		grad := make([]float64, 6)
		got, err := CrossEntropy{FromLogits: true, Sparse: true}.Eval(pred, c.target, 2, 1, 3, grad)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-c.want) > stabilityTol*math.Max(1, c.want) {
			t.Errorf("targets %v: loss %.17g, want %.17g", c.target, got, c.want)
		}
		for _, g := range grad {
			if math.IsNaN(g) || math.IsInf(g, 0) || math.Abs(g) > 1 {
				t.Errorf("targets %v: gradient %v not finite and bounded", c.target, grad)
			}
		}
	}
}

func TestSparseEqualsOneHot(t *testing.T) {
	const batch, steps, dims = 3, 2, 5
	r := rand.New(rand.NewPCG(3, 4))
	for _, logits := range []bool{true, false} {
		pred := make([]float64, batch*steps*dims)
		for i := range pred {
			pred[i] = r.Float64() * 3
		}
		cls := []float64{0, 4, 2, 2, 1, 3}
		oneHot := make([]float64, len(pred))
		for row, c := range cls {
			oneHot[row*dims+int(c)] = 1
		}
		g1, g2 := make([]float64, len(pred)), make([]float64, len(pred))
		l1, err1 := CrossEntropy{FromLogits: logits}.Eval(pred, oneHot, batch, steps, dims, g1)
		l2, err2 := CrossEntropy{FromLogits: logits, Sparse: true}.Eval(pred, cls, batch, steps, dims, g2)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		// Identical arithmetic: bit-equal.
		if l1 != l2 {
			t.Errorf("FromLogits %v: one-hot %v, sparse %v", logits, l1, l2)
		}
		for i := range g1 {
			if g1[i] != g2[i] {
				t.Errorf("FromLogits %v: grad[%d] one-hot %v, sparse %v", logits, i, g1[i], g2[i])
			}
		}
		s1, n1, _ := Accuracy{}.Accumulate(pred, oneHot, batch, steps, dims)
		s2, n2, _ := Accuracy{Sparse: true}.Accumulate(pred, cls, batch, steps, dims)
		if s1 != s2 || n1 != n2 {
			t.Errorf("accuracy one-hot %v/%v, sparse %v/%v", s1, n1, s2, n2)
		}
	}
}

func TestMetrics(t *testing.T) {
	// Accuracy by hand: rows (argmax pred, target) = (1,1) (0,2) (2,2) (0,0 tie→0).
	pred := []float64{0, 5, 1, 3, 2, 1, 0, 0, 9, 4, 4, 4}
	cls := []float64{1, 2, 2, 0}
	sum, count, err := Accuracy{Sparse: true}.Accumulate(pred, cls, 2, 2, 3)
	if err != nil || sum != 3 || count != 4 {
		t.Errorf("Accuracy: %v/%v %v, want 3/4", sum, count, err)
	}
	sum, count, err = MSEMetric{}.Accumulate([]float64{1, 2, 3}, []float64{0, math.NaN(), 1}, 1, 1, 3)
	if err != nil || sum != 5 || count != 2 {
		t.Errorf("MSEMetric: %v/%v %v, want 5/2", sum, count, err)
	}
}

func TestMetricSplitBatches(t *testing.T) {
	const batch, steps, dims = 6, 3, 4
	r := rand.New(rand.NewPCG(5, 6))
	pred := make([]float64, batch*steps*dims)
	target := make([]float64, len(pred))
	cls := make([]float64, batch*steps)
	for i := range pred {
		pred[i] = r.NormFloat64()
		target[i] = r.NormFloat64()
		if i%7 == 0 {
			target[i] = math.NaN()
		}
	}
	for i := range cls {
		cls[i] = float64(r.IntN(dims))
	}
	oneHot := make([]float64, len(pred))
	for row, c := range cls {
		oneHot[row*dims+int(c)] = 1
	}
	cases := []struct {
		m      Metric
		target []float64
		per    int // target values per (batch, step)
	}{
		{Accuracy{Sparse: true}, cls, 1},
		{Accuracy{}, oneHot, dims},
		{MSEMetric{}, target, dims},
	}
	for _, c := range cases {
		whole, wn, err := c.m.Accumulate(pred, c.target, batch, steps, dims)
		if err != nil {
			t.Fatal(err)
		}
		var sum, n float64
		for _, part := range [][2]int{{0, 1}, {1, 4}, {4, 6}} { // batches 0, 1–3, 4–5
			b0, b1 := part[0], part[1]
			s, k, err := c.m.Accumulate(pred[b0*steps*dims:b1*steps*dims], c.target[b0*steps*c.per:b1*steps*c.per],
				b1-b0, steps, dims)
			if err != nil {
				t.Fatal(err)
			}
			sum += s
			n += k
		}
		if n != wn || math.Abs(sum/n-whole/wn) > splitTol {
			t.Errorf("%s: split %v/%v, whole %v/%v", c.m.Name(), sum, n, whole, wn)
		}
	}
}

func TestErrors(t *testing.T) {
	p4 := []float64{0.1, 0.2, 0.3, 0.4}
	cases := []struct {
		name   string
		eval   func() error
		substr string
	}{
		{"zero batch", func() error { _, err := MSE{}.Eval(nil, nil, 0, 1, 1, nil); return err }, "batch, steps, dims = 0, 1, 1"},
		{"negative dims", func() error { _, err := MSE{}.Eval(nil, nil, 1, 1, -2, nil); return err }, "must all be > 0"},
		{"pred length", func() error { _, err := MSE{}.Eval(p4[:3], p4, 1, 2, 2, p4); return err },
			"pred has 3 values, want batch·steps·dims = 1·2·2 = 4"},
		{"target length", func() error { _, err := MaskedMSE{}.Eval(p4, p4[:1], 1, 2, 2, p4); return err },
			"target has 1 values, want batch·steps·dims = 1·2·2 = 4"},
		{"sparse target length", func() error {
			_, err := CrossEntropy{Sparse: true}.Eval(p4, p4, 1, 2, 2, make([]float64, 4))
			return err
		}, "target has 4 values, want batch·steps = 1·2 = 2 class indices"},
		{"grad length", func() error { _, err := CrossEntropy{}.Eval(p4, p4, 1, 2, 2, nil); return err },
			"grad has 0 values, want batch·steps·dims = 1·2·2 = 4"},
		{"NaN pred", func() error {
			_, err := MSE{}.Eval([]float64{0, 0, math.NaN(), 0}, p4, 2, 1, 2, make([]float64, 4))
			return err
		}, "pred[batch 1, step 0, dim 0] is NaN: the model output is not finite (NaN loss)"},
		{"Inf pred metric", func() error {
			_, _, err := MSEMetric{}.Accumulate([]float64{math.Inf(1)}, []float64{0}, 1, 1, 1)
			return err
		}, "is +Inf"},
		{"NaN target MSE", func() error {
			_, err := MSE{}.Eval(p4, []float64{0, math.NaN(), 0, 0}, 1, 1, 4, make([]float64, 4))
			return err
		}, "MaskedMSE ignores NaN targets"},
		{"Inf target MaskedMSE", func() error {
			_, err := MaskedMSE{}.Eval(p4, []float64{0, math.Inf(-1), 0, 0}, 1, 1, 4, make([]float64, 4))
			return err
		}, "target[batch 0, step 0, dim 1] is -Inf"},
		{"class out of range", func() error {
			_, err := CrossEntropy{FromLogits: true, Sparse: true}.Eval(p4, []float64{1, 2}, 1, 2, 2, make([]float64, 4))
			return err
		}, "target[batch 0, step 1] = 2, must be an integer class index in [0, 2)"},
		{"class not integer", func() error {
			_, _, err := Accuracy{Sparse: true}.Accumulate(p4, []float64{0.5, 1}, 2, 1, 2)
			return err
		}, "= 0.5, must be an integer"},
		{"class NaN", func() error {
			_, err := CrossEntropy{Sparse: true}.Eval(p4, []float64{math.NaN(), 1}, 2, 1, 2, make([]float64, 4))
			return err
		}, "= NaN, must be an integer"},
		{"negative probability", func() error {
			_, err := CrossEntropy{}.Eval([]float64{0.5, -0.5}, []float64{1, 0}, 1, 1, 2, make([]float64, 2))
			return err
		}, "a probability must be ≥ 0 (FromLogits is false)"},
		{"zero probabilities", func() error {
			_, err := CrossEntropy{}.Eval([]float64{0, 0}, []float64{1, 0}, 1, 1, 2, make([]float64, 2))
			return err
		}, "sums to 0"},
		{"regulariser", func() error { return Regularizer{L1: -1}.AddGrad(nil, nil) }, "L1 = -1"},
		{"regulariser NaN", func() error { return Regularizer{L2: math.NaN()}.Validate() }, "L2 = NaN"},
		{"regulariser length", func() error { return Regularizer{L1: 1}.AddGrad(p4, p4[:2]) },
			"grad has 2 values, want len(values) = 4"},
		{"overflow", func() error { _, err := MSE{}.Eval(nil, nil, 1<<40, 1<<40, 1, nil); return err }, "overflows"},
	}
	for _, c := range cases {
		if err := c.eval(); err == nil || !strings.Contains(err.Error(), c.substr) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.substr)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	const batch, steps, dims = 4, 5, 10
	for _, c := range lossCases() {
		pred, target := fill(c, rand.New(rand.NewPCG(7, 8)), batch, steps, dims)
		grad := make([]float64, len(pred))
		allocs := testing.AllocsPerRun(10, func() {
			if _, err := c.loss.Eval(pred, target, batch, steps, dims, grad); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per Eval, want 0", c.name, allocs)
		}
	}
}

func BenchmarkCrossEntropyLogits(b *testing.B) {
	const batch, steps, dims = 100, 10, 10
	r := rand.New(rand.NewPCG(9, 10))
	pred := make([]float64, batch*steps*dims)
	cls := make([]float64, batch*steps)
	for i := range pred {
		pred[i] = r.NormFloat64()
	}
	for i := range cls {
		cls[i] = float64(r.IntN(dims))
	}
	grad := make([]float64, len(pred))
	ce := CrossEntropy{FromLogits: true, Sparse: true}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := ce.Eval(pred, cls, batch, steps, dims, grad); err != nil {
			b.Fatal(err)
		}
	}
}
