package synapses

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// LinearFilter is a general LTI synapse given by its transfer function
// H(s) = Num(s)/Den(s), coefficients in decreasing powers of s
// (nengo.LinearFilter). The zero value of Digital and Method gives Nengo's
// defaults: analog coefficients discretised with a zero-order hold.
type LinearFilter struct {
	Num []float64 // numerator coefficients, highest power first; not longer than Den (after normalisation)
	Den []float64 // denominator coefficients, highest power first; not all zero
	// Digital marks Num/Den as already discrete (coefficients of z), i.e.
	// Nengo's analog=False. The default (false) is Nengo's analog=True.
	Digital bool
	// Method is the discretisation of an analog filter: "zoh" (zero-order
	// hold, Nengo 4's default, also for ""), "euler", "backward_diff" or
	// "bilinear" (Tustin). Nengo's "gbt" always fails in Nengo (it needs an
	// alpha that LinearFilter cannot pass) and is rejected here too.
	Method string
}

// Lowpass is the first-order lowpass synapse H(s) = 1/(tau·s + 1), impulse
// response exp(-t/tau)/tau (nengo.Lowpass). Tau = 0 is a passthrough.
type Lowpass struct {
	Tau float64 // time constant (s), >= 0
}

// Alpha is the alpha synapse H(s) = 1/(tau·s + 1)², impulse response
// (t/tau²)·exp(-t/tau) (nengo.Alpha; Mainen & Sejnowski, Science 268, 1995).
type Alpha struct {
	Tau float64 // time constant (s), >= 0
}

// NewLinearFilter returns an analog LinearFilter (zero-order hold), after
// checking it.
func NewLinearFilter(num, den []float64) (*LinearFilter, error) {
	f := &LinearFilter{Num: slices.Clone(num), Den: slices.Clone(den)}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// Kind is Nengo's choice of LinearFilter step implementation
// (nengo.LinearFilter.make_step), which fixes where the input enters.
type Kind int

const (
	NoX     Kind = iota // no state: y = D·u
	OneX                // one state, D = 0: x = a·x + b·u; y = x (b = C·B)
	NoD                 // several states, D = 0: x = A·x + B·u; y = C·x
	General             // D ≠ 0: y = C·x + D·u; then x = A·x + B·u
)

func (k Kind) String() string {
	switch k {
	case NoX:
		return "NoX"
	case OneX:
		return "OneX"
	case NoD:
		return "NoD"
	case General:
		return "General"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// System is a discrete-time single-input single-output state-space system
// x[k+1] = A·x[k] + B·u[k], y[k] = C·x[k] + D·u[k] with Order states, in
// the controllable canonical form of nengo.utils.filter_design.tf2ss,
// discretised as nengo.utils.filter_design.cont2discrete does. Kind is the
// step class Nengo uses for it.
type System struct {
	Order int       // number of states k
	A     []float64 // k×k, row-major
	B     []float64 // k
	C     []float64 // k
	D     float64
	Kind  Kind
}

// DCGain returns the steady-state output for a constant unit input,
// C·(I - A)⁻¹·B + D (an analog filter keeps its H(0) under zero-order
// hold). It is ±Inf or NaN for a system with a pole at z = 1.
func (s *System) DCGain() float64 {
	k := s.Order
	if k == 0 {
		return s.D
	}
	m := make([]float64, k*k)
	for i := range k {
		for j := range k {
			m[i*k+j] = -s.A[i*k+j]
		}
		m[i*k+i]++
	}
	x, ok := solve(m, slices.Clone(s.B), k, 1)
	if !ok {
		return math.Inf(1)
	}
	g := s.D
	for i := range k {
		g += s.C[i] * x[i]
	}
	return g
}

// Filter returns a filter bank of n channels running s from zero state.
func (s *System) Filter(n int) (*LTIFilter, error) {
	if n < 0 {
		return nil, &validate.Error{Pkg: "synapses", Object: "System", Field: "n", Value: n, Rule: "must be non-negative"}
	}
	k := s.Order
	if len(s.A) != k*k || len(s.B) != k || len(s.C) != k {
		return nil, &validate.Error{Pkg: "synapses", Object: "System", Field: "Order", Value: k,
			Rule: fmt.Sprintf("needs len(A) = %d, len(B) = len(C) = %d (have %d, %d, %d)", k*k, k, len(s.A), len(s.B), len(s.C))}
	}
	f := &LTIFilter{sys: *s, n: n, x: make([]float64, n*k), tmp: make([]float64, k)}
	if k > 0 {
		f.a, f.b = s.A[0], s.C[0]*s.B[0]
	}
	return f, nil
}

// LTIFilter runs a System on n channels. The state is stored channel-major
// (channel c's states are contiguous).
type LTIFilter struct {
	sys  System
	n    int
	x    []float64
	tmp  []float64
	a, b float64 // OneX's scalars
}

// Len returns the number of channels.
func (f *LTIFilter) Len() int { return f.n }

// System returns the discrete system the filter runs.
func (f *LTIFilter) System() System { return f.sys }

// Reset zeroes the state.
func (f *LTIFilter) Reset() { clear(f.x) }

// Step advances every channel by one sample, following Nengo's step class
// for the system (see Kind). It does not allocate.
func (f *LTIFilter) Step(dst, src []float64) error {
	if err := checkStep("LTIFilter", f.n, dst, src); err != nil {
		return err
	}
	s := &f.sys
	k := s.Order
	switch s.Kind {
	case NoX:
		for c, u := range src {
			dst[c] = s.D * u
		}
	case OneX:
		// Nengo: X *= a; X += b*signal (vector loop, same rounding)
		vec.Lowpass(dst, f.x, src, f.a, f.b)
	case NoD:
		for c, u := range src {
			x := f.x[c*k : c*k+k]
			f.advance(x, u)
			dst[c] = dot(s.C, x)
		}
	case General:
		for c, u := range src {
			x := f.x[c*k : c*k+k]
			y := dot(s.C, x) + float64(s.D*u)
			f.advance(x, u)
			dst[c] = y
		}
	}
	return nil
}

// advance sets x = A·x + B·u.
func (f *LTIFilter) advance(x []float64, u float64) {
	s := &f.sys
	k := s.Order
	for i := range k {
		// a decaying state is flushed to zero below the smallest normal
		// float64 (vec.FlushSubnormal says why)
		f.tmp[i] = vec.FlushSubnormal(dot(s.A[i*k:i*k+k], x) + float64(s.B[i]*u))
	}
	copy(x, f.tmp)
}

// dot is Σ a[i]·b[i] with each product rounded (no FMA), in index order.
func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += float64(v * b[i])
	}
	return s
}

// --- LinearFilter ---------------------------------------------------------------

// Name returns "LinearFilter".
func (*LinearFilter) Name() string { return "LinearFilter" }

// String returns a Nengo-style description.
func (f *LinearFilter) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "LinearFilter(%v, %v", f.Num, f.Den)
	if f.Digital {
		b.WriteString(", analog=False")
	}
	if f.Method != "" && f.Method != "zoh" {
		fmt.Fprintf(&b, ", method=%q", f.Method)
	}
	b.WriteByte(')')
	return b.String()
}

