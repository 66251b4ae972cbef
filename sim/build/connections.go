package build

import (
	"errors"
	"fmt"
	"math"

	"github.com/neurogo/neurogo/interrupt"
	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/dists"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"gonum.org/v1/gonum/mat"
)

// decoders solves for the decoders of a decoded connection from ensemble
// e (Nengo's build_decoders): activities at the eval points, targets
// f(eval points[slice]); returns weights = transform·decodersᵀ.
func (b *builder) decode(o string, e *toolkit.Ensemble, preIdx []int, fn toolkit.Function, solver solvers.Solver,
	tr toolkit.Transform, cp *ConnectionParams, seed int64, cn *toolkit.Connection) error {
	if tr.Sparse != nil {
		// Nengo's build_sparse raises a BuildError for decoded connections.
		return objErr(o, "Transform", "Sparse", "cannot be applied to a decoded connection (from an Ensemble), as in Nengo", nil)
	}
	es := b.ens[e]
	p := es.p
	d, n := e.Dims, e.N
	ep := p.EvalPoints
	if cp.EvalPoints != nil {
		ep = cp.EvalPoints
	}
	m := len(ep) / d
	var fixed [][]float64 // Connection.Targets
	if cn != nil && cn.Targets != nil {
		if len(cn.Targets) != m {
			return objErr(o, "Targets", len(cn.Targets), fmt.Sprintf("must have one row per eval point (%d)", m), nil)
		}
		fixed = cn.Targets
	}
	// targets
	var targets []float64
	dmid := -1
	pt := make([]float64, 0, d)
	for i := range m {
		row := ep[i*d : (i+1)*d]
		pt = pt[:0]
		if preIdx == nil {
			pt = append(pt, row...)
		} else {
			for _, k := range preIdx {
				pt = append(pt, row[k])
			}
		}
		y := pt
		if fn != nil {
			y = fn(append([]float64(nil), pt...))
		}
		if fixed != nil {
			y = fixed[i]
		}
		if dmid < 0 {
			dmid = len(y)
			if dmid == 0 {
				return objErr(o, "Function", "[]", "must return at least one value", nil)
			}
		} else if len(y) != dmid {
			return objErr(o, "Function", len(y), fmt.Sprintf("returned a different size than at the first eval point (%d)", dmid), nil)
		}
		for _, v := range y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return objErr(o, "Function", v, fmt.Sprintf("returned a non-finite value at eval point %d", i), nil)
			}
		}
		targets = append(targets, y...)
	}
	if m == 0 {
		return objErr(o, "EvalPoints", 0, "need at least one eval point", nil)
	}
	cp.EvalPoints, cp.EvalDims = append([]float64(nil), ep...), d
	cp.Targets = targets
	// activities A = rates(eval_points · (encodersᵀ / radius), gain, bias),
	// m×n, produced in row blocks: a BlockSolver (LstsqL2, LstsqL2nz)
	// folds each block into AᵀA and never holds A; other solvers get A
	// materialised, but never next to the m×n currents.
	src := newActivities(e, p, ep, m)
	Y := mat.NewDense(m, dmid, targets) // shares targets (cp.Targets)
	var X *mat.Dense
	var err error
	if bs, ok := solver.(solvers.BlockSolver); ok {
		X, err = bs.SolveBlocks(src, Y) // n×dmid
	} else {
		A := mat.NewDense(m, n, nil)
		if err = src.Rows(A.RawMatrix().Data, 0, m); err == nil {
			X, err = solver.Solve(A, Y)
		}
	}
	if errors.Is(err, interrupt.ErrInterrupted) {
		return fmt.Errorf("sim: Build: %s: %w", o, err)
	}
	if src.rerr != nil {
		return objErr(o, "activities", e.NeuronType.Name(), "rates failed", src.rerr)
	}
	if src.done >= m && !src.nonzero { // all rows seen (a BlockSolver reads them twice)
		// Nengo's builder refuses this too (BuildError in build_decoders).
		return objErr(o, "activities", fmt.Sprintf("all zero at %d eval points", m),
			fmt.Sprintf("no evaluation point falls in the firing range of any neuron of Ensemble %q (check its intercepts, gains and biases, radius and eval points)", e.Label), nil)
	}
	if err != nil {
		return objErr(o, "Solver", solver.Name(), "solve failed", err)
	}
	// weights = transform · decodersᵀ
	if tr.Matrix == nil {
		cp.Rows, cp.Cols = dmid, n
		cp.Weights = make([]float64, dmid*n)
		for i := range dmid {
			for j := range n {
				cp.Weights[i*n+j] = tr.Scalar * X.At(j, i)
			}
		}
		return nil
	}
	rows := len(tr.Matrix)
	if len(tr.Matrix[0]) != dmid {
		return objErr(o, "Transform", fmt.Sprintf("%d columns", len(tr.Matrix[0])), fmt.Sprintf("must equal the function's output size %d", dmid), nil)
	}
	T := mat.NewDense(rows, dmid, flatten(tr.Matrix))
	// keep the factors: connect may run the connection as decoders then
	// transform (fewer multiply-adds when rows > dmid)
	dec := make([]float64, dmid*n)
	for i := range dmid {
		for j := range n {
			dec[i*n+j] = X.At(j, i)
		}
	}
	b.factors = &factored{dec: dec, dmid: dmid, transform: flatten(tr.Matrix)}
	var W mat.Dense
	W.Mul(T, X.T())
	cp.Rows, cp.Cols = rows, n
	cp.Weights = append([]float64(nil), W.RawMatrix().Data...)
	if W.RawMatrix().Stride != n {
		cp.Weights = cp.Weights[:0]
		for i := range rows {
			cp.Weights = append(cp.Weights, W.RawRowView(i)...)
		}
	}
	return nil
}

