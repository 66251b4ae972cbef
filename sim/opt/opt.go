package opt

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// Optimizations selects the passes of the graph optimizer that runs
// between building a model and executing it (the NengoDL paper, §4.2). Every pass
// keeps the simulation's output bit for bit: the tests compare every
// parity model with and without each pass.
type Optimizations struct {
	// Simplify removes a Reset whose signal is then fully written by a
	// single increment (the increment sets it instead), temporaries that
	// only carry one operator's output into a copy (the operator writes
	// the copy's destination directly), multiplications by a constant
	// one (the NengoDL paper, §4.2.4), and operators whose outputs nothing reads
	// or probes (dead code).
	Simplify bool
	// Merge plans the operators into groups of one kind that do not
	// depend on each other (see Planner) and runs each group as one loop: copies and
	// element-wise products as runs over contiguous memory, dot products
	// as a block list, neurons and synapses of one type as one call
	// (the NengoDL paper, §4.2.1–4.2.2).
	Merge bool
	// Sort lays the signals out so that the members of merged groups read
	// and write adjacent memory in member order (the NengoDL paper, §4.2.3,
	// Algorithms 1 and 2 in spirit: the largest groups are placed first,
	// later groups reorder their members by what is placed).
	Sort bool
	// Planner chooses how Merge orders and groups the operators (the
	// NengoDL paper, §4.2.2; every planner keeps each signal's set → increments →
	// reads → update order and the order of increments of one element,
	// so all give the same output):
	//
	//   - "" or "level": all ready operators are scheduled at once, one
	//     group per merge key and dependency level (the default);
	//   - "greedy": NengoDL's greedy planner — of the ready operators,
	//     the largest group of one key is scheduled next, the rest wait;
	//   - "tree": a bounded breadth-first search over the next TreeDepth
	//     groups (default 3): the first group of the plan that schedules
	//     the most operators in TreeDepth steps is scheduled (depth 1 is
	//     "greedy");
	//   - "transitive": each operator, in dependency order, joins the
	//     earliest group of its key that follows every group holding one
	//     of its ancestors (the transitive closure of its dependencies,
	//     after Gosmann & Eliasmith), or opens a new group right there.
	Planner string
	// TreeDepth is the "tree" planner's search depth (0: 3).
	TreeDepth int
	// Sorter chooses how Sort lays the signals out: "" or "groups" (the
	// default: merged groups, the largest first, place their members'
	// signals one after the other, each group first reordering its
	// members by what is already placed) or "metablock" (the NengoDL paper's
	// Algorithms 1 and 2: meta-blocks ordered so that the largest read
	// blocks are contiguous, then settling passes; sortsig.go).
	Sorter string
}

// Sorters lists the names Optimizations.Sorter accepts.
var Sorters = []string{"groups", "metablock"}

// Planners lists the planner names Optimizations.Planner accepts.
var Planners = []string{"level", "greedy", "tree", "transitive"}

// AllOptimizations switches every pass on; it is the default.
func All() Optimizations {
	return Optimizations{Simplify: true, Merge: true, Sort: true}
}

// String lists the passes that are on.
func (o Optimizations) String() string {
	var on []string
	if o.Simplify {
		on = append(on, "simplify")
	}
	if o.Merge {
		on = append(on, "merge")
	}
	if o.Sort {
		on = append(on, "sort")
	}
	if len(on) == 0 {
		return "none"
	}
	if o.Sort && o.Sorter != "" && o.Sorter != "groups" {
		on = append(on, o.Sorter)
	}
	if o.Merge && o.Planner != "" && o.Planner != "level" {
		p := o.Planner
		if p == "tree" && o.TreeDepth > 0 && o.TreeDepth != 3 {
			p += fmt.Sprint(o.TreeDepth)
		}
		on = append(on, p)
	}
	return strings.Join(on, "+")
}

// group is a set of operators of one kind, independent of each other,
// that run as one step (a merged operator).
type group struct {
	ops []ir.Op
}

// Plan describes what the optimizer made of a model.
type Plan struct {
	Optimizations Optimizations
	// Operators is the number of operators before and after simplification.
	Operators, Simplified int
	// Dead counts the operators simplification removed because no
	// operator reads and no probe records anything they write.
	Dead int
	// Groups is the number of merged operators executed per step.
	Groups int
	// Contiguous counts the neuron and synapse groups that run as a
	// single call over adjacent memory (after sorting).
	Contiguous, Scattered int
	// ReadBlocks counts the slots of merged groups (one signal per
	// member: inputs, outputs, weights) and InOrder those whose signals
	// are adjacent and in member order, one contiguous read; the Bytes
	// versions weigh them by their size (what sorting optimises).
	ReadBlocks, InOrder          int
	ReadBlockBytes, InOrderBytes int64
	// BytesPerStep is the memory a step touches at least once: every
	// signal an operator reads, sets, increments or updates, counted once
	// per signal (8 bytes a value). Divided by the step time it gives the
	// bandwidth the simulation draws (the roofline figure of the bench).
	BytesPerStep int64
}

