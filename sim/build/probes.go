package build

import (
	"fmt"

	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
)

func (b *builder) buildProbe(p *toolkit.Probe) error {
	o := fmt.Sprintf("Probe %q", p.Label)
	obj := p.Target.Obj()
	info := &Probe{Probe: p, Label: p.Label, Idx: p.Target.Indices(), Period: 1}
	if p.SampleEvery > 0 {
		info.Period = p.SampleEvery / b.m.Dt
	}
	if _, ok := obj.(*toolkit.Ensemble); ok && p.Attr == toolkit.AttrDecoded {
		size := toolkit.TargetSize(p.Target, false)
		in := b.sig(p.Label, o, size, nil)
		b.add(&ir.Reset{Base: ir.Base{Tag: o, Sets: []int{in}}, Y: in})
		if _, err := b.connect(conn{label: p.Label + ".conn", pre: p.Target, postSig: in, postSize: size},
			nil, toolkit.Scalar(1), p.Solver, p.Synapse, b.seeds[p]); err != nil {
			return err
		}
		info.Signal, info.Idx, info.Dims = in, nil, size
		b.m.Probes = append(b.m.Probes, info)
		return nil
	}
	var sig int
	switch t := obj.(type) {
	case *toolkit.Ensemble:
		sig = b.ens[t].in // input
		if p.Attr == "scaled_encoders" {
			if b.ens[t].J < 0 {
				return objErr(o, "Target", toolkit.Ref(p.Target), "a Direct ensemble has no encoders", nil)
			}
			if info.Idx != nil {
				return objErr(o, "Target", toolkit.Ref(p.Target), "scaled_encoders cannot be probed on a slice", nil)
			}
			sig = b.ens[t].enc
		}
	case *toolkit.Neurons:
		es := b.ens[t.Ensemble]
		if es.J < 0 {
			return objErr(o, "Target", toolkit.Ref(p.Target), "a Direct ensemble has no neurons", nil)
		}
		switch p.Attr {
		case toolkit.AttrOutput, toolkit.AttrSpikes, "rates":
			sig = es.out
		case toolkit.AttrInput:
			sig = es.J
		default:
			sig = -1
			for i, n := range es.names {
				if n == p.Attr {
					sig = es.state[i]
				}
			}
			if sig < 0 {
				return objErr(o, "Attr", p.Attr, "is not a state of "+t.Ensemble.NeuronType.Name(), nil)
			}
		}
	case *toolkit.Node:
		sig = b.nodes[t].out
		if sig < 0 {
			return objErr(o, "Target", toolkit.Ref(p.Target), "has no output", nil)
		}
	case *toolkit.Rule:
		sg, ok := b.ruleSigs[t][p.Attr]
		if !ok {
			return objErr(o, "Attr", p.Attr, "is not a signal of "+t.String(), nil)
		}
		sig = sg
	case *toolkit.Connection:
		cs := b.conns[t]
		if cs == nil {
			return objErr(o, "Target", toolkit.Ref(p.Target), "is not built", nil)
		}
		if p.Attr == toolkit.AttrInput {
			sig = cs.in
		} else if p.Attr == toolkit.AttrWeights {
			sig = cs.weights
		} else {
			sig = cs.weighted
		}
	default:
		return objErr(o, "Target", toolkit.Ref(p.Target), "cannot be probed", nil)
	}
	size := b.m.sigs[sig].n
	if info.Idx != nil {
		size = len(info.Idx)
	}
	info.Dims = size
	if p.Synapse != nil {
		// filtered (update) then copied into the probe's own signal
		g := sig
		if info.Idx != nil {
			g = b.sig(p.Label+".sliced", o, size, nil)
			b.add(&ir.Copy{Base: ir.Base{Tag: o + " slice", Sets: []int{g}, Reads: []int{sig}}, X: sig, XIdx: info.Idx, Y: g})
		}
		f := b.sig(p.Label+".filtered", o, size, nil)
		b.add(&ir.SimSynapse{Base: ir.Base{Tag: o + " synapse", Reads: []int{g}, Updates: []int{f}}, X: g, Y: f, Synapse: p.Synapse})
		in := b.sig(p.Label, o, size, nil)
		b.add(&ir.Copy{Base: ir.Base{Tag: o, Sets: []int{in}, Reads: []int{f}}, X: f, Y: in})
		sig, info.Idx = in, nil
	}
	info.Signal = sig
	b.m.Probes = append(b.m.Probes, info)
	return nil
}
