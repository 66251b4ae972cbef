package analog

import (
	"fmt"
	"math"
	"slices"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit/layers"
)

// BackendOptions configures the analog sim.Backend.
type BackendOptions struct {
	// Config is the emulated system (nil: ChipConfig(1)). Every backend
	// made from the options gets its own System drawn from it.
	Config *Config
	// NoCalibration skips the per-column calibration (Calibrate +
	// SetCalibration) done when a backend is made.
	NoCalibration bool
	// Select picks the dense products that run on the chip (nil: all);
	// SelectLayer the layer nodes (nil: every Dense, Conv1D and Conv2D
	// the chip can run).
	Select      func(p sim.DenseProduct) bool
	SelectLayer func(tag string, l layers.Layer) bool
	// RangeSteps is the length of the range-finding run (0: 1000 steps);
	// inputs beyond the largest it saw are clamped.
	RangeSteps int
	// Headroom is the fraction of the 8-bit range that the largest
	// product seen in the range-finding run is mapped to (0: 0.75).
	Headroom float64
}

// Placement reports where one dense product or layer runs.
type Placement struct {
	Tag        string
	Role       ir.Role // the built parameter of a product (ir.RoleNone for a layer)
	Key        string
	Rows, Cols int // the product's A (Rows×Cols); for a layer the lowered matrix
	Layer      bool
	OnChip     bool
	NumSends   int
	// InputScale and WeightScale map floats to hardware units (x·s_x,
	// A·s_A; WeightScale is the median of the per-output scales); InputMax and OutputMax are the largest |x| and |A·x±| of
	// the range-finding run.
	InputScale, WeightScale float64
	InputMax, OutputMax     float64
	// Partition describes the placement on the synapse arrays.
	Partition string
	// Why a product stays on the CPU.
	Reason string
}

// Backend runs a built model on the CPU simulator with its dense
// products (DotInc: connection weights, decoders, encoders) and its
// Dense, Conv1D and Conv2D layer nodes on an emulated analog system
// (sim.Hooks).
//
// Floats become hardware units by scales fixed before the run: a
// range-finding run of RangeSteps steps on the CPU records, for every
// product, the largest |x| and the largest positive and negative parts
// of A·x. Then x is scaled to 0..31 (an x with negative values runs
// twice, as x⁺ and x⁻, and the two results are subtracted), A to ±63, and num_sends is the
// largest that keeps the largest product inside Headroom of the 8-bit
// range; the result is scaled back, y = Σ LSB/(Gain·num_sends·s_x·s_A),
// with the floor's −½ LSB per row chunk added back. The system is
// calibrated per column when the backend is made.
//
// Reset restarts the trial-to-trial noise, so runs repeat exactly.
type Backend struct {
	*sim.Simulator
	sys       *System
	placement []Placement
	mats      []*Matrix
}

// NewBackend returns the sim.NewBackend of the analog backend.
func NewBackend(o BackendOptions) sim.NewBackend {
	return func(m *sim.Model) (sim.Backend, error) { return newBackend(m, o) }
}

// System returns the backend's emulated system.
func (b *Backend) System() *System { return b.sys }

// Placement lists every dense product and layer node the backend was
// offered and where it runs.
func (b *Backend) Placement() []Placement { return append([]Placement(nil), b.placement...) }

// Reset returns to time 0 and restarts every product's noise stream.
func (b *Backend) Reset() {
	b.Simulator.Reset()
	for i, m := range b.mats {
		m.Reseed(int64(i) + 1)
	}
}

// span records the ranges one product or layer saw in the range-finding
// run: the largest |x|, and per output (row of A, or channel of a layer)
// the largest |A·x⁺|, |A·x⁻| and |A_ij|.
type span struct {
	x             float64
	neg           bool // x had negative values
	yPos, yNeg, a []float64
}

func (sp *span) grow(n int) {
	if sp.a == nil {
		sp.yPos, sp.yNeg, sp.a = make([]float64, n), make([]float64, n), make([]float64, n)
	}
}

