package bench

import (
	"fmt"
	"github.com/neurogo/neurogo/internal/machine"
	"io"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// StressConfig sizes the SPA-style stress model of the optimizer
// ablation (StressNetwork).
type StressConfig struct {
	Dims            int // semantic-pointer dimensions D
	States          int // state memories (EnsembleArrays of D 1-D ensembles)
	Binds           int // circular convolutions between states
	Actions         int // basal ganglia and thalamus actions
	StateNeurons    int // neurons per state ensemble (per dimension)
	BindNeurons     int // neurons per convolution product (Nengo's default 200)
	BGNeurons       int // neurons per basal-ganglia ensemble (Nengo's 100)
	ThalamusNeurons int // neurons per thalamus action (Nengo's 50)
}

// Stress is the ablation's model (the NengoDL paper, Fig 8 measures a large SPA
// model): D = 64, 4 states of 50 neurons per dimension, 2 convolutions
// with 200 neurons per product, 64 actions with Nengo's basal ganglia
// and thalamus sizes: 100 800 neurons in 1168 ensembles.
func Stress() StressConfig {
	return StressConfig{Dims: 64, States: 4, Binds: 2, Actions: 64,
		StateNeurons: 50, BindNeurons: 200, BGNeurons: 100, ThalamusNeurons: 50}
}

// StressQuick is the CI size: D = 32, 2 states, 1 convolution, 16
// actions: 25 600 neurons in 296 ensembles.
func StressQuick() StressConfig {
	return StressConfig{Dims: 32, States: 2, Binds: 1, Actions: 16,
		StateNeurons: 50, BindNeurons: 200, BGNeurons: 100, ThalamusNeurons: 50}
}

// Counts returns the neurons and ensembles StressNetwork(sc) holds.
func (sc StressConfig) Counts() (neurons, ensembles int) {
	prods := 4 * (sc.Dims/2 + 1) // CircularConvolution's products
	neurons = sc.States*sc.Dims*sc.StateNeurons +
		sc.Binds*2*prods*max(sc.BindNeurons/2, 1) +
		5*sc.Actions*sc.BGNeurons + sc.Actions*sc.ThalamusNeurons
	ensembles = sc.States*sc.Dims + sc.Binds*2*prods + 6*sc.Actions
	return neurons, ensembles
}

func (sc StressConfig) String() string {
	n, e := sc.Counts()
	return fmt.Sprintf("D=%d, %d states × %d neurons/D, %d bindings × %d neurons/product, %d actions: %d neurons, %d ensembles",
		sc.Dims, sc.States, sc.StateNeurons, sc.Binds, sc.BindNeurons, sc.Actions, n, e)
}

// StressNetwork builds the SPA-style stress model with the networks
// library: States memories (EnsembleArrays with recurrent Lowpass(0.1)
// feedback ×0.9, each driven by a constant random unit vector ×0.5),
// Binds CircularConvolutions (bind j reads states j and j+1 and adds
// 0.2 × its output to state j+2, all mod States), and action selection
// as in SPA: utilities are dot products of state 0 with Actions random
// unit vectors (a dense Actions × D transform) into a BasalGanglia,
// whose output drives a Thalamus, whose output routes the action vectors
// (a dense D × Actions transform, ×0.1) into state 1 mod States. Every
// ensemble is RectifiedLinear, as in the benchmark. The probe "p" reads
// state 0. It checks that every count is positive.
func StressNetwork(sc StressConfig, seed int64) (*toolkit.Network, error) {
	for _, f := range []struct {
		name string
		v    int
	}{{"Dims", sc.Dims}, {"States", sc.States}, {"Binds", sc.Binds}, {"Actions", sc.Actions},
		{"StateNeurons", sc.StateNeurons}, {"BindNeurons", sc.BindNeurons}, {"BGNeurons", sc.BGNeurons}, {"ThalamusNeurons", sc.ThalamusNeurons}} {
		if f.v < 1 {
			return nil, fmt.Errorf("bench: StressConfig.%s = %d: must be ≥ 1", f.name, f.v)
		}
	}
	d := sc.Dims
	net := toolkit.New("stress", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x57e55))
	unit := func() []float64 {
		v := make([]float64, d)
		var n2 float64
		for i := range v {
			v[i] = rng.NormFloat64()
			n2 += v[i] * v[i]
		}
		for i := range v {
			v[i] /= math.Sqrt(n2)
		}
		return v
	}
	states := make([]*networks.EnsembleArrayNet, sc.States)
	for i := range states {
		ea, err := networks.EnsembleArray(net, fmt.Sprintf("state%d", i), sc.StateNeurons, d, 1)
		if err != nil {
			return nil, err
		}
		states[i] = ea
		fb := net.Connect(ea.Output, ea.Input)
		fb.Synapse, fb.Transform = synapses.Lowpass{Tau: 0.1}, toolkit.Scalar(0.9)
		in := unit()
		for k := range in {
			in[k] *= 0.5
		}
		net.Connect(net.Const(fmt.Sprintf("cue%d", i), in...), ea.Input)
	}
	for j := range sc.Binds {
		cc, err := networks.CircularConvolution(net, fmt.Sprintf("bind%d", j), sc.BindNeurons, d, false, false, 1)
		if err != nil {
			return nil, err
		}
		n := len(states)
		net.Connect(states[j%n].Output, cc.InputA)
		net.Connect(states[(j+1)%n].Output, cc.InputB)
		net.Connect(cc.Output, states[(j+2)%n].Input).Transform = toolkit.Scalar(0.2)
	}
	bgc := networks.DefaultBasalGanglia()
	bgc.NNeuronsPerEnsemble = sc.BGNeurons
	bg, err := networks.BasalGanglia(net, "bg", sc.Actions, &bgc)
	if err != nil {
		return nil, err
	}
	thc := networks.DefaultThalamus()
	thc.NNeuronsPerEnsemble = sc.ThalamusNeurons
	th, err := networks.Thalamus(net, "thal", sc.Actions, &thc)
	if err != nil {
		return nil, err
	}
	cond := make([][]float64, sc.Actions) // Actions × D
	effect := make([][]float64, d)        // D × Actions
	for k := range effect {
		effect[k] = make([]float64, sc.Actions)
	}
	for a := range cond {
		cond[a] = unit()
		for k, v := range unit() {
			effect[k][a] = 0.1 * v
		}
	}
	net.Connect(states[0].Output, bg.Input).Transform = toolkit.Dense(cond)
	net.Connect(bg.Output, th.Input)
	net.Connect(th.Output, states[1%len(states)].Input).Transform = toolkit.Dense(effect)
	net.Probe("p", states[0].Output, "")
	for _, e := range net.AllEnsembles() {
		e.NeuronType = neurons.NewRectifiedLinear()
	}
	return net, nil
}

