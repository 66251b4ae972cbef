package opt

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/sim/ir"
)

// Signal sorting by read blocks (the NengoDL paper, §4.2.3, Algorithms 1 and 2), the
// "metablock" sorter (Optimizations.Sorter).
//
// A read block is the list of signals one slot of a merged group touches,
// one per member in member order (the members' inputs, their outputs,
// their weights, …). A group reads a block in one pass when its signals
// are adjacent and in member order. Signals are first grouped into
// meta-blocks — the signals that belong to exactly the same set of read
// blocks — and the meta-blocks are ordered so that read blocks, the
// largest first, end up contiguous (Algorithm 1). Then, over settling
// passes, each block in increasing order of size reorders its group's
// members to follow its signals, and the group's other blocks reorder
// their signals, within their meta-blocks, to follow the members
// (Algorithm 2); a pass that changes nothing ends the loop.

// sortPasses bounds Algorithm 2's settling passes.
const sortPasses = 10

// readBlock is one slot of a merged group.
type readBlock struct {
	g    *group
	slot int
	sigs []int // the members' slot signals, in member order
}

// metaLayout orders the signals by read blocks and returns the order
// (every signal once; unplaced signals are left to the caller).
func (m *graph) metaLayout(groups []*group) []int {
	// read blocks of the merged groups (a block of one signal, or with a
	// signal twice, can be neither more nor less contiguous: skipped)
	var blocks []*readBlock
	for _, g := range groups {
		if len(g.ops) < 2 {
			continue
		}
		for k := range Slots(g.ops[0]) {
			b := &readBlock{g: g, slot: k}
			seen := map[int]bool{}
			ok := true
			for _, op := range g.ops {
				s := Slots(op)
				if len(s) <= k || s[k] < 0 || seen[s[k]] {
					ok = false
					break
				}
				seen[s[k]] = true
				b.sigs = append(b.sigs, s[k])
			}
			if ok {
				blocks = append(blocks, b)
			}
		}
	}
	size := func(b *readBlock) int {
		n := 0
		for _, s := range b.sigs {
			n += m.sigs[s].n
		}
		return n
	}
	// blocks by decreasing size (ties: creation order)
	sort.SliceStable(blocks, func(i, j int) bool { return size(blocks[i]) > size(blocks[j]) })
	rank := map[*readBlock]int{}
	for i, b := range blocks {
		rank[b] = i
	}
	// meta-blocks: signals keyed by their set of blocks (as ranks)
	member := map[int][]int{} // signal → ranks of its blocks
	for i, b := range blocks {
		for _, s := range b.sigs {
			member[s] = append(member[s], i)
		}
	}
	type meta struct {
		blocks []int // ranks, ascending (largest block first)
		set    map[int]bool
		sigs   []int
	}
	byKey := map[string]*meta{}
	var metas []*meta
	var sigOrder []int
	for s := range m.sigs {
		if len(member[s]) > 0 {
			sigOrder = append(sigOrder, s)
		}
	}
	for _, s := range sigOrder {
		bs := slices.Clone(member[s])
		slices.Sort(bs)
		parts := make([]string, len(bs))
		for i, r := range bs {
			parts[i] = strconv.Itoa(r)
		}
		key := strings.Join(parts, ",")
		mb := byKey[key]
		if mb == nil {
			mb = &meta{blocks: bs, set: map[int]bool{}}
			for _, r := range bs {
				mb.set[r] = true
			}
			byKey[key] = mb
			metas = append(metas, mb)
		}
		mb.sigs = append(mb.sigs, s)
	}
	if len(metas) == 0 {
		return nil
	}
	// Algorithm 1: order the meta-blocks
	remaining := slices.Clone(metas)
	var sorted []*meta
	active := 0 // the largest read block
	var last *meta
	for _, mb := range remaining {
		if mb.set[active] {
			last = mb
			break
		}
	}
	hamming := func(a, b *meta) int {
		d := 0
		for r := range a.set {
			if !b.set[r] {
				d++
			}
		}
		for r := range b.set {
			if !a.set[r] {
				d++
			}
		}
		return d
	}
	contains := func(x, c *meta) bool { // c ⊆ x
		for r := range c.set {
			if !x.set[r] {
				return false
			}
		}
		return true
	}
	for len(remaining) > 0 {
		var X []*meta
		for _, mb := range remaining {
			if mb.set[active] {
				X = append(X, mb)
			}
		}
		if len(X) == 0 {
			// a new active block: the largest block of the last meta-block
			// still present, else the largest block still present
			next := -1
			for _, r := range last.blocks {
				for _, mb := range remaining {
					if mb.set[r] {
						next = r
						break
					}
				}
				if next >= 0 {
					break
				}
			}
			if next < 0 {
				next = remaining[0].blocks[0]
				for _, mb := range remaining {
					next = min(next, mb.blocks[0])
				}
			}
			active = next
			continue
		}
		Y := X
		if last != nil {
			var sup []*meta
			for _, x := range X {
				if contains(x, last) {
					sup = append(sup, x)
				}
			}
			if len(sup) > 0 {
				Y = sup
			}
		}
		Z := Y
		if last != nil {
			best := -1
			var z []*meta
			for _, y := range Y {
				d := hamming(y, last)
				switch {
				case best < 0 || d < best:
					best, z = d, []*meta{y}
				case d == best:
					z = append(z, y)
				}
			}
			Z = z
			// narrow by the last meta-block's blocks, largest first
			for _, r := range last.blocks {
				if len(Z) == 1 {
					break
				}
				var zz []*meta
				for _, y := range Z {
					if y.set[r] {
						zz = append(zz, y)
					}
				}
				if len(zz) > 0 {
					Z = zz
				}
			}
		}
		pick := Z[0]
		sorted = append(sorted, pick)
		remaining = slices.DeleteFunc(remaining, func(mb *meta) bool { return mb == pick })
		last = pick
	}
	// the signal order, meta-block by meta-block
	var order []int
	metaOf := map[int]int{} // signal → index of its meta-block in sorted
	for i, mb := range sorted {
		for _, s := range mb.sigs {
			metaOf[s] = i
			order = append(order, s)
		}
	}
	pos := make(map[int]int, len(order))
	for i, s := range order {
		pos[s] = i
	}
	// Algorithm 2: settle members and signals, smallest blocks first
	inc := slices.Clone(blocks)
	slices.Reverse(inc)
	blocksOf := map[*group][]*readBlock{}
	for _, b := range blocks {
		blocksOf[b.g] = append(blocksOf[b.g], b)
	}
	for range sortPasses {
		changed := false
		for _, b := range inc {
			g := b.g
			// members in the order of b's signals
			perm := make([]int, len(g.ops))
			for i := range perm {
				perm[i] = i
			}
			sort.SliceStable(perm, func(i, j int) bool { return pos[b.sigs[perm[i]]] < pos[b.sigs[perm[j]]] })
			moved := false
			for i, p := range perm {
				if p != i {
					moved = true
					break
				}
			}
			if moved {
				changed = true
				ops := make([]ir.Op, len(g.ops))
				for i, p := range perm {
					ops[i] = g.ops[p]
				}
				g.ops = ops
				for _, c := range blocksOf[g] {
					sigs := make([]int, len(c.sigs))
					for i, p := range perm {
						sigs[i] = c.sigs[p]
					}
					c.sigs = sigs
				}
			}
			// the group's blocks follow the members, within meta-blocks
			for _, c := range blocksOf[g] {
				byMeta := map[int][]int{} // meta-block → c's signals there, in member order
				for _, s := range c.sigs {
					byMeta[metaOf[s]] = append(byMeta[metaOf[s]], s)
				}
				for _, sigs := range byMeta {
					slots := make([]int, len(sigs))
					for i, s := range sigs {
						slots[i] = pos[s]
					}
					slices.Sort(slots)
					for i, s := range sigs {
						if pos[s] != slots[i] {
							changed = true
						}
						pos[s] = slots[i]
						order[slots[i]] = s
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	return order
}
