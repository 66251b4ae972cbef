package train

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/sim/npz"
	"github.com/neurogo/neurogo/toolkit/layers"
)

// layerParamTrainable reports whether a layer parameter signal is
// trainable by the layer's own declaration (BatchNorm's moving statistics
// are not).
func (m *Model) layerParamTrainable(s int) bool {
	p := m.layerParam(s)
	return p != nil && p.Trainable
}

// layerParam returns the declaration of the layer parameter held by
// signal s — its Role, Shape, Trainable and Constraint, without its
// initial Value — or nil when s is not a layer's parameter.
func (m *Model) layerParam(s int) *layers.Param {
	if m.layerDecl == nil {
		m.layerDecl = map[int]*layers.Param{}
		for _, op := range m.g.Ops {
			o, ok := op.(*ir.SimLayer)
			if !ok || o.Layer == nil {
				continue
			}
			for k, p := range o.Layer.Params() {
				if k < len(o.Params) {
					p.Value = nil
					m.layerDecl[o.Params[k]] = &p
				}
			}
		}
	}
	return m.layerDecl[s]
}

// Params returns the model's current parameters in the simulator's form:
// build the trained model with sim.BuildWithParams(net, m.Params()) (or
// sim.New(net, sim.WithParams(m.Params()))) to simulate it with the
// reference semantics, e.g. spiking. Encoders are given unscaled
// (scaled encoders · radius / gain), a factored connection's decoders and
// transform are multiplied into its weights.
func (m *Model) Params() *sim.Params {
	p := &sim.Params{Ensembles: map[string]*sim.EnsembleParams{}, Connections: map[string]*sim.ConnectionParams{}, Layers: map[string]map[string][]float64{}}
	built := m.Built.Params
	for k, e := range built.Ensembles {
		c := *e
		p.Ensembles[k] = &c
	}
	for k, c := range built.Connections {
		cc := *c
		p.Connections[k] = &cc
	}
	factors := map[string][2]int{} // connection key → decoders, transform signals
	for _, s := range m.params {
		sg := m.g.Signals[s]
		v := slices.Clone(m.values[s])
		switch sg.Role {
		case ir.RoleBias:
			if e := p.Ensembles[sg.Key]; e != nil {
				e.Bias = v
			}
		case ir.RoleScaledEncoders:
			if e := p.Ensembles[sg.Key]; e != nil {
				e.ScaledEncoders = v
				obj := m.ensByKey[sg.Key]
				enc := make([]float64, len(v))
				d := len(v) / max(len(e.Gain), 1)
				for i := range e.Gain {
					for j := range d {
						if e.Gain[i] != 0 && obj != nil {
							enc[i*d+j] = v[i*d+j] * obj.Radius / e.Gain[i]
						} else if i*d+j < len(e.Encoders) {
							enc[i*d+j] = e.Encoders[i*d+j]
						}
					}
				}
				e.Encoders = enc
			}
		case ir.RoleWeights:
			if c := p.Connections[sg.Key]; c != nil {
				c.Weights = v
			}
		case ir.RoleDecoders:
			f := factors[sg.Key]
			f[0] = s + 1 // +1: 0 means unset
			factors[sg.Key] = f
		case ir.RoleTransform:
			f := factors[sg.Key]
			f[1] = s + 1
			factors[sg.Key] = f
		case ir.RoleLayer:
			if p.Layers[sg.Key] == nil {
				p.Layers[sg.Key] = map[string][]float64{}
			}
			if lp := m.layerParam(s); lp != nil {
				p.Layers[sg.Key][lp.Name] = v
			}
		}
	}
	for key, f := range factors {
		c := p.Connections[key]
		if c == nil || f[0] == 0 || f[1] == 0 {
			continue
		}
		dec, tr := m.values[f[0]-1], m.values[f[1]-1]
		dmid := m.g.Signals[f[0]-1].Rows
		rows, cols := c.Rows, c.Cols
		w := make([]float64, rows*cols)
		for i := range rows {
			for k := range dmid {
				t := tr[i*dmid+k]
				for j := range cols {
					w[i*cols+j] += t * dec[k*cols+j]
				}
			}
		}
		c.Weights = w
	}
	return p
}

// snapshot copies the current parameter values.
func (m *Model) snapshot() map[int][]float64 {
	out := map[int][]float64{}
	for _, s := range m.params {
		out[s] = slices.Clone(m.values[s])
	}
	return out
}

// restore writes back a snapshot (in place: engines share the slices).
func (m *Model) restore(v map[int][]float64) {
	for s, x := range v {
		copy(m.values[s], x)
	}
}

// SaveCheckpoint writes the parameters (by signal name, "param/<name>"),
// the optimiser state ("opt/<key>") and the optimiser step and epoch
// ("meta/…") to an .npz file; LoadCheckpoint restores them, so Fit can
// resume (set FitOptions.InitialEpoch to the returned epoch).
func (m *Model) SaveCheckpoint(path string, epoch int) error {
	arrays := map[string]npz.Array{}
	for _, s := range m.params {
		v := m.values[s]
		arrays["param/"+m.paramName(s)] = npz.Array{Shape: []int{len(v)}, Data: slices.Clone(v)}
	}
	if m.cfg != nil {
		for k, v := range m.cfg.Optimizer.State() {
			arrays["opt/"+k] = npz.Array{Shape: []int{len(v)}, Data: slices.Clone(v)}
		}
	}
	arrays["meta/step"] = npz.Array{Shape: []int{1}, Data: []float64{float64(m.optStep)}}
	arrays["meta/epoch"] = npz.Array{Shape: []int{1}, Data: []float64{float64(epoch)}}
	if err := npz.Write(path, arrays); err != nil {
		return fmt.Errorf("train: SaveCheckpoint: %w", err)
	}
	return nil
}

