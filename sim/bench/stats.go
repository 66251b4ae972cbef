package bench

import "math"

// t975 holds Student's t 0.975 quantiles for 1–30 degrees of freedom
// (standard tables, e.g. NIST/SEMATECH e-Handbook §1.3.6.7.2).
var t975 = [...]float64{
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
}

// TQuantile975 returns the two-sided 95 % Student t quantile for df
// degrees of freedom: tabulated to 30, then 1.96 + 2.46/df (within 0.002
// of the exact value up to df = 120 and tending to the normal 1.960).
// It returns NaN for df < 1.
func TQuantile975(df int) float64 {
	switch {
	case df < 1:
		return math.NaN()
	case df <= len(t975):
		return t975[df-1]
	}
	return 1.95996 + 2.46/float64(df)
}

// MeanCI returns the mean of xs and its 95 % confidence interval
// mean ± t(n−1)·s/√n, s the sample standard deviation. With one sample
// the interval is [mean, mean] (no spread can be estimated); with none,
// all three are NaN.
func MeanCI(xs []float64) (mean, lo, hi float64) {
	n := len(xs)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if n == 1 {
		return mean, mean, mean
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := TQuantile975(n-1) * math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	return mean, mean - half, mean + half
}
