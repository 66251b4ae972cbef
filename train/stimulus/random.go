package stimulus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// RandomOptions configure a Random driver.
type RandomOptions struct {
	// Dist is "uniform" (Min, Max), "normal" (Mean, Std) or "bernoulli"
	// (P: the chance of a 1, else 0), as statestream's random interface.
	Dist      string
	Min, Max  float64
	Mean, Std float64
	P         float64
	// Pools are the neuron-pools written; nil: every out pool Start is
	// given.
	Pools []string
	// Seed, with the seed passed to Start, fixes the values.
	Seed int64
}

// Random writes fresh random states to its pools every frame (seeded):
// noise input, or a stand-in stimulus while building a network.
type Random struct {
	o     RandomOptions
	rng   *rand.Rand
	pools map[string]int // values per frame
	last  int
}

// NewRandom checks the options and returns the driver. No field has a
// hidden default: give the parameters of the chosen distribution.
func NewRandom(o RandomOptions) (*Random, error) {
	bad := func(field string, v float64, rule string) error {
		return fmt.Errorf("stimulus: Random: %s = %v: %s", field, v, rule)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch o.Dist {
	case "uniform":
		if !finite(o.Min) || !finite(o.Max) || o.Min > o.Max {
			return nil, fmt.Errorf("stimulus: Random: uniform on [Min, Max] = [%v, %v]: need finite Min ≤ Max", o.Min, o.Max)
		}
	case "normal":
		if !finite(o.Mean) {
			return nil, bad("Mean", o.Mean, "must be finite")
		}
		if !finite(o.Std) || o.Std < 0 {
			return nil, bad("Std", o.Std, "must be finite and ≥ 0")
		}
	case "bernoulli":
		if !(o.P >= 0 && o.P <= 1) {
			return nil, bad("P", o.P, "must be in [0, 1]")
		}
	default:
		return nil, fmt.Errorf("stimulus: Random: Dist = %q: want \"uniform\", \"normal\" or \"bernoulli\"", o.Dist)
	}
	o.Pools = append([]string(nil), o.Pools...)
	return &Random{o: o, last: -1}, nil
}

// Start implements stream.Driver.
func (r *Random) Start(agents int, out, in map[string][3]int, seed int64) error {
	if agents < 1 {
		return fmt.Errorf("stimulus: Random: Start: agents = %d: need at least 1", agents)
	}
	r.pools = map[string]int{}
	if r.o.Pools == nil {
		for p, sh := range out {
			r.pools[p] = agents * sh[0] * sh[1] * sh[2]
		}
	} else {
		for _, p := range r.o.Pools {
			sh, ok := out[p]
			if !ok {
				return fmt.Errorf("stimulus: Random: Start: pool %q is not among the pools it may write (out: %s)", p, names(out))
			}
			r.pools[p] = agents * sh[0] * sh[1] * sh[2]
		}
	}
	if len(r.pools) == 0 {
		return fmt.Errorf("stimulus: Random: Start: no pools to write")
	}
	r.rng = rand.New(rand.NewPCG(uint64(r.o.Seed), uint64(seed)))
	r.last = -1
	return nil
}

// Frame implements stream.Driver: every pool gets new values, drawn pool
// by pool in name order, agent-major.
func (r *Random) Frame(t int, in, out map[string][]float64) error {
	if r.rng == nil {
		return fmt.Errorf("stimulus: Random: Frame(%d) before Start", t)
	}
	if t != r.last+1 {
		return fmt.Errorf("stimulus: Random: Frame(%d) after Frame(%d): frames must be written in order from 0", t, r.last)
	}
	ps := make([]string, 0, len(r.pools))
	for p := range r.pools {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		dst := out[p]
		if len(dst) != r.pools[p] {
			return fmt.Errorf("stimulus: Random: Frame(%d): buffer of pool %q has %d values, want %d", t, p, len(dst), r.pools[p])
		}
		for i := range dst {
			switch r.o.Dist {
			case "uniform":
				dst[i] = r.o.Min + (r.o.Max-r.o.Min)*r.rng.Float64()
			case "normal":
				dst[i] = r.o.Mean + r.o.Std*r.rng.NormFloat64()
			case "bernoulli":
				dst[i] = 0
				if r.rng.Float64() < r.o.P {
					dst[i] = 1
				}
			}
		}
	}
	r.last = t
	return nil
}
