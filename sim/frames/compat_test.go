package frames

import (
	"math"
	"slices"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// TestIdentityInits: statestream's identity family. A 1×1 convolution
// from 2 to 4 features: id repeats each source feature in a block
// (target i reads source i/2), Id tiles them (i reads i mod 2); from 4 to
// 2 the same on the source side; id_X scales the identity.
func TestIdentityInits(t *testing.T) {
	cases := []struct {
		init     string
		cin, out int
		want     [][2]int // (cin, cout) entries that are set
		v        float64
	}{
		{"id", 2, 4, [][2]int{{0, 0}, {0, 1}, {1, 2}, {1, 3}}, 1},
		{"Id", 2, 4, [][2]int{{0, 0}, {1, 1}, {0, 2}, {1, 3}}, 1},
		{"id", 4, 2, [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 1}}, 1},
		{"Id", 4, 2, [][2]int{{0, 0}, {1, 1}, {2, 0}, {3, 1}}, 1},
		{"id_0.5", 3, 3, [][2]int{{0, 0}, {1, 1}, {2, 2}}, 0.5},
		{"Id", 3, 3, [][2]int{{0, 0}, {1, 1}, {2, 2}}, 1},
		{"-Id", 3, 3, [][2]int{{0, 0}, {1, 1}, {2, 2}}, -1},
	}
	for _, c := range cases {
		sp := &stream.SynapsePool{Name: "sp", Init: map[string]string{"W_0_0": c.init}}
		d, err := initParam(sp, "W_0_0", []int{1, 1, c.cin, c.out}, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.init, err)
		}
		for ci := 0; ci < c.cin; ci++ {
			for co := 0; co < c.out; co++ {
				want := 0.0
				if slices.Contains(c.want, [2]int{ci, co}) {
					want = c.v
				}
				if got := d[ci*c.out+co]; got != want {
					t.Errorf("%s %d→%d: W[%d][%d] = %g, want %g", c.init, c.cin, c.out, ci, co, got, want)
				}
			}
		}
	}
	sp := &stream.SynapsePool{Name: "sp", Init: map[string]string{"W_0_0": "-id_0.5"}}
	if _, err := initParam(sp, "W_0_0", []int{1, 1, 2, 2}, 1); err == nil {
		t.Error("-id_0.5 accepted")
	}
}

// TestPrunedRollout: a rollout through an input pool at an intermediate
// depth prunes it (statestream's network rollback) and computes its
// targets from their other inputs: h at δt=2 gets only its recurrent
// input.
func TestPrunedRollout(t *testing.T) {
	full := func() *stream.Net {
		sps := []*stream.SynapsePool{
			{Name: "hh", Source: [][]string{{"h"}}, Target: "h", RF: [][]int{{1}}},
			{Name: "ho", Source: [][]string{{"h"}}, Target: "out"},
			{Name: "ih", Source: [][]string{{"in"}}, Target: "h", RF: [][]int{{1}}},
		}
		return withDefaults(&stream.Net{Agents: 2, NeuronPools: []*stream.NeuronPool{
			{Name: "in", Shape: [3]int{2, 2, 2}},
			{Name: "h", Shape: [3]int{3, 2, 2}, Act: "tanh"},
			{Name: "out", Shape: [3]int{2, 1, 1}},
		}, SynapsePools: sps,
			Plasticities: []*stream.Plasticity{{Name: "l", Type: "loss", LossFunction: "mse", Source: "out", SourceT: 3,
				Target: "out", TargetT: 0, LR: 0.1, Params: []stream.ParamRef{pr("sp", "ho", "W_0_0")}}}})
	}()
	plan, err := full.Rollout(full.Plasticities[0])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Cut[2], []string{"ih"}) || plan.Needs("in", 1) {
		t.Fatalf("plan = %+v, want ih cut at δt=2 and in pruned at δt=1", plan)
	}
	// depth 2 of the pruned rollout = one recurrent step from its depth 1
	s, err := New(full, Options{Seed: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, nm := range []string{"in", "h", "out"} {
		v, _ := s.State(nm)
		for i := range v {
			v[i] = math.Sin(float64(i + len(nm)))
		}
	}
	ro, err := s.NewRollout(plan, []stream.ParamRef{pr("sp", "ho", "W_0_0")})
	if err != nil {
		t.Fatal(err)
	}
	if err := ro.Forward(false); err != nil {
		t.Fatal(err)
	}
	h1, h2 := ro.State("h", 1), ro.State("h", 2)
	W, _ := s.Param(pr("sp", "hh", "W_0_0"))
	b, _ := s.Param(pr("np", "h", "b"))
	for a := 0; a < 2; a++ {
		for pos := 0; pos < 4; pos++ {
			for co := 0; co < 3; co++ {
				x := 0.0
				for ci := 0; ci < 3; ci++ {
					x += h1[(a*4+pos)*3+ci] * W[ci*3+co]
				}
				want := math.Tanh(x) + b[co]
				if got := h2[(a*4+pos)*3+co]; math.Abs(got-want) > 1e-12 {
					t.Fatalf("h at δt=2 [%d,%d,%d] = %g, want %g (recurrent input only)", a, pos, co, got, want)
				}
			}
		}
	}
}
