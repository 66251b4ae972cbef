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
	pact    activation
	thresh  float64
	// out is the shape of the term's result (statestream's target_shapes):
	// the factor's, or smaller and repeated into it (bcast)
	out   shape
	bcast bool
	// wPer, pPer > 0: W (P) is unshared, wPer (pPer) values per agent
	wPer, pPer int
}

// shape is a layout of per-agent values: p positions × c features
// (statestream's full [C, W, H], feature [C, 1, 1], spatial [1, W, H],
// scalar [1, 1, 1] as p = W·H or 1, c = C or 1).
type shape struct{ p, c int }

func (m shape) n() int { return m.p * m.c }

// at is the index in m of position pos and feature feat of a layout m
// repeats into (a dimension of extent 1 is repeated).
func (m shape) at(pos, feat int) int {
	if m.p == 1 {
		pos = 0
	}
	if m.c == 1 {
		feat = 0
	}
	return pos*m.c + feat
}

// bcastAdd adds src (agents × values of shape sm) into dst (agents ×
// values of shape dm ⊇ sm), repeating src over the dimensions it lacks.
func bcastAdd(dm, sm shape, agents int, src, dst []float64) {
	dn, sn := dm.n(), sm.n()
	for a := 0; a < agents; a++ {
		d, s := dst[a*dn:(a+1)*dn], src[a*sn:(a+1)*sn]
		for pos := 0; pos < dm.p; pos++ {
			for c := 0; c < dm.c; c++ {
				d[pos*dm.c+c] += s[sm.at(pos, c)]
			}
		}
	}
}

// bcastReduce adds src (agents × values of shape sm) into dst (agents ×
// values of shape dm ⊆ sm): the adjoint of bcastAdd.
func bcastReduce(dm, sm shape, agents int, src, dst []float64) {
	dn, sn := dm.n(), sm.n()
	for a := 0; a < agents; a++ {
		d, s := dst[a*dn:(a+1)*dn], src[a*sn:(a+1)*sn]
		for pos := 0; pos < sm.p; pos++ {
			for c := 0; c < sm.c; c++ {
				d[dm.at(pos, c)] += s[pos*sm.c+c]
			}
		}
	}
}

// biasIndex is the index of position pos and feature feat (of c
// features) in a bias of shape mode mode: feature [c], full [positions,
// c], spatial [positions], scalar [1].
func biasIndex(mode string, pos, feat, c int) int {
	switch mode {
	case "full":
		return pos*c + feat
	case "spatial":
		return pos
	case "scalar":
		return 0
	}
	return feat
}

type factor struct {
	act   activation
	terms []term
	// bias b_f (statestream's bias_shapes) added before act: parameter
	// index (-1: none), shape mode and, unshared, values per agent
	bias     int
	biasMode string
	bPer     int
	// m is the factor's shape (statestream's factor_shapes)
	m shape
}

// biasAt returns the index in the factor bias of value k of a factor
// buffer whose agent 0 is agent aoff.
func (f *factor) biasAt(k, aoff int) int {
	n := f.m.n()
	r := k % n
	i := biasIndex(f.biasMode, r/f.m.c, r%f.m.c, f.m.c)
	if f.bPer > 0 {
		i += (aoff + k/n) * f.bPer
	}
	return i
}

