// Package accel holds neurogo's emulated analog accelerator, BrainScaleS-2
// in PyTorch via hxtorch as described in "hxtorch: PyTorch for BrainScaleS-2
// — Perceptrons on Analog Neuromorphic Hardware" (Spilger et al., 2020), in
// two packages:
//
//   - accel/analog: the chip's matrix-multiplication mode (5-bit inputs,
//     6-bit signed weights, 8-bit results, noise, fixed pattern,
//     saturation), partitioning onto synapse arrays and chips,
//     calibration, the JIT pipeline, analog layers (Linear, Conv1d,
//     Conv2d, ExpandedConv1d, ReLU, ConvertingReLU) for training with the
//     hardware in the loop, and a sim.Backend that runs a model's dense
//     products and layer nodes on the emulated chip;
//   - accel/jit: the just-in-time execution graph (instances of
//     preprocess → build → execute → postprocess, overlapping on host
//     goroutines) and its traces.
//
// The paper's measurements — Fig. 8 (`neurogo bench accel`) and the
// human-activity-recognition experiment of §4.2 and Fig. 9 (`neurogo
// repro har-analog`) — live above the library in package repro/hxtorch,
// an application package that ties analog to train and draws the
// figures with viz. Nothing under accel imports viz or display.
package accel
