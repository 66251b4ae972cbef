package loss

import "math"

// Accuracy is the fraction of (batch, step) rows whose predicted class,
// the argmax of pred over dims, equals the target class: the argmax of a
// one-hot target, or the class index when Sparse (Keras's
// categorical_accuracy and sparse_categorical_accuracy, TensorFlow 2
// docs, tf.keras.metrics). Ties go to the lowest index, as tf.argmax.
// Accumulate returns sum = correct rows, count = batch·steps.
type Accuracy struct {
	Sparse bool // target holds batch·steps class indices
}

func (a Accuracy) Name() string {
	if a.Sparse {
		return "sparse_categorical_accuracy"
	}
	return "categorical_accuracy"
}

// Accumulate counts the correct rows of one batch.
func (a Accuracy) Accumulate(pred, target []float64, batch, steps, dims int) (sum, count float64, err error) {
	who, per := "Accuracy", dims
	if a.Sparse {
		who, per = "Accuracy (Sparse)", 1
	}
	if err := shape(who, pred, target, batch, steps, dims, per, nil, true); err != nil {
		return 0, 0, err
	}
	if !a.Sparse {
		if err := finiteTarget(who, target, steps, dims, false, ""); err != nil {
			return 0, 0, err
		}
	}
	rows := batch * steps
	for r := range rows {
		want := 0
		if a.Sparse {
			if want, err = classIndex(who, target[r], r, steps, dims); err != nil {
				return 0, 0, err
			}
		} else {
			want = argmax(target[r*dims : (r+1)*dims])
		}
		if argmax(pred[r*dims:(r+1)*dims]) == want {
			sum++
		}
	}
	return sum, float64(rows), nil
}

func argmax(x []float64) int {
	best := 0
	for k, v := range x {
		if v > x[best] {
			best = k
		}
	}
	return best
}

// MSEMetric is the mean squared error as a metric: sum = Σ (p − t)² and
// count = the number of elements, both over the non-NaN targets (so a
// metric over many batches weights every element equally, and NaN targets
// are skipped as in MaskedMSE).
type MSEMetric struct{}

func (MSEMetric) Name() string { return "mse" }

// Accumulate sums the squared errors of one batch.
func (MSEMetric) Accumulate(pred, target []float64, batch, steps, dims int) (sum, count float64, err error) {
	if err := shape("MSEMetric", pred, target, batch, steps, dims, dims, nil, true); err != nil {
		return 0, 0, err
	}
	if err := finiteTarget("MSEMetric", target, steps, dims, true, " or NaN (skipped)"); err != nil {
		return 0, 0, err
	}
	for i, p := range pred {
		t := target[i]
		if math.IsNaN(t) {
			continue
		}
		d := p - t
		sum += d * d
		count++
	}
	return sum, count, nil
}

var (
	_ Loss   = MSE{}
	_ Loss   = MaskedMSE{}
	_ Loss   = CrossEntropy{}
	_ Metric = Accuracy{}
	_ Metric = MSEMetric{}
)
