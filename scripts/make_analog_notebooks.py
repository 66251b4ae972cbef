# Generates notebooks/07-08 (the emulated analog accelerator, seed 002) from
# their sources here: python3 scripts/make_analog_notebooks.py
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nbgen import P, nb, write

nb07 = nb([
("markdown", r"""
# An emulated analog accelerator (BrainScaleS-2)

Seed 002 integrates BrainScaleS-2, an analog neuromorphic chip, into PyTorch (hxtorch): its synapse arrays multiply a 5-bit input vector with a matrix of 6-bit signed weights in one analog step, `xᵀW = y`, and digitise 8-bit results. No chip is attached here, so `accel/analog` emulates one — the arithmetic of the matrix-multiplication mode, its trial-to-trial noise, each column's fixed-pattern gain and offset, the membrane's saturation — behind the same interfaces a real chip would sit behind.

This notebook shows the model, the partitioning of large matrices onto the chip's synapse arrays (§3.3, Fig. 6), calibration, the just-in-time execution graph with its timing (§3.2, Fig. 5), the MAC-rate measurements of Fig. 8, and a Nengo model running on the emulated chip as a `sim.Backend`. The next cell is tagged `parameters`.
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

    "github.com/neurogo/neurogo/accel/analog"
    accrepro "github.com/neurogo/neurogo/accel/repro"
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
viz.Scatter([]viz.Series{{X: ideal, Y: y, Label: "emulated chip (uncalibrated)"}}, viz.LineOptions{Frame: viz.Frame{Title: "Measured vs ideal", XLabel: "gain · Σ x·w (LSB)", YLabel: "8-bit result (LSB)"}})
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
    fmt.Printf("%5d²: %d tiles in %d runs on %d arrays, utilisation %.1f %%, configuration %d bytes\n", n, len(p.Tiles), p.Runs, p.Arrays, 100*p.Utilisation(), p.ConfigBytes())
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
fmt.Printf("gain %.5f (configured %.5f), noise %.2f LSB, saturation %.0f LSB, fit residual %.2f LSB\n", cal.Gain, analog.DefaultGain, cal.Noise, cal.Saturation, cal.Residual)
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
fmt.Printf("RMS deviation from the ideal: %.2f LSB uncalibrated, %.2f LSB calibrated (noise alone: %.2f)\n", before, after, cal.Noise)
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
fmt.Printf("%d instances in %.1f ms; stage sums: preprocess %.1f ms, build %.1f ms, execute %.1f ms, postprocess %.1f ms; chip busy %.0f %%\n",
    st.Instances, st.Wall.Seconds()*1e3, st.Preprocess.Seconds()*1e3, st.Build.Seconds()*1e3, st.Execute.Seconds()*1e3, st.Postprocess.Seconds()*1e3, 100*st.Trace.Utilisation(0))
gantt, err := st.Trace.Plot("JIT execution of a 1024² matmul (batch 1024)")
if err != nil {
    panic(err)
}
viz.FromGonum(gantt, viz.Frame{Width: 720, Height: 300})
"""),
("markdown", r"""
## MAC rates (Fig. 8)

`BenchAccel` (also `neurogo bench accel`) measures, in one run, this machine's float32 GEMM, the pipeline with a fast mock communication partner (the software overhead alone, as the paper's simulated partner) and the pipeline with the emulated chip computing — against matrix size at a fixed batch and against batch size at 256². The dashed lines are what the link model gives a real setup: all configuration and data through the 1 Gbit/s host link or the 8 Gbit/s chip I/O.
"""),
("code", r"""
brows, err := accrepro.BenchAccel(accrepro.AccelBenchOptions{MaxLog2: max_log2, EmulatedMaxLog2: emulated_log2, Batch: bench_batch, MaxBatchLog2: max_batch_log2, MinSeconds: bench_seconds})
if err != nil {
    panic(err)
}
bySize, byBatch, err := accrepro.AccelFigures(brows)
if err != nil {
    panic(err)
}
summary := accrepro.SummarizeAccel(brows)
fmt.Printf("overhead-only pipeline, matrices ≥ one chip: ≥ %.2f of float32 GEMM; 256²: configuration = data at batch %.0f (volume model), %.0f (measured)\n",
    summary.MinFractionOneChip, summary.ModelCrossoverBatch, summary.MeasuredCrossoverBatch)
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
    fmt.Printf("  %-45s %3d×%-3d on chip %v, num_sends %d\n", pl.Tag, pl.Rows, pl.Cols, pl.OnChip, pl.NumSends)
}
viz.Line([]viz.Series{{X: tt, Y: yc, Label: "CPU"}, {X: tt, Y: ya, Label: "emulated chip"}}, viz.LineOptions{Frame: viz.Frame{Title: "Communication channel", XLabel: "time (s)", YLabel: "decoded b"}})
"""),
("markdown", "## Checks"),
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
"""),
])

nb08 = nb([
("markdown", r"""
# Human activity recognition on the emulated chip (seed 002 §4.2, Fig. 9)

The paper's application: a 1-d convolution and two dense layers classify six activities (walking, up and down stairs, sitting, standing, lying) from 2.56 s windows of a waist-worn phone's nine inertial channels. The model (Table 1) is trained in software for 50 epochs with inputs and weights quantised to the chip's ranges and Gaussian noise on every layer's output (a); the same weights then run on the chip without retraining (b); one epoch of hardware-in-the-loop training — forward on the chip, backward through the software model — recovers most of the loss (c).

**Data.** UCI HAR cannot be installed on this machine. `data.HAR(dir)` reads the real set when you point it at one (`$NEUROGO_HAR`); otherwise the notebook uses `data.SyntheticHAR`, a deterministic generator with the real layout (30 subjects, 50 Hz, 7352/2947 windows) — every figure below says "synthetic" then. The next cell is tagged `parameters`; the defaults are the paper's full run (about a minute per ten epochs).
"""),
("code", r"""
// Parameters (papermill / neurogo run -p NAME VALUE)
var train_windows = 0  // 0: all 7352
var test_windows = 0   // 0: all 2947
var epochs = 50
var hil_epochs = 1
var seed = 0
var chip_seed = 1
""", P),
("code", r"""
import (
    "fmt"
    "os"

    accrepro "github.com/neurogo/neurogo/accel/repro"
    "github.com/neurogo/neurogo/train"
)

res, err := accrepro.HAR(accrepro.HAROptions{Train: train_windows, Test: test_windows, Epochs: epochs, HILEpochs: hil_epochs,
    Seed: int64(seed), ChipSeed: int64(chip_seed), Log: os.Stdout, Callbacks: []train.Callback{train.NewProgress(os.Stdout)}})
if err != nil {
    panic(err)
}
fmt.Printf("synthetic data: %v; num_sends per layer %v\n", res.Synthetic, res.Plan.NumSends)
a, b, c, err := res.Figures()
if err != nil {
    panic(err)
}
a
"""),
("markdown", "(b) the same weights on the emulated chip — fixed-pattern column gains and offsets, saturation, no calibration:"),
("code", "b"),
("markdown", "(c) after hardware-in-the-loop training:"),
("code", "c"),
("code", r"""
for _, s := range []accrepro.HARStage{res.Software, res.Chip, res.HIL} {
    fmt.Printf("%-48s %.1f %%  recall", s.Name, 100*s.Accuracy)
    for _, r := range s.Recall {
        fmt.Printf(" %.2f", r)
    }
    fmt.Println()
}
"""),
("markdown", "## Checks"),
("code", r"""
if res.Software.Accuracy < 0.4 {
    panic(fmt.Sprintf("software accuracy %.3f: the model did not learn", res.Software.Accuracy))
}
fmt.Println("ok")
"""),
])

for name, n in [("07-analog-accelerator.ipynb", nb07), ("08-har-analog.ipynb", nb08)]:
    write(name, n)