// LoadCheckpoint restores what SaveCheckpoint wrote and returns the epoch
// it was saved after. Every parameter of the model must be in the file
// with its size; the optimiser state is restored when the model is
// compiled.
func (m *Model) LoadCheckpoint(path string) (epoch int, err error) {
	arrays, err := npz.Read(path)
	if err != nil {
		return 0, fmt.Errorf("train: LoadCheckpoint: %w", err)
	}
	vals := map[int][]float64{}
	for _, s := range m.params {
		name := m.paramName(s)
		a, ok := arrays["param/"+name]
		if !ok {
			return 0, fmt.Errorf("train: LoadCheckpoint %s: no parameter %q (is it a checkpoint of this model?)", path, name)
		}
		if len(a.Data) != len(m.values[s]) {
			return 0, fmt.Errorf("train: LoadCheckpoint %s: parameter %q has %d values, the model %d", path, name, len(a.Data), len(m.values[s]))
		}
		for _, x := range a.Data {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("train: LoadCheckpoint %s: parameter %q is not finite", path, name)
			}
		}
		vals[s] = a.Data
	}
	if m.cfg != nil {
		st := map[string][]float64{}
		for k, a := range arrays {
			if rest, ok := strings.CutPrefix(k, "opt/"); ok {
				st[rest] = a.Data
			}
		}
		if len(st) > 0 {
			if err := m.cfg.Optimizer.SetState(st); err != nil {
				return 0, fmt.Errorf("train: LoadCheckpoint %s: optimiser state: %w", path, err)
			}
		}
	}
	m.restore(vals)
	m.engines = map[engineKey]*engine{} // built for the old values (identityMuls)
	if a, ok := arrays["meta/step"]; ok && len(a.Data) == 1 {
		m.optStep = int(a.Data[0])
	}
	if a, ok := arrays["meta/epoch"]; ok && len(a.Data) == 1 {
		epoch = int(a.Data[0])
	}
	return epoch, nil
}

// ParamNames returns the names of the model's parameter signals and
// whether each is trainable under the current settings, sorted by name.
func (m *Model) ParamNames() (names []string, trainable []bool) {
	tr := m.trainableSignals()
	idx := slices.Clone(m.params)
	sort.Slice(idx, func(i, j int) bool { return m.paramName(idx[i]) < m.paramName(idx[j]) })
	for _, s := range idx {
		names = append(names, m.paramName(s))
		trainable = append(trainable, tr[s])
	}
	return names, trainable
}

// Param returns a copy of the named parameter's values.
func (m *Model) Param(name string) ([]float64, error) {
	for _, s := range m.params {
		if m.paramName(s) == name {
			return slices.Clone(m.values[s]), nil
		}
	}
	return nil, errors.New("train: no parameter " + fmt.Sprintf("%q", name))
}

// SetParam overwrites the named parameter's values.
func (m *Model) SetParam(name string, v []float64) error {
	for _, s := range m.params {
		if m.paramName(s) == name {
			if len(v) != len(m.values[s]) {
				return fmt.Errorf("train: SetParam %q: %d values, want %d", name, len(v), len(m.values[s]))
			}
			copy(m.values[s], v)
			m.engines = map[engineKey]*engine{} // built for the old values (identityMuls)
			return nil
		}
	}
	return fmt.Errorf("train: no parameter %q", name)
}

// paramName is a parameter's unique name: "<ensemble key>.bias",
// "<ensemble key>.scaled_encoders", "<connection key>.weights" (or
// .decoders, .transform) and "<layer node label>.<parameter>".
func (m *Model) paramName(s int) string {
	sg := m.g.Signals[s]
	if sg.Role == ir.RoleLayer {
		return sg.Name
	}
	return sg.Key + "." + string(sg.Role)
}

// SaveParams writes the model's parameters (no optimiser state) to an
// .npz file, NengoDL's save_params; LoadParams reads them back into a
// model of the same network. For resuming training use SaveCheckpoint,
// which also keeps the optimiser state.
func (m *Model) SaveParams(path string) error {
	arrays := map[string]npz.Array{}
	for _, s := range m.params {
		v := m.values[s]
		arrays["param/"+m.paramName(s)] = npz.Array{Shape: []int{len(v)}, Data: slices.Clone(v)}
	}
	if err := npz.Write(path, arrays); err != nil {
		return fmt.Errorf("train: SaveParams: %w", err)
	}
	return nil
}

// LoadParams reads parameters written by SaveParams (or SaveCheckpoint,
// whose optimiser state it ignores); every parameter of the model must be
// there, with its size.
func (m *Model) LoadParams(path string) error {
	cfg := m.cfg
	m.cfg = nil // parameters only
	step := m.optStep
	_, err := m.LoadCheckpoint(path)
	m.cfg, m.optStep = cfg, step
	if err != nil {
		return fmt.Errorf("train: LoadParams: %w", err)
	}
	return nil
}
