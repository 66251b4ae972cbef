package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"time"

	"github.com/neurogo/neurogo/kernel"
	"github.com/neurogo/neurogo/repro"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/solvers"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

// cmdBenchTrain times an epoch of training the spiking-MNIST network
// (the NengoDL paper, §5.2.1) with neurogo and with PyTorch on the CPU, on
// the same data in the same run, and reports the ratio. With --json,
// stdout has one JSON object whose "run" holds the command, date, machine
// (with the torch version) and protocol.
func cmdBenchTrain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "6000 training images, 1 epoch (a few minutes)")
	n := fs.Int("train", 60000, "training images")
	epochs := fs.Int("epochs", 1, "epochs to time (the median is reported)")
	batch := fs.Int("batch", 200, "minibatch size")
	jsonOut := fs.Bool("json", false, "one JSON object on stdout")
	noTorch := fs.Bool("no-torch", false, "skip PyTorch")
	besidePath := fs.String("beside", "", "another neurogo binary (e.g. a plain go build) to time on the same epochs in the same run")
	python := fs.String("python", "python3", "Python with torch (scripts/ensure_torch installs it)")
	cpuprof := fs.String("cpuprofile", "", "write a Go CPU profile of neurogo's training to this file (go tool pprof)")
	dtype := fs.String("torch-dtype", "float32", "PyTorch dtype: float32 (its default; neurogo then runs its convolution products and LIF derivatives in float32 too) or float64 (neurogo all float64)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *quick {
		*n, *epochs = 6000, 1
	}
	if *n < *batch || *epochs < 1 {
		fmt.Fprintf(stderr, "neurogo bench train: --train %d must be at least --batch %d, --epochs %d at least 1\n", *n, *batch, *epochs)
		return 2
	}
	dir, err := data.FindMNIST()
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench train: %v\n", err)
		return 1
	}
	if *dtype != "float32" && *dtype != "float64" {
		fmt.Fprintf(stderr, "neurogo bench train: --torch-dtype %q: want float32 or float64\n", *dtype)
		return 2
	}
	f32 := *dtype == "float32"
	var beside *besideBinary
	if *besidePath != "" {
		if beside, err = newBeside(*besidePath); err != nil {
			fmt.Fprintf(stderr, "neurogo bench train: %v\n", err)
			return 1
		}
	}
	run := benchRun("train", args, *quick, map[string]any{
		"bench": "train", "model": "spiking-mnist", "examples": *n, "epochs": *epochs, "batch": *batch,
		"dtype": *dtype, "torch_threads": 2, "optimizer": "RMSProp lr 1e-3",
		"timing": "median over the epochs of the training loop's wall time (shuffle, forward, backward, updates)",
	})
	if beside != nil {
		run.Protocol["beside"] = beside.describe()
	}
	res := map[string]any{"model": "spiking-mnist", "examples": *n, "epochs": *epochs, "batch": *batch, "blas": solvers.BLAS(), "float32": f32}
	fmt.Fprintf(stderr, "neurogo: %d images, %d epoch(s), minibatch %d, %s, products and LIF derivatives in float%d\n", *n, *epochs, *batch, solvers.BLAS(), map[bool]int{true: 32, false: 64}[f32])
	if *cpuprof != "" {
		f, err := os.Create(*cpuprof)
		if err != nil {
			fmt.Fprintf(stderr, "neurogo bench train: --cpuprofile: %v\n", err)
			return 1
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "neurogo bench train: --cpuprofile: %v\n", err)
			return 1
		}
	}
	secs, acc, err := benchNeurogo(dir, *n, *epochs, *batch, f32, stderr)
	if *cpuprof != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		fmt.Fprintf(stderr, "neurogo bench train: %v\n", err)
		return 1
	}
	res["seconds_per_epoch"] = secs
	res["train_accuracy"] = acc
	if beside != nil {
		fmt.Fprintf(stderr, "beside %s (%s, %s): %d images, %d epoch(s)\n", beside.path, beside.desc.Kernels, beside.desc.BLAS, *n, *epochs)
		out, err := beside.run([]string{"bench", "train", "--json", "--no-torch", "--train", strconv.Itoa(*n),
			"--epochs", strconv.Itoa(*epochs), "--batch", strconv.Itoa(*batch), "--torch-dtype", *dtype}, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "neurogo bench train: %v\n", err)
			return 1
		}
		var br map[string]any
		if err := json.Unmarshal(lastLine(out), &br); err != nil {
			fmt.Fprintf(stderr, "neurogo bench train: --beside: cannot read its result %q: %v\n", out, err)
			return 1
		}
		bs, ok := br["seconds_per_epoch"].(float64)
		if !ok || bs <= 0 {
			fmt.Fprintf(stderr, "neurogo bench train: --beside: its result has no seconds_per_epoch: %v\n", br)
			return 1
		}
		res["beside_seconds_per_epoch"] = bs
		res["beside_blas"] = br["blas"]
		res["ratio_vs_beside"] = secs / bs
	}
	if !*noTorch {
		root := kernel.SourceRoot()
		if root == "" {
			fmt.Fprintln(stderr, "neurogo bench train: cannot find the neurogo source tree for train/bench/torch_mnist.py (set NEUROGO_ROOT, or --no-torch)")
			return 1
		}
		cmd := exec.Command(*python, filepath.Join(root, "train", "bench", "torch_mnist.py"), "--data", dir,
			"--subset", strconv.Itoa(*n), "--epochs", strconv.Itoa(*epochs), "--batch", strconv.Itoa(*batch),
			"--dtype", *dtype, "--threads", "2", "--no-test")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, stderr
		fmt.Fprintf(stderr, "PyTorch (%s, 2 threads): %d images, %d epoch(s)\n", *dtype, *n, *epochs)
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(stderr, "neurogo bench train: PyTorch run failed (scripts/ensure_torch installs it): %v\n", err)
			return 1
		}
		var tr map[string]any
		if err := json.Unmarshal(lastLine(out.Bytes()), &tr); err != nil {
			fmt.Fprintf(stderr, "neurogo bench train: cannot read PyTorch's result %q: %v\n", out.String(), err)
			return 1
		}
		ts, ok := tr["seconds_per_epoch"].(float64)
		if !ok || ts <= 0 {
			fmt.Fprintf(stderr, "neurogo bench train: PyTorch's result has no seconds_per_epoch: %v\n", tr)
			return 1
		}
		res["torch_seconds_per_epoch"] = ts
		res["torch_version"] = tr["version"]
		if v, ok := tr["version"].(string); ok {
			run.Machine.SetPeer("torch", v)
		}
		res["torch_dtype"] = *dtype
		res["ratio_vs_torch"] = secs / ts
	}
	res["run"] = run
	if *jsonOut {
		b, _ := json.Marshal(res)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "spiking-mnist training, %d images, minibatch %d: neurogo %.1f s/epoch", *n, *batch, secs)
	if r, ok := res["ratio_vs_torch"].(float64); ok {
		fmt.Fprintf(stdout, ", PyTorch %s %.1f s/epoch, ratio %.2f (target ≤ 1.5)", *dtype, res["torch_seconds_per_epoch"], r)
	}
	if r, ok := res["ratio_vs_beside"].(float64); ok {
		fmt.Fprintf(stdout, ", beside %s %.1f s/epoch, ratio %.2f", beside.path, res["beside_seconds_per_epoch"], r)
	}
	fmt.Fprintln(stdout)
	return 0
}

