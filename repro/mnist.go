package repro

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/neurogo/neurogo/notebook"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
	"github.com/neurogo/neurogo/train/timeres"
	"github.com/neurogo/neurogo/viz"
)

// MNISTNet is the spiking-MNIST network of "NengoDL: Combining deep
// learning and neuromorphic modelling methods" (Rasmussen 2019), §5.2.1 (NengoDL's
// spiking MNIST example): conv 32 3×3 → LIF → conv 64 3×3 → LIF →
// average pool 2 → conv 128 3×3 → LIF → average pool 2 → dense 10, LIF
// neurons with amplitude 0.01, max rates 100 Hz and intercepts 0 as
// neuron layers (tensor_layer with a neuron type). Out is probed without a
// synapse (training, one step) and OutFiltered with a 0.1 s lowpass (the
// spiking test, scored on the last of several steps).
type MNISTNet struct {
	Net         *toolkit.Network
	Input       *toolkit.Node
	Out         *toolkit.Probe
	OutFiltered *toolkit.Probe
	// Layers are the layer nodes (convolutions, pools, dense): the only
	// trainable objects in the paper's setting (configure_settings
	// trainable=False for Nengo objects).
	Layers []*toolkit.Node
}

// NewMNISTNet builds the network with the given seed; synapse is the
// test probe's lowpass time constant (0.1 in the paper).
func NewMNISTNet(seed int64, synapse float64) (*MNISTNet, error) {
	net := toolkit.New("spiking-mnist", seed)
	inp := net.Const("input", make([]float64, 28*28)...)
	lif := neurons.NewLIF()
	lif.Amplitude = 0.01
	neuronLayer := func(label string, in toolkit.Target) (*toolkit.Neurons, error) {
		e, err := net.NeuronLayer(label, in, lif)
		if err != nil {
			return nil, err
		}
		// max_rates 100, intercepts 0 (the paper's ens_params) instead of
		// tensor_layer's unit gains
		e.Gain, e.Bias = nil, nil
		e.MaxRates = dists.Choice{Options: [][]float64{{100}}}
		e.Intercepts = dists.Choice{Options: [][]float64{{0}}}
		return e.Neurons(), nil
	}
	x1, err := net.Layer("conv1", inp, layers.Conv2D{Filters: 32, Kernel: []int{3}}, 28, 28, 1)
	if err != nil {
		return nil, err
	}
	n1, err := neuronLayer("lif1", x1)
	if err != nil {
		return nil, err
	}
	x2, err := net.Layer("conv2", n1, layers.Conv2D{Filters: 64, Kernel: []int{3}})
	if err != nil {
		return nil, err
	}
	n2, err := neuronLayer("lif2", x2)
	if err != nil {
		return nil, err
	}
	p2, err := net.Layer("pool2", n2, layers.AvgPool{Pool: []int{2}})
	if err != nil {
		return nil, err
	}
	x3, err := net.Layer("conv3", p2, layers.Conv2D{Filters: 128, Kernel: []int{3}})
	if err != nil {
		return nil, err
	}
	n3, err := neuronLayer("lif3", x3)
	if err != nil {
		return nil, err
	}
	p3, err := net.Layer("pool3", n3, layers.AvgPool{Pool: []int{2}})
	if err != nil {
		return nil, err
	}
	// flat input (5·5·128), as NengoDL's Layer without shape_in: a Dense
	// on the (5, 5, 128) shape would act on the channels of each position
	out, err := net.Layer("dense", p3, layers.Dense{Units: 10}, 5*5*128)
	if err != nil {
		return nil, err
	}
	m := &MNISTNet{Net: net, Input: inp, Layers: []*toolkit.Node{x1, x2, p2, x3, p3, out}}
	m.Out = net.Probe("out", out, "")
	m.OutFiltered = net.Probe("out_filtered", out, "")
	m.OutFiltered.Synapse = synapses.Lowpass{Tau: synapse}
	return m, nil
}

