package train_test

import (
	"bytes"
	"fmt"
	"log"
	"math"
	"slices"
	"strings"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

// squareModel is the examples' network: a constant input node (fed with
// data), one RectifiedLinear ensemble and a decoded connection to an
// output node, all unfiltered; with x in [-1, 1] and targets x².
func squareModel() (*train.Model, *toolkit.Node, *toolkit.Probe, map[*toolkit.Node]*train.Array, map[*toolkit.Probe]*train.Array) {
	net := toolkit.New("square", 1)
	in := net.Const("in", 0)
	a := net.Ensemble("a", 20, 1)
	a.NeuronType = neurons.RectifiedLinear{Amplitude: 0.01}
	out := net.Passthrough("out", 1)
	net.Connect(in, a).Synapse = nil
	net.Connect(a, out).Synapse = nil
	p := net.Probe("p", out, "")
	p.Synapse = nil

	var xs, ys [][]float64
	for i := range 16 {
		x := -1 + 2*float64(i)/15
		xs, ys = append(xs, []float64{x}), append(ys, []float64{x * x})
	}
	const steps = 2
	xa, err := train.ArrayFromRows(xs, steps)
	if err != nil {
		log.Fatal(err)
	}
	ya, err := train.ArrayFromRows(ys, steps)
	if err != nil {
		log.Fatal(err)
	}
	m, err := train.New(net)
	if err != nil {
		log.Fatal(err)
	}
	err = m.Compile(train.Config{
		Optimizer: &optim.Adam{LR: 0.01},
		Loss:      map[*toolkit.Probe]loss.Loss{p: loss.MSE{}},
	})
	if err != nil {
		log.Fatal(err)
	}
	return m, in, p, map[*toolkit.Node]*train.Array{in: xa}, map[*toolkit.Probe]*train.Array{p: ya}
}

// Train a network to compute x² and compare the loss before and after.
func ExampleModel_Fit() {
	m, in, p, x, y := squareModel()
	before, err := m.Evaluate(x, y, train.EvalOptions{Rates: true})
	if err != nil {
		log.Fatal(err)
	}
	h, err := m.Fit(x, y, train.FitOptions{Epochs: 20, BatchSize: 4, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	after, err := m.Evaluate(x, y, train.EvalOptions{Rates: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("epochs:", len(h.Epochs))
	fmt.Printf("loss before: %.2f\n", before["loss"])
	fmt.Println("loss dropped tenfold:", after["loss"] < before["loss"]/10)

	// the trained network at x = ±1
	ends, _ := train.ArrayFromRows([][]float64{{-1}, {1}}, 2)
	out, err := m.Predict(map[*toolkit.Node]*train.Array{in: ends}, train.EvalOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("f(-1) ≈ %.1f, f(1) ≈ %.1f\n", out[p].At(0, 1)[0], out[p].At(1, 1)[0])
	// Output:
	// epochs: 20
	// loss before: 0.63
	// loss dropped tenfold: true
	// f(-1) ≈ 1.0, f(1) ≈ 1.0
}

// One row per example: a row of Dims values is held for every step.
func ExampleArrayFromRows() {
	a, err := train.ArrayFromRows([][]float64{{1, 2}, {3, 4}}, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.N, a.Steps, a.Dims)
	fmt.Println(a.Example(1))
	fmt.Println(a.At(0, 2))
	// Output:
	// 2 3 2
	// [3 4 3 4 3 4]
	// [1 2]
}

// Class-index targets for sparse cross-entropy and accuracy.
func ExampleArrayFromLabels() {
	a, err := train.ArrayFromLabels([]int{2, 0, 1}, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.N, a.Steps, a.Dims, a.Data)
	_, err = train.ArrayFromLabels([]int{1, -1}, 2)
	fmt.Println(err)
	// Output:
	// 3 2 1 [2 2 0 0 1 1]
	// train: ArrayFromLabels: label 1 is -1: must be non-negative
}

// Compare backpropagated gradients with central finite differences.
func ExampleModel_CheckGradients() {
	m, _, _, x, y := squareModel()
	rep, err := m.CheckGradients(x, y, train.GradCheckOptions{PerParam: 8, Seed: 1, Floor: 1e-4})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("entries:", len(rep.Entries)) // 8 of each vector, 1 of the scalar input transform
	fmt.Println("worst relative error < 1e-5:", rep.Worst.RelErr < 1e-5)
	// Output:
	// entries: 25
	// worst relative error < 1e-5: true
}

// Outside a notebook, Progress writes a Keras-style line per epoch.
func ExampleNewProgress() {
	m, _, _, x, y := squareModel()
	var buf bytes.Buffer
	_, err := m.Fit(x, y, train.FitOptions{Epochs: 2, BatchSize: 8, Callbacks: []train.Callback{train.NewProgress(&buf)}})
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		parts := strings.Split(line, "\r")
		last := parts[len(parts)-1] // what the terminal shows at the epoch's end
		bar, logs, _ := strings.Cut(last, "] ")
		_, logs, _ = strings.Cut(logs, " - ") // drop the elapsed time
		var keys []string
		for _, kv := range strings.Split(logs, " - ") {
			k, _, _ := strings.Cut(kv, ":")
			keys = append(keys, k)
		}
		fmt.Println(bar+"]", keys)
	}
	// Output:
	// Epoch 1/2 2/2 [==============================] [loss p_loss]
	// Epoch 2/2 2/2 [==============================] [loss p_loss]
}

// Run the trained model in the reference simulator: its output equals the
// trainer's prediction.
func ExampleModel_Params() {
	m, in, p, x, y := squareModel()
	if _, err := m.Fit(x, y, train.FitOptions{Epochs: 5, BatchSize: 4, Seed: 1}); err != nil {
		log.Fatal(err)
	}
	params := m.Params()
	var keys []string
	for k := range params.Ensembles {
		keys = append(keys, "ensemble "+k)
	}
	for k := range params.Connections {
		keys = append(keys, "connection "+k)
	}
	slices.Sort(keys)
	fmt.Println(strings.Join(keys, "\n"))

	pred, err := m.Predict(x, train.EvalOptions{})
	if err != nil {
		log.Fatal(err)
	}
	feed := [][][]float64{{x[in].At(3, 0), x[in].At(3, 1)}} // example 3, batch of one
	s, err := sim.New(m.Net, sim.WithParams(params), sim.Feed(in, feed))
	if err != nil {
		log.Fatal(err)
	}
	if err := s.RunSteps(2); err != nil {
		log.Fatal(err)
	}
	got, err := s.Data(p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("sim equals Predict:", math.Abs(got[1][0]-pred[p].At(3, 1)[0]) < 1e-9)
	// Output:
	// connection a->out
	// connection in->a
	// ensemble a
	// sim equals Predict: true
}
