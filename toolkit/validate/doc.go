// Package validate holds Error, the one error type with which every
// toolkit package reports invalid input: a description (toolkit), a
// distribution (toolkit/dists), a neuron type (toolkit/neurons), a synapse
// (toolkit/synapses), a solver (toolkit/solvers), a layer (toolkit/layers)
// or a layerwise-parallel network spec (toolkit/stream). One errors.As
// finds it, whichever package made it:
//
//	var ve *validate.Error
//	if errors.As(err, &ve) {
//		fmt.Println(ve.Object, ve.Field, ve.Value, ve.Rule)
//	}
//
// An Error names the object, the field, the offending value and the rule
// it breaks; the reporting package is the message's prefix:
//
//	toolkit: Ensemble "a".N = -3: must be positive
//	neurons: LIF.TauRC = 0: must be positive and finite
//
// Errors about a description read from a file also carry its position and,
// for a misspelled name, the nearest valid one; their rule names the value
// itself (Value is NoValue), so they read like a compiler's:
//
//	net.st_graph:23:9: neuron_pools.conv1.act: unknown activation "rleu" (did you mean "relu"?)
//
// Messages are stable: tests and users may compare them.
//
// validate imports only the standard library; every toolkit package may
// import it.
package validate