func flatten(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// conn is the internal form of a connection (user connections and the
// connections Nengo makes for decoded-output probes).
type conn struct {
	post     toolkit.Object
	label    string
	c        *toolkit.Connection // nil for probe connections
	pre      toolkit.Target
	postSig  int
	postIdx  []int
	postSize int
}

func (b *builder) buildConnection(c *toolkit.Connection) error {
	post, err := b.input(c.Post.Obj())
	if err != nil {
		return err
	}
	cs, err := b.connect(conn{post: c.Post.Obj(), label: b.connKey[c], c: c, pre: c.Pre, postSig: post, postIdx: c.Post.Indices(), postSize: toolkit.TargetSize(c.Post, true)},
		c.Function, c.Transform, c.Solver, c.Synapse, b.seeds[c])
	if err != nil {
		return err
	}
	b.conns[c] = cs
	return nil
}

func (b *builder) connect(cn conn, fn toolkit.Function, tr toolkit.Transform, solver solvers.Solver, syn synapses.Synapse, seed int64) (*connSigs, error) {
	o := fmt.Sprintf("Connection %q", cn.label)
	var pes *toolkit.PES
	var rule toolkit.LearningRule
	if cn.c != nil && cn.c.LearningRule != nil {
		rule = cn.c.LearningRule
		switch r := rule.(type) {
		case *toolkit.PES:
			pes = r
		case *toolkit.BCM, *toolkit.Oja, *toolkit.Voja, *toolkit.RLS:
		default:
			return nil, objErr(o, "LearningRule", rule.Name(), "is not a rule the builder knows (PES, BCM, Oja, Voja, RLS)", nil)
		}
	}
	_, preEns := cn.pre.Obj().(*toolkit.Ensemble)
	postEns, toEns := cn.post.(*toolkit.Ensemble)
	fullWeights := preEns && solver != nil && solver.Weights()
	if fullWeights && !toEns {
		return nil, objErr(o, "Solver", solver.Name(), "weights=true needs an Ensemble as post", nil)
	}
	preObj := cn.pre.Obj()
	preIdx := cn.pre.Indices()
	preOut, err := b.output(preObj)
	if err != nil {
		return nil, err
	}
	cs := &connSigs{in: preOut}
	var over *ConnectionParams
	if b.cfg.Params != nil && cn.c != nil {
		over = b.cfg.Params.Connections[cn.label]
	}
	cp := &ConnectionParams{}
	inSig, inIdx := preOut, preIdx
	var weights int
	elementwise := false
	var sparse *csr // non-nil: a SparseDotInc (Nengo's build_sparse)
	ens, decoded := preObj.(*toolkit.Ensemble)
	if decoded && ens.NeuronType.Name() == "Direct" {
		decoded, fullWeights = false, false // computed like a Node's function
	}
	switch {
	case decoded:
		inIdx = nil // decoders read all neurons
		if over != nil && over.EvalPoints != nil {
			cp.EvalPoints = over.EvalPoints
		} else if cn.c != nil && cn.c.EvalPoints != nil {
			count := ens.EvalPointCount()
			if smp, ok := cn.c.EvalPoints.(dists.Samples); ok {
				count = smp.Rows(ens.Dims)
			}
			pts, err := cn.c.EvalPoints.Sample(count, ens.Dims, rngFor(seed, 0xe7a1))
			if err != nil {
				return nil, objErr(o, "EvalPoints", cn.c.EvalPoints.Name(), "sampling failed", err)
			}
			if cn.c.ScaleEvalPoints {
				for i := range pts {
					pts[i] *= ens.Radius
				}
			}
			cp.EvalPoints = pts
		}
		b.factors = nil
		if err := b.decode(o, ens, preIdx, fn, solver, tr, cp, seed, cn.c); err != nil {
			return nil, err
		}
		if fullWeights {
			// weights=true: fold the post encoders in (Nengo's compositional
			// solvers): W = scaled_encoders[:, post slice] · transform · Dᵀ,
			// delivered straight into the post neurons' current
			pp := b.ens[postEns].p
			d, np := postEns.Dims, postEns.N
			cols := cn.postIdx
			if cols == nil {
				cols = make([]int, d)
				for i := range cols {
					cols[i] = i
				}
			}
			if len(cols) != cp.Rows {
				return nil, objErr(o, "Post", len(cols), fmt.Sprintf("must equal the connection's output size %d", cp.Rows), nil)
			}
			W := make([]float64, np*cp.Cols)
			for i := range np {
				for k, c := range cols {
					e := pp.ScaledEncoders[i*d+c]
					for j := range cp.Cols {
						W[i*cp.Cols+j] += e * cp.Weights[k*cp.Cols+j]
					}
				}
			}
			cp.Weights, cp.Rows = W, np
			cn.postSig, cn.postIdx, cn.postSize = b.ens[postEns].J, nil, np
			cn.post = nil
		}
	default:
		size := toolkit.TargetSize(cn.pre, false)
		if fn != nil {
			// Node with a function: out = f(x[slice]) every step
			x := make([]float64, size)
			y := fn(x)
			if len(y) == 0 {
				return nil, objErr(o, "Function", "[]", "must return at least one value", nil)
			}
			fs := b.sig(cn.label+".func", o, len(y), nil)
			b.add(&ir.SimNodeFunc{Base: ir.Base{Tag: o + " function", Sets: []int{fs}, Reads: []int{preOut}}, X: preOut, XIdx: preIdx, Y: fs, Fn: fn})
			inSig, inIdx, size = fs, nil, len(y)
		}
		switch {
		case tr.Sparse != nil:
			if tr.Sparse.Cols != size {
				return nil, objErr(o, "Transform.Sparse.Cols", tr.Sparse.Cols, fmt.Sprintf("must equal the input size %d", size), nil)
			}
			cp.Rows, cp.Cols = tr.Sparse.Rows, tr.Sparse.Cols
			cp.Indices = make([]int, 0, 2*len(tr.Sparse.Indices))
			for _, ij := range tr.Sparse.Indices {
				cp.Indices = append(cp.Indices, ij[0], ij[1])
			}
			cp.Weights = append([]float64(nil), tr.Sparse.Data...)
			if over != nil && over.Weights != nil {
				if err := sparseOverride(o, cp, over); err != nil {
					return nil, err
				}
			}
			if sparse, err = newCSR(o, cp); err != nil {
				return nil, err
			}
		case tr.Matrix == nil:
			cp.Rows, cp.Cols, cp.Weights = 1, 1, []float64{tr.Scalar}
			elementwise = true
		default:
			if len(tr.Matrix[0]) != size {
				return nil, objErr(o, "Transform", fmt.Sprintf("%d columns", len(tr.Matrix[0])), fmt.Sprintf("must equal the input size %d", size), nil)
			}
			cp.Rows, cp.Cols, cp.Weights = len(tr.Matrix), size, flatten(tr.Matrix)
		}
	}
	if over != nil && over.Weights != nil && sparse == nil {
		if len(over.Weights) != len(cp.Weights) {
			return nil, objErr(o, "params.Weights", len(over.Weights), fmt.Sprintf("must have %d×%d entries", cp.Rows, cp.Cols), nil)
		}
		cp.Weights = append([]float64(nil), over.Weights...)
	}
	if cn.c != nil {
		b.m.Params.Connections[cn.label] = cp
	}
	// the input slice, if any, is gathered into its own signal
	if inIdx != nil {
		g := b.sig(cn.label+".sliced", o, len(inIdx), nil)
		b.add(&ir.Copy{Base: ir.Base{Tag: o + " pre slice", Sets: []int{g}, Reads: []int{inSig}}, X: inSig, XIdx: inIdx, Y: g})
		inSig = g
	}
	outSize := cp.Rows
	if elementwise {
		outSize = b.m.sigs[inSig].n
	}
	if outSize != cn.postSize {
		return nil, objErr(o, "Post", cn.postSize, fmt.Sprintf("size must equal the connection's output size %d", outSize), nil)
	}
	weights = b.sig(cn.label+".weights", o, len(cp.Weights), cp.Weights)
	if !elementwise {
		b.m.sigs[weights].rows = cp.Rows
	}
	b.m.sigs[weights].readonly = rule == nil
	if cn.c != nil {
		b.m.sigs[weights].role, b.m.sigs[weights].key = ir.RoleWeights, cn.label
	}
	weighted := b.sig(cn.label+".weighted", o, outSize, nil)
	b.add(&ir.Reset{Base: ir.Base{Tag: o, Sets: []int{weighted}}, Y: weighted})
	if sparse != nil {
		b.m.sigs[weights].rows = 0 // nnz values, not a matrix
		b.add(&ir.SparseDotInc{Base: ir.Base{Tag: o + " weights", Incs: []int{weighted}, Reads: []int{weights, inSig}}, A: weights, X: inSig, Y: weighted, RowPtr: sparse.ptr, Col: sparse.col})
	} else if f := b.factors; decoded && !fullWeights && rule == nil && f != nil && (over == nil || over.Weights == nil) &&
		cp.Rows*cp.Cols > f.dmid*cp.Cols+cp.Rows*f.dmid {
		// a low-rank decoded connection (e.g. a 1-D ensemble into a 64-D
		// target): decoders then transform, dmid·n + rows·dmid
		// multiply-adds a step instead of rows·n. The full weights signal
		// keeps transform·decodersᵀ for probes and Params; no operator
		// reads it. (Nengo multiplies the transform into the decoders;
		// the two orders differ by rounding only.)
		decs := b.sig(cn.label+".decoders", o, len(f.dec), f.dec)
		b.m.sigs[decs].rows, b.m.sigs[decs].readonly = f.dmid, true
		if cn.c != nil {
			b.m.sigs[decs].role, b.m.sigs[decs].key = ir.RoleDecoders, cn.label
		}
		tsig := b.sig(cn.label+".transform", o, len(f.transform), f.transform)
		b.m.sigs[tsig].rows, b.m.sigs[tsig].readonly = cp.Rows, true
		if cn.c != nil {
			b.m.sigs[tsig].role, b.m.sigs[tsig].key = ir.RoleTransform, cn.label
		}
		decSig := b.sig(cn.label+".decoded", o, f.dmid, nil)
		b.add(&ir.Reset{Base: ir.Base{Tag: o + " decoded", Sets: []int{decSig}}, Y: decSig})
		b.add(&ir.DotInc{Base: ir.Base{Tag: o + " decoders", Incs: []int{decSig}, Reads: []int{decs, inSig}}, A: decs, X: inSig, Y: decSig, Bias: ir.None})
		b.add(&ir.DotInc{Base: ir.Base{Tag: o + " transform", Incs: []int{weighted}, Reads: []int{tsig, decSig}}, A: tsig, X: decSig, Y: weighted, Bias: ir.None})
	} else {
		base := ir.Base{Tag: o + " weights", Incs: []int{weighted}, Reads: []int{weights, inSig}}
		if elementwise {
			b.add(&ir.ElementwiseInc{Base: base, A: weights, X: inSig, Y: weighted})
		} else {
			b.add(&ir.DotInc{Base: base, A: weights, X: inSig, Y: weighted, Bias: ir.None})
		}
	}
	out := weighted
	if syn != nil {
		filtered := b.sig(cn.label+".filtered", o, outSize, nil)
		b.add(&ir.SimSynapse{Base: ir.Base{Tag: o + " synapse", Reads: []int{weighted}, Updates: []int{filtered}}, X: weighted, Y: filtered, Synapse: syn})
		out = filtered
	}
	cs.weighted = out
	cs.weights = weights
	if n, ok := cn.post.(*toolkit.Neurons); ok {
		// into neurons: scale by the post gains (Nengo folds them into the
		// encoders for an Ensemble, so they are applied here)
		gain := b.ens[n.Ensemble].p.Gain
		g := make([]float64, 0, len(gain))
		if cn.postIdx == nil {
			g = append(g, gain...)
		} else {
			for _, i := range cn.postIdx {
				g = append(g, gain[i])
			}
		}
		gs := b.sig(cn.label+".gains", o, len(g), g)
		b.m.sigs[gs].readonly = true
		if cn.c != nil {
			b.m.sigs[gs].role, b.m.sigs[gs].key = ir.RoleGains, cn.label
		}
		if cn.postIdx == nil {
			b.add(&ir.ElementwiseInc{Base: ir.Base{Tag: o + " gains", Incs: []int{cn.postSig}, Reads: []int{gs, out}}, A: gs, X: out, Y: cn.postSig})
		} else {
			so := b.sig(cn.label+".sliced_out", o, len(g), nil)
			b.add(&ir.Reset{Base: ir.Base{Tag: o, Sets: []int{so}}, Y: so})
			b.add(&ir.Copy{Base: ir.Base{Tag: o + " out", Incs: []int{cn.postSig}, Reads: []int{so}}, X: so, Y: cn.postSig, YIdx: cn.postIdx, Inc: true})
			b.add(&ir.ElementwiseInc{Base: ir.Base{Tag: o + " gains", Incs: []int{so}, Reads: []int{gs, out}}, A: gs, X: out, Y: so})
		}
	} else {
		b.add(&ir.Copy{Base: ir.Base{Tag: o + " out", Incs: []int{cn.postSig}, Reads: []int{out}}, X: out, Y: cn.postSig, YIdx: cn.postIdx, Inc: true})
	}
	if pes != nil {
		if err := b.buildPES(o, cn, pes, preOut, weights, elementwise); err != nil {
			return nil, err
		}
	} else if v, ok := rule.(*toolkit.Voja); ok {
		if err := b.buildVoja(o, cn, v); err != nil {
			return nil, err
		}
	} else if r, ok := rule.(*toolkit.RLS); ok {
		if err := b.buildRLS(o, cn, r, preOut, weights, elementwise); err != nil {
			return nil, err
		}
	} else if rule != nil {
		if err := b.buildHebbian(o, cn, rule, weights, elementwise); err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// filtered returns sig filtered by syn in "set" mode (Nengo's
// build_or_passthrough for learning rules), or sig itself for nil.
func (b *builder) filtered(o, name string, syn synapses.Synapse, sig int) int {
	if syn == nil {
		return sig
	}
	f := b.sig(name, o, b.m.sigs[sig].n, nil)
	b.add(&ir.SimSynapse{Base: ir.Base{Tag: o + " " + name, Sets: []int{f}, Reads: []int{sig}}, X: sig, Y: f, Synapse: syn})
	return f
}
