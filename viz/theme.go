package viz

import (
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// supText is the text handler of every plot: plain text, where "^{…}"
// is drawn as a superscript (tick labels 10^{−3}, 2×10^{5}). The font
// lacks the superscript digits ⁰, ⁹ and ⁻, so exponents are drawn as
// smaller raised text. Rotated text with exponents is drawn plain.
type supText struct{ text.Plain }

// supScale and supRise size and raise exponents relative to the font.
const (
	supScale = 0.72
	supRise  = 0.42
)

// supParts splits s into alternating base and exponent runs; ok is false
// when s has no exponent.
func supParts(s string) (parts []string, ok bool) {
	for {
		i := strings.Index(s, "^{")
		if i < 0 {
			return append(parts, s), ok
		}
		j := strings.Index(s[i:], "}")
		if j < 0 {
			return append(parts, s), ok
		}
		parts = append(parts, s[:i], s[i+2:i+j])
		s = s[i+j+1:]
		ok = true
	}
}

func (h supText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	parts, ok := supParts(txt)
	if !ok || strings.Contains(txt, "\n") {
		return h.Plain.Box(txt, fnt)
	}
	base := h.Fonts.Lookup(fnt, fnt.Size)
	small := h.Fonts.Lookup(fnt, fnt.Size*supScale)
	ext := base.Extents()
	height, depth = ext.Ascent, ext.Descent
	for i, p := range parts {
		if i%2 == 0 {
			width += base.Width(p)
		} else {
			width += small.Width(p)
			height = max(height, fnt.Size*supRise+small.Extents().Ascent)
		}
	}
	return width, height, depth
}

func (h supText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	parts, ok := supParts(txt)
	if !ok || strings.Contains(txt, "\n") || sty.Rotation != 0 {
		h.Plain.Draw(c, strings.NewReplacer("^{", "", "}", "").Replace(txt), sty, pt)
		return
	}
	base := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	small := h.Fonts.Lookup(sty.Font, sty.Font.Size*supScale)
	w, _, _ := h.Box(txt, sty.Font)
	// The baseline where text.Plain puts a single line.
	y := pt.Y + sty.Height(txt)*vg.Length(sty.YAlign) - base.Extents().Ascent + sty.Font.Size
	x := pt.X + vg.Length(sty.XAlign)*w
	c.SetColor(sty.Color)
	for i, p := range parts {
		if p == "" {
			continue
		}
		if i%2 == 0 {
			c.FillString(base, vg.Point{X: x, Y: y}, p)
			x += base.Width(p)
		} else {
			c.FillString(small, vg.Point{X: x, Y: y + sty.Font.Size*supRise}, p)
			x += small.Width(p)
		}
	}
}
