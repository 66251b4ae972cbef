package notebook

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/neurogo/neurogo/display"
	"github.com/neurogo/neurogo/train"
)

// Progress is train's progress bar (train.Progress: Keras-style lines
// written to W) that, inside a notebook kernel, shows a live HTML bar
// instead, updated in place (display updates, at most one per Interval):
// the finished epochs as lines, the current one as a bar with its
// elapsed time, ETA and logs. Outside a kernel it behaves exactly as
// train.Progress.
//
//	hist, err := m.Fit(x, y, train.FitOptions{Epochs: 10, BatchSize: 32,
//		Callbacks: []train.Callback{notebook.NewProgress(os.Stdout)}})
type Progress struct {
	train.Progress        // W and Interval; View is set by OnTrainBegin
	ID             string // display id in a notebook (default "neurogo-fit")

	shown bool
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
	p.View = progressView{p}
	return p.Progress.OnTrainBegin(m, info)
}

// progressView shows the updates of a Progress as HTML in a notebook.
type progressView struct{ p *Progress }

func (v progressView) ShowProgress(u train.ProgressUpdate) (bool, error) {
	if !display.Active() {
		return false, nil
	}
	var b strings.Builder
	b.WriteString(`<div style="font-family:monospace;font-size:12px">`)
	for _, h := range u.Finished {
		if u.EpochEnd && h == u.Finished[len(u.Finished)-1] {
			break
		}
		fmt.Fprintf(&b, "<div>%s</div>", html.EscapeString(h))
	}
	pct := 100 * u.Done / max(u.Batches, 1)
	fmt.Fprintf(&b, `<div>Epoch %d/%d <progress value="%d" max="100" style="width:30ex"></progress> %s</div></div>`,
		u.Epoch, u.Epochs, pct, html.EscapeString(u.Status))
	val := display.Value{Data: map[string]any{
		display.MIMEHTML: b.String(),
		display.MIMEText: strings.Join(append(u.Finished, u.Line), "\n"),
	}}
	if !v.p.shown {
		v.p.shown = true
		return true, display.Show(v.p.ID, val)
	}
	return true, display.Update(v.p.ID, val)
}
