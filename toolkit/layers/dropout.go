package layers

import "math"

// Dropout sets a fraction Rate of its inputs to zero while training and
// scales the rest by 1/(1-Rate) (inverted dropout, Srivastava et al. 2014;
// Keras Dropout). Outside training it is the identity. The mask of the k-th
// training Forward call of an Exec depends only on the Exec's seed and k.
type Dropout struct {
	Rate float64
}

// Build implements Spec.
func (s Dropout) Build(in []int, seed int64) (Layer, error) {
	if err := checkShape("Dropout", in); err != nil {
		return nil, err
	}
	if math.IsNaN(s.Rate) || s.Rate < 0 || s.Rate >= 1 {
		return nil, errf("Dropout", "Rate", s.Rate, "must be in [0, 1)")
	}
	return &dropoutLayer{base: base{kind: "Dropout", in: append([]int(nil), in...), out: append([]int(nil), in...)}, rate: s.Rate}, nil
}

type dropoutLayer struct {
	base
	rate float64
}

func (l *dropoutLayer) NewExec(maxBatch int, seed uint64) (Exec, error) {
	eb, err := l.newExecBase(maxBatch)
	if err != nil {
		return nil, err
	}
	e := &dropoutExec{execBase: eb, rate: l.rate, seed: seed}
	if l.rate > 0 {
		e.mask = make([]float64, maxBatch*eb.inSize)
	}
	return e, nil
}

type dropoutExec struct {
	execBase
	rate     float64
	seed     uint64
	calls    uint64    // training Forward calls so far
	mask     []float64 // 0 or 1/(1-rate) per element of the last training batch
	training bool      // whether the last Forward call was training
}

func (e *dropoutExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.checkForward(params, in, out, batch); err != nil {
		return err
	}
	e.training = training && e.rate > 0
	if !e.training {
		copy(out, in)
		return nil
	}
	key := splitmix64(e.seed ^ splitmix64(e.calls))
	e.calls++
	scale := 1 / (1 - e.rate)
	mask := e.mask[:len(in)]
	for i, v := range in {
		u := float64(splitmix64(key+uint64(i))>>11) * 0x1p-53 // uniform in [0, 1)
		if u < e.rate {
			mask[i] = 0
		} else {
			mask[i] = scale
		}
		out[i] = v * mask[i]
	}
	return nil
}

func (e *dropoutExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.checkBackward(params, in, out, dOut, dIn, dParams, batch); err != nil {
		return err
	}
	if dIn == nil {
		return nil
	}
	if !e.training {
		addTo(dIn, dOut)
		return nil
	}
	mask := e.mask[:len(dOut)]
	for i, d := range dOut {
		dIn[i] += d * mask[i]
	}
	return nil
}