// empty reports whether the run saw no input or no weights.
func (sp *span) empty() bool {
	if sp.x == 0 || sp.a == nil {
		return true
	}
	for _, v := range sp.a {
		if v > 0 {
			return false
		}
	}
	return true
}

// New_ makes an analog backend for m (see Backend); NewBackend wraps it.
func newBackend(m *sim.Model, o BackendOptions) (*Backend, error) {
	cfg := ChipConfig(1)
	if o.Config != nil {
		cfg = *o.Config
	}
	if o.RangeSteps == 0 {
		o.RangeSteps = 1000
	}
	if o.Headroom == 0 {
		o.Headroom = 0.75
	}
	if o.RangeSteps < 1 {
		return nil, fmt.Errorf("analog: BackendOptions.RangeSteps = %d: must be positive", o.RangeSteps)
	}
	if !(o.Headroom > 0 && o.Headroom <= 1) {
		return nil, fmt.Errorf("analog: BackendOptions.Headroom = %v: must be in (0, 1]", o.Headroom)
	}
	sys, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if !o.NoCalibration && (cfg.GainSpread > 0 || cfg.OffsetSpread > 0) {
		c, err := sys.Calibrate(CalibrationOptions{Seed: cfg.Seed})
		if err != nil {
			return nil, err
		}
		if err := sys.SetCalibration(c); err != nil {
			return nil, err
		}
	}
	// 1. range finding on the CPU, products and layers in hook order
	var prods, lays []*span
	rec, err := sim.NewFromModel(m, sim.Hooks(
		func(p sim.DenseProduct, lane int) (sim.MatMulFunc, error) {
			sp := &span{}
			prods = append(prods, sp)
			return sp.record(p), nil
		},
		func(tag string, l layers.Layer, lane int) (layers.Layer, error) {
			sp := &span{}
			lays = append(lays, sp)
			return &recordLayer{Layer: l, sp: sp}, nil
		}))
	if err != nil {
		return nil, err
	}
	if err := rec.RunSteps(o.RangeSteps); err != nil {
		return nil, fmt.Errorf("analog: range-finding run: %w", err)
	}
	rec.Close()
	// 2. the run with the products on the system
	b := &Backend{sys: sys}
	np, nl := 0, 0
	s, err := sim.NewFromModel(m, sim.Hooks(
		func(p sim.DenseProduct, lane int) (sim.MatMulFunc, error) {
			if np >= len(prods) {
				return nil, fmt.Errorf("analog: %s: product not seen in the range-finding run", p.Tag)
			}
			sp := prods[np]
			np++
			pl := Placement{Tag: p.Tag, Role: p.Role, Key: p.Key, Rows: p.Rows, Cols: p.Cols}
			if o.Select != nil && !o.Select(p) {
				pl.Reason = "not selected"
				b.placement = append(b.placement, pl)
				return nil, nil
			}
			f, err := b.product(p, sp, o.Headroom, &pl)
			b.placement = append(b.placement, pl)
			return f, err
		},
		func(tag string, l layers.Layer, lane int) (layers.Layer, error) {
			if nl >= len(lays) {
				return nil, fmt.Errorf("analog: %s: layer not seen in the range-finding run", tag)
			}
			sp := lays[nl]
			nl++
			pl := Placement{Tag: tag, Layer: true}
			if o.SelectLayer != nil && !o.SelectLayer(tag, l) {
				pl.Reason = "not selected"
				b.placement = append(b.placement, pl)
				return nil, nil
			}
			l2, err := b.lower(l, sp, o.Headroom, &pl)
			b.placement = append(b.placement, pl)
			return l2, err
		}))
	if err != nil {
		return nil, err
	}
	b.Simulator = s
	b.Reset()
	return b, nil
}

