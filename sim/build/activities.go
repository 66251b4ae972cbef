package build

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/solvers"
)

// activities is the activity matrix of an ensemble at its eval points
// (Nengo's get_activities: A = rates(eval_points·(encodersᵀ/radius),
// gain, bias), m×n) served in row blocks (solvers.Blocks), so that the
// builder never holds the m×n currents and a solvers.BlockSolver never
// holds A. It records whether any activity was non-zero and the first
// error from the neuron type, for decode's messages.
type activities struct {
	e       *toolkit.Ensemble
	p       *EnsembleParams
	ep      []float64      // m×d eval points
	enc     blas64.General // n×d encoders / radius
	m, n, d int
	x       []float64 // currents of one chunk
	chunk   int       // rows per chunk of x
	done    int       // rows produced
	nonzero bool
	rerr    error
	sub     *subActivities // RowsCols's
}

// activityChunkBytes bounds the currents buffer (16 MiB).
const activityChunkBytes = 16 << 20

func newActivities(e *toolkit.Ensemble, p *EnsembleParams, ep []float64, m int) *activities {
	d, n := e.Dims, e.N
	enc := make([]float64, n*d)
	for j := range enc {
		enc[j] = p.Encoders[j] / e.Radius
	}
	chunk := min(m, max(16, activityChunkBytes/8/max(n, 1)))
	return &activities{e: e, p: p, ep: ep, m: m, n: n, d: d, chunk: chunk,
		enc: blas64.General{Rows: n, Cols: d, Stride: d, Data: enc}}
}

// Dims implements solvers.Blocks.
func (a *activities) Dims() (int, int) { return a.m, a.n }

// currents sets x (rows r0..r1, n wide) to eval_points[r0:r1] ·
// (encoders/radius)ᵀ.
func (a *activities) currents(x []float64, r0, r1 int) {
	blas64.Gemm(blas.NoTrans, blas.Trans, 1,
		blas64.General{Rows: r1 - r0, Cols: a.d, Stride: a.d, Data: a.ep[r0*a.d : r1*a.d]}, a.enc,
		0, blas64.General{Rows: r1 - r0, Cols: a.n, Stride: a.n, Data: x})
}

// Rows implements solvers.Blocks: rows [i0, i1) of A into dst.
func (a *activities) Rows(dst []float64, i0, i1 int) error {
	n := a.n
	if a.x == nil {
		a.x = make([]float64, a.chunk*n)
	}
	for r0 := i0; r0 < i1; r0 += a.chunk {
		if interrupt.Requested() {
			return interrupt.ErrInterrupted
		}
		r1 := min(i1, r0+a.chunk)
		k := r1 - r0
		x := a.x[:k*n]
		a.currents(x, r0, r1)
		out := dst[(r0-i0)*n : (r1-i0)*n]
		if err := a.rates(out, x, k); err != nil {
			if a.rerr == nil {
				a.rerr = err
			}
			return err
		}
		a.done += k
	}
	return nil
}

// RowsCols implements solvers.ColumnBlocks: rows [i0, i1) of the
// columns cols of A into dst (stride len(cols)), from the encoders,
// gains and biases of those neurons only.
func (a *activities) RowsCols(dst []float64, i0, i1 int, cols []int) error {
	d, kc := a.d, len(cols)
	if a.sub == nil || !slices.Equal(a.sub.cols, cols) {
		s := &activities{e: a.e, p: &EnsembleParams{Gain: make([]float64, kc), Bias: make([]float64, kc)},
			ep: a.ep, m: a.m, n: kc, d: d, chunk: min(a.m, max(16, activityChunkBytes/8/max(kc, 1)))}
		enc := make([]float64, kc*d)
		for c, j := range cols {
			if j < 0 || j >= a.n || (c > 0 && j <= cols[c-1]) {
				return fmt.Errorf("sim: activities: column %d of %d (columns must ascend)", j, a.n)
			}
			copy(enc[c*d:(c+1)*d], a.enc.Data[j*d:(j+1)*d])
			s.p.Gain[c], s.p.Bias[c] = a.p.Gain[j], a.p.Bias[j]
		}
		s.enc = blas64.General{Rows: kc, Cols: d, Stride: d, Data: enc}
		a.sub = &subActivities{cols: slices.Clone(cols), a: s}
	}
	return a.sub.a.Rows(dst, i0, i1)
}

// subActivities is the activities of some of the neurons (RowsCols).
type subActivities struct {
	cols []int
	a    *activities
}

