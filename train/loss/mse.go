package loss

import "math"

// MSE is the mean squared error over all batch·steps·dims elements
// (Keras's MeanSquaredError with its default sum-over-batch-size
// reduction, TensorFlow 2 docs, tf.keras.losses.MeanSquaredError):
//
//	L = Σ (p − t)² / n,   dL/dp = 2(p − t)/n,   n = batch·steps·dims
//
// NaN targets are an error; MaskedMSE ignores them.
type MSE struct{}

func (MSE) Name() string { return "mse" }

// Eval returns the mean squared error and overwrites grad with dL/dpred.
func (MSE) Eval(pred, target []float64, batch, steps, dims int, grad []float64) (float64, error) {
	if err := shape("MSE", pred, target, batch, steps, dims, dims, grad, false); err != nil {
		return 0, err
	}
	if err := finiteTarget("MSE", target, steps, dims, false, " (MaskedMSE ignores NaN targets)"); err != nil {
		return 0, err
	}
	n := float64(len(pred))
	sum := 0.0
	for i, p := range pred {
		d := p - target[i]
		sum += d * d
		grad[i] = 2 * d / n
	}
	return sum / n, nil
}

// MaskedMSE is the mean squared error over the elements whose target is
// not NaN; NaN targets contribute nothing and get a zero gradient (the
// idea of NengoDL's nan_mse, nengo_dl.losses.nan_mse, for targets known
// only at some steps):
//
//	L = Σ_{t≠NaN} (p − t)² / m,   dL/dp = 2(p − t)/m there, 0 elsewhere
//
// with m the number of non-NaN targets. NengoDL's nan_mse divides by all
// n elements instead (tf.reduce_mean with NaN errors set to 0); set
// CountAll for that denominator. With every target NaN the loss and the
// gradient are 0, without error. ±Inf targets are an error.
type MaskedMSE struct {
	CountAll bool // divide by batch·steps·dims, as nan_mse, not by the non-NaN count
}

func (MaskedMSE) Name() string { return "nan_mse" }

// Eval returns the masked mean squared error and overwrites grad.
func (m MaskedMSE) Eval(pred, target []float64, batch, steps, dims int, grad []float64) (float64, error) {
	if err := shape("MaskedMSE", pred, target, batch, steps, dims, dims, grad, false); err != nil {
		return 0, err
	}
	if err := finiteTarget("MaskedMSE", target, steps, dims, true, " or NaN (masked)"); err != nil {
		return 0, err
	}
	count := len(pred)
	if !m.CountAll {
		count = 0
		for _, t := range target {
			if !math.IsNaN(t) {
				count++
			}
		}
	}
	if count == 0 {
		clear(grad)
		return 0, nil
	}
	n := float64(count)
	sum := 0.0
	for i, p := range pred {
		t := target[i]
		if math.IsNaN(t) {
			grad[i] = 0
			continue
		}
		d := p - t
		sum += d * d
		grad[i] = 2 * d / n
	}
	return sum / n, nil
}