// Validate checks that Num and Den are non-empty and finite, Den is not all
// zero, the transfer function is proper (len(Num) <= len(Den) after
// Nengo's normalisation) and Method is known.
func (f *LinearFilter) Validate() error {
	_, _, err := normalize("LinearFilter", f.Num, f.Den)
	if err != nil {
		return err
	}
	_, err = alphaOf(f.Method)
	return err
}

// Filter implements Synapse.
func (f *LinearFilter) Filter(dt float64, n int) (Filter, error) {
	sys, err := f.Discretize(dt)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, &validate.Error{Pkg: "synapses", Object: "LinearFilter", Field: "n", Value: n, Rule: "must be non-negative"}
	}
	return sys.Filter(n)
}

// Discretize returns the discrete system Nengo simulates for time step dt:
// tf2ss (controllable canonical form) and, for an analog filter with at
// least one state, cont2discrete with Method. The zero-order hold uses the
// matrix exponential of [[A, B], [0, 0]]·dt (Higham 2005 scaling and
// squaring with Padé approximants).
func (f *LinearFilter) Discretize(dt float64) (*System, error) {
	if err := checkDtN("LinearFilter", dt, 0); err != nil {
		return nil, err
	}
	num, den, err := normalize("LinearFilter", f.Num, f.Den)
	if err != nil {
		return nil, err
	}
	alpha, err := alphaOf(f.Method)
	if err != nil {
		return nil, err
	}
	sys := tf2ss(num, den)
	if !f.Digital && sys.Order > 0 {
		if alpha < 0 {
			zoh(sys, dt)
		} else {
			if err := gbt(sys, dt, alpha); err != nil {
				return nil, err
			}
		}
	}
	for _, v := range [][]float64{sys.A, sys.B, sys.C, {sys.D}} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, &validate.Error{Pkg: "synapses", Object: "LinearFilter", Field: "dt", Value: dt,
					Rule: "discretisation overflowed (is the filter far too fast or unstable for this dt?)"}
			}
		}
	}
	switch {
	case sys.Order == 0:
		sys.Kind = NoX
	case sys.D != 0:
		sys.Kind = General
	case sys.Order == 1:
		sys.Kind = OneX
	default:
		sys.Kind = NoD
	}
	return sys, nil
}

