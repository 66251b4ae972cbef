package timeres

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/toolkit/synapses"
	"github.com/neurogo/neurogo/train"
)

// accTol: accuracies are ratios of small integer counts, exact up to one
// rounding of the division.
const accTol = 1e-12

func TestTCMHandComputed(t *testing.T) {
	m, err := New(3, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Two agents; agent 0 sees class 2 from frame 5, agent 1 class 0 from
	// frame 6, agent 2 no stimulus (label −1).
	frames := []struct {
		t           int
		labels      []int
		onsets      []int
		predictions []int
	}{
		{5, []int{2, 1, -1}, []int{5, 3, 0}, []int{0, 1, 7}}, // δt 0: (2→0); δt 2: (1→1)
		{6, []int{2, 0, -1}, []int{5, 6, 0}, []int{2, 1, 0}}, // δt 1: (2→2); δt 0: (0→1)
		{7, []int{2, 0, -1}, []int{5, 6, 0}, []int{2, 0, 0}}, // δt 2: (2→2); δt 1: (0→0)
		{8, []int{2, 0, -1}, []int{5, 6, 0}, []int{1, 0, 0}}, // δt 3: ignored; δt 2: (0→0)
	}
	for _, f := range frames {
		if err := m.Add(f.labels, f.onsets, f.predictions, f.t); err != nil {
			t.Fatalf("frame %d: %v", f.t, err)
		}
	}
	want := [][][]float64{
		{{0, 1, 0}, {0, 0, 0}, {1, 0, 0}},
		{{1, 0, 0}, {0, 0, 0}, {0, 0, 1}},
		{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	}
	for dt, w := range want {
		if got := m.Counts(dt); !reflect.DeepEqual(got, w) {
			t.Errorf("Counts(%d) = %v, want %v", dt, got, w)
		}
	}
	if got := []int{m.Samples(0), m.Samples(1), m.Samples(2), m.Samples(3)}; !reflect.DeepEqual(got, []int{2, 2, 3, 0}) {
		t.Errorf("Samples = %v, want [2 2 3 0]", got)
	}
	if m.Ignored() != 1 {
		t.Errorf("Ignored = %d, want 1 (δt = 3 > MaxDelay 2)", m.Ignored())
	}
	acc := m.Accuracy()
	for dt, w := range []float64{0, 1, 1} {
		if math.Abs(acc[dt]-w) > accTol {
			t.Errorf("Accuracy[%d] = %v, want %v", dt, acc[dt], w)
		}
	}
	if w := m.Window(1, 5); !reflect.DeepEqual(w, [][]float64{{2, 0, 0}, {0, 1, 0}, {0, 0, 2}}) {
		t.Errorf("Window(1, 5) = %v", w)
	}
	if w := m.Window(2, 1); !reflect.DeepEqual(w, [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}) {
		t.Errorf("Window(2, 1) = %v, want zeros", w)
	}
	if m.Counts(3) != nil || m.Counts(-1) != nil {
		t.Error("Counts outside 0 … MaxDelay should be nil")
	}
	if c := m.ChanceLevel(); math.Abs(c-1.0/3) > accTol {
		t.Errorf("ChanceLevel = %v, want 1/3", c)
	}
}

func TestAddScoresArgmax(t *testing.T) {
	m, _ := New(3, 0)
	// agent 0: argmax 1; agent 1: tie 0/2 → 0; agent 2: no label, NaN ok.
	scores := []float64{0.1, 0.7, 0.2, 0.5, 0.1, 0.5, math.NaN(), 0, 0}
	if err := m.AddScores([]int{1, 2, -1}, []int{4, 4, 0}, scores, 4); err != nil {
		t.Fatal(err)
	}
	if got, want := m.Counts(0), [][]float64{{0, 0, 0}, {0, 1, 0}, {1, 0, 0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Counts(0) = %v, want %v", got, want)
	}
}

func TestNaNWhereNoSamples(t *testing.T) {
	m, _ := New(2, 3)
	if err := m.Add([]int{1}, []int{0}, []int{1}, 2); err != nil {
		t.Fatal(err)
	}
	acc := m.Accuracy()
	for dt, a := range acc {
		if dt == 2 {
			if a != 1 {
				t.Errorf("Accuracy[2] = %v, want 1", a)
			}
		} else if !math.IsNaN(a) {
			t.Errorf("Accuracy[%d] = %v, want NaN (no samples)", dt, a)
		}
	}
	if rt, ok := ResponseTime(acc, 0.5); !ok || rt != 2 {
		t.Errorf("ResponseTime over NaNs = %d, %v; want 2, true", rt, ok)
	}
}

func TestErrors(t *testing.T) {
	m, _ := New(3, 4)
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"lengths", m.Add([]int{0, 1}, []int{0}, []int{0, 1}, 3), "one entry per agent"},
		{"label range", m.Add([]int{3}, []int{0}, []int{0}, 3), "labels[0] = 3"},
		{"label below −1", m.Add([]int{-2}, []int{0}, []int{0}, 3), "labels[0] = -2"},
		{"prediction range", m.Add([]int{0}, []int{0}, []int{5}, 3), "predictions[0] = 5"},
		{"onset after t", m.Add([]int{0}, []int{4}, []int{0}, 3), "after frame t = 3"},
		{"scores length", m.AddScores([]int{0}, []int{0}, []float64{1, 2}, 3), "len(scores) = 2"},
		{"scores NaN", m.AddScores([]int{0}, []int{0}, []float64{1, math.NaN(), 0}, 3), "must be finite"},
		{"merge mismatch", m.Merge(mustNew(t, 2, 4)), "want 3 and 4"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, c.err, c.want)
		}
	}
	for dt := 0; dt <= 4; dt++ {
		if m.Samples(dt) != 0 {
			t.Fatalf("a failed Add recorded samples at δt = %d", dt)
		}
	}
	if _, err := New(0, 3); err == nil {
		t.Error("New(0, 3) should fail")
	}
	if _, err := New(3, -1); err == nil {
		t.Error("New(3, -1) should fail")
	}
}

