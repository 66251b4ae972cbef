package networks

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// Tolerances from Nengo 4.1's own test suite (nengo/networks/tests).
const (
	productRMSTol = 0.2 // test_product.py::test_sine_waves
	productDelay  = 0.013
)

// productSineError runs Nengo's test_sine_waves set-up on a product of
// nNeurons per product (neuron type from net's Defaults) and returns the
// RMS error.
func productSineError(t *testing.T, net *toolkit.Network, nNeurons int) float64 {
	t.Helper()
	const dim, radius = 5, 2.0
	prod, err := Product(net, "product", nNeurons, dim, radius)
	if err != nil {
		t.Fatal(err)
	}
	fa := func(tt float64, out []float64) {
		for i := range out {
			out[i] = math.Sqrt(radius) * math.Sin(float64(i+1)*2*math.Pi*tt)
		}
	}
	fb := func(tt float64, out []float64) {
		for i := range out {
			out[i] = math.Sqrt(radius) * math.Sin(float64(dim-i)*2*math.Pi*tt)
		}
	}
	net.Connect(net.Node("a", dim, fa), prod.InputA)
	net.Connect(net.Node("b", dim, fb), prod.InputB)
	p := net.Probe("out", prod.Output, "")
	p.Synapse = synapses.Lowpass{Tau: 0.005}
	data, tr := simulate(t, net, 1.0, p)
	// Nengo compares ideal[:len(offset)] with data[offset]: the output
	// lags the ideal product by 13 ms.
	first := 0
	for tr[first] < productDelay {
		first++
	}
	var diff [][]float64
	va, vb := make([]float64, dim), make([]float64, dim)
	for i := 0; i+first < len(tr); i++ {
		fa(tr[i], va)
		fb(tr[i], vb)
		row := make([]float64, dim)
		for j := range row {
			row[j] = va[j]*vb[j] - data[0][i+first][j]
		}
		diff = append(diff, row)
	}
	return rms(diff)
}

// TestProductSineWaves is Nengo's test_sine_waves: a 5-D product of
// √2·sin((i+1)·2πt) and √2·sin((5−i)·2πt) with input magnitude 2 and
// 200 neurons per product, probed through Lowpass(0.005), compared with
// the ideal product delayed by 13 ms.
func TestProductSineWaves(t *testing.T) {
	for _, c := range []struct {
		name     string
		direct   bool
		nNeurons int
		seed     int64
	}{
		{"LIF seed 1", false, 200, 1},
		{"LIF seed 2", false, 200, 2},
		{"Direct, 1 neuron", true, 1, 1}, // Nengo's test_direct_mode_with_single_neuron
	} {
		net := toolkit.New("product test", c.seed)
		if c.direct {
			net.Defaults.NeuronType = toolkit.Direct{}
		}
		e := productSineError(t, net, c.nNeurons)
		t.Logf("%s: Product RMS error %.4f (tolerance %.2f)", c.name, e, productRMSTol)
		if !(e < productRMSTol) {
			t.Errorf("%s: Product RMS error %.4f, want < %.2f", c.name, e, productRMSTol)
		}
	}
}
