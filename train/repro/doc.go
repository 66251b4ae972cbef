// Package repro reproduces the paper figures of the seed documents as
// functions that the `neurogo repro NAME` command and the notebooks call:
//
//   - spiking-mnist (seed 000 §5.2.1): SpikingMNIST trains MNISTNet, a
//     convolutional network with LIF neuron layers, with rate neurons
//     (SoftLIFRate) and tests it with rate and spiking neurons.
//
// Each takes an options struct whose zero value is the paper's setting
// and smaller values (fewer examples, epochs) for quick runs.
package repro