func mustNew(t *testing.T, classes, maxDelay int) *TCM {
	t.Helper()
	m, err := New(classes, maxDelay)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestResponseTime(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		acc       []float64
		threshold float64
		want      int
		ok        bool
	}{
		{[]float64{0.1, 0.1, 0.1, 0.8, 0.97, 0.98}, 0.9, 4, true},
		{[]float64{0.1, 0.1, 0.1, 0.8, 0.97, 0.98}, 0.8, 3, true}, // reaching counts
		{[]float64{nan, nan, 0.95}, 0.9, 2, true},
		{[]float64{0.1, 0.5}, 0.9, 0, false},
		{[]float64{0.1, 0.95}, nan, 0, false},
		{nil, 0.5, 0, false},
	}
	for i, c := range cases {
		got, ok := ResponseTime(c.acc, c.threshold)
		if got != c.want || ok != c.ok {
			t.Errorf("case %d: ResponseTime = %d, %v; want %d, %v", i, got, ok, c.want, c.ok)
		}
	}
}

func TestSampleResponseTimes(t *testing.T) {
	T, F := true, false
	correct := [][]bool{
		{F, F, F, T, T, T},    // 3
		{F, T, F, T, T, F},    // stay 2: 3
		{T, F, T, F, T, F},    // never 2 in a row
		{F, F, F, F, F, T, T}, // 5
		{},
	}
	got, err := SampleResponseTimes(correct, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 3, -1, 5, -1}; !reflect.DeepEqual(got, want) {
		t.Errorf("stay 2: %v, want %v", got, want)
	}
	got, _ = SampleResponseTimes(correct, 1)
	if want := []int{3, 1, 0, 5, -1}; !reflect.DeepEqual(got, want) {
		t.Errorf("stay 1: %v, want %v", got, want)
	}
	if _, err := SampleResponseTimes(correct, 0); err == nil {
		t.Error("stay 0 should fail")
	}
}

