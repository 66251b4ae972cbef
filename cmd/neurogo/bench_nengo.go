package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/neurogo/neurogo/kernel"
	"github.com/neurogo/neurogo/sim/bench"
)

const benchNengoUsage = `usage: neurogo bench nengo [--quick] [--models integrator,cconv,basal_ganglia,pes]
                           [--dims 64,128,192] [--rounds N] [--repeats N] [--seconds S]
                           [--python PATH] [--json]

The Nengo backend (python/nengo_neurogo) beside Nengo's reference
simulator: the four benchmark models of the NengoDL paper (§5.1; 9984
neurons, 9984/D per dimension, RectifiedLinear, batch 1) built in Python
with Nengo's builder and run once with nengo.Simulator (optimize=True:
Nengo's operator merging) and once with nengo_neurogo.Simulator
(optimize=True: neurogo's optimiser; the steps run in Go through
libneurogo). Both run sim/bench/nengo_bench.py with the same protocol:
build, 0.1 s warm-up, 5 repeats of 5 s (--quick: 0.05 s, 2 × 1 s).

Every cell runs --rounds rounds (default 3) of the two sides, their order
alternating from round to round and cell to cell; each side reports the
round with its median µs/step (the upper median for an even count) and
the median of its build times over the rounds. The build time is the
whole constructor: Nengo's build and, for neurogo, the translation and
the Go build. speed-up = Nengo µs/step ÷ neurogo µs/step; build ratio =
neurogo build ÷ Nengo build. python ops counts the operators that
nengo_neurogo runs in Python (as callbacks from the Go step).

--python is the Python with nengo==4.1.0 and nengo_neurogo (default
<repo>/.cache/nengo-bench-venv/bin/python: run scripts/nengo-bench-venv).
The backend measured is the source tree's: <repo>/python/nengo_neurogo
goes first on PYTHONPATH, with its library (built by
scripts/nengo-bench-venv, or NENGO_NEUROGO_LIB).
Progress goes to stderr; with --json, stdout has one JSON line
{"run": {command, date, machine, quick, protocol}} and then one JSON
object per cell, and the table goes to stderr.
`

// nengoSide is what nengo_bench.py prints for one run of one side.
type nengoSide struct {
	bench.NengoResult
	Simulator     string   `json:"simulator"`
	PythonOps     *int     `json:"python_ops"`      // neurogo only
	PythonOpTypes []string `json:"python_op_types"` // neurogo only: "N × Class: reason"
}

// usPerStep is the side's mean wall time per step in µs over its repeats.
func (s nengoSide) usPerStep() float64 {
	if s.Steps <= 0 || len(s.Times) == 0 {
		return math.NaN()
	}
	mean, _, _ := bench.MeanCI(s.Times)
	return mean / float64(s.Steps) * 1e6
}

// ciHalfUS is the half-width of the 95% t-interval of µs/step over the
// side's repeats (0 for a single repeat).
func (s nengoSide) ciHalfUS() float64 {
	if s.Steps <= 0 || len(s.Times) == 0 {
		return math.NaN()
	}
	_, lo, hi := bench.MeanCI(s.Times)
	return (hi - lo) / 2 / float64(s.Steps) * 1e6
}

// nengoRow is one cell of `bench nengo`: both sides' median rounds and
// the ratios between them.
type nengoRow struct {
	Model    string   `json:"model"`
	Dims     int      `json:"dims"`
	Batch    int      `json:"batch"`
	PerD     int      `json:"neurons_per_d"`
	Neurons  int      `json:"n_neurons"`
	Steps    int      `json:"steps"` // per timed repeat
	Repeats  int      `json:"repeats"`
	Rounds   int      `json:"rounds"`
	NengoUS  float64  `json:"nengo_us_per_step"`
	NengoCI  float64  `json:"nengo_ci_half_us"`
	NeuroUS  float64  `json:"neurogo_us_per_step"`
	NeuroCI  float64  `json:"neurogo_ci_half_us"`
	Speedup  float64  `json:"speedup"` // Nengo µs/step ÷ neurogo µs/step
	NengoB   float64  `json:"nengo_build_s"`
	NeuroB   float64  `json:"neurogo_build_s"`
	BuildRat float64  `json:"build_ratio"` // neurogo build ÷ Nengo build
	NengoRSS float64  `json:"nengo_peak_rss_mb"`
	NeuroRSS float64  `json:"neurogo_peak_rss_mb"`
	PyOps    int      `json:"python_ops"`
	PyTypes  []string `json:"python_op_types"`
	// every round, in order, for the record
	NengoRoundsUS []float64 `json:"nengo_rounds_us_per_step"`
	NeuroRoundsUS []float64 `json:"neurogo_rounds_us_per_step"`
	NengoRoundsB  []float64 `json:"nengo_rounds_build_s"`
	NeuroRoundsB  []float64 `json:"neurogo_rounds_build_s"`
}

