package validate_test

import (
	"errors"
	"fmt"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// One errors.As finds the invalid input, whichever package reported it.
func ExampleError() {
	var err error = fmt.Errorf("building: %w", &validate.Error{
		Pkg: "neurons", Object: "LIF", Field: "TauRC", Value: -0.02, Rule: "must be positive and finite"})
	fmt.Println(err)
	var ve *validate.Error
	if errors.As(err, &ve) {
		fmt.Println(ve.Object, ve.Field, ve.Value)
	}
	// Output:
	// building: neurons: LIF.TauRC = -0.02: must be positive and finite
	// LIF TauRC -0.02
}

// A spec error carries its position and names the value in its rule.
func ExampleError_spec() {
	err := &validate.Error{Pos: validate.Pos{File: "net.st_graph", Line: 23, Col: 9},
		Object: "neuron_pools.conv1", Field: "act", Value: validate.NoValue{},
		Rule: `unknown activation "rleu"`, Suggest: "relu"}
	fmt.Println(err)
	// Output: net.st_graph:23:9: neuron_pools.conv1.act: unknown activation "rleu" (did you mean "relu"?)
}
