package viz

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// Tick positions. Linear axes use nice numbers — steps of 1, 2, 2.5 or 5
// times a power of ten, 4 to 7 labelled ticks, all multiples of the step
// so that 0 is labelled whenever it is in range (Paul S. Heckbert, "Nice
// numbers for graph labels", Graphics Gems, 1990). Log axes label the
// decades as powers of ten. Categorical and sparse axes put their ticks
// on the data (dataTicks, categoryTicks).

// niceSteps are the mantissas of tick steps, with a small penalty for the
// less readable ones.
var niceSteps = [...]struct{ m, penalty float64 }{{1, 0}, {2, 0.1}, {5, 0.05}, {2.5, 1.5}}

// niceTicks are the ticks of a linear axis.
type niceTicks struct {
	// target is the preferred number of labelled ticks (0 → 5).
	target int
	// integer keeps the ticks on whole numbers (counts).
	integer bool
}

func (t niceTicks) Ticks(min, max float64) []plot.Tick {
	if !finite(min) || !finite(max) {
		return nil
	}
	if max < min {
		min, max = max, min
	}
	target := t.target
	if target <= 0 {
		target = 5
	}
	if max == min {
		return []plot.Tick{{Value: min, Label: formatTick(min, stepDecimals(math.Abs(min)/10+1e-300))}}
	}
	step := niceStep(min, max, target, t.integer)
	first := math.Ceil(min/step - 1e-9)
	last := math.Floor(max/step + 1e-9)
	dec := stepDecimals(step)
	var ticks []plot.Tick
	sci := useScientific(min, max, step)
	pow := math.Pow(10, float64(dec))
	for k := first; k <= last; k++ {
		v := k * step
		if dec < 12 {
			v = math.Round(v*pow) / pow // 0.3, not 0.30000000000000004 (beyond the axis)
		}
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		v = math.Min(math.Max(v, min), max)
		lbl := formatTick(v, dec)
		if sci {
			lbl = formatSci(v, step)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: lbl})
	}
	return ticks
}

// niceStep picks the tick step for [min, max]: the candidate whose count
// of ticks is nearest the target, within 4 to 8; integer allows whole
// steps only.
func niceStep(min, max float64, target int, integer bool) float64 {
	span := max - min
	base := math.Pow(10, math.Floor(math.Log10(span/float64(target))))
	best, bestScore := 0.0, math.Inf(1)
	for _, mul := range []float64{0.1, 1, 10} {
		for _, ns := range niceSteps {
			step := ns.m * base * mul
			if integer && (step < 1 || step != math.Round(step)) {
				continue
			}
			n := math.Floor(max/step+1e-9) - math.Ceil(min/step-1e-9) + 1
			if n < 4 || n > 8 {
				continue
			}
			score := math.Abs(n-float64(target)) + ns.penalty
			if score < bestScore {
				best, bestScore = step, score
			}
		}
	}
	if best == 0 {
		best = base
		if integer {
			best = math.Max(1, math.Round(base))
		}
	}
	return best
}

// stepDecimals is the number of decimals that writes every multiple of
// step exactly (0.25 → 2, 5 → 0).
func stepDecimals(step float64) int {
	for d := 0; d <= 12; d++ {
		x := step * math.Pow(10, float64(d))
		if math.Abs(x-math.Round(x)) < 1e-6*math.Max(1, x) {
			return d
		}
	}
	return 12
}

// useScientific: tick values too large or too small to read as decimals
// are written m×10ⁿ.
func useScientific(min, max, step float64) bool {
	m := math.Max(math.Abs(min), math.Abs(max))
	return m >= 1e6 || (m > 0 && m < 1e-3) || stepDecimals(step) > 5
}

// formatTick writes v with dec decimals and a true minus sign.
func formatTick(v float64, dec int) string {
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.TrimLeft(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-") // no "-0"
	}
	return trueMinus(s)
}

// trueMinus writes a number's sign as a true minus (−, not a hyphen), as
// every label of a plot does.
func trueMinus(s string) string { return strings.Replace(s, "-", "−", 1) }

// formatSci writes v as m×10ⁿ (superscript markup for supText), with the
// mantissa's decimals from step.
func formatSci(v, step float64) string {
	if v == 0 {
		return "0"
	}
	e := int(math.Floor(math.Log10(math.Abs(v))))
	m := v / math.Pow(10, float64(e))
	dec := stepDecimals(step / math.Pow(10, float64(e)))
	dec = min(dec, 3)
	ms := formatTick(m, dec)
	if ms == "1" {
		return "10^{" + formatTick(float64(e), 0) + "}"
	}
	if ms == "−1" {
		return "−10^{" + formatTick(float64(e), 0) + "}"
	}
	return ms + "×10^{" + formatTick(float64(e), 0) + "}"
}

