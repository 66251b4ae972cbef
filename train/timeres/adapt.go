package timeres

import (
	"fmt"

	"github.com/neurogo/neurogo/train"
)

// FromSteps builds the TCM of a model that answers at every simulation
// step, e.g. a neurogo model's Predict output over time (spiking MNIST):
// scores[sample][step][class], the stimulus of sample i (class labels[i])
// shown from step onset on, so step s is delay δt = s − onset; steps
// before onset are not counted. MaxDelay is steps − 1 − onset. Every
// sample must have the same number of steps and classes.
func FromSteps(scores [][][]float64, labels []int, onset int) (*TCM, error) {
	classes, steps, err := checkSteps("FromSteps", scores, labels, onset)
	if err != nil {
		return nil, err
	}
	m, err := New(classes, steps-1-onset)
	if err != nil {
		return nil, fmt.Errorf("timeres: FromSteps: %w", err)
	}
	for i, s := range scores {
		for st := onset; st < steps; st++ {
			p, err := argmax(s[st])
			if err != nil {
				return nil, fmt.Errorf("timeres: FromSteps: sample %d, step %d: %w", i, st, err)
			}
			m.add(labels[i], st-onset, p)
		}
	}
	return m, nil
}

// checkSteps validates scores[sample][step][class] against labels and
// onset and returns the number of classes and steps.
func checkSteps(fn string, scores [][][]float64, labels []int, onset int) (classes, steps int, err error) {
	if len(scores) == 0 {
		return 0, 0, fmt.Errorf("timeres: %s: no samples", fn)
	}
	if len(labels) != len(scores) {
		return 0, 0, fmt.Errorf("timeres: %s: %d labels for %d samples", fn, len(labels), len(scores))
	}
	steps = len(scores[0])
	if steps == 0 || len(scores[0][0]) == 0 {
		return 0, 0, fmt.Errorf("timeres: %s: sample 0 has no steps or no classes", fn)
	}
	classes = len(scores[0][0])
	if onset < 0 || onset >= steps {
		return 0, 0, fmt.Errorf("timeres: %s: onset = %d: must be a step in [0, %d)", fn, onset, steps)
	}
	for i, s := range scores {
		if len(s) != steps {
			return 0, 0, fmt.Errorf("timeres: %s: sample %d has %d steps, sample 0 has %d", fn, i, len(s), steps)
		}
		for st, row := range s {
			if len(row) != classes {
				return 0, 0, fmt.Errorf("timeres: %s: sample %d, step %d has %d classes, sample 0 has %d", fn, i, st, len(row), classes)
			}
		}
		if labels[i] < 0 || labels[i] >= classes {
			return 0, 0, fmt.Errorf("timeres: %s: labels[%d] = %d: must be a class in [0, %d)", fn, i, labels[i], classes)
		}
	}
	return classes, steps, nil
}

// FromArray is FromSteps for a train.Array of scores (N samples × Steps ×
// Dims classes), the per-probe output of train.Model.Predict.
func FromArray(a *train.Array, labels []int, onset int) (*TCM, error) {
	if a == nil {
		return nil, fmt.Errorf("timeres: FromArray: nil Array")
	}
	if len(a.Data) != a.N*a.Steps*a.Dims {
		return nil, fmt.Errorf("timeres: FromArray: %d values for %d × %d × %d", len(a.Data), a.N, a.Steps, a.Dims)
	}
	scores := make([][][]float64, a.N)
	for i := range scores {
		scores[i] = make([][]float64, a.Steps)
		for s := range scores[i] {
			scores[i][s] = a.At(i, s)
		}
	}
	return FromSteps(scores, labels, onset)
}
