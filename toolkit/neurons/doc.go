// Package neurons implements Nengo 4.1's neuron types for neurogo: the
// parameters and defaults, the gain/bias closed forms, the rate curves and
// the discrete-time update of Nengo's reference simulator, on contiguous
// float64 slices. It is a leaf package (standard library only); the
// simulator in package sim calls it once per population and time step.
//
// # Types
//
//	rate         spiking                  wrappers (rate type → spikes)
//	LIFRate      LIF                      RegularSpiking(base)
//	AdaptiveLIFRate AdaptiveLIF           PoissonSpiking(base)
//	RectifiedLinear SpikingRectifiedLinear StochasticSpiking(base)
//	Sigmoid, Tanh   Izhikevich
//
// Each is a small value type whose exported fields are Nengo's parameters
// (TauRC is tau_rc, and so on); NewLIF() etc. return Nengo's defaults
// (LIF: TauRC 0.02, TauRef 0.002, MinVoltage 0, Amplitude 1; Sigmoid and
// Tanh: TauRef 0.0025; AdaptiveLIF: TauN 1, IncN 0.01; Izhikevich:
// TauRecovery 0.02, Coupling 0.2, ResetVoltage -65, ResetRecovery 8;
// wrappers: Amplitude 1). Change a field after construction to set a
// parameter; Validate reports the first parameter outside Nengo's range.
//
// # The Type interface
//
// Every type implements [Type]:
//
//	Name() string; Spiking() bool; Negative() bool; Validate() error
//	GainBias(maxRates, intercepts) (gain, bias, err)
//	MaxRatesIntercepts(gain, bias) (maxRates, intercepts, err)
//	Rates(dst, x, gain, bias) error          // f(gain*x + bias), x row-major [samples][n]
//	State(n, rng) (State, error)             // Nengo's state variables and initial values
//	Step(dt, J, out, s, rng) error           // one step of Nengo's reference simulator
//
// The interface is not generic, so notebook cells (interpreted by yaegi)
// can use it and implement it. A [State] is a list of named, equally long
// slices (Names/Vars) in a fixed per-type order, e.g. LIF's {"voltage",
// "refractory_time"}; Step checks the names and lengths on every call.
//
// Fast path for the simulator: keep the concrete value (e.g. a LIF) and a
// State made once per population; then Step is one direct call per
// population and step, costs O(1) checks beyond the per-neuron loop and
// allocates nothing. State.Slice gives views of sub-populations.
//
// # Training: derivatives and the rate/spike swap
//
// For gradient training (NengoDL's rate/spike swap) the package adds
// [SoftLIFRate], NengoDL's LIF rate curve with a softplus-smoothed
// threshold (Hunsberger & Eliasmith 2015; Sigma 1 by default, LIFRate as
// Sigma → 0), and [Differentiable], the stateless rate types that also
// give f'(J): LIFRate, SoftLIFRate, RectifiedLinear, Sigmoid and Tanh.
// [RateCounterpart] maps a spiking type to the differentiable rate type a
// trainer uses in its place (LIF → SoftLIFRate or LIFRate,
// SpikingRectifiedLinear → RectifiedLinear, a rates-to-spikes wrapper →
// its base with the wrapper's amplitude folded in); types without one
// (AdaptiveLIF, AdaptiveLIFRate, Izhikevich) give an error for which
// errors.Is(err, ErrNotDifferentiable) holds. [SoftLIFRate.LIFRateDeriv]
// computes NengoDL's lif_smoothing pass (LIFRate's rate, SoftLIFRate's
// derivative) in one sweep, vectorised with AVX-512 where the CPU has it
// (chosen at run time; the build tag purego disables it);
// [SoftLIFRate.LIFRateDeriv32] does it in float32.
//
// # Units and conventions (as in Nengo)
//
//   - Time in seconds: dt, TauRC, TauRef, TauN, TauRecovery.
//   - Input currents J are dimensionless: J = gain*x + bias, where x is
//     the input projected onto the encoder (radius-normalised); an LIF
//     neuron's threshold is J = 1.
//   - Rates are in Hz. A spiking type's output is Amplitude/dt for a spike
//     (k*Amplitude/dt for k spikes in one step), so that its time integral
//     counts spikes; Izhikevich has no amplitude (1/dt per spike).
//   - Max rates are the rates at x = 1; intercepts the x where the rate
//     becomes positive (for Sigmoid: the inflection point).
//
// # Invariants
//
//   - No method panics on user input; invalid parameters or arguments give
//     a *validate.Error (package toolkit/validate) naming the object,
//     field, value and rule, e.g.
//     "neurons: LIF.TauRef = -0.001: must be non-negative and finite".
//   - Step allocates nothing and keeps no reference to its arguments.
//   - Deterministic types reproduce Nengo 4.1 to within 1e-9 (checked
//     against fixtures written by Nengo itself, testdata/gen_nengo.py):
//     the same discrete-time algorithm, operation for operation. To keep
//     the rounding identical, products that feed a sum are rounded with an
//     explicit float64 conversion, which stops Go from fusing them into an
//     FMA on platforms that have one (Go spec, "Floating-point operators").
//   - GainBias fails where Nengo's gain_bias raises (e.g. LIF max rate >=
//     1/TauRef) and where Nengo's ensemble builder would reject the result
//     (gain not positive and finite, e.g. an intercept >= 1).
//   - PoissonSpiking and StochasticSpiking draw from the rng given to Step:
//     they match Nengo's distributions, not NumPy's random bits.
//   - Randomness comes only from the *rand.Rand passed in (math/rand/v2);
//     State's uniform initial voltages use it too (nil means seed 0).
//
// # Snippet
//
//	lif := neurons.NewLIF()
//	gain, bias, err := lif.GainBias([]float64{200, 300}, []float64{-0.5, 0.1})
//	s, err := lif.State(2, rand.New(rand.NewPCG(1, 2)))
//	J, out := make([]float64, 2), make([]float64, 2)
//	for step := 0; step < 1000; step++ {
//		for i := range J {
//			J[i] = gain[i]*x + bias[i]
//		}
//		err = lif.Step(0.001, J, out, s, nil) // out[i] is 1000 on a spike, else 0
//	}
package neurons
