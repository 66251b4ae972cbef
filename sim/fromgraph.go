package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/neurogo/neurogo/sim/build"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// FromGraph makes a Model from a built model given as data — Model.Graph's
// form: a signal table, typed operators, probes, the time and step
// signals and the nodes that can be fed — for models built elsewhere (by
// another builder, e.g. Nengo's through a bridge, or edited by a tool).
// The graph is checked before anything runs: every signal index in
// range, every operator's operands of consistent sizes for its type, one
// setter and one updater per signal, no cycle. A problem is a
// *validate.Error naming the operator, the field, the value and the
// rule. The operators are ordered by Nengo's rule (ties keep the graph's
// order) and optimised (the Optimize option); CheckNaN applies as for
// Build. The operators and slices are copied; the model has no Net and
// empty Params.
func FromGraph(g *Graph, opts ...Option) (*Model, error) {
	cfg := config{}
	for _, o := range opts {
		o(&cfg)
	}
	if g == nil {
		return nil, errors.New("sim: FromGraph: graph is nil")
	}
	if !(g.Dt > 0) || math.IsInf(g.Dt, 1) {
		return nil, graphErr("Graph", "Dt", g.Dt, "must be positive and finite")
	}
	n := len(g.Signals)
	names := make([]string, n)
	m := &Model{Dt: g.Dt, CheckNaN: !cfg.noNaNChk, timeSig: g.Time, stepSig: g.Step,
		Params: Params{Ensembles: map[string]*EnsembleParams{}, Connections: map[string]*ConnectionParams{}}}
	for i, s := range g.Signals {
		f := fmt.Sprintf("Signals[%d]", i)
		switch {
		case s.Size < 0:
			return nil, graphErr("Graph", f+".Size", s.Size, "must not be negative")
		case s.Init != nil && len(s.Init) != s.Size:
			return nil, graphErr("Graph", f+".Init", len(s.Init), fmt.Sprintf("must have Size = %d values (or be nil: zeros)", s.Size))
		case s.Rows < 0 || (s.Rows > 0 && s.Size%s.Rows != 0):
			return nil, graphErr("Graph", f+".Rows", s.Rows, fmt.Sprintf("must be 0 or divide Size = %d", s.Size))
		}
		names[i] = s.Name
		m.sigs = append(m.sigs, signal{name: s.Name, owner: s.Owner, off: m.size, n: s.Size, rows: s.Rows,
			init: slices.Clone(s.Init), readonly: s.ReadOnly, role: s.Role, key: s.Key})
		m.size += s.Size
	}
	for _, f := range []struct {
		name string
		sig  int
	}{{"Time", g.Time}, {"Step", g.Step}} {
		if f.sig < 0 || f.sig >= n || g.Signals[f.sig].Size != 1 {
			return nil, graphErr("Graph", f.name, f.sig, "must be a signal of one value")
		}
	}
	c := &checker{sigs: g.Signals}
	ops := make([]ir.Op, len(g.Ops))
	for i, op := range g.Ops {
		if op == nil {
			return nil, graphErr("Graph", fmt.Sprintf("Ops[%d]", i), nil, "must be an operator")
		}
		if err := c.check(op); err != nil {
			return nil, err
		}
		ops[i] = op.Clone()
	}
	ordered, err := build.Order(ops, names)
	if err != nil {
		return nil, err
	}
	m.Ops = ordered
	for i, p := range g.Probes {
		f := fmt.Sprintf("Probes[%d]", i)
		if p.Signal < 0 || p.Signal >= n {
			return nil, graphErr("Graph", f+".Signal", p.Signal, fmt.Sprintf("must be a signal index in [0, %d)", n))
		}
		if err := c.indices(f+".Idx", p.Idx, p.Signal); err != nil {
			return nil, err
		}
		dims := g.Signals[p.Signal].Size
		if p.Idx != nil {
			dims = len(p.Idx)
		}
		if p.Dims != dims {
			return nil, graphErr("Graph", f+".Dims", p.Dims, fmt.Sprintf("must be the probed values, %d", dims))
		}
		if !(p.Period >= 1) || math.IsInf(p.Period, 1) {
			return nil, graphErr("Graph", f+".Period", p.Period, "must be at least one step and finite")
		}
		m.Probes = append(m.Probes, &ProbeInfo{Probe: p.Probe, Label: p.Label, sig: p.Signal, idx: slices.Clone(p.Idx), Dims: p.Dims, Period: p.Period})
	}
	for node, sig := range g.NodeOutputs {
		if node == nil || sig < 0 || sig >= n || g.Signals[sig].Size != node.SizeOut {
			return nil, graphErr("Graph", "NodeOutputs", sig, "must map nodes to their output signals (SizeOut values)")
		}
		m.nodeOut = append(m.nodeOut, nodeOut{node: node, sig: sig})
	}
	slices.SortFunc(m.nodeOut, func(a, b nodeOut) int { return a.sig - b.sig })
	if !cfg.optSet {
		cfg.opt = AllOptimizations()
	}
	if err := m.optimize(cfg.opt); err != nil {
		return nil, err
	}
	return m, nil
}

