package notebook

import (
	"fmt"
	"math"
	"strings"

	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/viz"
)

// LivePlot is a training callback that redraws the training history
// (loss and the metrics, training and validation) after every epoch in
// a notebook, in place (Live, HistoryPlot). Keys selects the logs to
// plot (default: every key without the "val_" prefix). Outside a kernel
// it does nothing.
type LivePlot struct {
	ID   string // display id (default "neurogo-history")
	Keys []string
	live *Live
	hist *train.History
}

func (l *LivePlot) OnTrainBegin(m *train.Model, info train.FitInfo) error {
	if l.ID == "" {
		l.ID = "neurogo-history"
	}
	l.live, l.hist = NewLive(l.ID), &train.History{}
	return nil
}
func (l *LivePlot) OnEpochBegin(*train.Model, int) error                { return nil }
func (l *LivePlot) OnBatchEnd(*train.Model, int, int, train.Logs) error { return nil }
func (l *LivePlot) OnEpochEnd(m *train.Model, epoch int, logs train.Logs) error {
	l.hist.Epochs = append(l.hist.Epochs, epoch)
	l.hist.Logs = append(l.hist.Logs, logs)
	return l.live.UpdateFunc(func() (*viz.Plot, error) { return HistoryPlot(l.hist, l.Keys...) })
}
func (l *LivePlot) OnTrainEnd(*train.Model, *train.History) error { return l.live.Flush() }

// HistoryPlot draws a training history (viz.TrainingHistory): one panel
// per key (default every logged key without the "val_" prefix), with its
// validation curve when logged.
func HistoryPlot(h *train.History, keys ...string) (*viz.Plot, error) {
	if h == nil || len(h.Logs) == 0 {
		return nil, fmt.Errorf("notebook: HistoryPlot: empty history")
	}
	if len(keys) == 0 {
		for _, k := range h.Keys() {
			if !strings.HasPrefix(k, "val_") {
				keys = append(keys, k)
			}
		}
	}
	var ms []viz.Metric
	for _, k := range keys {
		mt := viz.Metric{Name: k, Train: h.Series(k)}
		if v := h.Series("val_" + k); !allNaN(v) {
			mt.Validation = v
		}
		ms = append(ms, mt)
	}
	return viz.TrainingHistory(ms, viz.Frame{})
}

func allNaN(v []float64) bool {
	for _, x := range v {
		if !math.IsNaN(x) {
			return false
		}
	}
	return true
}
