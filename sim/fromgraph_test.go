package sim_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// A model rebuilt from its own Graph — the operators out of order, as
// another builder may list them — runs bit for bit as the original, on
// every parity and benchmark model (learning rules, batched lanes). The
// operators that only set signals move to the end of the list; FromGraph
// must order them back before their readers. (Increments of one signal
// keep their relative order: it is the order of their sum.)
func TestFromGraphRoundTrip(t *testing.T) {
	for _, m := range optModels() {
		t.Run(m.name, func(t *testing.T) {
			net, err := m.net()
			if err != nil {
				t.Fatal(err)
			}
			built, err := sim.Build(net)
			if err != nil {
				t.Fatal(err)
			}
			g := built.Graph()
			var rest, setters []ir.Op
			for _, op := range g.Ops {
				if b := op.Info(); len(b.Sets) > 0 && len(b.Incs) == 0 && len(b.Updates) == 0 {
					setters = append(setters, op)
				} else {
					rest = append(rest, op)
				}
			}
			if len(setters) == 0 {
				t.Fatal("no setter to move")
			}
			g.Ops = append(rest, setters...)
			// all passes, and none (operators one by one in list order)
			for _, o := range []sim.Optimizations{sim.AllOptimizations(), {}} {
				ref, err := sim.Build(net, sim.Optimize(o))
				if err != nil {
					t.Fatal(err)
				}
				again, err := sim.FromGraph(g, sim.Optimize(o))
				if err != nil {
					t.Fatal(err)
				}
				sameProbes(t, "from the graph, "+o.String(), runModel(t, ref, net, m.steps, m.batch), runModel(t, again, net, m.steps, m.batch))
			}
		})
	}
}

// sameProbes fails unless got has every probe of want with the same
// lanes and samples, equal bit for bit (NaN equal to NaN); label names
// the run in the message.
func sameProbes(t *testing.T, label string, want, got map[string][][][]float64) {
	t.Helper()
	for k, w := range want {
		g := got[k]
		if len(g) != len(w) {
			t.Fatalf("%s: probe %s: %d lanes, want %d", label, k, len(g), len(w))
		}
		for b := range w {
			if len(g[b]) != len(w[b]) {
				t.Fatalf("%s: probe %s lane %d: %d samples, want %d", label, k, b, len(g[b]), len(w[b]))
			}
			for s := range w[b] {
				for i := range w[b][s] {
					if x, y := g[b][s][i], w[b][s][i]; x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
						t.Fatalf("%s: probe %s lane %d sample %d [%d] = %v, want %v", label, k, b, s, i, x, y)
					}
				}
			}
		}
	}
}

