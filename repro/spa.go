package repro

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
	"github.com/neurogo/neurogo/viz"
	"gonum.org/v1/gonum/stat/distuv"
)

// SPAMemoryNet is the memory model of Fig. 9 of "NengoDL: Combining deep
// learning and neuromorphic modelling methods" (Rasmussen 2019; NengoDL's
// spa-memory example): role and filler vectors are bound by a circular
// convolution network, the bindings accumulate in a recurrently connected
// memory ensemble (τ 0.01 s), and a circular correlation with the cue
// (circular convolution with the cue's involution) retrieves the filler.
// Rectified-linear neurons with gain 1 and bias 0; no synapse except the
// memory's.
type SPAMemoryNet struct {
	Net                    *toolkit.Network
	Role, Filler, Cue      *toolkit.Node
	Conv, Memory, Output   *toolkit.Probe
	Dims, NeuronsPerDim    int
	TInt, TMem, Tau, DtSim float64
}

// NewSPAMemoryNet builds the model for dims-dimensional vectors with
// neuronsPerDim neurons per dimension in every ensemble array and in the
// memory.
func NewSPAMemoryNet(dims, neuronsPerDim int, seed int64) (*SPAMemoryNet, error) {
	const tInt, tau = 0.01, 0.01
	net := toolkit.New("spa-memory", seed)
	net.Defaults.NeuronType = neurons.NewRectifiedLinear()
	role := net.Const("role", make([]float64, dims)...)
	fill := net.Const("filler", make([]float64, dims)...)
	cue := net.Const("cue", make([]float64, dims)...)
	cconv, err := networks.CircularConvolution(net, "cconv", neuronsPerDim, dims, false, false, 1)
	if err != nil {
		return nil, err
	}
	net.Connect(role, cconv.InputA)
	net.Connect(fill, cconv.InputB)
	mem := net.Ensemble("memory", neuronsPerDim*dims, dims)
	in := net.Connect(cconv.Output, mem)
	in.Transform = toolkit.Scalar(tau / tInt)
	rec := net.Connect(mem, mem)
	ccorr, err := networks.CircularConvolution(net, "ccorr", neuronsPerDim, dims, false, true, 1)
	if err != nil {
		return nil, err
	}
	net.Connect(mem, ccorr.InputA)
	net.Connect(cue, ccorr.InputB)
	m := &SPAMemoryNet{Net: net, Role: role, Filler: fill, Cue: cue, Dims: dims, NeuronsPerDim: neuronsPerDim, TInt: tInt, TMem: 0.03, Tau: tau, DtSim: 0.001}
	m.Conv = net.Probe("conv", cconv.Output, "")
	m.Memory = net.Probe("memory", mem, "")
	m.Output = net.Probe("output", ccorr.Output, "")
	// NengoDL's example config: gain 1, bias 0, rectified linear, no synapses
	for _, e := range net.AllEnsembles() {
		e.NeuronType = neurons.NewRectifiedLinear()
		e.Gain, e.Bias = make([]float64, e.N), make([]float64, e.N)
		for i := range e.Gain {
			e.Gain[i] = 1
		}
	}
	for _, c := range net.AllConnections() {
		c.Synapse = nil
	}
	for _, p := range net.AllProbes() {
		p.Synapse = nil
	}
	in.Synapse = synapses.Lowpass{Tau: tau}
	rec.Synapse = synapses.Lowpass{Tau: tau}
	return m, nil
}

// SPAData is a set of memory trials: inputs per node, targets per probe
// (the output is NaN before the cue, so a NaN-masked loss ignores it) and
// the vocabulary to score retrieval against.
type SPAData struct {
	Role, Filler, Cue    *train.Array
	Binding, Mem, Target *train.Array
	Vocab                [][]float64 // every role and filler vector
	Answer               []int       // per trial: index in Vocab of the cued filler
}

