package imagediff

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// Options set how different two images may be.
type Options struct {
	// Tolerance is the largest per-channel difference (0–255) that still
	// counts as equal.
	Tolerance int
	// MaxFraction is the largest fraction of differing pixels (0–1) for
	// which Result.OK holds.
	MaxFraction float64
}

// Default tolerates anti-aliasing noise: a pixel differs when a channel
// moves by more than 24/255, and up to 0.3 % of the pixels may differ.
var Default = Options{Tolerance: 24, MaxFraction: 0.003}

// Result is the outcome of Compare.
type Result struct {
	Options
	// Width and Height of both images, in pixels.
	Width, Height int
	// Differing is the number of pixels beyond the tolerance.
	Differing int
	// MaxDiff is the largest channel difference of any pixel (0–255).
	MaxDiff int
	// Bounds encloses the differing pixels (empty when none differ), in
	// the coordinates of the reference image.
	Bounds image.Rectangle

	got, want *image.RGBA
}

// Fraction is Differing over the number of pixels.
func (r Result) Fraction() float64 {
	n := r.Width * r.Height
	if n == 0 {
		return 0
	}
	return float64(r.Differing) / float64(n)
}

// OK reports whether the images match within the options.
func (r Result) OK() bool { return r.Fraction() <= r.MaxFraction }

// String describes the result in one line.
func (r Result) String() string {
	s := fmt.Sprintf("%d of %d pixels (%.3g %%) differ by more than %d/255 (limit %.3g %%; largest difference %d/255)",
		r.Differing, r.Width*r.Height, 100*r.Fraction(), r.Tolerance, 100*r.MaxFraction, r.MaxDiff)
	if r.Differing > 0 {
		b := r.Bounds
		s += fmt.Sprintf(", within x %d–%d, y %d–%d", b.Min.X, b.Max.X-1, b.Min.Y, b.Max.Y-1)
	}
	return s
}

// Compare compares got with the reference want. It returns an error when
// the sizes differ or the options are out of range.
func Compare(got, want image.Image, o Options) (Result, error) {
	if got == nil || want == nil {
		return Result{}, fmt.Errorf("imagediff.Compare: nil image (got %v, want %v)", got != nil, want != nil)
	}
	if o.Tolerance < 0 || o.Tolerance > 255 {
		return Result{}, fmt.Errorf("imagediff.Compare: o.Tolerance = %d: must be in [0, 255]", o.Tolerance)
	}
	if !(o.MaxFraction >= 0 && o.MaxFraction <= 1) {
		return Result{}, fmt.Errorf("imagediff.Compare: o.MaxFraction = %v: must be in [0, 1]", o.MaxFraction)
	}
	gb, wb := got.Bounds(), want.Bounds()
	if gb.Dx() != wb.Dx() || gb.Dy() != wb.Dy() {
		return Result{}, fmt.Errorf("imagediff.Compare: size %d×%d: must equal the reference's %d×%d",
			gb.Dx(), gb.Dy(), wb.Dx(), wb.Dy())
	}
	g, w := toRGBA(got), toRGBA(want)
	r := Result{Options: o, Width: wb.Dx(), Height: wb.Dy(), got: g, want: w}
	tol := o.Tolerance
	minX, minY, maxX, maxY := r.Width, r.Height, -1, -1
	for y := 0; y < r.Height; y++ {
		gp := g.Pix[y*g.Stride : y*g.Stride+4*r.Width]
		wp := w.Pix[y*w.Stride : y*w.Stride+4*r.Width]
		for x := 0; x < r.Width; x++ {
			d := 0
			for c := 4 * x; c < 4*x+4; c++ {
				d = max(d, absDiff(gp[c], wp[c]))
			}
			r.MaxDiff = max(r.MaxDiff, d)
			if d > tol {
				r.Differing++
				minX, maxX = min(minX, x), max(maxX, x)
				minY, maxY = min(minY, y), max(maxY, y)
			}
		}
	}
	if r.Differing > 0 {
		r.Bounds = image.Rect(minX, minY, maxX+1, maxY+1).Add(wb.Min)
	}
	return r, nil
}

// ComparePNG decodes two PNG files and compares them.
func ComparePNG(got, want []byte, o Options) (Result, error) {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return Result{}, fmt.Errorf("imagediff.ComparePNG: got: %w", err)
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return Result{}, fmt.Errorf("imagediff.ComparePNG: want: %w", err)
	}
	return Compare(g, w, o)
}

// Magenta marks the differing pixels in Diff.
var Magenta = color.RGBA{R: 0xFF, B: 0xFF, A: 0xFF}

// Diff draws the differing pixels in magenta over a faded copy of the
// reference image (a quarter of its contrast, on white). It returns nil
// for the zero Result.
func (r Result) Diff() *image.RGBA {
	if r.want == nil {
		return nil
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Width, r.Height))
	for y := 0; y < r.Height; y++ {
		gp := r.got.Pix[y*r.got.Stride:]
		wp := r.want.Pix[y*r.want.Stride:]
		op := out.Pix[y*out.Stride:]
		for x := 0; x < r.Width; x++ {
			i := 4 * x
			d := 0
			for c := i; c < i+4; c++ {
				d = max(d, absDiff(gp[c], wp[c]))
			}
			if d > r.Tolerance {
				op[i], op[i+1], op[i+2], op[i+3] = Magenta.R, Magenta.G, Magenta.B, 0xFF
				continue
			}
			// Composite on white, then keep a quarter of the contrast.
			a := 255 - int(wp[i+3])
			for c := i; c < i+3; c++ {
				v := int(wp[c]) + a
				op[c] = uint8(255 - (255-v)/4)
			}
			op[i+3] = 0xFF
		}
	}
	return out
}

// EncodePNG encodes img as PNG (for writing Diff and the rendered image
// next to a failing test's output).
func EncodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("imagediff.EncodePNG: %w", err)
	}
	return buf.Bytes(), nil
}

// toRGBA returns img as *image.RGBA with origin (0, 0), converting (and
// copying) when needed.
func toRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok && m.Bounds().Min == (image.Point{}) {
		return m
	}
	b := img.Bounds()
	m := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(m, m.Bounds(), img, b.Min, draw.Src)
	return m
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
