package viz

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// NodeKind is the kind of a graph node, which sets its colour and shape.
type NodeKind int

const (
	// KindNode is a Nengo node (input, output or function): grey.
	KindNode NodeKind = iota
	// KindEnsemble is a Nengo ensemble: orange.
	KindEnsemble
	// KindNeuronPool is a statestream neuron-pool: green.
	KindNeuronPool
	// KindSynapsePool is a statestream synapse-pool: blue, smaller.
	KindSynapsePool
)

func (k NodeKind) String() string {
	switch k {
	case KindNode:
		return "node"
	case KindEnsemble:
		return "ensemble"
	case KindNeuronPool:
		return "neuron-pool"
	case KindSynapsePool:
		return "synapse-pool"
	}
	return fmt.Sprintf("NodeKind(%d)", int(k))
}

func (k NodeKind) color() color.RGBA {
	switch k {
	case KindEnsemble:
		return SeriesColor(3) // orange
	case KindNeuronPool:
		return SeriesColor(2) // bluish green
	case KindSynapsePool:
		return SeriesColor(0) // blue
	}
	return color.RGBA{0x99, 0x99, 0x99, 0xFF}
}

// Node is a vertex of a Graph. ID must be unique; Label (default ID) is
// drawn in the node.
type Node struct {
	ID    string
	Label string
	Kind  NodeKind
}

// Edge connects two nodes by ID (a connection, or a synapse-pool's input
// or output); Label is optional and drawn at the edge's midpoint.
type Edge struct {
	From, To string
	Label    string
}

// Graph is a model drawn by NetworkGraph: a tiny description independent
// of package toolkit (which adapts its networks and statestream specs to
// it).
type Graph struct {
	Nodes []Node
	Edges []Edge
}

// GraphOptions configures NetworkGraph.
type GraphOptions struct {
	Frame
}

