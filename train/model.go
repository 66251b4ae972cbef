package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

// Model is a built network made trainable (NengoDL's Simulator with its
// Keras-style methods): Compile fixes the optimiser, losses and metrics;
// Fit trains with the differentiable rate counterparts of spiking neurons;
// Evaluate and Predict run the model as built (spiking) unless told to use
// rates. Parameters start from what the Nengo builder made (solved
// decoders, sampled encoders, gains and biases) and are shared by every
// run of the model; Params returns them for sim.BuildWithParams.
type Model struct {
	Net   *toolkit.Network
	Built *sim.Model
	g     *sim.Graph

	values    [][]float64 // shared (read-only) signals: the model's parameters and constants
	params    []int       // signals that are parameters (role or layer parameter)
	setting   map[any]bool
	parent    map[any]*toolkit.Network
	ensByKey  map[string]*toolkit.Ensemble
	connByKey map[string]*toolkit.Connection

	cfg      *Config
	optStep  int
	engines  map[engineKey]*engine
	stopFlag bool
	seed     uint64

	layerDecl map[int]*layers.Param // layer parameter signal → its declaration (layerParam)
	noFuse    bool                  // engines without their simplifications (tests)
}

type engineKey struct {
	batch, steps int
	rates        bool
	fed          string
	losses       bool
}

// New builds net (sim.Build with opts) and returns it as a trainable
// Model.
func New(net *toolkit.Network, opts ...sim.Option) (*Model, error) {
	if net == nil {
		return nil, errors.New("train: New: nil network")
	}
	built, err := sim.Build(net, opts...)
	if err != nil {
		return nil, err
	}
	m := &Model{Net: net, Built: built, g: built.Graph(), setting: map[any]bool{}, engines: map[engineKey]*engine{},
		parent: map[any]*toolkit.Network{}, ensByKey: map[string]*toolkit.Ensemble{}, connByKey: map[string]*toolkit.Connection{},
		seed: uint64(net.Seed)}
	m.values = make([][]float64, len(m.g.Signals))
	for i, s := range m.g.Signals {
		if s.ReadOnly {
			m.values[i] = slices.Clone(s.Init)
			if m.values[i] == nil {
				m.values[i] = make([]float64, s.Size)
			}
		}
		if s.Role != ir.RoleNone && s.Role != ir.RoleGains && s.ReadOnly {
			m.params = append(m.params, i)
		}
	}
	for e, k := range sim.EnsembleKeys(net) {
		m.ensByKey[k] = e
	}
	for c, k := range sim.ConnectionKeys(net) {
		m.connByKey[k] = c
	}
	var walk func(n *toolkit.Network)
	walk = func(n *toolkit.Network) {
		for _, e := range n.Ensembles {
			m.parent[e] = n
		}
		for _, c := range n.Connections {
			m.parent[c] = n
		}
		for _, x := range n.Nodes {
			m.parent[x] = n
		}
		for _, s := range n.Networks {
			m.parent[s] = n
			walk(s)
		}
	}
	walk(net)
	return m, nil
}

// SetTrainable marks obj (an *toolkit.Ensemble, *toolkit.Connection, a
// layer *toolkit.Node or a *toolkit.Network, whose setting applies to
// everything inside it unless set more specifically) as trainable or not,
// like NengoDL's config[obj].trainable. By default every encoder, bias,
// connection weight and layer parameter is trainable, except weights that
// an online learning rule changes.
func (m *Model) SetTrainable(obj any, on bool) error {
	switch obj.(type) {
	case *toolkit.Ensemble, *toolkit.Connection, *toolkit.Node, *toolkit.Network:
	default:
		return fmt.Errorf("train: SetTrainable: %T is not an Ensemble, Connection, Node or Network", obj)
	}
	if n, ok := obj.(*toolkit.Network); !ok || n != m.Net {
		if _, ok := m.parent[obj]; !ok {
			return fmt.Errorf("train: SetTrainable: %v is not part of this model's network", obj)
		}
	}
	m.setting[obj] = on
	m.engines = map[engineKey]*engine{}
	return nil
}

