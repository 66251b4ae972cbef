package hxtorch

import (
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
	"github.com/neurogo/neurogo/viz"
)

// HAROptions configure HAR. Zero values give the reproduction's
// settings (the hxtorch paper, §4.2: 50 epochs in software with
// quantisation and noise, then the chip, then one epoch with the hardware
// in the loop).
type HAROptions struct {
	// DataDir is a UCI HAR directory; "" uses $NEUROGO_HAR when set and
	// otherwise the synthetic set (data.SyntheticHAR(DataSeed)); Synthetic
	// forces the synthetic set.
	DataDir   string
	Synthetic bool
	DataSeed  int64
	// Train and Test limit the examples used (0: all).
	Train, Test int
	// Epochs of software training (default 50), HILEpochs of
	// hardware-in-the-loop training (default 1), minibatch (default 32).
	Epochs, HILEpochs, Batch int
	// LR is Adam's initial learning rate in software (default 0.03) and
	// HILLR with the hardware in the loop (default 0.003); both decay to 0
	// on a cosine over their epochs. Weights are hardware units (±63).
	LR, HILLR float64
	// NumSends per layer (conv, linear 1, linear 2) overrides PlanHAR's
	// choice; Shift is the ConvertingReLU shift (default 1).
	NumSends [3]int
	Shift    int
	// Chip is the emulated chip (default analog.ChipConfig(ChipSeed)),
	// left uncalibrated as the paper's chip was.
	Chip     *analog.Config
	ChipSeed int64
	Seed     int64
	Log      io.Writer
	// Callbacks are passed to both Fit calls.
	Callbacks []train.Callback
}

func (o *HAROptions) defaults() {
	if o.Epochs == 0 {
		o.Epochs = 50
	}
	if o.HILEpochs == 0 {
		o.HILEpochs = 1
	}
	if o.Batch == 0 {
		o.Batch = 32
	}
	if o.LR == 0 {
		o.LR = 0.03
	}
	if o.HILLR == 0 {
		o.HILLR = 0.003
	}

	if o.Shift == 0 {
		o.Shift = 1
	}
	if o.ChipSeed == 0 {
		o.ChipSeed = 1
	}
}

// HARStage is one column of Fig 9: test accuracy, per-class recall and
// the confusion counts [true][predicted].
type HARStage struct {
	Name      string
	Accuracy  float64
	Recall    []float64
	Confusion [][]int
}

// HARResult is what HAR measured.
type HARResult struct {
	Options   HAROptions
	Synthetic bool
	Classes   []string
	// Software (a), Chip (b), HIL (c) of Fig 9.
	Software, Chip, HIL HARStage
	Plan                HARPlan
	History, HILHistory *train.History
	Seconds             float64
}

// HARNet is the model of Table 1 on an analog system.
type HARNet struct {
	Net    *toolkit.Network
	Input  *toolkit.Node
	Out    *toolkit.Probe
	Layers []*toolkit.Node
}

// HARWindow is the part of each 128-sample window the model reads: the
// first 122 samples, so that Conv1d(kernel 32, stride 6) gives the 16
// positions of Table 1 ((122 − 32)/6 + 1 = 16; on all 128 samples it
// would give 17).
const HARWindow = 122

// HARPlan holds the per-layer hardware settings of the HAR model (conv,
// linear 1, linear 2): num_sends and the mean square of each layer's
// inputs, which the init rule uses (PlanHAR measures them).
type HARPlan struct {
	NumSends        [3]int
	InputMeanSquare [3]float64
	// LogitStd is linear 2's output spread at initialisation (LSB) and
	// LogitScale the digital factor that turns its 8-bit results into
	// logits.
	LogitStd, LogitScale float64
	Shift                int
}