// NewSPAData draws n trials of pairs role/filler pairs: each pair is shown
// for tInt/dt steps, then the cue (one of the roles) for tMem/dt steps.
// Vectors are random unit vectors (Nengo's Vocabulary.create_pointer).
func NewSPAData(n, pairs, dims int, tInt, tMem, dt float64, seed uint64) (*SPAData, error) {
	if n < 1 || pairs < 1 || dims < 2 {
		return nil, fmt.Errorf("repro: NewSPAData(%d trials, %d pairs, %d dims): all must be positive (dims ≥ 2)", n, pairs, dims)
	}
	intSteps, memSteps := int(math.Round(tInt/dt)), int(math.Round(tMem/dt))
	steps := intSteps*pairs + memSteps
	rng := rand.New(rand.NewPCG(seed, 0x5ba))
	unit := func() []float64 {
		v := make([]float64, dims)
		s := 0.0
		for i := range v {
			v[i] = rng.NormFloat64()
			s += v[i] * v[i]
		}
		s = math.Sqrt(s)
		for i := range v {
			v[i] /= s
		}
		return v
	}
	mk := func() *train.Array { a, _ := train.NewArray(n, steps, dims); return a }
	d := &SPAData{Role: mk(), Filler: mk(), Cue: mk(), Binding: mk(), Mem: mk(), Target: mk()}
	for k := range n {
		roles, fills := make([][]float64, pairs), make([][]float64, pairs)
		for i := range pairs {
			roles[i], fills[i] = unit(), unit()
			d.Vocab = append(d.Vocab, roles[i], fills[i])
			b := CircConv(roles[i], fills[i])
			for s := i * intSteps; s < (i+1)*intSteps; s++ {
				copy(d.Role.At(k, s), roles[i])
				copy(d.Filler.At(k, s), fills[i])
				copy(d.Binding.At(k, s), b)
			}
		}
		c := rng.IntN(pairs)
		d.Answer = append(d.Answer, len(d.Vocab)-2*pairs+2*c+1)
		acc := make([]float64, dims)
		for s := range steps {
			for j, v := range d.Binding.At(k, s) {
				acc[j] += v * dt / tInt
			}
			copy(d.Mem.At(k, s), acc)
			t := d.Target.At(k, s)
			if s >= steps-memSteps {
				copy(d.Cue.At(k, s), roles[c])
				copy(t, fills[c])
			} else {
				for j := range t {
					t[j] = math.NaN()
				}
			}
		}
	}
	return d, nil
}

// CircConv returns the circular convolution of a and b, the binding of
// the Semantic Pointer Architecture: (a ⊛ b)[k] = Σ_j a[j]·b[(k−j) mod D],
// D = len(a); b must be at least as long as a. Binding with the involution
// of a (a[0], a[D−1], …, a[1]) approximately undoes a binding with a.
func CircConv(a, b []float64) []float64 {
	n := len(a)
	out := make([]float64, n)
	for k := range n {
		s := 0.0
		for j := range n {
			s += a[j] * b[((k-j)%n+n)%n]
		}
		out[k] = s
	}
	return out
}

// Retrieval is the fraction of trials whose output at the last step is
// more similar (dot product) to the cued filler than to any other vector
// of the vocabulary.
func Retrieval(out *train.Array, d *SPAData) float64 {
	ok := 0
	for k := range out.N {
		o := out.At(k, out.Steps-1)
		best, arg := math.Inf(-1), -1
		for i, v := range d.Vocab {
			s := 0.0
			for j, x := range v {
				s += x * o[j]
			}
			if s > best {
				best, arg = s, i
			}
		}
		if arg == d.Answer[k] {
			ok++
		}
	}
	return float64(ok) / float64(out.N)
}

// SPAOptions configure SPAMemory; zero values are the paper's settings
// (D 64, neurons per dimension 5, 10, 15, 20, 8000 training and 1024 test
// trials of 2 pairs, minibatch 64, RMSProp 1e-4, 10 epochs, 3 seeds).
type SPAOptions struct {
	Dims          int
	NeuronsPerDim []int
	Seeds         int
	Train, Test   int
	Epochs, Batch int
	LR            float64
	Log           io.Writer
	// CellDir, if set, keeps every finished (neurons per dimension, seed)
	// point as CellDir/npd<N>_seed<S>.json and reuses the points found
	// there that were made with the same settings, so a run that is
	// stopped resumes where it was (the full figure is hours of CPU).
	CellDir string
}

