package layers

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Finite-difference gradient checks. Central differences with step gradStep
// have truncation error O(h²·|third derivative|) ≈ 1e-12 and rounding error
// O(ε·|L|/h) ≈ 1e-16·10/1e-6 = 1e-9 for the losses used here (|L| ≲ 10), so
// a relative tolerance of 1e-6 separates a correct gradient from a wrong one
// by orders of magnitude.
const (
	gradStep   = 1e-6
	gradRelTol = 1e-6
)

func randn(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

// testParams returns the layer's parameters with noise added (so that biases
// are not zero and gammas not one); moving variances stay positive.
func testParams(l Layer, r *rand.Rand) [][]float64 {
	ps := l.Params()
	out := make([][]float64, len(ps))
	for i, p := range ps {
		v := p.Value
		for j := range v {
			switch p.Name {
			case "moving_variance":
				v[j] = 0.5 + r.Float64()
			default:
				v[j] += 0.3 * r.NormFloat64()
			}
		}
		out[i] = v
	}
	return out
}

func cloneParams(ps [][]float64) [][]float64 {
	c := make([][]float64, len(ps))
	for i, p := range ps {
		c[i] = append([]float64(nil), p...)
	}
	return c
}

// loss runs a fresh Exec (so Dropout draws its first mask every time) and
// returns Σ w·out.
func loss(t *testing.T, l Layer, params [][]float64, in, w []float64, batch int, training bool) float64 {
	t.Helper()
	ex, err := l.NewExec(batch, 7)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, batch*Size(l.OutShape()))
	if err := ex.Forward(cloneParams(params), in, out, batch, training); err != nil {
		t.Fatal(err)
	}
	s := 0.0
	for i, v := range out {
		s += w[i] * v
	}
	return s
}

func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// gradCheck compares Backward's dIn and trainable dParams with central
// differences of L = Σ w·out. Backward must accumulate, so the gradient
// buffers start non-zero and the start value is subtracted.
func gradCheck(t *testing.T, l Layer, batch int, training bool, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	params := testParams(l, r)
	in := randn(r, batch*Size(l.InShape()))
	w := randn(r, batch*Size(l.OutShape()))

	ex, err := l.NewExec(batch, 7)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(w))
	ps := cloneParams(params)
	if err := ex.Forward(ps, in, out, batch, training); err != nil {
		t.Fatal(err)
	}
	dIn0 := randn(r, len(in))
	dIn := append([]float64(nil), dIn0...)
	dParams := make([][]float64, len(params))
	dP0 := make([][]float64, len(params))
	meta := l.Params()
	for i := range params {
		if meta[i].Trainable {
			dP0[i] = randn(r, len(params[i]))
			dParams[i] = append([]float64(nil), dP0[i]...)
		}
	}
	if err := ex.Backward(ps, in, out, w, dIn, dParams, batch); err != nil {
		t.Fatal(err)
	}

	for i := range in {
		x := in[i]
		in[i] = x + gradStep
		lp := loss(t, l, params, in, w, batch, training)
		in[i] = x - gradStep
		lm := loss(t, l, params, in, w, batch, training)
		in[i] = x
		num := (lp - lm) / (2 * gradStep)
		if got := dIn[i] - dIn0[i]; !closeRel(got, num, gradRelTol) {
			t.Fatalf("dIn[%d] = %.10g, finite difference %.10g", i, got, num)
		}
	}
	for k := range params {
		if !meta[k].Trainable {
			continue
		}
		for i := range params[k] {
			x := params[k][i]
			params[k][i] = x + gradStep
			lp := loss(t, l, params, in, w, batch, training)
			params[k][i] = x - gradStep
			lm := loss(t, l, params, in, w, batch, training)
			params[k][i] = x
			num := (lp - lm) / (2 * gradStep)
			if got := dParams[k][i] - dP0[k][i]; !closeRel(got, num, gradRelTol) {
				t.Fatalf("d%s[%d] = %.10g, finite difference %.10g", meta[k].Name, i, got, num)
			}
		}
	}
}

// squareFunc is a user layer y = a·x² + b (per element, a and b scalars).
func squareFunc(withBackward bool) Func {
	f := Func{
		Kind: "Square",
		Out:  []int{3, 2},
		Params: []Param{
			{Name: "a", Shape: []int{1}, Value: []float64{0.5}, Trainable: true},
			{Name: "b", Shape: []int{1}, Value: []float64{0.1}, Trainable: true},
		},
		Forward: func(params [][]float64, in, out []float64, batch int) error {
			for i, x := range in {
				out[i] = params[0][0]*x*x + params[1][0]
			}
			return nil
		},
	}
	if withBackward {
		f.Backward = func(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
			for i, x := range in {
				if dIn != nil {
					dIn[i] += 2 * params[0][0] * x * dOut[i]
				}
				if dParams[0] != nil {
					dParams[0][0] += x * x * dOut[i]
				}
				if dParams[1] != nil {
					dParams[1][0] += dOut[i]
				}
			}
			return nil
		}
	}
	return f
}

