package layers

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestConvFloat32: with SetFloat32 a convolution's outputs and gradients
// are the float64 ones to float32 precision (products of float32-rounded
// operands, sums over at most a few thousand terms), for padded, strided,
// dilated and 1-D geometries and batches larger than one im2col chunk;
// SetFloat32(false) gives the float64 results exactly again.
func TestConvFloat32(t *testing.T) {
	const f32RelTol = 1e-5 // relative to the largest magnitude of each compared vector
	specs := []struct {
		spec Spec
		in   []int
	}{
		{Conv2D{Filters: 4, Kernel: []int{3}}, []int{9, 8, 2}},
		{Conv2D{Filters: 3, Kernel: []int{3, 2}, Strides: []int{2, 1}, Padding: "same"}, []int{7, 6, 3}},
		{Conv2D{Filters: 2, Kernel: []int{2}, Dilation: []int{2}, NoBias: true}, []int{6, 6, 1}},
		{Conv1D{Filters: 5, Kernel: 3, Padding: "causal"}, []int{10, 2}},
		// 62·62·(3·3·8)·8 bytes = 2.2 MB of columns per example: chunks
		// of 3 examples (maxColBytes), two for batch 5
		{Conv2D{Filters: 6, Kernel: []int{3}}, []int{64, 64, 8}},
	}
	// 1.1 MB of float32 columns per example: chunks of 3 examples
	defer func(b int) { maxCol32Bytes = b }(maxCol32Bytes)
	maxCol32Bytes = 4 << 20
	r := rand.New(rand.NewPCG(32, 1))
	for _, c := range specs {
		l, err := c.spec.Build(c.in, 1)
		if err != nil {
			t.Fatal(err)
		}
		params := testParams(l, r)
		if cl, ok := l.(*convLayer); ok && c.in[0] == 64 {
			ex, _ := cl.NewExec(5, 7)
			if ch := ex.(*convExec).chunk; ch >= 5 {
				t.Fatalf("chunk %d: the test wants several chunks", ch)
			}
			ex.(*convExec).SetFloat32(true)
			if ch := ex.(*convExec).chunk; ch >= 5 {
				t.Fatalf("float32 chunk %d: the test wants several chunks", ch)
			}
		}
		const batch = 5
		in := randn(r, batch*Size(l.InShape()))
		dOut := randn(r, batch*Size(l.OutShape()))
		run := func(mode int) (out, dIn []float64, dP [][]float64) {
			ex, err := l.NewExec(batch, 7)
			if err != nil {
				t.Fatal(err)
			}
			f, ok := ex.(Float32Exec)
			if !ok {
				t.Fatalf("%v: not a Float32Exec", c.spec)
			}
			if mode > 0 {
				f.SetFloat32(true)
			}
			if mode > 1 {
				f.SetFloat32(false)
			}
			out = make([]float64, batch*Size(l.OutShape()))
			if err := ex.Forward(params, in, out, batch, true); err != nil {
				t.Fatal(err)
			}
			dIn = make([]float64, len(in))
			for _, p := range params {
				dP = append(dP, make([]float64, len(p)))
			}
			if err := ex.Backward(params, in, out, dOut, dIn, dP, batch); err != nil {
				t.Fatal(err)
			}
			return out, dIn, dP
		}
		o64, d64, p64 := run(0)
		o32, d32, p32 := run(1)
		oOff, dOff, pOff := run(2)
		near := func(what string, a, b []float64, tol float64) {
			scale := 0.0
			for _, v := range a {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := range a {
				if !(math.Abs(a[i]-b[i]) <= tol*scale) {
					t.Errorf("%v: %s[%d] = %v, float64 %v (tolerance %g)", c.spec, what, i, b[i], a[i], tol)
					return
				}
			}
		}
		near("float32 output", o64, o32, f32RelTol)
		near("float32 input gradient", d64, d32, f32RelTol)
		near("off output", o64, oOff, 0)
		near("off input gradient", d64, dOff, 0)
		for i := range p64 {
			near("float32 parameter gradient", p64[i], p32[i], f32RelTol)
			near("off parameter gradient", p64[i], pOff[i], 0)
		}
		// float32 is not float64 (the option does something)
		same := true
		for i := range o64 {
			same = same && o64[i] == o32[i]
		}
		if same {
			t.Errorf("%v: float32 output identical to float64", c.spec)
		}
	}
}

// TestConvert32: the (vector) conversion helpers equal the scalar loops
// exactly, for every length around the vector width.
func TestConvert32(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 2))
	for n := range 40 {
		src := randn(r, n)
		if n >= 11 {
			copy(src[8:], []float64{1e-40, -3e38, 1e300}) // float32 underflow, rounding, overflow
		}
		a, b := make([]float32, n), make([]float32, n)
		to32(a, src)
		for i, v := range src {
			b[i] = float32(v)
		}
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("n %d: to32[%d] = %v, scalar %v", n, i, a[i], b[i])
			}
		}
		bias := randn(r, n)
		d1, d2 := append([]float64(nil), bias...), append([]float64(nil), bias...)
		add32(d1, a)
		for i, v := range a {
			d2[i] += float64(v)
		}
		e1, e2 := make([]float64, n), make([]float64, n)
		biasAdd32(e1, bias, a)
		for i, v := range a {
			e2[i] = bias[i] + float64(v)
		}
		for i := range d1 {
			if d1[i] != d2[i] || e1[i] != e2[i] {
				t.Fatalf("n %d: add32/biasAdd32[%d] = %v/%v, scalar %v/%v", n, i, d1[i], e1[i], d2[i], e2[i])
			}
		}
	}
}