// SPAPoint is one (neurons per dimension, seed) result.
type SPAPoint struct {
	NeuronsPerDim   int
	Seed            int
	Before, After   float64 // retrieval accuracy
	LossBefore      float64
	LossAfter       float64
	SecondsPerEpoch float64
}

// SPAResult holds every point and, per neurons-per-dimension value, the
// mean and 95 % interval (Student t over seeds) before and after training.
type SPAResult struct {
	Options                        SPAOptions
	Points                         []SPAPoint
	NeuronsPerDim                  []int
	BeforeMean, BeforeLo, BeforeHi []float64
	AfterMean, AfterLo, AfterHi    []float64
}

func (o *SPAOptions) defaults() {
	if o.Dims == 0 {
		o.Dims = 64
	}
	if len(o.NeuronsPerDim) == 0 {
		o.NeuronsPerDim = []int{5, 10, 15, 20}
	}
	if o.Seeds == 0 {
		o.Seeds = 3
	}
	if o.Train == 0 {
		o.Train = 8000
	}
	if o.Test == 0 {
		o.Test = 1024
	}
	if o.Epochs == 0 {
		o.Epochs = 10
	}
	if o.Batch == 0 {
		o.Batch = 64
	}
	if o.LR == 0 {
		o.LR = 1e-4
	}
}

// WithDefaults returns o with its zero values replaced by the paper's
// settings (those SPAMemory and SPAMemoryPoint use).
func (o SPAOptions) WithDefaults() SPAOptions {
	o.defaults()
	return o
}

// SPAMemoryPoint runs one (neurons per dimension, seed) point of Fig. 9
// with o's settings (o.NeuronsPerDim and o.Seeds are not used), reusing
// and keeping it in o.CellDir as SPAMemory does: one task of a sweep that
// spreads the points over machines (Summarize and Figure draw the figure
// from the points it returns).
func SPAMemoryPoint(o SPAOptions, neuronsPerDim, seed int) (*SPAPoint, error) {
	o.defaults()
	if neuronsPerDim < 1 || seed < 0 {
		return nil, fmt.Errorf("spa-memory: point (%d neurons/dim, seed %d): neurons per dimension must be ≥ 1 and the seed ≥ 0", neuronsPerDim, seed)
	}
	logf := func(format string, a ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", a...)
		}
	}
	p, err := o.loadCell(neuronsPerDim, seed)
	if err != nil {
		return nil, err
	}
	if p != nil {
		logf("spa-memory: %d neurons/dim, seed %d: retrieval %.3f → %.3f (kept from %s)", neuronsPerDim, seed, p.Before, p.After, o.cellPath(neuronsPerDim, seed))
		return p, nil
	}
	if p, err = spaPoint(o, neuronsPerDim, seed, logf); err != nil {
		return nil, err
	}
	if err := o.saveCell(p); err != nil {
		return nil, err
	}
	return p, nil
}

// SPAMemory reproduces Fig. 9: retrieval accuracy before and after
// training for each number of neurons per dimension, over seeds.
func SPAMemory(o SPAOptions) (*SPAResult, error) {
	o.defaults()
	logf := func(format string, a ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", a...)
		}
	}
	res := &SPAResult{Options: o, NeuronsPerDim: o.NeuronsPerDim}
	for _, npd := range o.NeuronsPerDim {
		var before, after []float64
		for s := range o.Seeds {
			if interrupt.Requested() { // Fit and Predict check inside a point too
				return res, fmt.Errorf("spa-memory: interrupted before %d neurons/dim, seed %d (%d points done): %w", npd, s, len(res.Points), interrupt.ErrInterrupted)
			}
			p, err := o.loadCell(npd, s)
			if err != nil {
				return res, err
			}
			if p != nil {
				logf("spa-memory: %d neurons/dim, seed %d: retrieval %.3f → %.3f (kept from %s)", npd, s, p.Before, p.After, o.cellPath(npd, s))
			} else {
				if p, err = spaPoint(o, npd, s, logf); err != nil {
					return res, err
				}
				if err := o.saveCell(p); err != nil {
					return res, err
				}
			}
			res.Points = append(res.Points, *p)
			before, after = append(before, p.Before), append(after, p.After)
		}
		m, lo, hi := meanCI(before)
		res.BeforeMean, res.BeforeLo, res.BeforeHi = append(res.BeforeMean, m), append(res.BeforeLo, lo), append(res.BeforeHi, hi)
		m, lo, hi = meanCI(after)
		res.AfterMean, res.AfterLo, res.AfterHi = append(res.AfterMean, m), append(res.AfterLo, lo), append(res.AfterHi, hi)
	}
	return res, nil
}