// NewHARNet builds Table 1's model — Conv1d(9→16, kernel 32, stride 6)
// → ConvertingReLU → Linear(256→125) → ConvertingReLU → Linear(125→6),
// no biases — with its analog layers on sys (nil: the ideal float
// operation). Inputs are hardware units (0..31), channels last (122, 9).
func NewHARNet(sys *analog.System, seed int64, plan HARPlan) (*HARNet, error) {
	net := toolkit.New("har-analog", seed)
	inp := net.Const("input", make([]float64, HARWindow*9)...)
	conv, err := net.Layer("conv", inp, analog.Conv1d{Filters: 16, Kernel: 32, Stride: 6, NumSends: plan.NumSends[0], InputMeanSquare: plan.InputMeanSquare[0], System: sys}, HARWindow, 9)
	if err != nil {
		return nil, err
	}
	r1, err := net.Layer("relu1", conv, analog.ConvertingReLU{Shift: plan.Shift})
	if err != nil {
		return nil, err
	}
	l1, err := net.Layer("linear1", r1, analog.Linear{Units: 125, NumSends: plan.NumSends[1], InputMeanSquare: plan.InputMeanSquare[1], System: sys}, 256)
	if err != nil {
		return nil, err
	}
	r2, err := net.Layer("relu2", l1, analog.ConvertingReLU{Shift: plan.Shift})
	if err != nil {
		return nil, err
	}
	l2, err := net.Layer("linear2", r2, analog.Linear{Units: 6, NumSends: plan.NumSends[2], InputMeanSquare: plan.InputMeanSquare[2],
		InitStd: plan.LogitStd, OutputScale: plan.LogitScale, System: sys})
	if err != nil {
		return nil, err
	}
	h := &HARNet{Net: net, Input: inp, Layers: []*toolkit.Node{conv, l1, l2}}
	h.Out = net.Probe("out", l2, "")
	return h, nil
}

// PlanHAR measures, on examples x (hardware units, 122·9 values each),
// the variance of every layer's inputs at initialisation (the init rule's
// weights sum to zero per output, so the inputs' mean cancels) (the ideal
// forward pass of the init weights) and picks for every layer the
// smallest num_sends with which the init rule's weight bound stays below
// 90 % of 63 — a data-dependent version of the init rule, so that each
// layer's output spreads over about a quarter of the 8-bit range.
func PlanHAR(x [][]float64, seed int64, shift int) (HARPlan, error) {
	plan := HARPlan{LogitStd: 16, LogitScale: 1.0 / 8, Shift: shift}
	if len(x) == 0 {
		return plan, fmt.Errorf("repro: PlanHAR: no examples")
	}
	// the init rule's weights sum to zero per output, so an input's mean
	// cancels and its variance is what spreads the output
	meanSq := func(v []float64) float64 {
		m, s := 0.0, 0.0
		for _, a := range v {
			m += a
		}
		m /= float64(len(v))
		for _, a := range v {
			s += (a - m) * (a - m)
		}
		return s / float64(len(v))
	}
	in := make([]float64, 0, len(x)*HARWindow*9)
	for _, r := range x {
		in = append(in, r...)
	}
	batch := len(x)
	fanIn := [3]int{32 * 9, 256, 125}
	std := [3]float64{32, 32, plan.LogitStd}
	specs := func(k int) layers.Spec {
		switch k {
		case 0:
			return analog.Conv1d{Filters: 16, Kernel: 32, Stride: 6, NumSends: plan.NumSends[0], InputMeanSquare: plan.InputMeanSquare[0]}
		case 1:
			return analog.Linear{Units: 125, NumSends: plan.NumSends[1], InputMeanSquare: plan.InputMeanSquare[1]}
		}
		return analog.Linear{Units: 6, NumSends: plan.NumSends[2], InputMeanSquare: plan.InputMeanSquare[2], InitStd: plan.LogitStd}
	}
	shapes := [3][]int{{HARWindow, 9}, {256}, {125}}
	for k := range 3 {
		plan.InputMeanSquare[k] = meanSq(in)
		plan.NumSends[k] = 1
		for plan.NumSends[k] < 255 && analog.InitBound(fanIn[k], analog.DefaultGain, plan.NumSends[k], std[k], plan.InputMeanSquare[k]) > 0.9*analog.WeightMax {
			plan.NumSends[k]++
		}
		if k == 2 {
			break
		}
		// this layer's outputs at initialisation, through the ReLU
		l, err := specs(k).Build(shapes[k], seed+int64(k))
		if err != nil {
			return plan, err
		}
		out, err := forwardLayer(l, in, batch)
		if err != nil {
			return plan, err
		}
		rl, err := analog.ConvertingReLU{Shift: shift}.Build([]int{len(out) / batch}, 0)
		if err != nil {
			return plan, err
		}
		if in, err = forwardLayer(rl, out, batch); err != nil {
			return plan, err
		}
	}
	return plan, nil
}

func forwardLayer(l layers.Layer, in []float64, batch int) ([]float64, error) {
	ex, err := l.NewExec(batch, 1)
	if err != nil {
		return nil, err
	}
	var ps [][]float64
	for _, p := range l.Params() {
		ps = append(ps, p.Value)
	}
	out := make([]float64, batch*layers.Size(l.OutShape()))
	return out, ex.Forward(ps, in, out, batch, false)
}

