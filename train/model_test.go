package train_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/npz"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

// Named tolerances of the model tests.
const (
	// lossDropRatio: training y = x² for a few epochs must at least halve
	// the loss (the untrained network decodes y = x, MSE ≈ 0.53; trained,
	// it reaches about 0.01).
	lossDropRatio = 0.5
	// logTol bounds the difference between a validation loss logged by
	// Fit and the same loss from Evaluate: both average the same per-example
	// errors, only the batching (summation order) may differ.
	logTol = 1e-12
	// simTol is the reference-simulator tolerance: a model rebuilt
	// from Params matches the trainer's forward pass to 1e-9.
	simTol = 1e-9
)

// fixture is a small regression network: in (Const, fed) → a
// (RectifiedLinear ensemble) → out (passthrough node), probed at out;
// the connections and the probe are unfiltered, so every step is the
// same static map and no step is delayed.
type fixture struct {
	net   *toolkit.Network
	in    *toolkit.Node
	a     *toolkit.Ensemble
	cin   *toolkit.Connection
	cout  *toolkit.Connection
	out   *toolkit.Node
	p     *toolkit.Probe
	steps int
}

// Neuron types with amplitude 0.01: activities of order 1 and decoders of
// order 0.1 keep the problem well conditioned for learning rates of 0.01
// (with Nengo's amplitude 1 the decoders are ~1e-3 and Adam's first steps
// overshoot).
func relu() neurons.Type    { return neurons.RectifiedLinear{Amplitude: 0.01} }
func lif() neurons.Type     { l := neurons.NewLIF(); l.Amplitude = 0.01; return l }
func lifRate() neurons.Type { l := neurons.NewLIFRate(); l.Amplitude = 0.01; return l }

func newFixture(seed int64, nt neurons.Type) *fixture {
	f := &fixture{net: toolkit.New("sq", seed), steps: 2}
	f.in = f.net.Const("in", 0)
	f.a = f.net.Ensemble("a", 20, 1)
	f.a.NeuronType = nt
	f.out = f.net.Passthrough("out", 1)
	f.cin = f.net.Connect(f.in, f.a)
	f.cin.Synapse = nil
	f.cout = f.net.Connect(f.a, f.out)
	f.cout.Synapse = nil
	f.p = f.net.Probe("p", f.out, "")
	f.p.Synapse = nil
	return f
}

// data returns n examples x evenly spaced in [-1, 1] (every step the
// same) and targets x².
func (f *fixture) data(t testing.TB, n int) (map[*toolkit.Node]*train.Array, map[*toolkit.Probe]*train.Array) {
	t.Helper()
	xs, ys := make([][]float64, n), make([][]float64, n)
	for i := range n {
		x := -1 + 2*float64(i)/float64(max(n-1, 1))
		xs[i], ys[i] = []float64{x}, []float64{x * x}
	}
	xa, err := train.ArrayFromRows(xs, f.steps)
	if err != nil {
		t.Fatal(err)
	}
	ya, err := train.ArrayFromRows(ys, f.steps)
	if err != nil {
		t.Fatal(err)
	}
	return map[*toolkit.Node]*train.Array{f.in: xa}, map[*toolkit.Probe]*train.Array{f.p: ya}
}

