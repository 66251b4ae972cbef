package train_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/optim"
)

// view records the updates offered to it and claims them when show is true.
type view struct {
	show    bool
	updates []train.ProgressUpdate
}

func (v *view) ShowProgress(u train.ProgressUpdate) (bool, error) {
	v.updates = append(v.updates, u)
	return v.show, nil
}

// TestProgressView: a view that shows an update keeps it from W; one that
// does not leaves W's lines as they are without a view.
func TestProgressView(t *testing.T) {
	f := newFixture(6, relu())
	x, y := f.data(t, 10)
	for _, show := range []bool{false, true} {
		var buf bytes.Buffer
		v := &view{show: show}
		p := train.NewProgress(&buf)
		p.View = v
		m := f.model(t, &optim.Adam{LR: 0.01})
		if _, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 4, Callbacks: []train.Callback{p}}); err != nil {
			t.Fatal(err)
		}
		if show != (buf.Len() == 0) {
			t.Errorf("view shows %v: W got %q", show, buf.String())
		}
		if len(v.updates) < 2 {
			t.Fatalf("view shows %v: %d updates", show, len(v.updates))
		}
		u := v.updates[len(v.updates)-1]
		if !u.EpochEnd || u.Epoch != 2 || u.Epochs != 2 || u.Done != u.Batches || u.Batches != 3 ||
			len(u.Finished) != 2 || u.Finished[1] != u.Line || !strings.HasSuffix(u.Line, u.Status) ||
			!strings.HasPrefix(u.Line, "Epoch 2/2 3/3 [") {
			t.Errorf("view shows %v: last update %+v", show, u)
		}
		if !show && !strings.Contains(buf.String(), u.Line+"\n") {
			t.Errorf("W %q lacks the last line %q", buf.String(), u.Line)
		}
	}
}