func TestTracker(t *testing.T) {
	r, err := NewTracker(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	// One agent: class 1 from frame 1 (correct from δt 2 on, responds at
	// 2), class 0 from frame 6 (never twice correct: missed), class 1 from
	// frame 9 (correct at δt 0, 1: responds at 0), still running.
	labels := []int{-1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1}
	onsets := []int{0, 1, 1, 1, 1, 1, 6, 6, 6, 9, 9}
	preds := []int{0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1}
	for f := range labels {
		if err := r.Add([]int{labels[f]}, []int{onsets[f]}, []int{preds[f]}, f); err != nil {
			t.Fatalf("frame %d: %v", f, err)
		}
	}
	if got, want := r.Times(), [][]int{nil, {2, 0}}; !reflect.DeepEqual(normalise(got), normalise(want)) {
		t.Errorf("Times = %v, want %v", got, want)
	}
	// The class-0 presentation ended at frame 9 without a response; the
	// running class-1 one has responded already.
	if got := r.Missed(); !reflect.DeepEqual(got, []int{1, 0}) {
		t.Errorf("Missed = %v, want [1 0]", got)
	}
	if err := r.Add([]int{0, 1}, []int{9, 9}, []int{0, 0}, 11); err == nil {
		t.Error("a changed number of agents should fail")
	}
}

func normalise(x [][]int) [][]int {
	out := make([][]int, len(x))
	for i, v := range x {
		out[i] = append([]int{}, v...)
	}
	return out
}

// demonstration builds the network of Fig. 3a / appendix 6.2 of the statestream paper
// (statestream's examples/demonstration.st_graph) in Go.
func demonstration() *stream.Net {
	pools := []string{"image", "label", "prediction", "conv1", "conv2", "pred1", "pred2", "label_copy"}
	n := &stream.Net{Name: "demonstration", Agents: 1}
	for _, p := range pools {
		n.NeuronPools = append(n.NeuronPools, &stream.NeuronPool{Name: p, Shape: [3]int{10, 1, 1}})
	}
	sp := func(name, target string, src ...string) {
		n.SynapsePools = append(n.SynapsePools, &stream.SynapsePool{Name: name, Source: [][]string{src}, Target: target})
	}
	sp("img_c1", "conv1", "image")
	sp("c1_c2", "conv2", "conv1")
	sp("c1_pred", "pred1", "conv1")
	sp("c2_pred", "pred2", "conv2")
	sp("pred_pred", "prediction", "pred1", "pred2")
	sp("label_cp", "label_copy", "label")
	return n
}

func TestShortestPath(t *testing.T) {
	n := demonstration()
	cases := []struct {
		from, to string
		want     int
	}{
		{"image", "prediction", 3}, // via pred1 (the statestream paper, §3.2: chance for the first three frames)
		{"image", "pred2", 3},
		{"image", "conv1", 1},
		{"label", "label_copy", 1},
		{"image", "image", 0},
	}
	for _, c := range cases {
		got, err := ShortestPath(n, c.from, c.to)
		if err != nil || got != c.want {
			t.Errorf("ShortestPath(%s, %s) = %d, %v; want %d", c.from, c.to, got, err, c.want)
		}
	}
	// Without the short path the deep path (image→conv1→conv2→pred2→
	// prediction) is left: 4 frames.
	deep := demonstration()
	deep.SynapsePools = append(deep.SynapsePools[:2], deep.SynapsePools[3:]...)
	if got, err := ShortestPath(deep, "image", "prediction"); err != nil || got != 4 {
		t.Errorf("deep path: %d, %v; want 4", got, err)
	}
	for _, c := range []struct{ from, to, want string }{
		{"image", "label", "no path"},
		{"retina", "prediction", `no neuron-pool "retina"`},
		{"image", "nowhere", `no neuron-pool "nowhere"`},
	} {
		if _, err := ShortestPath(n, c.from, c.to); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ShortestPath(%s, %s): error %v, want %q", c.from, c.to, err, c.want)
		}
	}
}

func TestShortestPathNetwork(t *testing.T) {
	net := toolkit.New("paths", 1)
	in := net.Node("in", 1, nil)
	a := net.Ensemble("a", 10, 1)
	b := net.Ensemble("b", 10, 1)
	c := net.Ensemble("c", 10, 1)
	net.Connect(in, a).Synapse = nil                       // 0 steps
	net.Connect(a, b)                                      // default Lowpass: 1 step
	net.Connect(b.Neurons(), c.Neurons())                  // 1 step
	net.Connect(a, c).Synapse = synapses.Lowpass{Tau: 0.1} // 1 step: in→a→c = 1
	cases := []struct {
		from, to any
		want     int
	}{
		{in, a, 0}, {in, b, 1}, {in, c, 1}, {"a", "c", 1}, {b, c.Neurons(), 1}, {a, a, 0},
	}
	for i, cs := range cases {
		got, err := ShortestPathNetwork(net, cs.from, cs.to)
		if err != nil || got != cs.want {
			t.Errorf("case %d: %d, %v; want %d", i, got, err, cs.want)
		}
	}
	if _, err := ShortestPathNetwork(net, c, in); err == nil || !strings.Contains(err.Error(), "no path") {
		t.Errorf("c→in: %v, want no path", err)
	}
	if _, err := ShortestPathNetwork(net, "zz", c); err == nil || !strings.Contains(err.Error(), `"zz"`) {
		t.Errorf("unknown label: %v", err)
	}
	if _, err := ShortestPathNetwork(net, 3, c); err == nil {
		t.Error("an int target should fail")
	}
}