// MNISTOptions configure SpikingMNIST. Zero values give the paper's
// settings: all 60 000 training and 10 000 test images, 10 epochs,
// minibatch 200, RMSProp 1e-3, a 50-step spiking test with a 0.1 s probe
// synapse, LIF smoothing DefaultSigma (LIFRate forward, SoftLIFRate
// derivative, as NengoDL's lif_smoothing).
type MNISTOptions struct {
	Train, Test   int
	Epochs, Batch int
	LR            float64
	SpikingSteps  int
	Synapse       float64
	Sigma         float64
	// SmoothForward trains with SoftLIFRate(Sigma) in the forward pass too
	SmoothForward bool
	// TrainEnsembles also trains the LIF layers' gains and biases and the
	// connections' scalar transforms; the paper trains only the layer
	// nodes (nengo_dl.configure_settings(trainable=False)).
	TrainEnsembles bool
	Seed           int64
	DataDir        string
	Log            io.Writer
	Callbacks      []train.Callback
	// CheckpointDir, if set, receives a checkpoint after every epoch
	// (epoch-N.npz: parameters and optimiser state); Resume continues from
	// such a file (its epoch count is kept: a run to 10 epochs resumed
	// from epoch-7.npz trains 3 more).
	CheckpointDir string
	Resume        string
}

// DefaultSigma is the LIF smoothing the reproduction trains with: LIF
// runs as LIFRate and back-propagates SoftLIFRate(σ)'s derivative.
const DefaultSigma = 0.05

// MNISTResult is what SpikingMNIST measured.
type MNISTResult struct {
	Options         MNISTOptions
	History         *train.History
	SecondsPerEpoch []float64
	RateAccuracy    float64 // on the test set, rate neurons, one step
	SpikingAccuracy float64 // spiking LIF, last of SpikingSteps steps
	RateConfusion   [][]int // [true][predicted]
	SpikeConfusion  [][]int
	// SpikingAccuracyByStep is the spiking test accuracy read out at each
	// step (the filtered output settles over the first ~0.1 s)
	SpikingAccuracyByStep []float64
	// SpikingTCM is the temporal confusion matrix of the spiking test
	// (the statestream paper, Fischer 2018, §3.2: tCM[step since onset][label][prediction]) and
	// SpikingResponseTime the first step (0-based) at which the spiking
	// accuracy reaches 90 % (-1: never) — time-resolved evaluation of a
	// Nengo-style model.
	SpikingTCM          *timeres.TCM `json:"-"`
	SpikingResponseTime int
	TrainSeconds        float64
	TestSeconds         float64
}

func (o *MNISTOptions) defaults() {
	if o.Epochs == 0 {
		o.Epochs = 10
	}
	if o.Batch == 0 {
		o.Batch = 200
	}
	if o.LR == 0 {
		o.LR = 1e-3
	}
	if o.SpikingSteps == 0 {
		o.SpikingSteps = 50
	}
	if o.Synapse == 0 {
		o.Synapse = 0.1
	}
	if o.Sigma == 0 {
		o.Sigma = DefaultSigma
	}
}

