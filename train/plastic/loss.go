package plastic

import "math"

// Eps is the ε of the logarithmic losses: categorical_crossentropy is
// −Σ_c y_c·log(x_c + Eps) and negloglikelihood −y·log(x + Eps), so a
// probability that reaches 0 gives a large but finite loss and gradient.
// statestream clips x to [1e-6, 1 − 1e-6] (neuronal/losses.py) instead; the
// shift keeps the gradient smooth and differs from the clip by at most
// 1e-6 in the argument of the logarithm.
const Eps = 1e-6

// lossFn is one of the loss functions of a loss plasticity.
type lossFn int

const (
	lossMSE lossFn = iota
	lossMAE
	lossHinge
	lossNLL
	lossCCE
	lossMinimize
	lossMaximize
)

var lossNames = map[string]lossFn{
	"mse":                      lossMSE,
	"mae":                      lossMAE,
	"hinge":                    lossHinge,
	"negloglikelihood":         lossNLL,
	"categorical_crossentropy": lossCCE,
	"minimize":                 lossMinimize,
	"maximize":                 lossMaximize,
}

// hasTarget reports whether f compares the source with a target.
func (f lossFn) hasTarget() bool { return f != lossMinimize && f != lossMaximize }

// lossEval returns the loss of source x against target y (nil for
// minimize/maximize), normalised by total, the number of values of the
// whole batch (x may be one chunk of agents of it; the chunks' losses and
// gradients then add up to the whole batch's), and adds ∂L/∂x into gx and ∂L/∂y into gy (either may
// be nil to skip it). x and y hold the same layout of positions × c
// features (channels last); mask, when non-nil, holds one weight per
// position (len(x)/c values) multiplying the error of every feature there,
// so a zero removes the position from the loss.
//
// The definitions follow statestream (neuronal/losses.py, plasticity
// loss.py, the statestream paper, §3.1): with N = len(x) values and P = N/c positions,
//
//	mse                       (1/N) Σ m·(x − y)²
//	mae                       (1/N) Σ m·|x − y|
//	hinge                     (1/N) Σ m·max(0, 1 − x·y)       (y ∈ {−1, +1})
//	negloglikelihood          (1/N) Σ m·(−y·log(x + Eps))
//	categorical_crossentropy  (1/P) Σ_positions m·(−Σ_c y_c·log(x_c + Eps))
//	minimize                  (1/N) Σ m·x
//	maximize                  −(1/N) Σ m·x
//
// with N = total (not len(x)), i.e. the mean over agents, positions (and features, except for the
// cross-entropy, which sums over features at each position as Theano's
// categorical_crossentropy does). As in statestream, masked positions
// still count in N and P. categorical_crossentropy expects x to be
// probabilities already (e.g. a softmax pool), not logits. mae and hinge
// use the subgradient 0 at their kinks.
func lossEval(f lossFn, x, y, mask []float64, c, total int, gx, gy []float64) float64 {
	n := total
	if n == 0 || len(x) == 0 {
		return 0
	}
	inv := 1 / float64(n)
	w := func(i int) float64 {
		if mask == nil {
			return 1
		}
		return mask[i/c]
	}
	var sum float64
	switch f {
	case lossMSE:
		for i, xi := range x {
			m := w(i)
			d := xi - y[i]
			sum += m * d * d
			if gx != nil {
				gx[i] += 2 * m * d * inv
			}
			if gy != nil {
				gy[i] -= 2 * m * d * inv
			}
		}
	case lossMAE:
		for i, xi := range x {
			m := w(i)
			d := xi - y[i]
			sum += m * math.Abs(d)
			s := 0.0
			if d > 0 {
				s = 1
			} else if d < 0 {
				s = -1
			}
			if gx != nil {
				gx[i] += m * s * inv
			}
			if gy != nil {
				gy[i] -= m * s * inv
			}
		}
	case lossHinge:
		for i, xi := range x {
			m := w(i)
			h := 1 - xi*y[i]
			if h <= 0 {
				continue
			}
			sum += m * h
			if gx != nil {
				gx[i] -= m * y[i] * inv
			}
			if gy != nil {
				gy[i] -= m * xi * inv
			}
		}
	case lossNLL:
		for i, xi := range x {
			m := w(i)
			l := math.Log(xi + Eps)
			sum -= m * y[i] * l
			if gx != nil {
				gx[i] -= m * y[i] / (xi + Eps) * inv
			}
			if gy != nil {
				gy[i] -= m * l * inv
			}
		}
	case lossCCE:
		inv = float64(c) / float64(n) // 1/P
		for i, xi := range x {
			m := w(i)
			l := math.Log(xi + Eps)
			sum -= m * y[i] * l
			if gx != nil {
				gx[i] -= m * y[i] / (xi + Eps) * inv
			}
			if gy != nil {
				gy[i] -= m * l * inv
			}
		}
	case lossMinimize, lossMaximize:
		s := 1.0
		if f == lossMaximize {
			s = -1
		}
		for i, xi := range x {
			m := w(i)
			sum += s * m * xi
			if gx != nil {
				gx[i] += s * m * inv
			}
		}
	}
	return sum * inv
}