// nengoCellRow combines the rounds of one cell (each side's runs, in
// round order) into its row: per side the round with the median µs/step
// and the median build time.
func nengoCellRow(model string, dims int, ng, nr []nengoSide) (nengoRow, error) {
	if len(ng) == 0 || len(ng) != len(nr) {
		return nengoRow{}, fmt.Errorf("%s D=%d: %d Nengo rounds, %d neurogo rounds", model, dims, len(ng), len(nr))
	}
	row := nengoRow{Model: model, Dims: dims, Batch: 1, Rounds: len(ng)}
	for i := range ng {
		row.NengoRoundsUS = append(row.NengoRoundsUS, ng[i].usPerStep())
		row.NeuroRoundsUS = append(row.NeuroRoundsUS, nr[i].usPerStep())
		row.NengoRoundsB = append(row.NengoRoundsB, ng[i].BuildS)
		row.NeuroRoundsB = append(row.NeuroRoundsB, nr[i].BuildS)
	}
	a, b := ng[medianIndex(row.NengoRoundsUS)], nr[medianIndex(row.NeuroRoundsUS)]
	for _, s := range []nengoSide{a, b} {
		if s.Steps <= 0 || len(s.Times) == 0 {
			return nengoRow{}, fmt.Errorf("%s D=%d: %s: no timings", model, dims, s.Simulator)
		}
	}
	if a.Steps != b.Steps || a.Neurons != b.Neurons {
		return nengoRow{}, fmt.Errorf("%s D=%d: Nengo ran %d steps of %d neurons, neurogo %d steps of %d neurons", model, dims, a.Steps, a.Neurons, b.Steps, b.Neurons)
	}
	if b.PythonOps == nil {
		return nengoRow{}, fmt.Errorf("%s D=%d: the neurogo side reported no python_ops (not nengo_neurogo?)", model, dims)
	}
	row.PerD, row.Neurons, row.Steps, row.Repeats = bench.NeuronsPerD(dims), a.Neurons, a.Steps, len(a.Times)
	row.NengoUS, row.NengoCI = a.usPerStep(), a.ciHalfUS()
	row.NeuroUS, row.NeuroCI = b.usPerStep(), b.ciHalfUS()
	row.Speedup = row.NengoUS / row.NeuroUS
	row.NengoB, row.NeuroB = medianAt(row.NengoRoundsB), medianAt(row.NeuroRoundsB)
	row.BuildRat = row.NeuroB / row.NengoB
	row.NengoRSS, row.NeuroRSS = a.PeakRSSMB, b.PeakRSSMB
	row.PyOps, row.PyTypes = *b.PythonOps, b.PythonOpTypes
	if row.PyTypes == nil {
		row.PyTypes = []string{}
	}
	return row, nil
}

// medianIndex is the index of the median of xs (the upper median for an
// even count; NaNs sort last).
func medianIndex(xs []float64) int {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := xs[idx[a]], xs[idx[b]]
		return x < y || (!math.IsNaN(x) && math.IsNaN(y))
	})
	return idx[len(idx)/2]
}

// medianAt is the element of xs at medianIndex (xs stays in order).
func medianAt(xs []float64) float64 { return xs[medianIndex(xs)] }

// nengoFirst reports whether the Nengo side runs first in round (0-based)
// of the n-th cell (1-based): the order alternates across rounds and
// cells, so that neither side always runs on a machine the other has just
// warmed.
func nengoFirst(n, round int) bool { return (n+round)%2 == 1 }