// HARArrays scales the windows into hardware units with sc and returns
// the input and label arrays (one step each).
func HARArrays(s *data.HARSet, sc *analog.InputScale) (x, y *train.Array, err error) {
	rows := make([][]float64, s.Len())
	for i, w := range s.Signals {
		rows[i] = sc.Apply(w[:HARWindow*9])
	}
	if x, err = train.ArrayFromRows(rows, 1); err != nil {
		return nil, nil, err
	}
	y, err = train.ArrayFromLabels(s.Labels, 1)
	return x, y, err
}

// HAR reproduces §4.2 of the hxtorch paper (Table 1, Fig 9) on the
// emulated chip:
// (a) software training with quantisation and Gaussian noise (the mock
// model) for Epochs; (b) the same weights on the emulated chip, no
// retraining; (c) HILEpochs of hardware-in-the-loop training — forward
// on the chip, backward through the software model (straight through,
// scaled by gain·num_sends) — and the three confusion matrices with
// recall on the test set.
func HAR(o HAROptions) (*HARResult, error) {
	o.defaults()
	logf := func(format string, a ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", a...)
		}
	}
	trainSet, testSet, err := LoadHAR(o.DataDir, o.Synthetic, o.DataSeed)
	if err != nil {
		return nil, err
	}
	trainSet = SubsetHAR(trainSet, o.Train, o.Seed)
	testSet = SubsetHAR(testSet, o.Test, o.Seed+1)
	res := &HARResult{Options: o, Synthetic: trainSet.Synthetic, Classes: trainSet.Classes}
	kind := "real"
	if res.Synthetic {
		kind = "SYNTHETIC"
	}
	logf("UCI HAR (%s): %d training and %d test windows", kind, trainSet.Len(), testSet.Len())
	cut := make([][]float64, trainSet.Len())
	for i, w := range trainSet.Signals {
		cut[i] = w[:HARWindow*9]
	}
	sc, err := analog.FitInputScale(cut, 9, 0.001)
	if err != nil {
		return nil, err
	}
	x, y, err := HARArrays(trainSet, sc)
	if err != nil {
		return nil, err
	}
	tx, ty, err := HARArrays(testSet, sc)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	sample := make([][]float64, min(512, x.N))
	for i := range sample {
		sample[i] = x.At(i, 0)
	}
	plan, err := PlanHAR(sample, o.Seed, o.Shift)
	if err != nil {
		return nil, err
	}
	if o.NumSends != [3]int{} {
		plan.NumSends = o.NumSends
	}
	res.Plan = plan
	logf("plan: num_sends %v, input mean squares %.3v", plan.NumSends, plan.InputMeanSquare)
	// (a) software training with quantisation and noise: hxtorch's mock
	mock, err := analog.New(analog.MockConfig())
	if err != nil {
		return nil, err
	}
	sw, err := NewHARNet(mock, o.Seed, plan)
	if err != nil {
		return nil, err
	}
	m, err := train.New(sw.Net)
	if err != nil {
		return nil, err
	}
	if err := TrainLayersOnly(m, sw); err != nil {
		return nil, err
	}
	perEpoch := (trainSet.Len() + o.Batch - 1) / o.Batch
	if err := CompileHAR(m, sw, o.LR, o.Epochs*perEpoch); err != nil {
		return nil, err
	}
	logf("(a) software training with quantisation and noise: %d epochs", o.Epochs)
	if res.History, err = m.Fit(map[*toolkit.Node]*train.Array{sw.Input: x}, map[*toolkit.Probe]*train.Array{sw.Out: y},
		train.FitOptions{Epochs: o.Epochs, BatchSize: o.Batch, Seed: o.Seed, Callbacks: append(epochLog(logf, "a"), o.Callbacks...)}); err != nil {
		return res, err
	}
	if res.Software, err = EvalHAR("software (mock: quantised, noise)", m, sw, tx, ty); err != nil {
		return res, err
	}
	logf("(a) software: test accuracy %.1f %%", 100*res.Software.Accuracy)
	// (b) the emulated chip, same weights
	cc := analog.ChipConfig(o.ChipSeed)
	if o.Chip != nil {
		cc = *o.Chip
	}
	chip, err := analog.New(cc)
	if err != nil {
		return res, err
	}
	hw, err := NewHARNet(chip, o.Seed, plan)
	if err != nil {
		return res, err
	}
	mc, err := train.New(hw.Net, sim.WithParams(m.Params()))
	if err != nil {
		return res, err
	}
	if err := TrainLayersOnly(mc, hw); err != nil {
		return nil, err
	}
	if err := CompileHAR(mc, hw, o.HILLR, o.HILEpochs*perEpoch); err != nil {
		return res, err
	}
	if res.Chip, err = EvalHAR("emulated chip, no retraining", mc, hw, tx, ty); err != nil {
		return res, err
	}
	logf("(b) emulated chip without retraining: test accuracy %.1f %%", 100*res.Chip.Accuracy)
	// (c) hardware in the loop
	if res.HILHistory, err = mc.Fit(map[*toolkit.Node]*train.Array{hw.Input: x}, map[*toolkit.Probe]*train.Array{hw.Out: y},
		train.FitOptions{Epochs: o.HILEpochs, BatchSize: o.Batch, Seed: o.Seed + 7, Callbacks: append(epochLog(logf, "c"), o.Callbacks...)}); err != nil {
		return res, err
	}
	if res.HIL, err = EvalHAR("emulated chip, hardware-in-the-loop training", mc, hw, tx, ty); err != nil {
		return res, err
	}
	logf("(c) after %d epoch(s) with the hardware in the loop: test accuracy %.1f %%", o.HILEpochs, 100*res.HIL.Accuracy)
	res.Seconds = time.Since(t0).Seconds()
	return res, nil
}

