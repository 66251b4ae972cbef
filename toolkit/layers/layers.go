package layers

import (
	"fmt"
	"math"
	"strings"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// Param is one parameter array of a built layer. Role and Constraint are
// its typed declaration: what the parameter is (selected by Role, not by
// Name) and the projection the trainer applies after every optimiser step
// (nil: none).
type Param struct {
	Name       string     // "kernel", "bias", "gamma", "beta", "moving_mean", "moving_variance", or a user name
	Role       Role       // what the parameter is (RoleKernel, RoleBias, …)
	Shape      []int      // dimensions, row-major
	Value      []float64  // initial value, len = product of Shape, row-major
	Trainable  bool       // false for BatchNorm's moving statistics
	Constraint Constraint // applied after every optimiser step (nil: none), e.g. Bounds
}

// clone returns a deep copy of p.
func (p Param) clone() Param { return p.Clone() }

// Layer is a built layer with fixed per-example input and output shapes
// (channels last: (H, W, C) for 2-D, (L, C) for 1-D; batch first in data).
type Layer interface {
	// Kind names the layer type: "Dense", "Conv1D", "Conv2D", "AvgPool",
	// "MaxPool", "Flatten", "Reshape", "Dropout", "BatchNorm", or a user kind.
	Kind() string
	InShape() []int
	OutShape() []int
	// Params returns fresh copies of the initial values, in a fixed order.
	Params() []Param
	// NewExec returns an executor for batches of up to maxBatch examples. It
	// owns all scratch memory: Forward and Backward allocate nothing per call.
	NewExec(maxBatch int, seed uint64) (Exec, error)
}

// Exec runs a built layer on batches. An Exec is not safe for concurrent use;
// make one per goroutine.
type Exec interface {
	// Forward overwrites out (batch×OutSize) from in (batch×InSize); params
	// in Params() order. training: Dropout drops (inverted dropout, scaled by
	// 1/(1-rate)), BatchNorm normalises with batch statistics and updates the
	// moving statistics in params (Keras: moving = momentum·moving + (1-momentum)·batch);
	// otherwise Dropout is the identity and BatchNorm uses the moving statistics.
	Forward(params [][]float64, in, out []float64, batch int, training bool) error
	// Backward ACCUMULATES (+=) into dIn (batch×InSize; nil: input gradient not
	// wanted, skip that work) and into dParams[k] (nil entry: not wanted) the
	// gradients of a loss given dOut = dLoss/dOut, for the values of the last
	// Forward call with the same in/out/batch/training.
	Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error
}

// Spec is a layer's configuration (what a user writes); Build fixes the
// per-example input shape and draws the initial parameters from seed.
type Spec interface {
	Build(in []int, seed int64) (Layer, error)
}

// Size returns the product of the dimensions (1 for an empty shape).
func Size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func errf(layer, field string, value any, format string, args ...any) error {
	return &validate.Error{Pkg: "layers", Object: layer, Field: field, Value: value, Rule: fmt.Sprintf(format, args...)}
}

// checkShape validates a per-example input shape.
func checkShape(kind string, in []int) error {
	if len(in) == 0 {
		return errf(kind, "in", in, "input shape must have at least one dimension")
	}
	for _, d := range in {
		if d <= 0 {
			return errf(kind, "in", in, "input dimensions must be positive")
		}
	}
	return nil
}

// checkFinite validates a float field.
func checkFinite(kind, field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return errf(kind, field, v, "must be finite")
	}
	return nil
}

// normPadding returns the lower-cased padding name ("" means "valid").
func normPadding(kind, p string, causalOK bool) (string, error) {
	s := strings.ToLower(p)
	switch s {
	case "":
		return "valid", nil
	case "valid", "same":
		return s, nil
	case "causal":
		if causalOK {
			return s, nil
		}
	}
	if causalOK {
		return "", errf(kind, "Padding", p, `unknown padding (want "valid", "same" or "causal")`)
	}
	return "", errf(kind, "Padding", p, `unknown padding (want "valid" or "same")`)
}

// window returns the output length and the padding before the first element
// along one spatial axis of length n for a window of k taps with stride s and
// dilation d, following TensorFlow's conventions (tf.nn.convolution):
//
//	valid:  out = floor((n - dk)/s) + 1, no padding      (dk = (k-1)·d + 1)
//	same:   out = ceil(n/s), total = max((out-1)·s + dk - n, 0),
//	        before = floor(total/2), after = total - before (the extra one goes after)
//	causal: out = ceil(n/s), before = dk - 1 (Keras Conv1D)
//
// ok is false when the (dilated) window is larger than the padded input.
func window(n, k, s, d int, padding string) (out, before int, ok bool) {
	dk := (k-1)*d + 1
	switch padding {
	case "same":
		out = (n + s - 1) / s
		total := (out-1)*s + dk - n
		if total < 0 {
			total = 0
		}
		return out, total / 2, true
	case "causal":
		return (n + s - 1) / s, dk - 1, true
	default:
		if dk > n {
			return 0, 0, false
		}
		return (n-dk)/s + 1, 0, true
	}
}

