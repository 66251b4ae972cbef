package layers

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/neurogo/neurogo/internal/vec"
)

// Float32Exec is implemented by the Execs that can run their matrix
// products in float32 (Conv1D and Conv2D): with SetFloat32(true) the
// column matrix, the kernel and the output gradient are rounded to
// float32 for the products (BLAS sgemm, about twice dgemm's speed; what
// PyTorch and TensorFlow train with by default), while inputs, outputs,
// parameters and their gradients stay float64 and the products' results
// are added to them in float64. Off by default.
type Float32Exec interface {
	Exec
	SetFloat32(on bool)
}

// sgemm runs float32 products: internal/blas's micro-kernels (blas.go),
// or OpenBLAS with the build tag openblas (openblas.go).
var sgemm blas.Float32Level3 = blas32.Implementation()

// SetFloat32 implements Float32Exec. A 1×1 convolution with unit
// strides (no column matrix) stays float64.
func (e *convExec) SetFloat32(on bool) {
	e.f32 = on && !e.direct
	if e.direct {
		return
	}
	if e.chunk64 == 0 {
		e.chunk64 = e.chunk
	}
	e.chunk = e.chunk64
	if e.f32 {
		// the float32 column matrix has its own budget (maxCol32Bytes)
		e.chunk = min(max(maxCol32Bytes/(e.p*e.kk*4), 1), e.maxBatch)
		if len(e.col32) != e.chunk*e.p*e.kk {
			e.col32 = make([]float32, e.chunk*e.p*e.kk)
			e.o32 = make([]float32, e.chunk*e.p*e.g.F)
		}
		if e.w32 == nil {
			e.w32 = make([]float32, e.kk*e.g.F)
			e.dk32 = make([]float32, e.kk*e.g.F)
		}
	}
	e.colValid = false
}

// sumRows is the row block of the float32 backward pass's bias
// gradient (fixed, so the sum does not depend on the number of cores).
const sumRows = 256

// parSgemm is C = alpha·op(A)·op(B) + beta·C in float32, split in row
// blocks of C (or column blocks when op(A) is transposed, C then being
// small and the inner dimension large) across e's workers.
func (e *convExec) parSgemm(tA, tB blas.Transpose, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if tA == blas.NoTrans {
		e.w.run(m, m*n*k/64, func(lo, hi int) {
			if hi > lo {
				sgemm.Sgemm(tA, tB, hi-lo, n, k, 1, a[lo*lda:], lda, b, ldb, beta, c[lo*ldc:], ldc)
				vec.ClearUpper() // OpenBLAS's AVX-512 kernels leave the upper halves dirty
			}
		})
		return
	}
	e.w.run(n, m*n*k/64, func(lo, hi int) {
		if hi > lo {
			bOff := lo
			if tB != blas.NoTrans {
				bOff = lo * ldb
			}
			sgemm.Sgemm(tA, tB, m, hi-lo, k, 1, a, lda, b[bOff:], ldb, beta, c[lo:], ldc)
			vec.ClearUpper()
		}
	})
}

// forward32 is Forward with float32 products.
func (e *convExec) forward32(params [][]float64, in, out []float64, batch int) {
	F := e.g.F
	to32(e.w32, params[0])
	for b0 := 0; b0 < batch; b0 += e.chunk {
		nb := min(e.chunk, batch-b0)
		rows := nb * e.p
		x := in[b0*e.inSize : (b0+nb)*e.inSize]
		o := out[b0*e.outSize : (b0+nb)*e.outSize]
		a := e.col32[:rows*e.kk]
		e.fillCol32(a, x, nb)
		o32 := e.o32[:rows*F]
		e.parSgemm(blas.NoTrans, blas.NoTrans, rows, F, e.kk, a, e.kk, e.w32, F, 0, o32, F)
		e.w.run(rows, rows*F, func(lo, hi int) {
			for r := lo; r < hi; r++ {
				or, sr := o[r*F:(r+1)*F], o32[r*F:(r+1)*F]
				if e.noBias {
					clear(or)
					add32(or, sr)
					continue
				}
				biasAdd32(or, params[1], sr)
			}
		})
	}
}

// backward32 is Backward with float32 products.
func (e *convExec) backward32(params [][]float64, in, dOut, dIn, dk, db []float64, batch int) {
	F := e.g.F
	to32(e.w32, params[0])
	for b0 := (batch - 1) / e.chunk * e.chunk; b0 >= 0; b0 -= e.chunk {
		nb := min(e.chunk, batch-b0)
		rows := nb * e.p
		x := in[b0*e.inSize : (b0+nb)*e.inSize]
		dO := dOut[b0*e.outSize : (b0+nb)*e.outSize]
		// dO in float32, and the bias gradient: column sums of blocks of
		// sumRows rows (across the cores), added in block order
		d32 := e.o32[:rows*F]
		nblk := (rows + sumRows - 1) / sumRows
		if db != nil && len(e.part) < nblk*F {
			e.part = make([]float64, nblk*F)
		}
		e.w.run(nblk, rows*F, func(lo, hi int) {
			for k := lo; k < hi; k++ {
				r0, r1 := k*sumRows, min((k+1)*sumRows, rows)
				to32(d32[r0*F:r1*F], dO[r0*F:r1*F])
				if db != nil {
					part := e.part[k*F : (k+1)*F]
					clear(part)
					colSum(part, dO[r0*F:r1*F], r1-r0, F)
				}
			}
		})
		if db != nil {
			for k := range nblk {
				addTo(db[:F], e.part[k*F:(k+1)*F])
			}
		}
		if dk != nil {
			a := e.col32[:rows*e.kk]
			e.fillCol32(a, x, nb)
			e.parSgemm(blas.Trans, blas.NoTrans, e.kk, F, rows, a, e.kk, d32, F, 0, e.dk32, F)
			add32(dk, e.dk32)
		}
		if dIn != nil {
			dx := dIn[b0*e.inSize : (b0+nb)*e.inSize]
			c := e.col32[:rows*e.kk]
			e.colValid = false
			e.parSgemm(blas.NoTrans, blas.Trans, rows, e.kk, F, d32, F, e.w32, F, 0, c, e.kk)
			e.w.run(nb, len(c), func(lo, hi int) {
				col2im32(&e.g, dx[lo*e.inSize:hi*e.inSize], c[lo*e.p*e.kk:hi*e.p*e.kk], hi-lo)
			})
		}
	}
}

// fillCol32 is fillCol for the float32 column matrix.
func (e *convExec) fillCol32(col []float32, x []float64, nb int) {
	if e.colValid && e.cachedN == len(x) && &x[0] == e.cachedX {
		return
	}
	e.w.run(nb, len(col), func(lo, hi int) {
		im2col32(&e.g, col[lo*e.p*e.kk:hi*e.p*e.kk], x[lo*e.inSize:hi*e.inSize], hi-lo)
	})
	e.colValid, e.cachedX, e.cachedN = true, &x[0], len(x)
}

// im2col32 is im2col writing float32.
func im2col32(g *convGeom, col []float32, x []float64, nb int) { im2colTo(g, col, x, nb, to32) }

// col2im32 is col2im from a float32 column matrix.
func col2im32(g *convGeom, dx []float64, col []float32, nb int) { col2imFrom(g, dx, col, nb, add32) }
