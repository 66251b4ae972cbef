package layers

import "github.com/neurogo/neurogo/internal/vec"

// AvgPool averages over windows: 1-D for a rank-2 input (L, C), 2-D for a
// rank-3 input (H, W, C) (Keras AveragePooling1D/2D). Pool defaults to 2 (one
// value is used on both axes in 2-D), Strides to Pool, Padding to "valid".
// With "same" padding each output averages only the input elements inside
// the image (TensorFlow/Keras behaviour: padding is not counted).
type AvgPool struct {
	Pool    []int
	Strides []int
	Padding string
}

// MaxPool takes the maximum over windows, with the same options as AvgPool
// (Keras MaxPooling1D/2D); padding never wins. Backward routes each output
// gradient to the first maximum of its window in row-major order.
type MaxPool struct {
	Pool    []int
	Strides []int
	Padding string
}

// Build implements Spec.
func (s AvgPool) Build(in []int, seed int64) (Layer, error) {
	return buildPool("AvgPool", false, s.Pool, s.Strides, s.Padding, in)
}

// Build implements Spec.
func (s MaxPool) Build(in []int, seed int64) (Layer, error) {
	return buildPool("MaxPool", true, s.Pool, s.Strides, s.Padding, in)
}

func buildPool(kind string, isMax bool, pool, strides []int, padding string, in []int) (Layer, error) {
	if err := checkShape(kind, in); err != nil {
		return nil, err
	}
	var n int
	switch len(in) {
	case 2:
		n = 1
	case 3:
		n = 2
	default:
		return nil, errf(kind, "in", in, "want a rank-2 (L, C) or rank-3 (H, W, C) input")
	}
	ps, err := ints(kind, "Pool", pool, n, 2, false)
	if err != nil {
		return nil, err
	}
	st := ps
	if len(strides) > 0 {
		if st, err = ints(kind, "Strides", strides, n, 1, false); err != nil {
			return nil, err
		}
	}
	pad, err := normPadding(kind, padding, false)
	if err != nil {
		return nil, err
	}
	var g convGeom
	if n == 1 {
		g = convGeom{H: 1, W: in[0], C: in[1], KH: 1, KW: ps[0], SH: 1, SW: st[0], DH: 1, DW: 1, OH: 1}
	} else {
		g = convGeom{H: in[0], W: in[1], C: in[2], KH: ps[0], KW: ps[1], SH: st[0], SW: st[1], DH: 1, DW: 1}
	}
	okH := true
	if n == 2 {
		g.OH, g.PT, okH = window(g.H, g.KH, g.SH, 1, pad)
	}
	var okW bool
	g.OW, g.PL, okW = window(g.W, g.KW, g.SW, 1, pad)
	if !okH || !okW {
		if n == 1 {
			return nil, errf(kind, "Pool", pool, "larger than the padded input (%d)", g.W)
		}
		return nil, errf(kind, "Pool", pool, "larger than the padded input (%d, %d)", g.H, g.W)
	}
	g.F = g.C
	out := []int{g.OW, g.C}
	if n == 2 {
		out = []int{g.OH, g.OW, g.C}
	}
	return &poolLayer{base: base{kind: kind, in: append([]int(nil), in...), out: out}, g: g, isMax: isMax}, nil
}

type poolLayer struct {
	base
	g     convGeom
	isMax bool
}

func (l *poolLayer) NewExec(maxBatch int, seed uint64) (Exec, error) {
	eb, err := l.newExecBase(maxBatch)
	if err != nil {
		return nil, err
	}
	e := &poolExec{execBase: eb, g: l.g, isMax: l.isMax}
	if l.isMax {
		e.best = make([]float64, l.g.C)
		e.arg = make([]int, l.g.C)
	} else {
		// average pooling: examples across the cores
		e.w = newWorkers()
		stopWith(e.w, e)
	}
	return e, nil
}

type poolExec struct {
	execBase
	g     convGeom
	isMax bool
	best  []float64 // MaxPool backward scratch: running maximum per channel
	arg   []int     // and its input offset
	w     *workers  // AvgPool: per-example loops across the cores
}