// logTicks are the ticks of a log axis: decades labelled as powers of
// ten (every second or third decade when there are many), the 2–9
// multiples as unlabelled minor ticks; a range of less than two decades
// also labels the 2× and 5× ticks, so that at least two labels show.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > 0) || !finite(min) || !finite(max) {
		return nil
	}
	if max < min {
		min, max = max, min
	}
	lo := int(math.Floor(math.Log10(min)))
	hi := int(math.Ceil(math.Log10(max)))
	in := func(v float64) bool { return v >= min*(1-1e-9) && v <= max*(1+1e-9) }
	decades := 0
	for e := lo; e <= hi; e++ {
		if in(math.Pow(10, float64(e))) {
			decades++
		}
	}
	stride := 1
	for decades/stride > 8 {
		stride++
	}
	fine := decades < 2
	plain := min >= 1e-3 && max < 1e5
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		dec := math.Pow(10, float64(e))
		for m := 1; m <= 9; m++ {
			v := float64(m) * dec
			if !in(v) {
				continue
			}
			t := plot.Tick{Value: v}
			switch {
			case m == 1 && ((e-lo)%stride == 0 || stride == 1):
				t.Label = logLabel(v, e, 1, fine && plain)
			case fine && (m == 2 || m == 5):
				t.Label = logLabel(v, e, m, plain)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// logLabel writes m×10^e: as a plain number when plain, else as a power
// of ten.
func logLabel(v float64, e, m int, plain bool) string {
	if plain {
		return formatTick(v, max(0, -e))
	}
	pow := "10^{" + formatTick(float64(e), 0) + "}"
	if m == 1 {
		return pow
	}
	return strconv.Itoa(m) + "×" + pow
}

// dataTicks puts the ticks exactly at the given values (the x values of
// sparse data, e.g. batch sizes 64, 128, 192), labelled with the fewest
// decimals that write them exactly (m×10ⁿ outside [0.001, 10⁶)).
func dataTicks(xs []float64) plot.ConstantTicks {
	uniq := distinct(xs)
	dec := 0
	for _, v := range uniq {
		dec = max(dec, stepDecimals(math.Abs(v)))
	}
	dec = min(dec, 6)
	ticks := make(plot.ConstantTicks, len(uniq))
	for i, v := range uniq {
		lbl := formatTick(v, dec)
		if a := math.Abs(v); a != 0 && (a >= 1e6 || a < 1e-3) {
			lbl = formatSci(v, a)
		}
		ticks[i] = plot.Tick{Value: v, Label: lbl}
	}
	return ticks
}

// categoryTicks labels the positions 0, 1, …, n−1 with names.
func categoryTicks(names []string) plot.Ticker {
	ticks := make(plot.ConstantTicks, len(names))
	for i, n := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: n}
	}
	return ticks
}

// anchorAxis extends a linear axis to 0 when its range lies within 10 %
// of its span from 0 (time from the first step, counts, rates): the
// natural anchor is then labelled. Log axes and axes whose ticks are
// fixed are left alone.
func anchorAxis(ax *plot.Axis) {
	if _, ok := ax.Tick.Marker.(niceTicks); !ok {
		return
	}
	if _, ok := ax.Scale.(plot.LinearScale); !ok {
		return
	}
	lo, hi := ax.Min, ax.Max
	span := hi - lo
	if !(span > 0) || !finite(span) {
		return
	}
	switch {
	case lo > 0 && lo <= 0.1*span:
		ax.Min = 0
	case hi < 0 && -hi <= 0.1*span:
		ax.Max = 0
	}
}

// roundNumber reports whether v has at most four significant digits
// (64, 0.25, 4096, 10⁵; not 316.228): such values make readable tick
// labels at the data.
func roundNumber(v float64) bool {
	m, _, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'e', -1, 64), "e")
	return len(strings.Replace(m, ".", "", 1)) <= 4
}

// distinct returns the sorted distinct values of xs (a new slice).
func distinct(xs []float64) []float64 {
	u := append([]float64(nil), xs...)
	sort.Float64s(u)
	n := 0
	for i, v := range u {
		if i == 0 || v != u[n-1] {
			u[n] = v
			n++
		}
	}
	return u[:n]
}