// record returns the exact product, recording the ranges.
func (sp *span) record(p sim.DenseProduct) sim.MatMulFunc {
	return func(a, x, y []float64) error {
		sp.grow(p.Rows)
		for _, v := range x {
			sp.x = math.Max(sp.x, math.Abs(v))
			sp.neg = sp.neg || v < 0
		}
		for i := range p.Rows {
			var s, pos, neg float64
			row := a[i*p.Cols : (i+1)*p.Cols]
			for j, v := range x {
				t := row[j] * v
				s += t
				if v > 0 {
					pos += t
				} else {
					neg -= t
				}
				sp.a[i] = math.Max(sp.a[i], math.Abs(row[j]))
			}
			y[i] = s
			sp.yPos[i] = math.Max(sp.yPos[i], math.Abs(pos))
			sp.yNeg[i] = math.Max(sp.yNeg[i], math.Abs(neg))
		}
		return nil
	}
}

// scales picks the input scale, per output the weight scale, and
// num_sends: x maps |x|max to 31; num_sends is the smallest that lets
// the weakest output reach Headroom·127 LSB with its largest weight at
// 63 (at most 255); every output's weights are then scaled so that its
// largest product of the run maps to Headroom·127 (and its largest
// weight to at most 63). Per-output scales are per-column weight scales
// on the synapse array: each output is one neuron column.
func (b *Backend) scales(sp *span, headroom float64) (xs float64, ws []float64, sends int) {
	gain := b.sys.cfg.Gain
	xs = InputMax / sp.x
	target := headroom * OutputMax
	ws = make([]float64, len(sp.a))
	weakest := math.Inf(1)
	for i, a := range sp.a {
		ymax := math.Max(sp.yPos[i], sp.yNeg[i])
		if a > 0 && ymax > 0 {
			weakest = math.Min(weakest, gain*xs*(WeightMax/a)*ymax) // LSB at one send, full weights
		}
	}
	sends = 1
	if !math.IsInf(weakest, 1) {
		sends = int(math.Max(1, math.Min(255, math.Floor(target/weakest))))
	}
	for i, a := range sp.a {
		ymax := math.Max(sp.yPos[i], sp.yNeg[i])
		switch {
		case a == 0:
			ws[i] = 1
		case ymax == 0:
			ws[i] = WeightMax / a
		default:
			ws[i] = math.Min(WeightMax/a, target/(gain*xs*float64(sends)*ymax))
		}
	}
	return xs, ws, sends
}

func (b *Backend) product(p sim.DenseProduct, sp *span, headroom float64, pl *Placement) (sim.MatMulFunc, error) {
	if sp.empty() {
		pl.Reason = "inputs or weights were all zero in the range-finding run"
		return nil, nil
	}
	xs, ws, sends := b.scales(sp, headroom)
	// the chip computes xᵀW: W = Aᵀ·ws, Cols×Rows
	wt := make([]float64, p.Rows*p.Cols)
	m, err := b.sys.Configure(wt, p.Cols, p.Rows, Op{NumSends: sends, Clamp: true})
	if err != nil {
		return nil, fmt.Errorf("analog: %s: %w", p.Tag, err)
	}
	b.mats = append(b.mats, m)
	pl.OnChip, pl.NumSends, pl.Partition = true, sends, m.Partition().String()
	pl.InputScale, pl.WeightScale, pl.InputMax, pl.OutputMax = xs, median(ws), sp.x, maxOf(sp.yPos, sp.yNeg)
	back := make([]float64, p.Rows)
	for i := range back {
		back[i] = 1 / (b.sys.cfg.Gain * float64(sends) * xs * ws[i])
	}
	floorBias := 0.5 * float64(m.Partition().RowSplits)
	xp, xn := make([]float64, p.Cols), make([]float64, p.Cols)
	yp, yn := make([]float64, p.Rows), make([]float64, p.Rows)
	configured := false
	return func(a, x, y []float64) error {
		if !configured || !p.Fixed {
			for i := range p.Rows {
				for j := range p.Cols {
					wt[j*p.Rows+i] = a[i*p.Cols+j] * ws[i]
				}
			}
			if err := m.SetWeights(wt); err != nil {
				return err
			}
			configured = true
		}
		neg := false
		for j, v := range x {
			xp[j] = math.Max(v, 0) * xs
			xn[j] = math.Max(-v, 0) * xs
			neg = neg || v < 0
		}
		if err := m.Apply(xp, 1, yp); err != nil {
			return err
		}
		if !neg {
			for i := range y {
				y[i] = (yp[i] + floorBias) * back[i]
			}
			return nil
		}
		if err := m.Apply(xn, 1, yn); err != nil {
			return err
		}
		for i := range y {
			y[i] = (yp[i] - yn[i]) * back[i]
		}
		return nil
	}, nil
}

