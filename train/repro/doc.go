// Package repro reproduces the paper figures of the seed documents as
// functions that the `neurogo repro NAME` command and the notebooks call:
//
//   - spiking-mnist (seed 000 §5.2.1): SpikingMNIST trains MNISTNet, a
//     convolutional network with LIF neuron layers, with rate neurons
//     (LIFRate forward, SoftLIFRate derivative) and tests it with rate and
//     spiking neurons; Figures draws the history, the accuracy against
//     time since onset and the confusion matrices.
//   - spa-memory (seed 000 Fig. 9): SPAMemory trains SPAMemoryNet, a
//     circular-convolution memory, on NewSPAData trials and reports
//     retrieval accuracy before and after training per number of neurons
//     per dimension, with 95 % intervals over seeds (Figure).
//
// Each takes an options struct whose zero value is the paper's setting
// and smaller values (fewer examples, epochs) for quick runs. All stop on
// the process's interrupt flag (package interrupt) — through Fit, Predict
// and sim.Build, and between their own points and frames — with an error
// wrapping interrupt.ErrInterrupted and what was done so far (an
// interrupted SPA point is not kept in CellDir).
package repro
