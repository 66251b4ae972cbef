package optim

import (
	"fmt"
	"math"
)

// Constant is a fixed learning rate. (The field is LR, not Rate: Go does
// not allow a field and a method of the same name.)
type Constant struct {
	LR float64
}

// Rate returns c.LR for every step.
func (c Constant) Rate(step int) float64 { return c.LR }

func (c Constant) Name() string { return fmt.Sprintf("Constant(%g)", c.LR) }

// Validate reports an LR that is negative, NaN or infinite.
func (c Constant) Validate() error {
	return validSched("Constant", "LR", c.LR)
}

// StepDecay multiplies the rate by Factor every Every steps:
//
//	rate = Initial · Factor^⌊(step−1)/Every⌋
//
// (the "step decay" of Keras's LearningRateScheduler examples, with steps
// counted from 1).
type StepDecay struct {
	Initial, Factor float64
	Every           int // > 0
}

func (s StepDecay) Rate(step int) float64 {
	if s.Every <= 0 {
		return math.NaN()
	}
	k := max(step-1, 0) / s.Every
	return s.Initial * math.Pow(s.Factor, float64(k))
}

func (s StepDecay) Name() string {
	return fmt.Sprintf("StepDecay(%g, ×%g every %d)", s.Initial, s.Factor, s.Every)
}

// Validate reports a negative, NaN or infinite Initial or Factor, or Every ≤ 0.
func (s StepDecay) Validate() error {
	if err := validSched("StepDecay", "Initial", s.Initial); err != nil {
		return err
	}
	if err := validSched("StepDecay", "Factor", s.Factor); err != nil {
		return err
	}
	if s.Every <= 0 {
		return fmt.Errorf("schedule StepDecay: Every = %d, must be > 0", s.Every)
	}
	return nil
}

// ExponentialDecay is Keras's ExponentialDecay (TensorFlow 2 docs,
// tf.keras.optimizers.schedules.ExponentialDecay), with Keras's step
// counted from 0, i.e. k = step−1:
//
//	rate = Initial · DecayRate^(k/Steps)      (Staircase: ⌊k/Steps⌋)
//
// (The field is DecayRate, Keras's decay_rate: Go does not allow a field
// named Rate beside the method Rate.)
type ExponentialDecay struct {
	Initial, DecayRate float64
	Steps              int // decay_steps, > 0
	Staircase          bool
}

func (s ExponentialDecay) Rate(step int) float64 {
	if s.Steps <= 0 {
		return math.NaN()
	}
	k := float64(max(step-1, 0)) / float64(s.Steps)
	if s.Staircase {
		k = math.Floor(k)
	}
	return s.Initial * math.Pow(s.DecayRate, k)
}

func (s ExponentialDecay) Name() string {
	return fmt.Sprintf("ExponentialDecay(%g, %g per %d steps, staircase %v)",
		s.Initial, s.DecayRate, s.Steps, s.Staircase)
}

// Validate reports a negative, NaN or infinite Initial or DecayRate, or Steps ≤ 0.
func (s ExponentialDecay) Validate() error {
	if err := validSched("ExponentialDecay", "Initial", s.Initial); err != nil {
		return err
	}
	if err := validSched("ExponentialDecay", "DecayRate", s.DecayRate); err != nil {
		return err
	}
	if s.Steps <= 0 {
		return fmt.Errorf("schedule ExponentialDecay: Steps = %d, must be > 0", s.Steps)
	}
	return nil
}

// CosineDecay is Keras's CosineDecay without warm-up (TensorFlow 2 docs,
// tf.keras.optimizers.schedules.CosineDecay; Loshchilov & Hutter 2017,
// SGDR, without restarts), with k = min(step−1, Steps):
//
//	rate = Initial · ((1−Alpha)·½(1 + cos(π·k/Steps)) + Alpha)
type CosineDecay struct {
	Initial float64
	Steps   int     // decay_steps, > 0
	Alpha   float64 // final rate as a fraction of Initial, in [0, 1]
}

func (s CosineDecay) Rate(step int) float64 {
	if s.Steps <= 0 {
		return math.NaN()
	}
	k := float64(min(max(step-1, 0), s.Steps))
	c := 0.5 * (1 + math.Cos(math.Pi*k/float64(s.Steps)))
	return s.Initial * ((1-s.Alpha)*c + s.Alpha)
}

func (s CosineDecay) Name() string {
	return fmt.Sprintf("CosineDecay(%g over %d steps, alpha %g)", s.Initial, s.Steps, s.Alpha)
}

// Validate reports a negative, NaN or infinite Initial, Alpha outside
// [0, 1], or Steps ≤ 0.
func (s CosineDecay) Validate() error {
	if err := validSched("CosineDecay", "Initial", s.Initial); err != nil {
		return err
	}
	if math.IsNaN(s.Alpha) || s.Alpha < 0 || s.Alpha > 1 {
		return fmt.Errorf("schedule CosineDecay: Alpha = %v, must be in [0, 1]", s.Alpha)
	}
	if s.Steps <= 0 {
		return fmt.Errorf("schedule CosineDecay: Steps = %d, must be > 0", s.Steps)
	}
	return nil
}

func validSched(name, field string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return fmt.Errorf("schedule %s: %s = %v, must be finite and ≥ 0", name, field, x)
	}
	return nil
}

var (
	_ Schedule = Constant{}
	_ Schedule = StepDecay{}
	_ Schedule = ExponentialDecay{}
	_ Schedule = CosineDecay{}
)
