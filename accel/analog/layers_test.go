package analog

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neurogo/neurogo/toolkit/layers"
)

func forward(t *testing.T, l layers.Layer, params [][]float64, in []float64, batch int) []float64 {
	t.Helper()
	ex, err := l.NewExec(batch, 1)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, batch*layers.Size(l.OutShape()))
	if err := ex.Forward(params, in, out, batch, false); err != nil {
		t.Fatal(err)
	}
	return out
}

func paramValues(l layers.Layer) [][]float64 {
	var ps [][]float64
	for _, p := range l.Params() {
		ps = append(ps, p.Value)
	}
	return ps
}

// The ideal (System nil) analog layers equal the float layers they
// replace, times Gain·num_sends, with the same parameters.
func TestIdealLayersEqualFloatLayers(t *testing.T) {
	const tol = 1e-9
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name   string
		an, fl layers.Spec
		in     []int
		sends  int
	}{
		{"Linear", Linear{Units: 7, NumSends: 2}, layers.Dense{Units: 7, NoBias: true}, []int{13}, 2},
		{"Linear rank 2", Linear{Units: 4}, layers.Dense{Units: 4, NoBias: true}, []int{3, 5}, 1},
		{"Conv1d", Conv1d{Filters: 5, Kernel: 4, Stride: 3, NumSends: 3}, layers.Conv1D{Filters: 5, Kernel: 4, Stride: 3, NoBias: true}, []int{20, 3}, 3},
		{"ExpandedConv1d E=3", ExpandedConv1d{Filters: 5, Kernel: 4, Stride: 2, Expansions: 3}, layers.Conv1D{Filters: 5, Kernel: 4, Stride: 2, NoBias: true}, []int{21, 3}, 1},
		{"ExpandedConv1d auto", ExpandedConv1d{Filters: 8, Kernel: 6, Stride: 2}, layers.Conv1D{Filters: 8, Kernel: 6, Stride: 2, NoBias: true}, []int{40, 2}, 1},
		{"Conv2d", Conv2d{Filters: 4, Kernel: [2]int{3, 2}, Strides: [2]int{2, 1}}, layers.Conv2D{Filters: 4, Kernel: []int{3, 2}, Strides: []int{2, 1}, NoBias: true}, []int{7, 6, 2}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			al, err := tc.an.Build(tc.in, 3)
			if err != nil {
				t.Fatal(err)
			}
			fl, err := tc.fl.Build(tc.in, 3)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := al.Params()[0].Shape, fl.Params()[0].Shape; !slices.Equal(got, want) {
				t.Fatalf("kernel shape %v, float layer's %v", got, want)
			}
			if !slices.Equal(al.OutShape(), fl.OutShape()) {
				t.Fatalf("out shape %v, float layer's %v", al.OutShape(), fl.OutShape())
			}
			batch := 3
			in := make([]float64, batch*layers.Size(tc.in))
			for i := range in {
				in[i] = rng.Float64() * 31
			}
			ps := paramValues(al)
			ya := forward(t, al, ps, in, batch)
			yf := forward(t, fl, ps, in, batch)
			s := DefaultGain * float64(tc.sends)
			for i := range ya {
				if math.Abs(ya[i]-s*yf[i]) > tol*math.Max(1, math.Abs(ya[i])) {
					t.Fatalf("out[%d] = %v, float layer·s = %v", i, ya[i], s*yf[i])
				}
			}
		})
	}
}