// spaCell is a finished point on disk with the settings that made it.
type spaCell struct {
	Dims, Train, Test, Epochs, Batch int
	LR                               float64
	Point                            SPAPoint
}

func (o SPAOptions) cellPath(npd, seed int) string {
	return filepath.Join(o.CellDir, fmt.Sprintf("npd%d_seed%d.json", npd, seed))
}

func (o SPAOptions) cellKey() spaCell {
	return spaCell{Dims: o.Dims, Train: o.Train, Test: o.Test, Epochs: o.Epochs, Batch: o.Batch, LR: o.LR}
}

// loadCell returns the kept point for (npd, seed), or nil if there is
// none or it was made with other settings (then it is recomputed).
func (o SPAOptions) loadCell(npd, seed int) (*SPAPoint, error) {
	if o.CellDir == "" {
		return nil, nil
	}
	b, err := os.ReadFile(o.cellPath(npd, seed))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("spa-memory: %w", err)
	}
	var c spaCell
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("spa-memory: %s: %w", o.cellPath(npd, seed), err)
	}
	p := c.Point
	c.Point = SPAPoint{}
	if c != o.cellKey() || p.NeuronsPerDim != npd || p.Seed != seed {
		return nil, nil
	}
	return &p, nil
}

func (o SPAOptions) saveCell(p *SPAPoint) error {
	if o.CellDir == "" {
		return nil
	}
	if err := os.MkdirAll(o.CellDir, 0o755); err != nil {
		return fmt.Errorf("spa-memory: %w", err)
	}
	c := o.cellKey()
	c.Point = *p
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	path := o.cellPath(p.NeuronsPerDim, p.Seed)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("spa-memory: %w", err)
	}
	return os.Rename(tmp, path)
}

func spaPoint(o SPAOptions, npd, seed int, logf func(string, ...any)) (*SPAPoint, error) {
	mn, err := NewSPAMemoryNet(o.Dims, npd, int64(seed))
	if err != nil {
		return nil, err
	}
	m, err := train.New(mn.Net)
	if err != nil {
		return nil, err
	}
	trainD, err := NewSPAData(o.Train, 2, o.Dims, mn.TInt, mn.TMem, mn.DtSim, uint64(1000+seed))
	if err != nil {
		return nil, err
	}
	testD, err := NewSPAData(o.Test, 2, o.Dims, mn.TInt, mn.TMem, mn.DtSim, uint64(2000+seed))
	if err != nil {
		return nil, err
	}
	nanMSE := loss.MaskedMSE{CountAll: true} // NengoDL's nan_mse
	if err := m.Compile(train.Config{
		Optimizer:   &optim.RMSProp{LR: o.LR},
		Loss:        map[*toolkit.Probe]loss.Loss{mn.Output: nanMSE, mn.Conv: nanMSE, mn.Memory: nanMSE},
		LossWeights: map[*toolkit.Probe]float64{mn.Output: 1, mn.Conv: 0.25, mn.Memory: 0.25},
	}); err != nil {
		return nil, err
	}
	x := func(d *SPAData) map[*toolkit.Node]*train.Array {
		return map[*toolkit.Node]*train.Array{mn.Role: d.Role, mn.Filler: d.Filler, mn.Cue: d.Cue}
	}
	y := func(d *SPAData) map[*toolkit.Probe]*train.Array {
		return map[*toolkit.Probe]*train.Array{mn.Output: d.Target, mn.Conv: d.Binding, mn.Memory: d.Mem}
	}
	p := &SPAPoint{NeuronsPerDim: npd, Seed: seed}
	eval := func() (float64, float64, error) {
		pred, err := m.Predict(x(testD), train.EvalOptions{BatchSize: o.Batch})
		if err != nil {
			return 0, 0, err
		}
		g := make([]float64, len(testD.Target.Data))
		l, err := nanMSE.Eval(pred[mn.Output].Data, testD.Target.Data, testD.Target.N, testD.Target.Steps, testD.Target.Dims, g)
		return Retrieval(pred[mn.Output], testD), l, err
	}
	if p.Before, p.LossBefore, err = eval(); err != nil {
		return nil, err
	}
	t0 := time.Now()
	if _, err := m.Fit(x(trainD), y(trainD), train.FitOptions{Epochs: o.Epochs, BatchSize: o.Batch, Seed: int64(seed)}); err != nil {
		return nil, err
	}
	p.SecondsPerEpoch = time.Since(t0).Seconds() / float64(o.Epochs)
	if p.After, p.LossAfter, err = eval(); err != nil {
		return nil, err
	}
	logf("spa-memory: %d neurons/dim, seed %d: retrieval %.3f → %.3f, output loss %.4f → %.4f (%.1f s/epoch)",
		npd, seed, p.Before, p.After, p.LossBefore, p.LossAfter, p.SecondsPerEpoch)
	return p, nil
}

