package vizbench

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sbinet/npyio"
)

// The raster is fixed by its seed and has the intended rate.
func TestSpikes(t *testing.T) {
	a, flat := Spikes(Seed)
	b, _ := Spikes(Seed)
	if len(a) != Steps || len(a[0]) != Neurons || len(flat) != Steps*Neurons {
		t.Fatalf("Spikes: %d × %d (flat %d), want %d × %d", len(a), len(a[0]), len(flat), Steps, Neurons)
	}
	n := 0
	for s := range a {
		for j, v := range a[s] {
			if v != b[s][j] {
				t.Fatalf("Spikes(Seed) differs between calls at [%d][%d]", s, j)
			}
			if v != 0 {
				if v != 1/DT {
					t.Fatalf("spike value %g, want 1/dt = %g", v, 1/DT)
				}
				n++
			}
		}
	}
	rate := float64(n) / (Neurons * Steps * DT)
	if rate < 19.5 || rate > 20.5 {
		t.Errorf("mean rate %.2f Hz, want ~%g Hz", rate, RateHz)
	}
	if c, _ := Spikes(Seed + 1); equalRows(c, a) {
		t.Error("Spikes: another seed gives the same raster")
	}
}

func equalRows(a, b [][]float64) bool {
	for s := range a {
		for j := range a[s] {
			if a[s][j] != b[s][j] {
				return false
			}
		}
	}
	return true
}

// Every class has 100 examples, 80 to 98 of them correct.
func TestCounts(t *testing.T) {
	m := Counts()
	if len(m) != Classes {
		t.Fatalf("Counts: %d rows, want %d", len(m), Classes)
	}
	for i, row := range m {
		var s float64
		for _, v := range row {
			if v < 0 {
				t.Errorf("Counts()[%d] has %g < 0", i, v)
			}
			s += v
		}
		if s != 100 || row[i] < 80 || row[i] > 98 {
			t.Errorf("Counts()[%d] = %v: sum %g (want 100), diagonal %g (want 80–98)", i, row, s, row[i])
		}
	}
}

// Both figures render at 1280×800 pixels.
func TestRenderSizes(t *testing.T) {
	spikes, _ := Spikes(Seed)
	for name, render := range map[string]func() ([]byte, error){
		"raster":    func() ([]byte, error) { return RenderRaster(spikes, DT) },
		"confusion": func() ([]byte, error) { return RenderConfusion(Counts()) },
	} {
		b, err := render()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, h, err := pngSize(b)
		if err != nil || w != 2*Width || h != 2*Height {
			t.Errorf("%s: PNG %d×%d (%v), want %d×%d", name, w, h, err, 2*Width, 2*Height)
		}
	}
}

// The .npy files read back with the shapes and values written.
func TestWriteData(t *testing.T) {
	dir := t.TempDir()
	_, flat := Spikes(Seed)
	counts := Counts()
	if err := WriteData(dir, flat, counts); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "counts.npy"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := npyio.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Header.Descr.Shape; len(got) != 2 || got[0] != Classes || got[1] != Classes {
		t.Fatalf("counts.npy shape %v, want [%d %d]", got, Classes, Classes)
	}
	var back []float64
	if err := r.Read(&back); err != nil {
		t.Fatal(err)
	}
	for i := range counts {
		for j := range counts[i] {
			if back[i*Classes+j] != counts[i][j] {
				t.Fatalf("counts.npy[%d][%d] = %g, want %g", i, j, back[i*Classes+j], counts[i][j])
			}
		}
	}
	if err := WriteData(dir, flat[:10], counts); err == nil || !strings.Contains(err.Error(), "len(flat) = 10") {
		t.Errorf("WriteData with a short flat: %v", err)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := Median(tc.xs); got != tc.want {
			t.Errorf("Median(%v) = %g, want %g", tc.xs, got, tc.want)
		}
	}
}

// A Python that cannot import matplotlib gives a MissingError naming the
// pip command; no timing is involved.
func TestMissingMatplotlib(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX shell")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	// -S leaves out site-packages, so neither matplotlib nor NumPy imports.
	fake := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexec "+py+" -S \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", ScriptPath))
	var log bytes.Buffer
	_, err = Run(t.Context(), Options{Repeat: 1, Python: fake, Script: script, Progress: &log})
	var me *MissingError
	if !errors.As(err, &me) {
		t.Fatalf("Run with a Python without matplotlib: %v, want a MissingError", err)
	}
	if want := fake + " -m pip install matplotlib==" + MatplotlibVersion; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %q", err, want)
	}
}

// fakePeer is a stand-in for the peer's script that speaks its protocol
// but draws every figure as a 2×1 PNG.
const fakePeer = `import base64, json, sys
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAAAAADRSSBWAAAAC0lEQVR4nGNgYAAAAAMAAbitOmMAAAAASUVORK5CYII=")
print(json.dumps({"python": "3", "matplotlib": "0", "numpy": "0", "backend": "agg"}), flush=True)
for line in sys.stdin:
    w = line.split()
    if w[0] == "quit":
        break
    if len(w) > 1:
        open(w[1], "wb").write(PNG)
    print(json.dumps({"figure": w[0], "ms": 1.0, "bytes": len(PNG)}), flush=True)
`

// Run fails, naming both sizes, when the peer's PNG has another pixel
// size than neurogo's.
func TestPixelSizeMismatch(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	script := filepath.Join(t.TempDir(), "fake_peer.py")
	if err := os.WriteFile(script, []byte(fakePeer), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(t.Context(), Options{Repeat: 1, Python: py, Script: script})
	if err == nil || !strings.Contains(err.Error(), "differ in pixel size: neurogo 1280×800, matplotlib 2×1") {
		t.Errorf("Run with a peer drawing 2×1 PNGs: %v, want a pixel-size error", err)
	}
}

// MatplotlibVersion is the version requirements.txt pins.
func TestMatplotlibPinned(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "requirements.txt"))
	if err != nil {
		t.Skip(err)
	}
	if !strings.Contains(string(b), "\nmatplotlib=="+MatplotlibVersion+"\n") {
		t.Errorf("requirements.txt does not pin matplotlib==%s", MatplotlibVersion)
	}
}

// The human table has a row per figure and the ratio column only with a
// peer.
func TestWriteTable(t *testing.T) {
	rep := Report{Results: []Result{
		{Figure: "raster", Neurogo: Side{MedianMS: 10, PNGBytes: 2048, Width: 1280, Height: 800}},
		{Figure: "confusion", Neurogo: Side{MedianMS: 5, PNGBytes: 1024, Width: 1280, Height: 800}},
	}}
	var buf bytes.Buffer
	if err := WriteTable(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); strings.Contains(s, "ratio") || !strings.Contains(s, "1280×800") || strings.Count(s, "\n") != 3 {
		t.Errorf("table without a peer:\n%s", s)
	}
	rep.Peer.Matplotlib = MatplotlibVersion
	rep.Results[0].Matplotlib = &Side{MedianMS: 30, PNGBytes: 4096, Width: 1280, Height: 800}
	rep.Results[0].Ratio = 3
	buf.Reset()
	if err := WriteTable(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, "ratio") || !strings.Contains(s, "3.00×") {
		t.Errorf("table with a peer:\n%s", s)
	}
}
