package timeres

import (
	"fmt"
	"math"
)

// TCM is a temporal confusion matrix (the statestream paper, §3.2; statestream's
// TemporalConfusionMatrix): Counts(δt)[label][prediction] counts the
// frames in which an agent shown a stimulus of class label since δt
// frames predicted class prediction, for δt = 0 … MaxDelay.
//
// Samples at a delay beyond MaxDelay are ignored, not clamped, so that
// each matrix keeps a single meaning; Ignored counts them. A TCM is not
// safe for concurrent use.
type TCM struct {
	classes, maxDelay int
	// counts[δt·classes·classes + label·classes + prediction]
	counts  []float64
	samples []int
	ignored int
	pred    []int // AddScores' buffer
}

// New returns an empty TCM for classes ≥ 1 classes and delays 0 …
// maxDelay (maxDelay ≥ 0).
func New(classes, maxDelay int) (*TCM, error) {
	if classes < 1 {
		return nil, fmt.Errorf("timeres: New: classes = %d: need at least 1 class", classes)
	}
	if maxDelay < 0 {
		return nil, fmt.Errorf("timeres: New: maxDelay = %d: must be ≥ 0", maxDelay)
	}
	if classes*classes*(maxDelay+1) > 1<<28 {
		return nil, fmt.Errorf("timeres: New: %d classes × %d delays is too large (more than 2^28 cells)", classes, maxDelay+1)
	}
	return &TCM{
		classes:  classes,
		maxDelay: maxDelay,
		counts:   make([]float64, classes*classes*(maxDelay+1)),
		samples:  make([]int, maxDelay+1),
	}, nil
}

// Classes returns the number of classes.
func (m *TCM) Classes() int { return m.classes }

// MaxDelay returns the largest delay kept.
func (m *TCM) MaxDelay() int { return m.maxDelay }

// Ignored returns the number of samples dropped because their delay
// exceeded MaxDelay.
func (m *TCM) Ignored() int { return m.ignored }

// Add records the predictions of frame t: agent a was shown a stimulus of
// class labels[a] since frame onsets[a] (δt = t − onsets[a]) and
// predicted class predictions[a]. Agents with label −1 are skipped;
// delays beyond MaxDelay are ignored (see Ignored). The three slices must
// have the same length, labels and predictions must be classes and onsets
// must not lie after t; on error nothing is recorded.
func (m *TCM) Add(labels, onsets, predictions []int, t int) error {
	if err := m.check("Add", labels, onsets, len(predictions), "predictions", t); err != nil {
		return err
	}
	for a, p := range predictions {
		if labels[a] >= 0 && (p < 0 || p >= m.classes) {
			return fmt.Errorf("timeres: Add: predictions[%d] = %d: must be a class in [0, %d)", a, p, m.classes)
		}
	}
	for a, p := range predictions {
		m.add(labels[a], t-onsets[a], p)
	}
	return nil
}

// AddScores is Add with the prediction of each agent being the argmax of
// its scores (agents × classes values, row-major, e.g. a read-out pool
// of shape [classes, 1, 1]); ties go to the lowest class. Scores must be
// finite for agents with a label.
func (m *TCM) AddScores(labels, onsets []int, scores []float64, t int) error {
	if len(scores) != len(labels)*m.classes {
		return fmt.Errorf("timeres: AddScores: len(scores) = %d, want agents × classes = %d × %d = %d", len(scores), len(labels), m.classes, len(labels)*m.classes)
	}
	if err := m.check("AddScores", labels, onsets, len(labels), "labels", t); err != nil {
		return err
	}
	if cap(m.pred) < len(labels) {
		m.pred = make([]int, len(labels))
	}
	pred := m.pred[:len(labels)]
	for a := range labels {
		if labels[a] < 0 {
			continue
		}
		p, err := argmax(scores[a*m.classes : (a+1)*m.classes])
		if err != nil {
			return fmt.Errorf("timeres: AddScores: agent %d: %w", a, err)
		}
		pred[a] = p
	}
	for a, p := range pred {
		m.add(labels[a], t-onsets[a], p)
	}
	return nil
}