// String summarises the plan.
func (p Plan) String() string {
	return fmt.Sprintf("optimizer %s: %d operators, %d after simplification (%d dead), %d merged groups per step (%d contiguous, %d scattered neuron/synapse groups; %d of %d read blocks in order, %.0f %% of their bytes)",
		p.Optimizations, p.Operators, p.Simplified, p.Dead, p.Groups, p.Contiguous, p.Scattered, p.InOrder, p.ReadBlocks, 100*float64(p.InOrderBytes)/max(1, float64(p.ReadBlockBytes)))
}

// Signal is what the optimiser knows of a signal: its size, its initial
// value (nil: zeros; a constant's value decides some simplifications)
// and its offset in the store (sorting assigns new ones).
type Signal struct {
	Size int
	Init []float64
	Off  int
}

// Model is the optimiser's input: a built model's signals, its
// operators in the builder's execution order, the time and step signals,
// and the signals seen from outside the step (probed, and node outputs a
// simulator may feed).
type Model struct {
	Signals    []Signal
	Ops        []ir.Op
	Time, Step int
	Probed     []int
	Outputs    []int
}

// Result is the optimiser's output: the merged groups in execution
// order (each one or more operators of one type, copies of Model.Ops the
// passes rewrote), every signal's offset and the store size after
// sorting, and the plan's summary.
type Result struct {
	Groups [][]ir.Op
	Offs   []int
	Size   int
	Plan   Plan
}

// Optimize runs the passes o selects on m (which it does not change).
// Every combination of passes gives the same simulation output bit for
// bit.
func Optimize(m *Model, o Optimizations) (*Result, error) {
	g := &graph{Ops: m.Ops, timeSig: m.Time, stepSig: m.Step}
	for _, sg := range m.Signals {
		g.sigs = append(g.sigs, signal{n: sg.Size, init: sg.Init, off: sg.Off})
		g.size = max(g.size, sg.Off+sg.Size)
	}
	for _, p := range m.Probed {
		g.Probes = append(g.Probes, probe{sig: p})
	}
	for _, n := range m.Outputs {
		g.nodeOut = append(g.nodeOut, nodeOut{sig: n})
	}
	if err := g.optimize(o); err != nil {
		return nil, err
	}
	r := &Result{Offs: make([]int, len(g.sigs)), Size: g.size, Plan: g.plan}
	for i, sg := range g.sigs {
		r.Offs[i] = sg.off
	}
	for _, gr := range g.groups {
		r.Groups = append(r.Groups, gr.ops)
	}
	return r, nil
}

// graph is the optimiser's working copy of a model.
type graph struct {
	Ops              []ir.Op
	sigs             []signal
	Probes           []probe
	nodeOut          []nodeOut
	timeSig, stepSig int
	size             int
	groups           []*group
	plan             Plan
}

type signal struct {
	n    int
	init []float64
	off  int
}

type probe struct{ sig int }

type nodeOut struct{ sig int }

// optimize plans m.Ops into m.groups and, with Sort, lays the signals out
// anew. m.Ops itself stays the builder's operator list.
func (m *graph) optimize(o Optimizations) error {
	ops := make([]ir.Op, len(m.Ops))
	for i, op := range m.Ops {
		// the passes rewrite operators in place: the copies own their
		// index lists, so m.Ops (and Graph) keep the builder's operators
		c := op.Clone()
		c.Info().Order = i
		ops[i] = c
	}
	m.plan = Plan{Optimizations: o, Operators: len(ops)}
	if o.Simplify {
		ops = m.simplify(ops)
	}
	m.plan.Simplified = len(ops)
	var groups []*group
	if o.Merge {
		var err error
		fused := ops
		if o.Simplify {
			fused = m.fuseEnsembles(m.fuseDecodeLearn(ops))
		}
		groups, err = m.planGroups(fused, o.Planner, o.TreeDepth)
		if err != nil && len(fused) != len(ops) && !strings.Contains(err.Error(), "Planner =") {
			// a fused decode + update sat on a cycle (the rule's inputs
			// depend on the decoded output within the step): plan unfused
			groups, err = m.planGroups(ops, o.Planner, o.TreeDepth)
		} else if err == nil {
			m.plan.Simplified = len(fused)
		}
		if err != nil {
			return err
		}
	} else {
		for _, op := range ops {
			groups = append(groups, &group{ops: []ir.Op{op}})
		}
	}
	if o.Sort {
		switch o.Sorter {
		case "", "groups":
			m.layout(groups)
		case "metablock":
			m.layoutOrder(m.metaLayout(groups))
		default:
			return fmt.Errorf("opt: Sorter = %q: want one of %s", o.Sorter, strings.Join(Sorters, ", "))
		}
	}
	m.groups = groups
	m.plan.Groups = len(groups)
	touched := make([]bool, len(m.sigs))
	for _, op := range ops {
		b := op.Info()
		for _, l := range [][]int{b.Reads, b.Sets, b.Incs, b.Updates} {
			for _, s := range l {
				if !touched[s] {
					touched[s] = true
					m.plan.BytesPerStep += 8 * int64(m.sigs[s].n)
				}
			}
		}
	}
	for _, g := range groups {
		if len(g.ops) < 2 {
			continue
		}
		for k := range Slots(g.ops[0]) {
			var bytes int64
			ordered := true
			end := -1
			for i, op := range g.ops {
				sl := Slots(op)
				if len(sl) <= k || sl[k] < 0 {
					ordered = false
					break
				}
				sg := m.sigs[sl[k]]
				bytes += 8 * int64(sg.n)
				if i > 0 && sg.off != end {
					ordered = false
				}
				end = sg.off + sg.n
			}
			m.plan.ReadBlocks++
			m.plan.ReadBlockBytes += bytes
			if ordered {
				m.plan.InOrder++
				m.plan.InOrderBytes += bytes
			}
		}
	}
	for _, g := range groups {
		if len(g.ops) < 2 || !neuronsOrSynapses(g) {
			continue
		}
		if m.contiguousSlots(g) {
			m.plan.Contiguous++
		} else {
			m.plan.Scattered++
		}
	}
	return nil
}