// NetworkGraph draws g with a layered layout, left to right: layers by
// longest path from the sources after cutting cycles (recurrent edges,
// found by depth-first search, are drawn dashed), nodes ordered within a
// layer by the mean position of their predecessors (one barycentre sweep,
// Sugiyama et al. 1981). Best viewed as SVG.
func NetworkGraph(g Graph, opts GraphOptions) (*Plot, error) {
	const name = "NetworkGraph"
	if len(g.Nodes) == 0 {
		return nil, errf(name, "g.Nodes", "[]", "must not be empty")
	}
	idx := map[string]int{}
	for i, n := range g.Nodes {
		if n.ID == "" {
			return nil, errf(name, fmt.Sprintf("g.Nodes[%d].ID", i), `""`, "must not be empty")
		}
		if j, dup := idx[n.ID]; dup {
			return nil, errf(name, fmt.Sprintf("g.Nodes[%d].ID", i), n.ID, fmt.Sprintf("must be unique (also g.Nodes[%d])", j))
		}
		if n.Kind < KindNode || n.Kind > KindSynapsePool {
			return nil, errf(name, fmt.Sprintf("g.Nodes[%d].Kind", i), int(n.Kind), "must be KindNode, KindEnsemble, KindNeuronPool or KindSynapsePool")
		}
		idx[n.ID] = i
	}
	n := len(g.Nodes)
	type edge struct {
		a, b  int
		back  bool
		label string
	}
	edges := make([]edge, len(g.Edges))
	out := make([][]int, n)
	for k, e := range g.Edges {
		a, ok := idx[e.From]
		if !ok {
			return nil, errf(name, fmt.Sprintf("g.Edges[%d].From", k), e.From, "must be the ID of a node")
		}
		b, ok := idx[e.To]
		if !ok {
			return nil, errf(name, fmt.Sprintf("g.Edges[%d].To", k), e.To, "must be the ID of a node")
		}
		edges[k] = edge{a: a, b: b, label: e.Label}
		out[a] = append(out[a], k)
	}
	// Mark back edges by iterative-deepening DFS colours.
	state := make([]int8, n) // 0 new, 1 on stack, 2 done
	var dfs func(v int)
	dfs = func(v int) {
		state[v] = 1
		for _, k := range out[v] {
			w := edges[k].b
			switch state[w] {
			case 0:
				dfs(w)
			case 1:
				edges[k].back = true
			}
		}
		state[v] = 2
	}
	indeg := make([]int, n)
	for _, e := range edges {
		indeg[e.b]++
	}
	for v := 0; v < n; v++ { // sources first, then anything left
		if indeg[v] == 0 && state[v] == 0 {
			dfs(v)
		}
	}
	for v := 0; v < n; v++ {
		if state[v] == 0 {
			dfs(v)
		}
	}
	// Longest-path layering over forward edges (topological order by
	// relaxation; n is small).
	layer := make([]int, n)
	for changed, iter := true, 0; changed && iter <= n; iter++ {
		changed = false
		for _, e := range edges {
			if !e.back && e.a != e.b && layer[e.b] < layer[e.a]+1 {
				layer[e.b] = layer[e.a] + 1
				changed = true
			}
		}
	}
	nl := 0
	for _, l := range layer {
		nl = max(nl, l+1)
	}
	layers := make([][]int, nl)
	for v, l := range layer {
		layers[l] = append(layers[l], v)
	}
	pos := make([]float64, n) // index within layer
	for _, ls := range layers {
		for i, v := range ls {
			pos[v] = float64(i)
		}
	}
	for l := 1; l < nl; l++ {
		bary := map[int]float64{}
		for _, v := range layers[l] {
			s, c := 0.0, 0
			for _, e := range edges {
				if e.b == v && !e.back && layer[e.a] < l {
					s += pos[e.a]
					c++
				}
			}
			bary[v] = pos[v]
			if c > 0 {
				bary[v] = s / float64(c)
			}
		}
		sort.SliceStable(layers[l], func(i, j int) bool { return bary[layers[l][i]] < bary[layers[l][j]] })
		for i, v := range layers[l] {
			pos[v] = float64(i)
		}
	}
	maxPer := 0
	for _, ls := range layers {
		maxPer = max(maxPer, len(ls))
	}
	fr := opts.Frame
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width = math.Min(1280, math.Max(360, float64(nl)*150))
		fr.Height = math.Min(900, math.Max(200, float64(maxPer)*70+60))
	}
	title := fr.Title
	return newPlot(name, fr, func(c draw.Canvas, _ float64) {
		top := c.Max.Y
		if title != "" {
			sty := textStyle(titleSize)
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
			c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: top - vg.Points(4)}, title)
			top -= vg.Points(26)
		}
		W, H := c.Max.X-c.Min.X, top-c.Min.Y
		center := make([]vg.Point, n)
		for l, ls := range layers {
			for i, v := range ls {
				center[v] = vg.Point{
					X: c.Min.X + W*vg.Length((float64(l)+0.5)/float64(nl)),
					Y: top - H*vg.Length((float64(i)+0.5)/float64(len(ls))),
				}
			}
		}
		sty := textStyle(tickSize)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
		half := make([]vg.Point, n) // half width, half height of boxes
		for v, nd := range g.Nodes {
			lab := pick(nd.Label, nd.ID)
			hw := sty.Width(lab)/2 + vg.Points(8)
			hh := vg.Points(13)
			if nd.Kind == KindSynapsePool {
				hh = vg.Points(10)
			}
			half[v] = vg.Point{X: hw, Y: hh}
		}
		// Edges first, under the nodes.
		for _, e := range edges {
			ls := draw.LineStyle{Color: color.Gray{0x55}, Width: vg.Points(1.2)}
			if e.back {
				ls.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				ls.Color = SeriesColor(1)
			}
			a, b := center[e.a], center[e.b]
			if e.a == e.b { // self-loop above the node
				r := vg.Points(9)
				p := vg.Point{X: a.X, Y: a.Y + half[e.a].Y + r*0.6}
				var path vg.Path
				path.Move(vg.Point{X: p.X + r, Y: p.Y})
				path.Arc(p, r, 0, 2*math.Pi)
				path.Close()
				c.SetLineStyle(ls)
				c.Stroke(path)
				continue
			}
			// Clip the segment to the boxes' borders.
			s, t := clipBox(a, b, half[e.a]), clipBox(b, a, half[e.b])
			if e.back { // bow recurrent edges so they do not overlap forward ones
				mid := vg.Point{X: (s.X + t.X) / 2, Y: (s.Y+t.Y)/2 - vg.Points(30)}
				var path vg.Path
				path.Move(s)
				path.QuadTo(mid, t)
				c.SetLineStyle(ls)
				c.Stroke(path)
				arrow(c, mid, t, ls.Color)
			} else {
				c.StrokeLine2(ls, s.X, s.Y, t.X, t.Y)
				arrow(c, s, t, ls.Color)
			}
			if e.label != "" {
				es := textStyle(tickSize - 1.5)
				es.XAlign, es.YAlign = draw.XCenter, draw.YBottom
				c.FillText(es, vg.Point{X: (s.X + t.X) / 2, Y: (s.Y+t.Y)/2 + vg.Points(2)}, e.label)
			}
		}
		for v, nd := range g.Nodes {
			p, h := center[v], half[v]
			col := nd.Kind.color()
			box := []vg.Point{{X: p.X - h.X, Y: p.Y - h.Y}, {X: p.X + h.X, Y: p.Y - h.Y}, {X: p.X + h.X, Y: p.Y + h.Y}, {X: p.X - h.X, Y: p.Y + h.Y}}
			c.FillPolygon(col, box)
			c.StrokeLines(draw.LineStyle{Color: color.Gray{0x30}, Width: vg.Points(0.6)}, append(box, box[0]))
			sty.Color = textOn(col)
			c.FillText(sty, p, pick(nd.Label, nd.ID))
		}
		// Legend of the kinds used, bottom left.
		used := map[NodeKind]bool{}
		for _, nd := range g.Nodes {
			used[nd.Kind] = true
		}
		ls := textStyle(tickSize - 1)
		ls.YAlign = draw.YCenter
		x := c.Min.X + vg.Points(6)
		for k := KindNode; k <= KindSynapsePool; k++ {
			if !used[k] {
				continue
			}
			y := c.Min.Y + vg.Points(8)
			c.FillPolygon(k.color(), []vg.Point{{X: x, Y: y - 4}, {X: x + 8, Y: y - 4}, {X: x + 8, Y: y + 4}, {X: x, Y: y + 4}})
			c.FillText(ls, vg.Point{X: x + 11, Y: y}, k.String())
			x += ls.Width(k.String()) + vg.Points(24)
		}
	}), nil
}

