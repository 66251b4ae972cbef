package frames

import (
	"fmt"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// Rollout is a differentiable local unrolling of the network from the
// Sim's current frame t (the statestream paper, §3.1, Fig. 4): depth 0 holds copies of
// the frame-t states, depth d the states of frame t+d computed with the
// current parameters, as the parallel network would compute them without
// new input. It owns all its buffers; Forward and Backward allocate
// nothing.
type Rollout struct {
	s      *Sim
	depth  int
	need   [][]bool      // [d][pool]
	cut    [][]bool      // [d][synapse-pool]: left out at depth d (stream.Rollout.Cut)
	kind   [][]int8      // [d][pool]: 0 absent, 1 computed, 2 copied from d-1
	state  [][][]float64 // [d][pool], all agents
	grad   [][][]float64
	wrt    []int
	pgrad  [][]float64 // by parameter index (nil: not in wrt): the sum over chunks
	sorted [][]int     // [d]: pools needed at d, in NeuronPools order
	chunks []*rchunk
}

// rchunk is one chunk of agents [a0, a1) of a rollout: its own tapes,
// backward scratch and parameter gradients, and views of the rollout's
// states and gradients restricted to its agents, so chunks can run
// concurrently.
type rchunk struct {
	a0, a1 int
	state  [][][]float64 // [d][pool]: views of Rollout.state
	grad   [][][]float64
	tapes  [][]*tape
	envs   []env
	gr     grads
	pgrad  [][]float64 // by parameter index; aliases Rollout.pgrad with one chunk
}

const (
	rAbsent int8 = iota
	rComputed
	rCopied
)

// NewRollout prepares the rollout r (from stream.Net.Rollout) of the Sim's
// network with gradients for the parameters wrt. Pools that may keep their
// state in a step (period > 1, zoneout, no synapse-pool targeting them)
// also need their own earlier state. The synapse-pools in r.Cut[d] are
// left out at depth d (their sources were pruned); a pool written by an
// interface is computed from its synapse-pools at depth > 0, as
// statestream's rollout does.
func (s *Sim) NewRollout(r *stream.Rollout, wrt []stream.ParamRef) (*Rollout, error) {
	return s.NewChunkedRollout(r, wrt, 1)
}

// NewChunkedRollout is NewRollout with the agents split into chunks
// (contiguous, agents·c/chunks … agents·(c+1)/chunks) that ForwardChunk
// and BackwardChunk compute independently, e.g. concurrently as jobs of a
// ChunkedHook. The number is capped by the agents, and a rollout that
// computes a pool with batch normalisation (it couples the agents) gets
// one chunk; Chunks reports the number used. Each chunk has its own tapes
// and backward scratch (together about the memory of one whole-batch
// rollout) and its own parameter gradients. chunks must be ≥ 1.
func (s *Sim) NewChunkedRollout(r *stream.Rollout, wrt []stream.ParamRef, chunks int) (*Rollout, error) {
	if chunks < 1 {
		return nil, fmt.Errorf("frames: NewChunkedRollout: chunks = %d, must be ≥ 1", chunks)
	}
	if r == nil {
		return nil, fmt.Errorf("frames: NewRollout: nil rollout")
	}
	if len(r.Pools) != r.Depth+1 {
		return nil, fmt.Errorf("frames: NewRollout: rollout of depth %d has %d pool lists, want %d", r.Depth, len(r.Pools), r.Depth+1)
	}
	np := len(s.pools)
	ro := &Rollout{s: s, depth: r.Depth, pgrad: make([][]float64, len(s.params))}
	ro.cut = make([][]bool, r.Depth+1)
	spIdx := map[string]int{}
	for i, sp := range s.sps {
		spIdx[sp.sp.Name] = i
	}
	for d := range ro.cut {
		ro.cut[d] = make([]bool, len(s.sps))
		if d >= len(r.Cut) {
			continue
		}
		for _, name := range r.Cut[d] {
			i, ok := spIdx[name]
			if !ok {
				return nil, fmt.Errorf("frames: NewRollout: no synapse-pool %q (cut at depth %d)", name, d)
			}
			ro.cut[d][i] = true
		}
	}
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
			fed := false
			for _, sp := range p.sps {
				fed = fed || !ro.cut[d][sp.idx]
			}
			if !fed {
				if s.driven[i] {
					return nil, fmt.Errorf("frames: NewRollout: neuron-pool %q is needed at depth %d, but an interface writes it and no synapse-pool of the rollout computes it: its future states are not known at the current frame (the statestream paper, §3.1)", p.np.Name, d)
				}
				ro.kind[d][i] = rCopied
				ro.need[d-1][i] = true
				continue
			}
			ro.kind[d][i] = rComputed
			for _, sp := range p.sps {
				if ro.cut[d][sp.idx] {
					continue
				}
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
	// batch normalisation couples the agents: then one chunk
	chunks = min(chunks, s.agents)
	for d := 1; d <= r.Depth; d++ {
		for i, p := range s.pools {
			if ro.kind[d][i] == rComputed && p.batch {
				chunks = 1
			}
		}
	}
	ro.state = make([][][]float64, r.Depth+1)
	ro.grad = make([][][]float64, r.Depth+1)
	ro.sorted = make([][]int, r.Depth+1)
	for d := 0; d <= r.Depth; d++ {
		ro.state[d] = make([][]float64, np)
		ro.grad[d] = make([][]float64, np)
		for i, p := range s.pools {
			if !ro.need[d][i] {
				continue
			}
			ro.sorted[d] = append(ro.sorted[d], i)
			ro.state[d][i] = make([]float64, s.agents*p.n)
			ro.grad[d][i] = make([]float64, s.agents*p.n)
		}
	}
	for c := range chunks {
		ro.chunks = append(ro.chunks, ro.newChunk(c*s.agents/chunks, (c+1)*s.agents/chunks, chunks == 1))
	}
	return ro, nil
}

// newChunk allocates the tapes, scratch and views of agents [a0, a1).
func (ro *Rollout) newChunk(a0, a1 int, alone bool) *rchunk {
	s := ro.s
	na := a1 - a0
	ch := &rchunk{a0: a0, a1: a1, pgrad: ro.pgrad}
	if !alone {
		ch.pgrad = make([][]float64, len(s.params))
		for _, k := range ro.wrt {
			ch.pgrad[k] = make([]float64, len(s.params[k].data))
		}
	}
	// one backward scratch for the chunk's tapes (their backward passes run in turn)
	gcolLen := 0
	for d := 1; d <= ro.depth; d++ {
		for i, p := range s.pools {
			if ro.kind[d][i] != rComputed {
				continue
			}
			for _, sp := range p.sps {
				for _, f := range sp.factors {
					for _, tm := range f.terms {
						if !tm.dense && !tm.ident {
							gcolLen = max(gcolLen, na*p.w*p.h*tm.k)
						}
					}
				}
			}
		}
	}
	maxN := 0
	for _, p := range s.pools {
		maxN = max(maxN, na*p.n)
		for _, sp := range p.sps {
			maxN = max(maxN, na*sp.n)
		}
	}
	sh := &scratch{gcol: make([]float64, gcolLen), g1: make([]float64, maxN), g2: make([]float64, maxN),
		gsum: make([]float64, maxN), gprod: make([]float64, maxN)}
	np := len(s.pools)
	ch.state = make([][][]float64, ro.depth+1)
	ch.grad = make([][][]float64, ro.depth+1)
	ch.tapes = make([][]*tape, ro.depth+1)
	ch.envs = make([]env, ro.depth+1)
	for d := 0; d <= ro.depth; d++ {
		ch.state[d] = make([][]float64, np)
		ch.grad[d] = make([][]float64, np)
		ch.tapes[d] = make([]*tape, np)
		for _, i := range ro.sorted[d] {
			n := s.pools[i].n
			ch.state[d][i] = ro.state[d][i][a0*n : a1*n]
			ch.grad[d][i] = ro.grad[d][i][a0*n : a1*n]
			if ro.kind[d][i] == rComputed {
				ch.tapes[d][i] = newTape(s.pools[i], s, na, sh)
			}
		}
	}
	ch.gr.param = ch.pgrad
	return ch
}

// Chunks returns the number of agent chunks (1 for NewRollout and for a
// rollout through a batch-normalised pool).
func (r *Rollout) Chunks() int { return len(r.chunks) }

// ChunkAgents returns the agents [a0, a1) of chunk c.
func (r *Rollout) ChunkAgents(c int) (a0, a1 int) {
	if c < 0 || c >= len(r.chunks) {
		return 0, 0
	}
	return r.chunks[c].a0, r.chunks[c].a1
}

// Forward copies the Sim's frame-t states into depth 0 and computes depths
// 1 … Depth with the current parameters. training switches noise, dropout
// and zoneout on, drawn as the Sim draws them (from its seed and the frame
// t+d-1 of each step), so with training and no parameter change depth 1
// equals what the Sim's Step computes for the pools of the rollout; without
// training they are off (as with Options.NoNoise). All gradient buffers
// are zeroed. It is ForwardChunk for every chunk in turn.
func (r *Rollout) Forward(training bool) error {
	for c := range r.chunks {
		if err := r.ForwardChunk(c, training); err != nil {
			return err
		}
	}
	return nil
}

// ForwardChunk is Forward for the agents of chunk c only (their states
// and gradient buffers, and the chunk's parameter gradients). Different
// chunks may run concurrently (also with the Sim's read phase); the
// states of a chunk's agents are the same whichever way the batch is
// chunked (agents are independent without batch normalisation, and the
// random numbers hash absolute indices).
func (r *Rollout) ForwardChunk(c int, training bool) error {
	if c < 0 || c >= len(r.chunks) {
		return fmt.Errorf("frames: Rollout.ForwardChunk: chunk %d of %d", c, len(r.chunks))
	}
	s := r.s
	ch := r.chunks[c]
	for _, i := range r.sorted[0] {
		n := s.pools[i].n
		copy(ch.state[0][i], s.cur[i][ch.a0*n:ch.a1*n])
	}
	for d := 0; d <= r.depth; d++ {
		for _, i := range r.sorted[d] {
			clear(ch.grad[d][i])
		}
	}
	for _, k := range r.wrt {
		clear(ch.pgrad[k])
	}
	na := ch.a1 - ch.a0
	for d := 1; d <= r.depth; d++ {
		e := &ch.envs[d]
		*e = env{cur: ch.state[d-1], frame: s.frame + d - 1, noisy: training, seed: s.seed, mm: s.mm, aoff: ch.a0}
		for _, i := range r.sorted[d] {
			p := s.pools[i]
			if r.kind[d][i] == rCopied || !p.active(e.frame) {
				copy(ch.state[d][i], ch.state[d-1][i])
				continue
			}
			t := ch.tapes[d][i]
			p.prepare(s, t, e.frame)
			for k, sp := range p.sps {
				if r.cut[d][sp.idx] {
					t.spOn[k] = false
				}
			}
			p.forward(s, t, e, 0, na, ch.state[d-1][i], ch.state[d][i], nil)
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
// the states of lower depths (down to depth 0). It is BackwardChunk for
// every chunk, then ReduceParamGrad.
func (r *Rollout) Backward() error {
	for c := range r.chunks {
		if err := r.BackwardChunk(c); err != nil {
			return err
		}
	}
	r.ReduceParamGrad()
	return nil
}

// BackwardChunk is Backward for the agents of chunk c: it propagates the
// chunk's part of the Grad buffers into the lower depths and into the
// chunk's own parameter gradients (zeroed first). Different chunks may
// run concurrently; ReduceParamGrad then sums the chunks' parameter
// gradients into ParamGrad.
func (r *Rollout) BackwardChunk(c int) error {
	if c < 0 || c >= len(r.chunks) {
		return fmt.Errorf("frames: Rollout.BackwardChunk: chunk %d of %d", c, len(r.chunks))
	}
	s := r.s
	ch := r.chunks[c]
	for _, k := range r.wrt {
		clear(ch.pgrad[k])
	}
	na := ch.a1 - ch.a0
	for d := r.depth; d >= 1; d-- {
		e := &ch.envs[d]
		ch.gr.src = ch.grad[d-1]
		for _, i := range r.sorted[d] {
			p := s.pools[i]
			g := ch.grad[d][i]
			if r.kind[d][i] == rCopied || !p.active(e.frame) {
				lo := ch.grad[d-1][i]
				for k, v := range g {
					lo[k] += v
				}
				continue
			}
			p.backward(s, ch.tapes[d][i], e, na, g, ch.grad[d-1][i], &ch.gr)
		}
	}
	return nil
}

// ReduceParamGrad sets ParamGrad to the sum of the chunks' parameter
// gradients, added in chunk order (so the result does not depend on the
// order or the goroutines the chunks ran on). With one chunk it does
// nothing: the chunk's gradients are ParamGrad.
func (r *Rollout) ReduceParamGrad() {
	if len(r.chunks) == 1 {
		return
	}
	for _, k := range r.wrt {
		dst := r.pgrad[k]
		copy(dst, r.chunks[0].pgrad[k])
		for _, ch := range r.chunks[1:] {
			for j, v := range ch.pgrad[k] {
				dst[j] += v
			}
		}
	}
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
