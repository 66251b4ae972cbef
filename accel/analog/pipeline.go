package analog

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/neurogo/neurogo/accel/jit"
)

// PipelineOptions tunes Matrix.Run.
type PipelineOptions struct {
	// MockPartner replaces the emulated chip by a fast mock communication
	// partner that answers every run with results of the right size
	// without computing them (content-agnostic, as the response decoding
	// is): the pipeline then measures the software overhead alone (seed
	// 002 §4.1).
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

// Run multiplies the batch×rows inputs x with the configured matrix like
// Apply, but as hxtorch executes it (seed 002 §3.2, Figs 2, 4, 5): a
// dependency graph of execution instances run just in time — per row
// split an instance quantising its inputs; per tile an instance that
// builds the tile's instruction stream, executes it on the tile's chip
// and accumulates the decoded 8-bit results into its column split; per
// column split an instance saturating the digital sums into y. Host
// stages of independent instances overlap with execution on the chips.
// Run returns what the stages took and how much data moved.
func (m *Matrix) Run(ctx context.Context, x []float64, batch int, y []float64, o PipelineOptions) (*PipelineStats, error) {
	p := m.plan
	if batch <= 0 || len(x) != batch*p.Rows || len(y) != batch*p.Cols {
		return nil, fmt.Errorf("analog: Run: %d inputs and %d outputs for batch %d of a %d×%d matrix", len(x), len(y), batch, p.Rows, p.Cols)
	}
	call := m.calls.Add(1)
	g := jit.NewGraph()
	// per row split: quantised inputs, batch × rows of the split
	xq := make([][]uint8, p.RowSplits)
	qid := make([]jit.ID, p.RowSplits)
	for r := range p.RowSplits {
		r0 := r * p.RowsPerArray
		r1 := min(p.Rows, r0+p.RowsPerArray)
		id, err := g.Add(jit.Task{Name: fmt.Sprintf("quantise[%d]", r), Preprocess: func() error {
			tr := r1 - r0
			q := make([]uint8, batch*tr)
			for b := range batch {
				row := x[b*p.Rows+r0 : b*p.Rows+r1]
				for i, v := range row {
					u, err := QuantizeInput(v, m.op.Clamp)
					if err != nil {
						return fmt.Errorf("x[%d][%d]: %w", b, r0+i, err)
					}
					q[b*tr+i] = u
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
	sums := make([][]float64, p.ColSplits) // batch × split width
	locks := make([]sync.Mutex, p.ColSplits)
	for c := range p.ColSplits {
		w := min(p.Cols, (c+1)*p.ColsPerArray) - c*p.ColsPerArray
		sums[c] = make([]float64, batch*w)
	}
	tilesOf := make([][]jit.ID, p.ColSplits)
	var inBytes, outBytes int64
	var bytesMu sync.Mutex
	for k, t := range p.Tiles {
		var stream []byte
		var out []int8
		tr, tc := t.Row1-t.Row0, t.Col1-t.Col0
		id, err := g.Add(jit.Task{
			Name:     fmt.Sprintf("mm[%d,%d]", t.RowSplit, t.ColSplit),
			Resource: t.Chip,
			Build: func() error {
				stream = buildStream(stream[:0], xq[t.RowSplit], batch, tr, k, m.op)
				bytesMu.Lock()
				inBytes += int64(len(stream))
				outBytes += int64(batch * tc)
				bytesMu.Unlock()
				return nil
			},
			Execute: func() error {
				out = make([]int8, batch*tc)
				if o.MockPartner {
					// the partner answers with a result block of the right
					// size; reading the stream's length is all it does
					if len(stream) < streamHeader {
						return fmt.Errorf("empty instruction stream")
					}
					return nil
				}
				return m.executeStream(stream, out, batch, tr, tc, k, t.Array, call)
			},
			Postprocess: func() error {
				locks[t.ColSplit].Lock()
				m.sys.accumulate(sums[t.ColSplit], out, batch, tc, Tile{Col0: 0, Col1: tc, Array: t.Array})
				locks[t.ColSplit].Unlock()
				out, stream = nil, nil
				return nil
			},
		}, qid[t.RowSplit])
		if err != nil {
			return nil, err
		}
		tilesOf[t.ColSplit] = append(tilesOf[t.ColSplit], id)
	}
	for c := range p.ColSplits {
		c0 := c * p.ColsPerArray
		w := min(p.Cols, c0+p.ColsPerArray) - c0
		if _, err := g.Add(jit.Task{Name: fmt.Sprintf("sum[%d]", c), Postprocess: func() error {
			for b := range batch {
				finish(y[b*p.Cols+c0:b*p.Cols+c0+w], sums[c][b*w:(b+1)*w])
			}
			return nil
		}}, tilesOf[c]...); err != nil {
			return nil, err
		}
	}
	tr, err := g.Run(ctx, jit.Options{Workers: o.Workers, Resources: m.sys.cfg.Chips, Trace: true})
	if err != nil {
		return nil, fmt.Errorf("analog: Run: %w", err)
	}
	st := &PipelineStats{Wall: tr.Wall, Instances: g.Len(), InputBytes: inBytes, OutputBytes: outBytes,
		Preprocess: tr.Total(jit.Preprocess), Build: tr.Total(jit.Build), Execute: tr.Total(jit.Execute), Postprocess: tr.Total(jit.Postprocess),
		MACs: int64(batch) * int64(p.Rows) * int64(p.Cols)}
	if o.Trace {
		st.Trace = tr
	}
	return st, nil
}

// buildStream encodes one tile's run: header, then per vector a marker
// and its non-zero inputs as (row, value) events.
func buildStream(s []byte, xq []uint8, batch, tr, tile int, op Op) []byte {
	need := streamHeader + batch*(vectorHeader+eventBytes*tr)
	if cap(s) < need {
		s = make([]byte, 0, need)
	}
	s = append(s, 'B', 'S', 'S', '2', byte(tile), byte(tile>>8), byte(tile>>16), byte(tile>>24),
		byte(op.NumSends), byte(op.WaitBetweenEvents), byte(op.WaitBetweenEvents>>8), byte(tr), byte(tr>>8), 0, 0, 0)
	for b := range batch {
		at := len(s)
		s = append(s, 0, 0)
		n := 0
		for i, v := range xq[b*tr : (b+1)*tr] {
			if v != 0 {
				s = append(s, byte(i), v)
				n++
			}
		}
		s[at], s[at+1] = byte(n), byte(n>>8)
	}
	return s
}

// executeStream is the emulated chip's side: it decodes the events into
// dense inputs and runs the tile.
func (m *Matrix) executeStream(s []byte, out []int8, batch, tr, tc, k, array int, call uint64) error {
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
		ns := newNoise(m.seed, call, uint64(k), uint64(c))
		m.sys.emulate(out[c*batchChunk*tc:(c*batchChunk+nb)*tc], acc[:nb*tc], xf[:nb*tr], m.w[k], nb, tr, tc, array, m.op.NumSends, &ns)
	}
	return nil
}
