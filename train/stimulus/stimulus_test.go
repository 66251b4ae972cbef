package stimulus

import (
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/data"
)

// pixelTol: synthetic pixels are k/100 scaled by fading factors e/F; the
// products are exact up to one rounding.
const pixelTol = 1e-12

// synthetic returns n images of rows×cols pixels; image i has every pixel
// (i+1)/(n+1) and label i mod classes, so a written image names itself.
func synthetic(n, rows, cols, classes int) *data.Dataset {
	d := &data.Dataset{Name: "synthetic", Rows: rows, Cols: cols, Scaled: true}
	for k := range classes {
		d.Classes = append(d.Classes, string(rune('a'+k)))
	}
	for i := range n {
		im := make([]float64, rows*cols)
		for p := range im {
			im[p] = float64(i+1) / float64(n+1)
		}
		d.Images = append(d.Images, im)
		d.Labels = append(d.Labels, i%classes)
	}
	return d
}

// imageIndex recovers the synthetic image index from a pixel value.
func imageIndex(v float64, n int) int { return int(math.Round(v*float64(n+1))) - 1 }

type run struct {
	img, lbl  [][]float64 // per frame written (index t+1), all agents
	labels    [][]int     // Stimulus(t+1) after Frame(t)
	onsets    [][]int
	prevCheck [][]int // Stimulus(t) after Frame(t): the frame before
}

// drive runs frames 0 … frames-1 of d with the given pools.
func drive(t *testing.T, d *MNIST, agents, frames int, imgShape, lblShape [3]int, seed int64) run {
	t.Helper()
	if err := d.Start(agents, map[string][3]int{"img": imgShape, "lbl": lblShape}, nil, seed); err != nil {
		t.Fatal(err)
	}
	r := run{img: make([][]float64, frames+1), lbl: make([][]float64, frames+1), labels: make([][]int, frames+1), onsets: make([][]int, frames+1)}
	for f := range frames {
		out := map[string][]float64{
			"img": make([]float64, agents*stream.Size(imgShape)),
			"lbl": make([]float64, agents*stream.Size(lblShape)),
		}
		if err := d.Frame(f, nil, out); err != nil {
			t.Fatalf("Frame(%d): %v", f, err)
		}
		r.img[f+1], r.lbl[f+1] = out["img"], out["lbl"]
		r.labels[f+1], r.onsets[f+1] = d.Stimulus(f + 1)
		prevL, _ := d.Stimulus(f)
		if prevL == nil {
			t.Fatalf("Stimulus(%d) after Frame(%d) is nil: the frame before the latest must be answered", f, f)
		}
	}
	return r
}