func (f *fixture) model(t testing.TB, opt optim.Optimizer) *train.Model {
	t.Helper()
	m, err := train.New(f.net)
	if err != nil {
		t.Fatal(err)
	}
	if opt != nil {
		if err := m.Compile(train.Config{Optimizer: opt, Loss: map[*toolkit.Probe]loss.Loss{f.p: loss.MSE{}}}); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// params returns every parameter of m by name.
func params(t testing.TB, m *train.Model) map[string][]float64 {
	t.Helper()
	names, _ := m.ParamNames()
	if len(names) == 0 {
		t.Fatal("model has no parameters")
	}
	out := map[string][]float64{}
	for _, n := range names {
		v, err := m.Param(n)
		if err != nil {
			t.Fatal(err)
		}
		out[n] = v
	}
	return out
}

// sameParams reports the first parameter that differs bit for bit.
func sameParams(a, b map[string][]float64) (string, bool) {
	for n, v := range a {
		w, ok := b[n]
		if !ok || len(v) != len(w) {
			return n, false
		}
		for i := range v {
			if math.Float64bits(v[i]) != math.Float64bits(w[i]) {
				return fmt.Sprintf("%s[%d]: %v vs %v", n, i, v[i], w[i]), false
			}
		}
	}
	return "", len(a) == len(b)
}

func paramOf(names []string, suffix string) string {
	for _, n := range names {
		if strings.HasSuffix(n, suffix) {
			return n
		}
	}
	return ""
}

func evalLoss(t testing.TB, m *train.Model, x map[*toolkit.Node]*train.Array, y map[*toolkit.Probe]*train.Array) float64 {
	t.Helper()
	l, err := m.Evaluate(x, y, train.EvalOptions{Rates: true})
	if err != nil {
		t.Fatal(err)
	}
	v, ok := l["loss"]
	if !ok || math.IsNaN(v) {
		t.Fatalf("Evaluate logged no loss: %v", l)
	}
	return v
}

// TestFitLearns: Fit with each optimiser lowers the loss of y = x² well
// below its starting value.
func TestFitLearns(t *testing.T) {
	cases := []struct {
		name   string
		opt    optim.Optimizer
		epochs int
	}{
		{"Adam", &optim.Adam{LR: 0.01}, 30},
		{"SGD", &optim.SGD{LR: 0.01}, 30},
		{"SGD momentum", &optim.SGD{LR: 0.01, Momentum: 0.9}, 30},
		{"RMSProp", &optim.RMSProp{LR: 0.003}, 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(1, relu())
			m := f.model(t, c.opt)
			x, y := f.data(t, 32)
			before := evalLoss(t, m, x, y)
			h, err := m.Fit(x, y, train.FitOptions{Epochs: c.epochs, BatchSize: 8, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			after := evalLoss(t, m, x, y)
			if !(after < lossDropRatio*before) {
				t.Fatalf("loss %.4g → %.4g: want below %.2g × the start", before, after, lossDropRatio)
			}
			if len(h.Epochs) != c.epochs || len(h.Series("loss")) != c.epochs {
				t.Fatalf("history has %d epochs, want %d", len(h.Epochs), c.epochs)
			}
			t.Logf("loss %.4g → %.4g", before, after)
		})
	}
}

// sliceData returns examples [lo, hi) of x and y.
func sliceData(x map[*toolkit.Node]*train.Array, y map[*toolkit.Probe]*train.Array, lo, hi int) (map[*toolkit.Node]*train.Array, map[*toolkit.Probe]*train.Array) {
	cut := func(a *train.Array) *train.Array {
		w := a.Steps * a.Dims
		return &train.Array{N: hi - lo, Steps: a.Steps, Dims: a.Dims, Data: slices.Clone(a.Data[lo*w : hi*w])}
	}
	xo, yo := map[*toolkit.Node]*train.Array{}, map[*toolkit.Probe]*train.Array{}
	for k, a := range x {
		xo[k] = cut(a)
	}
	for k, a := range y {
		yo[k] = cut(a)
	}
	return xo, yo
}

// TestFitValidation: ValidationSplit holds out the last examples (the
// model trains exactly as on the first ones alone) and logs val_loss
// equal to Evaluate on them; ValidationX/Y does the same with given
// data; both at once is an error.
func TestFitValidation(t *testing.T) {
	const n, nTrain = 10, 8
	f := newFixture(2, relu())
	x, y := f.data(t, n)
	xt, yt := sliceData(x, y, 0, nTrain)
	xv, yv := sliceData(x, y, nTrain, n)
	base := train.FitOptions{Epochs: 3, BatchSize: 4, Seed: 5}

	ref := f.model(t, &optim.Adam{LR: 0.01})
	if _, err := ref.Fit(xt, yt, base); err != nil {
		t.Fatal(err)
	}
	want := params(t, ref)
	wantVal := evalLoss(t, ref, xv, yv)

	cases := []struct {
		name string
		opts func(o *train.FitOptions)
	}{
		{"ValidationSplit", func(o *train.FitOptions) { o.ValidationSplit = float64(n-nTrain) / n }},
		{"ValidationXY", func(o *train.FitOptions) { o.ValidationX, o.ValidationY = xv, yv }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := f.model(t, &optim.Adam{LR: 0.01})
			o := base
			c.opts(&o)
			fx, fy := x, y
			if o.ValidationX != nil {
				fx, fy = xt, yt
			}
			h, err := m.Fit(fx, fy, o)
			if err != nil {
				t.Fatal(err)
			}
			if d, ok := sameParams(want, params(t, m)); !ok {
				t.Errorf("parameters differ from training on the first %d examples only (%s): validation examples were trained on", nTrain, d)
			}
			vl := h.Series("val_loss")
			if len(vl) != base.Epochs || slices.ContainsFunc(vl, math.IsNaN) {
				t.Fatalf("val_loss per epoch = %v, keys %v", vl, h.Keys())
			}
			if got := vl[len(vl)-1]; math.Abs(got-wantVal) > logTol*math.Max(1, wantVal) {
				t.Errorf("last val_loss %.15g, Evaluate on the held-out examples %.15g", got, wantVal)
			}
			if !slices.Contains(h.Keys(), "val_p_loss") {
				t.Errorf("keys %v: want val_p_loss", h.Keys())
			}
		})
	}

	t.Run("both", func(t *testing.T) {
		m := f.model(t, &optim.Adam{})
		o := base
		o.ValidationSplit, o.ValidationX, o.ValidationY = 0.2, xv, yv
		if _, err := m.Fit(x, y, o); err == nil || !strings.Contains(err.Error(), "not both") {
			t.Fatalf("ValidationSplit with ValidationX: got %v, want an error saying not both", err)
		}
	})
	t.Run("bad split", func(t *testing.T) {
		for _, s := range []float64{-0.1, 1, math.NaN(), 0.01} {
			m := f.model(t, &optim.Adam{})
			o := base
			o.ValidationSplit = s
			if _, err := m.Fit(x, y, o); err == nil || !strings.Contains(err.Error(), "ValidationSplit") {
				t.Errorf("ValidationSplit %v: got %v, want an error naming ValidationSplit", s, err)
			}
		}
	})
}

// TestFitDeterminism: two fresh models trained with the same seed (or
// without shuffling) end bit-identical; different seeds differ.
func TestFitDeterminism(t *testing.T) {
	f := newFixture(3, relu())
	x, y := f.data(t, 12)
	run := func(o train.FitOptions) map[string][]float64 {
		m := f.model(t, &optim.Adam{LR: 0.01})
		o.Epochs, o.BatchSize = 3, 4
		if _, err := m.Fit(x, y, o); err != nil {
			t.Fatal(err)
		}
		return params(t, m)
	}
	cases := []struct {
		name string
		a, b train.FitOptions
		same bool
	}{
		{"same seed", train.FitOptions{Seed: 7}, train.FitOptions{Seed: 7}, true},
		{"no shuffle", train.FitOptions{NoShuffle: true, Seed: 1}, train.FitOptions{NoShuffle: true, Seed: 2}, true},
		{"different seeds", train.FitOptions{Seed: 7}, train.FitOptions{Seed: 8}, false},
		{"shuffle vs not", train.FitOptions{Seed: 7}, train.FitOptions{NoShuffle: true, Seed: 7}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, same := sameParams(run(c.a), run(c.b))
			if same != c.same {
				t.Fatalf("parameters identical = %v, want %v (%s)", same, c.same, d)
			}
		})
	}
}

// recorder is a callback logging every call.
func recorder(events *[]string, info *train.FitInfo) train.CallbackFuncs {
	return train.CallbackFuncs{
		TrainBegin: func(_ *train.Model, i train.FitInfo) error {
			*info = i
			*events = append(*events, "TrainBegin")
			return nil
		},
		EpochBegin: func(_ *train.Model, ep int) error {
			*events = append(*events, fmt.Sprintf("EpochBegin %d", ep))
			return nil
		},
		BatchEnd: func(_ *train.Model, ep, b int, l train.Logs) error {
			if _, ok := l["loss"]; !ok {
				return errors.New("BatchEnd logs without loss")
			}
			*events = append(*events, fmt.Sprintf("BatchEnd %d %d", ep, b))
			return nil
		},
		EpochEnd: func(_ *train.Model, ep int, l train.Logs) error {
			*events = append(*events, fmt.Sprintf("EpochEnd %d", ep))
			return nil
		},
		TrainEnd: func(_ *train.Model, h *train.History) error {
			*events = append(*events, fmt.Sprintf("TrainEnd %d", len(h.Epochs)))
			return nil
		},
	}
}

// expectedEvents is the call sequence of an uninterrupted Fit.
func expectedEvents(first, epochs, batches int) []string {
	ev := []string{"TrainBegin"}
	for ep := first; ep < first+epochs; ep++ {
		ev = append(ev, fmt.Sprintf("EpochBegin %d", ep))
		for b := range batches {
			ev = append(ev, fmt.Sprintf("BatchEnd %d %d", ep, b))
		}
		ev = append(ev, fmt.Sprintf("EpochEnd %d", ep))
	}
	return append(ev, fmt.Sprintf("TrainEnd %d", epochs))
}

// TestCallbackOrder: callbacks run in order with the right counts and
// FitInfo, for batches that do and do not divide the data, a batch
// larger than the data, and a resumed epoch count.
func TestCallbackOrder(t *testing.T) {
	const n = 10
	cases := []struct {
		name                          string
		batch, epochs, initial, nBats int
	}{
		{"uneven batches", 4, 2, 0, 3},
		{"even batches", 5, 2, 0, 2},
		{"batch larger than data", 100, 2, 0, 1},
		{"initial epoch", 4, 2, 3, 3},
	}
	f := newFixture(4, relu())
	x, y := f.data(t, n)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := f.model(t, &optim.Adam{LR: 0.01})
			var events []string
			var info train.FitInfo
			h, err := m.Fit(x, y, train.FitOptions{Epochs: c.epochs, BatchSize: c.batch, InitialEpoch: c.initial, Seed: 1,
				Callbacks: []train.Callback{recorder(&events, &info)}})
			if err != nil {
				t.Fatal(err)
			}
			if want := expectedEvents(c.initial, c.epochs, c.nBats); !slices.Equal(events, want) {
				t.Errorf("events\n%v\nwant\n%v", events, want)
			}
			wantInfo := train.FitInfo{Epochs: c.initial + c.epochs, Batches: c.nBats, Examples: n, Steps: f.steps}
			info.Params, info.Values = 0, 0
			if info != wantInfo {
				t.Errorf("FitInfo %+v, want %+v", info, wantInfo)
			}
			wantEp := make([]int, c.epochs)
			for i := range wantEp {
				wantEp[i] = c.initial + i
			}
			if !slices.Equal(h.Epochs, wantEp) {
				t.Errorf("History.Epochs %v, want %v", h.Epochs, wantEp)
			}
		})
	}
}

