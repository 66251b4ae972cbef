package sim

import (
	"math/rand/v2"
	"runtime"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/sim/opt"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// cpu lowers the operators of one merged group onto one lane of a float64
// simulator (ir.Lowerer): a merged kernel for the types the optimiser
// merges (resets, copies, element-wise and dense products, fused ensembles
// and decoders with PES, contiguous neurons and synapses), otherwise the
// operators one after the other.
type cpu struct{ laneLowering }

// laneLowering is what the float64 and float32 executors share: the
// simulator, the lane, the group being lowered and the runner made.
type laneLowering struct {
	s  *Simulator
	ln *lane
	g  *group
	r  runner
}

// set stores the compiled runner.
func (c *laneLowering) set(r runner, err error) error {
	c.r = r
	return err
}

// lower runs l, whose shared part is c, on c's group.
func (c *laneLowering) lower(l ir.Lowerer) (runner, error) {
	err := ir.Lower(l, c.g.ops...)
	return c.r, err
}

// compile makes a group executable on one lane.
func (g *group) compile(s *Simulator, ln *lane) (runner, error) {
	c := &cpu{laneLowering{s: s, ln: ln, g: g}}
	return c.lower(c)
}

// each runs ops one after the other, each compiled by f.
func each[T any](ops []T, f func(T) (runner, error)) (runner, error) {
	if len(ops) == 1 {
		return f(ops[0])
	}
	rs := make([]runner, len(ops))
	for i, o := range ops {
		r, err := f(o)
		if err != nil {
			return runner{}, err
		}
		rs[i] = r
	}
	return runner{
		step: func() {
			for _, r := range rs {
				r.step()
			}
		},
		reset: func() {
			for _, r := range rs {
				if r.reset != nil {
					r.reset()
				}
			}
		},
	}, nil
}

func (c *cpu) Reset(ops []*ir.Reset) error { return c.set(c.resetGroup(ops)) }

func (c *cpu) resetGroup(ops []*ir.Reset) (runner, error) {
	return fillRunner(c.ln.data, c.s.model.resetRuns(ops), ops[0].Value), nil
}

// resetRuns lists the signals of a reset group as runs of the store,
// adjacent signals joined.
func (m *Model) resetRuns(ops []*ir.Reset) []run {
	var rs []run
	for _, op := range ops {
		sg := m.sigs[op.Y]
		if n := len(rs); n > 0 && rs[n-1].d+rs[n-1].n == sg.off {
			rs[n-1].n += sg.n
			continue
		}
		rs = append(rs, run{d: sg.off, n: sg.n})
	}
	return rs
}

// fillRunner sets the runs rs of store d to v every step (the float64 and
// the float32 store alike).
func fillRunner[T float32 | float64](d []T, rs []run, v T) runner {
	return runner{step: func() {
		for _, r := range rs {
			y := d[r.d : r.d+r.n]
			if v == 0 {
				clear(y)
				continue
			}
			for i := range y {
				y[i] = v
			}
		}
	}}
}

func (c *cpu) Copy(ops []*ir.Copy) error { return c.set(c.copyGroup(ops)) }

func (c *cpu) copyGroup(ops []*ir.Copy) (runner, error) {
	m, d := c.s.model, c.ln.data
	rs := m.runs(copyGathers(ops), false)
	if ops[0].Inc {
		return runner{step: func() {
			for _, r := range rs {
				vec.Add(d[r.d:r.d+r.n], d[r.s:r.s+r.n])
			}
		}}, nil
	}
	return runner{step: func() {
		for _, r := range rs {
			copy(d[r.d:r.d+r.n], d[r.s:r.s+r.n])
		}
	}}, nil
}

func (c *cpu) ElementwiseInc(ops []*ir.ElementwiseInc) error {
	return c.set(c.elementwiseIncGroup(ops))
}

func (c *cpu) elementwiseIncGroup(ops []*ir.ElementwiseInc) (runner, error) {
	m, d := c.s.model, c.ln.data
	rs := m.runs(ewGathers(ops), true)
	if ops[0].Set {
		return runner{step: func() {
			for _, r := range rs {
				y, x := d[r.d:r.d+r.n], d[r.s:r.s+r.n]
				if r.aStep == 0 {
					vec.Scale(y, x, d[r.a])
					continue
				}
				a := d[r.a : r.a+r.n]
				for i := range y {
					y[i] = a[i] * x[i]
				}
			}
		}}, nil
	}
	return runner{step: func() {
		for _, r := range rs {
			y, x := d[r.d:r.d+r.n], d[r.s:r.s+r.n]
			if r.aStep == 0 {
				vec.Axpy(y, x, d[r.a])
				continue
			}
			vec.MulInc(y, d[r.a:r.a+r.n], x)
		}
	}}, nil
}

func (c *cpu) DotInc(ops []*ir.DotInc) error { return c.set(c.dotIncGroup(ops)) }

func (c *cpu) dotIncGroup(ops []*ir.DotInc) (runner, error) {
	s, ln, m, d := c.s, c.ln, c.s.model, c.ln.data
	bs, err := m.dotBlocksOf(ops)
	if err != nil {
		return runner{}, err
	}
	for i := range bs {
		bs[i] = bs[i].withPairs()
	}
	if s.mm != nil {
		r, ok, err := s.hookedDot(ln, ops, bs)
		if err != nil || ok {
			return r, err
		}
	}
	set := ops[0].Set
	var ws []int
	for _, op := range ops {
		ws = append(ws, op.A)
	}
	w := s.weights(ln, ws...)
	macs := 0
	for _, b := range bs {
		macs += b.nx * b.ny
	}
	readonly := true
	for _, id := range ws {
		readonly = readonly && m.sigs[id].readonly
	}
	dedup := func(part []block) []block {
		out := make([]block, len(part))
		for i, b := range part {
			out[i] = s.withAligned(s.withDedup(b, readonly), readonly)
			if out[i].dedup == nil && b.pairs && b.nx >= 16 && b.ny >= 2 {
				out[i].sums = make([]float64, b.ny)
			}
		}
		return out
	}
	dotChunks := func(k int) []func() {
		var chunks []func()
		for _, part := range splitBlocks(bs, k) {
			if len(part) > 0 {
				part = dedup(part)
				chunks = append(chunks, func() { dotBlocks(d, w, part, set) })
			}
		}
		return chunks
	}
	whole := dedup(bs)
	macs = 0 // the multiply-adds left after duplicate rows
	for _, b := range whole {
		if b.dedup != nil {
			macs += b.nx * len(b.dedup.uniq)
		} else {
			macs += b.nx * b.ny
		}
	}
	if macs >= splitMACs && s.canSplit() {
		// one chunk per core: claimed from both ends, each core keeps
		// its rows (and their weights in its cache) step after step;
		// finer chunks cost cconv D=192 7 % (24.7 → 23.0 µs/step)
		k := min(runtime.GOMAXPROCS(0), chunkCount(macs, splitMACs/2))
		return runner{step: newSplitter(dotChunks(max(k, 2))...).run}, nil
	}
	// no lockstep chunks for products: a lane's rows in one pass over
	// the aligned weights was faster than chunks run lane by lane
	// (cconv D=192 batch 5 on one core: 168 → 148 µs/step), the
	// weights staying in L2 for the next lane either way
	return runner{step: func() { dotBlocks(d, w, whole, set) }, dot: &dotRun{d: d, w: w, bs: whole, set: set}}, nil
}

func (c *cpu) DotIncPES(ops []*ir.DotIncPES) error { return c.set(c.dotIncPESGroup(ops)) }

func (c *cpu) dotIncPESGroup(ops []*ir.DotIncPES) (runner, error) {
	s, m, d := c.s, c.s.model, c.ln.data
	op := ops[0]
	b, acts, e, alpha, err := m.pesLayout(op)
	if err != nil {
		return runner{}, err
	}
	set := op.Set
	// the kernel checks the updated weights for NaNs in its pass over
	// them (the step's check skips them: a second pass over the largest
	// signal of a learning model cost 40 % of its step)
	check := m.CheckNaN
	if check {
		s.selfChecked(op.A)
	}
	ln := c.ln
	rows := func(r0, r1 int) {
		x := d[b.x : b.x+b.nx]
		a, ev := d[acts.off:acts.off+acts.n], d[e.off:e.off+e.n]
		for i := r0; i < r1; i++ {
			row := d[b.a+i*b.nx : b.a+(i+1)*b.nx]
			dot, nan := vec.DotAxpy(row, x, a, alpha*ev[i])
			putAcc(d, b.y+i, bOff(b, i), set, dot)
			if nan && check {
				s.fail(s.nanError(ln, op.A, i*b.nx+vec.FirstNaN(row)))
			}
		}
	}
	if b.nx*b.ny >= splitMACs && b.ny > 1 && s.canSplit() {
		var chunks []func()
		for _, r := range ranges(b.ny, min(b.ny, chunkCount(b.nx*b.ny, splitMACs/2))) {
			chunks = append(chunks, func() { rows(r[0], r[1]) })
		}
		return runner{step: newSplitter(chunks...).run}, nil
	}
	return runner{step: func() { rows(0, b.ny) }}, nil
}

func (c *cpu) EnsembleReLU(ops []*ir.EnsembleReLU) error { return c.set(c.ensembleReLUGroup(ops)) }

func (c *cpu) ensembleReLUGroup(ops []*ir.EnsembleReLU) (runner, error) {
	s, ln, g, m, d := c.s, c.ln, c.g, c.s.model, c.ln.data
	if s.mm != nil {
		r, ok, err := s.hookedEnsembles(ln, g, ops)
		if err != nil || ok {
			return r, err
		}
	}
	ms, maxN, err := m.ensMembers(ops)
	if err != nil {
		return runner{}, err
	}
	amp := ops[0].Amplitude
	var ws []int
	for _, op := range ops {
		ws = append(ws, op.A, op.Bias)
		for _, dop := range op.Decoders {
			ws = append(ws, dop.A)
		}
	}
	w := s.weights(ln, ws...)
	pw, maxPad := s.packEnsembles(g, ops, ms, amp)
	maxN = max(maxN, maxPad)
	var parts []*ensPart
	run := func(ms []ensMember) func() {
		octs, rest := octetsOf(ms)
		p := &ensPart{d: d, w: w, pw: pw, octs: octs, rest: rest, scratch: make([]float64, maxN), amp: amp}
		parts = append(parts, p)
		return p.run
	}
	neuronsTotal := 0
	for _, mb := range ms {
		neuronsTotal += mb.n
	}
	if len(ms) > 1 && neuronsTotal >= splitNeurons && s.canSplit() {
		// ensembles write disjoint outputs (fuseEnsembles): two
		// halves of about equal work, two cores
		var chunks []func()
		for _, part := range splitEnsembles(ms, min(len(ms), chunkCount(neuronsTotal, splitNeurons/2))) {
			chunks = append(chunks, run(part))
		}
		return runner{step: newSplitter(chunks...).run}, nil
	}
	bytes := 0
	for _, mb := range ms {
		bytes += 8 * (ensWork(mb) + mb.n)
	}
	if k := min(len(ms), s.lockChunks(bytes)); k > 1 {
		var chunks []func()
		for _, part := range splitEnsembles(ms, k) {
			chunks = append(chunks, run(part))
		}
		r := lockRunner(chunks)
		r.ens = parts
		return r, nil
	}
	return runner{step: run(ms), ens: parts}, nil
}

func (c *cpu) SimNeurons(ops []*ir.SimNeurons) error { return c.set(c.simNeuronsGroup(ops)) }

func (c *cpu) simNeuronsGroup(ops []*ir.SimNeurons) (runner, error) {
	s, ln, g, m, d := c.s, c.ln, c.g, c.s.model, c.ln.data
	if len(ops) == 1 || !m.contiguousSlots(g) {
		return each(ops, func(o *ir.SimNeurons) (runner, error) { return s.neuronsOp(ln, o) })
	}
	first, last := ops[0], ops[len(ops)-1]
	span := func(k int) []float64 {
		a, b := m.sigs[opt.Slots(first)[k]], m.sigs[opt.Slots(last)[k]]
		return d[a.off : b.off+b.n : b.off+b.n]
	}
	J, out := span(0), span(1)
	st := neurons.State{Names: first.StateNames, Vars: make([][]float64, len(first.State))}
	for i := range first.State {
		st.Vars[i] = span(2 + i)
	}
	seed := laneSeed(first.Seed, ln)
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	nt, tag := first.Neuron, g.tag()
	lockK := s.lockChunks(8 * len(J) * (2 + len(st.Vars)))
	if (len(J) >= splitNeurons && s.canSplit()) || (lockK > 1 && len(ops) > 1) {
		// neurons are independent: chunks on two cores, or chunks
		// stepped lane after lane (only deterministic types merge,
		// so the rng is not drawn from)
		half := func(lo, hi int) func() {
			st2 := neurons.State{Names: st.Names, Vars: make([][]float64, len(st.Vars))}
			for i, v := range st.Vars {
				st2.Vars[i] = v[lo:hi:hi]
			}
			return s.neuronStep(nt, J[lo:hi:hi], out[lo:hi:hi], st2, rng, tag)
		}
		k := lockK
		if s.canSplit() {
			k = chunkCount(len(J), splitNeurons/2)
		}
		var chunks []func()
		for _, r := range ranges(len(J), k) {
			chunks = append(chunks, half(r[0], r[1]))
		}
		if !s.canSplit() {
			return lockRunner(chunks), nil
		}
		return runner{step: newSplitter(chunks...).run}, nil
	}
	return runner{step: s.neuronStep(nt, J, out, st, rng, tag)}, nil
}

func (c *cpu) SimSynapse(ops []*ir.SimSynapse) error { return c.set(c.simSynapseGroup(ops)) }

func (c *cpu) simSynapseGroup(ops []*ir.SimSynapse) (runner, error) {
	s, ln, g, m, d := c.s, c.ln, c.g, c.s.model, c.ln.data
	if len(ops) == 1 || !m.contiguousSlots(g) {
		return each(ops, func(o *ir.SimSynapse) (runner, error) { return s.synapseOp(ln, o) })
	}
	first, last := ops[0], ops[len(ops)-1]
	x0, x1 := m.sigs[first.X], m.sigs[last.X]
	y0, y1 := m.sigs[first.Y], m.sigs[last.Y]
	return s.filterRunner(first.Synapse, d[x0.off:x1.off+x1.n], d[y0.off:y1.off+y1.n], g.tag())
}

func (c *cpu) SparseDotInc(ops []*ir.SparseDotInc) error {
	return c.set(each(ops, func(o *ir.SparseDotInc) (runner, error) { return c.s.sparseOp(c.ln, o) }))
}

func (c *cpu) TimeUpdate(ops []*ir.TimeUpdate) error {
	return c.set(each(ops, func(o *ir.TimeUpdate) (runner, error) { return c.s.timeOp(c.ln, o) }))
}

func (c *cpu) SimProcess(ops []*ir.SimProcess) error {
	return c.set(each(ops, func(o *ir.SimProcess) (runner, error) { return c.s.processOp(c.ln, o) }))
}

func (c *cpu) SimNodeFunc(ops []*ir.SimNodeFunc) error {
	return c.set(each(ops, func(o *ir.SimNodeFunc) (runner, error) { return c.s.nodeFuncOp(c.ln, o) }))
}

func (c *cpu) SimLayer(ops []*ir.SimLayer) error {
	return c.set(each(ops, func(o *ir.SimLayer) (runner, error) { return c.s.layerOp(c.ln, o) }))
}

func (c *cpu) SimPES(ops []*ir.SimPES) error {
	return c.set(each(ops, func(o *ir.SimPES) (runner, error) { return c.s.pesOp(c.ln, o) }))
}

func (c *cpu) SimBCM(ops []*ir.SimBCM) error {
	return c.set(each(ops, func(o *ir.SimBCM) (runner, error) { return c.s.bcmOp(c.ln, o) }))
}

func (c *cpu) SimOja(ops []*ir.SimOja) error {
	return c.set(each(ops, func(o *ir.SimOja) (runner, error) { return c.s.ojaOp(c.ln, o) }))
}

func (c *cpu) SimVoja(ops []*ir.SimVoja) error {
	return c.set(each(ops, func(o *ir.SimVoja) (runner, error) { return c.s.vojaOp(c.ln, o) }))
}

func (c *cpu) SimRLS(ops []*ir.SimRLS) error {
	return c.set(each(ops, func(o *ir.SimRLS) (runner, error) { return c.s.rlsOp(c.ln, o) }))
}

func (c *cpu) SimCallback(ops []*ir.SimCallback) error {
	return c.set(each(ops, func(o *ir.SimCallback) (runner, error) { return c.s.callbackOp(c.ln, o) }))
}
