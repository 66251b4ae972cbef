package toolkit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/validate"
	"gonum.org/v1/gonum/dsp/fourier"
)

// Process is a signal generator (nengo.Process): a Node's output or an
// Ensemble's noise. Step makes the per-step function for a given size, time
// step and random source; the returned function writes the output at time
// t (seconds) for input x into out and must not allocate.
type Process interface {
	Name() string
	Validate() error
	Step(sizeIn, sizeOut int, dt float64, rng *rand.Rand) (NodeFunc, error)
}

var (
	_ Process = (*WhiteNoise)(nil)
	_ Process = (*WhiteSignal)(nil)
	_ Process = (*PresentInput)(nil)
	_ Process = (*Piecewise)(nil)
)

// WhiteNoise draws every step an independent sample of Dist per output
// dimension, divided by sqrt(dt) if Scale (so that its integral has
// variance independent of dt) (nengo.processes.WhiteNoise; defaults:
// Gaussian(0, 1), Scale true).
type WhiteNoise struct {
	Dist  dists.Distribution
	Scale bool
}

// NewWhiteNoise returns Nengo's default white noise.
func NewWhiteNoise() *WhiteNoise {
	return &WhiteNoise{Dist: dists.Gaussian{Mean: 0, Std: 1}, Scale: true}
}

func (*WhiteNoise) Name() string { return "WhiteNoise" }
func (w *WhiteNoise) Validate() error {
	if w.Dist == nil {
		return &validate.Error{Pkg: "toolkit", Object: "WhiteNoise", Field: "Dist", Value: nil, Rule: "must be set"}
	}
	return w.Dist.Validate()
}

// Step returns the sampler. It draws through Dist.Sample into a buffer of
// 256 steps at a time, so it allocates once per 256 steps.
func (w *WhiteNoise) Step(sizeIn, sizeOut int, dt float64, rng *rand.Rand) (NodeFunc, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	alpha := 1.0
	if w.Scale {
		alpha = 1 / math.Sqrt(dt)
	}
	const block = 256
	var buf []float64
	pos := 0
	var fail error
	return func(t float64, x, out []float64) {
		if pos+sizeOut > len(buf) {
			buf, fail = w.Dist.Sample(block, sizeOut, rng)
			pos = 0
			if fail != nil {
				return
			}
		}
		for i := range out {
			out[i] = alpha * buf[pos+i]
		}
		pos += sizeOut
	}, nil
}

// WhiteSignal is band-limited white noise of the given RMS, periodic with
// Period seconds and containing frequencies up to High Hz
// (nengo.processes.WhiteSignal; default RMS 0.5): random Fourier
// coefficients of variance RMS²/2 below High, zero above, scaled to keep
// the RMS, transformed by an inverse real FFT.
type WhiteSignal struct {
	Period, High, RMS float64
}

// NewWhiteSignal returns a WhiteSignal with Nengo's default RMS 0.5.
func NewWhiteSignal(period, high float64) *WhiteSignal {
	return &WhiteSignal{Period: period, High: high, RMS: 0.5}
}

func (*WhiteSignal) Name() string { return "WhiteSignal" }
func (w *WhiteSignal) Validate() error {
	for _, f := range []struct {
		n string
		v float64
	}{{"Period", w.Period}, {"High", w.High}, {"RMS", w.RMS}} {
		if !(f.v > 0) || math.IsInf(f.v, 1) {
			return &validate.Error{Pkg: "toolkit", Object: "WhiteSignal", Field: f.n, Value: f.v, Rule: "must be positive and finite"}
		}
	}
	return nil
}

// Step generates one period per output dimension up front.
func (w *WhiteSignal) Step(sizeIn, sizeOut int, dt float64, rng *rand.Rand) (NodeFunc, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	if w.High < 1/w.Period {
		return nil, &validate.Error{Pkg: "toolkit", Object: "WhiteSignal", Field: "High", Value: w.High,
			Rule: fmt.Sprintf("must be at least 1/Period = %v Hz to contain any frequency", 1/w.Period)}
	}
	nc := int(math.Ceil(w.Period / dt / 2))
	n := 2 * nc
	fft := fourier.NewFFT(n)
	sigma := w.RMS * math.Sqrt(0.5)
	signal := make([]float64, n*sizeOut) // [n][sizeOut]
	coef := make([]complex128, nc+1)
	seq := make([]float64, n)
	zeroed := 0
	for k := 0; k <= nc; k++ {
		if float64(k)/(float64(n)*dt) > w.High {
			zeroed++
		}
	}
	corr := math.Sqrt(1 - float64(zeroed)/float64(nc))
	for d := range sizeOut {
		for k := range coef {
			coef[k] = complex(rng.NormFloat64()*sigma, rng.NormFloat64()*sigma)
		}
		coef[0] = 0
		coef[nc] = complex(real(coef[nc]), 0)
		for k := range coef {
			if float64(k)/(float64(n)*dt) > w.High {
				coef[k] = 0
			}
			if corr > 0 {
				coef[k] /= complex(corr, 0)
			}
			coef[k] *= complex(math.Sqrt(float64(n)), 0)
		}
		fft.Sequence(seq, coef)
		for i := range n {
			signal[i*sizeOut+d] = seq[i] / float64(n) // numpy's irfft normalisation
		}
	}
	return func(t float64, x, out []float64) {
		i := int(math.Round(t/dt)) % n
		copy(out, signal[i*sizeOut:(i+1)*sizeOut])
	}, nil
}

