package build

import (
	"fmt"

	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
)

// buildHebbian adds BCM or Oja (Nengo's build_bcm, build_oja): the
// weights (post neurons × pre neurons) change by delta, computed from the
// filtered activities of the whole pre and post ensembles.
func (b *builder) buildHebbian(o string, cn conn, rule toolkit.LearningRule, weights int, elementwise bool) error {
	preEns := ensembleOf(cn.pre.Obj())
	postEns := ensembleOf(cn.post)
	if preEns == nil || postEns == nil || elementwise {
		return objErr(o, "LearningRule", rule.Name(), "needs a connection between ensembles' neurons with a 2-D weight matrix", nil)
	}
	pre, post := b.ens[preEns], b.ens[postEns]
	if post.J < 0 || pre.J < 0 {
		return objErr(o, "LearningRule", rule.Name(), "needs neurons (not Direct) at both ends", nil)
	}
	if b.m.sigs[weights].n != preEns.N*postEns.N {
		return objErr(o, "LearningRule", rule.Name(), fmt.Sprintf("needs a full %d×%d neuron weight matrix (have %d weights)", postEns.N, preEns.N, b.m.sigs[weights].n), nil)
	}
	name := cn.label + "." + rule.Name()
	delta := b.sig(name+".delta", o, b.m.sigs[weights].n, nil)
	b.add(&ir.Copy{Base: ir.Base{Tag: o + " weights += delta", Incs: []int{weights}, Reads: []int{delta}}, X: delta, Y: weights, Inc: true})
	switch r := rule.(type) {
	case *toolkit.BCM:
		pf := b.filtered(o, name+".pre_filtered", r.PreSynapse, pre.out)
		qf := b.filtered(o, name+".post_filtered", r.PostSynapse, post.out)
		th := b.filtered(o, name+".theta", r.ThetaSynapse, post.out)
		b.add(&ir.SimBCM{Base: ir.Base{Tag: o + " BCM", Reads: []int{pf, qf, th}, Updates: []int{delta}}, Pre: pf, Post: qf, Theta: th, Delta: delta, LearningRate: r.LearningRate})
		b.ruleSigs[cn.c.Rule()] = map[string]int{"theta": th, "pre_filtered": pf, "post_filtered": qf, "delta": delta}
	case *toolkit.Oja:
		pf := b.filtered(o, name+".pre_filtered", r.PreSynapse, pre.out)
		qf := b.filtered(o, name+".post_filtered", r.PostSynapse, post.out)
		b.add(&ir.SimOja{Base: ir.Base{Tag: o + " Oja", Reads: []int{pf, qf, weights}, Updates: []int{delta}}, Pre: pf, Post: qf, Weights: weights, Delta: delta, LearningRate: r.LearningRate, Beta: r.Beta})
		b.ruleSigs[cn.c.Rule()] = map[string]int{"pre_filtered": pf, "post_filtered": qf, "delta": delta}
	}
	return nil
}

// buildVoja adds Nengo's build_voja: the post ensemble's scaled encoders
// change by delta each step, computed from the post input (the decoded
// value), the filtered post activities and a learning signal (1 unless a
// connection into conn.Rule() adds to it).
func (b *builder) buildVoja(o string, cn conn, v *toolkit.Voja) error {
	post, ok := cn.post.(*toolkit.Ensemble)
	if !ok || cn.c == nil {
		return objErr(o, "LearningRule", "Voja", "needs an Ensemble as Post", nil)
	}
	es := b.ens[post]
	if es.J < 0 {
		return objErr(o, "LearningRule", "Voja", "needs neurons (not Direct) in the post ensemble", nil)
	}
	rule := cn.c.Rule()
	name := cn.label + ".Voja"
	learning := b.sig(name+".learning", o, 1, nil)
	b.add(&ir.Reset{Base: ir.Base{Tag: o + " Voja learning", Sets: []int{learning}}, Y: learning, Value: 1})
	b.rules[rule] = learning
	delta := b.sig(name+".delta", o, b.m.sigs[es.enc].n, nil)
	b.m.sigs[es.enc].readonly = false
	b.add(&ir.Copy{Base: ir.Base{Tag: o + " encoders += delta", Incs: []int{es.enc}, Reads: []int{delta}}, X: delta, Y: es.enc, Inc: true})
	pf := b.filtered(o, name+".post_filtered", v.PostSynapse, es.out)
	scale := make([]float64, post.N)
	for i := range scale {
		scale[i] = es.p.Gain[i] / post.Radius
	}
	ss := b.sig(name+".scale", o, post.N, scale)
	b.m.sigs[ss].readonly = true
	b.add(&ir.SimVoja{Base: ir.Base{Tag: o + " Voja", Reads: []int{es.in, pf, es.enc, learning, ss}, Updates: []int{delta}}, X: es.in, Post: pf, Encoders: es.enc, Learning: learning, Scale: ss, Delta: delta, LearningRate: v.LearningRate})
	b.ruleSigs[rule] = map[string]int{"scaled_encoders": es.enc, "post_filtered": pf, "delta": delta}
	return nil
}

