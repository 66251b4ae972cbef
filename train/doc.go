// Package train optimises all parameters of a built neural model with
// deep-learning methods (§3.2–3.3 of "NengoDL: Combining deep learning and
// neuromorphic modelling methods", Daniel Rasmussen, Neuroinformatics,
// 2019; the NengoDL paper below): it differentiates
// the model through time, trains it Keras-style, swaps spiking neurons for
// differentiable rate counterparts while training and back for testing,
// and mixes deep-learning layers (toolkit.Network.Layer) into Nengo models.
//
// # Using it
//
//	m, _ := train.New(net)                                  // sim.Build: Nengo's initial parameters
//	m.Compile(train.Config{
//		Optimizer: &optim.RMSProp{LR: 1e-3},
//		Loss:      map[*toolkit.Probe]loss.Loss{out: loss.CrossEntropy{FromLogits: true, Sparse: true}},
//		Metrics:   map[*toolkit.Probe][]loss.Metric{out: {loss.Accuracy{Sparse: true}}},
//	})
//	x, _ := train.ArrayFromRows(images, 1)                  // N × steps × dims, per input node
//	y, _ := train.ArrayFromLabels(labels, 1)                // per probe with a loss
//	hist, _ := m.Fit(map[*toolkit.Node]*train.Array{inp: x}, map[*toolkit.Probe]*train.Array{out: y},
//		train.FitOptions{Epochs: 10, BatchSize: 200, Callbacks: []train.Callback{train.NewProgress(os.Stderr)}})
//	logs, _ := m.Evaluate(xTest, yTest, train.EvalOptions{})  // spiking, as built
//	p := m.Params()                                          // sim.BuildWithParams(net, p) runs the trained model
//
// Data are Arrays of N examples × Steps × Dims (NengoDL's (batch, n_steps,
// d)): inputs per node (fed nodes: constants, functions of time, processes),
// targets and predictions per probe.
//
// # Differentiation through time
//
// The trainer runs the builder's operator graph (sim.Graph) on a
// minibatch, batch-first (each signal holds batch×size values, so decoders,
// encoders and dense weights are matrix–matrix products), for the
// sequence's steps, recording what the backward pass needs. The backward
// pass walks the steps in reverse and, within a step, the operators in
// reverse (backpropagation through time over the unrolled steps): an
// operator that sets a signal passes its gradient on and zeroes it; one
// that increments passes it on. Linear synapses are differentiated through
// their discrete state-space systems (the adjoint runs backwards in time).
// Layer nodes run their own backward functions (im2col + GEMM for
// convolutions, toolkit/layers).
//
// Trainable by default, as in NengoDL: connection weights (decoders and
// transforms), ensemble encoders and biases, and layer parameters
// (SetTrainable per object or network changes that). Weights and
// encoders changed by an online learning rule (PES, BCM, Oja, Voja, RLS,
// all run by the trainer as by the simulator) are not trained, and the
// rules' updates pass no gradient. A node function, a process, a
// non-linear-time-invariant synapse or a neuron type without a derivative
// on the path from a trainable parameter to a loss is an error naming it.
//
// # Rate/spike swap
//
// Fit and CheckGradients run every spiking neuron type as its rate
// counterpart (neurons.RateCounterpart: LIF → LIFRate,
// SpikingRectifiedLinear → RectifiedLinear, spiking wrappers → their base
// type). Config.LIFSmoothing σ gives LIF the derivative of SoftLIFRate(σ)
// (Hunsberger & Eliasmith 2015) instead of LIFRate's, which is infinite
// at the threshold (NengoDL's lif_smoothing); Config.SmoothForward also
// runs SoftLIFRate forward. Evaluate and Predict run the model as built
// (spiking) unless EvalOptions.Rates. Config.Float32 trains with float32
// convolution products and LIF smoothing (float64 storage), as PyTorch
// trains by default.
//
// # Engine
//
// The engine runs the simulator's operator graph on whole minibatches.
// It drops what only hands values over — products by a constant weight
// 1 become copies, whole-signal copies between signals become shared
// storage, products with an always-zero input are skipped, inputs a
// one-step backward pass can still read are not saved — and runs chains
// of element-wise operators (connection weights, gains, biases, neurons)
// block by block per example, forward and backward, so their
// intermediate values stay in the cores' caches (train/fuse.go); signals
// used only inside such a chain (a neuron layer's input current and its
// gradient) have one block buffer per worker instead of a whole-batch
// array (train/scratch.go).
//
// # Checking gradients
//
// Model.CheckGradients compares the backpropagated gradients with central
// finite differences of the compiled loss; the package's tests run it on
// every operator kind (Reset, Copy with slices, ElementwiseInc, DotInc,
// SparseDotInc, SimNeurons of every differentiable type, SimSynapse of
// every step class, SimLayer of every layer kind) to 1e-5.
//
// # Losses, optimisers, callbacks
//
// Losses and metrics are in train/loss (MSE, NaN-masked MSE, cross-entropy
// from logits or probabilities, sparse or one-hot, L1/L2 regularisation,
// accuracy), optimisers in train/optim (SGD with momentum and Nesterov,
// Adam, RMSProp, Adagrad, schedules, clipping, and a multi-optimiser by
// layer name or kind, after neon's "Design Decisions" notes, Intel Nervana
// neon documentation, 2017, or by typed handle). The optimiser receives
// one optim.Var per trainable parameter with typed references to it: Param,
// a layer parameter's declaration (layers.Role, layers.Constraint), and
// Owner, the model object; names serve display and state keys only. After
// every optimiser step Fit applies each parameter's declared constraint
// (optim.ApplyConstraints; Keras's kernel_constraint), e.g. the ±63 bounds
// of the analog kernels of accel/analog, and Config.Regularizer penalises
// the layer parameters of role layers.RoleKernel. Callbacks: Progress (a
// Keras-style text bar written to an io.Writer; a ProgressView may show
// its updates elsewhere, e.g. package notebook's live bar),
// EarlyStopping, Checkpoint (SaveCheckpoint/LoadCheckpoint resume
// exactly), CallbackFuncs. A NaN or infinite loss or gradient stops Fit
// with an error naming the epoch, batch and parameter; the parameters keep
// their last good values. Fit, Evaluate, Predict and CheckGradients check
// the process's interrupt flag (package interrupt) before every batch and
// every step of the forward and backward passes and return an error
// wrapping interrupt.ErrInterrupted when it is set (Fit with the history
// of its whole epochs and the parameters after its last whole batch).
//
// Data sets are in train/data (MNIST and Fashion-MNIST IDX files), the
// paper reproductions in package repro (`neurogo repro spiking-mnist`,
// `neurogo repro spa-memory`), and `neurogo bench train` times an epoch
// against PyTorch.
//
// train never imports viz or display: package notebook, above train and
// viz, holds what reaches a notebook while Fit runs — notebook.Progress
// (the live HTML bar, a ProgressView over Progress), notebook.LivePlot and
// notebook.HistoryPlot (the training history as a plot).
package train
