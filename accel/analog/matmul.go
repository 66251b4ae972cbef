package analog

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/stat/distuv"
)

// Op holds the per-operation hardware parameters (the hxtorch paper, §3.5): they sit
// beside the usual arguments of a matmul or convolution, as in
// conv1d(x, kernel, stride=1, num_sends=6, wait_between_events=25).
type Op struct {
	// NumSends sends every input that many times (1..255; 0: 1): the
	// analog result grows with it while the read-out noise does not.
	NumSends int
	// WaitBetweenEvents is the pause between successive input events in
	// FPGA clock cycles (0..1023). It enters the timing model (Matrix.ChipTime);
	// the emulation's arithmetic does not depend on it.
	WaitBetweenEvents int
	// Unsigned uses weights 0..63 and 256 rows per synapse array instead
	// of −63..63 and 128.
	Unsigned bool
	// Clamp clamps inputs and weights outside the hardware range to it
	// instead of returning an error. Non-integer values are always
	// rounded to the nearest integer, as the conversion to the hardware
	// types does.
	Clamp bool
}

func (o Op) normalised() (Op, error) {
	if o.NumSends == 0 {
		o.NumSends = 1
	}
	if o.NumSends < 1 || o.NumSends > 255 {
		return o, fmt.Errorf("analog: Op.NumSends = %d: must be in 1..255", o.NumSends)
	}
	if o.WaitBetweenEvents < 0 || o.WaitBetweenEvents > 1023 {
		return o, fmt.Errorf("analog: Op.WaitBetweenEvents = %d: must be in 0..1023 clock cycles", o.WaitBetweenEvents)
	}
	return o, nil
}

// weightMin is the smallest weight of the op's mode.
func (o Op) weightMin() float64 {
	if o.Unsigned {
		return 0
	}
	return -WeightMax
}

// QuantizeInput converts v to a hardware input: rounded to the nearest
// integer and checked against [0, 31] (clamped to it with clamp).
func QuantizeInput(v float64, clamp bool) (uint8, error) {
	r := math.Round(v)
	if !(r >= 0 && r <= InputMax) {
		if !clamp || math.IsNaN(v) {
			return 0, fmt.Errorf("input %v: outside the 5-bit range 0..%d (scale the input, or ask for clamping with Op.Clamp)", v, InputMax)
		}
		r = math.Max(0, math.Min(InputMax, r))
	}
	return uint8(r), nil
}

// QuantizeWeight converts v to a hardware weight of the op's mode:
// rounded, checked against [−63, 63] (or [0, 63] unsigned), clamped with
// clamp.
func QuantizeWeight(v float64, unsigned, clamp bool) (float32, error) {
	lo := -float64(WeightMax)
	if unsigned {
		lo = 0
	}
	r := math.Round(v)
	if !(r >= lo && r <= WeightMax) {
		if !clamp || math.IsNaN(v) {
			return 0, fmt.Errorf("weight %v: outside %v..%d (scale the weights, or ask for clamping with Op.Clamp)", v, lo, WeightMax)
		}
		r = math.Max(lo, math.Min(WeightMax, r))
	}
	return float32(r), nil
}

// Matrix is a weight matrix configured on a system (the static
// configuration of §4.1 of the hxtorch paper): quantised, partitioned, ready to
// multiply batches of inputs. Apply may be called from several
// goroutines.
type Matrix struct {
	sys   *System
	op    Op
	plan  *Partition
	w     [][]float32 // per tile, (Row1-Row0)×(Col1-Col0) row-major
	seed  uint64
	calls atomic.Uint64
	pool  sync.Pool // *scratch
}

// Configure quantises the rows×cols weights w (row-major, hardware units)
// and places them on the system.
func (s *System) Configure(w []float64, rows, cols int, op Op) (*Matrix, error) {
	op, err := op.normalised()
	if err != nil {
		return nil, err
	}
	if len(w) != rows*cols {
		return nil, fmt.Errorf("analog: Configure: %d weights for a %d×%d matrix", len(w), rows, cols)
	}
	plan, err := s.Partition(rows, cols, op.Unsigned)
	if err != nil {
		return nil, err
	}
	m := &Matrix{sys: s, op: op, plan: plan, w: make([][]float32, len(plan.Tiles)), seed: uint64(s.cfg.Seed)*0x9e3779b97f4a7c15 + 1}
	for k, t := range plan.Tiles {
		m.w[k] = make([]float32, (t.Row1-t.Row0)*(t.Col1-t.Col0))
	}
	if err := m.quantizeWeights(w); err != nil {
		return nil, fmt.Errorf("analog: Configure: %w", err)
	}
	return m, nil
}