// owner returns the object a parameter signal belongs to.
func (m *Model) owner(s int) any {
	sg := m.g.Signals[s]
	switch sg.Role {
	case ir.RoleBias, ir.RoleScaledEncoders:
		if e := m.ensByKey[sg.Key]; e != nil {
			return e
		}
	case ir.RoleWeights, ir.RoleDecoders, ir.RoleTransform:
		if c := m.connByKey[sg.Key]; c != nil {
			return c
		}
	case ir.RoleLayer:
		for _, op := range m.g.Ops {
			if l, ok := op.(*ir.SimLayer); ok && slices.Contains(l.Params, s) {
				return l.Node
			}
		}
	}
	return nil
}

// trainableSignals resolves the trainability settings.
func (m *Model) trainableSignals() map[int]bool {
	out := map[int]bool{}
	for _, s := range m.params {
		if m.g.Signals[s].Role == ir.RoleLayer && !m.layerParamTrainable(s) {
			continue
		}
		obj := m.owner(s)
		on := true
		for o := obj; o != nil; {
			if v, ok := m.setting[o]; ok {
				on = v
				break
			}
			p, ok := m.parent[o]
			if !ok {
				if v, ok := m.setting[m.Net]; ok && o != any(m.Net) {
					on = v
				}
				break
			}
			o = p
		}
		if on {
			out[s] = true
		}
	}
	return out
}

// Config is what Compile fixes (Keras's compile): the optimiser, a loss
// per probe (probes without one are only recorded), loss weights
// (default 1), metrics per probe, an optional L1/L2 penalty on connection
// weights, decoders, encoders and layer kernels (not biases), and the
// smoothing σ of the SoftLIFRate whose derivative LIF neurons use in
// training (0: LIFRate's own).
type Config struct {
	Optimizer    optim.Optimizer
	Loss         map[*toolkit.Probe]loss.Loss
	LossWeights  map[*toolkit.Probe]float64
	Metrics      map[*toolkit.Probe][]loss.Metric
	Regularizer  *loss.Regularizer
	LIFSmoothing float64
	// SmoothForward runs SoftLIFRate(LIFSmoothing) in the forward pass of
	// training as well, so the gradients are those of the function
	// computed (what CheckGradients verifies). By default LIF trains as
	// LIFRate with SoftLIFRate's derivative (NengoDL's lif_smoothing).
	SmoothForward bool
	// Float32 trains in float32 arithmetic where it pays, as PyTorch and
	// TensorFlow train by default: the matrix products of convolution
	// layers (layers.Float32Exec: OpenBLAS sgemm under -tags openblas)
	// and LIF smoothing's rates and derivatives
	// (neurons.SoftLIFRate.LIFRateDeriv32). Values, parameters and
	// gradients are stored and accumulated in float64. Off: everything
	// float64.
	Float32 bool
}

// Compile checks and keeps c. It resets the optimiser's step count.
func (m *Model) Compile(c Config) error {
	if c.Optimizer == nil {
		return errors.New("train: Compile: no optimizer")
	}
	if len(c.Loss) == 0 {
		return errors.New("train: Compile: no loss (give a loss for at least one probe)")
	}
	for p, l := range c.Loss {
		if l == nil {
			return fmt.Errorf("train: Compile: probe %q has a nil loss", p.Label)
		}
		if m.probeIndex(p) < 0 {
			return fmt.Errorf("train: Compile: probe %q is not part of this model", p.Label)
		}
	}
	for p, w := range c.LossWeights {
		if _, ok := c.Loss[p]; !ok {
			return fmt.Errorf("train: Compile: loss weight for probe %q, which has no loss", p.Label)
		}
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("train: Compile: loss weight for probe %q is %v", p.Label, w)
		}
	}
	for p := range c.Metrics {
		if m.probeIndex(p) < 0 {
			return fmt.Errorf("train: Compile: metrics for probe %q, which is not part of this model", p.Label)
		}
	}
	if c.LIFSmoothing < 0 || math.IsNaN(c.LIFSmoothing) {
		return fmt.Errorf("train: Compile: LIFSmoothing = %v: must be ≥ 0", c.LIFSmoothing)
	}
	cc := c
	m.cfg = &cc
	m.optStep = 0
	m.engines = map[engineKey]*engine{}
	return nil
}

func (m *Model) probeIndex(p *toolkit.Probe) int {
	for i, gp := range m.g.Probes {
		if gp.Probe == p {
			return i
		}
	}
	return -1
}