// clipBox moves a towards b until it leaves the box of half size h
// centred on a.
func clipBox(a, b vg.Point, h vg.Point) vg.Point {
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	if dx == 0 && dy == 0 {
		return a
	}
	s := math.Inf(1)
	if dx != 0 {
		s = math.Min(s, float64(h.X)/math.Abs(dx))
	}
	if dy != 0 {
		s = math.Min(s, float64(h.Y)/math.Abs(dy))
	}
	s = math.Min(s, 0.5)
	return vg.Point{X: a.X + vg.Length(dx*s), Y: a.Y + vg.Length(dy*s)}
}

// arrow draws an arrowhead at t pointing away from s.
func arrow(c draw.Canvas, s, t vg.Point, col color.Color) {
	dx, dy := float64(t.X-s.X), float64(t.Y-s.Y)
	d := math.Hypot(dx, dy)
	if d == 0 {
		return
	}
	ux, uy := dx/d, dy/d
	const l, w = 7.0, 3.5
	p1 := vg.Point{X: t.X - vg.Length(l*ux-w*uy), Y: t.Y - vg.Length(l*uy+w*ux)}
	p2 := vg.Point{X: t.X - vg.Length(l*ux+w*uy), Y: t.Y - vg.Length(l*uy-w*ux)}
	c.FillPolygon(col, []vg.Point{t, p1, p2})
}

// GraphSource is a model that can list itself as a graph; toolkit.Network
// implements it (GraphNodes/GraphEdges), so that viz needs no dependency
// on the toolkit. Kinds are "ensemble", "node", "neuron-pool" and
// "synapse-pool".
type GraphSource interface {
	GraphNodes() (ids, labels, kinds []string)
	GraphEdges() (from, to, labels []string)
}

// ModelGraph draws a model (a toolkit.Network, say) as a layered graph:
// ModelGraph(net, GraphOptions{}) is NetworkGraph of its nodes and
// connections.
func ModelGraph(src GraphSource, opts GraphOptions) (*Plot, error) {
	if src == nil {
		return nil, errf("ModelGraph", "src", "nil", "must be a model (e.g. a *toolkit.Network)")
	}
	ids, labels, kinds := src.GraphNodes()
	if len(labels) != len(ids) || len(kinds) != len(ids) {
		return nil, errf("ModelGraph", "GraphNodes", fmt.Sprintf("%d ids, %d labels, %d kinds", len(ids), len(labels), len(kinds)), "must have equal lengths")
	}
	var g Graph
	for i, id := range ids {
		var k NodeKind
		switch kinds[i] {
		case "ensemble":
			k = KindEnsemble
		case "node":
			k = KindNode
		case "neuron-pool":
			k = KindNeuronPool
		case "synapse-pool":
			k = KindSynapsePool
		default:
			return nil, errf("ModelGraph", "kinds", kinds[i], "must be ensemble, node, neuron-pool or synapse-pool")
		}
		g.Nodes = append(g.Nodes, Node{ID: id, Label: labels[i], Kind: k})
	}
	from, to, elabels := src.GraphEdges()
	if len(to) != len(from) || len(elabels) != len(from) {
		return nil, errf("ModelGraph", "GraphEdges", fmt.Sprintf("%d from, %d to, %d labels", len(from), len(to), len(elabels)), "must have equal lengths")
	}
	for i := range from {
		g.Edges = append(g.Edges, Edge{From: from[i], To: to[i], Label: elabels[i]})
	}
	if opts.Title == "" {
		opts.Title = "Model"
	}
	return NetworkGraph(g, opts)
}
