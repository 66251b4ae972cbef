package build

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/sim/npz"
	"github.com/neurogo/neurogo/toolkit"
)

// ParamsFromArrays reads built parameters from arrays keyed as Nengo
// fixtures and SaveParams name them: ens/<label>/{gain, bias, encoders,
// eval_points, max_rates, intercepts, scaled_encoders, state/<var>} and
// conn/<label>/{weights, eval_points, solver_targets} and, for a sparse
// transform, conn/<label>/{sparse_indices (nnz×2), sparse_data (nnz),
// sparse_shape ([rows, cols])}, the fields of Nengo's SparseMatrix, and
// layer/<node label>/<parameter> for layer nodes (flat). Other keys
// (probe/…, meta/…) are ignored.
func ParamsFromArrays(arrays map[string]npz.Array) (*Params, error) {
	p := &Params{Ensembles: map[string]*EnsembleParams{}, Connections: map[string]*ConnectionParams{}}
	sparse := map[string]map[string]npz.Array{} // label → sparse_* arrays
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
		case parts[0] == "layer" && len(parts) == 3:
			if p.Layers == nil {
				p.Layers = map[string]map[string][]float64{}
			}
			if p.Layers[parts[1]] == nil {
				p.Layers[parts[1]] = map[string][]float64{}
			}
			p.Layers[parts[1]][parts[2]] = a.Data
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
			case "sparse_indices", "sparse_data", "sparse_shape":
				if sparse[parts[1]] == nil {
					sparse[parts[1]] = map[string]npz.Array{}
				}
				sparse[parts[1]][parts[2]] = a
			}
		}
	}
	for l, sp := range sparse {
		if err := sparseFromArrays(p.Connections[l], sp); err != nil {
			return nil, fmt.Errorf("sim: params conn/%s: %w", l, err)
		}
	}
	return p, nil
}

// sparseFromArrays fills c's sparse fields from its sparse_* arrays.
func sparseFromArrays(c *ConnectionParams, sp map[string]npz.Array) error {
	idx, okI := sp["sparse_indices"]
	data, okD := sp["sparse_data"]
	shape, okS := sp["sparse_shape"]
	if !okI || !okD || !okS {
		return fmt.Errorf("a sparse transform needs sparse_indices, sparse_data and sparse_shape (have %d of them)", len(sp))
	}
	nnz := len(data.Data)
	if len(idx.Data) != 2*nnz || (len(idx.Shape) == 2 && idx.Shape[1] != 2) {
		return fmt.Errorf("sparse_indices: shape %v: must be %d×2 (one pair per value of sparse_data)", idx.Shape, nnz)
	}
	if len(shape.Data) != 2 {
		return fmt.Errorf("sparse_shape: %d values: must be [rows, cols]", len(shape.Data))
	}
	toInt := func(what string, v float64) (int, error) {
		if v != math.Trunc(v) || v < 0 || v > 1<<40 {
			return 0, fmt.Errorf("%s: %v: must be a non-negative integer", what, v)
		}
		return int(v), nil
	}
	var err error
	if c.Rows, err = toInt("sparse_shape[0]", shape.Data[0]); err != nil {
		return err
	}
	if c.Cols, err = toInt("sparse_shape[1]", shape.Data[1]); err != nil {
		return err
	}
	c.Indices = make([]int, len(idx.Data))
	for k, v := range idx.Data {
		if c.Indices[k], err = toInt(fmt.Sprintf("sparse_indices[%d]", k), v); err != nil {
			return err
		}
	}
	c.Weights = data.Data
	return nil
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
		if c.Indices != nil {
			idx := make([]float64, len(c.Indices))
			for k, v := range c.Indices {
				idx[k] = float64(v)
			}
			out[pre+"sparse_indices"] = npz.Array{Shape: []int{len(idx) / 2, 2}, Data: idx}
			vec(pre+"sparse_data", c.Weights)
			out[pre+"sparse_shape"] = npz.Array{Shape: []int{2}, Data: []float64{float64(c.Rows), float64(c.Cols)}}
		} else if c.Weights != nil {
			out[pre+"weights"] = npz.Array{Shape: []int{c.Rows, c.Cols}, Data: append([]float64(nil), c.Weights...)}
		}
		if c.EvalPoints != nil && c.EvalDims > 0 {
			mat(pre+"eval_points", c.EvalPoints, c.EvalDims)
			if m := len(c.EvalPoints) / c.EvalDims; m > 0 && c.Targets != nil {
				mat(pre+"solver_targets", c.Targets, len(c.Targets)/m)
			}
		}
	}
	for l, ps := range p.Layers {
		for name, v := range ps {
			vec("layer/"+l+"/"+name, v)
		}
	}
	return out
}

// Arrays returns the parameters of a model of net keyed as Nengo
// fixtures (ens/<label>/gain, …, conn/<label>/weights), ready for
// npz.Write.
func (p *Params) Arrays(net *toolkit.Network) map[string]npz.Array {
	dims := map[string]int{}
	for e, k := range EnsembleKeys(net) {
		dims[k] = e.Dims
	}
	return p.arrays(dims)
}
