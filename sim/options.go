package sim

import "github.com/neurogo/neurogo/toolkit"

// Option configures Build and New.
type Option func(*config)

type config struct {
	dt       float64
	params   *Params
	noNaNChk bool
	batch    int
	feeds    map[*toolkit.Node][][][]float64
	opt      Optimizations
	optSet   bool
	parallel int
	unroll   int
	f32      bool
	store    func(n int) []float64
	// Hooks
	mm        MatMulHook
	layerHook LayerHook
}

// Batch sets the minibatch size of a simulator (default 1): it runs that
// many independent copies of the model (the NengoDL paper, §3.1), which differ only
// in their data feeds and stochastic neuron draws. Build ignores it.
func Batch(n int) Option { return func(c *config) { c.batch = n } }

// Feed replaces a node's output by data[batch][step][dim] (NengoDL's data
// feeds): at step k (0-based) the node outputs data[b][k]. Running past the
// end of the data is an error. Build ignores it.
func Feed(node *toolkit.Node, data [][][]float64) Option {
	return func(c *config) {
		if c.feeds == nil {
			c.feeds = map[*toolkit.Node][][][]float64{}
		}
		c.feeds[node] = data
	}
}

// Parallel sets how many goroutines a simulator with Batch(n > 1) steps
// its lanes on during RunSteps and Run (default: GOMAXPROCS, at most one
// per lane; 1 runs them serially). Lanes are independent copies of the
// model, so the results do not depend on it. A model with Node functions
// (Go code of the user) always runs its lanes on one goroutine, so those
// functions are never called concurrently. With one lane, large merged
// operators (dot products of ≥ 8192 multiply-adds, ≥ 4096 neurons)
// are cut into chunks that run on both cores, unless Parallel(1). Build
// ignores it.
func Parallel(n int) Option { return func(c *config) { c.parallel = max(n, 1) } }

// Unroll sets how many steps RunSteps and Run execute per dispatch
// (NengoDL's unroll_simulation, §4.1 of the NengoDL paper; default 1): a one-lane
// simulator strings the operators of n consecutive steps, each step's
// probe recording after them, into one flat list and runs the list per
// block of n steps; the progress callback and the checks for a closed or
// failed simulator run once per block. A failing step stops the run
// where it failed, as without unrolling: the error names the step, and
// time, steps and probe data are those of the last completed step.
// Results are identical for every n. Build ignores it.
func Unroll(n int) Option { return func(c *config) { c.unroll = max(n, 1) } }

// CheckNaN switches the per-step check for NaN in the model's signals
// on (the default) or off. With it on, a NaN stops the run with an error
// naming the signal and the step. The check scans the signals operators
// write (a NaN elsewhere reaches one of them when it is read), in
// contiguous runs with a vector loop: under 1 µs per step for the
// benchmark models at D = 192.
func CheckNaN(on bool) Option { return func(c *config) { c.noNaNChk = !on } }

// DT sets the time step in seconds (default 0.001).
func DT(dt float64) Option { return func(c *config) { c.dt = dt } }

// WithParams overrides built parameters by label (see Params).
func WithParams(p *Params) Option { return func(c *config) { c.params = p } }

// Store makes a simulator keep each lane's signals in memory that alloc
// returns (n values, zeroed or not: the simulator initialises them)
// instead of a Go slice: memory allocated outside Go (C.malloc), which
// code outside Go can then read and write while the simulator runs, as
// SimCallback operators do. Simulator.Signal gives each signal's place
// in it. The memory must stay valid until the simulator is no longer
// used. Build ignores it.
func Store(alloc func(n int) []float64) Option { return func(c *config) { c.store = alloc } }
