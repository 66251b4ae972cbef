package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The interval is mean ± t(n−1)·s/√n, t the exact 0.975 quantile (values
// below to 16 digits, from the regularised incomplete beta function in
// 30-digit arithmetic, mpmath).
func TestMeanCI(t *testing.T) {
	const tol = 1e-12
	const t4, t1 = 2.776445105197794, 12.7062047361747
	for _, tc := range []struct {
		name         string
		xs           []float64
		mean, lo, hi float64
	}{
		// n=5, mean 3, s = sqrt(2.5), half = t(4)·sqrt(2.5)/sqrt(5) = t(4)/sqrt(2)
		{"five", []float64{1, 2, 3, 4, 5}, 3, 3 - t4/math.Sqrt2, 3 + t4/math.Sqrt2},
		// n=2, mean 1.5, s = sqrt(0.5), half = t(1)·sqrt(0.5)/sqrt(2) = t(1)/2
		{"two", []float64{1, 2}, 1.5, 1.5 - t1/2, 1.5 + t1/2},
		{"constant", []float64{0.25, 0.25, 0.25}, 0.25, 0.25, 0.25},
		{"one", []float64{7}, 7, 7, 7},
	} {
		m, lo, hi := MeanCI(tc.xs)
		if math.Abs(m-tc.mean) > tol || math.Abs(lo-tc.lo) > tol || math.Abs(hi-tc.hi) > tol {
			t.Errorf("%s: MeanCI(%v) = %v, [%v, %v]; want %v, [%v, %v]", tc.name, tc.xs, m, lo, hi, tc.mean, tc.lo, tc.hi)
		}
	}
	if m, lo, hi := MeanCI(nil); !math.IsNaN(m) || !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("MeanCI(nil) = %v, %v, %v; want NaN", m, lo, hi)
	}
}

// Exact 0.975 quantiles of Student's t (16 digits, from the regularised
// incomplete beta function in 30-digit arithmetic, mpmath). gonum's
// quantile agrees to a relative 1e-14 up to df = 60 (measured: at most
// 1.3e-15) and 9e-15 at 120; its inverse incomplete beta loses digits as df
// grows (6e-14 at df = 1000, 2e-11 at 1e5), hence the wider tolerances
// there. The limit is the normal quantile 1.959963984540054.
func TestTQuantile975(t *testing.T) {
	for _, tc := range []struct {
		df        int
		want, tol float64 // tol is relative
	}{
		{1, 12.7062047361747, 1e-14}, {2, 4.302652729749464, 1e-14}, {3, 3.18244630528371, 1e-14},
		{4, 2.776445105197794, 1e-14}, {5, 2.570581835636316, 1e-14}, {9, 2.262157162798206, 1e-14},
		{10, 2.228138851986275, 1e-14}, {11, 2.20098516009164, 1e-14}, {30, 2.042272456301238, 1e-14},
		{40, 2.021075390306273, 1e-14}, {60, 2.000297822014261, 1e-14}, {120, 1.979930405082441, 1e-13},
		{1000, 1.962339080826408, 1e-12}, {100000, 1.95998770753461, 1e-10},
	} {
		if got := TQuantile975(tc.df); math.Abs(got-tc.want) > tc.tol*tc.want {
			t.Errorf("TQuantile975(%d) = %.16g, want %.16g (relative tolerance %g)", tc.df, got, tc.want, tc.tol)
		}
	}
	if !math.IsNaN(TQuantile975(0)) {
		t.Error("TQuantile975(0) is not NaN")
	}
}

// One JSON object per row, with the documented field names; the Nengo fields
// appear only after Compare.
func TestResultJSON(t *testing.T) {
	r := Result{Model: "integrator", Dims: 64, Batch: 10, Backend: "neurogo-cpu", Seconds: 0.5,
		RealtimeRatio: 0.5, CILow: 0.4, CIHigh: 0.6, USPerStep: 500, BuildS: 1.5, AllocsPerStep: 0,
		PeakRSSMB: math.NaN(), Simulated: 1, Steps: 1000, Repeats: 2}
	line, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsRune(line, '\n') {
		t.Errorf("JSON has a newline: %s", line)
	}
	var got map[string]any
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	for _, k := range []string{"model", "dims", "batch", "backend", "seconds", "realtime_ratio", "ci_low", "ci_high", "us_per_step", "build_s", "allocs_per_step", "opt", "bytes_per_step", "gbps", "copy_gbps", "roofline"} {
		if _, ok := got[k]; !ok {
			t.Errorf("field %q missing from %s", k, line)
		}
	}
	for _, k := range []string{"nengo_time", "speedup"} {
		if _, ok := got[k]; ok {
			t.Errorf("field %q present before Compare: %s", k, line)
		}
	}
	if got["model"] != "integrator" || got["dims"] != 64.0 || got["batch"] != 10.0 || got["peak_rss_mb"] != 0.0 {
		t.Errorf("wrong values in %s", line)
	}

	// Batch 10 against ten serial Nengo runs of 0.2 s each: nengo_time 2 s,
	// speedup 2 / 0.5 = 4.
	Compare(&r, NengoResult{Times: []float64{0.1, 0.3}, Steps: 1000, BuildS: 3})
	line, err = r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatal(err)
	}
	if nt, sp := got["nengo_time"], got["speedup"]; math.Abs(nt.(float64)-2) > 1e-12 || math.Abs(sp.(float64)-4) > 1e-12 {
		t.Errorf("nengo_time = %v, speedup = %v; want 2, 4 (%s)", nt, sp, line)
	}

	var tab strings.Builder
	WriteTable(&tab, []Result{r})
	if !strings.Contains(tab.String(), "integrator") || !strings.Contains(tab.String(), "4.00×") {
		t.Errorf("table lacks the row:\n%s", tab.String())
	}
}

func TestFindPythonMissing(t *testing.T) {
	_, err := FindPython(t.TempDir(), "")
	if err == nil || !strings.Contains(err.Error(), "scripts/nengo-bench-venv") {
		t.Errorf("FindPython without a venv: err = %v, want one naming scripts/nengo-bench-venv", err)
	}
}

// Every model builds and runs a few steps at small size, allocation-free.
func TestSmoke(t *testing.T) {
	dims, npd := 8, 16
	if testing.Short() {
		dims, npd = 2, 8
	}
	for _, m := range Models {
		t.Run(m, func(t *testing.T) {
			net, err := Network(m, dims, npd, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range net.AllEnsembles() {
				if e.NeuronType.Name() != "RectifiedLinear" {
					t.Fatalf("ensemble %q has %s, want RectifiedLinear", e.Label, e.NeuronType.Name())
				}
			}
			c := Config{Warmup: 0.002, Seconds: 0.005, Repeats: 2, DT: 0.001}
			for _, b := range []int{1, 2} {
				r, err := runNet(net, m, dims, b, c)
				if err != nil {
					t.Fatal(err)
				}
				if r.Steps != 5 || !(r.Seconds > 0) || r.CILow > r.RealtimeRatio || r.CIHigh < r.RealtimeRatio {
					t.Errorf("batch %d: implausible result %+v", b, r)
				}
				if r.AllocsPerStep != 0 {
					t.Errorf("batch %d: %v allocations per step", b, r.AllocsPerStep)
				}
			}
		})
	}
}
