package stimulus_test

import (
	"errors"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/neurogo/neurogo/sim/frames"
	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/data"
	"github.com/neurogo/neurogo/train/stimulus"
	"github.com/neurogo/neurogo/train/timeres"
)

// relay is a network file whose prediction is the label relayed through
// two identity pools: three synapse-pools, three frames.
const relay = `
name: relay
agents: 4
neuron_pools:
    image:
        shape: [1, 28, 28]
    label:
        shape: [10, 1, 1]
    a:
        shape: [10, 1, 1]
    b:
        shape: [10, 1, 1]
    prediction:
        shape: [10, 1, 1]
synapse_pools:
    la:
        source: [[label]]
        target: a
        rf: [[1]]
        init W_0_0: id
    ab:
        source: [[a]]
        target: b
        rf: [[1]]
        init W_0_0: id
    bp:
        source: [[b]]
        target: prediction
        rf: [[1]]
        init W_0_0: id
plasticities: {}
interfaces:
    mnist:
        type: mnist
        in: [mnist_pred]
        out: [mnist_image, mnist_label]
        remap:
            mnist_image: image
            mnist_label: label
            mnist_pred: prediction
        source_file: /opt/dl/data/mnist.pkl.gz
        min_duration: 5
        max_duration: 8
        fading: 0
`

// TestRelayResponseTime runs the stimulus driver inside the frame
// executor (sim/frames): the measured response time of the relay net must
// equal its shortest label→prediction path, and the image pool must hold
// the images the driver wrote.
func TestRelayResponseTime(t *testing.T) {
	net, err := stream.Parse([]byte(relay), "relay.st_graph", stream.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	set := &data.Dataset{Name: "ramp", Rows: 28, Cols: 28, Scaled: true, Classes: data.MNISTClasses()}
	for i := range 30 {
		im := make([]float64, 784)
		for p := range im {
			im[p] = float64(i) / 29
		}
		set.Images = append(set.Images, im)
		set.Labels = append(set.Labels, i%10)
	}
	ds, err := stimulus.Drivers(net, stimulus.Options{Data: set, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	s, err := frames.New(net, frames.Options{Seed: 1, Workers: 1, Drivers: ds, NoNoise: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := ds["mnist"].(*stimulus.MNIST)
	for range 200 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		img, err := s.State("image")
		if err != nil {
			t.Fatal(err)
		}
		labels, _ := d.Stimulus(s.Frame())
		for a, l := range labels {
			if i := int(math.Round(img[a*784] * 29)); set.Labels[i] != l {
				t.Fatalf("frame %d agent %d: image pool shows image %d (label %d), driver says label %d", s.Frame(), a, i, set.Labels[i], l)
			}
		}
	}
	path, err := timeres.ShortestPath(net, "label", "prediction")
	if err != nil || path != 3 {
		t.Fatalf("ShortestPath(label, prediction) = %d, %v; want 3", path, err)
	}
	acc := d.TCM().Accuracy()
	rt, ok := timeres.ResponseTime(acc, 1)
	t.Logf("accuracy per δt: %.3f", acc)
	if !ok || rt != path {
		t.Errorf("response time %d (%v), want the shortest path %d", rt, ok, path)
	}
	for dt := path; dt < len(acc); dt++ {
		if acc[dt] != 1 {
			t.Errorf("accuracy at δt = %d is %v, want 1 once the relay has delivered the label", dt, acc[dt])
		}
	}
}

// TestDemonstrationRealMNIST runs the appendix network file (the
// statestream paper, §6.2, statestream's demonstration.st_graph, untrained) on real MNIST
// test images through Drivers and the frame executor: the file's
// interfaces section (source_file: /opt/dl/data/mnist.pkl.gz) must map to
// neurogo's MNIST, and the TCM must fill at every delay.
func TestDemonstrationRealMNIST(t *testing.T) {
	net, err := stream.Load("../../toolkit/stream/testdata/demonstration.st_graph", stream.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	net.Agents = 4 // the file asks for 128; a few suffice here
	ds, err := stimulus.Drivers(net, stimulus.Options{Set: "test", Subset: 200, Seed: 1})
	if errors.Is(err, data.ErrNotFound) {
		if r := os.Getenv("NEUROGO_REQUIRE_DATA"); r == "" || r == "0" {
			t.Skipf("MNIST is not installed (run scripts/start or scripts/test): %v", err)
		}
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := frames.New(net, frames.Options{Seed: 1, Workers: 1, Drivers: ds, NoNoise: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Run(40); err != nil {
		t.Fatal(err)
	}
	d := ds["mnist"].(*stimulus.MNIST)
	tcm := d.TCM()
	if tcm.MaxDelay() != stimulus.DefaultFrames-1 {
		t.Errorf("TCM keeps delays up to %d, want %d (12-frame holds)", tcm.MaxDelay(), stimulus.DefaultFrames-1)
	}
	for dt := 0; dt <= tcm.MaxDelay(); dt++ {
		if n := tcm.Samples(dt); n < 4*3-4 {
			t.Errorf("δt = %d: %d samples after 40 frames of 4 agents, want ≥ 8", dt, n)
		}
	}
	img, _ := s.State("image")
	labels, _ := d.Stimulus(s.Frame())
	found := false
	for i, im := range d.Dataset().Images {
		if reflect.DeepEqual(im, img[:784]) {
			found = d.Dataset().Labels[i] == labels[0]
			break
		}
	}
	if !found {
		t.Error("agent 0's image pool does not hold a test image with the label the driver reports")
	}
	t.Logf("untrained accuracy per δt: %.2f", tcm.Accuracy())
}
