# Generates notebooks/03-06 (the training tutorials and reproductions) from
# their sources here: python3 scripts/make_training_notebooks.py
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nbgen import P, nb, write

nb03 = nb([
("markdown", r"""
# Training a Nengo model with deep-learning methods

Seed 000's third pillar (§3.2–3.3): take a model built the Nengo way — encoders and gains drawn at random, decoders solved by least squares one connection at a time — and then optimise **all** of its parameters together with gradient descent, through time, the way deep networks are trained. Spiking neurons are replaced by their differentiable rate counterparts while training (LIF → LIFRate with SoftLIFRate's derivative) and swapped back for testing.

`train.New(net)` builds the network (`sim.Build`: Nengo's initial parameters); `Compile` fixes the optimiser, a loss per probe and metrics; `Fit`, `Evaluate` and `Predict` take data as `train.Array`s of examples × steps × dims (NengoDL's `(batch, n_steps, d)`), per input node and per probe.

This notebook trains a small ensemble to compute x², compares it with Nengo's least-squares solution, checks the gradients against finite differences, and runs the trained model spiking. The next cell is tagged `parameters` (papermill, `neurogo run -p`).
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
var n_neurons = 10   // neurons in the ensemble
var n_train = 2000   // training examples
var epochs = 30      // training epochs
var batch = 64       // minibatch size
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
lif.Amplitude = 0.01 // outputs of order 1 (rates × 0.01): decoders of order 1, so one learning rate suits all parameters
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
check := train.Config{Optimizer: &optim.Adam{LR: 1e-3}, Loss: map[*toolkit.Probe]loss.Loss{out: loss.MSE{}},
    LIFSmoothing: 0.5, SmoothForward: true}
if err := m.Compile(check); err != nil {
    panic(err)
}
xs, ys := mk(8)
rep, err := m.CheckGradients(map[*toolkit.Node]*train.Array{x: xs}, map[*toolkit.Probe]*train.Array{out: ys}, train.GradCheckOptions{Floor: 1e-4})
if err != nil {
    panic(err)
}
fmt.Println(rep)
if rep.Worst.RelErr > 1e-4 {
    panic("gradient check failed")
}
"""),
("code", r"""
if err := m.Compile(train.Config{Optimizer: &optim.Adam{LR: 2e-3}, Loss: map[*toolkit.Probe]loss.Loss{out: loss.MSE{}},
    LIFSmoothing: 0.5}); err != nil {
    panic(err)
}
before, err := m.Evaluate(testIn, testOut, train.EvalOptions{Rates: true})
if err != nil {
    panic(err)
}
predBefore, _ := m.Predict(testIn, train.EvalOptions{Rates: true})
hist, err := m.Fit(inputs, targets, train.FitOptions{Epochs: epochs, BatchSize: batch, Seed: int64(seed), ValidationSplit: 0.1,
    Callbacks: []train.Callback{train.NewProgress(os.Stdout)}})
if err != nil {
    panic(err)
}
after, err := m.Evaluate(testIn, testOut, train.EvalOptions{Rates: true})
if err != nil {
    panic(err)
}
fmt.Printf("test MSE (rates): %.5f with Nengo's solved parameters, %.5f after training\n", before["loss"], after["loss"])
train.HistoryPlot(hist, "loss")
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
viz.Line([]viz.Series{{Label: "target x²", X: X, Y: T, Dashed: true}, {Label: "Nengo (least squares)", X: X, Y: B}, {Label: "trained", X: X, Y: A}},
    viz.LineOptions{Frame: viz.Frame{Title: fmt.Sprintf("x² from %d LIF neurons (rates)", n_neurons), XLabel: "x", YLabel: "decoded"}})
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
mse := 0.0
for i := range n {
    d := sp[outFilt].At(i, 0)[0] - yTest.At(i, 0)[0]
    mse += d * d
}
mse /= float64(n)
fmt.Printf("spiking test MSE after %d steps: %.5f (rates: %.5f)\n", spike_steps, mse, after["loss"])
"""),
("markdown", "## Checks"),
("code", r"""
if !(after["loss"] < before["loss"]) {
    panic(fmt.Sprintf("training did not reduce the loss: %v → %v", before["loss"], after["loss"]))
}
if math.IsNaN(mse) || mse > 0.2 {
    panic(fmt.Sprintf("spiking output too far from the target: MSE %v", mse))
}
fmt.Println("ok: training improved the decoded x², and the trained model runs spiking")
"""),
])

