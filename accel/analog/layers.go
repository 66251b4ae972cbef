package analog

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/neurogo/neurogo/toolkit/layers"
)

// The analog layers (the hxtorch paper, §3.1, §3.5) are toolkit/layers Specs, so
// they go into toolkit networks as layer nodes (net.Layer) and train with
// package train like any other layer. Their parameters have the shapes
// of the float layers they replace — Linear's "kernel" (D, Units) is
// layers.Dense{NoBias: true}'s, Conv1d's (K, C, F) is layers.Conv1D's,
// Conv2d's (KH, KW, C, F) is layers.Conv2D's — so pretrained weights load
// (scaled into hardware units with ScaleWeights). Values are hardware
// units: inputs 0..31 (clamped), weights −63..63 (clamped), outputs in
// LSB of the 8-bit result.
//
// Forward runs on System: MockConfig for training with quantisation and
// noise in software, an emulated chip (ChipConfig) for execution and
// hardware-in-the-loop training. A nil System computes the ideal
// Gain·num_sends·xᵀW in float64 without quantisation. Backward is the
// software model of §3.1 of the hxtorch paper (straight through): the gradients of
// y = Gain·num_sends·xᵀW at the forward pass's inputs, whatever the
// hardware measured.

// Linear is hxtorch's Linear: y = xᵀW on the analog system, applied to
// the last axis of the input (Keras Dense). Bias adds a digital bias
// after the analog result (the hxtorch paper's model uses none).
type Linear struct {
	Units                       int
	NumSends, WaitBetweenEvents int
	System                      *System
	Bias                        bool
	// InitStd is the output standard deviation (LSB) the init rule aims
	// at (0: 32, a quarter of the 8-bit range), for inputs whose mean
	// square is InputMeanSquare (0: ½·31²/3, inputs uniform on 0..31 and
	// half of them zero); see InitBound.
	InitStd, InputMeanSquare float64
	// OutputScale multiplies the digital result (0: 1): host
	// postprocessing, e.g. to read 8-bit results as logits.
	OutputScale float64
}

// Conv1d is hxtorch's Conv1d on (L, C) inputs: valid padding, stride
// Stride, lowered to one matrix multiplication per batch (the hxtorch paper, Fig 3:
// the kernel unrolled into K·C rows, F columns, one input row per output
// position).
type Conv1d struct {
	Filters, Kernel, Stride     int
	NumSends, WaitBetweenEvents int
	System                      *System
	Bias                        bool
	InitStd, InputMeanSquare    float64
	OutputScale                 float64
}

// Conv2d is hxtorch's Conv2d on (H, W, C) inputs: valid padding, strides
// (SH, SW), lowered like Conv1d to KH·KW·C rows.
type Conv2d struct {
	Filters                     int
	Kernel, Strides             [2]int
	NumSends, WaitBetweenEvents int
	System                      *System
	Bias                        bool
	InitStd, InputMeanSquare    float64
	OutputScale                 float64
}

// ExpandedConv1d is Conv1d with Expansions kernel positions placed side
// by side on the synapse array (the hxtorch paper, §3.4, Fig 7): E copies of the
// kernel, shifted by Stride·C rows, form one (K+(E−1)·S)·C × E·F matrix,
// so one analog run computes E output positions. The copies share the
// kernel parameter but sit on different synapses and columns, so on a
// chip each sees its own fixed pattern. Expansions 0 picks the largest E
// that fits one array (128 rows signed, 256 columns).
type ExpandedConv1d struct {
	Filters, Kernel, Stride     int
	Expansions                  int
	NumSends, WaitBetweenEvents int
	System                      *System
	Bias                        bool
	InitStd, InputMeanSquare    float64
	OutputScale                 float64
}