// TestStopTraining: StopTraining from a callback ends Fit after the
// current batch (the epoch is still closed and TrainEnd called).
func TestStopTraining(t *testing.T) {
	cases := []struct {
		name       string
		epoch, bat int
	}{
		{"first batch", 0, 0},
		{"middle of second epoch", 1, 1},
	}
	f := newFixture(4, relu())
	x, y := f.data(t, 10)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := f.model(t, &optim.Adam{LR: 0.01})
			var events []string
			var info train.FitInfo
			stop := train.CallbackFuncs{BatchEnd: func(m *train.Model, ep, b int, _ train.Logs) error {
				if ep == c.epoch && b == c.bat {
					m.StopTraining()
				}
				return nil
			}}
			h, err := m.Fit(x, y, train.FitOptions{Epochs: 3, BatchSize: 4, Seed: 1,
				Callbacks: []train.Callback{recorder(&events, &info), stop}})
			if err != nil {
				t.Fatal(err)
			}
			want := expectedEvents(0, c.epoch+1, 3)
			// the last epoch stops after batch c.bat
			var cut []string
			for _, e := range want {
				var ep, b int
				if _, err := fmt.Sscanf(e, "BatchEnd %d %d", &ep, &b); err == nil && ep == c.epoch && b > c.bat {
					continue
				}
				cut = append(cut, e)
			}
			if !slices.Equal(events, cut) {
				t.Errorf("events\n%v\nwant\n%v", events, cut)
			}
			if len(h.Epochs) != c.epoch+1 {
				t.Errorf("history has %d epochs, want %d", len(h.Epochs), c.epoch+1)
			}
		})
	}
}

// TestEarlyStopping: Fit stops once the monitored value has not improved
// for Patience epochs, and RestoreBest puts back the best epoch's
// parameters.
func TestEarlyStopping(t *testing.T) {
	cases := []struct {
		name      string
		es        train.EarlyStopping
		epochs    int
		stoppedAt int // -1: ran every epoch
		best      int // epoch whose parameters remain with RestoreBest
	}{
		// the training loss falls, so in "max" mode epoch 0 stays best
		{"max patience 1", train.EarlyStopping{Monitor: "loss", Mode: "max", Patience: 1, RestoreBest: true}, 6, 1, 0},
		{"max patience 3", train.EarlyStopping{Monitor: "loss", Mode: "max", Patience: 3, RestoreBest: true}, 6, 3, 0},
		{"min huge MinDelta", train.EarlyStopping{Mode: "min", MinDelta: 1e9, Patience: 2, RestoreBest: true}, 6, 2, 0},
		{"min improving", train.EarlyStopping{Patience: 1, RestoreBest: true}, 4, -1, 3},
		{"no restore", train.EarlyStopping{Monitor: "loss", Mode: "max", Patience: 1}, 6, 1, 1},
	}
	f := newFixture(5, relu())
	x, y := f.data(t, 16)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := f.model(t, &optim.Adam{LR: 0.003})
			var snaps []map[string][]float64
			snap := train.CallbackFuncs{EpochEnd: func(m *train.Model, ep int, _ train.Logs) error {
				snaps = append(snaps, params(t, m))
				return nil
			}}
			es := c.es
			h, err := m.Fit(x, y, train.FitOptions{Epochs: c.epochs, BatchSize: 4, Seed: 2, Callbacks: []train.Callback{snap, &es}})
			if err != nil {
				t.Fatal(err)
			}
			if es.StoppedAt != c.stoppedAt {
				t.Errorf("StoppedAt %d, want %d (loss %v)", es.StoppedAt, c.stoppedAt, h.Series("loss"))
			}
			wantN := c.epochs
			if c.stoppedAt >= 0 {
				wantN = c.stoppedAt + 1
			}
			if len(h.Epochs) != wantN {
				t.Fatalf("ran %d epochs, want %d", len(h.Epochs), wantN)
			}
			if d, ok := sameParams(snaps[c.best], params(t, m)); !ok {
				t.Errorf("parameters after Fit are not those of epoch %d: %s", c.best, d)
			}
			if c.best != len(snaps)-1 {
				if _, ok := sameParams(snaps[len(snaps)-1], params(t, m)); ok {
					t.Errorf("parameters after Fit are still those of the last epoch")
				}
			}
		})
	}
	t.Run("bad mode", func(t *testing.T) {
		m := f.model(t, &optim.Adam{})
		_, err := m.Fit(x, y, train.FitOptions{Callbacks: []train.Callback{&train.EarlyStopping{Mode: "up"}}})
		if err == nil || !strings.Contains(err.Error(), `"up"`) {
			t.Fatalf("Mode up: got %v, want an error naming it", err)
		}
	})
	t.Run("monitor not logged", func(t *testing.T) {
		m := f.model(t, &optim.Adam{})
		_, err := m.Fit(x, y, train.FitOptions{Callbacks: []train.Callback{&train.EarlyStopping{Monitor: "acc"}}})
		if err == nil || !strings.Contains(err.Error(), `"acc"`) {
			t.Fatalf("Monitor acc: got %v, want an error naming it", err)
		}
	})
}

