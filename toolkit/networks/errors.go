package networks

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// argErr reports a bad argument to a network constructor as a
// *validate.Error naming the network (kind and label), the argument, its
// value and the rule it breaks, e.g.
// `toolkit: networks.Product "p".nNeurons = 0: must be positive`.
func argErr(kind, label, arg string, value any, rule string) error {
	return &validate.Error{Pkg: "toolkit", Object: fmt.Sprintf("networks.%s %q", kind, label), Field: arg, Value: value, Rule: rule}
}

func checkParent(kind, label string, parent *toolkit.Network) error {
	if parent == nil {
		return argErr(kind, label, "parent", nil, "must be a network")
	}
	return nil
}

func checkPositiveInt(kind, label, arg string, v int) error {
	if v <= 0 {
		return argErr(kind, label, arg, v, "must be positive")
	}
	return nil
}

func checkPositive(kind, label, arg string, v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return argErr(kind, label, arg, v, "must be positive and finite")
	}
	return nil
}

func checkFinite(kind, label, arg string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return argErr(kind, label, arg, v, "must be finite")
	}
	return nil
}
