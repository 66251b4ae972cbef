package notebook

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/widgets"
)

// Progress is train's progress bar (train.Progress: Keras-style lines
// written to W) that, inside a notebook kernel, shows itself live instead,
// updated at most once per Interval. In a kernel it is shown as Jupyter
// widgets — a progress bar over the whole run, the current epoch's
// status, the finished epochs' lines and a live plot of the loss per batch
// (and of val_loss at the epochs' ends) — in one display output that also
// carries an HTML bar and the epochs' lines as text, so that every front
// end shows what it can:
//
//   - front ends that draw widgets (JupyterLab 4 and others with
//     ipywidgets 8's widget manager) show the widgets, which update
//     through their comms;
//   - front ends without a widget manager close the widgets' comms; the
//     bar then falls back to the HTML form, updated in place;
//   - headless runs (papermill, nbclient, neurogo run) and renderers of
//     saved notebooks without widget state show the HTML bar, which is
//     brought up to date when training ends.
//
// With HTML set, only the HTML bar is shown. Outside a kernel Progress
// behaves exactly as train.Progress.
//
//	hist, err := m.Fit(x, y, train.FitOptions{Epochs: 10, BatchSize: 32,
//		Callbacks: []train.Callback{notebook.NewProgress(os.Stdout)}})
type Progress struct {
	train.Progress        // W and Interval; View is set by OnTrainBegin
	ID             string // display id in a notebook (default "neurogo-fit")
	// HTML shows only the HTML bar, never the widgets.
	HTML bool

	shown bool
	w     *progressWidgets // nil: HTML only (or outside a kernel)
	html  display.Value    // the HTML bar and text of the latest update
}

// NewProgress returns a progress bar that is shown live in a notebook
// and writes to w outside a kernel (nil: nothing is written there).
func NewProgress(w io.Writer) *Progress {
	p := &Progress{}
	p.W = w
	return p
}

// OnTrainBegin starts a new bar (a new display output) for a Fit run.
func (p *Progress) OnTrainBegin(m *train.Model, info train.FitInfo) error {
	if p.ID == "" {
		p.ID = "neurogo-fit"
	}
	p.shown = false
	p.w = nil
	p.html = display.Value{}
	if !p.HTML && display.Active() {
		p.w = newProgressWidgets(info)
	}
	p.View = progressView{p}
	return p.Progress.OnTrainBegin(m, info)
}

// OnBatchEnd records the batch's loss for the widgets' plot.
func (p *Progress) OnBatchEnd(m *train.Model, epoch, batch int, logs train.Logs) error {
	if p.w != nil {
		if v, ok := logs["loss"]; ok {
			p.w.addLoss(epoch, batch, v)
		}
	}
	return p.Progress.OnBatchEnd(m, epoch, batch, logs)
}

// OnEpochEnd records the epoch's validation loss for the widgets' plot.
func (p *Progress) OnEpochEnd(m *train.Model, epoch int, logs train.Logs) error {
	if p.w != nil {
		if v, ok := logs["val_loss"]; ok {
			p.w.addValLoss(epoch, v)
		}
	}
	return p.Progress.OnEpochEnd(m, epoch, logs)
}

// OnTrainEnd leaves the widgets' final state and brings the HTML bar and
// text beside them up to date (what a notebook saved without widget
// state, or a front end without widgets, shows).
func (p *Progress) OnTrainEnd(m *train.Model, h *train.History) error {
	if p.w != nil && p.shown && !p.w.refused() {
		return display.Update(p.ID, p.w.value(p.html))
	}
	return p.Progress.OnTrainEnd(m, h)
}

// progressView shows the updates of a Progress in a notebook.
type progressView struct{ p *Progress }

func (v progressView) ShowProgress(u train.ProgressUpdate) (bool, error) {
	if !display.Active() {
		return false, nil
	}
	p := v.p
	p.html = htmlBar(u)
	if w := p.w; w != nil {
		if !w.refused() {
			w.show(u)
			if !p.shown {
				p.shown = true
				return true, display.Show(p.ID, w.value(p.html))
			}
			return true, nil
		}
		// The front end closed the widgets' comms: it has no widget
		// manager, and shows the HTML bar of the display instead.
	}
	if !p.shown {
		p.shown = true
		return true, display.Show(p.ID, p.html)
	}
	return true, display.Update(p.ID, p.html)
}

// htmlBar is the HTML form of an update: the finished epochs as lines,
// the current one as a bar with its status; and the same as text.
func htmlBar(u train.ProgressUpdate) display.Value {
	var b strings.Builder
	b.WriteString(`<div style="font-family:monospace;font-size:12px">`)
	for _, h := range u.Finished {
		if u.EpochEnd && h == u.Finished[len(u.Finished)-1] {
			break
		}
		fmt.Fprintf(&b, "<div>%s</div>", html.EscapeString(h))
	}
	lines := append([]string(nil), u.Finished...)
	if !u.EpochEnd || len(lines) == 0 { // at an epoch's end its line is the last finished one
		lines = append(lines, u.Line)
	}
	pct := 100 * u.Done / max(u.Batches, 1)
	fmt.Fprintf(&b, `<div>Epoch %d/%d <progress value="%d" max="100" style="width:30ex"></progress> %s</div></div>`,
		u.Epoch, u.Epochs, pct, html.EscapeString(u.Status))
	return display.Value{Data: map[string]any{
		display.MIMEHTML: b.String(),
		display.MIMEText: strings.Join(lines, "\n"),
	}}
}

