package loss

import (
	"fmt"
	"math"
)

// Loss is a differentiable training objective.
type Loss interface {
	Name() string
	// Eval returns the loss (a mean, see each type) and OVERWRITES grad
	// (len = batch·steps·dims) with dLoss/dPred. target has batch·steps·dims
	// values, except sparse cross-entropy: batch·steps class indices.
	Eval(pred, target []float64, batch, steps, dims int, grad []float64) (float64, error)
}

// Metric is a quantity reported during training and evaluation.
type Metric interface {
	Name() string
	// Accumulate returns a sum and a count; the metric over many batches is Σsum/Σcount.
	Accumulate(pred, target []float64, batch, steps, dims int) (sum, count float64, err error)
}

// shape checks the sizes and lengths shared by every loss and metric.
// perRow is the number of target values per (batch, step): dims, or 1 for
// class indices. grad is checked unless it is nil and noGrad is set.
func shape(who string, pred, target []float64, batch, steps, dims, perRow int, grad []float64, noGrad bool) error {
	if batch <= 0 || steps <= 0 || dims <= 0 {
		return fmt.Errorf("loss: %s: batch, steps, dims = %d, %d, %d, must all be > 0", who, batch, steps, dims)
	}
	const maxInt = int(^uint(0) >> 1)
	if batch > maxInt/steps || batch*steps > maxInt/dims {
		return fmt.Errorf("loss: %s: batch·steps·dims = %d·%d·%d overflows int", who, batch, steps, dims)
	}
	n := batch * steps * dims
	if len(pred) != n {
		return fmt.Errorf("loss: %s: pred has %d values, want batch·steps·dims = %d·%d·%d = %d",
			who, len(pred), batch, steps, dims, n)
	}
	if perRow == 1 {
		if len(target) != batch*steps {
			return fmt.Errorf("loss: %s: target has %d values, want batch·steps = %d·%d = %d class indices",
				who, len(target), batch, steps, batch*steps)
		}
	} else if len(target) != n {
		return fmt.Errorf("loss: %s: target has %d values, want batch·steps·dims = %d·%d·%d = %d",
			who, len(target), batch, steps, dims, n)
	}
	if !noGrad && len(grad) != n {
		return fmt.Errorf("loss: %s: grad has %d values, want batch·steps·dims = %d·%d·%d = %d",
			who, len(grad), batch, steps, dims, n)
	}
	for i, p := range pred {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			b, s, d := where(i, steps, dims)
			return fmt.Errorf("loss: %s: pred[batch %d, step %d, dim %d] is %v: the model output is not finite (NaN loss)",
				who, b, s, d, p)
		}
	}
	return nil
}

// where splits a flat index of a batch×steps×dims array.
func where(i, steps, dims int) (b, s, d int) {
	return i / (steps * dims), i / dims % steps, i % dims
}

// finiteTarget refuses a NaN or ±Inf target value (unless NaN is allowed).
func finiteTarget(who string, target []float64, steps, dims int, allowNaN bool, hint string) error {
	for i, t := range target {
		if math.IsInf(t, 0) || (!allowNaN && math.IsNaN(t)) {
			b, s, d := where(i, steps, dims)
			return fmt.Errorf("loss: %s: target[batch %d, step %d, dim %d] is %v, must be finite%s", who, b, s, d, t, hint)
		}
	}
	return nil
}

// classIndex checks that t is an integer class index in [0, dims).
func classIndex(who string, t float64, row, steps, dims int) (int, error) {
	if !(t >= 0 && t < float64(dims)) || t != math.Trunc(t) {
		return 0, fmt.Errorf("loss: %s: target[batch %d, step %d] = %v, must be an integer class index in [0, %d)",
			who, row/steps, row%steps, t, dims)
	}
	return int(t), nil
}
