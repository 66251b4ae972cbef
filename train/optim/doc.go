// Package optim holds the optimisers the trainer applies to a model's
// trainable parameters: SGD (with momentum and Nesterov momentum), Adam,
// RMSProp and Adagrad in the Keras / TensorFlow 2 formulations, learning-rate
// schedules (Constant, StepDecay, ExponentialDecay, CosineDecay), gradient
// clipping (Clip) and per-layer routing (Multi, after the multi-optimizer
// of neon's "Design Decisions" notes, Intel Nervana neon documentation,
// 2017).
//
// A parameter is a Var: a name, its owner's kind, two slices of equal
// length, Value and Grad, and typed references to what it is — Param, the
// declaration of a layer parameter (its layers.Role and
// layers.Constraint), and Owner, the model object it belongs to. Names
// are for display and state keys; Multi's rules can select by Owner or
// Role instead, and ApplyConstraints, which package train calls after
// every Step, projects each Value by its declared constraint. Optimizer.Step(vars, step) updates every Value in
// place from its Grad; step counts from 1 and is the t of Adam's bias
// correction and the argument of the schedule, so a resumed run passes the
// step it resumes at. Each optimiser keeps per-var state (moments,
// accumulators) created on first sight and keyed by the var's Name; State
// exports it as "<var name>/<slot>" → values and SetState restores it, so
// training continues bit-identically from a checkpoint.
//
// Invariants and conventions:
//   - Zero hyper-parameter fields take Keras's defaults (documented on each
//     type); the learning rate is Schedule.Rate(step) when Schedule is set.
//   - Step validates everything before updating anything: hyper-parameters
//     (negative, NaN, out of range), step < 1, len(Value) != len(Grad),
//     duplicate names, and NaN/Inf gradients (a *NonFiniteError naming the
//     var). A refused step leaves every Value and all state unchanged
//     (Clip's clipping included; Multi checks every receiving optimiser
//     first).
//   - After the first Step with a given set of vars, Step allocates nothing.
//   - Optimisers keep state, so use them by pointer (&Adam{}); one optimiser
//     per training run. They are not safe for concurrent use.
//   - float64 throughout; no package-level mutable state.
//
// A training loop:
//
//	opt := &optim.Clip{Opt: &optim.Adam{}, MaxNorm: 1}
//	w := &optim.Var{Name: "dense.kernel", Kind: "Dense", Value: kernel, Grad: dKernel}
//	for step := 1; step <= n; step++ {
//		// … fill w.Grad by backpropagation …
//		if err := opt.Step([]*optim.Var{w}, step); err != nil {
//			return err // e.g. *optim.NonFiniteError
//		}
//	}
//	checkpoint := opt.State() // later: opt.SetState(checkpoint)
//
// The API is not generic so that notebook cells, run by an interpreter that
// cannot see generic declarations, can use it.
package optim
