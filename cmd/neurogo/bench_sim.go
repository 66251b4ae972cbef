package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/kernel"
	"github.com/neurogo/neurogo/sim/bench"
)

const benchSimUsage = `usage: neurogo bench sim [--quick] [--models integrator,cconv,basal_ganglia,pes]
                         [--dims 64,128,192] [--batch 1,10] [--repeats N] [--seconds S]
                         [--opt all|none|simplify,merge,sort[,greedy|tree[:D]|transitive][,metablock]] [--json]
                         [--compare nengo] [--python PATH] [--beside BIN]
       neurogo bench sim --ablation [--quick] [--repeats N] [--seconds S] [--json]
       neurogo bench sim --machine

The simulation benchmark of the NengoDL paper (§5.1, Figs 6–7): 9984
neurons (9984/D per dimension), RectifiedLinear, 0.1 s warm-up then 5
repeats of 5 s (--quick: 0.05 s, 2 × 1 s). --compare nengo runs Nengo 4.1
(optimize=True) on the same cells with <repo>/.cache/nengo-bench-venv/bin/python
(created by scripts/nengo-bench-venv; else .cache/nengo-venv) or --python.
Progress goes to stderr; with --json, stdout has one JSON line
{"run": {command, date, machine, quick, protocol}} and then one JSON
object per row, and the table goes to stderr. --opt selects the graph
optimizer's passes (default all).

Every run first measures the copy bandwidth of one core (STREAM-like copy
between two 64 MiB slices, best of 10) and reports per row the bytes of
weights and state a step touches, the bandwidth that draws (GB/s) and its
fraction of the copy bandwidth (roofline).

--beside BIN runs another neurogo binary (for example a plain
CGO_ENABLED=0 go build beside one built with -tags openblas) on every
cell right after (or, every other cell, right before) this one, with the
same protocol, and adds its µs/step and build time and the ratios this
binary ÷ BIN to each row (above 1: this binary is slower); the run line
records what BIN runs (inner loops, BLAS, build settings).

--rounds N (with --beside) runs N rounds of the two binaries per cell,
their order alternating, and reports for each side the round with the
median µs/step: µs-scale cells on a shared machine vary more between
minutes than between builds.

--ablation runs the optimizer ablation (the NengoDL paper, Fig 8) on an
SPA-style stress model built with the networks library (D=64: 100 800
neurons in 1168 ensembles; --quick: D=32, 25 600 neurons in 296
ensembles), batch 1, once per row of sim.Ablations() (all, each pass
switched off, none): build + optimisation time, µs/step and speed
relative to "none" and "all".

--machine prints {"run": {command, date, machine}} (the record every
--json run starts with: CPU, cores, memory, OS, Go, GOEXPERIMENT, build
tags, BLAS) and exits; scripts/measure uses it for the reproductions.
Protocol 0.1 s warm-up, 3 × 1 s (--quick: 0.02 s, 1 × 0.2 s).
`

