// Package layers implements deep-learning layers with batched forward and
// backward passes: the Keras layers that NengoDL runs inside a TensorNode
// ("NengoDL: Combining deep learning and neuromorphic modelling methods",
// Daniel Rasmussen, Neuroinformatics, 2019), for the toolkit's layer nodes
// and for training.
//
// # Layout
//
// Data are float64, row-major, batch first and channels last: a batch of
// 2-D images is (batch, H, W, C), of 1-D signals (batch, L, C), of vectors
// (batch, D). A layer's InShape and OutShape are per example (no batch axis);
// a buffer for batch examples has batch·Size(shape) elements.
//
// # API
//
// A Spec (Dense, Conv1D, Conv2D, AvgPool, MaxPool, Flatten, Reshape,
// Dropout, BatchNorm, Func) is what a user writes. Spec.Build fixes the input
// shape, validates, and draws the initial parameters from a seed, giving a
// Layer. Layer.Params returns copies of the initial Param values, in a fixed
// order (kernel, bias; gamma, beta, moving_mean, moving_variance); the caller
// owns the parameter storage and passes it to every call. Each Param
// declares what it is with a typed Role (RoleKernel, RoleBias, …: code that
// treats kernels and biases differently selects by it, never by the name)
// and optionally a Constraint, a projection such as Bounds{Lo, Hi} that the
// trainer applies after every optimiser step (Keras's kernel_constraint;
// the analog layers of accel/analog bound their kernels by ±63, the
// hxtorch paper's clamp_weight_). Layer.NewExec gives
// an Exec for batches of up to maxBatch examples that owns all scratch
// memory, so Forward and Backward allocate nothing per call (without
// -tags openblas, float64 Dgemm starts goroutines for large products; with
// OpenBLAS, -tags openblas, only the runtime's refill of its channel-wait
// records after a GC remains, 0–2 allocations per MNIST step).
//
//	l, err := layers.Conv2D{Filters: 32, Kernel: []int{3}}.Build([]int{28, 28, 1}, seed)
//	ex, err := l.NewExec(200, seed)
//	err = ex.Forward(params, in, out, batch, true)
//	err = ex.Backward(params, in, out, dOut, dIn, dParams, batch) // accumulates
//
// Backward accumulates (+=) the gradients of a loss L into dIn and the
// non-nil dParams entries, given dOut = ∂L/∂out, for the last Forward call;
// a nil dIn or dParams entry skips that work. Invalid arguments give an
// *validate.Error (package toolkit/validate) naming the layer, the field,
// the value and the rule; nothing panics on user input.
//
// # Formulas
//
// Dense: out = in·K + b with K (D, Units), applied to the last axis
// (Keras Dense). Backward: dK += inᵀ·dOut, db += Σ dOut, dIn += dOut·Kᵀ.
//
// Conv2D (and Conv1D as a 1×L image): with the column matrix col(in) of
// im2col, rows (n, oy, ox) and columns (ky, kx, c) holding
// in[n, oy·SH - PT + ky·DH, ox·SW - PL + kx·DW, c] (0 in the padding),
// out = col(in)·K + b with the kernel K (KH, KW, C, F) read as a
// (KH·KW·C)×F matrix: one GEMM per chunk of the batch (the column buffer is
// kept below 8 MiB, so that it stays in cache). Backward: dK += colᵀ·dOut,
// dIn += col2im(dOut·Kᵀ) (col2im, the adjoint of im2col, scatter-adds).
// "same" padding is TensorFlow's (tf.nn.convolution): out = ceil(n/s),
// total = max((out-1)·s + (k-1)·d + 1 - n, 0), floor(total/2) before and
// the rest after, so an odd total pads one more at the bottom/right.
// "causal" (Conv1D only) pads (k-1)·d on the left.
//
// AvgPool and MaxPool are 1-D on rank-2 inputs and 2-D on rank-3 inputs;
// with "same" padding AvgPool divides by the number of valid elements in the
// window (TF/Keras), and MaxPool never selects padding. MaxPool's backward
// pass routes each gradient to the first maximum in row-major window order.
//
// Dropout (inverted; Srivastava et al. 2014): when training,
// out = in·m/(1-rate) with m ~ Bernoulli(1-rate) drawn from the Exec's seed
// and its count of training calls; otherwise out = in.
//
// BatchNorm over the last axis (Ioffe & Szegedy 2015):
// out = γ·(x-μ)/sqrt(σ²+ε) + β, with the batch's biased mean and variance
// when training (updating moving = momentum·moving + (1-momentum)·batch)
// and the moving statistics otherwise; backward when training:
// dx = γ/sqrt(σ²+ε)·(dy - mean(dy) - x̂·mean(dy·x̂)).
//
// # Keras defaults
//
// Zero values of optional fields mean the Keras defaults (keras.io/api/layers):
// kernels glorot_uniform, U(±sqrt(6/(fan_in+fan_out))) with
// fan_in = KH·KW·C and fan_out = KH·KW·F for convolutions (Glorot & Bengio
// 2010), biases zeros; strides 1, dilation 1, padding "valid"; pool size 2
// with strides equal to the pool size; BatchNorm momentum 0.99, epsilon 1e-3,
// gamma ones, beta zeros, moving mean zeros, moving variance ones.
//
// # Performance
//
// GEMMs go through gonum's blas64 and blas32: by default internal/blas
// (packed assembly micro-kernels, no cgo; float32 products on the Exec's
// own goroutines), and a process-wide blas64.Use(netlib.Implementation{})
// (the repository's openblas build tag) moves them to OpenBLAS. im2col and col2im are split between GOMAXPROCS
// goroutines that each Exec keeps for its lifetime. A convolution's Exec
// is a [Float32Exec]: SetFloat32(true) runs its products in float32
// (sgemm), with float64 values, parameters and gradients.
package layers
