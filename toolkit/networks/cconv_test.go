package networks

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// cconvRMSTol is Nengo 4.1's tolerance in
// test_circularconv.py::test_neural_accuracy (dims 16 and 32).
const cconvRMSTol = 0.1

// circconv returns the circular convolution of a and b computed directly,
// with a or b replaced by its involution x[−i mod D] when inverted.
func circconv(a, b []float64, invertA, invertB bool) []float64 {
	d := len(a)
	inv := func(x []float64) []float64 {
		y := make([]float64, d)
		for i := range y {
			y[i] = x[(d-i)%d]
		}
		return y
	}
	if invertA {
		a = inv(a)
	}
	if invertB {
		b = inv(b)
	}
	out := make([]float64, d)
	for n := range d {
		for k := range d {
			out[n] += a[k] * b[((n-k)%d+d)%d]
		}
	}
	return out
}

func matVec(m [][]float64, x []float64) []float64 {
	out := make([]float64, len(m))
	for i, r := range m {
		for j, v := range r {
			out[i] += v * x[j]
		}
	}
	return out
}

// TestCircConvTransforms checks the DFT, product and inverse-DFT
// matrices against direct circular convolution (Nengo's
// test_circularconv_transforms, exact to rounding).
func TestCircConvTransforms(t *testing.T) {
	const tol = 1e-12
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 2, 5, 16, 33, 100} {
		for _, inv := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			a, b := make([]float64, d), make([]float64, d)
			for i := range a {
				a[i], b[i] = rng.NormFloat64(), rng.NormFloat64()
			}
			tA, tB := dftTransforms(d, inv[0], inv[1])
			fa, fb := matVec(tA, a), matVec(tB, b)
			for i := range fa {
				fa[i] *= fb[i]
			}
			got := matVec(idftTransform(d), fa)
			want := circconv(a, b, inv[0], inv[1])
			for i := range want {
				if math.Abs(got[i]-want[i]) > tol*float64(d) {
					t.Fatalf("D=%d invert=%v: z[%d] = %v, want %v", d, inv, i, got[i], want[i])
				}
			}
		}
	}
}

// TestCircularConvolutionAccuracy is Nengo's test_neural_accuracy: LIFRate
// neurons, 128 neurons per product, a and b drawn from N(0, 1/D), the
// unfiltered output after 10 ms compared with the exact convolution.
func TestCircularConvolutionAccuracy(t *testing.T) {
	for _, d := range []int{16, 32} {
		t.Run(map[int]string{16: "D16", 32: "D32"}[d], func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(d), 7))
			a, b := make([]float64, d), make([]float64, d)
			for i := range a {
				a[i] = rng.NormFloat64() * math.Sqrt(1/float64(d))
				b[i] = rng.NormFloat64() * math.Sqrt(1/float64(d))
			}
			net := toolkit.New("circular conv", int64(d))
			net.Defaults.NeuronType = neurons.NewLIFRate()
			ia := net.Const("a", a...)
			ib := net.Const("b", b...)
			cc, err := CircularConvolution(net, "cconv", 128, d, false, false, 1)
			if err != nil {
				t.Fatal(err)
			}
			net.Connect(ia, cc.InputA).Synapse = nil
			net.Connect(ib, cc.InputB).Synapse = nil
			p := net.Probe("out", cc.Output, "")
			data, _ := simulate(t, net, 0.01, p)
			last := data[0][len(data[0])-1]
			want := circconv(a, b, false, false)
			diff := make([]float64, d)
			for i := range diff {
				diff[i] = want[i] - last[i]
			}
			e := rms([][]float64{diff})
			t.Logf("D=%d: CircularConvolution RMS error %.4f (tolerance %.2f)", d, e, cconvRMSTol)
			if !(e < cconvRMSTol) {
				t.Errorf("D=%d: RMS error %.4f, want < %.2f", d, e, cconvRMSTol)
			}
		})
	}
}