func (m *TCM) check(fn string, labels, onsets []int, n int, nName string, t int) error {
	if len(onsets) != len(labels) || n != len(labels) {
		return fmt.Errorf("timeres: %s: len(labels) = %d, len(onsets) = %d, len(%s) = %d: need one entry per agent in each", fn, len(labels), len(onsets), nName, n)
	}
	for a, l := range labels {
		if l < -1 || l >= m.classes {
			return fmt.Errorf("timeres: %s: labels[%d] = %d: must be a class in [0, %d) or −1 (no stimulus)", fn, a, l, m.classes)
		}
		if l >= 0 && onsets[a] > t {
			return fmt.Errorf("timeres: %s: onsets[%d] = %d lies after frame t = %d", fn, a, onsets[a], t)
		}
	}
	return nil
}

func (m *TCM) add(label, dt, pred int) {
	if label < 0 {
		return
	}
	if dt > m.maxDelay {
		m.ignored++
		return
	}
	m.counts[(dt*m.classes+label)*m.classes+pred]++
	m.samples[dt]++
}

// argmax returns the index of the largest value (the first on ties).
func argmax(x []float64) (int, error) {
	best := 0
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("score %d is %v: scores must be finite", i, v)
		}
		if v > x[best] {
			best = i
		}
	}
	return best, nil
}

// Samples returns the number of samples recorded at delay dt (0 outside
// 0 … MaxDelay).
func (m *TCM) Samples(dt int) int {
	if dt < 0 || dt > m.maxDelay {
		return 0
	}
	return m.samples[dt]
}

// Counts returns a copy of the confusion matrix at delay dt,
// [label][prediction], or nil when dt is outside 0 … MaxDelay.
func (m *TCM) Counts(dt int) [][]float64 {
	if dt < 0 || dt > m.maxDelay {
		return nil
	}
	return m.Window(dt, dt)
}

// Window returns the confusion matrices of delays from … to (inclusive)
// summed, [label][prediction]: the performance of a read-out that is
// taken anywhere in that window after onset. The range is clipped to
// 0 … MaxDelay; an empty range gives a zero matrix.
func (m *TCM) Window(from, to int) [][]float64 {
	k := m.classes
	out := make([][]float64, k)
	for i := range out {
		out[i] = make([]float64, k)
	}
	for dt := max(from, 0); dt <= min(to, m.maxDelay); dt++ {
		c := m.counts[dt*k*k : (dt+1)*k*k]
		for i := range k {
			for j := range k {
				out[i][j] += c[i*k+j]
			}
		}
	}
	return out
}

// Accuracy returns the accuracy (trace / total) at each delay 0 …
// MaxDelay, NaN where no samples were recorded.
func (m *TCM) Accuracy() []float64 {
	k := m.classes
	acc := make([]float64, m.maxDelay+1)
	for dt := range acc {
		if m.samples[dt] == 0 {
			acc[dt] = math.NaN()
			continue
		}
		var tr float64
		for i := range k {
			tr += m.counts[(dt*k+i)*k+i]
		}
		acc[dt] = tr / float64(m.samples[dt])
	}
	return acc
}

// ChanceLevel returns 1/classes, the expected accuracy of guessing
// uniformly at random: the level of Fig. 3b of the statestream paper before any
// information has reached the read-out. (With unbalanced labels a
// constant answer can do better; compare against the class shares.)
func (m *TCM) ChanceLevel() float64 { return 1 / float64(m.classes) }

// Merge adds the counts of o (same classes and MaxDelay) to m, e.g. to
// pool the evaluations of several runs.
func (m *TCM) Merge(o *TCM) error {
	if o == nil || o.classes != m.classes || o.maxDelay != m.maxDelay {
		if o == nil {
			return fmt.Errorf("timeres: Merge: nil TCM")
		}
		return fmt.Errorf("timeres: Merge: %d classes and max delay %d, want %d and %d", o.classes, o.maxDelay, m.classes, m.maxDelay)
	}
	for i, v := range o.counts {
		m.counts[i] += v
	}
	for i, v := range o.samples {
		m.samples[i] += v
	}
	m.ignored += o.ignored
	return nil
}
