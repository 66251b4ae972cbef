package sim

// probeBlockBytes is the size of one block of probe storage. Blocks are
// never moved once written: a long run appends blocks instead of copying
// its whole history into ever larger slices (which made recording a wide
// probe cost more than the step it records).
const probeBlockBytes = 1 << 20

// probeBuf is one probe's recorded samples in one lane: fixed blocks,
// filled in order, each holding whole samples (its capacity is a multiple
// of the probe's width). Clearing keeps the blocks for the next run, so a
// reset run writes to memory already touched.
type probeBuf struct {
	blocks [][]float64
	cur    int // the block being filled
	n      int // values recorded
}

// blockLen is the number of values of a block for samples of dims values.
func probeBlockLen(dims int) int {
	return max(1, probeBlockBytes/8/max(dims, 1)) * max(dims, 1)
}

// next returns the dims values of the next sample to be written, adding a
// block when the current ones are full.
func (p *probeBuf) next(dims int) []float64 {
	for p.cur < len(p.blocks) {
		b := p.blocks[p.cur]
		if cap(b)-len(b) >= dims {
			b = b[:len(b)+dims]
			p.blocks[p.cur] = b
			p.n += dims
			return b[len(b)-dims:]
		}
		if p.cur == len(p.blocks)-1 {
			break
		}
		p.cur++
	}
	p.blocks = append(p.blocks, make([]float64, dims, probeBlockLen(dims)))
	p.cur = len(p.blocks) - 1
	p.n += dims
	return p.blocks[p.cur]
}

// reserve makes room for samples more samples of dims values, so that
// recording them allocates nothing.
func (p *probeBuf) reserve(samples, dims int) {
	if samples <= 0 || dims <= 0 {
		return
	}
	free := 0
	for k := p.cur; k < len(p.blocks); k++ {
		free += (cap(p.blocks[k]) - len(p.blocks[k])) / dims
	}
	for free < samples {
		bl := probeBlockLen(dims)
		p.blocks = append(p.blocks, make([]float64, 0, bl))
		free += bl / dims
	}
}

// clear discards the samples and keeps the blocks.
func (p *probeBuf) clear() {
	for k := range p.blocks {
		p.blocks[k] = p.blocks[k][:0]
	}
	p.cur, p.n = 0, 0
}

// values returns the samples as one slice. Samples spread over several
// blocks are gathered into one block first (once: later calls find them
// together).
func (p *probeBuf) values() []float64 {
	if p.n == 0 {
		return nil
	}
	if len(p.blocks[0]) == p.n {
		return p.blocks[0]
	}
	all := make([]float64, 0, p.n)
	for _, b := range p.blocks {
		all = append(all, b...)
	}
	p.blocks, p.cur = [][]float64{all}, 0
	return all
}

// copyTo copies the values from offset from on into dst and returns how
// many it copied.
func (p *probeBuf) copyTo(from int, dst []float64) int {
	done := 0
	for _, b := range p.blocks {
		if len(dst) == done {
			break
		}
		if from >= len(b) {
			from -= len(b)
			continue
		}
		done += copy(dst[done:], b[from:])
		from = 0
	}
	return done
}
