package loss

import (
	"fmt"
	"math"
)

// Regularizer is Keras's L1L2 weight penalty (TensorFlow 2 docs,
// tf.keras.regularizers.L1L2):
//
//	penalty = L1·Σ|w| + L2·Σw²,   dpenalty/dw = L1·sign(w) + 2·L2·w
//
// with sign(0) = 0 (tf.sign). L1 and L2 must be finite and ≥ 0 (Validate).
type Regularizer struct {
	L1, L2 float64
}

// Validate reports a negative, NaN or infinite L1 or L2.
func (r Regularizer) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"L1", r.L1}, {"L2", r.L2}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return fmt.Errorf("loss: Regularizer: %s = %v, must be finite and ≥ 0", f.name, f.v)
		}
	}
	return nil
}

// Penalty returns L1·Σ|w| + L2·Σw² over values. It evaluates the formula
// as given; call Validate to refuse invalid coefficients.
func (r Regularizer) Penalty(values []float64) float64 {
	a, s := 0.0, 0.0
	for _, w := range values {
		a += math.Abs(w)
		s += w * w
	}
	return r.L1*a + r.L2*s
}

// AddGrad adds dPenalty/dvalues to grad (grad += L1·sign(w) + 2·L2·w). It
// refuses invalid coefficients and a grad whose length differs from
// values, leaving grad unchanged.
func (r Regularizer) AddGrad(values, grad []float64) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if len(values) != len(grad) {
		return fmt.Errorf("loss: Regularizer: AddGrad: grad has %d values, want len(values) = %d", len(grad), len(values))
	}
	for i, w := range values {
		s := 0.0
		if w > 0 {
			s = 1
		} else if w < 0 {
			s = -1
		}
		grad[i] += r.L1*s + 2*r.L2*w
	}
	return nil
}