type spProg struct {
	idx int
	sp  *stream.SynapsePool
	act activation
	// avgout, maxout ≥ 1: the factors have c = C·avgout·maxout features
	// (n = W·H·c per agent); groups of avgout consecutive features are
	// summed, then the maximum of groups of maxout is taken (statestream's
	// avgout / maxout), before ACT.
	avgout, maxout int
	c, n           int
	factors        []factor
	// full: every factor and term has the target's full shape (the
	// product is computed in place in the first factor)
	full           bool
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
	per   int // > 0: the parameter is unshared, per values per agent
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
	act            activation
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
	gterm               []float64     // ∂L/∂(a term repeated into its factor)
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
			need := 0
			if len(f.terms) > 1 {
				need = agents * f.m.n()
			}
			for _, tm := range f.terms {
				if tm.bcast {
					need = max(need, agents*tm.out.n())
					if backward && len(t.gterm) < agents*tm.out.n() {
						t.gterm = make([]float64, agents*tm.out.n())
					}
				}
			}
			if len(t.tmp) < need {
				t.tmp = make([]float64, need)
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
			sm := make([]float64, agents*f.m.n())
			sum = append(sum, sm)
			if backward {
				fac = append(fac, make([]float64, agents*f.m.n()))
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
		case !sp.full:
			// factors of other shapes: the product needs its own buffer
			pr := sbuf()
			t.prod = append(t.prod, pr)
			t.post = append(t.post, pr)
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
			fn := f.m.n()
			flo, fhi := a0*fn, a1*fn
			sum := t.sum[i][fi][flo:fhi]
			for ai := range f.terms {
				tm := &f.terms[ai]
				if tm.bcast {
					// a smaller result repeated into the factor
					tn := tm.out.n()
					out := t.tmp[a0*tn : a1*tn]
					p.termForward(s, t, e, i, j, tm, a0, a1, out, scratch)
					if ai == 0 {
						clear(sum)
					}
					bcastAdd(f.m, tm.out, a1-a0, out, sum)
					j++
					continue
				}
				out := sum
				if ai > 0 {
					out = t.tmp[flo:fhi]
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
					sum[k] += b[f.biasAt(flo+k, e.aoff)]
				}
			}
			f.act.forward(sum, t.fac[i][fi][flo:fhi], f.m.c)
		}
		prod := t.prod[i][slo:shi]
		if sp.full {
			copy(prod, t.fac[i][0][slo:shi])
			for fi := 1; fi < len(sp.factors); fi++ {
				for k, v := range t.fac[i][fi][slo:shi] {
					prod[k] *= v
				}
			}
		} else {
			// each factor repeated over the dimensions it lacks
			for k := range prod {
				a, r := a0+k/sp.n, k%sp.n
				pos, c := r/sp.c, r%sp.c
				v := 1.0
				for fi := range sp.factors {
					f := &sp.factors[fi]
					v *= t.fac[i][fi][a*f.m.n()+f.m.at(pos, c)]
				}
				prod[k] = v
			}
		}
		post := t.post[i][lo:hi]
		if t.red[i] != nil {
			red := t.red[i][lo:hi]
			sp.reduce(prod, red)
			prod = red
		}
		sp.act.forward(prod, post, p.c)
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
				out[k] = in[k] * par[p.paramAt(st, lo+k, e.aoff)]
			}
		case stBias:
			par := s.params[st.param].data
			for k := range out {
				out[k] = in[k] + par[p.paramAt(st, lo+k, e.aoff)]
			}
		case stAct:
			p.act.forward(in, out, p.c)
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

// paramAt maps value k of the pool (agent 0 of the buffer being agent
// aoff) to its index in the gain or bias of stage st (unshared: that
// agent's slice).
func (p *poolProg) paramAt(st *stage, k, aoff int) int {
	i := p.modeIndex(st.mode, k)
	if st.per > 0 {
		i += (aoff + k/p.n) * st.per
	}
	return i
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
		tm.pact.forward(x, pin, tm.cs)
		in = pin
	}
	if tm.ppp > 0 {
		pp := t.ppp[i][j][a0*srcN*tm.ppp : a1*srcN*tm.ppp]
		mulAgents(e.mm, na, srcN, tm.ppp, tm.cs, in, s.params[tm.pParam].data, pp, tm.pPer, e.aoff+a0)
		in = pp
	}
	w := p.weight(s, t, i, j, tm)
	cout, nout := tm.out.c, tm.out.n()
	switch {
	case tm.dense:
		mulAgents(e.mm, na, 1, nout, tm.k, in, w, out, tm.wPer, e.aoff+a0)
	case tm.ident:
		mulAgents(e.mm, na, srcN, cout, tm.k, in, w, out, tm.wPer, e.aoff+a0)
	case t.col[i][j] != nil:
		rows := p.w * p.h
		col := t.col[i][j][a0*rows*tm.k : a1*rows*tm.k]
		im2col(tm, p.w, p.h, in, col, na)
		mulAgents(e.mm, na, rows, cout, tm.k, col, w, out, tm.wPer, e.aoff+a0)
	default:
		rows := p.w * p.h
		per := rows * tm.k // column values per agent
		group := max(1, len(scratch)/per)
		inN := srcN * tm.cin
		for b0 := 0; b0 < na; b0 += group {
			nb := min(group, na-b0)
			col := scratch[:nb*per]
			im2col(tm, p.w, p.h, in[b0*inN:], col, nb)
			mulAgents(e.mm, nb, rows, cout, tm.k, col, w, out[b0*rows*cout:(b0+nb)*rows*cout], tm.wPer, e.aoff+a0+b0)
		}
	}
}