// Model builds the network as a train.Model with the paper's trainable
// parameters: the layers' only (NengoDL's configure_settings
// trainable=False for the Nengo objects), or also the ensembles' biases
// and the connections' weights when trainEnsembles is set.
func (mn *MNISTNet) Model(trainEnsembles bool) (*train.Model, error) {
	m, err := train.New(mn.Net)
	if err != nil {
		return nil, err
	}
	if !trainEnsembles {
		if err := m.SetTrainable(mn.Net, false); err != nil {
			return nil, err
		}
		for _, l := range mn.Layers {
			if err := m.SetTrainable(l, true); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// ImagesArray turns a data set's images into a one-step (or steps-step,
// the image held) input Array and its labels into class-index targets.
func ImagesArray(d *data.Dataset, steps int) (x, y *train.Array, err error) {
	if x, err = train.ArrayFromRows(d.Images, steps); err != nil {
		return nil, nil, err
	}
	if y, err = train.ArrayFromLabels(d.Labels, steps); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// SpikingMNIST reproduces the NengoDL paper's §5.2.1: it trains the MNISTNet with
// rate neurons and reports the test accuracy of the rate model and of the
// spiking model (targets: ≥ 99.0 % and ≥ 98.4 % on the full test set).
func SpikingMNIST(o MNISTOptions) (*MNISTResult, error) {
	o.defaults()
	logf := func(format string, a ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", a...)
		}
	}
	// only the images used are read (0: all)
	trainSet, testSet, err := data.MNISTSubset(o.DataDir, o.Train, o.Test)
	if err != nil {
		return nil, err
	}
	mn, err := NewMNISTNet(o.Seed, o.Synapse)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	m, err := mn.Model(o.TrainEnsembles)
	if err != nil {
		return nil, err
	}
	logf("built in %.1f s", time.Since(t0).Seconds())
	if err := m.Compile(train.Config{
		Optimizer:     &optim.RMSProp{LR: o.LR},
		Loss:          map[*toolkit.Probe]loss.Loss{mn.Out: loss.CrossEntropy{FromLogits: true, Sparse: true}},
		Metrics:       map[*toolkit.Probe][]loss.Metric{mn.Out: {loss.Accuracy{Sparse: true}}, mn.OutFiltered: {loss.Accuracy{Sparse: true}}},
		LIFSmoothing:  o.Sigma,
		SmoothForward: o.SmoothForward,
	}); err != nil {
		return nil, err
	}
	x, y, err := ImagesArray(trainSet, 1)
	if err != nil {
		return nil, err
	}
	initial := 0
	if o.Resume != "" {
		if initial, err = m.LoadCheckpoint(o.Resume); err != nil {
			return nil, err
		}
		logf("resumed from %s after epoch %d", o.Resume, initial)
	}
	res := &MNISTResult{Options: o}
	var epochStart time.Time
	timer := train.CallbackFuncs{
		EpochBegin: func(*train.Model, int) error { epochStart = time.Now(); return nil },
		EpochEnd: func(_ *train.Model, ep int, logs train.Logs) error {
			s := time.Since(epochStart).Seconds()
			res.SecondsPerEpoch = append(res.SecondsPerEpoch, s)
			logf("epoch %d/%d: %s (%.1f s)", ep+1, o.Epochs, logs, s)
			return nil
		},
	}
	t1 := time.Now()
	cbs := append([]train.Callback{timer}, o.Callbacks...)
	if o.CheckpointDir != "" {
		if err := os.MkdirAll(o.CheckpointDir, 0o755); err != nil {
			return nil, err
		}
		cbs = append(cbs, &train.Checkpoint{Path: filepath.Join(o.CheckpointDir, "epoch-{epoch}.npz")})
	}
	if initial > o.Epochs {
		return nil, fmt.Errorf("repro: the checkpoint %s is from epoch %d, beyond the %d epochs asked for", o.Resume, initial, o.Epochs)
	}
	res.History = &train.History{}
	if initial < o.Epochs {
		hist, err := m.Fit(map[*toolkit.Node]*train.Array{mn.Input: x}, map[*toolkit.Probe]*train.Array{mn.Out: y},
			train.FitOptions{Epochs: o.Epochs - initial, InitialEpoch: initial, BatchSize: o.Batch, Seed: o.Seed, Callbacks: cbs})
		res.History = hist
		if err != nil {
			return res, err
		}
	} else {
		logf("trained for %d epochs already: testing only", initial)
	}
	res.TrainSeconds = time.Since(t1).Seconds()
	t2 := time.Now()
	tx, ty, err := ImagesArray(testSet, 1)
	if err != nil {
		return res, err
	}
	pred, err := m.Predict(map[*toolkit.Node]*train.Array{mn.Input: tx}, train.EvalOptions{BatchSize: 500, Rates: true})
	if err != nil {
		return res, err
	}
	res.RateAccuracy, res.RateConfusion = Score(pred[mn.Out], ty, 0)
	logf("rate test accuracy %.2f %%", 100*res.RateAccuracy)
	sx, _, err := ImagesArray(testSet, o.SpikingSteps)
	if err != nil {
		return res, err
	}
	spred, err := m.Predict(map[*toolkit.Node]*train.Array{mn.Input: sx}, train.EvalOptions{BatchSize: 200,
		Progress: func(done, total int) {
			if o.Log != nil && (done%2000 < 200 || done == total) {
				logf("spiking test: %d/%d images", done, total)
			}
		}})
	if err != nil {
		return res, err
	}
	sp := spred[mn.OutFiltered]
	for k := range sp.Steps {
		a, _ := Score(sp, ty, k)
		res.SpikingAccuracyByStep = append(res.SpikingAccuracyByStep, a)
	}
	res.SpikingAccuracy, res.SpikeConfusion = Score(sp, ty, sp.Steps-1)
	labels := make([]int, ty.N)
	for i := range labels {
		labels[i] = int(ty.At(i, 0)[0])
	}
	if res.SpikingTCM, err = timeres.FromArray(sp, labels, 0); err != nil {
		return res, err
	}
	res.SpikingResponseTime = -1
	if rt, ok := timeres.ResponseTime(res.SpikingTCM.Accuracy(), 0.9); ok {
		res.SpikingResponseTime = rt
	}
	res.TestSeconds = time.Since(t2).Seconds()
	logf("spiking test accuracy %.2f %% (%d steps, synapse %g s)", 100*res.SpikingAccuracy, o.SpikingSteps, o.Synapse)
	return res, nil
}

// Figures returns the training history (nil when the run only tested a
// checkpoint), the accuracy of the spiking
// network against time since image onset, and the rate and spiking
// confusion matrices (row-normalised).
func (r *MNISTResult) Figures() (history, byStep, rateConf, spikeConf *viz.Plot, err error) {
	if r.History != nil && len(r.History.Logs) > 0 {
		if history, err = notebook.HistoryPlot(r.History); err != nil {
			return
		}
	}
	steps := make([]float64, len(r.SpikingAccuracyByStep))
	for i := range steps {
		steps[i] = float64(i+1) * 0.001
	}
	if byStep, err = viz.Line([]viz.Series{{Label: "spiking", X: steps, Y: r.SpikingAccuracyByStep},
		{Label: "rate", X: []float64{steps[0], steps[len(steps)-1]}, Y: []float64{r.RateAccuracy, r.RateAccuracy}, Dashed: true}},
		viz.LineOptions{Frame: viz.Frame{Title: "Test accuracy vs time since onset", XLabel: "time (s)", YLabel: "accuracy"}}); err != nil {
		return
	}
	if rateConf, err = viz.ConfusionMatrix(countsF(r.RateConfusion), data.MNISTClasses(), viz.ConfusionOptions{Normalize: true, Frame: viz.Frame{Title: "Rate network"}}); err != nil {
		return
	}
	spikeConf, err = viz.ConfusionMatrix(countsF(r.SpikeConfusion), data.MNISTClasses(), viz.ConfusionOptions{Normalize: true, Frame: viz.Frame{Title: "Spiking network"}})
	return
}

func countsF(m [][]int) [][]float64 {
	out := make([][]float64, len(m))
	for i, r := range m {
		out[i] = make([]float64, len(r))
		for j, v := range r {
			out[i][j] = float64(v)
		}
	}
	return out
}

// Score returns the accuracy of the argmax predictions of pred at step s
// against the class-index targets y (y.At(i, 0)[0] is example i's class,
// as ImagesArray makes them), and the confusion matrix
// conf[true][predicted] (pred.Dims × pred.Dims; a target outside it is
// counted as wrong but not entered). pred and y must have the same number
// of examples and s must be a step of pred.
func Score(pred, y *train.Array, s int) (float64, [][]int) {
	conf := make([][]int, pred.Dims)
	for i := range conf {
		conf[i] = make([]int, pred.Dims)
	}
	arg := pred.Argmax(s)
	correct := 0
	for i, a := range arg {
		t := int(y.At(i, 0)[0])
		if a >= 0 && t < len(conf) {
			conf[t][a]++
		}
		if a == t {
			correct++
		}
	}
	if len(arg) == 0 {
		return 0, conf
	}
	return float64(correct) / float64(len(arg)), conf
}