// TestProgress: outside a kernel Progress writes "Epoch i/n" lines with
// the batch count and the epoch's logs, one newline per epoch.
func TestProgress(t *testing.T) {
	cases := []struct {
		name            string
		epochs, initial int
		wantEpochs      []string
	}{
		{"two epochs", 2, 0, []string{"Epoch 1/2 3/3 [", "Epoch 2/2 3/3 ["}},
		{"resumed", 1, 2, []string{"Epoch 3/3 3/3 ["}},
	}
	f := newFixture(6, relu())
	x, y := f.data(t, 10)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			m := f.model(t, &optim.Adam{LR: 0.01})
			if _, err := m.Fit(x, y, train.FitOptions{Epochs: c.epochs, InitialEpoch: c.initial, BatchSize: 4,
				Callbacks: []train.Callback{train.NewProgress(&buf)}}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != len(c.wantEpochs) || !strings.HasSuffix(out, "\n") {
				t.Fatalf("%d epoch lines, want %d:\n%q", len(lines), len(c.wantEpochs), out)
			}
			for i, l := range lines {
				parts := strings.Split(l, "\r")
				last := parts[len(parts)-1]
				if !strings.HasPrefix(last, c.wantEpochs[i]) || !strings.Contains(last, "[=====") ||
					!strings.Contains(last, " - loss: ") || !strings.Contains(last, "p_loss: ") {
					t.Errorf("epoch line %d = %q, want it to start %q and show the logs", i, last, c.wantEpochs[i])
				}
			}
		})
	}
}

// scripted is a metric whose value in the n-th call is vals[n] (one
// batch per epoch: one call per epoch).
type scripted struct {
	vals []float64
	n    *int
}

func (s scripted) Name() string { return "scripted" }
func (s scripted) Accumulate(pred, target []float64, batch, steps, dims int) (float64, float64, error) {
	v := s.vals[min(*s.n, len(s.vals)-1)]
	*s.n++
	return v, 1, nil
}

// TestCheckpointCallback: Checkpoint writes one file per epoch with
// {epoch} replaced, or with BestOnly only when the monitored value
// improves; each file holds that epoch's parameters.
func TestCheckpointCallback(t *testing.T) {
	cases := []struct {
		name      string
		bestOnly  bool
		monitor   string
		wantSaved []int // epochs (from 1) saved
	}{
		{"every epoch", false, "", []int{1, 2, 3, 4}},
		{"best only", true, "p_scripted", []int{1, 2, 4}},
	}
	f := newFixture(7, relu())
	x, y := f.data(t, 8)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			m, err := train.New(f.net)
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			if err := m.Compile(train.Config{Optimizer: &optim.Adam{LR: 0.01}, Loss: map[*toolkit.Probe]loss.Loss{f.p: loss.MSE{}},
				Metrics: map[*toolkit.Probe][]loss.Metric{f.p: {scripted{vals: []float64{3, 1, 2, 0.5}, n: &calls}}}}); err != nil {
				t.Fatal(err)
			}
			var snaps []map[string][]float64
			snap := train.CallbackFuncs{EpochEnd: func(m *train.Model, ep int, _ train.Logs) error {
				snaps = append(snaps, params(t, m))
				return nil
			}}
			ck := &train.Checkpoint{Path: filepath.Join(dir, "ck-{epoch}.npz"), BestOnly: c.bestOnly, Monitor: c.monitor}
			if _, err := m.Fit(x, y, train.FitOptions{Epochs: 4, BatchSize: 8, Callbacks: []train.Callback{snap, ck}}); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, ep := range c.wantSaved {
				want = append(want, filepath.Join(dir, fmt.Sprintf("ck-%d.npz", ep)))
			}
			if !slices.Equal(ck.Saved, want) {
				t.Fatalf("Saved %v, want %v", ck.Saved, want)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			if len(files) != len(want) {
				t.Errorf("files %v, want %v", files, want)
			}
			for i, path := range want {
				ep := c.wantSaved[i]
				fresh := f.model(t, &optim.Adam{LR: 0.01})
				got, err := fresh.LoadCheckpoint(path)
				if err != nil {
					t.Fatal(err)
				}
				if got != ep {
					t.Errorf("%s: epoch %d, want %d", path, got, ep)
				}
				if d, ok := sameParams(snaps[ep-1], params(t, fresh)); !ok {
					t.Errorf("%s does not hold epoch %d's parameters: %s", path, ep, d)
				}
			}
		})
	}
	t.Run("empty path", func(t *testing.T) {
		m := f.model(t, &optim.Adam{})
		if _, err := m.Fit(x, y, train.FitOptions{Callbacks: []train.Callback{&train.Checkpoint{}}}); err == nil || !strings.Contains(err.Error(), "Path") {
			t.Fatalf("got %v, want an error naming Path", err)
		}
	})
}

// TestCheckpointResume: saving after k epochs and loading into a fresh
// model (compiled with a fresh optimiser) continues exactly as the
// uninterrupted run: parameters and optimiser state are restored.
func TestCheckpointResume(t *testing.T) {
	cases := []struct {
		name string
		opt  func() optim.Optimizer
		o    train.FitOptions
	}{
		{"Adam no shuffle", func() optim.Optimizer { return &optim.Adam{LR: 0.01} }, train.FitOptions{NoShuffle: true}},
		{"SGD momentum no shuffle", func() optim.Optimizer { return &optim.SGD{LR: 0.01, Momentum: 0.9} }, train.FitOptions{NoShuffle: true}},
		{"Adam seed", func() optim.Optimizer { return &optim.Adam{LR: 0.01} }, train.FitOptions{Seed: 11}},
	}
	const total, first = 3, 2
	f := newFixture(8, relu())
	x, y := f.data(t, 12)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.BatchSize = 5
			whole := f.model(t, c.opt())
			o.Epochs = total
			if _, err := whole.Fit(x, y, o); err != nil {
				t.Fatal(err)
			}
			want := params(t, whole)

			part := f.model(t, c.opt())
			o.Epochs = first
			if _, err := part.Fit(x, y, o); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "ck.npz")
			if err := part.SaveCheckpoint(path, first); err != nil {
				t.Fatal(err)
			}
			resumed := f.model(t, c.opt())
			ep, err := resumed.LoadCheckpoint(path)
			if err != nil {
				t.Fatal(err)
			}
			if ep != first {
				t.Fatalf("LoadCheckpoint epoch %d, want %d", ep, first)
			}
			o.Epochs, o.InitialEpoch = total-first, ep
			if _, err := resumed.Fit(x, y, o); err != nil {
				t.Fatal(err)
			}
			if d, ok := sameParams(want, params(t, resumed)); !ok {
				t.Fatalf("resumed run differs from the uninterrupted one: %s", d)
			}
		})
	}
}

