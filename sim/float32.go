package sim

import (
	"fmt"
	"slices"

	"github.com/neurogo/neurogo/toolkit/neurons"
)

// Float32 runs a simulator in single precision (NengoDL's dtype
// "float32"): every signal is stored as a float32, and copies, element-wise
// products and dot products (the merged operators that carry most of the
// data, the connection weights above all) compute in float32, reading
// half the bytes. Neurons, synapses, learning rules and Node functions
// compute in float64 on their float32 inputs and round what they write to
// float32. The step counter and the time stay float64, so long runs keep
// exact times. Results differ from float64 runs by float32 rounding
// (relative ~1e-7 per operation; spike times can move by a step). Build
// ignores it.
func Float32() Option { return func(c *config) { c.f32 = true } }

// Precision returns 32 for a simulator made with Float32, else 64.
func (s *Simulator) Precision() int {
	if s.lanes[0].d32 != nil {
		return 32
	}
	return 64
}

// sigSpan is a signal's place in the store.
type sigSpan struct{ off, n int }

// bridge makes a float64 runner work on a float32 lane: before it steps,
// the signals it reads are widened into the lane's float64 shadow store;
// after, the signals it writes are rounded back (except the float64-only
// step and time signals).
func (s *Simulator) bridge(ln *lane, r runner, ops []*Op) runner {
	m := s.model
	in, out := map[int]bool{}, map[int]bool{}
	for _, op := range ops {
		for _, l := range [][]int{op.Reads, op.Sets, op.Incs, op.Updates} {
			for _, id := range l {
				in[id] = true
			}
		}
		for _, l := range [][]int{op.Sets, op.Incs, op.Updates} {
			for _, id := range l {
				out[id] = true
			}
		}
	}
	spans := func(set map[int]bool) []sigSpan {
		var sp []sigSpan
		for id := range set {
			if id == m.stepSig || id == m.timeSig {
				continue
			}
			g := m.sigs[id]
			sp = append(sp, sigSpan{g.off, g.n})
		}
		slices.SortFunc(sp, func(a, b sigSpan) int { return a.off - b.off })
		return sp
	}
	pull, push := spans(in), spans(out)
	d64, d32 := ln.data, ln.d32
	step := r.step
	return runner{
		step: func() {
			for _, sp := range pull {
				x, y := d32[sp.off:sp.off+sp.n], d64[sp.off:sp.off+sp.n]
				for i, v := range x {
					y[i] = float64(v)
				}
			}
			step()
			for _, sp := range push {
				x, y := d64[sp.off:sp.off+sp.n], d32[sp.off:sp.off+sp.n]
				for i, v := range x {
					y[i] = float32(v)
				}
			}
		},
		reset: r.reset,
	}
}

