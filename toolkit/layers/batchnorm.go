package layers

import "math"

// BatchNorm normalises over the last axis (Ioffe & Szegedy 2015; Keras
// BatchNormalization with axis=-1):
//
//	y = gamma·(x - mean)/sqrt(var + Epsilon) + beta
//
// where, when training, mean and var are the (biased) statistics of the
// batch over every axis but the last, and the moving statistics are updated
// as moving = Momentum·moving + (1-Momentum)·batch (Keras 3 uses the biased
// batch variance here too); otherwise mean and var are the moving statistics.
// Momentum defaults to 0.99 and Epsilon to 1e-3 (Keras defaults). Params:
// gamma (ones), beta (zeros), moving_mean (zeros), moving_variance (ones); the
// last two are not trainable.
type BatchNorm struct {
	Momentum float64
	Epsilon  float64
}

// Build implements Spec.
func (s BatchNorm) Build(in []int, seed int64) (Layer, error) {
	const kind = "BatchNorm"
	if err := checkShape(kind, in); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, "Momentum", s.Momentum); err != nil {
		return nil, err
	}
	if err := checkFinite(kind, "Epsilon", s.Epsilon); err != nil {
		return nil, err
	}
	mom, eps := s.Momentum, s.Epsilon
	if mom == 0 {
		mom = 0.99
	}
	if eps == 0 {
		eps = 1e-3
	}
	if mom < 0 || mom > 1 {
		return nil, errf(kind, "Momentum", s.Momentum, "must be in [0, 1]")
	}
	if eps < 0 {
		return nil, errf(kind, "Epsilon", s.Epsilon, "must be positive")
	}
	c := in[len(in)-1]
	ones := func() []float64 {
		v := make([]float64, c)
		for i := range v {
			v[i] = 1
		}
		return v
	}
	l := &bnLayer{base: base{kind: kind, in: append([]int(nil), in...), out: append([]int(nil), in...)}, c: c, momentum: mom, eps: eps}
	l.params = []Param{
		{Name: "gamma", Role: RoleGamma, Shape: []int{c}, Value: ones(), Trainable: true},
		{Name: "beta", Role: RoleBeta, Shape: []int{c}, Value: make([]float64, c), Trainable: true},
		{Name: "moving_mean", Role: RoleMovingMean, Shape: []int{c}, Value: make([]float64, c)},
		{Name: "moving_variance", Role: RoleMovingVariance, Shape: []int{c}, Value: ones()},
	}
	return l, nil
}

type bnLayer struct {
	base
	c             int
	momentum, eps float64
}

func (l *bnLayer) NewExec(maxBatch int, seed uint64) (Exec, error) {
	eb, err := l.newExecBase(maxBatch)
	if err != nil {
		return nil, err
	}
	c := l.c
	return &bnExec{execBase: eb, c: c, momentum: l.momentum, eps: l.eps,
		mean: make([]float64, c), invStd: make([]float64, c), s1: make([]float64, c), s2: make([]float64, c)}, nil
}

type bnExec struct {
	execBase
	c             int
	momentum, eps float64
	training      bool      // whether the last Forward call was training
	mean, invStd  []float64 // statistics used by the last Forward call
	s1, s2        []float64 // scratch sums
}

func (e *bnExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.checkForward(params, in, out, batch); err != nil {
		return err
	}
	c := e.c
	rows := len(in) / c
	gamma, beta, mm, mv := params[0], params[1], params[2], params[3]
	e.training = training
	if training {
		clear(e.s1)
		for r := 0; r < rows; r++ {
			addTo(e.s1, in[r*c:(r+1)*c])
		}
		n := float64(rows)
		for j := range e.mean {
			e.mean[j] = e.s1[j] / n
		}
		clear(e.s2)
		for r := 0; r < rows; r++ {
			for j, v := range in[r*c : (r+1)*c] {
				d := v - e.mean[j]
				e.s2[j] += d * d
			}
		}
		for j := range e.invStd {
			v := e.s2[j] / n
			e.invStd[j] = 1 / math.Sqrt(v+e.eps)
			mm[j] = e.momentum*mm[j] + (1-e.momentum)*e.mean[j]
			mv[j] = e.momentum*mv[j] + (1-e.momentum)*v
		}
	} else {
		copy(e.mean, mm)
		for j := range e.invStd {
			e.invStd[j] = 1 / math.Sqrt(mv[j]+e.eps)
		}
	}
	for r := 0; r < rows; r++ {
		o := out[r*c : (r+1)*c]
		for j, v := range in[r*c : (r+1)*c] {
			o[j] = gamma[j]*(v-e.mean[j])*e.invStd[j] + beta[j]
		}
	}
	return nil
}

func (e *bnExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.checkBackward(params, in, out, dOut, dIn, dParams, batch); err != nil {
		return err
	}
	c := e.c
	rows := len(in) / c
	gamma := params[0]
	// s1 = Σ dy (dbeta), s2 = Σ dy·xhat (dgamma)
	clear(e.s1)
	clear(e.s2)
	for r := 0; r < rows; r++ {
		x := in[r*c : (r+1)*c]
		for j, d := range dOut[r*c : (r+1)*c] {
			e.s1[j] += d
			e.s2[j] += d * (x[j] - e.mean[j]) * e.invStd[j]
		}
	}
	if dg := dParam(dParams, 0); dg != nil {
		addTo(dg, e.s2)
	}
	if db := dParam(dParams, 1); db != nil {
		addTo(db, e.s1)
	}
	if dIn == nil {
		return nil
	}
	if !e.training {
		for r := 0; r < rows; r++ {
			dx := dIn[r*c : (r+1)*c]
			for j, d := range dOut[r*c : (r+1)*c] {
				dx[j] += gamma[j] * e.invStd[j] * d
			}
		}
		return nil
	}
	// dx = gamma·invStd·(dy - Σdy/N - xhat·Σ(dy·xhat)/N)
	n := float64(rows)
	for r := 0; r < rows; r++ {
		x := in[r*c : (r+1)*c]
		dx := dIn[r*c : (r+1)*c]
		for j, d := range dOut[r*c : (r+1)*c] {
			xh := (x[j] - e.mean[j]) * e.invStd[j]
			dx[j] += gamma[j] * e.invStd[j] * (d - e.s1[j]/n - xh*e.s2[j]/n)
		}
	}
	return nil
}
