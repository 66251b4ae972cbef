package synapses

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// Triangle is a finite impulse response synapse whose impulse response is
// a falling ramp of length T seconds (nengo.Triangle): with
// m = round(T/dt) + 1 taps (round half to even, as numpy.round), the taps
// are m, m-1, …, 1 divided by their sum m(m+1)/2. T = 0 is a passthrough.
type Triangle struct {
	T float64 // length of the triangle (s), >= 0
}

// Name returns "Triangle".
func (Triangle) Name() string { return "Triangle" }

// String returns a Nengo-style description.
func (t Triangle) String() string { return fmt.Sprintf("Triangle(t=%v)", t.T) }

// Validate checks T >= 0 and finite.
func (t Triangle) Validate() error { return checkNonNegative("Triangle", "T", t.T) }

// Taps returns the number of taps m = round(T/dt) + 1 for time step dt.
func (t Triangle) Taps(dt float64) (int, error) {
	if err := t.Validate(); err != nil {
		return 0, err
	}
	if err := checkDtN("Triangle", dt, 0); err != nil {
		return 0, err
	}
	r := math.RoundToEven(t.T / dt)
	if r > 1e7 {
		return 0, &validate.Error{Pkg: "synapses", Object: "Triangle", Field: "T", Value: t.T,
			Rule: fmt.Sprintf("gives %g taps at dt = %v; at most 1e7 are supported", r+1, dt)}
	}
	return int(r) + 1, nil
}

// Filter implements Synapse.
func (t Triangle) Filter(dt float64, n int) (Filter, error) {
	m, err := t.Taps(dt)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, &validate.Error{Pkg: "synapses", Object: "Triangle", Field: "n", Value: n, Rule: "must be non-negative"}
	}
	sum := 0.0 // numpy: num = arange(m, 0, -1); num /= num.sum()
	for k := m; k > 0; k-- {
		sum += float64(k)
	}
	return &TriangleFilter{
		taps: m, n: n,
		n0:    float64(m) / sum,
		ndiff: 1 / sum,
		x:     make([]float64, n*m),
		y:     make([]float64, n),
	}, nil
}

// TriangleFilter runs a Triangle on n channels with Nengo's
// minimal-multiply recursion (nengo.Triangle.make_step): the taps fall by
// the same amount ndiff each step, so
//
//	y[k] = y[k-1] + n0·u[k] - ndiff·(u[k-1] + … + u[k-m])
//
// with a ring buffer of the last m inputs (times ndiff) per channel.
type TriangleFilter struct {
	taps, n   int
	n0, ndiff float64
	x         []float64 // channel-major ring buffers of ndiff·u
	y         []float64
	xi        int // ring position, shared by all channels (Nengo's Xi)
}

// Len returns the number of channels.
func (f *TriangleFilter) Len() int { return f.n }

// Reset zeroes the state.
func (f *TriangleFilter) Reset() {
	clear(f.x)
	clear(f.y)
	f.xi = 0
}

// Step advances every channel by one sample. It does not allocate.
func (f *TriangleFilter) Step(dst, src []float64) error {
	if err := checkStep("TriangleFilter", f.n, dst, src); err != nil {
		return err
	}
	m := f.taps
	f.xi = (f.xi + 1) % m
	for c, u := range src {
		ring := f.x[c*m : c*m+m]
		s := 0.0
		for _, v := range ring {
			s += v
		}
		y := f.y[c] + float64(f.n0*u)
		y -= s
		f.y[c] = y
		ring[f.xi] = f.ndiff * u
		dst[c] = y
	}
	return nil
}

var _ Synapse = Triangle{}
var _ Filter = (*TriangleFilter)(nil)
