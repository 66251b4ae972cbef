package timeres

import (
	"fmt"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/stream"
)

// ShortestPath returns the minimum number of frames information needs to
// travel from neuron-pool from to neuron-pool to in a layerwise-parallel
// network (the statestream paper, §3.2, Fig. 3b): every synapse-pool is an edge from
// each of its sources to its target and costs one frame, because a pool
// computes y(t+1) from the states of frame t (breadth-first search). A
// stimulus written to from at onset frame t can thus change to at frame
// t + ShortestPath at the earliest, and the accuracy at smaller delays is
// at chance. from == to gives 0.
//
// Pool periods and offsets (NeuronPool.Period > 1) are not taken into
// account: the result is the path length in frames for pools that update
// every frame.
func ShortestPath(net *stream.Net, from, to string) (int, error) {
	d, err := Distances(net, from)
	if err != nil {
		return 0, err
	}
	if err := hasPool(net, to); err != nil {
		return 0, err
	}
	n, ok := d[to]
	if !ok {
		return 0, fmt.Errorf("timeres: ShortestPath: no path of synapse-pools from neuron-pool %q to %q", from, to)
	}
	return n, nil
}

// Distances returns the frames from neuron-pool from to every pool it
// reaches (itself at 0), as ShortestPath counts them.
func Distances(net *stream.Net, from string) (map[string]int, error) {
	if net == nil {
		return nil, fmt.Errorf("timeres: ShortestPath: nil Net")
	}
	if err := hasPool(net, from); err != nil {
		return nil, err
	}
	next := map[string][]string{}
	for _, sp := range net.SynapsePools {
		for _, f := range sp.Source {
			for _, src := range f {
				next[src] = append(next[src], sp.Target)
			}
		}
	}
	dist := map[string]int{from: 0}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range next[p] {
			if _, seen := dist[q]; !seen {
				dist[q] = dist[p] + 1
				queue = append(queue, q)
			}
		}
	}
	return dist, nil
}

func hasPool(net *stream.Net, name string) error {
	var names []string
	for _, np := range net.NeuronPools {
		if np.Name == name {
			return nil
		}
		names = append(names, np.Name)
	}
	sort.Strings(names)
	return fmt.Errorf("timeres: ShortestPath: no neuron-pool %q in net %q (pools: %s)", name, net.Name, strings.Join(names, ", "))
}

// ShortestPathNetwork returns the minimum number of simulation steps for
// a signal to travel from one object of a toolkit.Network (and its
// sub-networks) to another. from and to are a toolkit.Target (an
// *Ensemble, *Neurons, *Node or a slice of one) or the label of an
// ensemble or node (it must be unique).
//
// The delays follow the simulator's semantics (toolkit.Connection): every
// connection is an edge from its pre object to its post object that
// costs 1 step when it has a synapse (any filter delays the signal by one
// step) and 0 steps without one (Synapse nil passes the value within the
// step); ensembles and nodes themselves add no delay. A connection to or
// from an ensemble's neurons counts as one to or from the ensemble;
// connections into a learning rule change weights, not signals, and are
// not edges. The search is a 0-1 breadth-first search. The rule is
// checked against the simulator (sim) with rate neurons; with spiking
// neurons the result is a lower bound, as the first spike may come later.
func ShortestPathNetwork(net *toolkit.Network, from, to any) (int, error) {
	if net == nil {
		return 0, fmt.Errorf("timeres: ShortestPathNetwork: nil Network")
	}
	src, err := resolve(net, from, "from")
	if err != nil {
		return 0, err
	}
	dst, err := resolve(net, to, "to")
	if err != nil {
		return 0, err
	}
	type edge struct {
		to toolkit.Object
		w  int
	}
	next := map[toolkit.Object][]edge{}
	for _, c := range net.AllConnections() {
		if c.Pre == nil || c.Post == nil || c.Pre.Obj() == nil || c.Post.Obj() == nil {
			continue
		}
		pre, ok1 := node(c.Pre.Obj())
		post, ok2 := node(c.Post.Obj())
		if !ok1 || !ok2 {
			continue
		}
		w := 0
		if c.Synapse != nil {
			w = 1
		}
		next[pre] = append(next[pre], edge{post, w})
	}
	dist := map[toolkit.Object]int{src: 0}
	deque := []toolkit.Object{src}
	done := map[toolkit.Object]bool{}
	for len(deque) > 0 {
		o := deque[0]
		deque = deque[1:]
		if done[o] {
			continue
		}
		done[o] = true
		for _, e := range next[o] {
			d := dist[o] + e.w
			if old, seen := dist[e.to]; seen && old <= d {
				continue
			}
			dist[e.to] = d
			if e.w == 0 {
				deque = append([]toolkit.Object{e.to}, deque...)
			} else {
				deque = append(deque, e.to)
			}
		}
	}
	d, ok := dist[dst]
	if !ok {
		return 0, fmt.Errorf("timeres: ShortestPathNetwork: no path of connections from %s to %s", toolkit.Ref(src.(toolkit.Target)), toolkit.Ref(dst.(toolkit.Target)))
	}
	return d, nil
}

// node maps an object to the graph node it belongs to: an ensemble's
// neurons to the ensemble; anything but ensembles and nodes is not a node.
func node(o toolkit.Object) (toolkit.Object, bool) {
	switch v := o.(type) {
	case *toolkit.Neurons:
		if v.Ensemble == nil {
			return nil, false
		}
		return v.Ensemble, true
	case *toolkit.Ensemble, *toolkit.Node:
		return o, true
	}
	return nil, false
}

func resolve(net *toolkit.Network, x any, arg string) (toolkit.Object, error) {
	switch v := x.(type) {
	case toolkit.Target:
		if v == nil || v.Obj() == nil {
			return nil, fmt.Errorf("timeres: ShortestPathNetwork: %s is a nil target", arg)
		}
		o, ok := node(v.Obj())
		if !ok {
			return nil, fmt.Errorf("timeres: ShortestPathNetwork: %s = %s: must be an ensemble, its neurons or a node", arg, toolkit.Ref(v))
		}
		return o, nil
	case string:
		var found []toolkit.Object
		for _, e := range net.AllEnsembles() {
			if e.Label == v {
				found = append(found, e)
			}
		}
		for _, n := range net.AllNodes() {
			if n.Label == v {
				found = append(found, n)
			}
		}
		switch len(found) {
		case 0:
			return nil, fmt.Errorf("timeres: ShortestPathNetwork: %s = %q: no ensemble or node with that label in network %q", arg, v, net.Label)
		case 1:
			return found[0], nil
		}
		return nil, fmt.Errorf("timeres: ShortestPathNetwork: %s = %q: %d objects have that label; pass the object itself", arg, v, len(found))
	}
	return nil, fmt.Errorf("timeres: ShortestPathNetwork: %s has type %T: want a toolkit.Target (ensemble, neurons, node) or a label", arg, x)
}