// buildRLS adds Nengo's build_rls: recursive least squares on the
// connection's weights from the filtered pre activities and the error
// delivered to conn.Rule().
func (b *builder) buildRLS(o string, cn conn, r *toolkit.RLS, preOut, weights int, elementwise bool) error {
	if elementwise {
		return objErr(o, "Transform", "scalar", "must be a 2-D (Dense) transform or a decoded connection for learning", nil)
	}
	rule := cn.c.Rule()
	name := cn.label + ".RLS"
	errSize, _ := rule.Dimensions()
	errSig := b.sig(name+".error", o, errSize, nil)
	b.add(&ir.Reset{Base: ir.Base{Tag: o + " RLS error", Sets: []int{errSig}}, Y: errSig})
	b.rules[rule] = errSig
	pf := b.filtered(o, name+".pre_filtered", r.PreSynapse, preOut)
	n := b.m.sigs[pf].n
	if errSize*n != b.m.sigs[weights].n {
		return objErr(o, "LearningRule", "RLS", fmt.Sprintf("error size %d × pre size %d does not match the weights (%d)", errSize, n, b.m.sigs[weights].n), nil)
	}
	p0 := make([]float64, n*n)
	lr := r.LearningRate * b.m.Dt / float64(n)
	for i := range n {
		p0[i*n+i] = lr
	}
	P := b.sig(name+".inv_gamma", o, n*n, p0)
	delta := b.sig(name+".delta", o, b.m.sigs[weights].n, nil)
	b.add(&ir.Copy{Base: ir.Base{Tag: o + " weights += delta", Incs: []int{weights}, Reads: []int{delta}}, X: delta, Y: weights, Inc: true})
	b.add(&ir.SimRLS{Base: ir.Base{Tag: o + " RLS", Reads: []int{pf, errSig}, Updates: []int{delta, P}}, Pre: pf, Error: errSig, P: P, Delta: delta})
	b.ruleSigs[rule] = map[string]int{"error": errSig, "pre_filtered": pf, "delta": delta}
	return nil
}

func ensembleOf(o toolkit.Object) *toolkit.Ensemble {
	switch t := o.(type) {
	case *toolkit.Ensemble:
		return t
	case *toolkit.Neurons:
		return t.Ensemble
	}
	return nil
}

// buildPES adds Nengo's PES operators (build_learning_rule, build_pes):
// weights += delta (Copy inc, reading last step's delta); delta is updated
// to -rate·dt/n · error ⊗ filtered pre activities (SimPES).
func (b *builder) buildPES(o string, cn conn, pes *toolkit.PES, preOut, weights int, elementwise bool) error {
	if elementwise {
		return objErr(o, "Transform", "scalar", "must be a 2-D (Dense) transform or a decoded connection for learning", nil)
	}
	rule := cn.c.Rule()
	errSize, _ := rule.Dimensions()
	errSig := b.sig(rule.Name()+".error", o, errSize, nil)
	b.add(&ir.Reset{Base: ir.Base{Tag: o + " PES error", Sets: []int{errSig}}, Y: errSig})
	b.rules[rule] = errSig
	delta := b.sig(rule.Name()+".delta", o, b.m.sigs[weights].n, nil)
	b.add(&ir.Copy{Base: ir.Base{Tag: o + " weights += delta", Incs: []int{weights}, Reads: []int{delta}}, X: delta, Y: weights, Inc: true})
	acts := preOut
	if _, ok := cn.pre.Obj().(*toolkit.Neurons); ok && cn.pre.Indices() != nil {
		g := b.sig(rule.Name()+".pre_sliced", o, len(cn.pre.Indices()), nil)
		b.add(&ir.Copy{Base: ir.Base{Tag: o + " PES pre slice", Sets: []int{g}, Reads: []int{preOut}}, X: preOut, XIdx: cn.pre.Indices(), Y: g})
		acts = g
	}
	if pes.PreSynapse != nil {
		f := b.sig(rule.Name()+".activities", o, b.m.sigs[acts].n, nil)
		// Nengo builds the pre synapse in "set" mode: no extra delay
		b.add(&ir.SimSynapse{Base: ir.Base{Tag: o + " PES pre synapse", Sets: []int{f}, Reads: []int{acts}}, X: acts, Y: f, Synapse: pes.PreSynapse})
		acts = f
	}
	local := errSig
	if n, ok := cn.post.(*toolkit.Neurons); ok {
		// per-neuron error: scaled encoders · error
		es := b.ens[n.Ensemble]
		d := n.Ensemble.Dims
		rows := cn.postIdx
		if rows == nil {
			rows = make([]int, n.Ensemble.N)
			for i := range rows {
				rows[i] = i
			}
		}
		enc := make([]float64, 0, len(rows)*d)
		for _, r := range rows {
			enc = append(enc, es.p.ScaledEncoders[r*d:(r+1)*d]...)
		}
		es2 := b.sig(rule.Name()+".encoders", o, len(enc), enc)
		local = b.sig(rule.Name()+".local_error", o, len(rows), nil)
		b.add(&ir.Reset{Base: ir.Base{Tag: o + " PES local error", Sets: []int{local}}, Y: local})
		b.add(&ir.DotInc{Base: ir.Base{Tag: o + " PES encode", Incs: []int{local}, Reads: []int{es2, errSig}}, A: es2, X: errSig, Y: local, Bias: ir.None})
	}
	if b.m.sigs[local].n*b.m.sigs[acts].n != b.m.sigs[weights].n {
		return objErr(o, "LearningRule", "PES", fmt.Sprintf("error size %d × pre size %d does not match the weights (%d)", b.m.sigs[local].n, b.m.sigs[acts].n, b.m.sigs[weights].n), nil)
	}
	b.add(&ir.SimPES{Base: ir.Base{Tag: o + " PES", Reads: []int{acts, local}, Updates: []int{delta}}, Acts: acts, Error: local, Delta: delta, LearningRate: pes.LearningRate})
	b.ruleSigs[rule] = map[string]int{"error": errSig, "activities": acts, "delta": delta}
	return nil
}
