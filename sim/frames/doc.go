// Package frames executes layerwise-parallel networks frame by frame
// (§2 and appendix 6.1 of "statestream: a toolbox to explore
// layerwise-parallel deep neural networks", Volker Fischer, 2018 — the
// statestream paper below; the execution model is also that of Fischer et
// al., "The streaming rollout of deep networks") and provides
// differentiable local rollouts for plasticities (the statestream paper,
// §3.1, Fig. 4).
//
// A network (toolkit/stream.Net) holds neuron-pools, whose states y_n(t)
// are the network's memory, and synapse-pools, which map source states to
// an input of their target. New validates the net (stream.Net.Validate),
// lays out parameters and states, starts the interface drivers and a fixed
// set of worker goroutines; Step advances one frame. Run checks the
// process's interrupt flag (package interrupt) before every frame and
// returns an error wrapping interrupt.ErrInterrupted, at a whole frame,
// when it is set.
//
//	s, err := frames.New(net, frames.Options{Seed: 1, Drivers: map[string]stream.Driver{"mnist": d}})
//	defer s.Close()
//	err = s.Run(100)
//	pred, err := s.State("prediction")
//
// # The two-phase update (Parallel mode)
//
// Every frame t → t+1 has a read and a write phase (the statestream paper, §2): states
// are double-buffered (cur = frame t, next = frame t+1); every pool reads
// only cur and writes only next, so all pools update at once and a signal
// advances one pool per frame. The work is split into fixed jobs, one per
// pool and chunk of agents (at most 8 chunks; one job for a pool whose
// batch normalisation couples agents), plus one job per hook's Read, or,
// for a ChunkedHook, one job per chunk (ReadChunk); the workers take them
// (hook jobs first), then one barrier ends the read phase. After it the
// ChunkedHooks' Read combines their chunks (still reading frame t), the
// drivers write their pools' frame-t+1 states, the hooks' Write runs (it
// may change parameters), and the buffers swap. The chunks do not depend on
// Options.Workers and random numbers (noise, dropout, zoneout) are hashes of
// (seed, pool, frame, element), so any number of workers gives
// bit-identical states. In steady state a frame allocates nothing
// (measured with testing.AllocsPerRun; the test allows 2 for runtime
// noise such as a channel wait record refilled after a GC).
//
// In the appendix network (the statestream paper, §6.2) an image held in frame T reaches
// conv1 at T+1, pred1 at T+2 and prediction at T+3; the deep path
// (conv2, pred2) reaches prediction at T+4.
//
// # Sequential mode
//
// Sequential is the layerwise-sequential comparison network (the
// statestream paper, Fig. 1, middle): each frame the drivers write the input pools first,
// then the pools are computed in a topological order, each from the
// already updated frame-t+1 states of its sources. The rule: a depth-first
// search from the input pools (stream.Net.Inputs, in NeuronPools order),
// then from the remaining pools, follows the edges source → target; an
// edge reaching a pool still on the search stack closes a cycle (a
// recurrent edge, a skip backwards, a self-loop) and is read at frame t
// (a one-step window), every other edge at frame t+1. Pools are updated
// in the topological order of the acyclic rest (Kahn's algorithm, ties by
// NeuronPools order). A stimulus reaches every pool of a feed-forward net
// within the frame it is written. Hooks read frame t first: their jobs (Reads,
// ChunkedHook chunks) run on the workers, then the ChunkedHooks' Read,
// before the drivers write and the pools update.
//
// # Neuron-pools and synapse-pools
//
// A neuron-pool n computes frame t+1 as (statestream docs/neuron_pools.md)
//
//	x = Σ_s post_s → + noise → batch norm → layer norm → · g → act → + b → dropout → zoneout
//
// where post_s are the outputs of the synapse-pools s targeting n
// (the statestream paper, appendix 6.1):
//
//	post_s = ACT( Π_f act_f( Σ_a W_f_a ⋆ upsample(P_f_a ⋆ y_f_a(t)) ) ) (+ the sp's noise)
//
// P_f_a is a 1×1 projection to PPP features (only if PPP > 0); upsampling
// repeats each source value when the target is spatially larger (factor
// target/source per axis); the main convolution has stride source/target
// when the target is smaller, "same" padding as TensorFlow (pad
// max((out-1)·s+(rf-1)·d+1-n, 0), the smaller half before) and dilation d;
// RF 0 is a dense map from the whole (projected) source to the whole
// target. WeightFnc (exp, abs, square) is applied to W before use. A
// pre-activation (stream.SynapsePool.Pact, statestream's pact) replaces
// y_f_a by act(y_f_a − thresh) before everything else. A synapse-pool that
// shares a parameter (stream.SynapsePool.Share) computes with the owner's
// array; Sim.Param and plasticities see one array under both names. A pool
// that no synapse-pool targets and no driver writes keeps its state; a
// synapse-pool inactive in a frame contributes nothing. With Avgout or
// Maxout > 1 the factors have C·Avgout·Maxout features; groups of Avgout
// consecutive ones are summed, then the largest of each group of Maxout
// kept (stream.SynapsePool.Avgout), before ACT.
//
// Noise is normal (mean, std) or uniform (min, max). Normalisations
// subtract the group mean (…_mean) and divide by sqrt(mean square + 1e-5)
// of the (centred) values (…_std); the groups are, for batch norm (over
// the agents too): full: all values; feature: the features of each
// position; spatial: the positions of each feature; scalar: each element
// over the agents; layer norm the same within each agent. Batch statistics
// are used in every frame (no moving averages). Dropout is inverted
// (kept values scaled by 1/(1-p)); zoneout keeps the frame-t value with
// probability p. NoNoise (and Rollout.Forward(false)) switches noise,
// dropout and zoneout off.
//
// Activations: Id, relu, leakyrelu (slope 0.1 for x < 0, statestream's
// leak), elu (α = 1), selu (Klambauer et al. 2017), sigmoid, tanh, softmax
// (over the features at each position), softplus, exp, abs, square, and
// statestream's log and neglog (±ln max(x, 1e-6); zero derivative below
// the floor), mexp (−exp), msquare (−x²) and gaussian (exp(−x²)) run as
// loops of their own; every other activation statestream accepts —
// spiky, relu with a threshold, expressions such as "$**2 + B.tanh($)"
// (stream.NeuronPool.ActFunc) — runs elementwise through its parsed form,
// value and derivative.
//
// Factor and target shapes (stream.SynapsePool.FactorShapes,
// TargetShapes): a summand of shape feature (a dense map to C values),
// spatial (one feature) or scalar (one value) is repeated into its
// factor's shape when summed, and the factors into the target's [W, H, C]
// when multiplied; their gradients sum over the repetitions.
//
// Unshared parameters (statestream's unshare, stream.NeuronPool.Unshare,
// stream.SynapsePool.Unshare) hold one array per agent, agent after agent
// (Sim.ParamShape has the agents axis first): each agent's products use
// its own W or P (one matrix product per agent instead of one for the
// batch), its own gain and bias, and the gradients of a rollout go to each
// agent's slice; a synapse-pool sharing an unshared parameter uses it per
// agent too. Bounds (stream.SynapsePool.Min, Max) clip a parameter at
// construction and whenever ClipParam is called (package train/plastic
// calls it after every update).
//
// Periods: a pool (synapse-pool) updates (contributes) in the step from
// frame t only if t % Period == Offset; otherwise the pool keeps its state.
//
// # Layouts
//
// States: agents·W·H·C float64, row-major [agent][x][y][feature]
// (stream.Index). Parameters (stream.SynapsePool.ParamShapes; an unshared
// one agents times):
// convolution W_f_a (rf, rf, Cin, Cout) indexed [kx][ky][cin][cout] with
// Cin = PPP if > 0 else the source's features; dense W_f_a
// (Cin·Wsrc·Hsrc, C·W·H of the target), rows and columns in state layout
// order; P_f_a (Csrc, PPP). Neuron-pool b and g by BiasShape/GainShape:
// feature [C], full [W,H,C], spatial [W,H], scalar [1]. Biases start at 0,
// gains at 1, synapse weights from their initialisers (see initParam;
// seeded by Options.Seed and the names, so deterministic).
//
// # Rollouts
//
// NewRollout prepares a local rollout (stream.Net.Rollout) with gradients
// for chosen parameters; the synapse-pools the plan cuts at a depth
// (stream.Rollout.Cut: their source was pruned) contribute nothing there,
// and a pool written by an interface is computed from its synapse-pools
// like any other. Forward copies the frame-t states (depth 0) and
// computes depths 1 … Depth with the current parameters from the rollout's
// own buffers; the caller writes ∂L/∂state into Grad buffers; Backward
// propagates them down to depth 0 and into ParamGrad. Rollouts only read
// the Sim's frame-t states and parameters, so a plasticity hook may run
// them in its Read phase concurrently with the pools' updates. Forward and
// Backward allocate nothing. A rollout always follows the layerwise-parallel
// update (one pool per frame along every edge), also for a Sequential Sim.
// A pool that may keep its state in a step (period > 1, zoneout, or no
// synapse-pool targeting it) needs its own state one depth lower, so
// NewRollout extends the planned pool lists accordingly. Backward is to be
// called once per Forward (it adds to the Grad buffers of lower depths).
//
// Chunked rollouts: a rollout as one job would dominate every frame it
// runs in (the appendix network's deep_class rollout costs about three
// plain frames), so a frame could not use more than one core.
// NewChunkedRollout splits the agents into chunks (agents·c/n …
// agents·(c+1)/n); each chunk owns its tapes, backward scratch and
// parameter gradients and works on its agents' part of the shared state
// and gradient buffers, so ForwardChunk and BackwardChunk of different
// chunks run concurrently, e.g. as the jobs of a ChunkedHook.
// ReduceParamGrad then adds the chunks' parameter gradients in chunk
// order: the number of chunks is fixed at construction (not by Workers),
// so results are bit-identical for any Workers; they differ from the
// whole-batch rollout only by the order of the sums (tested to 1e-12
// relative). A caller's loss must normalise by the whole batch (each
// chunk scales by the global count). Random numbers hash absolute element
// indices, so a chunk draws what the whole batch draws for its agents. A
// rollout computing a batch-normalised pool gets one chunk (batch
// statistics couple the agents). Forward and Backward are the chunks in
// turn (Backward ends with ReduceParamGrad). Measured for the appendix
// network at 128 agents (gonum, one worker, per frame): deep_class as one
// job 228 ms of a 321 ms frame, so 2 workers could at best reach 1.41×;
// in 8 chunks it is 8 jobs of ~28 ms beside the pools' jobs (≤ 6.4 ms;
// conv2 48 ms and conv1 27 ms in 8 chunks each), and list scheduling of
// the measured job times on 2 workers is within 0.1 % of half the total.
//
// # MatMul
//
// Options.MatMul, when set, computes every synapse-pool weight product of
// the forward passes (Sim and rollouts; c = a·b row-major, possibly from
// several goroutines at once): an accelerator or a quantised peer can be
// plugged in. BackendMatMul is such a MatMul that computes each product on
// any sim.Backend (sim.CPU, sim.CPU32, the emulated analog accelerator), so
// the synapse-pools of a layerwise-parallel network can be hosted by any
// neurogo backend (one model per product: a conformance path, slow). The default and all backward products use gonum's native
// BLAS in 192×64 tiles, which it computes serially, so BLAS never starts
// goroutines of its own and Workers = 1 runs everything on the caller's
// goroutine. The executor does not use OpenBLAS even in binaries built
// with it: Debian's OpenBLAS serialises concurrent calls, so two workers
// ran no faster than one (46 vs 45 ms per frame of the appendix network
// at 128 agents), while gonum's kernels scale (76 → 38 ms) and keep the
// states bit-identical for any number of workers.
//
// # Memory
//
// The Sim computes in place (per pool the summed input, one buffer per
// factor and the dropout/zoneout masks) and convolves each job's agents in
// groups whose column matrices fit 2 MiB; a rollout keeps every
// intermediate value and column matrix of its depths for the backward pass
// and shares one backward scratch (one per chunk, sized by the chunk).
// For the appendix network with 128 agents: about 72 MB for the Sim and
// 219 MB for the deep_class rollout (225 MB in 8 chunks).
package frames
