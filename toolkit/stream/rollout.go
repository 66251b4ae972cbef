package stream

import (
	"fmt"
	"strings"
)

// Rollout is the local unrolling a plasticity needs (the statestream paper, §3.1 and
// Fig. 4): starting from the states of the current frame t (depth 0), the
// pools in Pools[d] are computed for frame t+d from Pools[d-1], d = 1 …
// Depth. Pools[0] are read, not computed. Each list keeps the order of
// Net.NeuronPools.
type Rollout struct {
	Depth int
	Pools [][]string
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

// Inputs returns the neuron-pools that nothing in the network computes:
// those written by an interface, and those no synapse-pool targets. Their
// future states are unknown now, so no rollout may need them at depth > 0.
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
// A rollout that would need an input pool (see Inputs) at depth > 0 is
// rejected: it would need input from the future, which is not available
// at the current frame (the statestream paper, §3.1: for L_deep-class, x_pred2 at δt=4
// with x_label at δt=1 would need the image and label of frame t+1).
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
		return &Rollout{Pools: [][]string{{}}}, nil
	case p.Type == "loss":
		if p.SourceT < 0 || p.TargetT < 0 {
			return nil, fmt.Errorf("stream: plasticity %q: source_t and target_t must be ≥ 0 (got %d, %d)", p.Name, p.SourceT, p.TargetT)
		}
		roots = append(roots, need{p.Source, p.SourceT})
		if lf := p.LossFunction; lf != "minimize" && lf != "maximize" {
			roots = append(roots, need{p.Target, p.TargetT})
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
	into := map[string][]*SynapsePool{}
	for _, sp := range n.SynapsePools {
		into[sp.Target] = append(into[sp.Target], sp)
	}
	inputs := n.Inputs()
	depth := 0
	for _, r := range roots {
		if pools[r.pool] == nil {
			return nil, fmt.Errorf("stream: plasticity %q: no neuron-pool %q", p.Name, r.pool)
		}
		depth = max(depth, r.d)
	}
	needed := make([]map[string]bool, depth+1)
	for d := range needed {
		needed[d] = map[string]bool{}
	}
	var visit func(pool string, d int, path []string) error
	visit = func(pool string, d int, path []string) error {
		if needed[d][pool] {
			return nil
		}
		needed[d][pool] = true
		if d == 0 {
			return nil
		}
		path = append(path, fmt.Sprintf("%s@δt=%d", pool, d))
		if why, ok := inputs[pool]; ok {
			return fmt.Errorf("stream: plasticity %q needs neuron-pool %q at δt=%d (%s), but %s: a local rollout starts from the states of the current frame (δt=0) and would need input from the future, which is not available now (the statestream paper, §3.1); choose source_t/target_t so that input pools are reached only at δt=0",
				p.Name, pool, d, strings.Join(path, " ← "), why)
		}
		for _, sp := range into[pool] {
			for _, f := range sp.Source {
				for _, src := range f {
					if pools[src] == nil {
						return fmt.Errorf("stream: synapse-pool %q: no neuron-pool %q", sp.Name, src)
					}
					if err := visit(src, d-1, path); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	for _, r := range roots {
		if err := visit(r.pool, r.d, nil); err != nil {
			return nil, err
		}
	}
	out := &Rollout{Depth: depth, Pools: make([][]string, depth+1)}
	for d := range needed {
		out.Pools[d] = []string{}
		for _, np := range n.NeuronPools {
			if needed[d][np.Name] {
				out.Pools[d] = append(out.Pools[d], np.Name)
			}
		}
	}
	return out, nil
}
