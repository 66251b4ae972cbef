package sim

import (
	"fmt"

	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/sim/ir"
)

// The merged-operator kernels of the optimizer's plan (opt.go). Every
// kernel does, element by element, the same floating-point operations in
// the same order as the operators it replaces (the float64 conversions
// keep the compiler from fusing a multiply and an add), so the output is
// identical with and without merging.

// run is a stretch of adjacent elements: dst[d+i] op= src[s+i] (and the
// weight a[a+i·aStep] for products), i < n.
type run struct{ a, aStep, s, d, n int }

// gather is the element map of a copy or an element-wise product:
// Y[YIdx[k]] op= (A[AIdx[k]] ·) X[XIdx[k]], nil lists meaning all
// elements in order (a = -1: no weights; scalarA: A broadcasts).
type gather struct {
	a, x, y          int
	aIdx, xIdx, yIdx []int
}

func copyGathers(ops []*ir.Copy) []gather {
	gs := make([]gather, len(ops))
	for i, o := range ops {
		gs[i] = gather{a: ir.None, x: o.X, y: o.Y, xIdx: o.XIdx, yIdx: o.YIdx}
	}
	return gs
}

func ewGathers(ops []*ir.ElementwiseInc) []gather {
	gs := make([]gather, len(ops))
	for i, o := range ops {
		gs[i] = gather{a: o.A, x: o.X, y: o.Y, aIdx: o.AIdx, xIdx: o.XIdx, yIdx: o.YIdx}
	}
	return gs
}

// elems lists, for a member of a copy or element-wise group, the
// absolute store offsets of every element it touches, in the operator's
// order.
func (m *Model) elems(op gather, visit func(a, x, y int)) {
	ys, xs := m.sigs[op.y], m.sigs[op.x]
	k := ys.n
	if op.yIdx != nil {
		k = len(op.yIdx)
	}
	scalarA := false
	aoff := 0
	if op.a >= 0 {
		as := m.sigs[op.a]
		aoff = as.off
		scalarA = as.n == 1
	}
	for j := range k {
		yi, xi, ai := j, j, j
		if op.yIdx != nil {
			yi = op.yIdx[j]
		}
		if op.xIdx != nil {
			xi = op.xIdx[j]
		}
		switch {
		case op.aIdx != nil:
			ai = op.aIdx[j]
		case scalarA:
			ai = 0
		}
		visit(aoff+ai, xs.off+xi, ys.off+yi)
	}
}

// runs compresses a group's elements into runs.
func (m *Model) runs(ops []gather, withA bool) []run {
	var rs []run
	for _, op := range ops {
		m.elems(op, func(a, x, y int) {
			if len(rs) > 0 {
				r := &rs[len(rs)-1]
				if r.s+r.n == x && r.d+r.n == y {
					if !withA {
						r.n++
						return
					}
					if r.n == 1 && (a == r.a || a == r.a+1) {
						r.aStep = a - r.a
						r.n++
						return
					}
					if r.a+r.n*r.aStep == a {
						r.n++
						return
					}
				}
			}
			rs = append(rs, run{a: a, s: x, d: y, n: 1})
		})
	}
	return rs
}

// block is one dot product of a DotInc group: y[0:ny] (+)= A[ny×nx]·x.
// With b ≥ 0 (and set) it is y = B + A·x, B at offset b.
type block struct {
	a, x, nx, y, ny, b int
	// pairs: the output overlaps neither the input nor the weights, so
	// two rows may be summed before either is written (vec.Dot2)
	pairs bool
	// dedup, if set, computes the block by its distinct rows (dedup.go);
	// it holds scratch, so a block with it belongs to one lane and chunk
	dedup *rowDedup
	// sums, if set (a pairs block without dedup), is scratch for its
	// rows' sums, computed by one vec.DotRows before they are written;
	// like dedup, it ties the block to one lane and chunk
	sums []float64
	// wa, if set, is the block's aligned weight copy (its distinct rows
	// with dedup) with row stride len(xs), and xs the aligned input
	// scratch (dedup.go)
	wa, xs []float64
}

