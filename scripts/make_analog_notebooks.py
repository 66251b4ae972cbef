# Generates notebooks/07-08 (the emulated analog accelerator of the hxtorch
# paper) from their sources here: python3 scripts/make_analog_notebooks.py
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nbgen import CHECK, P, nb, write

nb07 = nb([
("markdown", r"""
# An emulated analog accelerator (BrainScaleS-2)

"hxtorch: PyTorch for BrainScaleS-2 — Perceptrons on Analog Neuromorphic Hardware" (Spilger et al., 2020; below "the hxtorch paper") integrates BrainScaleS-2, an analog neuromorphic chip, into PyTorch: its synapse arrays multiply a 5-bit input vector with a matrix of 6-bit signed weights in one analog step, `xᵀW = y`, and digitise 8-bit results. No chip is attached here, so `accel/analog` emulates one — the arithmetic of the matrix-multiplication mode, its trial-to-trial noise, each column's fixed-pattern gain and offset, the membrane's saturation — behind the same interfaces a real chip would sit behind.

This notebook shows the model, the partitioning of large matrices onto the chip's synapse arrays (§3.3, Fig. 6), calibration, the just-in-time execution graph with its timing (§3.2, Fig. 5), the MAC-rate measurements of Fig. 8, and a Nengo model running on the emulated chip as a `sim.Backend`.

**Size.** At the defaults the Fig. 8 sweep stops at 4096² matrices (1024² on the computing emulation) and batches of 4096, with 0.2 s per measurement: a few minutes on two cores. The paper's range is `max_log2 = 14`, `emulated_log2 = 12`, `max_batch_log2 = 14`, `bench_seconds = 0.5` (the defaults of `bin/neurogo bench accel`; the 16384² float32 GEMM alone needs several GB of memory). The next cell is tagged `parameters`.
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
var seed = 1
var max_log2 = 12       // largest square matrix of the Fig. 8 sweep: 2^max_log2
var emulated_log2 = 10  // largest matrix run on the computing emulation
var bench_batch = 2000  // batch of the size sweep (Fig. 8 left)
var max_batch_log2 = 12 // largest batch of the 256² sweep (Fig. 8 right)
var bench_seconds = 0.2 // minimum time per figure (best of repeats)
var channel_steps = 1000
""", P),
("markdown", r"""
## One vector–matrix multiplication

Inputs are integers 0..31, weights −63..63, results −128..127. One synapse array holds 128 inputs with signed weights (two physical rows each) and 256 columns; a column computes

`y = clamp(floor(g_j · gain · num_sends · Σ x_i w_ij + o_j + noise), −128, 127)`

with `gain` 0.0012 LSB per unit (hxtorch's mock value), `num_sends` repeating every input, Gaussian trial-to-trial noise of 2 LSB, and on a chip a fixed pattern `g_j`, `o_j` per column plus a soft saturation. `MockConfig` is hxtorch's mock model (gain and noise only); `ChipConfig(seed)` draws an emulated chip.
"""),
("code", r"""
import (
    "context"
    "fmt"
    "math"
    "math/rand/v2"
    "time"

    "github.com/neurogo/neurogo/accel/analog"
    "github.com/neurogo/neurogo/repro/hxtorch"
    "github.com/neurogo/neurogo/sim"
    "github.com/neurogo/neurogo/toolkit"
    "github.com/neurogo/neurogo/toolkit/synapses"
    "github.com/neurogo/neurogo/viz"
)

chip, err := analog.New(analog.ChipConfig(int64(seed)))
if err != nil {
    panic(err)
}
rng := rand.New(rand.NewPCG(uint64(seed), 7))
rows, cols, batch := 128, 256, 64
w := make([]float64, rows*cols)
for i := range w {
    w[i] = float64(rng.IntN(41) - 20)
}
x := make([]float64, batch*rows)
for i := range x {
    x[i] = float64(rng.IntN(32))
}
m, err := chip.Configure(w, rows, cols, analog.Op{NumSends: 1})
if err != nil {
    panic(err)
}
y := make([]float64, batch*cols)
if err := m.Apply(x, batch, y); err != nil {
    panic(err)
}
// the ideal result Gain·num_sends·Σ x·w, against what the chip measured
ideal := make([]float64, batch*cols)
for b := 0; b < batch; b++ {
    for j := 0; j < cols; j++ {
        s := 0.0
        for i := 0; i < rows; i++ {
            s += x[b*rows+i] * w[i*cols+j]
        }
        ideal[b*cols+j] = m.Scale() * s
    }
}
fmt.Println(m.Partition())
// one point per output (faded by their number), against the identity line
viz.Scatter([]viz.Series{{X: ideal, Y: y, Label: "emulated chip (uncalibrated)"}},
    viz.LineOptions{Reference: "y=x", Frame: viz.Frame{Title: "Measured vs ideal",
        XLabel: "gain · Σ x·w (LSB)", YLabel: "8-bit result (LSB)"}})
"""),
("markdown", r"""
Values outside the ranges are errors unless the operation asks for clamping:
"""),
("code", r"""
_, err = chip.MatMul([]float64{40}, 1, []float64{1}, 1, 1, analog.Op{})
fmt.Println(err)
_, err = chip.MatMul([]float64{3}, 1, []float64{1}, 1, 1, analog.Op{NumSends: 300})
fmt.Println(err)
y1, _ := chip.MatMul([]float64{40}, 1, []float64{70}, 1, 1, analog.Op{Clamp: true, NumSends: 40})
fmt.Println("clamped to 31 × 63:", y1)
"""),
("markdown", r"""
## Partitioning onto synapse arrays (Fig. 6)

An operation larger than one array is split into array-sized tiles placed round robin on the arrays of the system; row splits are summed digitally, column splits concatenated. Utilisation approaches 1 for matrices much larger than an array (partial tiles only at the edges).
"""),
("code", r"""
two, _ := analog.New(analog.Config{Chips: 2})
for _, n := range []int{100, 256, 1000, 4096} {
    p, err := two.Partition(n, n, false)
    if err != nil {
        panic(err)
    }
    fmt.Printf("%5d²: %d tiles in %d runs on %d arrays, utilisation %.1f %%, config %d bytes\n",
        n, len(p.Tiles), p.Runs, p.Arrays, 100*p.Utilisation(), p.ConfigBytes())
}
_, err = func() (*analog.Partition, error) {
    small, _ := analog.New(analog.Config{NoReuse: true})
    return small.Partition(1000, 1000, false)
}()
fmt.Println(err)
"""),
("markdown", r"""
## Calibration

`Calibrate` sends random test matrices several times, as hxtorch's `measure_mock_parameter` does: the repeats give the trial-to-trial noise, a fit per column its gain and offset, and a fit over all columns the saturation scale. `SetCalibration` then corrects every column in postprocessing.
"""),
("code", r"""
cal, err := chip.Calibrate(analog.CalibrationOptions{Seed: int64(seed)})
if err != nil {
    panic(err)
}
fmt.Printf("gain %.5f (configured %.5f), noise %.2f LSB, saturation %.0f LSB, residual %.2f LSB\n",
    cal.Gain, analog.DefaultGain, cal.Noise, cal.Saturation, cal.Residual)
rmsDev := func() float64 {
    yy := make([]float64, batch*cols)
    if err := m.Apply(x, batch, yy); err != nil {
        panic(err)
    }
    s := 0.0
    for i := range yy {
        d := yy[i] - (ideal[i] - 0.5)
        s += d * d
    }
    return math.Sqrt(s / float64(len(yy)))
}
before := rmsDev()
if err := chip.SetCalibration(cal); err != nil {
    panic(err)
}
after := rmsDev()
fmt.Printf("RMS deviation from the ideal: %.2f LSB uncalibrated, %.2f LSB calibrated",
    before, after)
fmt.Printf(" (noise alone: %.2f LSB)\n", cal.Noise)
"""),
("markdown", r"""
## Just-in-time execution (Figs. 2, 4, 5)

`Matrix.Run` executes an operation as hxtorch does: a dependency graph of execution instances (package `accel/jit`) — quantise the inputs of each row split; per tile build the instruction stream, execute it on the tile's chip; decode and sum each column split. Host stages of independent instances overlap with execution on the chip. The trace shows where the time went:
"""),
("code", r"""
big, _ := analog.New(analog.MockConfig())
n := 1024
wb := make([]float64, n*n)
for i := range wb {
    wb[i] = float64(rng.IntN(127) - 63)
}
xb := make([]float64, 1024*n)
for i := range xb {
    xb[i] = float64(rng.IntN(32))
}
mb, err := big.Configure(wb, n, n, analog.Op{})
if err != nil {
    panic(err)
}
yb := make([]float64, 1024*n)
st, err := mb.Run(context.Background(), xb, 1024, yb, analog.PipelineOptions{Trace: true})
if err != nil {
    panic(err)
}
ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 }
fmt.Printf("%d instances in %.1f ms; stage sums: preprocess %.1f ms, build %.1f ms, "+
    "execute %.1f ms, postprocess %.1f ms; chip busy %.0f %%\n",
    st.Instances, ms(st.Wall), ms(st.Preprocess), ms(st.Build), ms(st.Execute), ms(st.Postprocess),
    100*st.Trace.Utilisation(0))
gantt, err := st.Trace.Plot("JIT execution of a 1024² matmul (batch 1024)")
if err != nil {
    panic(err)
}
viz.FromGonum(gantt, viz.Frame{Width: 720, Height: 300})
"""),
("markdown", r"""
## MAC rates (Fig. 8)

`BenchAccel` (also `neurogo bench accel`) measures, in one run, the host CPU's float32 GEMM on all cores, the pipeline with a fast mock communication partner (the software overhead alone, as the paper's simulated partner) and the pipeline with the emulated chip computing — against matrix size at a fixed batch and against batch size at 256². The dashed lines are what the link model gives a real setup: all configuration and data through the 1 Gbit/s host link or the 8 Gbit/s chip I/O. Every point is the best of repeats lasting together at least `bench_seconds`; when other programs share the cores, single points drop out of line (a dip in one curve that its neighbours and the other curves do not show is such a disturbance, not a property of that size).
"""),
("code", r"""
brows, err := hxtorch.BenchAccel(hxtorch.AccelBenchOptions{MaxLog2: max_log2,
    EmulatedMaxLog2: emulated_log2, Batch: bench_batch, MaxBatchLog2: max_batch_log2,
    MinSeconds: bench_seconds})
if err != nil {
    panic(err)
}
bySize, byBatch, err := hxtorch.AccelFigures(brows)
if err != nil {
    panic(err)
}
summary := hxtorch.SummarizeAccel(brows)
fmt.Printf("overhead-only pipeline, matrices ≥ one chip: ≥ %.2f of float32 GEMM\n",
    summary.MinFractionOneChip)
fmt.Printf("256²: configuration = data at batch %.0f (volume model), %.0f (measured)\n",
    summary.ModelCrossoverBatch, summary.MeasuredCrossoverBatch)
bySize
"""),
("code", "byBatch"),
("markdown", r"""
## A Nengo model on the emulated chip

`analog.NewBackend` is a `sim.Backend`: the CPU simulator runs the model, its dense products — encoders, decoders, connection weights — and its Dense/Conv layer nodes run on an emulated, calibrated chip. Scales come from a short range-finding run; `num_sends` is chosen per product. `Select` keeps chosen connections on the CPU. A communication channel (two 100-neuron ensembles) on the chip:
"""),
("code", r"""
net := toolkit.New("channel", int64(seed))
stim := net.Node("stim", 1, func(t float64, out []float64) { out[0] = math.Sin(2 * math.Pi * t) })
ea := net.Ensemble("a", 100, 1)
eb := net.Ensemble("b", 100, 1)
net.Connect(stim, ea)
net.Connect(ea, eb)
pb := net.Probe("b", eb, toolkit.AttrDecoded)
pb.Synapse = synapses.Lowpass{Tau: 0.01}
model, err := sim.Build(net)
if err != nil {
    panic(err)
}
cpu, _ := sim.NewFromModel(model)
onChip, err := analog.NewBackend(analog.BackendOptions{})(model)
if err != nil {
    panic(err)
}
cpu.RunSteps(channel_steps)
if err := onChip.RunSteps(channel_steps); err != nil {
    panic(err)
}
dc, _ := cpu.Data(pb)
da, _ := onChip.Data(pb)
tt := make([]float64, len(dc))
yc := make([]float64, len(dc))
ya := make([]float64, len(dc))
var se float64
for k := range dc {
    tt[k] = float64(k+1) * model.Dt
    yc[k], ya[k] = dc[k][0], da[k][0]
    se += (ya[k] - yc[k]) * (ya[k] - yc[k])
}
fmt.Printf("RMS difference chip vs CPU: %.3f\n", math.Sqrt(se/float64(len(dc))))
for _, pl := range onChip.(*analog.Backend).Placement() {
    fmt.Printf("  %-45s %3d×%-3d on chip %v, num_sends %d\n",
        pl.Tag, pl.Rows, pl.Cols, pl.OnChip, pl.NumSends)
}
viz.Line([]viz.Series{{X: tt, Y: yc, Label: "CPU"}, {X: tt, Y: ya, Label: "emulated chip"}},
    viz.LineOptions{Frame: viz.Frame{Title: "Communication channel",
        XLabel: "time (s)", YLabel: "decoded b"}})
"""),
("code", r"""
if after >= before {
    panic(fmt.Sprintf("calibration did not help: %.2f → %.2f LSB", before, after))
}
if math.Sqrt(se/float64(len(dc))) > 0.15 {
    panic("the channel on the chip strays from the CPU's")
}
if st.Trace.Overlap() <= 0 {
    panic("no overlap of host stages and execution")
}
fmt.Println("ok")
""", CHECK),
])