// compile32 makes a group executable on a float32 lane: copies,
// element-wise products, dot products and resets natively in float32,
// every other kind through the float64 bridge.
func (g *group) compile32(s *Simulator, ln *lane) (runner, error) {
	m := s.model
	d := ln.d32
	switch g.kind {
	case "Reset":
		v := float32(g.ops[0].value)
		var rs []run
		for _, op := range g.ops {
			if op.y == m.stepSig || op.y == m.timeSig {
				return g.bridged(s, ln)
			}
			sg := m.sigs[op.y]
			rs = append(rs, run{d: sg.off, n: sg.n})
		}
		return runner{step: func() {
			for _, r := range rs {
				y := d[r.d : r.d+r.n]
				for i := range y {
					y[i] = v
				}
			}
		}}, nil
	case "Copy":
		for _, op := range g.ops {
			if op.x == m.stepSig || op.x == m.timeSig || op.y == m.stepSig || op.y == m.timeSig {
				return g.bridged(s, ln)
			}
		}
		rs := m.runs(g.ops, false)
		inc := g.ops[0].inc
		return runner{step: func() {
			for _, r := range rs {
				y, x := d[r.d:r.d+r.n], d[r.s:r.s+r.n]
				if inc {
					for i := range y {
						y[i] += x[i]
					}
				} else {
					copy(y, x)
				}
			}
		}}, nil
	case "ElementwiseInc":
		rs := m.runs(g.ops, true)
		set := g.ops[0].set
		return runner{step: func() {
			for _, r := range rs {
				y, x := d[r.d:r.d+r.n], d[r.s:r.s+r.n]
				for i := range y {
					av := d[r.a+i*r.aStep]
					if set {
						y[i] = av * x[i]
					} else {
						y[i] += float32(av * x[i])
					}
				}
			}
		}}, nil
	case "DotInc":
		bs := make([]block, len(g.ops))
		for i, op := range g.ops {
			as, xs, ys := m.sigs[op.a], m.sigs[op.x], m.sigs[op.y]
			if as.n != xs.n*ys.n {
				return runner{}, fmt.Errorf("sim: %s: weights have %d values, want %d×%d", op.Tag, as.n, ys.n, xs.n)
			}
			bs[i] = block{a: as.off, x: xs.off, nx: xs.n, y: ys.off, ny: ys.n, b: -1}
			if op.hasBias {
				bs[i].b = m.sigs[op.bias].off
			}
		}
		set := g.ops[0].set
		return runner{step: func() { dotBlocks32(d, bs, set) }}, nil
	case "SimNeurons":
		// rectified linear neurons natively (the benchmark models' type);
		// every other type through the bridge
		relu, ok := g.ops[0].neuron.(neurons.RectifiedLinear)
		if !ok || relu.Validate() != nil {
			break
		}
		var spans [][2]sigSpan
		for _, op := range g.ops {
			if r, ok := op.neuron.(neurons.RectifiedLinear); !ok || r != relu {
				return g.bridged(s, ln)
			}
			J, out := m.sigs[op.x], m.sigs[op.y]
			spans = append(spans, [2]sigSpan{{J.off, J.n}, {out.off, out.n}})
		}
		amp := float32(relu.Amplitude)
		return runner{step: func() {
			for _, sp := range spans {
				J, out := d[sp[0].off:sp[0].off+sp[0].n], d[sp[1].off:sp[1].off+sp[1].n]
				for i, j := range J {
					out[i] = amp * max(j, 0)
				}
			}
		}}, nil
	case "EnsembleReLU":
		// as the float64 kernel: J = bias + E·x, a = amp·max(J, 0) in a
		// scratch buffer, then the decoder blocks from it
		ms, maxN, err := m.ensMembers(g)
		if err != nil {
			return runner{}, err
		}
		amp := float32(g.ops[0].value)
		scratch := make([]float32, maxN)
		return runner{step: func() {
			for _, mb := range ms {
				a := scratch[:mb.n]
				x := d[mb.x : mb.x+mb.nx]
				enc, bias := d[mb.enc:mb.enc+mb.n*mb.nx], d[mb.bias:mb.bias+mb.n]
				for i := range a {
					var acc float32
					for j, xv := range x {
						acc += float32(enc[i*mb.nx+j] * xv)
					}
					a[i] = amp * max(bias[i]+acc, 0)
				}
				for k, bl := range mb.decs {
					y := d[bl.y : bl.y+bl.ny]
					for i := range y {
						row := d[bl.a+i*bl.nx : bl.a+(i+1)*bl.nx]
						var acc float32
						for j, v := range row {
							acc += float32(v * a[j])
						}
						switch {
						case bl.b >= 0:
							y[i] = d[bl.b+i] + acc
						case mb.set[k]:
							y[i] = acc
						default:
							y[i] += acc
						}
					}
				}
			}
		}}, nil
	case "DotIncPES":
		op := g.ops[0]
		b, acts, e, alpha64, err := m.pesLayout(op)
		if err != nil {
			return runner{}, err
		}
		bs, alpha, set := []block{b}, float32(alpha64), op.set
		return runner{step: func() {
			dotBlocks32(d, bs, set)
			a, ev := d[acts.off:acts.off+acts.n], d[e.off:e.off+e.n]
			for i, ei := range ev {
				ae := alpha * ei
				row := d[b.a+i*acts.n : b.a+(i+1)*acts.n]
				for j, v := range a {
					row[j] += float32(ae * v)
				}
			}
		}}, nil
	case "SimPES":
		if len(g.ops) != 1 {
			break
		}
		op := g.ops[0]
		acts, e, delta := m.sigs[op.x], m.sigs[op.a], m.sigs[op.y]
		alpha := float32(-op.value * m.Dt / float64(acts.n))
		return runner{step: func() {
			a := d[acts.off : acts.off+acts.n]
			for i, ei := range d[e.off : e.off+e.n] {
				ae := alpha * ei
				row := d[delta.off+i*acts.n : delta.off+(i+1)*acts.n]
				if op.inc { // delta is the weights (fused update)
					for j, v := range a {
						row[j] += float32(ae * v)
					}
					continue
				}
				for j, v := range a {
					row[j] = float32(ae * v)
				}
			}
		}}, nil
	}
	return g.bridged(s, ln)
}

// bridged compiles the group on the float64 shadow store behind a bridge.
func (g *group) bridged(s *Simulator, ln *lane) (runner, error) {
	r, err := g.compile(s, ln)
	if err != nil {
		return runner{}, err
	}
	return s.bridge(ln, r, g.ops), nil
}

// dotBlocks32 is dotBlocks in float32: four partial sums, as Dot.
func dotBlocks32(d []float32, bs []block, set bool) {
	for _, b := range bs {
		y := d[b.y : b.y+b.ny]
		x := d[b.x : b.x+b.nx]
		a := d[b.a : b.a+b.ny*b.nx]
		if b.nx == 1 {
			// an encoder column, as in dotBlocks
			xv := x[0]
			a = a[:len(y)]
			switch {
			case b.b >= 0:
				bb := d[b.b : b.b+b.ny]
				for i := range y {
					y[i] = bb[i] + float32(a[i]*xv)
				}
			case set:
				for i := range y {
					y[i] = float32(a[i] * xv)
				}
			default:
				for i := range y {
					y[i] += float32(a[i] * xv)
				}
			}
			continue
		}
		for i := range y {
			row := a[i*b.nx : (i+1)*b.nx]
			var s0, s1, s2, s3 float32
			n := len(row) &^ 3
			for j := 0; j < n; j += 4 {
				s0 += float32(row[j] * x[j])
				s1 += float32(row[j+1] * x[j+1])
				s2 += float32(row[j+2] * x[j+2])
				s3 += float32(row[j+3] * x[j+3])
			}
			acc := (s0 + s1) + (s2 + s3)
			for j := n; j < len(row); j++ {
				acc += float32(row[j] * x[j])
			}
			switch {
			case b.b >= 0:
				y[i] = d[b.b+i] + acc
			case set:
				y[i] = acc
			default:
				y[i] += acc
			}
		}
	}
}