// engine returns (and caches) an engine for the given shape and mode.
func (m *Model) engine(batch, steps int, rates, losses bool, fed []*toolkit.Node) (*engine, error) {
	names := make([]string, len(fed))
	fedSigs := map[int]bool{}
	for i, n := range fed {
		s, ok := m.g.NodeOutputs[n]
		if !ok {
			return nil, fmt.Errorf("train: node %q cannot take input data (it has no output signal, or is not in the model)", n.Label)
		}
		fedSigs[s] = true
		names[i] = fmt.Sprintf("%p", n)
	}
	sort.Strings(names)
	k := engineKey{batch: batch, steps: steps, rates: rates, fed: strings.Join(names, ","), losses: losses}
	if e := m.engines[k]; e != nil {
		return e, nil
	}
	cfg := engineConfig{batch: batch, steps: steps, rates: rates, fed: fedSigs, values: m.values, seed: m.seed, noFuse: m.noFuse}
	if m.cfg != nil {
		cfg.sigma, cfg.smoothForward, cfg.float32 = m.cfg.LIFSmoothing, m.cfg.SmoothForward, m.cfg.Float32
	}
	tr := m.trainableSignals()
	cfg.fixed = func(s int) bool { return !tr[s] }
	if losses {
		cfg.trainable = tr
		for p := range m.cfg.Loss {
			cfg.lossSignals = append(cfg.lossSignals, m.g.Probes[m.probeIndex(p)].Signal)
		}
	}
	e, err := newEngine(m.g, cfg)
	if err != nil {
		return nil, err
	}
	// keep at most a few engines (each holds its batch's buffers)
	if len(m.engines) >= 4 {
		m.engines = map[engineKey]*engine{}
	}
	m.engines[k] = e
	return e, nil
}

// checkData validates inputs (and targets) and returns the number of
// examples and steps.
func (m *Model) checkData(x map[*toolkit.Node]*Array, y map[*toolkit.Probe]*Array) (n, steps int, nodes []*toolkit.Node, err error) {
	if len(x) == 0 {
		return 0, 0, nil, errors.New("train: no input data (give an Array for at least one node)")
	}
	n, steps = -1, -1
	for node, a := range x {
		if node == nil {
			return 0, 0, nil, errors.New("train: input data for a nil node")
		}
		if err := a.check(fmt.Sprintf("input for node %q", node.Label)); err != nil {
			return 0, 0, nil, err
		}
		s, ok := m.g.NodeOutputs[node]
		if !ok {
			return 0, 0, nil, fmt.Errorf("train: node %q cannot take input data (it has no output, or is not in the model)", node.Label)
		}
		if d := m.g.Signals[s].Size; a.Dims != d {
			return 0, 0, nil, fmt.Errorf("train: input for node %q has %d dims, the node outputs %d", node.Label, a.Dims, d)
		}
		if n >= 0 && (a.N != n || a.Steps != steps) {
			return 0, 0, nil, fmt.Errorf("train: input for node %q is %d examples × %d steps; other inputs are %d × %d", node.Label, a.N, a.Steps, n, steps)
		}
		n, steps = a.N, a.Steps
		nodes = append(nodes, node)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Label < nodes[j].Label })
	for p, a := range y {
		i := m.probeIndex(p)
		if i < 0 {
			return 0, 0, nil, fmt.Errorf("train: targets for probe %q, which is not part of this model", p.Label)
		}
		if err := a.check(fmt.Sprintf("targets for probe %q", p.Label)); err != nil {
			return 0, 0, nil, err
		}
		if a.N != n {
			return 0, 0, nil, fmt.Errorf("train: targets for probe %q have %d examples, the inputs %d", p.Label, a.N, n)
		}
		if want := m.samplesIn(i, steps); a.Steps != want {
			return 0, 0, nil, fmt.Errorf("train: targets for probe %q have %d steps, the probe records %d samples in %d steps", p.Label, a.Steps, want, steps)
		}
	}
	return n, steps, nodes, nil
}

// samplesIn is how many samples probe i records in steps steps.
func (m *Model) samplesIn(i, steps int) int {
	p := m.g.Probes[i]
	if p.Period == 1 {
		return steps
	}
	c := 0
	for t := 1; t <= steps; t++ {
		if math.Mod(float64(t), p.Period) < 1 {
			c++
		}
	}
	return c
}

