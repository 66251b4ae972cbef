// Package stream describes layerwise-parallel networks and reads them from
// statestream network files.
//
// # Layerwise-parallel networks
//
// A layerwise-parallel network (§2 of "statestream: a toolbox to explore
// layerwise-parallel deep neural networks", Volker Fischer, 2018 — the
// statestream paper below; see also Fischer et al., "The streaming rollout
// of deep networks") is a graph whose
// vertices, the neuron-pools, each hold a state x_i(t) of shape
// [features, width, height], and whose hyper-edges, the synapse-pools, map
// the states of one or more source pools into an input of one target pool.
// Every pool is updated from frame t to t+1 from the states of frame t
// only (§2.1):
//
//	x_i(t+1) = σ_i( Σ_{e_j ∈ input_i} f_j({x_k(t)}_{k ∈ src_j}) )
//
// so all pools update independently and in parallel, whatever the
// architecture; a path of depth d needs d frames. Plasticities produce
// parameter updates from states and parameters of the current and earlier
// frames, in parallel with inference (§2.2); a loss plasticity unrolls the
// network locally from the current states (§3.1, Net.Rollout), pruning
// input pools it would need at a later frame as statestream does, and
// rejecting a loss whose own source or target would need future input.
// Interfaces connect the network to stimuli and read-outs (Driver).
//
// The description types (Net, NeuronPool, SynapsePool, Plasticity,
// Interface) follow statestream's keys; shapes are [features, width,
// height]. The per-pool and per-synapse-pool computations are those of
// appendix 6.1 of the statestream paper.
//
// # State layout
//
// A pool of Shape [C, W, H] holds agents·W·H·C float64 values, row-major
// [agent][x][y][feature] (channels last; Index, Size). Parameter layouts
// are given by SynapsePool.ParamShapes (conv W_f_a as (rf, rf, Cin, Cout),
// dense W_f_a as (Cin·Wsrc·Hsrc, C·W·H), P_f_a as (Csrc, ppp)) and
// NeuronPool.ParamShapes (b, g by bias_shape / gain_shape); an unshared
// parameter (statestream's unshare) holds one such array per agent, agent
// after agent.
//
// # File format
//
// Parse and Load read statestream's YAML network files (.st_graph; the
// statestream paper, appendix 6.2; statestream docs/network_specification.md). Top-level
// keys: name, agents (default 1), globals, neuron_pools, synapse_pools,
// plasticities, interfaces, tag_specs, modules, import, core_clients (kept,
// not run), and one key per module naming its instances. A short example:
//
//	name: small
//	agents: 16
//	globals:
//	    size: 28
//	neuron_pools:
//	    image: {shape: [1, size, size]}
//	    conv:  {shape: [8, size // 2, size // 2], tags: [hidden]}
//	    pred:  {shape: [10, 1, 1], act: softmax}
//	    label: {shape: [10, 1, 1]}
//	synapse_pools:
//	    img_conv: {source: [[image]], target: conv, rf: [[5]]}
//	    conv_pred: {source: [[conv]], target: pred}
//	plasticities:
//	    class:
//	        type: loss
//	        loss_function: categorical_crossentropy
//	        source: pred
//	        source_t: 2
//	        target: label
//	        target_t: 0
//	        lr: 1e-3
//	        parameter:
//	        - [sp, img_conv, W_0_0]
//	        - [sp, conv_pred, W_0_0]
//	interfaces:
//	    mnist:
//	        type: mnist
//	        out: [mnist_image, mnist_label]
//	        remap: {mnist_image: image, mnist_label: label}
//	tag_specs:
//	    hidden: {act: relu, dropout: 0.2}
//
// The loader applies statestream's mechanisms in statestream's order:
// imports (relative to the importing file; loops are errors), module
// instances (items named INSTANCE_item, "_var" scalars replaced by the
// instance's values, local pool names prefixed), tag_specs (an item's own
// keys win, then its tags in list order; keys that do not apply to the
// item's kind are skipped), globals (in order; each may use the earlier
// ones; LoadOptions.Globals override them). Keys are those statestream
// writes, with spaces where it writes them ("init W_0_0", "noise std",
// "period offset"); "sources" / "parameters" (the docs) and "source" /
// "parameter" (the paper and statestream's code) are both accepted. A
// single rf, dilation or ppp applies to every summand, a single act to
// every factor. A Hebbian plasticity names its synapse-pool in its
// parameter list ([sp, NAME, W_0_0]); its source and target default to
// that synapse-pool's. statestream's type: hebbian with modus: … is read
// as the modus.
//
// Beyond the paper's keys the loader reads these forms of statestream's
// own files: the activations log, neglog, mexp, msquare and gaussian
// (neglog(x) = −ln max(x, 1e-6)), statestream's further elementwise
// backend functions by name (spiky, sqrt, erf, sign, step) and activations
// written as expressions (below); a synapse-pool's "pact", a pre-activation applied to
// each source state before the synapse-pool reads it ([[relu]], or
// an expression such as 'B.relu($, thresh=1.0)', relu(x − 1));
// "share params" (W_0_0: [other_sp, W_0_0]: this synapse-pool computes
// with the other's parameter and every plasticity naming either updates
// that one array); "bias_shapes" (a bias per factor, SynapsePool.BiasShapes);
// "avgout" / "maxout" (SynapsePool.Avgout); the initialisers Id, -Id, id_X
// and Id_X (X·identity) and identity initialisation between feature
// counts that are multiples of each other (SynapsePool.Init); the plain
// uniform initialiser draws from U(0, 1), as statestream's does;
// "unshare" (NeuronPool.Unshare: b, g; SynapsePool.Unshare: W_f_a, P_f_a,
// b_f), parameters that hold one set of values per agent, each agent
// computing with and training its own (a Hebbian plasticity then updates
// each agent's matrix with that agent's outer product, not the mean over
// agents; each agent's initial values are a draw of their own from the
// parameter's initialiser — statestream draws them in one array and
// computes a xavier bound from that array's shape, agents axis included);
// "factor_shapes" and "target_shapes" (SynapsePool.FactorShapes,
// TargetShapes): factors and summands of shape full, feature (one value
// per feature), spatial (one per position) or scalar, repeated over what
// they lack when summed and multiplied; "min W_f_a" / "max W_f_a"
// (SynapsePool.Min, Max), bounds that clip the parameter after its
// initialisation and after every update. A plasticity's "bottleneck" (a hint to
// statestream's process scheduler) and "label_smoothing" /
// "confidence_penalty" (read but not applied by statestream's loss
// plasticity) have no effect here either.
//
// # Compatibility and strict mode
//
// statestream's sanity check does not reject keys it does not know, and
// its reference model specifications carry metadata (rollout_factor,
// first_response_streaming, first_response_sequential,
// shortest_path_sequential), keys their tools read (aleatoric_uncertainty)
// and keys without effect (init on a neuron-pool, tag). By default Parse
// and Load accept such a file as statestream does: every unknown key is
// ignored and reported in Net.Warnings, each a *validate.Error with file,
// line, column and, for a likely typo, the nearest known key:
//
//	net.st_graph:7:1: rollout_factor: unknown top-level key "rollout_factor" (neither a section nor a module), ignored
//	net.st_graph:23:9: neuron_pools.conv1.shpae: unknown key "shpae", ignored (did you mean "shape"?)
//
// LoadOptions{Strict: true} turns every one of them into an error, and
// so does a key that has no effect (with the reason), so that a typo
// cannot go unnoticed. Keys statestream implements and neurogo does not
// (weight_shapes, noise prob, ignore_split) are errors in both modes, and
// so is every value that is wrong (an unknown activation, initialiser,
// pool name, a shape that does not fit). Printing a Net (String), or a
// notebook cell whose result is a Net (Markdown), shows a summary and
// every warning.
//
// # Activations
//
// An activation (NeuronPool.Act, SynapsePool.Act, ACT, Pact) is a name —
// Id, relu, leakyrelu (max(x, 0.1·x), statestream's leak), elu, selu,
// sigmoid, tanh, softmax, softplus, exp, abs, square, log, neglog, mexp,
// msquare, gaussian, or one of statestream's further backend functions
// spiky, sqrt, erf, sign, step — or, as statestream writes them
// (docs/neuron_pools.md), an expression in $, the input:
//
//	act: $**2 + B.tanh($)
//	act: B.exp($) * B.sigmoid($)
//	act: B.relu($, thresh=0.5)
//	pact: [['-2 * B.tanh($) + 0.5']]
//
// statestream evaluates the text with Python's eval; here a small parser
// accepts numbers, $, + - * / ** (Python's precedence: -x**2 is −(x²)),
// parentheses and calls B.f(input, parameters…) of the elementwise
// backend functions of statestream's tensorflow backend (its default):
// Id, relu(thresh=0), leakyrelu(leak=0.1), elu(alpha=1), selu, sigmoid,
// tanh, softplus, exp, mexp, square, msquare, gaussian, abs, sqrt (of
// max(x, 0)), erf, log(eps=1e-6), neglog(eps=1e-6), sign(thresh=0),
// spiky(threshold=1, saturation=2), step(at=0, left=-1, right=1),
// clip(min_value, max_value), minimum(a, b), maximum(a, b); parameters are
// numbers, positional or by name. Anything else — another name, a
// string, attribute access, B.softmax inside an expression (it couples
// the features; "B.softmax($)" alone is softmax) — is an error naming
// the column. Every such activation is elementwise with an exact
// derivative (NeuronPool.ActFunc), so plasticities train through it.
//
// spiky is statestream's spiking activation for a pool that feeds itself
// through an identity synapse-pool: 0 below 0 and from the saturation
// on, x up to the threshold, and a spike of 2·saturation + 1e-8 in
// between, so a constant input x builds up frame by frame (x, 2x, …)
// until it spikes and the next frame resets it. This is the tensorflow
// backend's form; statestream's theano backend spikes to saturation +
// 1e-8 and resets only above the saturation.
//
// Numbers (shapes, rf, rates, periods, …) may be arithmetic expressions of
// globals (Eval: + - * / // % **, parentheses, min, max, abs, int, round).
// Expressions are parsed by a small evaluator; nothing is ever executed,
// unlike statestream's eval(). Integer fields must evaluate to integers.
//
// # Errors
//
// Nothing in a file panics the loader. Every problem is a *validate.Error
// (package toolkit/validate, the error type of every toolkit package)
// carrying file, line and column (Pos), section and item (Object), key
// (Field), the message (Rule) and, for a misspelled name, the nearest
// valid one (Suggest):
//
//	net.st_graph:23:9: neuron_pools.conv1.act: unknown activation "rleu" (did you mean "relu"?)
//
// Several problems are joined with errors.Join, the first one first.
// Parse returns (nil, err) when anything fails; the Net it returns has
// passed Net.Validate, which can also check a Net built in Go.
//
// # statestream's own files
//
// scripts/statestream-census DIR loads every .st_graph file under a
// statestream checkout and runs three frames of each with zero input
// (package train/plastic, TestStatestreamCensus), one line per file and
// the totals; the files statestream's own tests keep deliberately broken
// (examples/test_everything_wrong_*) fail with errors that say why.
package stream
