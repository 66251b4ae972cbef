package analog

import (
	"fmt"
	"math"
	"math/rand/v2"
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
// measure_mock_parameter does: random inputs and weights chosen so that
// the outputs stay inside the unsaturated middle of the 8-bit range,
// every input vector sent Repeats times. The gain is the least-squares
// slope of the mean outputs against the ideal Σ x·w·num_sends, the noise
// the pooled standard deviation of the repeats; per column a linear fit
// gives relative gain and offset. Calibrate does not change the system;
// pass the result to SetCalibration to correct per column.
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
	// Target |ideal·gain| ≲ 60 LSB: weights uniform in ±wmax with
	// inputs uniform 0..31 give sd(Σ) ≈ sqrt(rows)·15.5·wmax/√3·…;
	// choose wmax so that 3 sd stay inside ±60 LSB.
	g0 := s.cfg.Gain * float64(op.NumSends)
	sdPerW := math.Sqrt(float64(rows)) * math.Sqrt(15.5*15.5+80) / math.Sqrt(3)
	wmax := math.Max(1, math.Min(WeightMax, math.Floor(60/(3*g0*sdPerW))))
	var sxx, sxy, sse float64
	var nse int
	var resid2 float64
	var nres int
	for a := range s.arrays {
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
			sse += sq[i] - R*m*m
			nse += o.Repeats - 1
			mean[i] = m
		}
		c.ColumnGain[a] = make([]float64, ArrayCols)
		c.ColumnOffset[a] = make([]float64, ArrayCols)
		for j := range ArrayCols {
			// per-column least squares of mean = α + β·ideal; floor()
			// biases by −½ LSB on average, which the offset absorbs
			var sx, sy, sxxj, sxyj float64
			n := float64(o.Vectors)
			for b := range o.Vectors {
				id := g0 * float64(acc[b*ArrayCols+j])
				sx += id
				sy += mean[b*ArrayCols+j]
				sxxj += id * id
				sxyj += id * mean[b*ArrayCols+j]
			}
			den := n*sxxj - sx*sx
			beta := 1.0
			if den > 0 {
				beta = (n*sxyj - sx*sy) / den
			}
			alpha := (sy - beta*sx) / n
			c.ColumnGain[a][j] = beta
			c.ColumnOffset[a][j] = alpha
			for b := range o.Vectors {
				id := g0 * float64(acc[b*ArrayCols+j])
				e := mean[b*ArrayCols+j] - alpha - beta*id
				resid2 += e * e
				nres++
				sxx += id * id
				sxy += id * (mean[b*ArrayCols+j] - alpha)
			}
		}
	}
	c.Gain = s.cfg.Gain * sxy / sxx
	c.Noise = math.Sqrt(sse / float64(nse))
	c.Residual = math.Sqrt(resid2 / float64(nres))
	return c, nil
}

// SetCalibration makes the system correct every column's 8-bit result
// by the calibration's fit, y' = (y − ColumnOffset_j)/ColumnGain_j − ½,
// mapping each column onto an ideal column (whose floor() lowers results
// by ½ LSB on average, hence the −½); nil switches the correction off.
// The correction is digital postprocessing: it removes the fixed-pattern
// gain and offset, not the noise or the saturation.
func (s *System) SetCalibration(c *Calibration) error {
	if c == nil {
		s.corrGain, s.corrOffset = nil, nil
		return nil
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
	s.corrGain, s.corrOffset = cg, co
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
