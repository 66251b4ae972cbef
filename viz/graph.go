package viz

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

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

// GraphOptions configures NetworkGraph and ModelGraph.
type GraphOptions struct {
	// Frame: Title is drawn above the graph ("": none for NetworkGraph,
	// "Model" for ModelGraph); zero sizes fit the canvas to the layout
	// (nodes, layers, label widths; at most 1280×900); a given size
	// spreads or squeezes the layout to fit it. XLabel and YLabel are not
	// used.
	Frame
}

// graphEdge is an edge by node index.
type graphEdge struct {
	a, b  int
	back  bool
	label string
}

// graphStruct is a validated graph with its layers.
type graphStruct struct {
	nodes  []Node
	edges  []graphEdge
	layer  []int
	layers [][]int // node indices per layer, in drawing order (top first)
}

// graphGeom is a laid-out graph in points, origin at the canvas's lower
// left corner.
type graphGeom struct {
	size    vg.Point
	nodes   []vg.Rectangle // node boxes
	paths   [][]vg.Point   // per edge, from the source's border to the target's
	labels  []vg.Rectangle // per edge: the label's box (empty: none or in the key)
	keys    []int          // per edge: its number in the key (0: none)
	marks   []vg.Point     // per keyed edge: centre of its number
	keyed   []int          // edges in the key, in key order
	loose   int            // labels that had to cross another edge
	titleY  vg.Length      // top of the title
	legendY vg.Length      // centre line of the kinds legend
}

// Layout constants, in points.
const (
	graphMargin  = 10
	graphRowGap  = 34 // vertical space between node boxes in a layer
	graphMinGap  = 44 // horizontal space between layers
	graphTitleH  = 26
	graphLegendH = 20
	graphKeyRowH = 15
	graphMaxW    = 1280
	graphMaxH    = 900
)

// NetworkGraph draws g with a layered layout, left to right: layers by
// longest path from the sources after cutting cycles (recurrent edges,
// found by depth-first search, are drawn dashed and bowed), nodes ordered
// within a layer by the mean position of their predecessors (one
// barycentre sweep, Sugiyama et al. 1981). Edges that would cross a node
// or run beside another edge between the same nodes are bowed around it.
// Edge labels are placed along their edges where they overlap no node
// and no other label; a label with no room is replaced by a number
// explained in a key under the graph. With a zero Frame size the canvas
// is fitted to the layout.
func NetworkGraph(g Graph, opts GraphOptions) (*Plot, error) {
	const name = "NetworkGraph"
	s, err := graphStructure(name, g)
	if err != nil {
		return nil, err
	}
	fr := opts.Frame
	geo := s.layout(fr.Title, vg.Length(fr.Width), vg.Length(fr.Height))
	if fr.Width == 0 && fr.Height == 0 {
		fr.Width, fr.Height = math.Round(float64(geo.size.X)), math.Round(float64(geo.size.Y))
	}
	title := fr.Title
	return newPlot(name, fr, func(c draw.Canvas, _ float64) {
		w, h := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y
		gg := geo
		if math.Abs(float64(w-geo.size.X)) > 1 || math.Abs(float64(h-geo.size.Y)) > 1 {
			gg = s.layout(title, w, h)
		}
		s.draw(c, gg, title)
	}), nil
}

// graphStructure validates g and computes its layers.
func graphStructure(name string, g Graph) (*graphStruct, error) {
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
	edges := make([]graphEdge, len(g.Edges))
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
		edges[k] = graphEdge{a: a, b: b, label: e.Label}
		out[a] = append(out[a], k)
	}
	// Mark back edges by depth-first search colours.
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
	// Longest-path layering over forward edges (relaxation; n is small).
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
	return &graphStruct{nodes: g.Nodes, edges: edges, layer: layer, layers: layers}, nil
}

// graphNodeStyle and graphEdgeStyle are the text styles of node and edge
// labels (the house tick size).
func graphNodeStyle() draw.TextStyle { return textStyle(tickSize) }
func graphEdgeStyle() draw.TextStyle { return textStyle(tickSize) }