// ------------------------------------------------------------ simplify

// identityIdx reports whether idx lists all n elements of a signal in
// order.
func identityIdx(idx []int, n int) bool {
	if idx == nil || len(idx) != n {
		return false
	}
	for i, k := range idx {
		if k != i {
			return false
		}
	}
	return true
}

// neuronsOrSynapses reports whether g merges neurons or synapses.
func neuronsOrSynapses(g *group) bool {
	switch g.ops[0].(type) {
	case *ir.SimNeurons, *ir.SimSynapse:
		return true
	}
	return false
}

// writesIdx returns the element indices of its output that op writes
// (nil: all).
func writesIdx(op ir.Op) []int {
	if f, ok := fieldsOf(op); ok {
		return *f.yIdx
	}
	return nil
}

// fields points at the operands of a copy or an element-wise product,
// which the simplifications rewrite alike (a is nil for a copy).
type fields struct {
	x, y, a          *int
	xIdx, yIdx, aIdx *[]int
}

func fieldsOf(op ir.Op) (fields, bool) {
	switch o := op.(type) {
	case *ir.Copy:
		return fields{x: &o.X, y: &o.Y, xIdx: &o.XIdx, yIdx: &o.YIdx}, true
	case *ir.ElementwiseInc:
		return fields{x: &o.X, y: &o.Y, a: &o.A, xIdx: &o.XIdx, yIdx: &o.YIdx, aIdx: &o.AIdx}, true
	}
	return fields{}, false
}

