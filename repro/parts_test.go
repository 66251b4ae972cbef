package repro

import (
	"math"
	"reflect"
	"testing"

	"github.com/neurogo/neurogo/train"
)

func TestScore(t *testing.T) {
	// three examples, two steps, three classes; step 1 gets all right
	pred, _ := train.NewArray(3, 2, 3)
	copy(pred.At(0, 0), []float64{1, 0, 0})
	copy(pred.At(1, 0), []float64{1, 0, 0})
	copy(pred.At(2, 0), []float64{0, 0, 1})
	copy(pred.At(0, 1), []float64{0, 1, 0})
	copy(pred.At(1, 1), []float64{1, 0, 0})
	copy(pred.At(2, 1), []float64{0, 0, 1})
	y, _ := train.ArrayFromLabels([]int{1, 0, 2}, 1)
	cases := []struct {
		step int
		acc  float64
		conf [][]int
	}{
		{0, 2.0 / 3, [][]int{{1, 0, 0}, {1, 0, 0}, {0, 0, 1}}},
		{1, 1, [][]int{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
	}
	for _, c := range cases {
		acc, conf := Score(pred, y, c.step)
		if math.Abs(acc-c.acc) > 1e-12 || !reflect.DeepEqual(conf, c.conf) {
			t.Errorf("step %d: accuracy %v, confusion %v; want %v, %v", c.step, acc, conf, c.acc, c.conf)
		}
	}
}

func TestCircConv(t *testing.T) {
	cases := []struct {
		a, b, want []float64
	}{
		// the identity vector [1, 0, …] binds to itself
		{[]float64{1, 0, 0, 0}, []float64{0.1, 0.2, 0.3, 0.4}, []float64{0.1, 0.2, 0.3, 0.4}},
		// a shift by one
		{[]float64{0, 1, 0, 0}, []float64{0.1, 0.2, 0.3, 0.4}, []float64{0.4, 0.1, 0.2, 0.3}},
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, []float64{1*4 + 2*6 + 3*5, 1*5 + 2*4 + 3*6, 1*6 + 2*5 + 3*4}},
	}
	for _, c := range cases {
		got := CircConv(c.a, c.b)
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("CircConv(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
				break
			}
		}
	}
	// unbinding with the involution recovers the filler of random vectors
	d, err := NewSPAData(1, 1, 256, 0.01, 0.03, 0.001, 3)
	if err != nil {
		t.Fatal(err)
	}
	role, fill := d.Vocab[0], d.Vocab[1]
	inv := make([]float64, len(role))
	for i := range inv {
		inv[i] = role[(len(role)-i)%len(role)]
	}
	back := CircConv(CircConv(role, fill), inv)
	dot := func(a, b []float64) (s float64) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	if s := dot(back, fill); s < 0.5 || s < 3*math.Abs(dot(back, role)) {
		t.Errorf("unbinding: similarity to the filler %.3f, to the role %.3f", s, dot(back, role))
	}
}

func TestSummarize(t *testing.T) {
	pts := []SPAPoint{
		{NeuronsPerDim: 5, Seed: 0, Before: 0.5, After: 0.7},
		{NeuronsPerDim: 10, Seed: 0, Before: 0.6, After: 0.9},
		{NeuronsPerDim: 5, Seed: 1, Before: 0.7, After: 0.9},
	}
	r := Summarize(pts)
	if !reflect.DeepEqual(r.NeuronsPerDim, []int{5, 10}) || len(r.Points) != 3 {
		t.Fatalf("groups %v, %d points", r.NeuronsPerDim, len(r.Points))
	}
	// two seeds: mean ± t(1)·sd/√2, sd = 0.1414, with the exact 0.975
	// quantile t(1) = tan(0.475π) = 12.7062047361747 (gonum's agrees to
	// a relative 1e-15; the tolerance below is 1e-9)
	h := math.Tan(0.475*math.Pi) * math.Sqrt(0.02) / math.Sqrt(2)
	want := [][]float64{{0.6, 0.6 - h, 0.6 + h, 0.8, 0.8 - h, 0.8 + h}, {0.6, 0.6, 0.6, 0.9, 0.9, 0.9}}
	for g, w := range want {
		got := []float64{r.BeforeMean[g], r.BeforeLo[g], r.BeforeHi[g], r.AfterMean[g], r.AfterLo[g], r.AfterHi[g]}
		for i := range w {
			if math.Abs(got[i]-w[i]) > 1e-9 {
				t.Errorf("group %d: %v, want %v", g, got, w)
				break
			}
		}
	}
	if _, err := r.Figure(); err != nil {
		t.Error(err)
	}
}
