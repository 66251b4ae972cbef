package toolkit

import (
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/toolkit/synapses"
)

// Defaults holds per-type default parameters (Nengo's network config,
// `with net.config[nengo.Ensemble]: …`). A Network's constructors copy
// them into each new object; a sub-network starts with a copy of its
// parent's defaults.
type Defaults struct {
	// Ensemble defaults.
	NeuronType        neurons.Type
	MaxRates          dists.Distribution
	Intercepts        dists.Distribution
	Encoders          dists.Distribution
	EvalPoints        dists.Distribution
	Radius            float64
	NormalizeEncoders bool
	// Connection defaults.
	Synapse synapses.Synapse
	Solver  solvers.Solver
	// Probe default synapse (nil: none).
	ProbeSynapse synapses.Synapse
}

// NengoDefaults returns Nengo 4.1's defaults: LIF neurons, max rates
// U(200, 400) Hz, intercepts U(-1, 0.9), encoders scattered on the unit
// sphere and eval points scattered in the unit ball (ScatteredHypersphere,
// Nengo 4's defaults), radius 1, normalised encoders; connection
// synapse Lowpass(0.005) and solver LstsqL2(reg=0.1); unfiltered probes.
func NengoDefaults() Defaults {
	return Defaults{
		NeuronType:        neurons.NewLIF(),
		MaxRates:          dists.Uniform{Low: 200, High: 400},
		Intercepts:        dists.Uniform{Low: -1, High: 0.9},
		Encoders:          dists.ScatteredHypersphere{Surface: true},
		EvalPoints:        dists.ScatteredHypersphere{},
		Radius:            1,
		NormalizeEncoders: true,
		Synapse:           synapses.Lowpass{Tau: 0.005},
		Solver:            solvers.NewLstsqL2(),
	}
}

// Network is a container of ensembles, nodes, connections, probes and
// sub-networks (nengo.Network). Objects are added by the constructor
// methods (Ensemble, Node, Connect, Probe, Network), which fill in
// Defaults; fields can be changed afterwards and are checked by Validate
// (and by sim.Build).
//
// Seed is the network's seed; every object's random draws use a seed
// derived from it and the object's position (see ObjectSeed), so the same
// seed gives the same model. A sub-network's seed is derived from its
// parent's unless set with SetSeed.
type Network struct {
	Label    string
	Seed     int64
	Defaults Defaults

	Ensembles   []*Ensemble
	Nodes       []*Node
	Connections []*Connection
	Probes      []*Probe
	Networks    []*Network

	seedSet bool
	parent  *Network
}

// New returns an empty top-level network with Nengo's defaults and the
// given seed.
func New(label string, seed int64) *Network {
	return &Network{Label: label, Seed: seed, Defaults: NengoDefaults(), seedSet: true}
}

// Network adds a sub-network whose defaults are a copy of net's and whose
// seed is derived from net's seed and its position.
func (net *Network) Network(label string) *Network {
	sub := &Network{Label: label, Defaults: net.Defaults, parent: net}
	net.Networks = append(net.Networks, sub)
	return sub
}

// SetSeed sets the seed explicitly (it is then not derived from the parent).
func (net *Network) SetSeed(seed int64) { net.Seed, net.seedSet = seed, true }

// Seeds returns the seed of every object in the tree rooted at net
// (keys: *Network, *Ensemble, *Node, *Connection, *Probe): an explicitly set seed
// (SetSeed, or the seed given to New for the root), otherwise
// DeriveSeed(parent network's seed, kind, position). It is computed when
// asked (sim.Build asks), so changing net.Seed after adding objects
// changes every derived seed, and the same seeds always give the same
// model.
func (net *Network) Seeds() map[any]int64 {
	out := map[any]int64{}
	var walk func(n *Network, seed int64)
	walk = func(n *Network, seed int64) {
		out[n] = seed
		for i, e := range n.Ensembles {
			out[e] = pick(e.SeedSet, e.Seed, DeriveSeed(seed, "ens", i))
		}
		for i, c := range n.Connections {
			out[c] = pick(c.SeedSet, c.Seed, DeriveSeed(seed, "conn", i))
		}
		for i, p := range n.Probes {
			out[p] = pick(p.SeedSet, p.Seed, DeriveSeed(seed, "probe", i))
		}
		for i, nd := range n.Nodes {
			out[nd] = DeriveSeed(seed, "node", i)
		}
		for i, sub := range n.Networks {
			walk(sub, pick(sub.seedSet, sub.Seed, DeriveSeed(seed, "net", i)))
		}
	}
	walk(net, net.Seed)
	return out
}

func pick(set bool, explicit, derived int64) int64 {
	if set {
		return explicit
	}
	return derived
}

// All calls f for every network in the tree rooted at net, depth first,
// parents before children.
func (net *Network) All(f func(*Network)) {
	f(net)
	for _, s := range net.Networks {
		s.All(f)
	}
}

// AllEnsembles returns the ensembles of net and its sub-networks, in
// build order.
func (net *Network) AllEnsembles() []*Ensemble {
	var out []*Ensemble
	net.All(func(n *Network) { out = append(out, n.Ensembles...) })
	return out
}

// AllNodes returns every node in the tree, in build order.
func (net *Network) AllNodes() []*Node {
	var out []*Node
	net.All(func(n *Network) { out = append(out, n.Nodes...) })
	return out
}

// AllConnections returns every connection in the tree, in build order.
func (net *Network) AllConnections() []*Connection {
	var out []*Connection
	net.All(func(n *Network) { out = append(out, n.Connections...) })
	return out
}

// AllProbes returns every probe in the tree, in build order.
func (net *Network) AllProbes() []*Probe {
	var out []*Probe
	net.All(func(n *Network) { out = append(out, n.Probes...) })
	return out
}

// DeriveSeed returns a seed for the index-th object of the given kind in
// a network with seed parent: SplitMix64 (Steele et al. 2014) of the
// parent seed mixed with a hash of kind and the index. It is a pure
// function, so the same network seed always gives the same object seeds.
func DeriveSeed(parent int64, kind string, index int) int64 {
	h := uint64(1469598103934665603) // FNV-1a offset basis
	for i := 0; i < len(kind); i++ {
		h ^= uint64(kind[i])
		h *= 1099511628211
	}
	x := uint64(parent) ^ splitmix(h) ^ splitmix(uint64(index)+0x9e3779b97f4a7c15)
	return int64(splitmix(x) >> 1)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Validate checks every object in the tree and returns the first problem
// found (a *validate.Error naming the object, field, value and rule).
func (net *Network) Validate() error {
	var err error
	net.All(func(n *Network) {
		if err != nil {
			return
		}
		for _, e := range n.Ensembles {
			if err = e.Validate(); err != nil {
				return
			}
		}
		for _, nd := range n.Nodes {
			if err = nd.Validate(); err != nil {
				return
			}
		}
		for _, c := range n.Connections {
			if err = c.Validate(); err != nil {
				return
			}
		}
		for _, p := range n.Probes {
			if err = p.Validate(); err != nil {
				return
			}
		}
	})
	return err
}
