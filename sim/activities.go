package sim

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/neurogo/neurogo/toolkit"
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

// Rows implements solvers.Blocks: rows [i0, i1) of A into dst.
func (a *activities) Rows(dst []float64, i0, i1 int) error {
	n, d := a.n, a.d
	if a.x == nil {
		a.x = make([]float64, a.chunk*n)
	}
	for r0 := i0; r0 < i1; r0 += a.chunk {
		r1 := min(i1, r0+a.chunk)
		k := r1 - r0
		x := a.x[:k*n]
		// x = eval_points[r0:r1] · (encoders/radius)ᵀ
		blas64.Gemm(blas.NoTrans, blas.Trans, 1,
			blas64.General{Rows: k, Cols: d, Stride: d, Data: a.ep[r0*d : r1*d]}, a.enc,
			0, blas64.General{Rows: k, Cols: n, Stride: n, Data: x})
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