// Backward of every analog layer is the exact gradient of the ideal
// operation (finite differences), and on a system the same software
// model (straight through).
func TestLayerGradients(t *testing.T) {
	const tol = 1e-6
	rng := rand.New(rand.NewPCG(2, 2))
	sys, _ := New(MockConfig())
	for _, tc := range []struct {
		name string
		spec layers.Spec
		in   []int
	}{
		{"Linear bias", Linear{Units: 3, Bias: true, NumSends: 4}, []int{5}},
		{"Linear 3 row splits", Linear{Units: 4, InitStd: 4}, []int{300}},
		{"Conv1d", Conv1d{Filters: 2, Kernel: 3, Stride: 2}, []int{9, 2}},
		{"Conv1d 3 row splits", Conv1d{Filters: 3, Kernel: 40, Stride: 5, InitStd: 4}, []int{60, 8}},
		{"ExpandedConv1d", ExpandedConv1d{Filters: 2, Kernel: 3, Stride: 2, Expansions: 2}, []int{10, 2}},
		{"Conv2d", Conv2d{Filters: 2, Kernel: [2]int{2, 2}, Strides: [2]int{1, 2}}, []int{4, 5, 2}},
		{"ConvertingReLU", ConvertingReLU{Shift: 2}, []int{6}},
		{"ReLU", ReLU{}, []int{6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := tc.spec.Build(tc.in, 5)
			if err != nil {
				t.Fatal(err)
			}
			batch := 2
			n := batch * layers.Size(tc.in)
			in := make([]float64, n)
			for i := range in {
				in[i] = 1 + rng.Float64()*29
				if tc.name == "ConvertingReLU" || tc.name == "ReLU" {
					in[i] = rng.Float64()*300 - 100 + 0.37 // away from kinks
				}
			}
			ps := paramValues(l)
			wts := make([]float64, batch*layers.Size(l.OutShape()))
			for i := range wts {
				wts[i] = rng.NormFloat64()
			}
			loss := func() float64 {
				y := forward(t, l, ps, in, batch)
				s := 0.0
				for i := range y {
					s += wts[i] * y[i]
				}
				return s
			}
			ex, _ := l.NewExec(batch, 1)
			out := make([]float64, len(wts))
			ex.Forward(ps, in, out, batch, true)
			dIn := make([]float64, n)
			dPs := make([][]float64, len(ps))
			for i := range ps {
				dPs[i] = make([]float64, len(ps[i]))
			}
			if err := ex.Backward(ps, in, out, wts, dIn, dPs, batch); err != nil {
				t.Fatal(err)
			}
			check := func(what string, v []float64, g []float64) {
				for i := range v {
					old := v[i]
					h := 1e-4
					v[i] = old + h
					lp := loss()
					v[i] = old - h
					lm := loss()
					v[i] = old
					fd := (lp - lm) / (2 * h)
					if tc.name == "ConvertingReLU" {
						fd = g[i] // floor(): FD is 0 or a jump; the straight-through gradient is checked below
					}
					if math.Abs(fd-g[i]) > tol*math.Max(1, math.Abs(fd)) {
						t.Fatalf("%s[%d]: backward %v, finite difference %v", what, i, g[i], fd)
					}
				}
			}
			check("in", in, dIn)
			for k := range ps {
				check(l.Params()[k].Name, ps[k], dPs[k])
			}
			if tc.name == "ConvertingReLU" {
				for i, v := range in {
					want := 0.0
					if v > 0 && v < 31*4 {
						want = wts[i] / 4
					}
					if dIn[i] != want {
						t.Fatalf("dIn[%d] = %v for x = %v, want %v", i, dIn[i], v, want)
					}
				}
			}
			// on a system: the same software-model gradient
			if mm, ok := l.(*mmLayer); ok {
				spec := tc.spec
				switch s := spec.(type) {
				case Linear:
					s.System = sys
					spec = s
				case Conv1d:
					s.System = sys
					spec = s
				case ExpandedConv1d:
					s.System = sys
					spec = s
				case Conv2d:
					s.System = sys
					spec = s
				}
				l2, err := spec.Build(tc.in, 5)
				if err != nil {
					t.Fatal(err)
				}
				ex2, _ := l2.NewExec(batch, 1)
				out2 := make([]float64, len(wts))
				if err := ex2.Forward(ps, in, out2, batch, true); err != nil {
					t.Fatal(err)
				}
				dIn2 := make([]float64, n)
				dPs2 := make([][]float64, len(ps))
				for i := range ps {
					dPs2[i] = make([]float64, len(ps[i]))
				}
				ex2.Backward(ps, in, out2, wts, dIn2, dPs2, batch)
				for i := range dIn {
					if math.Abs(dIn[i]-dIn2[i]) > 1e-12 {
						t.Fatalf("on a system dIn[%d] = %v, ideal %v", i, dIn2[i], dIn[i])
					}
				}
				for k := range dPs {
					for i := range dPs[k] {
						if math.Abs(dPs[k][i]-dPs2[k][i]) > 1e-12 {
							t.Fatalf("on a system d%s[%d] = %v, ideal %v", l.Params()[k].Name, i, dPs2[k][i], dPs[k][i])
						}
					}
				}
				_ = mm
			}
		})
	}
}

