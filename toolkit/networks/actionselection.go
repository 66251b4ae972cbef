package networks

import (
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// Weights of the basal ganglia model of Gurney, Prescott & Redgrave
// (2001), as Nengo 4.1's BasalGanglia uses them (nengo.networks.
// actionselection.Weights): slopes (mm, mp, me, mg), connection weights
// (ws, wt, wm, wg, wp, we), thresholds (e, ep, ee, eg) and the dopamine
// modulation of the two striatal populations (lg for D1, le for D2).
const (
	bgMM, bgMP, bgME, bgMG = 1.0, 1.0, 1.0, 1.0
	bgWS, bgWT, bgWM, bgWG = 1.0, 1.0, 1.0, 1.0
	bgWP, bgWE             = 0.9, 0.3
	bgE, bgEP, bgEE, bgEG  = 0.2, -0.25, -0.2, -0.2
	bgLE, bgLG             = 0.2, 0.2
)

// rectified returns x ↦ slope·max(x − threshold, 0), the piecewise-linear
// output function of a Gurney et al. population.
func rectified(threshold, slope float64) toolkit.Function {
	return func(x []float64) []float64 {
		if x[0] < threshold {
			return []float64{0}
		}
		return []float64{slope * (x[0] - threshold)}
	}
}

// BasalGangliaConfig holds the BasalGanglia parameters; DefaultBasalGanglia
// gives Nengo 4.1's.
type BasalGangliaConfig struct {
	NNeuronsPerEnsemble int     // neurons per ensemble (one ensemble per action and population)
	OutputWeight        float64 // GPi → output transform
	InputBias           float64 // constant added to every input (a "bias input" node)
	AMPA, GABA          synapses.Synapse
	// Solver for the populations' rectified outputs. Nengo uses NnlsL2nz
	// when SciPy is installed and its default LstsqL2 otherwise;
	// toolkit/solvers has no NnlsL2nz, so the default is LstsqL2(reg 0.1).
	Solver solvers.Solver
}

// DefaultBasalGanglia returns Nengo 4.1's parameters: 100 neurons per
// ensemble, output weight −3, input bias 0, AMPA Lowpass(0.002) and GABA
// Lowpass(0.008), LstsqL2 decoders.
func DefaultBasalGanglia() BasalGangliaConfig {
	return BasalGangliaConfig{NNeuronsPerEnsemble: 100, OutputWeight: -3, InputBias: 0,
		AMPA: synapses.Lowpass{Tau: 0.002}, GABA: synapses.Lowpass{Tau: 0.008}, Solver: solvers.NewLstsqL2()}
}

// BasalGangliaNet selects the largest of Dims utilities
// (nengo.networks.BasalGanglia): Output is near 0 for the selected
// action and strongly negative for the others.
type BasalGangliaNet struct {
	Net           *toolkit.Network
	Input, Output *toolkit.Node
	// The five populations, one 1-D ensemble per action each.
	StrD1, StrD2, STN, GPi, GPe *EnsembleArrayNet
	// BiasInput is the constant InputBias node (nil when InputBias is 0).
	BiasInput *toolkit.Node
	Dims      int
	Config    BasalGangliaConfig
}

// BasalGanglia adds Nengo 4.1's basal ganglia action-selection network
// (Gurney, Prescott & Redgrave 2001; Stewart, Choo & Eliasmith 2010) for
// dims actions; cfg nil means DefaultBasalGanglia(). Five ensemble arrays
// of 1-D ensembles (radius 1.5, encoders +1) — striatum D1 and D2
// (intercepts U(0.2, 1)), subthalamic nucleus (U(−0.25, 1)), globus
// pallidus internus and externus (U(−0.2, 1)) — each decode
// slope·max(x − threshold, 0). Connections (Nengo's weights): input →
// D1 ×1.2, → D2 ×0.8, → STN ×1 (unfiltered); D1 → GPi −1 and D2 → GPe −1
// (GABA); STN → GPi and → GPe 0.9·ones (AMPA, every action excites every
// pallidal ensemble); GPe → GPi −0.3 and GPe → STN −1 (GABA); GPi →
// output ×OutputWeight (unfiltered).
func BasalGanglia(parent *toolkit.Network, label string, dims int, cfg *BasalGangliaConfig) (*BasalGangliaNet, error) {
	const kind = "BasalGanglia"
	c := DefaultBasalGanglia()
	if cfg != nil {
		c = *cfg
	}
	if err := checkParent(kind, label, parent); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "dims", dims); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "NNeuronsPerEnsemble", c.NNeuronsPerEnsemble); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, label, "OutputWeight", c.OutputWeight); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, label, "InputBias", c.InputBias); err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		syn  synapses.Synapse
	}{{"AMPA", c.AMPA}, {"GABA", c.GABA}} {
		if s.syn == nil {
			return nil, argErr(kind, label, s.name, nil, "must be set (a synapse)")
		}
		if err := s.syn.Validate(); err != nil {
			return nil, argErr(kind, label, s.name, s.syn.Name(), "invalid synapse: "+err.Error())
		}
	}
	if c.Solver == nil {
		return nil, argErr(kind, label, "Solver", nil, "must be set")
	}
	if err := c.Solver.Validate(); err != nil {
		return nil, argErr(kind, label, "Solver", c.Solver.Name(), "invalid solver: "+err.Error())
	}

	net := parent.Network(label)
	net.Defaults.Radius = 1.5
	net.Defaults.Encoders = dists.Choice{Options: [][]float64{{1}}}
	net.Defaults.Solver = c.Solver // Nengo sets the solver for every connection in the network
	bg := &BasalGangliaNet{Net: net, Dims: dims, Config: c}
	bg.Input = net.Passthrough("input", dims)
	bg.Output = net.Passthrough("output", dims)
	pops := []struct {
		dst       **EnsembleArrayNet
		name, out string
		lo        float64
		fn        toolkit.Function
	}{
		{&bg.StrD1, "Striatal D1 neurons", "func_str", bgE, rectified(bgE, bgMM)},
		{&bg.StrD2, "Striatal D2 neurons", "func_str", bgE, rectified(bgE, bgMM)},
		{&bg.STN, "Subthalamic nucleus", "func_stn", bgEP, rectified(bgEP, bgMP)},
		{&bg.GPi, "Globus pallidus internus", "func_gpi", bgEG, rectified(bgEG, bgMG)},
		{&bg.GPe, "Globus pallidus externus", "func_gpe", bgEE, rectified(bgEE, bgME)},
	}
	for _, p := range pops {
		ea, err := EnsembleArray(net, p.name, c.NNeuronsPerEnsemble, dims, 1)
		if err != nil {
			return nil, err
		}
		for _, e := range ea.Ensembles {
			e.Intercepts = dists.Uniform{Low: p.lo, High: 1}
		}
		if _, err := ea.AddOutput(p.out, p.fn); err != nil {
			return nil, err
		}
		*p.dst = ea
	}
	if c.InputBias != 0 {
		v := make([]float64, dims)
		for i := range v {
			v[i] = c.InputBias
		}
		bg.BiasInput = net.Const("basal ganglia bias", v...)
		net.Connect(bg.BiasInput, bg.Input)
	}
	ones := make([][]float64, dims)
	for i := range ones {
		ones[i] = make([]float64, dims)
		for j := range ones[i] {
			ones[i][j] = bgWP
		}
	}
	link := func(pre, post *toolkit.Node, t toolkit.Transform, syn synapses.Synapse) {
		conn := net.Connect(pre, post)
		conn.Transform = t
		conn.Synapse = syn
	}
	link(bg.Input, bg.StrD1.Input, toolkit.Scalar(bgWS*(1+bgLG)), nil)
	link(bg.Input, bg.StrD2.Input, toolkit.Scalar(bgWS*(1-bgLE)), nil)
	link(bg.Input, bg.STN.Input, toolkit.Scalar(bgWT), nil)
	link(bg.StrD1.Outputs["func_str"], bg.GPi.Input, toolkit.Scalar(-bgWM), c.GABA)
	link(bg.StrD2.Outputs["func_str"], bg.GPe.Input, toolkit.Scalar(-bgWM), c.GABA)
	link(bg.STN.Outputs["func_stn"], bg.GPi.Input, toolkit.Dense(ones), c.AMPA)
	link(bg.STN.Outputs["func_stn"], bg.GPe.Input, toolkit.Dense(copyRows(ones)), c.AMPA)
	link(bg.GPe.Outputs["func_gpe"], bg.GPi.Input, toolkit.Scalar(-bgWE), c.GABA)
	link(bg.GPe.Outputs["func_gpe"], bg.STN.Input, toolkit.Scalar(-bgWG), c.GABA)
	link(bg.GPi.Outputs["func_gpi"], bg.Output, toolkit.Scalar(c.OutputWeight), nil)
	return bg, nil
}

