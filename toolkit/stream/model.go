package stream

import "github.com/neurogo/neurogo/toolkit/validate"

// This file holds the description types shared by the YAML loader
// (spec.go), validation (validate.go), the executor (sim/stream) and the
// plasticities (train/stream). Field names follow statestream's network
// files (the statestream paper, §2, appendix 6.1–6.2); shapes are statestream's
// [features, width, height] order.

// Pos is where an item or key was written: file, 1-based line and column
// (zero when the item was built in Go rather than loaded).
type Pos struct {
	File      string
	Line, Col int
}

// Net is a layerwise-parallel network: neuron-pools (states), synapse-pools
// (transformations between them), plasticities (parameter updates) and
// interfaces (stimuli and read-outs), as in the statestream paper, §2.
type Net struct {
	Name string
	// Agents is the number of independent copies run side by side (the
	// batch); default 1.
	Agents int
	// Globals are the named numbers that shape expressions may use.
	Globals      map[string]float64
	NeuronPools  []*NeuronPool
	SynapsePools []*SynapsePool
	Plasticities []*Plasticity
	Interfaces   []*Interface
	// TagSpecs are the tag_specs section: defaults applied to every item
	// carrying the tag (already merged into the items by the loader; kept
	// for display).
	TagSpecs map[string]map[string]any
	Pos      Pos
	// CoreClients is statestream's core_clients section, kept as written
	// (neurogo does not run core clients).
	CoreClients map[string]map[string]any
	// Warnings are the loader's notes on keys it ignored in compatibility
	// mode (LoadOptions.Strict false): each names file, line, column, the
	// key and, for a likely typo, the nearest known key. Nil for a Net built
	// in Go and for a file without such keys.
	Warnings []*validate.Error
}

// NeuronPool is a layer that keeps its state y(t) ∈ R^{agents×C×W×H} and
// computes y(t+1) from frame t of its inputs (the statestream paper, appendix 6.1):
// sum of synapse-pool outputs → noise → batch/layer normalisation → gain →
// activation → bias → dropout → zoneout.
type NeuronPool struct {
	Name string
	// Shape is [features, width, height]; default [1, 1, 1].
	Shape [3]int
	// Act is the activation: Id (default), relu, leakyrelu (max(x, 0.1·x)),
	// elu, selu, sigmoid, tanh, softmax (over features), softplus, exp,
	// abs, square, log (ln max(x, 1e-6)), neglog (−ln max(x, 1e-6)), mexp
	// (−exp), msquare (−x²), gaussian (exp(−x²)); statestream's further
	// elementwise backend functions by name (spiky, sqrt, erf, sign, step);
	// or an expression in $, the pool's input, as statestream writes them
	// ("$**2 + B.tanh($)", "B.relu($, thresh=0.5)"; see ActFunc and the
	// package documentation for the grammar).
	Act string
	// Noise: "" (none), "normal" (NoiseMean, NoiseStd; defaults 0, 1) or
	// "uniform" (NoiseMin, NoiseMax; defaults -1, 1).
	Noise                                   string
	NoiseMean, NoiseStd, NoiseMin, NoiseMax float64
	// Dropout and Zoneout rates in [0, 1).
	Dropout, Zoneout float64
	// BiasShape: "feature" (default), "full", "spatial", "scalar" or
	// "false" (no bias). The pool's bias parameter is named "b".
	BiasShape string
	// GainShape: as BiasShape, default "false" (no gain). Parameter "g".
	GainShape string
	// Normalisation over the batch (agents) and over the layer: "" / "false"
	// (off), "full", "feature", "spatial", "scalar" (batch only).
	BatchnormMean, BatchnormStd, LayernormMean, LayernormStd string
	Tags                                                     []string
	// Period and Offset: the pool updates on frames t with
	// t % Period == Offset (Period 0 means the default 1).
	Period, Offset int
	Device         string
	// Init maps the pool's parameters "b" and "g" to an initialiser (as
	// SynapsePool.Init; statestream's "init b" / "init g" keys); absent:
	// b = 0, g = 1.
	Init map[string]string
	// Unshare lists parameters ("b", "g") that hold one set of values per
	// agent instead of one for all (statestream's unshare): the parameter
	// is agents × its ParamShapes shape, and agent a computes with slice a.
	Unshare []string
	Pos     Pos
	// KeyPos is where each key of the item was written (loader only; nil
	// for an item built in Go), so that errors point at the key.
	KeyPos map[string]Pos
}

