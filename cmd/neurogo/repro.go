package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/neurogo/neurogo/repro"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/viz"
)

const reproUsage = `usage: neurogo repro NAME [flags]

reproductions of figures and tables from three papers:
  NengoDL    "NengoDL: Combining deep learning and neuromorphic modelling methods"
             (Daniel Rasmussen, Neuroinformatics, 2019)
  statestream  "statestream: a toolbox to explore layerwise-parallel deep neural
             networks" (Volker Fischer, 2018)
  hxtorch    "hxtorch: PyTorch for BrainScaleS-2 — Perceptrons on Analog Neuromorphic
             Hardware" (Philipp Spilger et al., 2020)

  spiking-mnist   NengoDL §5.2.1: convolutional LIF network on MNIST, trained
                  with rates, tested with rates and spikes (targets 99.0 % / 98.4 %)
  spa-memory      NengoDL Fig. 9: SPA memory retrieval before and after training
  statestream-2path  statestream Fig. 3b: the two-path layerwise-parallel MNIST network
                  trained with its plasticities; accuracy vs delay since onset,
                  temporal confusion matrices, response times, vs layerwise-sequential
  har-analog      hxtorch §4.2 / Fig. 9: human activity recognition on the emulated
                  BrainScaleS-2 chip — software training with quantisation and noise,
                  the chip without retraining, one epoch with the hardware in the loop

flags (spa-memory): --quick, --neurons 5,10,15,20, --seeds N, --train N, --test N, --epochs E, --out DIR,
  --cells DIR (finished points kept and reused: a stopped run resumes; default OUT/cells), --json,
  --point neurons=N,seed=S (one point only: its record in OUT/results.json and, with --json, on stdout;
  what neurogo sweep --repro spa-memory runs on each worker)
flags (statestream-2path): --quick, --agents N, --train-frames N, --test-frames N, --hold N,
  --workers N, --seed S, --out DIR, --json
flags (har-analog): --quick, --data DIR, --synthetic, --write-synthetic DIR, --data-seed S,
  --train N, --test N, --epochs E, --hil-epochs E, --batch B, --lr R, --hil-lr R,
  --chip-seed S, --gain-spread G, --offset-spread O, --saturation S, --noise N, --seed S,
  --out DIR, --json
flags (spiking-mnist):
  --quick            6 000 training and 1 000 test images, 2 epochs (a few minutes)
  --train N --test N subsets (0: all 60 000 / 10 000)
  --epochs E         (10)
  --steps S          spiking test steps (50)
  --sigma S          LIF smoothing of the gradient (SoftLIFRate σ)
  --smooth-forward   train with SoftLIFRate(σ) in the forward pass too
  --train-ensembles  also train the LIF gains, biases and scalar transforms
                     (the paper trains only the layer nodes)
  --resume FILE      continue from a checkpoint (written after every epoch to OUT/checkpoints)
  --point seed=S     the same as --seed S (the form neurogo sweep --repro spiking-mnist passes)
  --out DIR          figures and results.json (default repro-out/NAME)
  --json             print the results as one JSON line
`

func cmdRepro(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stderr, reproUsage)
		return 2
	}
	switch args[0] {
	case "spiking-mnist":
		return reproMNIST(args[1:], stdout, stderr)
	case "spa-memory":
		return reproSPA(args[1:], stdout, stderr)
	case "statestream-2path":
		return reproStream(args[1:], stdout, stderr)
	case "har-analog":
		return reproHAR(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "neurogo repro: unknown reproduction %q\n%s", args[0], reproUsage)
	return 2
}

