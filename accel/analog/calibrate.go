package analog

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/neurogo/neurogo/interrupt"
)

// Calibration is what Calibrate measured: the system's overall gain and
// trial-to-trial noise (hxtorch's measure_mock_parameter), and per array
// column the relative gain and offset, from which the column correction
// is derived.
type Calibration struct {
	// Gain is the measured output in LSB per unit of Σ x·w per send.
	Gain float64
	// Noise is the measured standard deviation of repeated measurements
	// (LSB).
	Noise float64
	// ColumnGain and ColumnOffset are [array][column] fits of
	// y = ColumnGain·Gain·num_sends·Σ x·w + ColumnOffset.
	ColumnGain, ColumnOffset [][]float64
	// Saturation is the fitted scale S of the membrane's saturation
	// y = S·tanh(v/S) (0: none found, linear).
	Saturation float64
	// Residual is the RMS deviation (LSB) of the per-column fits.
	Residual float64
}

// CalibrationOptions tunes Calibrate.
type CalibrationOptions struct {
	// Vectors is the number of random input vectors per measurement
	// (0: 200) and Repeats how often each is measured (0: 8).
	Vectors, Repeats int
	// NumSends is used for the measurement (0: 1).
	NumSends int
	// Seed draws the test matrices and inputs.
	Seed int64
}

// Calibrate measures the system with random test matrices, as hxtorch's
// measure_mock_parameter does: random inputs and weights whose outputs
// span most of the 8-bit range, every input vector sent Repeats times.
// The noise is the pooled standard deviation of the repeats; the mean
// outputs are fitted per column to S·tanh((β_j·ideal + α_j)/S) − ½ (the
// −½ is the floor's average), with one saturation scale S for the system
// chosen from a grid (or none) and per-column gain β_j and offset α_j by
// least squares; Gain is the overall slope. Calibrate does not change
// the system; pass the result to SetCalibration to correct every column.
func (s *System) Calibrate(o CalibrationOptions) (*Calibration, error) {
	if o.Vectors == 0 {
		o.Vectors = 200
	}
	if o.Repeats == 0 {
		o.Repeats = 8
	}
	if o.NumSends == 0 {
		o.NumSends = 1
	}
	if o.Vectors < 8 || o.Repeats < 2 {
		return nil, fmt.Errorf("analog: Calibrate: Vectors = %d, Repeats = %d: need at least 8 vectors and 2 repeats", o.Vectors, o.Repeats)
	}
	op, err := Op{NumSends: o.NumSends}.normalised()
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0xca1))
	rows := ArrayRows / 2
	c := &Calibration{ColumnGain: make([][]float64, s.arrays), ColumnOffset: make([][]float64, s.arrays)}
	// Weights uniform in ±wmax with inputs uniform on 0..31 give
	// sd(Σ x·w) ≈ sqrt(rows·E[x²])·wmax/√3; wmax makes 2.5 sd ≈ 100 LSB,
	// so the test outputs span the range where saturation shows.
	g0 := s.cfg.Gain * float64(op.NumSends)
	sdPerW := math.Sqrt(float64(rows)) * math.Sqrt(15.5*15.5+80) / math.Sqrt(3)
	wmax := math.Max(1, math.Min(WeightMax, math.Floor(100/(2.5*g0*sdPerW))))
	var sse float64
	var nse int
	type colData struct{ id, mean []float64 }
	cols := make([][]colData, s.arrays) // [array][column]
	for a := range s.arrays {
		if interrupt.Requested() {
			return nil, fmt.Errorf("analog: Calibrate interrupted after %d of %d arrays: %w", a, s.arrays, interrupt.ErrInterrupted)
		}
		w := make([]float32, rows*ArrayCols)
		for i := range w {
			w[i] = float32(rng.IntN(2*int(wmax)+1) - int(wmax))
		}
		xf := make([]float32, o.Vectors*rows)
		for i := range xf {
			xf[i] = float32(rng.IntN(InputMax + 1))
		}
		acc := make([]float32, o.Vectors*ArrayCols)
		mean := make([]float64, o.Vectors*ArrayCols)
		sq := make([]float64, o.Vectors*ArrayCols)
		out := make([]int8, o.Vectors*ArrayCols)
		for r := range o.Repeats {
			ns := newNoise(uint64(o.Seed)^0xca11b, uint64(r), uint64(a), 0)
			s.emulate(out, acc, xf, w, o.Vectors, rows, ArrayCols, a, op.NumSends, &ns)
			for i, v := range out {
				f := float64(v)
				mean[i] += f
				sq[i] += f * f
			}
		}
		R := float64(o.Repeats)
		for i := range mean {
			m := mean[i] / R
			mean[i] = m
			if m > -120 && m < 120 { // clamped results carry no noise
				sse += sq[i] - R*m*m
				nse += o.Repeats - 1
			}
		}
		cols[a] = make([]colData, ArrayCols)
		for j := range ArrayCols {
			cd := colData{id: make([]float64, 0, o.Vectors), mean: make([]float64, 0, o.Vectors)}
			for b := range o.Vectors {
				m := mean[b*ArrayCols+j]
				if m <= -120 || m >= 120 {
					continue // clamped: outside the model's invertible range
				}
				cd.id = append(cd.id, g0*float64(acc[b*ArrayCols+j]))
				cd.mean = append(cd.mean, m)
			}
			cols[a][j] = cd
		}
	}
	// fit = per column mean = S·tanh((β·ideal + α)/S) − ½ (floor) for the
	// saturation scale S of a grid (∞ first): in u = S·atanh((mean+½)/S)
	// the model is linear, α and β are least squares there, and S is the
	// grid value with the smallest residual in output space
	type fit struct {
		alpha, beta [][]float64
		resid       float64
	}
	fitWith := func(S float64) fit {
		f := fit{alpha: make([][]float64, s.arrays), beta: make([][]float64, s.arrays)}
		var r2 float64
		var n int
		for a := range s.arrays {
			f.alpha[a] = make([]float64, ArrayCols)
			f.beta[a] = make([]float64, ArrayCols)
			for j, cd := range cols[a] {
				var sx, sy, sxx, sxy float64
				k := float64(len(cd.id))
				for i, id := range cd.id {
					u := unsaturate(cd.mean[i]+0.5, S)
					sx += id
					sy += u
					sxx += id * id
					sxy += id * u
				}
				beta, alpha := 1.0, 0.0
				if den := k*sxx - sx*sx; den > 0 {
					beta = (k*sxy - sx*sy) / den
					alpha = (sy - beta*sx) / k
				}
				f.alpha[a][j], f.beta[a][j] = alpha, beta
				for i, id := range cd.id {
					e := cd.mean[i] - (saturate(beta*id+alpha, S) - 0.5)
					r2 += e * e
					n++
				}
			}
		}
		f.resid = math.Sqrt(r2 / float64(max(n, 1)))
		return f
	}
	best, bestS := fitWith(0), 0.0
	for S := 2000.0; S >= 32; S /= 1.08 {
		if f := fitWith(S); f.resid < best.resid {
			best, bestS = f, S
		}
	}
	c.ColumnGain, c.ColumnOffset, c.Residual, c.Saturation = best.beta, best.alpha, best.resid, bestS
	var sxx, sxy float64
	for a := range s.arrays {
		for j, cd := range cols[a] {
			for i, id := range cd.id {
				u := unsaturate(cd.mean[i]+0.5, bestS) - best.alpha[a][j]
				sxx += id * id
				sxy += id * u
			}
		}
	}
	c.Gain = s.cfg.Gain * sxy / sxx
	c.Noise = math.Sqrt(sse / float64(max(nse, 1)))
	return c, nil
}

