package analog

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neurogo/neurogo/accel/jit"
)

// PipelineOptions tunes Matrix.Run.
type PipelineOptions struct {
	// MockPartner replaces the emulated chip by a fast mock communication
	// partner that answers every run with results of the right size
	// without computing them (content-agnostic, as the response decoding
	// is): the pipeline then measures the software overhead alone (the
	// hxtorch paper, §4.1).
	MockPartner bool
	// Workers is the number of host goroutines (0: GOMAXPROCS).
	Workers int
	// Trace records the per-stage spans (jit.Trace).
	Trace bool
}

// PipelineStats is what one Matrix.Run measured and moved.
type PipelineStats struct {
	Trace                *jit.Trace // nil unless PipelineOptions.Trace
	Wall                 time.Duration
	Preprocess, Build    time.Duration // summed over instances
	Execute, Postprocess time.Duration
	Instances            int
	InputBytes           int64 // instruction streams sent to the chips
	OutputBytes          int64 // results received
	MACs                 int64
}

// Instruction stream (a simplified BrainScaleS-2 playback program): per
// tile a 16-byte header, then per input vector a 2-byte event count and
// one 2-byte event (row address, 5-bit value) per non-zero input; the
// chip repeats each vector num_sends times itself. Results come back as
// one byte per column and vector.
const (
	streamHeader = 16
	vectorHeader = 2
	eventBytes   = 2
)

// runChunk is the number of input vectors per execution instance of
// Run: a multiple of batchChunk, so that the noise streams (per call,
// tile and 128 vectors) are those of Apply.
const runChunk = 4 * batchChunk

// Run multiplies the batch×rows inputs x with the configured matrix like
// Apply, but as hxtorch executes it (the hxtorch paper, §3.2, Figs 2, 4, 5): a
// dependency graph of execution instances run just in time. The batch is
// cut into runs of 512 vectors; per run and row split an instance
// quantises the inputs; per run and tile an instance builds the tile's
// instruction stream and executes it on the tile's chip; per run and
// column split an instance decodes the 8-bit results of its tiles, sums
// them digitally (correcting calibrated columns) and saturates the sums
// into y. Host stages of independent instances overlap with execution on
// the chips. Run returns what the stages took and how much data moved;
// its results equal Apply's (same noise streams, same summation order).
func (m *Matrix) Run(ctx context.Context, x []float64, batch int, y []float64, o PipelineOptions) (*PipelineStats, error) {
	p := m.plan
	if batch <= 0 || len(x) != batch*p.Rows || len(y) != batch*p.Cols {
		return nil, fmt.Errorf("analog: Run: %d inputs and %d outputs for batch %d of a %d×%d matrix", len(x), len(y), batch, p.Rows, p.Cols)
	}
	if m.sys.cfg.Software {
		return nil, fmt.Errorf("analog: Run: a software-model system (Config.Software) has no instruction streams; use Apply")
	}
	call := m.calls.Add(1)
	g := jit.NewGraph()
	var inBytes, outBytes atomic.Int64
	for b0 := 0; b0 < batch; b0 += runChunk {
		b1 := min(batch, b0+runChunk)
		nb := b1 - b0
		// per row split: quantised inputs, nb × rows of the split
		xq := make([][]uint8, p.RowSplits)
		qid := make([]jit.ID, p.RowSplits)
		for r := range p.RowSplits {
			r0 := r * p.RowsPerArray
			r1 := min(p.Rows, r0+p.RowsPerArray)
			id, err := g.Add(jit.Task{Name: fmt.Sprintf("quantise[%d] %d..%d", r, b0, b1), Preprocess: func() error {
				tr := r1 - r0
				q := getBytes(nb * tr)
				for b := range nb {
					if err := quantizeRow(q[b*tr:(b+1)*tr], x[(b0+b)*p.Rows+r0:(b0+b)*p.Rows+r1], m.op.Clamp); err != nil {
						return fmt.Errorf("x[%d]%w", b0+b, err)
					}
				}
				xq[r] = q
				return nil
			}})
			if err != nil {
				return nil, err
			}
			qid[r] = id
		}
		left := make([]atomic.Int32, p.RowSplits) // tiles still reading a row split's inputs
		for _, t := range p.Tiles {
			left[t.RowSplit].Add(1)
		}
		// column split major, so that only one column split's results
		// wait for their digital sum at a time
		for c := range p.ColSplits {
			c0 := c * p.ColsPerArray
			w := min(p.Cols, c0+p.ColsPerArray) - c0
			outs := make([][]int8, p.RowSplits)
			var tiles []jit.ID
			for r := range p.RowSplits {
				k := r*p.ColSplits + c
				t := p.Tiles[k]
				var stream []byte
				tr, tc := t.Row1-t.Row0, t.Col1-t.Col0
				id, err := g.Add(jit.Task{
					Name:     fmt.Sprintf("mm[%d,%d] %d..%d", t.RowSplit, t.ColSplit, b0, b1),
					Resource: t.Chip,
					Build: func() error {
						stream = buildStream(getBytes(streamHeader + nb*(vectorHeader+eventBytes*tr))[:0], xq[r], nb, tr, k, m.op)
						if left[r].Add(-1) == 0 {
							putBytes(xq[r])
							xq[r] = nil
						}
						inBytes.Add(int64(len(stream)))
						outBytes.Add(int64(nb * tc))
						return nil
					},
					Execute: func() error {
						outs[r] = getInt8s(nb * tc)
						defer func() { putBytes(stream); stream = nil }()
						if o.MockPartner {
							// the partner answers with a result block of the
							// right size; reading the stream's length is all
							// it does (content-agnostic)
							if len(stream) < streamHeader {
								return fmt.Errorf("empty instruction stream")
							}
							return nil
						}
						return m.executeStream(stream, outs[r], nb, tr, tc, k, t.Array, call, b0/batchChunk)
					},
				}, qid[r])
				if err != nil {
					return nil, err
				}
				tiles = append(tiles, id)
			}
			// decode: the digital sum over the row splits (corrected per
			// column with a calibration), saturated into y
			if _, err := g.Add(jit.Task{Name: fmt.Sprintf("sum[%d] %d..%d", c, b0, b1), Postprocess: func() error {
				m.decode(y, outs, nb, b0, c, c0, w)
				for r := range outs {
					putInt8s(outs[r])
					outs[r] = nil
				}
				return nil
			}}, tiles...); err != nil {
				return nil, err
			}
		}
	}
	tr, err := g.Run(ctx, jit.Options{Workers: o.Workers, Resources: m.sys.cfg.Chips, Trace: true})
	if err != nil {
		return nil, fmt.Errorf("analog: Run: %w", err)
	}
	st := &PipelineStats{Wall: tr.Wall, Instances: g.Len(), InputBytes: inBytes.Load(), OutputBytes: outBytes.Load(),
		Preprocess: tr.Total(jit.Preprocess), Build: tr.Total(jit.Build), Execute: tr.Total(jit.Execute), Postprocess: tr.Total(jit.Postprocess),
		MACs: int64(batch) * int64(p.Rows) * int64(p.Cols)}
	if o.Trace {
		st.Trace = tr
	}
	return st, nil
}