// Summarize groups points by neurons per dimension (in order of first
// appearance) and returns, per group, the mean retrieval accuracy before
// and after training with a 95 % interval over its seeds (Student t; the
// interval is the mean itself for a single seed) — what SPAMemory returns
// and Figure draws, for points computed one by one.
func Summarize(points []SPAPoint) *SPAResult {
	r := &SPAResult{Points: append([]SPAPoint(nil), points...)}
	group := map[int]int{}
	var before, after [][]float64
	for _, p := range points {
		g, ok := group[p.NeuronsPerDim]
		if !ok {
			g = len(r.NeuronsPerDim)
			group[p.NeuronsPerDim] = g
			r.NeuronsPerDim = append(r.NeuronsPerDim, p.NeuronsPerDim)
			before, after = append(before, nil), append(after, nil)
		}
		before[g], after[g] = append(before[g], p.Before), append(after[g], p.After)
	}
	for g := range r.NeuronsPerDim {
		m, lo, hi := meanCI(before[g])
		r.BeforeMean, r.BeforeLo, r.BeforeHi = append(r.BeforeMean, m), append(r.BeforeLo, lo), append(r.BeforeHi, hi)
		m, lo, hi = meanCI(after[g])
		r.AfterMean, r.AfterLo, r.AfterHi = append(r.AfterMean, m), append(r.AfterLo, lo), append(r.AfterHi, hi)
	}
	return r
}

// meanCI returns the mean and a 95 % confidence interval (Student t).
func meanCI(v []float64) (mean, lo, hi float64) {
	n := float64(len(v))
	for _, x := range v {
		mean += x
	}
	mean /= n
	if len(v) < 2 {
		return mean, mean, mean
	}
	ss := 0.0
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := tQuantile975(len(v) - 1)
	h := t * sd / math.Sqrt(n)
	return mean, mean - h, mean + h
}

// tQuantile975 is the 97.5 % quantile of Student's t with df >= 1 degrees
// of freedom (gonum's distuv.StudentsT).
func tQuantile975(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
}

// Figure draws Fig. 9: retrieval accuracy against neurons per dimension,
// before and after training, with 95 % intervals over seeds. The sizes
// are categories (a few settings, not a continuum): markers with their
// intervals, before and after side by side so that equal means stay
// visible, joined within a condition; intervals are clipped to [0, 1],
// the range of an accuracy (a t interval over few seeds can exceed it).
func (r *SPAResult) Figure() (*viz.Plot, error) {
	sizes := make([]string, len(r.NeuronsPerDim))
	for i, n := range r.NeuronsPerDim {
		sizes[i] = strconv.Itoa(n)
	}
	return viz.Points(sizes, []viz.BarGroup{
		{Label: "before training", Values: r.BeforeMean, Lower: r.BeforeLo, Upper: r.BeforeHi},
		{Label: "after training", Values: r.AfterMean, Lower: r.AfterLo, Upper: r.AfterHi},
	}, viz.PointsOptions{Connect: true, Bounds: [2]float64{0, 1},
		Frame: viz.Frame{Title: "Memory retrieval (the NengoDL paper, Fig. 9)", XLabel: "neurons per dimension", YLabel: "retrieval accuracy"}})
}