// recordLayer runs a layer exactly, recording its ranges.
type recordLayer struct {
	layers.Layer
	sp *span
}

func (r *recordLayer) NewExec(maxBatch int, seed uint64) (layers.Exec, error) {
	ex, err := r.Layer.NewExec(maxBatch, seed)
	if err != nil {
		return nil, err
	}
	return &recordExec{Exec: ex, sp: r.sp, l: r.Layer}, nil
}

type recordExec struct {
	layers.Exec
	l  layers.Layer
	sp *span
	xp []float64
	yp []float64
}

func (r *recordExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := r.Exec.Forward(params, in, out, batch, training); err != nil {
		return err
	}
	sp := r.sp
	out0 := r.l.OutShape()
	F := out0[len(out0)-1]
	sp.grow(F)
	for i, v := range params[0] {
		sp.a[i%F] = math.Max(sp.a[i%F], math.Abs(v))
	}
	// the parts x⁺ and x⁻ through the kernel alone (bias zeroed)
	ps := [][]float64{params[0]}
	if len(params) > 1 {
		ps = append(ps, make([]float64, len(params[1])))
	}
	if r.xp == nil {
		r.xp, r.yp = make([]float64, len(in)), make([]float64, len(out))
	}
	for sign := 1.0; sign >= -1; sign -= 2 {
		for i, v := range in {
			sp.x = math.Max(sp.x, math.Abs(v))
			sp.neg = sp.neg || v < 0
			r.xp[i] = math.Max(sign*v, 0)
		}
		if err := r.Exec.Forward(ps, r.xp, r.yp, batch, training); err != nil {
			return err
		}
		for i, v := range r.yp {
			if sign > 0 {
				sp.yPos[i%F] = math.Max(sp.yPos[i%F], math.Abs(v))
			} else {
				sp.yNeg[i%F] = math.Max(sp.yNeg[i%F], math.Abs(v))
			}
		}
	}
	return nil
}