// TestLoadCheckpointErrors: a checkpoint missing a parameter, with a
// wrong size or a non-finite value is refused, naming the parameter,
// and the model keeps its parameters.
func TestLoadCheckpointErrors(t *testing.T) {
	f := newFixture(9, relu())
	m := f.model(t, &optim.Adam{})
	dir := t.TempDir()
	good := filepath.Join(dir, "good.npz")
	if err := m.SaveCheckpoint(good, 1); err != nil {
		t.Fatal(err)
	}
	names, _ := m.ParamNames()
	victim := "param/" + names[0]
	cases := []struct {
		name   string
		edit   func(a map[string]npz.Array)
		wantIn []string
	}{
		{"missing", func(a map[string]npz.Array) { delete(a, victim) }, []string{names[0], "no parameter"}},
		{"wrong size", func(a map[string]npz.Array) {
			v := a[victim]
			a[victim] = npz.Array{Shape: []int{len(v.Data) + 1}, Data: append(slices.Clone(v.Data), 0)}
		}, []string{names[0], "values"}},
		{"NaN", func(a map[string]npz.Array) { a[victim].Data[0] = math.NaN() }, []string{names[0], "not finite"}},
		{"Inf", func(a map[string]npz.Array) { a[victim].Data[len(a[victim].Data)-1] = math.Inf(-1) }, []string{names[0], "not finite"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			arrays, err := npz.Read(good)
			if err != nil {
				t.Fatal(err)
			}
			c.edit(arrays)
			path := filepath.Join(dir, c.name+".npz")
			if err := npz.Write(path, arrays); err != nil {
				t.Fatal(err)
			}
			fresh := f.model(t, &optim.Adam{})
			// move a parameter off its built value, to see it is kept
			other := names[len(names)-1]
			v, _ := fresh.Param(other)
			v[0] += 1
			if err := fresh.SetParam(other, v); err != nil {
				t.Fatal(err)
			}
			before := params(t, fresh)
			_, err = fresh.LoadCheckpoint(path)
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range c.wantIn {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if d, ok := sameParams(before, params(t, fresh)); !ok {
				t.Errorf("a refused checkpoint changed the parameters: %s", d)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		if _, err := m.LoadCheckpoint(filepath.Join(dir, "nope.npz")); err == nil || !strings.Contains(err.Error(), "nope.npz") {
			t.Fatalf("got %v, want an error naming the file", err)
		}
	})
}

// TestBadInput: wrong data and configurations give errors naming the
// object at fault.
func TestBadInput(t *testing.T) {
	f := newFixture(10, relu())
	x, y := f.data(t, 6)
	other := toolkit.New("other", 1)
	strayNode := other.Const("stray", 0)
	strayProbe := other.Probe("stray_p", strayNode, "")
	arr := func(n, steps, dims int) *train.Array {
		a, err := train.NewArray(n, steps, dims)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	// a second input node, for inconsistent inputs
	f2 := newFixture(10, relu())
	in2 := f2.net.Const("in2", 0)
	f2.net.Connect(in2, f2.a).Synapse = nil
	x2, y2 := f2.data(t, 6)

	fit := func(m *train.Model, x map[*toolkit.Node]*train.Array, y map[*toolkit.Probe]*train.Array) error {
		_, err := m.Fit(x, y, train.FitOptions{BatchSize: 3})
		return err
	}
	cases := []struct {
		name   string
		run    func() error
		wantIn []string
	}{
		{"Fit before Compile", func() error { return fit(f.model(t, nil), x, y) }, []string{"before Compile"}},
		{"Evaluate before Compile", func() error {
			_, err := f.model(t, nil).Evaluate(x, y, train.EvalOptions{})
			return err
		}, []string{"before Compile"}},
		{"no targets for a loss", func() error { return fit(f.model(t, &optim.Adam{}), x, map[*toolkit.Probe]*train.Array{}) },
			[]string{`"p"`, "no targets"}},
		{"targets for a foreign probe", func() error {
			yy := map[*toolkit.Probe]*train.Array{f.p: y[f.p], strayProbe: y[f.p]}
			return fit(f.model(t, &optim.Adam{}), x, yy)
		}, []string{`"stray_p"`}},
		{"input for a foreign node", func() error {
			return fit(f.model(t, &optim.Adam{}), map[*toolkit.Node]*train.Array{strayNode: x[f.in]}, y)
		}, []string{`"stray"`, "not in the model"}},
		{"no input", func() error { return fit(f.model(t, &optim.Adam{}), nil, y) }, []string{"no input"}},
		{"inputs of different N", func() error {
			return fit(f2.model(t, &optim.Adam{}), map[*toolkit.Node]*train.Array{f2.in: x2[f2.in], in2: arr(5, f2.steps, 1)}, y2)
		}, []string{"examples", "5", "6"}},
		{"inputs of different Steps", func() error {
			return fit(f2.model(t, &optim.Adam{}), map[*toolkit.Node]*train.Array{f2.in: x2[f2.in], in2: arr(6, 3, 1)}, y2)
		}, []string{"steps", "3", "2"}},
		{"input of wrong Dims", func() error {
			return fit(f.model(t, &optim.Adam{}), map[*toolkit.Node]*train.Array{f.in: arr(6, f.steps, 2)}, y)
		}, []string{`"in"`, "2 dims", "outputs 1"}},
		{"input data of wrong length", func() error {
			a := arr(6, f.steps, 1)
			a.Data = a.Data[1:]
			return fit(f.model(t, &optim.Adam{}), map[*toolkit.Node]*train.Array{f.in: a}, y)
		}, []string{`"in"`, "does not match"}},
		{"targets of wrong steps", func() error {
			return fit(f.model(t, &optim.Adam{}), x, map[*toolkit.Probe]*train.Array{f.p: arr(6, 3, 1)})
		}, []string{`"p"`, "3 steps", "2 samples"}},
		{"targets of wrong N", func() error {
			return fit(f.model(t, &optim.Adam{}), x, map[*toolkit.Probe]*train.Array{f.p: arr(4, f.steps, 1)})
		}, []string{`"p"`, "4 examples"}},
		{"Predict with a foreign node", func() error {
			_, err := f.model(t, nil).Predict(map[*toolkit.Node]*train.Array{strayNode: x[f.in]}, train.EvalOptions{})
			return err
		}, []string{`"stray"`}},
	}
	compileCases := []struct {
		name   string
		c      train.Config
		wantIn []string
	}{
		{"no optimizer", train.Config{Loss: map[*toolkit.Probe]loss.Loss{f.p: loss.MSE{}}}, []string{"no optimizer"}},
		{"no loss", train.Config{Optimizer: &optim.Adam{}}, []string{"no loss"}},
		{"nil loss", train.Config{Optimizer: &optim.Adam{}, Loss: map[*toolkit.Probe]loss.Loss{f.p: nil}}, []string{`"p"`, "nil loss"}},
		{"foreign probe", train.Config{Optimizer: &optim.Adam{}, Loss: map[*toolkit.Probe]loss.Loss{strayProbe: loss.MSE{}}}, []string{`"stray_p"`, "not part"}},
		{"Inf loss weight", train.Config{Optimizer: &optim.Adam{}, Loss: map[*toolkit.Probe]loss.Loss{f.p: loss.MSE{}},
			LossWeights: map[*toolkit.Probe]float64{f.p: math.Inf(1)}}, []string{`"p"`, "+Inf"}},
		{"negative LIFSmoothing", train.Config{Optimizer: &optim.Adam{}, Loss: map[*toolkit.Probe]loss.Loss{f.p: loss.MSE{}}, LIFSmoothing: -1},
			[]string{"LIFSmoothing", "-1"}},
	}
	for _, c := range compileCases {
		cfg := c.c
		cases = append(cases, struct {
			name   string
			run    func() error
			wantIn []string
		}{"Compile " + c.name, func() error { return f.model(t, nil).Compile(cfg) }, c.wantIn})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range c.wantIn {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

// TestNonFiniteLoss: a NaN or infinite loss stops Fit with an error
// naming the epoch and the batch, and the parameters are those from
// before that batch.
func TestNonFiniteLoss(t *testing.T) {
	f := newFixture(11, relu())
	cases := []struct {
		name    string
		cfg     func(p *toolkit.Probe) train.Config
		targets func(y *train.Array)
		epochs  int
		wantIn  []string // besides "epoch E, batch B" of the failing batch
	}{
		{"SGD huge LR", func(p *toolkit.Probe) train.Config {
			return train.Config{Optimizer: &optim.SGD{LR: 1e150}, Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}}
		}, nil, 20, nil},
		{"NaN target", func(p *toolkit.Probe) train.Config {
			return train.Config{Optimizer: &optim.Adam{LR: 0.01}, Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}}
		}, func(y *train.Array) { y.At(5, 1)[0] = math.NaN() }, 2, []string{"NaN", `"p"`}},
		{"loss weight to Inf", func(p *toolkit.Probe) train.Config {
			return train.Config{Optimizer: &optim.Adam{LR: 0.01}, Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}},
				LossWeights: map[*toolkit.Probe]float64{p: math.MaxFloat64}}
		}, func(y *train.Array) {
			for i := range y.Data {
				y.Data[i] += 10
			}
		}, 2, []string{"Inf", "keep their values"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, y := f.data(t, 12)
			if c.targets != nil {
				c.targets(y[f.p])
			}
			m, err := train.New(f.net)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Compile(c.cfg(f.p)); err != nil {
				t.Fatal(err)
			}
			last := params(t, m)
			lastEp, lastB := 0, -1 // the last batch that completed
			const bs = 4
			cb := train.CallbackFuncs{BatchEnd: func(m *train.Model, ep, b int, _ train.Logs) error {
				last, lastEp, lastB = params(t, m), ep, b
				return nil
			}}
			_, err = m.Fit(x, y, train.FitOptions{Epochs: c.epochs, BatchSize: bs, NoShuffle: true, Callbacks: []train.Callback{cb}})
			if err == nil {
				t.Fatal("Fit succeeded")
			}
			failEp, failB := lastEp, lastB+1
			if failB == 12/bs {
				failEp, failB = failEp+1, 0
			}
			want := append([]string{fmt.Sprintf("epoch %d, batch %d", failEp+1, failB+1)}, c.wantIn...)
			for _, s := range want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if d, ok := sameParams(last, params(t, m)); !ok {
				t.Errorf("parameters changed by the failed batch: %s", d)
			}
			for n, v := range params(t, m) {
				if slices.ContainsFunc(v, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }) {
					t.Errorf("parameter %s is not finite after the failed Fit", n)
				}
			}
			t.Log(err)
		})
	}
}

// TestPredict: Predict returns every probe as N×Steps×Dims; LastStep
// keeps the last step; PredictOnBatch equals Predict; spiking LIF
// differs from its rates while a rate neuron type is the same both ways.
func TestPredict(t *testing.T) {
	cases := []struct {
		name      string
		nt        neurons.Type
		spikesDif bool
	}{
		{"RectifiedLinear", relu(), false},
		{"LIF", lif(), true},
	}
	const n = 7
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(12, c.nt)
			f.steps = 20
			pn := f.net.Probe("spikes", f.a.Neurons(), toolkit.AttrOutput)
			pn.Synapse = nil
			x, _ := f.data(t, n)
			m := f.model(t, nil)
			got := map[bool]map[*toolkit.Probe]*train.Array{}
			for _, rates := range []bool{false, true} {
				full, err := m.Predict(x, train.EvalOptions{BatchSize: 3, Rates: rates})
				if err != nil {
					t.Fatal(err)
				}
				got[rates] = full
				if len(full) != 2 {
					t.Fatalf("Predict returned %d probes, want 2", len(full))
				}
				for p, dims := range map[*toolkit.Probe]int{f.p: 1, pn: f.a.N} {
					a := full[p]
					if a == nil || a.N != n || a.Steps != f.steps || a.Dims != dims || len(a.Data) != n*f.steps*dims {
						t.Fatalf("probe %s: %+v, want %d×%d×%d", p.Label, a, n, f.steps, dims)
					}
				}
				last, err := m.Predict(x, train.EvalOptions{BatchSize: 2, Rates: rates, LastStep: true})
				if err != nil {
					t.Fatal(err)
				}
				for p, a := range last {
					if a.Steps != 1 || a.N != n {
						t.Fatalf("LastStep probe %s: %d×%d", p.Label, a.N, a.Steps)
					}
					for i := range n {
						if !slices.Equal(a.At(i, 0), full[p].At(i, f.steps-1)) {
							t.Errorf("LastStep probe %s example %d: %v, last step of Predict %v", p.Label, i, a.At(i, 0), full[p].At(i, f.steps-1))
						}
					}
				}
				one, err := m.PredictOnBatch(x, rates)
				if err != nil {
					t.Fatal(err)
				}
				for p, a := range one {
					if !slices.Equal(a.Data, full[p].Data) {
						t.Errorf("PredictOnBatch probe %s differs from Predict", p.Label)
					}
				}
			}
			same := slices.Equal(got[false][f.p].Data, got[true][f.p].Data)
			if same == c.spikesDif {
				t.Errorf("Rates false and true give the same output = %v, want %v", same, !c.spikesDif)
			}
		})
	}
}