// halfSizes are the half width and height of each node's box.
func (s *graphStruct) halfSizes() []vg.Point {
	sty := graphNodeStyle()
	half := make([]vg.Point, len(s.nodes))
	for v, nd := range s.nodes {
		hh := vg.Points(13)
		if nd.Kind == KindSynapsePool {
			hh = vg.Points(10)
		}
		half[v] = vg.Point{X: sty.Width(pick(nd.Label, nd.ID))/2 + vg.Points(8), Y: hh}
	}
	return half
}

// naturalCentres places the node centres with layer gaps wide enough for
// the labels of the edges between them, times spread; y is centred on 0.
func (s *graphStruct) naturalCentres(half []vg.Point, spread float64) []vg.Point {
	nl := len(s.layers)
	lw := make([]vg.Length, nl)
	for l, ls := range s.layers {
		for _, v := range ls {
			lw[l] = max(lw[l], 2*half[v].X)
		}
	}
	gap := make([]vg.Length, nl)
	es := graphEdgeStyle()
	for l := range gap {
		gap[l] = vg.Points(graphMinGap)
	}
	for _, e := range s.edges {
		la, lb := s.layer[e.a], s.layer[e.b]
		if e.label == "" || la == lb {
			continue
		}
		// A label spanning several gaps may use any of them: share its
		// width out.
		span := vg.Length(max(1, absInt(la-lb)))
		w := (es.Width(e.label) + vg.Points(16)) / span
		for k := min(la, lb); k < max(la, lb); k++ {
			gap[k] = max(gap[k], w)
		}
	}
	for l := range gap {
		gap[l] *= vg.Length(spread)
	}
	step := 2*vg.Points(13) + vg.Points(graphRowGap*spread)
	centres := make([]vg.Point, len(s.nodes))
	x := vg.Length(0)
	for l, ls := range s.layers {
		x += lw[l] / 2
		k := len(ls)
		for i, v := range ls {
			centres[v] = vg.Point{X: x, Y: vg.Length(float64(k-1)/2-float64(i)) * step}
		}
		x += lw[l]/2 + gap[l]
	}
	return centres
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// layout lays the graph out on a w×h canvas (both zero: the natural size,
// capped at 1280×900) with a title strip when title is set.
func (s *graphStruct) layout(title string, w, h vg.Length) *graphGeom {
	half := s.halfSizes()
	// The natural layout: the tightest spread whose labels all fit beside
	// their edges without crossing others.
	var geo *graphGeom
	var centres []vg.Point
	for _, spread := range []float64{1, 1.3, 1.7, 2.2} {
		c := s.naturalCentres(half, spread)
		g := s.route(c, half, nil)
		if geo == nil || len(g.keyed) < len(geo.keyed) || (len(g.keyed) == len(geo.keyed) && g.loose < geo.loose) {
			geo, centres = g, c
		}
		if len(g.keyed) == 0 && g.loose == 0 {
			break
		}
	}
	titleH := vg.Length(0)
	if title != "" {
		titleH = vg.Points(graphTitleH)
	}
	bottom := vg.Points(graphLegendH)
	margin := vg.Points(graphMargin)
	if w <= 0 && h <= 0 {
		bb := geo.bounds()
		if len(geo.keyed) == 0 {
			sz := vg.Point{X: bb.Size().X + 2*margin, Y: bb.Size().Y + 2*margin + titleH + bottom}
			sz.X = max(sz.X, s.legendWidth()+2*margin, vg.Points(240))
			sz.X, sz.Y = vg.Length(math.Ceil(float64(sz.X))), vg.Length(math.Ceil(float64(sz.Y)))
			if sz.X <= graphMaxW && sz.Y <= graphMaxH {
				// Centre the content horizontally, then shift it into place.
				dx := margin + (sz.X-2*margin-bb.Size().X)/2 - bb.Min.X
				dy := bottom + margin - bb.Min.Y
				geo.shift(dx, dy)
				geo.size = sz
				geo.titleY = sz.Y
				geo.legendY = bottom / 2
				return geo
			}
		}
		// Labels that need a key, or too large: fit a capped canvas.
		w = min(graphMaxW, max(bb.Size().X+2*margin, vg.Points(240)))
		h = min(graphMaxH, bb.Size().Y+2*margin+titleH+bottom+vg.Length(len(geo.keyed))*vg.Points(graphKeyRowH))
		w, h = vg.Length(math.Ceil(float64(w))), vg.Length(math.Ceil(float64(h)))
	}
	// Fixed size: map the natural centres linearly into the content area.
	area := vg.Rectangle{Min: vg.Point{X: margin, Y: bottom + margin}, Max: vg.Point{X: w - margin, Y: h - titleH - margin}}
	for pass := 0; pass < 2; pass++ {
		lo, hi := centres[0], centres[0]
		padL, padR, padV := half[0].X, half[0].X, vg.Length(0)
		for v, c := range centres {
			if c.X < lo.X {
				lo.X, padL = c.X, half[v].X
			}
			if c.X > hi.X {
				hi.X, padR = c.X, half[v].X
			}
			lo.Y, hi.Y = min(lo.Y, c.Y), max(hi.Y, c.Y)
			padV = max(padV, half[v].Y)
		}
		padV += vg.Points(8)
		fit := make([]vg.Point, len(centres))
		for v, c := range centres {
			fit[v] = vg.Point{X: mapRange(c.X, lo.X, hi.X, area.Min.X+padL, area.Max.X-padR),
				Y: mapRange(c.Y, lo.Y, hi.Y, area.Min.Y+padV, area.Max.Y-padV)}
		}
		geo = s.route(fit, half, &area)
		if pass > 0 || len(geo.keyed) == 0 {
			break
		}
		// Room for the key under the graph: shrink the area and redo once.
		keyH := vg.Length(len(geo.keyed)) * vg.Points(graphKeyRowH)
		if area.Min.Y+keyH >= area.Max.Y-vg.Points(30) {
			break
		}
		area.Min.Y += keyH
	}
	geo.size = vg.Point{X: w, Y: h}
	geo.titleY = h
	geo.legendY = bottom / 2
	return geo
}

// mapRange maps x in [lo, hi] linearly onto [a, b] (the middle when the
// range is empty).
func mapRange(x, lo, hi, a, b vg.Length) vg.Length {
	if hi <= lo {
		return (a + b) / 2
	}
	return a + (x-lo)*(b-a)/(hi-lo)
}

// legendWidth is the width of the node-kind legend.
func (s *graphStruct) legendWidth() vg.Length {
	ls := textStyle(tickSize)
	used := map[NodeKind]bool{}
	var w vg.Length
	for _, nd := range s.nodes {
		if !used[nd.Kind] {
			used[nd.Kind] = true
			w += ls.Width(nd.Kind.String()) + vg.Points(24)
		}
	}
	return w
}

// route draws each edge's path between the node boxes at centres and
// places its label; area (nil: unbounded) bounds the labels.
func (s *graphStruct) route(centres, half []vg.Point, area *vg.Rectangle) *graphGeom {
	geo := &graphGeom{
		nodes:  make([]vg.Rectangle, len(s.nodes)),
		paths:  make([][]vg.Point, len(s.edges)),
		labels: make([]vg.Rectangle, len(s.edges)),
		keys:   make([]int, len(s.edges)),
		marks:  make([]vg.Point, len(s.edges)),
	}
	for v, c := range centres {
		geo.nodes[v] = vg.Rectangle{Min: vg.Point{X: c.X - half[v].X, Y: c.Y - half[v].Y}, Max: vg.Point{X: c.X + half[v].X, Y: c.Y + half[v].Y}}
	}
	hits := func(pts []vg.Point, a, b int) int {
		n := 0
		if area != nil {
			// Leaving the canvas is bad; crossing a node (weighted 2)
			// is worse, as it suggests a connection that is not there.
			for _, p := range pts {
				if !inRect(p, *area) {
					n++
					break
				}
			}
		}
		for v, r := range geo.nodes {
			if v == a || v == b {
				continue
			}
			r = grow(r, vg.Points(4))
			for _, p := range pts {
				if inRect(p, r) {
					n += 2
					break
				}
			}
		}
		return n
	}
	used := map[[2]int][]vg.Length{} // offsets per node pair, in the pair's direction
	for k, e := range s.edges {
		a, b := centres[e.a], centres[e.b]
		if e.a == e.b { // self-loop above the node
			r := vg.Points(9)
			p := vg.Point{X: a.X, Y: a.Y + half[e.a].Y + r*0.6}
			var pts []vg.Point
			for i := 0; i <= 24; i++ {
				t := 2 * math.Pi * float64(i) / 24
				pts = append(pts, vg.Point{X: p.X + r*vg.Length(math.Cos(t)), Y: p.Y + r*vg.Length(math.Sin(t))})
			}
			geo.paths[k] = pts
			continue
		}
		pair, sign := [2]int{e.a, e.b}, vg.Length(1)
		if e.a > e.b {
			pair, sign = [2]int{e.b, e.a}, -1
		}
		cands := []float64{0, 36, -36, 60, -60, 90, -90, 130, -130}
		if e.back {
			cands = []float64{40, 70, -40, 100, -70, 130, -100}
		}
		best, bestHits := vg.Length(0), math.MaxInt
		var bestPts []vg.Point
		for _, c := range cands {
			off := vg.Points(c)
			clash := false
			for _, u := range used[pair] {
				if math.Abs(float64(u-sign*off)) < 20 {
					clash = true
				}
			}
			if clash {
				continue
			}
			pts := bezier(a, b, off, 48)
			if n := hits(pts, e.a, e.b); n < bestHits {
				best, bestHits, bestPts = off, n, pts
				if n == 0 {
					break
				}
			}
		}
		used[pair] = append(used[pair], sign*best)
		geo.paths[k] = clipPath(bestPts, geo.nodes[e.a], geo.nodes[e.b])
	}
	s.placeLabels(geo, area)
	return geo
}

// bezier samples n+1 points of the quadratic curve from a to b whose apex
// lies off points to the left of the direction a→b (0: the segment).
func bezier(a, b vg.Point, off vg.Length, n int) []vg.Point {
	dx, dy := b.X-a.X, b.Y-a.Y
	d := vg.Length(math.Hypot(float64(dx), float64(dy)))
	if d == 0 {
		return []vg.Point{a, b}
	}
	ctl := vg.Point{X: (a.X+b.X)/2 - dy/d*2*off, Y: (a.Y+b.Y)/2 + dx/d*2*off}
	pts := make([]vg.Point, n+1)
	for i := range pts {
		t := vg.Length(float64(i) / float64(n))
		u := 1 - t
		pts[i] = vg.Point{X: u*u*a.X + 2*u*t*ctl.X + t*t*b.X, Y: u*u*a.Y + 2*u*t*ctl.Y + t*t*b.Y}
	}
	return pts
}

// clipPath cuts the parts of pts inside the boxes ra (start) and rb
// (end), ending exactly on their borders.
func clipPath(pts []vg.Point, ra, rb vg.Rectangle) []vg.Point {
	i := 0
	for i < len(pts)-2 && inRect(pts[i+1], ra) {
		i++
	}
	j := len(pts) - 1
	for j > i+1 && inRect(pts[j-1], rb) {
		j--
	}
	out := append([]vg.Point(nil), pts[i:j+1]...)
	if len(out) >= 2 {
		out[0] = borderPoint(out[1], out[0], ra)
		out[len(out)-1] = borderPoint(out[len(out)-2], out[len(out)-1], rb)
	}
	return out
}

// borderPoint is where the segment from p (outside r) towards q enters r
// (q itself when it is outside r).
func borderPoint(p, q vg.Point, r vg.Rectangle) vg.Point {
	if !inRect(q, r) || inRect(p, r) {
		return q
	}
	lo, hi := 0.0, 1.0
	for it := 0; it < 24; it++ {
		m := (lo + hi) / 2
		x := vg.Point{X: p.X + (q.X-p.X)*vg.Length(m), Y: p.Y + (q.Y-p.Y)*vg.Length(m)}
		if inRect(x, r) {
			hi = m
		} else {
			lo = m
		}
	}
	return vg.Point{X: p.X + (q.X-p.X)*vg.Length(lo), Y: p.Y + (q.Y-p.Y)*vg.Length(lo)}
}

func inRect(p vg.Point, r vg.Rectangle) bool {
	return p.X >= r.Min.X && p.X <= r.Max.X && p.Y >= r.Min.Y && p.Y <= r.Max.Y
}

func grow(r vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: r.Min.X - d, Y: r.Min.Y - d}, Max: vg.Point{X: r.Max.X + d, Y: r.Max.Y + d}}
}