// simplify applies the simplifications of Optimizations.Simplify until
// none applies.
func (m *graph) simplify(ops []ir.Op) []ir.Op {
	observed := map[int]bool{m.timeSig: true, m.stepSig: true}
	for _, p := range m.Probes {
		observed[p.sig] = true
	}
	for _, no := range m.nodeOut {
		observed[no.sig] = true
	}
	for changed := true; changed; {
		changed = false
		idx := signalUsers(len(m.sigs), ops)
		constant := func(s int) bool {
			return len(idx.sets[s]) == 0 && len(idx.incs[s]) == 0 && len(idx.ups[s]) == 0
		}
		// constant multiplications by one: ElementwiseInc by a constant
		// scalar 1 is a copy (1·x == x exactly)
		for i, op := range ops {
			e, ok := op.(*ir.ElementwiseInc)
			if ok && e.AIdx == nil && m.sigs[e.A].n == 1 && constant(e.A) &&
				m.sigs[e.A].init != nil && m.sigs[e.A].init[0] == 1 {
				c := &ir.Copy{Base: e.Base, X: e.X, Y: e.Y, XIdx: e.XIdx, YIdx: e.YIdx, Inc: !e.Set}
				c.Reads = []int{e.X}
				ops[i] = c
				changed = true
			}
		}
		idx = signalUsers(len(m.sigs), ops)
		// Reset(0) followed by one increment that writes all of the
		// signal: the increment sets it (0 + v == v)
		drop := map[ir.Op]bool{}
		// prune removes the operators dropped since its last call and,
		// with reindex, rebuilds the signal index (only when something
		// was dropped: the rules below run in order on the same map)
		pruned := 0
		prune := func(reindex bool) {
			if len(drop) == pruned {
				return
			}
			pruned = len(drop)
			ops = slices.DeleteFunc(ops, func(op ir.Op) bool { return drop[op] })
			if reindex {
				idx = signalUsers(len(m.sigs), ops)
			}
		}
		for _, op := range ops {
			r, ok := op.(*ir.Reset)
			if !ok || r.Value != 0 || drop[r] {
				continue
			}
			y := r.Y
			if observed[y] || len(idx.sets[y]) != 1 || len(idx.incs[y]) == 0 || len(idx.ups[y]) != 0 {
				continue
			}
			first := idx.incs[y][0]
			for _, c := range idx.incs[y] {
				if c.Info().Order < first.Info().Order {
					first = c
				}
			}
			if !canSet(first) || writesIdx(first) != nil || len(first.Info().Incs) != 1 {
				continue
			}
			drop[r] = true
			toSet(first)
			changed = true
		}
		prune(true)
		// a temporary t set by P and only read by a whole copy C into y:
		// P writes y directly, in C's mode
		for _, op := range ops {
			c, ok := op.(*ir.Copy)
			if !ok || drop[c] {
				continue
			}
			t := c.X
			if observed[t] || len(idx.sets[t]) != 1 || len(idx.incs[t]) != 0 || len(idx.reads[t]) != 1 || len(idx.ups[t]) != 0 {
				continue
			}
			p := idx.sets[t][0]
			if drop[p] || len(p.Info().Sets) != 1 || len(p.Info().Incs) != 0 || p == ir.Op(c) {
				continue
			}
			sets, incs := p.Info().Sets, p.Info().Incs
			if !fuseInto(m, p, c) {
				continue
			}
			drop[c] = true
			changed = true
			// the index follows the fusion in place: rebuilding it after
			// every fusion was quadratic in the operators (cconv and
			// basal_ganglia builds +0.5–0.8 s)
			idx.drop(c)
			idx.move(p, sets, incs)
		}
		prune(true)
		// a constant copied into y (J = bias) that one dot product then
		// increments (J += E·x): the product sets y = bias + E·x
		for _, op := range ops {
			c, ok := op.(*ir.Copy)
			if !ok || c.Inc || c.XIdx != nil || c.YIdx != nil || drop[c] || !constant(c.X) {
				continue
			}
			y := c.Y
			if len(idx.incs[y]) != 1 || len(idx.ups[y]) != 0 || len(idx.sets[y]) != 1 || m.sigs[c.X].n != m.sigs[y].n {
				continue
			}
			dd, ok := idx.incs[y][0].(*ir.DotInc)
			if !ok || dd.Set || dd.Bias >= 0 || len(dd.Incs) != 1 || drop[dd] {
				continue
			}
			dd.Bias, dd.Set = c.X, true
			dd.Sets, dd.Incs = []int{y}, nil
			dd.Reads = append(slices.Clone(dd.Reads), c.X)
			dd.Tag = c.Tag + " + " + dd.Tag
			drop[c] = true
			changed = true
		}
		prune(true)
		// PES's delta only added to the weights by a copy (next step):
		// PES adds to the weights itself at the end of its step, one pass
		// over the weights instead of three (the weights are read by the
		// decoder before the update either way, so every output is the
		// same; not when the weights or delta are probed, whose values
		// would be a step ahead)
		for _, op := range ops {
			p, ok := op.(*ir.SimPES)
			if !ok || p.InPlace || drop[p] || observed[p.Delta] || len(idx.reads[p.Delta]) != 1 {
				continue
			}
			c, ok := idx.reads[p.Delta][0].(*ir.Copy)
			if !ok {
				continue
			}
			w := c.Y
			if !c.Inc || c.XIdx != nil || c.YIdx != nil || drop[c] || observed[w] ||
				len(idx.incs[w]) != 1 || len(idx.sets[w]) != 0 || len(idx.ups[w]) != 0 || m.sigs[w].n != m.sigs[p.Delta].n {
				continue
			}
			p.Delta, p.InPlace = w, true
			p.Updates = []int{w}
			p.Tag += " (weights updated in place)"
			drop[c] = true
			changed = true
		}
		prune(true)
		// a temporary t gathered by a copy P (t = x[px]) and read only as
		// the source of one copy or element-wise product C: C gathers from
		// x directly
		for _, op := range ops {
			p, ok := op.(*ir.Copy)
			if !ok || p.Inc || p.YIdx != nil || drop[p] {
				continue
			}
			t := p.Y
			if observed[t] || len(idx.sets[t]) != 1 || len(idx.incs[t]) != 0 || len(idx.reads[t]) != 1 || len(idx.ups[t]) != 0 {
				continue
			}
			c := idx.reads[t][0]
			cf, ok := fieldsOf(c)
			if drop[c] || c == ir.Op(p) || !ok || *cf.x != t || (cf.a != nil && *cf.a == t) {
				continue
			}
			gatherFrom(m, p, c)
			drop[p] = true
			changed = true
		}
		prune(true)
		// dead code: a reset, copy or product whose every output is read
		// by no operator and recorded by no probe can never be seen (an
		// EnsembleArray's default output that nothing connects to: the
		// basal ganglia and the circular convolution decode it every
		// step in Nengo). Node outputs count as unobserved here: a node
		// output nobody reads or probes is only ever overwritten (Feed).
		// Removing the last reader of a signal makes its producers dead
		// in the next round.
		for _, op := range ops {
			switch op.(type) {
			case *ir.Reset, *ir.Copy, *ir.DotInc, *ir.ElementwiseInc:
			default:
				continue
			}
			b := op.Info()
			if len(b.Updates) > 0 || len(b.Sets)+len(b.Incs) == 0 {
				continue
			}
			dead := true
			for _, w := range [][]int{b.Sets, b.Incs} {
				for _, s := range w {
					if s == m.timeSig || s == m.stepSig || m.probed(s) || len(idx.reads[s]) > 0 || len(idx.ups[s]) > 0 {
						dead = false
					}
				}
			}
			if dead {
				drop[op] = true
				changed = true
				m.plan.Dead++
			}
		}
		prune(false)
	}
	return ops
}

// probed reports whether a probe records signal s.
func (m *graph) probed(s int) bool {
	for _, p := range m.Probes {
		if p.sig == s {
			return true
		}
	}
	return false
}