func TestFromSteps(t *testing.T) {
	// Two samples, 4 steps, 2 classes, onset 1: the step-0 answers are not
	// counted.
	scores := [][][]float64{
		{{0, 1}, {1, 0}, {0, 1}, {0, 1}}, // label 1: δt 0 wrong, 1 right, 2 right
		{{1, 0}, {0, 1}, {1, 0}, {1, 0}}, // label 0: wrong, right, right
	}
	m, err := FromSteps(scores, []int{1, 0}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.MaxDelay() != 2 {
		t.Errorf("MaxDelay = %d, want 2", m.MaxDelay())
	}
	if got := m.Accuracy(); !reflect.DeepEqual(got, []float64{0, 1, 1}) {
		t.Errorf("Accuracy = %v, want [0 1 1]", got)
	}
	a := &train.Array{N: 2, Steps: 4, Dims: 2}
	for _, s := range scores {
		for _, row := range s {
			a.Data = append(a.Data, row...)
		}
	}
	ma, err := FromArray(a, []int{1, 0}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for dt := 0; dt <= 2; dt++ {
		if !reflect.DeepEqual(ma.Counts(dt), m.Counts(dt)) {
			t.Errorf("FromArray Counts(%d) = %v, FromSteps %v", dt, ma.Counts(dt), m.Counts(dt))
		}
	}
	correct, err := Correct(scores, []int{1, 0}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rts, _ := SampleResponseTimes(correct, 2); !reflect.DeepEqual(rts, []int{1, 1}) {
		t.Errorf("response times %v, want [1 1]", rts)
	}
	for _, c := range []struct {
		scores [][][]float64
		labels []int
		onset  int
		want   string
	}{
		{scores, []int{1}, 0, "1 labels for 2 samples"},
		{scores, []int{1, 2}, 0, "labels[1] = 2"},
		{scores, []int{1, 0}, 4, "onset = 4"},
		{[][][]float64{{{0, 1}}, {{0, 1}, {1, 0}}}, []int{0, 0}, 0, "sample 1 has 2 steps"},
		{[][][]float64{{{0, 1}}, {{0, 1, 2}}}, []int{0, 0}, 0, "has 3 classes"},
		{[][][]float64{{{0, math.Inf(1)}}}, []int{0}, 0, "must be finite"},
		{nil, nil, 0, "no samples"},
	} {
		if _, err := FromSteps(c.scores, c.labels, c.onset); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromSteps: error %v, want %q", err, c.want)
		}
	}
}

// TestShortestPathFile loads the appendix network (the statestream paper, §6.2,
// statestream's demonstration.st_graph) with the stream loader.
func TestShortestPathFile(t *testing.T) {
	n, err := stream.Load("../../toolkit/stream/testdata/demonstration.st_graph", stream.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ShortestPath(n, "image", "prediction"); err != nil || got != 3 {
		t.Errorf("image → prediction: %d, %v; want 3 (via pred1)", got, err)
	}
	if got, err := ShortestPath(n, "image", "pred2"); err != nil || got != 3 {
		t.Errorf("image → pred2: %d, %v; want 3", got, err)
	}
	var short []*stream.SynapsePool
	for _, sp := range n.SynapsePools {
		if sp.Name != "c1_pred" {
			short = append(short, sp)
		}
	}
	n.SynapsePools = short
	if got, err := ShortestPath(n, "image", "prediction"); err != nil || got != 4 {
		t.Errorf("deep path image → prediction without c1_pred: %d, %v; want 4", got, err)
	}
}