// runModel runs a built model and returns every probe's data.
func runModel(t *testing.T, m *sim.Model, net *toolkit.Network, steps, batch int) map[string][][][]float64 {
	t.Helper()
	s, err := sim.NewFromModel(m, sim.Batch(max(batch, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunSteps(steps); err != nil {
		t.Fatal(err)
	}
	out := map[string][][][]float64{}
	for i, p := range net.AllProbes() {
		d, err := s.DataBatch(p)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("%d:%s", i, p.Label)] = d
	}
	return out
}

// Bad graphs are validation errors naming the operator or field, never a
// panic of the executor.
func TestFromGraphBad(t *testing.T) {
	net := toolkit.New("g", 1)
	a := net.Ensemble("a", 10, 1)
	b := net.Ensemble("b", 10, 1)
	net.Connect(net.Const("u", 0.3), a)
	net.Connect(a, b)
	net.Probe("b", b, toolkit.AttrDecoded)
	built, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	first := func(g *sim.Graph, f func(ir.Op) bool) ir.Op {
		for _, op := range g.Ops {
			if f(op) {
				return op
			}
		}
		t.Fatal("no such operator")
		return nil
	}
	isDot := func(op ir.Op) bool { _, ok := op.(*ir.DotInc); return ok }
	isCopy := func(op ir.Op) bool { _, ok := op.(*ir.Copy); return ok }
	cases := []struct {
		name, want string
		edit       func(g *sim.Graph)
	}{
		{"nil graph", "graph is nil", nil},
		{"dt", "Dt", func(g *sim.Graph) { g.Dt = 0 }},
		{"signal size", "Size", func(g *sim.Graph) { g.Signals[3].Size = -1 }},
		{"init length", "Init", func(g *sim.Graph) { g.Signals[len(g.Signals)-1].Init = []float64{1, 2, 3, 4, 5, 6, 7} }},
		{"time", "Time", func(g *sim.Graph) { g.Time = len(g.Signals) }},
		{"nil operator", "Ops[0]", func(g *sim.Graph) { g.Ops[0] = nil }},
		{"signal out of range", "must be a signal index", func(g *sim.Graph) { first(g, isDot).(*ir.DotInc).X = 10_000 }},
		{"dot shape", "must have", func(g *sim.Graph) {
			d := first(g, isDot).(*ir.DotInc)
			d.A = d.X
		}},
		{"copy index", "XIdx[0]", func(g *sim.Graph) {
			c := first(g, isCopy).(*ir.Copy)
			c.XIdx = []int{1 << 20}
		}},
		{"two setters", "set by both", func(g *sim.Graph) {
			c := first(g, isCopy).(*ir.Copy)
			c2 := c.Clone().(*ir.Copy)
			c2.Sets, c2.Incs = []int{c.Y}, nil
			c2.Inc = false
			c3 := c2.Clone()
			g.Ops = append(g.Ops, c2, c3)
		}},
		{"fused operator", "made by the optimiser", func(g *sim.Graph) {
			g.Ops = append(g.Ops, &ir.EnsembleReLU{Base: ir.Base{Tag: "x"}})
		}},
		{"probe signal", "Probes[0].Signal", func(g *sim.Graph) { g.Probes[0].Signal = -1 }},
		{"probe dims", "Probes[0].Dims", func(g *sim.Graph) { g.Probes[0].Dims++ }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var g *sim.Graph
			if c.edit != nil {
				g = built.Graph()
				c.edit(g)
			}
			_, err := sim.FromGraph(g)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("FromGraph: %v, want an error about %q", err, c.want)
			}
			var ve *validate.Error
			if c.edit != nil && c.name != "two setters" && !errors.As(err, &ve) {
				t.Errorf("%v is not a *validate.Error", err)
			}
		})
	}
}

// A graph from another builder: y = W·x + b by hand, run for two steps.
func ExampleFromGraph() {
	g := &sim.Graph{
		Dt: 0.001,
		Signals: []sim.GraphSignal{
			{Name: "step", Size: 1}, {Name: "time", Size: 1},
			{Name: "x", Size: 2, Init: []float64{1, 2}, ReadOnly: true},
			{Name: "W", Size: 4, Rows: 2, Init: []float64{1, 0, 1, 1}, ReadOnly: true},
			{Name: "b", Size: 2, Init: []float64{0.5, 0.5}, ReadOnly: true},
			{Name: "y", Size: 2},
		},
		Ops: []ir.Op{
			&ir.DotInc{Base: ir.Base{Tag: "W·x", Incs: []int{5}, Reads: []int{3, 2}}, A: 3, X: 2, Y: 5, Bias: ir.None},
			&ir.Copy{Base: ir.Base{Tag: "b", Sets: []int{5}, Reads: []int{4}}, X: 4, Y: 5},
			&ir.TimeUpdate{Base: ir.Base{Tag: "time", Sets: []int{0, 1}}, Step: 0, Time: 1},
		},
		Probes: []sim.GraphProbe{{Label: "y", Signal: 5, Dims: 2, Period: 1}},
		Time:   1, Step: 0,
	}
	m, err := sim.FromGraph(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := sim.NewFromModel(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := s.RunSteps(2); err != nil {
		fmt.Println(err)
		return
	}
	y, _ := s.DataByLabel("y")
	fmt.Println(y, s.Time())
	// Output: [[1.5 3.5] [1.5 3.5]] 0.002
}