// gatherFrom makes c read p's source directly: c read t[cx[k]] where p set
// t[i] = x[px[i]].
func gatherFrom(m *graph, p *ir.Copy, c ir.Op) {
	cf, _ := fieldsOf(c)
	t := *cf.x
	k := m.sigs[*cf.y].n // elements c writes
	if *cf.yIdx != nil {
		k = len(*cf.yIdx)
	}
	cx := make([]int, k)
	for j := range k {
		ti := j
		if *cf.xIdx != nil {
			ti = (*cf.xIdx)[j]
		}
		cx[j] = ti
		if p.XIdx != nil {
			cx[j] = p.XIdx[ti]
		}
	}
	*cf.xIdx = cx
	*cf.x = p.X
	reads := c.Info().Reads
	for i, r := range reads {
		if r == t {
			reads[i] = p.X
		}
	}
}

// fuseDecodeLearn returns ops with every decoder product D whose weights
// W only it reads and a PES rule P updates in place (see simplify) fused
// into one operator, "DotIncPES": per row, y_i (+)= W_i·x, then
// W_i += α·e_i·acts — the weights stream through memory once per step
// instead of twice. D reads W before P updates it either way, so outputs
// are identical. The planner rejects the fusion (and the caller plans
// without it) when P's inputs depend on D's output within the step. The
// ops are copied, ops itself is unchanged.
func (m *graph) fuseDecodeLearn(ops []ir.Op) []ir.Op {
	idx := signalUsers(len(m.sigs), ops)
	var out []ir.Op
	drop := map[ir.Op]bool{}
	repl := map[ir.Op]ir.Op{}
	for _, op := range ops {
		p, ok := op.(*ir.SimPES)
		if !ok || !p.InPlace {
			continue
		}
		w := p.Delta
		if len(idx.reads[w]) != 1 || len(idx.incs[w]) != 0 || len(idx.sets[w]) != 0 || len(idx.ups[w]) != 1 {
			continue
		}
		d, ok := idx.reads[w][0].(*ir.DotInc)
		if !ok || d.A != w || d.X == w || m.sigs[d.Y].n != m.sigs[p.Error].n || m.sigs[d.X].n != m.sigs[p.Acts].n {
			continue
		}
		f := &ir.DotIncPES{DotInc: *d.Clone().(*ir.DotInc), Acts: p.Acts, Error: p.Error, LearningRate: p.LearningRate}
		f.Tag = d.Tag + " + " + p.Tag
		f.Reads = append(slices.Clone(d.Reads), p.Acts, p.Error)
		f.Updates = []int{w}
		repl[d] = f
		drop[p] = true
	}
	if len(drop) == 0 {
		return ops
	}
	for _, op := range ops {
		if drop[op] {
			continue
		}
		if f := repl[op]; f != nil {
			op = f
		}
		out = append(out, op)
	}
	return out
}

// fuseEnsembles fuses, for every rectified-linear ensemble whose input
// current J and output are read by nothing but its own neurons and
// decoders (and probed by nothing), the encoder product (J = bias + E·x),
// the neurons (a = amp·max(J, 0)) and its decoder products (y (+)= D·a)
// into one operator, "EnsembleReLU": per ensemble the currents and rates
// live in a scratch buffer in cache instead of two signals, and three
// merged groups become one. The arithmetic is the same, in the same
// order, so outputs are identical. Returns copies; ops is unchanged.
func (m *graph) fuseEnsembles(ops []ir.Op) []ir.Op {
	observed := map[int]bool{}
	for _, p := range m.Probes {
		observed[p.sig] = true
	}
	idx := signalUsers(len(m.sigs), ops)
	drop := map[ir.Op]bool{}
	repl := map[ir.Op]ir.Op{}
	for _, op := range ops {
		e, ok := op.(*ir.DotInc)
		if !ok || e.Bias < 0 || !e.Set || drop[e] {
			continue
		}
		J := e.Y
		if observed[J] || len(idx.reads[J]) != 1 || len(idx.incs[J]) != 0 || len(idx.ups[J]) != 0 || len(idx.sets[J]) != 1 {
			continue
		}
		n, ok := idx.reads[J][0].(*ir.SimNeurons)
		if !ok {
			continue
		}
		relu, ok := n.Neuron.(neurons.RectifiedLinear)
		if !ok || len(n.State) != 0 || n.J != J || relu.Validate() != nil || drop[n] {
			continue
		}
		out := n.Out
		if observed[out] || len(idx.sets[out]) != 1 || len(idx.incs[out]) != 0 || len(idx.ups[out]) != 0 || len(idx.reads[out]) == 0 {
			continue
		}
		var decs []*ir.DotInc
		okDec := true
		for _, dop := range idx.reads[out] {
			// each decoder must be the only writer of its output, so the
			// fused operator cannot reorder a sum
			d, ok := dop.(*ir.DotInc)
			if !ok || d.X != out || d.A == out || drop[d] || repl[d] != nil ||
				len(idx.sets[d.Y])+len(idx.incs[d.Y]) != 1 || len(idx.ups[d.Y]) != 0 {
				okDec = false
				break
			}
			decs = append(decs, d)
		}
		if !okDec {
			continue
		}
		f := &ir.EnsembleReLU{Base: ir.Base{Tag: n.Tag + " (encoders, neurons, decoders fused)", Order: e.Order},
			A: e.A, X: e.X, Bias: e.Bias, Amplitude: relu.Amplitude, Neuron: n.Neuron}
		f.Reads = append(f.Reads, e.Reads...)
		for _, d := range decs {
			f.Decoders = append(f.Decoders, d.Clone().(*ir.DotInc))
			for _, r := range d.Reads {
				if r != out {
					f.Reads = append(f.Reads, r)
				}
			}
			f.Sets = append(f.Sets, d.Sets...)
			f.Incs = append(f.Incs, d.Incs...)
			drop[d] = true
		}
		repl[e] = f
		drop[n] = true
	}
	if len(repl) == 0 {
		return ops
	}
	var res []ir.Op
	for _, op := range ops {
		if f := repl[op]; f != nil {
			res = append(res, f)
			continue
		}
		if !drop[op] {
			res = append(res, op)
		}
	}
	return res
}