// InitBound is the init rule of the analog layers: weights are drawn
// uniformly from ±a with a chosen so that, for inputs whose mean square
// is ex2 (0: ½·31²/3, inputs uniform on 0..31 of which half are zero
// after a ReLU), the output y = Gain·num_sends·Σ x·w of fan-in D has
// standard deviation std LSB: Var(y) = (Gain·n)²·D·E[x²]·a²/3, so
// a = std·√3 / (Gain·n·√(D·E[x²])), capped at 63. A capped bound means
// the layer cannot reach std: raise num_sends.
func InitBound(fanIn int, gain float64, numSends int, std, ex2 float64) float64 {
	if ex2 <= 0 {
		ex2 = 0.5 * InputMax * InputMax / 3
	}
	a := std * math.Sqrt(3) / (gain * float64(numSends) * math.Sqrt(float64(fanIn)*ex2))
	return math.Min(a, WeightMax)
}

// geom is a layer lowered to matrix multiplications: each example gives
// P rows of D inputs, multiplied with a D×F matrix built from the kernel.
type geom struct {
	kind        string
	in, out     []int
	P, D, F     int
	kernelShape []int
	fanIn       int
	// gather writes an example's P×D rows; scatter adds their gradient back
	gather  func(x, col []float64)
	scatter func(dcol, dx []float64)
	// matrix builds the D×F matrix from the kernel; grad adds its gradient
	matrix func(kernel, w []float64)
	grad   func(dw, dkernel []float64)
	// outMap maps an example's P×F results to its output (nil: identity)
	outMap func(y, out []float64)
	outAdj func(dout, dy []float64)
}

type common struct {
	units, sends, wait     int
	sys                    *System
	bias                   bool
	initStd, ex2, outScale float64
}

func (c common) check(kind string) error {
	if c.sends < 0 || c.sends > 255 {
		return fmt.Errorf("analog: %s.NumSends = %d: must be in 1..255 (0: 1)", kind, c.sends)
	}
	if c.wait < 0 || c.wait > 1023 {
		return fmt.Errorf("analog: %s.WaitBetweenEvents = %d: must be in 0..1023", kind, c.wait)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"InitStd", c.initStd}, {"InputMeanSquare", c.ex2}, {"OutputScale", c.outScale}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("analog: %s.%s = %v: must be ≥ 0 and finite", kind, f.name, f.v)
		}
	}
	return nil
}

// Build implements layers.Spec.
func (s Linear) Build(in []int, seed int64) (layers.Layer, error) {
	if len(in) == 0 || layers.Size(in) <= 0 {
		return nil, fmt.Errorf("analog: Linear: input shape %v: must be non-empty and positive", in)
	}
	if s.Units <= 0 {
		return nil, fmt.Errorf("analog: Linear.Units = %d: must be positive", s.Units)
	}
	d := in[len(in)-1]
	g := &geom{kind: "analog.Linear", in: append([]int(nil), in...), P: layers.Size(in) / d, D: d, F: s.Units, kernelShape: []int{d, s.Units}, fanIn: d}
	g.out = append(append([]int(nil), in[:len(in)-1]...), s.Units)
	g.gather = func(x, col []float64) { copy(col, x) }
	g.scatter = func(dcol, dx []float64) { add(dx, dcol) }
	g.matrix = func(k, w []float64) { copy(w, k) }
	g.grad = func(dw, dk []float64) { add(dk, dw) }
	return build(g, common{s.Units, s.NumSends, s.WaitBetweenEvents, s.System, s.Bias, s.InitStd, s.InputMeanSquare, s.OutputScale}, seed)
}

// Build implements layers.Spec.
func (s Conv1d) Build(in []int, seed int64) (layers.Layer, error) {
	return conv1d("analog.Conv1d", in, s.Filters, s.Kernel, s.Stride, 1, common{s.Filters, s.NumSends, s.WaitBetweenEvents, s.System, s.Bias, s.InitStd, s.InputMeanSquare, s.OutputScale}, seed)
}