// dotBlocksOf lays out a DotInc group's products as blocks of the store.
func (m *Model) dotBlocksOf(ops []*ir.DotInc) ([]block, error) {
	bs := make([]block, len(ops))
	for i, op := range ops {
		as, xs, ys := m.sigs[op.A], m.sigs[op.X], m.sigs[op.Y]
		if as.n != xs.n*ys.n {
			return nil, fmt.Errorf("sim: %s: weights have %d values, want %d×%d", op.Tag, as.n, ys.n, xs.n)
		}
		bs[i] = block{a: as.off, x: xs.off, nx: xs.n, y: ys.off, ny: ys.n, b: -1}
		if op.Bias >= 0 {
			bs[i].b = m.sigs[op.Bias].off
		}
	}
	return bs, nil
}

// withPairs sets b.pairs.
func (b block) withPairs() block {
	apart := func(p, n, q, m int) bool { return p+n <= q || q+m <= p }
	b.pairs = apart(b.y, b.ny, b.x, b.nx) && apart(b.y, b.ny, b.a, b.nx*b.ny)
	return b
}

// tag names a group in error messages: its first operator and how many
// are merged with it.
func (g *group) tag() string {
	if len(g.ops) == 1 {
		return g.ops[0].Info().Tag
	}
	return fmt.Sprintf("%s (and %d merged %s operators)", g.ops[0].Info().Tag, len(g.ops)-1, g.ops[0].Kind())
}

// dotRun is one lane's merged DotInc: its store, the weights' store,
// its blocks (with the lane's scratch) and whether it sets its outputs.
type dotRun struct {
	d, w []float64
	bs   []block
	set  bool
}

// dotLanes runs group gi's merged DotInc for lanes lns at once: a block
// with an aligned weight copy (shared by the lanes) is one matrix–matrix
// product (vec.DotRowsLanes, each lane's sums in Dot's order, so every
// lane's outputs equal its serial run's); other blocks run lane by lane.
// xs and outs are lns[0]'s scratch lists.
func dotLanes(lns []*lane, gi int) {
	vec.ClearUpper() // see stepLane
	r0 := lns[0].runners[gi].dot
	xs, outs := lns[0].xs[:0], lns[0].outs[:0]
	for bi, b := range r0.bs {
		if b.wa == nil {
			for _, ln := range lns {
				r := ln.runners[gi].dot
				dotBlocks(r.d, r.w, r.bs[bi:bi+1], r.set)
			}
			continue
		}
		xs, outs = xs[:0], outs[:0]
		for _, ln := range lns {
			r := ln.runners[gi].dot
			lb := r.bs[bi]
			copy(lb.xs, r.d[lb.x:lb.x+lb.nx])
			xs = append(xs, lb.xs)
			if lb.dedup != nil {
				outs = append(outs, lb.dedup.sums)
			} else {
				outs = append(outs, lb.sums)
			}
		}
		vec.DotRowsLanes(outs, b.wa, len(b.xs), xs)
		for _, ln := range lns {
			r := ln.runners[gi].dot
			lb := r.bs[bi]
			if lb.dedup != nil {
				putRows(r.d, lb, r.set, lb.dedup.sums, lb.dedup.of)
			} else {
				putRows(r.d, lb, r.set, lb.sums, nil)
			}
		}
	}
}

// dotBlocks runs the blocks of a merged DotInc.
func dotBlocks(d, w []float64, bs []block, set bool) {
	for _, b := range bs {
		y := d[b.y : b.y+b.ny]
		switch {
		case b.nx == 1:
			// an encoder column: y[i] (+)= A[i]·x (0 + p == p)
			a, xv := w[b.a:b.a+b.ny], d[b.x]
			if b.b >= 0 {
				vec.AxpyTo(y, d[b.b:b.b+b.ny], a, xv)
				continue
			}
			if set {
				vec.Scale(y, a, xv)
			} else {
				vec.Axpy(y, a, xv)
			}
		default:
			x := d[b.x : b.x+b.nx]
			a := w[b.a : b.a+b.ny*b.nx]
			put := func(i int, acc float64) { putAcc(d, b.y+i, bOff(b, i), set, acc) }
			if b.dedup != nil {
				dotDedup(d, w, b, set)
				continue
			}
			if b.sums != nil {
				if b.wa != nil {
					copy(b.xs, x)
					vec.DotRows(b.sums, b.wa, len(b.xs), nil, b.xs)
				} else {
					vec.DotRows(b.sums, a, b.nx, nil, x)
				}
				putRows(d, b, set, b.sums, nil)
				continue
			}
			i := 0
			if b.pairs {
				// four and two rows per pass over x (the same sums:
				// vec.Dot4, vec.Dot2)
				nx := b.nx
				for ; i+3 < b.ny; i += 4 {
					r := a[i*nx : (i+4)*nx]
					s0, s1, s2, s3 := vec.Dot4(r[:nx], r[nx:2*nx], r[2*nx:3*nx], r[3*nx:], x)
					put(i, s0)
					put(i+1, s1)
					put(i+2, s2)
					put(i+3, s3)
				}
				for ; i+1 < b.ny; i += 2 {
					s1, s2 := vec.Dot2(a[i*nx:(i+1)*nx], a[(i+1)*nx:(i+2)*nx], x)
					put(i, s1)
					put(i+1, s2)
				}
			}
			for ; i < b.ny; i++ {
				put(i, vec.Dot(a[i*b.nx:(i+1)*b.nx], x))
			}
		}
	}
}