// canSet reports whether op can write its output instead of adding to it.
func canSet(op ir.Op) bool {
	switch op.(type) {
	case *ir.Copy, *ir.ElementwiseInc, *ir.DotInc:
		return true
	}
	return false
}

// toSet turns an increment into a set.
func toSet(op ir.Op) {
	b := op.Info()
	b.Sets, b.Incs = b.Incs, nil
	setMode(op, true)
}

// setMode makes a copy, element-wise or dense product write its output
// (set) or add to it.
func setMode(op ir.Op, set bool) {
	switch o := op.(type) {
	case *ir.Copy:
		o.Inc = !set
	case *ir.ElementwiseInc:
		o.Set = set
	case *ir.DotInc:
		o.Set = set
	default:
		panic(fmt.Sprintf("opt: setMode of %s", op))
	}
}

// fuseInto makes p (which sets the temporary c.x) write c's destination
// directly and reports whether it could.
func fuseInto(m *graph, p ir.Op, c *ir.Copy) bool {
	t := c.X
	n := m.sigs[t].n
	pf, gathers := fieldsOf(p)
	switch p.(type) {
	case *ir.DotInc:
		if c.XIdx != nil || c.YIdx != nil || m.sigs[c.Y].n != n {
			return false
		}
	case *ir.Copy, *ir.ElementwiseInc:
		if *pf.yIdx != nil {
			return false
		}
	default:
		return false
	}
	// compose the index maps: c writes y[cy[k]] from t[cx[k]], and p
	// wrote t[i] from x[px[i]] (and a[pa[i]])
	k := m.sigs[c.Y].n
	if c.YIdx != nil {
		k = len(c.YIdx)
	}
	if gathers {
		var px, pa, yi []int
		need := c.XIdx != nil || c.YIdx != nil || *pf.xIdx != nil || (pf.aIdx != nil && *pf.aIdx != nil)
		if need {
			px = make([]int, k)
			yi = make([]int, k)
			if pf.a != nil {
				pa = make([]int, k)
			}
			for j := range k {
				ti := j
				if c.XIdx != nil {
					ti = c.XIdx[j]
				}
				yi[j] = j
				if c.YIdx != nil {
					yi[j] = c.YIdx[j]
				}
				px[j] = ti
				if *pf.xIdx != nil {
					px[j] = (*pf.xIdx)[ti]
				}
				if pa != nil {
					switch {
					case *pf.aIdx != nil:
						pa[j] = (*pf.aIdx)[ti]
					case m.sigs[*pf.a].n == 1:
						pa[j] = 0
					default:
						pa[j] = ti
					}
				}
			}
			// maps that list every element in order are dropped: the
			// whole signal (a fused one-dimensional y[[0]]) can then take
			// part in the gather rule (the integrator's input copies)
			if identityIdx(px, m.sigs[*pf.x].n) {
				px = nil
			}
			if identityIdx(yi, m.sigs[c.Y].n) {
				yi = nil
			}
			if pa != nil && identityIdx(pa, m.sigs[*pf.a].n) {
				pa = nil
			}
			*pf.xIdx, *pf.yIdx = px, yi
			if pf.aIdx != nil {
				*pf.aIdx = pa
			}
		}
	}
	switch o := p.(type) {
	case *ir.DotInc:
		o.Y = c.Y
	default:
		*pf.y = c.Y
	}
	b := p.Info()
	b.Order = c.Order // its writes to y take c's place among y's writers
	if c.Inc {
		b.Sets, b.Incs = nil, []int{c.Y}
		setMode(p, false)
	} else {
		b.Sets, b.Incs = []int{c.Y}, nil
		setMode(p, true)
	}
	b.Tag = b.Tag + " → " + c.Tag
	return true
}

type users struct {
	sets, incs, reads, ups [][]ir.Op
}

// drop removes op from every list of u.
func (u users) drop(op ir.Op) {
	del := func(ls [][]ir.Op, sigs []int) {
		for _, s := range sigs {
			ls[s] = slices.DeleteFunc(ls[s], func(o ir.Op) bool { return o == op })
		}
	}
	b := op.Info()
	del(u.sets, b.Sets)
	del(u.incs, b.Incs)
	del(u.reads, b.Reads)
	del(u.ups, b.Updates)
}