func graphErr(obj, field string, value any, rule string) error {
	return &validate.Error{Pkg: "sim", Object: obj, Field: field, Value: value, Rule: rule}
}

// checker checks one operator of a graph (ir.Lowerer): signal indices in
// range and operand sizes consistent with the operator's arithmetic.
type checker struct {
	sigs []GraphSignal
	op   ir.Op
}

func (c *checker) check(op ir.Op) error {
	c.op = op
	b := op.Info()
	for _, l := range []struct {
		name string
		sigs []int
	}{{"Sets", b.Sets}, {"Incs", b.Incs}, {"Reads", b.Reads}, {"Updates", b.Updates}} {
		for _, s := range l.sigs {
			if err := c.sig(l.name, s); err != nil {
				return err
			}
		}
	}
	return ir.Lower(c, op)
}

func (c *checker) fail(field string, value any, rule string) error {
	return graphErr(c.op.String(), field, value, rule)
}

// sig checks that s is a signal index.
func (c *checker) sig(field string, s int) error {
	if s < 0 || s >= len(c.sigs) {
		return c.fail(field, s, fmt.Sprintf("must be a signal index in [0, %d)", len(c.sigs)))
	}
	return nil
}

// opt checks that s is a signal index or ir.None.
func (c *checker) opt(field string, s int) error {
	if s == ir.None {
		return nil
	}
	return c.sig(field, s)
}

func (c *checker) size(s int) int { return c.sigs[s].Size }

// sizes checks that signal s has want values.
func (c *checker) sizes(field string, s, want int) error {
	if c.size(s) != want {
		return c.fail(field, fmt.Sprintf("signal %d of %d values", s, c.size(s)), fmt.Sprintf("must have %d values", want))
	}
	return nil
}

// indices checks that idx lists elements of signal s.
func (c *checker) indices(field string, idx []int, s int) error {
	for k, i := range idx {
		if i < 0 || i >= c.size(s) {
			return graphErr(fmt.Sprint(c.op), fmt.Sprintf("%s[%d]", field, k), i, fmt.Sprintf("must be an element of signal %d (%d values)", s, c.size(s)))
		}
	}
	return nil
}