// TrainLayersOnly makes the kernels of h's analog layers the only
// trainable parameters of m. The connections between layer nodes carry
// scalar transforms that the trainer would otherwise learn (NengoDL trains
// connection weights): scaled by a learnt 0.97 the integer outputs of a
// ConvertingReLU reach the next analog layer as non-integers, which the
// chip's input conversion rounds, and training with quantisation falls
// back to chance within a few epochs.
func TrainLayersOnly(m *train.Model, h *HARNet) error {
	if m == nil || h == nil {
		return fmt.Errorf("repro: TrainLayersOnly: model %v, network %v: both are required", m != nil, h != nil)
	}
	if err := m.SetTrainable(h.Net, false); err != nil {
		return fmt.Errorf("repro: TrainLayersOnly: %w", err)
	}
	for _, l := range h.Layers {
		if err := m.SetTrainable(l, true); err != nil {
			return fmt.Errorf("repro: TrainLayersOnly: layer %s: %w", l.Label, err)
		}
	}
	return nil
}

// CompileHAR compiles m for h's classification: Adam with its rate
// decaying from lr to 0 on a cosine over steps minibatches (the analog
// kernels' declared bounds keep the weights within ±63 after every step),
// sparse cross-entropy on the logits of h.Out and accuracy as the metric.
func CompileHAR(m *train.Model, h *HARNet, lr float64, steps int) error {
	if m == nil || h == nil {
		return fmt.Errorf("repro: CompileHAR: model %v, network %v: both are required", m != nil, h != nil)
	}
	if !(lr > 0) || math.IsInf(lr, 0) {
		return fmt.Errorf("repro: CompileHAR: learning rate %v: must be positive and finite", lr)
	}
	return m.Compile(train.Config{
		Optimizer: &optim.Adam{Schedule: optim.CosineDecay{Initial: lr, Steps: max(steps, 1)}},
		Loss:      map[*toolkit.Probe]loss.Loss{h.Out: loss.CrossEntropy{FromLogits: true, Sparse: true}},
		Metrics:   map[*toolkit.Probe][]loss.Metric{h.Out: {loss.Accuracy{Sparse: true}}},
	})
}

func epochLog(logf func(string, ...any), stage string) []train.Callback {
	var t time.Time
	return []train.Callback{train.CallbackFuncs{
		EpochBegin: func(*train.Model, int) error { t = time.Now(); return nil },
		EpochEnd: func(_ *train.Model, ep int, logs train.Logs) error {
			logf("(%s) epoch %d: %s (%.1f s)", stage, ep+1, logs, time.Since(t).Seconds())
			return nil
		},
	}}
}

// EvalHAR classifies the windows x (one step each, hardware units) with m
// and compares with the labels y: the stage's accuracy, per-class recall
// and confusion counts [true][predicted] over the six activities.
func EvalHAR(name string, m *train.Model, h *HARNet, x, y *train.Array) (HARStage, error) {
	if m == nil || h == nil || x == nil || y == nil {
		return HARStage{}, fmt.Errorf("repro: EvalHAR %q: model, network, inputs and labels are required", name)
	}
	if x.N != y.N {
		return HARStage{}, fmt.Errorf("repro: EvalHAR %q: %d inputs but %d labels", name, x.N, y.N)
	}
	pred, err := m.Predict(map[*toolkit.Node]*train.Array{h.Input: x}, train.EvalOptions{BatchSize: 256})
	if err != nil {
		return HARStage{}, err
	}
	p := pred[h.Out]
	st := HARStage{Name: name, Confusion: make([][]int, 6), Recall: make([]float64, 6)}
	for i := range st.Confusion {
		st.Confusion[i] = make([]int, 6)
	}
	correct := 0
	for i := range p.N {
		out := p.At(i, 0)
		best := 0
		for k, v := range out {
			if v > out[best] {
				best = k
			}
		}
		t := int(y.At(i, 0)[0])
		st.Confusion[t][best]++
		if t == best {
			correct++
		}
	}
	st.Accuracy = float64(correct) / float64(p.N)
	for i, row := range st.Confusion {
		n := 0
		for _, c := range row {
			n += c
		}
		if n > 0 {
			st.Recall[i] = float64(row[i]) / float64(n)
		}
	}
	return st, nil
}

