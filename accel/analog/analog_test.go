package analog

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// reference computes the documented model without noise for an ideal
// (mock, noise 0) system: per row chunk clamp(floor(gain·ns·Σ)), summed,
// clamped.
func reference(x, w []float64, batch, rows, cols, chunk int, gain float64, ns int) []float64 {
	y := make([]float64, batch*cols)
	for b := range batch {
		for j := range cols {
			total := 0.0
			for r0 := 0; r0 < rows; r0 += chunk {
				s := 0.0
				for i := r0; i < min(rows, r0+chunk); i++ {
					s += x[b*rows+i] * w[i*cols+j]
				}
				total += math.Max(OutputMin, math.Min(OutputMax, math.Floor(gain*float64(ns)*s)))
			}
			y[b*cols+j] = math.Max(OutputMin, math.Min(OutputMax, total))
		}
	}
	return y
}

func randInts(rng *rand.Rand, n, lo, hi int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(lo + rng.IntN(hi-lo+1))
	}
	return v
}

func TestIdealMatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name              string
		batch, rows, cols int
		unsigned          bool
		sends             int
	}{
		{"one tile", 5, 100, 30, false, 1},
		{"row splits", 7, 300, 20, false, 3},
		{"col splits", 3, 64, 600, false, 1},
		{"unsigned 2×2", 4, 513, 300, true, 2},
		{"chunked batch", 300, 200, 10, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(Config{Gain: 0.01, Chips: 1})
			if err != nil {
				t.Fatal(err)
			}
			lo := -63
			chunk := 128
			if tc.unsigned {
				lo, chunk = 0, 256
			}
			x := randInts(rng, tc.batch*tc.rows, 0, 31)
			w := randInts(rng, tc.rows*tc.cols, lo, 63)
			y, err := s.MatMul(x, tc.batch, w, tc.rows, tc.cols, Op{NumSends: tc.sends, Unsigned: tc.unsigned})
			if err != nil {
				t.Fatal(err)
			}
			want := reference(x, w, tc.batch, tc.rows, tc.cols, chunk, 0.01, tc.sends)
			for i := range y {
				if y[i] != want[i] {
					t.Fatalf("y[%d] = %v, want %v", i, y[i], want[i])
				}
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	s, _ := New(MockConfig())
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"input 32", func() error { _, err := s.MatMul([]float64{32}, 1, []float64{1}, 1, 1, Op{}); return err }, "x[0][0]: input 32: outside the 5-bit range"},
		{"input -1", func() error { _, err := s.MatMul([]float64{-1}, 1, []float64{1}, 1, 1, Op{}); return err }, "outside the 5-bit range"},
		{"input NaN clamp", func() error {
			_, err := s.MatMul([]float64{math.NaN()}, 1, []float64{1}, 1, 1, Op{Clamp: true})
			return err
		}, "input NaN"},
		{"weight 64", func() error { _, err := s.MatMul([]float64{1}, 1, []float64{64}, 1, 1, Op{}); return err }, "w[0][0]: weight 64: outside -63..63"},
		{"unsigned -1", func() error { _, err := s.MatMul([]float64{1}, 1, []float64{-1}, 1, 1, Op{Unsigned: true}); return err }, "outside 0..63"},
		{"num_sends", func() error { _, err := s.MatMul([]float64{1}, 1, []float64{1}, 1, 1, Op{NumSends: 300}); return err }, "NumSends = 300: must be in 1..255"},
		{"wait", func() error {
			_, err := s.MatMul([]float64{1}, 1, []float64{1}, 1, 1, Op{WaitBetweenEvents: -1})
			return err
		}, "WaitBetweenEvents = -1"},
		{"shape", func() error { _, err := s.MatMul([]float64{1, 2}, 1, []float64{1}, 1, 1, Op{}); return err }, "2 inputs for batch 1 × 1 rows"},
		{"gain", func() error { _, err := New(Config{Gain: -1}); return err }, "Gain = -1: must be positive"},
		{"noise", func() error { _, err := New(Config{Noise: math.Inf(1)}); return err }, "Noise = +Inf"},
		{"too large", func() error {
			s2, _ := New(Config{NoReuse: true})
			_, err := s2.Partition(300, 300, false)
			return err
		}, "need 6 synapse arrays"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// clamping when asked
	y, err := s.MatMul([]float64{40}, 1, []float64{70}, 1, 1, Op{Clamp: true, NumSends: 10})
	if err != nil {
		t.Fatal(err)
	}
	_ = y
}

func TestPartitionRoundRobin(t *testing.T) {
	s, _ := New(Config{Chips: 2})
	p, err := s.Partition(300, 600, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.RowSplits != 3 || p.ColSplits != 3 || len(p.Tiles) != 9 || p.Runs != 3 {
		t.Fatalf("partition %v", p)
	}
	if u := p.ArrayUse(); u[0] != 3 || u[1] != 2 || u[2] != 2 || u[3] != 2 {
		t.Errorf("array use %v, want round robin 3 2 2 2", u)
	}
	if p.Tiles[5].Chip != 0 || p.Tiles[6].Chip != 1 || p.Tiles[6].Array != 2 {
		t.Errorf("tile placement %+v %+v", p.Tiles[5], p.Tiles[6])
	}
	// 300×600 of 9 tiles of 128×256
	want := 300.0 * 600 / (9 * 128 * 256)
	if math.Abs(p.Utilisation()-want) > 1e-12 {
		t.Errorf("utilisation %v, want %v", p.Utilisation(), want)
	}
	big, _ := s.Partition(128*40, 256*40, false)
	if big.Utilisation() != 1 {
		t.Errorf("exact multiple: utilisation %v", big.Utilisation())
	}
}

func TestNoiseStatisticsAndDeterminism(t *testing.T) {
	const noiseTol = 0.05 // relative error of the measured noise sd
	s, _ := New(Config{Gain: 0.01, Noise: 2, Seed: 3})
	rows, cols, batch := 100, 50, 400
	rng := rand.New(rand.NewPCG(5, 6))
	x := randInts(rng, batch*rows, 0, 10)
	w := randInts(rng, rows*cols, -5, 5)
	m, err := s.Configure(w, rows, cols, Op{})
	if err != nil {
		t.Fatal(err)
	}
	y1 := make([]float64, batch*cols)
	y2 := make([]float64, batch*cols)
	if err := m.Apply(x, batch, y1); err != nil {
		t.Fatal(err)
	}
	if err := m.Apply(x, batch, y2); err != nil {
		t.Fatal(err)
	}
	ideal := reference(x, w, batch, rows, cols, 128, 0.01, 1)
	var d2 float64
	same := 0
	for i := range y1 {
		d := y1[i] - y2[i]
		d2 += d * d
		if y1[i] == y2[i] {
			same++
		}
	}
	sd := math.Sqrt(d2 / float64(len(y1)) / 2) // difference of two trials has variance 2σ² (plus rounding)
	t.Logf("trial-to-trial sd %.3f LSB (configured 2, floor adds ~0.29)", sd)
	if math.Abs(sd-math.Sqrt(4+1.0/6))/math.Sqrt(4+1.0/6) > noiseTol {
		t.Errorf("noise sd %.3f, want ≈ %.3f", sd, math.Sqrt(4+1.0/6))
	}
	_ = ideal
	m.Reseed(3)
	y3 := make([]float64, batch*cols)
	m.Apply(x, batch, y3)
	m.Reseed(3)
	y4 := make([]float64, batch*cols)
	m.Apply(x, batch, y4)
	for i := range y3 {
		if y3[i] != y4[i] {
			t.Fatalf("after Reseed the outputs differ at %d", i)
		}
	}
}

func TestCalibrationRecoversFixedPattern(t *testing.T) {
	const (
		gainTol  = 0.02 // relative error of the overall gain
		noiseTol = 0.1  // relative error of the measured noise
		colTol   = 0.04 // absolute error of the column gains (sd of the estimate)
	)
	const satTol = 0.15 // relative error of the fitted saturation scale
	cfg := ChipConfig(7)
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Calibrate(CalibrationOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("gain %.5f (config %.5f), noise %.3f (config %.1f), saturation %.0f (config %.0f), residual %.3f", c.Gain, cfg.Gain, c.Noise, cfg.Noise, c.Saturation, cfg.Saturation, c.Residual)
	if math.Abs(c.Saturation/cfg.Saturation-1) > satTol {
		t.Errorf("saturation %v, want %v", c.Saturation, cfg.Saturation)
	}
	var meanG float64
	for a := range s.Arrays() {
		for j := range ArrayCols {
			meanG += s.gain[a][j]
		}
	}
	meanG /= float64(s.Arrays() * ArrayCols)
	if math.Abs(c.Gain/(cfg.Gain*meanG)-1) > gainTol {
		t.Errorf("gain %v, want %v·%v", c.Gain, cfg.Gain, meanG)
	}
	if math.Abs(c.Noise/cfg.Noise-1) > noiseTol {
		t.Errorf("noise %v, want %v", c.Noise, cfg.Noise)
	}
	var e2 float64
	for a := range s.Arrays() {
		for j := range ArrayCols {
			d := c.ColumnGain[a][j] - s.gain[a][j]
			e2 += d * d
		}
	}
	rms := math.Sqrt(e2 / float64(s.Arrays()*ArrayCols))
	t.Logf("column gain estimate RMS error %.4f (spread %.2f)", rms, cfg.GainSpread)
	if rms > colTol {
		t.Errorf("column gain RMS error %v > %v", rms, colTol)
	}
	// with the correction, a column's mean output follows the ideal one
	rng := rand.New(rand.NewPCG(9, 9))
	rows, cols, batch := 128, 256, 300
	x := randInts(rng, batch*rows, 0, 31)
	w := randInts(rng, rows*cols, -20, 20)
	ideal := reference(x, w, batch, rows, cols, 128, cfg.Gain, 1)
	errOf := func() float64 {
		y, err := s.MatMul(x, batch, w, rows, cols, Op{})
		if err != nil {
			t.Fatal(err)
		}
		var se float64
		for i := range y {
			se += (y[i] - ideal[i]) * (y[i] - ideal[i])
		}
		return math.Sqrt(se / float64(len(y)))
	}
	before := errOf()
	if err := s.SetCalibration(c); err != nil {
		t.Fatal(err)
	}
	after := errOf()
	t.Logf("RMS deviation from the ideal chip: %.2f LSB uncalibrated, %.2f calibrated", before, after)
	if !(after < 0.8*before) {
		t.Errorf("calibration did not reduce the deviation: %.2f → %.2f", before, after)
	}
}

func TestChipTime(t *testing.T) {
	s, _ := New(Config{Chips: 2})
	m, _ := s.Configure(make([]float64, 256*512), 256, 512, Op{NumSends: 2, WaitBetweenEvents: 3})
	// 4 tiles (2 row × 2 column splits) on 4 arrays: chip 0 holds tiles 0, 1 (arrays 0, 1), chip 1 tiles 2, 3
	got := m.ChipTime(10, 0.5)
	per := 10 * (0.5*128*float64(EventCycle)*2*4 + float64(ReadoutTime)) // one tile
	if want := time.Duration(2 * per); got != want {
		t.Errorf("ChipTime = %v, want %v", got, want)
	}
}
