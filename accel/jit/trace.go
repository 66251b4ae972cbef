package jit

import (
	"math"
	"sort"
	"time"
)

// Span is one stage of one instance in a Trace. Times are since Run began.
type Span struct {
	Instance   ID
	Name       string
	Stage      Stage
	Resource   int // the instance's Task.Resource
	Worker     int // host goroutine that ran a host stage, 0..Workers-1; -1 for Execute
	Start, End time.Duration
}

// Trace records a Run: its spans sorted by start time (then instance and
// stage) and its wall-clock time.
type Trace struct {
	Spans []Span
	Wall  time.Duration
}

// Total returns the summed duration of stage s over all instances.
func (t *Trace) Total(s Stage) time.Duration {
	if t == nil {
		return 0
	}
	var d time.Duration
	for i := range t.Spans {
		if t.Spans[i].Stage == s {
			d += t.Spans[i].End - t.Spans[i].Start
		}
	}
	return d
}

// Busy returns the Execute time on a resource (Execute spans of one
// resource never overlap, so this is the time the resource was busy).
func (t *Trace) Busy(resource int) time.Duration {
	if t == nil {
		return 0
	}
	var d time.Duration
	for i := range t.Spans {
		if sp := &t.Spans[i]; sp.Stage == Execute && sp.Resource == resource {
			d += sp.End - sp.Start
		}
	}
	return d
}

// Utilisation returns Busy(resource)/Wall, the fraction of the run during
// which the resource executed (0 for an empty run).
func (t *Trace) Utilisation(resource int) float64 {
	if t == nil || t.Wall <= 0 {
		return 0
	}
	return float64(t.Busy(resource)) / float64(t.Wall)
}

// Overlap returns the time during which at least one host stage
// (Preprocess, Build, Postprocess) ran while at least one Execute ran: the
// overlap of host and hardware work that Fig 5 of the hxtorch paper shows. It is
// the length of the intersection of the union of host spans with the union
// of Execute spans.
func (t *Trace) Overlap() time.Duration {
	if t == nil {
		return 0
	}
	var host, hw []interval
	for i := range t.Spans {
		sp := &t.Spans[i]
		iv := interval{sp.Start, sp.End}
		if sp.Stage == Execute {
			hw = append(hw, iv)
		} else {
			host = append(host, iv)
		}
	}
	a, b := union(host), union(hw)
	var d time.Duration
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if hi > lo {
			d += hi - lo
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return d
}

type interval struct{ lo, hi time.Duration }

// union merges intervals into sorted disjoint ones.
func union(v []interval) []interval {
	sort.Slice(v, func(i, j int) bool { return v[i].lo < v[j].lo })
	var out []interval
	for _, iv := range v {
		if k := len(out) - 1; k >= 0 && iv.lo <= out[k].hi {
			out[k].hi = max(out[k].hi, iv.hi)
			continue
		}
		out = append(out, iv)
	}
	return out
}

// Link is a data link of the accelerator setup with its raw bit rate.
type Link struct {
	Name          string
	BitsPerSecond float64
}

// HostLink is the 1 Gbit/s Ethernet link between host and FPGA that
// limits the measured MAC rate (the hxtorch paper, §4.1, Fig 8 yellow line).
func HostLink() Link { return Link{Name: "host link (1 Gbit/s)", BitsPerSecond: 1e9} }

// ChipLink is the chip's full-duplex 8 Gbit/s interconnect, the hardware
// design limit (the hxtorch paper, §4.1, Fig 8 grey line).
func ChipLink() Link { return Link{Name: "chip I/O (8 Gbit/s)", BitsPerSecond: 8e9} }

// Seconds returns the time to move bytes over the link at its raw rate:
// 8·bytes/BitsPerSecond. It is NaN for negative or NaN bytes and +Inf for
// a link whose rate is not positive (or NaN) and a positive byte count.
func (l Link) Seconds(bytes float64) float64 {
	if math.IsNaN(bytes) || bytes < 0 {
		return math.NaN()
	}
	if bytes == 0 {
		return 0
	}
	if math.IsNaN(l.BitsPerSecond) || l.BitsPerSecond <= 0 {
		return math.Inf(1)
	}
	return 8 * bytes / l.BitsPerSecond
}
