// Package synapses implements Nengo 4.1's synapse models for neurogo:
// linear filters given as continuous (or discrete) transfer functions,
// discretised exactly as Nengo does, and run on contiguous float64 slices
// of independent channels. It imports only the standard library and
// neurogo's vector loops (internal/vec).
//
// # Models
//
//	LinearFilter{Num, Den}  H(s) = Num(s)/Den(s); Digital, Method options
//	Lowpass{Tau}            1/(tau·s + 1)            impulse response e^(-t/tau)/tau
//	Alpha{Tau}              1/(tau·s + 1)²           impulse response (t/tau²)·e^(-t/tau)
//	Triangle{T}             FIR falling ramp of length T
//
// A nil [Synapse] is Nengo's synapse=None: no filter. Lowpass{0} and
// Alpha{0} are identity filters (Nengo reduces them to y = u), which is not
// the same thing on a connection (see Filter).
//
// # Discretisation (nengo.LinearFilter)
//
//  1. normalize: strip the denominator's leading zeros, divide by its
//     leading coefficient, drop ≈0 leading numerator coefficients.
//  2. tf2ss: controllable canonical state space A, B, C, D.
//  3. If analog (the default) and there is at least one state,
//     cont2discrete with Method: "zoh" (Nengo 4's default) takes
//     expm(dt·[[A, B], [0, 0]]) by Al-Mohy & Higham (2009), the algorithm
//     Nengo vendors from SciPy, evaluated in the same order (fused
//     multiply-add products, LAPACK-style LU) so that the coefficients are
//     Nengo's bit for bit (checked for Lowpass, Alpha and a second-order
//     filter at dt = 1 ms; Alpha with tau <= 1 ms can differ by 2 ulp); "euler", "backward_diff" and "bilinear"
//     are the generalised bilinear transform with alpha 0, 1, 1/2.
//  4. Nengo's step class by shape: NoX (no state, y = D·u), OneX (one
//     state, D = 0: x = a·x + b·u, y = x), NoD (D = 0: x = A·x + B·u,
//     y = C·x, the input is not delayed) or General (y = C·x + D·u, then
//     x = A·x + B·u). [System] holds the result and its [Kind].
//
// # Subnormal states
//
// A state that decays below the smallest normal float64 (2^-1022 ≈
// 2.2e-308 in magnitude) is set to +0 (vec.FlushSubnormal). Without it
// the state of a filter whose input stopped (a neuron that fell silent,
// behind a learning rule's pre_synapse) enters the subnormal range after
// about 708·tau/dt steps and stays there at 4.9e-324 for ever, and every
// product with it runs in the CPU's microcode assists: Nengo's PES
// benchmark (NengoDL paper, §5.1) steps about 3× slower from 3.5 s of
// simulated time on, in Nengo's reference simulator and in any code
// that keeps such states. TensorFlow, and so NengoDL, runs with the
// CPU's flush-to-zero and denormals-are-zero modes for the same reason.
// Outputs differ from Nengo's by less than 2.3e-308.
//
// Triangle is not a state-space system; it uses Nengo's minimal-multiply
// FIR recursion with round(T/dt) + 1 taps.
//
// # Using a filter
//
//	f, err := synapses.Lowpass{Tau: 0.005}.Filter(dt, n) // n channels, zero state
//	err = f.Step(y, u)                                   // once per time step
//
// Step allocates nothing; Reset zeroes the state. [Filt] filters a whole
// row-major [steps][n] signal, like nengo.Synapse.filt.
//
// # Responses (what Filter.Step returns)
//
//   - Unit step u[k] = 1: a zero-order-hold filter is exact for it, so
//     Lowpass gives y[k] = 1 - exp(-(k+1)·dt/tau), the continuous step
//     response sampled at the end of step k. The steady state is the DC
//     gain H(0) = Num[last]/Den[last] (System.DCGain).
//   - Impulse u[0] = 1: for OneX/NoD systems y[k] = ∫ h(t) dt over
//     [k·dt, (k+1)·dt] (Lowpass: y[0] = 1 - e^(-dt/tau); Alpha:
//     y[k] = (1 + k·dt/tau)e^(-k·dt/tau) - (1 + (k+1)·dt/tau)e^(-(k+1)·dt/tau));
//     for General systems y[0] = D and the dynamics start at k = 1; NoX
//     gives y[0] = D only. A spike of Nengo (amplitude 1/dt) thus gives
//     roughly h(k·dt).
//   - In a Nengo model the synapse of a connection runs in the simulator's
//     update phase, so the connection's output at step k+1 is the filter's
//     output for the input of step k: every filtered connection, Lowpass{0}
//     included, delays by one step; a nil synapse does not. That delay is
//     the simulator's job, not this package's.
//
// # Units and invariants
//
//   - Time in seconds (Tau, T, dt); signals are dimensionless, as in Nengo.
//   - Channels are independent; the state is zero after Filter and Reset
//     (Nengo's y0 = 0, which its builder uses).
//   - No method panics on user input: invalid parameters (NaN, negative
//     time constants, an improper or all-zero transfer function, an
//     unknown Method, dt <= 0, mismatched slice lengths) give a
//     *validate.Error (package toolkit/validate)
//     naming the object, field, value and rule, e.g.
//     "synapses: Lowpass.Tau = -0.005: must be non-negative and finite".
//   - Outputs match Nengo 4.1's Synapse.filt to within 1e-9 (fixtures
//     written by Nengo itself: testdata/gen_nengo.py). The discrete
//     matrices agree with Nengo's to rounding (the matrix exponential is
//     Higham's 2005 scaling and squaring; Nengo vendors SciPy's 2009
//     variant); products that feed a sum are rounded explicitly (float64
//     conversion) so no platform fuses them into FMAs.
package synapses
