package frames

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// Rollout is a differentiable local unrolling of the network from the
// Sim's current frame t (seed 001 §3.1, Fig. 4): depth 0 holds copies of
// the frame-t states, depth d the states of frame t+d computed with the
// current parameters, as the parallel network would compute them without
// new input. It owns all its buffers; Forward and Backward allocate
// nothing.
type Rollout struct {
	s      *Sim
	depth  int
	need   [][]bool      // [d][pool]
	kind   [][]int8      // [d][pool]: 0 absent, 1 computed, 2 copied from d-1
	state  [][][]float64 // [d][pool]
	grad   [][][]float64
	tapes  [][]*tape
	wrt    []int
	pgrad  [][]float64 // by parameter index (nil: not in wrt)
	frame  int
	envs   []env
	gr     grads
	sorted [][]int // [d]: pools needed at d, in NeuronPools order
}

const (
	rAbsent int8 = iota
	rComputed
	rCopied
)

// NewRollout prepares the rollout r (from stream.Net.Rollout) of the Sim's
// network with gradients for the parameters wrt. Pools that may keep their
// state in a step (period > 1, zoneout, no synapse-pool targeting them)
// also need their own earlier state; a rollout that would need a state
// written by an interface at depth > 0 is rejected (it would need future
// input).
func (s *Sim) NewRollout(r *stream.Rollout, wrt []stream.ParamRef) (*Rollout, error) {
	if r == nil {
		return nil, fmt.Errorf("frames: NewRollout: nil rollout")
	}
	if len(r.Pools) != r.Depth+1 {
		return nil, fmt.Errorf("frames: NewRollout: rollout of depth %d has %d pool lists, want %d", r.Depth, len(r.Pools), r.Depth+1)
	}
	np := len(s.pools)
	ro := &Rollout{s: s, depth: r.Depth, pgrad: make([][]float64, len(s.params))}
	ro.need = make([][]bool, r.Depth+1)
	for d := range ro.need {
		ro.need[d] = make([]bool, np)
		for _, name := range r.Pools[d] {
			i, ok := s.byName[name]
			if !ok {
				return nil, fmt.Errorf("frames: NewRollout: no neuron-pool %q (depth %d)", name, d)
			}
			ro.need[d][i] = true
		}
	}
	ro.kind = make([][]int8, r.Depth+1)
	ro.kind[0] = make([]int8, np)
	for d := r.Depth; d >= 1; d-- {
		ro.kind[d] = make([]int8, np)
		for i, p := range s.pools {
			if !ro.need[d][i] {
				continue
			}
			if s.driven[i] {
				return nil, fmt.Errorf("frames: NewRollout: neuron-pool %q is needed at depth %d, but an interface writes it: its future states are not known at the current frame (seed 001 §3.1)", p.np.Name, d)
			}
			if !s.targeted[i] {
				ro.kind[d][i] = rCopied
				ro.need[d-1][i] = true
				continue
			}
			ro.kind[d][i] = rComputed
			for _, sp := range p.sps {
				for _, f := range sp.factors {
					for _, tm := range f.terms {
						ro.need[d-1][tm.src] = true
					}
				}
			}
			if p.period > 1 || p.zoneout > 0 {
				ro.need[d-1][i] = true
			}
		}
	}
	for i := range s.pools {
		if ro.need[0][i] {
			ro.kind[0][i] = rCopied
		}
	}
	for _, ref := range wrt {
		k, err := s.paramIndex(ref)
		if err != nil {
			return nil, fmt.Errorf("frames: NewRollout: %w", err)
		}
		if ro.pgrad[k] == nil {
			ro.pgrad[k] = make([]float64, len(s.params[k].data))
			ro.wrt = append(ro.wrt, k)
		}
	}
	// one backward scratch for all tapes (their backward passes run in turn)
	gcolLen := 0
	for d := 1; d <= r.Depth; d++ {
		for i, p := range s.pools {
			if ro.kind[d][i] != rComputed {
				continue
			}
			for _, sp := range p.sps {
				for _, f := range sp.factors {
					for _, tm := range f.terms {
						if !tm.dense && !tm.ident {
							gcolLen = max(gcolLen, s.agents*p.w*p.h*tm.k)
						}
					}
				}
			}
		}
	}
	maxN := 0
	for _, p := range s.pools {
		maxN = max(maxN, s.agents*p.n)
	}
	sh := &scratch{gcol: make([]float64, gcolLen), g1: make([]float64, maxN), g2: make([]float64, maxN),
		gsum: make([]float64, maxN), gprod: make([]float64, maxN)}
	ro.state = make([][][]float64, r.Depth+1)
	ro.grad = make([][][]float64, r.Depth+1)
	ro.tapes = make([][]*tape, r.Depth+1)
	ro.envs = make([]env, r.Depth+1)
	ro.sorted = make([][]int, r.Depth+1)
	for d := 0; d <= r.Depth; d++ {
		ro.state[d] = make([][]float64, np)
		ro.grad[d] = make([][]float64, np)
		ro.tapes[d] = make([]*tape, np)
		for i, p := range s.pools {
			if !ro.need[d][i] {
				continue
			}
			ro.sorted[d] = append(ro.sorted[d], i)
			ro.state[d][i] = make([]float64, s.agents*p.n)
			ro.grad[d][i] = make([]float64, s.agents*p.n)
			if ro.kind[d][i] == rComputed {
				ro.tapes[d][i] = newTape(p, s, s.agents, sh)
			}
		}
	}
	ro.gr.param = ro.pgrad
	return ro, nil
}

