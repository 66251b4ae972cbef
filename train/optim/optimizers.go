package optim

import "math"

// SGD is stochastic gradient descent with optional momentum, as Keras's
// SGD (TensorFlow 2 docs, tf.keras.optimizers.SGD):
//
//	Momentum = 0:  p ← p − lr·g
//	otherwise:     v ← m·v − lr·g;  p ← p + v
//	Nesterov:      v ← m·v − lr·g;  p ← p + m·v − lr·g
//
// the Nesterov form being Keras's reformulation of Sutskever et al. 2013,
// "On the importance of initialization and momentum in deep learning",
// eq. 3–4. A zero LR (with no Schedule) means Keras's default 0.01.
// Use a *SGD: Step keeps the velocity (slot "momentum") in the receiver.
type SGD struct {
	LR       float64  // learning rate; 0 → 0.01; ignored when Schedule is set
	Schedule Schedule // optional learning-rate schedule
	Momentum float64  // in [0, 1]; 0 turns momentum off
	Nesterov bool     // Nesterov momentum (needs Momentum > 0 to matter)

	s    slots
	ents []*entry
}

func (o *SGD) Name() string { return "SGD" }

func (o *SGD) slots() *slots {
	if o.s.names == nil {
		o.s = newSlots("momentum")
	}
	return &o.s
}

func (o *SGD) check(step int) error {
	if err := validHyper("SGD", "Momentum", o.Momentum, 0, 1, false); err != nil {
		return err
	}
	_, err := rate("SGD", o.LR, 0.01, o.Schedule, step)
	return err
}

// Step applies one SGD update to every var.
func (o *SGD) Step(vars []*Var, step int) error {
	if err := o.check(step); err != nil {
		return err
	}
	lr, _ := rate("SGD", o.LR, 0.01, o.Schedule, step)
	var err error
	if o.ents, err = o.slots().begin("SGD", vars, step, o.ents); err != nil {
		return err
	}
	m := o.Momentum
	for i, v := range vars {
		if m == 0 {
			for j, g := range v.Grad {
				v.Value[j] -= lr * g
			}
			continue
		}
		vel := o.ents[i].buf(0, len(v.Value), 0)
		for j, g := range v.Grad {
			vel[j] = m*vel[j] - lr*g
			if o.Nesterov {
				v.Value[j] += m*vel[j] - lr*g
			} else {
				v.Value[j] += vel[j]
			}
		}
	}
	return nil
}

// State exports the velocities, keyed "<var name>/momentum".
func (o *SGD) State() map[string][]float64 { return o.slots().state() }

// SetState replaces all velocities by copies of m.
func (o *SGD) SetState(m map[string][]float64) error { return o.slots().setState("SGD", m) }

// Adam is Kingma & Ba 2015, "Adam: A Method for Stochastic Optimization",
// Algorithm 1 with the efficient bias correction of their §2 (the form
// Keras's Adam uses, TensorFlow 2 docs, tf.keras.optimizers.Adam):
//
//	m ← β1·m + (1−β1)·g
//	v ← β2·v + (1−β2)·g²
//	α ← lr·√(1−β2^t)/(1−β1^t)
//	p ← p − α·m/(√v + ε)
//
// with t the step (from 1). Zero fields take Keras's defaults: LR 1e-3,
// Beta1 0.9, Beta2 0.999, Epsilon 1e-7 (so a literal β = 0 is not
// expressible; use a tiny value). Slots "m" and "v". Use a *Adam.
type Adam struct {
	LR, Beta1, Beta2, Epsilon float64
	Schedule                  Schedule // optional; overrides LR

	s    slots
	ents []*entry
}

func (o *Adam) Name() string { return "Adam" }

func (o *Adam) slots() *slots {
	if o.s.names == nil {
		o.s = newSlots("m", "v")
	}
	return &o.s
}

func (o *Adam) hyper() (b1, b2, eps float64) {
	return orDefault(o.Beta1, 0.9), orDefault(o.Beta2, 0.999), orDefault(o.Epsilon, 1e-7)
}