// On the mock system a layer's output deviates from the ideal by the
// quantisation and the noise only.
func TestMockLinearNearIdeal(t *testing.T) {
	sys, _ := New(MockConfig())
	rng := rand.New(rand.NewPCG(3, 3))
	spec := Linear{Units: 50, NumSends: 4}
	ideal, _ := spec.Build([]int{100}, 1)
	spec.System = sys
	mock, _ := spec.Build([]int{100}, 1)
	batch := 100
	in := make([]float64, batch*100)
	for i := range in {
		in[i] = float64(rng.IntN(32))
	}
	ps := paramValues(ideal)
	for i := range ps[0] {
		ps[0][i] = math.Round(ps[0][i])
	}
	yi := forward(t, ideal, ps, in, batch)
	ym := forward(t, mock, ps, in, batch)
	var se, sv float64
	for i := range yi {
		// the ideal is clamped like the hardware result
		c := math.Max(OutputMin, math.Min(OutputMax, yi[i]))
		se += (ym[i] - c + 0.5) * (ym[i] - c + 0.5)
		sv += c * c
	}
	rms := math.Sqrt(se / float64(len(yi)))
	t.Logf("mock vs ideal: RMS %.2f LSB (noise 2, floor 0.29), signal RMS %.1f", rms, math.Sqrt(sv/float64(len(yi))))
	if rms > 2.5 || rms < 1.5 {
		t.Errorf("RMS deviation %.2f LSB, want ≈ 2.04 (the configured noise)", rms)
	}
}

// Where a partial result saturated on the chip, the straight-through
// gradient is dropped for that row split (the clamp's derivative is 0).
func TestSaturationMasksGradient(t *testing.T) {
	sys, _ := New(Config{Gain: 0.01}) // no noise: exact saturation pattern
	l, err := Linear{Units: 2, System: sys}.Build([]int{256}, 1)
	if err != nil {
		t.Fatal(err)
	}
	ex, _ := l.NewExec(1, 1)
	in := make([]float64, 256)
	for i := range in {
		in[i] = 31
	}
	k := make([]float64, 512)
	for i := 0; i < 128; i++ {
		k[i*2] = 63 // unit 0, rows 0..127: 0.01·31·63·128 = 2500 LSB: saturates
		k[i*2+1] = 1
	}
	for i := 128; i < 256; i++ {
		k[i*2] = 1 // unit 0, rows 128..255: small
		k[i*2+1] = 1
	}
	out := make([]float64, 2)
	if err := ex.Forward([][]float64{k}, in, out, 1, true); err != nil {
		t.Fatal(err)
	}
	if out[0] != OutputMax {
		t.Fatalf("unit 0 = %v, want the clamp 127", out[0])
	}
	dk := make([]float64, 512)
	if err := ex.Backward([][]float64{k}, in, out, []float64{1, 1}, nil, [][]float64{dk}, 1); err != nil {
		t.Fatal(err)
	}
	// unit 0's total saturated: no gradient at all; unit 1 (≈ 80 LSB) passes everywhere
	for i := 0; i < 256; i++ {
		if dk[i*2] != 0 {
			t.Fatalf("dk[%d][0] = %v, want 0 (saturated)", i, dk[i*2])
		}
		if want := 0.01 * 31; math.Abs(dk[i*2+1]-want) > 1e-12 {
			t.Fatalf("dk[%d][1] = %v, want %v", i, dk[i*2+1], want)
		}
	}
}

// TestKernelDeclaresHardwareRange: every analog layer's kernel declares
// the role kernel and the constraint ±WeightMax (what the trainer clamps
// to after each step, the hxtorch paper's clamp_weight_); the bias is a
// RoleBias without a constraint.
func TestKernelDeclaresHardwareRange(t *testing.T) {
	cases := []struct {
		spec layers.Spec
		in   []int
	}{
		{Linear{Units: 3, Bias: true}, []int{4}},
		{Conv1d{Filters: 2, Kernel: 3, Stride: 1, Bias: true}, []int{8, 2}},
		{Conv2d{Filters: 2, Kernel: [2]int{2, 2}, Strides: [2]int{1, 1}}, []int{4, 4, 1}},
		{ExpandedConv1d{Filters: 2, Kernel: 3, Stride: 1, Expansions: 2}, []int{8, 2}},
	}
	for _, tc := range cases {
		l, err := tc.spec.Build(tc.in, 1)
		if err != nil {
			t.Fatalf("%T: %v", tc.spec, err)
		}
		for _, p := range l.Params() {
			switch p.Name {
			case "kernel":
				if p.Role != layers.RoleKernel || p.Constraint != (layers.Bounds{Lo: -WeightMax, Hi: WeightMax}) {
					t.Errorf("%s kernel: role %v, constraint %v, want kernel, Bounds[-63, 63]", l.Kind(), p.Role, p.Constraint)
				}
			case "bias":
				if p.Role != layers.RoleBias || p.Constraint != nil {
					t.Errorf("%s bias: role %v, constraint %v, want bias, none", l.Kind(), p.Role, p.Constraint)
				}
			default:
				t.Errorf("%s: unexpected parameter %q", l.Kind(), p.Name)
			}
		}
	}
}
