package stream

import (
	"fmt"
	"strconv"
	"strings"
)

// Pool returns the neuron-pool called name, or nil.
func (n *Net) Pool(name string) *NeuronPool {
	for _, p := range n.NeuronPools {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// SP returns the synapse-pool called name, or nil.
func (n *Net) SP(name string) *SynapsePool {
	for _, p := range n.SynapsePools {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Plasticity returns the plasticity called name, or nil.
func (n *Net) Plasticity(name string) *Plasticity {
	for _, p := range n.Plasticities {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Interface returns the interface called name, or nil.
func (n *Net) Interface(name string) *Interface {
	for _, p := range n.Interfaces {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// at returns x[f][a], or def when the list (or the entry) is absent.
func at(x [][]int, f, a, def int) int {
	if f < len(x) && a < len(x[f]) {
		return x[f][a]
	}
	return def
}

// ParamShapes returns the shape of every parameter of the synapse-pool, in
// the layout the executor (sim/stream) uses:
//
//   - W_f_a of a convolution (rf ≥ 1): (rf, rf, Cin, Cout), Cin = PPP[f][a]
//     if > 0 else the source's features, Cout = the target's features;
//   - W_f_a of a dense connection (rf 0): (Cin·Wsrc·Hsrc, C·W·H of the target);
//   - P_f_a (only where PPP[f][a] > 0): (Csrc, PPP[f][a]).
//
// It fails when the target or a source is not a neuron-pool of n.
func (sp *SynapsePool) ParamShapes(n *Net) (map[string][]int, error) {
	tgt := n.Pool(sp.Target)
	if tgt == nil {
		return nil, fmt.Errorf("stream: synapse-pool %q: no target neuron-pool %q", sp.Name, sp.Target)
	}
	out := map[string][]int{}
	for f, fac := range sp.Source {
		for a, name := range fac {
			src := n.Pool(name)
			if src == nil {
				return nil, fmt.Errorf("stream: synapse-pool %q: no source neuron-pool %q", sp.Name, name)
			}
			cin := src.Shape[0]
			if ppp := at(sp.PPP, f, a, 0); ppp > 0 {
				out[fmt.Sprintf("P_%d_%d", f, a)] = []int{src.Shape[0], ppp}
				cin = ppp
			}
			w := fmt.Sprintf("W_%d_%d", f, a)
			if rf := at(sp.RF, f, a, 0); rf > 0 {
				out[w] = []int{rf, rf, cin, tgt.Shape[0]}
			} else {
				out[w] = []int{cin * src.Shape[1] * src.Shape[2], Size(tgt.Shape)}
			}
		}
	}
	return out, nil
}

// ParamShapes returns the shapes of the pool's bias "b" and gain "g" (only
// those present) by shape mode: feature → [C], full → [W, H, C],
// spatial → [W, H], scalar → [1]; "false" (or "") means no parameter for
// the gain, and "false" means no bias ("" is the default, feature).
func (np *NeuronPool) ParamShapes() map[string][]int {
	out := map[string][]int{}
	bias := np.BiasShape
	if bias == "" {
		bias = "feature"
	}
	if s := modeShape(bias, np.Shape); s != nil {
		out["b"] = s
	}
	if s := modeShape(np.GainShape, np.Shape); s != nil {
		out["g"] = s
	}
	return out
}

func modeShape(mode string, shape [3]int) []int {
	switch mode {
	case "feature":
		return []int{shape[0]}
	case "full":
		return []int{shape[1], shape[2], shape[0]}
	case "spatial":
		return []int{shape[1], shape[2]}
	case "scalar":
		return []int{1}
	}
	return nil
}

// parseParamName splits "W_f_a" / "P_f_a" into kind and indices.
func parseParamName(s string) (kind byte, f, a int, ok bool) {
	parts := strings.Split(s, "_")
	if len(parts) != 3 || (parts[0] != "W" && parts[0] != "P") {
		return 0, 0, 0, false
	}
	f, err1 := strconv.Atoi(parts[1])
	a, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || f < 0 || a < 0 {
		return 0, 0, 0, false
	}
	return parts[0][0], f, a, true
}
