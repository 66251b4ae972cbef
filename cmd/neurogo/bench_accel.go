package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/neurogo/neurogo/repro/hxtorch"
)

// cmdBenchAccel measures Fig 8 of the BrainScaleS-2/hxtorch paper
// (Spilger et al. 2020) on the emulated analog system: MAC/s against
// square matrix size (batch 2000) and against batch size (256²), for the
// host's float32 GEMM, the JIT pipeline with a mock communication partner
// (software overhead alone) and with the emulated chip. With --json,
// stdout has one line {"run": {command, date, machine, quick, protocol}},
// one JSON object per row and a last {"sweep": "summary", …}.
func cmdBenchAccel(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench accel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "sizes up to 2^11, batches up to 2^12, 0.2 s per figure")
	figs := fs.String("figures", "", "write fig8_size.png and fig8_batch.png to this directory")
	jsonOut := fs.Bool("json", false, "print one JSON row per measurement")
	maxLog2 := fs.Int("max-log2", 14, "largest square matrix 2^k")
	secs := fs.Float64("seconds", 0.5, "minimum seconds per figure (best of repeats)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o := hxtorch.AccelBenchOptions{MaxLog2: *maxLog2, MinSeconds: *secs, Log: stderr}
	if *quick {
		o.MaxLog2, o.EmulatedMaxLog2, o.MaxBatchLog2, o.MinSeconds = min(*maxLog2, 11), 10, 12, 0.2
	}
	rows, err := hxtorch.BenchAccel(o)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench accel: %v\n", err)
		return 1
	}
	sum := hxtorch.SummarizeAccel(rows)
	if *figs != "" {
		a, b, err := hxtorch.AccelFigures(rows)
		if err == nil {
			err = os.MkdirAll(*figs, 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(*figs, "fig8_size.png"), a.PNG(), 0o644)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(*figs, "fig8_batch.png"), b.PNG(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "neurogo bench accel: figures: %v\n", err)
			return 1
		}
	}
	if *jsonOut {
		run := benchRun("accel", args, *quick, map[string]any{
			"bench": "accel", "max_log2": o.MaxLog2, "emulated_max_log2": o.EmulatedMaxLog2,
			"size_batch": 2000, "max_batch_log2": o.MaxBatchLog2, "min_seconds": o.MinSeconds,
			"figure": "best of repeated runs lasting at least min_seconds together",
		})
		if o.EmulatedMaxLog2 == 0 {
			run.Protocol["emulated_max_log2"] = 12
		}
		if o.MaxBatchLog2 == 0 {
			run.Protocol["max_batch_log2"] = 14
		}
		if err := writeRunLine(stdout, run); err != nil {
			fmt.Fprintf(stderr, "neurogo bench accel: %v\n", err)
			return 1
		}
		for _, r := range rows {
			b, _ := json.Marshal(r)
			fmt.Fprintln(stdout, string(b))
		}
		b, _ := json.Marshal(struct {
			Sweep string `json:"sweep"`
			hxtorch.AccelSummary
		}{"summary", sum})
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "%-5s %7s %6s %-13s %11s %9s %11s %11s\n", "sweep", "size", "batch", "mode", "MAC/s", "of GEMM", "host link", "chip link")
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-5s %6d² %6d %-13s %11.3g %9.2f %11s %11s\n", r.Sweep, r.Rows, r.Batch, r.Mode, r.MACsPerSecond, r.FractionOfGEMM, rate(r.HostLinkMACs), rate(r.ChipLinkMACs))
	}
	fmt.Fprintf(stdout, "\nmock partner (software overhead alone), matrices ≥ one chip (256²): at least %.2f of float32 GEMM\n", sum.MinFractionOneChip)
	fmt.Fprintf(stdout, "256²: configuration = data at batch %.0f (volume model), %.0f (measured configuration vs pipeline time)\n", sum.ModelCrossoverBatch, sum.MeasuredCrossoverBatch)
	return 0
}

func rate(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3g", v)
}