func TestMNISTHoldOnsetsLabels(t *testing.T) {
	const n, classes, agents, frames = 23, 3, 6, 300
	const minF, maxF = 3, 7
	set := synthetic(n, 4, 5, classes)
	d, err := NewMNIST(Options{Data: set, MinFrames: minF, MaxFrames: maxF, ImagePool: "img", LabelPool: "lbl", Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	lblShape := [3]int{classes, 2, 1}
	r := drive(t, d, agents, frames, [3]int{1, 4, 5}, lblShape, 11)
	if l, _ := d.Stimulus(0); l != nil && len(l) > 0 {
		// frame 0 is two frames back now; only the latest two are kept
		t.Errorf("Stimulus(0) after %d frames = %v, want nil", frames, l)
	}
	durations := map[int]int{}
	var order []int // images in presentation order (frame, then agent)
	for a := range agents {
		prevOnset, prevImage := 0, -1
		for f := 1; f <= frames; f++ {
			px := r.img[f][a*20 : (a+1)*20]
			idx := imageIndex(px[0], n)
			for _, v := range px {
				if math.Abs(v-px[0]) > pixelTol {
					t.Fatalf("agent %d frame %d: image not uniform", a, f)
				}
			}
			label, onset := r.labels[f][a], r.onsets[f][a]
			if label != set.Labels[idx] {
				t.Fatalf("agent %d frame %d: Stimulus label %d, image %d has label %d", a, f, label, idx, set.Labels[idx])
			}
			lbl := r.lbl[f][a*stream.Size(lblShape) : (a+1)*stream.Size(lblShape)]
			for p := 0; p < len(lbl); p += classes {
				for k := range classes {
					if want := float64(map[bool]int{true: 1}[k == label]); lbl[p+k] != want {
						t.Fatalf("agent %d frame %d: label pool %v, want one-hot %d at every position", a, f, lbl, label)
					}
				}
			}
			switch {
			case f == 1:
				if onset != 1 {
					t.Fatalf("agent %d: first onset %d, want 1", a, onset)
				}
			case onset == f:
				durations[f-prevOnset]++
			case onset == prevOnset:
				if idx != prevImage {
					t.Fatalf("agent %d frame %d: image changed from %d to %d within a presentation", a, f, prevImage, idx)
				}
			default:
				t.Fatalf("agent %d frame %d: onset %d, want %d (held) or %d (new)", a, f, onset, prevOnset, f)
			}
			if onset == f {
				order = append(order, f*agents+a, idx)
			}
			prevOnset, prevImage = onset, idx
		}
	}
	for dur, c := range durations {
		if dur < minF || dur > maxF {
			t.Errorf("%d presentations held %d frames, want [%d, %d]", c, dur, minF, maxF)
		}
	}
	for dur := minF; dur <= maxF; dur++ {
		if durations[dur] == 0 {
			t.Errorf("no presentation held %d frames in %d frames × %d agents: durations %v", dur, frames, agents, durations)
		}
	}
	last := r.onsets[frames]
	if reflect.DeepEqual(last, make([]int, agents)) || allEqual(last) {
		t.Errorf("onsets at the end %v: agents should have desynchronised", last)
	}
	// The first n presentations (by frame, then agent) are a permutation of
	// the set: images are drawn without replacement, epoch by epoch.
	first := presentationOrder(order)[:n]
	seen := map[int]bool{}
	for _, i := range first {
		seen[i] = true
	}
	if len(seen) != n {
		t.Errorf("first %d presentations show %d distinct images, want all %d", n, len(seen), n)
	}
}

func allEqual(x []int) bool {
	for _, v := range x {
		if v != x[0] {
			return false
		}
	}
	return true
}

// presentationOrder sorts (key, image) pairs by key and returns the images.
func presentationOrder(pairs []int) []int {
	type kv struct{ k, v int }
	var s []kv
	for i := 0; i < len(pairs); i += 2 {
		s = append(s, kv{pairs[i], pairs[i+1]})
	}
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].k < s[j-1].k; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	out := make([]int, len(s))
	for i, p := range s {
		out[i] = p.v
	}
	return out
}

func TestMNISTDeterminism(t *testing.T) {
	set := synthetic(17, 2, 2, 4)
	get := func(optSeed, startSeed int64) run {
		d, err := NewMNIST(Options{Data: set, MinFrames: 2, MaxFrames: 5, ImagePool: "img", LabelPool: "lbl", Seed: optSeed})
		if err != nil {
			t.Fatal(err)
		}
		return drive(t, d, 3, 60, [3]int{1, 2, 2}, [3]int{4, 1, 1}, startSeed)
	}
	a, b := get(1, 2), get(1, 2)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seeds gave different stimuli")
	}
	if c := get(3, 2); reflect.DeepEqual(a.img, c.img) {
		t.Error("another Options.Seed gave the same stimuli")
	}
	if c := get(1, 4); reflect.DeepEqual(a.img, c.img) {
		t.Error("another Start seed gave the same stimuli")
	}
}

