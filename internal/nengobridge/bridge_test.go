package nengobridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// lowpassModel is a Nengo-shaped model: a constant input u = 2 copied
// into x, filtered by Lowpass(0.01) into y, probed; a callback operator
// (handle 0) doubles y into z, probed too; it reads y before the
// synapse updates it.
func lowpassModel() (*Spec, []float64) {
	s := &Spec{
		Dt: 0.001,
		Signals: []SignalSpec{
			{Name: "step", Size: 1, Init: -1},
			{Name: "time", Size: 1, Init: -1},
			{Name: "u", Size: 2, ReadOnly: true, Init: 0},
			{Name: "x", Size: 2, Init: -1},
			{Name: "y", Size: 2, Init: -1},
			{Name: "z", Size: 2, Init: -1},
		},
		Step: 0, Time: 1,
		Ops: []OpSpec{
			{Type: "TimeUpdate", Sets: []int{0, 1}, Sig: map[string]int{"step": 0, "time": 1}},
			{Type: "Copy", Tag: "u -> x", Sets: []int{3}, Reads: []int{2}, Sig: map[string]int{"X": 2, "Y": 3}},
			{Type: "SimSynapse", Tag: "x -> y", Updates: []int{4}, Reads: []int{3}, Sig: map[string]int{"X": 3, "Y": 4},
				Synapse: &SynapseSpec{Type: "Lowpass", Tau: 0.01}},
			{Type: "Callback", Tag: "z = 2y", Sets: []int{5}, Reads: []int{4}, Handle: 0},
		},
		Probes: []ProbeSpec{{Label: "y", Signal: 4, Period: 1}, {Label: "z[1]", Signal: 5, Idx: []int{1}, Period: 2}},
	}
	return s, []float64{2, 2}
}