var gradCases = []struct {
	name     string
	spec     Spec
	in       []int
	batch    int
	training bool
}{
	{"Dense/rank1", Dense{Units: 3}, []int{5}, 3, false},
	{"Dense/rank3", Dense{Units: 3}, []int{2, 3, 4}, 2, false},
	{"Dense/nobias", Dense{Units: 2, NoBias: true}, []int{4}, 2, false},
	{"Conv1D/k3/valid", Conv1D{Filters: 3, Kernel: 3}, []int{7, 2}, 2, false},
	{"Conv1D/k3/s2/same", Conv1D{Filters: 2, Kernel: 3, Stride: 2, Padding: "same"}, []int{8, 2}, 2, false},
	{"Conv1D/k4/same", Conv1D{Filters: 2, Kernel: 4, Padding: "same"}, []int{6, 3}, 2, false},
	{"Conv1D/k2/d2/causal", Conv1D{Filters: 2, Kernel: 2, Dilation: 2, Padding: "causal"}, []int{6, 2}, 2, false},
	{"Conv2D/3x3/valid", Conv2D{Filters: 3, Kernel: []int{3}}, []int{5, 5, 2}, 2, false},
	{"Conv2D/2x3/s2/same", Conv2D{Filters: 2, Kernel: []int{2, 3}, Strides: []int{2}, Padding: "same"}, []int{5, 6, 2}, 2, false},
	{"Conv2D/2x2/same/even", Conv2D{Filters: 2, Kernel: []int{2}, Padding: "same"}, []int{4, 4, 1}, 3, false},
	{"Conv2D/3x3/d2/same", Conv2D{Filters: 2, Kernel: []int{3}, Dilation: []int{2}, Padding: "same"}, []int{5, 4, 2}, 2, false},
	{"Conv2D/s21/d12/valid", Conv2D{Filters: 2, Kernel: []int{2, 2}, Strides: []int{2, 1}, Dilation: []int{1, 2}}, []int{5, 5, 2}, 2, false},
	{"Conv2D/1x1/direct", Conv2D{Filters: 3, Kernel: []int{1}}, []int{3, 3, 2}, 2, false},
	{"Conv2D/1x1/s2/nobias", Conv2D{Filters: 2, Kernel: []int{1}, Strides: []int{2}, NoBias: true}, []int{4, 3, 2}, 2, false},
	{"AvgPool2D/valid", AvgPool{Pool: []int{2}}, []int{4, 5, 2}, 2, false},
	{"AvgPool2D/3s2/same", AvgPool{Pool: []int{3}, Strides: []int{2}, Padding: "same"}, []int{5, 4, 2}, 2, false},
	{"AvgPool1D/same", AvgPool{Pool: []int{2}, Padding: "same"}, []int{5, 3}, 2, false},
	{"MaxPool2D/valid", MaxPool{Pool: []int{2, 3}, Strides: []int{1, 2}}, []int{4, 5, 2}, 2, false},
	{"MaxPool2D/same", MaxPool{Pool: []int{2}, Padding: "same"}, []int{5, 5, 2}, 2, false},
	{"MaxPool1D/valid", MaxPool{Pool: []int{3}, Strides: []int{1}}, []int{6, 2}, 2, false},
	{"Flatten", Flatten{}, []int{2, 3, 2}, 2, false},
	{"Reshape", Reshape{Shape: []int{-1, 4}}, []int{2, 3, 2}, 2, false},
	{"Dropout/train", Dropout{Rate: 0.4}, []int{3, 4}, 3, true},
	{"Dropout/infer", Dropout{Rate: 0.4}, []int{3, 4}, 2, false},
	{"BatchNorm/train/rank1", BatchNorm{}, []int{4}, 5, true},
	{"BatchNorm/train/rank3", BatchNorm{Momentum: 0.9, Epsilon: 1e-2}, []int{2, 3, 3}, 2, true},
	{"BatchNorm/infer", BatchNorm{}, []int{2, 3}, 2, false},
	{"Func", squareFunc(true), []int{6}, 2, false},
}

func TestGradients(t *testing.T) {
	for i, c := range gradCases {
		t.Run(c.name, func(t *testing.T) {
			l, err := c.spec.Build(c.in, int64(i+1))
			if err != nil {
				t.Fatal(err)
			}
			gradCheck(t, l, c.batch, c.training, uint64(i+100))
		})
	}
}