nb04 = nb([
("markdown", r"""
# Spiking MNIST (seed 000 §5.2.1)

NengoDL's paper trains a convolutional network whose nonlinearities are **LIF neurons** — conv 32 3×3 → LIF → conv 64 3×3 → LIF → average-pool 2 → conv 128 3×3 → LIF → average-pool 2 → dense 10 — with the differentiable rate version of LIF, then tests the same weights with **spiking** neurons: 99.05–99.09 % with rates, 98.41–98.87 % spiking, on the full MNIST test set.

Here the convolutions are layer nodes (`net.Layer`, the TensorNode equivalent: im2col + GEMM), the LIF nonlinearities are ensembles driven straight into their neurons (`net.NeuronLayer`, amplitude 0.01, max rate 100 Hz, intercept 0), training uses minibatches of 200 and RMSProp 1e-3 with softmax cross-entropy, and the spiking test presents each image for 50 steps, reads the output through a 0.1 s lowpass and scores the last step. `neurogo repro spiking-mnist` runs the same code from the command line.

The parameters below are small so the notebook runs in minutes; the paper's run is `n_train = 60000, n_test = 10000, epochs = 10, steps = 50`.
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
var n_train = 60000 // training images (the paper: 60000)
var n_test = 10000  // test images (10000)
var epochs = 10     // (10)
var steps = 50      // spiking test steps (50)
var seed = 0
""", P),
("code", r"""
import (
    "fmt"
    "os"

    "github.com/neurogo/neurogo/train"
    "github.com/neurogo/neurogo/train/data"
    "github.com/neurogo/neurogo/train/repro"
    "github.com/neurogo/neurogo/viz"
)

trainSet, testSet, err := data.MNIST("")
if err != nil {
    panic(err)
}
fmt.Printf("MNIST: %d training and %d test images of %d×%d pixels\n", trainSet.Len(), testSet.Len(), trainSet.Rows, trainSet.Cols)
cells := make([][][]float64, 8)
for i := range cells {
    img := make([][]float64, 28)
    for r := range img {
        img[r] = testSet.Images[i][r*28 : (r+1)*28]
    }
    cells[i] = img
}
plots := make([]*viz.Plot, 8)
for i := range plots {
    plots[i], _ = viz.Heatmap(cells[i], viz.HeatmapOptions{Frame: viz.Frame{Title: fmt.Sprintf("label %d", testSet.Labels[i]), Width: 200, Height: 180}})
}
viz.Grid(plots, viz.GridOptions{Cols: 4, Frame: viz.Frame{Title: "Test images"}})
"""),
("markdown", r"""
## Train and test

`repro.SpikingMNIST` builds `repro.NewMNISTNet`, compiles it, fits it with a progress bar and a live history plot, and evaluates the rate and the spiking network on the test set.
"""),
("code", r"""
res, err := repro.SpikingMNIST(repro.MNISTOptions{Train: n_train, Test: n_test, Epochs: epochs, SpikingSteps: steps, Seed: int64(seed),
    Callbacks: []train.Callback{train.NewProgress(os.Stdout), &train.LivePlot{}}})
if err != nil {
    panic(err)
}
fmt.Printf("rate accuracy %.2f %%, spiking accuracy %.2f %% (%d steps); %.0f s per epoch\n",
    100*res.RateAccuracy, 100*res.SpikingAccuracy, steps, res.SecondsPerEpoch[len(res.SecondsPerEpoch)-1])
hist, byStep, rateConf, spikeConf, err := res.Figures()
if err != nil {
    panic(err)
}
hist
"""),
("markdown", r"""
## Accuracy over time and confusion matrices

The spiking network's output is a filtered spike train: read too early it has not settled (the 0.1 s synapse), so accuracy rises over the presentation towards the rate network's.
"""),
("code", "byStep"),
("code", "rateConf"),
("code", "spikeConf"),
("markdown", r"""
## Time-resolved evaluation

The same evaluation as for layerwise-parallel networks (seed 001 §3.2, `train/timeres`): the temporal confusion matrix of the spiking test, tCM[step since onset][label][prediction], and the response time — the first step at which the spiking accuracy reaches 90 %.
"""),
("code", r"""
fmt.Printf("spiking response time (accuracy ≥ 90 %%): step %d\n", res.SpikingResponseTime)
tcmPlot, err := res.SpikingTCM.Plot(nil, []int{steps / 8, steps / 4, steps / 2, steps - 1})
if err != nil {
    panic(err)
}
tcmPlot
"""),
("markdown", "## Checks\n\nAt the paper's size the targets are 99.0 % (rates) and 98.4 % (spiking); small runs only have to learn."),
("code", r"""
full := n_train >= 60000 && n_test >= 10000 && epochs >= 10 && steps >= 50
if full {
    if res.RateAccuracy < 0.990 || res.SpikingAccuracy < 0.984 {
        panic(fmt.Sprintf("below the paper's targets: rate %.4f (≥ 0.990), spiking %.4f (≥ 0.984)", res.RateAccuracy, res.SpikingAccuracy))
    }
} else if res.RateAccuracy < 0.5 {
    panic(fmt.Sprintf("the rate network did not learn: %.3f", res.RateAccuracy))
}
fmt.Println("ok")
"""),
])

