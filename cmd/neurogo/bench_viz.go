package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/neurogo/neurogo/internal/machine"
	"github.com/neurogo/neurogo/kernel"
	"github.com/neurogo/neurogo/viz/vizbench"
)

const benchVizUsage = `usage: neurogo bench viz [--quick] [--repeat N] [--python PATH] [--json FILE] [--figures DIR]

Rendering speed of viz beside matplotlib, in one run: a spike raster of
1000 neurons × 10 s at dt = 1 ms (Poisson-like spikes at ~20 Hz, fixed
seed) with viz.Raster, and a 10×10 confusion matrix (annotated, colour bar)
with viz.ConfusionMatrix, both 640×400 CSS px, PNG at 144 dpi (1280×800).
With --python, matplotlib (Agg) draws the same figures from the same data
(python/bench/viz_matplotlib.py: eventplot; imshow + colorbar + text) at
the same pixel size, which is checked. Timed: construction + render + PNG
encode, median of N runs (default 7, --quick 3) after a warm-up, the two
sides alternating. Ratio = matplotlib ÷ neurogo (above 1: neurogo is
faster). Without --python, neurogo alone.

--json FILE writes {"run": {command, date, machine, quick, protocol},
"results": [...]}; --figures DIR keeps the warm-up PNGs of both sides.
Progress goes to stderr, the table to stdout.
`

// cmdBenchViz runs `neurogo bench viz`.
func cmdBenchViz(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench viz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, benchVizUsage) }
	quick := fs.Bool("quick", false, "3 timed runs per figure and side")
	repeat := fs.Int("repeat", 0, "timed runs per figure and side (default 7, --quick 3)")
	python := fs.String("python", "", "Python with matplotlib "+vizbench.MatplotlibVersion+" (e.g. .cache/venv/bin/python); none: neurogo alone")
	jsonFile := fs.String("json", "", "write the run record and results as JSON to this file")
	figures := fs.String("figures", "", "write the warm-up PNGs of both sides to this directory")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "neurogo bench viz: unexpected argument %q\n%s", fs.Arg(0), benchVizUsage)
		return 2
	}
	if *repeat < 0 {
		fmt.Fprintf(stderr, "neurogo bench viz: --repeat %d: must be at least 1\n", *repeat)
		return 2
	}
	n := *repeat
	if n == 0 {
		n = vizbench.DefaultRepeat
		if *quick {
			n = 3
		}
	}
	o := vizbench.Options{Repeat: n, Python: *python, Figures: *figures, Progress: stderr}
	if *python != "" {
		root := kernel.SourceRoot()
		if root == "" {
			fmt.Fprintf(stderr, "neurogo bench viz: --python: cannot find the neurogo source tree for %s (set NEUROGO_ROOT)\n", vizbench.ScriptPath)
			return 1
		}
		o.Script = filepath.Join(root, vizbench.ScriptPath)
	}
	run := benchRun("viz", args, *quick, vizProtocol(n, *python != ""))
	rep, err := vizbench.Run(context.Background(), o)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench viz: %v\n", err)
		return 1
	}
	if v := rep.Peer; v.Matplotlib != "" {
		run.Machine.SetPeer("matplotlib", v.Matplotlib)
		run.Machine.SetPeer("numpy", v.Numpy)
		run.Machine.SetPeer("python", v.Python)
	}
	fmt.Fprintf(stdout, "neurogo bench viz: construction + render + PNG encode, median of %d runs after a warm-up", n)
	if rep.Peer.Matplotlib != "" {
		fmt.Fprintf(stdout, ", alternating with matplotlib %s (Agg); ratio = matplotlib ÷ neurogo (above 1: neurogo is faster)", rep.Peer.Matplotlib)
	}
	fmt.Fprintln(stdout)
	if err := vizbench.WriteTable(stdout, rep); err != nil {
		fmt.Fprintf(stderr, "neurogo bench viz: %v\n", err)
		return 1
	}
	if *jsonFile != "" {
		b, err := machine.MarshalLine(struct {
			Run     machine.Run       `json:"run"`
			Results []vizbench.Result `json:"results"`
		}{run, rep.Results})
		if err == nil {
			err = os.WriteFile(*jsonFile, b, 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "neurogo bench viz: --json: %v\n", err)
			return 1
		}
	}
	return 0
}

// vizProtocol is the protocol part of the run record of `bench viz`.
func vizProtocol(repeat int, peer bool) map[string]any {
	p := map[string]any{
		"bench": "viz", "repeat": repeat, "warmup": 1,
		"raster": map[string]any{"neurons": vizbench.Neurons, "steps": vizbench.Steps, "dt": vizbench.DT,
			"rate_hz": vizbench.RateHz, "seed": vizbench.Seed, "spikes": "Bernoulli p = rate × dt per step, dense [step][neuron]"},
		"confusion": map[string]any{"classes": vizbench.Classes, "annotated": true, "colorbar": true},
		"css_px":    []int{vizbench.Width, vizbench.Height}, "dpi": vizbench.DPI,
		"timing": "construction + render + PNG encode, median of the timed runs; a garbage collection before each run, not timed",
	}
	if peer {
		p["peer"] = map[string]any{
			"name": "matplotlib", "backend": "Agg", "script": vizbench.ScriptPath,
			"raster":    "eventplot of per-neuron spike times (np.nonzero of the dense matrix, timed)",
			"confusion": "imshow + colorbar + text per cell",
			"figure":    "plt.subplots(figsize = CSS px / 72 in, dpi = 144, layout=\"constrained\"), savefig(format=\"png\") into memory",
			"order":     "the two sides alternate run by run, the first side alternating too",
		}
	}
	return p
}