// SetWeights quantises new weights into the configured matrix (same
// shape and placement): a reconfiguration, as training with the hardware
// in the loop does after every optimiser step.
func (m *Matrix) SetWeights(w []float64) error {
	p := m.plan
	if len(w) != p.Rows*p.Cols {
		return fmt.Errorf("analog: SetWeights: %d weights for a %d×%d matrix", len(w), p.Rows, p.Cols)
	}
	if err := m.quantizeWeights(w); err != nil {
		return fmt.Errorf("analog: SetWeights: %w", err)
	}
	return nil
}

// quantizeWeights fills the tiles from w (rows×cols): in-range values by
// a fast path, the rest by QuantizeWeight's rules.
func (m *Matrix) quantizeWeights(w []float64) error {
	p := m.plan
	lo := m.op.weightMin() - 0.5
	for k, t := range p.Tiles {
		tc := t.Col1 - t.Col0
		wt := m.w[k]
		for i := t.Row0; i < t.Row1; i++ {
			src := w[i*p.Cols+t.Col0 : i*p.Cols+t.Col1]
			dst := wt[(i-t.Row0)*tc : (i-t.Row0+1)*tc]
			for j, v := range src {
				if v > lo && v < WeightMax+0.5 {
					dst[j] = float32(math.Round(v))
					continue
				}
				q, err := QuantizeWeight(v, m.op.Unsigned, m.op.Clamp)
				if err != nil {
					return fmt.Errorf("w[%d][%d]: %w", i, t.Col0+j, err)
				}
				dst[j] = q
			}
		}
	}
	return nil
}

// Partition returns the matrix's placement.
func (m *Matrix) Partition() *Partition { return m.plan }

// Op returns the matrix's hardware parameters (defaults filled in).
func (m *Matrix) Op() Op { return m.op }

// Scale is the ideal output per unit of Σ x·w: Gain · NumSends. A
// software model of the operation is y ≈ Scale · xᵀW (the backward pass
// of hardware-in-the-loop training uses it; the hxtorch paper, §3.1).
func (m *Matrix) Scale() float64 { return m.sys.cfg.Gain * float64(m.op.NumSends) }

// Reseed restarts the trial-to-trial noise stream: the same inputs then
// give the same outputs again.
func (m *Matrix) Reseed(seed int64) {
	m.seed = uint64(seed)*0x9e3779b97f4a7c15 + 1
	m.calls.Store(0)
}

// batchChunk is the batch rows one worker emulates at a time; noise is
// drawn per (call, tile, chunk), so results do not depend on the number
// of workers.
const batchChunk = 128

// Apply multiplies the batch×rows inputs x (hardware units, row-major)
// with the configured weights on the emulated system and writes the
// batch×cols results (LSB, digitally summed over row splits and, with a
// calibration, corrected per column) to y.
func (m *Matrix) Apply(x []float64, batch int, y []float64) error {
	return m.ApplyMasked(x, batch, y, nil)
}

