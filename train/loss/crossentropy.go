package loss

import (
	"fmt"
	"math"
)

// ProbEpsilon is the clipping bound for probabilities, Keras's
// backend.epsilon() (1e-7).
const ProbEpsilon = 1e-7

// CrossEntropy is the categorical cross-entropy over dims for each (batch,
// step), averaged over batch·steps (Keras's CategoricalCrossentropy and
// SparseCategoricalCrossentropy, TensorFlow 2 docs, tf.keras.losses):
//
//	FromLogits:  L_row = Σ_k t_k (lse(x) − x_k),  lse(x) = m + log Σ_k exp(x_k − m), m = max x
//	             dL_row/dx_j = (Σ_k t_k)·softmax(x)_j − t_j
//	else:        q = p / Σp (Keras normalises), c = clip(q, ε, 1−ε) with ε = ProbEpsilon,
//	             L_row = −Σ_k t_k log c_k; the gradient is zero through clipped c_k
//	             (tf.clip_by_value) and flows through the normalisation.
//
// With Sparse, target holds batch·steps class indices (an integer in
// [0, dims)) and t is their one-hot vector, so sparse and one-hot targets
// give the same loss and gradient. Probabilities must be ≥ 0 with a
// positive sum per row; one-hot (or soft) targets must be finite. The
// log-sum-exp form keeps logits of ±1000 finite.
type CrossEntropy struct {
	FromLogits bool // pred are logits, not probabilities
	Sparse     bool // target holds class indices
}

func (c CrossEntropy) Name() string {
	if c.Sparse {
		return "sparse_categorical_crossentropy"
	}
	return "categorical_crossentropy"
}

// Eval returns the mean cross-entropy and overwrites grad with dL/dpred.
func (c CrossEntropy) Eval(pred, target []float64, batch, steps, dims int, grad []float64) (float64, error) {
	who := "CrossEntropy"
	per := dims
	if c.Sparse {
		who, per = "CrossEntropy (Sparse)", 1
	}
	if err := shape(who, pred, target, batch, steps, dims, per, grad, false); err != nil {
		return 0, err
	}
	if !c.Sparse {
		if err := finiteTarget(who, target, steps, dims, false, ""); err != nil {
			return 0, err
		}
	}
	rows := batch * steps
	n := float64(rows)
	total := 0.0
	for r := range rows {
		x := pred[r*dims : (r+1)*dims]
		g := grad[r*dims : (r+1)*dims]
		// t(k) is the target of class k in this row.
		var t []float64
		cls := -1
		if c.Sparse {
			k, err := classIndex(who, target[r], r, steps, dims)
			if err != nil {
				return 0, err
			}
			cls = k
		} else {
			t = target[r*dims : (r+1)*dims]
		}
		tk := func(k int) float64 {
			if t != nil {
				return t[k]
			}
			if k == cls {
				return 1
			}
			return 0
		}
		var l float64
		if c.FromLogits {
			m := x[0]
			for _, v := range x[1:] {
				m = math.Max(m, v)
			}
			s := 0.0
			for _, v := range x {
				s += math.Exp(v - m)
			}
			lse := m + math.Log(s)
			tsum := 0.0
			for k, v := range x {
				tk := tk(k)
				tsum += tk
				if tk != 0 {
					l += tk * (lse - v)
				}
			}
			for k, v := range x {
				g[k] = (tsum*math.Exp(v-m)/s - tk(k)) / n
			}
		} else {
			s := 0.0
			for k, v := range x {
				if v < 0 {
					return 0, fmt.Errorf("loss: %s: pred[batch %d, step %d, dim %d] = %v, a probability must be ≥ 0 (FromLogits is false)",
						who, r/steps, r%steps, k, v)
				}
				s += v
			}
			if !(s > 0) || math.IsInf(s, 0) {
				return 0, fmt.Errorf("loss: %s: pred[batch %d, step %d] sums to %v, probabilities must have a positive finite sum (FromLogits is false)",
					who, r/steps, r%steps, s)
			}
			// h_k = dL/dq_k; dL/dp_j = (h_j − Σ_k h_k q_k)/s.
			hq := 0.0
			for k, v := range x {
				q := v / s
				cq := min(max(q, ProbEpsilon), 1-ProbEpsilon)
				tk := tk(k)
				if tk != 0 {
					l -= tk * math.Log(cq)
				}
				h := 0.0
				if q >= ProbEpsilon && q <= 1-ProbEpsilon {
					h = -tk / q
				}
				g[k] = h
				hq += h * q
			}
			for k := range g {
				g[k] = (g[k] - hq) / s / n
			}
		}
		total += l
	}
	return total / n, nil
}