// TestParamsToSim: the trained parameters, given to the reference
// simulator, reproduce the trainer's forward pass.
func TestParamsToSim(t *testing.T) {
	cases := []struct {
		name string
		nt   neurons.Type
	}{
		{"RectifiedLinear", relu()},
		{"LIFRate", lifRate()},
		{"LIF spiking", lif()},
	}
	const n = 3
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(13, c.nt)
			f.steps = 5
			x, y := f.data(t, 6)
			m := f.model(t, &optim.Adam{LR: 0.01})
			if _, err := m.Fit(x, y, train.FitOptions{Epochs: 3, BatchSize: 3, Seed: 1}); err != nil {
				t.Fatal(err)
			}
			xs, _ := sliceData(x, y, 0, n)
			pred, err := m.Predict(xs, train.EvalOptions{})
			if err != nil {
				t.Fatal(err)
			}
			feed := make([][][]float64, n)
			for i := range feed {
				feed[i] = make([][]float64, f.steps)
				for k := range f.steps {
					feed[i][k] = slices.Clone(xs[f.in].At(i, k))
				}
			}
			simulate := func(opts ...sim.Option) [][][]float64 {
				s, err := sim.New(f.net, append(opts, sim.Batch(n), sim.Feed(f.in, feed))...)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.RunSteps(f.steps); err != nil {
					t.Fatal(err)
				}
				d, err := s.DataBatch(f.p)
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			maxDiff := func(d [][][]float64) float64 {
				worst := 0.0
				for i := range n {
					for k := range f.steps {
						worst = math.Max(worst, math.Abs(d[i][k][0]-pred[f.p].At(i, k)[0]))
					}
				}
				return worst
			}
			if d := maxDiff(simulate(sim.WithParams(m.Params()))); d > simTol {
				t.Errorf("sim with the trained Params differs from Predict by %.3g > %.g", d, simTol)
			}
			// the check can fail: the built (untrained) parameters differ
			if d := maxDiff(simulate()); d <= simTol {
				t.Errorf("sim with the built parameters matches the trained Predict (%.3g): training changed nothing?", d)
			}
		})
	}
}

