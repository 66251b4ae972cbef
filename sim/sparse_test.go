package sim_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// sparseNeuronsNet: stim → a (decoded-free, via a node) and a.neurons →
// b.neurons through a sparse transform, Nengo's typical use.
func sparseNeuronsNet(seed int64) (*toolkit.Network, *toolkit.Probe, *toolkit.Connection) {
	net := toolkit.New("sp", seed)
	stim := net.Node("stim", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
	a, b := net.Ensemble("a", 30, 1), net.Ensemble("b", 20, 1)
	net.Connect(stim, a)
	var idx [][2]int
	var data []float64
	for i := range 20 {
		for _, j := range []int{(7 * i) % 30, (7*i + 11) % 30, (7*i + 23) % 30} {
			idx = append(idx, [2]int{i, j})
			data = append(data, 1e-3*float64(1+(i+j)%5))
		}
	}
	c := net.Connect(a.Neurons(), b.Neurons())
	c.Transform = toolkit.Sparse(20, 30, idx, data)
	p := net.Probe("b", b.Neurons(), toolkit.AttrOutput)
	return net, p, c
}

// A sparse transform computes what the same dense matrix computes.
func TestSparseMatchesDense(t *testing.T) {
	idx := [][2]int{{2, 0}, {0, 1}, {1, 2}, {2, 2}}
	data := []float64{0.5, -2, 3, 0.25}
	run := func(tr toolkit.Transform) [][]float64 {
		net := toolkit.New("n", 0)
		u := net.Node("u", 3, func(t float64, out []float64) {
			out[0], out[1], out[2] = math.Sin(t*10), math.Cos(t*7), t
		})
		v := net.Passthrough("v", 3)
		c := net.Connect(u, v)
		c.Transform, c.Synapse = tr, synapses.Lowpass{Tau: 0.005}
		p := net.Probe("v", v, "")
		s, err := sim.New(net)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunSteps(50); err != nil {
			t.Fatal(err)
		}
		d, _ := s.Data(p)
		return d
	}
	sp := toolkit.Sparse(3, 3, idx, data)
	got, want := run(sp), run(toolkit.Dense(sp.Sparse.Dense()))
	for k := range want {
		for i := range want[k] {
			if got[k][i] != want[k][i] {
				t.Fatalf("step %d [%d]: sparse %v, dense %v", k, i, got[k][i], want[k][i])
			}
		}
	}
}

// The builder stores the entries in CSR order, and SaveParams/LoadParams
// round-trip them (as sparse_indices, sparse_data, sparse_shape).
func TestSparseParamsRoundTrip(t *testing.T) {
	net, p, _ := sparseNeuronsNet(0)
	m1, err := sim.Build(net)
	if err != nil {
		t.Fatal(err)
	}
	cp := m1.Params.Connections["a.neurons->b.neurons"]
	if cp == nil || cp.Rows != 20 || cp.Cols != 30 || len(cp.Weights) != 60 || len(cp.Indices) != 120 {
		t.Fatalf("params %+v", cp)
	}
	for k := 1; k < 60; k++ {
		if a, b := cp.Indices[2*k-2]*30+cp.Indices[2*k-1], cp.Indices[2*k]*30+cp.Indices[2*k+1]; a >= b {
			t.Fatalf("indices not in CSR order at %d", k)
		}
	}
	arr := m1.Arrays()
	for k, shape := range map[string][]int{"sparse_indices": {60, 2}, "sparse_data": {60}, "sparse_shape": {2}} {
		a, ok := arr["conn/a.neurons->b.neurons/"+k]
		if !ok || fmt.Sprint(a.Shape) != fmt.Sprint(shape) {
			t.Errorf("%s: shape %v, want %v", k, a.Shape, shape)
		}
	}
	path := filepath.Join(t.TempDir(), "params.npz")
	if err := m1.SaveParams(path); err != nil {
		t.Fatal(err)
	}
	params, err := sim.LoadParams(path)
	if err != nil {
		t.Fatal(err)
	}
	// another seed and placeholder weights: everything must come from the file
	net2, p2, c2 := sparseNeuronsNet(99)
	c2.Transform = toolkit.Sparse(20, 30, [][2]int{{0, 0}}, []float64{5})
	m2, err := sim.BuildWithParams(net2, params)
	if err != nil {
		t.Fatal(err)
	}
	run := func(m *sim.Model, p *toolkit.Probe) [][]float64 {
		s, err := sim.NewFromModel(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunSteps(300); err != nil {
			t.Fatal(err)
		}
		d, _ := s.Data(p)
		return d
	}
	a, b := run(m1, p), run(m2, p2)
	spikes := 0.0
	for k := range a {
		for i := range a[k] {
			spikes += a[k][i]
			if a[k][i] != b[k][i] {
				t.Fatalf("step %d neuron %d: %v vs %v after the round trip", k, i, a[k][i], b[k][i])
			}
		}
	}
	if spikes == 0 {
		t.Fatal("b never spikes: the test checks nothing")
	}
}

// Dense weights (e.g. Nengo's toarray()) may override a sparse connection
// if they are zero off its pattern.
func TestSparseDenseOverride(t *testing.T) {
	build := func(w []float64) error {
		net := toolkit.New("n", 0)
		u, v := net.Const("u", 1, 2), net.Passthrough("v", 2)
		c := net.Connect(u, v)
		c.Label, c.Transform = "uv", toolkit.Sparse(2, 2, [][2]int{{1, 0}}, []float64{1})
		_, err := sim.BuildWithParams(net, &sim.Params{Connections: map[string]*sim.ConnectionParams{
			"uv": {Weights: w, Rows: 2, Cols: 2}}})
		return err
	}
	if err := build([]float64{0, 0, 3, 0}); err != nil {
		t.Errorf("on-pattern dense override: %v", err)
	}
	if err := build([]float64{1, 0, 3, 0}); err == nil || !strings.Contains(err.Error(), "off the sparse transform's pattern") {
		t.Errorf("off-pattern dense override: err = %v", err)
	}
	if err := build([]float64{1}); err == nil || !strings.Contains(err.Error(), "params.Weights") {
		t.Errorf("wrong-size override: err = %v", err)
	}
}

// Invalid sparse transforms and the uses Nengo refuses are errors naming
// the field and the rule.
func TestSparseErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(net *toolkit.Network)
		want string
	}{
		{"decoded", func(net *toolkit.Network) {
			net.Connect(net.Ensemble("a", 10, 2), net.Passthrough("v", 2)).Transform = toolkit.Sparse(2, 2, [][2]int{{0, 0}}, []float64{1})
		}, "decoded connection"},
		{"learning", func(net *toolkit.Network) {
			a, b := net.Ensemble("a", 10, 1), net.Ensemble("b", 10, 1)
			c := net.Connect(a.Neurons(), b.Neurons())
			c.Transform, c.LearningRule = toolkit.Sparse(10, 10, [][2]int{{0, 0}}, []float64{1}), toolkit.NewBCM()
		}, "cannot learn"},
		{"rows", func(net *toolkit.Network) {
			net.Connect(net.Const("u", 1, 2), net.Passthrough("v", 3)).Transform = toolkit.Sparse(2, 2, nil, nil)
		}, "Transform.Sparse.Rows = 2: must equal the post size 3"},
		{"cols", func(net *toolkit.Network) {
			net.Connect(net.Const("u", 1, 2), net.Passthrough("v", 2)).Transform = toolkit.Sparse(2, 3, nil, nil)
		}, "Transform.Sparse.Cols = 3: must equal the pre size 2"},
		{"function cols", func(net *toolkit.Network) {
			c := net.Connect(net.Const("u", 1, 2), net.Passthrough("v", 2))
			c.Function = func(x []float64) []float64 { return x[:1] }
			c.Transform = toolkit.Sparse(2, 2, nil, nil)
		}, "must equal the input size 1"},
		{"index range", func(net *toolkit.Network) {
			net.Connect(net.Const("u", 1, 2), net.Passthrough("v", 2)).Transform = toolkit.Sparse(2, 2, [][2]int{{0, 2}}, []float64{1})
		}, "Transform.Sparse.Indices[0] = [0 2]: must lie in the 2×2 shape"},
		{"duplicate", func(net *toolkit.Network) {
			net.Connect(net.Const("u", 1, 2), net.Passthrough("v", 2)).Transform = toolkit.Sparse(2, 2, [][2]int{{0, 1}, {0, 1}}, []float64{1, 2})
		}, "duplicates Indices[0]"},
		{"data length", func(net *toolkit.Network) {
			net.Connect(net.Const("u", 1, 2), net.Passthrough("v", 2)).Transform = toolkit.Sparse(2, 2, [][2]int{{0, 1}}, nil)
		}, "Transform.Sparse.Data = len 0"},
		{"NaN", func(net *toolkit.Network) {
			net.Connect(net.Const("u", 1, 2), net.Passthrough("v", 2)).Transform = toolkit.Sparse(2, 2, [][2]int{{0, 1}}, []float64{math.NaN()})
		}, "Transform.Sparse.Data[0] = NaN: must be finite"},
		{"both", func(net *toolkit.Network) {
			c := net.Connect(net.Const("u", 1, 2), net.Passthrough("v", 2))
			c.Transform = toolkit.Sparse(2, 2, nil, nil)
			c.Transform.Matrix = [][]float64{{1, 0}, {0, 1}}
		}, "at most one of Matrix and Sparse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := toolkit.New("n", 0)
			tc.make(net)
			_, err := sim.Build(net)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// A step through a sparse neurons → neurons connection allocates nothing.
func TestSparseStepAllocs(t *testing.T) {
	net, _, _ := sparseNeuronsNet(0)
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunSteps(1000); err != nil {
		t.Fatal(err)
	}
	s.Reset()
	if a := testing.AllocsPerRun(500, func() { _ = s.Step() }); a != 0 {
		t.Errorf("Step allocates %v times per call", a)
	}
}

func BenchmarkSparseDotInc(b *testing.B) {
	net := toolkit.New("n", 0)
	a, c := net.Ensemble("a", 1000, 1), net.Ensemble("b", 1000, 1)
	var idx [][2]int
	var data []float64
	for i := range 1000 {
		for k := range 20 {
			idx = append(idx, [2]int{i, (i*37 + k*53) % 1000})
			data = append(data, 1e-4)
		}
	}
	net.Connect(a.Neurons(), c.Neurons()).Transform = toolkit.Sparse(1000, 1000, idx, data)
	s, err := sim.New(net)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = s.Step()
	}
}