// progressWidgets is the widget form of a Progress: a bar over the whole
// run, a label with the current epoch's status, a label per finished
// epoch and the loss plot.
type progressWidgets struct {
	info     train.FitInfo
	bar      *widgets.Progress
	status   *widgets.Label
	finished *widgets.Box
	image    *widgets.Image
	box      *widgets.Box
	noView   bool // shown without a widget view (the kernel has no comms)
	nDone    int  // finished epochs shown as labels

	lossX, loss []float64 // batch index (from 1) and loss
	valX, val   []float64 // epoch end and validation loss
	plotted     int       // len(loss)+len(val) when last drawn
}

// Loss plot size, pixels.
const lossW, lossH = 420, 180

func newProgressWidgets(info train.FitInfo) *progressWidgets {
	w := &progressWidgets{info: info}
	w.bar = widgets.NewProgress(0, 1)
	w.status = widgets.NewLabel("")
	w.finished = widgets.VBox()
	w.image = widgets.NewImage()
	w.image.SetSize(fmt.Sprintf("%dpx", lossW), fmt.Sprintf("%dpx", lossH))
	w.box = widgets.VBox(w.finished, widgets.HBox(w.bar, w.status), w.image)
	return w
}

// value is the display value: the widgets, and beside them the HTML bar
// and text of the latest update (html) for front ends and renderers that
// cannot draw the widgets.
func (w *progressWidgets) value(html display.Value) display.Value {
	b := w.box.MIMEBundle()
	if b[widgets.ViewMIME] == nil {
		w.noView = true
	}
	for k, v := range html.Data {
		b[k] = v
	}
	return display.Value{Data: b}
}

// refused reports whether the widgets cannot be drawn: the front end
// closed their comms, as a front end without a widget manager does with
// every widget comm, or the kernel has no comms for them.
func (w *progressWidgets) refused() bool { return w.noView || w.bar.Closed() }

func (w *progressWidgets) addLoss(epoch, batch int, v float64) {
	w.lossX = append(w.lossX, float64(epoch*max(w.info.Batches, 1)+batch+1))
	w.loss = append(w.loss, v)
}

func (w *progressWidgets) addValLoss(epoch int, v float64) {
	w.valX = append(w.valX, float64((epoch+1)*max(w.info.Batches, 1)))
	w.val = append(w.val, v)
}

func (w *progressWidgets) show(u train.ProgressUpdate) {
	total := max(u.Epochs, 1)
	w.bar.SetValue((float64(u.Epoch-1) + float64(u.Done)/float64(max(u.Batches, 1))) / float64(total))
	w.bar.SetDescription(fmt.Sprintf("Epoch %d/%d", u.Epoch, u.Epochs))
	w.status.SetValue(fmt.Sprintf("%d/%d %s", u.Done, u.Batches, u.Status))
	if n := len(u.Finished); n > w.nDone {
		kids := w.finished.Children()
		for _, l := range u.Finished[w.nDone:] {
			kids = append(kids, widgets.NewLabel(l))
		}
		w.finished.SetChildren(kids...)
		w.nDone = n
	}
	if u.EpochEnd && u.Epoch == u.Epochs {
		w.bar.SetBarStyle("success")
	}
	if n := len(w.loss) + len(w.val); n != w.plotted {
		w.plotted = n
		if b, err := w.plot(); err == nil {
			w.image.SetPNG(b)
		}
	}
}

// plot draws the loss per batch (and val_loss per epoch) over the run.
func (w *progressWidgets) plot() ([]byte, error) {
	hi := 0.0
	for _, v := range append(append([]float64(nil), w.loss...), w.val...) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			hi = math.Max(hi, v)
		}
	}
	if hi == 0 {
		hi = 1
	}
	total := float64(max(w.info.Epochs, 1) * max(w.info.Batches, 1))
	labels := []string{"loss"}
	data := frameData{now: total, lines: []lineData{{t: w.lossX, v: w.loss, dims: 1}}}
	if len(w.val) > 0 {
		labels = append(labels, "val_loss")
		data.lines = append(data.lines, lineData{t: w.valX, v: w.val, dims: 1})
	}
	var ticks []xTick
	epochs := max(w.info.Epochs, 1)
	every := max(1, (epochs+5)/6)
	for e := 0; e <= epochs; e += every {
		ticks = append(ticks, xTick{float64(e) / float64(epochs), fmt.Sprint(e)})
	}
	ticks[0].label = "epoch 0"
	f := newFrame(frameSpec{w: lossW, h: lossH, window: total, lineTitle: "training",
		lineLabels: labels, yLo: 0, yHi: hi * 1.05, xTicks: ticks})
	b, err := f.render(&data)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), b...), nil
}
