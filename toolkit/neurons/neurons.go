package neurons

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// Type is a neuron model with Nengo 4.1 semantics. Every implementation in
// this package is a small value type whose exported fields are Nengo's
// parameters; the New… constructors return Nengo's defaults.
//
// All methods validate the receiver's parameters and their arguments and
// return a *validate.Error instead of panicking. None of them keeps a reference to
// the slices it is given.
type Type interface {
	// Name is Nengo's class name, e.g. "LIF" or "RegularSpiking".
	Name() string
	// Spiking reports whether the output is a spike train (amplitude/dt
	// per spike) rather than a rate (nengo.NeuronType.spiking).
	Spiking() bool
	// Negative reports whether the output can be negative
	// (nengo.NeuronType.negative).
	Negative() bool
	// Validate checks the parameters against Nengo's ranges.
	Validate() error
	// GainBias returns the gain and bias that give each neuron the
	// requested maximum rate (Hz, at x = 1) and intercept (the x at which
	// it starts to respond), as nengo.NeuronType.gain_bias does, and fails
	// where Nengo's gain_bias raises or where Nengo's ensemble builder
	// would reject the result (a gain that is not positive and finite).
	GainBias(maxRates, intercepts []float64) (gain, bias []float64, err error)
	// MaxRatesIntercepts inverts GainBias (nengo.NeuronType.max_rates_intercepts).
	MaxRatesIntercepts(gain, bias []float64) (maxRates, intercepts []float64, err error)
	// Rates writes to dst the steady-state rate (Hz) for inputs x, i.e.
	// f(gain*x + bias), as nengo.NeuronType.rates does. gain and bias have
	// one entry per neuron (n); x and dst are row-major [samples][n], so
	// len(x) must be a multiple of n and len(dst) == len(x).
	Rates(dst, x, gain, bias []float64) error
	// State returns the state variables of n neurons with Nengo's initial
	// values (nengo.NeuronType.make_state); uniformly distributed initial
	// values are drawn from rng (a nil rng means rand.New(rand.NewPCG(0, 0))).
	State(n int, rng *rand.Rand) (State, error)
	// Step advances n neurons by one time step dt (seconds): J holds the
	// input currents, out receives the output (a rate in Hz, or
	// amplitude/dt per spike), and s is updated in place. It is the
	// discrete-time algorithm of Nengo's reference simulator
	// (nengo.NeuronType.step). Only PoissonSpiking and StochasticSpiking
	// use rng. Step does not allocate.
	Step(dt float64, J, out []float64, s State, rng *rand.Rand) error
}

// Compile-time checks that every model implements Type.
var (
	_ Type = LIF{}
	_ Type = LIFRate{}
	_ Type = AdaptiveLIF{}
	_ Type = AdaptiveLIFRate{}
	_ Type = RectifiedLinear{}
	_ Type = SpikingRectifiedLinear{}
	_ Type = Sigmoid{}
	_ Type = Tanh{}
	_ Type = Izhikevich{}
	_ Type = RegularSpiking{}
	_ Type = PoissonSpiking{}
	_ Type = StochasticSpiking{}
)

// State holds the state variables of a population: Vars[i] is the
// variable called Names[i] (Nengo's names: "voltage", "refractory_time",
// "adaptation", "recovery", "rate_out"), one entry per neuron. All Vars
// have the same length. The order of Names is fixed per neuron type (see
// each type's documentation) and Step relies on it; Step checks the names
// and lengths, so a State made by one type cannot be fed to another by
// mistake.
//
// To set an initial state other than Nengo's default (Nengo's
// initial_state argument), overwrite the values in Vars after State.
type State struct {
	Names []string
	Vars  [][]float64
}

// Var returns the variable called name, or nil if s has none.
func (s State) Var(name string) []float64 {
	for i, n := range s.Names {
		if n == name {
			return s.Vars[i]
		}
	}
	return nil
}

// Len returns the number of neurons (the length of each variable; 0 for a
// type without state).
func (s State) Len() int {
	if len(s.Vars) == 0 {
		return 0
	}
	return len(s.Vars[0])
}

// Clone returns a deep copy of s.
func (s State) Clone() State {
	c := State{Names: append([]string(nil), s.Names...), Vars: make([][]float64, len(s.Vars))}
	for i, v := range s.Vars {
		c.Vars[i] = append([]float64(nil), v...)
	}
	return c
}

// Slice returns a view of neurons [lo, hi) of s that shares its storage
// (for a simulator that steps sub-populations). It allocates the two
// header slices only.
func (s State) Slice(lo, hi int) (State, error) {
	n := s.Len()
	if lo < 0 || hi < lo || hi > n {
		return State{}, &validate.Error{Pkg: "neurons", Object: "State", Field: "Slice", Value: fmt.Sprintf("[%d:%d]", lo, hi),
			Rule: fmt.Sprintf("must satisfy 0 <= lo <= hi <= %d", n)}
	}
	v := State{Names: s.Names, Vars: make([][]float64, len(s.Vars))}
	for i, x := range s.Vars {
		v.Vars[i] = x[lo:hi:hi]
	}
	return v, nil
}