// Build implements layers.Spec.
func (s ExpandedConv1d) Build(in []int, seed int64) (layers.Layer, error) {
	e := s.Expansions
	if e < 0 {
		return nil, fmt.Errorf("analog: ExpandedConv1d.Expansions = %d: must be ≥ 0 (0: as many as fit one array)", e)
	}
	if e == 0 && len(in) == 2 && s.Kernel > 0 && s.Filters > 0 {
		st := max(s.Stride, 1)
		c := in[1]
		e = 1
		for (s.Kernel+e*st)*c <= ArrayRows/2 && (e+1)*s.Filters <= ArrayCols {
			e++
		}
	}
	return conv1d("analog.ExpandedConv1d", in, s.Filters, s.Kernel, s.Stride, max(e, 1), common{s.Filters, s.NumSends, s.WaitBetweenEvents, s.System, s.Bias, s.InitStd, s.InputMeanSquare, s.OutputScale}, seed)
}

func conv1d(kind string, in []int, filters, k, stride, e int, c common, seed int64) (layers.Layer, error) {
	if len(in) != 2 || in[0] <= 0 || in[1] <= 0 {
		return nil, fmt.Errorf("analog: %s: input shape %v: want (L, C)", kind, in)
	}
	if filters <= 0 || k <= 0 {
		return nil, fmt.Errorf("analog: %s: Filters = %d, Kernel = %d: must be positive", kind, filters, k)
	}
	if stride == 0 {
		stride = 1
	}
	if stride < 0 {
		return nil, fmt.Errorf("analog: %s.Stride = %d: must be positive", kind, stride)
	}
	L, C := in[0], in[1]
	if k > L {
		return nil, fmt.Errorf("analog: %s.Kernel = %d: longer than the input (%d)", kind, k, L)
	}
	ol := (L-k)/stride + 1
	span := (k + (e-1)*stride) * C // rows of one expanded block
	blocks := (ol + e - 1) / e
	g := &geom{kind: kind, in: []int{L, C}, out: []int{ol, filters}, P: blocks, D: span, F: e * filters, kernelShape: []int{k, C, filters}, fanIn: k * C}
	g.gather = func(x, col []float64) {
		for b := range blocks {
			row := col[b*span : (b+1)*span]
			start := b * e * stride * C
			n := min(span, L*C-start)
			copy(row, x[start:start+n])
			clear(row[n:])
		}
	}
	g.scatter = func(dcol, dx []float64) {
		for b := range blocks {
			start := b * e * stride * C
			n := min(span, L*C-start)
			add(dx[start:start+n], dcol[b*span:b*span+n])
		}
	}
	F := filters
	g.matrix = func(kern, w []float64) {
		clear(w)
		for ex := range e {
			for r := range k * C {
				row := (ex*stride*C + r) * e * F
				copy(w[row+ex*F:row+ex*F+F], kern[r*F:(r+1)*F])
			}
		}
	}
	g.grad = func(dw, dk []float64) {
		for ex := range e {
			for r := range k * C {
				row := (ex*stride*C + r) * e * F
				add(dk[r*F:(r+1)*F], dw[row+ex*F:row+ex*F+F])
			}
		}
	}
	if e > 1 {
		// blocks × (E·F) results hold positions b·E+ex; the last block may
		// run past the output
		g.outMap = func(y, out []float64) { copy(out, y[:ol*F]) }
		g.outAdj = func(dout, dy []float64) { copy(dy, dout); clear(dy[ol*F:]) }
	}
	return build(g, c, seed)
}

