package networks

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/sim"
)

// TestBenchmarksBuildAndRun builds each NengoDL benchmark at a small D,
// checks its structure and runs it for a few steps.
func TestBenchmarksBuildAndRun(t *testing.T) {
	// neuronsPerD 32 as in NengoDL's runs: with few neurons an ensemble can
	// be all silent under the benchmarks' gains and biases, which Nengo
	// also rejects at build ("activities matrix is all zero").
	const dims, npd, steps = 4, 32, 20
	cases := []struct {
		name               string
		ensembles, neurons int
	}{
		{"integrator", dims, dims * npd},
		{"cconv", 2 * 4 * (dims/2 + 1), 2 * 4 * (dims/2 + 1) * (npd / 2)},
		{"basal_ganglia", 5 * dims, 5 * dims * npd},
		{"pes", 1, dims * npd},
	}
	builders := Benchmarks()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			net, err := builders[c.name](dims, npd, 0)
			if err != nil {
				t.Fatal(err)
			}
			ens := net.AllEnsembles()
			n := 0
			for _, e := range ens {
				n += e.N
			}
			if net.Label != c.name || len(ens) != c.ensembles || n != c.neurons {
				t.Errorf("%s: label %q, %d ensembles, %d neurons; want %d, %d", c.name, net.Label, len(ens), n, c.ensembles, c.neurons)
			}
			if len(net.Probes) != 1 || net.Probes[0].Label != "p" {
				t.Fatalf("%s: probes %v, want one labelled p", c.name, net.Probes)
			}
			s, err := sim.New(net)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.RunSteps(steps); err != nil {
				t.Fatal(err)
			}
			data, err := s.Data(net.Probes[0])
			if err != nil {
				t.Fatal(err)
			}
			if len(data) != steps || len(data[0]) != dims {
				t.Fatalf("%s: probe data %d×%d, want %d×%d", c.name, len(data), len(data[0]), steps, dims)
			}
			for _, r := range data {
				for _, v := range r {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("%s: non-finite probe value %v", c.name, v)
					}
				}
			}
			// same seed, same model: the description is deterministic
			again, _ := builders[c.name](dims, npd, 0)
			if e0, e1 := net.AllEnsembles()[0], again.AllEnsembles()[0]; e0.Gain != nil && e0.Bias[0] != e1.Bias[0] {
				t.Errorf("%s: biases differ between builds with the same seed", c.name)
			}
		})
	}
}

// TestBenchmarkGainBias checks the NengoDL gain/bias distributions:
// gains ±1, biases in [−1, 1), both signs present.
func TestBenchmarkGainBias(t *testing.T) {
	net, err := BenchIntegrator(8, 50, 3)
	if err != nil {
		t.Fatal(err)
	}
	pos, neg := 0, 0
	for _, e := range net.AllEnsembles() {
		for j := range e.N {
			switch e.Gain[j] {
			case 1:
				pos++
			case -1:
				neg++
			default:
				t.Fatalf("gain %v, want ±1", e.Gain[j])
			}
			if e.Bias[j] < -1 || e.Bias[j] >= 1 {
				t.Fatalf("bias %v, want in [-1, 1)", e.Bias[j])
			}
		}
	}
	if pos == 0 || neg == 0 {
		t.Errorf("gains: %d positive, %d negative; want both", pos, neg)
	}
}

// BenchmarkNengoDL times simulation steps of the four NengoDL benchmark
// models at the paper's smallest dimensionality (D = 64, the NengoDL paper, §5.1)
// with 32 neurons per dimension (NengoDL's n_range); building is outside
// the timer. Report ns/op per step.
func BenchmarkNengoDL(b *testing.B) {
	const dims, npd = 64, 32
	for _, name := range []string{"integrator", "cconv", "basal_ganglia", "pes"} {
		b.Run(name, func(b *testing.B) {
			net, err := Benchmarks()[name](dims, npd, 0)
			if err != nil {
				b.Fatal(err)
			}
			s, err := sim.New(net)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := s.Step(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
