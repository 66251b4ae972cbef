package build

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// reluActivities is an ensemble of n rectified-linear neurons in d
// dimensions with Nengo-like random encoders, intercepts and rates, and
// m eval points in the unit ball.
func reluActivities(t *testing.T, nt neurons.Type, m, n, d int) *activities {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, uint64(d)))
	net := toolkit.New("act", 1)
	e := net.Ensemble("e", n, d)
	e.NeuronType = nt
	e.Radius = 1.5
	unit := func(v []float64, r float64) {
		s := 0.0
		for k := range v {
			v[k] = rng.NormFloat64()
			s += v[k] * v[k]
		}
		for k := range v {
			v[k] *= r / math.Sqrt(s)
		}
	}
	p := &EnsembleParams{Gain: make([]float64, n), Bias: make([]float64, n), Encoders: make([]float64, n*d)}
	for j := range n {
		unit(p.Encoders[j*d:(j+1)*d], 1)
		c := rng.Float64()*2 - 1
		p.Gain[j] = (50 + 50*rng.Float64()) / (1 - c)
		p.Bias[j] = -p.Gain[j] * c
	}
	ep := make([]float64, m*d)
	for i := range m {
		unit(ep[i*d:(i+1)*d], 1.5*math.Pow(rng.Float64(), 1/float64(d)))
	}
	return newActivities(e, p, ep, m)
}

// TestActivitiesShortcuts: the rectified-linear activities' counting
// pass, column subsets and features (solvers.Counter, ColumnBlocks,
// Affine) agree with the activities themselves.
func TestActivitiesShortcuts(t *testing.T) {
	const m, n, d = 300, 90, 24
	for _, nt := range []neurons.Type{neurons.RectifiedLinear{Amplitude: 0.7}, &neurons.SpikingRectifiedLinear{Amplitude: 2}} {
		a := reluActivities(t, nt, m, n, d)
		A := make([]float64, m*n)
		if err := a.Rows(A, 0, m); err != nil {
			t.Fatal(err)
		}
		wantPos := make([]int, n)
		wantMax := 0.0
		for i := range m {
			for j := range n {
				if v := A[i*n+j]; v > 0 {
					wantPos[j]++
					wantMax = math.Max(wantMax, v)
				}
			}
		}
		b := reluActivities(t, nt, m, n, d)
		pos := make([]int, n)
		amax, ok, err := b.CountPositive(pos)
		if err != nil || !ok {
			t.Fatalf("%s: CountPositive: %v, %v", nt.Name(), ok, err)
		}
		if amax != wantMax || !slices.Equal(pos, wantPos) {
			t.Errorf("%s: CountPositive max %v counts %v, want %v %v", nt.Name(), amax, pos, wantMax, wantPos)
		}
		if !b.nonzero || b.done != m {
			t.Errorf("%s: CountPositive left nonzero %v done %d", nt.Name(), b.nonzero, b.done)
		}
		var linear, mixed []int
		for j, c := range wantPos {
			switch {
			case c == m:
				linear = append(linear, j)
			case c > 0:
				mixed = append(mixed, j)
			}
		}
		if len(linear) < 5 || len(mixed) < 5 {
			t.Fatalf("%s: %d always-active and %d mixed neurons: the test needs both", nt.Name(), len(linear), len(mixed))
		}
		sub := make([]float64, 120*len(mixed))
		if err := a.RowsCols(sub, 30, 150, mixed); err != nil {
			t.Fatal(err)
		}
		for i := 30; i < 150; i++ {
			for c, j := range mixed {
				if g, w := sub[(i-30)*len(mixed)+c], A[i*n+j]; g != w {
					t.Fatalf("%s: RowsCols[%d][%d] = %v, want %v", nt.Name(), i, j, g, w)
				}
			}
		}
		Z, C := a.Features()
		if Z == nil {
			t.Fatalf("%s: no features", nt.Name())
		}
		for i := range m {
			for _, j := range linear {
				got := 0.0
				for k := range d + 1 {
					got += Z.At(i, k) * C.At(k, j)
				}
				if w := A[i*n+j]; math.Abs(got-w) > 1e-12*math.Abs(w) {
					t.Fatalf("%s: Z·C[%d][%d] = %v, activity %v", nt.Name(), i, j, got, w)
				}
			}
		}
	}
	// other neuron types have none of the shortcuts
	l := reluActivities(t, neurons.NewLIF(), 50, 10, 3)
	if Z, _ := l.Features(); Z != nil {
		t.Error("LIF has features")
	}
	if _, ok, _ := l.CountPositive(make([]int, 10)); ok {
		t.Error("LIF counted")
	}
}