// Build implements layers.Spec.
func (s Conv2d) Build(in []int, seed int64) (layers.Layer, error) {
	const kind = "analog.Conv2d"
	if len(in) != 3 || in[0] <= 0 || in[1] <= 0 || in[2] <= 0 {
		return nil, fmt.Errorf("analog: %s: input shape %v: want (H, W, C)", kind, in)
	}
	kh, kw := s.Kernel[0], s.Kernel[1]
	sh, sw := max(s.Strides[0], 1), max(s.Strides[1], 1)
	if s.Filters <= 0 || kh <= 0 || kw <= 0 || s.Strides[0] < 0 || s.Strides[1] < 0 {
		return nil, fmt.Errorf("analog: %s: Filters = %d, Kernel = %v, Strides = %v: must be positive", kind, s.Filters, s.Kernel, s.Strides)
	}
	H, W, C := in[0], in[1], in[2]
	if kh > H || kw > W {
		return nil, fmt.Errorf("analog: %s.Kernel = %v: larger than the input (%d, %d)", kind, s.Kernel, H, W)
	}
	oh, ow := (H-kh)/sh+1, (W-kw)/sw+1
	D := kh * kw * C
	g := &geom{kind: kind, in: []int{H, W, C}, out: []int{oh, ow, s.Filters}, P: oh * ow, D: D, F: s.Filters, kernelShape: []int{kh, kw, C, s.Filters}, fanIn: D}
	// each kernel row ky of output position (oy, ox) is kw·C contiguous
	// values of the input and of the column row: gather copies them,
	// scatter (its adjoint) adds them back
	segments := func(f func(colOff, xOff int)) {
		for oy := range oh {
			for ox := range ow {
				for ky := range kh {
					f((oy*ow+ox)*D+ky*kw*C, ((oy*sh+ky)*W+ox*sw)*C)
				}
			}
		}
	}
	n := kw * C
	g.gather = func(x, col []float64) {
		segments(func(c, i int) { copy(col[c:c+n], x[i:i+n]) })
	}
	g.scatter = func(dcol, dx []float64) {
		segments(func(c, i int) { add(dx[i:i+n], dcol[c:c+n]) })
	}
	g.matrix = func(k, w []float64) { copy(w, k) }
	g.grad = func(dw, dk []float64) { add(dk, dw) }
	return build(g, common{s.Filters, s.NumSends, s.WaitBetweenEvents, s.System, s.Bias, s.InitStd, s.InputMeanSquare, s.OutputScale}, seed)
}

func add(dst, src []float64) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] += v
	}
}

type mmLayer struct {
	g      *geom
	c      common
	op     Op
	params []layers.Param
}

func build(g *geom, c common, seed int64) (layers.Layer, error) {
	if err := c.check(g.kind); err != nil {
		return nil, err
	}
	op, err := Op{NumSends: c.sends, WaitBetweenEvents: c.wait, Clamp: true}.normalised()
	if err != nil {
		return nil, fmt.Errorf("analog: %s: %w", g.kind, err)
	}
	if c.initStd == 0 {
		c.initStd = 32
	}
	if c.outScale == 0 {
		c.outScale = 1
	}
	gain := DefaultGain
	if c.sys != nil {
		gain = c.sys.cfg.Gain
		if _, err := c.sys.Partition(g.D, g.F, false); err != nil {
			return nil, fmt.Errorf("analog: %s: %w", g.kind, err)
		}
	}
	a := InitBound(g.fanIn, gain, op.NumSends, c.initStd, c.ex2)
	n := layers.Size(g.kernelShape)
	k := make([]float64, n)
	st := uint64(seed)
	for i := range k {
		st += 0x9e3779b97f4a7c15
		u := float64(mix64(st)>>11) / (1 << 53)
		k[i] = (2*u - 1) * a
	}
	// zero sum per output: the unsigned inputs' mean (about 15.5 for
	// inputs spread over 0..31) then adds no offset, which would otherwise
	// switch whole filters on or off behind the next ReLU
	F := g.kernelShape[len(g.kernelShape)-1]
	for f := range F {
		mean := 0.0
		for i := f; i < n; i += F {
			mean += k[i]
		}
		mean /= float64(n / F)
		for i := f; i < n; i += F {
			k[i] = math.Max(-WeightMax, math.Min(WeightMax, k[i]-mean))
		}
	}
	l := &mmLayer{g: g, c: c, op: op}
	// the kernel declares the hardware range as its constraint: the
	// trainer clamps it after every optimiser step (the hxtorch paper's
	// clamp_weight_), so that the trained weights stay the ones the chip
	// runs
	l.params = append(l.params, layers.Param{Name: "kernel", Role: layers.RoleKernel,
		Shape: append([]int(nil), g.kernelShape...), Value: k, Trainable: true, Constraint: layers.Bounds{Lo: -WeightMax, Hi: WeightMax}})
	if c.bias {
		l.params = append(l.params, layers.Param{Name: "bias", Role: layers.RoleBias, Shape: []int{c.units},
			Value: make([]float64, c.units), Trainable: true})
	}
	return l, nil
}

