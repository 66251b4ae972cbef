// Package loss holds the training objectives, weight regularisers and
// metrics of the trainer: MSE, MaskedMSE (NaN targets ignored, after
// NengoDL's nan_mse), CrossEntropy (softmax cross-entropy from logits or
// probabilities, one-hot or sparse targets), Regularizer (Keras's L1L2),
// and the metrics Accuracy and MSEMetric. Formulas follow Keras /
// TensorFlow 2 (each type cites its source).
//
// Data layout: predictions and targets are batch×steps×dims arrays,
// row-major and flat (NengoDL's probe data shape (batch, n_steps, d)), so
// element (b, s, d) is at index (b·steps + s)·dims + d. Sparse targets hold
// one class index per (batch, step), at index b·steps + s.
//
// Invariants:
//   - Loss.Eval returns a mean (see each type) and overwrites every element
//     of grad with dLoss/dpred; it allocates nothing.
//   - Metric.Accumulate returns a sum and a count, so the metric over many
//     batches is Σsum/Σcount whatever the batch sizes.
//   - Sizes must be positive and lengths must match; a NaN or ±Inf
//     prediction is an error saying the model output is not finite (the
//     trainer reports it as a NaN loss). Errors name the type, the
//     offending index as (batch, step, dim), the value and the rule.
//   - float64 throughout; no package-level mutable state; the API is not
//     generic so that notebook cells, run by an interpreter that cannot see
//     generic declarations, can use it.
//
// One training step's objective:
//
//	var ce loss.CrossEntropy = loss.CrossEntropy{FromLogits: true, Sparse: true}
//	l, err := ce.Eval(logits, labels, batch, steps, classes, dLogits)
//	reg := loss.Regularizer{L2: 1e-4}
//	l += reg.Penalty(kernel)
//	err = reg.AddGrad(kernel, dKernel)
package loss
