package viz

import (
	"fmt"
	"testing"

	"gonum.org/v1/plot/vg"
)

// pesGraph is the PES learning model of the Nengo tutorial as ModelGraph
// draws it: several labelled edges between neighbouring layers, one
// spanning two layers and one recurrent.
func pesGraph() Graph {
	return Graph{
		Nodes: []Node{{ID: "stim"}, {ID: "pre", Kind: KindEnsemble}, {ID: "post", Kind: KindEnsemble}, {ID: "error", Kind: KindEnsemble}},
		Edges: []Edge{
			{From: "stim", To: "pre", Label: "stim->pre"},
			{From: "pre", To: "post", Label: "pre->post"},
			{From: "post", To: "error", Label: "post->error"},
			{From: "stim", To: "error", Label: "stim->error"},
			{From: "error", To: "post", Label: "learning: error->pre->post.learning_rule"},
		},
	}
}

// fanGraph has a fan-out and fan-in with labels on every edge, a long
// edge past a node, parallel edges, feedback and a self-loop.
func fanGraph() Graph {
	g := Graph{Nodes: []Node{{ID: "a"}, {ID: "b", Kind: KindEnsemble}, {ID: "c", Kind: KindEnsemble}, {ID: "d", Kind: KindEnsemble}, {ID: "e", Kind: KindEnsemble}}}
	for _, p := range [][2]string{{"a", "b"}, {"a", "c"}, {"a", "d"}, {"b", "e"}, {"c", "e"}, {"d", "e"}, {"a", "e"}, {"a", "e"}, {"e", "a"}, {"c", "c"}} {
		g.Edges = append(g.Edges, Edge{From: p[0], To: p[1], Label: fmt.Sprintf("%s→%s %d", p[0], p[1], len(g.Edges))})
	}
	return g
}

// TestGraphLayout: edge labels overlap neither each other nor any node
// and stay on the canvas; edges pass through no node but their own ends;
// at the natural size no label needs the key and the canvas is mostly
// graph.
func TestGraphLayout(t *testing.T) {
	graphs := []struct {
		name    string
		g       Graph
		title   string
		natural bool // check the natural-size promises
	}{
		{"pes", pesGraph(), "Model", true},
		{"fan", fanGraph(), "Fan", true},
		{"sample", sampleGraph(), "", true},
	}
	sizes := [][2]vg.Length{{0, 0}, {640, 400}, {300, 200}}
	for _, gg := range graphs {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s %gx%g", gg.name, sz[0], sz[1]), func(t *testing.T) {
				s, err := graphStructure("NetworkGraph", gg.g)
				if err != nil {
					t.Fatal(err)
				}
				geo := s.layout(gg.title, sz[0], sz[1])
				canvas := vg.Rectangle{Max: geo.size}
				var labels []vg.Rectangle
				for k, r := range geo.labels {
					if r.Size().X == 0 {
						if s.edges[k].label != "" && geo.keys[k] == 0 {
							t.Errorf("edge %d: label %q neither drawn nor in the key", k, s.edges[k].label)
						}
						continue
					}
					if !inside(r, canvas) {
						t.Errorf("label %q at %v is off the %v canvas", s.edges[k].label, r, geo.size)
					}
					for v, n := range geo.nodes {
						if overlaps(r, n) {
							t.Errorf("label %q overlaps node %s", s.edges[k].label, s.nodes[v].ID)
						}
					}
					for _, o := range labels {
						if overlaps(r, o) {
							t.Errorf("label %q overlaps another label", s.edges[k].label)
						}
					}
					labels = append(labels, r)
				}
				for k, pts := range geo.paths {
					e := s.edges[k]
					if e.a == e.b {
						continue
					}
					for v, n := range geo.nodes {
						if v != e.a && v != e.b && crosses(pts, n) {
							t.Errorf("edge %s→%s passes through node %s", s.nodes[e.a].ID, s.nodes[e.b].ID, s.nodes[v].ID)
						}
					}
				}
				if sz[0] != 0 || !gg.natural {
					return
				}
				if len(geo.keyed) > 0 && gg.name == "pes" {
					t.Errorf("natural size: %d labels in the key, want all on their edges", len(geo.keyed))
				}
				bb := geo.bounds()
				used := float64(bb.Size().X * bb.Size().Y)
				avail := float64(geo.size.X * (geo.size.Y - vg.Points(graphLegendH+graphTitleH)))
				if used < 0.5*avail {
					t.Errorf("natural size %v: the graph fills %.0f %% of the canvas, want ≥ 50 %%", geo.size, 100*used/avail)
				}
			})
		}
	}
}

// TestGraphDefaultSize: with no size given, the canvas fits the layout
// rather than a fixed 640×400.
func TestGraphDefaultSize(t *testing.T) {
	p, err := NetworkGraph(pesGraph(), GraphOptions{Frame: Frame{Title: "Model"}})
	if err != nil {
		t.Fatal(err)
	}
	w, h := p.Size()
	if w > 640 || h > 250 || w < 300 {
		t.Errorf("default size %g×%g, want about the layout's (300–640 wide, ≤ 250 tall)", w, h)
	}
	q, err := NetworkGraph(pesGraph(), GraphOptions{Frame: Frame{Width: 700, Height: 500}})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := q.Size(); w != 700 || h != 500 {
		t.Errorf("given size 700×500 became %g×%g", w, h)
	}
}

func TestRestatesEnds(t *testing.T) {
	for _, c := range []struct {
		label, from, to string
		want            bool
	}{
		{"pre->post", "pre", "post", true},
		{"lif2.neurons->pool2", "lif2", "pool2", true},
		{"conv1->lif1.neurons", "conv1", "lif1", true},
		{"learning: error->pre->post.learning_rule", "error", "post", false},
		{"involution", "cue", "unbind", false},
		{"pre->post", "pre", "error", false},
		{"a->b->c", "a", "c", false},
	} {
		if got := restatesEnds(c.label, c.from, c.to); got != c.want {
			t.Errorf("restatesEnds(%q, %q, %q) = %v, want %v", c.label, c.from, c.to, got, c.want)
		}
	}
}
