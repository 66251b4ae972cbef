package viz

import (
	"image/color"
	"testing"
)

// TestRasterDensityColorBar: a raster drawn as densities (pixels covering
// several neurons or steps) has a colour bar in its group colour climbing
// from faint to full; a sparse raster drawn as ticks has none.
func TestRasterDensityColorBar(t *testing.T) {
	dt := 0.001
	tests := []struct {
		name    string
		spikes  [][]float64
		wantBar bool
	}{
		{"dense 3000 neurons", synthSpikes(2000, 3000, 0.01, dt, 3), true},
		{"dense 1000 × 1000", synthSpikes(1000, 1000, 0.05, dt, 1), true},
		{"sparse 40 neurons", synthSpikes(200, 40, 0.03, dt, 2), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Raster(tt.spikes, dt, RasterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			img := pngImage(t, p)
			cmap := (&raster{t0: 0, t1: 1, steps: 1000}).densityBar(1, 0).cmap
			if !tt.wantBar {
				if run := findBar(img, cmap, 0.8); float64(len(run)) >= barMinFrac*float64(img.Bounds().Dy()) {
					t.Fatalf("sparse raster has a %d px colour bar", len(run))
				}
				return
			}
			checkBar(t, img, cmap, 0.8)
		})
	}
}

// TestDensityBarScale: the bar reads in Hz — a saturating density of
// 0.05 spikes per neuron and step at dt = 1 ms is 50 Hz — and its colour
// at the top is the group colour at full opacity.
func TestDensityBarScale(t *testing.T) {
	r := &raster{t0: 0, t1: 1, steps: 1000}
	b := r.densityBar(0.05, 2)
	if b.vmin != 0 || b.vmax < 50-1e-9 || b.vmax > 50+1e-9 || b.label != "rate (Hz)" {
		t.Errorf("bar [%g, %g] %q, want [0, 50] \"rate (Hz)\"", b.vmin, b.vmax, b.label)
	}
	if got, want := b.cmap(1), SeriesColor(2); got != (color.RGBA{want.R, want.G, want.B, 0xFF}) {
		t.Errorf("top colour %v, want the group colour %v", got, want)
	}
}
