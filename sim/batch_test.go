package sim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

func feedNet() (*toolkit.Network, *toolkit.Node, *toolkit.Probe) {
	net := toolkit.New("feed", 0)
	u := net.Node("u", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
	a := net.Ensemble("a", 50, 1)
	net.Connect(u, a)
	p := net.Probe("a", a, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	return net, u, p
}

// A feed equal to the node's own function reproduces the unfed run
// exactly; lanes of a batch are independent.
func TestBatchFeeds(t *testing.T) {
	const steps = 200
	net, u, p := feedNet()
	s0, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	s0.RunSteps(steps)
	want, _ := s0.Data(p)

	data := make([][][]float64, 2)
	for b := range data {
		data[b] = make([][]float64, steps)
		for k := range steps {
			v := math.Sin(2 * math.Pi * float64(k+1) * 0.001)
			if b == 1 {
				v = -v
			}
			data[b][k] = []float64{v}
		}
	}
	s, err := sim.New(net, sim.Batch(2), sim.Feed(u, data))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunSteps(steps); err != nil {
		t.Fatal(err)
	}
	got, err := s.DataBatch(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got[0]) != steps || len(got[0][0]) != 1 {
		t.Fatalf("DataBatch shape %d×%d×%d, want 2×%d×1", len(got), len(got[0]), len(got[0][0]), steps)
	}
	for k := range want {
		if got[0][k][0] != want[k][0] {
			t.Fatalf("lane 0 step %d: %v, want %v (feed equal to the node function)", k, got[0][k][0], want[k][0])
		}
	}
	if math.Abs(got[1][steps-1][0]+got[0][steps-1][0]) > 0.3 {
		t.Errorf("lane 1 (negated input) ends at %v, lane 0 at %v", got[1][steps-1][0], got[0][steps-1][0])
	}
	if err := s.Step(); err == nil || !strings.Contains(err.Error(), "data has 200 steps") {
		t.Errorf("running past the feed: %v", err)
	}
}

func TestFeedErrors(t *testing.T) {
	net, u, _ := feedNet()
	for _, tc := range []struct {
		name string
		opts []sim.Option
		want string
	}{
		{"batch mismatch", []sim.Option{sim.Batch(2), sim.Feed(u, [][][]float64{{{1}}})}, "batch size 1"},
		{"dims", []sim.Option{sim.Feed(u, [][][]float64{{{1, 2}}})}, "SizeOut = 1"},
		{"NaN", []sim.Option{sim.Feed(u, [][][]float64{{{math.NaN()}}})}, "finite"},
		{"foreign node", []sim.Option{sim.Feed(&toolkit.Node{Label: "x"}, nil)}, `"x"`},
		{"batch 0", []sim.Option{sim.Batch(0)}, "at least 1"},
	} {
		_, err := sim.New(net, tc.opts...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

func TestSoftReset(t *testing.T) {
	net, _, p := feedNet()
	s, _ := sim.New(net)
	s.RunSteps(10)
	s.SoftReset(false)
	if s.Time() != 0 {
		t.Errorf("Time after SoftReset = %v", s.Time())
	}
	s.RunSteps(10)
	d, _ := s.Data(p)
	if len(d) != 20 {
		t.Errorf("SoftReset(false) kept %d samples, want 20", len(d))
	}
	for i := range 10 {
		if d[i][0] != d[i+10][0] {
			t.Fatalf("sample %d differs after SoftReset: %v vs %v", i, d[i][0], d[i+10][0])
		}
	}
}

// TestLockstepBatchEqualsSerial: a batch steps operator by operator (and
// chunk by chunk) across lanes; every lane must equal a run of its own.
// The benchmark models, rectified-linear (fused ensembles), with a
// different input per lane and chunks small enough that every large
// operator is cut, on one and on two goroutines.
func TestLockstepBatchEqualsSerial(t *testing.T) {
	defer sim.SetLockBytes(512)()
	const steps, batch = 40, 3
	for name, mk := range networks.Benchmarks() {
		if name == "pes" {
			continue
		}
		net, err := mk(6, 24, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range net.AllEnsembles() {
			e.NeuronType = neurons.NewRectifiedLinear()
		}
		var in *toolkit.Node
		for _, n := range net.AllNodes() {
			if n.Label == "inp" || n.Label == "inp_a" {
				in = n
			}
		}
		if in == nil {
			t.Fatalf("%s: no input node", name)
		}
		data := make([][][]float64, batch)
		for b := range data {
			data[b] = make([][]float64, steps)
			for k := range data[b] {
				row := make([]float64, in.SizeOut)
				for i := range row {
					row[i] = math.Sin(float64(k+1)*0.05*float64(b+1) + float64(i))
				}
				data[b][k] = row
			}
		}
		probe := net.AllProbes()[0]
		for _, par := range []int{1, 2} {
			s, err := sim.New(net, sim.Batch(batch), sim.Feed(in, data), sim.Parallel(par))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.RunSteps(steps); err != nil {
				t.Fatal(err)
			}
			got, _ := s.DataBatch(probe)
			for b := range batch {
				s1, err := sim.New(net, sim.Batch(1), sim.Feed(in, data[b:b+1]), sim.Parallel(1))
				if err != nil {
					t.Fatal(err)
				}
				if err := s1.RunSteps(steps); err != nil {
					t.Fatal(err)
				}
				want, _ := s1.Data(probe)
				for k := range want {
					for i := range want[k] {
						if got[b][k][i] != want[k][i] {
							t.Fatalf("%s parallel %d: lane %d step %d [%d] = %v, want %v (serial)", name, par, b, k, i, got[b][k][i], want[k][i])
						}
					}
				}
			}
		}
	}
}