// pesLayout returns a DotIncPES operator's decoder block, the PES
// activities and error signals, and the learning step α = −κ·dt/n.
func (m *Model) pesLayout(op *ir.DotIncPES) (block, signal, signal, float64, error) {
	as, xs, ys := m.sigs[op.A], m.sigs[op.X], m.sigs[op.Y]
	acts, e := m.sigs[op.Acts], m.sigs[op.Error]
	if as.n != xs.n*ys.n || as.n != e.n*acts.n {
		return block{}, acts, e, 0, fmt.Errorf("sim: %s: weights have %d values, want %d×%d", op.Tag, as.n, ys.n, xs.n)
	}
	b := block{a: as.off, x: xs.off, nx: xs.n, y: ys.off, ny: ys.n, b: -1}
	if op.Bias >= 0 {
		b.b = m.sigs[op.Bias].off
	}
	return b, acts, e, -op.LearningRate * m.Dt / float64(acts.n), nil
}

// ensMember is one ensemble of a merged EnsembleReLU group: its input x
// (nx values), encoders (n×nx) and bias, and its decoder blocks (inputs
// the ensemble's rates) with their set flags.
type ensMember struct {
	x, nx, enc, n, bias int
	decs                []block
	set                 []bool
	// pk, pad: the member's packed weights (pack.go) at w[pk:pk+4·pad],
	// pad = n rounded up to 16; pad is 0 when not packed
	pk, pad int
	// octN > 0 marks the first of eight consecutive members packed
	// together (an octet, vec.EnsOct) at w[pk:], octN neurons each (the
	// largest of the eight), with a second decoder row when octTwo; inOct
	// marks all eight (the split never cuts an octet)
	octN          int
	octTwo, inOct bool
	// rows lists the decoder rows one by one for one-dimensional
	// ensembles of at least two neurons (vec.EnsDot2's fused pass; a
	// one-neuron ensemble decodes through decodeInto's axpy form)
	rows []decRow
}

// ensMembers lays out an EnsembleReLU group's members and returns the
// largest ensemble (the scratch size).
func (m *Model) ensMembers(ops []*ir.EnsembleReLU) ([]ensMember, int, error) {
	var ms []ensMember
	maxN := 0
	for _, op := range ops {
		xs, bs := m.sigs[op.X], m.sigs[op.Bias]
		mb := ensMember{x: xs.off, nx: xs.n, enc: m.sigs[op.A].off, n: bs.n, bias: bs.off}
		if m.sigs[op.A].n != xs.n*bs.n {
			return nil, 0, fmt.Errorf("sim: %s: encoders have %d values, want %d×%d", op.Tag, m.sigs[op.A].n, bs.n, xs.n)
		}
		for _, dop := range op.Decoders {
			as, ys := m.sigs[dop.A], m.sigs[dop.Y]
			if as.n != ys.n*bs.n {
				return nil, 0, fmt.Errorf("sim: %s: decoders have %d values, want %d×%d", dop.Tag, as.n, ys.n, bs.n)
			}
			bl := block{a: as.off, nx: bs.n, y: ys.off, ny: ys.n, b: -1}
			if dop.Bias >= 0 {
				bl.b = m.sigs[dop.Bias].off
			}
			mb.decs = append(mb.decs, bl)
			mb.set = append(mb.set, dop.Set)
		}
		if mb.nx == 1 && mb.n >= 2 {
			for k, bl := range mb.decs {
				for r := range bl.ny {
					rw := decRow{a: bl.a + r*bl.nx, y: bl.y + r, b: -1, set: mb.set[k]}
					if bl.b >= 0 {
						rw.b = bl.b + r
					}
					mb.rows = append(mb.rows, rw)
				}
			}
		}
		maxN = max(maxN, bs.n)
		ms = append(ms, mb)
	}
	return ms, maxN, nil
}