func reproMNIST(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("repro spiking-mnist", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "small run: 6000/1000 images, 2 epochs")
	o := repro.MNISTOptions{}
	fs.IntVar(&o.Train, "train", 0, "training images (0: all)")
	fs.IntVar(&o.Test, "test", 0, "test images (0: all)")
	fs.IntVar(&o.Epochs, "epochs", 0, "epochs (0: 10)")
	fs.IntVar(&o.SpikingSteps, "steps", 0, "spiking test steps (0: 50)")
	fs.Float64Var(&o.Sigma, "sigma", 0, "LIF smoothing σ (0: default)")
	fs.BoolVar(&o.SmoothForward, "smooth-forward", false, "SoftLIFRate(σ) in the forward pass too")
	fs.BoolVar(&o.TrainEnsembles, "train-ensembles", false, "also train LIF gains, biases and scalar transforms")
	fs.Int64Var(&o.Seed, "seed", 0, "seed")
	out := fs.String("out", "", "output directory (default repro-out/spiking-mnist)")
	jsonOut := fs.Bool("json", false, "print results as JSON")
	fs.StringVar(&o.Resume, "resume", "", "continue from a checkpoint (OUT/checkpoints/epoch-N.npz)")
	point := fs.String("point", "", "seed=S: one point of a sweep (the same as --seed S)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *point != "" {
		pt, err := parsePoint(*point, "seed")
		if err != nil {
			fmt.Fprintf(stderr, "neurogo repro spiking-mnist: %v\n", err)
			return 2
		}
		if flagSet(fs, "seed") && o.Seed != int64(pt["seed"]) {
			fmt.Fprintf(stderr, "neurogo repro spiking-mnist: --point seed=%d and --seed %d disagree\n", pt["seed"], o.Seed)
			return 2
		}
		o.Seed = int64(pt["seed"])
	}
	if *quick {
		if o.Train == 0 {
			o.Train = 6000
		}
		if o.Test == 0 {
			o.Test = 1000
		}
		if o.Epochs == 0 {
			o.Epochs = 2
		}
	}
	if *out == "" {
		*out = filepath.Join("repro-out", "spiking-mnist")
	}
	o.Log = stderr
	o.Callbacks = []train.Callback{train.NewProgress(stderr)}
	o.CheckpointDir = filepath.Join(*out, "checkpoints")
	res, err := repro.SpikingMNIST(o)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro spiking-mnist: %v\n", err)
		return 1
	}
	summary := map[string]any{
		"reproduction": "spiking-mnist", "seed": o.Seed, "train_images": o.Train, "test_images": o.Test, "epochs": res.Options.Epochs, "resumed_from": o.Resume,
		"spiking_accuracy_by_step": res.SpikingAccuracyByStep, "spiking_response_time_steps": res.SpikingResponseTime,
		"rate_accuracy": res.RateAccuracy, "spiking_accuracy": res.SpikingAccuracy,
		"seconds_per_epoch": res.SecondsPerEpoch, "train_seconds": res.TrainSeconds, "test_seconds": res.TestSeconds,
		"target_rate": 0.990, "target_spiking": 0.984,
	}
	hist, byStep, rateConf, spikeConf, err := res.Figures()
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: figures: %v\n", err)
		return 1
	}
	b, err := writeRepro(*out, summary, map[string]*viz.Plot{"history.png": hist, "accuracy_by_step.png": byStep, "confusion_rate.png": rateConf, "confusion_spiking.png": spikeConf})
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: %v\n", err)
		return 1
	}
	if *jsonOut {
		fmt.Fprintln(stdout, string(b))
	} else {
		fmt.Fprintf(stdout, "spiking-mnist: rate accuracy %.2f %% (target 99.0 %%), spiking accuracy %.2f %% (target 98.4 %%); %d epochs (%d in this run, %.0f s each); figures in %s\n",
			100*res.RateAccuracy, 100*res.SpikingAccuracy, res.Options.Epochs, len(res.SecondsPerEpoch), mean(res.SecondsPerEpoch), *out)
	}
	return 0
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func reproSPA(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("repro spa-memory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "small run: neurons per dimension 5 and 10, 2 seeds, 640/256 trials, 2 epochs")
	o := repro.SPAOptions{}
	npd := fs.String("neurons", "", "neurons per dimension, comma-separated (default 5,10,15,20)")
	fs.IntVar(&o.Seeds, "seeds", 0, "seeds per point (default 3)")
	fs.IntVar(&o.Train, "train", 0, "training trials (default 8000)")
	fs.IntVar(&o.Test, "test", 0, "test trials (default 1024)")
	fs.IntVar(&o.Epochs, "epochs", 0, "epochs (default 10)")
	out := fs.String("out", "", "output directory (default repro-out/spa-memory)")
	jsonOut := fs.Bool("json", false, "print results as JSON")
	cells := fs.String("cells", "", "keep each finished (neurons, seed) point here and reuse it on the next run (default OUT/cells; \"none\" to recompute all)")
	point := fs.String("point", "", "neurons=N,seed=S: run this one point only (a sweep's task)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *point != "" && (*npd != "" || o.Seeds != 0) {
		fmt.Fprintln(stderr, "neurogo repro spa-memory: --point names its neurons and seed; leave out --neurons and --seeds")
		return 2
	}
	if *npd != "" {
		v, err := intList("neurons", *npd)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		o.NeuronsPerDim = v
	}
	if *quick {
		if o.NeuronsPerDim == nil {
			o.NeuronsPerDim = []int{5, 10}
		}
		o.Seeds, o.Train, o.Test, o.Epochs = max(o.Seeds, 2), max(o.Train, 640), max(o.Test, 256), max(o.Epochs, 2)
	}
	if *out == "" {
		*out = filepath.Join("repro-out", "spa-memory")
	}
	switch *cells {
	case "":
		o.CellDir = filepath.Join(*out, "cells")
	case "none":
	default:
		o.CellDir = *cells
	}
	o.Log = stderr
	if *point != "" {
		return reproSPAPoint(o, *point, *out, *jsonOut, stdout, stderr)
	}
	res, err := repro.SPAMemory(o)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro spa-memory: %v\n", err)
		return 1
	}
	fig, err := res.Figure()
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: figure: %v\n", err)
		return 1
	}
	b, err := writeRepro(*out, res, map[string]*viz.Plot{"fig9.png": fig})
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: %v\n", err)
		return 1
	}
	if *jsonOut {
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	for i, n := range res.NeuronsPerDim {
		fmt.Fprintf(stdout, "spa-memory: %2d neurons/dim: retrieval %.3f [%.3f, %.3f] before, %.3f [%.3f, %.3f] after training\n",
			n, res.BeforeMean[i], res.BeforeLo[i], res.BeforeHi[i], res.AfterMean[i], res.AfterLo[i], res.AfterHi[i])
	}
	fmt.Fprintf(stdout, "figure and results in %s\n", *out)
	return 0
}

