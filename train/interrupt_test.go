package train_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

// The interrupt tests set the process's interrupt flag (package
// interrupt), which every Fit, Evaluate and Predict of the test binary
// reads: no test of this package calls t.Parallel, and each interrupt
// test resets the flag when it ends.

// interruptLatency is how soon after interrupt.Request a call must return.
const interruptLatency = 100 * time.Millisecond

// interruptAfter runs f on another goroutine, requests an interrupt once
// wait has passed and started reports true, and returns f's error and how
// long after the request f returned.
func interruptAfter(t *testing.T, wait time.Duration, started func() bool, f func() error) (error, time.Duration) {
	t.Helper()
	t.Cleanup(interrupt.Reset)
	interrupt.Reset()
	done := make(chan error, 1)
	var returned time.Time
	go func() {
		err := f()
		returned = time.Now()
		done <- err
	}()
	time.Sleep(wait)
	for !started() { // a busy machine may not have begun
		time.Sleep(time.Millisecond)
	}
	requested := time.Now()
	interrupt.Request()
	select {
	case err := <-done:
		return err, returned.Sub(requested)
	case <-time.After(2 * time.Second):
		t.Fatal("did not return within 2 s of interrupt.Request")
		return nil, 0
	}
}

// TestFitInterrupt: Fit of the small regression fixture for 10⁶ epochs,
// interrupted after 50 ms, returns within interruptLatency with the
// history of its whole epochs and an error wrapping
// interrupt.ErrInterrupted; its parameters equal those of a Fit stopped
// (StopTraining) after the same batches, and after the flag's Reset Fit
// runs on.
func TestFitInterrupt(t *testing.T) {
	f := newFixture(4, relu())
	x, y := f.data(t, 12)
	o := train.FitOptions{Epochs: 1000000, BatchSize: 5, Seed: 3}
	m := f.model(t, &optim.Adam{LR: 0.01})
	var batchesDone, epochsDone atomic.Int64
	count := train.CallbackFuncs{
		BatchEnd: func(*train.Model, int, int, train.Logs) error { batchesDone.Add(1); return nil },
		EpochEnd: func(*train.Model, int, train.Logs) error { epochsDone.Add(1); return nil },
	}
	o.Callbacks = []train.Callback{count}
	var hist *train.History
	err, latency := interruptAfter(t, 50*time.Millisecond, func() bool { return epochsDone.Load() > 0 }, func() (err error) {
		hist, err = m.Fit(x, y, o)
		return err
	})
	if !errors.Is(err, interrupt.ErrInterrupted) {
		t.Fatalf("Fit = %v, want an error wrapping interrupt.ErrInterrupted", err)
	}
	if !strings.HasPrefix(err.Error(), "train: Fit interrupted in epoch ") {
		t.Errorf("error %q does not say where Fit was interrupted", err)
	}
	if latency > interruptLatency {
		t.Errorf("Fit returned %v after interrupt.Request, want at most %v", latency, interruptLatency)
	}
	batches, epochs := int(batchesDone.Load()), int(epochsDone.Load())
	if hist == nil || len(hist.Epochs) != epochs || len(hist.Logs) != epochs || epochs == 0 {
		t.Fatalf("history %v after %d whole epochs, want one entry per whole epoch (at least one)", hist, epochs)
	}

	// the same batches, stopped by StopTraining instead
	interrupt.Reset()
	ref := f.model(t, &optim.Adam{LR: 0.01})
	n := 0
	stop := train.CallbackFuncs{BatchEnd: func(m *train.Model, _, _ int, _ train.Logs) error {
		if n++; n == batches {
			m.StopTraining()
		}
		return nil
	}}
	ro := o
	ro.Callbacks = []train.Callback{stop}
	if _, err := ref.Fit(x, y, ro); err != nil {
		t.Fatal(err)
	}
	if d, ok := sameParams(params(t, ref), params(t, m)); !ok {
		t.Errorf("after %d batches the interrupted Fit's parameters differ from a stopped Fit's: %s", batches, d)
	}

	h, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 5, Seed: 3, InitialEpoch: epochs})
	if err != nil || len(h.Epochs) != 2 {
		t.Errorf("Fit after Reset = %v, %v; want 2 epochs", h, err)
	}
}

