package nengobridge

import (
	"fmt"

	"github.com/neurogo/neurogo/sim/ir"
)

// conv is Nengo's ConvInc of a 1-D or 2-D convolution transform
// (nengo.Convolution): Y += W ⋆ X, a correlation with TensorFlow's
// "SAME" or "VALID" padding (the total padding max((out−1)·stride + k −
// in, 0), its floor half before), strides and groups, channels last or
// first, as Nengo's conv2d and conv2d_groups compute it. A 1-D
// convolution is a 2-D one of height 1.
//
// With transpose it is Nengo's ConvTransposeInc (nengo.ConvolutionTranspose,
// Nengo's conv2d_gradx): the adjoint of the convolution of an input of
// h×w×c to an output of oh×ow×k, so X holds oh×ow×k values and Y h×w×c,
// and the kernel is laid out kh×kw×k×c.
type conv struct {
	h, w, c    int // input height (1 for 1-D), width, channels
	kh, kw, k  int // kernel height, width, filters
	sh, sw     int // strides
	oh, ow     int // output height, width
	ph, pw     int // padding before
	groups     int
	last       bool // channels last
	transpose  bool
	xi, wi, yi int // signals
	x, wt, y   []float64
}

// convShape is the order of the values of OpSpec.Ints["conv"].
var convShape = []string{"h", "w", "c", "kh", "kw", "k", "sh", "sw", "oh", "ow", "ph", "pw", "groups", "channels_last"}

// newConv reads a ConvInc's description and checks its sizes.
func (t *tr) newConv(transpose bool) *conv {
	v := t.o.Ints["conv"]
	if len(v) != len(convShape) {
		t.fail("conv: %d values, want %d (%v)", len(v), len(convShape), convShape)
		return nil
	}
	c := &conv{h: v[0], w: v[1], c: v[2], kh: v[3], kw: v[4], k: v[5], sh: v[6], sw: v[7], oh: v[8], ow: v[9],
		ph: v[10], pw: v[11], groups: v[12], last: v[13] != 0, transpose: transpose, wi: t.sig("W"), xi: t.sig("X"), yi: t.sig("Y")}
	if t.err != nil {
		return nil
	}
	for i, n := range v[:13] {
		if n < 0 || (n == 0 && i != 10 && i != 11) {
			t.fail("conv: %s = %d", convShape[i], n)
			return nil
		}
	}
	if c.c%c.groups != 0 || c.k%c.groups != 0 {
		t.fail("conv: %d channels and %d filters in %d groups", c.c, c.k, c.groups)
		return nil
	}
	in, out := c.h*c.w*c.c, c.oh*c.ow*c.k
	if transpose {
		if c.groups != 1 {
			t.fail("conv: a transposed convolution in %d groups", c.groups)
			return nil
		}
		in, out = out, in
	}
	for _, s := range []struct {
		name      string
		sig, want int
	}{{"W", c.wi, c.kh * c.kw * (c.c / c.groups) * c.k}, {"X", c.xi, in}, {"Y", c.yi, out}} {
		if got := t.s.Signals[s.sig].Size; got != s.want {
			t.fail("conv: %s has %d values, want %d", s.name, got, s.want)
			return nil
		}
	}
	return c
}

// op is the convolution as a callback operator of Go code (bound to the
// store by bind once the simulator exists).
func (c *conv) op(b ir.Base) ir.Op {
	return &ir.SimCallback{Base: b, Call: func(int, float64) error {
		if c.y == nil {
			return fmt.Errorf("nengobridge: convolution not bound to the store")
		}
		c.step()
		return nil
	}}
}

func (c *conv) bind(signal func(int) []float64) {
	c.x, c.wt, c.y = signal(c.xi), signal(c.wi), signal(c.yi)
}

// at is the index of element (y, x, ch) of an h×w image of n channels,
// channels last or first.
func (c *conv) at(y, x, ch, h, w, n int) int {
	if c.last {
		return (y*w+x)*n + ch
	}
	return (ch*h+y)*w + x
}

// taps calls f for every kernel tap (i, j) of output position (oy, ox)
// that lands inside the h×w image, at image position (iy, ix).
func (c *conv) taps(oy, ox int, f func(i, j, iy, ix int)) {
	for i := range c.kh {
		iy := oy*c.sh + i - c.ph
		if iy < 0 || iy >= c.h {
			continue
		}
		for j := range c.kw {
			if ix := ox*c.sw + j - c.pw; ix >= 0 && ix < c.w {
				f(i, j, iy, ix)
			}
		}
	}
}

func (c *conv) step() {
	if c.transpose {
		c.stepTranspose()
		return
	}
	cg, kg := c.c/c.groups, c.k/c.groups
	for oy := range c.oh {
		for ox := range c.ow {
			for f := range c.k {
				g := f / kg
				sum := 0.0
				c.taps(oy, ox, func(i, j, iy, ix int) {
					wrow := ((i*c.kw + j) * cg) * c.k
					for cc := range cg {
						sum += c.x[c.at(iy, ix, g*cg+cc, c.h, c.w, c.c)] * c.wt[wrow+cc*c.k+f]
					}
				})
				c.y[c.at(oy, ox, f, c.oh, c.ow, c.k)] += sum
			}
		}
	}
}

// stepTranspose adds to Y (h×w×c) what each input value X[oy, ox, f]
// (oh×ow×k) contributes through the kernel W[i, j, f, ch].
func (c *conv) stepTranspose() {
	for oy := range c.oh {
		for ox := range c.ow {
			for f := range c.k {
				d := c.x[c.at(oy, ox, f, c.oh, c.ow, c.k)]
				c.taps(oy, ox, func(i, j, iy, ix int) {
					wrow := ((i*c.kw+j)*c.k + f) * c.c
					for ch := range c.c {
						c.y[c.at(iy, ix, ch, c.h, c.w, c.c)] += d * c.wt[wrow+ch]
					}
				})
			}
		}
	}
}
