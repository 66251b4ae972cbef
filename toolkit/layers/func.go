package layers

// Func is a user layer given as Go functions (the analogue of a NengoDL
// TensorNode wrapping arbitrary code). Forward must overwrite out
// (batch×Size(Out)) from in (batch×Size(input shape)); Backward must
// accumulate into dIn (when non-nil) and into the non-nil dParams entries,
// with the Exec contract. A nil Backward makes the layer non-differentiable:
// its Exec's Backward then returns an error. Kind defaults to "Func"; Params
// are the parameter arrays, validated and copied by Build. A parameter's
// Role says what it is (a regulariser penalises RoleKernel parameters, as
// it does Dense's kernel; the zero RoleOther is left alone) and its
// Constraint, when set, is applied after every optimiser step.
type Func struct {
	Kind     string
	Out      []int
	Params   []Param
	Forward  func(params [][]float64, in, out []float64, batch int) error
	Backward func(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error
}

// Build implements Spec; seed is unused (the parameters are the given ones).
func (s Func) Build(in []int, seed int64) (Layer, error) {
	kind := s.Kind
	if kind == "" {
		kind = "Func"
	}
	if err := checkShape(kind, in); err != nil {
		return nil, err
	}
	if s.Forward == nil {
		return nil, errf(kind, "Forward", nil, "must be set")
	}
	if len(s.Out) == 0 {
		return nil, errf(kind, "Out", s.Out, "must have at least one dimension")
	}
	for _, d := range s.Out {
		if d <= 0 {
			return nil, errf(kind, "Out", s.Out, "dimensions must be positive")
		}
	}
	l := &funcLayer{base: base{kind: kind, in: append([]int(nil), in...), out: append([]int(nil), s.Out...)},
		forward: s.Forward, backward: s.Backward}
	seen := map[string]bool{}
	for i, p := range s.Params {
		if p.Name == "" {
			return nil, errf(kind, "Params", i, "parameter %d has no name", i)
		}
		if seen[p.Name] {
			return nil, errf(kind, "Params", p.Name, "duplicate parameter name")
		}
		seen[p.Name] = true
		if len(p.Shape) == 0 {
			return nil, errf(kind, "Params", p.Name, "shape must have at least one dimension")
		}
		for _, d := range p.Shape {
			if d <= 0 {
				return nil, errf(kind, "Params", p.Name, "shape %v: dimensions must be positive", p.Shape)
			}
		}
		if len(p.Value) != Size(p.Shape) {
			return nil, errf(kind, "Params", p.Name, "has %d values, want %d for shape %v", len(p.Value), Size(p.Shape), p.Shape)
		}
		for _, v := range p.Value {
			if err := checkFinite(kind, "Params", v); err != nil {
				return nil, errf(kind, "Params", p.Name, "values must be finite")
			}
		}
		if err := checkConstraint(kind, p); err != nil {
			return nil, err
		}
		l.params = append(l.params, p.clone())
	}
	return l, nil
}

type funcLayer struct {
	base
	forward  func(params [][]float64, in, out []float64, batch int) error
	backward func(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error
}

func (l *funcLayer) NewExec(maxBatch int, seed uint64) (Exec, error) {
	eb, err := l.newExecBase(maxBatch)
	if err != nil {
		return nil, err
	}
	return &funcExec{execBase: eb, l: l, noGrads: make([][]float64, len(l.params))}, nil
}

type funcExec struct {
	execBase
	l       *funcLayer
	noGrads [][]float64 // all-nil dParams handed to the user when the caller passes nil
}

func (e *funcExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.checkForward(params, in, out, batch); err != nil {
		return err
	}
	return e.l.forward(params, in, out, batch)
}

func (e *funcExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if e.l.backward == nil {
		return errf(e.kind, "Backward", nil, "not set: the layer is not differentiable")
	}
	if err := e.checkBackward(params, in, out, dOut, dIn, dParams, batch); err != nil {
		return err
	}
	if dParams == nil && len(e.paramLens) > 0 {
		// The user function may index dParams; give it nil entries.
		return e.l.backward(params, in, out, dOut, dIn, e.noGrads, batch)
	}
	return e.l.backward(params, in, out, dOut, dIn, dParams, batch)
}
