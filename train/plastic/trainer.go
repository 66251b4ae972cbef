package plastic

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/optim"
)

// DefaultHistory is the number of frames History keeps per plasticity when
// Options.History is 0.
const DefaultHistory = 4096

// Options configures Attach.
type Options struct {
	// Seed is recorded for reproducibility; the plasticity types of this
	// package draw no random numbers themselves (the noise and dropout of
	// a training rollout come from the Sim's seed and frame).
	Seed int64
	// Only lists the plasticities to run, by name (nil: all). A name that
	// is not a plasticity of the network is an error.
	Only []string
	// History is how many of the latest per-frame losses History keeps
	// per plasticity (a ring buffer); 0 means DefaultHistory.
	History int
	// NoNoise runs the loss and Hebbian rollouts without noise, dropout and
	// zoneout (Rollout.Forward(false)); by default they run in training
	// mode.
	NoNoise bool
	// Chunks splits the agents of every loss and Hebbian rollout into this
	// many chunks, computed as separate jobs on the Sim's workers
	// (frames.ChunkedHook); 0 means DefaultChunks, 1 one job per
	// plasticity. The number is capped by the agents, and a rollout through
	// a batch-normalised pool uses one chunk. Results do not depend on the
	// Sim's Workers, but they depend (in the last bits) on Chunks.
	Chunks int
}

// DefaultChunks is the agent chunks of a rollout when Options.Chunks is 0
// (as many as the executor uses per pool).
const DefaultChunks = 8

// Trainer runs the plasticities of a frames.Sim. Its methods other than
// the hooks it registers must be called between frames (not during
// Sim.Step).
type Trainer struct {
	sim     *frames.Sim
	plasts  []*plast
	byName  map[string]*plast
	noNoise bool
}

type kind int

const (
	kindLoss kind = iota
	kindHebb
	kindReg
)

// plast is one plasticity and its private buffers.
type plast struct {
	spec *stream.Plasticity
	kind kind
	fn   lossFn
	refs []stream.ParamRef
	vars []*optim.Var // Value: the update Δ of this frame; Grad: the estimate
	opt  optim.Optimizer
	step int // optimiser steps taken
	roll *frames.Rollout

	// loss: source/target depths, the mask's pool and depth; features
	srcD, tgtD int
	mask       string
	maskD      int
	maskC      int // features of the mask pool
	maskBuf    []float64
	c          int // features of the source pool

	// hebbian
	sign       float64
	dt         bool
	ns, nt     int
	unshared   bool // Hebbian: the weight holds one matrix per agent
	period     int
	enabled    bool
	ready      bool // vars[i].Value holds an update to apply in Write
	last       float64
	ring       []float64
	ringN      int // values written so far
	trainingFw bool
	chunkLoss  []float64 // loss of each rollout chunk (summed in Read)
}

// hook is what the Sim runs: Read computes one plasticity's update; the
// Write of the first hook (apply) adds every ready update to the live
// parameters.
type hook struct {
	tr    *Trainer
	p     *plast
	apply bool
}

func (h hook) Read(t int) error { return h.tr.read(h.p, t, false) }

func (h hook) Write(t int) error {
	if h.apply {
		return h.tr.write(t)
	}
	return nil
}

// chunkedHook runs a loss or Hebbian plasticity's rollout over chunks of
// agents (ReadChunk, concurrently); its Read, after the read phase's
// barrier, combines the chunks and steps the optimiser.
type chunkedHook struct{ hook }

func (h chunkedHook) Chunks() int { return h.p.roll.Chunks() }

// Read runs after every ReadChunk of frame t (frames.ChunkedHook).
func (h chunkedHook) Read(t int) error { return h.tr.read(h.p, t, true) }

func (h chunkedHook) ReadChunk(t, c int) error {
	p := h.p
	if !p.runs(t) {
		return nil
	}
	if err := p.estimateChunk(h.tr.sim, c); err != nil {
		return fmt.Errorf("plastic: plasticity %q, frame %d, chunk %d: %w", p.spec.Name, t, c, err)
	}
	return nil
}

