package stream

import (
	"fmt"
	"slices"
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
//     if > 0 else the source's features, Cout = the target's features
//     times Avgout and Maxout (each at least 1);
//   - W_f_a of a dense connection (rf 0): (Cin·Wsrc·Hsrc, C·W·H of the
//     target times Avgout and Maxout);
//   - P_f_a (only where PPP[f][a] > 0): (Csrc, PPP[f][a]);
//   - b_f (only where BiasShapes[f] is set): by its mode as a neuron-pool's
//     bias, over the factor's features (the target's times Avgout and
//     Maxout).
//
// A summand of target shape (TargetShape) spatial has Cout = 1 (a dense
// one maps to W·H values), feature maps densely to C values and scalar
// to one. An unshared parameter (Unshare) holds agents arrays of the shape
// given here, one after the other. It fails when the target or a source is
// not a neuron-pool of n.
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
			kf := max(sp.Avgout, 1) * max(sp.Maxout, 1)
			if a == 0 && f < len(sp.BiasShapes) {
				if bs := modeShape(sp.BiasShapes[f], [3]int{tgt.Shape[0] * kf, tgt.Shape[1], tgt.Shape[2]}); bs != nil {
					out[fmt.Sprintf("b_%d", f)] = bs
				}
			}
			cout, nout := tgt.Shape[0]*kf, Size(tgt.Shape)*kf
			switch sp.TargetShape(f, a) {
			case "spatial":
				cout, nout = 1, tgt.Shape[1]*tgt.Shape[2]
			case "feature":
				nout = cout
			case "scalar":
				cout, nout = 1, 1
			}
			if rf := at(sp.RF, f, a, 0); rf > 0 {
				out[w] = []int{rf, rf, cin, cout}
			} else {
				out[w] = []int{cin * src.Shape[1] * src.Shape[2], nout}
			}
		}
	}
	return out, nil
}

// FactorShape returns the shape mode of factor f (FactorShapes; "full"
// when absent).
func (sp *SynapsePool) FactorShape(f int) string {
	if f >= 0 && f < len(sp.FactorShapes) && sp.FactorShapes[f] != "" {
		return sp.FactorShapes[f]
	}
	return "full"
}

// TargetShape returns the shape mode summand a of factor f produces
// (TargetShapes; its factor's shape when absent).
func (sp *SynapsePool) TargetShape(f, a int) string {
	if f >= 0 && f < len(sp.TargetShapes) && a >= 0 && a < len(sp.TargetShapes[f]) && sp.TargetShapes[f][a] != "" {
		return sp.TargetShapes[f][a]
	}
	return sp.FactorShape(f)
}

// Unshared reports whether parameter name (W_f_a, P_f_a, b_f) holds one
// array per agent (Unshare).
func (sp *SynapsePool) Unshared(name string) bool { return slices.Contains(sp.Unshare, name) }

// Unshared reports whether parameter name (b, g) holds one array per
// agent (Unshare).
func (np *NeuronPool) Unshared(name string) bool { return slices.Contains(np.Unshare, name) }

// ParamShapes returns the shapes of the pool's bias "b" and gain "g" (only
// those present) by shape mode: feature → [C], full → [W, H, C],
// spatial → [W, H], scalar → [1]; "false" (or "") means no parameter for
// the gain, and "false" means no bias ("" is the default, feature). An
// unshared parameter (Unshare) holds agents arrays of that shape.
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

// parseParamName splits "W_f_a" / "P_f_a" into kind and indices, and a
// factor bias "b_f" into 'b', f and a = 0.
func parseParamName(s string) (kind byte, f, a int, ok bool) {
	parts := strings.Split(s, "_")
	if len(parts) == 2 && parts[0] == "b" {
		f, err := strconv.Atoi(parts[1])
		if err != nil || f < 0 {
			return 0, 0, 0, false
		}
		return 'b', f, 0, true
	}
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

// PreActivation returns the pre-activation of summand a of factor f
// (SynapsePool.Pact; "Id" when absent) as an activation name and the
// threshold subtracted first (statestream's "B.relu($, thresh=T)"). ok is
// false for any other form (an expression, a further backend function:
// PactFunc computes those).
func (sp *SynapsePool) PreActivation(f, a int) (act string, thresh float64, ok bool) {
	if f < 0 || f >= len(sp.Pact) || a < 0 || a >= len(sp.Pact[f]) || sp.Pact[f][a] == "" {
		return "Id", 0, true
	}
	return parsePact(sp.Pact[f][a])
}
