package sim

import (
	"fmt"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/sim/npz"
)

// ParamsFromArrays reads built parameters from arrays keyed as Nengo
// fixtures and SaveParams name them: ens/<label>/{gain, bias, encoders,
// eval_points, max_rates, intercepts, scaled_encoders, state/<var>} and
// conn/<label>/{weights, eval_points, solver_targets}. Other keys (probe/…,
// meta/…) are ignored.
func ParamsFromArrays(arrays map[string]npz.Array) (*Params, error) {
	p := &Params{Ensembles: map[string]*EnsembleParams{}, Connections: map[string]*ConnectionParams{}}
	for k, a := range arrays {
		parts := strings.Split(k, "/")
		switch {
		case parts[0] == "ens" && len(parts) >= 3:
			e := p.Ensembles[parts[1]]
			if e == nil {
				e = &EnsembleParams{State: map[string][]float64{}}
				p.Ensembles[parts[1]] = e
			}
			switch {
			case len(parts) == 3 && parts[2] == "gain":
				e.Gain = a.Data
			case len(parts) == 3 && parts[2] == "bias":
				e.Bias = a.Data
			case len(parts) == 3 && parts[2] == "encoders":
				e.Encoders = a.Data
			case len(parts) == 3 && parts[2] == "scaled_encoders":
				e.ScaledEncoders = a.Data
			case len(parts) == 3 && parts[2] == "eval_points":
				e.EvalPoints = a.Data
			case len(parts) == 3 && parts[2] == "max_rates":
				e.MaxRates = a.Data
			case len(parts) == 3 && parts[2] == "intercepts":
				e.Intercepts = a.Data
			case len(parts) == 4 && parts[2] == "state":
				e.State[parts[3]] = a.Data
			}
		case parts[0] == "conn" && len(parts) == 3:
			c := p.Connections[parts[1]]
			if c == nil {
				c = &ConnectionParams{}
				p.Connections[parts[1]] = c
			}
			switch parts[2] {
			case "weights":
				c.Weights = a.Data
				switch len(a.Shape) {
				case 0:
					c.Rows, c.Cols = 1, 1
				case 1:
					c.Rows, c.Cols = 1, a.Shape[0]
				case 2:
					c.Rows, c.Cols = a.Shape[0], a.Shape[1]
				default:
					return nil, fmt.Errorf("sim: params %q: shape %v: weights must have at most 2 dimensions", k, a.Shape)
				}
			case "eval_points":
				c.EvalPoints = a.Data
				if len(a.Shape) == 2 {
					c.EvalDims = a.Shape[1]
				}
			case "solver_targets":
				c.Targets = a.Data
			}
		}
	}
	return p, nil
}

// LoadParams reads built parameters from an .npz file (see
// ParamsFromArrays), e.g. one exported from Nengo.
func LoadParams(path string) (*Params, error) {
	arrays, err := npz.Read(path)
	if err != nil {
		return nil, err
	}
	return ParamsFromArrays(arrays)
}

// Arrays returns the parameters as arrays keyed like ParamsFromArrays
// expects; dims gives each ensemble's dimensions for matrix shapes
// (Model.Arrays fills it from the network).
func (p *Params) arrays(dims map[string]int) map[string]npz.Array {
	out := map[string]npz.Array{}
	vec := func(k string, v []float64) {
		if v != nil {
			out[k] = npz.Array{Shape: []int{len(v)}, Data: append([]float64(nil), v...)}
		}
	}
	mat := func(k string, v []float64, cols int) {
		if v != nil && cols > 0 {
			out[k] = npz.Array{Shape: []int{len(v) / cols, cols}, Data: append([]float64(nil), v...)}
		}
	}
	labels := make([]string, 0, len(p.Ensembles))
	for l := range p.Ensembles {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		e, d, pre := p.Ensembles[l], dims[l], "ens/"+l+"/"
		vec(pre+"gain", e.Gain)
		vec(pre+"bias", e.Bias)
		vec(pre+"max_rates", e.MaxRates)
		vec(pre+"intercepts", e.Intercepts)
		mat(pre+"encoders", e.Encoders, d)
		mat(pre+"scaled_encoders", e.ScaledEncoders, d)
		mat(pre+"eval_points", e.EvalPoints, d)
		for name, v := range e.State {
			vec(pre+"state/"+name, v)
		}
	}
	for l, c := range p.Connections {
		pre := "conn/" + l + "/"
		if c.Weights != nil {
			out[pre+"weights"] = npz.Array{Shape: []int{c.Rows, c.Cols}, Data: append([]float64(nil), c.Weights...)}
		}
		if c.EvalPoints != nil && c.EvalDims > 0 {
			mat(pre+"eval_points", c.EvalPoints, c.EvalDims)
			if m := len(c.EvalPoints) / c.EvalDims; m > 0 && c.Targets != nil {
				mat(pre+"solver_targets", c.Targets, len(c.Targets)/m)
			}
		}
	}
	return out
}

// Arrays returns the model's built parameters keyed as Nengo fixtures
// (ens/<label>/gain, …, conn/<label>/weights), ready for npz.Write.
func (m *Model) Arrays() map[string]npz.Array {
	dims := map[string]int{}
	for e, k := range EnsembleKeys(m.Net) {
		dims[k] = e.Dims
	}
	return m.Params.arrays(dims)
}

// SaveParams writes the model's built parameters to an .npz file that
// LoadParams (and numpy.load) reads.
func (m *Model) SaveParams(path string) error { return npz.Write(path, m.Arrays()) }