// SynapsePool transforms source states into a post-synaptic input of its
// target (the statestream paper, appendix 6.1):
//
//	post = ACT( Π_f act_f( Σ_a pool(W_f_a ⋆ upsample(P_f_a ⋆ y_f_a)) ) )
//
// Source[f][a] is the a-th summand of factor f. RF[f][a] is the receptive
// field (0: dense, the full source feeds every target unit); a target with
// smaller spatial size than the source is reached with a stride, a larger
// one by repeating source values (upsampling). PPP[f][a] > 0 inserts a 1×1
// pre-processing projection to that many features.
type SynapsePool struct {
	Name     string
	Source   [][]string
	Target   string
	RF       [][]int
	Dilation [][]int
	PPP      [][]int
	// Act is the activation of each factor (default Id); ACT the one of
	// the product.
	Act []string
	ACT string
	// BiasShapes[f], when set, gives factor f a bias b_f added to its sum
	// before its activation (statestream's bias_shapes): "full", "feature",
	// "spatial", "scalar" as a neuron-pool's bias_shape; "" or "false":
	// none. Biases start at 0 ("init b_f" may give a number).
	BiasShapes []string
	// Pact[f][a] is the pre-activation applied to the source state of
	// summand a of factor f before anything else (statestream's "pact";
	// default Id): any activation name, or statestream's expression form
	// "B.relu($, thresh=T)" (relu of x − T).
	Pact [][]string
	// Share maps a parameter of this synapse-pool (W_f_a, P_f_a) to the
	// parameter of another synapse-pool whose values it uses (statestream's
	// "share params": W_0_0: [other_sp, W_0_0]): both read and update one
	// array, of the other synapse-pool's shape, which must equal this one's.
	Share map[string]ParamRef
	// FactorShapes[f], when set, is the shape of factor f's result
	// (statestream's factor_shapes): "full" (default: [C, W, H] of the
	// target), "feature" ([C, 1, 1]: one value per feature, the same at
	// every position), "spatial" ([1, W, H]: one value per position, the
	// same for every feature) or "scalar" ([1, 1, 1]). The product of the
	// factors repeats each factor over the dimensions it lacks.
	FactorShapes []string
	// TargetShapes[f][a], when set, is the shape summand a of factor f
	// produces (statestream's target_shapes; default: its factor's
	// shape), the same modes as FactorShapes; it must fit into the
	// factor's shape (a feature or scalar summand into a full factor, …),
	// into which it is repeated. A feature or scalar summand is dense (rf
	// 0): W_f_a maps the whole source to C values or to one; a spatial
	// summand computes one feature (W_f_a of a convolution (rf, rf, Cin,
	// 1), of a dense map (Cin·Wsrc·Hsrc, W·H)).
	TargetShapes [][]string
	// Unshare lists parameters (W_f_a, P_f_a, b_f) that hold one set of
	// values per agent (statestream's unshare): agents × the ParamShapes
	// shape, agent a computing with slice a. A synapse-pool sharing an
	// unshared parameter (Share) uses it per agent too.
	Unshare []string
	// Min and Max bound parameters (statestream's "min W_0_0" /
	// "max W_0_0"): the initial values and every value after a
	// plasticity's update are clipped to [Min, Max] (either may be
	// absent).
	Min, Max map[string]float64
	// Init maps a parameter name (W_f_a, P_f_a) to an initialiser: xavier
	// (default), xavier_G (gain G), id / Id, -id / -Id, id_X / Id_X (X·id),
	// normal, normal_M_S, uniform (U(0, 1), as statestream draws it),
	// uniform_A_B, bilin, zero, a number (constant). id and Id also map between feature counts that are
	// multiples of each other, as statestream does: id repeats each
	// feature of the smaller side in a block (target feature i reads
	// source feature i / k), Id tiles them (i reads i mod k).
	Init map[string]string
	// WeightFnc[f][a] is applied to W_f_a before use: Id (default), exp,
	// abs, square.
	WeightFnc           [][]string
	Noise               string
	NoiseMean, NoiseStd float64
	NoiseMin, NoiseMax  float64
	// Avgout and Maxout (statestream's avgout / maxout; 0 or 1: off): the
	// factors compute C·Avgout·Maxout features per position; groups of
	// Avgout consecutive features are summed (statestream sums, despite
	// the name), then the largest of each group of Maxout consecutive
	// results is kept, leaving the target's C features, before ACT.
	Avgout, Maxout int
	Tags           []string
	Period, Offset int
	Device         string
	Pos            Pos
	// KeyPos is where each key of the item was written (loader only).
	KeyPos map[string]Pos
}

