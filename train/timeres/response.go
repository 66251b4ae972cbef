package timeres

import (
	"fmt"
	"math"
)

// ResponseTime returns the first delay δt at which acc[δt] reaches
// threshold (acc[δt] ≥ threshold), the response time of the statestream paper, §3.2
// read off an accuracy curve such as TCM.Accuracy. NaN entries (no
// samples) never count as reached. ok is false when the curve never
// reaches the threshold or the threshold is NaN.
func ResponseTime(acc []float64, threshold float64) (dt int, ok bool) {
	if math.IsNaN(threshold) {
		return 0, false
	}
	for i, a := range acc {
		if !math.IsNaN(a) && a >= threshold {
			return i, true
		}
	}
	return 0, false
}

// SampleResponseTimes is the per-presentation response time (the
// statestream paper, §3.2, the reaction time of experimental psychology): correct[i][δt]
// tells whether presentation i was classified correctly δt frames after
// its onset, and its response time is the first δt from which it is
// correct for stay ≥ 1 consecutive frames (δt … δt+stay−1), or −1 when
// that never happens within the recorded frames.
func SampleResponseTimes(correct [][]bool, stay int) ([]int, error) {
	if stay < 1 {
		return nil, fmt.Errorf("timeres: SampleResponseTimes: stay = %d: must be ≥ 1 frame", stay)
	}
	out := make([]int, len(correct))
	for i, c := range correct {
		out[i] = -1
		run := 0
		for dt, ok := range c {
			if !ok {
				run = 0
				continue
			}
			run++
			if run == stay {
				out[i] = dt - stay + 1
				break
			}
		}
	}
	return out, nil
}

// Correct returns correct[i][δt] for SampleResponseTimes from a model's
// scores over time, scores[sample][step][class] with the stimulus shown
// from step onset on: whether the argmax of step onset+δt is labels[i].
func Correct(scores [][][]float64, labels []int, onset int) ([][]bool, error) {
	classes, steps, err := checkSteps("Correct", scores, labels, onset)
	if err != nil {
		return nil, err
	}
	out := make([][]bool, len(scores))
	for i, s := range scores {
		out[i] = make([]bool, steps-onset)
		for st := onset; st < steps; st++ {
			p, err := argmax(s[st])
			if err != nil {
				return nil, fmt.Errorf("timeres: Correct: sample %d, step %d: %w", i, st, err)
			}
			out[i][st-onset] = p == labels[i]
		}
	}
	_ = classes
	return out, nil
}

// Tracker measures per-presentation response times online, frame by
// frame, for agents that see stimuli of varying duration (a
// stream.Labeler): a presentation responds at the first δt from which its
// prediction is correct for Stay consecutive frames. Responses are
// recorded as soon as the criterion is met; a presentation that ends (a
// new onset, or label −1) without a response counts as missed; one still
// running without a response is pending and counts nowhere.
//
// Add must be called for consecutive frames; a gap restarts the run of
// correct frames.
type Tracker struct {
	classes, stay int
	agents        []trackState
	byClass       [][]int
	missed        []int
}

type trackState struct {
	active      bool
	label       int
	onset, last int // onset frame and last δt seen
	runStart    int // δt at which the current run of correct frames began, −1 none
	done        bool
}

// NewTracker returns a Tracker for classes ≥ 1 classes and a criterion
// of stay ≥ 1 consecutive correct frames.
func NewTracker(classes, stay int) (*Tracker, error) {
	if classes < 1 {
		return nil, fmt.Errorf("timeres: NewTracker: classes = %d: need at least 1", classes)
	}
	if stay < 1 {
		return nil, fmt.Errorf("timeres: NewTracker: stay = %d: must be ≥ 1 frame", stay)
	}
	return &Tracker{classes: classes, stay: stay, byClass: make([][]int, classes), missed: make([]int, classes)}, nil
}

// Add records frame t as TCM.Add does (labels −1: no stimulus). The number
// of agents is fixed by the first call.
func (r *Tracker) Add(labels, onsets, predictions []int, t int) error {
	if len(onsets) != len(labels) || len(predictions) != len(labels) {
		return fmt.Errorf("timeres: Tracker.Add: len(labels) = %d, len(onsets) = %d, len(predictions) = %d: need one entry per agent in each", len(labels), len(onsets), len(predictions))
	}
	if r.agents == nil {
		r.agents = make([]trackState, len(labels))
	} else if len(r.agents) != len(labels) {
		return fmt.Errorf("timeres: Tracker.Add: %d agents, earlier frames had %d", len(labels), len(r.agents))
	}
	for a, l := range labels {
		if l < -1 || l >= r.classes {
			return fmt.Errorf("timeres: Tracker.Add: labels[%d] = %d: must be a class in [0, %d) or −1", a, l, r.classes)
		}
		if l >= 0 && onsets[a] > t {
			return fmt.Errorf("timeres: Tracker.Add: onsets[%d] = %d lies after frame t = %d", a, onsets[a], t)
		}
		if p := predictions[a]; l >= 0 && (p < 0 || p >= r.classes) {
			return fmt.Errorf("timeres: Tracker.Add: predictions[%d] = %d: must be a class in [0, %d)", a, p, r.classes)
		}
	}
	for a, l := range labels {
		s := &r.agents[a]
		if s.active && (l < 0 || onsets[a] != s.onset || l != s.label) {
			r.end(s)
		}
		if l < 0 {
			continue
		}
		dt := t - onsets[a]
		if !s.active {
			*s = trackState{active: true, label: l, onset: onsets[a], last: dt - 1, runStart: -1}
		}
		if dt != s.last+1 {
			s.runStart = -1 // a gap: the run is broken
		}
		s.last = dt
		if s.done {
			continue
		}
		if predictions[a] != l {
			s.runStart = -1
			continue
		}
		if s.runStart < 0 {
			s.runStart = dt
		}
		if dt-s.runStart+1 >= r.stay {
			s.done = true
			r.byClass[l] = append(r.byClass[l], s.runStart)
		}
	}
	return nil
}

func (r *Tracker) end(s *trackState) {
	if !s.done {
		r.missed[s.label]++
	}
	s.active = false
}

// Times returns the response times recorded so far, per class
// (times[class][presentation], in frames), as copies.
func (r *Tracker) Times() [][]int {
	out := make([][]int, r.classes)
	for k, ts := range r.byClass {
		out[k] = append([]int{}, ts...)
	}
	return out
}

// Missed returns, per class, the finished presentations that never met
// the criterion.
func (r *Tracker) Missed() []int { return append([]int{}, r.missed...) }
