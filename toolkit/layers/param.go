package layers

import (
	"fmt"
	"math"
)

// Role is what a parameter is to its layer. Code that treats parameters
// differently by what they are — a regulariser that penalises kernels
// but not biases, an optimiser rule for the biases — selects them by
// Role, never by their names (names are for display and file keys).
type Role uint8

const (
	// RoleOther is a parameter with no declared role (the zero value: a
	// Func layer's parameter unless it declares one).
	RoleOther Role = iota
	// RoleKernel is a weight matrix or convolution kernel (Dense, Conv1D,
	// Conv2D "kernel"; Keras's kernel).
	RoleKernel
	// RoleBias is an additive bias.
	RoleBias
	// RoleGamma and RoleBeta are BatchNorm's scale and offset.
	RoleGamma
	RoleBeta
	// RoleMovingMean and RoleMovingVariance are BatchNorm's moving
	// statistics (not trainable).
	RoleMovingMean
	RoleMovingVariance
)

var roleNames = [...]string{"other", "kernel", "bias", "gamma", "beta", "moving_mean", "moving_variance"}

// String is the role's Keras name ("kernel", "bias", …; "other").
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", uint8(r))
}

// Constraint is a projection applied to a parameter's values after every
// optimiser step, as Keras's kernel_constraint and bias_constraint
// (keras.io/api/layers/constraints): the trainer (package train) calls
// Project on the parameter's values once the optimiser has updated them.
// Project works in place and must not change the length.
type Constraint interface {
	Project(v []float64)
	String() string
}

// Bounds is the Constraint that clamps every value to [Lo, Hi]:
// v ← max(Lo, min(Hi, v)). It is the hxtorch paper's clamp_weight_, which
// keeps the weights of analog layers within the hardware range ("hxtorch:
// PyTorch for BrainScaleS-2 — Perceptrons on Analog Neuromorphic
// Hardware", Spilger et al., 2020). A NaN value stays NaN.
type Bounds struct {
	Lo, Hi float64
}

// Project clamps v to [Lo, Hi] in place.
func (b Bounds) Project(v []float64) {
	for i, x := range v {
		v[i] = math.Max(b.Lo, math.Min(b.Hi, x))
	}
}

// String is "Bounds[Lo, Hi]".
func (b Bounds) String() string { return fmt.Sprintf("Bounds[%g, %g]", b.Lo, b.Hi) }

// Validate reports an error unless Lo ≤ Hi and neither is NaN.
func (b Bounds) Validate() error {
	if math.IsNaN(b.Lo) || math.IsNaN(b.Hi) || b.Lo > b.Hi {
		return fmt.Errorf("layers: Bounds[%v, %v]: want Lo ≤ Hi, neither NaN", b.Lo, b.Hi)
	}
	return nil
}

// Clone returns a deep copy of p (its Shape and Value copied; Role and
// Constraint shared, a Constraint being a value that Project does not
// change). Layers implemented outside this package return Clones from
// their Params method.
func (p Param) Clone() Param {
	return Param{
		Name:       p.Name,
		Role:       p.Role,
		Shape:      append([]int(nil), p.Shape...),
		Value:      append([]float64(nil), p.Value...),
		Trainable:  p.Trainable,
		Constraint: p.Constraint,
	}
}

// checkConstraint validates a declared constraint that can validate itself.
func checkConstraint(kind string, p Param) error {
	if v, ok := p.Constraint.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return errf(kind, "Params", p.Name, "constraint: %v", err)
		}
	}
	return nil
}
