package sim

import (
	"errors"
	"fmt"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit/layers"
)

// DenseProduct describes one dense matrix–vector product y (+)= A·x of a
// built model (a DotInc operator, or the encoder or a decoder product of
// a merged rectified-linear ensemble), offered to a MatMulHook.
type DenseProduct struct {
	Tag string // the operator's object, e.g. `Connection "a"→"b"`
	// Role is the built parameter A holds (ir.RoleWeights,
	// ir.RoleDecoders, ir.RoleScaledEncoders, ir.RoleTransform or
	// ir.RoleNone); Key is its ensemble or connection key of Params.
	Role ir.Role
	Key  string
	// A is Rows×Cols, row-major: x has Cols values, y Rows.
	Rows, Cols int
	// Fixed reports that A never changes while the model runs (no
	// learning rule updates it).
	Fixed bool
}

// MatMulFunc computes y = A·x, overwriting y: A is the product's current
// Rows×Cols matrix, x its Cols inputs, y its Rows outputs. An error stops
// the simulation.
type MatMulFunc func(a, x, y []float64) error

// MatMulHook is asked once per dense product and lane when a simulator
// is made; a non-nil MatMulFunc then computes that product (an emulated
// analog chip, package accel), nil keeps it on the CPU.
type MatMulHook func(p DenseProduct, lane int) (MatMulFunc, error)

// LayerHook is asked once per layer node and lane when a simulator is
// made; a non-nil layer replaces the node's layer (it must take the same
// parameters and shapes), nil keeps it.
type LayerHook func(tag string, l layers.Layer, lane int) (layers.Layer, error)

// Hooks hands a model's dense products and layer nodes to another
// executor (NewFromModel option): accel's analog backend runs them on an
// emulated chip while the simulator runs everything else. Either hook
// may be nil. Hooks need float64 execution (not Float32), and learning
// rules' own products (PES) stay on the CPU.
func Hooks(mm MatMulHook, layer LayerHook) Option {
	return func(c *config) { c.mm, c.layerHook = mm, layer }
}

// hookedDot compiles a DotInc group whose products a MatMulHook may take;
// ok is false when the hook took none.
func (s *Simulator) hookedDot(ln *lane, ops []*ir.DotInc, bs []block) (runner, bool, error) {
	m := s.model
	fs := make([]MatMulFunc, len(bs))
	used := false
	for i, op := range ops {
		f, err := s.hook(m, op.Tag, op.A, bs[i].ny, bs[i].nx, ln)
		if err != nil {
			return runner{}, false, err
		}
		fs[i] = f
		used = used || f != nil
	}
	if !used {
		return runner{}, false, nil
	}
	d := ln.data
	set := ops[0].Set
	maxRows := 0
	for _, b := range bs {
		maxRows = max(maxRows, b.ny)
	}
	tmp := make([]float64, maxRows)
	tags := make([]string, len(bs))
	for i, op := range ops {
		tags[i] = op.Tag
	}
	return runner{step: func() {
		for i, b := range bs {
			if fs[i] == nil {
				dotBlocks(d, d, bs[i:i+1], set)
				continue
			}
			if err := callProduct(d, b, d[b.x:b.x+b.nx], set, fs[i], tmp); err != nil {
				s.fail(fmt.Errorf("sim: %s: %w", tags[i], err))
			}
		}
	}}, true, nil
}

// callProduct runs one hooked block with input x and stores the result
// as dotBlocks would (bias, set or increment).
func callProduct(d []float64, b block, x []float64, set bool, f MatMulFunc, tmp []float64) error {
	y := d[b.y : b.y+b.ny]
	t := tmp[:b.ny]
	if err := f(d[b.a:b.a+b.ny*b.nx], x, t); err != nil {
		return err
	}
	switch {
	case b.b >= 0:
		for i := range y {
			y[i] = d[b.b+i] + t[i]
		}
	case set:
		copy(y, t)
	default:
		for i := range y {
			y[i] += t[i]
		}
	}
	return nil
}

func (s *Simulator) hook(m *Model, tag string, a, rows, cols int, ln *lane) (MatMulFunc, error) {
	if s.mm == nil {
		return nil, nil
	}
	sg := m.sigs[a]
	f, err := s.mm(DenseProduct{Tag: tag, Role: sg.role, Key: sg.key, Rows: rows, Cols: cols, Fixed: sg.readonly}, ln.index)
	if err != nil {
		return nil, fmt.Errorf("sim: %s: %w", tag, err)
	}
	return f, nil
}

// hookedEnsembles compiles a merged rectified-linear ensemble group
// whose encoder or decoder products a MatMulHook may take.
func (s *Simulator) hookedEnsembles(ln *lane, g *group, ops []*ir.EnsembleReLU) (runner, bool, error) {
	m := s.model
	ms, maxN, err := m.ensMembers(ops)
	if err != nil {
		return runner{}, false, err
	}
	type hooked struct {
		enc  MatMulFunc
		decs []MatMulFunc
	}
	hs := make([]hooked, len(ops))
	used := false
	maxRows := maxN
	for i, op := range ops {
		f, err := s.hook(m, op.Tag, op.A, ms[i].n, ms[i].nx, ln)
		if err != nil {
			return runner{}, false, err
		}
		hs[i].enc = f
		used = used || f != nil
		for k, dop := range op.Decoders {
			f, err := s.hook(m, dop.Tag, dop.A, ms[i].decs[k].ny, ms[i].n, ln)
			if err != nil {
				return runner{}, false, err
			}
			hs[i].decs = append(hs[i].decs, f)
			used = used || f != nil
			maxRows = max(maxRows, ms[i].decs[k].ny)
		}
	}
	if !used {
		return runner{}, false, nil
	}
	d := ln.data
	amp := ops[0].Amplitude
	acts := make([]float64, maxN)
	tmp := make([]float64, maxRows)
	tag := g.tag()
	return runner{step: func() {
		for i, mb := range ms {
			a := acts[:mb.n]
			x := d[mb.x : mb.x+mb.nx]
			enc, bias := d[mb.enc:mb.enc+mb.n*mb.nx], d[mb.bias:mb.bias+mb.n]
			if f := hs[i].enc; f != nil {
				if err := f(enc, x, a); err != nil {
					s.fail(fmt.Errorf("sim: %s: %w", tag, err))
					return
				}
				for k := range a {
					a[k] += bias[k]
				}
			} else {
				for k := range a {
					a[k] = bias[k]
					for j, xv := range x {
						a[k] += enc[k*mb.nx+j] * xv
					}
				}
			}
			vec.Relu(a, a, amp)
			for k, bl := range mb.decs {
				if f := hs[i].decs[k]; f != nil {
					if err := callProduct(d, bl, a, mb.set[k], f, tmp); err != nil {
						s.fail(fmt.Errorf("sim: %s: %w", tag, err))
						return
					}
					continue
				}
				decodeInto(d, d, bl, a, mb.set[k])
			}
		}
	}}, true, nil
}

var errHooksF32 = errors.New("sim: Hooks cannot be combined with Float32 (hooked products run in float64)")

// sameShapes reports whether b can replace a: the same input and output
// shapes and parameter sizes.
func sameShapes(a, b layers.Layer) bool {
	if layers.Size(a.InShape()) != layers.Size(b.InShape()) || layers.Size(a.OutShape()) != layers.Size(b.OutShape()) {
		return false
	}
	pa, pb := a.Params(), b.Params()
	if len(pa) != len(pb) {
		return false
	}
	for i := range pa {
		if len(pa[i].Value) != len(pb[i].Value) {
			return false
		}
	}
	return true
}