// PresentInput presents each row of Inputs for PresentationTime seconds,
// cycling (nengo.processes.PresentInput).
type PresentInput struct {
	Inputs           [][]float64
	PresentationTime float64
}

func (*PresentInput) Name() string { return "PresentInput" }
func (p *PresentInput) Validate() error {
	if len(p.Inputs) == 0 {
		return &validate.Error{Pkg: "toolkit", Object: "PresentInput", Field: "Inputs", Value: "[]", Rule: "must have at least one row"}
	}
	for i, r := range p.Inputs {
		if len(r) != len(p.Inputs[0]) {
			return &validate.Error{Pkg: "toolkit", Object: "PresentInput", Field: fmt.Sprintf("Inputs[%d]", i), Value: len(r), Rule: fmt.Sprintf("rows must have equal length %d", len(p.Inputs[0]))}
		}
		if err := checkFinite("PresentInput", fmt.Sprintf("Inputs[%d]", i), r); err != nil {
			return err
		}
	}
	if !(p.PresentationTime > 0) || math.IsInf(p.PresentationTime, 1) {
		return &validate.Error{Pkg: "toolkit", Object: "PresentInput", Field: "PresentationTime", Value: p.PresentationTime, Rule: "must be positive and finite"}
	}
	return nil
}

// Step returns the presenter: at time t it outputs row
// int((t - dt)/PresentationTime + 1e-7) mod len(Inputs), as Nengo does.
func (p *PresentInput) Step(sizeIn, sizeOut int, dt float64, rng *rand.Rand) (NodeFunc, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(p.Inputs[0]) != sizeOut {
		return nil, &validate.Error{Pkg: "toolkit", Object: "PresentInput", Field: "Inputs", Value: fmt.Sprintf("%d columns", len(p.Inputs[0])), Rule: fmt.Sprintf("must match the node's SizeOut %d", sizeOut)}
	}
	return func(t float64, x, out []float64) {
		i := int((t-dt)/p.PresentationTime+1e-7) % len(p.Inputs)
		copy(out, p.Inputs[i])
	}, nil
}

// Piecewise is a piecewise-constant function of time: from Times[i] on it
// outputs Values[i] (zero before the first time) (nengo.processes.Piecewise
// with interpolation "zero").
type Piecewise struct {
	Times  []float64
	Values [][]float64
}

func (*Piecewise) Name() string { return "Piecewise" }
func (p *Piecewise) Validate() error {
	if len(p.Times) == 0 || len(p.Times) != len(p.Values) {
		return &validate.Error{Pkg: "toolkit", Object: "Piecewise", Field: "len(Values)", Value: len(p.Values), Rule: fmt.Sprintf("must equal len(Times) = %d > 0", len(p.Times))}
	}
	if !sort.Float64sAreSorted(p.Times) {
		return &validate.Error{Pkg: "toolkit", Object: "Piecewise", Field: "Times", Value: p.Times, Rule: "must be sorted"}
	}
	for i, v := range p.Values {
		if len(v) != len(p.Values[0]) {
			return &validate.Error{Pkg: "toolkit", Object: "Piecewise", Field: fmt.Sprintf("Values[%d]", i), Value: len(v), Rule: "rows must have equal length"}
		}
		if err := checkFinite("Piecewise", fmt.Sprintf("Values[%d]", i), v); err != nil {
			return err
		}
	}
	return nil
}

// Step returns the lookup: the last Times[i] < t + dt/2 selects Values[i]
// (Nengo 4.1: numpy.searchsorted(times, t + dt/2) - 1, so a time exactly
// at t + dt/2 takes effect one step later).
func (p *Piecewise) Step(sizeIn, sizeOut int, dt float64, rng *rand.Rand) (NodeFunc, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(p.Values[0]) != sizeOut {
		return nil, &validate.Error{Pkg: "toolkit", Object: "Piecewise", Field: "Values", Value: fmt.Sprintf("%d columns", len(p.Values[0])), Rule: fmt.Sprintf("must match the node's SizeOut %d", sizeOut)}
	}
	return func(t float64, x, out []float64) {
		i := sort.SearchFloat64s(p.Times, t+0.5*dt) - 1 // last index with Times[i] < t + dt/2
		if i < 0 {
			clear(out)
			return
		}
		copy(out, p.Values[i])
	}, nil
}