// rates writes the activities of k rows of currents x to out, the rows
// split over GOMAXPROCS goroutines (neuron types are elementwise, so the
// result does not depend on the split), and notes any non-zero one.
func (a *activities) rates(out, x []float64, k int) error {
	n := a.n
	w := min(runtime.GOMAXPROCS(0), k, max(1, k*n/(1<<15)))
	errs := make([]error, w)
	nz := make([]bool, w)
	var wg sync.WaitGroup
	for t := range w {
		r0, r1 := t*k/w, (t+1)*k/w
		wg.Go(func() {
			o := out[r0*n : r1*n]
			if errs[t] = a.e.NeuronType.Rates(o, x[r0*n:r1*n], a.p.Gain, a.p.Bias); errs[t] != nil || a.nonzero {
				return
			}
			for _, v := range o {
				if v != 0 {
					nz[t] = true
					return
				}
			}
		})
	}
	wg.Wait()
	for t := range w {
		if errs[t] != nil {
			return errs[t]
		}
		a.nonzero = a.nonzero || nz[t]
	}
	return nil
}

// reluAmplitude returns the amplitude of a rectified-linear neuron type
// (ok false for other types).
func reluAmplitude(nt any) (amp float64, ok bool) {
	switch t := nt.(type) {
	case neurons.RectifiedLinear:
		return t.Amplitude, true
	case *neurons.RectifiedLinear:
		return t.Amplitude, true
	case neurons.SpikingRectifiedLinear:
		return t.Amplitude, true
	case *neurons.SpikingRectifiedLinear:
		return t.Amplitude, true
	}
	return 0, false
}

// CountPositive implements solvers.Counter for rectified-linear neurons:
// the activities amp·max(0, J) are positive where the current J =
// g·x + b is, so one pass over the currents (rows across the cores)
// counts them and finds the largest, amp·max J, without the rates.
func (a *activities) CountPositive(pos []int) (float64, bool, error) {
	amp, ok := reluAmplitude(a.e.NeuronType)
	if !ok || !(amp > 0) {
		return 0, false, nil
	}
	n := a.n
	if a.x == nil {
		a.x = make([]float64, a.chunk*n)
	}
	chunk, xb := a.chunk, a.x
	w := runtime.GOMAXPROCS(0)
	parts := make([][]float64, w) // counts (exact in float64)
	jmax := make([]float64, w)
	for t := range parts {
		parts[t] = make([]float64, n)
		jmax[t] = math.Inf(-1)
	}
	g, b := a.p.Gain, a.p.Bias
	for r0 := 0; r0 < a.m; r0 += chunk {
		if interrupt.Requested() {
			return 0, false, interrupt.ErrInterrupted
		}
		r1 := min(a.m, r0+chunk)
		k := r1 - r0
		x := xb[:k*n]
		a.currents(x, r0, r1)
		var wg sync.WaitGroup
		for t := range w {
			wg.Go(func() {
				mx := jmax[t]
				for r := t * k / w; r < (t+1)*k/w; r++ {
					mx = vec.CountPositive(parts[t], x[r*n:(r+1)*n], g, b, mx)
				}
				jmax[t] = mx
			})
		}
		wg.Wait()
	}
	clear(pos)
	top := 0.0
	for t := range w {
		for j, c := range parts[t] {
			pos[j] += int(c)
		}
		top = math.Max(top, jmax[t])
	}
	for _, c := range pos {
		if c > 0 {
			a.nonzero = true
			break
		}
	}
	a.done += a.m
	return amp * top, true, nil
}

// Features implements solvers.Affine for rectified-linear neurons: where
// neuron j is active at every eval point its activities are
// amp·(g_j·x·e_j/radius + b_j), the features [x 1] times the
// coefficients [amp·g_j·e_j/radius; amp·b_j]. Other types: nil.
func (a *activities) Features() (Z, C *mat.Dense) {
	amp, ok := reluAmplitude(a.e.NeuronType)
	if !ok {
		return nil, nil
	}
	m, n, d := a.m, a.n, a.d
	p := d + 1
	z := make([]float64, m*p)
	for i := range m {
		copy(z[i*p:i*p+d], a.ep[i*d:(i+1)*d])
		z[i*p+d] = 1
	}
	c := make([]float64, p*n)
	for j := range n {
		g := amp * a.p.Gain[j]
		for k := range d {
			c[k*n+j] = g * a.enc.Data[j*d+k]
		}
		c[d*n+j] = amp * a.p.Bias[j]
	}
	return mat.NewDense(m, p, z), mat.NewDense(p, n, c)
}

var (
	_ solvers.Affine       = (*activities)(nil)
	_ solvers.ColumnBlocks = (*activities)(nil)
	_ solvers.Counter      = (*activities)(nil)
)