// ParamRef names one parameter: Kind "np" (neuron-pool: b, g) or "sp"
// (synapse-pool: W_f_a, P_f_a), the item, and the parameter.
type ParamRef struct {
	Kind, Item, Name string
	Pos              Pos
}

// Plasticity produces updates of some parameters each frame, in parallel
// with inference (the statestream paper, §2.2, §3.1).
//
// Type "loss": LossFunction (mse, mae, hinge, negloglikelihood,
// categorical_crossentropy, minimize, maximize) between Source at rollout
// depth SourceT and Target at TargetT (minimize/maximize use Source
// only); the network is rolled out locally from the states of the current
// frame. Types "hebbian", "anti_hebbian", "dt_hebbian", "dt_anti_hebbian":
// ΔW_ij ∝ ± x_i(t)·x_j(t+1) (dt: x_j(t+1) − x_j(t)) for a dense synapse-pool
// between pools without spatial extent, Source and Target being its pre and
// post pools. Type "L_regularizer": L1·|w| + L2·w²/2 on Params.
//
// The update estimate goes through the plasticity's optimiser: grad_desc
// (default), adam (Momentum = β1, default 0.9; Decay = β2, default 0.999),
// rmsprop (Rho, default 0.9), with learning rate LR; nothing is updated
// before StartFrame.
type Plasticity struct {
	Name            string
	Type            string
	LossFunction    string
	Source          string
	SourceT         int
	Target          string
	TargetT         int
	Mask            string
	Params          []ParamRef
	L1, L2          float64
	Optimizer       string
	LR              float64
	Momentum, Decay float64
	Rho             float64
	StartFrame      int
	Period, Offset  int
	Tags            []string
	Device          string
	Pos             Pos
	// KeyPos is where each key of the item was written (loader only).
	KeyPos map[string]Pos
}

// Interface connects the network to the world: it writes the states of its
// Out pools each frame and may read its In pools. Out and In hold the
// interface's own names; Remap maps them to neuron-pool names (a name
// without an entry is itself the pool name). Params holds the remaining
// type-specific keys (for type mnist: source_file, min_duration,
// max_duration, fading, …).
type Interface struct {
	Name, Type string
	In, Out    []string
	Remap      map[string]string
	Params     map[string]any
	Tags       []string
	// Period and Offset: the interface runs on frames t with
	// t % Period == Offset (Period 0 is read as the default 1).
	Period, Offset int
	Pos            Pos
	// KeyPos is where each key of the item was written (loader only).
	KeyPos map[string]Pos
}

// PoolName returns the neuron-pool an interface name maps to.
func (i *Interface) PoolName(name string) string {
	if p, ok := i.Remap[name]; ok {
		return p
	}
	return name
}
