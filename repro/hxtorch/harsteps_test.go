package hxtorch

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/data"
)

func TestSubsetHAR(t *testing.T) {
	full := &data.HARSet{Classes: []string{"a", "b"}, Synthetic: true}
	for i := range 10 {
		full.Signals = append(full.Signals, []float64{float64(i)})
		full.Labels = append(full.Labels, i%2)
		full.Subjects = append(full.Subjects, 1+i%3)
	}
	for _, tc := range []struct {
		name string
		n    int
		want int
		same bool // s itself is returned
	}{
		{"all", 0, 10, true},
		{"negative", -3, 10, true},
		{"more than the set", 25, 10, true},
		{"exactly the set", 10, 10, true},
		{"four", 4, 4, false},
		{"one", 1, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := SubsetHAR(full, tc.n, 7)
			if s.Len() != tc.want || (s == full) != tc.same {
				t.Fatalf("SubsetHAR(n=%d): %d windows (same set %v), want %d (%v)", tc.n, s.Len(), s == full, tc.want, tc.same)
			}
			if !s.Synthetic || !slices.Equal(s.Classes, full.Classes) {
				t.Errorf("the subset lost the set's classes or synthetic flag")
			}
			seen := map[int]bool{}
			for i, w := range s.Signals {
				k := int(w[0])
				if seen[k] {
					t.Errorf("window %d drawn twice", k)
				}
				seen[k] = true
				if s.Labels[i] != full.Labels[k] || s.Subjects[i] != full.Subjects[k] {
					t.Errorf("window %d: label or subject does not travel with its signal", k)
				}
			}
			if again := SubsetHAR(full, tc.n, 7); !slices.EqualFunc(again.Signals, s.Signals, slices.Equal) {
				t.Error("the same seed must give the same subset")
			}
		})
	}
}

func TestLoadHARSynthetic(t *testing.T) {
	t.Setenv("NEUROGO_HAR", "")
	tr, te, err := LoadHAR("", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Synthetic || !te.Synthetic || tr.Len() != 7352 || te.Len() != 2947 {
		t.Fatalf("fallback: synthetic %v/%v, %d/%d windows, want the synthetic 7352/2947", tr.Synthetic, te.Synthetic, tr.Len(), te.Len())
	}
	if _, _, err := LoadHAR(t.TempDir(), false, 0); err == nil || !strings.Contains(err.Error(), "repro: LoadHAR") {
		t.Errorf("an empty directory: error %v, want one naming LoadHAR", err)
	}
	t.Setenv("NEUROGO_HAR", t.TempDir())
	if _, _, err := LoadHAR("", true, 0); err != nil {
		t.Errorf("synthetic forced: %v (must not read $NEUROGO_HAR)", err)
	}
}

func TestHARStepsRejectBadInput(t *testing.T) {
	net, err := NewHARNet(nil, 1, HARPlan{NumSends: [3]int{1, 1, 1}, Shift: 1, LogitScale: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := train.New(net.Net)
	if err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"TrainLayersOnly nil": TrainLayersOnly(nil, net),
		"CompileHAR nil":      CompileHAR(m, nil, 0.01, 10),
		"CompileHAR lr 0":     CompileHAR(m, net, 0, 10),
		"CompileHAR lr NaN":   CompileHAR(m, net, nan(), 10),
		"EvalHAR nil inputs":  func() error { _, err := EvalHAR("x", m, net, nil, nil); return err }(),
		"EvalHAR count differs": func() error {
			x, _ := train.ArrayFromRows([][]float64{make([]float64, HARWindow*9)}, 1)
			y, _ := train.ArrayFromLabels([]int{0, 1}, 1)
			_, err := EvalHAR("x", m, net, x, y)
			return err
		}(),
	} {
		if err == nil || !strings.Contains(err.Error(), "repro: ") {
			t.Errorf("%s: error %v, want one naming the function", name, err)
		}
	}
	if err := TrainLayersOnly(m, net); err != nil {
		t.Error(err)
	}
	if err := CompileHAR(m, net, 0.01, 10); err != nil {
		t.Error(err)
	}
}

func nan() float64 { var z float64; return z / z }

func TestHARConfusion(t *testing.T) {
	s := HARStage{Name: "stage", Accuracy: 0.5, Confusion: [][]int{{1, 1}, {0, 2}}}
	p, err := HARConfusion("b", s, []string{"WALKING", "LAYING"}, true)
	if err != nil || len(p.PNG()) == 0 {
		t.Fatalf("HARConfusion: %v", err)
	}
	if _, err := HARConfusion("b", HARStage{}, nil, false); err == nil {
		t.Error("an empty stage: no error")
	}
}

func ExampleShortHARClasses() {
	_, test, err := data.SyntheticHAR(0)
	if err != nil {
		panic(err)
	}
	fmt.Println(ShortHARClasses(test.Classes))
	// Output: [walk up down sit stand lay]
}

// The input scale maps each channel's central range onto the chip's 5-bit
// inputs 0..31; HARArrays gives one step per window.
func ExampleHARArrays() {
	train0, _, err := data.SyntheticHAR(0)
	if err != nil {
		panic(err)
	}
	s := SubsetHAR(train0, 100, 1)
	cut := make([][]float64, s.Len())
	for i, w := range s.Signals {
		cut[i] = w[:HARWindow*9]
	}
	sc, err := analog.FitInputScale(cut, 9, 0.001)
	if err != nil {
		panic(err)
	}
	x, y, err := HARArrays(s, sc)
	if err != nil {
		panic(err)
	}
	lo, hi := 31.0, 0.0
	for i := range x.N {
		for _, v := range x.At(i, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	fmt.Println(x.N, len(x.At(0, 0)), y.N, lo >= 0, hi <= 31)
	// Output: 100 1098 100 true true
}