// heavyFixture is a model whose steps are slow (a 400 × 400 dense
// neuron-to-neuron transform, batch 12) and whose sequences are long, so
// that one batch takes longer than interruptLatency: the passes must be
// interrupted inside the batch. stepped counts the steps run (a probed
// node function, called every step for every example).
func heavyFixture(t *testing.T, stepped *atomic.Int64) (*train.Model, map[*toolkit.Node]*train.Array, map[*toolkit.Probe]*train.Array, *toolkit.Probe) {
	t.Helper()
	const n, steps, examples = 400, 300, 12
	net := toolkit.New("heavy", 5)
	in := net.Const("in", 0)
	a, b := net.Ensemble("a", n, 1), net.Ensemble("b", n, 1)
	a.NeuronType, b.NeuronType = relu(), relu()
	out := net.Passthrough("out", 1)
	net.Connect(in, a).Synapse = nil
	r := rand.New(rand.NewPCG(1, 2))
	w := make([][]float64, n)
	for i := range w {
		w[i] = make([]float64, n)
		for j := range w[i] {
			w[i][j] = r.NormFloat64() * 1e-3
		}
	}
	ab := net.Connect(a.Neurons(), b.Neurons())
	ab.Transform, ab.Synapse = toolkit.Dense(w), nil
	net.Connect(b, out).Synapse = nil
	p := net.Probe("p", out, "")
	p.Synapse = nil
	tick := net.Node("tick", 1, func(t float64, out []float64) { stepped.Add(1); out[0] = 0 })
	net.Probe("tick", tick, "").Synapse = nil
	m, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Compile(train.Config{Optimizer: &optim.SGD{LR: 1e-3}, Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}}); err != nil {
		t.Fatal(err)
	}
	xs, ys := make([][]float64, examples), make([][]float64, examples)
	for i := range xs {
		v := -1 + 2*float64(i)/(examples-1)
		xs[i], ys[i] = []float64{v}, []float64{v * v}
	}
	xa, _ := train.ArrayFromRows(xs, steps)
	ya, _ := train.ArrayFromRows(ys, steps)
	return m, map[*toolkit.Node]*train.Array{in: xa}, map[*toolkit.Probe]*train.Array{p: ya}, p
}

// TestInterruptInsideBatch: Fit, Evaluate and Predict of a model whose
// single batch takes longer than interruptLatency stop inside the batch
// (the forward and backward passes check the flag every step); an
// interrupted Fit leaves the parameters as they were.
func TestInterruptInsideBatch(t *testing.T) {
	for _, tc := range []struct {
		name   string
		prefix string
		call   func(m *train.Model, x map[*toolkit.Node]*train.Array, y map[*toolkit.Probe]*train.Array) error
	}{
		{"Fit", "train: Fit interrupted in epoch 1, batch 1 of 1", func(m *train.Model, x map[*toolkit.Node]*train.Array, y map[*toolkit.Probe]*train.Array) error {
			_, err := m.Fit(x, y, train.FitOptions{Epochs: 100, BatchSize: 12})
			return err
		}},
		{"Evaluate", "train: Evaluate interrupted after 0 of 12 examples", func(m *train.Model, x map[*toolkit.Node]*train.Array, y map[*toolkit.Probe]*train.Array) error {
			_, err := m.Evaluate(x, y, train.EvalOptions{BatchSize: 12})
			return err
		}},
		{"Predict", "train: Predict interrupted after 0 of 12 examples", func(m *train.Model, x map[*toolkit.Node]*train.Array, y map[*toolkit.Probe]*train.Array) error {
			_, err := m.Predict(x, train.EvalOptions{BatchSize: 12})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stepped atomic.Int64
			m, x, y, _ := heavyFixture(t, &stepped)
			before := params(t, m)
			start := time.Now()
			err, latency := interruptAfter(t, 50*time.Millisecond, func() bool { return stepped.Load() > 0 },
				func() error { return tc.call(m, x, y) })
			if !errors.Is(err, interrupt.ErrInterrupted) {
				t.Fatalf("%s = %v, want an error wrapping interrupt.ErrInterrupted", tc.name, err)
			}
			if !strings.HasPrefix(err.Error(), tc.prefix) {
				t.Errorf("error %q does not start with %q", err, tc.prefix)
			}
			if latency > interruptLatency {
				t.Errorf("%s returned %v after interrupt.Request, want at most %v", tc.name, latency, interruptLatency)
			}
			if d, ok := sameParams(before, params(t, m)); !ok {
				t.Errorf("interrupted %s changed the parameters: %s", tc.name, d)
			}
			interrupt.Reset()
			t0 := time.Now()
			if _, err := m.Evaluate(x, y, train.EvalOptions{BatchSize: 12}); err != nil {
				t.Fatalf("Evaluate after Reset: %v", err)
			}
			if whole := time.Since(t0); whole < 2*interruptLatency {
				t.Logf("a whole batch took only %v (interrupted after %v): the test does not show an interrupt inside a batch", whole, time.Since(start))
			}
		})
	}
}
