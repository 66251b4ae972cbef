package synapses

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// Synapse is a linear filter model with Nengo 4.1 semantics. A nil
// Synapse means "no synapse" (Nengo's synapse=None): no filter at all.
type Synapse interface {
	// Name is Nengo's class name: "LinearFilter", "Lowpass", "Alpha" or
	// "Triangle".
	Name() string
	// Validate checks the parameters against Nengo's ranges.
	Validate() error
	// Filter discretises the synapse for time step dt (seconds) and returns
	// a filter for n independent channels with zero initial state (Nengo's
	// make_state with y0 = 0, as its builder uses).
	Filter(dt float64, n int) (Filter, error)
}

// LTI is a Synapse that is a linear time-invariant system given by a
// transfer function; Discretize exposes the discrete state-space form
// Nengo simulates (for a simulator that merges filters of the same shape).
type LTI interface {
	Synapse
	Discretize(dt float64) (*System, error)
}

// Filter is a discrete-time filter bank of Len() independent channels.
// Step consumes one input sample per channel and writes one output sample
// per channel; it keeps its state inside and allocates nothing. dst and
// src may be the same slice.
//
// What Step returns at step k for an impulse (1 on every channel at step 0,
// 0 after) depends on Nengo's step class (System.Kind):
//
//   - NoX (no state: Lowpass{0}, pure gains): y[0] = D, y[k>0] = 0.
//   - OneX and NoD (no passthrough D, e.g. Lowpass, Alpha): the input acts
//     in the same step, y[k] = C·A^k·B; for the default zero-order hold this
//     is ∫ h(t) dt over [k·dt, (k+1)·dt], h the continuous impulse
//     response (Lowpass: y[0] = 1 - exp(-dt/tau)).
//   - General (D ≠ 0): y[0] = D, y[k] = C·A^(k-1)·B for k >= 1.
//   - Triangle: y[k] = (m - k)/(m(m+1)/2) for k < m = round(t/dt) + 1, then 0.
//
// For a unit step input a zero-order-hold filter is exact: Lowpass gives
// y[k] = 1 - exp(-(k+1)·dt/tau).
//
// This is the filter alone. In a Nengo model, a connection's synapse runs
// in the update phase, so a filtered connection delivers at step k+1 what
// the filter produced from the input of step k: every filtered
// connection, Lowpass{0} included, delays by one step, while a nil
// synapse does not. That delay belongs to the simulator.
type Filter interface {
	Step(dst, src []float64) error
	Reset()
	Len() int
}

// Filt filters x, a row-major [steps][n] signal of n channels sampled
// every dt, with s and returns the result, like nengo.Synapse.filt (zero
// initial state). A nil s returns a copy of x (no synapse).
func Filt(s Synapse, dt float64, x []float64, n int) ([]float64, error) {
	if n <= 0 || len(x)%n != 0 {
		return nil, &validate.Error{Pkg: "synapses", Object: "Filt", Field: "n", Value: n,
			Rule: fmt.Sprintf("must be positive and divide len(x) = %d (x is row-major [steps][n])", len(x))}
	}
	y := append([]float64(nil), x...)
	if s == nil {
		return y, nil
	}
	f, err := s.Filter(dt, n)
	if err != nil {
		return nil, err
	}
	for k := 0; k < len(y); k += n {
		if err := f.Step(y[k:k+n], y[k:k+n]); err != nil {
			return nil, err
		}
	}
	return y, nil
}

func checkNonNegative(obj, field string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 1) {
		return &validate.Error{Pkg: "synapses", Object: obj, Field: field, Value: v, Rule: "must be non-negative and finite"}
	}
	return nil
}

func checkDtN(obj string, dt float64, n int) error {
	if !(dt > 0) || math.IsInf(dt, 1) {
		return &validate.Error{Pkg: "synapses", Object: obj, Field: "dt", Value: dt, Rule: "must be positive and finite"}
	}
	if n < 0 {
		return &validate.Error{Pkg: "synapses", Object: obj, Field: "n", Value: n, Rule: "must be non-negative"}
	}
	return nil
}

func checkStep(obj string, n int, dst, src []float64) error {
	if len(src) != n {
		return &validate.Error{Pkg: "synapses", Object: obj, Field: "len(src)", Value: len(src), Rule: fmt.Sprintf("must equal the filter's channel count %d", n)}
	}
	if len(dst) != n {
		return &validate.Error{Pkg: "synapses", Object: obj, Field: "len(dst)", Value: len(dst), Rule: fmt.Sprintf("must equal the filter's channel count %d", n)}
	}
	return nil
}