// LoadHAR returns the UCI HAR training and test sets from dir; dir ""
// reads $NEUROGO_HAR when it is set and otherwise falls back to the
// deterministic synthetic stand-in data.SyntheticHAR(dataSeed); synthetic
// forces the stand-in. The sets' Synthetic field says which was used.
func LoadHAR(dir string, synthetic bool, dataSeed int64) (trainSet, testSet *data.HARSet, err error) {
	if dir == "" && !synthetic {
		dir = os.Getenv("NEUROGO_HAR")
	}
	if dir != "" && !synthetic {
		trainSet, testSet, err = data.HAR(dir)
	} else {
		trainSet, testSet, err = data.SyntheticHAR(dataSeed)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("repro: LoadHAR: %w", err)
	}
	return trainSet, testSet, nil
}

// SubsetHAR returns n windows of s drawn without replacement in an order
// fixed by seed (stratification is left to the set's class mix); n ≤ 0 or
// n ≥ s.Len() returns s itself. The windows share s's backing arrays.
func SubsetHAR(s *data.HARSet, n int, seed int64) *data.HARSet {
	if n <= 0 || n >= s.Len() {
		return s
	}
	idx := make([]int, s.Len())
	for i := range idx {
		idx[i] = i
	}
	r := uint64(seed)*0x9e3779b97f4a7c15 + 1
	for i := len(idx) - 1; i > 0; i-- {
		r ^= r << 13
		r ^= r >> 7
		r ^= r << 17
		j := int(r % uint64(i+1))
		idx[i], idx[j] = idx[j], idx[i]
	}
	out := &data.HARSet{Classes: s.Classes, Synthetic: s.Synthetic}
	for _, i := range idx[:n] {
		out.Signals = append(out.Signals, s.Signals[i])
		out.Labels = append(out.Labels, s.Labels[i])
		out.Subjects = append(out.Subjects, s.Subjects[i])
	}
	return out
}

// Figures returns the three confusion matrices of Fig 9, row-normalised,
// titled with the stage, the overall accuracy and whether the data were
// synthetic.
func (r *HARResult) Figures() (software, chip, hil *viz.Plot, err error) {
	mk := func(letter string, s HARStage) (*viz.Plot, error) {
		return HARConfusion(letter, s, r.Classes, r.Synthetic)
	}
	if software, err = mk("a", r.Software); err != nil {
		return
	}
	if chip, err = mk("b", r.Chip); err != nil {
		return
	}
	hil, err = mk("c", r.HIL)
	return
}

// HARConfusion draws stage s as one panel of Fig 9: its confusion matrix,
// row-normalised, with the short class names, titled "(letter) stage:
// accuracy", marked "synthetic HAR" when the data were synthetic.
func HARConfusion(letter string, s HARStage, classes []string, synthetic bool) (*viz.Plot, error) {
	tag := "" // on a line of its own: panels side by side stay apart
	if synthetic {
		tag = "\n(synthetic HAR)"
	}
	c := make([][]float64, len(s.Confusion))
	for i, row := range s.Confusion {
		c[i] = make([]float64, len(row))
		for j, v := range row {
			c[i][j] = float64(v)
		}
	}
	return viz.ConfusionMatrix(c, ShortHARClasses(classes), viz.ConfusionOptions{Normalize: true,
		Frame: viz.Frame{Title: fmt.Sprintf("(%s) %s: %.1f %%%s", letter, s.Name, 100*s.Accuracy, tag)}})
}

// ShortHARClasses returns the UCI activity names shortened for axis
// labels (WALKING_UPSTAIRS → up); other names are kept.
func ShortHARClasses(c []string) []string {
	short := map[string]string{"WALKING": "walk", "WALKING_UPSTAIRS": "up", "WALKING_DOWNSTAIRS": "down",
		"SITTING": "sit", "STANDING": "stand", "LAYING": "lay"}
	out := make([]string, len(c))
	for i, s := range c {
		if v, ok := short[s]; ok {
			out[i] = v
		} else {
			out[i] = s
		}
	}
	return out
}
