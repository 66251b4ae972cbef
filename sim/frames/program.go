package frames

import (
	"math"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// normEps is added to the mean square before the square root of the
// standard-deviation normalisations.
const normEps = 1e-5

// term is one summand a of factor f of a synapse-pool:
// W_f_a ⋆ upsample(P_f_a ⋆ y_src) (the statestream paper, appendix 6.1, pcu-ppp).
type term struct {
	src        int // source pool index
	cs, ws, hs int // source shape
	ppp        int // >0: 1×1 projection P (cs, ppp) first
	cin        int // features entering the main product (ppp or cs)
	pParam     int // parameter index of P (-1 if none)
	wParam     int // parameter index of W
	wfn        wfnKind
	dense      bool
	rf, dil    int
	upX, upY   int // upsampling factors (≥ 1)
	sX, sY     int // strides (≥ 1)
	wu, hu     int // upsampled source extent
	padT, padL int // "same" padding before (TensorFlow's rule)
	ident      bool
	k          int // inner dimension of the product
	seqNew     bool
	// pre-activation of the source state (statestream's pact): act(y − thresh)
	hasPact bool
	pact    actKind
	thresh  float64
}

type factor struct {
	act   actKind
	terms []term
	// bias b_f (statestream's bias_shapes) added before act: parameter
	// index (-1: none) and shape mode
	bias     int
	biasMode string
}

type spProg struct {
	idx int
	sp  *stream.SynapsePool
	act actKind
	// avgout, maxout ≥ 1: the factors have c = C·avgout·maxout features
	// (n = W·H·c per agent); groups of avgout consecutive features are
	// summed, then the maximum of groups of maxout is taken (statestream's
	// avgout / maxout), before ACT.
	avgout, maxout int
	c, n           int
	factors        []factor
	noise          string
	nA, nB         float64 // mean/std or min/max
	period, offset int
}

func (s *spProg) active(t int) bool { return t%s.period == s.offset }

// group partitions a pool's values for a normalisation: value (agent a,
// position p, feature c) belongs to group a·ka + p·kp + c·kc.
type group struct {
	ka, kp, kc int
	g          int       // groups per agent (ka > 0) or in all (ka = 0)
	cnt        []float64 // values per group
}

type stageKind int

const (
	stNoise stageKind = iota
	stMean
	stStd
	stGain
	stAct
	stBias
	stDropout
	stZoneout
)

type stage struct {
	kind  stageKind
	grp   *group
	param int // gain/bias parameter
	mode  string
}

// poolProg is how a neuron-pool computes frame t+1 (the statestream paper, appendix 6.1;
// statestream docs/neuron_pools.md): Σ post-synaptic inputs → noise →
// batch norm → layer norm → gain → activation → bias → dropout → zoneout.
type poolProg struct {
	idx            int
	np             *stream.NeuronPool
	c, w, h, n     int // features, width, height, n = C·W·H
	sps            []*spProg
	stages         []stage
	act            actKind
	batch          bool // a stage couples agents: not split into chunks
	period, offset int
	noise          string
	nA, nB         float64
	dropout        float64
	zoneout        float64
}

func (p *poolProg) active(t int) bool { return t%p.period == p.offset }

// tape holds one evaluation of a pool for all agents: the intermediate
// values its backward pass needs.
type tape struct {
	weff [][][]float64 // effective W per sp, factor, term
	ppp  [][][]float64 // P ⋆ y per term (nil without ppp)
	col  [][][]float64 // im2col matrices (nil for dense and identity terms)
	sum  [][][]float64 // per sp, factor: Σ_a terms
	fac  [][][]float64 // act_f(sum)
	prod [][]float64   // per sp: Π_f fac
	red  [][]float64   // per sp with avgout/maxout: the reduced product (ACT's input)
	post [][]float64   // per sp: ACT(prod) (+ noise)
	tmp  []float64
	pin  [][][]float64 // pre-activated source per term (nil without pact)
	pre  [][][]float64 // source − thresh per term (rollouts, thresh ≠ 0 only)
	gpin [][][]float64 // ∂L/∂pin per term (rollouts only)
	x    []float64     // Σ post (+ noise)
	outs [][]float64   // output of each stage
	mu   [][]float64   // per stage: group means / std
	mask [][]float64   // per stage: dropout multipliers, zoneout choices (1 = keep old)
	spOn []bool
	// backward scratch (rollouts only)
	g1, g2, gsum, gprod []float64
	gcol, gppp          [][][]float64 // gcol: views of one shared buffer
	gweff               [][][]float64
}

// scratch is backward-pass memory shared by all tapes of a rollout (their
// backward passes run one at a time).
type scratch struct {
	gcol, g1, g2, gsum, gprod []float64
}

// newTape allocates the buffers of one evaluation of p for agents. A
// rollout's tape (sh != nil) keeps every intermediate value for the
// backward pass; the Sim's (sh == nil) computes in place: each factor's
// activation overwrites its sum, the product and ACT the first factor,
// and every pool stage the summed input x.
func newTape(p *poolProg, s *Sim, agents int, sh *scratch) *tape {
	backward := sh != nil
	N := agents * p.n
	buf := func() []float64 { return make([]float64, N) }
	t := &tape{x: buf(), spOn: make([]bool, len(p.sps))}
	for _, sp := range p.sps {
		NS := agents * sp.n
		sbuf := func() []float64 { return make([]float64, NS) }
		var weff, ppp, col, sum, fac, gcol, gppp, gweff, pin, pre, gpin [][]float64
		for _, f := range sp.factors {
			if len(f.terms) > 1 && len(t.tmp) < NS {
				t.tmp = sbuf()
			}
			for _, tm := range f.terms {
				w := s.params[tm.wParam].data
				var e, pp, cl, gc, gp, gw []float64
				if tm.wfn != wfnId {
					e = make([]float64, len(w))
					if backward {
						gw = make([]float64, len(w))
					}
				}
				if tm.ppp > 0 {
					pp = make([]float64, agents*tm.ws*tm.hs*tm.ppp)
					if backward {
						gp = make([]float64, len(pp))
					}
				}
				if !tm.dense && !tm.ident && backward {
					// the Sim's tapes keep no column matrices: its jobs
					// use bounded scratch (Sim.scratch)
					cl = make([]float64, agents*p.w*p.h*tm.k)
					gc = sh.gcol[:len(cl)]
				}
				weff, ppp, col, gcol, gppp, gweff = append(weff, e), append(ppp, pp), append(col, cl), append(gcol, gc), append(gppp, gp), append(gweff, gw)
				var pi, pr, gpi []float64
				if tm.hasPact {
					pi = make([]float64, agents*tm.ws*tm.hs*tm.cs)
					if backward {
						gpi = make([]float64, len(pi))
						if tm.thresh != 0 {
							pr = make([]float64, len(pi))
						}
					}
				}
				pin, pre, gpin = append(pin, pi), append(pre, pr), append(gpin, gpi)
			}
			sm := sbuf()
			sum = append(sum, sm)
			if backward {
				fac = append(fac, sbuf())
			} else {
				fac = append(fac, sm)
			}
		}
		t.weff, t.ppp, t.col, t.sum, t.fac = append(t.weff, weff), append(t.ppp, ppp), append(t.col, col), append(t.sum, sum), append(t.fac, fac)
		t.gcol, t.gppp, t.gweff = append(t.gcol, gcol), append(t.gppp, gppp), append(t.gweff, gweff)
		t.pin, t.pre, t.gpin = append(t.pin, pin), append(t.pre, pre), append(t.gpin, gpin)
		reduced := sp.avgout*sp.maxout > 1
		var red []float64
		switch {
		case backward:
			t.prod = append(t.prod, sbuf())
			t.post = append(t.post, buf())
			if reduced {
				red = buf()
			}
		case reduced:
			t.prod = append(t.prod, fac[0])
			t.post = append(t.post, buf())
			red = t.post[len(t.post)-1]
		default:
			t.prod = append(t.prod, fac[0])
			t.post = append(t.post, fac[0])
		}
		t.red = append(t.red, red)
	}
	for _, st := range p.stages {
		if backward {
			t.outs = append(t.outs, buf())
		} else {
			t.outs = append(t.outs, t.x)
		}
		var mu, mask []float64
		switch st.kind {
		case stMean, stStd:
			g := st.grp.g
			if st.grp.ka > 0 {
				g *= agents
			}
			mu = make([]float64, g)
		case stDropout, stZoneout:
			mask = buf()
		}
		t.mu = append(t.mu, mu)
		t.mask = append(t.mask, mask)
	}
	if backward {
		NK := N
		for _, sp := range p.sps {
			NK = max(NK, agents*sp.n)
		}
		t.g1, t.g2, t.gsum, t.gprod = sh.g1[:N], sh.g2[:N], sh.gsum[:NK], sh.gprod[:NK]
	}
	return t
}

// env is what a pool evaluation reads: the states of frame t (cur) and,
// in sequential mode, those already written for frame t+1 (next).
type env struct {
	cur, next [][]float64
	seq       bool
	frame     int  // the transition frame → frame+1
	noisy     bool // noise, dropout, zoneout on
	seed      uint64
	mm        MatMul
	// aoff is the agent the views cur/next start at (a rollout chunk's
	// first agent): random numbers hash absolute element indices, so a
	// chunk draws what the whole batch draws for its agents.
	aoff int
}

func (e *env) src(tm *term) []float64 {
	if e.seq && tm.seqNew {
		return e.next[tm.src]
	}
	return e.cur[tm.src]
}

// prepare computes the effective weights (weight functions) and which
// synapse-pools are active in the step from frame into the tape; it runs
// before the pool's jobs (which share the tape) start.
func (p *poolProg) prepare(s *Sim, t *tape, frame int) {
	for i, sp := range p.sps {
		t.spOn[i] = sp.active(frame)
		j := 0
		for _, f := range sp.factors {
			for _, tm := range f.terms {
				if tm.wfn != wfnId {
					wfnForward(tm.wfn, s.params[tm.wParam].data, t.weff[i][j])
				}
				j++
			}
		}
	}
}

func (p *poolProg) weight(s *Sim, t *tape, i, j int, tm *term) []float64 {
	if tm.wfn != wfnId {
		return t.weff[i][j]
	}
	return s.params[tm.wParam].data
}

// forward computes the pool's frame-t+1 values for agents [a0, a1) into
// dst (a full-pool slice); old is the pool's frame-t state (zoneout).
// Stages that couple agents (batch norm) need a0 = 0, a1 = all agents.
func (p *poolProg) forward(s *Sim, t *tape, e *env, a0, a1 int, old, dst []float64, scratch []float64) {
	n := p.n
	lo, hi := a0*n, a1*n
	x := t.x[lo:hi]
	clear(x)
	for i, sp := range p.sps {
		if !t.spOn[i] {
			continue
		}
		slo, shi := a0*sp.n, a1*sp.n
		j := 0
		for fi := range sp.factors {
			f := &sp.factors[fi]
			sum := t.sum[i][fi][slo:shi]
			for ai := range f.terms {
				tm := &f.terms[ai]
				out := sum
				if ai > 0 {
					out = t.tmp[slo:shi]
				}
				p.termForward(s, t, e, i, j, tm, a0, a1, out, scratch)
				if ai > 0 {
					for k, v := range out {
						sum[k] += v
					}
				}
				j++
			}
			if f.bias >= 0 {
				b := s.params[f.bias].data
				for k := range sum {
					sum[k] += b[sp.modeIndex(f.biasMode, slo+k)]
				}
			}
			actForward(f.act, sum, t.fac[i][fi][slo:shi], sp.c)
		}
		prod := t.prod[i][slo:shi]
		copy(prod, t.fac[i][0][slo:shi])
		for fi := 1; fi < len(sp.factors); fi++ {
			for k, v := range t.fac[i][fi][slo:shi] {
				prod[k] *= v
			}
		}
		post := t.post[i][lo:hi]
		if t.red[i] != nil {
			red := t.red[i][lo:hi]
			sp.reduce(prod, red)
			prod = red
		}
		actForward(sp.act, prod, post, p.c)
		if e.noisy && sp.noise != "" {
			addNoise(post, sp.noise, sp.nA, sp.nB, e.seed, streamSPNoise, sp.idx, e.frame, e.aoff*n+lo)
		}
		for k, v := range post {
			x[k] += v
		}
	}
	in := x
	for si := range p.stages {
		st := &p.stages[si]
		out := t.outs[si][lo:hi]
		switch st.kind {
		case stNoise:
			copy(out, in)
			if e.noisy {
				addNoise(out, p.noise, p.nA, p.nB, e.seed, streamNoise, p.idx, e.frame, e.aoff*n+lo)
			}
		case stMean:
			mu := groupRange(st.grp, t.mu[si], a0, a1)
			clear(mu)
			p.eachGroup(st.grp, a0, a1, func(k, g int) { mu[g] += in[k-lo] })
			for g := range mu {
				mu[g] /= st.grp.cnt[g%len(st.grp.cnt)]
			}
			p.eachGroup(st.grp, a0, a1, func(k, g int) { out[k-lo] = in[k-lo] - mu[g] })
		case stStd:
			sd := groupRange(st.grp, t.mu[si], a0, a1)
			clear(sd)
			p.eachGroup(st.grp, a0, a1, func(k, g int) { v := in[k-lo]; sd[g] += v * v })
			for g := range sd {
				sd[g] = math.Sqrt(sd[g]/st.grp.cnt[g%len(st.grp.cnt)] + normEps)
			}
			p.eachGroup(st.grp, a0, a1, func(k, g int) { out[k-lo] = in[k-lo] / sd[g] })
		case stGain:
			par := s.params[st.param].data
			for k := range out {
				out[k] = in[k] * par[p.modeIndex(st.mode, lo+k)]
			}
		case stBias:
			par := s.params[st.param].data
			for k := range out {
				out[k] = in[k] + par[p.modeIndex(st.mode, lo+k)]
			}
		case stAct:
			actForward(p.act, in, out, p.c)
		case stDropout:
			m := t.mask[si][lo:hi]
			if e.noisy {
				keep := 1 - p.dropout
				for k := range m {
					if uniform01(e.seed, streamDropout, p.idx, e.frame, e.aoff*n+lo+k) < keep {
						m[k] = 1 / keep
					} else {
						m[k] = 0
					}
				}
			} else {
				for k := range m {
					m[k] = 1
				}
			}
			for k := range out {
				out[k] = in[k] * m[k]
			}
		case stZoneout:
			m := t.mask[si][lo:hi]
			for k := range m {
				m[k] = 0
				if e.noisy && old != nil && uniform01(e.seed, streamZoneout, p.idx, e.frame, e.aoff*n+lo+k) < p.zoneout {
					m[k] = 1
				}
			}
			for k := range out {
				if m[k] == 1 {
					out[k] = old[lo+k]
				} else {
					out[k] = in[k]
				}
			}
		}
		in = out
	}
	copy(dst[lo:hi], in)
}

func addNoise(v []float64, kind string, a, b float64, seed uint64, stream, item, frame, lo int) {
	switch kind {
	case "normal":
		for k := range v {
			v[k] += a + b*normal01(seed, stream, item, frame, lo+k)
		}
	case "uniform":
		for k := range v {
			v[k] += a + (b-a)*uniform01(seed, stream, item, frame, lo+k)
		}
	}
}

// groupRange returns the statistics of the groups agents [a0, a1) use.
func groupRange(g *group, all []float64, a0, a1 int) []float64 {
	if g.ka == 0 {
		return all
	}
	return all[a0*g.g : a1*g.g]
}

// eachGroup calls fn(k, g) for every value k (absolute index) of agents
// [a0, a1) with g its group relative to groupRange.
func (p *poolProg) eachGroup(gr *group, a0, a1 int, fn func(k, g int)) {
	k := a0 * p.n
	for a := a0; a < a1; a++ {
		base := 0
		if gr.ka > 0 {
			base = (a - a0) * gr.ka
		}
		for pos := 0; pos < p.w*p.h; pos++ {
			for c := 0; c < p.c; c++ {
				fn(k, base+pos*gr.kp+c*gr.kc)
				k++
			}
		}
	}
}

// modeIndex maps value k of the pool to its index in a bias/gain of the
// shape mode: feature [C], full [W,H,C], spatial [W,H], scalar [1].
func (p *poolProg) modeIndex(mode string, k int) int { return modeIndex(mode, k, p.n, p.c) }

// modeIndex maps value k of a layout of n values per agent (positions ×
// c features) to its index in a parameter of the shape mode: feature [c],
// full [n], spatial [n/c], scalar [1].
func modeIndex(mode string, k, n, c int) int {
	switch mode {
	case "full":
		return k % n
	case "spatial":
		return (k % n) / c
	case "scalar":
		return 0
	}
	return k % c
}

// termForward writes W ⋆ upsample(P ⋆ y) for agents [a0, a1) into out
// (that range of the target). Without a column matrix in the tape the
// convolution runs in groups of agents whose columns fit scratch.
func (p *poolProg) termForward(s *Sim, t *tape, e *env, i, j int, tm *term, a0, a1 int, out []float64, scratch []float64) {
	y := e.src(tm)
	na := a1 - a0
	srcN := tm.ws * tm.hs
	in := y[a0*srcN*tm.cs : a1*srcN*tm.cs]
	if tm.hasPact {
		lo, hi := a0*srcN*tm.cs, a1*srcN*tm.cs
		pin := t.pin[i][j][lo:hi]
		x := in
		if tm.thresh != 0 {
			pre := pin
			if t.pre[i][j] != nil {
				pre = t.pre[i][j][lo:hi]
			}
			for k, v := range in {
				pre[k] = v - tm.thresh
			}
			x = pre
		}
		actForward(tm.pact, x, pin, tm.cs)
		in = pin
	}
	if tm.ppp > 0 {
		pp := t.ppp[i][j][a0*srcN*tm.ppp : a1*srcN*tm.ppp]
		e.mm.MatMul(na*srcN, tm.ppp, tm.cs, in, s.params[tm.pParam].data, pp)
		in = pp
	}
	w := p.weight(s, t, i, j, tm)
	cout, nout := p.sps[i].c, p.sps[i].n
	switch {
	case tm.dense:
		e.mm.MatMul(na, nout, tm.k, in, w, out)
	case tm.ident:
		e.mm.MatMul(na*srcN, cout, tm.k, in, w, out)
	case t.col[i][j] != nil:
		rows := p.w * p.h
		col := t.col[i][j][a0*rows*tm.k : a1*rows*tm.k]
		im2col(tm, p.w, p.h, in, col, na)
		e.mm.MatMul(na*rows, cout, tm.k, col, w, out)
	default:
		rows := p.w * p.h
		per := rows * tm.k // column values per agent
		group := max(1, len(scratch)/per)
		inN := srcN * tm.cin
		for b0 := 0; b0 < na; b0 += group {
			nb := min(group, na-b0)
			col := scratch[:nb*per]
			im2col(tm, p.w, p.h, in[b0*inN:], col, nb)
			e.mm.MatMul(nb*rows, cout, tm.k, col, w, out[b0*rows*cout:(b0+nb)*rows*cout])
		}
	}
}

// im2col fills col (rows (agent, ox, oy), columns (kx, ky, c)) from the
// source in (agents × ws × hs × cin) read through the upsampling.
func im2col(tm *term, ow, oh int, in, col []float64, agents int) {
	cin := tm.cin
	k := 0
	for a := 0; a < agents; a++ {
		src := in[a*tm.ws*tm.hs*cin:]
		for ox := 0; ox < ow; ox++ {
			for oy := 0; oy < oh; oy++ {
				for kx := 0; kx < tm.rf; kx++ {
					ix := ox*tm.sX - tm.padT + kx*tm.dil
					for ky := 0; ky < tm.rf; ky++ {
						iy := oy*tm.sY - tm.padL + ky*tm.dil
						dst := col[k : k+cin]
						k += cin
						if ix < 0 || ix >= tm.wu || iy < 0 || iy >= tm.hu {
							clear(dst)
							continue
						}
						o := ((ix/tm.upX)*tm.hs + iy/tm.upY) * cin
						copy(dst, src[o:o+cin])
					}
				}
			}
		}
	}
}

// col2im adds the column gradient gcol back onto gin (the adjoint of
// im2col, including the upsampling's repetition).
func col2im(tm *term, ow, oh int, gcol, gin []float64, agents int) {
	cin := tm.cin
	k := 0
	for a := 0; a < agents; a++ {
		dst := gin[a*tm.ws*tm.hs*cin:]
		for ox := 0; ox < ow; ox++ {
			for oy := 0; oy < oh; oy++ {
				for kx := 0; kx < tm.rf; kx++ {
					ix := ox*tm.sX - tm.padT + kx*tm.dil
					for ky := 0; ky < tm.rf; ky++ {
						iy := oy*tm.sY - tm.padL + ky*tm.dil
						g := gcol[k : k+cin]
						k += cin
						if ix < 0 || ix >= tm.wu || iy < 0 || iy >= tm.hu {
							continue
						}
						o := ((ix/tm.upX)*tm.hs + iy/tm.upY) * cin
						d := dst[o : o+cin]
						for c, v := range g {
							d[c] += v
						}
					}
				}
			}
		}
	}
}

// grads is where a backward pass of one pool evaluation accumulates.
type grads struct {
	src   [][]float64 // ∂L/∂(frame-t state) by pool index (nil: not wanted)
	param [][]float64 // ∂L/∂param by parameter index (nil: not wanted)
}

// backward propagates gOut = ∂L/∂(new state) of the last forward (all
// agents) into the source states, old (zoneout) and the parameters.
// gOut is used as scratch.
func (p *poolProg) backward(s *Sim, t *tape, e *env, agents int, gOut, gOld []float64, gr *grads) {
	N := agents * p.n
	g := gOut[:N]
	for si := len(p.stages) - 1; si >= 0; si-- {
		st := &p.stages[si]
		var in []float64
		if si == 0 {
			in = t.x
		} else {
			in = t.outs[si-1]
		}
		out := t.outs[si]
		gin := t.g1
		if &gin[0] == &g[0] {
			gin = t.g2
		}
		switch st.kind {
		case stNoise:
			copy(gin, g)
		case stMean:
			// gin = g − mean_group(g)
			acc := t.gsum[:len(t.mu[si])]
			clear(acc)
			p.eachGroup(st.grp, 0, agents, func(k, gi int) { acc[gi] += g[k] })
			for gi := range acc {
				acc[gi] /= st.grp.cnt[gi%len(st.grp.cnt)]
			}
			p.eachGroup(st.grp, 0, agents, func(k, gi int) { gin[k] = g[k] - acc[gi] })
		case stStd:
			// y = x/sd, sd = sqrt(mean_group(x²) + ε):
			// gin = (g − y·mean_group(g·y)) / sd
			sd := t.mu[si]
			acc := t.gsum[:len(sd)]
			clear(acc)
			p.eachGroup(st.grp, 0, agents, func(k, gi int) { acc[gi] += g[k] * out[k] })
			for gi := range acc {
				acc[gi] /= st.grp.cnt[gi%len(st.grp.cnt)]
			}
			p.eachGroup(st.grp, 0, agents, func(k, gi int) { gin[k] = (g[k] - out[k]*acc[gi]) / sd[gi] })
		case stGain:
			par := s.params[st.param].data
			dp := gr.param[st.param]
			for k := range gin {
				idx := p.modeIndex(st.mode, k)
				gin[k] = g[k] * par[idx]
				if dp != nil {
					dp[idx] += g[k] * in[k]
				}
			}
		case stBias:
			dp := gr.param[st.param]
			copy(gin, g)
			if dp != nil {
				for k := range g {
					dp[p.modeIndex(st.mode, k)] += g[k]
				}
			}
		case stAct:
			actBackward(p.act, in, out, g, gin, p.c)
		case stDropout:
			m := t.mask[si]
			for k := range gin {
				gin[k] = g[k] * m[k]
			}
		case stZoneout:
			m := t.mask[si]
			for k := range gin {
				if m[k] == 1 {
					if gOld != nil {
						gOld[k] += g[k]
					}
					gin[k] = 0
				} else {
					gin[k] = g[k]
				}
			}
		}
		g = gin
	}
	// g = ∂L/∂x; every active sp's post receives it.
	for i, sp := range p.sps {
		if !t.spOn[i] {
			continue
		}
		NS := agents * sp.n
		gprod := t.gprod[:NS]
		if t.red[i] != nil {
			// through ACT into the reduced values, then back through the
			// reduction (t.gsum is free until the factors below)
			gred := t.gsum[:N]
			actBackward(sp.act, t.red[i], t.post[i], g, gred, p.c)
			sp.reduceBackward(t.prod[i], gred, gprod)
		} else {
			actBackward(sp.act, t.prod[i], t.post[i], g, gprod, p.c)
		}
		j := 0
		for fi := range sp.factors {
			f := &sp.factors[fi]
			gs := t.gsum[:NS]
			for k := range gs {
				v := gprod[k]
				for fj := range sp.factors {
					if fj != fi {
						v *= t.fac[i][fj][k]
					}
				}
				gs[k] = v
			}
			// through act_f (in place is safe: actBackward reads dout[k] before writing din[k])
			actBackwardInPlace(f.act, t.sum[i][fi], t.fac[i][fi], gs, sp.c)
			if f.bias >= 0 {
				if db := gr.param[f.bias]; db != nil {
					for k, v := range gs {
						db[sp.modeIndex(f.biasMode, k)] += v
					}
				}
			}
			for ai := range f.terms {
				p.termBackward(s, t, e, i, j, &f.terms[ai], agents, gs, gr)
				j++
			}
		}
	}
}

// actBackwardInPlace computes din = act'·dout into dout itself.
func actBackwardInPlace(k actKind, in, out, g []float64, c int) {
	actBackward(k, in, out, g, g, c)
}

// termBackward accumulates the gradients of one term given gs = ∂L/∂out.
func (p *poolProg) termBackward(s *Sim, t *tape, e *env, i, j int, tm *term, agents int, gs []float64, gr *grads) {
	y := e.src(tm)
	srcN := tm.ws * tm.hs
	gsrcState := gr.src[tm.src]
	var pactIn []float64 // the pre-activation's input (with pact)
	if tm.hasPact {
		// the term reads act(y − thresh): work on that, then chain into y
		pactIn = y[:agents*srcN*tm.cs]
		if tm.thresh != 0 {
			pactIn = t.pre[i][j]
		}
		y = t.pin[i][j]
		if gsrcState != nil {
			clear(t.gpin[i][j])
		}
	}
	in := y[:agents*srcN*tm.cs]
	if tm.ppp > 0 {
		in = t.ppp[i][j]
	}
	w := p.weight(s, t, i, j, tm)
	cout, nout := p.sps[i].c, p.sps[i].n
	dw := gr.param[tm.wParam]
	if dw != nil && tm.wfn != wfnId {
		clear(t.gweff[i][j])
		dwEff := t.gweff[i][j]
		defer wfnBackward(tm.wfn, s.params[tm.wParam].data, t.weff[i][j], dwEff, dw)
		dw = dwEff
	}
	gsrc := gsrcState
	if tm.hasPact && gsrc != nil {
		gsrc = t.gpin[i][j]
	}
	var gin []float64 // gradient wrt in (nil: not wanted)
	if tm.ppp > 0 {
		if gsrc != nil || gr.param[tm.pParam] != nil {
			gin = t.gppp[i][j]
			clear(gin)
		}
	} else {
		gin = gsrc
	}
	switch {
	case tm.dense:
		if dw != nil {
			gemm(true, false, tm.k, nout, agents, 1, in, tm.k, gs, nout, 1, dw, nout)
		}
		if gin != nil {
			gemm(false, true, agents, tm.k, nout, 1, gs, nout, w, nout, 1, gin, tm.k)
		}
	case tm.ident:
		rows := agents * srcN
		if dw != nil {
			gemm(true, false, tm.k, cout, rows, 1, in, tm.k, gs, cout, 1, dw, cout)
		}
		if gin != nil {
			gemm(false, true, rows, tm.k, cout, 1, gs, cout, w, cout, 1, gin, tm.k)
		}
	default:
		rows := agents * p.w * p.h
		col := t.col[i][j]
		if dw != nil {
			gemm(true, false, tm.k, cout, rows, 1, col, tm.k, gs, cout, 1, dw, cout)
		}
		if gin != nil {
			gc := t.gcol[i][j]
			gemm(false, true, rows, tm.k, cout, 1, gs, cout, w, cout, 0, gc, tm.k)
			col2im(tm, p.w, p.h, gc, gin, agents)
		}
	}
	if tm.ppp > 0 && gin != nil {
		rows := agents * srcN
		if dp := gr.param[tm.pParam]; dp != nil {
			gemm(true, false, tm.cs, tm.ppp, rows, 1, y, tm.cs, gin, tm.ppp, 1, dp, tm.ppp)
		}
		if gsrc != nil {
			gemm(false, true, rows, tm.cs, tm.ppp, 1, gin, tm.ppp, s.params[tm.pParam].data, tm.ppp, 1, gsrc, tm.cs)
		}
	}
	if tm.hasPact && gsrcState != nil {
		gp := t.gpin[i][j]
		actBackward(tm.pact, pactIn, y, gp, gp, tm.cs)
		for k, v := range gp {
			gsrcState[k] += v
		}
	}
}

// modeIndex maps value k of the synapse-pool's factor layout (agents ×
// positions × c) to its index in a factor bias of the shape mode (as
// poolProg.modeIndex).
func (sp *spProg) modeIndex(mode string, k int) int { return modeIndex(mode, k, sp.n, sp.c) }

// reduce applies avgout then maxout to in (agents × positions × c values,
// c = C·avgout·maxout) into out (C per position): feature r of the
// avgout result is the sum of in's features r·avgout … r·avgout+avgout−1,
// feature q of out the maximum of that result's q·maxout … q·maxout+maxout−1
// (statestream sums, it does not average).
func (sp *spProg) reduce(in, out []float64) {
	ka, km := sp.avgout, sp.maxout
	C := sp.c / (ka * km)
	for b, o := 0, 0; b+sp.c <= len(in); b, o = b+sp.c, o+C {
		x := in[b : b+sp.c]
		for q := range C {
			best := 0.0
			for jm := range km {
				v := 0.0
				for _, y := range x[(q*km+jm)*ka : (q*km+jm+1)*ka] {
					v += y
				}
				if jm == 0 || v > best {
					best = v
				}
			}
			out[o+q] = best
		}
	}
}

// reduceBackward writes ∂L/∂in into gin given gout = ∂L/∂out: every
// summand of a group gets its group's gradient; of the maxout candidates
// only the first largest does.
func (sp *spProg) reduceBackward(in, gout, gin []float64) {
	ka, km := sp.avgout, sp.maxout
	C := sp.c / (ka * km)
	clear(gin)
	for b, o := 0, 0; b+sp.c <= len(in); b, o = b+sp.c, o+C {
		x := in[b : b+sp.c]
		for q := range C {
			best, arg := 0.0, 0
			for jm := range km {
				v := 0.0
				for _, y := range x[(q*km+jm)*ka : (q*km+jm+1)*ka] {
					v += y
				}
				if jm == 0 || v > best {
					best, arg = v, jm
				}
			}
			g := gin[b+(q*km+arg)*ka : b+(q*km+arg+1)*ka]
			for k := range g {
				g[k] = gout[o+q]
			}
		}
	}
}