func TestMNISTFading(t *testing.T) {
	set := synthetic(5, 1, 1, 2)
	d, err := NewMNIST(Options{Data: set, MinFrames: 5, MaxFrames: 5, Fading: 2, ImagePool: "img", LabelPool: "lbl", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := drive(t, d, 1, 10, [3]int{1, 1, 1}, [3]int{2, 1, 1}, 1)
	// statestream's factors for e = 0 … 4 of a 5-frame stimulus, F = 2.
	want := []float64{0, 0.5, 1, 1, 0.5}
	for f := 1; f <= 10; f++ {
		e := f - r.onsets[f][0]
		// recover the unfaded value from the frame with factor 1 of the
		// same presentation (e = 2)
		ref := r.img[r.onsets[f][0]+2][0]
		if got := r.img[f][0]; math.Abs(got-want[e]*ref) > pixelTol {
			t.Errorf("frame %d (e = %d): pixel %v, want %v × %v", f, e, got, want[e], ref)
		}
		if lsum := r.lbl[f][0] + r.lbl[f][1]; lsum != 1 {
			t.Errorf("frame %d: the label must stay at full strength while fading, got %v", f, r.lbl[f])
		}
	}
}

// TestMNISTTemporalConfusion feeds back a prediction that is the label
// written two frames earlier (a read-out two synapse-pools from the
// label): the TCM must be perfect from δt = 2 on and no better than the
// previous stimulus allows before.
func TestMNISTTemporalConfusion(t *testing.T) {
	const agents, frames, classes = 8, 400, 5
	set := synthetic(40, 2, 2, classes)
	d, err := NewMNIST(Options{Data: set, MinFrames: 6, MaxFrames: 9, ImagePool: "img", LabelPool: "lbl", PredictionPool: "pred", Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	predShape := [3]int{classes, 1, 2}
	if err := d.Start(agents, map[string][3]int{"img": {1, 2, 2}, "lbl": {classes, 1, 1}}, map[string][3]int{"pred": predShape}, 3); err != nil {
		t.Fatal(err)
	}
	labelAt := map[int][]float64{0: make([]float64, agents*classes)}
	for f := range frames {
		pred := make([]float64, agents*stream.Size(predShape))
		if src, ok := labelAt[f-2]; ok {
			// Position 1 holds the label at 1, position 0 the next class
			// at 0.6: only the spatial mean gives the label.
			for a := range agents {
				for k := range classes {
					if src[a*classes+k] == 1 {
						pred[a*10+(k+1)%classes] = 0.6
						pred[a*10+classes+k] = 1
					}
				}
			}
		}
		out := map[string][]float64{"img": make([]float64, agents*4), "lbl": make([]float64, agents*classes)}
		if err := d.Frame(f, map[string][]float64{"pred": pred}, out); err != nil {
			t.Fatal(err)
		}
		labelAt[f+1] = out["lbl"]
	}
	acc := d.TCM().Accuracy()
	if len(acc) != 9 {
		t.Fatalf("%d delays, want Window = MaxFrames−1 + 1 = 9", len(acc))
	}
	for dt := 2; dt < len(acc); dt++ {
		if acc[dt] != 1 {
			t.Errorf("accuracy at δt = %d is %v, want 1", dt, acc[dt])
		}
	}
	for dt := range 2 {
		if !(acc[dt] < 0.5) {
			t.Errorf("accuracy at δt = %d is %v: the read-out still shows the previous stimulus, want < 0.5", dt, acc[dt])
		}
	}
	if d.TCM().Samples(0) < agents*frames/9-agents {
		t.Errorf("only %d samples at δt = 0", d.TCM().Samples(0))
	}
}

func TestMNISTErrors(t *testing.T) {
	set := synthetic(4, 28, 28, 10)
	good := Options{Data: set, ImagePool: "img", LabelPool: "lbl"}
	cases := []struct {
		name    string
		o       Options
		out, in map[string][3]int
		want    string
	}{
		{"image shape", good, map[string][3]int{"img": {1, 28, 27}}, nil, "want [1 28 28]"},
		{"label classes", good, map[string][3]int{"lbl": {9, 1, 1}}, nil, "want [10, W, H]"},
		{"foreign pool", good, map[string][3]int{"img": {1, 28, 28}, "other": {1, 1, 1}}, nil, `pool "other"`},
		{"no pools", good, map[string][3]int{}, nil, "neither the image pool"},
		{"prediction missing", Options{Data: set, ImagePool: "img", PredictionPool: "p"}, map[string][3]int{"img": {1, 28, 28}}, nil, `prediction pool "p" is not among`},
		{"prediction shape", Options{Data: set, ImagePool: "img", PredictionPool: "p"}, map[string][3]int{"img": {1, 28, 28}}, map[string][3]int{"p": {3, 1, 1}}, "want [10, W, H]"},
	}
	for _, c := range cases {
		d, err := NewMNIST(c.o)
		if err == nil {
			err = d.Start(2, c.out, c.in, 0)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		name string
		o    Options
		want string
	}{
		{"min > max", Options{Data: set, MinFrames: 5, MaxFrames: 3}, "MinFrames = 5 > MaxFrames = 3"},
		{"negative fading", Options{Data: set, Fading: -1}, "Fading = -1"},
		{"subset", Options{Data: set, Subset: 5}, "Subset = 5"},
		{"set name", Options{Set: "valid", DataDir: t.TempDir()}, `Set = "valid"`},
		{"data and set", Options{Data: set, Set: "test"}, "either Data or Set"},
		{"raw pixels", Options{Data: &data.Dataset{Name: "raw", Images: [][]float64{{1}}, Labels: []int{0}, Rows: 1, Cols: 1, Classes: []string{"x"}}}, "raw pixel values"},
	} {
		if _, err := NewMNIST(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	dir := t.TempDir()
	_, err := NewMNIST(Options{DataDir: dir, Set: "test"})
	if err == nil || !errors.Is(err, data.ErrNotFound) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "scripts/start") {
		t.Errorf("missing files: error %v, want ErrNotFound naming %s and scripts/start", err, dir)
	}
	d, _ := NewMNIST(good)
	if err := d.Frame(0, nil, nil); err == nil || !strings.Contains(err.Error(), "before Start") {
		t.Errorf("Frame before Start: %v", err)
	}
	d.Start(1, map[string][3]int{"img": {1, 28, 28}}, nil, 0)
	if err := d.Frame(1, nil, map[string][]float64{"img": make([]float64, 784)}); err == nil || !strings.Contains(err.Error(), "in order") {
		t.Errorf("Frame(1) first: %v", err)
	}
	if err := d.Frame(0, nil, map[string][]float64{"img": make([]float64, 10)}); err == nil || !strings.Contains(err.Error(), "784") {
		t.Errorf("short buffer: %v", err)
	}
}

// TestRealMNIST presents the real MNIST test set when it is installed
// (scripts/test installs it; NEUROGO_REQUIRE_DATA=1 makes it required).
func TestRealMNIST(t *testing.T) {
	d, err := NewMNIST(Options{Set: "test", Subset: 500, MinFrames: 12, MaxFrames: 12, ImagePool: "image", LabelPool: "label", Seed: 1})
	if errors.Is(err, data.ErrNotFound) {
		if r := os.Getenv("NEUROGO_REQUIRE_DATA"); r == "" || r == "0" {
			t.Skipf("MNIST is not installed (run scripts/start or scripts/test; NEUROGO_REQUIRE_DATA unset, so skipping): %v", err)
		}
		t.Fatalf("MNIST is required (NEUROGO_REQUIRE_DATA=%s) but not installed: %v", os.Getenv("NEUROGO_REQUIRE_DATA"), err)
	}
	if err != nil {
		t.Fatal(err)
	}
	set := d.Dataset()
	if set.Len() != 500 || set.Rows != 28 || set.Cols != 28 {
		t.Fatalf("%d images of %d×%d, want 500 of 28×28", set.Len(), set.Rows, set.Cols)
	}
	if want := []int{7, 2, 1, 0, 4}; !reflect.DeepEqual(set.Labels[:5], want) {
		t.Errorf("first test labels %v, want %v", set.Labels[:5], want)
	}
	const agents = 4
	if err := d.Start(agents, map[string][3]int{"image": {1, 28, 28}, "label": {10, 1, 1}}, nil, 2); err != nil {
		t.Fatal(err)
	}
	for f := range 30 {
		out := map[string][]float64{"image": make([]float64, agents*784), "label": make([]float64, agents*10)}
		if err := d.Frame(f, nil, out); err != nil {
			t.Fatal(err)
		}
		labels, onsets := d.Stimulus(f + 1)
		for a := range agents {
			if want := 1 + 12*(f/12); onsets[a] != want {
				t.Fatalf("frame %d agent %d: onset %d, want %d (12-frame holds)", f+1, a, onsets[a], want)
			}
			img := out["image"][a*784 : (a+1)*784]
			found := -1
			for i, im := range set.Images {
				if reflect.DeepEqual(im, img) {
					found = i
					break
				}
			}
			if found < 0 {
				t.Fatalf("frame %d agent %d: the image written is none of the set's", f+1, a)
			}
			if set.Labels[found] != labels[a] || out["label"][a*10+labels[a]] != 1 {
				t.Fatalf("frame %d agent %d: label %d, image %d has %d", f+1, a, labels[a], found, set.Labels[found])
			}
		}
	}
}

func errNotFound() error { return data.ErrNotFound }

func BenchmarkMNISTFrame(b *testing.B) {
	const agents = 128
	d, err := NewMNIST(Options{Data: synthetic(100, 28, 28, 10), MinFrames: 3, MaxFrames: 9, ImagePool: "img", LabelPool: "lbl", PredictionPool: "p", Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	if err := d.Start(agents, map[string][3]int{"img": {1, 28, 28}, "lbl": {10, 1, 1}}, map[string][3]int{"p": {10, 1, 1}}, 1); err != nil {
		b.Fatal(err)
	}
	in := map[string][]float64{"p": make([]float64, agents*10)}
	out := map[string][]float64{"img": make([]float64, agents*784), "lbl": make([]float64, agents*10)}
	b.ReportAllocs()
	b.ResetTimer()
	for t := range b.N {
		if err := d.Frame(t, in, out); err != nil {
			b.Fatal(err)
		}
	}
}
