package viz

import (
	"fmt"
	"testing"
)

// TestGridDefaultSize: a default Grid is at most 960 px wide (readable at
// JupyterLab's output width, text at the house sizes), its columns share
// the width, and its rows keep the panels' proportions.
func TestGridDefaultSize(t *testing.T) {
	panel := func(w, h float64) *Plot {
		p, err := Heatmap([][]float64{{0, 1}}, HeatmapOptions{Frame: Frame{Width: w, Height: h}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	n := func(k int, w, h float64) []*Plot {
		ps := make([]*Plot, k)
		for i := range ps {
			ps[i] = panel(w, h)
		}
		return ps
	}
	tests := []struct {
		plots        []*Plot
		opts         GridOptions
		wantW, wantH float64
	}{
		{n(4, 640, 400), GridOptions{Cols: 2}, 960, 600},                           // 2 columns of 480 × 300
		{n(3, 640, 400), GridOptions{Cols: 3}, 960, 240},                           // 3 of 320 × 200, at least 240 tall
		{n(2, 300, 280), GridOptions{Cols: 2}, 600, 280},                           // small panels keep their size
		{n(2, 640, 400), GridOptions{Cols: 2, Frame: Frame{Title: "t"}}, 960, 330}, // + title
		{n(2, 640, 400), GridOptions{Frame: Frame{Width: 1200, Height: 300}}, 1200, 300},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d panels %d cols %gx%g", len(tt.plots), tt.opts.Cols, tt.opts.Width, tt.opts.Height), func(t *testing.T) {
			p, err := Grid(tt.plots, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if w, h := p.Size(); w != tt.wantW || h != tt.wantH {
				t.Errorf("size %g×%g, want %g×%g", w, h, tt.wantW, tt.wantH)
			}
		})
	}
	// A shared scale keeps the figure within 960 px, bar included.
	p, err := Grid(n(3, 640, 400), GridOptions{Cols: 3, ShareScale: true})
	if err != nil {
		t.Fatal(err)
	}
	if w, _ := p.Size(); w > maxGridWidth {
		t.Errorf("shared-scale grid %g px wide, want ≤ %d", w, maxGridWidth)
	}
}
