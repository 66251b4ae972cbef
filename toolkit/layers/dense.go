package layers

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Dense is a fully connected layer, out = in·kernel + bias (Keras Dense with a
// linear activation). A rank-1 input (D) gives (Units); a higher-rank input
// (…, D) is transformed along its last axis to (…, Units), as in Keras.
// Kernel (D, Units) is glorot_uniform, bias (Units) zeros.
type Dense struct {
	Units  int
	NoBias bool
}

// Build implements Spec.
func (s Dense) Build(in []int, seed int64) (Layer, error) {
	if err := checkShape("Dense", in); err != nil {
		return nil, err
	}
	if s.Units <= 0 {
		return nil, errf("Dense", "Units", s.Units, "must be positive")
	}
	d := in[len(in)-1]
	out := append(append([]int(nil), in[:len(in)-1]...), s.Units)
	l := &denseLayer{base: base{kind: "Dense", in: append([]int(nil), in...), out: out, spec: s}, d: d, units: s.Units, noBias: s.NoBias}
	l.params = append(l.params, Param{Name: "kernel", Role: RoleKernel, Shape: []int{d, s.Units}, Value: glorotUniform(d*s.Units, d, s.Units, seed), Trainable: true})
	if !s.NoBias {
		l.params = append(l.params, Param{Name: "bias", Role: RoleBias, Shape: []int{s.Units}, Value: make([]float64, s.Units), Trainable: true})
	}
	return l, nil
}

type denseLayer struct {
	base
	d, units int
	noBias   bool
}

func (l *denseLayer) NewExec(maxBatch int, seed uint64) (Exec, error) {
	eb, err := l.newExecBase(maxBatch)
	if err != nil {
		return nil, err
	}
	return &denseExec{execBase: eb, d: l.d, units: l.units, noBias: l.noBias}, nil
}

type denseExec struct {
	execBase
	d, units int
	noBias   bool
}

func (e *denseExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.checkForward(params, in, out, batch); err != nil {
		return err
	}
	rows := batch * e.inSize / e.d
	beta := 0.0
	if !e.noBias {
		bias := params[1]
		for r := 0; r < rows; r++ {
			copy(out[r*e.units:(r+1)*e.units], bias)
		}
		beta = 1
	}
	blas64.Implementation().Dgemm(blas.NoTrans, blas.NoTrans, rows, e.units, e.d,
		1, in, e.d, params[0], e.units, beta, out, e.units)
	return nil
}

func (e *denseExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.checkBackward(params, in, out, dOut, dIn, dParams, batch); err != nil {
		return err
	}
	rows := batch * e.inSize / e.d
	impl := blas64.Implementation()
	if dk := dParam(dParams, 0); dk != nil {
		// dKernel += inᵀ·dOut
		impl.Dgemm(blas.Trans, blas.NoTrans, e.d, e.units, rows, 1, in, e.d, dOut, e.units, 1, dk, e.units)
	}
	if !e.noBias {
		if db := dParam(dParams, 1); db != nil {
			colSum(db, dOut, rows, e.units)
		}
	}
	if dIn != nil {
		// dIn += dOut·kernelᵀ
		impl.Dgemm(blas.NoTrans, blas.Trans, rows, e.d, e.units, 1, dOut, e.units, params[0], e.units, 1, dIn, e.d)
	}
	return nil
}

// colSum adds the column sums of the rows×cols matrix m to dst.
func colSum(dst, m []float64, rows, cols int) {
	for r := 0; r < rows; r++ {
		addTo(dst[:cols], m[r*cols:(r+1)*cols])
	}
}
