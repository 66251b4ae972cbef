package sim

import (
	"fmt"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"slices"
	"sort"
	"strings"
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
func AllOptimizations() Optimizations {
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

// Ablation is one row of the optimizer ablation (the NengoDL paper, Fig 8): all
// passes with one switched off, plus all and none.
type Ablation struct {
	Name string
	Opt  Optimizations
	// Unroll is the simulator's steps per dispatch (Unroll; 0: 1).
	Unroll int
}

// Ablations returns the ablation rows: "all", the greedy and the tree
// planner in place of the default one, the metablock sorter (Algorithms
// 1 and 2) in place of the default one, all passes with 10 steps per
// dispatch (Unroll), then each pass switched off alone ("no merging", …),
// then "none".
func Ablations() []Ablation {
	all := AllOptimizations()
	noMerge, noSort, noSimplify := all, all, all
	noMerge.Merge = false
	noSort.Sort = false
	noSimplify.Simplify = false
	greedy, tree, meta := all, all, all
	greedy.Planner, tree.Planner, meta.Sorter = "greedy", "tree", "metablock"
	return []Ablation{
		{"all", all, 0},
		{"greedy planner", greedy, 0},
		{"tree planner", tree, 0},
		{"metablock sorter", meta, 0},
		{"unrolled ×10", all, 10},
		{"no merging", noMerge, 0},
		{"no sorting", noSort, 0},
		{"no simplifications", noSimplify, 0},
		{"none", Optimizations{}, 0},
	}
}

// Optimize selects the optimizer passes for Build (default: all on).
// Optimize(Optimizations{}) executes the operators one by one in the
// builder's order, as Nengo's reference simulator does without
// optimisation.
func Optimize(o Optimizations) Option {
	return func(c *config) { c.opt = o; c.optSet = true }
}

// group is a set of operators of one kind, independent of each other,
// that run as one step (a merged operator).
type group struct {
	kind string
	ops  []*Op
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

// Plan returns what the optimizer did to the model.
func (m *Model) Plan() Plan { return m.plan }

// optimize plans m.Ops into m.groups and, with Sort, lays the signals out
// anew. m.Ops itself stays the builder's operator list.
func (m *Model) optimize(o Optimizations) error {
	ops := make([]*Op, len(m.Ops))
	for i, op := range m.Ops {
		c := *op
		c.order = i
		// the passes rewrite index lists in place: the copies own theirs,
		// so m.Ops (and Graph) keep the builder's operators
		c.Sets, c.Incs, c.Reads, c.Updates = slices.Clone(op.Sets), slices.Clone(op.Incs), slices.Clone(op.Reads), slices.Clone(op.Updates)
		c.xIdx, c.yIdx, c.aux = slices.Clone(op.xIdx), slices.Clone(op.yIdx), slices.Clone(op.aux)
		ops[i] = &c
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
			groups = append(groups, &group{kind: op.Kind, ops: []*Op{op}})
		}
	}
	if o.Sort {
		switch o.Sorter {
		case "", "groups":
			m.layout(groups)
		case "metablock":
			m.layoutOrder(m.metaLayout(groups))
		default:
			return fmt.Errorf("sim: optimizer: Sorter = %q: want one of %s", o.Sorter, strings.Join(Sorters, ", "))
		}
	}
	m.groups = groups
	m.plan.Groups = len(groups)
	touched := make([]bool, len(m.sigs))
	for _, op := range ops {
		for _, l := range [][]int{op.Reads, op.Sets, op.Incs, op.Updates} {
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
		for k := range slots(g.ops[0]) {
			var bytes int64
			ordered := true
			end := -1
			for i, op := range g.ops {
				sl := slots(op)
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
		if len(g.ops) < 2 || (g.kind != "SimNeurons" && g.kind != "SimSynapse") {
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

// execGroups returns the plan, or one group per operator for a model
// built before optimisation existed in it (a zero Model is not valid).
func (m *Model) execGroups() []*group {
	if m.groups != nil {
		return m.groups
	}
	gs := make([]*group, len(m.Ops))
	for i, op := range m.Ops {
		gs[i] = &group{kind: op.Kind, ops: []*Op{op}}
	}
	return gs
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

// writes returns the element indices of signal y that op writes (nil: all).
func writesIdx(op *Op) []int {
	switch op.Kind {
	case "Copy", "ElementwiseInc":
		return op.yIdx
	}
	return nil
}

// simplify applies the simplifications of Optimizations.Simplify until
// none applies.
func (m *Model) simplify(ops []*Op) []*Op {
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
		for _, op := range ops {
			if op.Kind == "ElementwiseInc" && op.aIdx == nil && m.sigs[op.a].n == 1 && constant(op.a) &&
				m.sigs[op.a].init != nil && m.sigs[op.a].init[0] == 1 {
				op.Kind, op.inc = "Copy", !op.set
				op.Reads = []int{op.x}
				op.a = -1
				op.set = false
				changed = true
			}
		}
		idx = signalUsers(len(m.sigs), ops)
		// Reset(0) followed by one increment that writes all of the
		// signal: the increment sets it (0 + v == v)
		drop := map[*Op]bool{}
		for _, r := range ops {
			if r.Kind != "Reset" || r.value != 0 || drop[r] {
				continue
			}
			y := r.y
			if observed[y] || len(idx.sets[y]) != 1 || len(idx.incs[y]) == 0 || len(idx.ups[y]) != 0 {
				continue
			}
			first := idx.incs[y][0]
			for _, c := range idx.incs[y] {
				if c.order < first.order {
					first = c
				}
			}
			if !canSet(first) || writesIdx(first) != nil || len(first.Incs) != 1 {
				continue
			}
			drop[r] = true
			toSet(first)
			changed = true
		}
		if len(drop) > 0 {
			ops = slices.DeleteFunc(ops, func(op *Op) bool { return drop[op] })
			idx = signalUsers(len(m.sigs), ops)
		}
		// a temporary t set by P and only read by a whole copy C into y:
		// P writes y directly, in C's mode
		for _, c := range ops {
			if c.Kind != "Copy" || drop[c] {
				continue
			}
			t := c.x
			if observed[t] || len(idx.sets[t]) != 1 || len(idx.incs[t]) != 0 || len(idx.reads[t]) != 1 || len(idx.ups[t]) != 0 {
				continue
			}
			p := idx.sets[t][0]
			if drop[p] || len(p.Sets) != 1 || len(p.Incs) != 0 || p == c {
				continue
			}
			sets, incs := p.Sets, p.Incs
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
		if len(drop) > 0 {
			ops = slices.DeleteFunc(ops, func(op *Op) bool { return drop[op] })
			idx = signalUsers(len(m.sigs), ops)
		}
		// a constant copied into y (J = bias) that one dot product then
		// increments (J += E·x): the product sets y = bias + E·x
		for _, c := range ops {
			if c.Kind != "Copy" || c.inc || c.xIdx != nil || c.yIdx != nil || drop[c] || !constant(c.x) {
				continue
			}
			y := c.y
			if len(idx.incs[y]) != 1 || len(idx.ups[y]) != 0 || len(idx.sets[y]) != 1 || m.sigs[c.x].n != m.sigs[y].n {
				continue
			}
			dd := idx.incs[y][0]
			if dd.Kind != "DotInc" || dd.set || dd.hasBias || len(dd.Incs) != 1 || drop[dd] {
				continue
			}
			dd.hasBias, dd.bias, dd.set = true, c.x, true
			dd.Sets, dd.Incs = []int{y}, nil
			dd.Reads = append(slices.Clone(dd.Reads), c.x)
			dd.Tag = c.Tag + " + " + dd.Tag
			drop[c] = true
			changed = true
		}
		if len(drop) > 0 {
			ops = slices.DeleteFunc(ops, func(op *Op) bool { return drop[op] })
			idx = signalUsers(len(m.sigs), ops)
		}
		// PES's delta only added to the weights by a copy (next step):
		// PES adds to the weights itself at the end of its step, one pass
		// over the weights instead of three (the weights are read by the
		// decoder before the update either way, so every output is the
		// same; not when the weights or delta are probed, whose values
		// would be a step ahead)
		for _, p := range ops {
			if p.Kind != "SimPES" || p.inc || drop[p] || observed[p.y] || len(idx.reads[p.y]) != 1 {
				continue
			}
			c := idx.reads[p.y][0]
			w := c.y
			if c.Kind != "Copy" || !c.inc || c.xIdx != nil || c.yIdx != nil || drop[c] || observed[w] ||
				len(idx.incs[w]) != 1 || len(idx.sets[w]) != 0 || len(idx.ups[w]) != 0 || m.sigs[w].n != m.sigs[p.y].n {
				continue
			}
			p.y, p.inc = w, true
			p.Updates = []int{w}
			p.Tag += " (weights updated in place)"
			drop[c] = true
			changed = true
		}
		if len(drop) > 0 {
			ops = slices.DeleteFunc(ops, func(op *Op) bool { return drop[op] })
			idx = signalUsers(len(m.sigs), ops)
		}
		// a temporary t gathered by a copy P (t = x[px]) and read only as
		// the source of one copy or element-wise product C: C gathers from
		// x directly
		for _, p := range ops {
			if p.Kind != "Copy" || p.inc || p.yIdx != nil || drop[p] {
				continue
			}
			t := p.y
			if observed[t] || len(idx.sets[t]) != 1 || len(idx.incs[t]) != 0 || len(idx.reads[t]) != 1 || len(idx.ups[t]) != 0 {
				continue
			}
			c := idx.reads[t][0]
			if drop[c] || c == p || (c.Kind != "Copy" && c.Kind != "ElementwiseInc") || c.x != t || (c.Kind == "ElementwiseInc" && c.a == t) {
				continue
			}
			gatherFrom(m, p, c)
			drop[p] = true
			changed = true
		}
		if len(drop) > 0 {
			ops = slices.DeleteFunc(ops, func(op *Op) bool { return drop[op] })
			idx = signalUsers(len(m.sigs), ops)
		}
		// dead code: a reset, copy or product whose every output is read
		// by no operator and recorded by no probe can never be seen (an
		// EnsembleArray's default output that nothing connects to: the
		// basal ganglia and the circular convolution decode it every
		// step in Nengo). Node outputs count as unobserved here: a node
		// output nobody reads or probes is only ever overwritten (Feed).
		// Removing the last reader of a signal makes its producers dead
		// in the next round.
		for _, op := range ops {
			switch op.Kind {
			case "Reset", "Copy", "DotInc", "ElementwiseInc":
			default:
				continue
			}
			if len(op.Updates) > 0 || len(op.Sets)+len(op.Incs) == 0 {
				continue
			}
			dead := true
			for _, w := range [][]int{op.Sets, op.Incs} {
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
		if len(drop) > 0 {
			ops = slices.DeleteFunc(ops, func(op *Op) bool { return drop[op] })
		}
	}
	return ops
}

// probed reports whether a probe records signal s.
func (m *Model) probed(s int) bool {
	for _, p := range m.Probes {
		if p.sig == s {
			return true
		}
	}
	return false
}

// gatherFrom makes c read p's source directly: c read t[cx[k]] where p set
// t[i] = x[px[i]].
func gatherFrom(m *Model, p, c *Op) {
	t := c.x
	k := m.sigs[c.y].n // elements c writes
	if c.yIdx != nil {
		k = len(c.yIdx)
	}
	cx := make([]int, k)
	for j := range k {
		ti := j
		if c.xIdx != nil {
			ti = c.xIdx[j]
		}
		cx[j] = ti
		if p.xIdx != nil {
			cx[j] = p.xIdx[ti]
		}
	}
	c.xIdx = cx
	c.x = p.x
	for i, r := range c.Reads {
		if r == t {
			c.Reads[i] = p.x
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
func (m *Model) fuseDecodeLearn(ops []*Op) []*Op {
	idx := signalUsers(len(m.sigs), ops)
	var out []*Op
	drop := map[*Op]bool{}
	repl := map[*Op]*Op{}
	for _, p := range ops {
		if p.Kind != "SimPES" || !p.inc {
			continue
		}
		w := p.y
		if len(idx.reads[w]) != 1 || len(idx.incs[w]) != 0 || len(idx.sets[w]) != 0 || len(idx.ups[w]) != 1 {
			continue
		}
		d := idx.reads[w][0]
		if d.Kind != "DotInc" || d.a != w || d.x == w || m.sigs[d.y].n != m.sigs[p.a].n || m.sigs[d.x].n != m.sigs[p.x].n {
			continue
		}
		f := *d
		f.Kind = "DotIncPES"
		f.Tag = d.Tag + " + " + p.Tag
		f.Reads = append(slices.Clone(d.Reads), p.x, p.a)
		f.Updates = []int{w}
		f.aux = []int{p.x, p.a} // PES activities and error
		f.value = p.value
		repl[d] = &f
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
func (m *Model) fuseEnsembles(ops []*Op) []*Op {
	observed := map[int]bool{}
	for _, p := range m.Probes {
		observed[p.sig] = true
	}
	idx := signalUsers(len(m.sigs), ops)
	drop := map[*Op]bool{}
	repl := map[*Op]*Op{}
	for _, e := range ops {
		if e.Kind != "DotInc" || !e.hasBias || !e.set || drop[e] {
			continue
		}
		J := e.y
		if observed[J] || len(idx.reads[J]) != 1 || len(idx.incs[J]) != 0 || len(idx.ups[J]) != 0 || len(idx.sets[J]) != 1 {
			continue
		}
		n := idx.reads[J][0]
		relu, ok := n.neuron.(neurons.RectifiedLinear)
		if n.Kind != "SimNeurons" || !ok || len(n.state) != 0 || n.x != J || relu.Validate() != nil || drop[n] {
			continue
		}
		out := n.y
		if observed[out] || len(idx.sets[out]) != 1 || len(idx.incs[out]) != 0 || len(idx.ups[out]) != 0 || len(idx.reads[out]) == 0 {
			continue
		}
		decs := idx.reads[out]
		okDec := true
		for _, d := range decs {
			// each decoder must be the only writer of its output, so the
			// fused operator cannot reorder a sum
			if d.Kind != "DotInc" || d.x != out || d.a == out || drop[d] || repl[d] != nil ||
				len(idx.sets[d.y])+len(idx.incs[d.y]) != 1 || len(idx.ups[d.y]) != 0 {
				okDec = false
				break
			}
		}
		if !okDec {
			continue
		}
		f := &Op{Kind: "EnsembleReLU", Tag: n.Tag + " (encoders, neurons, decoders fused)", a: e.a, x: e.x, y: -1,
			hasBias: true, bias: e.bias, value: relu.Amplitude, order: e.order, neuron: n.neuron}
		f.Reads = append(f.Reads, e.Reads...)
		for _, d := range decs {
			dc := *d
			f.fused = append(f.fused, &dc)
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
	var res []*Op
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
func canSet(op *Op) bool {
	switch op.Kind {
	case "Copy", "ElementwiseInc", "DotInc":
		return true
	}
	return false
}

// toSet turns an increment into a set.
func toSet(op *Op) {
	op.Sets, op.Incs = op.Incs, nil
	if op.Kind == "Copy" {
		op.inc = false
	} else {
		op.set = true
	}
}

// fuseInto makes p (which sets the temporary c.x) write c's destination
// directly and reports whether it could.
func fuseInto(m *Model, p, c *Op) bool {
	t := c.x
	n := m.sigs[t].n
	switch p.Kind {
	case "DotInc":
		if c.xIdx != nil || c.yIdx != nil || m.sigs[c.y].n != n {
			return false
		}
	case "Copy", "ElementwiseInc":
		if p.yIdx != nil {
			return false
		}
	default:
		return false
	}
	// compose the index maps: c writes y[cy[k]] from t[cx[k]], and p
	// wrote t[i] from x[px[i]] (and a[pa[i]])
	k := m.sigs[c.y].n
	if c.yIdx != nil {
		k = len(c.yIdx)
	}
	if p.Kind != "DotInc" {
		var px, pa, yi []int
		need := c.xIdx != nil || c.yIdx != nil || p.xIdx != nil || p.aIdx != nil
		if need {
			px = make([]int, k)
			yi = make([]int, k)
			if p.Kind == "ElementwiseInc" {
				pa = make([]int, k)
			}
			for j := range k {
				ti := j
				if c.xIdx != nil {
					ti = c.xIdx[j]
				}
				yi[j] = j
				if c.yIdx != nil {
					yi[j] = c.yIdx[j]
				}
				px[j] = ti
				if p.xIdx != nil {
					px[j] = p.xIdx[ti]
				}
				if pa != nil {
					switch {
					case p.aIdx != nil:
						pa[j] = p.aIdx[ti]
					case m.sigs[p.a].n == 1:
						pa[j] = 0
					default:
						pa[j] = ti
					}
				}
			}
			// maps that list every element in order are dropped: the
			// whole signal (a fused one-dimensional y[[0]]) can then take
			// part in the gather rule (the integrator's input copies)
			if identityIdx(px, m.sigs[p.x].n) {
				px = nil
			}
			if identityIdx(yi, m.sigs[c.y].n) {
				yi = nil
			}
			if pa != nil && identityIdx(pa, m.sigs[p.a].n) {
				pa = nil
			}
			p.xIdx, p.yIdx, p.aIdx = px, yi, pa
		}
	}
	p.y = c.y
	p.order = c.order // its writes to y take c's place among y's writers
	if c.Kind == "Copy" && c.inc {
		p.Sets, p.Incs = nil, []int{c.y}
		if p.Kind == "Copy" {
			p.inc = true
		} else {
			p.set = false
		}
	} else {
		p.Sets, p.Incs = []int{c.y}, nil
		if p.Kind == "Copy" {
			p.inc = false
		} else {
			p.set = true
		}
	}
	p.Tag = p.Tag + " → " + c.Tag
	return true
}

type users struct {
	sets, incs, reads, ups [][]*Op
}

// drop removes op from every list of u.
func (u users) drop(op *Op) {
	del := func(ls [][]*Op, sigs []int) {
		for _, s := range sigs {
			ls[s] = slices.DeleteFunc(ls[s], func(o *Op) bool { return o == op })
		}
	}
	del(u.sets, op.Sets)
	del(u.incs, op.Incs)
	del(u.reads, op.Reads)
	del(u.ups, op.Updates)
}

// move updates u after op's writes changed from sets and incs to op.Sets
// and op.Incs (its reads and updates unchanged).
func (u users) move(op *Op, sets, incs []int) {
	for _, s := range sets {
		u.sets[s] = slices.DeleteFunc(u.sets[s], func(o *Op) bool { return o == op })
	}
	for _, s := range incs {
		u.incs[s] = slices.DeleteFunc(u.incs[s], func(o *Op) bool { return o == op })
	}
	for _, s := range op.Sets {
		u.sets[s] = append(u.sets[s], op)
	}
	for _, s := range op.Incs {
		u.incs[s] = append(u.incs[s], op)
	}
}

func signalUsers(nsig int, ops []*Op) users {
	u := users{make([][]*Op, nsig), make([][]*Op, nsig), make([][]*Op, nsig), make([][]*Op, nsig)}
	for _, op := range ops {
		for _, s := range op.Sets {
			u.sets[s] = append(u.sets[s], op)
		}
		for _, s := range op.Incs {
			u.incs[s] = append(u.incs[s], op)
		}
		for _, s := range op.Reads {
			u.reads[s] = append(u.reads[s], op)
		}
		for _, s := range op.Updates {
			u.ups[s] = append(u.ups[s], op)
		}
	}
	return u
}

// ------------------------------------------------------------ planning

// mergeKey returns the key under which op can merge with others ("" if
// it runs alone).
func mergeKey(op *Op) string {
	switch op.Kind {
	case "Reset":
		return fmt.Sprintf("Reset/%v", op.value)
	case "Copy":
		return fmt.Sprintf("Copy/%v", op.inc)
	case "ElementwiseInc":
		return fmt.Sprintf("%s/%v", op.Kind, op.set)
	case "DotInc":
		return fmt.Sprintf("%s/%v/%v", op.Kind, op.set, op.hasBias)
	case "EnsembleReLU":
		return fmt.Sprintf("EnsembleReLU/%v", op.value)
	case "SimNeurons":
		name := op.neuron.Name()
		if strings.Contains(name, "Poisson") || strings.Contains(name, "Stochastic") {
			return "" // draws from its own random stream
		}
		return fmt.Sprintf("SimNeurons/%s/%#v/%s", name, op.neuron, strings.Join(op.names, ","))
	case "SimSynapse":
		upd := len(op.Updates) > 0
		return fmt.Sprintf("SimSynapse/%v/%T/%#v", upd, op.synapse, op.synapse)
	}
	return ""
}

// planGroups orders ops by their dependencies (those of the builder plus
// an order between increments of the same elements, which keeps every
// sum's order) and groups, level by level, all ready operators of one
// merge key (Nengo's greedy planner).
func (m *Model) planGroups(ops []*Op, planner string, depth int) ([]*group, error) {
	n := len(ops)
	pos := map[*Op]int{}
	for i, op := range ops {
		pos[op] = i
	}
	u := signalUsers(len(m.sigs), ops)
	succ := make([][]int, n)
	indeg := make([]int, n)
	seen := map[[2]int]bool{}
	edge := func(a, c *Op) {
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
			sort.SliceStable(incs, func(i, j int) bool { return incs[i].order < incs[j].order })
			last := make([]*Op, m.sigs[s].n)
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
		return nil, fmt.Errorf("sim: optimizer: Planner = %q: want one of %s", planner, strings.Join(Planners, ", "))
	}
	if done != n {
		return nil, fmt.Errorf("sim: optimizer: dependency cycle after simplification (%d of %d operators planned); build with sim.Optimize(sim.Optimizations{Merge: false})", done, n)
	}
	return groups, nil
}

// levelPlan schedules, level by level, all ready operators, one group
// per merge key.
func levelPlan(ops []*Op, succ [][]int, indeg []int) ([]*group, int) {
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
			g := &group{kind: op.Kind, ops: []*Op{op}}
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

// slots returns the signals a group member reads or writes that should be
// adjacent across members, in the group's preferred order.
func slots(op *Op) []int {
	switch op.Kind {
	case "SimNeurons":
		return append([]int{op.x, op.y}, op.state...)
	case "SimSynapse":
		return []int{op.x, op.y}
	case "DotInc":
		if op.hasBias {
			return []int{op.y, op.x, op.a, op.bias}
		}
		return []int{op.y, op.x, op.a}
	case "ElementwiseInc":
		return []int{op.y, op.x, op.a}
	case "Copy":
		return []int{op.y, op.x}
	case "Reset":
		return []int{op.y}
	}
	return nil
}

// layout assigns new offsets to the signals (signal sorting): groups are
// visited largest first; a group reorders its members by the first slot
// that is already placed, then places its unplaced slot signals one after
// the other in member order.
func (m *Model) layout(groups []*group) {
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
		switch g.kind {
		case "SimNeurons":
			w = 4
		case "SimSynapse":
			w = 3
		case "DotInc":
			w = 2
		case "ElementwiseInc", "Copy":
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
		nslot := len(slots(g.ops[0]))
		for k := range nslot {
			all := true
			for _, op := range g.ops {
				if s := slots(op); len(s) <= k || s[k] < 0 || off[s[k]] == unplaced {
					all = false
					break
				}
			}
			if all {
				sort.SliceStable(g.ops, func(i, j int) bool { return off[slots(g.ops[i])[k]] < off[slots(g.ops[j])[k]] })
				break
			}
		}
		for k := range nslot {
			for _, op := range g.ops {
				if s := slots(op); len(s) > k && s[k] >= 0 {
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
func (m *Model) layoutOrder(order []int) {
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
func (m *Model) contiguousSlots(g *group) bool {
	nslot := len(slots(g.ops[0]))
	for k := range nslot {
		end := -1
		for i, op := range g.ops {
			s := slots(op)
			if len(s) <= k {
				return false
			}
			sg := m.sigs[s[k]]
			if i > 0 && sg.off != end {
				return false
			}
			end = sg.off + sg.n
		}
	}
	return true
}