func (l *mmLayer) Kind() string    { return l.g.kind }
func (l *mmLayer) InShape() []int  { return append([]int(nil), l.g.in...) }
func (l *mmLayer) OutShape() []int { return append([]int(nil), l.g.out...) }
func (l *mmLayer) String() string {
	return fmt.Sprintf("%s %v → %v (%d×%d per run)", l.g.kind, l.g.in, l.g.out, l.g.D, l.g.F)
}
func (l *mmLayer) System() *System               { return l.c.sys }
func (l *mmLayer) Scale() float64                { return l.gain() * float64(l.op.NumSends) }
func (l *mmLayer) MatrixShape() (rows, cols int) { return l.g.D, l.g.F }

func (l *mmLayer) gain() float64 {
	if l.c.sys != nil {
		return l.c.sys.cfg.Gain
	}
	return DefaultGain
}

func (l *mmLayer) Params() []layers.Param {
	ps := make([]layers.Param, len(l.params))
	for i, p := range l.params {
		ps[i] = p.Clone()
	}
	return ps
}

func (l *mmLayer) NewExec(maxBatch int, seed uint64) (layers.Exec, error) {
	if maxBatch < 1 {
		return nil, fmt.Errorf("analog: %s: maxBatch = %d: must be at least 1", l.g.kind, maxBatch)
	}
	g := l.g
	e := &mmExec{l: l, maxBatch: maxBatch,
		col:  make([]float64, maxBatch*g.P*g.D),
		w:    make([]float64, g.D*g.F),
		y:    make([]float64, maxBatch*g.P*g.F),
		dy:   make([]float64, maxBatch*g.P*g.F),
		dcol: make([]float64, maxBatch*g.P*g.D),
		dw:   make([]float64, g.D*g.F),
	}
	if l.c.sys != nil {
		m, err := l.c.sys.Configure(e.w, g.D, g.F, l.op)
		if err != nil {
			return nil, fmt.Errorf("analog: %s: %w", g.kind, err)
		}
		m.Reseed(int64(seed))
		e.m = m
		e.sat = make([]bool, maxBatch*g.P*m.Partition().RowSplits*g.F)
		e.dyr = make([]float64, maxBatch*g.P*g.F)
	}
	return e, nil
}

type mmExec struct {
	l                       *mmLayer
	maxBatch                int
	m                       *Matrix
	col, w, y, dy, dcol, dw []float64
	// on a system: the saturation flags of the last Forward (rows ×
	// row splits × F) and the masked gradient of one row split
	sat   []bool
	dyr   []float64
	satOK bool
}

