package neurons

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// LIFRateDeriv writes LIFRate's rate (with t's TauRC, TauRef and
// Amplitude, t's Sigma ignored) to out and t's derivative f'(J) to d, in
// one pass over J: NengoDL's lif_smoothing, where LIF runs as LIFRate in
// the forward pass and back-propagates SoftLIFRate's derivative (Hunsberger
// & Eliasmith 2015, arXiv:1510.08829, §2.2). Trainers call it instead of
// LIFRate.Step followed by Deriv.
//
// The values are those of LIFRate.Step and Deriv to within a few units in
// the last place: where the CPU has AVX-512 (chosen at run time; not with
// the build tag purego), currents near the threshold (|J-1|/Sigma ≤ 36, where
// Deriv needs an exp and two log1p) are evaluated eight at a time with
// vector exp and log1p (Cody–Waite reduction with a degree-13 Taylor
// polynomial; fdlibm's log polynomial with the 1+u rounding corrected),
// everything else exactly as Step and Deriv do. Relative differences to
// them are below 1e-14 (tested); on other CPUs and builds they are equal.
func (t SoftLIFRate) LIFRateDeriv(J, out, d []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if len(out) != len(J) || len(d) != len(J) {
		return &validate.Error{Pkg: "neurons", Object: "SoftLIFRate", Field: "len(out), len(d)", Value: fmt.Sprintf("%d, %d", len(out), len(d)), Rule: fmt.Sprintf("must equal len(J) = %d", len(J))}
	}
	k := lifRateSoftDerivVec(t, J, out, d)
	lifRateSoftDerivScalar(t, J[k:], out[k:], d[k:])
	return nil
}

// lifRateSoftDerivScalar is LIFRateDeriv one current at a time, as
// LIFRate.Step and SoftLIFRate.Deriv compute them.
func lifRateSoftDerivScalar(t SoftLIFRate, J, out, d []float64) {
	logSigma := math.Log(t.Sigma)
	out = out[:len(J)]
	d = d[:len(J)]
	for i, cur := range J {
		out[i] = lifRate(cur, t.TauRC, t.TauRef, t.Amplitude)
		d[i] = softLIFDerivAt(cur, t.Sigma, t.TauRC, t.TauRef, t.Amplitude, logSigma)
	}
}

// LIFRateDeriv32 is LIFRateDeriv with float32 arithmetic near the
// threshold, for training in float32 (as PyTorch and TensorFlow do by
// default): with AVX-512 (chosen at run time) sixteen currents at a
// time, j = J−1 and j/Sigma in float64, then float32 exp and log1p
// (relative differences to LIFRate.Step and Deriv below 2e-6, tested);
// elsewhere, and on other CPUs and builds, exactly LIFRateDeriv.
func (t SoftLIFRate) LIFRateDeriv32(J, out, d []float64) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if len(out) != len(J) || len(d) != len(J) {
		return &validate.Error{Pkg: "neurons", Object: "SoftLIFRate", Field: "len(out), len(d)", Value: fmt.Sprintf("%d, %d", len(out), len(d)), Rule: fmt.Sprintf("must equal len(J) = %d", len(J))}
	}
	k := lifRateSoftDeriv32Vec(t, J, out, d)
	if k == 0 {
		k = lifRateSoftDerivVec(t, J, out, d)
	}
	lifRateSoftDerivScalar(t, J[k:], out[k:], d[k:])
	return nil
}
