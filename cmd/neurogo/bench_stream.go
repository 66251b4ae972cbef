package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/neurogo/neurogo/repro"
)

// cmdBenchStream measures the frame rate of the two-path network of the
// statestream paper (Fischer 2018, Fig. 3a) at 1, 16 and 128 agents, on
// one core and on all cores, layerwise-parallel (with and without
// plasticities) and layerwise-sequential. With --json, stdout has one
// line {"run": {command, date, machine, quick, protocol}} and then one
// JSON object per row.
func cmdBenchStream(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench stream", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "shorter measurements (0.5 s each)")
	jsonOut := fs.Bool("json", false, "print one JSON row per measurement")
	agents := fs.String("agents", "1,16,128", "agent counts, comma-separated")
	secs := fs.Float64("seconds", 2, "minimum seconds per measurement")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	a, err := intList("agents", *agents)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	o := repro.StreamBenchOptions{Agents: a, MinSeconds: *secs, Log: stderr}
	if *quick {
		o.MinSeconds = 0.5
	}
	rows, err := repro.BenchStream(o)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench stream: %v\n", err)
		return 1
	}
	if *jsonOut {
		run := benchRun("stream", args, *quick, map[string]any{
			"bench": "stream", "agents": a, "min_seconds": o.MinSeconds,
			"modes":  []string{"parallel", "parallel+plasticities", "sequential"},
			"images": 2000, "one_core": "GOMAXPROCS 1", "all_cores": runtime.GOMAXPROCS(0),
		})
		if err := writeRunLine(stdout, run); err != nil {
			fmt.Fprintf(stderr, "neurogo bench stream: %v\n", err)
			return 1
		}
		for _, r := range rows {
			b, _ := json.Marshal(r)
			fmt.Fprintln(stdout, string(b))
		}
		return 0
	}
	fmt.Fprintf(stdout, "%-7s %-22s %12s %12s %9s\n", "agents", "mode", "fps 1 core", fmt.Sprintf("fps %d cores", rows[0].Cores), "speedup")
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-7d %-22s %12.1f %12.1f %8.2f×\n", r.Agents, r.Mode, r.FPSOneCore, r.FPSAllCores, r.ParallelSpeedup)
	}
	return 0
}