// runNengoSide runs nengo_bench.py with python for one side on one cell.
func runNengoSide(ctx context.Context, python, script string, env []string, simulator, model string, dims int, c bench.Config, stderr io.Writer) (nengoSide, error) {
	var s nengoSide
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	cmd := exec.CommandContext(ctx, python, script, "--simulator", simulator,
		"--model", model, "--dims", strconv.Itoa(dims), "--neurons", strconv.Itoa(bench.TotalNeurons),
		"--warmup", f(c.Warmup), "--seconds", f(c.Seconds), "--repeats", strconv.Itoa(c.Repeats),
		"--seed", strconv.FormatInt(c.Seed, 10), "--dt", f(c.DT))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Env = &out, stderr, env
	if err := cmd.Run(); err != nil {
		return s, fmt.Errorf("%s %s D=%d: %s %s: %w", simulator, model, dims, python, script, err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		return s, fmt.Errorf("%s %s D=%d: cannot parse %q: %w", simulator, model, dims, out.String(), err)
	}
	if s.Simulator != simulator {
		return s, fmt.Errorf("%s %s D=%d: the script ran %q (an older nengo_bench.py?)", simulator, model, dims, s.Simulator)
	}
	if len(s.Times) == 0 || s.Steps <= 0 {
		return s, fmt.Errorf("%s %s D=%d: no timings in %q", simulator, model, dims, out.String())
	}
	return s, nil
}

// backendEnv is the environment of the Python processes: this one's,
// with <root>/python/nengo_neurogo first on PYTHONPATH when the source
// tree has the backend, so that the backend measured is the one of the
// source tree the script comes from (whatever editable install the venv
// holds). Its library must then be built there (scripts/nengo-bench-venv
// builds it), or named by NENGO_NEUROGO_LIB: a missing library would be
// built on demand inside the first timed build.
func backendEnv(root string) ([]string, error) {
	env := os.Environ()
	pkg := filepath.Join(root, "python", "nengo_neurogo")
	if _, err := os.Stat(filepath.Join(pkg, "nengo_neurogo", "__init__.py")); err != nil {
		return env, nil // no backend in the tree: the venv's own
	}
	if os.Getenv("NENGO_NEUROGO_LIB") == "" {
		lib := filepath.Join(pkg, "nengo_neurogo", "libneurogo.so")
		if _, err := os.Stat(lib); err != nil {
			return nil, fmt.Errorf("%s is missing: run scripts/nengo-bench-venv (it builds it), or set NENGO_NEUROGO_LIB", lib)
		}
	}
	pp := pkg
	if old := os.Getenv("PYTHONPATH"); old != "" {
		pp += string(os.PathListSeparator) + old
	}
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PYTHONPATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PYTHONPATH="+pp), nil
}

// neurogoVersions is what nengo_bench.py --simulator neurogo --versions
// prints.
type neurogoVersions struct {
	nengoVersionsResult
	NengoNeurogo string `json:"nengo_neurogo"`
	Package      string `json:"package"` // directory nengo_neurogo is imported from
	Library      string `json:"library"` // path of libneurogo
}

// backendVersions asks nengo_bench.py, run with python, for the versions
// of Nengo, NumPy, SciPy and nengo_neurogo; the error says how to get a
// Python that has them.
func backendVersions(ctx context.Context, python, script string, env []string) (neurogoVersions, error) {
	var v neurogoVersions
	cmd := exec.CommandContext(ctx, python, script, "--simulator", "neurogo", "--versions")
	cmd.Env = env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(errb.String())
		if strings.Contains(msg, "nengo_neurogo") || strings.Contains(msg, "No module named") {
			return v, fmt.Errorf("%s has no nengo_neurogo (or no nengo): run scripts/nengo-bench-venv, or pass --python (%s)", python, lastLine([]byte(msg)))
		}
		return v, fmt.Errorf("%s %s --simulator neurogo --versions: %w (%s)", python, script, err, lastLine([]byte(msg)))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &v); err != nil {
		return v, fmt.Errorf("%s --versions: cannot parse %q: %w", script, out, err)
	}
	if v.Nengo == "" || v.NengoNeurogo == "" {
		return v, fmt.Errorf("%s --simulator neurogo --versions: no Nengo or nengo_neurogo version in %q: run scripts/nengo-bench-venv", script, out)
	}
	return v, nil
}

// nengoBenchFlags are the parsed flags of `bench nengo`.
type nengoBenchFlags struct {
	quick, json bool
	models      []string
	dims        []int
	rounds      int
	python      string
	cfg         bench.Config
}

