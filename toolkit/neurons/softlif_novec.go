//go:build !(goexperiment.simd && amd64)

package neurons

// lifRateSoftDerivVec processes nothing without vector instructions: the
// scalar loop does all of LIFRateDeriv.
func lifRateSoftDerivVec(t SoftLIFRate, J, out, d []float64) int { return 0 }

// lifRateSoftDeriv32Vec: without vector instructions LIFRateDeriv32
// computes in float64 (LIFRateDeriv's scalar loop).
func lifRateSoftDeriv32Vec(t SoftLIFRate, J, out, d []float64) int { return 0 }
