// Package plastic trains layerwise-parallel networks ("statestream: a
// toolbox to explore layerwise-parallel deep neural networks", Volker
// Fischer, 2018 — the statestream paper below) with plasticities: each
// frame t, while the neuron-pools compute t → t+1, every plasticity computes a parameter-update estimate
// from the states of frame t, passes it through its own optimiser, and
// after the frame the updates of all plasticities are summed per parameter
// and applied (the statestream paper, §2.2: w_{t+1} = w_t + Σ_p Δω_p(t)).
//
// Plasticity types (stream.Plasticity.Type; the statestream paper, §3.1):
//
//   - loss: a loss function between Source at rollout depth SourceT and
//     Target at TargetT. The network is rolled out locally from the states
//     of frame t (stream.Net.Rollout plans it, frames.Rollout runs it
//     forward and backward) and the gradient of the loss w.r.t. the listed
//     Params is the update estimate. Loss functions: mse, mae, hinge,
//     negloglikelihood, categorical_crossentropy (on probabilities, e.g. a
//     softmax pool, with ε = Eps inside the logarithm), minimize and
//     maximize (the Source's mean). With x the source, y the target, m
//     the mask weight of a value's position, N the number of values
//     (agents·positions·features) and P of positions (agents·W·H), as
//     statestream's neuronal/losses.py and its plasticity's mean:
//
//     mse (1/N)Σ m(x−y)²; mae (1/N)Σ m|x−y|; hinge (1/N)Σ m·max(0, 1−xy)
//     with y ∈ {−1, 1}; negloglikelihood (1/N)Σ −m·y·log(x+Eps);
//     categorical_crossentropy (1/P)Σ_positions −m·Σ_c y_c·log(x_c+Eps);
//     minimize (1/N)Σ m·x; maximize −(1/N)Σ m·x.
//
//     An optional Mask pool (its feature 0, at the target's depth, or the
//     source's for minimize/maximize; a δt=0 state or one the rollout
//     computes) weights each position; zeros remove it (masked positions
//     still count in N and P, as in statestream). When the target is
//     computed by the rollout (TargetT > 0) the gradient flows through it
//     too.
//
//   - hebbian, anti_hebbian, dt_hebbian, dt_anti_hebbian: for one dense
//     weight W of a synapse-pool from Source to Target, pools without
//     spatial extent: ΔW_ij = ±(1/A) Σ_a x_i(t)·x_j(t+1), the dt variants
//     with x_j(t+1) − x_j(t), x_j(t+1) from a one-step rollout of the
//     target. The estimate is an ascent direction: it enters the
//     optimiser as the gradient −ΔW.
//
//   - L_regularizer: the descent direction L1·sign(w) + L2·w on the listed
//     Params.
//
// Optimisers (the "optimizer part" of §3.1 of the statestream paper), from train/optim:
// grad_desc (SGD), adam (β1 = Momentum, β2 = Decay) and rmsprop (Rho),
// each with learning rate LR; zero keys take DefaultLR, DefaultMomentum,
// DefaultDecay and DefaultRho. Nothing runs before StartFrame, and a
// plasticity with Period P and Offset O runs only on frames t with
// t % P == O.
//
// Execution: Attach registers one hook per plasticity, so that the
// executor, which runs hooks as jobs, runs the plasticities concurrently
// with the neuron-pools and with each other. Loss and Hebbian
// plasticities register a frames.ChunkedHook: their rollout
// (frames.Sim.NewChunkedRollout) is split into Options.Chunks chunks of
// agents (DefaultChunks = 8; capped by the agents; one chunk through a
// batch-normalised pool), and each chunk's forward pass, loss (normalised
// by the values of the whole batch, so the chunks' losses and gradients
// add up to the batch's) and backward pass is one job in the read phase
// of frame t. After the read phase's barrier the hook's Read sums the
// chunks' losses and parameter gradients in chunk order (Hebbian: the
// estimate over all agents) and steps the optimiser, serially (both are
// parameter-sized). Regularisers are plain hooks whose Read does all of
// that in the read phase. Everything reads only frame-t states and
// parameters and writes private buffers (each plasticity owns its
// rollout, gradient and update buffers and its optimiser; the optimiser
// steps on a zeroed private copy, so its result is the update Δ). After
// the frame, the Write of the first hook adds the updates of all
// plasticities that ran to the live parameters, in the order of
// Net.Plasticities, so the sum is deterministic whatever order the jobs
// ran in. Training is bit-identical for any frames.Options.Workers
// (TestChunksWorkersBitIdentical) and equals training with Chunks 1 up
// to the order of sums (TestChunksMatchWhole, 1e-9 relative). In steady state a frame allocates nothing in this package
// (TestAllocs).
//
// Monitoring: Losses gives the latest loss per plasticity (for Hebbian
// plasticities and regularisers the norm of the applied update), History
// the values of the latest Options.History frames the plasticity ran
// (DefaultHistory by default). State and SetState export and restore the
// optimisers' moments and step counts for checkpoints.
//
// Shared parameters (a synapse-pool's "share params") are one array: a
// plasticity naming either synapse-pool's name for it updates that array.
// The loss plasticity has no label smoothing or confidence penalty:
// statestream reads those keys but its loss plasticity does not apply
// them, and the loader accepts them without effect.
//
// TestStatestreamCensus (run by scripts/statestream-census DIR) loads every
// .st_graph file of a statestream checkout and runs three frames of each
// with zero input and its plasticities attached.
//
//	s, _ := frames.New(net, frames.Options{Seed: 1, Drivers: drivers})
//	tr, _ := plastic.Attach(s, plastic.Options{})
//	_ = s.Run(1000)
//	fmt.Println(tr.Losses())
package plastic
