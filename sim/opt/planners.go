package opt

import (
	"fmt"
	"sort"

	"github.com/neurogo/neurogo/sim/ir"
)

// The greedy, tree and transitive planners (Optimizations.Planner; the
// NengoDL paper, §4.2.2). All work on the dependency graph of planGroups: succ[i]
// lists the operators that must run after operator i, indeg[i] counts
// i's unscheduled predecessors (the planners consume it).

// planKey is an operator's merge key, or a key of its own when it runs
// alone.
func planKey(ops []ir.Op, i int) string {
	if k := mergeKey(ops[i]); k != "" {
		return k
	}
	return fmt.Sprintf("#%d", i)
}

// treeState is the ready set of a planner that schedules one group at a
// time, with undo for the search.
type treeState struct {
	ops   []ir.Op
	succ  [][]int
	indeg []int
	keys  []string         // planKey of every operator
	ready map[string][]int // key → ready operators, ascending index
}

// schedule runs the ready group of key k: its operators' successors whose
// last predecessor it was become ready. It returns the group.
func (t *treeState) schedule(k string) []int {
	g := t.ready[k]
	delete(t.ready, k)
	for _, i := range g {
		for _, j := range t.succ[i] {
			t.indeg[j]--
			if t.indeg[j] == 0 {
				kj := t.keys[j]
				t.ready[kj] = append(t.ready[kj], j)
			}
		}
	}
	return g
}

// undo reverts schedule(k) that returned g.
func (t *treeState) undo(k string, g []int) {
	for a := len(g) - 1; a >= 0; a-- {
		i := g[a]
		for b := len(t.succ[i]) - 1; b >= 0; b-- {
			j := t.succ[i][b]
			if t.indeg[j] == 0 {
				kj := t.keys[j]
				l := t.ready[kj]
				t.ready[kj] = l[:len(l)-1] // j was appended last
				if len(t.ready[kj]) == 0 {
					delete(t.ready, kj)
				}
			}
			t.indeg[j]++
		}
	}
	t.ready[k] = g
}

// maxBranch bounds the groups the tree search tries at each level (the
// largest ones).
const maxBranch = 12

// candidates returns the ready keys, largest group first (ties: lowest
// operator index), at most maxBranch of them.
func (t *treeState) candidates() []string {
	ks := make([]string, 0, len(t.ready))
	for k := range t.ready {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(a, b int) bool {
		la, lb := len(t.ready[ks[a]]), len(t.ready[ks[b]])
		if la != lb {
			return la > lb
		}
		return t.ready[ks[a]][0] < t.ready[ks[b]][0]
	})
	if len(ks) > maxBranch {
		ks = ks[:maxBranch]
	}
	return ks
}

// best returns the most operators depth more groups can schedule.
func (t *treeState) best(depth int) int {
	if depth == 0 || len(t.ready) == 0 {
		return 0
	}
	top := 0
	for _, k := range t.candidates() {
		g := t.schedule(k)
		if v := len(g) + t.best(depth-1); v > top {
			top = v
		}
		t.undo(k, g)
	}
	return top
}

// treePlan schedules one group at a time: the first group of the plan of
// depth groups that schedules the most operators (depth 1: the largest
// ready group, NengoDL's greedy planner).
func treePlan(ops []ir.Op, succ [][]int, indeg []int, depth int) ([]*group, int) {
	t := &treeState{ops: ops, succ: succ, indeg: indeg, keys: make([]string, len(ops)), ready: map[string][]int{}}
	for i := range ops {
		t.keys[i] = planKey(ops, i)
		if indeg[i] == 0 {
			t.ready[t.keys[i]] = append(t.ready[t.keys[i]], i)
		}
	}
	var groups []*group
	done := 0
	for len(t.ready) > 0 {
		cands := t.candidates()
		pick, top := cands[0], -1
		if depth > 1 {
			for _, k := range cands {
				g := t.schedule(k)
				v := len(g) + t.best(depth-1)
				t.undo(k, g)
				if v > top { // ties keep the larger, earlier group
					pick, top = k, v
				}
			}
		}
		g := append([]int(nil), t.schedule(pick)...)
		sort.Ints(g)
		grp := &group{}
		for _, i := range g {
			grp.ops = append(grp.ops, ops[i])
		}
		groups = append(groups, grp)
		done += len(g)
	}
	return groups, done
}

// transitivePlan places the operators in dependency order (lowest index
// first among the ready ones): each joins the earliest group of its key
// that comes after every group holding one of its predecessors — and so
// after every ancestor, group positions growing along every dependency —
// or, if there is none, a new group inserted right after the last of
// them. No group then holds an ancestor of one of its members, and every
// group follows its members' ancestors.
func transitivePlan(ops []ir.Op, succ [][]int, indeg []int) ([]*group, int) {
	n := len(ops)
	pred := make([][]int, n)
	for i, ss := range succ {
		for _, j := range ss {
			pred[j] = append(pred[j], i)
		}
	}
	type tgroup struct {
		g   *group
		idx []int // members, by operator index
		pos int
	}
	var order []*tgroup // groups in execution order
	byKey := map[string][]*tgroup{}
	at := make([]*tgroup, n)
	// Kahn's algorithm, lowest index first
	ready := &intHeap{}
	for i := range n {
		if indeg[i] == 0 {
			ready.push(i)
		}
	}
	done := 0
	for ready.len() > 0 {
		i := ready.pop()
		done++
		minPos := 0
		for _, p := range pred[i] {
			minPos = max(minPos, at[p].pos+1)
		}
		k := mergeKey(ops[i])
		var join *tgroup
		if k != "" {
			for _, tg := range byKey[k] {
				if tg.pos >= minPos && (join == nil || tg.pos < join.pos) {
					join = tg
				}
			}
		}
		if join == nil {
			join = &tgroup{g: &group{}, pos: minPos}
			order = append(order, nil)
			copy(order[minPos+1:], order[minPos:])
			order[minPos] = join
			for p := minPos + 1; p < len(order); p++ {
				order[p].pos = p
			}
			if k != "" {
				byKey[k] = append(byKey[k], join)
			}
		}
		join.idx = append(join.idx, i)
		at[i] = join
		for _, j := range succ[i] {
			indeg[j]--
			if indeg[j] == 0 {
				ready.push(j)
			}
		}
	}
	groups := make([]*group, len(order))
	for p, tg := range order {
		sort.Ints(tg.idx)
		for _, i := range tg.idx {
			tg.g.ops = append(tg.g.ops, ops[i])
		}
		groups[p] = tg.g
	}
	return groups, done
}

// intHeap is a min-heap of operator indices.
type intHeap struct{ a []int }

func (h *intHeap) len() int { return len(h.a) }

func (h *intHeap) push(v int) {
	h.a = append(h.a, v)
	for c := len(h.a) - 1; c > 0; {
		p := (c - 1) / 2
		if h.a[p] <= h.a[c] {
			break
		}
		h.a[p], h.a[c] = h.a[c], h.a[p]
		c = p
	}
}

func (h *intHeap) pop() int {
	top := h.a[0]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	for p := 0; ; {
		c := 2*p + 1
		if c >= last {
			break
		}
		if c+1 < last && h.a[c+1] < h.a[c] {
			c++
		}
		if h.a[p] <= h.a[c] {
			break
		}
		h.a[p], h.a[c] = h.a[c], h.a[p]
		p = c
	}
	return top
}