nb08 = nb([
("markdown", r"""
# Human activity recognition on the emulated chip (the hxtorch paper, §4.2, Fig. 9)

"hxtorch: PyTorch for BrainScaleS-2 — Perceptrons on Analog Neuromorphic Hardware" (Spilger et al., 2020; below "the hxtorch paper") ends with an application: a 1-d convolution and two dense layers (its Table 1) classify six activities — walking, walking upstairs, walking downstairs, sitting, standing, lying — from 2.56 s windows of the nine inertial channels of a waist-worn phone. Fig. 9 shows three confusion matrices: (a) the model trained in software with inputs and weights quantised to the chip's ranges and Gaussian noise on every layer's output; (b) the same weights run on the chip without retraining; (c) after one epoch of hardware-in-the-loop training, forward on the chip and backward through the software model.

This notebook does the same step by step on neurogo's emulated BrainScaleS-2 chip (`accel/analog`, introduced in the previous notebook): the data, the model built from analog layers, software training, the chip with its fixed-pattern deviations, hardware-in-the-loop training, and the three confusion matrices.

**Size.** The defaults train on 3000 of the 7352 training windows for 10 epochs and test on 1000 of the 2947 test windows: a few minutes on two cores. The paper's size is `train_windows = 0`, `test_windows = 0` (all windows) and `epochs = 50` (`hil_epochs = 1` as in the paper); the "Full size" section at the end gives the command line for it.

**Data.** The UCI HAR data set (Anguita et al., 2013) is a download from the UCI Machine Learning Repository, not a package, and is not bundled here. Unless you point the notebook at the real files, it trains on `data.SyntheticHAR`: a deterministic generator with the real set's layout (30 subjects, 50 Hz, the same windows per class and split) whose signals come from a simple kinematic model, not from recordings. Accuracies on it are not the paper's numbers, and every figure says "synthetic" then. To use the real set, unpack "UCI HAR Dataset.zip" and set `data_dir` below to the unpacked `UCI HAR Dataset` directory (or set the environment variable `NEUROGO_HAR` to it before starting Jupyter).

The next cell is tagged `parameters`.
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
var train_windows = 3000 // training windows (0: all 7352, the paper)
var test_windows = 1000  // test windows (0: all 2947, the paper)
var epochs = 10          // software epochs (the paper: 50)
var hil_epochs = 1       // hardware-in-the-loop epochs (the paper: 1)
var seed = 0             // initialisation, subsets and shuffling
var chip_seed = 1        // the emulated chip's fixed pattern
var data_dir = ""        // UCI HAR directory ("": $NEUROGO_HAR if set, else synthetic)
""", P),
("markdown", r"""
## The data

`hxtorch.LoadHAR` reads the UCI layout from `data_dir` (or `$NEUROGO_HAR`) and otherwise returns the synthetic stand-in; its `Synthetic` field says which. `SubsetHAR` draws the requested number of windows with a fixed seed. Each window holds 128 samples of nine channels, channels last: body acceleration and body angular rate (gravity removed) and total acceleration, each x, y, z.
"""),
("code", r"""
import (
    "fmt"
    "math"
    "os"
    "slices"

    "github.com/neurogo/neurogo/accel/analog"
    "github.com/neurogo/neurogo/notebook"
    "github.com/neurogo/neurogo/repro/hxtorch"
    "github.com/neurogo/neurogo/sim"
    "github.com/neurogo/neurogo/toolkit"
    "github.com/neurogo/neurogo/toolkit/layers"
    "github.com/neurogo/neurogo/train"
    "github.com/neurogo/neurogo/train/data"
    "github.com/neurogo/neurogo/viz"
)

trainAll, testAll, err := hxtorch.LoadHAR(data_dir, false, 0)
if err != nil {
    panic(err)
}
trainSet := hxtorch.SubsetHAR(trainAll, train_windows, int64(seed))
testSet := hxtorch.SubsetHAR(testAll, test_windows, int64(seed)+1)
source := "UCI HAR recordings"
if trainSet.Synthetic {
    source = "synthetic HAR (data.SyntheticHAR)"
}
short := hxtorch.ShortHARClasses(trainSet.Classes)
fmt.Printf("%s: %d training and %d test windows of 128 samples × 9 channels\n",
    source, trainSet.Len(), testSet.Len())
fmt.Println("training windows per class:", short, trainSet.ClassCounts())
"""),
("markdown", r"""
One training window of each activity: the total acceleration (gravity included) along the phone's x, y and z axes, in g. Walking and the two stair activities show the periodic steps of the gait and differ in their shape and rhythm; sitting, standing and lying are nearly flat and differ only in how gravity falls onto the phone's axes — lying puts it on z, sitting tilts it slightly away from x, standing keeps it on x.
"""),
("code", r"""
channels := data.HARChannels()
tAxis := make([]float64, 128)
for k := range tAxis {
    tAxis[k] = float64(k) / 50 // 50 Hz
}
var windowPanels []*viz.Plot
for c := range trainSet.Classes {
    i := slices.Index(trainSet.Labels, c) // the first window of class c
    if i < 0 {
        continue
    }
    var series []viz.Series
    for ch := 6; ch < 9; ch++ { // total_acc_x, _y, _z
        v := make([]float64, 128)
        for k := range v {
            v[k] = trainSet.Signals[i][k*9+ch]
        }
        series = append(series, viz.Series{Label: channels[ch][len("total_acc_"):], X: tAxis, Y: v})
    }
    p, err := viz.Line(series, viz.LineOptions{Frame: viz.Frame{Title: short[c],
        XLabel: "time (s)", YLabel: "total acceleration (g)", Width: 360, Height: 260}})
    if err != nil {
        panic(err)
    }
    windowPanels = append(windowPanels, p)
}
viz.Grid(windowPanels, viz.GridOptions{Cols: 3,
    Frame: viz.Frame{Title: "One training window per activity — " + source}})
"""),
("markdown", r"""
## Inputs in hardware units

The chip takes 5-bit inputs, integers 0..31. `analog.FitInputScale` maps every channel's 0.1 % and 99.9 % quantiles (over the training windows) onto 0 and 31, and `HARArrays` applies it and rounds. The model reads the first `HARWindow` = 122 samples of each window, so that the convolution below gives the 16 positions of Table 1. The heat map is one window as the chip receives it.
"""),
("code", r"""
cut := make([][]float64, trainSet.Len())
for i, w := range trainSet.Signals {
    cut[i] = w[:hxtorch.HARWindow*9]
}
scale, err := analog.FitInputScale(cut, 9, 0.001)
if err != nil {
    panic(err)
}
x, y, err := hxtorch.HARArrays(trainSet, scale)
if err != nil {
    panic(err)
}
tx, ty, err := hxtorch.HARArrays(testSet, scale)
if err != nil {
    panic(err)
}
first := x.At(0, 0) // training window 0: 122 samples × 9 channels, channels last
img := make([][]float64, 9)
for ch := range img {
    img[ch] = make([]float64, hxtorch.HARWindow)
    for k := range img[ch] {
        img[ch][k] = first[k*9+ch]
    }
}
viz.Heatmap(img, viz.HeatmapOptions{ColorLabel: "input (0..31)", Frame: viz.Frame{
    Title:  fmt.Sprintf("Training window 0 (%s) in hardware units", short[trainSet.Labels[0]]),
    XLabel: "sample", YLabel: "channel (body acc, gyro, total acc; x y z)"}})
"""),
("markdown", r"""
## The model: Table 1 on analog layers

Conv1d(9 → 16 filters, kernel 32, stride 6) → ConvertingReLU → Linear(256 → 125) → ConvertingReLU → Linear(125 → 6), no biases. Each layer is a node of a `toolkit` network whose spec is one of `accel/analog`'s layers: its forward pass runs on an `analog.System` (weights −63..63, inputs 0..31, 8-bit results); its backward pass is the straight-through software model of §3.1 of the hxtorch paper. `ConvertingReLU` turns an 8-bit result into the next layer's 5-bit input (a right shift by one bit, clamped at 31). The last layer's 8-bit results, times 1/8, are the logits.

How strongly a layer drives its columns is set by `num_sends` (each input is sent that many times). `PlanHAR` picks, per layer, the smallest `num_sends` with which the init rule can spread the layer's outputs over about a quarter of the 8-bit range, measured on up to 512 training windows. `buildHAR(sys)` builds the network with its analog layers on `sys` (`hxtorch.NewHARNet` builds the same network); the graph shows the chain from the input node through the five layer nodes (conv, relu1, linear1, relu2, linear2); a probe on linear2 reads the logits.
"""),
("code", r"""
sample := make([][]float64, min(512, x.N))
for i := range sample {
    sample[i] = x.At(i, 0)
}
plan, err := hxtorch.PlanHAR(sample, int64(seed), 1)
if err != nil {
    panic(err)
}
fmt.Printf("num_sends per layer (conv, linear 1, linear 2): %v\n", plan.NumSends)

// buildHAR builds Table 1's model with its analog layers on sys.
func buildHAR(sys *analog.System) *hxtorch.HARNet {
    net := toolkit.New("har-analog", int64(seed))
    in := net.Const("input", make([]float64, hxtorch.HARWindow*9)...)
    layer := func(label string, from *toolkit.Node, spec layers.Spec, shape ...int) *toolkit.Node {
        n, err := net.Layer(label, from, spec, shape...)
        if err != nil {
            panic(err)
        }
        return n
    }
    conv := layer("conv", in, analog.Conv1d{Filters: 16, Kernel: 32, Stride: 6, System: sys,
        NumSends: plan.NumSends[0], InputMeanSquare: plan.InputMeanSquare[0]},
        hxtorch.HARWindow, 9)
    r1 := layer("relu1", conv, analog.ConvertingReLU{Shift: plan.Shift})
    l1 := layer("linear1", r1, analog.Linear{Units: 125, System: sys,
        NumSends: plan.NumSends[1], InputMeanSquare: plan.InputMeanSquare[1]}, 256)
    r2 := layer("relu2", l1, analog.ConvertingReLU{Shift: plan.Shift})
    l2 := layer("linear2", r2, analog.Linear{Units: 6, System: sys,
        NumSends: plan.NumSends[2], InputMeanSquare: plan.InputMeanSquare[2],
        InitStd: plan.LogitStd, OutputScale: plan.LogitScale})
    return &hxtorch.HARNet{Net: net, Input: in, Out: net.Probe("out", l2, ""),
        Layers: []*toolkit.Node{conv, l1, l2}}
}

// the network's graph (with sys = nil: the ideal float operations)
viz.ModelGraph(buildHAR(nil).Net, viz.GraphOptions{})
"""),
("markdown", r"""
## (a) Training in software

Software training runs the layers on `analog.MockConfig()`, hxtorch's mock model of the chip: inputs and weights quantised, the ideal gain, the 8-bit digitisation and 2 LSB of Gaussian noise on every output, but no fixed pattern. Only the layers' kernels are trained (`TrainLayersOnly`); `CompileHAR` sets up Adam with a learning rate decaying from 0.03 to 0 on a cosine, weights clamped to ±63 after every step, and cross-entropy on the logits. Minibatches of 32.
"""),
("code", r"""
mock, err := analog.New(analog.MockConfig())
if err != nil {
    panic(err)
}
sw := buildHAR(mock)
swModel, err := train.New(sw.Net)
if err != nil {
    panic(err)
}
if err := hxtorch.TrainLayersOnly(swModel, sw); err != nil {
    panic(err)
}
const minibatch = 32
perEpoch := (x.N + minibatch - 1) / minibatch
if err := hxtorch.CompileHAR(swModel, sw, 0.03, epochs*perEpoch); err != nil {
    panic(err)
}
history, err := swModel.Fit(
    map[*toolkit.Node]*train.Array{sw.Input: x}, map[*toolkit.Probe]*train.Array{sw.Out: y},
    train.FitOptions{Epochs: epochs, BatchSize: minibatch, Seed: int64(seed),
        Callbacks: []train.Callback{notebook.NewProgress(os.Stdout)}})
if err != nil {
    panic(err)
}
softwareStage, err := hxtorch.EvalHAR("software (mock: quantised, noise)", swModel, sw, tx, ty)
if err != nil {
    panic(err)
}
fmt.Printf("test accuracy after %d epochs in software: %.1f %%\n",
    epochs, 100*softwareStage.Accuracy)
viz.TrainingHistory([]viz.Metric{
    {Name: "loss", Train: history.Series("loss")},
    {Name: "accuracy", Train: history.Series("out_sparse_categorical_accuracy")},
}, viz.Frame{Title: "Software training (training windows, per epoch)"})
"""),
("markdown", r"""
## (b) The same weights on the emulated chip

`analog.ChipConfig(chip_seed)` draws an emulated chip: the mock model plus what a real chip adds — every synapse-array column has its own gain (10 % spread) and offset (2 LSB spread), fixed for the chip, and the membrane saturates softly (v → S·tanh(v/S), S = 160 LSB) before the 8-bit clamp. The left panel shows the fixed pattern of the chip's two synapse arrays (256 columns each), the right one the saturation against the ideal linear response. The chip is left uncalibrated, as in the paper.
"""),
("code", r"""
chip, err := analog.New(analog.ChipConfig(int64(chip_seed)))
if err != nil {
    panic(err)
}
var colGain, colOffset []float64
for a := range chip.Arrays() {
    g, o, err := chip.FixedPattern(a)
    if err != nil {
        panic(err)
    }
    colGain, colOffset = append(colGain, g...), append(colOffset, o...)
}
columns := viz.Series{Label: "columns of both arrays", X: colGain, Y: colOffset}
gainOffset, err := viz.Scatter([]viz.Series{columns},
    viz.LineOptions{Frame: viz.Frame{Title: "Fixed pattern per column", XLabel: "relative gain",
        YLabel: "offset (LSB)", Width: 420, Height: 320}})
if err != nil {
    panic(err)
}
sat := chip.Config().Saturation
var vIdeal, vLinear, vChip []float64
for v := -300.0; v <= 300; v += 5 {
    vIdeal = append(vIdeal, v)
    vLinear = append(vLinear, math.Max(-128, math.Min(127, v)))
    vChip = append(vChip, math.Max(-128, math.Min(127, sat*math.Tanh(v/sat))))
}
saturation, err := viz.Line([]viz.Series{
    {Label: "linear, 8-bit clamp (mock)", X: vIdeal, Y: vLinear, Dashed: true},
    {Label: fmt.Sprintf("chip: %.0f·tanh(v/%.0f), clamp", sat, sat), X: vIdeal, Y: vChip},
}, viz.LineOptions{Frame: viz.Frame{Title: "Saturation", XLabel: "ideal result v (LSB)",
    YLabel: "digitised result (LSB)", Width: 420, Height: 320}})
if err != nil {
    panic(err)
}
viz.Grid([]*viz.Plot{gainOffset, saturation}, viz.GridOptions{Cols: 2,
    Frame: viz.Frame{Title: fmt.Sprintf("The emulated chip (chip_seed %d)", chip_seed)}})
"""),
("markdown", r"""
The network is built a second time with its layers on the chip, and the trained weights are copied over (`sim.WithParams`). Nothing is retrained: the drop in accuracy is what the chip's deviations from the mock cost.
"""),
("code", r"""
hw := buildHAR(chip)
hwModel, err := train.New(hw.Net, sim.WithParams(swModel.Params()))
if err != nil {
    panic(err)
}
if err := hxtorch.TrainLayersOnly(hwModel, hw); err != nil {
    panic(err)
}
if err := hxtorch.CompileHAR(hwModel, hw, 0.003, hil_epochs*perEpoch); err != nil {
    panic(err)
}
chipStage, err := hxtorch.EvalHAR("emulated chip, no retraining", hwModel, hw, tx, ty)
if err != nil {
    panic(err)
}
fmt.Printf("test accuracy: software %.1f %%, same weights on the chip %.1f %%\n",
    100*softwareStage.Accuracy, 100*chipStage.Accuracy)
"""),
("markdown", r"""
## (c) Hardware-in-the-loop training

Training continues on the chip model: the forward pass runs on the emulated chip, so the loss sees the chip's real outputs, and the backward pass goes through the software model (straight through, scaled by gain·num_sends). The learning rate starts at 0.003, a tenth of the software rate, and decays to 0 over `hil_epochs`.
"""),
("code", r"""
_, err = hwModel.Fit(
    map[*toolkit.Node]*train.Array{hw.Input: x}, map[*toolkit.Probe]*train.Array{hw.Out: y},
    train.FitOptions{Epochs: hil_epochs, BatchSize: minibatch, Seed: int64(seed) + 7,
        Callbacks: []train.Callback{notebook.NewProgress(os.Stdout)}})
if err != nil {
    panic(err)
}
hilStage, err := hxtorch.EvalHAR("emulated chip, hardware-in-the-loop training",
    hwModel, hw, tx, ty)
if err != nil {
    panic(err)
}
fmt.Printf("test accuracy after %d epoch(s) with the hardware in the loop: %.1f %%\n",
    hil_epochs, 100*hilStage.Accuracy)
"""),
("markdown", r"""
## Evaluation: Fig. 9

Test accuracy and recall per class (the fraction of each true activity classified correctly) for the three stages, then their confusion matrices, each row normalised to the windows of one true activity: (a) software, (b) the same weights on the chip, (c) after hardware-in-the-loop training.

Read the matrices along their rows. On the synthetic data at the default size, lying is recognised almost perfectly (gravity on its own axis); almost all errors stay within two blocks — the three walking activities among themselves, sitting against standing — and at most 1 or 2 % of a row crosses from a moving to a static activity. The chip's fixed pattern moves windows within those blocks (at the defaults mostly standing taken for sitting and walking upstairs taken for walking), and the hardware-in-the-loop epoch moves most of them back. The printed accuracies say how much, for the parameters of this run.
"""),
("code", r"""
stages := []hxtorch.HARStage{softwareStage, chipStage, hilStage}
fmt.Printf("%-46s %8s  recall %v\n", "stage", "accuracy", short)
for _, s := range stages {
    fmt.Printf("%-46s %7.1f %%  ", s.Name, 100*s.Accuracy)
    for _, r := range s.Recall {
        fmt.Printf(" %.2f", r)
    }
    fmt.Println()
}
var confusion []*viz.Plot
panelNames := []string{"software", "chip, no retraining", "chip, hardware in the loop"}
for i, s := range stages {
    s.Name = panelNames[i]
    p, err := hxtorch.HARConfusion(string(rune('a'+i)), s, trainSet.Classes, trainSet.Synthetic)
    if err != nil {
        panic(err)
    }
    confusion = append(confusion, p)
}
viz.Grid(confusion, viz.GridOptions{Cols: 3, ShareScale: true})
"""),
("markdown", r"""
## Full size

The same experiment from a shell, at the paper's size (all 7352 training and 2947 test windows, 50 software epochs, one hardware-in-the-loop epoch), writing the figures and a JSON summary to `repro-out/har-analog`:

```
bin/neurogo repro har-analog                      # $NEUROGO_HAR if set, else synthetic
bin/neurogo repro har-analog --data "/path/UCI HAR Dataset"
```

`--quick` runs 2000/1000 windows for 5 epochs; `--train`, `--test`, `--epochs`, `--hil-epochs`, `--chip-seed` and the chip's `--gain-spread`, `--offset-spread`, `--saturation` and `--noise` change the rest (`bin/neurogo repro` lists them). `hxtorch.HAR(hxtorch.HAROptions{...})` runs the same steps as this notebook in one call; with the same sizes and seeds (`--synthetic --train 3000 --test 1000 --epochs 10` for the defaults here) it gives the same accuracies.
"""),
("code", r"""
for _, s := range stages {
    n := 0
    for _, row := range s.Confusion {
        for _, c := range row {
            n += c
        }
    }
    if n != testSet.Len() {
        panic(fmt.Sprintf("%s: confusion holds %d windows, want %d", s.Name, n, testSet.Len()))
    }
}
if softwareStage.Accuracy < 0.4 {
    panic(fmt.Sprintf("software accuracy %.3f: the model did not learn", softwareStage.Accuracy))
}
fmt.Println("ok")
""", CHECK),
])

for name, n in [("07-analog-accelerator.ipynb", nb07), ("08-har-analog.ipynb", nb08)]:
    write(name, n)