// reproSPAPoint runs one (neurons per dimension, seed) point of the
// spa-memory reproduction and writes its record — the settings and the
// point's fields, as `neurogo sweep spa-figure` reads them — to
// OUT/results.json (and stdout with --json).
func reproSPAPoint(o repro.SPAOptions, point, out string, jsonOut bool, stdout, stderr io.Writer) int {
	pt, err := parsePoint(point, "neurons", "seed")
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro spa-memory: %v\n", err)
		return 2
	}
	p, err := repro.SPAMemoryPoint(o, pt["neurons"], pt["seed"])
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro spa-memory: %v\n", err)
		return 1
	}
	o = o.WithDefaults()
	rec := map[string]any{"reproduction": "spa-memory", "Dims": o.Dims, "Train": o.Train, "Test": o.Test, "Epochs": o.Epochs,
		"Batch": o.Batch, "LR": o.LR, "NeuronsPerDim": p.NeuronsPerDim, "Seed": p.Seed, "Before": p.Before, "After": p.After,
		"LossBefore": p.LossBefore, "LossAfter": p.LossAfter, "SecondsPerEpoch": p.SecondsPerEpoch}
	b, err := writeRepro(out, rec, nil)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: %v\n", err)
		return 1
	}
	if jsonOut {
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "spa-memory: %d neurons/dim, seed %d: retrieval %.3f before, %.3f after training (%.1f s/epoch); record in %s\n",
		p.NeuronsPerDim, p.Seed, p.Before, p.After, p.SecondsPerEpoch, filepath.Join(out, "results.json"))
	return 0
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// writeRepro creates the output directory out and writes results as
// out/results.json and every non-nil figure as a PNG; it returns the JSON.
func writeRepro(out string, results any, figs map[string]*viz.Plot) ([]byte, error) {
	b, err := json.Marshal(results)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, "results.json"), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	for name, p := range figs {
		if p == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(out, name), p.PNG(), 0o644); err != nil {
			return nil, err
		}
	}
	return b, nil
}