func (e *mmExec) check(params [][]float64, in, out []float64, batch int) error {
	g := e.l.g
	if batch < 1 || batch > e.maxBatch {
		return fmt.Errorf("analog: %s: batch = %d: must be in 1..%d (maxBatch)", g.kind, batch, e.maxBatch)
	}
	if len(params) != len(e.l.params) {
		return fmt.Errorf("analog: %s: %d parameter arrays, want %d", g.kind, len(params), len(e.l.params))
	}
	for i, p := range params {
		if len(p) != len(e.l.params[i].Value) {
			return fmt.Errorf("analog: %s: parameter %q has %d values, want %d", g.kind, e.l.params[i].Name, len(p), len(e.l.params[i].Value))
		}
	}
	if len(in) != batch*layers.Size(g.in) || len(out) != batch*layers.Size(g.out) {
		return fmt.Errorf("analog: %s: in/out have %d/%d values, want %d/%d for batch %d", g.kind, len(in), len(out), batch*layers.Size(g.in), batch*layers.Size(g.out), batch)
	}
	return nil
}

// lower writes the batch's lowered inputs (rows × D) into e.col and the
// kernel's matrix into e.w.
func (e *mmExec) lower(params [][]float64, in []float64, batch int) (rows int, col []float64) {
	g := e.l.g
	inSize := layers.Size(g.in)
	rows = batch * g.P
	col = e.col[:rows*g.D]
	for b := range batch {
		g.gather(in[b*inSize:(b+1)*inSize], col[b*g.P*g.D:(b+1)*g.P*g.D])
	}
	g.matrix(params[0], e.w)
	return rows, col
}

// Forward implements layers.Exec: lower, multiply on the system (or
// ideally without one), map to the output, add the digital bias.
func (e *mmExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.check(params, in, out, batch); err != nil {
		return err
	}
	g := e.l.g
	outSize := layers.Size(g.out)
	rows, col := e.lower(params, in, batch)
	y := e.y[:rows*g.F]
	if e.m != nil {
		if err := e.m.SetWeights(e.w); err != nil {
			return fmt.Errorf("analog: %s: %w", g.kind, err)
		}
		R := e.m.Partition().RowSplits
		if err := e.m.ApplyMasked(col, rows, y, e.sat[:rows*R*g.F]); err != nil {
			return fmt.Errorf("analog: %s: %w", g.kind, err)
		}
		e.satOK = true
	} else {
		blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, rows, g.F, g.D, e.l.Scale(), col, g.D, e.w, g.F, 0, y, g.F)
	}
	for b := range batch {
		yb, ob := y[b*g.P*g.F:(b+1)*g.P*g.F], out[b*outSize:(b+1)*outSize]
		if g.outMap != nil {
			g.outMap(yb, ob)
		} else {
			copy(ob, yb)
		}
		if k := e.l.outScale(); k != 1 {
			for i := range ob {
				ob[i] *= k
			}
		}
		if e.l.c.bias {
			u := e.l.c.units
			for i := range ob {
				ob[i] += params[1][i%u]
			}
		}
	}
	return nil
}

// Backward implements layers.Exec with the software model of the
// operation (straight through the quantisation, noise and clamping):
// dW = s·colᵀ·dy, dcol = s·dy·Wᵀ, s = Gain·num_sends (the hxtorch paper, §3.1).
func (e *mmExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.check(params, in, out, batch); err != nil {
		return err
	}
	g := e.l.g
	outSize, inSize := layers.Size(g.out), layers.Size(g.in)
	if len(dOut) != batch*outSize || (dIn != nil && len(dIn) != batch*inSize) {
		return fmt.Errorf("analog: %s: dOut/dIn have %d/%d values, want %d/%d", g.kind, len(dOut), len(dIn), batch*outSize, batch*inSize)
	}
	if dParams != nil && len(dParams) != len(params) {
		return fmt.Errorf("analog: %s: %d gradient arrays, want %d", g.kind, len(dParams), len(params))
	}
	rows, col := e.lower(params, in, batch)
	dy := e.dy[:rows*g.F]
	for b := range batch {
		db, do := dy[b*g.P*g.F:(b+1)*g.P*g.F], dOut[b*outSize:(b+1)*outSize]
		if g.outAdj != nil {
			g.outAdj(do, db)
		} else {
			copy(db, do)
		}
	}
	s := e.l.Scale() * e.l.outScale()
	bl := blas64.Implementation()
	if e.m != nil && e.satOK {
		return e.maskedBackward(params, in, dOut, dIn, dParams, batch, col, dy, s)
	}
	if dParams != nil && dParams[0] != nil {
		bl.Dgemm(blas.Trans, blas.NoTrans, g.D, g.F, rows, s, col, g.D, dy, g.F, 0, e.dw, g.F)
		g.grad(e.dw, dParams[0])
	}
	if e.l.c.bias && dParams != nil && dParams[1] != nil {
		u := e.l.c.units
		for i, v := range dOut[:batch*outSize] {
			dParams[1][i%u] += v
		}
	}
	if dIn != nil {
		dcol := e.dcol[:rows*g.D]
		bl.Dgemm(blas.NoTrans, blas.Trans, rows, g.D, g.F, s, dy, g.F, e.w, g.F, 0, dcol, g.D)
		for b := range batch {
			g.scatter(dcol[b*g.P*g.D:(b+1)*g.P*g.D], dIn[b*inSize:(b+1)*inSize])
		}
	}
	return nil
}