// run feeds batch idx of x into e and runs steps steps. Before each step
// it checks the process's interrupt flag (package interrupt): a pass over
// a long sequence can take seconds.
func (m *Model) run(e *engine, x map[*toolkit.Node]*Array, nodes []*toolkit.Node, idx []int, steps int, record, training bool, bufs map[*toolkit.Node][]float64) error {
	if err := e.start(len(idx), record, training); err != nil {
		return err
	}
	for _, node := range nodes {
		bufs[node] = x[node].gather(idx, bufs[node])
		if err := e.feedNode(node, bufs[node], steps); err != nil {
			return err
		}
	}
	for k := range steps {
		if interrupt.Requested() {
			return fmt.Errorf("train: forward pass interrupted at step %d of %d: %w", k, steps, interrupt.ErrInterrupted)
		}
		if err := e.step(); err != nil {
			return err
		}
	}
	return nil
}

// vars returns the optimiser's view of the trainable parameters of e.
func (m *Model) vars(e *engine) []*optim.Var {
	var vs []*optim.Var
	for s, on := range e.trainable {
		if !on || e.grad[s] == nil {
			continue
		}
		sg := m.g.Signals[s]
		kind := "Layer"
		owner := m.owner(s)
		var decl *layers.Param
		switch sg.Role {
		case ir.RoleBias, ir.RoleScaledEncoders:
			kind = "Ensemble"
		case ir.RoleWeights, ir.RoleDecoders, ir.RoleTransform:
			kind = "Connection"
		case ir.RoleLayer:
			if n, ok := owner.(*toolkit.Node); ok && n.Layer != nil {
				kind = n.Layer.Kind()
			}
			decl = m.layerParam(s)
		}
		vs = append(vs, &optim.Var{Name: m.paramName(s), Kind: kind, Value: e.vals[s], Grad: e.grad[s],
			Param: decl, Owner: owner})
	}
	return vs
}

// regularized reports whether the penalty applies to signal s.
func (m *Model) regularized(s int) bool {
	sg := m.g.Signals[s]
	switch sg.Role {
	case ir.RoleBias:
		return false
	case ir.RoleLayer:
		p := m.layerParam(s)
		return p != nil && p.Role == layers.RoleKernel
	}
	return true
}

// Logs are the values a training or evaluation pass reports: "loss", and
// per probe "<label>_loss" and "<label>_<metric>"; validation values are
// prefixed "val_".
type Logs map[string]float64

