package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// NengoResult is what nengo_bench.py prints for one (model, dims) cell.
type NengoResult struct {
	Model     string    `json:"model"`
	Dims      int       `json:"dims"`
	BuildS    float64   `json:"build_s"`
	Times     []float64 `json:"times"` // wall seconds per timed repeat
	Steps     int       `json:"steps"`
	Neurons   int       `json:"n_neurons"`
	PeakRSSMB float64   `json:"peak_rss_mb"`
	Nengo     string    `json:"nengo"`
	Numpy     string    `json:"numpy"`
	Scipy     string    `json:"scipy"` // "" when SciPy is absent
}

// ScriptPath returns nengo_bench.py under the source root.
func ScriptPath(root string) string { return filepath.Join(root, "sim", "bench", "nengo_bench.py") }

// FindPython returns the Python to run Nengo with: python if given, else
// root/.cache/nengo-bench-venv/bin/python (Nengo with SciPy, as
// scripts/nengo-bench-venv creates it), else root/.cache/nengo-venv/bin/python.
// The error says how to create one.
func FindPython(root, python string) (string, error) {
	if python != "" {
		if _, err := os.Stat(python); err != nil {
			return "", fmt.Errorf("--python %s: %w", python, err)
		}
		return python, nil
	}
	if root == "" {
		return "", errors.New("cannot find the neurogo source tree (set NEUROGO_ROOT) to locate .cache/nengo-venv; or pass --python")
	}
	for _, venv := range []string{"nengo-bench-venv", "nengo-venv"} {
		p := filepath.Join(root, ".cache", venv, "bin", "python")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Nengo venv under %s: run scripts/nengo-bench-venv (nengo==4.1.0 with SciPy), or pass --python", filepath.Join(root, ".cache"))
}

// RunNengo runs nengo_bench.py with python on one (model, dims) cell under
// protocol c; the script's stderr (warnings) goes to stderr.
func RunNengo(ctx context.Context, python, script, model string, dims int, c Config, stderr io.Writer) (NengoResult, error) {
	var nr NengoResult
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	cmd := exec.CommandContext(ctx, python, script,
		"--model", model, "--dims", strconv.Itoa(dims), "--neurons", strconv.Itoa(TotalNeurons),
		"--warmup", f(c.Warmup), "--seconds", f(c.Seconds), "--repeats", strconv.Itoa(c.Repeats),
		"--seed", strconv.FormatInt(c.Seed, 10), "--dt", f(c.DT))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, stderr
	if err := cmd.Run(); err != nil {
		return nr, fmt.Errorf("nengo %s D=%d: %s %s: %w", model, dims, python, script, err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &nr); err != nil {
		return nr, fmt.Errorf("nengo %s D=%d: cannot parse %q: %w", model, dims, out.String(), err)
	}
	if len(nr.Times) == 0 || nr.Steps <= 0 {
		return nr, fmt.Errorf("nengo %s D=%d: no timings in %q", model, dims, out.String())
	}
	return nr, nil
}

// Compare fills r's Nengo fields from nr: Nengo's time for the same work
// is r.Batch serial runs, i.e. Batch × the mean single-run time, and the
// speedup is that over r.Seconds.
func Compare(r *Result, nr NengoResult) {
	mean, _, _ := MeanCI(nr.Times)
	nt := float64(r.Batch) * mean
	us := nt / float64(nr.Steps) * 1e6
	sp := nt / r.Seconds
	b, rss := nr.BuildS, nr.PeakRSSMB
	r.NengoTime, r.NengoUSPerStep, r.NengoBuildS, r.NengoPeakRSSMB, r.Speedup = &nt, &us, &b, &rss, &sp
}