// AblationResult is one row of the optimizer ablation: a Result of the
// stress model built with one sim.Ablations() row, and its speed
// relative to the rows "none" and "all" (time of that row / time of
// this one: above 1 is faster).
type AblationResult struct {
	Ablation string `json:"ablation"`
	Result
	VsNone float64 `json:"vs_none"`
	VsAll  float64 `json:"vs_all"`
}

// AblationConfig is the ablation's default protocol: 0.1 s warm-up, then
// 3 repeats of 1 s; AblationQuick (CI) 0.02 s warm-up and 1 × 0.2 s.
func AblationConfig() Config { return Config{Warmup: 0.1, Seconds: 1, Repeats: 3, DT: 0.001} }

// AblationQuick is the CI protocol of the ablation.
func AblationQuick() Config { return Config{Warmup: 0.02, Seconds: 0.2, Repeats: 1, DT: 0.001} }

// Ablation runs the stress model sc (batch 1) once per sim.Ablations()
// row under protocol c (c.Opt is ignored), building a fresh network each
// time; BuildS includes the optimizer. Rows keep Ablations()'s order.
func Ablation(sc StressConfig, c Config) ([]AblationResult, error) {
	if c.Repeats < 1 || !(c.Seconds > 0) || !(c.Warmup >= 0) || !(c.DT > 0) {
		return nil, fmt.Errorf("bench: config %+v: need Repeats ≥ 1, Seconds > 0, Warmup ≥ 0, DT > 0", c)
	}
	var out []AblationResult
	for _, a := range sim.Ablations() {
		net, err := StressNetwork(sc, c.Seed)
		if err != nil {
			return nil, err
		}
		rc := c
		o := a.Opt
		rc.Opt = &o
		rc.Unroll = a.Unroll
		r, err := runNet(net, "stress", sc.Dims, 1, rc)
		if err != nil {
			return nil, fmt.Errorf("bench: ablation %q: %w", a.Name, err)
		}
		out = append(out, AblationResult{Ablation: a.Name, Result: r})
	}
	var tNone, tAll float64
	for _, r := range out {
		switch r.Ablation {
		case "none":
			tNone = r.Seconds
		case "all":
			tAll = r.Seconds
		}
	}
	for i := range out {
		if tNone > 0 {
			out[i].VsNone = tNone / out[i].Seconds
		}
		if tAll > 0 {
			out[i].VsAll = tAll / out[i].Seconds
		}
	}
	return out, nil
}

// JSON returns a as one line of JSON.
func (a AblationResult) JSON() ([]byte, error) {
	a.Result = sanitize(a.Result)
	for _, p := range []*float64{&a.VsNone, &a.VsAll} {
		if math.IsNaN(*p) || math.IsInf(*p, 0) {
			*p = 0
		}
	}
	return machine.MarshalLine(a)
}

// WriteAblationTable prints the ablation rows (the NengoDL paper, Fig 8's table):
// build + optimisation time, µs per step, operators and groups per step,
// roofline, and speed relative to "none" and "all".
func WriteAblationTable(w io.Writer, rs []AblationResult) {
	fmt.Fprintf(w, "%-20s %8s %20s %8s %8s %8s %6s %9s %8s %8s\n", "optimizer", "build s", "µs/step", "ops", "groups", "MB/step", "GB/s", "roofline", "vs none", "vs all")
	for _, r := range rs {
		us := fmt.Sprintf("%.1f ± %.1f", r.USPerStep, r.CIHalfUS())
		fmt.Fprintf(w, "%-20s %8.2f %20s %8d %8d %8.2f %6.2f %9s %7.2f× %7.2f×\n", r.Ablation, r.BuildS, us, r.Operators, r.Groups,
			float64(r.BytesPerStep)/1e6, r.GBps, roofline(r.Result), r.VsNone, r.VsAll)
	}
}