// decode sums the row splits' 8-bit results of column split c for nb
// vectors starting at b0 and writes the saturated sums to y.
func (m *Matrix) decode(y []float64, outs [][]int8, nb, b0, c, c0, w int) {
	p := m.plan
	calibrated := m.sys.corrGain != nil
	if !calibrated {
		acc := getInt32s(w)
		for b := range nb {
			clear(acc)
			for _, o := range outs {
				for j, v := range o[b*w : (b+1)*w] {
					acc[j] += int32(v)
				}
			}
			yb := y[(b0+b)*p.Cols+c0 : (b0+b)*p.Cols+c0+w]
			for j, v := range acc {
				yb[j] = float64(min(max(v, OutputMin), OutputMax))
			}
		}
		putInt32s(acc)
		return
	}
	sum := getFloats(nb * w)
	for r, o := range outs {
		m.sys.accumulate(sum, o, nb, w, Tile{Col0: 0, Col1: w, Array: p.Tiles[r*p.ColSplits+c].Array})
	}
	for b := range nb {
		finish(y[(b0+b)*p.Cols+c0:(b0+b)*p.Cols+c0+w], sum[b*w:(b+1)*w])
	}
	putFloats(sum)
}

// quantizeRow converts one input vector to hardware inputs: a fast path
// for values already in range, QuantizeInput's rules for the rest.
func quantizeRow(q []uint8, x []float64, clamp bool) error {
	for i, v := range x {
		if v >= 0 && v < InputMax+0.5 {
			q[i] = uint8(v + 0.5) // round half up = math.Round for v ≥ 0
			continue
		}
		u, err := QuantizeInput(v, clamp)
		if err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
		q[i] = u
	}
	return nil
}