// Attach builds every plasticity of s.Net() (or those in o.Only) and
// registers them with s as hooks: their Reads run in the read phase of
// each frame, concurrently with the pools and with each other, and the
// updates are applied after the frame. Errors name the plasticity and the
// offending key; on error nothing is registered.
func Attach(s *frames.Sim, o Options) (*Trainer, error) {
	if s == nil {
		return nil, fmt.Errorf("plastic: Attach: nil Sim")
	}
	if o.Chunks < 0 {
		return nil, fmt.Errorf("plastic: Attach: Options.Chunks = %d, must be ≥ 0 (0: DefaultChunks)", o.Chunks)
	}
	chunks := o.Chunks
	if chunks == 0 {
		chunks = DefaultChunks
	}
	if o.History < 0 {
		return nil, fmt.Errorf("plastic: Attach: Options.History = %d, must be ≥ 0", o.History)
	}
	hist := o.History
	if hist == 0 {
		hist = DefaultHistory
	}
	net := s.Net()
	want := map[string]bool{}
	for _, n := range o.Only {
		if net.Plasticity(n) == nil {
			return nil, fmt.Errorf("plastic: Attach: Options.Only names %q, which is not a plasticity of network %q", n, net.Name)
		}
		want[n] = true
	}
	tr := &Trainer{sim: s, byName: map[string]*plast{}, noNoise: o.NoNoise}
	for _, spec := range net.Plasticities {
		if o.Only != nil && !want[spec.Name] {
			continue
		}
		p, err := build(s, net, spec, hist, chunks)
		if err != nil {
			return nil, err
		}
		p.trainingFw = !o.NoNoise
		tr.plasts = append(tr.plasts, p)
		tr.byName[spec.Name] = p
	}
	for i, p := range tr.plasts {
		h := hook{tr: tr, p: p, apply: i == 0}
		if p.roll != nil {
			s.AddHook(chunkedHook{h})
		} else {
			s.AddHook(h)
		}
	}
	return tr, nil
}

// refString is the var name of a parameter: "sp/c1_pred/W_0_0".
func refString(r stream.ParamRef) string { return r.Kind + "/" + r.Item + "/" + r.Name }

