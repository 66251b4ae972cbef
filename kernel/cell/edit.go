package cell

import (
	"sort"
	"strings"
)

// edit replaces the cell text [start, end) with text. text never contains a
// newline; the newlines of the replaced text are kept after it, so that
// every line of the cell stays on its line.
type edit struct {
	start, end int
	text       string
	seq        int // creation order, to keep insertions at one offset stable
}

type editor struct {
	src    string
	edits  []edit
	seq    int
	bad    bool // overlapping edits were found
	sorted bool // edits are sorted
}

func (e *editor) replace(start, end int, text string) {
	if start < 0 || end < start || end > len(e.src) {
		e.bad = true
		return
	}
	text = strings.ReplaceAll(text, "\n", " ")
	e.seq++
	e.edits = append(e.edits, edit{start, end, text, e.seq})
	e.sorted = false
}

func (e *editor) insert(at int, text string) { e.replace(at, at, text) }

func (e *editor) sort() []edit {
	if e.sorted {
		return e.edits
	}
	e.sorted = true
	sort.SliceStable(e.edits, func(i, j int) bool {
		a, b := e.edits[i], e.edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		// At one offset: insertions first, then in creation order.
		if (a.start == a.end) != (b.start == b.end) {
			return a.start == a.end
		}
		return a.seq < b.seq
	})
	return e.edits
}

// take returns the text [start, end) with the edits inside it applied, and
// drops those edits (the caller moves or reuses the text).
func (e *editor) take(start, end int) string {
	if start < 0 || end < start || end > len(e.src) {
		e.bad = true
		return ""
	}
	edits := e.sort()
	lo := sort.Search(len(edits), func(i int) bool { return edits[i].start >= start })
	hi := lo
	for hi < len(edits) && edits[hi].start <= end && edits[hi].end <= end {
		hi++
	}
	if lo == hi {
		return strings.ReplaceAll(e.src[start:end], "\n", " ")
	}
	var b strings.Builder
	cur := start
	for _, ed := range edits[lo:hi] {
		if ed.start < cur {
			e.bad = true
			continue
		}
		b.WriteString(e.src[cur:ed.start])
		b.WriteString(ed.text)
		cur = ed.end
	}
	b.WriteString(e.src[cur:end])
	e.edits = append(edits[:lo:lo], edits[hi:]...)
	return strings.ReplaceAll(b.String(), "\n", " ")
}

// render builds a segment's Src: LineOffset newlines, padding to the first
// span's line and column, then the spans with edits applied and the gaps
// between them blanked. It also returns the column map of edited lines.
func (e *editor) render(li lineIndex, spans []span) (string, map[int][]colPoint) {
	src := e.src
	var b strings.Builder
	b.Grow(len(src) + 64)
	b.WriteString(strings.Repeat("\n", LineOffset))
	if len(spans) == 0 {
		return b.String(), nil
	}
	lineStart := b.Len() // output offset of the current line's start
	write := func(s string) {
		b.WriteString(s)
		if i := strings.LastIndexByte(s, '\n'); i >= 0 {
			lineStart = b.Len() - (len(s) - i - 1)
		}
	}
	outCol := func() int { return b.Len() - lineStart + 1 }
	var cols map[int][]colPoint
	point := func(off int, ins bool) {
		l, c := li.pos(off)
		if cols == nil {
			cols = map[int][]colPoint{}
		}
		cols[l] = append(cols[l], colPoint{out: outCol(), cell: c, ins: ins})
	}

	l0, c0 := li.pos(spans[0].start)
	write(strings.Repeat("\n", l0-1) + strings.Repeat(" ", c0-1))
	edits := e.sort()
	k := sort.Search(len(edits), func(i int) bool { return edits[i].start >= spans[0].start })
	for i, sp := range spans {
		if i > 0 {
			prev := spans[i-1]
			gap := []byte(blank(src[prev.end:sp.start]))
			for _, g := range gapSemis(src, prev, sp.start) {
				gap[g-prev.end] = ';'
			}
			write(string(gap))
		}
		cur := sp.start
		for k < len(edits) && edits[k].start < sp.start {
			k++
		}
		for ; k < len(edits) && edits[k].start <= sp.end; k++ {
			ed := edits[k]
			if ed.start < cur || ed.end > sp.end {
				e.bad = true
				continue
			}
			write(src[cur:ed.start])
			point(ed.start, true)
			write(ed.text)
			if n := strings.Count(src[ed.start:ed.end], "\n"); n > 0 {
				write(strings.Repeat("\n", n))
			}
			point(ed.end, false)
			cur = ed.end
		}
		write(src[cur:sp.end])
	}
	return b.String(), cols
}