// move updates u after op's writes changed from sets and incs to op.Sets
// and op.Incs (its reads and updates unchanged).
func (u users) move(op ir.Op, sets, incs []int) {
	for _, s := range sets {
		u.sets[s] = slices.DeleteFunc(u.sets[s], func(o ir.Op) bool { return o == op })
	}
	for _, s := range incs {
		u.incs[s] = slices.DeleteFunc(u.incs[s], func(o ir.Op) bool { return o == op })
	}
	for _, s := range op.Info().Sets {
		u.sets[s] = append(u.sets[s], op)
	}
	for _, s := range op.Info().Incs {
		u.incs[s] = append(u.incs[s], op)
	}
}

func signalUsers(nsig int, ops []ir.Op) users {
	u := users{make([][]ir.Op, nsig), make([][]ir.Op, nsig), make([][]ir.Op, nsig), make([][]ir.Op, nsig)}
	for _, op := range ops {
		b := op.Info()
		for _, s := range b.Sets {
			u.sets[s] = append(u.sets[s], op)
		}
		for _, s := range b.Incs {
			u.incs[s] = append(u.incs[s], op)
		}
		for _, s := range b.Reads {
			u.reads[s] = append(u.reads[s], op)
		}
		for _, s := range b.Updates {
			u.ups[s] = append(u.ups[s], op)
		}
	}
	return u
}

// ------------------------------------------------------------ planning

// mergeKey returns the key under which op can merge with others ("" if
// it runs alone).
func mergeKey(op ir.Op) string {
	switch o := op.(type) {
	case *ir.Reset:
		return fmt.Sprintf("Reset/%v", o.Value)
	case *ir.Copy:
		return fmt.Sprintf("Copy/%v", o.Inc)
	case *ir.ElementwiseInc:
		return fmt.Sprintf("ElementwiseInc/%v", o.Set)
	case *ir.DotInc:
		return fmt.Sprintf("DotInc/%v/%v", o.Set, o.Bias >= 0)
	case *ir.EnsembleReLU:
		return fmt.Sprintf("EnsembleReLU/%v", o.Amplitude)
	case *ir.SimNeurons:
		name := o.Neuron.Name()
		if strings.Contains(name, "Poisson") || strings.Contains(name, "Stochastic") {
			return "" // draws from its own random stream
		}
		return fmt.Sprintf("SimNeurons/%s/%#v/%s", name, o.Neuron, strings.Join(o.StateNames, ","))
	case *ir.SimSynapse:
		upd := len(o.Updates) > 0
		return fmt.Sprintf("SimSynapse/%v/%T/%#v", upd, o.Synapse, o.Synapse)
	}
	return ""
}

// planGroups orders ops by their dependencies (those of the builder plus
// an order between increments of the same elements, which keeps every
// sum's order) and groups, level by level, all ready operators of one
// merge key (Nengo's greedy planner).
func (m *graph) planGroups(ops []ir.Op, planner string, depth int) ([]*group, error) {
	n := len(ops)
	pos := map[ir.Op]int{}
	for i, op := range ops {
		pos[op] = i
	}
	u := signalUsers(len(m.sigs), ops)
	succ := make([][]int, n)
	indeg := make([]int, n)
	seen := map[[2]int]bool{}
	edge := func(a, c ir.Op) {
		i, j := pos[a], pos[c]
		if i == j || seen[[2]int{i, j}] {
			return
		}
		seen[[2]int{i, j}] = true
		succ[i] = append(succ[i], j)
		indeg[j]++
	}
	for s := range m.sigs {
		for _, a := range u.sets[s] {
			for _, c := range u.incs[s] {
				edge(a, c)
			}
			for _, c := range u.reads[s] {
				edge(a, c)
			}
			for _, c := range u.ups[s] {
				edge(a, c)
			}
		}
		for _, a := range u.incs[s] {
			for _, c := range u.reads[s] {
				edge(a, c)
			}
			for _, c := range u.ups[s] {
				edge(a, c)
			}
		}
		for _, a := range u.reads[s] {
			for _, c := range u.ups[s] {
				edge(a, c)
			}
		}
		// increments of the same element keep their order
		if len(u.incs[s]) > 1 {
			incs := slices.Clone(u.incs[s])
			sort.SliceStable(incs, func(i, j int) bool { return incs[i].Info().Order < incs[j].Info().Order })
			last := make([]ir.Op, m.sigs[s].n)
			for _, op := range incs {
				w := writesIdx(op)
				if w == nil {
					for e := range last {
						if last[e] != nil {
							edge(last[e], op)
						}
						last[e] = op
					}
					continue
				}
				for _, e := range w {
					if last[e] != nil {
						edge(last[e], op)
					}
					last[e] = op
				}
			}
		}
	}
	var groups []*group
	var done int
	switch planner {
	case "", "level":
		groups, done = levelPlan(ops, succ, indeg)
	case "greedy":
		groups, done = treePlan(ops, succ, indeg, 1)
	case "tree":
		if depth <= 0 {
			depth = 3
		}
		groups, done = treePlan(ops, succ, indeg, depth)
	case "transitive":
		groups, done = transitivePlan(ops, succ, indeg)
	default:
		return nil, fmt.Errorf("opt: Planner = %q: want one of %s", planner, strings.Join(Planners, ", "))
	}
	if done != n {
		return nil, fmt.Errorf("opt: dependency cycle after simplification (%d of %d operators planned); build with sim.Optimize(sim.Optimizations{Merge: false})", done, n)
	}
	return groups, nil
}