// ensembles runs a fused EnsembleReLU group's members: per ensemble
// J = bias + E·x (as the encoder product computes it), a = amp·max(J, 0)
// (the neurons) in scratch, then its decoder products.
func ensembles(d, w, pw []float64, octs []octet, ms []ensMember, scratch []float64, amp float64) {
	for oi := range octs {
		octetStep(d, w, pw, &octs[oi], scratch, amp)
	}
	members(d, w, pw, ms, scratch, amp)
}

// ensPart is one lane's part of a merged EnsembleReLU (all of it, or a
// lockstep chunk): the arguments of ensembles.
type ensPart struct {
	d, w, pw []float64
	octs     []octet
	rest     []ensMember
	scratch  []float64
	amp      float64
}

func (p *ensPart) run() { ensembles(p.d, p.w, p.pw, p.octs, p.rest, p.scratch, p.amp) }

// ensLanes runs group gi's merged EnsembleReLU for lanes lns, part by
// part (the lockstep chunks): octets with amplitude 1 and one decoder
// row two lanes at a time (vec.EnsOct1Lanes2: both lanes share every
// load of the pack; each lane's sums are its own run's), the rest lane
// by lane.
func ensLanes(lns []*lane, gi int) {
	vec.ClearUpper() // see stepLane
	for c := range lns[0].runners[gi].ens {
		l := 0
		for ; l+1 < len(lns); l += 2 {
			ensembles2(lns[l].runners[gi].ens[c], lns[l+1].runners[gi].ens[c])
		}
		if l < len(lns) {
			lns[l].runners[gi].ens[c].run()
		}
	}
}

// ensembles2 is ensembles for two lanes' parts a and b of the same group.
func ensembles2(a, b *ensPart) {
	var xa, xb, sa, sb [8]float64
	for oi := range a.octs {
		oa, ob := &a.octs[oi], &b.octs[oi]
		if oa.two || a.amp != 1 || !oa.inputs(a.d, &xa) || !ob.inputs(b.d, &xb) {
			octetStep(a.d, a.w, a.pw, oa, a.scratch, a.amp)
			octetStep(b.d, b.w, b.pw, ob, b.scratch, b.amp)
			continue
		}
		vec.EnsOct1Lanes2(a.pw[oa.pk:], oa.n, &xa, &xb, &sa, &sb)
		oa.put(a.d, 0, &sa)
		ob.put(b.d, 0, &sb)
	}
	members(a.d, a.w, a.pw, a.rest, a.scratch, a.amp)
	members(b.d, b.w, b.pw, b.rest, b.scratch, b.amp)
}

// inputs reads the octet's eight inputs into xs and reports whether all
// are finite (v − v is 0 for a finite v and NaN otherwise: one test for
// all eight).
func (o *octet) inputs(d []float64, xs *[8]float64) bool {
	if o.xRun >= 0 {
		*xs = [8]float64(d[o.xRun : o.xRun+8])
	} else {
		for e, off := range o.x {
			xs[e] = d[off]
		}
	}
	return (xs[0]-xs[0])+(xs[1]-xs[1])+(xs[2]-xs[2])+(xs[3]-xs[3])+(xs[4]-xs[4])+(xs[5]-xs[5])+(xs[6]-xs[6])+(xs[7]-xs[7]) == 0
}

// octetStep runs one octet: eight ensembles side by side (pack.go), or
// one by one when an input is not finite.
func octetStep(d, w, pw []float64, o *octet, scratch []float64, amp float64) {
	var xs, s1, s2 [8]float64
	if !o.inputs(d, &xs) {
		members(d, w, pw, o.ms, scratch, amp) // unpacked path
		return
	}
	vec.EnsOct(pw[o.pk:], o.n, o.two, &xs, amp, &s1, &s2)
	o.put(d, 0, &s1)
	if o.two {
		o.put(d, 1, &s2)
	}
}

