// Package notebook connects neurogo's library layers to the notebook
// front end. It sits above train and viz and below the cells that use
// it: the library layers (toolkit, sim, train, accel) never import viz
// or display, and viz never imports display; what must reach a notebook
// while a loop runs goes through this package.
//
//   - Progress: train's progress bar (train.Progress) shown live inside
//     a kernel, through train.ProgressView: as widgets (a bar, the
//     epochs, a loss plot) in one display with an HTML bar beside them,
//     which front ends without Jupyter widgets show instead; outside a
//     kernel it writes the same lines as train.Progress.
//   - Explore: a model running in the background, in real time, with its
//     inputs bound to sliders (Slider) and its spikes and decoded values
//     drawn live (at up to 20 frames per second) with pause, resume and
//     reset buttons, as Nengo GUI does.
//   - Live: a viz plot shown once and then updated in place (display
//     updates, at most 10 per second) during a simulation or a training
//     run; a cheap no-op outside a kernel.
//   - LivePlot and HistoryPlot: the training history (train.History)
//     redrawn after every epoch, and drawn once.
//   - TCMPlot, AccuracyPlot, ResponseTimePlot: the plots of
//     train/timeres's time-resolved evaluation (the statestream paper's
//     temporal confusion matrices, Fig. 3b's accuracy over delay, and
//     response-time distributions).
//
// Explorers are kept in a process-wide table by ID, the one piece of
// package-level state here: a cell that is run again replaces its
// explorer, and the old one stops, since nothing else can reach it.
//
// Every function works outside a kernel too (tests, command-line
// programs): live outputs then do nothing, or fall back to text.
//
//	hist, err := m.Fit(x, y, train.FitOptions{Epochs: 10, BatchSize: 32,
//		Callbacks: []train.Callback{notebook.NewProgress(os.Stdout), &notebook.LivePlot{}}})
//	...
//	notebook.HistoryPlot(hist, "loss") // the last expression of a cell shows the plot
package notebook