nb05 = nb([
("markdown", r"""
# Memory retrieval before and after training (seed 000, Fig. 9)

A Semantic Pointer Architecture model stores role/filler pairs and retrieves the filler of a cued role: a circular-convolution network binds each role with its filler, a recurrently connected ensemble (τ = 10 ms) accumulates the bindings, and a circular correlation with the cue (convolution with its involution) unbinds the answer. Built the Nengo way — random encoders, least-squares decoders solved one connection at a time — the model retrieves poorly with few neurons; training all its parameters jointly through time (50 steps per trial) improves retrieval most where neurons are scarce.

Setting (from the paper and NengoDL's example): D = 64, rectified-linear neurons with gain 1 and bias 0, 2 pairs shown 10 ms each then the cue for 30 ms, 8000 training and 1024 test trials, minibatch 64, RMSProp 1e-4, 10 epochs, NaN-masked MSE on the output (targets are NaN before the cue) plus ¼-weighted losses on the binding and the memory. A trial counts as retrieved when the output at the last step is more similar to the cued filler than to any other vector of the test vocabulary. `neurogo repro spa-memory` runs the same.

The parameters below are small (minutes); the paper's run is `neurons = "5,10,15,20", seeds = 3, n_train = 8000, n_test = 1024, epochs = 10`.
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
var neurons = "5,10,15,20" // neurons per dimension
var seeds = 3              // random initialisations per point (95 % intervals)
var n_train = 8000
var n_test = 1024
var epochs = 10
""", P),
("code", r"""
import (
    "fmt"
    "os"
    "strconv"
    "strings"

    "github.com/neurogo/neurogo/train/repro"
)

var npd []int
for _, s := range strings.Split(neurons, ",") {
    n, err := strconv.Atoi(strings.TrimSpace(s))
    if err != nil {
        panic(err)
    }
    npd = append(npd, n)
}
res, err := repro.SPAMemory(repro.SPAOptions{NeuronsPerDim: npd, Seeds: seeds, Train: n_train, Test: n_test, Epochs: epochs, Log: os.Stdout})
if err != nil {
    panic(err)
}
for i, n := range res.NeuronsPerDim {
    fmt.Printf("%2d neurons/dim: %.3f [%.3f, %.3f] before → %.3f [%.3f, %.3f] after\n", n,
        res.BeforeMean[i], res.BeforeLo[i], res.BeforeHi[i], res.AfterMean[i], res.AfterLo[i], res.AfterHi[i])
}
res.Figure()
"""),
("markdown", "## Checks\n\nTraining must lower the output loss at every point (the paper's finding is the accuracy gain; with the small parameters the loss is the robust signal)."),
("code", r"""
for _, p := range res.Points {
    if !(p.LossAfter < p.LossBefore) {
        panic(fmt.Sprintf("%d neurons/dim, seed %d: loss %.5f → %.5f did not drop", p.NeuronsPerDim, p.Seed, p.LossBefore, p.LossAfter))
    }
}
fmt.Println("ok")
"""),
])