// span returns the clipped window [lo, hi) of output index o along an axis.
func span(o, s, pad, k, n int) (lo, hi int) {
	lo = o*s - pad
	hi = lo + k
	return max(lo, 0), min(hi, n)
}

func (e *poolExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.checkForward(params, in, out, batch); err != nil {
		return err
	}
	if e.w != nil {
		e.w.run(batch, batch*e.inSize, func(lo, hi int) { e.forward(in, out, lo, hi) })
		return nil
	}
	e.forward(in, out, 0, batch)
	return nil
}

// forward pools examples [lo, hi).
func (e *poolExec) forward(in, out []float64, lo, hi int) {
	g := &e.g
	C := g.C
	for n := lo; n < hi; n++ {
		img := in[n*e.inSize : (n+1)*e.inSize]
		o := out[n*e.outSize : (n+1)*e.outSize]
		for oy := 0; oy < g.OH; oy++ {
			y0, y1 := span(oy, g.SH, g.PT, g.KH, g.H)
			for ox := 0; ox < g.OW; ox++ {
				x0, x1 := span(ox, g.SW, g.PL, g.KW, g.W)
				dst := o[(oy*g.OW+ox)*C : (oy*g.OW+ox+1)*C]
				if e.isMax {
					copy(dst, img[(y0*g.W+x0)*C:(y0*g.W+x0+1)*C])
					for iy := y0; iy < y1; iy++ {
						for ix := x0; ix < x1; ix++ {
							src := img[(iy*g.W+ix)*C : (iy*g.W+ix+1)*C]
							for c, v := range src {
								if v > dst[c] {
									dst[c] = v
								}
							}
						}
					}
					continue
				}
				clear(dst)
				for iy := y0; iy < y1; iy++ {
					for ix := x0; ix < x1; ix++ {
						vec.Add(dst, img[(iy*g.W+ix)*C:(iy*g.W+ix+1)*C])
					}
				}
				vec.Scale(dst, dst, 1/float64((y1-y0)*(x1-x0)))
			}
		}
	}
}

func (e *poolExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.checkBackward(params, in, out, dOut, dIn, dParams, batch); err != nil {
		return err
	}
	if dIn == nil {
		return nil
	}
	if e.w != nil {
		e.w.run(batch, batch*e.inSize, func(lo, hi int) { e.backward(in, dOut, dIn, lo, hi) })
		return nil
	}
	e.backward(in, dOut, dIn, 0, batch)
	return nil
}

// backward adds the input gradients of examples [lo, hi) (MaxPool's with
// e's scratch: one goroutine).
func (e *poolExec) backward(in, dOut, dIn []float64, lo, hi int) {
	g := &e.g
	C := g.C
	for n := lo; n < hi; n++ {
		img := in[n*e.inSize : (n+1)*e.inSize]
		dImg := dIn[n*e.inSize : (n+1)*e.inSize]
		dO := dOut[n*e.outSize : (n+1)*e.outSize]
		for oy := 0; oy < g.OH; oy++ {
			y0, y1 := span(oy, g.SH, g.PT, g.KH, g.H)
			for ox := 0; ox < g.OW; ox++ {
				x0, x1 := span(ox, g.SW, g.PL, g.KW, g.W)
				d := dO[(oy*g.OW+ox)*C : (oy*g.OW+ox+1)*C]
				if e.isMax {
					first := (y0*g.W + x0) * C
					copy(e.best, img[first:first+C])
					for c := range e.arg {
						e.arg[c] = first + c
					}
					for iy := y0; iy < y1; iy++ {
						for ix := x0; ix < x1; ix++ {
							off := (iy*g.W + ix) * C
							for c, v := range img[off : off+C] {
								if v > e.best[c] {
									e.best[c] = v
									e.arg[c] = off + c
								}
							}
						}
					}
					for c, j := range e.arg {
						dImg[j] += d[c]
					}
					continue
				}
				inv := 1 / float64((y1-y0)*(x1-x0))
				for iy := y0; iy < y1; iy++ {
					for ix := x0; ix < x1; ix++ {
						vec.Axpy(dImg[(iy*g.W+ix)*C:(iy*g.W+ix+1)*C], d, inv)
					}
				}
			}
		}
	}
}