func build(s *frames.Sim, net *stream.Net, spec *stream.Plasticity, hist, chunks int) (*plast, error) {
	p := &plast{spec: spec, enabled: true, ring: make([]float64, hist), period: spec.Period}
	errf := func(key, format string, args ...any) error {
		return fmt.Errorf("plastic: plasticity %q: %s: %s", spec.Name, key, fmt.Sprintf(format, args...))
	}
	if p.period == 0 {
		p.period = 1
	}
	if p.period < 0 {
		return nil, errf("period", "%d, must be ≥ 1", spec.Period)
	}
	if spec.Offset < 0 || spec.Offset >= p.period {
		return nil, errf("offset", "%d, must be in [0, period = %d)", spec.Offset, p.period)
	}
	if spec.StartFrame < 0 {
		return nil, errf("start_frame", "%d, must be ≥ 0", spec.StartFrame)
	}
	switch {
	case spec.Type == "loss":
		p.kind = kindLoss
		fn, ok := lossNames[spec.LossFunction]
		if !ok {
			names := make([]string, 0, len(lossNames))
			for n := range lossNames {
				names = append(names, n)
			}
			sort.Strings(names)
			return nil, errf("loss_function", "%q unknown, must be one of %s", spec.LossFunction, strings.Join(names, ", "))
		}
		p.fn = fn
	case spec.Type == "L_regularizer":
		p.kind = kindReg
		if bad(spec.L1) || spec.L1 < 0 {
			return nil, errf("l1", "%v, must be finite and ≥ 0", spec.L1)
		}
		if bad(spec.L2) || spec.L2 < 0 {
			return nil, errf("l2", "%v, must be finite and ≥ 0", spec.L2)
		}
	default:
		sign, dt := hebbMode(spec.Type)
		if sign == 0 {
			return nil, errf("type", "%q unknown, must be loss, hebbian, anti_hebbian, dt_hebbian, dt_anti_hebbian or L_regularizer", spec.Type)
		}
		p.kind, p.sign, p.dt = kindHebb, sign, dt
	}
	if len(spec.Params) == 0 {
		return nil, errf("parameter", "empty: list the parameters to train, e.g. [sp, <synapse-pool>, W_0_0]")
	}
	seen := map[string]bool{}
	for i, r := range spec.Params {
		name := refString(r)
		if seen[name] {
			return nil, errf(fmt.Sprintf("parameter[%d]", i), "%s listed twice", name)
		}
		seen[name] = true
		v, err := s.Param(r)
		if err != nil {
			return nil, errf(fmt.Sprintf("parameter[%d]", i), "%v", err)
		}
		p.refs = append(p.refs, r)
		p.vars = append(p.vars, &optim.Var{Name: name, Kind: r.Kind, Value: make([]float64, len(v)), Grad: make([]float64, len(v))})
	}
	opt, err := newOptimizer(spec)
	if err != nil {
		return nil, err
	}
	p.opt = opt
	if p.kind == kindReg {
		return p, nil
	}
	if p.kind == kindHebb {
		if err := checkHebb(net, spec, p); err != nil {
			return nil, err
		}
	}
	plan, err := net.Rollout(spec)
	if err != nil {
		return nil, fmt.Errorf("plastic: %w", err)
	}
	var wrt []stream.ParamRef
	if p.kind == kindLoss {
		wrt = p.refs
		p.srcD, p.tgtD = spec.SourceT, spec.TargetT
		p.c = net.Pool(spec.Source).Shape[0]
		if fn := p.fn; fn.hasTarget() {
			sp, tp := net.Pool(spec.Source), net.Pool(spec.Target)
			if sp.Shape != tp.Shape {
				return nil, errf("target", "neuron-pool %q has shape %v but source %q has %v; a loss compares equal shapes", spec.Target, tp.Shape, spec.Source, sp.Shape)
			}
		}
		if spec.Mask != "" {
			mp := net.Pool(spec.Mask)
			if mp == nil {
				return nil, errf("mask", "no neuron-pool %q", spec.Mask)
			}
			src := net.Pool(spec.Source)
			if mp.Shape[1] != src.Shape[1] || mp.Shape[2] != src.Shape[2] {
				return nil, errf("mask", "neuron-pool %q has spatial size %d×%d but source %q has %d×%d", spec.Mask, mp.Shape[1], mp.Shape[2], spec.Source, src.Shape[1], src.Shape[2])
			}
			p.mask, p.maskD, p.maskC = spec.Mask, spec.TargetT, mp.Shape[0]
			if !p.fn.hasTarget() {
				p.maskD = spec.SourceT
			}
			if p.maskD > 0 && !plan.Needs(spec.Mask, p.maskD) {
				return nil, errf("mask", "neuron-pool %q at δt=%d is not part of the local rollout (only δt=0 states or pools the rollout computes can mask)", spec.Mask, p.maskD)
			}
			p.maskBuf = make([]float64, s.Agents()*src.Shape[1]*src.Shape[2])
		}
	}
	roll, err := s.NewChunkedRollout(plan, wrt, chunks)
	if err != nil {
		return nil, fmt.Errorf("plastic: plasticity %q: %w", spec.Name, err)
	}
	p.roll = roll
	p.chunkLoss = make([]float64, roll.Chunks())
	return p, nil
}

