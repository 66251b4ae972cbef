package toolkit

import (
	"math/rand/v2"

	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/validate"
)

// Direct is Nengo's Direct neuron type: the ensemble has no neurons and
// represents its input exactly; a connection from it computes its
// Function directly on the value (nengo.Direct). It implements
// neurons.Type so it can be an Ensemble's NeuronType; the neuron-level
// methods fail because there are no neurons.
type Direct struct{}

var _ neurons.Type = Direct{}

func (Direct) Name() string    { return "Direct" }
func (Direct) Spiking() bool   { return false }
func (Direct) Negative() bool  { return true }
func (Direct) Validate() error { return nil }

func directErr(field string) error {
	return &validate.Error{Pkg: "toolkit", Object: "Direct", Field: field, Value: "called", Rule: "Direct ensembles have no neurons"}
}

func (Direct) GainBias(maxRates, intercepts []float64) ([]float64, []float64, error) {
	return nil, nil, directErr("GainBias")
}
func (Direct) MaxRatesIntercepts(gain, bias []float64) ([]float64, []float64, error) {
	return nil, nil, directErr("MaxRatesIntercepts")
}
func (Direct) Rates(dst, x, gain, bias []float64) error { return directErr("Rates") }
func (Direct) State(n int, rng *rand.Rand) (neurons.State, error) {
	return neurons.State{}, nil
}
func (Direct) Step(dt float64, J, out []float64, s neurons.State, rng *rand.Rand) error {
	return directErr("Step")
}