// first returns the first error of errs.
func first(errs ...func() error) error {
	for _, f := range errs {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// gather checks Y[YIdx] op= A[AIdx]·X[XIdx]: the index lists, and as
// many elements on both sides (a: ir.None for a copy).
func (c *checker) gather(a, x, y int, aIdx, xIdx, yIdx []int) error {
	if err := first(func() error { return c.sig("X", x) }, func() error { return c.sig("Y", y) }, func() error { return c.opt("A", a) }); err != nil {
		return err
	}
	if err := first(func() error { return c.indices("XIdx", xIdx, x) }, func() error { return c.indices("YIdx", yIdx, y) }); err != nil {
		return err
	}
	k := c.size(y)
	if yIdx != nil {
		k = len(yIdx)
	}
	nx := c.size(x)
	if xIdx != nil {
		nx = len(xIdx)
	}
	if nx != k {
		return c.fail("X", nx, fmt.Sprintf("must give as many values as Y receives, %d", k))
	}
	if a != ir.None {
		if err := c.indices("AIdx", aIdx, a); err != nil {
			return err
		}
		if aIdx != nil && len(aIdx) != k {
			return c.fail("AIdx", len(aIdx), fmt.Sprintf("must list %d weights", k))
		}
		if aIdx == nil && c.size(a) != 1 && c.size(a) != k {
			return c.fail("A", c.size(a), fmt.Sprintf("must have 1 (broadcast) or %d values", k))
		}
	}
	return nil
}

func (c *checker) Reset(ops []*ir.Reset) error { return c.sig("Y", ops[0].Y) }

func (c *checker) Copy(ops []*ir.Copy) error {
	o := ops[0]
	return c.gather(ir.None, o.X, o.Y, nil, o.XIdx, o.YIdx)
}

func (c *checker) ElementwiseInc(ops []*ir.ElementwiseInc) error {
	o := ops[0]
	if o.A == ir.None {
		return c.fail("A", o.A, "must be a signal")
	}
	return c.gather(o.A, o.X, o.Y, o.AIdx, o.XIdx, o.YIdx)
}

func (c *checker) DotInc(ops []*ir.DotInc) error {
	o := ops[0]
	if err := first(func() error { return c.sig("A", o.A) }, func() error { return c.sig("X", o.X) },
		func() error { return c.sig("Y", o.Y) }, func() error { return c.opt("Bias", o.Bias) }); err != nil {
		return err
	}
	if err := c.sizes("A", o.A, c.size(o.Y)*c.size(o.X)); err != nil {
		return err
	}
	if o.Bias != ir.None {
		return c.sizes("Bias", o.Bias, c.size(o.Y))
	}
	return nil
}

func (c *checker) SparseDotInc(ops []*ir.SparseDotInc) error {
	o := ops[0]
	if err := first(func() error { return c.sig("A", o.A) }, func() error { return c.sig("X", o.X) }, func() error { return c.sig("Y", o.Y) }); err != nil {
		return err
	}
	if len(o.RowPtr) != c.size(o.Y)+1 {
		return c.fail("RowPtr", len(o.RowPtr), fmt.Sprintf("must have Size(Y)+1 = %d entries", c.size(o.Y)+1))
	}
	if len(o.Col) != c.size(o.A) || o.RowPtr[0] != 0 || o.RowPtr[len(o.RowPtr)-1] != c.size(o.A) {
		return c.fail("Col", len(o.Col), fmt.Sprintf("must give the column of each of A's %d values, RowPtr running from 0 to %d", c.size(o.A), c.size(o.A)))
	}
	for i := 1; i < len(o.RowPtr); i++ {
		if o.RowPtr[i] < o.RowPtr[i-1] {
			return c.fail(fmt.Sprintf("RowPtr[%d]", i), o.RowPtr[i], "must not decrease")
		}
	}
	return c.indices("Col", o.Col, o.X)
}

func (c *checker) TimeUpdate(ops []*ir.TimeUpdate) error {
	o := ops[0]
	if err := first(func() error { return c.sig("Step", o.Step) }, func() error { return c.sig("Time", o.Time) }); err != nil {
		return err
	}
	return first(func() error { return c.sizes("Step", o.Step, 1) }, func() error { return c.sizes("Time", o.Time, 1) })
}

func (c *checker) SimNeurons(ops []*ir.SimNeurons) error {
	o := ops[0]
	if o.Neuron == nil {
		return c.fail("Neuron", nil, "must be a neuron type")
	}
	if err := first(func() error { return c.sig("J", o.J) }, func() error { return c.sig("Out", o.Out) }); err != nil {
		return err
	}
	n := c.size(o.J)
	if err := c.sizes("Out", o.Out, n); err != nil {
		return err
	}
	if len(o.StateNames) != len(o.State) {
		return c.fail("StateNames", len(o.StateNames), fmt.Sprintf("must name the %d state signals", len(o.State)))
	}
	for k, s := range o.State {
		f := fmt.Sprintf("State[%d]", k)
		if err := first(func() error { return c.sig(f, s) }, func() error { return c.sizes(f, s, n) }); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) SimSynapse(ops []*ir.SimSynapse) error {
	o := ops[0]
	if o.Synapse == nil {
		return c.fail("Synapse", nil, "must be a synapse")
	}
	if err := first(func() error { return c.sig("X", o.X) }, func() error { return c.sig("Y", o.Y) }); err != nil {
		return err
	}
	return c.sizes("Y", o.Y, c.size(o.X))
}

func (c *checker) SimProcess(ops []*ir.SimProcess) error {
	o := ops[0]
	if o.Process == nil {
		return c.fail("Process", nil, "must be a process")
	}
	return first(func() error { return c.sig("Y", o.Y) }, func() error { return c.opt("X", o.X) })
}

func (c *checker) SimNodeFunc(ops []*ir.SimNodeFunc) error {
	o := ops[0]
	fns := 0
	for _, set := range []bool{o.TimeFn != nil, o.NodeFn != nil, o.Fn != nil} {
		if set {
			fns++
		}
	}
	if fns != 1 {
		return c.fail("TimeFn/NodeFn/Fn", fns, "exactly one must be set")
	}
	if err := first(func() error { return c.opt("Y", o.Y) }, func() error { return c.opt("X", o.X) }); err != nil {
		return err
	}
	if o.X != ir.None {
		return c.indices("XIdx", o.XIdx, o.X)
	}
	return nil
}

func (c *checker) SimLayer(ops []*ir.SimLayer) error {
	o := ops[0]
	if o.Layer == nil {
		return c.fail("Layer", nil, "must be a layer")
	}
	if err := first(func() error { return c.sig("X", o.X) }, func() error { return c.sig("Y", o.Y) }); err != nil {
		return err
	}
	if err := first(func() error { return c.sizes("X", o.X, layers.Size(o.Layer.InShape())) },
		func() error { return c.sizes("Y", o.Y, layers.Size(o.Layer.OutShape())) }); err != nil {
		return err
	}
	ps := o.Layer.Params()
	if len(o.Params) != len(ps) {
		return c.fail("Params", len(o.Params), fmt.Sprintf("must hold the layer's %d parameters", len(ps)))
	}
	for k, s := range o.Params {
		f := fmt.Sprintf("Params[%d]", k)
		if err := first(func() error { return c.sig(f, s) }, func() error { return c.sizes(f, s, len(ps[k].Value)) }); err != nil {
			return err
		}
	}
	return nil
}

// rule checks a learning rule's signals and that delta is rows×cols.
func (c *checker) rule(sigs map[string]int, delta string, rows, cols string) error {
	for _, f := range []string{"Pre", "Post", "Acts", "Error", "Theta", "Weights", "Encoders", "Learning", "Scale", "P", "X", "Delta"} {
		if s, ok := sigs[f]; ok {
			if err := c.sig(f, s); err != nil {
				return err
			}
		}
	}
	return c.sizes(delta, sigs[delta], c.size(sigs[rows])*c.size(sigs[cols]))
}

func (c *checker) SimPES(ops []*ir.SimPES) error {
	o := ops[0]
	return c.rule(map[string]int{"Acts": o.Acts, "Error": o.Error, "Delta": o.Delta}, "Delta", "Error", "Acts")
}

func (c *checker) SimBCM(ops []*ir.SimBCM) error {
	o := ops[0]
	if err := c.rule(map[string]int{"Pre": o.Pre, "Post": o.Post, "Theta": o.Theta, "Delta": o.Delta}, "Delta", "Post", "Pre"); err != nil {
		return err
	}
	return c.sizes("Theta", o.Theta, c.size(o.Post))
}

func (c *checker) SimOja(ops []*ir.SimOja) error {
	o := ops[0]
	if err := c.rule(map[string]int{"Pre": o.Pre, "Post": o.Post, "Weights": o.Weights, "Delta": o.Delta}, "Delta", "Post", "Pre"); err != nil {
		return err
	}
	return c.sizes("Weights", o.Weights, c.size(o.Delta))
}

func (c *checker) SimVoja(ops []*ir.SimVoja) error {
	o := ops[0]
	sigs := map[string]int{"X": o.X, "Post": o.Post, "Encoders": o.Encoders, "Delta": o.Delta, "Learning": o.Learning, "Scale": o.Scale}
	if err := c.rule(sigs, "Delta", "Post", "X"); err != nil {
		return err
	}
	return first(func() error { return c.sizes("Encoders", o.Encoders, c.size(o.Delta)) },
		func() error { return c.sizes("Learning", o.Learning, 1) }, func() error { return c.sizes("Scale", o.Scale, c.size(o.Post)) })
}

func (c *checker) SimRLS(ops []*ir.SimRLS) error {
	o := ops[0]
	if err := c.rule(map[string]int{"Pre": o.Pre, "Error": o.Error, "P": o.P, "Delta": o.Delta}, "Delta", "Error", "Pre"); err != nil {
		return err
	}
	return c.sizes("P", o.P, c.size(o.Pre)*c.size(o.Pre))
}

func (c *checker) DotIncPES(ops []*ir.DotIncPES) error {
	return c.fail("type", "DotIncPES", "is made by the optimiser; a graph lists the builder's operators")
}

func (c *checker) EnsembleReLU(ops []*ir.EnsembleReLU) error {
	return c.fail("type", "EnsembleReLU", "is made by the optimiser; a graph lists the builder's operators")
}