func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

func inside(a, area vg.Rectangle) bool {
	return a.Min.X >= area.Min.X && a.Max.X <= area.Max.X && a.Min.Y >= area.Min.Y && a.Max.Y <= area.Max.Y
}

// crosses reports whether the polyline pts passes through r.
func crosses(pts []vg.Point, r vg.Rectangle) bool {
	for i := 0; i+1 < len(pts); i++ {
		p, q := pts[i], pts[i+1]
		for k := 0; k <= 4; k++ {
			t := vg.Length(k) / 4
			if inRect(vg.Point{X: p.X + (q.X-p.X)*t, Y: p.Y + (q.Y-p.Y)*t}, r) {
				return true
			}
		}
	}
	return false
}

// pointAt is the point at fraction t of the polyline's length and the
// unit direction there.
func pointAt(pts []vg.Point, t float64) (vg.Point, [2]float64) {
	var total float64
	for i := 0; i+1 < len(pts); i++ {
		total += math.Hypot(float64(pts[i+1].X-pts[i].X), float64(pts[i+1].Y-pts[i].Y))
	}
	want := t * total
	for i := 0; i+1 < len(pts); i++ {
		dx, dy := float64(pts[i+1].X-pts[i].X), float64(pts[i+1].Y-pts[i].Y)
		l := math.Hypot(dx, dy)
		if l > 0 && (want <= l || i+2 == len(pts)) {
			f := math.Min(1, want/l)
			return vg.Point{X: pts[i].X + vg.Length(dx*f), Y: pts[i].Y + vg.Length(dy*f)}, [2]float64{dx / l, dy / l}
		}
		want -= l
	}
	return pts[0], [2]float64{1, 0}
}

