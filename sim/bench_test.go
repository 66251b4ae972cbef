package sim_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

func benchNet(n int) (*toolkit.Network, *toolkit.Probe) {
	net := toolkit.New("bench", 0)
	stim := net.Node("stim", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
	a, b := net.Ensemble("a", n, 1), net.Ensemble("b", n, 1)
	net.Connect(stim, a)
	net.Connect(a, b)
	net.Connect(b, b).Synapse = synapses.Lowpass{Tau: 0.1}
	p := net.Probe("b", b, "")
	p.Synapse = synapses.Lowpass{Tau: 0.01}
	return net, p
}

// Step allocates nothing (probe storage is grown by RunSteps up front).
func TestStepAllocs(t *testing.T) {
	net, _ := benchNet(50)
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunSteps(2000); err != nil { // warm up probe storage
		t.Fatal(err)
	}
	s.Reset()
	if a := testing.AllocsPerRun(1000, func() { _ = s.Step() }); a != 0 {
		t.Errorf("Step allocates %v times per call", a)
	}
}

// RunSteps of a few steps at a time (Step in a loop; a host that steps
// the simulator a little at a time) adds probe storage a block at a time:
// a few allocations over thousands of calls, not one (a copy of the whole
// history) per call.
func TestRunStepsAmortisesProbeStorage(t *testing.T) {
	net, _ := benchNet(20)
	s, err := sim.New(net)
	if err != nil {
		t.Fatal(err)
	}
	const calls = 4000
	a := testing.AllocsPerRun(calls, func() { _ = s.RunSteps(1) })
	if a*calls > maxProbeGrowths {
		t.Errorf("%d calls of RunSteps(1) allocated %v times, want at most %d", calls, a*calls, maxProbeGrowths)
	}
}

// maxProbeGrowths bounds the allocations of one probe's storage over 4000
// one-step runs (one block holds them all; the bound of doubling,
// log2(4000) ≈ 12, plus slack).
const maxProbeGrowths = 20

func BenchmarkStep(b *testing.B) {
	net, _ := benchNet(500)
	s, err := sim.New(net)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunSteps runs a small model (two ensembles of 50 neurons) in
// blocks of 1000 steps through RunSteps, the loop that checks the
// interrupt flag; it reports the time per step.
func BenchmarkRunSteps(b *testing.B) {
	for _, batch := range []int{1, 4} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			net, _ := benchNet(50)
			s, err := sim.New(net, sim.Batch(batch))
			if err != nil {
				b.Fatal(err)
			}
			const block = 1000
			if err := s.RunSteps(block); err != nil { // warm up probe storage
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for b.Loop() {
				b.StopTimer()
				s.Reset()
				b.StartTimer()
				if err := s.RunSteps(block); err != nil {
					b.Fatal(err)
				}
				n += block
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/step")
		})
	}
}

func BenchmarkBuild(b *testing.B) {
	net, _ := benchNet(500)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sim.Build(net); err != nil {
			b.Fatal(err)
		}
	}
}