// cmdBenchSim runs `neurogo bench sim`.
func cmdBenchSim(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, benchSimUsage) }
	quick := fs.Bool("quick", false, "0.05 s warm-up, 2 repeats of 1 s")
	models := fs.String("models", strings.Join(bench.Models, ","), "comma-separated models")
	dims := fs.String("dims", "64,128,192", "comma-separated dimensions D")
	batches := fs.String("batch", "1,10", "comma-separated batch sizes")
	repeats := fs.Int("repeats", 0, "timed repeats (default 5, --quick 2)")
	seconds := fs.Float64("seconds", 0, "simulated seconds per repeat (default 5, --quick 1)")
	jsonOut := fs.Bool("json", false, "one JSON object per row on stdout")
	compare := fs.String("compare", "", `"nengo": also run Nengo 4.1 on the same cells`)
	besidePath := fs.String("beside", "", "another neurogo binary to run on the same cells in the same run")
	rounds := fs.Int("rounds", 1, "with --beside: rounds of both binaries per cell, alternating; the median round is reported")
	python := fs.String("python", "", "Python with nengo==4.1.0 (default <repo>/.cache/nengo-bench-venv/bin/python, else .cache/nengo-venv)")
	optFlag := fs.String("opt", "all", "optimizer passes: all, none or a comma-separated list of simplify, merge, sort a planner (level, greedy, tree[:DEPTH], transitive) and a sorter (groups, metablock)")
	ablation := fs.Bool("ablation", false, "run the optimizer ablation on the stress model")
	machineOnly := fs.Bool("machine", false, "print the run record (command, date, machine description) as one JSON line and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *machineOnly {
		if err := writeRunLine(stdout, benchRun("sim", args, false, nil)); err != nil {
			fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
			return 1
		}
		return 0
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "neurogo bench sim: unexpected argument %q\n%s", fs.Arg(0), benchSimUsage)
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	opt, err := bench.ParseOpt(*optFlag)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
		return 2
	}
	cfg := bench.Default()
	if *quick {
		cfg = bench.Quick()
	}
	if *ablation {
		for _, f := range []string{"opt", "models", "dims", "batch", "compare", "python", "beside", "rounds"} {
			if set[f] {
				fmt.Fprintf(stderr, "neurogo bench sim: --ablation takes no --%s\n", f)
				return 2
			}
		}
		cfg = bench.AblationConfig()
		if *quick {
			cfg = bench.AblationQuick()
		}
	}
	cfg.Opt = &opt
	if *repeats > 0 {
		cfg.Repeats = *repeats
	}
	if *seconds > 0 {
		cfg.Seconds = *seconds
	}
	cfg.Progress = stderr
	if *ablation {
		cfg.CopyGBps = measureCopy(stderr)
		return runAblation(args, *quick, *jsonOut, cfg, stdout, stderr)
	}
	ms := splitList(*models)
	for _, m := range ms {
		if _, err := bench.Network(m, 1, 1, 0); err != nil {
			fmt.Fprintf(stderr, "neurogo bench sim: --models: %v\n", err)
			return 2
		}
	}
	ds, err := intList("--dims", *dims)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
		return 2
	}
	bs, err := intList("--batch", *batches)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
		return 2
	}
	var py, script string
	switch *compare {
	case "":
	case "nengo":
		root := kernel.SourceRoot()
		py, err = bench.FindPython(root, *python)
		if err != nil {
			fmt.Fprintf(stderr, "neurogo bench sim: --compare nengo: %v\n", err)
			return 1
		}
		if root == "" {
			fmt.Fprintln(stderr, "neurogo bench sim: --compare nengo: cannot find the neurogo source tree for sim/bench/nengo_bench.py (set NEUROGO_ROOT)")
			return 1
		}
		script = bench.ScriptPath(root)
		if _, err := os.Stat(script); err != nil {
			fmt.Fprintf(stderr, "neurogo bench sim: --compare nengo: %v\n", err)
			return 1
		}
	default:
		fmt.Fprintf(stderr, "neurogo bench sim: --compare %q: only \"nengo\" is supported\n", *compare)
		return 2
	}

	var beside *besideBinary
	if *rounds < 1 || (*rounds > 1 && *besidePath == "") {
		fmt.Fprintf(stderr, "neurogo bench sim: --rounds %d: want 1, or more with --beside\n", *rounds)
		return 2
	}
	if *besidePath != "" {
		if beside, err = newBeside(*besidePath); err != nil {
			fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
			return 1
		}
	}
	run := benchRun("sim", args, *quick, simProtocol(cfg, ms, ds, bs, *compare))
	if beside != nil {
		run.Protocol["beside"] = beside.describe()
		run.Protocol["rounds"] = max(1, *rounds)
	}
	if py != "" {
		v, err := nengoVersions(context.Background(), py, script)
		if err != nil {
			fmt.Fprintf(stderr, "neurogo bench sim: --compare nengo: %v\n", err)
			return 1
		}
		run.Machine.SetPeer("nengo", v.Nengo)
		run.Machine.SetPeer("numpy", v.Numpy)
		run.Machine.SetPeer("scipy", v.Scipy)
		if v.Scipy == "" {
			fmt.Fprintf(stderr, "neurogo bench sim: note: %s has no SciPy; Nengo then skips some optimisations (scripts/nengo-bench-venv installs it)\n", py)
		}
	}
	cfg.CopyGBps = measureCopy(stderr)
	run.Protocol["copy_gbps"] = cfg.CopyGBps
	if *jsonOut {
		if err := writeRunLine(stdout, run); err != nil {
			fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
			return 1
		}
	}
	var rows []bench.Result
	n, cells := 0, len(ms)*len(ds)
	for _, m := range ms {
		for _, d := range ds {
			n++
			fmt.Fprintf(stderr, "[%d/%d] %s D=%d (%d neurons/D)\n", n, cells, m, d, bench.NeuronsPerD(d))
			var cell, other []bench.Result
			// with --beside, rounds of (this binary, the other) with the
			// order alternating, so that neither always runs on a machine
			// the other has just warmed; each side's row is its round
			// with the median µs/step
			var cells, others [][]bench.Result
			for round := range max(1, *rounds) {
				if *rounds > 1 {
					fmt.Fprintf(stderr, "  round %d/%d\n", round+1, *rounds)
				}
				var c, o []bench.Result
				if beside != nil && (n+round)%2 == 0 {
					if o, err = besideCell(beside, m, d, bs, *optFlag, *quick, cfg, stderr); err != nil {
						fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
						return 1
					}
				}
				for _, b := range bs {
					r, err := bench.Run(m, d, b, cfg)
					if err != nil {
						fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
						return 1
					}
					c = append(c, r)
				}
				if beside != nil && (n+round)%2 == 1 {
					if o, err = besideCell(beside, m, d, bs, *optFlag, *quick, cfg, stderr); err != nil {
						fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
						return 1
					}
				}
				cells, others = append(cells, c), append(others, o)
			}
			cell, other = medianRounds(cells), medianRounds(others)
			if beside != nil {
				if len(other) != len(cell) {
					fmt.Fprintf(stderr, "neurogo bench sim: --beside: %d rows for %s D=%d, want %d\n", len(other), m, d, len(cell))
					return 1
				}
				for i := range cell {
					if err := bench.CompareBeside(&cell[i], other[i], beside.path, beside.desc.Kernels, beside.desc.BLAS); err != nil {
						fmt.Fprintf(stderr, "neurogo bench sim: --beside: %v\n", err)
						return 1
					}
					fmt.Fprintf(stderr, "  %s D=%d batch %d: %.1f µs/step, beside %.1f (÷ %.2f); build %.2f s, beside %.2f s (÷ %.2f)\n",
						m, d, cell[i].Batch, cell[i].USPerStep, other[i].USPerStep, cell[i].Beside.StepRatio,
						cell[i].BuildS, other[i].BuildS, cell[i].Beside.BuildRatio)
				}
			}
			if py != "" {
				fmt.Fprintf(stderr, "  %s D=%d: Nengo (optimize=True) build, warm-up %g s, %d × %g s\n", m, d, cfg.Warmup, cfg.Repeats, cfg.Seconds)
				nr, err := bench.RunNengo(context.Background(), py, script, m, d, cfg, stderr)
				if err != nil {
					fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
					return 1
				}
				for i := range cell {
					bench.Compare(&cell[i], nr)
				}
				fmt.Fprintf(stderr, "  %s D=%d: Nengo %s build %.2f s, %.1f µs/step, peak RSS %.0f MiB\n", m, d, nr.Nengo, nr.BuildS, *cell[0].NengoUSPerStep/float64(cell[0].Batch), nr.PeakRSSMB)
			}
			for _, r := range cell {
				if *jsonOut {
					line, err := r.JSON()
					if err != nil {
						fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
						return 1
					}
					fmt.Fprintf(stdout, "%s\n", line)
				}
			}
			rows = append(rows, cell...)
		}
	}
	tw := stdout
	if *jsonOut {
		tw = stderr
	}
	fmt.Fprintf(tw, "\nneurogo bench sim: %d neurons, RectifiedLinear, warm-up %g s, %d × %g s simulated, 95%% t-interval; nengo = batch × one serial run; roofline = GB/s ÷ copy %.2f GB/s\n", bench.TotalNeurons, cfg.Warmup, cfg.Repeats, cfg.Seconds, cfg.CopyGBps)
	bench.WriteTable(tw, rows)
	return 0
}

