package viz

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func labels(ts []plot.Tick) []string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

func TestNiceTicks(t *testing.T) {
	cases := []struct {
		name     string
		min, max float64
		want     string
	}{
		{"time 0–2 s", 0, 2, "0.0 0.5 1.0 1.5 2.0"},
		{"symmetric signal", -0.95, 0.97, "−0.75 −0.50 −0.25 0.00 0.25 0.50 0.75"},
		{"unit interval", 0, 1, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{"firing rates", 0, 130, "0 20 40 60 80 100 120"},
		{"hundreds", 3, 410, "100 200 300 400"},
		{"small", 0.0143, 0.0176, "0.0145 0.0150 0.0155 0.0160 0.0165 0.0170 0.0175"},
		{"large", 0, 3e7, "0 10^{7} 2×10^{7} 3×10^{7}"},
		{"negative", -30, -2, "−30 −25 −20 −15 −10 −5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(labels(niceTicks{}.Ticks(c.min, c.max)), " ")
			if got != c.want {
				t.Errorf("ticks(%g, %g) = %q, want %q", c.min, c.max, got, c.want)
			}
		})
	}
}

// TestNiceTicksIncludeZero: whenever 0 is in range it is a labelled tick,
// and there are 3 to 8 labels.
func TestNiceTicksInteger(t *testing.T) {
	for _, c := range []struct {
		max  float64
		want string
	}{{14, "0 2 4 6 8 10 12 14"}, {3, "0 1 2 3"}, {57, "0 10 20 30 40 50"}} {
		got := strings.Join(labels(niceTicks{integer: true}.Ticks(0, c.max)), " ")
		if got != c.want {
			t.Errorf("integer ticks(0, %g) = %q, want %q", c.max, got, c.want)
		}
	}
}

func TestNiceTicksIncludeZero(t *testing.T) {
	for _, r := range [][2]float64{{-0.8, 0.9}, {-3, 170}, {-1e-3, 2e-2}, {-7, 0.4}, {0, 0.031}, {-1234, 5678}} {
		ts := niceTicks{}.Ticks(r[0], r[1])
		if n := len(labels(ts)); n < 3 || n > 8 {
			t.Errorf("%v: %d labels %v", r, n, labels(ts))
		}
		zero := false
		for _, tk := range ts {
			zero = zero || (tk.Value == 0 && tk.Label == "0" || tk.Value == 0 && strings.Trim(tk.Label, "0.") == "")
		}
		if !zero {
			t.Errorf("%v: 0 is in range but not labelled: %v", r, labels(ts))
		}
	}
}

func TestLogTicks(t *testing.T) {
	cases := []struct {
		name     string
		min, max float64
		want     string
	}{
		{"MAC rates", 2e7, 3e11, "10^{8} 10^{9} 10^{10} 10^{11}"},
		{"batch sizes", 1, 4096, "10^{0} 10^{1} 10^{2} 10^{3}"},
		{"one decade", 3, 40, "5 10 20"},
		{"many decades", 1e-10, 1e10, "10^{−10} 10^{−7} 10^{−4} 10^{−1} 10^{2} 10^{5} 10^{8}"},
		{"below one decade", 1.2e9, 8e9, "2×10^{9} 5×10^{9}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(labels(logTicks{}.Ticks(c.min, c.max)), " ")
			if got != c.want {
				t.Errorf("ticks(%g, %g) = %q, want %q", c.min, c.max, got, c.want)
			}
		})
	}
}

func TestDataTicks(t *testing.T) {
	got := labels(dataTicks([]float64{128, 64, 192, 64}).Ticks(0, 1))
	if strings.Join(got, " ") != "64 128 192" {
		t.Errorf("dataTicks = %v, want 64 128 192", got)
	}
	got = labels(dataTicks([]float64{0.5, 0.25, 1}).Ticks(0, 1))
	if strings.Join(got, " ") != "0.25 0.50 1.00" {
		t.Errorf("dataTicks = %v, want 0.25 0.50 1.00", got)
	}
}