// Keys returns the log names in sorted order.
func (l Logs) Keys() []string {
	ks := make([]string, 0, len(l))
	for k := range l {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (l Logs) String() string {
	var b strings.Builder
	for i, k := range l.Keys() {
		if i > 0 {
			b.WriteString(" - ")
		}
		fmt.Fprintf(&b, "%s: %.4g", k, l[k])
	}
	return b.String()
}

// accumulator sums losses and metrics over batches.
type accumulator struct {
	sum, count map[string]float64
}

func newAcc() *accumulator {
	return &accumulator{sum: map[string]float64{}, count: map[string]float64{}}
}
func (a *accumulator) add(k string, sum, count float64) {
	a.sum[k] += sum
	a.count[k] += count
}
func (a *accumulator) logs(prefix string) Logs {
	l := Logs{}
	for k, s := range a.sum {
		if a.count[k] > 0 {
			l[prefix+k] = s / a.count[k]
		}
	}
	return l
}

// lossPass computes the losses (and, with grads, their gradients) and
// metrics of the batch just run.
func (m *Model) lossPass(e *engine, y map[*toolkit.Probe]*Array, idx []int, grads [][]float64, acc *accumulator, lastStep bool, preds [][]float64, tgts map[*toolkit.Probe][]float64) (float64, error) {
	b := len(idx)
	total := 0.0
	probes := make([]*toolkit.Probe, 0, len(y))
	for p := range y {
		probes = append(probes, p)
	}
	sort.Slice(probes, func(i, j int) bool { return probes[i].Label < probes[j].Label })
	for _, p := range probes {
		i := m.probeIndex(p)
		gp := m.g.Probes[i]
		preds[i] = e.probeData(i, preds[i])
		tgts[p] = y[p].gather(idx, tgts[p])
		pred, tgt := preds[i], tgts[p]
		ns, d, td := len(e.samples[i]), gp.Dims, y[p].Dims
		if lastStep && ns > 1 {
			pred, tgt = lastOf(pred, b, ns, d), lastOf(tgt, b, ns, td)
			ns = 1
		}
		if l := m.cfg.Loss[p]; l != nil {
			var g []float64
			if grads != nil {
				grads[i] = growTo(grads[i], len(pred))
				g = grads[i]
			} else {
				g = make([]float64, len(pred))
			}
			v, err := l.Eval(pred, tgt, b, ns, d, g)
			if err != nil {
				return 0, fmt.Errorf("train: loss %s of probe %q: %w", l.Name(), p.Label, err)
			}
			w := 1.0
			if lw, ok := m.cfg.LossWeights[p]; ok {
				w = lw
			}
			if grads != nil && w != 1 {
				for k := range g {
					g[k] *= w
				}
			}
			total += w * v
			acc.add(p.Label+"_loss", v*float64(b), float64(b))
		}
		for _, mt := range m.cfg.Metrics[p] {
			s, c, err := mt.Accumulate(pred, tgt, b, ns, d)
			if err != nil {
				return 0, fmt.Errorf("train: metric %s of probe %q: %w", mt.Name(), p.Label, err)
			}
			acc.add(p.Label+"_"+mt.Name(), s, c)
		}
	}
	return total, nil
}

// lastOf returns the last sample of each example.
func lastOf(v []float64, b, ns, d int) []float64 {
	out := make([]float64, b*d)
	for k := range b {
		copy(out[k*d:(k+1)*d], v[(k*ns+ns-1)*d:(k*ns+ns)*d])
	}
	return out
}

// FitOptions are Fit's settings (Keras's fit arguments). BatchSize
// defaults to 32 and Epochs to 1. ValidationSplit holds out that fraction
// of the examples (the last ones, before shuffling, as Keras does);
// ValidationX/ValidationY give validation data instead. Examples are
// shuffled every epoch from Seed unless NoShuffle.
type FitOptions struct {
	Epochs          int
	BatchSize       int
	ValidationSplit float64
	ValidationX     map[*toolkit.Node]*Array
	ValidationY     map[*toolkit.Probe]*Array
	NoShuffle       bool
	Seed            int64
	Callbacks       []Callback
	// InitialEpoch starts the epoch count there (resuming from a checkpoint).
	InitialEpoch int
}

// History holds the logs of every epoch of a Fit (Keras's History).
type History struct {
	Epochs []int
	Logs   []Logs
}

// Series returns one log value per epoch (NaN where missing).
func (h *History) Series(key string) []float64 {
	out := make([]float64, len(h.Logs))
	for i, l := range h.Logs {
		v, ok := l[key]
		if !ok {
			v = math.NaN()
		}
		out[i] = v
	}
	return out
}

// Keys returns the names logged in the last epoch.
func (h *History) Keys() []string {
	if len(h.Logs) == 0 {
		return nil
	}
	return h.Logs[len(h.Logs)-1].Keys()
}

// StopTraining asks a running Fit to stop after the current batch (for
// callbacks such as early stopping).
func (m *Model) StopTraining() { m.stopFlag = true }

// Fit trains the model (Keras's fit) on inputs x (per node) and targets y
// (per probe with a loss) with backpropagation through time over each
// sequence, spiking neurons replaced by their rate counterparts. It
// returns the history of the epochs run. On a NaN or infinite loss or
// gradient it stops with an error naming the epoch, batch and parameter;
// the parameters keep their last good values.
//
// Fit checks the process's interrupt flag (package interrupt) before every
// batch and every step of the forward and backward passes; when it is set
// Fit returns the history of the whole epochs done with an error wrapping
// interrupt.ErrInterrupted, the parameters and optimiser state those after
// the last whole batch (a later Fit with InitialEpoch continues from
// there).
func (m *Model) Fit(x map[*toolkit.Node]*Array, y map[*toolkit.Probe]*Array, o FitOptions) (*History, error) {
	if m.cfg == nil {
		return nil, errors.New("train: Fit before Compile")
	}
	for p := range m.cfg.Loss {
		if y[p] == nil {
			return nil, fmt.Errorf("train: Fit: probe %q has a loss but no targets", p.Label)
		}
	}
	for p := range y {
		if _, ok := m.cfg.Loss[p]; !ok && len(m.cfg.Metrics[p]) == 0 {
			return nil, fmt.Errorf("train: Fit: targets for probe %q, which has no loss or metric", p.Label)
		}
	}
	n, steps, nodes, err := m.checkData(x, y)
	if err != nil {
		return nil, err
	}
	if o.Epochs == 0 {
		o.Epochs = 1
	}
	if o.BatchSize == 0 {
		o.BatchSize = 32
	}
	if o.Epochs < 0 || o.BatchSize < 0 {
		return nil, fmt.Errorf("train: Fit: Epochs %d and BatchSize %d must be positive", o.Epochs, o.BatchSize)
	}
	if o.ValidationSplit < 0 || o.ValidationSplit >= 1 || math.IsNaN(o.ValidationSplit) {
		return nil, fmt.Errorf("train: Fit: ValidationSplit = %v: must be in [0, 1)", o.ValidationSplit)
	}
	nTrain := n
	var valIdx []int
	vx, vy := o.ValidationX, o.ValidationY
	if o.ValidationSplit > 0 {
		if vx != nil {
			return nil, errors.New("train: Fit: give ValidationSplit or ValidationX/Y, not both")
		}
		nVal := int(float64(n) * o.ValidationSplit)
		if nVal < 1 || nVal >= n {
			return nil, fmt.Errorf("train: Fit: ValidationSplit %v of %d examples leaves no training or no validation data", o.ValidationSplit, n)
		}
		nTrain = n - nVal
		for i := nTrain; i < n; i++ {
			valIdx = append(valIdx, i)
		}
	}
	if vx != nil {
		if _, _, _, err := m.checkData(vx, vy); err != nil {
			return nil, fmt.Errorf("train: Fit: validation data: %w", err)
		}
	}
	bs := min(o.BatchSize, nTrain)
	e, err := m.engine(bs, steps, true, true, nodes)
	if err != nil {
		return nil, err
	}
	vars := m.vars(e)
	if len(vars) == 0 {
		return nil, errors.New("train: Fit: no trainable parameter reaches a probe with a loss")
	}
	hist := &History{}
	info := FitInfo{Epochs: o.InitialEpoch + o.Epochs, Batches: (nTrain + bs - 1) / bs, Examples: nTrain, Steps: steps, Params: len(vars)}
	for _, v := range vars {
		info.Values += len(v.Value)
	}
	m.stopFlag = false
	for _, cb := range o.Callbacks {
		if err := cb.OnTrainBegin(m, info); err != nil {
			return hist, err
		}
	}
	order := make([]int, nTrain)
	for i := range order {
		order[i] = i
	}
	bufs := map[*toolkit.Node][]float64{}
	grads := make([][]float64, len(m.g.Probes))
	preds := make([][]float64, len(m.g.Probes))
	tgts := map[*toolkit.Probe][]float64{}
	for ep := o.InitialEpoch; ep < o.InitialEpoch+o.Epochs && !m.stopFlag; ep++ {
		for _, cb := range o.Callbacks {
			if err := cb.OnEpochBegin(m, ep); err != nil {
				return hist, err
			}
		}
		if !o.NoShuffle {
			// the order of epoch ep depends only on (Seed, ep), so a run
			// resumed from a checkpoint (InitialEpoch) continues exactly
			for i := range order {
				order[i] = i
			}
			r := rand.New(rand.NewPCG(uint64(o.Seed), uint64(ep)+1))
			r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		acc := newAcc()
		interrupted := func(bi int) error {
			return fmt.Errorf("train: Fit interrupted in epoch %d, batch %d of %d (%d whole epochs done; the parameters are those after the last whole batch): %w",
				ep+1, bi+1, info.Batches, len(hist.Epochs), interrupt.ErrInterrupted)
		}
		for bi := 0; bi*bs < nTrain && !m.stopFlag; bi++ {
			if interrupt.Requested() {
				return hist, interrupted(bi)
			}
			idx := order[bi*bs : min((bi+1)*bs, nTrain)]
			if err := m.run(e, x, nodes, idx, steps, true, true, bufs); err != nil {
				if errors.Is(err, interrupt.ErrInterrupted) {
					return hist, interrupted(bi)
				}
				return hist, fmt.Errorf("train: epoch %d, batch %d: %w", ep+1, bi+1, err)
			}
			total, err := m.lossPass(e, y, idx, grads, acc, false, preds, tgts)
			if err != nil {
				return hist, fmt.Errorf("train: epoch %d, batch %d: %w", ep+1, bi+1, err)
			}
			e.zeroGrads()
			if err := e.backward(grads); err != nil {
				if errors.Is(err, interrupt.ErrInterrupted) {
					return hist, interrupted(bi)
				}
				return hist, fmt.Errorf("train: epoch %d, batch %d: %w", ep+1, bi+1, err)
			}
			if r := m.cfg.Regularizer; r != nil {
				for s, on := range e.trainable {
					if on && e.grad[s] != nil && m.regularized(s) {
						total += r.Penalty(e.vals[s])
						r.AddGrad(e.vals[s], e.grad[s])
					}
				}
			}
			acc.add("loss", total*float64(len(idx)), float64(len(idx)))
			if math.IsNaN(total) || math.IsInf(total, 0) {
				return hist, fmt.Errorf("train: epoch %d, batch %d: the loss is %v%s; the parameters keep their values from before this batch",
					ep+1, bi+1, total, nanParam(vars))
			}
			m.optStep++
			if err := m.cfg.Optimizer.Step(vars, m.optStep); err != nil {
				m.optStep--
				return hist, fmt.Errorf("train: epoch %d, batch %d: %w; the parameters keep their values from before this batch", ep+1, bi+1, err)
			}
			optim.ApplyConstraints(vars) // the parameters' declared constraints (layers.Param.Constraint)
			for _, cb := range o.Callbacks {
				if err := cb.OnBatchEnd(m, ep, bi, Logs{"loss": total}); err != nil {
					return hist, err
				}
			}
		}
		logs := acc.logs("")
		if len(valIdx) > 0 || vx != nil {
			var vl Logs
			var err error
			if vx != nil {
				vl, err = m.Evaluate(vx, vy, EvalOptions{BatchSize: bs, Rates: true})
			} else {
				vl, err = m.evaluateIdx(x, y, valIdx, nodes, steps, EvalOptions{BatchSize: bs, Rates: true})
			}
			if err != nil {
				if errors.Is(err, interrupt.ErrInterrupted) {
					return hist, fmt.Errorf("train: Fit interrupted in epoch %d during validation (%d whole epochs done; the parameters are those after the epoch's last batch): %w",
						ep+1, len(hist.Epochs), interrupt.ErrInterrupted)
				}
				return hist, fmt.Errorf("train: epoch %d: validation: %w", ep+1, err)
			}
			for k, v := range vl {
				logs["val_"+k] = v
			}
		}
		hist.Epochs = append(hist.Epochs, ep)
		hist.Logs = append(hist.Logs, logs)
		for _, cb := range o.Callbacks {
			if err := cb.OnEpochEnd(m, ep, logs); err != nil {
				return hist, err
			}
		}
	}
	for _, cb := range o.Callbacks {
		if err := cb.OnTrainEnd(m, hist); err != nil {
			return hist, err
		}
	}
	return hist, nil
}

// nanParam names the first parameter whose gradient or value is not finite.
func nanParam(vars []*optim.Var) string {
	for _, v := range vars {
		for _, g := range v.Grad {
			if math.IsNaN(g) || math.IsInf(g, 0) {
				return fmt.Sprintf(" (first non-finite gradient: %s)", v.Name)
			}
		}
		for _, g := range v.Value {
			if math.IsNaN(g) || math.IsInf(g, 0) {
				return fmt.Sprintf(" (first non-finite value: %s)", v.Name)
			}
		}
	}
	return ""
}

// EvalOptions are Evaluate's and Predict's settings. BatchSize defaults
// to 32. Rates runs the training (rate) counterparts of spiking neurons;
// by default the model runs as built. LastStep scores only the last
// sample of each sequence (e.g. a spiking classifier read out at the
// end). Progress, if set, is called after every batch with the examples
// done and the total.
type EvalOptions struct {
	BatchSize int
	Rates     bool
	LastStep  bool
	Progress  func(done, total int)
}

// Evaluate returns the losses and metrics of the compiled model on x and
// y (Keras's evaluate), averaged over the examples. It checks the
// process's interrupt flag (package interrupt) before every batch and
// step and returns an error wrapping interrupt.ErrInterrupted when it is
// set.
func (m *Model) Evaluate(x map[*toolkit.Node]*Array, y map[*toolkit.Probe]*Array, o EvalOptions) (Logs, error) {
	if m.cfg == nil {
		return nil, errors.New("train: Evaluate before Compile")
	}
	n, steps, nodes, err := m.checkData(x, y)
	if err != nil {
		return nil, err
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return m.evaluateIdx(x, y, idx, nodes, steps, o)
}

func (m *Model) evaluateIdx(x map[*toolkit.Node]*Array, y map[*toolkit.Probe]*Array, idx []int, nodes []*toolkit.Node, steps int, o EvalOptions) (Logs, error) {
	bs := o.BatchSize
	if bs <= 0 {
		bs = 32
	}
	bs = min(bs, len(idx))
	e, err := m.engine(bs, steps, o.Rates, false, nodes)
	if err != nil {
		return nil, err
	}
	acc := newAcc()
	bufs := map[*toolkit.Node][]float64{}
	preds := make([][]float64, len(m.g.Probes))
	tgts := map[*toolkit.Probe][]float64{}
	for lo := 0; lo < len(idx); lo += bs {
		b := idx[lo:min(lo+bs, len(idx))]
		err := interrupt.Check()
		if err == nil {
			err = m.run(e, x, nodes, b, steps, false, false, bufs)
		}
		if errors.Is(err, interrupt.ErrInterrupted) {
			return nil, interrupt.Err("train: Evaluate", lo, len(idx), "examples")
		}
		if err != nil {
			return nil, err
		}
		total, err := m.lossPass(e, y, b, nil, acc, o.LastStep, preds, tgts)
		if err != nil {
			return nil, err
		}
		acc.add("loss", total*float64(len(b)), float64(len(b)))
		if o.Progress != nil {
			o.Progress(min(lo+bs, len(idx)), len(idx))
		}
	}
	return acc.logs(""), nil
}

// Predict runs the model on x and returns every probe's samples as
// Arrays (Keras's predict; NengoDL's probe data). It checks the process's
// interrupt flag (package interrupt) before every batch and step and
// returns an error wrapping interrupt.ErrInterrupted when it is set.
func (m *Model) Predict(x map[*toolkit.Node]*Array, o EvalOptions) (map[*toolkit.Probe]*Array, error) {
	n, steps, nodes, err := m.checkData(x, nil)
	if err != nil {
		return nil, err
	}
	bs := o.BatchSize
	if bs <= 0 {
		bs = 32
	}
	bs = min(bs, n)
	e, err := m.engine(bs, steps, o.Rates, false, nodes)
	if err != nil {
		return nil, err
	}
	out := map[*toolkit.Probe]*Array{}
	for i, gp := range m.g.Probes {
		ns := m.samplesIn(i, steps)
		if o.LastStep {
			ns = 1
		}
		out[gp.Probe] = &Array{N: n, Steps: ns, Dims: gp.Dims, Data: make([]float64, 0, n*ns*gp.Dims)}
	}
	bufs := map[*toolkit.Node][]float64{}
	var tmp []float64
	for lo := 0; lo < n; lo += bs {
		hi := min(lo+bs, n)
		idx := make([]int, hi-lo)
		for k := range idx {
			idx[k] = lo + k
		}
		err := interrupt.Check()
		if err == nil {
			err = m.run(e, x, nodes, idx, steps, false, false, bufs)
		}
		if errors.Is(err, interrupt.ErrInterrupted) {
			return nil, interrupt.Err("train: Predict", lo, n, "examples")
		}
		if err != nil {
			return nil, err
		}
		for i, gp := range m.g.Probes {
			tmp = e.probeData(i, tmp)
			if o.LastStep {
				tmp = lastOf(tmp, len(idx), len(e.samples[i]), gp.Dims)
			}
			out[gp.Probe].Data = append(out[gp.Probe].Data, tmp...)
		}
		if o.Progress != nil {
			o.Progress(hi, n)
		}
	}
	return out, nil
}

// PredictOnBatch is Predict on one batch (all of x at once).
func (m *Model) PredictOnBatch(x map[*toolkit.Node]*Array, rates bool) (map[*toolkit.Probe]*Array, error) {
	n, _, _, err := m.checkData(x, nil)
	if err != nil {
		return nil, err
	}
	return m.Predict(x, EvalOptions{BatchSize: n, Rates: rates})
}
