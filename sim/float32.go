package sim

import (
	"slices"

	"github.com/neurogo/neurogo/sim/ir"
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
func (s *Simulator) bridge(ln *lane, r runner, ops []ir.Op) runner {
	m := s.model
	in, out := map[int]bool{}, map[int]bool{}
	for _, op := range ops {
		b := op.Info()
		for _, l := range [][]int{b.Reads, b.Sets, b.Incs, b.Updates} {
			for _, id := range l {
				in[id] = true
			}
		}
		for _, l := range [][]int{b.Sets, b.Incs, b.Updates} {
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

// cpu32 lowers a group onto a float32 lane (ir.Lowerer): copies,
// element-wise products, dot products, resets, rectified-linear neurons,
// fused ensembles and PES natively in float32, every other type through
// the float64 bridge.
type cpu32 struct{ laneLowering }

// compile32 makes a group executable on a float32 lane.
func (g *group) compile32(s *Simulator, ln *lane) (runner, error) {
	c := &cpu32{laneLowering{s: s, ln: ln, g: g}}
	return c.lower(c)
}

// bridged compiles the group on the float64 shadow store behind a bridge.
func (c *cpu32) bridged() (runner, error) {
	r, err := c.g.compile(c.s, c.ln)
	if err != nil {
		return runner{}, err
	}
	return c.s.bridge(c.ln, r, c.g.ops), nil
}

func (c *cpu32) Reset(ops []*ir.Reset) error { return c.set(c.reset32(ops)) }

func (c *cpu32) reset32(ops []*ir.Reset) (runner, error) {
	m := c.s.model
	for _, op := range ops {
		if op.Y == m.stepSig || op.Y == m.timeSig {
			return c.bridged()
		}
	}
	return fillRunner(c.ln.d32, m.resetRuns(ops), float32(ops[0].Value)), nil
}

func (c *cpu32) Copy(ops []*ir.Copy) error { return c.set(c.copy32(ops)) }

func (c *cpu32) copy32(ops []*ir.Copy) (runner, error) {
	m, d := c.s.model, c.ln.d32
	for _, op := range ops {
		if op.X == m.stepSig || op.X == m.timeSig || op.Y == m.stepSig || op.Y == m.timeSig {
			return c.bridged()
		}
	}
	rs := m.runs(copyGathers(ops), false)
	inc := ops[0].Inc
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
}

func (c *cpu32) ElementwiseInc(ops []*ir.ElementwiseInc) error { return c.set(c.elementwiseInc32(ops)) }

func (c *cpu32) elementwiseInc32(ops []*ir.ElementwiseInc) (runner, error) {
	m, d := c.s.model, c.ln.d32
	rs := m.runs(ewGathers(ops), true)
	set := ops[0].Set
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
}

func (c *cpu32) DotInc(ops []*ir.DotInc) error { return c.set(c.dotInc32(ops)) }

func (c *cpu32) dotInc32(ops []*ir.DotInc) (runner, error) {
	m, d := c.s.model, c.ln.d32
	bs, err := m.dotBlocksOf(ops)
	if err != nil {
		return runner{}, err
	}
	set := ops[0].Set
	return runner{step: func() { dotBlocks32(d, bs, set) }}, nil
}

func (c *cpu32) SimNeurons(ops []*ir.SimNeurons) error { return c.set(c.simNeurons32(ops)) }

func (c *cpu32) simNeurons32(ops []*ir.SimNeurons) (runner, error) {
	m, d := c.s.model, c.ln.d32
	// rectified linear neurons natively (the benchmark models' type);
	// every other type through the bridge
	relu, ok := ops[0].Neuron.(neurons.RectifiedLinear)
	if !ok || relu.Validate() != nil {
		return c.bridged()
	}
	var spans [][2]sigSpan
	for _, op := range ops {
		if r, ok := op.Neuron.(neurons.RectifiedLinear); !ok || r != relu {
			return c.bridged()
		}
		J, out := m.sigs[op.J], m.sigs[op.Out]
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
}

func (c *cpu32) EnsembleReLU(ops []*ir.EnsembleReLU) error { return c.set(c.ensembleReLU32(ops)) }

func (c *cpu32) ensembleReLU32(ops []*ir.EnsembleReLU) (runner, error) {
	m, d := c.s.model, c.ln.d32
	// as the float64 kernel: J = bias + E·x, a = amp·max(J, 0) in a
	// scratch buffer, then the decoder blocks from it
	ms, maxN, err := m.ensMembers(ops)
	if err != nil {
		return runner{}, err
	}
	amp := float32(ops[0].Amplitude)
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
}

func (c *cpu32) DotIncPES(ops []*ir.DotIncPES) error { return c.set(c.dotIncPES32(ops)) }

func (c *cpu32) dotIncPES32(ops []*ir.DotIncPES) (runner, error) {
	m, d := c.s.model, c.ln.d32
	op := ops[0]
	b, acts, e, alpha64, err := m.pesLayout(op)
	if err != nil {
		return runner{}, err
	}
	bs, alpha, set := []block{b}, float32(alpha64), op.Set
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
}

func (c *cpu32) SimPES(ops []*ir.SimPES) error { return c.set(c.simPES32(ops)) }

func (c *cpu32) simPES32(ops []*ir.SimPES) (runner, error) {
	m, d := c.s.model, c.ln.d32
	if len(ops) != 1 {
		return c.bridged()
	}
	op := ops[0]
	acts, e, delta := m.sigs[op.Acts], m.sigs[op.Error], m.sigs[op.Delta]
	alpha := float32(-op.LearningRate * m.Dt / float64(acts.n))
	return runner{step: func() {
		a := d[acts.off : acts.off+acts.n]
		for i, ei := range d[e.off : e.off+e.n] {
			ae := alpha * ei
			row := d[delta.off+i*acts.n : delta.off+(i+1)*acts.n]
			if op.InPlace { // delta is the weights (fused update)
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

func (c *cpu32) SparseDotInc([]*ir.SparseDotInc) error { return c.set(c.bridged()) }

func (c *cpu32) TimeUpdate([]*ir.TimeUpdate) error { return c.set(c.bridged()) }

func (c *cpu32) SimSynapse([]*ir.SimSynapse) error { return c.set(c.bridged()) }

func (c *cpu32) SimProcess([]*ir.SimProcess) error { return c.set(c.bridged()) }

func (c *cpu32) SimNodeFunc([]*ir.SimNodeFunc) error { return c.set(c.bridged()) }

func (c *cpu32) SimLayer([]*ir.SimLayer) error { return c.set(c.bridged()) }

func (c *cpu32) SimBCM([]*ir.SimBCM) error { return c.set(c.bridged()) }

func (c *cpu32) SimOja([]*ir.SimOja) error { return c.set(c.bridged()) }

func (c *cpu32) SimVoja([]*ir.SimVoja) error { return c.set(c.bridged()) }

func (c *cpu32) SimRLS([]*ir.SimRLS) error { return c.set(c.bridged()) }

func (c *cpu32) SimCallback([]*ir.SimCallback) error { return c.set(c.bridged()) }

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