// TestSetTrainable: frozen objects keep their parameters through Fit,
// network settings apply inside unless overridden, objects outside the
// model are refused, and ParamNames reports the settings.
func TestSetTrainable(t *testing.T) {
	type freeze struct {
		obj func(f *fixture, sub *toolkit.Network, b *toolkit.Ensemble) any
		on  bool
	}
	cases := []struct {
		name     string
		settings []freeze
		frozen   []string // parameter names (by prefix) that must stay
		moving   []string // that must change
	}{
		{"nothing frozen", nil, nil, []string{"a.", "b.", "in->a.", "a->out.", "b->out."}},
		{"ensemble a", []freeze{{func(f *fixture, _ *toolkit.Network, _ *toolkit.Ensemble) any { return f.a }, false}},
			[]string{"a."}, []string{"b.", "in->a.", "a->out."}},
		{"connection a->out", []freeze{{func(f *fixture, _ *toolkit.Network, _ *toolkit.Ensemble) any { return f.cout }, false}},
			[]string{"a->out."}, []string{"a.", "b."}},
		{"sub-network", []freeze{{func(_ *fixture, sub *toolkit.Network, _ *toolkit.Ensemble) any { return sub }, false}},
			[]string{"b."}, []string{"a.", "a->out."}},
		{"sub-network, b on", []freeze{
			{func(_ *fixture, sub *toolkit.Network, _ *toolkit.Ensemble) any { return sub }, false},
			{func(_ *fixture, _ *toolkit.Network, b *toolkit.Ensemble) any { return b }, true}},
			nil, []string{"b.", "a."}},
		{"top network off, a on", []freeze{
			{func(f *fixture, _ *toolkit.Network, _ *toolkit.Ensemble) any { return f.net }, false},
			{func(f *fixture, _ *toolkit.Network, _ *toolkit.Ensemble) any { return f.a }, true}},
			[]string{"b.", "in->a.", "a->out.", "in->b.", "b->out."}, []string{"a."}},
	}
	build := func() (*fixture, *toolkit.Network, *toolkit.Ensemble) {
		f := newFixture(14, relu())
		sub := f.net.Network("sub")
		b := sub.Ensemble("b", 10, 1)
		b.NeuronType = relu()
		f.net.Connect(f.in, b).Synapse = nil
		f.net.Connect(b, f.out).Synapse = nil
		return f, sub, b
	}
	hasPrefix := func(name string, ps []string) bool {
		return slices.ContainsFunc(ps, func(p string) bool { return strings.HasPrefix(name, p) })
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, sub, b := build()
			x, y := f.data(t, 8)
			m := f.model(t, &optim.Adam{LR: 0.01})
			for _, s := range c.settings {
				if err := m.SetTrainable(s.obj(f, sub, b), s.on); err != nil {
					t.Fatal(err)
				}
			}
			names, tr := m.ParamNames()
			if !slices.IsSorted(names) || len(names) != len(tr) {
				t.Fatalf("ParamNames not sorted or lengths differ: %v %v", names, tr)
			}
			for _, p := range append(slices.Clone(c.frozen), c.moving...) {
				if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, p) }) {
					t.Fatalf("no parameter named %s…; have %v", p, names)
				}
			}
			for i, n := range names {
				if hasPrefix(n, c.frozen) == tr[i] {
					t.Errorf("ParamNames: %s trainable = %v", n, tr[i])
				}
			}
			before := params(t, m)
			if _, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 4, Seed: 1}); err != nil {
				t.Fatal(err)
			}
			after := params(t, m)
			for _, n := range names {
				same := slices.Equal(before[n], after[n])
				switch {
				case hasPrefix(n, c.frozen) && !same:
					t.Errorf("frozen %s changed", n)
				case hasPrefix(n, c.moving) && same:
					t.Errorf("trainable %s did not change", n)
				}
			}
		})
	}
	t.Run("errors", func(t *testing.T) {
		f, _, _ := build()
		m := f.model(t, nil)
		other := toolkit.New("other", 1)
		stray := other.Ensemble("stray", 5, 1)
		for _, c := range []struct {
			obj    any
			wantIn string
		}{
			{stray, "not part"},
			{other, "not part"},
			{f.p, "*toolkit.Probe"},
			{42, "int"},
		} {
			if err := m.SetTrainable(c.obj, false); err == nil || !strings.Contains(err.Error(), c.wantIn) {
				t.Errorf("SetTrainable(%T): got %v, want an error containing %q", c.obj, err, c.wantIn)
			}
		}
	})
	t.Run("all frozen", func(t *testing.T) {
		f, _, _ := build()
		x, y := f.data(t, 4)
		m := f.model(t, &optim.Adam{})
		if err := m.SetTrainable(f.net, false); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Fit(x, y, train.FitOptions{}); err == nil || !strings.Contains(err.Error(), "no trainable parameter") {
			t.Fatalf("got %v, want an error saying no parameter is trainable", err)
		}
	})
}