// parseBenchNengo parses the flags of `bench nengo`; a usage error gives
// exit code 2 (already reported on stderr).
func parseBenchNengo(args []string, stderr io.Writer) (nengoBenchFlags, bool) {
	var p nengoBenchFlags
	fs := flag.NewFlagSet("bench nengo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, benchNengoUsage) }
	quick := fs.Bool("quick", false, "0.05 s warm-up, 2 repeats of 1 s")
	models := fs.String("models", strings.Join(bench.Models, ","), "comma-separated models")
	dims := fs.String("dims", "64,128,192", "comma-separated dimensions D")
	rounds := fs.Int("rounds", 3, "rounds of both sides per cell, alternating; each side's median round is reported")
	repeats := fs.Int("repeats", 0, "timed repeats (default 5, --quick 2)")
	seconds := fs.Float64("seconds", 0, "simulated seconds per repeat (default 5, --quick 1)")
	jsonOut := fs.Bool("json", false, "one JSON object per cell on stdout")
	python := fs.String("python", "", "Python with nengo==4.1.0 and nengo_neurogo (default <repo>/.cache/nengo-bench-venv/bin/python)")
	if err := fs.Parse(args); err != nil {
		return p, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "neurogo bench nengo: unexpected argument %q\n%s", fs.Arg(0), benchNengoUsage)
		return p, false
	}
	p.quick, p.json, p.python = *quick, *jsonOut, *python
	p.models = splitList(*models)
	if len(p.models) == 0 {
		fmt.Fprintln(stderr, "neurogo bench nengo: --models: empty list")
		return p, false
	}
	known := map[string]bool{}
	for _, m := range bench.Models {
		known[m] = true
	}
	for _, m := range p.models {
		if !known[m] {
			fmt.Fprintf(stderr, "neurogo bench nengo: --models: %q: must be one of %s\n", m, strings.Join(bench.Models, ", "))
			return p, false
		}
	}
	var err error
	if p.dims, err = intList("--dims", *dims); err != nil {
		fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
		return p, false
	}
	if *rounds < 1 {
		fmt.Fprintf(stderr, "neurogo bench nengo: --rounds %d: want at least 1\n", *rounds)
		return p, false
	}
	if *repeats < 0 || *seconds < 0 {
		fmt.Fprintln(stderr, "neurogo bench nengo: --repeats and --seconds must not be negative")
		return p, false
	}
	p.rounds = *rounds
	p.cfg = bench.Default()
	if p.quick {
		p.cfg = bench.Quick()
	}
	if *repeats > 0 {
		p.cfg.Repeats = *repeats
	}
	if *seconds > 0 {
		p.cfg.Seconds = *seconds
	}
	return p, true
}