// checkHebb checks that the single parameter of a Hebbian plasticity is the
// dense W_f_a of a synapse-pool from Source to Target, both pools without
// spatial extent (statestream neuronal/plasticities/hebbian.py has the
// same restriction).
func checkHebb(net *stream.Net, spec *stream.Plasticity, p *plast) error {
	errf := func(key, format string, args ...any) error {
		return fmt.Errorf("plastic: plasticity %q: %s: %s", spec.Name, key, fmt.Sprintf(format, args...))
	}
	if len(spec.Params) != 1 {
		return errf("parameter", "%s needs exactly one parameter (a synapse-pool's W_f_a), got %d", spec.Type, len(spec.Params))
	}
	r := spec.Params[0]
	var f, a int
	if r.Kind != "sp" || !strings.HasPrefix(r.Name, "W_") {
		return errf("parameter[0]", "%s: %s trains a synapse-pool weight [sp, <name>, W_f_a]", refString(r), spec.Type)
	}
	parts := strings.Split(r.Name, "_")
	if len(parts) == 3 {
		f, _ = strconv.Atoi(parts[1])
		a, _ = strconv.Atoi(parts[2])
	}
	sp := net.SP(r.Item)
	if sp == nil || f >= len(sp.Source) || a >= len(sp.Source[f]) {
		return errf("parameter[0]", "%s: no such synapse-pool weight", refString(r))
	}
	if sp.Target != spec.Target || sp.Source[f][a] != spec.Source {
		return errf("parameter[0]", "%s connects %q → %q, but the plasticity's source and target are %q → %q", refString(r), sp.Source[f][a], sp.Target, spec.Source, spec.Target)
	}
	if (f < len(sp.RF) && a < len(sp.RF[f]) && sp.RF[f][a] != 0) || (f < len(sp.PPP) && a < len(sp.PPP[f]) && sp.PPP[f][a] != 0) {
		return errf("parameter[0]", "%s must be a dense weight (rf 0, no ppp)", refString(r))
	}
	for _, n := range []string{spec.Source, spec.Target} {
		np := net.Pool(n)
		if np == nil {
			return errf("source/target", "no neuron-pool %q", n)
		}
		if np.Shape[1] != 1 || np.Shape[2] != 1 {
			return errf("source/target", "neuron-pool %q has spatial size %d×%d; Hebbian plasticities need pools without spatial extent (1×1)", n, np.Shape[1], np.Shape[2])
		}
	}
	p.ns, p.nt = net.Pool(spec.Source).Shape[0], net.Pool(spec.Target).Shape[0]
	p.unshared = r.Item != "" && ownerUnshared(net, r)
	want := p.ns * p.nt
	if p.unshared {
		want *= max(net.Agents, 1)
	}
	if n := len(p.vars[0].Value); n != want {
		return errf("parameter[0]", "%s has %d values, want %d", refString(r), n, want)
	}
	return nil
}

// runs reports whether p computes an update at frame t.
func (p *plast) runs(t int) bool {
	return p.enabled && t >= p.spec.StartFrame && t%p.period == p.spec.Offset
}

// read computes p's update for frame t into its private buffers; with
// chunked, from the rollout chunks ReadChunk computed.
func (tr *Trainer) read(p *plast, t int, chunked bool) error {
	p.ready = false // a frame that failed before its Write leaves nothing stale
	if !p.runs(t) {
		return nil
	}
	var err error
	if chunked {
		err = p.combine(tr.sim)
	} else {
		err = p.estimate(tr.sim)
	}
	if err != nil {
		return fmt.Errorf("plastic: plasticity %q, frame %d: %w", p.spec.Name, t, err)
	}
	for _, v := range p.vars {
		clear(v.Value)
	}
	p.step++
	if err := p.opt.Step(p.vars, p.step); err != nil {
		p.step--
		return fmt.Errorf("plastic: plasticity %q, frame %d: %w", p.spec.Name, t, err)
	}
	if p.kind != kindLoss {
		p.last = 0
		for _, v := range p.vars {
			for _, x := range v.Value {
				p.last += x * x
			}
		}
		p.last = math.Sqrt(p.last)
	}
	p.ring[p.ringN%len(p.ring)] = p.last
	p.ringN++
	p.ready = true
	return nil
}

// estimate fills p.vars[i].Grad with the update estimate as a descent
// direction (the optimiser subtracts it) and, for losses, sets p.last: it
// runs every rollout chunk in turn, then combine.
func (p *plast) estimate(s *frames.Sim) error {
	if p.roll != nil {
		for c := range p.roll.Chunks() {
			if err := p.estimateChunk(s, c); err != nil {
				return err
			}
		}
	}
	return p.combine(s)
}