// TestMultiOptimizer: optim.Multi routes ensemble and connection
// parameters to their own optimisers, both train, and an unrouted kind
// is an error naming the parameter.
func TestMultiOptimizer(t *testing.T) {
	f := newFixture(15, relu())
	x, y := f.data(t, 8)
	mo := &optim.Multi{Rules: []optim.Rule{
		{Match: "Ensemble", Opt: &optim.Adam{LR: 0.01}},
		{Match: "Connection", Opt: &optim.SGD{LR: 0.01, Momentum: 0.5}},
	}}
	m := f.model(t, mo)
	before := params(t, m)
	if _, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 4, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	after := params(t, m)
	names, _ := m.ParamNames()
	for _, suffix := range []string{".bias", ".scaled_encoders", ".weights"} {
		n := paramOf(names, suffix)
		if n == "" {
			t.Fatalf("no parameter *%s in %v", suffix, names)
		}
		if slices.Equal(before[n], after[n]) {
			t.Errorf("%s did not change", n)
		}
	}
	st := mo.State()
	for _, prefix := range []string{"rule0/", "rule1/"} {
		if !slices.ContainsFunc(mapsKeys(st), func(k string) bool { return strings.HasPrefix(k, prefix) }) {
			t.Errorf("no optimiser state under %s: %v", prefix, mapsKeys(st))
		}
	}

	only := f.model(t, &optim.Multi{Rules: []optim.Rule{{Match: "Ensemble", Opt: &optim.Adam{}}}})
	_, err := only.Fit(x, y, train.FitOptions{BatchSize: 4})
	if err == nil || !strings.Contains(err.Error(), "->") {
		t.Fatalf("Multi without a rule for connections: got %v, want an error naming a connection parameter", err)
	}
}

func mapsKeys(m map[string][]float64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestArrayConstructors: the Array helpers lay data out batch-first and
// refuse bad shapes.
func TestArrayConstructors(t *testing.T) {
	a, err := train.ArrayFromRows([][]float64{{1, 2}, {3, 4}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, 2, 1, 2, 3, 4, 3, 4}; !slices.Equal(a.Data, want) || a.N != 2 || a.Steps != 2 || a.Dims != 2 {
		t.Errorf("ArrayFromRows: %+v, want data %v", a, want)
	}
	if got := a.Argmax(1); !slices.Equal(got, []int{1, 1}) {
		t.Errorf("Argmax %v", got)
	}
	for _, c := range []struct {
		name   string
		err    func() error
		wantIn string
	}{
		{"ragged rows", func() error { _, err := train.ArrayFromRows([][]float64{{1}, {1, 2}}, 1); return err }, "row 1"},
		{"zero steps", func() error { _, err := train.ArrayFromRows([][]float64{{1}}, 0); return err }, "steps"},
		{"negative label", func() error { _, err := train.ArrayFromLabels([]int{0, -2}, 1); return err }, "label 1"},
		{"NewArray zero dims", func() error { _, err := train.NewArray(1, 1, 0); return err }, "NewArray"},
	} {
		if err := c.err(); err == nil || !strings.Contains(err.Error(), c.wantIn) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.wantIn)
		}
	}
}

// TestSaveLoadParams: parameters written by SaveParams come back into a
// fresh model of the same network, bit for bit, without touching the
// optimiser's step count.
func TestSaveLoadParams(t *testing.T) {
	net := toolkit.New("slp", 3)
	in := net.Const("in", 0)
	a := net.Ensemble("a", 8, 1)
	net.Connect(in, a).Synapse = nil
	p := net.Probe("p", a, "")
	m1, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := m1.Compile(train.Config{Optimizer: &optim.Adam{LR: 1e-2}, Loss: map[*toolkit.Probe]loss.Loss{p: loss.MSE{}}}); err != nil {
		t.Fatal(err)
	}
	x, _ := train.ArrayFromRows([][]float64{{0.2}, {-0.4}, {0.7}}, 1)
	y, _ := train.ArrayFromRows([][]float64{{0.04}, {0.16}, {0.49}}, 1)
	if _, err := m1.Fit(map[*toolkit.Node]*train.Array{in: x}, map[*toolkit.Probe]*train.Array{p: y}, train.FitOptions{Epochs: 3, BatchSize: 3}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "params.npz")
	if err := m1.SaveParams(path); err != nil {
		t.Fatal(err)
	}
	m2, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := m2.LoadParams(path); err != nil {
		t.Fatal(err)
	}
	names, _ := m1.ParamNames()
	for _, n := range names {
		v1, _ := m1.Param(n)
		v2, _ := m2.Param(n)
		if !slices.Equal(v1, v2) {
			t.Errorf("%s: saved %v, loaded %v", n, v1, v2)
		}
	}
	if err := m2.LoadParams(filepath.Join(t.TempDir(), "missing.npz")); err == nil {
		t.Error("LoadParams of a missing file: no error")
	}
}