// ints fills a 1- or 2-element integer option: empty means def, one value is
// repeated n times.
func ints(kind, field string, v []int, n, def int, allowZero bool) ([]int, error) {
	switch {
	case len(v) == 0:
		r := make([]int, n)
		for i := range r {
			r[i] = def
		}
		return r, nil
	case len(v) == 1 && n > 1:
		r := make([]int, n)
		for i := range r {
			r[i] = v[0]
		}
		v = r
	case len(v) != n && n == 1:
		return nil, errf(kind, field, v, "want 1 value for a 1-D layer")
	case len(v) != n:
		return nil, errf(kind, field, v, "want 1 or %d values", n)
	default:
		v = append([]int(nil), v...)
	}
	for i, x := range v {
		if x == 0 && allowZero {
			v[i] = def
			continue
		}
		if x <= 0 {
			return nil, errf(kind, field, v, "must be positive")
		}
	}
	return v, nil
}

// base holds what every built layer has.
type base struct {
	kind    string
	in, out []int
	params  []Param
	spec    Spec // what Build was given (Dense, Conv1D, Conv2D)
}

func (l *base) Kind() string { return l.kind }

// SpecOf returns the Spec a Dense, Conv1D or Conv2D layer was built from
// (with the input shape it gives the layer's whole geometry), or false for
// other layers: executors that lower layers onto other hardware (package
// accel) read it.
func SpecOf(l Layer) (Spec, bool) {
	if b, ok := l.(interface{ specOf() Spec }); ok && b.specOf() != nil {
		return b.specOf(), true
	}
	return nil, false
}

func (l *base) specOf() Spec    { return l.spec }
func (l *base) InShape() []int  { return append([]int(nil), l.in...) }
func (l *base) OutShape() []int { return append([]int(nil), l.out...) }
func (l *base) Params() []Param {
	ps := make([]Param, len(l.params))
	for i, p := range l.params {
		ps[i] = p.clone()
	}
	return ps
}

// newExecBase validates maxBatch and records the sizes that every call checks.
func (l *base) newExecBase(maxBatch int) (execBase, error) {
	if maxBatch < 1 {
		return execBase{}, errf(l.kind, "maxBatch", maxBatch, "must be at least 1")
	}
	e := execBase{kind: l.kind, inSize: Size(l.in), outSize: Size(l.out), maxBatch: maxBatch}
	e.paramLens = make([]int, len(l.params))
	e.trainable = make([]bool, len(l.params))
	for i, p := range l.params {
		e.paramLens[i] = len(p.Value)
		e.trainable[i] = p.Trainable
	}
	return e, nil
}

// execBase holds the argument checks shared by every Exec.
type execBase struct {
	kind            string
	inSize, outSize int
	maxBatch        int
	paramLens       []int
	trainable       []bool
}

func (e *execBase) checkBatch(batch int) error {
	if batch < 1 || batch > e.maxBatch {
		return errf(e.kind, "batch", batch, "must be in [1, %d] (maxBatch of this Exec)", e.maxBatch)
	}
	return nil
}

func (e *execBase) checkParams(params [][]float64) error {
	if len(params) != len(e.paramLens) {
		return errf(e.kind, "params", len(params), "want %d parameter arrays", len(e.paramLens))
	}
	for i, p := range params {
		if len(p) != e.paramLens[i] {
			return errf(e.kind, "params", i, "parameter %d has length %d, want %d", i, len(p), e.paramLens[i])
		}
	}
	return nil
}

func checkLen(kind, field string, x []float64, batch, size int) error {
	if len(x) != batch*size {
		return errf(kind, field, len(x), "length must be batch×size = %d×%d = %d", batch, size, batch*size)
	}
	return nil
}

func (e *execBase) checkForward(params [][]float64, in, out []float64, batch int) error {
	if err := e.checkBatch(batch); err != nil {
		return err
	}
	if err := e.checkParams(params); err != nil {
		return err
	}
	if err := checkLen(e.kind, "in", in, batch, e.inSize); err != nil {
		return err
	}
	return checkLen(e.kind, "out", out, batch, e.outSize)
}

func (e *execBase) checkBackward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.checkForward(params, in, out, batch); err != nil {
		return err
	}
	if err := checkLen(e.kind, "dOut", dOut, batch, e.outSize); err != nil {
		return err
	}
	if dIn != nil {
		if err := checkLen(e.kind, "dIn", dIn, batch, e.inSize); err != nil {
			return err
		}
	}
	if dParams != nil {
		if len(dParams) != len(e.paramLens) {
			return errf(e.kind, "dParams", len(dParams), "want %d entries (nil entries allowed)", len(e.paramLens))
		}
		for i, d := range dParams {
			if d != nil && len(d) != e.paramLens[i] {
				return errf(e.kind, "dParams", i, "gradient %d has length %d, want %d", i, len(d), e.paramLens[i])
			}
		}
	}
	return nil
}

// dParam returns dParams[i] or nil.
func dParam(dParams [][]float64, i int) []float64 {
	if i < len(dParams) {
		return dParams[i]
	}
	return nil
}

// addTo computes dst[i] += src[i].
func addTo(dst, src []float64) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] += v
	}
}