// combine is estimate after the rollout chunks ran (estimateChunk for
// every chunk of this frame): for a loss it sums the chunks' losses and
// parameter gradients in chunk order.
func (p *plast) combine(s *frames.Sim) error {
	switch p.kind {
	case kindReg:
		for i, r := range p.refs {
			w, err := s.Param(r)
			if err != nil {
				return err
			}
			regGrad(p.vars[i].Grad, w, p.spec.L1, p.spec.L2)
		}
		return nil
	case kindHebb:
		x := p.roll.State(p.spec.Source, 0)
		y1 := p.roll.State(p.spec.Target, 1)
		var y0 []float64
		if p.dt {
			y0 = p.roll.State(p.spec.Target, 0)
		}
		g := p.vars[0].Grad
		// Ascent on the estimate: the optimiser descends along −ΔW.
		if p.unshared {
			hebbEstimateAgents(g, x, y1, y0, s.Agents(), p.ns, p.nt, -p.sign)
		} else {
			hebbEstimate(g, x, y1, y0, s.Agents(), p.ns, p.nt, -p.sign)
		}
		return nil
	}
	p.roll.ReduceParamGrad()
	p.last = 0
	for _, l := range p.chunkLoss { // chunk order: independent of the workers
		p.last += l
	}
	for i, r := range p.refs {
		g := p.roll.ParamGrad(r)
		if g == nil {
			clear(p.vars[i].Grad)
			continue
		}
		copy(p.vars[i].Grad, g)
	}
	return nil
}

// estimateChunk runs chunk c of p's rollout forward and, for a loss, the
// loss of the chunk's agents (normalised over all agents) and backward.
// Chunks touch disjoint parts of the rollout's and p's buffers, so they
// may run concurrently.
func (p *plast) estimateChunk(s *frames.Sim, c int) error {
	if err := p.roll.ForwardChunk(c, p.trainingFw); err != nil {
		return err
	}
	if p.kind != kindLoss {
		return nil
	}
	a0, a1 := p.roll.ChunkAgents(c)
	A := s.Agents()
	part := func(v []float64) []float64 {
		if v == nil {
			return nil
		}
		per := len(v) / A
		return v[a0*per : a1*per]
	}
	x := p.roll.State(p.spec.Source, p.srcD)
	gx := p.roll.Grad(p.spec.Source, p.srcD)
	total := len(x)
	var y, gy []float64
	if p.fn.hasTarget() {
		y = p.roll.State(p.spec.Target, p.tgtD)
		if p.tgtD > 0 {
			gy = p.roll.Grad(p.spec.Target, p.tgtD)
		}
	}
	var mask []float64
	if p.mask != "" {
		m := p.roll.State(p.mask, p.maskD)
		if m == nil {
			var err error
			if m, err = s.State(p.mask); err != nil {
				return err
			}
		}
		// Feature 0 of the mask at every position (statestream uses
		// mask[:, 0, :, :]).
		mask = part(p.maskBuf)
		off := a0 * (len(p.maskBuf) / A)
		for i := range mask {
			mask[i] = m[(off+i)*p.maskC]
		}
	}
	p.chunkLoss[c] = lossEval(p.fn, part(x), part(y), mask, p.c, total, part(gx), part(gy))
	return p.roll.BackwardChunk(c)
}

// write adds every ready update to the live parameters, in the order of
// Net.Plasticities (w_{t+1} = w_t + Σ_p Δω_p, the statestream paper, §2.2).
func (tr *Trainer) write(t int) error {
	for _, p := range tr.plasts {
		if !p.ready {
			continue
		}
		p.ready = false
		for i, r := range p.refs {
			w, err := tr.sim.Param(r)
			if err != nil {
				return fmt.Errorf("plastic: plasticity %q, frame %d: %w", p.spec.Name, t, err)
			}
			for j, d := range p.vars[i].Value {
				w[j] += d
			}
			// statestream's bounds (min / max W_f_a) after every update
			if err := tr.sim.ClipParam(r); err != nil {
				return fmt.Errorf("plastic: plasticity %q, frame %d: %w", p.spec.Name, t, err)
			}
		}
	}
	return nil
}

