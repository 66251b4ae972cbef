package stream

import (
	"fmt"
	"slices"
	"strings"
)

// Rollout is the local unrolling a plasticity needs (the statestream paper, §3.1 and
// Fig. 4): starting from the states of the current frame t (depth 0), the
// pools in Pools[d] are computed for frame t+d from Pools[d-1], d = 1 …
// Depth, each from the synapse-pools targeting it except those in Cut[d].
// Pools[0] are read, not computed. Each list keeps the order of
// Net.NeuronPools (Cut: of Net.SynapsePools).
type Rollout struct {
	Depth int
	Pools [][]string
	// Cut[d] are the synapse-pools left out at depth d because one of
	// their sources was pruned at depth d-1 (statestream's network
	// rollback): a pool nothing computes has no state at an intermediate
	// depth, so what it would feed is computed from the remaining inputs.
	// Cut[0] is empty.
	Cut [][]string
}

// Needs reports whether pool's state at depth d is part of the rollout.
func (r *Rollout) Needs(pool string, d int) bool {
	if d < 0 || d >= len(r.Pools) {
		return false
	}
	for _, p := range r.Pools[d] {
		if p == pool {
			return true
		}
	}
	return false
}

// Inputs returns the neuron-pools written by an interface and those no
// synapse-pool targets, each with the reason. Their future states are not
// known at the current frame: Net.Rollout prunes those no synapse-pool
// computes from its intermediate depths.
func (n *Net) Inputs() map[string]string {
	in := map[string]string{}
	targeted := map[string]bool{}
	for _, sp := range n.SynapsePools {
		targeted[sp.Target] = true
	}
	for _, np := range n.NeuronPools {
		if !targeted[np.Name] {
			in[np.Name] = "no synapse-pool targets it"
		}
	}
	for _, it := range n.Interfaces {
		for _, o := range it.Out {
			in[it.PoolName(o)] = fmt.Sprintf("interface %q writes it", it.Name)
		}
	}
	return in
}

