package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/repro/hxtorch"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/viz"
)

// reproHAR runs §4.2 of the hxtorch paper (Table 1, Fig 9) on the emulated chip.
func reproHAR(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("repro har-analog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "small run: 2000 training and 1000 test windows, 5 epochs (under a minute)")
	o := hxtorch.HAROptions{}
	fs.StringVar(&o.DataDir, "data", "", "UCI HAR directory (default $NEUROGO_HAR, else the synthetic set)")
	fs.BoolVar(&o.Synthetic, "synthetic", false, "use the synthetic HAR set even when real data are configured")
	write := fs.String("write-synthetic", "", "write the synthetic set in the UCI layout to this directory and exit")
	fs.Int64Var(&o.DataSeed, "data-seed", 0, "seed of the synthetic set")
	fs.IntVar(&o.Train, "train", 0, "training windows (0: all 7352)")
	fs.IntVar(&o.Test, "test", 0, "test windows (0: all 2947)")
	fs.IntVar(&o.Epochs, "epochs", 0, "software epochs (0: 50)")
	fs.IntVar(&o.HILEpochs, "hil-epochs", 0, "hardware-in-the-loop epochs (0: 1)")
	fs.IntVar(&o.Batch, "batch", 0, "minibatch (0: 32)")
	fs.Float64Var(&o.LR, "lr", 0, "software learning rate (0: 0.03)")
	fs.Float64Var(&o.HILLR, "hil-lr", 0, "hardware-in-the-loop learning rate (0: 0.003)")
	fs.Int64Var(&o.ChipSeed, "chip-seed", 0, "seed of the emulated chip's fixed pattern (0: 1)")
	fs.Int64Var(&o.Seed, "seed", 0, "seed of initialisation and shuffling")
	chip := analog.ChipConfig(0)
	fs.Float64Var(&chip.GainSpread, "gain-spread", chip.GainSpread, "emulated chip: fixed-pattern column gain spread (relative)")
	fs.Float64Var(&chip.OffsetSpread, "offset-spread", chip.OffsetSpread, "emulated chip: fixed-pattern column offset spread (LSB)")
	fs.Float64Var(&chip.Saturation, "saturation", chip.Saturation, "emulated chip: membrane saturation scale (LSB, 0: linear)")
	fs.Float64Var(&chip.Noise, "noise", chip.Noise, "emulated chip: trial-to-trial noise (LSB)")
	out := fs.String("out", "", "output directory (default repro-out/har-analog)")
	jsonOut := fs.Bool("json", false, "print results as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *write != "" {
		if err := data.WriteSyntheticHAR(*write, o.DataSeed); err != nil {
			fmt.Fprintf(stderr, "neurogo repro har-analog: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "synthetic UCI HAR layout written to %s\n", *write)
		return 0
	}
	if *quick {
		if o.Train == 0 {
			o.Train = 2000
		}
		if o.Test == 0 {
			o.Test = 1000
		}
		if o.Epochs == 0 {
			o.Epochs = 5
		}
	}
	if *out == "" {
		*out = filepath.Join("repro-out", "har-analog")
	}
	chip.Seed = o.ChipSeed
	if chip.Seed == 0 {
		chip.Seed = 1
	}
	o.Chip = &chip
	o.Log = stderr
	res, err := hxtorch.HAR(o)
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro har-analog: %v\n", err)
		return 1
	}
	stage := func(s hxtorch.HARStage) map[string]any {
		return map[string]any{"name": s.Name, "accuracy": s.Accuracy, "recall": s.Recall, "confusion": s.Confusion}
	}
	summary := map[string]any{
		"reproduction": "har-analog", "synthetic": res.Synthetic, "classes": res.Classes,
		"train": o.Train, "test": o.Test, "epochs": res.Options.Epochs, "hil_epochs": res.Options.HILEpochs,
		"num_sends": res.Plan.NumSends, "shift": res.Plan.Shift,
		"software": stage(res.Software), "chip": stage(res.Chip), "hil": stage(res.HIL), "seconds": res.Seconds,
		"chip_config": chipConfig(o),
	}
	a, b, c, err := res.Figures()
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: figures: %v\n", err)
		return 1
	}
	js, err := writeRepro(*out, summary, map[string]*viz.Plot{"fig9a_software.png": a, "fig9b_chip.png": b, "fig9c_hil.png": c})
	if err != nil {
		fmt.Fprintf(stderr, "neurogo repro: %v\n", err)
		return 1
	}
	if *jsonOut {
		fmt.Fprintln(stdout, string(js))
		return 0
	}
	kind := "real UCI HAR"
	if res.Synthetic {
		kind = "SYNTHETIC HAR (data.SyntheticHAR)"
	}
	fmt.Fprintf(stdout, "har-analog on %s, num_sends %v, ConvertingReLU shift %d\n", kind, res.Plan.NumSends, res.Plan.Shift)
	for _, s := range []hxtorch.HARStage{res.Software, res.Chip, res.HIL} {
		fmt.Fprintf(stdout, "  %-46s accuracy %.1f %%  recall", s.Name, 100*s.Accuracy)
		for _, r := range s.Recall {
			fmt.Fprintf(stdout, " %.2f", r)
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "figures and results in %s\n", *out)
	return 0
}

func chipConfig(o hxtorch.HAROptions) analog.Config {
	if o.Chip != nil {
		return *o.Chip
	}
	seed := o.ChipSeed
	if seed == 0 {
		seed = 1
	}
	return analog.ChipConfig(seed)
}
