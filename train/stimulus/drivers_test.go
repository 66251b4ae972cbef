package stimulus

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
)

// mnistInterface is the interfaces section of statestream's
// demonstration.st_graph (the statestream paper, appendix 6.2) with 6-frame holds.
func mnistInterface() *stream.Interface {
	return &stream.Interface{
		Name: "mnist", Type: "mnist",
		In: []string{"mnist_pred"}, Out: []string{"mnist_image", "mnist_label"},
		Remap: map[string]string{"mnist_image": "image", "mnist_label": "label", "mnist_pred": "prediction"},
		Params: map[string]any{
			"source_file":  "/opt/dl/data/mnist.pkl.gz",
			"fading":       0,
			"min_duration": 6,
			"max_duration": float64(6), // YAML numbers may arrive as floats
		},
	}
}

func TestFromInterface(t *testing.T) {
	set := synthetic(30, 28, 28, 10)
	drv, err := FromInterface(mnistInterface(), Options{Data: set, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	d := drv.(*MNIST)
	if lo, hi := d.Frames(); lo != 6 || hi != 6 {
		t.Errorf("hold frames %d–%d, want 6–6 from min_duration/max_duration", lo, hi)
	}
	out := map[string][3]int{"image": {1, 28, 28}, "label": {10, 1, 1}}
	in := map[string][3]int{"prediction": {10, 1, 1}}
	if err := d.Start(2, out, in, 1); err != nil {
		t.Fatalf("Start with the remapped pools: %v", err)
	}
	if d.TCM() == nil {
		t.Error("mnist_pred in in: the driver should keep a TCM")
	}
	for f := range 13 {
		bufs := map[string][]float64{"image": make([]float64, 2*784), "label": make([]float64, 20)}
		if err := d.Frame(f, map[string][]float64{"prediction": make([]float64, 20)}, bufs); err != nil {
			t.Fatal(err)
		}
	}
	if _, on := d.Stimulus(13); !reflect.DeepEqual(on, []int{13, 13}) {
		t.Errorf("onsets at frame 13 = %v, want [13 13] (holds of 6: onsets 1, 7, 13)", on)
	}

	// Without durations: 12 frames (the statestream paper, Fig. 3b).
	it := mnistInterface()
	delete(it.Params, "min_duration")
	delete(it.Params, "max_duration")
	drv, err = FromInterface(it, Options{Data: set})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := drv.(*MNIST).Frames(); lo != 12 || hi != 12 {
		t.Errorf("default hold %d–%d, want 12–12", lo, hi)
	}

	for _, c := range []struct {
		name   string
		change func(*stream.Interface)
		want   string
	}{
		{"type", func(i *stream.Interface) { i.Type = "cifar10" }, `type "cifar10"`},
		{"out topic", func(i *stream.Interface) { i.Out = []string{"mnist_image", "cifar_image"} }, `out "cifar_image"`},
		{"in topic", func(i *stream.Interface) { i.In = []string{"pred"} }, `in "pred"`},
		{"unknown key", func(i *stream.Interface) { i.Params["split"] = 3 }, `unknown parameter "split"`},
		{"fading type", func(i *stream.Interface) { i.Params["fading"] = "yes" }, "fading = yes"},
		{"fading fraction", func(i *stream.Interface) { i.Params["fading"] = 1.5 }, "whole number"},
		{"single mode", func(i *stream.Interface) { i.Params["mode"] = 1 }, "single mode"},
		{"min > max", func(i *stream.Interface) { i.Params["min_duration"] = 9 }, "MinFrames = 9 > MaxFrames = 6"},
		{"source file", func(i *stream.Interface) { i.Params["source_file"] = "/data/mnist.csv" }, "IDX files"},
		{"pool shape", nil, `image pool "image" has shape`},
	} {
		it := mnistInterface()
		if c.change != nil {
			c.change(it)
		}
		drv, err := FromInterface(it, Options{Data: set})
		if err == nil && c.change == nil {
			err = drv.Start(1, map[string][3]int{"image": {1, 14, 14}}, nil, 0)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestFromInterfaceFindsData(t *testing.T) {
	it := mnistInterface()
	it.Params["mode"] = 3 // statestream's test mode: the test set
	it.Params["test samples"] = 50
	drv, err := FromInterface(it, Options{})
	if errors.Is(err, errNotFound()) {
		if !strings.Contains(err.Error(), "scripts/start") {
			t.Errorf("missing data: %v, want the set-up command named", err)
		}
		t.Skipf("MNIST is not installed (run scripts/start): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	set := drv.(*MNIST).Dataset()
	if set.Name != "MNIST test" || set.Len() != 50 {
		t.Errorf("got %q with %d images, want the first 50 of MNIST test", set.Name, set.Len())
	}
}

func TestDrivers(t *testing.T) {
	net := &stream.Net{Name: "n", Interfaces: []*stream.Interface{
		{Name: "noise", Type: "random", Out: []string{"random"}, Remap: map[string]string{"random": "r"},
			Params: map[string]any{"distribution": "uniform", "min": -2, "max": 3.5}},
	}}
	ds, err := Drivers(net, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := ds["noise"]
	if r == nil {
		t.Fatal("no driver for interface noise")
	}
	if err := r.Start(3, map[string][3]int{"r": {2, 4, 4}}, nil, 9); err != nil {
		t.Fatal(err)
	}
	buf := make([]float64, 3*32)
	if err := r.Frame(0, nil, map[string][]float64{"r": buf}); err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range buf {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo < -2 || hi >= 3.5 || hi-lo < 3 {
		t.Errorf("uniform on [-2, 3.5): values in [%v, %v]", lo, hi)
	}
	net.Interfaces = append(net.Interfaces, &stream.Interface{Name: "letters", Type: "lettersequence", Pos: stream.Pos{File: "x.st_graph", Line: 40}})
	_, err = Drivers(net, Options{})
	for _, w := range []string{`"letters"`, `"lettersequence"`, "x.st_graph:40", "NewFunc", "stream.Driver"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("unknown type: error %v, want it to contain %q", err, w)
		}
	}
	net.Interfaces = []*stream.Interface{{Name: "bad", Type: "random", Out: []string{"random"}}}
	if _, err := Drivers(net, Options{}); err == nil || !strings.Contains(err.Error(), "distribution is missing") {
		t.Errorf("random without distribution: %v", err)
	}
}

// distTol: 5 standard errors of a mean over n = 20 000 draws.
func distTol(std float64) float64 { return 5 * std / math.Sqrt(20000) }

func TestRandom(t *testing.T) {
	cases := []struct {
		o         RandomOptions
		mean, std float64
	}{
		{RandomOptions{Dist: "uniform", Min: 1, Max: 3}, 2, 2 / math.Sqrt(12)},
		{RandomOptions{Dist: "normal", Mean: -1, Std: 2}, -1, 2},
		{RandomOptions{Dist: "bernoulli", P: 0.25}, 0.25, math.Sqrt(0.25 * 0.75)},
	}
	for _, c := range cases {
		c.o.Seed = 4
		r, err := NewRandom(c.o)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Start(4, map[string][3]int{"x": {5, 10, 10}}, nil, 1); err != nil {
			t.Fatal(err)
		}
		var vals []float64
		for f := range 10 {
			buf := make([]float64, 2000)
			if err := r.Frame(f, nil, map[string][]float64{"x": buf}); err != nil {
				t.Fatal(err)
			}
			vals = append(vals, buf...)
		}
		var s, sq float64
		for _, v := range vals {
			s += v
			sq += v * v
			if c.o.Dist == "bernoulli" && v != 0 && v != 1 {
				t.Fatalf("bernoulli value %v", v)
			}
			if c.o.Dist == "uniform" && (v < 1 || v >= 3) {
				t.Fatalf("uniform value %v outside [1, 3)", v)
			}
		}
		m := s / float64(len(vals))
		sd := math.Sqrt(sq/float64(len(vals)) - m*m)
		if math.Abs(m-c.mean) > distTol(c.std) {
			t.Errorf("%s: mean %v, want %v ± %v", c.o.Dist, m, c.mean, distTol(c.std))
		}
		if math.Abs(sd-c.std) > 0.05*c.std {
			t.Errorf("%s: std %v, want %v ± 5 %%", c.o.Dist, sd, c.std)
		}
	}
	for _, o := range []RandomOptions{{}, {Dist: "uniform", Min: 2, Max: 1}, {Dist: "normal", Std: -1}, {Dist: "bernoulli", P: 1.5}, {Dist: "normal", Mean: math.NaN()}} {
		if _, err := NewRandom(o); err == nil {
			t.Errorf("NewRandom(%+v) should fail", o)
		}
	}
	r, _ := NewRandom(RandomOptions{Dist: "uniform", Max: 1, Pools: []string{"y"}})
	if err := r.Start(1, map[string][3]int{"x": {1, 1, 1}}, nil, 0); err == nil || !strings.Contains(err.Error(), `"y"`) {
		t.Errorf("undeclared pool: %v", err)
	}
}

func TestFunc(t *testing.T) {
	f, err := NewFunc(func(t int, in, out map[string][]float64) error {
		for i := range out["o"] {
			out["o"][i] = float64(t) + in["i"][0]
		}
		return nil
	}, map[string][3]int{"o": {2, 1, 1}}, map[string][3]int{"i": {1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Start(2, map[string][3]int{"o": {2, 1, 1}}, map[string][3]int{"i": {1, 1, 1}}, 0); err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 4)
	if err := f.Frame(3, map[string][]float64{"i": {0.5, 0}}, map[string][]float64{"o": out}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, []float64{3.5, 3.5, 3.5, 3.5}) {
		t.Errorf("out = %v", out)
	}
	if err := f.Start(2, map[string][3]int{"o": {3, 1, 1}}, map[string][3]int{"i": {1, 1, 1}}, 0); err == nil || !strings.Contains(err.Error(), "declared [2 1 1]") {
		t.Errorf("shape mismatch: %v", err)
	}
	if err := f.Start(2, map[string][3]int{"o": {2, 1, 1}, "z": {1, 1, 1}}, map[string][3]int{"i": {1, 1, 1}}, 0); err == nil || !strings.Contains(err.Error(), `"z"`) {
		t.Errorf("undeclared pool: %v", err)
	}
	p, _ := NewFunc(func(int, map[string][]float64, map[string][]float64) error { panic("boom") }, map[string][3]int{"o": {1, 1, 1}}, nil)
	p.Start(1, map[string][3]int{"o": {1, 1, 1}}, nil, 0)
	if err := p.Frame(0, nil, map[string][]float64{"o": {0}}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("panic: %v", err)
	}
	e, _ := NewFunc(func(int, map[string][]float64, map[string][]float64) error { return errors.New("no data") }, map[string][3]int{"o": {1, 1, 1}}, nil)
	e.Start(1, map[string][3]int{"o": {1, 1, 1}}, nil, 0)
	if err := e.Frame(7, nil, map[string][]float64{"o": {0}}); err == nil || !strings.Contains(err.Error(), "Frame(7): no data") {
		t.Errorf("error: %v", err)
	}
	if _, err := NewFunc(nil, map[string][3]int{"o": {1, 1, 1}}, nil); err == nil {
		t.Error("nil function should fail")
	}
	if _, err := NewFunc(func(int, map[string][]float64, map[string][]float64) error { return nil }, map[string][3]int{"o": {0, 1, 1}}, nil); err == nil {
		t.Error("zero extent should fail")
	}
}