// maskedBackward is Backward on a system: per row split r of the
// matrix, the gradient of the outputs whose partial result (or total)
// saturated in the last Forward is dropped (the clamp's derivative is
// zero), dW[rows r] = s·col_rᵀ·(dy⊙M_r), dcol_r = s·(dy⊙M_r)·W_rᵀ.
func (e *mmExec) maskedBackward(params [][]float64, in, dOut, dIn []float64, dParams [][]float64, batch int, col, dy []float64, s float64) error {
	g := e.l.g
	rows := batch * g.P
	p := e.m.Partition()
	R := p.RowSplits
	bl := blas64.Implementation()
	wantW := dParams != nil && dParams[0] != nil
	if wantW {
		clear(e.dw)
	}
	dcol := e.dcol[:rows*g.D]
	clear(dcol)
	dyr := e.dyr[:rows*g.F]
	for r := range R {
		r0, r1 := r*p.RowsPerArray, min(g.D, (r+1)*p.RowsPerArray)
		for i := range rows {
			flags := e.sat[(i*R+r)*g.F : (i*R+r+1)*g.F]
			src, dst := dy[i*g.F:(i+1)*g.F], dyr[i*g.F:(i+1)*g.F]
			for j, f := range flags {
				if f {
					dst[j] = 0
				} else {
					dst[j] = src[j]
				}
			}
		}
		if wantW {
			// rows r0..r1 of dW: col[:, r0:r1]ᵀ · dyr
			bl.Dgemm(blas.Trans, blas.NoTrans, r1-r0, g.F, rows, s, col[r0:], g.D, dyr, g.F, 0, e.dw[r0*g.F:], g.F)
		}
		if dIn != nil {
			// dcol[:, r0:r1] = dyr · W[r0:r1, :]ᵀ
			bl.Dgemm(blas.NoTrans, blas.Trans, rows, r1-r0, g.F, s, dyr, g.F, e.w[r0*g.F:], g.F, 0, dcol[r0:], g.D)
		}
	}
	if wantW {
		g.grad(e.dw, dParams[0])
	}
	if e.l.c.bias && dParams != nil && dParams[1] != nil {
		u := e.l.c.units
		outSize := layers.Size(g.out)
		for i, v := range dOut[:batch*outSize] {
			dParams[1][i%u] += v
		}
	}
	if dIn != nil {
		inSize := layers.Size(g.in)
		for b := range batch {
			g.scatter(dcol[b*g.P*g.D:(b+1)*g.P*g.D], dIn[b*inSize:(b+1)*inSize])
		}
	}
	return nil
}

// outScale is the digital postprocessing factor (OutputScale).
func (l *mmLayer) outScale() float64 { return l.c.outScale }