// sizedPool recycles Run's buffers in power-of-two size classes.
type sizedPool[T any] struct{ classes [40]sync.Pool }

func class(n int) int { return bits.Len(uint(max(n-1, 0))) }

// get returns a buffer of length n (contents undefined).
func (p *sizedPool[T]) get(n int) []T {
	if b, ok := p.classes[class(n)].Get().([]T); ok {
		return b[:n]
	}
	return make([]T, n, 1<<class(n))
}

func (p *sizedPool[T]) put(b []T) {
	if cap(b) > 0 && cap(b) == 1<<class(cap(b)) {
		p.classes[class(cap(b))].Put(b[:0]) //nolint:staticcheck // slice headers are small
	}
}

var (
	bytePool  sizedPool[byte]
	int8Pool  sizedPool[int8]
	int32Pool sizedPool[int32]
	floatPool sizedPool[float64]
)

func getBytes(n int) []byte   { return bytePool.get(n) }
func putBytes(b []byte)       { bytePool.put(b) }
func getInt8s(n int) []int8   { return int8Pool.get(n) }
func putInt8s(b []int8)       { int8Pool.put(b) }
func getInt32s(n int) []int32 { return int32Pool.get(n) }
func putInt32s(b []int32)     { int32Pool.put(b) }
func putFloats(b []float64)   { floatPool.put(b) }

// getFloats returns n zeros.
func getFloats(n int) []float64 {
	b := floatPool.get(n)
	clear(b)
	return b
}

// buildStream encodes one tile's run: header, then per vector a marker
// and its non-zero inputs as (row, value) events.
func buildStream(s []byte, xq []uint8, batch, tr, tile int, op Op) []byte {
	need := streamHeader + batch*(vectorHeader+eventBytes*tr)
	if cap(s) < need {
		s = make([]byte, 0, need)
	}
	s = s[:need]
	copy(s, []byte{'B', 'S', 'S', '2', byte(tile), byte(tile >> 8), byte(tile >> 16), byte(tile >> 24),
		byte(op.NumSends), byte(op.WaitBetweenEvents), byte(op.WaitBetweenEvents >> 8), byte(tr), byte(tr >> 8), 0, 0, 0})
	k := streamHeader
	for b := range batch {
		at := k
		k += vectorHeader
		for i, v := range xq[b*tr : (b+1)*tr] {
			if v != 0 {
				s[k], s[k+1] = byte(i), v
				k += eventBytes
			}
		}
		n := (k - at - vectorHeader) / eventBytes
		s[at], s[at+1] = byte(n), byte(n>>8)
	}
	return s[:k]
}

// executeStream is the emulated chip's side: it decodes the events into
// dense inputs and runs the tile.
func (m *Matrix) executeStream(s []byte, out []int8, batch, tr, tc, k, array int, call uint64, chunk0 int) error {
	if len(s) < streamHeader {
		return fmt.Errorf("instruction stream of %d bytes: shorter than its header", len(s))
	}
	xf := make([]float32, batchChunk*tr)
	acc := make([]float32, batchChunk*tc)
	pos := streamHeader
	for c := 0; c*batchChunk < batch; c++ {
		nb := min(batch, (c+1)*batchChunk) - c*batchChunk
		clear(xf[:nb*tr])
		for b := range nb {
			if pos+vectorHeader > len(s) {
				return fmt.Errorf("instruction stream: vector %d: truncated at byte %d", c*batchChunk+b, pos)
			}
			n := int(s[pos]) | int(s[pos+1])<<8
			pos += vectorHeader
			if pos+n*eventBytes > len(s) {
				return fmt.Errorf("instruction stream: vector %d: %d events past the end", c*batchChunk+b, n)
			}
			for range n {
				row := int(s[pos])
				if row >= tr {
					return fmt.Errorf("instruction stream: event for row %d of a %d-row tile", row, tr)
				}
				xf[b*tr+row] = float32(s[pos+1] & InputMax)
				pos += eventBytes
			}
		}
		ns := newNoise(m.seed, call, uint64(k), uint64(chunk0+c))
		m.sys.emulate(out[c*batchChunk*tc:(c*batchChunk+nb)*tc], acc[:nb*tc], xf[:nb*tr], m.w[k], nb, tr, tc, array, m.op.NumSends, &ns)
	}
	return nil
}