func TestAnchorAxis(t *testing.T) {
	cases := []struct {
		min, max, wantMin, wantMax float64
	}{
		{0.001, 2, 0, 2},         // time from the first step
		{0.35, 0.95, 0.35, 0.95}, // accuracy far from 0
		{-2, -0.1, -2, 0},
		{5, 10, 5, 10},
	}
	for _, c := range cases {
		p := newGonum(Frame{}, "", "", "")
		p.X.Min, p.X.Max = c.min, c.max
		anchorAxis(&p.X)
		if p.X.Min != c.wantMin || p.X.Max != c.wantMax {
			t.Errorf("anchor [%g, %g] = [%g, %g], want [%g, %g]", c.min, c.max, p.X.Min, p.X.Max, c.wantMin, c.wantMax)
		}
	}
}

func TestSupParts(t *testing.T) {
	parts, ok := supParts("2×10^{−3}")
	if !ok || len(parts) != 3 || parts[0] != "2×10" || parts[1] != "−3" || parts[2] != "" {
		t.Errorf("supParts = %q, %v", parts, ok)
	}
	if _, ok := supParts("plain text"); ok {
		t.Error("plain text has no exponent")
	}
	// An exponent makes the label narrower than its markup drawn plain
	// and taller than the base line.
	f := textStyle(tickSize).Font
	w, h, _ := textHandler.Box("10^{−3}", f)
	pw, ph, _ := textHandler.Plain.Box("10^{−3}", f)
	if !(w < pw) || !(h > ph) {
		t.Errorf("box of 10^{−3}: %v×%v, plain markup %v×%v", w, h, pw, ph)
	}
}

// legendPlot is a line over x in [0, 1] whose values fill the chosen
// corners of the data area.
func legendPlot(t *testing.T, y func(x float64) float64) *plot.Plot {
	t.Helper()
	p := newGonum(Frame{}, "legend", "x", "y")
	pts := make(plotter.XYs, 400)
	for i := range pts {
		x := float64(i) / 399
		pts[i] = plotter.XY{X: x, Y: y(x)}
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		t.Fatal(err)
	}
	l.LineStyle = lineStyle(0, false)
	p.Add(l)
	p.Legend.Add("a rather long legend label", l)
	p.Y.Min, p.Y.Max = 0, 1
	return p
}

// TestLegendPlacement: the legend goes to the first free inside corner;
// with no free place it goes outside, and it never covers the data.
func TestLegendPlacement(t *testing.T) {
	w, h := vg.Points(DefaultWidth), vg.Points(DefaultHeight)
	canvas := func() draw.Canvas {
		return draw.New(vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(72)))
	}
	box := vg.Point{X: 150, Y: 30}
	cases := []struct {
		name   string
		y      func(float64) float64
		want   [2]float64
		inside bool
	}{
		{"rising line: top left is free", func(x float64) float64 { return x }, [2]float64{0, 1}, true},
		{"falling line: top right is free", func(x float64) float64 { return 1 - x }, [2]float64{1, 1}, true},
		{"low line: top right", func(x float64) float64 { return 0.1 }, [2]float64{1, 1}, true},
		{"zigzag everywhere: outside", func(x float64) float64 { return 0.5 + 0.5*math.Sin(80*x) }, [2]float64{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := legendPlot(t, c.y)
			pos, inside := bestLegendPosition(p, canvas(), box)
			if inside != c.inside || (inside && pos != c.want) {
				t.Errorf("position %v inside=%v, want %v inside=%v", pos, inside, c.want, c.inside)
			}
		})
	}
	if !validLegend("") || !validLegend("outside") || validLegend("middle") {
		t.Error("validLegend")
	}
}

func TestRoundNumber(t *testing.T) {
	for v, want := range map[float64]bool{64: true, 4096: true, 0.25: true, 1e5: true, 0.0005: true,
		316.228: false, 31622.777: false, 12345: false, -2.5: true} {
		if got := roundNumber(v); got != want {
			t.Errorf("roundNumber(%g) = %v, want %v", v, got, want)
		}
	}
}

// TestNiceTicksInRange: tick values lie within the axis (a tick at
// 0.30000000000000004 on an axis ending at 0.3 would lose its label's
// room at the edge).
func TestNiceTicksInRange(t *testing.T) {
	for _, r := range [][2]float64{{0, 0.3}, {0.1, 0.7}, {-0.3, 0.9}, {0, 1.1}, {0.01, 0.07}} {
		for _, tk := range (niceTicks{}).Ticks(r[0], r[1]) {
			if tk.Value < r[0] || tk.Value > r[1] {
				t.Errorf("ticks(%g, %g): %v outside the range", r[0], r[1], tk.Value)
			}
		}
	}
}
