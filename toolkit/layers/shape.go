package layers

// Flatten reshapes each example to rank 1 (Keras Flatten; row-major, so
// channels-last data keep their order).
type Flatten struct{}

// Reshape gives each example the shape Shape; one entry may be -1 and is
// then inferred (Keras Reshape's target_shape).
type Reshape struct {
	Shape []int
}

// Build implements Spec.
func (Flatten) Build(in []int, seed int64) (Layer, error) {
	if err := checkShape("Flatten", in); err != nil {
		return nil, err
	}
	return &copyLayer{base: base{kind: "Flatten", in: append([]int(nil), in...), out: []int{Size(in)}}}, nil
}

// Build implements Spec.
func (s Reshape) Build(in []int, seed int64) (Layer, error) {
	if err := checkShape("Reshape", in); err != nil {
		return nil, err
	}
	if len(s.Shape) == 0 {
		return nil, errf("Reshape", "Shape", s.Shape, "must have at least one dimension")
	}
	out := append([]int(nil), s.Shape...)
	free, known := -1, 1
	for i, d := range out {
		switch {
		case d == -1 && free < 0:
			free = i
		case d == -1:
			return nil, errf("Reshape", "Shape", s.Shape, "at most one dimension may be -1")
		case d <= 0:
			return nil, errf("Reshape", "Shape", s.Shape, "dimensions must be positive or -1")
		default:
			known *= d
		}
	}
	n := Size(in)
	if free >= 0 {
		if n%known != 0 {
			return nil, errf("Reshape", "Shape", s.Shape, "size %d of input %v is not a multiple of %d", n, in, known)
		}
		out[free] = n / known
	} else if known != n {
		return nil, errf("Reshape", "Shape", s.Shape, "size %d differs from the size %d of input %v", known, n, in)
	}
	return &copyLayer{base: base{kind: "Reshape", in: append([]int(nil), in...), out: out}}, nil
}

// copyLayer is a layer whose forward pass copies its input (Flatten, Reshape).
type copyLayer struct{ base }

func (l *copyLayer) NewExec(maxBatch int, seed uint64) (Exec, error) {
	eb, err := l.newExecBase(maxBatch)
	if err != nil {
		return nil, err
	}
	return &copyExec{eb}, nil
}

type copyExec struct{ execBase }

func (e *copyExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.checkForward(params, in, out, batch); err != nil {
		return err
	}
	copy(out, in)
	return nil
}

func (e *copyExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.checkBackward(params, in, out, dOut, dIn, dParams, batch); err != nil {
		return err
	}
	if dIn != nil {
		addTo(dIn, dOut)
	}
	return nil
}
