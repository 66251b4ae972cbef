package train

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
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

// Progress is the progress-bar callback, like Keras's verbose=1: it writes
// a line per update to W (carriage returns within an epoch, a newline at
// each epoch end), at most one update per Interval and always the last
// batch of an epoch. With View set, every update is offered to the view
// first and written to W only when the view did not show it: package
// notebook's Progress sets a view that shows a live HTML bar inside a
// notebook kernel. train itself never talks to a notebook.
type Progress struct {
	W        io.Writer
	Interval time.Duration // minimum time between updates (default 100 ms)
	View     ProgressView  // optional: shows updates elsewhere (nil: W only)

	info    FitInfo
	epoch   int
	start   time.Time
	last    time.Time
	loss    float64
	nLoss   int
	history []string
	now     func() time.Time
}

// ProgressView shows Progress updates somewhere other than a writer (a
// notebook's output that updates in place). ShowProgress reports whether
// it showed u; when it did not (for example outside a kernel), Progress
// writes u.Line to its W.
type ProgressView interface {
	ShowProgress(u ProgressUpdate) (shown bool, err error)
}

// ProgressUpdate is one update of a Progress bar.
type ProgressUpdate struct {
	Epoch, Epochs int // epoch number from 1, and the number of the last epoch
	Done, Batches int // batches done in this epoch, and batches per epoch
	// Line is the text line Progress writes: "Epoch 2/10 13/20
	// [===...] 1.3s ETA 1s - loss 0.012"; Status is its part after the
	// bar (elapsed time, ETA, logs).
	Line, Status string
	// Finished holds the final lines of the epochs ended so far; at the
	// end of an epoch (EpochEnd) its last entry is Line.
	Finished []string
	EpochEnd bool
}

// NewProgress returns a progress bar writing to w (nil: nothing is
// written; a View may still show the updates).
func NewProgress(w io.Writer) *Progress { return &Progress{W: w} }

func (p *Progress) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

func (p *Progress) OnTrainBegin(m *Model, info FitInfo) error {
	p.info = info
	if p.Interval <= 0 {
		p.Interval = 100 * time.Millisecond
	}
	p.history = nil
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
	if p.View != nil {
		_, status, _ := strings.Cut(line, "] ")
		shown, err := p.View.ShowProgress(ProgressUpdate{
			Epoch: p.epoch + 1, Epochs: p.info.Epochs, Done: done, Batches: p.info.Batches,
			Line: line, Status: status, Finished: slices.Clone(p.history), EpochEnd: epochEnd,
		})
		if shown || err != nil {
			return err
		}
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
