package networks

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

func synName(s synapses.Synapse) string {
	if s == nil {
		return "None"
	}
	return fmt.Sprint(s)
}

func trName(tr toolkit.Transform) string {
	if tr.Matrix == nil {
		return fmt.Sprint(tr.Scalar)
	}
	return fmt.Sprintf("%d×%d[0][0]=%v", len(tr.Matrix), len(tr.Matrix[0]), tr.Matrix[0][0])
}

// TestBasalGangliaStructure compares the top-level connections with the
// ones Nengo 4.1 builds (printed from nengo.networks.BasalGanglia(2,
// input_bias=0.5, output_weight=-2)): pre, post, transform and synapse.
func TestBasalGangliaStructure(t *testing.T) {
	net := toolkit.New("net", 0)
	cfg := DefaultBasalGanglia()
	cfg.InputBias, cfg.OutputWeight = 0.5, -2
	bg, err := BasalGanglia(net, "bg", 2, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	name := map[toolkit.Object]string{bg.Input: "input", bg.Output: "output", bg.BiasInput: "bias"}
	for n, ea := range map[string]*EnsembleArrayNet{"strD1": bg.StrD1, "strD2": bg.StrD2, "stn": bg.STN, "gpi": bg.GPi, "gpe": bg.GPe} {
		for k, node := range ea.Outputs {
			name[node] = n + "." + k
		}
		name[ea.Input] = n + ".input"
	}
	var got []string
	for _, c := range bg.Net.Connections {
		got = append(got, fmt.Sprintf("%s -> %s %s %s", name[c.Pre.Obj()], name[c.Post.Obj()], trName(c.Transform), synName(c.Synapse)))
	}
	want := []string{
		"bias -> input 1 Lowpass(tau=0.005)",
		"input -> strD1.input 1.2 None",
		"input -> strD2.input 0.8 None",
		"input -> stn.input 1 None",
		"strD1.func_str -> gpi.input -1 Lowpass(tau=0.008)",
		"strD2.func_str -> gpe.input -1 Lowpass(tau=0.008)",
		"stn.func_stn -> gpi.input 2×2[0][0]=0.9 Lowpass(tau=0.002)",
		"stn.func_stn -> gpe.input 2×2[0][0]=0.9 Lowpass(tau=0.002)",
		"gpe.func_gpe -> gpi.input -0.3 Lowpass(tau=0.008)",
		"gpe.func_gpe -> stn.input -1 Lowpass(tau=0.008)",
		"gpi.func_gpi -> output -2 None",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("connections:\n got %q\nwant %q", got, want)
	}
	lows := map[*EnsembleArrayNet]float64{bg.StrD1: 0.2, bg.StrD2: 0.2, bg.STN: -0.25, bg.GPi: -0.2, bg.GPe: -0.2}
	for ea, lo := range lows {
		for _, e := range ea.Ensembles {
			if e.Radius != 1.5 || e.N != 100 || e.Intercepts != (dists.Uniform{Low: lo, High: 1}) {
				t.Errorf("%s: radius %v, N %d, intercepts %v; want 1.5, 100, U(%v, 1)", e.Label, e.Radius, e.N, e.Intercepts, lo)
			}
		}
	}
	// Nengo's rectified population functions (Weights.str_func etc.)
	for _, c := range []struct {
		ea   *EnsembleArrayNet
		out  string
		x, y float64
	}{{bg.StrD1, "func_str", 0.21, 0.01}, {bg.StrD1, "func_str", 0.1, 0}, {bg.STN, "func_stn", 0, 0.25},
		{bg.GPe, "func_gpe", 0.3, 0.5}, {bg.GPi, "func_gpi", -0.25, 0}} {
		for _, conn := range c.ea.Net.Connections {
			if conn.Post.Obj() == c.ea.Outputs[c.out] {
				if y := conn.Function([]float64{c.x})[0]; math.Abs(y-c.y) > 1e-12 {
					t.Errorf("%s(%v) = %v, want %v", c.out, c.x, y, c.y)
				}
				break
			}
		}
	}
}

// TestProductStructure checks Nengo 4.1's layout: two arrays of
// nNeurons/2-neuron 1-D ensembles with radius √2·inputMagnitude.
func TestProductStructure(t *testing.T) {
	net := toolkit.New("net", 0)
	p, err := Product(net, "prod", 101, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, ea := range []*EnsembleArrayNet{p.SQ1, p.SQ2} {
		if ea.NEnsembles != 3 || ea.NNeuronsPerEnsemble != 50 {
			t.Errorf("%s: %d ensembles of %d neurons, want 3 of 50", ea.Net.Label, ea.NEnsembles, ea.NNeuronsPerEnsemble)
		}
		for _, e := range ea.Ensembles {
			if math.Abs(e.Radius-2*math.Sqrt2) > 1e-15 {
				t.Errorf("%s radius %v, want 2√2", e.Label, e.Radius)
			}
		}
	}
	cc, err := CircularConvolution(net, "cc", 50, 5, false, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	if cc.Product.Dims != 12 || cc.Product.InputMagnitude != 2 {
		t.Errorf("cconv D=5: product of %d dims, magnitude %v; want 12, 2 (as Nengo)", cc.Product.Dims, cc.Product.InputMagnitude)
	}
}

// TestCircularConvolutionInputMagnitude is Nengo's test_input_magnitude:
// inputs scaled by 10 are convolved accurately (relative RMS < 0.1) only
// by a network built for that magnitude.
func TestCircularConvolutionInputMagnitude(t *testing.T) {
	const dims, magnitude = 16, 10.0
	rng := rand.New(rand.NewPCG(16, 10))
	a, b := make([]float64, dims), make([]float64, dims)
	for i := range a {
		a[i] = rng.NormFloat64() * math.Sqrt(1.0/dims) * magnitude
		b[i] = rng.NormFloat64() * math.Sqrt(1.0/dims) * magnitude
	}
	want := circconv(a, b, false, false)
	net := toolkit.New("cconv magnitude", 1)
	net.Defaults.NeuronType = neurons.NewLIFRate()
	ia, ib := net.Const("a", a...), net.Const("b", b...)
	var probes []*toolkit.Probe
	for _, m := range []float64{magnitude, 1} {
		cc, err := CircularConvolution(net, fmt.Sprint("cc", m), 128, dims, false, false, m)
		if err != nil {
			t.Fatal(err)
		}
		net.Connect(ia, cc.InputA).Synapse = nil
		net.Connect(ib, cc.InputB).Synapse = nil
		probes = append(probes, net.Probe(fmt.Sprint("p", m), cc.Output, ""))
	}
	data, _ := simulate(t, net, 0.01, probes...)
	var errs [2]float64
	for k := range probes {
		last := data[k][len(data[k])-1]
		diff := make([]float64, dims)
		for i := range diff {
			diff[i] = want[i] - last[i]
		}
		errs[k] = rms([][]float64{diff}) / (magnitude * magnitude)
	}
	t.Logf("relative RMS error: matched magnitude %.4f (want < %v), mismatched %.4f (want > %v)", errs[0], cconvRMSTol, errs[1], cconvRMSTol)
	if !(errs[0] < cconvRMSTol) || !(errs[1] > cconvRMSTol) {
		t.Errorf("relative errors %.4f (matched), %.4f (mismatched)", errs[0], errs[1])
	}
}

// TestSameSeedSameOutput builds a basal ganglia model twice with one seed
// and once with another: probe data must match exactly, then differ.
func TestSameSeedSameOutput(t *testing.T) {
	runBG := func(seed int64) [][]float64 {
		net := toolkit.New("bg", seed)
		bg, err := BasalGanglia(net, "bg", 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		net.Connect(net.Const("u", 0.2, 0.7, 0.4), bg.Input)
		p := net.Probe("out", bg.Output, "")
		data, _ := simulate(t, net, 0.05, p)
		return data[0]
	}
	a, b, c := runBG(7), runBG(7), runBG(8)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("same seed gave different outputs")
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Error("different seeds gave identical outputs")
	}
}