// besideCell runs the other binary on one cell (model m, dimension d, the
// batches bs) with this run's protocol and returns its rows.
func besideCell(b *besideBinary, m string, d int, bs []int, opt string, quick bool, cfg bench.Config, stderr io.Writer) ([]bench.Result, error) {
	batches := make([]string, len(bs))
	for i, v := range bs {
		batches[i] = strconv.Itoa(v)
	}
	args := []string{"bench", "sim", "--json", "--models", m, "--dims", strconv.Itoa(d),
		"--batch", strings.Join(batches, ","), "--opt", opt,
		"--repeats", strconv.Itoa(cfg.Repeats), "--seconds", strconv.FormatFloat(cfg.Seconds, 'g', -1, 64)}
	if quick {
		args = append(args, "--quick")
	}
	fmt.Fprintf(stderr, "  %s D=%d: beside %s\n", m, d, b.path)
	out, err := b.run(args, stderr)
	if err != nil {
		return nil, err
	}
	var rows []bench.Result
	for i, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if i == 0 {
			continue // the run line
		}
		var r bench.Result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("--beside: cannot read row %q: %w", line, err)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// measureCopy measures the copy bandwidth once per invocation (the
// roofline's denominator) and reports it on stderr.
func measureCopy(stderr io.Writer) float64 {
	fmt.Fprintf(stderr, "measuring copy bandwidth (2 × %d MiB, best of 10)\n", bench.CopyBytes>>20)
	bw := bench.CopyBandwidth(10)
	fmt.Fprintf(stderr, "copy bandwidth %.2f GB/s (one core)\n", bw)
	return bw
}

// runAblation runs `neurogo bench sim --ablation`.
func runAblation(args []string, quick, jsonOut bool, cfg bench.Config, stdout, stderr io.Writer) int {
	sc := bench.Stress()
	if quick {
		sc = bench.StressQuick()
	}
	fmt.Fprintf(stderr, "optimizer ablation on the stress model: %v\n", sc)
	if jsonOut {
		n, e := sc.Counts()
		run := benchRun("sim", args, quick, map[string]any{
			"bench": "ablation", "model": sc.String(), "neurons": n, "ensembles": e, "batch": 1,
			"warmup_s": cfg.Warmup, "seconds": cfg.Seconds, "repeats": cfg.Repeats, "dt": cfg.DT,
			"copy_gbps": cfg.CopyGBps,
		})
		if err := writeRunLine(stdout, run); err != nil {
			fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
			return 1
		}
	}
	rows, err := bench.Ablation(sc, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
		return 1
	}
	if len(rows) > 0 {
		fmt.Fprintf(stderr, "stress model built: %d neurons, %d ensembles\n", rows[0].Neurons, rows[0].Ensembles)
	}
	tw := stdout
	if jsonOut {
		tw = stderr
		for _, r := range rows {
			line, err := r.JSON()
			if err != nil {
				fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
				return 1
			}
			fmt.Fprintf(stdout, "%s\n", line)
		}
	}
	fmt.Fprintf(tw, "\nneurogo bench sim --ablation: %v; RectifiedLinear, batch 1, warm-up %g s, %d × %g s simulated; roofline = GB/s ÷ copy %.2f GB/s; vs = row's speed relative to none / all\n",
		sc, cfg.Warmup, cfg.Repeats, cfg.Seconds, cfg.CopyGBps)
	bench.WriteAblationTable(tw, rows)
	return 0
}

// simProtocol is the protocol part of the run record of `bench sim`.
func simProtocol(cfg bench.Config, models []string, dims, batches []int, compare string) map[string]any {
	return map[string]any{
		"bench": "sim", "models": models, "dims": dims, "batches": batches,
		"neurons": bench.TotalNeurons, "neuron_type": "RectifiedLinear",
		"warmup_s": cfg.Warmup, "seconds": cfg.Seconds, "repeats": cfg.Repeats, "dt": cfg.DT,
		"opt": bench.OptName(cfg.Optimizations()), "interval": "95% Student t over the repeats",
		"compare": compare,
	}
}

// nengoVersionsResult is what nengo_bench.py --versions prints.
type nengoVersionsResult struct {
	Nengo string `json:"nengo"`
	Numpy string `json:"numpy"`
	Scipy string `json:"scipy"` // "" when SciPy is absent
}

// nengoVersions asks nengo_bench.py, run with python, for the versions of
// Nengo, NumPy and SciPy it runs with.
func nengoVersions(ctx context.Context, python, script string) (nengoVersionsResult, error) {
	var v nengoVersionsResult
	out, err := exec.CommandContext(ctx, python, script, "--versions").Output()
	if err != nil {
		return v, fmt.Errorf("%s %s --versions: %w", python, script, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &v); err != nil {
		return v, fmt.Errorf("%s --versions: cannot parse %q: %w", script, out, err)
	}
	if v.Nengo == "" {
		return v, fmt.Errorf("%s --versions: no Nengo version in %q", script, out)
	}
	return v, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func intList(flagName, s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%s: %q is not a positive integer", flagName, f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: empty list", flagName)
	}
	return out, nil
}

// medianRounds returns, for each batch position, the row with the median
// µs/step over rounds (each round one cell's rows in the same batch
// order; the upper median for an even count). Rounds of no rows (a side
// that did not run) give nil.
func medianRounds(rounds [][]bench.Result) []bench.Result {
	if len(rounds) == 0 || len(rounds[0]) == 0 {
		return nil
	}
	out := make([]bench.Result, len(rounds[0]))
	for i := range out {
		col := make([]bench.Result, 0, len(rounds))
		for _, r := range rounds {
			if i < len(r) {
				col = append(col, r[i])
			}
		}
		sort.SliceStable(col, func(a, b int) bool { return col[a].USPerStep < col[b].USPerStep })
		out[i] = col[len(col)/2]
	}
	return out
}