// placeLabels puts each edge label beside its edge where it overlaps no
// node, no placed label and (preferably) no other edge, inside area when
// given; labels with no room get a number and go to the key.
func (s *graphStruct) placeLabels(geo *graphGeom, area *vg.Rectangle) {
	es := graphEdgeStyle()
	var placed []vg.Rectangle
	free := func(r vg.Rectangle, self int, strict bool) bool {
		if area != nil && !inside(r, *area) {
			return false
		}
		for _, n := range geo.nodes {
			if overlaps(r, grow(n, vg.Points(2))) {
				return false
			}
		}
		for _, p := range placed {
			if overlaps(r, grow(p, vg.Points(1))) {
				return false
			}
		}
		for k, pts := range geo.paths {
			if (strict || k == self) && crosses(pts, r) {
				return false
			}
		}
		return true
	}
	candidates := func(k int, w, h vg.Length) []vg.Rectangle {
		pts := geo.paths[k]
		var out []vg.Rectangle
		if e := s.edges[k]; e.a == e.b {
			// Self-loop: above it, then beside it.
			n := geo.nodes[e.a]
			top := n.Max.Y + vg.Points(9*1.6+1)
			cx := (n.Min.X + n.Max.X) / 2
			for _, c := range []vg.Point{{X: cx, Y: top + h/2}, {X: cx - w/2 - vg.Points(11), Y: n.Max.Y + h/2 + 1}, {X: cx + w/2 + vg.Points(11), Y: n.Max.Y + h/2 + 1}} {
				out = append(out, vg.Rectangle{Min: vg.Point{X: c.X - w/2, Y: c.Y - h/2}, Max: vg.Point{X: c.X + w/2, Y: c.Y + h/2}})
			}
			return out
		}
		for _, t := range []float64{0.5, 0.38, 0.62, 0.26, 0.74, 0.15, 0.85} {
			p, d := pointAt(pts, t)
			nx, ny := -d[1], d[0] // left normal
			if ny < 0 || (ny == 0 && nx < 0) {
				nx, ny = -nx, -ny // "above" first
			}
			off := math.Abs(nx)*float64(w)/2 + math.Abs(ny)*float64(h)/2 + 2.5
			for _, side := range []float64{1, -1} {
				cx, cy := p.X+vg.Length(side*nx*off), p.Y+vg.Length(side*ny*off)
				out = append(out, vg.Rectangle{Min: vg.Point{X: cx - w/2, Y: cy - h/2}, Max: vg.Point{X: cx + w/2, Y: cy + h/2}})
			}
		}
		return out
	}
	var pending []int
	for k, e := range s.edges {
		if e.label == "" || len(geo.paths[k]) < 2 {
			continue
		}
		w, h := es.Width(e.label)+vg.Points(4), es.Height(e.label)+vg.Points(1)
		cs := candidates(k, w, h)
		done := false
		for _, strict := range []bool{true, false} {
			for _, r := range cs {
				if free(r, k, strict) {
					geo.labels[k] = r
					placed = append(placed, r)
					done = true
					if !strict {
						geo.loose++
					}
					break
				}
			}
			if done {
				break
			}
		}
		if !done {
			pending = append(pending, k)
		}
	}
	// Numbers for the rest, placed the same way (or on the edge).
	for i, k := range pending {
		num := strconv.Itoa(i + 1)
		w := max(es.Width(num)+vg.Points(6), es.Height(num)+vg.Points(2))
		geo.keys[k] = i + 1
		geo.keyed = append(geo.keyed, k)
		p, _ := pointAt(geo.paths[k], 0.5)
		r := vg.Rectangle{Min: vg.Point{X: p.X - w/2, Y: p.Y - w/2}, Max: vg.Point{X: p.X + w/2, Y: p.Y + w/2}}
		for _, c := range candidates(k, w, w) {
			if free(c, k, false) {
				r = c
				break
			}
		}
		placed = append(placed, r)
		geo.marks[k] = vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
	}
}

