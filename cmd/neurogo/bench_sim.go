package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/kernel"
	"github.com/neurogo/neurogo/sim/bench"
)

const benchSimUsage = `usage: neurogo bench sim [--quick] [--models integrator,cconv,basal_ganglia,pes]
                         [--dims 64,128,192] [--batch 1,10] [--repeats N] [--seconds S]
                         [--json] [--compare nengo] [--python PATH]

The seed-000 simulation benchmark (issue 9): 9984 neurons (9984/D per
dimension), RectifiedLinear, 0.1 s warm-up then 5 repeats of 5 s
(--quick: 0.05 s, 2 × 1 s). --compare nengo runs Nengo 4.1 (optimize=True)
on the same cells with <repo>/.cache/nengo-venv/bin/python (created by
scripts/check-nengo-fixtures) or --python. Progress goes to stderr; with
--json, stdout has one JSON object per row and the table goes to stderr.
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
	python := fs.String("python", "", "Python with nengo==4.1.0 (default <repo>/.cache/nengo-venv/bin/python)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "neurogo bench sim: unexpected argument %q\n%s", fs.Arg(0), benchSimUsage)
		return 2
	}
	cfg := bench.Default()
	if *quick {
		cfg = bench.Quick()
	}
	if *repeats > 0 {
		cfg.Repeats = *repeats
	}
	if *seconds > 0 {
		cfg.Seconds = *seconds
	}
	cfg.Progress = stderr
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

	var rows []bench.Result
	n, cells := 0, len(ms)*len(ds)
	for _, m := range ms {
		for _, d := range ds {
			n++
			fmt.Fprintf(stderr, "[%d/%d] %s D=%d (%d neurons/D)\n", n, cells, m, d, bench.NeuronsPerD(d))
			var cell []bench.Result
			for _, b := range bs {
				r, err := bench.Run(m, d, b, cfg)
				if err != nil {
					fmt.Fprintf(stderr, "neurogo bench sim: %v\n", err)
					return 1
				}
				cell = append(cell, r)
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
	fmt.Fprintf(tw, "\nneurogo bench sim: %d neurons, RectifiedLinear, warm-up %g s, %d × %g s simulated, 95%% t-interval; nengo = batch × one serial run\n", bench.TotalNeurons, cfg.Warmup, cfg.Repeats, cfg.Seconds)
	bench.WriteTable(tw, rows)
	return 0
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
