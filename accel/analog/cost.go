package analog

import (
	"time"

	"github.com/neurogo/neurogo/accel/jit"
)

// ConfigBytes is the static configuration a partition uploads: every
// synapse of every tile written as one byte (6-bit weight and its sign
// or row select; signed weights occupy two physical rows per input),
// plus a 16-byte header per tile.
func (p *Partition) ConfigBytes() int64 {
	var n int64
	for _, t := range p.Tiles {
		phys := t.Row1 - t.Row0
		if p.RowsPerArray == ArrayRows/2 {
			phys *= 2
		}
		n += int64(phys*(t.Col1-t.Col0)) + streamHeader
	}
	return n
}

// DataBytes is the data a batch moves through the instruction streams
// of Run: per tile and vector a 2-byte event count, 2 bytes per non-zero
// input (density is the fraction of non-zero inputs) and one result
// byte per column.
func (p *Partition) DataBytes(batch int, density float64) int64 {
	var n float64
	for _, t := range p.Tiles {
		tr, tc := t.Row1-t.Row0, t.Col1-t.Col0
		n += float64(batch) * (vectorHeader + eventBytes*density*float64(tr) + float64(tc))
	}
	return int64(n) + int64(len(p.Tiles))*streamHeader
}

// CrossoverBatch is the batch size at which the static configuration
// volume equals the data volume (the hxtorch paper, Fig 8 right: the dotted line,
// where about half the peak rate is reached).
func (p *Partition) CrossoverBatch(density float64) float64 {
	per := float64(p.DataBytes(1000, density)-int64(len(p.Tiles))*streamHeader) / 1000
	return float64(p.ConfigBytes()) / per
}

// LinkRate is the MAC rate a real setup would reach for batch vectors if
// link were the only limit: all configuration and data pass it once.
func (p *Partition) LinkRate(batch int, density float64, link jit.Link) float64 {
	macs := float64(batch) * float64(p.Rows) * float64(p.Cols)
	return macs / link.Seconds(float64(p.ConfigBytes()+p.DataBytes(batch, density)))
}

// Timing model of one emulated chip (the hxtorch paper, §3.5, §4.1): events leave
// the FPGA at its 125 MHz clock, one every 1 + WaitBetweenEvents cycles,
// every input repeated NumSends times; after each vector the membranes
// are read out in parallel and reset (ReadoutTime).
const (
	EventCycle  = 8 * time.Nanosecond
	ReadoutTime = 1500 * time.Nanosecond
)

// ChipTime is the time the emulated system's chips would spend on batch
// input vectors with a fraction density of non-zero inputs: per tile and
// vector NumSends·(1+WaitBetweenEvents)·events cycles plus a read-out,
// tiles of one chip one after the other, chips in parallel. With the
// data volume and the links (LinkRate) it bounds what a real setup
// reaches.
func (m *Matrix) ChipTime(batch int, density float64) time.Duration {
	p := m.plan
	perChip := make([]float64, m.sys.cfg.Chips)
	cycle := float64(EventCycle) * float64(m.op.NumSends) * float64(1+m.op.WaitBetweenEvents)
	for _, t := range p.Tiles {
		events := density * float64(t.Row1-t.Row0)
		perChip[t.Chip] += float64(batch) * (events*cycle + float64(ReadoutTime))
	}
	longest := 0.0
	for _, v := range perChip {
		longest = max(longest, v)
	}
	return time.Duration(longest)
}