func TestBridgeRunsCallbacksInPlace(t *testing.T) {
	const tol = 1e-12 // the lowpass closed form, rounding only
	s, init := lowpassModel()
	var b *Bridge
	calls := 0
	call := func(h, step int, tm float64) error {
		calls++
		if h != 0 {
			return fmt.Errorf("handle %d", h)
		}
		if want := float64(step) * s.Dt; math.Abs(tm-want) > tol {
			return fmt.Errorf("t = %v at step %d", tm, step)
		}
		y, z := b.Signal(4), b.Signal(5)
		for i := range z {
			z[i] = 2 * y[i]
		}
		return nil
	}
	b, err := New(s, init, call, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Run(10); err != nil {
		t.Fatal(err)
	}
	if calls != 10 || b.Steps() != 10 {
		t.Fatalf("calls %d, steps %d, want 10", calls, b.Steps())
	}
	a := math.Exp(-s.Dt / 0.01)
	y := b.Probe(0)
	z := b.Probe(1)
	if len(y) != 20 || len(z) != 5 {
		t.Fatalf("probe lengths %d, %d; want 20, 5", len(y), len(z))
	}
	for k := 1; k <= 10; k++ {
		want := 2 * (1 - math.Pow(a, float64(k)))
		if got := y[2*(k-1)]; math.Abs(got-want) > tol {
			t.Errorf("y at step %d = %v, want %v", k, got, want)
		}
		// the synapse updates y: its readers (the callback) see the
		// value of the step before, as in Nengo
		prev := 2 * (1 - math.Pow(a, float64(k-1)))
		if k%2 == 0 {
			if got := z[k/2-1]; math.Abs(got-2*prev) > tol {
				t.Errorf("z[1] at step %d = %v, want %v (the callback reads y before the synapse updates it)", k, got, 2*prev)
			}
		}
	}
	b.Reset()
	if b.Steps() != 0 || len(b.Probe(0)) != 0 || b.Signal(4)[0] != 0 || b.Signal(2)[0] != 2 {
		t.Errorf("after Reset: steps %d, probe %d values, y %v, u %v", b.Steps(), len(b.Probe(0)), b.Signal(4), b.Signal(2))
	}
}

func TestBridgeCallbackErrorStopsRun(t *testing.T) {
	s, init := lowpassModel()
	boom := errors.New("boom")
	b, err := New(s, init, func(h, step int, tm float64) error {
		if step == 3 {
			return boom
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Run(10)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "step 3") {
		t.Fatalf("err = %v, want boom at step 3", err)
	}
	if b.Steps() != 2 {
		t.Errorf("steps after the failure = %d, want 2 (the last completed step)", b.Steps())
	}
}

func TestBridgeStore(t *testing.T) {
	s, init := lowpassModel()
	var mem []float64
	b, err := New(s, init, func(int, int, float64) error { return nil }, func(n int) []float64 {
		mem = make([]float64, n)
		return mem
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Run(1); err != nil {
		t.Fatal(err)
	}
	u := b.Signal(2)
	inside := false
	for i := range mem {
		inside = inside || &mem[i] == &u[0]
	}
	if !inside || u[0] != 2 {
		t.Fatalf("signal u = %v does not live in the memory Store allocated", u)
	}
}

func TestCheckListsUnsupported(t *testing.T) {
	s, _ := lowpassModel()
	s.Ops = append(s.Ops,
		OpSpec{Type: "SimNeurons", Sig: map[string]int{"J": 3, "output": 5}, Neuron: &NeuronSpec{Type: "SpikingTanh"}},
		OpSpec{Type: "SimProcess", Sig: map[string]int{"Y": 5}, Process: &ProcessSpec{Type: "WhiteNoise"}},
		OpSpec{Type: "BsrDotInc"},
		OpSpec{Type: "SimNeurons", Sig: map[string]int{"J": 3, "output": 5}, State: []int{4}, StateNames: []string{"voltage"},
			Neuron: &NeuronSpec{Type: "LIF", Params: map[string]float64{"tau_rc": 0.02, "tau_ref": 0.002, "min_voltage": 0, "amplitude": 1}}},
	)
	u, err := Check(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"4: neuron type SpikingTanh",
		"5: process WhiteNoise",
		"6: operator type BsrDotInc",
		`7: neuron type LIF: Nengo's state has no "refractory_time" (it has voltage)`,
	}
	var got []string
	for _, x := range u {
		got = append(got, fmt.Sprintf("%d: %s", x.Op, x.Reason))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Check:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := New(s, []float64{2, 2}, nil, nil); err == nil || !strings.Contains(err.Error(), "SpikingTanh") {
		t.Errorf("New with an unsupported operator: err = %v", err)
	}
}

func TestBadSpecs(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"dt", func(s *Spec) { s.Dt = 0 }, "dt = 0: must be positive"},
		{"signal index", func(s *Spec) { s.Ops[1].Sig["X"] = 9 }, "signal 9 is not one of the 6 signals"},
		{"missing operand", func(s *Spec) { delete(s.Ops[1].Sig, "X") }, `no signal "X"`},
		{"index list", func(s *Spec) { s.Ops[1].Idx = map[string][]int{"X": {0, 5}} }, "index 5 of X is not an element"},
		{"probe", func(s *Spec) { s.Probes[0].Signal = -1 }, "probe 0 (y): signal -1"},
		{"init", func(s *Spec) { s.Signals[2].Init = 1 }, "outside the 2 values given"},
		{"neuron parameter", func(s *Spec) {
			s.Ops = append(s.Ops, OpSpec{Type: "SimNeurons", Sig: map[string]int{"J": 3, "output": 5}, Neuron: &NeuronSpec{Type: "LIF", Params: map[string]float64{}}})
		}, `neuron type LIF: no parameter "tau_rc"`},
		{"size", func(s *Spec) { s.Ops[1].Sig["Y"] = 0 }, "Copy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, init := lowpassModel()
			tc.edit(s)
			_, err := New(s, init, func(int, int, float64) error { return nil }, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := ParseSpec([]byte("{")); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("ParseSpec of broken JSON: %v", err)
	}
}

func TestParseSpecRoundTrip(t *testing.T) {
	s, _ := lowpassModel()
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseSpec(js)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ops) != 4 || p.Ops[2].Synapse.Tau != 0.01 || p.Probes[1].Idx[0] != 1 {
		t.Errorf("round trip lost fields: %+v", p)
	}
}

func TestNaNNamesSignalAndStep(t *testing.T) {
	s, init := lowpassModel()
	var b *Bridge
	b, err := New(s, init, func(h, step int, tm float64) error {
		if step == 4 {
			b.Signal(5)[0] = math.NaN()
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Run(10)
	if err == nil || !strings.Contains(err.Error(), `NaN in signal "z"[0]`) || !strings.Contains(err.Error(), "step 4") {
		t.Fatalf("err = %v, want the NaN in z at step 4", err)
	}
}

func TestTableProcessLooksUpByStep(t *testing.T) {
	// a 3-row table of 2 values as the input of a SimProcess: at step k
	// the output is row k mod 3 (Nengo's WhiteSignal: signal[round(t/dt) % n])
	s := &Spec{
		Dt: 0.001,
		Signals: []SignalSpec{
			{Name: "step", Size: 1, Init: -1}, {Name: "time", Size: 1, Init: -1},
			{Name: "table", Size: 6, Init: 0}, {Name: "out", Size: 2, Init: -1},
		},
		Step: 0, Time: 1,
		Ops: []OpSpec{
			{Type: "TimeUpdate", Sets: []int{0, 1}, Sig: map[string]int{"step": 0, "time": 1}},
			{Type: "SimProcess", Sets: []int{3}, Reads: []int{1, 2}, Sig: map[string]int{"X": 2, "Y": 3},
				Process: &ProcessSpec{Type: "Table", Rows: 3, Dims: 2}},
		},
		Probes: []ProbeSpec{{Label: "out", Signal: 3, Period: 1}},
	}
	b, err := New(s, []float64{0, 0.5, 1, 1.5, 2, 2.5}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Run(7); err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 1.5, 2, 2.5, 0, 0.5, 1, 1.5, 2, 2.5, 0, 0.5, 1, 1.5}
	if got := b.Probe(0); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("table lookup: %v, want %v", got, want)
	}
	s.Ops[1].Process.Rows = 4
	if _, err := New(s, []float64{0, 0.5, 1, 1.5, 2, 2.5}, nil, nil); err == nil || !strings.Contains(err.Error(), "table of 4×2 values") {
		t.Errorf("a table of the wrong size: err = %v", err)
	}
}

// TestNaNInLearnedWeights: a NaN that a PES update makes in the weights
// (+Inf + −Inf) stops the run naming the weights and the step, from the
// fused product-and-update kernel that checks the rows it writes.
func TestNaNInLearnedWeights(t *testing.T) {
	s := &Spec{
		Dt: 0.001,
		Signals: []SignalSpec{
			{Name: "step", Size: 1, Init: -1},
			{Name: "time", Size: 1, Init: -1},
			{Name: "acts", Size: 2, ReadOnly: true, Init: 0},
			{Name: "filtered", Size: 2, ReadOnly: true, Init: 2},
			{Name: "error", Size: 1, Init: -1},
			{Name: "delta", Size: 2, Init: -1},
			{Name: "weights", Size: 2, Init: 4},
			{Name: "y", Size: 1, Init: -1},
		},
		Step: 0, Time: 1,
		Ops: []OpSpec{
			{Type: "TimeUpdate", Sets: []int{0, 1}, Sig: map[string]int{"step": 0, "time": 1}},
			{Type: "Reset", Sets: []int{7}, Sig: map[string]int{"Y": 7}, Num: map[string]float64{"value": 0}},
			{Type: "DotInc", Incs: []int{7}, Reads: []int{6, 2}, Sig: map[string]int{"A": 6, "X": 2, "Y": 7}},
			{Type: "Callback", Tag: "error", Sets: []int{4}, Handle: 0},
			{Type: "SimPES", Reads: []int{3, 4}, Updates: []int{5}, Sig: map[string]int{"pre": 3, "error": 4, "delta": 5},
				Num: map[string]float64{"learning_rate": 1e-4}},
			{Type: "Copy", Tag: "weights += delta", Incs: []int{6}, Reads: []int{5}, Sig: map[string]int{"X": 5, "Y": 6}, Inc: true},
		},
		Probes: []ProbeSpec{{Label: "y", Signal: 7, Period: 1}},
	}
	init := []float64{1, 1, 1, 1, math.Inf(1), 1} // acts = filtered = [1, 1]; weights [+Inf, 1]
	var b *Bridge
	b, err := New(s, init, func(h, step int, tm float64) error {
		if step == 3 {
			b.Signal(4)[0] = math.Inf(1) // Δw = −lr·dt/2·Inf·1 = −Inf
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := b.Plan(); p.Simplified != 4 {
		t.Fatalf("the product and the update were not fused (4 operators after simplification):\n%s", p)
	}
	err = b.Run(10)
	if err == nil || !strings.Contains(err.Error(), `NaN in signal "weights"[0]`) || !strings.Contains(err.Error(), "step 3") {
		t.Fatalf("err = %v, want the NaN in weights[0] at step 3", err)
	}
}
