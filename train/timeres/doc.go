// Package timeres evaluates classifiers over time: the time-resolved
// performance measures of layerwise-parallel networks (§3.2 of
// "statestream: a toolbox to explore layerwise-parallel deep neural
// networks", Volker Fischer, 2018, an ICLR 2018 submission — the
// statestream paper below), usable for every neurogo model.
//
// A layerwise-parallel network answers every frame, and a stimulus shown
// at frame t_onset reaches the read-out only after a number of frames set
// by the network's paths. The statestream paper (§3.2) therefore turns any measure
// m(x, y) of a layerwise-sequential network into one of the delay
// δt = t − t_onset:
//
//	m(x_{t_onset}, y_{t_onset+δt})
//
// and defines response times as the delay after which a measure reaches a
// threshold (Fig. 3b: accuracy at chance for the first three frames, then
// the short path, one frame later the deep path).
//
// # What is here
//
//   - TCM, the temporal confusion matrix tCM[δt][label][prediction],
//     accumulated per agent and frame (Add, AddScores) or from a model's
//     per-step scores (FromSteps, FromArray); Accuracy per δt, Counts,
//     Window, Samples, ChanceLevel.
//   - ResponseTime (first δt at which an accuracy curve reaches a
//     threshold), SampleResponseTimes and Tracker (per presentation: the
//     first δt from which the prediction stays correct for k frames).
//   - ShortestPath (frames for information to travel between two
//     neuron-pools of a toolkit/stream.Net, one frame per synapse-pool)
//     and ShortestPathNetwork (steps between two objects of a
//     toolkit.Network, one step per connection with a synapse).
//   - Curve, an accuracy-over-delay curve. The plots of all these are in
//     package notebook (TCMPlot, AccuracyPlot, ResponseTimePlot): timeres
//     itself never imports viz or display.
//
// # Conventions
//
// Delays are in frames (statestream) or simulation steps (neurogo
// models), never seconds. δt = 0 is the onset frame itself: the first
// frame in which the stimulus is present in its input pool, so a network
// whose shortest input→output path has length L can be right at the
// earliest at δt = L. An agent whose label is −1 has no labelled stimulus
// and is skipped. Accuracies are NaN where there are no samples.
//
//	tcm, _ := timeres.New(10, 12)
//	for t := 1; t <= frames; t++ {
//		labels, onsets := driver.Stimulus(t)        // a stream.Labeler
//		tcm.AddScores(labels, onsets, prediction, t) // agents × 10 scores of frame t
//	}
//	acc := tcm.Accuracy()
//	rt, ok := timeres.ResponseTime(acc, 0.9)
package timeres
