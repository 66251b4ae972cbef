package analog

import (
	"fmt"
	"math"
	"strings"

	"github.com/neurogo/neurogo/train/optim"
)

// WeightClamp is hxtorch's clamp_weight_ as an optimiser wrapper: after
// every step of Opt it clamps the kernels of the analog layers (vars of
// Kind "analog.*" named "….kernel") to the hardware range ±63, so that
// the trained values stay the ones the chip runs (the forward pass clamps
// anyway; without the projection the straight-through gradient would
// push weights ever further outside, where they no longer act).
type WeightClamp struct {
	Opt optim.Optimizer
	// Max is the bound (0: WeightMax).
	Max float64
}

// Name is "WeightClamp(<inner>)".
func (c *WeightClamp) Name() string {
	if c.Opt == nil {
		return "WeightClamp(<nil>)"
	}
	return "WeightClamp(" + c.Opt.Name() + ")"
}

// Step runs Opt and clamps the analog kernels.
func (c *WeightClamp) Step(vars []*optim.Var, step int) error {
	if c.Opt == nil {
		return fmt.Errorf("analog: WeightClamp: Opt is nil")
	}
	m := c.Max
	if m == 0 {
		m = WeightMax
	}
	if !(m > 0) || math.IsInf(m, 0) {
		return fmt.Errorf("analog: WeightClamp.Max = %v: must be positive and finite", c.Max)
	}
	if err := c.Opt.Step(vars, step); err != nil {
		return err
	}
	for _, v := range vars {
		if strings.HasPrefix(v.Kind, "analog.") && strings.HasSuffix(v.Name, "kernel") {
			for i, x := range v.Value {
				v.Value[i] = math.Max(-m, math.Min(m, x))
			}
		}
	}
	return nil
}

// State is Opt's state.
func (c *WeightClamp) State() map[string][]float64 {
	if c.Opt == nil {
		return map[string][]float64{}
	}
	return c.Opt.State()
}

// SetState restores Opt's state.
func (c *WeightClamp) SetState(s map[string][]float64) error {
	if c.Opt == nil {
		return fmt.Errorf("analog: WeightClamp: Opt is nil")
	}
	return c.Opt.SetState(s)
}
