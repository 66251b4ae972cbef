package timeres

import (
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// TestShortestPathNetworkMatchesSim checks the delay rule of
// ShortestPathNetwork against the simulator: two runs that differ only in
// the input's amplitude; the first sample at which a probe (unfiltered)
// differs between them, minus the input's own, is the delay in steps.
func TestShortestPathNetworkMatchesSim(t *testing.T) {
	build := func(amp float64) (*toolkit.Network, map[string]*toolkit.Probe, map[string]toolkit.Target) {
		net := toolkit.New("delays", 3)
		in := net.Node("in", 1, func(_ float64, out []float64) { out[0] = amp })
		p1 := net.Passthrough("p1", 1)
		p2 := net.Passthrough("p2", 1)
		e := net.Ensemble("e", 50, 1)
		e.NeuronType = neurons.LIFRate{TauRC: 0.02, TauRef: 0.002, Amplitude: 1}
		p3 := net.Passthrough("p3", 1)
		net.Connect(in, p1).Synapse = nil
		net.Connect(p1, p2) // default Lowpass(0.005)
		net.Connect(p2, e).Synapse = nil
		net.Connect(e, p3)
		objs := map[string]toolkit.Target{"in": in, "p1": p1, "p2": p2, "e": e, "p3": p3}
		probes := map[string]*toolkit.Probe{}
		for name, o := range objs {
			p := net.Probe(name, o, "")
			p.Synapse = nil
			probes[name] = p
		}
		return net, probes, objs
	}
	run := func(amp float64) (map[string][][]float64, *toolkit.Network, map[string]toolkit.Target) {
		net, probes, objs := build(amp)
		s, err := sim.New(net)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.RunSteps(10); err != nil {
			t.Fatal(err)
		}
		out := map[string][][]float64{}
		for name, p := range probes {
			if out[name], err = s.Data(p); err != nil {
				t.Fatal(err)
			}
		}
		return out, net, objs
	}
	zero, _, _ := run(0)
	one, net, objs := run(0.5)
	first := func(name string) int {
		for k := range one[name] {
			if one[name][k][0] != zero[name][k][0] {
				return k
			}
		}
		t.Fatalf("probe %s never responds to the input", name)
		return -1
	}
	base := first("in")
	for _, name := range []string{"p1", "p2", "e", "p3"} {
		measured := first(name) - base
		got, err := ShortestPathNetwork(net, objs["in"], objs[name])
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("in → %s: ShortestPathNetwork %d, simulator %d", name, got, measured)
		if got != measured {
			t.Errorf("in → %s: ShortestPathNetwork = %d steps, the simulator responds after %d", name, got, measured)
		}
	}
}