func orDefault(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

func (o *Adam) check(step int) error {
	b1, b2, eps := o.hyper()
	if err := validHyper("Adam", "Beta1", b1, 0, 1, true); err != nil {
		return err
	}
	if err := validHyper("Adam", "Beta2", b2, 0, 1, true); err != nil {
		return err
	}
	if err := validHyper("Adam", "Epsilon", eps, 0, math.Inf(1), false); err != nil {
		return err
	}
	_, err := rate("Adam", o.LR, 1e-3, o.Schedule, step)
	return err
}

// Step applies one Adam update to every var.
func (o *Adam) Step(vars []*Var, step int) error {
	if err := o.check(step); err != nil {
		return err
	}
	lr, _ := rate("Adam", o.LR, 1e-3, o.Schedule, step)
	var err error
	if o.ents, err = o.slots().begin("Adam", vars, step, o.ents); err != nil {
		return err
	}
	b1, b2, eps := o.hyper()
	t := float64(step)
	alpha := lr * math.Sqrt(1-math.Pow(b2, t)) / (1 - math.Pow(b1, t))
	for i, v := range vars {
		n := len(v.Value)
		m := o.ents[i].buf(0, n, 0)
		s := o.ents[i].buf(1, n, 0)
		for j, g := range v.Grad {
			m[j] = b1*m[j] + (1-b1)*g
			s[j] = b2*s[j] + (1-b2)*g*g
			v.Value[j] -= alpha * m[j] / (math.Sqrt(s[j]) + eps)
		}
	}
	return nil
}

// State exports the moments, keyed "<var name>/m" and "<var name>/v".
func (o *Adam) State() map[string][]float64 { return o.slots().state() }

// SetState replaces all moments by copies of m.
func (o *Adam) SetState(m map[string][]float64) error { return o.slots().setState("Adam", m) }

// RMSProp is Hinton's RMSProp (Lecture 6e of "Neural Networks for Machine
// Learning", 2012) in the form of TensorFlow 2's RMSprop (TensorFlow 2
// docs, tf.keras.optimizers.RMSprop, dense update):
//
//	ms ← ρ·ms + (1−ρ)·g²
//	centered:  mg ← ρ·mg + (1−ρ)·g;  d ← ms − mg²   (else d ← ms)
//	Momentum = 0:  p ← p − lr·g/(√d + ε)
//	otherwise:     mom ← μ·mom + lr·g/(√d + ε);  p ← p − mom
//
// (TF's fused momentum kernel puts ε inside the square root; here ε is
// outside in every case, as in the dense formula.) d is clamped at 0
// against rounding. Zero fields take Keras's defaults: LR 1e-3, Rho 0.9,
// Epsilon 1e-7; Momentum 0 is off. Slots "ms", "mg" (centered) and
// "momentum". Use a *RMSProp.
type RMSProp struct {
	LR, Rho, Epsilon, Momentum float64
	Centered                   bool
	Schedule                   Schedule // optional; overrides LR

	s    slots
	ents []*entry
}

func (o *RMSProp) Name() string { return "RMSProp" }

func (o *RMSProp) slots() *slots {
	if o.s.names == nil {
		o.s = newSlots("ms", "mg", "momentum")
	}
	return &o.s
}

func (o *RMSProp) check(step int) error {
	if err := validHyper("RMSProp", "Rho", orDefault(o.Rho, 0.9), 0, 1, true); err != nil {
		return err
	}
	if err := validHyper("RMSProp", "Epsilon", orDefault(o.Epsilon, 1e-7), 0, math.Inf(1), false); err != nil {
		return err
	}
	if err := validHyper("RMSProp", "Momentum", o.Momentum, 0, 1, false); err != nil {
		return err
	}
	_, err := rate("RMSProp", o.LR, 1e-3, o.Schedule, step)
	return err
}

// Step applies one RMSProp update to every var.
func (o *RMSProp) Step(vars []*Var, step int) error {
	if err := o.check(step); err != nil {
		return err
	}
	lr, _ := rate("RMSProp", o.LR, 1e-3, o.Schedule, step)
	var err error
	if o.ents, err = o.slots().begin("RMSProp", vars, step, o.ents); err != nil {
		return err
	}
	rho, eps, mu := orDefault(o.Rho, 0.9), orDefault(o.Epsilon, 1e-7), o.Momentum
	for i, v := range vars {
		n := len(v.Value)
		ms := o.ents[i].buf(0, n, 0)
		var mg, mom []float64
		if o.Centered {
			mg = o.ents[i].buf(1, n, 0)
		}
		if mu > 0 {
			mom = o.ents[i].buf(2, n, 0)
		}
		for j, g := range v.Grad {
			ms[j] = rho*ms[j] + (1-rho)*g*g
			d := ms[j]
			if mg != nil {
				mg[j] = rho*mg[j] + (1-rho)*g
				d = math.Max(0, d-mg[j]*mg[j])
			}
			inc := lr * g / (math.Sqrt(d) + eps)
			if mom != nil {
				mom[j] = mu*mom[j] + inc
				inc = mom[j]
			}
			v.Value[j] -= inc
		}
	}
	return nil
}

// State exports the averages, keyed "<var name>/ms", "/mg", "/momentum".
func (o *RMSProp) State() map[string][]float64 { return o.slots().state() }

// SetState replaces all averages by copies of m.
func (o *RMSProp) SetState(m map[string][]float64) error {
	return o.slots().setState("RMSProp", m)
}

// Adagrad is Duchi, Hazan & Singer 2011, "Adaptive Subgradient Methods for
// Online Learning and Stochastic Optimization" (diagonal form), as Keras's
// Adagrad (TensorFlow 2 docs, tf.keras.optimizers.Adagrad):
//
//	acc ← acc + g²   (acc starts at InitialAccumulator)
//	p   ← p − lr·g/(√acc + ε)
//
// Zero fields take Keras's defaults: LR 1e-3, InitialAccumulator 0.1,
// Epsilon 1e-7. Slot "accumulator". Use a *Adagrad.
type Adagrad struct {
	LR, InitialAccumulator, Epsilon float64
	Schedule                        Schedule // optional; overrides LR

	s    slots
	ents []*entry
}

func (o *Adagrad) Name() string { return "Adagrad" }

func (o *Adagrad) slots() *slots {
	if o.s.names == nil {
		o.s = newSlots("accumulator")
	}
	return &o.s
}

func (o *Adagrad) check(step int) error {
	if err := validHyper("Adagrad", "InitialAccumulator", orDefault(o.InitialAccumulator, 0.1), 0, math.Inf(1), false); err != nil {
		return err
	}
	if err := validHyper("Adagrad", "Epsilon", orDefault(o.Epsilon, 1e-7), 0, math.Inf(1), false); err != nil {
		return err
	}
	_, err := rate("Adagrad", o.LR, 1e-3, o.Schedule, step)
	return err
}

// Step applies one Adagrad update to every var.
func (o *Adagrad) Step(vars []*Var, step int) error {
	if err := o.check(step); err != nil {
		return err
	}
	lr, _ := rate("Adagrad", o.LR, 1e-3, o.Schedule, step)
	var err error
	if o.ents, err = o.slots().begin("Adagrad", vars, step, o.ents); err != nil {
		return err
	}
	init, eps := orDefault(o.InitialAccumulator, 0.1), orDefault(o.Epsilon, 1e-7)
	for i, v := range vars {
		acc := o.ents[i].buf(0, len(v.Value), init)
		for j, g := range v.Grad {
			acc[j] += g * g
			v.Value[j] -= lr * g / (math.Sqrt(acc[j]) + eps)
		}
	}
	return nil
}

// State exports the accumulators, keyed "<var name>/accumulator".
func (o *Adagrad) State() map[string][]float64 { return o.slots().state() }

// SetState replaces all accumulators by copies of m.
func (o *Adagrad) SetState(m map[string][]float64) error {
	return o.slots().setState("Adagrad", m)
}

var (
	_ Optimizer = (*SGD)(nil)
	_ Optimizer = (*Adam)(nil)
	_ Optimizer = (*RMSProp)(nil)
	_ Optimizer = (*Adagrad)(nil)
	_ Optimizer = (*Clip)(nil)
	_ Optimizer = (*Multi)(nil)
)
