package sim

import (
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/sim/opt"
)

// Optimizations selects the passes of the graph optimiser (package opt).
type Optimizations = opt.Optimizations

// Plan describes what the optimiser made of a model (package opt).
type Plan = opt.Plan

// Sorters and Planners list the values of Optimizations.Sorter and
// Optimizations.Planner.
var (
	Sorters  = opt.Sorters
	Planners = opt.Planners
)

// AllOptimizations returns every pass switched on (the default).
func AllOptimizations() Optimizations { return opt.All() }

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

// group is a set of operators of one type, independent of each other,
// that run as one step (a merged operator).
type group struct {
	ops []ir.Op
}

// Plan returns what the optimizer did to the model.
func (m *Model) Plan() Plan { return m.plan }

// optimize plans m.Ops into m.groups with package opt and, with Sort,
// lays the signals out anew. m.Ops itself stays the builder's operator
// list.
func (m *Model) optimize(o Optimizations) error {
	in := &opt.Model{Ops: m.Ops, Time: m.timeSig, Step: m.stepSig}
	for _, sg := range m.sigs {
		in.Signals = append(in.Signals, opt.Signal{Size: sg.n, Init: sg.init, Off: sg.off})
	}
	for _, p := range m.Probes {
		in.Probed = append(in.Probed, p.sig)
	}
	for _, no := range m.nodeOut {
		in.Outputs = append(in.Outputs, no.sig)
	}
	r, err := opt.Optimize(in, o)
	if err != nil {
		return err
	}
	for i, off := range r.Offs {
		m.sigs[i].off = off
	}
	m.size = r.Size
	m.groups = make([]*group, len(r.Groups))
	for i, g := range r.Groups {
		m.groups[i] = &group{ops: g}
	}
	m.plan = r.Plan
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
		gs[i] = &group{ops: []ir.Op{op}}
	}
	return gs
}

// contiguousSlots reports whether every slot of the group's members is a
// run of adjacent signals in member order (opt.Contiguous).
func (m *Model) contiguousSlots(g *group) bool {
	return opt.Contiguous(g.ops, func(s int) (int, int) { return m.sigs[s].off, m.sigs[s].n })
}