// Losses returns the latest value per plasticity that has run: the loss
// for loss plasticities, the Euclidean norm of the applied update for
// Hebbian plasticities and regularisers.
func (tr *Trainer) Losses() map[string]float64 {
	out := make(map[string]float64, len(tr.plasts))
	for _, p := range tr.plasts {
		if p.ringN > 0 {
			out[p.spec.Name] = p.last
		}
	}
	return out
}

// History returns the values Losses reported, one per frame the
// plasticity ran, oldest first: at most the latest Options.History
// (default DefaultHistory) values. It returns nil for an unknown name.
func (tr *Trainer) History(name string) []float64 {
	p := tr.byName[name]
	if p == nil {
		return nil
	}
	n := min(p.ringN, len(p.ring))
	out := make([]float64, n)
	for i := range n {
		out[i] = p.ring[(p.ringN-n+i)%len(p.ring)]
	}
	return out
}

// SetEnabled pauses (false) or resumes (true) a plasticity; a paused one
// computes and applies nothing and keeps its optimiser state.
func (tr *Trainer) SetEnabled(name string, on bool) error {
	p := tr.byName[name]
	if p == nil {
		return fmt.Errorf("plastic: SetEnabled: no plasticity %q attached", name)
	}
	p.enabled = on
	return nil
}

// State exports every plasticity's optimiser state for a checkpoint,
// keyed "<plasticity>/<var>/<slot>" (var "kind/item/name", e.g.
// "class/sp/c1_pred/W_0_0/m"), plus "<plasticity>/#step" holding the
// number of optimiser steps taken (Adam's bias correction depends on it).
func (tr *Trainer) State() map[string][]float64 {
	out := map[string][]float64{}
	for _, p := range tr.plasts {
		for k, v := range p.opt.State() {
			out[p.spec.Name+"/"+k] = v
		}
		out[p.spec.Name+"/#step"] = []float64{float64(p.step)}
	}
	return out
}

// SetState restores what State exported. Keys of plasticities not
// attached are an error (then nothing is restored); a plasticity absent
// from m keeps its state. An optimiser refusing its state (wrong slot,
// non-finite value) stops the restore there: the plasticities before it,
// in the order of Net.Plasticities, are already restored.
func (tr *Trainer) SetState(m map[string][]float64) error {
	per := map[string]map[string][]float64{}
	steps := map[string]int{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name, rest, ok := cutPlasticity(tr, k)
		if !ok {
			return fmt.Errorf("plastic: SetState: key %q does not start with the name of an attached plasticity", k)
		}
		if rest == "#step" {
			v := m[k]
			if len(v) != 1 || bad(v[0]) || v[0] < 0 || v[0] != float64(int(v[0])) {
				return fmt.Errorf("plastic: SetState: %q = %v, must be one integer ≥ 0", k, v)
			}
			steps[name] = int(v[0])
			continue
		}
		if per[name] == nil {
			per[name] = map[string][]float64{}
		}
		per[name][rest] = m[k]
	}
	for _, p := range tr.plasts {
		st, ok := per[p.spec.Name]
		if !ok {
			continue
		}
		if err := p.opt.SetState(st); err != nil {
			return fmt.Errorf("plastic: SetState: plasticity %q: %w", p.spec.Name, err)
		}
	}
	for name, n := range steps {
		tr.byName[name].step = n
	}
	return nil
}

// cutPlasticity splits key into the longest attached plasticity name that
// prefixes it (followed by "/") and the rest.
func cutPlasticity(tr *Trainer, key string) (name, rest string, ok bool) {
	for n := range tr.byName {
		if strings.HasPrefix(key, n+"/") && len(n) > len(name) {
			name, rest, ok = n, key[len(n)+1:], true
		}
	}
	return
}