// alphaOf maps Method to the generalised-bilinear weight (-1 for zoh).
func alphaOf(method string) (float64, error) {
	switch method {
	case "", "zoh":
		return -1, nil
	case "euler":
		return 0, nil
	case "backward_diff":
		return 1, nil
	case "bilinear":
		return 0.5, nil
	case "gbt":
		return 0, &validate.Error{Pkg: "synapses", Object: "LinearFilter", Field: "Method", Value: method,
			Rule: "needs an alpha, which nengo.LinearFilter cannot pass; use \"bilinear\", \"euler\" or \"backward_diff\""}
	}
	return 0, &validate.Error{Pkg: "synapses", Object: "LinearFilter", Field: "Method", Value: fmt.Sprintf("%q", method),
		Rule: `must be "zoh" (default), "euler", "backward_diff" or "bilinear"`}
}

// normalize is nengo.utils.filter_design.normalize plus the properness
// check of tf2ss: strip Den's leading zeros, divide both by Den[0], strip
// Num's leading coefficients that are ≈ 0 (numpy.allclose(0, ·, atol=1e-14),
// where Nengo warns "Badly conditioned filter coefficients"), and require
// len(Num) <= len(Den).
func normalize(obj string, num, den []float64) ([]float64, []float64, error) {
	if len(num) == 0 {
		return nil, nil, &validate.Error{Pkg: "synapses", Object: obj, Field: "Num", Value: "[]", Rule: "must have at least one coefficient"}
	}
	if len(den) == 0 {
		return nil, nil, &validate.Error{Pkg: "synapses", Object: obj, Field: "Den", Value: "[]", Rule: "must have at least one coefficient"}
	}
	for i, v := range num {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, &validate.Error{Pkg: "synapses", Object: obj, Field: fmt.Sprintf("Num[%d]", i), Value: v, Rule: "must be finite"}
		}
	}
	for i, v := range den {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, &validate.Error{Pkg: "synapses", Object: obj, Field: fmt.Sprintf("Den[%d]", i), Value: v, Rule: "must be finite"}
		}
	}
	a := den
	for a[0] == 0 && len(a) > 1 {
		a = a[1:]
	}
	if a[0] == 0 {
		return nil, nil, &validate.Error{Pkg: "synapses", Object: obj, Field: "Den", Value: den, Rule: "must have a nonzero coefficient"}
	}
	outA := make([]float64, len(a))
	for i, v := range a {
		outA[i] = v / a[0]
	}
	outB := make([]float64, len(num))
	for i, v := range num {
		outB[i] = v / a[0]
	}
	nearZero := func(x float64) bool { return math.Abs(x) <= 1e-14+1e-5*math.Abs(x) }
	for nearZero(outB[0]) && len(outB) > 1 {
		outB = outB[1:]
	}
	if len(outB) > len(outA) {
		return nil, nil, &validate.Error{Pkg: "synapses", Object: obj, Field: "Num", Value: num,
			Rule: fmt.Sprintf("is longer than Den %v: improper transfer function", den)}
	}
	return outB, outA, nil
}

// tf2ss is nengo.utils.filter_design.tf2ss for normalised num and den
// (den[0] = 1): with num padded to len(den) = K, D = num[0], and for K > 1
// A = [-den[1:]; I_(K-2) 0], B = e_1, C = num[1:] - num[0]·den[1:].
func tf2ss(num, den []float64) *System {
	K := len(den)
	p := make([]float64, K)
	copy(p[K-len(num):], num)
	s := &System{Order: K - 1, D: p[0]}
	k := K - 1
	s.A = make([]float64, k*k)
	s.B = make([]float64, k)
	s.C = make([]float64, k)
	if k == 0 {
		return s
	}
	for j := range k {
		s.A[j] = -1 * den[j+1]
		s.C[j] = p[j+1] - float64(p[0]*den[j+1])
	}
	for i := 1; i < k; i++ {
		s.A[i*k+i-1] = 1
	}
	s.B[0] = 1
	return s
}