// members runs fused ensembles one by one.
func members(d, w, pw []float64, ms []ensMember, scratch []float64, amp float64) {
	for i := range ms {
		mb := &ms[i]
		x := d[mb.x : mb.x+mb.nx]
		if mb.pad > 0 && x[0]-x[0] == 0 {
			// packed, zero-padded weights (pack.go): whole blocks only
			p, np := pw[mb.pk:mb.pk+4*mb.pad], mb.pad
			var d2 []float64
			if len(mb.rows) > 1 {
				d2 = p[3*np:]
			}
			s1, s2 := vec.EnsDot2(scratch[:np], false, p[:np], p[np:2*np], x[0], amp, p[2*np:3*np], d2)
			mb.rows[0].put(d, s1)
			if len(mb.rows) > 1 {
				mb.rows[1].put(d, s2)
			}
			continue
		}
		a := scratch[:mb.n]
		enc, bias := w[mb.enc:mb.enc+mb.n*mb.nx], w[mb.bias:mb.bias+mb.n]
		if mb.nx == 1 && len(mb.rows) > 0 {
			// one pass: rates and the first two decoder rows
			r := mb.rows
			var d2 []float64
			if len(r) > 1 {
				d2 = w[r[1].a : r[1].a+mb.n]
			}
			s1, s2 := vec.EnsDot2(a, len(r) > 2, bias, enc, x[0], amp, w[r[0].a:r[0].a+mb.n], d2)
			r[0].put(d, s1)
			if len(r) > 1 {
				r[1].put(d, s2)
			}
			for k := 2; k < len(r); k++ {
				r[k].put(d, vec.Dot(w[r[k].a:r[k].a+mb.n], a))
			}
			continue
		}
		switch {
		case mb.nx == 1:
			vec.AxpyRelu(a, bias, enc, x[0], amp)
		case mb.nx == 2:
			// the value of vec.Dot for two terms: (+0 + p0) + p1
			x0, x1 := x[0], x[1]
			enc = enc[:2*len(a)]
			for i := range a {
				acc := 0.0
				acc += float64(enc[2*i] * x0)
				acc += float64(enc[2*i+1] * x1)
				a[i] = bias[i] + acc
			}
			vec.Relu(a, a, amp)
		default:
			for i := range a {
				a[i] = bias[i] + vec.Dot(enc[i*mb.nx:(i+1)*mb.nx], x)
			}
			vec.Relu(a, a, amp)
		}
		for k, bl := range mb.decs {
			decodeInto(d, w, bl, a, mb.set[k])
		}
	}
}

// decRow is one output of a fused ensemble's decoders: y = d[a:a+n]·rates,
// written as decodeInto writes a row: y = d[b] + acc with a bias, y = acc
// when set, y += acc otherwise.
type decRow struct {
	a, y, b int
	set     bool
}

func (r decRow) put(d []float64, acc float64) { putAcc(d, r.y, r.b, r.set, acc) }

// putAcc writes a decoder row's sum acc into d[y]: bias d[b] + acc when
// b ≥ 0, acc when set, d[y] + acc otherwise.
func putAcc(d []float64, y, b int, set bool, acc float64) {
	switch {
	case b >= 0:
		d[y] = d[b] + acc
	case set:
		d[y] = acc
	default:
		d[y] += acc
	}
}

// octet is what ensembles reads of eight members packed together
// (pack.go): compact, so a step touches one small record per octet
// instead of eight member records and their row lists.
type octet struct {
	pk, n int
	two   bool
	x     [8]int
	// out[e] writes member e's first decoder row, out[8+e] its second
	// (y < 0: none)
	out [16]octOut
	ms  []ensMember // the members, for the unpacked path (non-finite input)
	// xRun ≥ 0: the eight inputs are d[xRun:xRun+8] (an EnsembleArray's
	// input vector), read as one block; runs[k] describes row k's
	// outputs the same way (see octRun)
	xRun int
	runs [2]octRun
}

