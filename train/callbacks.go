package train

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"time"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/viz"
)

// FitInfo describes a Fit run to callbacks.
type FitInfo struct {
	Epochs   int // last epoch number (exclusive), counting InitialEpoch
	Batches  int // per epoch
	Examples int // training examples
	Steps    int // time steps per sequence
	Params   int // trainable parameter arrays
	Values   int // trainable values
}

// Callback observes (and may stop, with Model.StopTraining) a Fit, as
// Keras callbacks and neon's callbacks do. Embed CallbackFuncs to
// implement only some methods, or use CallbackFuncs directly.
type Callback interface {
	OnTrainBegin(m *Model, info FitInfo) error
	OnEpochBegin(m *Model, epoch int) error
	OnBatchEnd(m *Model, epoch, batch int, logs Logs) error
	OnEpochEnd(m *Model, epoch int, logs Logs) error
	OnTrainEnd(m *Model, h *History) error
}

// CallbackFuncs is a Callback made of optional functions (nil: nothing).
type CallbackFuncs struct {
	TrainBegin func(m *Model, info FitInfo) error
	EpochBegin func(m *Model, epoch int) error
	BatchEnd   func(m *Model, epoch, batch int, logs Logs) error
	EpochEnd   func(m *Model, epoch int, logs Logs) error
	TrainEnd   func(m *Model, h *History) error
}

func (c CallbackFuncs) OnTrainBegin(m *Model, info FitInfo) error {
	if c.TrainBegin == nil {
		return nil
	}
	return c.TrainBegin(m, info)
}
func (c CallbackFuncs) OnEpochBegin(m *Model, epoch int) error {
	if c.EpochBegin == nil {
		return nil
	}
	return c.EpochBegin(m, epoch)
}
func (c CallbackFuncs) OnBatchEnd(m *Model, epoch, batch int, logs Logs) error {
	if c.BatchEnd == nil {
		return nil
	}
	return c.BatchEnd(m, epoch, batch, logs)
}
func (c CallbackFuncs) OnEpochEnd(m *Model, epoch int, logs Logs) error {
	if c.EpochEnd == nil {
		return nil
	}
	return c.EpochEnd(m, epoch, logs)
}
func (c CallbackFuncs) OnTrainEnd(m *Model, h *History) error {
	if c.TrainEnd == nil {
		return nil
	}
	return c.TrainEnd(m, h)
}

// Progress is the progress-bar callback: inside a notebook kernel it
// shows an HTML bar updated in place (display updates, at most 10 per
// second); elsewhere it writes a line per update to W (carriage returns
// on a terminal line, a newline at each epoch end), like Keras's verbose=1.
type Progress struct {
	W        io.Writer
	ID       string        // display id in a notebook (default "neurogo-fit")
	Interval time.Duration // minimum time between updates (default 100 ms)

	info    FitInfo
	epoch   int
	start   time.Time
	last    time.Time
	shown   bool
	loss    float64
	nLoss   int
	history []string
	now     func() time.Time
}

// NewProgress returns a progress bar writing to w outside a kernel.
func NewProgress(w io.Writer) *Progress { return &Progress{W: w} }

