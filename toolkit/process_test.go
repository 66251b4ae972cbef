package toolkit_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
)

// whiteSignalRtol is Nengo's test_processes.py bound on the RMS of a
// WhiteSignal: within 2 %.
const whiteSignalRtol = 0.02

func TestWhiteSignalRMS(t *testing.T) {
	const dt, d = 0.001, 50
	for _, rms := range []float64{0.5, 1, 2} {
		w := &toolkit.WhiteSignal{Period: 10, High: 20, RMS: rms}
		f, err := w.Step(0, d, dt, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, d)
		var ss float64
		n := int(math.Round(w.Period / dt))
		first := make([]float64, d)
		for k := 1; k <= n; k++ {
			f(float64(k)*dt, nil, out)
			if k == 1 {
				copy(first, out)
			}
			for _, v := range out {
				ss += v * v
			}
		}
		got := math.Sqrt(ss / float64(n*d))
		t.Logf("rms %v: measured %.4f", rms, got)
		if math.Abs(got-rms) > whiteSignalRtol*rms {
			t.Errorf("rms %v: measured %v", rms, got)
		}
		f(float64(n+1)*dt, nil, out) // periodic
		for i := range out {
			if out[i] != first[i] {
				t.Fatalf("not periodic: %v vs %v", out[i], first[i])
			}
		}
	}
	if _, err := (&toolkit.WhiteSignal{Period: 1, High: 0.5, RMS: 0.5}).Step(0, 1, 0.001, nil); err == nil {
		t.Error("High below 1/Period accepted")
	}
}

func TestPresentInputPiecewise(t *testing.T) {
	const dt = 0.001
	p := &toolkit.PresentInput{Inputs: [][]float64{{1}, {2}, {3}}, PresentationTime: 0.01}
	f, err := p.Step(0, 1, dt, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := []float64{0}
	for _, tc := range []struct{ t, want float64 }{{0.001, 1}, {0.010, 1}, {0.011, 2}, {0.030, 3}, {0.031, 1}} {
		f(tc.t, nil, out)
		if out[0] != tc.want {
			t.Errorf("PresentInput at t = %v: %v, want %v", tc.t, out[0], tc.want)
		}
	}
	pw := &toolkit.Piecewise{Times: []float64{0.1, 0.5}, Values: [][]float64{{1}, {-1}}}
	g, err := pw.Step(0, 1, dt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ t, want float64 }{{0.05, 0}, {0.1, 1}, {0.3, 1}, {0.5, -1}, {2, -1}} {
		g(tc.t, nil, out)
		if out[0] != tc.want {
			t.Errorf("Piecewise at t = %v: %v, want %v", tc.t, out[0], tc.want)
		}
	}
	// a time exactly at t + dt/2 (0.002 + 0.0005 == 0.0025 in float64)
	// takes effect one step later, as numpy.searchsorted(times, t + dt/2)
	// - 1 gives in Nengo 4.1: nengo.processes.Piecewise({0: 0,
	// 0.0025: 1}) outputs 0, 0, 1 at t = 0.001, 0.002, 0.003
	edge := &toolkit.Piecewise{Times: []float64{0, 0.0025}, Values: [][]float64{{0}, {1}}}
	h, err := edge.Step(0, 1, dt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ t, want float64 }{{0.001, 0}, {0.002, 0}, {0.003, 1}} {
		h(tc.t, nil, out)
		if out[0] != tc.want {
			t.Errorf("Piecewise with a time at t + dt/2, at t = %v: %v, want %v", tc.t, out[0], tc.want)
		}
	}
	if err := (&toolkit.Piecewise{Times: []float64{1, 0}, Values: [][]float64{{1}, {2}}}).Validate(); err == nil {
		t.Error("unsorted Piecewise accepted")
	}
}

func TestWhiteNoiseScale(t *testing.T) {
	const dt = 0.001
	f, err := toolkit.NewWhiteNoise().Step(0, 4, dt, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 4)
	var ss float64
	const n = 5000
	for k := range n {
		f(float64(k)*dt, nil, out)
		for _, v := range out {
			ss += v * v
		}
	}
	std := math.Sqrt(ss / (4 * n))
	if want := 1 / math.Sqrt(dt); math.Abs(std-want) > 0.03*want {
		t.Errorf("std %v, want 1/sqrt(dt) = %v", std, want)
	}
}