// octRun is a decoder row's eight outputs when they are adjacent and
// set (the decoders of an EnsembleArray's ensembles write the adjacent
// elements of their connections' signals): y = d[y0:y0+8], one block
// store (run false: written one by one).
type octRun struct {
	y0  int
	run bool
}

// octOut is a decRow without its weights.
type octOut struct {
	y, b int32
	set  bool
}

// put writes decoder row k's eight sums.
func (o *octet) put(d []float64, k int, s *[8]float64) {
	if r := o.runs[k]; r.run {
		*(*[8]float64)(d[r.y0 : r.y0+8]) = *s
		return
	}
	for e, v := range s {
		if w := o.out[8*k+e]; w.y >= 0 {
			w.put(d, v)
		}
	}
}

func (r octOut) put(d []float64, acc float64) { putAcc(d, int(r.y), int(r.b), r.set, acc) }

// octetsOf returns the octets that start in ms (a split part, which never
// cuts one) and the members outside them. Members write disjoint outputs
// (fuseEnsembles), so the order in which they run does not matter.
func octetsOf(ms []ensMember) ([]octet, []ensMember) {
	var octs []octet
	var rest []ensMember
	for i := 0; i < len(ms); i++ {
		mb := ms[i]
		if mb.octN == 0 || i+8 > len(ms) {
			rest = append(rest, mb)
			continue
		}
		o := octet{pk: mb.pk, n: mb.octN, two: mb.octTwo, ms: ms[i : i+8 : i+8]}
		for e, m := range o.ms {
			o.x[e] = m.x
			o.out[8+e].y = -1
			for k, r := range m.rows {
				o.out[8*k+e] = octOut{y: int32(r.y), b: int32(r.b), set: r.set}
			}
		}
		o.xRun = o.x[0]
		for e := range 8 {
			if o.x[e] != o.x[0]+e {
				o.xRun = -1
			}
		}
		for k := range 2 {
			r := o.out[8*k : 8*k+8]
			run := octRun{y0: int(r[0].y), run: true}
			for e, w := range r {
				if w.y < 0 || int(w.y) != run.y0+e || w.b >= 0 || !w.set {
					run.run = false
				}
			}
			o.runs[k] = run
		}
		octs = append(octs, o)
		i += 7
	}
	return octs, rest
}

// ensWork is a member's multiply-adds per step (encoders and decoders).
func ensWork(mb ensMember) int {
	w := mb.n * (mb.nx + 1)
	for _, bl := range mb.decs {
		w += bl.nx * bl.ny
	}
	return w
}

// splitEnsembles cuts a fused group's members into at most k non-empty
// lists (k ≤ len(ms)) of about equal work, never inside an octet.
func splitEnsembles(ms []ensMember, k int) [][]ensMember {
	total := 0
	for _, mb := range ms {
		total += ensWork(mb)
	}
	var parts [][]ensMember
	acc, start := 0, 0
	for i, mb := range ms {
		acc += ensWork(mb)
		p := len(parts)
		left := len(ms) - (i + 1) // members after this one
		cut := i+1 < len(ms) && !(ms[i+1].inOct && ms[i+1].octN == 0)
		if p < k-1 && cut && (acc >= total*(p+1)/k || left == k-1-p) && left >= k-1-p {
			parts = append(parts, ms[start:i+1:i+1])
			start = i + 1
		}
	}
	return append(parts, ms[start:])
}

// decodeInto runs one dot-product block whose input is the slice x (not
// a signal), with dotBlocks's arithmetic.
func decodeInto(d, w []float64, b block, x []float64, set bool) {
	y := d[b.y : b.y+b.ny]
	if b.nx == 1 {
		a, xv := w[b.a:b.a+b.ny], x[0]
		switch {
		case b.b >= 0:
			vec.AxpyTo(y, d[b.b:b.b+b.ny], a, xv)
		case set:
			vec.Scale(y, a, xv)
		default:
			vec.Axpy(y, a, xv)
		}
		return
	}
	a := w[b.a : b.a+b.ny*b.nx]
	for i := range y {
		putAcc(d, b.y+i, bOff(b, i), set, vec.Dot(a[i*b.nx:(i+1)*b.nx], x))
	}
}

// bOff is the store offset of row i's bias in block b (-1: none).
func bOff(b block, i int) int {
	if b.b < 0 {
		return -1
	}
	return b.b + i
}
