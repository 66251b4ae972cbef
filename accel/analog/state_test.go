package analog

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neurogo/neurogo/toolkit/layers"
)

// A long-lived executor on the software-model system keeps computing
// what the ideal layer computes with rounded weights, whatever the
// sequence of batch sizes and parameter changes.
func TestLongLivedExecMatchesIdeal(t *testing.T) {
	cfg := SoftwareConfig()
	cfg.Noise = 0
	sys, _ := New(cfg)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		spec func(*System) layers.Spec
		in   []int
	}{
		{"conv", func(s *System) layers.Spec { return Conv1d{Filters: 16, Kernel: 32, Stride: 6, NumSends: 4, System: s} }, []int{122, 9}},
		{"linear", func(s *System) layers.Spec { return Linear{Units: 125, NumSends: 12, System: s} }, []int{256}},
	} {
		la, _ := tc.spec(nil).Build(tc.in, 1)
		lb, _ := tc.spec(sys).Build(tc.in, 1)
		ea, _ := la.NewExec(32, 1)
		eb, _ := lb.NewExec(32, 1)
		k := la.Params()[0].Value
		for step := range 300 {
			batch := 32
			if step%7 == 6 {
				batch = 24
			}
			for i := range k {
				k[i] = math.Round(math.Max(-63, math.Min(63, k[i]+rng.NormFloat64()*0.3)))
			}
			in := make([]float64, batch*layers.Size(tc.in))
			for i := range in {
				in[i] = float64(rng.IntN(32))
			}
			oa := make([]float64, batch*layers.Size(la.OutShape()))
			ob := make([]float64, len(oa))
			ea.Forward([][]float64{k}, in, oa, batch, true)
			eb.Forward([][]float64{k}, in, ob, batch, true)
			for i := range oa {
				if math.Abs(oa[i]-ob[i]) > 1e-9*math.Max(1, math.Abs(oa[i])) {
					t.Fatalf("%s step %d batch %d: out[%d] ideal %v, system %v", tc.name, step, batch, i, oa[i], ob[i])
				}
			}
			dOut := make([]float64, len(oa))
			for i := range dOut {
				dOut[i] = rng.NormFloat64()
			}
			dia, dib := make([]float64, len(in)), make([]float64, len(in))
			dka, dkb := make([]float64, len(k)), make([]float64, len(k))
			if err := ea.Backward([][]float64{k}, in, oa, dOut, dia, [][]float64{dka}, batch); err != nil {
				t.Fatal(err)
			}
			if err := eb.Backward([][]float64{k}, in, ob, dOut, dib, [][]float64{dkb}, batch); err != nil {
				t.Fatal(err)
			}
			for i := range dia {
				if math.Abs(dia[i]-dib[i]) > 1e-9*math.Max(1, math.Abs(dia[i])) {
					t.Fatalf("%s step %d: dIn[%d] ideal %v, system %v", tc.name, step, i, dia[i], dib[i])
				}
			}
			for i := range dka {
				if math.Abs(dka[i]-dkb[i]) > 1e-9*math.Max(1, math.Abs(dka[i])) {
					t.Fatalf("%s step %d: dK[%d] ideal %v, system %v", tc.name, step, i, dka[i], dkb[i])
				}
			}
		}
	}
}
