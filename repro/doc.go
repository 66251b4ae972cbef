// Package repro reproduces paper figures as functions that the
// `neurogo repro NAME` command and the notebooks call. The papers are
// "NengoDL: Combining deep learning and neuromorphic modelling methods"
// (Daniel Rasmussen, Neuroinformatics, 2019; "the NengoDL paper") and
// "statestream: a toolbox to explore layerwise-parallel deep neural
// networks" (Volker Fischer, 2018; "the statestream paper").
//
//   - spiking-mnist (the NengoDL paper, §5.2.1): SpikingMNIST trains MNISTNet, a
//     convolutional network with LIF neuron layers, with rate neurons
//     (LIFRate forward, SoftLIFRate derivative) and tests it with rate and
//     spiking neurons; Figures draws the history, the accuracy against
//     time since onset and the confusion matrices.
//   - spa-memory (the NengoDL paper, Fig. 9): SPAMemory trains SPAMemoryNet, a
//     circular-convolution memory, on NewSPAData trials and reports
//     retrieval accuracy before and after training per number of neurons
//     per dimension, with 95 % intervals over seeds (Figure).
//   - statestream-2path (the statestream paper, Fig. 3b): StreamTwoPath
//     trains the two-path network of the paper's appendix 6.2 while MNIST
//     images stream in and evaluates it over time.
//
// The notebooks build the same models step by step from the exported
// parts: NewMNISTNet, ImagesArray and Score; NewSPAMemoryNet, NewSPAData,
// CircConv, Retrieval and Summarize.
//
// Each takes an options struct whose zero value is the paper's setting
// and smaller values (fewer examples, epochs) for quick runs. All stop on
// the process's interrupt flag (package interrupt) — through Fit, Predict
// and sim.Build, and between their own points and frames — with an error
// wrapping interrupt.ErrInterrupted and what was done so far (an
// interrupted SPA point is not kept in CellDir).
package repro