func copyRows(m [][]float64) [][]float64 {
	out := make([][]float64, len(m))
	for i, r := range m {
		out[i] = append([]float64(nil), r...)
	}
	return out
}

// ThalamusConfig holds the Thalamus parameters; DefaultThalamus gives
// Nengo 4.1's.
type ThalamusConfig struct {
	NNeuronsPerEnsemble int     // neurons per action
	MutualInhib         float64 // weight of the inhibition between actions
	Threshold           float64 // lower bound of the intercepts
}

// DefaultThalamus returns Nengo 4.1's parameters: 50 neurons per action,
// mutual inhibition 1, threshold 0.
func DefaultThalamus() ThalamusConfig {
	return ThalamusConfig{NNeuronsPerEnsemble: 50, MutualInhib: 1, Threshold: 0}
}

// ThalamusNet turns basal-ganglia output into a clean action vector
// (nengo.networks.Thalamus): the selected action near 1, the others 0.
type ThalamusNet struct {
	Net           *toolkit.Network
	Input, Output *toolkit.Node
	Actions       *EnsembleArrayNet
	Bias          *toolkit.Node
	Dims          int
	Config        ThalamusConfig
}

// Thalamus adds Nengo 4.1's thalamus for dims actions; cfg nil means
// DefaultThalamus(). An ensemble array "actions" of 1-D ensembles
// (encoders +1, intercepts U(Threshold, 1)) receives a constant bias 1
// ("thalamus bias" node) and mutual inhibition −MutualInhib·(ones − I)
// from its own output, both through the default synapse
// (Lowpass(0.005)). Input and Output are the array's.
func Thalamus(parent *toolkit.Network, label string, dims int, cfg *ThalamusConfig) (*ThalamusNet, error) {
	const kind = "Thalamus"
	c := DefaultThalamus()
	if cfg != nil {
		c = *cfg
	}
	if err := checkParent(kind, label, parent); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "dims", dims); err != nil {
		return nil, err
	}
	if err := checkPositiveInt(kind, label, "NNeuronsPerEnsemble", c.NNeuronsPerEnsemble); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, label, "MutualInhib", c.MutualInhib); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, label, "Threshold", c.Threshold); err != nil {
		return nil, err
	}
	if !(c.Threshold < 1) {
		return nil, argErr(kind, label, "Threshold", c.Threshold, "must be below 1 (intercepts are drawn from U(Threshold, 1))")
	}
	net := parent.Network(label)
	net.Defaults.Encoders = dists.Choice{Options: [][]float64{{1}}}
	th := &ThalamusNet{Net: net, Dims: dims, Config: c}
	actions, err := EnsembleArray(net, "actions", c.NNeuronsPerEnsemble, dims, 1)
	if err != nil {
		return nil, err
	}
	for _, e := range actions.Ensembles {
		e.Intercepts = dists.Uniform{Low: c.Threshold, High: 1}
	}
	th.Actions, th.Input, th.Output = actions, actions.Input, actions.Output
	th.Bias = net.Const("thalamus bias", 1)
	col := make([][]float64, dims)
	inhib := make([][]float64, dims)
	for i := range dims {
		col[i] = []float64{1}
		inhib[i] = make([]float64, dims)
		for j := range dims {
			if i != j {
				inhib[i][j] = -c.MutualInhib
			}
		}
	}
	net.Connect(th.Bias, actions.Input).Transform = toolkit.Dense(col)
	net.Connect(actions.Output, actions.Input).Transform = toolkit.Dense(inhib)
	return th, nil
}