// levelPlan schedules, level by level, all ready operators, one group
// per merge key.
func levelPlan(ops []ir.Op, succ [][]int, indeg []int) ([]*group, int) {
	n := len(ops)
	var ready []int
	for i := range n {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	var groups []*group
	done := 0
	for len(ready) > 0 {
		sort.Ints(ready)
		byKey := map[string]*group{}
		var level []*group
		for _, i := range ready {
			op := ops[i]
			k := mergeKey(op)
			if k != "" {
				if g := byKey[k]; g != nil {
					g.ops = append(g.ops, op)
					continue
				}
			}
			g := &group{ops: []ir.Op{op}}
			if k != "" {
				byKey[k] = g
			}
			level = append(level, g)
		}
		groups = append(groups, level...)
		var next []int
		for _, i := range ready {
			done++
			for _, j := range succ[i] {
				indeg[j]--
				if indeg[j] == 0 {
					next = append(next, j)
				}
			}
		}
		ready = next
	}
	return groups, done
}

// ------------------------------------------------------------ layout

// Slots returns the signals a group member reads or writes that should be
// adjacent across members, in the group's preferred order.
func Slots(op ir.Op) []int {
	switch o := op.(type) {
	case *ir.SimNeurons:
		return append([]int{o.J, o.Out}, o.State...)
	case *ir.SimSynapse:
		return []int{o.X, o.Y}
	case *ir.DotInc:
		if o.Bias >= 0 {
			return []int{o.Y, o.X, o.A, o.Bias}
		}
		return []int{o.Y, o.X, o.A}
	case *ir.ElementwiseInc:
		return []int{o.Y, o.X, o.A}
	case *ir.Copy:
		return []int{o.Y, o.X}
	case *ir.Reset:
		return []int{o.Y}
	}
	return nil
}

// layout assigns new offsets to the signals (signal sorting): groups are
// visited largest first; a group reorders its members by the first slot
// that is already placed, then places its unplaced slot signals one after
// the other in member order.
func (m *graph) layout(groups []*group) {
	const unplaced = -1
	off := make([]int, len(m.sigs))
	for i := range off {
		off[i] = unplaced
	}
	next := 0
	place := func(s int) {
		if off[s] == unplaced {
			off[s] = next
			next += m.sigs[s].n
		}
	}
	// the time and step signals first, then groups by priority
	place(m.stepSig)
	place(m.timeSig)
	prio := func(g *group) int {
		w := 0
		switch g.ops[0].(type) {
		case *ir.SimNeurons:
			w = 4
		case *ir.SimSynapse:
			w = 3
		case *ir.DotInc:
			w = 2
		case *ir.ElementwiseInc, *ir.Copy:
			w = 1
		}
		return w
	}
	order := slices.Clone(groups)
	sort.SliceStable(order, func(i, j int) bool {
		pi, pj := prio(order[i]), prio(order[j])
		if pi != pj {
			return pi > pj
		}
		return len(order[i].ops) > len(order[j].ops)
	})
	for _, g := range order {
		if len(g.ops) < 2 {
			continue
		}
		nslot := len(Slots(g.ops[0]))
		for k := range nslot {
			all := true
			for _, op := range g.ops {
				if s := Slots(op); len(s) <= k || s[k] < 0 || off[s[k]] == unplaced {
					all = false
					break
				}
			}
			if all {
				sort.SliceStable(g.ops, func(i, j int) bool { return off[Slots(g.ops[i])[k]] < off[Slots(g.ops[j])[k]] })
				break
			}
		}
		for k := range nslot {
			for _, op := range g.ops {
				if s := Slots(op); len(s) > k && s[k] >= 0 {
					place(s[k])
				}
			}
		}
	}
	for i := range m.sigs {
		place(i)
	}
	for i := range m.sigs {
		m.sigs[i].off = off[i]
	}
	m.size = next
}

// layoutOrder assigns new offsets: the step and time signals, then the
// signals of order, then every other signal in index order.
func (m *graph) layoutOrder(order []int) {
	off := make([]int, len(m.sigs))
	for i := range off {
		off[i] = -1
	}
	next := 0
	place := func(s int) {
		if off[s] < 0 {
			off[s] = next
			next += m.sigs[s].n
		}
	}
	place(m.stepSig)
	place(m.timeSig)
	for _, s := range order {
		place(s)
	}
	for i := range m.sigs {
		place(i)
	}
	for i := range m.sigs {
		m.sigs[i].off = off[i]
	}
	m.size = next
}

// contiguousSlots reports whether every slot of the group's members is a
// run of adjacent signals in member order.
func (m *graph) contiguousSlots(g *group) bool {
	return Contiguous(g.ops, func(s int) (int, int) { return m.sigs[s].off, m.sigs[s].n })
}

// Contiguous reports whether, for every slot (Slots), the members' signals
// lie one after the other in member order, span giving a signal's offset
// and size: the group then runs as one call over adjacent memory.
func Contiguous(ops []ir.Op, span func(sig int) (off, n int)) bool {
	nslot := len(Slots(ops[0]))
	for k := range nslot {
		end := -1
		for i, op := range ops {
			s := Slots(op)
			if len(s) <= k {
				return false
			}
			off, n := span(s[k])
			if i > 0 && off != end {
				return false
			}
			end = off + n
		}
	}
	return true
}
