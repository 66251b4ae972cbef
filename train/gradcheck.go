package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/neurogo/neurogo/toolkit"
)

// GradCheckOptions configure CheckGradients. Eps is the finite-difference
// step (default 1e-6); PerParam is how many entries of each parameter are
// checked, drawn from Seed (default 16; all entries when the parameter is
// smaller); Floor is the denominator floor of the relative error
// (default 1e-8). Training runs layers in training mode (Dropout then
// makes the check meaningless; the default is inference mode).
type GradCheckOptions struct {
	Eps      float64
	PerParam int
	Seed     uint64
	Floor    float64
	Training bool
}

// GradEntry is one checked parameter entry.
type GradEntry struct {
	Param              string
	Index              int
	Analytic, Numeric  float64
	AbsErr, RelErr     float64
	LossPlus, LossMins float64
}

// GradReport is CheckGradients' result; Worst is the entry with the
// largest relative error.
type GradReport struct {
	Loss    float64
	Entries []GradEntry
	Worst   GradEntry
}

func (r *GradReport) String() string {
	return fmt.Sprintf("%d entries checked, loss %.6g, worst relative error %.3g (%s[%d]: analytic %.6g, numeric %.6g)",
		len(r.Entries), r.Loss, r.Worst.RelErr, r.Worst.Param, r.Worst.Index, r.Worst.Analytic, r.Worst.Numeric)
}

// CheckGradients compares the gradients Fit computes (backpropagation
// through time with the rate counterparts of spiking neurons) with central
// finite differences of the compiled loss, (L(θ+ε) − L(θ−ε)) / 2ε, on all
// of x and y as one batch — the public gradient checker. The relative
// error of an entry is |analytic − numeric| / max(|analytic| + |numeric|, Floor).
func (m *Model) CheckGradients(x map[*toolkit.Node]*Array, y map[*toolkit.Probe]*Array, o GradCheckOptions) (*GradReport, error) {
	if m.cfg == nil {
		return nil, errors.New("train: CheckGradients before Compile")
	}
	if o.Eps == 0 {
		o.Eps = 1e-6
	}
	if o.PerParam == 0 {
		o.PerParam = 16
	}
	if o.Floor == 0 {
		o.Floor = 1e-8
	}
	if o.Eps < 0 || o.PerParam < 0 || o.Floor < 0 {
		return nil, fmt.Errorf("train: CheckGradients: Eps %v, PerParam %d and Floor %v must be positive", o.Eps, o.PerParam, o.Floor)
	}
	n, steps, nodes, err := m.checkData(x, y)
	if err != nil {
		return nil, err
	}
	for p := range m.cfg.Loss {
		if y[p] == nil {
			return nil, fmt.Errorf("train: CheckGradients: probe %q has a loss but no targets", p.Label)
		}
	}
	e, err := m.engine(n, steps, true, true, nodes)
	if err != nil {
		return nil, err
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	bufs := map[*toolkit.Node][]float64{}
	preds := make([][]float64, len(m.g.Probes))
	grads := make([][]float64, len(m.g.Probes))
	tgts := map[*toolkit.Probe][]float64{}
	lossAt := func(record bool, g [][]float64) (float64, error) {
		if err := m.run(e, x, nodes, idx, steps, record, o.Training, bufs); err != nil {
			return 0, err
		}
		l, err := m.lossPass(e, y, idx, g, newAcc(), false, preds, tgts)
		if err != nil {
			return 0, err
		}
		if r := m.cfg.Regularizer; r != nil {
			for s, on := range e.trainable {
				if on && e.grad[s] != nil && m.regularized(s) {
					l += r.Penalty(e.vals[s])
				}
			}
		}
		return l, nil
	}
	l0, err := lossAt(true, grads)
	if err != nil {
		return nil, err
	}
	e.zeroGrads()
	if err := e.backward(grads); err != nil {
		return nil, err
	}
	vars := m.vars(e)
	if len(vars) == 0 {
		return nil, errors.New("train: CheckGradients: no trainable parameter reaches a probe with a loss")
	}
	analytic := make([][]float64, len(vars))
	for i, v := range vars {
		analytic[i] = append([]float64(nil), v.Grad...)
		if r := m.cfg.Regularizer; r != nil {
			for s, on := range e.trainable {
				if on && &e.vals[s][0] == &v.Value[0] && m.regularized(s) {
					if err := r.AddGrad(v.Value, analytic[i]); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9c4ec))
	rep := &GradReport{Loss: l0}
	for i, v := range vars {
		ks := make([]int, len(v.Value))
		for k := range ks {
			ks[k] = k
		}
		if len(ks) > o.PerParam {
			rng.Shuffle(len(ks), func(a, b int) { ks[a], ks[b] = ks[b], ks[a] })
			ks = ks[:o.PerParam]
			sort.Ints(ks)
		}
		for _, k := range ks {
			old := v.Value[k]
			v.Value[k] = old + o.Eps
			lp, err := lossAt(false, nil)
			if err != nil {
				v.Value[k] = old
				return nil, err
			}
			v.Value[k] = old - o.Eps
			lm, err := lossAt(false, nil)
			v.Value[k] = old
			if err != nil {
				return nil, err
			}
			num := (lp - lm) / (2 * o.Eps)
			a := analytic[i][k]
			ab := math.Abs(a - num)
			rel := ab / math.Max(math.Abs(a)+math.Abs(num), o.Floor)
			en := GradEntry{Param: v.Name, Index: k, Analytic: a, Numeric: num, AbsErr: ab, RelErr: rel, LossPlus: lp, LossMins: lm}
			rep.Entries = append(rep.Entries, en)
			if rel > rep.Worst.RelErr || len(rep.Entries) == 1 {
				rep.Worst = en
			}
		}
	}
	return rep, nil
}