nb06 = nb([
("markdown", r"""
# Layerwise-parallel networks (seed 001, statestream)

In a **layerwise-parallel** network every layer keeps a state — a *neuron-pool* — and computes its state at frame t+1 from the frame-t states of its inputs, through *synapse-pools*. All pools update at once, so a stimulus needs one frame per layer to travel through the network, skip paths answer sooner than deep paths, and the network's answer is a function of the **time since the stimulus appeared**. *Plasticities* train the parameters while the network runs, each on a small local rollout of the network (seed 001 §2–3).

This notebook loads the seed's appendix 6.2 network file (the two-path MNIST network of Fig. 3a) unchanged, shows what the loader checks, trains the network with its two loss plasticities while MNIST images stream in, and reproduces **Fig. 3b**: accuracy against the delay since stimulus onset — chance for the first three frames, then the short path, one frame later the deep path — with temporal confusion matrices, response times, and the layerwise-sequential execution of the same network beside it. `neurogo repro statestream-2path` runs the same code from the command line. The next cell is tagged `parameters`.
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
var agents = 128        // agents (the file's 128)
var train_frames = 6000 // training frames
var test_frames = 600   // test frames per execution mode
var hold = 12           // frames each image is held (the seed: 12)
var threshold = 0.9     // accuracy at which the response time is read
var seed = 0
""", P),
("code", r"""
import (
    "fmt"
    "os"

    "github.com/neurogo/neurogo/display"
    "github.com/neurogo/neurogo/toolkit/stream"
    "github.com/neurogo/neurogo/train/repro"
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

A loss plasticity compares a pool at rollout depth `source_t` with a target at `target_t`: the network is rolled out locally from the states of the current frame (seed 001 Fig. 4). `class` trains the short path (pred1 one frame ahead against the copied label), `deep_class` the deep path (pred2 three frames ahead: image → conv1 → conv2 → pred2).
"""),
("code", r"""
for _, p := range net.Plasticities {
    r, err := net.Rollout(p)
    if err != nil {
        panic(err)
    }
    fmt.Printf("%-10s %s(%s@%d, %s@%d), lr %g, %s; rollout:\n", p.Name, p.LossFunction, p.Source, p.SourceT, p.Target, p.TargetT, p.LR, p.Optimizer)
    for d := 0; d < len(r.Pools); d++ {
        fmt.Printf("    δt=%d: %v\n", d, r.Pools[d])
    }
}
"""),
("markdown", r"""
A rollout that would need input from the future is rejected when the file is loaded — the seed's own example: pred2 at δt = 4 against the label at δt = 1 would need the image and label of the next frame. Typos are caught with the nearest valid key:
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
future := []byte("name: f\nneuron_pools:\n    image:\n        shape: [1, 1, 1]\n    label:\n        shape: [1, 1, 1]\n    h:\n        shape: [1, 1, 1]\nsynapse_pools:\n    ih:\n        source: [[image]]\n        target: h\nplasticities:\n    p:\n        type: loss\n        loss_function: mse\n        source: h\n        source_t: 2\n        target: label\n        target_t: 0\n        lr: 1e-3\n        parameter:\n        - [sp, ih, W_0_0]\n")
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
fmt.Printf("image → prediction: %d frames (short path); image → pred2: %d frames, so the deep path reaches prediction after %d\n", short, deepOnly, deepOnly+1)
"""),
("markdown", r"""
## Train while streaming, then evaluate over time

`repro.StreamTwoPath` streams MNIST training images (each held `hold` frames, per agent) through the network with both plasticities running in parallel with inference, then copies the trained parameters into an evaluation network (no dropout) and streams the test set, accumulating the temporal confusion matrix tCM[δt][label][prediction] (seed 001 §3.2) — for the parallel network, each of its two paths, and the layerwise-sequential execution of the same network.
"""),
("code", r"""
// a progress bar, replaced in place (display updates)
shown := false
progress := func(phase string, done, total int) {
    v := display.HTML(fmt.Sprintf("<progress value=\"%d\" max=\"%d\" style=\"width:40%%\"></progress> %s: frame %d / %d", done, total, phase, done, total))
    if !shown {
        display.Show("stream-progress", v)
        shown = true
    } else {
        display.Update("stream-progress", v)
    }
}
res, err := repro.StreamTwoPath(repro.StreamOptions{Agents: agents, TrainFrames: train_frames, TestFrames: test_frames,
    Hold: hold, Threshold: threshold, Seed: int64(seed), Log: os.Stdout, Progress: progress})
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
    fmt.Printf("δt %2d: parallel %.3f  pred1 %.3f  pred2 %.3f  sequential %.3f\n", dt, res.Parallel[dt], res.Pred1[dt], res.Pred2[dt], res.Sequential[dt])
}
fmt.Printf("response time at %.2f: parallel %d frames, sequential %d frames; shortest paths %d (short) and %d (deep)\n",
    threshold, res.ResponseTime, res.SequentialResponseTime, res.ShortPath, res.DeepPath)
"""),
("markdown", "## Checks\n\nThe shape of Fig. 3b must hold at any size: chance before the short path can arrive, a jump at the shortest path, the sequential network answering at δt = 0."),
("code", r"""
for dt := 0; dt < res.ShortPath; dt++ {
    if res.Parallel[dt] > 0.3 {
        panic(fmt.Sprintf("accuracy %.3f at δt=%d, before the short path (%d frames) can arrive", res.Parallel[dt], dt, res.ShortPath))
    }
}
settled := res.Parallel[len(res.Parallel)-1]
if settled < 0.5 || res.Parallel[res.ShortPath] < 0.4 || res.Sequential[0] < 0.5 {
    panic(fmt.Sprintf("the network did not learn: parallel %.3f at δt=%d, %.3f at the end; sequential %.3f at δt=0", res.Parallel[res.ShortPath], res.ShortPath, settled, res.Sequential[0]))
}
fmt.Println("ok")
"""),
])

for name, n in [("03-training-a-nengo-model.ipynb", nb03), ("04-spiking-mnist.ipynb", nb04), ("05-spa-memory.ipynb", nb05), ("06-layerwise-parallel-networks.ipynb", nb06)]:
    write(name, n)
print("ok")
