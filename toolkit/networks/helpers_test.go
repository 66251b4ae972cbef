package networks

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
)

// simulate builds net, runs it for seconds and returns the data of each
// probe ([samples][dims]) and the probe times.
func simulate(t testing.TB, net *toolkit.Network, seconds float64, probes ...*toolkit.Probe) ([][][]float64, []float64) {
	t.Helper()
	s, err := sim.New(net)
	if err != nil {
		t.Fatalf("sim.New: %v", err)
	}
	defer s.Close()
	if err := s.Run(seconds); err != nil {
		t.Fatalf("Run: %v", err)
	}
	out := make([][][]float64, len(probes))
	for i, p := range probes {
		if out[i], err = s.Data(p); err != nil {
			t.Fatalf("Data(%s): %v", p.Label, err)
		}
	}
	var tr []float64
	if len(probes) > 0 {
		tr = s.Trange(probes[0])
	}
	return out, tr
}

// rms returns the root mean square of all entries of d.
func rms(d [][]float64) float64 {
	s, n := 0.0, 0
	for _, r := range d {
		for _, v := range r {
			s += v * v
			n++
		}
	}
	return math.Sqrt(s / float64(n))
}

// meanOver returns the per-dimension mean of the rows of d whose time in
// tr satisfies keep.
func meanOver(d [][]float64, tr []float64, keep func(t float64) bool) []float64 {
	var out []float64
	n := 0
	for i, r := range d {
		if !keep(tr[i]) {
			continue
		}
		if out == nil {
			out = make([]float64, len(r))
		}
		for j, v := range r {
			out[j] += v
		}
		n++
	}
	for j := range out {
		out[j] /= float64(n)
	}
	return out
}

// constNode returns f(t) = v for a node.
func constFn(v []float64) toolkit.TimeFunc {
	return func(_ float64, out []float64) { copy(out, v) }
}