// lower replaces a Dense, Conv1D or Conv2D layer by its analog
// counterpart with the scales of the range-finding run.
func (b *Backend) lower(l layers.Layer, sp *span, headroom float64, pl *Placement) (layers.Layer, error) {
	spec, ok := layers.SpecOf(l)
	if !ok {
		pl.Reason = l.Kind() + " layers have no analog counterpart"
		return nil, nil
	}
	if sp.empty() {
		pl.Reason = "inputs or weights were all zero in the range-finding run"
		return nil, nil
	}
	xs, ws, sends := b.scales(sp, headroom)
	var as layers.Spec
	bias := false
	switch s := spec.(type) {
	case layers.Dense:
		as, bias = Linear{Units: s.Units, NumSends: sends, System: b.sys}, !s.NoBias
	case layers.Conv1D:
		if (s.Padding != "" && s.Padding != "valid") || s.Dilation > 1 {
			pl.Reason = "Conv1D with padding or dilation has no analog counterpart"
			return nil, nil
		}
		as, bias = Conv1d{Filters: s.Filters, Kernel: s.Kernel, Stride: s.Stride, NumSends: sends, System: b.sys}, !s.NoBias
	case layers.Conv2D:
		if (s.Padding != "" && s.Padding != "valid") || len(s.Dilation) > 0 && (s.Dilation[0] > 1 || s.Dilation[len(s.Dilation)-1] > 1) {
			pl.Reason = "Conv2D with padding or dilation has no analog counterpart"
			return nil, nil
		}
		k := [2]int{s.Kernel[0], s.Kernel[len(s.Kernel)-1]}
		st := [2]int{1, 1}
		if len(s.Strides) > 0 {
			st = [2]int{s.Strides[0], s.Strides[len(s.Strides)-1]}
		}
		as, bias = Conv2d{Filters: s.Filters, Kernel: k, Strides: st, NumSends: sends, System: b.sys}, !s.NoBias
	default:
		pl.Reason = fmt.Sprintf("%T has no analog counterpart", spec)
		return nil, nil
	}
	al, err := as.Build(l.InShape(), 1)
	if err != nil {
		return nil, err
	}
	mm := al.(*mmLayer)
	rows, cols := mm.MatrixShape()
	part, _ := b.sys.Partition(rows, cols, false)
	pl.Rows, pl.Cols, pl.OnChip, pl.NumSends, pl.Partition = rows, cols, true, sends, part.String()
	pl.InputScale, pl.WeightScale, pl.InputMax, pl.OutputMax = xs, median(ws), sp.x, maxOf(sp.yPos, sp.yNeg)
	back := make([]float64, len(ws))
	for i := range back {
		back[i] = 1 / (b.sys.cfg.Gain * float64(sends) * xs * ws[i])
	}
	return &loweredLayer{Layer: l, an: mm, b: b, xs: xs, ws: ws, bias: bias, back: back, floorBias: 0.5 * float64(part.RowSplits)}, nil
}

// loweredLayer runs a float layer's parameters on its analog counterpart.
type loweredLayer struct {
	layers.Layer
	an        *mmLayer
	b         *Backend
	xs        float64
	ws, back  []float64 // per output channel
	bias      bool
	floorBias float64
}

func (l *loweredLayer) NewExec(maxBatch int, seed uint64) (layers.Exec, error) {
	ex, err := l.an.NewExec(maxBatch, seed)
	if err != nil {
		return nil, err
	}
	l.b.mats = append(l.b.mats, ex.(*mmExec).m)
	return &loweredExec{l: l, ex: ex}, nil
}

type loweredExec struct {
	l         *loweredLayer
	ex        layers.Exec
	k, xp, xn []float64
	yp, yn    []float64
}

func (e *loweredExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	l := e.l
	if e.k == nil {
		e.k = make([]float64, len(params[0]))
		e.xp, e.xn = make([]float64, len(in)), make([]float64, len(in))
		e.yp, e.yn = make([]float64, len(out)), make([]float64, len(out))
	}
	F := len(l.ws)
	for i, v := range params[0] {
		e.k[i] = v * l.ws[i%F]
	}
	neg := false
	for i, v := range in {
		e.xp[i] = math.Max(v, 0) * l.xs
		e.xn[i] = math.Max(-v, 0) * l.xs
		neg = neg || v < 0
	}
	ps := [][]float64{e.k}
	if err := e.ex.Forward(ps, e.xp, e.yp, batch, training); err != nil {
		return err
	}
	if neg {
		if err := e.ex.Forward(ps, e.xn, e.yn, batch, training); err != nil {
			return err
		}
	}
	for i := range out {
		v := e.yp[i] + l.floorBias
		if neg {
			v = e.yp[i] - e.yn[i]
		}
		out[i] = v * l.back[i%F]
		if l.bias {
			out[i] += params[1][i%F]
		}
	}
	return nil
}

func (e *loweredExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	return fmt.Errorf("analog: %s on the analog backend: no backward pass (train with package train and the analog layers)", e.l.Kind())
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	c := append([]float64(nil), v...)
	slices.Sort(c)
	return c[len(c)/2]
}

func maxOf(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Max(a[i], b[i]))
	}
	return m
}