// saturate is S·tanh(v/S) (v for S = 0).
func saturate(v, S float64) float64 {
	if S == 0 {
		return v
	}
	return S * math.Tanh(v/S)
}

// unsaturate inverts saturate, limited to |y| < 0.995·S.
func unsaturate(y, S float64) float64 {
	if S == 0 {
		return y
	}
	r := math.Max(-0.995, math.Min(0.995, y/S))
	return S * math.Atanh(r)
}

// SetCalibration makes the system correct every column's 8-bit result
// by inverting the calibration's fit,
// y' = (S·atanh((y+½)/S) − ColumnOffset_j)/ColumnGain_j − ½, mapping each
// column onto an ideal linear column (whose floor() lowers results by ½
// LSB on average, hence the ½s); nil switches the correction off. The
// correction is digital postprocessing: it removes fixed-pattern gain and
// offset and the saturation's curvature, not the noise, and not the
// clamp at −128..127.
func (s *System) SetCalibration(c *Calibration) error {
	if c == nil {
		s.corrGain, s.corrOffset, s.corrSat = nil, nil, 0
		return nil
	}
	if !(c.Saturation >= 0) || math.IsInf(c.Saturation, 0) {
		return fmt.Errorf("analog: SetCalibration: Saturation = %v: must be ≥ 0 and finite", c.Saturation)
	}
	if len(c.ColumnGain) != s.arrays || len(c.ColumnOffset) != s.arrays {
		return fmt.Errorf("analog: SetCalibration: calibration covers %d arrays, the system has %d", len(c.ColumnGain), s.arrays)
	}
	cg := make([][]float64, s.arrays)
	co := make([][]float64, s.arrays)
	for a := range s.arrays {
		cg[a] = make([]float64, ArrayCols)
		co[a] = make([]float64, ArrayCols)
		for j := range ArrayCols {
			g := c.ColumnGain[a][j]
			if !(g > 0.05) || math.IsInf(g, 0) {
				return fmt.Errorf("analog: SetCalibration: array %d column %d: gain %v is not a usable calibration", a, j, g)
			}
			cg[a][j] = 1 / g
			co[a][j] = c.ColumnOffset[a][j]
		}
	}
	s.corrGain, s.corrOffset, s.corrSat = cg, co, c.Saturation
	return nil
}

// correction returns array a's per-column correction (1/gain, offset),
// nil without a calibration (see SetCalibration).
func (s *System) correction(a int) (cg, co []float64) {
	if s.corrGain == nil {
		return nil, nil
	}
	return s.corrGain[a], s.corrOffset[a]
}
