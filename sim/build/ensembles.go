package build

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
)

func (b *builder) buildEnsemble(e *toolkit.Ensemble) error {
	o := fmt.Sprintf("Ensemble %q", e.Label)
	var over *EnsembleParams
	if b.cfg.Params != nil {
		over = b.cfg.Params.Ensembles[b.ensKey[e]]
	}
	if e.NeuronType.Name() == "Direct" {
		// no neurons: the ensemble's output is its input (nengo.Direct)
		es := &ensSigs{p: &EnsembleParams{}, J: -1}
		es.in = b.sig(e.Label+".signal", o, e.Dims, nil)
		es.out = es.in
		b.ens[e] = es
		b.add(&ir.Reset{Base: ir.Base{Tag: o, Sets: []int{es.in}}, Y: es.in})
		return nil
	}
	seed := b.seeds[e]
	rng := rngFor(seed, 0xe75)
	n, d := e.N, e.Dims
	p := &EnsembleParams{}
	// 1. eval points (Nengo: sampled, then scaled by the radius)
	if over != nil && over.EvalPoints != nil {
		if len(over.EvalPoints)%d != 0 {
			return objErr(o, "params.EvalPoints", len(over.EvalPoints), fmt.Sprintf("length must be a multiple of Dims = %d", d), nil)
		}
		p.EvalPoints = append([]float64(nil), over.EvalPoints...)
	} else {
		ep, err := e.EvalPoints.Sample(e.EvalPointCount(), d, rng)
		if err != nil {
			return objErr(o, "EvalPoints", e.EvalPoints.Name(), "sampling failed", err)
		}
		for i := range ep {
			ep[i] *= e.Radius
		}
		p.EvalPoints = ep
	}
	// 2. encoders
	if over != nil && over.Encoders != nil {
		if len(over.Encoders) != n*d {
			return objErr(o, "params.Encoders", len(over.Encoders), fmt.Sprintf("length must be N×Dims = %d", n*d), nil)
		}
		p.Encoders = append([]float64(nil), over.Encoders...)
	} else {
		enc, err := e.Encoders.Sample(n, d, rng)
		if err != nil {
			return objErr(o, "Encoders", e.Encoders.Name(), "sampling failed", err)
		}
		if e.NormalizeEncoders {
			for i := range n {
				row := enc[i*d : (i+1)*d]
				var s float64
				for _, v := range row {
					s += v * v
				}
				s = math.Sqrt(s)
				if s == 0 {
					return objErr(o, "Encoders", fmt.Sprintf("row %d", i), "is zero and cannot be normalised", nil)
				}
				for j := range row {
					row[j] /= s
				}
			}
		}
		p.Encoders = enc
	}
	// 3. gain and bias
	switch {
	case over != nil && over.Gain != nil && over.Bias != nil:
		if len(over.Gain) != n || len(over.Bias) != n {
			return objErr(o, "params.Gain/Bias", fmt.Sprintf("len %d/%d", len(over.Gain), len(over.Bias)), fmt.Sprintf("must have N = %d entries", n), nil)
		}
		p.Gain, p.Bias = append([]float64(nil), over.Gain...), append([]float64(nil), over.Bias...)
	case e.Gain != nil:
		p.Gain, p.Bias = append([]float64(nil), e.Gain...), append([]float64(nil), e.Bias...)
	default:
		mr, err := e.MaxRates.Sample(n, 1, rng)
		if err != nil {
			return objErr(o, "MaxRates", e.MaxRates.Name(), "sampling failed", err)
		}
		ic, err := e.Intercepts.Sample(n, 1, rng)
		if err != nil {
			return objErr(o, "Intercepts", e.Intercepts.Name(), "sampling failed", err)
		}
		g, bi, err := e.NeuronType.GainBias(mr, ic)
		if err != nil {
			return objErr(o, "MaxRates/Intercepts", e.NeuronType.Name(), "give no valid gain and bias", err)
		}
		p.Gain, p.Bias, p.MaxRates, p.Intercepts = g, bi, mr, ic
	}
	if p.MaxRates == nil {
		if mr, ic, err := e.NeuronType.MaxRatesIntercepts(p.Gain, p.Bias); err == nil {
			p.MaxRates, p.Intercepts = mr, ic
		}
	}
	// scaled encoders = encoders · gain / radius (Nengo's build_ensemble)
	p.ScaledEncoders = make([]float64, n*d)
	for i := range n {
		s := p.Gain[i] / e.Radius
		for j := range d {
			p.ScaledEncoders[i*d+j] = p.Encoders[i*d+j] * s
		}
	}
	// neuron state (initial values drawn with a second stream)
	st, err := e.NeuronType.State(n, rngFor(seed, 0x57a7e))
	if err != nil {
		return objErr(o, "NeuronType", e.NeuronType.Name(), "cannot make state", err)
	}
	p.State = map[string][]float64{}
	for i, name := range st.Names {
		v := st.Vars[i]
		if over != nil && over.State[name] != nil {
			if len(over.State[name]) != n {
				return objErr(o, "params.State["+name+"]", len(over.State[name]), fmt.Sprintf("must have N = %d entries", n), nil)
			}
			v = append([]float64(nil), over.State[name]...)
		}
		p.State[name] = v
	}
	b.m.Params.Ensembles[b.ensKey[e]] = p

	es := &ensSigs{p: p}
	es.in = b.sig(e.Label+".signal", o, d, nil)
	es.J = b.sig(e.Label+".neuron_in", o, n, nil)
	es.out = b.sig(e.Label+".neuron_out", o, n, nil)
	es.bias = b.sig(e.Label+".bias", o, n, p.Bias)
	es.enc = b.sig(e.Label+".scaled_encoders", o, n*d, p.ScaledEncoders)
	b.m.sigs[es.enc].rows = n
	for _, name := range st.Names {
		es.state = append(es.state, b.sig(e.Label+"."+name, o, n, p.State[name]))
		es.names = append(es.names, name)
	}
	b.m.sigs[es.bias].readonly, b.m.sigs[es.enc].readonly = true, true
	b.m.sigs[es.bias].role, b.m.sigs[es.bias].key = ir.RoleBias, b.ensKey[e]
	b.m.sigs[es.enc].role, b.m.sigs[es.enc].key = ir.RoleScaledEncoders, b.ensKey[e]
	b.ens[e] = es
	b.add(&ir.Reset{Base: ir.Base{Tag: o, Sets: []int{es.in}}, Y: es.in})
	b.add(&ir.Copy{Base: ir.Base{Tag: o + " bias", Sets: []int{es.J}, Reads: []int{es.bias}}, X: es.bias, Y: es.J})
	b.add(&ir.DotInc{Base: ir.Base{Tag: o + " encoding", Incs: []int{es.J}, Reads: []int{es.enc, es.in}}, A: es.enc, X: es.in, Y: es.J, Bias: ir.None})
	if e.Noise != nil {
		// noise is added to the neuron input current (Nengo's mode "inc")
		b.add(&ir.SimProcess{Base: ir.Base{Tag: o + " noise", Incs: []int{es.J}, Reads: []int{b.m.timeSig}}, X: -1, Y: es.J, Inc: true, Process: e.Noise, Seed: seed ^ 0x4015e})
	}
	b.add(&ir.SimNeurons{Base: ir.Base{Tag: o, Sets: append([]int{es.out}, es.state...), Reads: []int{es.J}}, J: es.J, Out: es.out, State: es.state, StateNames: es.names, Neuron: e.NeuronType, Seed: seed})
	return nil
}
