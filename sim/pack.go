package sim

// Packed ensemble weights. A fused rectified-linear group (EnsembleReLU)
// of one-dimensional ensembles reads, per ensemble, its biases, encoders
// and one or two decoder rows from four places in the store, and an
// ensemble of n neurons ends in a partial block of the sixteen-wide dot
// product, run with masked loads. When those weights are read-only, the
// simulator copies them once into one buffer: per ensemble [bias | enc |
// d1 | d2], each padded with zeros to a multiple of 16, so an ensemble is
// one contiguous stream of whole blocks. The padding adds +0 to the
// partial sums exactly as Dot's zero-filled last block does (for a finite
// input and a positive amplitude; other inputs take the unpacked path),
// so the results are identical. The buffer is built once per simulator
// and group and shared by the lanes.

// packOn switches packing (tests compare with and without).
var packOn = true

// packed is one group's packed weights: member i's at buf[pk[i]:] with
// padded length pad[i] (0: not packed).
type packed struct {
	buf     []float64
	pk, pad []int
	maxPad  int
}

// packEnsembles packs the members of g that qualify (one input dimension,
// two or more neurons, one or two decoder rows, read-only weights) when
// amp is positive, records each member's place (pk, pad) in ms, and
// returns the buffer and the largest padded length; nil when nothing was
// packed.
func (s *Simulator) packEnsembles(g *group, ms []ensMember, amp float64) ([]float64, int) {
	if !(amp > 0) || len(ms) == 0 || !packOn {
		return nil, 0
	}
	p, ok := s.packs[g]
	if !ok {
		p = s.pack(g, ms)
		if s.packs == nil {
			s.packs = map[*group]*packed{}
		}
		s.packs[g] = p
	}
	if p.buf == nil {
		return nil, 0
	}
	for i := range ms {
		ms[i].pk, ms[i].pad = p.pk[i], p.pad[i]
	}
	return p.buf, p.maxPad
}

func (s *Simulator) pack(g *group, ms []ensMember) *packed {
	for _, op := range g.ops {
		ids := []int{op.a, op.bias}
		for _, dop := range op.fused {
			ids = append(ids, dop.a)
		}
		for _, id := range ids {
			if !s.model.sigs[id].readonly {
				return &packed{}
			}
		}
	}
	if s.img == nil {
		s.img = s.model.initImage()
	}
	img := s.img
	p := &packed{pk: make([]int, len(ms)), pad: make([]int, len(ms))}
	var buf []float64
	for i, mb := range ms {
		if mb.nx != 1 || mb.n < 2 || len(mb.rows) == 0 || len(mb.rows) > 2 {
			continue
		}
		pad := (mb.n + 15) &^ 15
		off := len(buf)
		buf = append(buf, make([]float64, 4*pad)...)
		copy(buf[off:], img[mb.bias:mb.bias+mb.n])
		copy(buf[off+pad:], img[mb.enc:mb.enc+mb.n])
		for k, r := range mb.rows {
			copy(buf[off+(2+k)*pad:], img[r.a:r.a+mb.n])
		}
		p.pk[i], p.pad[i] = off, pad
		p.maxPad = max(p.maxPad, pad)
	}
	if p.maxPad > 0 {
		p.buf = buf
	}
	return p
}
