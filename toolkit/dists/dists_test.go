package dists_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neurogo/neurogo/toolkit/dists"
)

// Moment tolerances for 20000 samples: ~5 standard errors.
const (
	nSamples  = 20000
	momentTol = 0.02
)

func TestMoments(t *testing.T) {
	for _, tc := range []struct {
		d         dists.Distribution
		mean, std float64
		lo, hi    float64
	}{
		{dists.Uniform{Low: 200, High: 400}, 300, 200 / math.Sqrt(12), 200, 400},
		{dists.Uniform{Low: -1, High: 0.9}, -0.05, 1.9 / math.Sqrt(12), -1, 0.9},
		{dists.Gaussian{Mean: 1, Std: 2}, 1, 2, math.Inf(-1), math.Inf(1)},
		{dists.Exponential{Scale: 0.5, Shift: 1}, 1.5, 0.5, 1, math.Inf(1)},
	} {
		x, err := tc.d.Sample(nSamples, 1, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		var m, v float64
		for _, xi := range x {
			if xi < tc.lo || xi > tc.hi {
				t.Fatalf("%s: sample %v outside [%v, %v]", tc.d.Name(), xi, tc.lo, tc.hi)
			}
			m += xi
		}
		m /= nSamples
		for _, xi := range x {
			v += (xi - m) * (xi - m)
		}
		s := math.Sqrt(v / nSamples)
		if math.Abs(m-tc.mean) > momentTol*math.Max(1, math.Abs(tc.mean))*5 || math.Abs(s-tc.std) > momentTol*tc.std*2 {
			t.Errorf("%s: mean %v std %v, want %v %v", tc.d.Name(), m, s, tc.mean, tc.std)
		}
	}
}

func TestHypersphere(t *testing.T) {
	for _, d := range []int{1, 2, 3, 8} {
		for _, dist := range []dists.Distribution{dists.UniformHypersphere{Surface: true}, dists.UniformHypersphere{},
			dists.ScatteredHypersphere{Surface: true}, dists.ScatteredHypersphere{}} {
			x, err := dist.Sample(1000, d, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				t.Fatal(err)
			}
			surface := false
			switch s := dist.(type) {
			case dists.UniformHypersphere:
				surface = s.Surface
			case dists.ScatteredHypersphere:
				surface = s.Surface
			}
			var meanNorm float64
			for i := range 1000 {
				var n float64
				for j := range d {
					n += x[i*d+j] * x[i*d+j]
				}
				n = math.Sqrt(n)
				meanNorm += n / 1000
				if surface && math.Abs(n-1) > 1e-12 || n > 1+1e-12 {
					t.Fatalf("%s d=%d: norm %v", dist.Name(), d, n)
				}
			}
			// E|x| = d/(d+1) in the d-ball
			if !surface && math.Abs(meanNorm-float64(d)/float64(d+1)) > 0.03 {
				t.Errorf("%s d=%d: mean norm %v, want %v", dist.Name(), d, meanNorm, float64(d)/float64(d+1))
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, d := range []dists.Distribution{
		dists.Uniform{Low: 1, High: 0}, dists.Gaussian{Std: 0}, dists.Choice{}, dists.Exponential{},
		dists.UniformHypersphere{MinMagnitude: 2}, dists.Samples{Data: []float64{1, 2, 3}, Dims: 2},
	} {
		if _, err := d.Sample(3, 1, nil); err == nil {
			t.Errorf("%s: no error for invalid parameters", d.Name())
		}
	}
	if _, err := (dists.Samples{Data: []float64{1, 2}}).Sample(3, 1, nil); err == nil {
		t.Error("Samples: no error for wrong count")
	}
}

func TestChoice(t *testing.T) {
	c := dists.Choice{Options: [][]float64{{1}, {2}}, Weights: []float64{0, 1}}
	x, err := c.Sample(50, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range x {
		if v != 2 {
			t.Fatalf("got %v with zero weight", v)
		}
	}
}

func TestQuasirandomSequence(t *testing.T) {
	x, err := dists.QuasirandomSequence{}.Sample(1000, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	// low discrepancy: each quadrant holds 250 ± 5 points
	var q [4]int
	for i := range 1000 {
		k := 0
		if x[2*i] >= 0.5 {
			k++
		}
		if x[2*i+1] >= 0.5 {
			k += 2
		}
		q[k]++
	}
	for k, c := range q {
		if c < 245 || c > 255 {
			t.Errorf("quadrant %d holds %d points, want 250 ± 5", k, c)
		}
	}
}
