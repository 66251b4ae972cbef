package analog

import (
	"fmt"
	"math"
	"slices"

	"github.com/neurogo/neurogo/toolkit/layers"
)

// ReLU is max(0, x), hxtorch's ReLU between analog layers whose next
// layer scales its own inputs.
type ReLU struct{}

// ConvertingReLU is hxtorch's ConvertingReLU: it turns an 8-bit analog
// result into the next layer's 5-bit input, y = min(floor(max(x, 0)/2^Shift), 31)
// (a right shift by Shift bits, default 1). Backward passes the gradient
// scaled by 2^−Shift where 0 < x < 31·2^Shift (straight through the
// floor; zero where the output is clamped at 0 or 31, so that training
// does not push an analog result that is already saturated).
type ConvertingReLU struct{ Shift int }

// Build implements layers.Spec.
func (ReLU) Build(in []int, seed int64) (layers.Layer, error) {
	return newAct("analog.ReLU", in, 0, false)
}

// Build implements layers.Spec.
func (s ConvertingReLU) Build(in []int, seed int64) (layers.Layer, error) {
	if s.Shift < 0 || s.Shift > 7 {
		return nil, fmt.Errorf("analog: ConvertingReLU.Shift = %d: must be in 0..7", s.Shift)
	}
	sh := s.Shift
	if sh == 0 {
		sh = 1
	}
	return newAct("analog.ConvertingReLU", in, sh, true)
}

type act struct {
	kind    string
	in      []int
	shift   int
	convert bool
}

func newAct(kind string, in []int, shift int, convert bool) (layers.Layer, error) {
	if len(in) == 0 || layers.Size(in) <= 0 {
		return nil, fmt.Errorf("analog: %s: input shape %v: must be non-empty and positive", kind, in)
	}
	return &act{kind: kind, in: append([]int(nil), in...), shift: shift, convert: convert}, nil
}

func (a *act) Kind() string           { return a.kind }
func (a *act) InShape() []int         { return append([]int(nil), a.in...) }
func (a *act) OutShape() []int        { return append([]int(nil), a.in...) }
func (a *act) Params() []layers.Param { return nil }
func (a *act) NewExec(maxBatch int, seed uint64) (layers.Exec, error) {
	if maxBatch < 1 {
		return nil, fmt.Errorf("analog: %s: maxBatch = %d: must be at least 1", a.kind, maxBatch)
	}
	return &actExec{a: a, n: layers.Size(a.in), maxBatch: maxBatch}, nil
}

type actExec struct {
	a           *act
	n, maxBatch int
}

func (e *actExec) check(in, out []float64, batch int) error {
	if batch < 1 || batch > e.maxBatch || len(in) != batch*e.n || len(out) != batch*e.n {
		return fmt.Errorf("analog: %s: batch %d (max %d) with %d inputs and %d outputs, want %d each", e.a.kind, batch, e.maxBatch, len(in), len(out), batch*e.n)
	}
	return nil
}

func (e *actExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.check(in, out, batch); err != nil {
		return err
	}
	div := math.Ldexp(1, e.a.shift)
	for i, v := range in {
		v = math.Max(v, 0)
		if e.a.convert {
			v = math.Min(math.Floor(v/div), InputMax)
		}
		out[i] = v
	}
	return nil
}

func (e *actExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.check(in, out, batch); err != nil {
		return err
	}
	if dIn == nil {
		return nil
	}
	if len(dOut) != len(in) || len(dIn) != len(in) {
		return fmt.Errorf("analog: %s: dOut/dIn have %d/%d values, want %d", e.a.kind, len(dOut), len(dIn), len(in))
	}
	div := math.Ldexp(1, e.a.shift)
	top := InputMax * div // from here on the output is 31 whatever x is
	for i, v := range in {
		if v > 0 && (!e.a.convert || v < top) {
			dIn[i] += dOut[i] / div
		}
	}
	return nil
}

// ScaleWeights maps float weights into the hardware range: every weight
// times 63/max|w| (hxtorch's scale_weight), returning the scaled copy and
// the factor. All-zero weights give factor 1.
func ScaleWeights(w []float64) (scaled []float64, factor float64) {
	m := 0.0
	for _, v := range w {
		m = math.Max(m, math.Abs(v))
	}
	factor = 1
	if m > 0 {
		factor = WeightMax / m
	}
	scaled = make([]float64, len(w))
	for i, v := range w {
		scaled[i] = v * factor
	}
	return scaled, factor
}

// InputScale is an affine map of every channel into the 5-bit input
// range: x' = clamp((x − Low_c)/(High_c − Low_c)·31, 0, 31). FitInputScale
// fits it to data (hxtorch's scale_input maps the maximum to 31; signed
// sensor data need the offset as well).
type InputScale struct {
	Low, High []float64 // per channel
}

// FitInputScale fits per-channel bounds to the q and 1−q quantiles of the
// examples (channels last: every example is a multiple of channels
// values), so that outliers saturate instead of compressing the range.
func FitInputScale(examples [][]float64, channels int, q float64) (*InputScale, error) {
	if channels <= 0 || len(examples) == 0 {
		return nil, fmt.Errorf("analog: FitInputScale: %d examples of %d channels: need both positive", len(examples), channels)
	}
	if !(q >= 0 && q < 0.5) {
		return nil, fmt.Errorf("analog: FitInputScale: quantile %v: must be in [0, 0.5)", q)
	}
	vals := make([][]float64, channels)
	for i, ex := range examples {
		if len(ex)%channels != 0 {
			return nil, fmt.Errorf("analog: FitInputScale: example %d has %d values, not a multiple of %d channels", i, len(ex), channels)
		}
		for k, v := range ex {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("analog: FitInputScale: example %d value %d is %v", i, k, v)
			}
			vals[k%channels] = append(vals[k%channels], v)
		}
	}
	s := &InputScale{Low: make([]float64, channels), High: make([]float64, channels)}
	for c, v := range vals {
		sortFloats(v)
		lo, hi := v[int(q*float64(len(v)-1))], v[int((1-q)*float64(len(v)-1))]
		if hi <= lo {
			hi = lo + 1
		}
		s.Low[c], s.High[c] = lo, hi
	}
	return s, nil
}

// Apply returns the scaled copy of an example (channels last).
func (s *InputScale) Apply(x []float64) []float64 {
	c := len(s.Low)
	out := make([]float64, len(x))
	for i, v := range x {
		k := i % c
		u := (v - s.Low[k]) / (s.High[k] - s.Low[k]) * InputMax
		out[i] = math.Max(0, math.Min(InputMax, math.Round(u)))
	}
	return out
}

func sortFloats(v []float64) { slices.Sort(v) }
