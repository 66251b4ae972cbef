package frames

import (
	"math"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
)

// TestBackendMatMul: the appendix network with its synapse-pools hosted on
// a sim.Backend (the CPU simulator, float64 and float32) agrees with the
// default path.
func TestBackendMatMul(t *testing.T) {
	ref := runDemo(t, Options{Seed: 5, Workers: 2, NoNoise: true}, 5, 2)
	for _, tc := range []struct {
		name string
		nb   sim.NewBackend
		tol  float64 // relative to the largest state magnitude
	}{
		{"CPU", sim.CPU, 1e-12},
		{"CPU32", sim.CPU32, 1e-4},
		// a backend that runs the model at another time step: the rows
		// must follow the model's dt, not the default 0.001
		{"CPU dt 0.0025", func(m *sim.Model) (sim.Backend, error) {
			m.Dt = 0.0025
			return sim.CPU(m)
		}, 1e-12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bm := &BackendMatMul{New: tc.nb}
			got := runDemo(t, Options{Seed: 5, Workers: 2, NoNoise: true, MatMul: bm}, 5, 2)
			if err := bm.Err(); err != nil {
				t.Fatal(err)
			}
			for i := range ref {
				scale := 1.0
				for _, v := range ref[i] {
					scale = math.Max(scale, math.Abs(v))
				}
				for k := range ref[i] {
					if d := math.Abs(ref[i][k] - got[i][k]); d > tc.tol*scale {
						t.Fatalf("pool %d value %d: %g on the backend, %g on the CPU path (|Δ| %g)", i, k, got[i][k], ref[i][k], d)
					}
				}
			}
		})
	}
}

func TestBackendMatMulErrors(t *testing.T) {
	bm := &BackendMatMul{}
	c := []float64{1, 2}
	bm.MatMul(1, 2, 1, []float64{1}, []float64{1, 1}, c)
	if err := bm.Err(); err == nil || !strings.Contains(err.Error(), "New is nil") {
		t.Fatalf("err = %v", err)
	}
	if c[0] != 0 || c[1] != 0 {
		t.Errorf("c = %v after a failed product, want zeros", c)
	}
}
