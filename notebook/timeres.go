package notebook

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/train/timeres"
	"github.com/neurogo/neurogo/viz"
)

// TCMPlot draws the confusion matrices of m (package train/timeres) at
// the given delays (nil: every delay with samples) side by side, rows normalised to fractions, each
// panel titled with its δt in frames and its accuracy, on one colour
// scale with one colour bar — the temporal confusion matrix of the
// statestream paper, §3.2. classNames may be nil (0, 1, …).
//
// The panels are viz.ConfusionMatrix plots composed with viz.Grid rather
// than viz.TemporalConfusion, whose panel titles give delays in seconds;
// here delays are frames.
func TCMPlot(m *timeres.TCM, classNames []string, delays []int) (*viz.Plot, error) {
	if m == nil {
		return nil, fmt.Errorf("notebook: TCMPlot: nil TCM")
	}
	maxDelay := m.MaxDelay()
	if delays == nil {
		for dt := 0; dt <= maxDelay; dt++ {
			if m.Samples(dt) > 0 {
				delays = append(delays, dt)
			}
		}
		if len(delays) == 0 {
			return nil, fmt.Errorf("notebook: TCMPlot: no samples recorded")
		}
	}
	if len(delays) == 0 {
		return nil, fmt.Errorf("notebook: TCMPlot: delays is empty (nil plots every delay with samples)")
	}
	acc := m.Accuracy()
	panels := make([]*viz.Plot, len(delays))
	for i, dt := range delays {
		if dt < 0 || dt > maxDelay {
			return nil, fmt.Errorf("notebook: TCMPlot: delays[%d] = %d: must be in [0, %d]", i, dt, maxDelay)
		}
		title := fmt.Sprintf("Δt = %d (no samples)", dt)
		if !math.IsNaN(acc[dt]) {
			title = fmt.Sprintf("Δt = %d (%.1f %%)", dt, 100*acc[dt])
		}
		p, err := viz.ConfusionMatrix(m.Counts(dt), classNames, viz.ConfusionOptions{
			Frame:      viz.Frame{Title: title, Width: 300, Height: 280},
			Normalize:  true,
			HideValues: m.Classes() > 6,
		})
		if err != nil {
			return nil, fmt.Errorf("notebook: TCMPlot: Δt = %d: %w", dt, err)
		}
		panels[i] = p
	}
	return viz.Grid(panels, viz.GridOptions{ShareScale: true,
		Frame: viz.Frame{Title: "Confusion matrices over frames since stimulus onset"}})
}

// AccuracyPlot draws accuracy against the delay δt since stimulus onset,
// in frames, one line per curve (with markers up to 20 delays), and the
// chance level dashed when chance > 0 (Fig. 3b of the statestream paper).
// NaN points are left out; a curve must have at least one point.
func AccuracyPlot(curves []timeres.Curve, chance float64) (*viz.Plot, error) {
	if len(curves) == 0 {
		return nil, fmt.Errorf("notebook: AccuracyPlot: no curves")
	}
	if math.IsNaN(chance) || chance < 0 || chance > 1 {
		return nil, fmt.Errorf("notebook: AccuracyPlot: chance = %v: must be in [0, 1] (0 leaves the line out)", chance)
	}
	var series []viz.Series
	last := 0
	for k, c := range curves {
		s := viz.Series{Label: c.Name}
		for dt, a := range c.Accuracy {
			if math.IsNaN(a) {
				continue
			}
			if a < 0 || a > 1 {
				return nil, fmt.Errorf("notebook: AccuracyPlot: curve %d (%q): accuracy[%d] = %v: must be in [0, 1]", k, c.Name, dt, a)
			}
			s.X = append(s.X, float64(dt))
			s.Y = append(s.Y, a)
			last = max(last, dt)
		}
		if len(s.Y) == 0 {
			return nil, fmt.Errorf("notebook: AccuracyPlot: curve %d (%q) has no samples (all NaN)", k, c.Name)
		}
		series = append(series, s)
	}
	if chance > 0 {
		series = append(series, viz.Series{Label: "chance", X: []float64{0, float64(max(last, 1))}, Y: []float64{chance, chance}, Dashed: true})
	}
	return viz.Line(series, viz.LineOptions{Bounds: [2]float64{0, 1}, Frame: viz.Frame{
		Title: "Accuracy over time since stimulus onset", XLabel: "Δt (frames)", YLabel: "accuracy"}})
}

// ResponseTimePlot draws the distribution of per-presentation response
// times in frames, one outline histogram per class (times[class][i], as
// timeres.Tracker.Times gives them; −1 entries, no response, are left out), via
// viz.ResponseTimeHistograms. classNames may be nil.
func ResponseTimePlot(times [][]int, classNames []string) (*viz.Plot, error) {
	f := make([][]float64, len(times))
	lo, hi := math.MaxInt, -1
	for k, ts := range times {
		for _, t := range ts {
			if t >= 0 {
				f[k] = append(f[k], float64(t))
				lo, hi = min(lo, t), max(hi, t)
			}
		}
	}
	opts := viz.HistogramOptions{Bins: 20, // one bin per frame unless that makes over 400
		Frame: viz.Frame{Title: "Response times per presentation", XLabel: "response time (frames since onset)"}}
	if hi >= 0 && hi-lo+1 <= 400 {
		opts.Bins, opts.Step = 0, 1
	}
	p, err := viz.ResponseTimeHistograms(f, classNames, opts)
	if err != nil {
		return nil, fmt.Errorf("notebook: ResponseTimePlot: %w", err)
	}
	return p, nil
}