// Forward copies the Sim's frame-t states into depth 0 and computes depths
// 1 … Depth with the current parameters. training switches noise, dropout
// and zoneout on, drawn as the Sim draws them (from its seed and the frame
// t+d-1 of each step), so with training and no parameter change depth 1
// equals what the Sim's Step computes for the pools of the rollout; without
// training they are off (as with Options.NoNoise). All gradient buffers
// are zeroed.
func (r *Rollout) Forward(training bool) error {
	s := r.s
	r.frame = s.frame
	for _, i := range r.sorted[0] {
		copy(r.state[0][i], s.cur[i])
	}
	for d := 0; d <= r.depth; d++ {
		for _, i := range r.sorted[d] {
			clear(r.grad[d][i])
		}
	}
	for _, g := range r.pgrad {
		clear(g)
	}
	for d := 1; d <= r.depth; d++ {
		e := &r.envs[d]
		*e = env{cur: r.state[d-1], frame: r.frame + d - 1, noisy: training, seed: s.seed, mm: s.mm}
		for _, i := range r.sorted[d] {
			p := s.pools[i]
			if r.kind[d][i] == rCopied || !p.active(e.frame) {
				copy(r.state[d][i], r.state[d-1][i])
				continue
			}
			t := r.tapes[d][i]
			p.prepare(s, t, e.frame)
			p.forward(s, t, e, 0, s.agents, r.state[d-1][i], r.state[d][i], nil)
		}
	}
	return nil
}

// State returns the rollout's state of pool at depth d (nil if the pool
// is not part of the rollout at that depth).
func (r *Rollout) State(pool string, d int) []float64 {
	i, ok := r.s.byName[pool]
	if !ok || d < 0 || d > r.depth {
		return nil
	}
	return r.state[d][i]
}

// Grad returns the buffer of ∂L/∂state of pool at depth d (nil if not
// part of the rollout). Forward zeroes it; the caller fills the loss's
// gradients before Backward, which adds the back-propagated ones.
func (r *Rollout) Grad(pool string, d int) []float64 {
	i, ok := r.s.byName[pool]
	if !ok || d < 0 || d > r.depth {
		return nil
	}
	return r.grad[d][i]
}

// Backward back-propagates the gradients in the Grad buffers through
// depths Depth … 1 into the wrt parameters (ParamGrad, zeroed first) and
// the states of lower depths (down to depth 0).
func (r *Rollout) Backward() error {
	s := r.s
	for _, k := range r.wrt {
		clear(r.pgrad[k])
	}
	for d := r.depth; d >= 1; d-- {
		e := &r.envs[d]
		r.gr.src = r.grad[d-1]
		for _, i := range r.sorted[d] {
			p := s.pools[i]
			g := r.grad[d][i]
			if r.kind[d][i] == rCopied || !p.active(e.frame) {
				for k, v := range g {
					r.grad[d-1][i][k] += v
				}
				continue
			}
			p.backward(s, r.tapes[d][i], e, s.agents, g, r.grad[d-1][i], &r.gr)
		}
	}
	return nil
}

// ParamGrad returns ∂L/∂param after Backward (layout of Sim.Param), nil
// for a parameter not in wrt.
func (r *Rollout) ParamGrad(ref stream.ParamRef) []float64 {
	k, ok := r.s.paramIdx[[3]string{ref.Kind, ref.Item, ref.Name}]
	if !ok {
		return nil
	}
	return r.pgrad[k]
}

// Depth returns the rollout's depth.
func (r *Rollout) Depth() int { return r.depth }