// bounds is the box around nodes, paths, labels and key numbers.
func (g *graphGeom) bounds() vg.Rectangle {
	bb := g.nodes[0]
	add := func(p vg.Point) {
		bb.Min.X, bb.Min.Y = min(bb.Min.X, p.X), min(bb.Min.Y, p.Y)
		bb.Max.X, bb.Max.Y = max(bb.Max.X, p.X), max(bb.Max.Y, p.Y)
	}
	for _, r := range g.nodes {
		add(r.Min)
		add(r.Max)
	}
	for _, pts := range g.paths {
		for _, p := range pts {
			add(p)
		}
	}
	for k, r := range g.labels {
		if r.Size().X > 0 {
			add(r.Min)
			add(r.Max)
		}
		if g.keys[k] > 0 {
			add(g.marks[k])
		}
	}
	return bb
}

// shift moves everything by (dx, dy).
func (g *graphGeom) shift(dx, dy vg.Length) {
	mv := func(p vg.Point) vg.Point { return vg.Point{X: p.X + dx, Y: p.Y + dy} }
	for i, r := range g.nodes {
		g.nodes[i] = vg.Rectangle{Min: mv(r.Min), Max: mv(r.Max)}
	}
	for _, pts := range g.paths {
		for i := range pts {
			pts[i] = mv(pts[i])
		}
	}
	for i, r := range g.labels {
		if r.Size().X > 0 {
			g.labels[i] = vg.Rectangle{Min: mv(r.Min), Max: mv(r.Max)}
		}
		if g.keys[i] > 0 {
			g.marks[i] = mv(g.marks[i])
		}
	}
}

