package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/neurogo/neurogo/repro"
	"github.com/neurogo/neurogo/viz"
)

// nanNull turns NaN (a delay without samples) into JSON null.
func nanNull(v []float64) []any {
	out := make([]any, len(v))
	for i, x := range v {
		if math.IsNaN(x) {
			out[i] = nil
		} else {
			out[i] = x
		}
	}
	return out
}

func reproStream(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("repro statestream-2path", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "small run: 32 agents, 300 training and 120 test frames, threshold 0.5 (under a minute)")
	o := repro.StreamOptions{}
	fs.IntVar(&o.Agents, "agents", 0, "agents (0: the file's 128)")
	fs.IntVar(&o.TrainFrames, "train-frames", 0, fmt.Sprintf("training frames (0: %d)", repro.DefaultStreamTrainFrames))
	fs.IntVar(&o.TestFrames, "test-frames", 0, fmt.Sprintf("test frames per mode (0: %d)", repro.DefaultStreamTestFrames))
	fs.IntVar(&o.Hold, "hold", 0, "frames each image is held (0: 12)")
	fs.IntVar(&o.Workers, "workers", 0, "worker goroutines (0: all cores)")
	fs.Int64Var(&o.Seed, "seed", 0, "seed")
	fs.Float64Var(&o.Threshold, "threshold", 0, "accuracy at which the response time is read (0: 0.9; --quick: 0.5)")
	out := fs.String("out", "", "output directory (default repro-out/statestream-2path)")
	jsonOut := fs.Bool("json", false, "print results as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *quick {
		if o.Agents == 0 {
			o.Agents = 32
		}
		if o.TrainFrames == 0 {
			o.TrainFrames = 300
		}
		if o.TestFrames == 0 {
			o.TestFrames = 120
		}
		if o.Threshold == 0 {
			o.Threshold = 0.5
		}
	}
	if *out == "" {
		*out = filepath.Join("repro-out", "statestream-2path")
	}
	o.Log = stderr
	res, err := repro.StreamTwoPath(o)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro statestream-2path: %v\n", err)
		return 1
	}
	summary := map[string]any{
		"reproduction": "statestream-2path", "agents": res.Options.Agents, "train_frames": res.Options.TrainFrames,
		"test_frames": res.Options.TestFrames, "hold": res.Options.Hold,
		"accuracy_parallel": nanNull(res.Parallel), "accuracy_pred1": nanNull(res.Pred1), "accuracy_pred2": nanNull(res.Pred2),
		"accuracy_sequential": nanNull(res.Sequential),
		"response_time":       res.ResponseTime, "response_time_sequential": res.SequentialResponseTime, "threshold": res.Options.Threshold,
		"shortest_path_short": res.ShortPath, "shortest_path_deep": res.DeepPath,
		"train_seconds": res.TrainSeconds, "train_fps": res.TrainFPS, "test_seconds": res.TestSeconds,
		"final_class_loss": last(res.ClassLoss), "final_deep_class_loss": last(res.DeepClassLoss),
	}
	acc, tcm, rts, err := res.Figures()
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: figures: %v\n", err)
		return 1
	}
	b, err := writeRepro(*out, summary, map[string]*viz.Plot{"fig3b.png": acc, "tcm.png": tcm, "response_times.png": rts})
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: %v\n", err)
		return 1
	}
	if *jsonOut {
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "statestream-2path: accuracy by δt (frames since onset)\n")
	for dt := range res.Parallel {
		fmt.Fprintf(stdout, "  δt %2d: parallel %.3f (pred1 %.3f, pred2 %.3f), sequential %.3f\n", dt, res.Parallel[dt], at(res.Pred1, dt), at(res.Pred2, dt), at(res.Sequential, dt))
	}
	fmt.Fprintf(stdout, "response time (accuracy ≥ %.2f): parallel %d, sequential %d frames; shortest paths: short %d, deep %d\n",
		res.Options.Threshold, res.ResponseTime, res.SequentialResponseTime, res.ShortPath, res.DeepPath)
	fmt.Fprintf(stdout, "figures and results in %s\n", *out)
	return 0
}

func last(v []float64) any {
	if len(v) == 0 || math.IsNaN(v[len(v)-1]) {
		return nil
	}
	return v[len(v)-1]
}

func at(v []float64, i int) float64 {
	if i < len(v) {
		return v[i]
	}
	return math.NaN()
}
