package bench

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// TQuantile975 returns the two-sided 95 % Student t quantile for df
// degrees of freedom, the 0.975 quantile of gonum's
// distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}. It returns NaN for df < 1.
func TQuantile975(df int) float64 {
	if df < 1 {
		return math.NaN()
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
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