// newState makes a State of n neurons whose variables are zero except
// those listed in uniform, which are drawn from U[0, 1) (Nengo's
// Uniform(low=0, high=1)).
func newState(obj string, n int, rng *rand.Rand, names []string, uniform ...string) (State, error) {
	if n < 0 {
		return State{}, &validate.Error{Pkg: "neurons", Object: obj, Field: "State(n)", Value: n, Rule: "must be non-negative"}
	}
	s := State{Names: append([]string(nil), names...), Vars: make([][]float64, len(names))}
	for i := range names {
		s.Vars[i] = make([]float64, n)
	}
	for _, u := range uniform {
		if rng == nil {
			rng = rand.New(rand.NewPCG(0, 0))
		}
		v := s.Var(u)
		for i := range v {
			v[i] = rng.Float64()
		}
	}
	return s, nil
}

// checkState verifies that s holds exactly the variables names, each of
// length n.
func checkState(obj string, s State, names []string, n int) error {
	if len(s.Vars) != len(names) || len(s.Names) != len(names) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "State.Names", Value: s.Names,
			Rule: fmt.Sprintf("must be %q (make it with %s.State)", names, obj)}
	}
	for i, name := range names {
		if s.Names[i] != name {
			return &validate.Error{Pkg: "neurons", Object: obj, Field: "State.Names", Value: s.Names,
				Rule: fmt.Sprintf("must be %q (make it with %s.State)", names, obj)}
		}
		if len(s.Vars[i]) != n {
			return &validate.Error{Pkg: "neurons", Object: obj, Field: "len(State." + name + ")", Value: len(s.Vars[i]),
				Rule: fmt.Sprintf("must equal len(J) = %d", n)}
		}
	}
	return nil
}

// checkStep verifies dt and the lengths of J and out.
func checkStep(obj string, dt float64, J, out []float64) error {
	if !(dt > 0) || math.IsInf(dt, 1) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "dt", Value: dt, Rule: "must be positive and finite"}
	}
	if len(out) != len(J) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "len(out)", Value: len(out), Rule: fmt.Sprintf("must equal len(J) = %d", len(J))}
	}
	return nil
}

func checkPositive(obj, field string, v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: field, Value: v, Rule: "must be positive and finite"}
	}
	return nil
}

func checkNonNegative(obj, field string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 1) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: field, Value: v, Rule: "must be non-negative and finite"}
	}
	return nil
}

func checkFinite(obj, field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: field, Value: v, Rule: "must be finite"}
	}
	return nil
}

// checkPairs verifies that a and b (named an and bn) have equal lengths
// and finite entries.
func checkPairs(obj, an, bn string, a, b []float64) error {
	if len(a) != len(b) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "len(" + bn + ")", Value: len(b), Rule: fmt.Sprintf("must equal len(%s) = %d", an, len(a))}
	}
	for i, v := range a {
		if err := checkFinite(obj, fmt.Sprintf("%s[%d]", an, i), v); err != nil {
			return err
		}
	}
	for i, v := range b {
		if err := checkFinite(obj, fmt.Sprintf("%s[%d]", bn, i), v); err != nil {
			return err
		}
	}
	return nil
}

// checkRates verifies the arguments of Rates.
func checkRates(obj string, dst, x, gain, bias []float64) error {
	n := len(gain)
	if len(bias) != n {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "len(bias)", Value: len(bias), Rule: fmt.Sprintf("must equal len(gain) = %d", n)}
	}
	if (n == 0 && len(x) != 0) || (n > 0 && len(x)%n != 0) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "len(x)", Value: len(x), Rule: fmt.Sprintf("must be a multiple of len(gain) = %d (x is row-major [samples][neurons])", n)}
	}
	if len(dst) != len(x) {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: "len(dst)", Value: len(dst), Rule: fmt.Sprintf("must equal len(x) = %d", len(x))}
	}
	return nil
}

// currents writes gain*x + bias for row-major x [samples][n] to dst
// (nengo.NeuronType.current). The product is rounded before the sum
// (float64 conversion) so that no platform fuses it into an FMA: the
// result is bit-identical to NumPy's.
func currents(dst, x, gain, bias []float64) {
	n := len(gain)
	for k := range x {
		i := k % n
		dst[k] = float64(gain[i]*x[k]) + bias[i]
	}
}

// checkGain applies Nengo's ensemble-builder rule to a computed gain: it
// must be positive and finite ("The specified intercepts … lead to neurons
// with negative or non-finite gain").
func checkGain(obj string, i int, gain, maxRate, intercept float64) error {
	if gain > 0 && !math.IsInf(gain, 1) {
		return nil
	}
	if intercept >= 1 {
		return &validate.Error{Pkg: "neurons", Object: obj, Field: fmt.Sprintf("intercepts[%d]", i), Value: intercept,
			Rule: fmt.Sprintf("must be below 1 (gives gain %v; Nengo's builder requires a positive, finite gain)", gain)}
	}
	return &validate.Error{Pkg: "neurons", Object: obj, Field: fmt.Sprintf("max_rates[%d]", i), Value: maxRate,
		Rule: fmt.Sprintf("with intercept %v gives gain %v; Nengo's builder requires a positive, finite gain", intercept, gain)}
}