// mulAgents computes, for agents agents of rows rows each, out = in·w
// (in: agents·rows × k, w: k × n, out: agents·rows × n) in one product;
// with per > 0 (an unshared w) agent a uses its own w, values
// (a0+a)·per … (a0+a+1)·per of w, a0 being the absolute index of the
// first agent.
func mulAgents(mm MatMul, agents, rows, n, k int, in, w, out []float64, per, a0 int) {
	if per == 0 {
		mm.MatMul(agents*rows, n, k, in[:agents*rows*k], w, out[:agents*rows*n])
		return
	}
	for a := 0; a < agents; a++ {
		wa := w[(a0+a)*per : (a0+a+1)*per]
		mm.MatMul(rows, n, k, in[a*rows*k:(a+1)*rows*k], wa, out[a*rows*n:(a+1)*rows*n])
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
				idx := p.paramAt(st, k, e.aoff)
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
					dp[p.paramAt(st, k, e.aoff)] += g[k]
				}
			}
		case stAct:
			p.act.backward(in, out, g, gin, p.c)
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
			sp.act.backward(t.red[i], t.post[i], g, gred, p.c)
			sp.reduceBackward(t.prod[i], gred, gprod)
		} else {
			sp.act.backward(t.prod[i], t.post[i], g, gprod, p.c)
		}
		j := 0
		for fi := range sp.factors {
			f := &sp.factors[fi]
			gs := t.gsum[:agents*f.m.n()]
			if sp.full {
				for k := range gs {
					v := gprod[k]
					for fj := range sp.factors {
						if fj != fi {
							v *= t.fac[i][fj][k]
						}
					}
					gs[k] = v
				}
			} else {
				// the adjoint of repeating each factor into the product
				clear(gs)
				for k, gp := range gprod {
					a, r := k/sp.n, k%sp.n
					pos, c := r/sp.c, r%sp.c
					v := gp
					for fj := range sp.factors {
						if fj != fi {
							o := &sp.factors[fj]
							v *= t.fac[i][fj][a*o.m.n()+o.m.at(pos, c)]
						}
					}
					gs[a*f.m.n()+f.m.at(pos, c)] += v
				}
			}
			// through act_f (in place is safe: backward reads dout[k] before writing din[k])
			f.act.backward(t.sum[i][fi], t.fac[i][fi], gs, gs, f.m.c)
			if f.bias >= 0 {
				if db := gr.param[f.bias]; db != nil {
					for k, v := range gs {
						db[f.biasAt(k, e.aoff)] += v
					}
				}
			}
			for ai := range f.terms {
				tm := &f.terms[ai]
				if tm.bcast {
					gt := t.gterm[:agents*tm.out.n()]
					clear(gt)
					bcastReduce(tm.out, f.m, agents, gs, gt)
					p.termBackward(s, t, e, i, j, tm, agents, gt, gr)
				} else {
					p.termBackward(s, t, e, i, j, tm, agents, gs, gr)
				}
				j++
			}
		}
	}
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
	cout, nout := tm.out.c, tm.out.n()
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
		backAgents(agents, 1, nout, tm.k, in, w, gs, dw, gin, tm.wPer, e.aoff, 1)
	case tm.ident:
		backAgents(agents, srcN, cout, tm.k, in, w, gs, dw, gin, tm.wPer, e.aoff, 1)
	default:
		col := t.col[i][j]
		var gc []float64
		if gin != nil {
			gc = t.gcol[i][j]
		}
		backAgents(agents, p.w*p.h, cout, tm.k, col, w, gs, dw, gc, tm.wPer, e.aoff, 0)
		if gin != nil {
			col2im(tm, p.w, p.h, gc, gin, agents)
		}
	}
	if tm.ppp > 0 && gin != nil {
		backAgents(agents, srcN, tm.ppp, tm.cs, y[:agents*srcN*tm.cs], s.params[tm.pParam].data, gin, gr.param[tm.pParam], gsrc, tm.pPer, e.aoff, 1)
	}
	if tm.hasPact && gsrcState != nil {
		gp := t.gpin[i][j]
		tm.pact.backward(pactIn, y, gp, gp, tm.cs)
		for k, v := range gp {
			gsrcState[k] += v
		}
	}
}

// backAgents is the backward pass of mulAgents given g = ∂L/∂out:
// dw += inᵀ·g (nil: not wanted) and gin = β·gin + g·wᵀ (nil: not wanted),
// per agent with its own slice of w and dw when per > 0 (a0: the absolute
// index of the first agent).
func backAgents(agents, rows, n, k int, in, w, g, dw, gin []float64, per, a0 int, beta float64) {
	if per == 0 {
		m := agents * rows
		if dw != nil {
			gemm(true, false, k, n, m, 1, in, k, g, n, 1, dw, n)
		}
		if gin != nil {
			gemm(false, true, m, k, n, 1, g, n, w, n, beta, gin, k)
		}
		return
	}
	for a := 0; a < agents; a++ {
		ia, ga := in[a*rows*k:(a+1)*rows*k], g[a*rows*n:(a+1)*rows*n]
		wa := w[(a0+a)*per : (a0+a+1)*per]
		if dw != nil {
			gemm(true, false, k, n, rows, 1, ia, k, ga, n, 1, dw[(a0+a)*per:(a0+a+1)*per], n)
		}
		if gin != nil {
			gemm(false, true, rows, k, n, 1, ga, n, wa, n, beta, gin[a*rows*k:(a+1)*rows*k], k)
		}
	}
}

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
