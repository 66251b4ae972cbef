package sim

import (
	"github.com/neurogo/neurogo/internal/vec"
	"github.com/neurogo/neurogo/sim/ir"
)

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
//
// Runs of eight consecutive such ensembles of similar size (the smallest
// at least 3/4 of the largest) are packed together instead, as an octet
// (vec.EnsOct): one vector lane per ensemble, the neurons in the order
// of Dot's sixteen partial sums, so the eight ensembles' sums are
// combined by vertical vector adds and no ensemble pays a horizontal
// reduction; the shorter ones are padded with zero weights, which add +0
// as above. For ensembles of 26 and 52 neurons (cconv and the
// integrator at D = 192) an octet takes half the time of eight EnsDot2
// passes.

// packOn switches packing, octOn octets (tests compare with and without).
var packOn, octOn = true, true

// packed is one group's packed weights: member i's at buf[pk[i]:] with
// padded length pad[i] (0: not packed).
type packed struct {
	buf     []float64
	pk, pad []int
	maxPad  int
	// octets: member i starts one of octN[i] > 0 neurons (two decoder
	// rows if octTwo[i]) at buf[pk[i]:]; inOct marks all its members
	octN          []int
	octTwo, inOct []bool
}

// packEnsembles packs the members of g that qualify (one input dimension,
// two or more neurons, one or two decoder rows, read-only weights) when
// amp is positive, records each member's place (pk, pad) in ms, and
// returns the buffer and the largest padded length; nil when nothing was
// packed.
func (s *Simulator) packEnsembles(g *group, ops []*ir.EnsembleReLU, ms []ensMember, amp float64) ([]float64, int) {
	if !(amp > 0) || len(ms) == 0 || !packOn {
		return nil, 0
	}
	p, ok := s.packs[g]
	if !ok {
		p = s.pack(ops, ms)
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
		ms[i].octN, ms[i].octTwo, ms[i].inOct = p.octN[i], p.octTwo[i], p.inOct[i]
	}
	return p.buf, p.maxPad
}

func (s *Simulator) pack(ops []*ir.EnsembleReLU, ms []ensMember) *packed {
	for _, op := range ops {
		ids := []int{op.A, op.Bias}
		for _, dop := range op.Decoders {
			ids = append(ids, dop.A)
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
	p := &packed{pk: make([]int, len(ms)), pad: make([]int, len(ms)),
		octN: make([]int, len(ms)), octTwo: make([]bool, len(ms)), inOct: make([]bool, len(ms))}
	ok := func(mb ensMember) bool {
		return mb.nx == 1 && mb.n >= 2 && len(mb.rows) > 0 && len(mb.rows) <= 2
	}
	var buf []float64
	for i := 0; i < len(ms); i++ {
		mb := ms[i]
		if !ok(mb) {
			continue
		}
		if oct := ms[i:min(i+8, len(ms))]; len(oct) == 8 && octOn {
			lo, hi, two := oct[0].n, oct[0].n, false
			for _, o := range oct {
				if !ok(o) {
					lo = 0
					break
				}
				lo, hi, two = min(lo, o.n), max(hi, o.n), two || len(o.rows) > 1
			}
			if 4*lo >= 3*hi {
				off := len(buf)
				buf = append(buf, make([]float64, hi*vec.OctWidth(two))...)
				for e, o := range oct {
					for j := range o.n {
						b := off + vec.OctOffset(hi, j, two) + e
						buf[b], buf[b+8] = img[o.bias+j], img[o.enc+j]
						for k, r := range o.rows {
							buf[b+16+8*k] = img[r.a+j]
						}
					}
					p.inOct[i+e] = true
				}
				p.pk[i], p.octN[i], p.octTwo[i] = off, hi, two
				s.octets++
				i += 7
				continue
			}
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
	if len(buf) > 0 {
		// 64-byte aligned (dedup.go): every pack and octet block is a
		// multiple of 64 bytes, so all their vector loads are aligned
		p.buf = aligned64(len(buf))
		copy(p.buf, buf)
	}
	return p
}
