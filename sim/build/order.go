package build

import (
	"container/heap"
	"fmt"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/sim/ir"
)

// opHeap orders ready operators by creation index (deterministic order).
type opHeap []int

func (h opHeap) Len() int           { return len(h) }
func (h opHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h opHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *opHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *opHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// sort orders the operators by Nengo's dependency rule: for every signal,
// the op that sets it runs before those that increment it, which run
// before those that read it, which run before the op that updates it.
// Ties keep creation order. A cycle (an unfiltered loop) is an error.
func (b *builder) sort() ([]ir.Op, error) {
	names := make([]string, len(b.m.sigs))
	for i, g := range b.m.sigs {
		names[i] = g.name
	}
	return Order(b.ops, names)
}

// Order returns ops in Nengo's execution order: for every signal, the
// operator that sets it runs before those that increment it, which run
// before those that read it, which run before the one that updates it;
// ties keep the order of ops. names are the signals' names (their count
// is the number of signals) for messages. Two setters or two updaters of
// one signal, and a cycle (an unfiltered loop), are errors.
func Order(ops []ir.Op, names []string) ([]ir.Op, error) {
	nsig := len(names)
	sets := make([][]int, nsig)
	incs := make([][]int, nsig)
	reads := make([][]int, nsig)
	ups := make([][]int, nsig)
	for i, op := range ops {
		for _, s := range op.Info().Sets {
			if len(sets[s]) > 0 {
				return nil, fmt.Errorf("sim: signal %q is set by both %s and %s", names[s], ops[sets[s][0]], op)
			}
			sets[s] = append(sets[s], i)
		}
		for _, s := range op.Info().Incs {
			incs[s] = append(incs[s], i)
		}
		for _, s := range op.Info().Reads {
			reads[s] = append(reads[s], i)
		}
		for _, s := range op.Info().Updates {
			if len(ups[s]) > 0 {
				return nil, fmt.Errorf("sim: signal %q is updated by both %s and %s", names[s], ops[ups[s][0]], op)
			}
			ups[s] = append(ups[s], i)
		}
	}
	n := len(ops)
	succ := make([][]int, n)
	indeg := make([]int, n)
	edge := func(a, c int) {
		if a == c {
			return
		}
		succ[a] = append(succ[a], c)
		indeg[c]++
	}
	for s := range nsig {
		for _, a := range sets[s] {
			for _, c := range incs[s] {
				edge(a, c)
			}
			for _, c := range reads[s] {
				edge(a, c)
			}
			for _, c := range ups[s] {
				edge(a, c)
			}
		}
		for _, a := range incs[s] {
			for _, c := range reads[s] {
				edge(a, c)
			}
			for _, c := range ups[s] {
				edge(a, c)
			}
		}
		for _, a := range reads[s] {
			for _, c := range ups[s] {
				edge(a, c)
			}
		}
	}
	h := &opHeap{}
	for i := range n {
		if indeg[i] == 0 {
			heap.Push(h, i)
		}
	}
	order := make([]ir.Op, 0, n)
	for h.Len() > 0 {
		i := heap.Pop(h).(int)
		order = append(order, ops[i])
		for _, c := range succ[i] {
			indeg[c]--
			if indeg[c] == 0 {
				heap.Push(h, c)
			}
		}
	}
	if len(order) != n {
		var cyc []string
		seen := map[string]bool{}
		for i := range n {
			if indeg[i] > 0 && !seen[ops[i].Info().Tag] {
				seen[ops[i].Info().Tag] = true
				cyc = append(cyc, ops[i].Info().Tag)
			}
		}
		sort.Strings(cyc)
		return nil, fmt.Errorf("sim: Build: cycle of unfiltered connections (every loop needs a synapse): operators of %s", strings.Join(cyc, ", "))
	}
	return order, nil
}
