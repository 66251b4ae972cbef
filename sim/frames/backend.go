package frames

import (
	"fmt"
	"math"
	"sync"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
)

// BackendMatMul is a MatMul that computes every synapse-pool product on a
// sim.Backend, so that any neurogo backend — the CPU simulator, the
// emulated analog accelerator of package accel — can host a
// layerwise-parallel network's synapse-pools (the statestream paper's
// networks on the hardware of "hxtorch: PyTorch for BrainScaleS-2 —
// Perceptrons on Analog Neuromorphic Hardware", Spilger et al., 2020). For c = a·b (a m×k, b k×n) it builds a model in
// which a node presents a's rows, one per time step, and a connection
// without synapse whose transform is bᵀ maps them onto a passthrough node;
// the m probe samples are c's rows.
//
// It builds one model per product, so it is a conformance path rather
// than a fast one. MatMul cannot return an error: the first failure is
// kept (Err) and c is zeroed.
type BackendMatMul struct {
	New sim.NewBackend

	mu  sync.Mutex
	err error
}

// Err returns the first error a product met, or nil.
func (bm *BackendMatMul) Err() error {
	bm.mu.Lock()
	defer bm.mu.Unlock()
	return bm.err
}

// MatMul implements MatMul.
func (bm *BackendMatMul) MatMul(m, n, k int, a, b, c []float64) {
	if err := bm.matMul(m, n, k, a, b, c); err != nil {
		clear(c[:m*n])
		bm.mu.Lock()
		if bm.err == nil {
			bm.err = err
		}
		bm.mu.Unlock()
	}
}

func (bm *BackendMatMul) matMul(m, n, k int, a, b, c []float64) error {
	if bm.New == nil {
		return fmt.Errorf("frames: BackendMatMul: New is nil (use sim.CPU or another sim.NewBackend)")
	}
	if m == 0 || n == 0 {
		return nil
	}
	rows := make([][]float64, m)
	for i := range rows {
		rows[i] = a[i*k : (i+1)*k]
	}
	bt := make([][]float64, n)
	for j := range bt {
		bt[j] = make([]float64, k)
		for l := 0; l < k; l++ {
			bt[j][l] = b[l*n+j]
		}
	}
	net := toolkit.New("frames-matmul", 0)
	var model *sim.Model // built below, before the first step
	in := net.Node("a", k, func(t float64, out []float64) {
		// step s (0-based) runs at t = (s+1)·dt, dt the model's time step,
		// and presents row s
		i := 0
		if model != nil && model.Dt > 0 {
			i = min(max(int(math.Round(t/model.Dt))-1, 0), m-1)
		}
		copy(out, rows[i])
	})
	out := net.Passthrough("c", n)
	conn := net.Connect(in, out)
	conn.Transform = toolkit.Dense(bt)
	conn.Synapse = nil
	p := net.Probe("c", out, "")
	model, err := sim.Build(net)
	if err != nil {
		return fmt.Errorf("frames: BackendMatMul: %w", err)
	}
	be, err := bm.New(model)
	if err != nil {
		return fmt.Errorf("frames: BackendMatMul: %w", err)
	}
	defer be.Close()
	if err := be.RunSteps(m); err != nil {
		return fmt.Errorf("frames: BackendMatMul: %w", err)
	}
	data, err := be.Data(p)
	if err != nil {
		return fmt.Errorf("frames: BackendMatMul: %w", err)
	}
	if len(data) != m {
		return fmt.Errorf("frames: BackendMatMul: the backend gave %d samples for %d rows", len(data), m)
	}
	for i, row := range data {
		if len(row) != n {
			return fmt.Errorf("frames: BackendMatMul: sample %d has %d values, want %d", i, len(row), n)
		}
		copy(c[i*n:(i+1)*n], row)
	}
	return nil
}