// draw draws the laid-out graph on c.
func (s *graphStruct) draw(c draw.Canvas, geo *graphGeom, title string) {
	o := c.Min
	at := func(p vg.Point) vg.Point { return vg.Point{X: o.X + p.X, Y: o.Y + p.Y} }
	if title != "" {
		sty := textStyle(titleSize)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: o.Y + geo.titleY - vg.Points(4)}, title)
	}
	// Edges first, under the nodes.
	for k, e := range s.edges {
		pts := geo.paths[k]
		if len(pts) < 2 {
			continue
		}
		ls := draw.LineStyle{Color: color.Gray{0x55}, Width: vg.Points(1.2)}
		if e.back {
			ls.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			ls.Color = SeriesColor(1)
		}
		abs := make([]vg.Point, len(pts))
		for i, p := range pts {
			abs[i] = at(p)
		}
		c.StrokeLines(ls, abs)
		if e.a != e.b {
			arrow(c, abs[len(abs)-2], abs[len(abs)-1], ls.Color)
		}
	}
	es := graphEdgeStyle()
	es.XAlign, es.YAlign = draw.XCenter, draw.YCenter
	bg := color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	for k, e := range s.edges {
		if r := geo.labels[k]; r.Size().X > 0 {
			box := []vg.Point{at(r.Min), at(vg.Point{X: r.Max.X, Y: r.Min.Y}), at(r.Max), at(vg.Point{X: r.Min.X, Y: r.Max.Y})}
			c.FillPolygon(bg, box)
			c.FillText(es, at(vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}), e.label)
		}
		if n := geo.keys[k]; n > 0 {
			graphMark(c, at(geo.marks[k]), n)
		}
	}
	sty := graphNodeStyle()
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for v, nd := range s.nodes {
		r := geo.nodes[v]
		col := nd.Kind.color()
		box := []vg.Point{at(r.Min), at(vg.Point{X: r.Max.X, Y: r.Min.Y}), at(r.Max), at(vg.Point{X: r.Min.X, Y: r.Max.Y})}
		c.FillPolygon(col, box)
		c.StrokeLines(draw.LineStyle{Color: color.Gray{0x30}, Width: vg.Points(0.6)}, append(box, box[0]))
		sty.Color = textOn(col)
		c.FillText(sty, at(vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}), pick(nd.Label, nd.ID))
	}
	// Legend of the kinds used, bottom left.
	used := map[NodeKind]bool{}
	for _, nd := range s.nodes {
		used[nd.Kind] = true
	}
	ls := textStyle(tickSize)
	ls.YAlign = draw.YCenter
	x := o.X + vg.Points(graphMargin)
	y := o.Y + geo.legendY
	for k := KindNode; k <= KindSynapsePool; k++ {
		if !used[k] {
			continue
		}
		c.FillPolygon(k.color(), []vg.Point{{X: x, Y: y - 4}, {X: x + 8, Y: y - 4}, {X: x + 8, Y: y + 4}, {X: x, Y: y + 4}})
		c.FillText(ls, vg.Point{X: x + 11, Y: y}, k.String())
		x += ls.Width(k.String()) + vg.Points(24)
	}
	// Key of the numbered edge labels, above the legend.
	for i, k := range geo.keyed {
		yy := y + vg.Points(graphLegendH/2+4) + vg.Length(len(geo.keyed)-1-i)*vg.Points(graphKeyRowH)
		xx := o.X + vg.Points(graphMargin+6)
		graphMark(c, vg.Point{X: xx, Y: yy}, geo.keys[k])
		c.FillText(ls, vg.Point{X: xx + vg.Points(12), Y: yy}, s.edges[k].label)
	}
}