// ApplyMasked is Apply that also reports saturation: sat (batch ×
// RowSplits × Cols, or nil) is set true where the partial result of row
// split r for column j clamped at −128 or 127, or where the digital sum
// of column j did (then for every r). A straight-through backward pass
// masks its gradient there (the clamp's derivative is zero).
func (m *Matrix) ApplyMasked(x []float64, batch int, y []float64, sat []bool) error {
	p := m.plan
	if sat != nil && len(sat) != batch*p.RowSplits*p.Cols {
		return fmt.Errorf("analog: ApplyMasked: %d saturation flags for batch %d × %d row splits × %d columns", len(sat), batch, p.RowSplits, p.Cols)
	}
	if batch <= 0 {
		return fmt.Errorf("analog: Apply: batch = %d: must be positive", batch)
	}
	if len(x) != batch*p.Rows {
		return fmt.Errorf("analog: Apply: %d inputs for batch %d × %d rows", len(x), batch, p.Rows)
	}
	if len(y) != batch*p.Cols {
		return fmt.Errorf("analog: Apply: %d outputs for batch %d × %d columns", len(y), batch, p.Cols)
	}
	call := m.calls.Add(1)
	chunks := (batch + batchChunk - 1) / batchChunk
	workers := min(chunks, runtime.GOMAXPROCS(0))
	if batch*p.Rows*p.Cols < 1<<18 {
		workers = 1
	}
	if workers == 1 {
		sc, _ := m.pool.Get().(*scratch)
		if sc == nil {
			sc = newScratch(p)
		}
		defer m.pool.Put(sc)
		for c := range chunks {
			if err := m.applyChunk(sc, x, y, sat, c*batchChunk, min(batch, (c+1)*batchChunk), call, c); err != nil {
				return err
			}
		}
		return nil
	}
	var firstErr error
	var mu sync.Mutex
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc, _ := m.pool.Get().(*scratch)
			if sc == nil {
				sc = newScratch(p)
			}
			defer m.pool.Put(sc)
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				b0, b1 := c*batchChunk, min(batch, (c+1)*batchChunk)
				if err := m.applyChunk(sc, x, y, sat, b0, b1, call, c); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

type scratch struct {
	xq  []uint8   // batchChunk × Rows
	xf  []float32 // batchChunk × RowsPerArray
	acc []float32 // batchChunk × ColsPerArray
	out []int8    // batchChunk × ColsPerArray
	sum []float64 // batchChunk × Cols
}

func newScratch(p *Partition) *scratch {
	return &scratch{
		xq:  make([]uint8, batchChunk*p.Rows),
		xf:  make([]float32, batchChunk*p.RowsPerArray),
		acc: make([]float32, batchChunk*p.ColsPerArray),
		out: make([]int8, batchChunk*p.ColsPerArray),
		sum: make([]float64, batchChunk*p.Cols),
	}
}

func (m *Matrix) applyChunk(sc *scratch, x, y []float64, sat []bool, b0, b1 int, call uint64, chunk int) error {
	p := m.plan
	nb := b1 - b0
	xq := sc.xq[:nb*p.Rows]
	for i, v := range x[b0*p.Rows : b1*p.Rows] {
		q, err := QuantizeInput(v, m.op.Clamp)
		if err != nil {
			return fmt.Errorf("analog: Apply: x[%d][%d]: %w", b0+i/p.Rows, i%p.Rows, err)
		}
		xq[i] = q
	}
	sum := sc.sum[:nb*p.Cols]
	clear(sum)
	for k, t := range p.Tiles {
		tr, tc := t.Row1-t.Row0, t.Col1-t.Col0
		xf := sc.xf[:nb*tr]
		for b := range nb {
			row := xq[b*p.Rows+t.Row0 : b*p.Rows+t.Row1]
			dst := xf[b*tr : (b+1)*tr]
			for i, v := range row {
				dst[i] = float32(v)
			}
		}
		if m.sys.cfg.Software {
			// the software model: exact products, no digitisation
			acc := sc.acc[:nb*tc]
			blas32.Implementation().Sgemm(blas.NoTrans, blas.NoTrans, nb, tc, tr, 1, xf, tr, m.w[k], tc, 0, acc, tc)
			g0 := m.sys.cfg.Gain * float64(m.op.NumSends)
			for b := range nb {
				sb := sum[b*p.Cols+t.Col0 : b*p.Cols+t.Col1]
				for j, v := range acc[b*tc : (b+1)*tc] {
					sb[j] += g0 * float64(v)
				}
			}
			continue
		}
		out := sc.out[:nb*tc]
		ns := newNoise(m.seed, call, uint64(k), uint64(chunk))
		m.sys.emulate(out, sc.acc[:nb*tc], xf, m.w[k], nb, tr, tc, t.Array, m.op.NumSends, &ns)
		m.sys.accumulate(sum, out, nb, p.Cols, t)
		if sat != nil {
			R := p.RowSplits
			for b := range nb {
				row := sat[((b0+b)*R+t.RowSplit)*p.Cols+t.Col0:]
				for j, v := range out[b*tc : (b+1)*tc] {
					row[j] = v == OutputMin || v == OutputMax
				}
			}
		}
	}
	if m.sys.cfg.Software {
		// one Gaussian noise draw per output (the hxtorch paper, §4.2: noise added
		// to the output of each layer); nothing saturates
		ns := newNoise(m.seed, call, ^uint64(0), uint64(chunk))
		sigma := m.sys.cfg.Noise
		for i, v := range sum {
			if sigma > 0 {
				v += sigma * ns.norm()
			}
			y[b0*p.Cols+i] = v
		}
		return nil
	}
	finish(y[b0*p.Cols:b1*p.Cols], sum)
	if sat != nil {
		R := p.RowSplits
		for b := range nb {
			for j, v := range sum[b*p.Cols : (b+1)*p.Cols] {
				if v <= OutputMin || v >= OutputMax {
					for r := range R {
						sat[((b0+b)*R+r)*p.Cols+j] = true
					}
				}
			}
		}
	}
	return nil
}

// emulate runs one tile on synapse array a: acc = x·w (exact in float32:
// |Σ| ≤ 256·31·63 < 2²⁴), then the column model of Config.
func (s *System) emulate(out []int8, acc, xf, w []float32, nb, tr, tc, a, sends int, ns *noise) {
	blas32.Implementation().Sgemm(blas.NoTrans, blas.NoTrans, nb, tc, tr, 1, xf, tr, w, tc, 0, acc, tc)
	s.column(out, acc, nb, tc, a, sends, ns)
}

// column applies the analog column model to the exact sums acc.
func (s *System) column(out []int8, acc []float32, nb, tc, a, sends int, ns *noise) {
	g0 := s.cfg.Gain * float64(sends)
	gain, off := s.gain[a], s.offset[a]
	sigma, sat := s.cfg.Noise, s.cfg.Saturation
	for b := range nb {
		ab, ob := acc[b*tc:(b+1)*tc], out[b*tc:(b+1)*tc]
		for j, v := range ab {
			u := gain[j]*g0*float64(v) + off[j]
			if sigma > 0 {
				u += sigma * ns.norm()
			}
			if sat > 0 {
				u = sat * math.Tanh(u/sat)
			}
			u = math.Floor(u)
			if u < OutputMin {
				u = OutputMin
			} else if u > OutputMax {
				u = OutputMax
			}
			ob[j] = int8(u)
		}
	}
}

// accumulate adds a tile's 8-bit results into the digital sums of its
// columns, corrected per column when the system is calibrated.
func (s *System) accumulate(sum []float64, out []int8, nb, cols int, t Tile) {
	tc := t.Col1 - t.Col0
	cg, co := s.correction(t.Array)
	for b := range nb {
		ob := out[b*tc : (b+1)*tc]
		sb := sum[b*cols+t.Col0 : b*cols+t.Col1]
		if cg == nil {
			for j, v := range ob {
				sb[j] += float64(v)
			}
			continue
		}
		S := s.corrSat
		for j, v := range ob {
			sb[j] += (unsaturate(float64(v)+0.5, S)-co[j])*cg[j] - 0.5
		}
	}
}

// finish saturates the digital sums to the 8-bit result range.
func finish(y, sum []float64) {
	for i, v := range sum {
		y[i] = math.Max(OutputMin, math.Min(OutputMax, v))
	}
}

// MatMul configures w (rows×cols) and multiplies the batch×rows inputs x
// with it: a one-off operation (Configure once and Apply many times to
// pay the configuration once).
func (s *System) MatMul(x []float64, batch int, w []float64, rows, cols int, op Op) ([]float64, error) {
	m, err := s.Configure(w, rows, cols, op)
	if err != nil {
		return nil, err
	}
	y := make([]float64, batch*cols)
	if err := m.Apply(x, batch, y); err != nil {
		return nil, err
	}
	return y, nil
}

// ------------------------------------------------------------ noise

// normTable holds N(0,1) quantiles at stratified probabilities
// (k+½)/len: drawing a uniformly random entry samples a distribution
// whose first four moments match N(0,1) to better than 10⁻³, at ~1 ns
// per draw (the emulation draws one per output and row split).
var normTable = func() []float32 {
	const n = 1 << 16
	t := make([]float32, n)
	for k := range t {
		t[k] = float32(distuv.UnitNormal.Quantile((float64(k) + 0.5) / n))
	}
	return t
}()

// noise is a splitmix64 stream indexing normTable.
type noise struct{ s uint64 }

func newNoise(seed, call, tile, chunk uint64) noise {
	h := seed
	for _, v := range [...]uint64{call, tile, chunk} {
		h = mix64(h ^ (v + 0x9e3779b97f4a7c15))
	}
	return noise{s: h}
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (n *noise) norm() float64 {
	n.s += 0x9e3779b97f4a7c15
	return float64(normTable[mix64(n.s)>>48])
}