func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return lines[len(lines)-1]
}

// benchNeurogo trains the spiking-MNIST network on the first n images and
// returns the median seconds per epoch and the last epoch's accuracy;
// f32 trains with float32 arithmetic where it pays (train.Config.Float32).
func benchNeurogo(dir string, n, epochs, batch int, f32 bool, stderr io.Writer) (float64, float64, error) {
	trainSet, _, err := data.MNIST(dir)
	if err != nil {
		return 0, 0, err
	}
	if trainSet, err = trainSet.Subset(n); err != nil {
		return 0, 0, err
	}
	mn, err := repro.NewMNISTNet(0, 0.1)
	if err != nil {
		return 0, 0, err
	}
	m, err := mn.Model(false) // the layers trained, as in the reproduction and PyTorch's copy
	if err != nil {
		return 0, 0, err
	}
	if err := m.Compile(train.Config{
		Optimizer:    &optim.RMSProp{LR: 1e-3},
		Loss:         map[*toolkit.Probe]loss.Loss{mn.Out: loss.CrossEntropy{FromLogits: true, Sparse: true}},
		Metrics:      map[*toolkit.Probe][]loss.Metric{mn.Out: {loss.Accuracy{Sparse: true}}},
		LIFSmoothing: repro.DefaultSigma,
		// float32 products, as the PyTorch peer trains (--torch-dtype)
		Float32: f32,
	}); err != nil {
		return 0, 0, err
	}
	x, y, err := repro.ImagesArray(trainSet, 1)
	if err != nil {
		return 0, 0, err
	}
	var times []float64
	var start time.Time
	timer := train.CallbackFuncs{
		EpochBegin: func(*train.Model, int) error { start = time.Now(); return nil },
		EpochEnd: func(*train.Model, int, train.Logs) error {
			times = append(times, time.Since(start).Seconds())
			return nil
		},
	}
	h, err := m.Fit(map[*toolkit.Node]*train.Array{mn.Input: x}, map[*toolkit.Probe]*train.Array{mn.Out: y},
		train.FitOptions{Epochs: epochs, BatchSize: batch, Callbacks: []train.Callback{timer, train.NewProgress(stderr)}})
	if err != nil {
		return 0, 0, err
	}
	sort.Float64s(times)
	acc := h.Logs[len(h.Logs)-1]["out_sparse_categorical_accuracy"]
	return times[len(times)/2], acc, nil
}
