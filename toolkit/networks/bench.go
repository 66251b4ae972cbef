package networks

import (
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit"
)

// The four benchmark models of the NengoDL paper (§5.1,
// Figures 6–7: integrator, cconv, basal_ganglia, pes at D = 64, 128,
// 192), as nengo_dl.benchmarks defines them. Each returns a top-level
// network labelled with the benchmark's name, seeded with seed, whose
// only probe, labelled "p" (net.Probes[0]), reads the output the paper
// times, unfiltered (Nengo's probe default). Neurons are LIF, Nengo's
// default; NengoDL's benchmarks take the neuron type as a parameter, so
// for another type set NeuronType on every ensemble of net.AllEnsembles()
// before building (gains and biases stay valid: they are explicit).
//
// As in NengoDL, integrator, cconv and pes draw every ensemble's gains
// from Choice([1, −1]) and biases from Uniform(−1, 1) (NengoDL sets these
// as network config defaults); toolkit ensembles take explicit gains and
// biases, so they are drawn here from a generator seeded by
// DeriveSeed(seed, "gain-bias", i) for the i-th ensemble. The benchmarks
// measure speed, not function: with these gains and biases most LIF
// neurons are silent.

func benchArgs(kind string, dims, neuronsPerD int) error {
	if err := checkPositiveInt(kind, kind, "dims", dims); err != nil {
		return err
	}
	return checkPositiveInt(kind, kind, "neuronsPerD", neuronsPerD)
}

// benchGainBias gives every ensemble of net explicit gains from
// Choice([1, −1]) and biases from Uniform(−1, 1).
func benchGainBias(net *toolkit.Network) {
	for i, e := range net.AllEnsembles() {
		s := toolkit.DeriveSeed(net.Seed, "gain-bias", i)
		rng := rand.New(rand.NewPCG(uint64(s), 0x6e67))
		e.Gain, e.Bias = make([]float64, e.N), make([]float64, e.N)
		for j := range e.N {
			e.Gain[j] = 1
			if rng.IntN(2) == 1 {
				e.Gain[j] = -1
			}
			e.Bias[j] = 2*rng.Float64() - 1
		}
	}
}

func filled(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// BenchIntegrator builds NengoDL's "integrator" benchmark: an
// EnsembleArray of dims 1-D ensembles with neuronsPerD neurons each, its
// output fed back to its input through Lowpass(0.01), driven by a
// constant zero node "inp" through transform 0.01; the probe reads the
// array's output.
func BenchIntegrator(dims, neuronsPerD int, seed int64) (*toolkit.Network, error) {
	if err := benchArgs("BenchIntegrator", dims, neuronsPerD); err != nil {
		return nil, err
	}
	net := toolkit.New("integrator", seed)
	ea, err := EnsembleArray(net, "integ", neuronsPerD, dims, 1)
	if err != nil {
		return nil, err
	}
	net.Connect(ea.Output, ea.Input).Synapse = lowpass(0.01)
	inp := net.Const("inp", filled(dims, 0)...)
	net.Connect(inp, ea.Input).Transform = toolkit.Scalar(0.01)
	net.Probe("p", ea.Output, "")
	benchGainBias(net)
	return net, nil
}

// BenchCConv builds NengoDL's "cconv" benchmark: a CircularConvolution of
// dims dimensions with neuronsPerD neurons per product, inputs a constant
// 0 vector ("inp_a") and a constant 1 vector ("inp_b"); the probe reads
// the convolution's output.
func BenchCConv(dims, neuronsPerD int, seed int64) (*toolkit.Network, error) {
	if err := benchArgs("BenchCConv", dims, neuronsPerD); err != nil {
		return nil, err
	}
	net := toolkit.New("cconv", seed)
	cc, err := CircularConvolution(net, "cconv", neuronsPerD, dims, false, false, 1)
	if err != nil {
		return nil, err
	}
	net.Connect(net.Const("inp_a", filled(dims, 0)...), cc.InputA)
	net.Connect(net.Const("inp_b", filled(dims, 1)...), cc.InputB)
	net.Probe("p", cc.Output, "")
	benchGainBias(net)
	return net, nil
}

// BenchBasalGanglia builds NengoDL's "basal_ganglia" benchmark: a
// BasalGanglia of dims actions with neuronsPerD neurons per ensemble
// (Nengo's default gains and biases), driven by a constant 1 vector
// ("inp"); the probe reads the basal ganglia's output.
func BenchBasalGanglia(dims, neuronsPerD int, seed int64) (*toolkit.Network, error) {
	if err := benchArgs("BenchBasalGanglia", dims, neuronsPerD); err != nil {
		return nil, err
	}
	net := toolkit.New("basal_ganglia", seed)
	cfg := DefaultBasalGanglia()
	cfg.NNeuronsPerEnsemble = neuronsPerD
	bg, err := BasalGanglia(net, "bg", dims, &cfg)
	if err != nil {
		return nil, err
	}
	net.Connect(net.Const("inp", filled(dims, 1)...), bg.Input)
	net.Probe("p", bg.Output, "")
	return net, nil
}

// BenchPES builds NengoDL's "pes" benchmark: a constant 1 vector ("inp")
// drives an ensemble "pre" of neuronsPerD·dims neurons and dims
// dimensions, decoded into a passthrough node "post" through a
// connection learning with PES (Nengo's defaults: learning rate 1e-4,
// pre synapse Lowpass(0.005)); the error is inp − post (post enters the
// rule with transform −1, inp with +1, as NengoDL writes it; Nengo's PES
// takes error = actual − target, so this pushes post away from inp, which
// does not matter for a speed benchmark). The probe reads post.
func BenchPES(dims, neuronsPerD int, seed int64) (*toolkit.Network, error) {
	if err := benchArgs("BenchPES", dims, neuronsPerD); err != nil {
		return nil, err
	}
	net := toolkit.New("pes", seed)
	inp := net.Const("inp", filled(dims, 1)...)
	pre := net.Ensemble("pre", neuronsPerD*dims, dims)
	post := net.Passthrough("post", dims)
	net.Connect(inp, pre)
	conn := net.Connect(pre, post)
	conn.LearningRule = toolkit.NewPES()
	net.Connect(post, conn.Rule()).Transform = toolkit.Scalar(-1)
	net.Connect(inp, conn.Rule())
	net.Probe("p", post, "")
	benchGainBias(net)
	return net, nil
}

// Benchmarks maps the NengoDL benchmark names to their builders.
func Benchmarks() map[string]func(dims, neuronsPerD int, seed int64) (*toolkit.Network, error) {
	return map[string]func(int, int, int64) (*toolkit.Network, error){
		"integrator":    BenchIntegrator,
		"cconv":         BenchCConv,
		"basal_ganglia": BenchBasalGanglia,
		"pes":           BenchPES,
	}
}