// Rollout returns the local rollout of plasticity p: for a loss, Source at
// depth SourceT and Target at TargetT (minimize and maximize use Source
// only); for the Hebbian types the synapse-pool's pre pool (Source) at
// depth 0 and its post pool (Target) at depth 1 (and 0 for the dt
// variants); an L_regularizer needs no states (Depth 0, no pools).
//
// The rollout is built as statestream builds it (its network rollback):
// from the deepest level down, every synapse-pool targeting a pool needed
// at depth d is evaluated there, and its sources are needed at d-1. A
// pool needed at an intermediate depth 0 < d < Depth that no evaluated
// synapse-pool targets — an input pool, whose future state is unknown now
// — is pruned: the synapse-pools reading it at d+1 are cut (Rollout.Cut)
// and their targets computed from their other inputs; a pool left without
// any input is pruned in turn. A pool written by an interface but also
// targeted by synapse-pools is computed from them, as in statestream.
// The loss's own pools (Source at SourceT, Target at TargetT, the mask)
// cannot be pruned: when one of them would need input from the future
// (an input pool at depth > 0) the rollout is rejected.
func (n *Net) Rollout(p *Plasticity) (*Rollout, error) {
	if p == nil {
		return nil, fmt.Errorf("stream: Rollout of a nil plasticity")
	}
	type need struct {
		pool string
		d    int
	}
	var roots []need
	switch {
	case p.Type == "L_regularizer":
		return &Rollout{Pools: [][]string{{}}, Cut: [][]string{{}}}, nil
	case p.Type == "loss":
		if p.SourceT < 0 || p.TargetT < 0 {
			return nil, fmt.Errorf("stream: plasticity %q: source_t and target_t must be ≥ 0 (got %d, %d)", p.Name, p.SourceT, p.TargetT)
		}
		roots = append(roots, need{p.Source, p.SourceT})
		maskT := p.SourceT
		if lf := p.LossFunction; lf != "minimize" && lf != "maximize" {
			roots = append(roots, need{p.Target, p.TargetT})
			maskT = p.TargetT
		}
		if p.Mask != "" && n.Pool(p.Mask) != nil { // a missing mask is the caller's error
			roots = append(roots, need{p.Mask, maskT})
		}
	case strings.HasSuffix(p.Type, "hebbian"):
		roots = append(roots, need{p.Source, 0}, need{p.Target, 1})
		if strings.HasPrefix(p.Type, "dt") {
			roots = append(roots, need{p.Target, 0})
		}
	default:
		return nil, fmt.Errorf("stream: plasticity %q: unknown type %q", p.Name, p.Type)
	}
	pools := map[string]*NeuronPool{}
	for _, np := range n.NeuronPools {
		pools[np.Name] = np
	}
	depth := 0
	for _, r := range roots {
		if pools[r.pool] == nil {
			return nil, fmt.Errorf("stream: plasticity %q: no neuron-pool %q", p.Name, r.pool)
		}
		depth = max(depth, r.d)
	}
	needed := make([]map[string]bool, depth+1)
	evald := make([]map[string]bool, depth+1) // synapse-pools evaluated at d
	isRoot := make([]map[string]bool, depth+1)
	for d := range needed {
		needed[d], evald[d], isRoot[d] = map[string]bool{}, map[string]bool{}, map[string]bool{}
	}
	for _, r := range roots {
		needed[r.d][r.pool] = true
		isRoot[r.d][r.pool] = true
	}
	for d := depth; d >= 1; d-- {
		for _, sp := range n.SynapsePools {
			if !needed[d][sp.Target] {
				continue
			}
			evald[d][sp.Name] = true
			for _, f := range sp.Source {
				for _, src := range f {
					if pools[src] == nil {
						return nil, fmt.Errorf("stream: synapse-pool %q: no neuron-pool %q", sp.Name, src)
					}
					needed[d-1][src] = true
				}
			}
		}
	}
	inputs := n.Inputs()
	future := func(pool string, d int) error {
		why := "every synapse-pool into it reads a pool pruned from the rollout (an input at a later frame)"
		if w, ok := inputs[pool]; ok {
			why = w
		}
		return fmt.Errorf("stream: plasticity %q needs neuron-pool %q at δt=%d, but %s: a local rollout starts from the states of the current frame (δt=0) and would need input from the future, which is not available now (the statestream paper, §3.1); choose source_t/target_t so that input pools are reached only at δt=0",
			p.Name, pool, d, why)
	}
	cut := make([]map[string]bool, depth+1)
	for d := range cut {
		cut[d] = map[string]bool{}
	}
	for d := 1; d <= depth; d++ {
		for _, np := range n.NeuronPools {
			if !needed[d][np.Name] {
				continue
			}
			fed := false
			for _, sp := range n.SynapsePools {
				if sp.Target == np.Name && evald[d][sp.Name] && !cut[d][sp.Name] {
					fed = true
					break
				}
			}
			if fed {
				continue
			}
			if isRoot[d][np.Name] || d == depth {
				return nil, future(np.Name, d)
			}
			delete(needed[d], np.Name)
			for _, sp := range n.SynapsePools {
				if evald[d+1][sp.Name] && slices.ContainsFunc(sp.Source, func(f []string) bool { return slices.Contains(f, np.Name) }) {
					cut[d+1][sp.Name] = true
				}
			}
		}
	}
	out := &Rollout{Depth: depth, Pools: make([][]string, depth+1), Cut: make([][]string, depth+1)}
	for d := range needed {
		out.Pools[d] = []string{}
		for _, np := range n.NeuronPools {
			if needed[d][np.Name] {
				out.Pools[d] = append(out.Pools[d], np.Name)
			}
		}
		out.Cut[d] = []string{}
		for _, sp := range n.SynapsePools {
			if cut[d][sp.Name] {
				out.Cut[d] = append(out.Cut[d], sp.Name)
			}
		}
	}
	return out, nil
}
