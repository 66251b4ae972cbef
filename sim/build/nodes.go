package build

import (
	"fmt"

	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
)

func (b *builder) buildNode(n *toolkit.Node) error {
	o := fmt.Sprintf("Node %q", n.Label)
	ns := &nodeSigs{in: -1, out: -1}
	if n.Layer != nil {
		b.nodes[n] = ns
		return b.buildLayer(o, n, ns)
	}
	if n.Output == nil && n.SizeIn > 0 {
		ns.in = b.sig(n.Label+".in", o, n.SizeIn, nil)
		b.add(&ir.Reset{Base: ir.Base{Tag: o, Sets: []int{ns.in}}, Y: ns.in})
	}
	switch {
	case n.Output != nil:
		ns.out = b.sig(n.Label+".out", o, n.SizeOut, append([]float64(nil), n.Output...))
		b.m.sigs[ns.out].readonly = true
		b.m.nodeOut = append(b.m.nodeOut, nodeOut{n, ns.out})
	case n.Process != nil:
		ns.out = b.sig(n.Label+".out", o, n.SizeOut, nil)
		op := &ir.SimProcess{Base: ir.Base{Tag: o, Sets: []int{ns.out}, Reads: []int{b.m.timeSig}}, X: ns.in, Y: ns.out, Process: n.Process, Seed: b.seeds[n], Node: n}
		if ns.in >= 0 {
			op.Reads = append(op.Reads, ns.in)
		}
		b.add(op)
		b.m.nodeOut = append(b.m.nodeOut, nodeOut{n, ns.out})
	case n.TimeFn != nil || n.Fn != nil:
		if n.SizeOut > 0 {
			ns.out = b.sig(n.Label+".out", o, n.SizeOut, nil)
		}
		op := &ir.SimNodeFunc{Base: ir.Base{Tag: o, Reads: []int{b.m.timeSig}}, X: ns.in, Y: ns.out, TimeFn: n.TimeFn, NodeFn: n.Fn, Node: n}
		if ns.in >= 0 {
			op.Reads = append(op.Reads, ns.in)
		}
		if ns.out >= 0 {
			op.Sets = []int{ns.out}
			b.m.nodeOut = append(b.m.nodeOut, nodeOut{n, ns.out})
		}
		b.add(op)
	default:
		ns.out = ns.in
	}
	b.nodes[n] = ns
	return nil
}

// buildLayer adds a layer node (NengoDL's TensorNode): input and output
// signals, one read-only signal per layer parameter ("layer" role, key the
// node label; values from Params.Layers when given) and a SimLayer
// operator that sets the output from the input every step.
func (b *builder) buildLayer(o string, n *toolkit.Node, ns *nodeSigs) error {
	if _, dup := b.m.Params.Layers[n.Label]; dup {
		return objErr(o, "Label", n.Label, "must be unique among layer nodes (their parameters are keyed by label)", nil)
	}
	ns.in = b.sig(n.Label+".in", o, n.SizeIn, nil)
	b.add(&ir.Reset{Base: ir.Base{Tag: o, Sets: []int{ns.in}}, Y: ns.in})
	ns.out = b.sig(n.Label+".out", o, n.SizeOut, nil)
	var over map[string][]float64
	if b.cfg.Params != nil {
		over = b.cfg.Params.Layers[n.Label]
	}
	op := &ir.SimLayer{Base: ir.Base{Tag: o, Sets: []int{ns.out}, Reads: []int{ns.in}}, X: ns.in, Y: ns.out, Layer: n.Layer, Seed: b.seeds[n], Node: n}
	lp := map[string][]float64{}
	for _, p := range n.Layer.Params() {
		v := p.Value
		if w, ok := over[p.Name]; ok {
			if len(w) != len(v) {
				return objErr(o, "params.Layers["+p.Name+"]", len(w), fmt.Sprintf("must have %d values (shape %v)", len(v), p.Shape), nil)
			}
			v = append([]float64(nil), w...)
		}
		sg := b.sig(n.Label+"."+p.Name, o, len(v), v)
		b.m.sigs[sg].readonly = true
		b.m.sigs[sg].role, b.m.sigs[sg].key = ir.RoleLayer, n.Label
		op.Params = append(op.Params, sg)
		op.Reads = append(op.Reads, sg)
		lp[p.Name] = v
	}
	if b.m.Params.Layers == nil {
		b.m.Params.Layers = map[string]map[string][]float64{}
	}
	b.m.Params.Layers[n.Label] = lp
	b.add(op)
	return nil
}

// output returns the signal holding obj's output and its size.
func (b *builder) output(obj toolkit.Object) (int, error) {
	switch o := obj.(type) {
	case *toolkit.Ensemble:
		return b.ens[o].out, nil
	case *toolkit.Neurons:
		if b.ens[o.Ensemble].J < 0 {
			return -1, objErr(fmt.Sprintf("Ensemble %q", o.Ensemble.Label), "NeuronType", "Direct", "has no neurons to connect from", nil)
		}
		return b.ens[o.Ensemble].out, nil
	case *toolkit.Node:
		if b.nodes[o].out < 0 {
			return -1, objErr(fmt.Sprintf("Node %q", o.Label), "SizeOut", 0, "has no output to connect from", nil)
		}
		return b.nodes[o].out, nil
	}
	return -1, fmt.Errorf("sim: cannot connect from %s", obj.Kind())
}

func (b *builder) input(obj toolkit.Object) (int, error) {
	switch o := obj.(type) {
	case *toolkit.Ensemble:
		return b.ens[o].in, nil
	case *toolkit.Neurons:
		if b.ens[o.Ensemble].J < 0 {
			return -1, objErr(fmt.Sprintf("Ensemble %q", o.Ensemble.Label), "NeuronType", "Direct", "has no neurons to connect to", nil)
		}
		return b.ens[o.Ensemble].J, nil
	case *toolkit.Node:
		if b.nodes[o].in < 0 {
			return -1, objErr(fmt.Sprintf("Node %q", o.Label), "SizeIn", 0, "takes no input", nil)
		}
		return b.nodes[o].in, nil
	case *toolkit.Rule:
		sig, ok := b.rules[o]
		if !ok {
			return -1, objErr(o.String(), "LearningRule", nil, "is not built (is the connection in the network?)", nil)
		}
		return sig, nil
	}
	return -1, fmt.Errorf("sim: cannot connect to %s", obj.Kind())
}