// zoh is cont2discrete(method="zoh"): expm(dt·[[A, B], [0, 0]]) = [[Ad, Bd], [0, 1]].
func zoh(s *System, dt float64) {
	k := s.Order
	m := k + 1
	em := make([]float64, m*m)
	for i := range k {
		for j := range k {
			em[i*m+j] = dt * s.A[i*k+j]
		}
		em[i*m+k] = dt * s.B[i]
	}
	e := expm(em, m)
	for i := range k {
		copy(s.A[i*k:i*k+k], e[i*m:i*m+k])
		s.B[i] = e[i*m+k]
	}
}

// gbt is cont2discrete(method="gbt", alpha): with M = I - alpha·dt·A,
// Ad = M⁻¹(I + (1-alpha)·dt·A), Bd = M⁻¹·dt·B, Cd = C·M⁻¹,
// Dd = D + alpha·C·Bd.
func gbt(s *System, dt, alpha float64) error {
	k := s.Order
	ima := make([]float64, k*k)
	rhs := make([]float64, k*k)
	for i := range k {
		for j := range k {
			ima[i*k+j] = -float64(alpha*dt) * s.A[i*k+j]
			rhs[i*k+j] = float64((1-alpha)*dt) * s.A[i*k+j]
		}
		ima[i*k+i]++
		rhs[i*k+i]++
	}
	ad, ok1 := solve(slices.Clone(ima), rhs, k, k)
	bb := make([]float64, k)
	for i := range k {
		bb[i] = dt * s.B[i]
	}
	bd, ok2 := solve(slices.Clone(ima), bb, k, 1)
	imaT := make([]float64, k*k)
	for i := range k {
		for j := range k {
			imaT[i*k+j] = ima[j*k+i]
		}
	}
	cd, ok3 := solve(imaT, slices.Clone(s.C), k, 1)
	if !ok1 || !ok2 || !ok3 {
		return &validate.Error{Pkg: "synapses", Object: "LinearFilter", Field: "dt", Value: dt,
			Rule: fmt.Sprintf("I - %v·dt·A is singular for this filter", alpha)}
	}
	s.D += alpha * dot(s.C, bd)
	copy(s.A, ad)
	copy(s.B, bd)
	copy(s.C, cd)
	return nil
}

// --- Lowpass and Alpha -------------------------------------------------------------

func (l Lowpass) linear() *LinearFilter {
	return &LinearFilter{Num: []float64{1}, Den: []float64{l.Tau, 1}}
}

// Name returns "Lowpass".
func (Lowpass) Name() string { return "Lowpass" }

// String returns a Nengo-style description.
func (l Lowpass) String() string { return fmt.Sprintf("Lowpass(tau=%v)", l.Tau) }

// Validate checks Tau >= 0 and finite.
func (l Lowpass) Validate() error { return checkNonNegative("Lowpass", "Tau", l.Tau) }

// Discretize returns Nengo's discrete system: LinearFilter([1], [tau, 1])
// through tf2ss and the zero-order hold, i.e. OneX with
// a = exp(-dt/tau), b = 1 - a (up to rounding); NoX (y = u) for Tau = 0.
func (l Lowpass) Discretize(dt float64) (*System, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return l.linear().Discretize(dt)
}

// Filter implements Synapse.
func (l Lowpass) Filter(dt float64, n int) (Filter, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return l.linear().Filter(dt, n)
}

func (a Alpha) linear() *LinearFilter {
	return &LinearFilter{Num: []float64{1}, Den: []float64{a.Tau * a.Tau, 2 * a.Tau, 1}}
}

// Name returns "Alpha".
func (Alpha) Name() string { return "Alpha" }

// String returns a Nengo-style description.
func (a Alpha) String() string { return fmt.Sprintf("Alpha(tau=%v)", a.Tau) }

// Validate checks Tau >= 0 and finite.
func (a Alpha) Validate() error { return checkNonNegative("Alpha", "Tau", a.Tau) }

// Discretize returns Nengo's discrete system: LinearFilter([1],
// [tau², 2·tau, 1]) through tf2ss and the zero-order hold (NoD with two
// states); NoX (y = u) for Tau = 0.
func (a Alpha) Discretize(dt float64) (*System, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a.linear().Discretize(dt)
}

// Filter implements Synapse.
func (a Alpha) Filter(dt float64, n int) (Filter, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a.linear().Filter(dt, n)
}

// Compile-time interface checks.
var (
	_ LTI    = (*LinearFilter)(nil)
	_ LTI    = Lowpass{}
	_ LTI    = Alpha{}
	_ Filter = (*LTIFilter)(nil)
)
