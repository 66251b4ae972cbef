package bench

import (
	"fmt"
	"math"
)

// Beside is another neurogo binary's figures for the same cell, measured
// in the same run (`neurogo bench sim --beside BIN`): typically a plain
// `go build` beside a build with OpenBLAS, so that the two are compared on
// one machine at one time rather than across days.
type Beside struct {
	// Binary is the other binary's path, Kernels and BLAS what it runs
	// (its internal/vec.Kernels and toolkit/solvers.BLAS).
	Binary  string `json:"binary"`
	Kernels string `json:"kernels,omitempty"`
	BLAS    string `json:"blas,omitempty"`
	// USPerStep ± CIHalfUS and BuildS are the other binary's, StepRatio
	// this binary's µs/step ÷ the other's and BuildRatio the same for the
	// build time (above 1: this binary is slower).
	USPerStep  float64 `json:"us_per_step"`
	CIHalfUS   float64 `json:"ci_half_us"`
	BuildS     float64 `json:"build_s"`
	StepRatio  float64 `json:"step_ratio"`
	BuildRatio float64 `json:"build_ratio"`
}

// CompareBeside records o, the other binary's result for r's cell, in r.
// It fails when o is not the same cell.
func CompareBeside(r *Result, o Result, binary, kernels, blas string) error {
	if o.Model != r.Model || o.Dims != r.Dims || o.Batch != r.Batch {
		return fmt.Errorf("bench: the other binary measured %s D=%d batch %d, not %s D=%d batch %d",
			o.Model, o.Dims, o.Batch, r.Model, r.Dims, r.Batch)
	}
	if !(o.USPerStep > 0) || !(o.BuildS > 0) {
		return fmt.Errorf("bench: the other binary's %s D=%d batch %d has no time (µs/step %g, build %g s)",
			o.Model, o.Dims, o.Batch, o.USPerStep, o.BuildS)
	}
	r.Beside = &Beside{
		Binary: binary, Kernels: kernels, BLAS: blas,
		USPerStep: o.USPerStep, CIHalfUS: o.CIHalfUS(), BuildS: o.BuildS,
		StepRatio: r.USPerStep / o.USPerStep, BuildRatio: r.BuildS / o.BuildS,
	}
	for _, p := range []*float64{&r.Beside.StepRatio, &r.Beside.BuildRatio, &r.Beside.CIHalfUS} {
		if math.IsNaN(*p) || math.IsInf(*p, 0) {
			*p = 0
		}
	}
	return nil
}