// cmdBenchNengo runs `neurogo bench nengo`.
func cmdBenchNengo(args []string, stdout, stderr io.Writer) int {
	p, ok := parseBenchNengo(args, stderr)
	if !ok {
		return 2
	}
	ctx := context.Background()
	root := kernel.SourceRoot()
	if root == "" {
		fmt.Fprintln(stderr, "neurogo bench nengo: cannot find the neurogo source tree for sim/bench/nengo_bench.py (set NEUROGO_ROOT)")
		return 1
	}
	py, err := bench.FindPython(root, p.python)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
		return 1
	}
	script := bench.ScriptPath(root)
	if _, err := os.Stat(script); err != nil {
		fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
		return 1
	}
	env, err := backendEnv(root)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
		return 1
	}
	v, err := backendVersions(ctx, py, script, env)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
		return 1
	}
	cfg := p.cfg
	run := benchRun("nengo", args, p.quick, map[string]any{
		"bench": "nengo", "models": p.models, "dims": p.dims, "batches": []int{1},
		"neurons": bench.TotalNeurons, "neuron_type": "RectifiedLinear",
		"warmup_s": cfg.Warmup, "seconds": cfg.Seconds, "repeats": cfg.Repeats, "dt": cfg.DT,
		"rounds": p.rounds, "python": py, "backend": relTo(root, v.Package), "library": relTo(root, v.Library),
		"sides": map[string]string{
			"nengo":   "nengo.Simulator(optimize=True): Nengo's operator merging",
			"neurogo": "nengo_neurogo.Simulator(optimize=True): neurogo's optimiser, steps in Go through libneurogo",
		},
		"interval": "95% Student t over the repeats of the median round",
		"median":   "per side: the round with the median µs/step; build: the median over rounds",
	})
	run.Machine.SetPeer("nengo", v.Nengo)
	run.Machine.SetPeer("numpy", v.Numpy)
	run.Machine.SetPeer("scipy", v.Scipy)
	run.Machine.SetPeer("nengo_neurogo", v.NengoNeurogo)
	if v.Scipy == "" {
		fmt.Fprintf(stderr, "neurogo bench nengo: note: %s has no SciPy; Nengo then skips some optimisations (scripts/nengo-bench-venv installs it)\n", py)
	}
	if p.json {
		if err := writeRunLine(stdout, run); err != nil {
			fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
			return 1
		}
	}
	var rows []nengoRow
	n, cells := 0, len(p.models)*len(p.dims)
	for _, m := range p.models {
		for _, d := range p.dims {
			n++
			fmt.Fprintf(stderr, "[%d/%d] %s D=%d (%d neurons/D)\n", n, cells, m, d, bench.NeuronsPerD(d))
			var ng, nr []nengoSide
			for round := range p.rounds {
				order := []string{"neurogo", "nengo"}
				if nengoFirst(n, round) {
					order = []string{"nengo", "neurogo"}
				}
				for _, side := range order {
					s, err := runNengoSide(ctx, py, script, env, side, m, d, cfg, stderr)
					if err != nil {
						fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
						return 1
					}
					fmt.Fprintf(stderr, "  round %d/%d %-7s build %.2f s, %.1f µs/step", round+1, p.rounds, side, s.BuildS, s.usPerStep())
					if s.PythonOps != nil {
						fmt.Fprintf(stderr, ", %d ops in Python", *s.PythonOps)
					}
					fmt.Fprintln(stderr)
					if side == "nengo" {
						ng = append(ng, s)
					} else {
						nr = append(nr, s)
					}
				}
			}
			row, err := nengoCellRow(m, d, ng, nr)
			if err != nil {
				fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
				return 1
			}
			for _, t := range row.PyTypes {
				fmt.Fprintf(stderr, "  in Python: %s\n", t)
			}
			fmt.Fprintf(stderr, "  %s D=%d: Nengo %.1f µs/step, neurogo %.1f (speed-up %.1f×); build %.2f s, %.2f s (÷ %.2f)\n",
				m, d, row.NengoUS, row.NeuroUS, row.Speedup, row.NengoB, row.NeuroB, row.BuildRat)
			if p.json {
				b, err := json.Marshal(row)
				if err != nil {
					fmt.Fprintf(stderr, "neurogo bench nengo: %v\n", err)
					return 1
				}
				fmt.Fprintf(stdout, "%s\n", b)
			}
			rows = append(rows, row)
		}
	}
	tw := stdout
	if p.json {
		tw = stderr
	}
	fmt.Fprintf(tw, "\nneurogo bench nengo: %d neurons, RectifiedLinear, batch 1, warm-up %g s, %d × %g s simulated, %d round(s) (median); Nengo %s, nengo_neurogo %s; 95%% t-interval\n",
		bench.TotalNeurons, cfg.Warmup, cfg.Repeats, cfg.Seconds, p.rounds, v.Nengo, v.NengoNeurogo)
	writeNengoTable(tw, rows)
	return 0
}

// relTo is path relative to root when inside it, else path.
func relTo(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// writeNengoTable writes the rows of `bench nengo` as a table.
func writeNengoTable(w io.Writer, rows []nengoRow) {
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(t, "model\tD\tNengo µs/step\tneurogo µs/step\tspeed-up\tNengo build s\tneurogo build s\tbuild ÷\tpython ops\t")
	for _, r := range rows {
		fmt.Fprintf(t, "%s\t%d\t%.1f ± %.1f\t%.1f ± %.1f\t%.1f×\t%.2f\t%.2f\t%.2f\t%d\t\n",
			r.Model, r.Dims, r.NengoUS, r.NengoCI, r.NeuroUS, r.NeuroCI, r.Speedup, r.NengoB, r.NeuroB, r.BuildRat, r.PyOps)
	}
	t.Flush()
}