func (p *Progress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

func (p *Progress) OnTrainBegin(m *Model, info FitInfo) error {
	p.info = info
	if p.ID == "" {
		p.ID = "neurogo-fit"
	}
	if p.Interval <= 0 {
		p.Interval = 100 * time.Millisecond
	}
	p.shown, p.history = false, nil
	return nil
}

func (p *Progress) OnEpochBegin(m *Model, epoch int) error {
	p.epoch, p.start, p.loss, p.nLoss = epoch, p.clock(), 0, 0
	p.last = time.Time{}
	return nil
}

func (p *Progress) OnBatchEnd(m *Model, epoch, batch int, logs Logs) error {
	if v, ok := logs["loss"]; ok {
		p.loss += v
		p.nLoss++
	}
	now := p.clock()
	if !p.last.IsZero() && now.Sub(p.last) < p.Interval && batch+1 < p.info.Batches {
		return nil
	}
	p.last = now
	return p.show(batch+1, fmt.Sprintf("loss %.4g", p.loss/math.Max(1, float64(p.nLoss))), false)
}

func (p *Progress) OnEpochEnd(m *Model, epoch int, logs Logs) error {
	line := p.line(p.info.Batches, logs.String())
	p.history = append(p.history, line)
	return p.show(p.info.Batches, logs.String(), true)
}

func (p *Progress) OnTrainEnd(m *Model, h *History) error { return nil }

func (p *Progress) line(done int, text string) string {
	const width = 30
	total := max(p.info.Batches, 1)
	fill := width * done / total
	el := p.clock().Sub(p.start)
	eta := ""
	if done > 0 && done < total {
		eta = fmt.Sprintf(" ETA %s", (el * time.Duration(total-done) / time.Duration(done)).Round(time.Second))
	}
	return fmt.Sprintf("Epoch %d/%d %d/%d [%s%s] %s%s - %s", p.epoch+1, p.info.Epochs, done, total,
		strings.Repeat("=", fill), strings.Repeat(".", width-fill), el.Round(100*time.Millisecond), eta, text)
}

func (p *Progress) show(done int, text string, epochEnd bool) error {
	line := p.line(done, text)
	if display.Active() {
		var b strings.Builder
		b.WriteString(`<div style="font-family:monospace;font-size:12px">`)
		for _, h := range p.history {
			if epochEnd && h == p.history[len(p.history)-1] {
				break
			}
			fmt.Fprintf(&b, "<div>%s</div>", html.EscapeString(h))
		}
		pct := 100 * done / max(p.info.Batches, 1)
		fmt.Fprintf(&b, `<div>Epoch %d/%d <progress value="%d" max="100" style="width:30ex"></progress> %s</div></div>`,
			p.epoch+1, p.info.Epochs, pct, html.EscapeString(strings.SplitN(line, "] ", 2)[1]))
		v := display.Value{Data: map[string]any{display.MIMEHTML: b.String(), display.MIMEText: strings.Join(append(p.history, line), "\n")}}
		if !p.shown {
			p.shown = true
			return display.Show(p.ID, v)
		}
		return display.Update(p.ID, v)
	}
	if p.W == nil {
		return nil
	}
	end := "\r"
	if epochEnd {
		end = "\n"
	}
	_, err := fmt.Fprintf(p.W, "\r%s%s", line, end)
	return err
}

// LivePlot is a callback that redraws the training history (loss and the
// metrics, training and validation) after every epoch in a notebook, in
// place (viz.Live, viz.TrainingHistory). Keys selects the logs to plot
// (default: every key without the "val_" prefix). Outside a kernel it does
// nothing.
type LivePlot struct {
	ID   string
	Keys []string
	live *viz.Live
	hist *History
}

func (l *LivePlot) OnTrainBegin(m *Model, info FitInfo) error {
	if l.ID == "" {
		l.ID = "neurogo-history"
	}
	l.live, l.hist = viz.NewLive(l.ID), &History{}
	return nil
}
func (l *LivePlot) OnEpochBegin(*Model, int) error          { return nil }
func (l *LivePlot) OnBatchEnd(*Model, int, int, Logs) error { return nil }
func (l *LivePlot) OnEpochEnd(m *Model, epoch int, logs Logs) error {
	l.hist.Epochs = append(l.hist.Epochs, epoch)
	l.hist.Logs = append(l.hist.Logs, logs)
	return l.live.UpdateFunc(func() (*viz.Plot, error) { return HistoryPlot(l.hist, l.Keys...) })
}
func (l *LivePlot) OnTrainEnd(*Model, *History) error { return l.live.Flush() }

// HistoryPlot draws a training history: one panel per key (default every
// logged key without the "val_" prefix), with its validation curve when
// logged.
func HistoryPlot(h *History, keys ...string) (*viz.Plot, error) {
	if h == nil || len(h.Logs) == 0 {
		return nil, fmt.Errorf("train: HistoryPlot: empty history")
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

// EarlyStopping stops Fit when Monitor (default "val_loss", or "loss"
// when there is no validation) has not improved by more than MinDelta for
// Patience epochs (Keras's EarlyStopping); with RestoreBest the
// parameters of the best epoch are restored at the end.
type EarlyStopping struct {
	Monitor     string
	MinDelta    float64
	Patience    int
	Mode        string // "min" (default) or "max"
	RestoreBest bool

	best      float64
	wait      int
	bestVals  map[int][]float64
	StoppedAt int // epoch at which training stopped (-1: not stopped)
}

func (s *EarlyStopping) OnTrainBegin(m *Model, info FitInfo) error {
	if s.Mode != "" && s.Mode != "min" && s.Mode != "max" {
		return fmt.Errorf("train: EarlyStopping: Mode %q: must be \"min\" or \"max\"", s.Mode)
	}
	s.best, s.wait, s.StoppedAt, s.bestVals = math.NaN(), 0, -1, nil
	return nil
}
func (s *EarlyStopping) OnEpochBegin(*Model, int) error          { return nil }
func (s *EarlyStopping) OnBatchEnd(*Model, int, int, Logs) error { return nil }
func (s *EarlyStopping) OnEpochEnd(m *Model, epoch int, logs Logs) error {
	key := s.Monitor
	if key == "" {
		key = "val_loss"
		if _, ok := logs[key]; !ok {
			key = "loss"
		}
	}
	v, ok := logs[key]
	if !ok {
		return fmt.Errorf("train: EarlyStopping: %q is not logged (have %s)", key, strings.Join(logs.Keys(), ", "))
	}
	better := math.IsNaN(s.best) || (s.Mode != "max" && v < s.best-s.MinDelta) || (s.Mode == "max" && v > s.best+s.MinDelta)
	if better {
		s.best, s.wait = v, 0
		if s.RestoreBest {
			s.bestVals = m.snapshot()
		}
		return nil
	}
	s.wait++
	if s.wait >= max(s.Patience, 1) {
		s.StoppedAt = epoch
		m.StopTraining()
	}
	return nil
}
func (s *EarlyStopping) OnTrainEnd(m *Model, h *History) error {
	if s.RestoreBest && s.bestVals != nil {
		m.restore(s.bestVals)
	}
	return nil
}

// Checkpoint saves the parameters and the optimiser state (SaveCheckpoint)
// to Path after every epoch, or with BestOnly only when Monitor (default
// "val_loss", else "loss") improves. "{epoch}" in Path is replaced by the
// epoch number (from 1). A failed or NaN epoch never overwrites the last
// good checkpoint, as Fit stops before the epoch ends.
type Checkpoint struct {
	Path     string
	BestOnly bool
	Monitor  string
	best     float64
	Saved    []string // paths written
}

func (c *Checkpoint) OnTrainBegin(m *Model, info FitInfo) error {
	if c.Path == "" {
		return fmt.Errorf("train: Checkpoint: empty Path")
	}
	c.best = math.NaN()
	return nil
}
func (c *Checkpoint) OnEpochBegin(*Model, int) error          { return nil }
func (c *Checkpoint) OnBatchEnd(*Model, int, int, Logs) error { return nil }
func (c *Checkpoint) OnEpochEnd(m *Model, epoch int, logs Logs) error {
	if c.BestOnly {
		key := c.Monitor
		if key == "" {
			key = "val_loss"
			if _, ok := logs[key]; !ok {
				key = "loss"
			}
		}
		v, ok := logs[key]
		if !ok {
			return fmt.Errorf("train: Checkpoint: %q is not logged", key)
		}
		if !math.IsNaN(c.best) && !(v < c.best) {
			return nil
		}
		c.best = v
	}
	path := strings.ReplaceAll(c.Path, "{epoch}", fmt.Sprint(epoch+1))
	if err := m.SaveCheckpoint(path, epoch+1); err != nil {
		return err
	}
	c.Saved = append(c.Saved, path)
	return nil
}
func (c *Checkpoint) OnTrainEnd(*Model, *History) error { return nil }
