// Package ir is the operator vocabulary of a built model: one Go type per
// operator, after the operators of Nengo's builder (the NengoDL paper,
// "NengoDL: Combining deep learning and neuromorphic modelling methods",
// Daniel Rasmussen, 2019, §2.2 describes them): Reset, Copy,
// ElementwiseInc, DotInc, SparseDotInc, TimeUpdate, SimNeurons,
// SimSynapse, SimProcess, SimNodeFunc (Nengo's SimPyFunc), SimLayer
// (NengoDL's TensorNode), the learning rules SimPES, SimBCM, SimOja,
// SimVoja and SimRLS, SimCallback (an operator run by a function outside
// the executor, such as a Python operator of a Nengo model), and the two operators the simulator's optimiser
// fuses, DotIncPES and EnsembleReLU.
//
// Every operator embeds Base: its object's tag and the signals it sets,
// increments, reads and updates, which order it within a step (for every
// signal: the setter, then the incrementers, then the readers, then the
// updater). Signals are indices into the model's signal table; None
// marks an absent one. The remaining fields of each type are its operands
// and parameters, documented on the type with the arithmetic it does.
//
// Executors — the CPU simulator in float64 and float32 (package sim), the
// trainer's forward and backward passes (package train), accelerator
// backends — lower operators by type through a Lowerer: one method per
// type, each receiving one operator or a group the optimiser merged.
// Lower dispatches to the method of the operators' type. Adding a type
// adds a method to Lowerer, so every executor fails to compile until it
// handles it; none switches on names.
//
//	type counter struct{ dots int } // implements every Lowerer method
//	func (c *counter) DotInc(ops []*ir.DotInc) error { c.dots += len(ops); return nil }
//	…
//	for _, op := range model.Ops {
//		if err := ir.Lower(c, op); err != nil { … }
//	}
//
// Operators are plain values: the optimiser (package opt) rewrites copies
// of them (Clone), so a model's own list stays the builder's.
package ir