// graphMark draws the number n in a small circle centred on p.
func graphMark(c draw.Canvas, p vg.Point, n int) {
	sty := textStyle(tickSize - 1)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	num := strconv.Itoa(n)
	r := max(sty.Width(num), sty.Height(num))/2 + vg.Points(2)
	var path vg.Path
	path.Move(vg.Point{X: p.X + r, Y: p.Y})
	path.Arc(p, r, 0, 2*math.Pi)
	path.Close()
	c.SetColor(color.White)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{0x55}, Width: vg.Points(0.8)})
	c.Stroke(path)
	c.FillText(sty, p, num)
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
// connections. Connection labels that only name their ends ("pre->post",
// "lif2.neurons->pool2") are left off: the arrow says as much.
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
	label := map[string]string{}
	for i, id := range ids {
		label[id] = labels[i]
	}
	for i := range from {
		l := elabels[i]
		if restatesEnds(l, label[from[i]], label[to[i]]) {
			l = "" // "pre->post" on the arrow from pre to post says nothing new
		}
		g.Edges = append(g.Edges, Edge{From: from[i], To: to[i], Label: l})
	}
	if opts.Title == "" {
		opts.Title = "Model"
	}
	return NetworkGraph(g, opts)
}

// restatesEnds reports whether an edge label only names its ends:
// "a->b" or "a.neurons->b" for an edge from a to b.
func restatesEnds(label, from, to string) bool {
	a, b, ok := strings.Cut(label, "->")
	if !ok || from == "" || to == "" || strings.Contains(b, "->") {
		return false
	}
	is := func(part, name string) bool {
		return part == name || strings.HasPrefix(part, name+".")
	}
	return is(a, from) && is(b, to)
}
