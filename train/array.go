package train

import (
	"fmt"
	"math"
)

// Array is a batch of sequences, N examples × Steps time steps × Dims
// values, row-major: NengoDL's input and target arrays of shape
// (batch, n_steps, d). Inputs go to nodes, targets and predictions belong
// to probes.
type Array struct {
	N, Steps, Dims int
	Data           []float64
}

// NewArray returns a zero Array.
func NewArray(n, steps, dims int) (*Array, error) {
	if n < 0 || steps < 1 || dims < 1 {
		return nil, fmt.Errorf("train: NewArray(%d, %d, %d): need n ≥ 0 and steps, dims ≥ 1", n, steps, dims)
	}
	return &Array{N: n, Steps: steps, Dims: dims, Data: make([]float64, n*steps*dims)}, nil
}

// ArrayFromRows makes an Array from one row per example. A row of Dims
// values is held for all steps (a static input, as NengoDL tiles images
// over n_steps); a row of steps·dims values is a whole sequence. All rows
// must have the same length.
func ArrayFromRows(rows [][]float64, steps int) (*Array, error) {
	if steps < 1 {
		return nil, fmt.Errorf("train: ArrayFromRows: steps = %d: must be at least 1", steps)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("train: ArrayFromRows: no rows")
	}
	d := len(rows[0])
	if d == 0 {
		return nil, fmt.Errorf("train: ArrayFromRows: row 0 is empty")
	}
	a := &Array{N: len(rows), Steps: steps, Dims: d, Data: make([]float64, 0, len(rows)*steps*d)}
	for i, r := range rows {
		if len(r) != d {
			return nil, fmt.Errorf("train: ArrayFromRows: row %d has %d values, row 0 has %d", i, len(r), d)
		}
		for range steps {
			a.Data = append(a.Data, r...)
		}
	}
	return a, nil
}

// ArrayFromLabels makes class-index targets (Dims 1) for sparse
// cross-entropy and sparse accuracy, the label held for all steps.
func ArrayFromLabels(labels []int, steps int) (*Array, error) {
	if steps < 1 {
		return nil, fmt.Errorf("train: ArrayFromLabels: steps = %d: must be at least 1", steps)
	}
	a := &Array{N: len(labels), Steps: steps, Dims: 1, Data: make([]float64, 0, len(labels)*steps)}
	for i, l := range labels {
		if l < 0 {
			return nil, fmt.Errorf("train: ArrayFromLabels: label %d is %d: must be non-negative", i, l)
		}
		for range steps {
			a.Data = append(a.Data, float64(l))
		}
	}
	return a, nil
}

// At returns example n's values at step s (0-based), a view.
func (a *Array) At(n, s int) []float64 {
	o := (n*a.Steps + s) * a.Dims
	return a.Data[o : o+a.Dims]
}

// Example returns example n's whole sequence (Steps×Dims), a view.
func (a *Array) Example(n int) []float64 {
	o := n * a.Steps * a.Dims
	return a.Data[o : o+a.Steps*a.Dims]
}

// LastStep returns the values at the last step as one row per example.
func (a *Array) LastStep() [][]float64 {
	rows := make([][]float64, a.N)
	for i := range rows {
		rows[i] = a.At(i, a.Steps-1)
	}
	return rows
}

// Argmax returns the index of the largest value of each example at step
// s (-1 for a row containing NaN) — a classifier's decision.
func (a *Array) Argmax(s int) []int {
	out := make([]int, a.N)
	for i := range out {
		best, arg := math.Inf(-1), -1
		for k, v := range a.At(i, s) {
			if math.IsNaN(v) {
				arg = -1
				break
			}
			if v > best {
				best, arg = v, k
			}
		}
		out[i] = arg
	}
	return out
}

func (a *Array) check(what string) error {
	if a == nil {
		return fmt.Errorf("train: %s: nil array", what)
	}
	if a.N < 0 || a.Steps < 1 || a.Dims < 1 || len(a.Data) != a.N*a.Steps*a.Dims {
		return fmt.Errorf("train: %s: array N %d × Steps %d × Dims %d does not match its %d values", what, a.N, a.Steps, a.Dims, len(a.Data))
	}
	return nil
}

// gather copies the examples idx into dst ([len(idx)][Steps][Dims]).
func (a *Array) gather(idx []int, dst []float64) []float64 {
	w := a.Steps * a.Dims
	dst = growTo(dst, len(idx)*w)
	for k, i := range idx {
		copy(dst[k*w:(k+1)*w], a.Data[i*w:(i+1)*w])
	}
	return dst
}
