package layers

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// maxColBytes bounds the im2col buffer of one convolution Exec; larger
// batches are processed in chunks of whole examples. Chunks that stay in the
// last-level cache between im2col, the GEMMs and col2im measured faster than
// 64 MiB ones (BenchmarkConv2DMNIST on 2 cores: about 0.6 s against 0.8 s with
// OpenBLAS, 2.7 s against 2.8 s with gonum's native BLAS).
var maxColBytes = 8 << 20

// maxCol32Bytes is maxColBytes for the float32 column matrix
// (SetFloat32). Measured on the spiking-MNIST convolutions at minibatch
// 200 on 2 cores with OpenBLAS (forward / backward of conv64 on 26×26×32,
// ms per minibatch): 4 MiB 39.5 / 78.6, 16 MiB 33.7 / 71.0, 32 MiB
// 42.6 / 80.4, 100 MiB 45.8 / 81.4 (PyTorch's oneDNN: 19.0 / 41.7).
var maxCol32Bytes = 16 << 20

// Conv1D is a 1-D convolution over (L, C) inputs giving (OL, Filters)
// (Keras Conv1D, linear activation). Kernel (Kernel, C, Filters) is
// glorot_uniform with fan_in = Kernel·C, fan_out = Kernel·Filters; bias zeros.
// Stride and Dilation default to 1, Padding to "valid"; "same" and "causal"
// (left padding by (Kernel-1)·Dilation) are as in Keras.
type Conv1D struct {
	Filters  int
	Kernel   int
	Stride   int
	Padding  string
	Dilation int
	NoBias   bool
}

// Conv2D is a 2-D convolution over (H, W, C) inputs giving (OH, OW, Filters)
// (Keras Conv2D, linear activation). Kernel holds 1 value (square) or 2
// (KH, KW); Strides and Dilation default to 1; Padding is "valid" (default)
// or "same" (TensorFlow's: out = ceil(in/stride), the odd padding element
// after). The kernel (KH, KW, C, Filters) is glorot_uniform with
// fan_in = KH·KW·C and fan_out = KH·KW·Filters; bias zeros.
type Conv2D struct {
	Filters  int
	Kernel   []int
	Strides  []int
	Padding  string
	Dilation []int
	NoBias   bool
}

// convGeom is the geometry of a 2-D convolution (a 1-D one has H = KH = 1).
type convGeom struct {
	H, W, C, F     int
	KH, KW, SH, SW int
	DH, DW, PT, PL int
	OH, OW         int
}

// Build implements Spec.
func (s Conv1D) Build(in []int, seed int64) (Layer, error) {
	const kind = "Conv1D"
	if err := checkShape(kind, in); err != nil {
		return nil, err
	}
	if len(in) != 2 {
		return nil, errf(kind, "in", in, "want a rank-2 input (L, C)")
	}
	if s.Filters <= 0 {
		return nil, errf(kind, "Filters", s.Filters, "must be positive")
	}
	if s.Kernel <= 0 {
		return nil, errf(kind, "Kernel", s.Kernel, "must be positive")
	}
	st, err := ints(kind, "Stride", []int{s.Stride}, 1, 1, true)
	if err != nil {
		return nil, errf(kind, "Stride", s.Stride, "must be positive")
	}
	dil, err := ints(kind, "Dilation", []int{s.Dilation}, 1, 1, true)
	if err != nil {
		return nil, errf(kind, "Dilation", s.Dilation, "must be positive")
	}
	pad, err := normPadding(kind, s.Padding, true)
	if err != nil {
		return nil, err
	}
	g := convGeom{H: 1, W: in[0], C: in[1], F: s.Filters, KH: 1, KW: s.Kernel, SH: 1, SW: st[0], DH: 1, DW: dil[0]}
	g.OH = 1
	var ok bool
	g.OW, g.PL, ok = window(g.W, g.KW, g.SW, g.DW, pad)
	if !ok {
		if g.DW > 1 {
			return nil, errf(kind, "Kernel", s.Kernel, "dilated to %d, larger than the padded input (%d)", (g.KW-1)*g.DW+1, g.W)
		}
		return nil, errf(kind, "Kernel", s.Kernel, "larger than the padded input (%d)", g.W)
	}
	l := &convLayer{base: base{kind: kind, in: []int{in[0], in[1]}, out: []int{g.OW, g.F}, spec: s}, g: g, noBias: s.NoBias}
	k := g.KW * g.C
	l.params = append(l.params, Param{Name: "kernel", Role: RoleKernel, Shape: []int{g.KW, g.C, g.F}, Value: glorotUniform(k*g.F, k, g.KW*g.F, seed), Trainable: true})
	if !s.NoBias {
		l.params = append(l.params, Param{Name: "bias", Role: RoleBias, Shape: []int{g.F}, Value: make([]float64, g.F), Trainable: true})
	}
	return l, nil
}

// Build implements Spec.
func (s Conv2D) Build(in []int, seed int64) (Layer, error) {
	const kind = "Conv2D"
	if err := checkShape(kind, in); err != nil {
		return nil, err
	}
	if len(in) != 3 {
		return nil, errf(kind, "in", in, "want a rank-3 input (H, W, C)")
	}
	if s.Filters <= 0 {
		return nil, errf(kind, "Filters", s.Filters, "must be positive")
	}
	if len(s.Kernel) == 0 {
		return nil, errf(kind, "Kernel", s.Kernel, "must be given (1 or 2 values)")
	}
	ks, err := ints(kind, "Kernel", s.Kernel, 2, 0, false)
	if err != nil {
		return nil, err
	}
	st, err := ints(kind, "Strides", s.Strides, 2, 1, false)
	if err != nil {
		return nil, err
	}
	dil, err := ints(kind, "Dilation", s.Dilation, 2, 1, false)
	if err != nil {
		return nil, err
	}
	pad, err := normPadding(kind, s.Padding, false)
	if err != nil {
		return nil, err
	}
	g := convGeom{H: in[0], W: in[1], C: in[2], F: s.Filters, KH: ks[0], KW: ks[1], SH: st[0], SW: st[1], DH: dil[0], DW: dil[1]}
	var okH, okW bool
	g.OH, g.PT, okH = window(g.H, g.KH, g.SH, g.DH, pad)
	g.OW, g.PL, okW = window(g.W, g.KW, g.SW, g.DW, pad)
	if !okH || !okW {
		if g.DH > 1 || g.DW > 1 {
			return nil, errf(kind, "Kernel", s.Kernel, "dilated to (%d, %d), larger than the padded input (%d, %d)",
				(g.KH-1)*g.DH+1, (g.KW-1)*g.DW+1, g.H, g.W)
		}
		return nil, errf(kind, "Kernel", s.Kernel, "larger than the padded input (%d, %d)", g.H, g.W)
	}
	l := &convLayer{base: base{kind: kind, in: []int{in[0], in[1], in[2]}, out: []int{g.OH, g.OW, g.F}, spec: s}, g: g, noBias: s.NoBias}
	k := g.KH * g.KW * g.C
	l.params = append(l.params, Param{Name: "kernel", Role: RoleKernel, Shape: []int{g.KH, g.KW, g.C, g.F},
		Value: glorotUniform(k*g.F, k, g.KH*g.KW*g.F, seed), Trainable: true})
	if !s.NoBias {
		l.params = append(l.params, Param{Name: "bias", Role: RoleBias, Shape: []int{g.F}, Value: make([]float64, g.F), Trainable: true})
	}
	return l, nil
}

type convLayer struct {
	base
	g      convGeom
	noBias bool
}

func (l *convLayer) String() string {
	g := l.g
	return fmt.Sprintf("%s(%v→%v, kernel %d×%d, strides %d×%d, dilation %d×%d, pad %d,%d)",
		l.kind, l.in, l.out, g.KH, g.KW, g.SH, g.SW, g.DH, g.DW, g.PT, g.PL)
}

func (l *convLayer) NewExec(maxBatch int, seed uint64) (Exec, error) {
	eb, err := l.newExecBase(maxBatch)
	if err != nil {
		return nil, err
	}
	g := l.g
	e := &convExec{execBase: eb, g: g, noBias: l.noBias}
	e.kk = g.KH * g.KW * g.C
	e.p = g.OH * g.OW
	// A 1×1 kernel with unit strides and no padding needs no im2col: the
	// input already is the column matrix.
	e.direct = g.KH == 1 && g.KW == 1 && g.SH == 1 && g.SW == 1 && g.PT == 0 && g.PL == 0
	if !e.direct {
		per := e.p * e.kk * 8
		e.chunk = maxColBytes / per
		if e.chunk < 1 {
			e.chunk = 1
		}
		if e.chunk > maxBatch {
			e.chunk = maxBatch
		}
		e.col = make([]float64, e.chunk*e.p*e.kk)
	} else {
		e.chunk = maxBatch
	}
	e.w = newWorkers()
	e.im2colFn = e.im2colRange
	e.col2imFn = e.col2imRange
	stopWith(e.w, e)
	return e, nil
}

type convExec struct {
	execBase
	g      convGeom
	noBias bool
	kk, p  int // column width KH·KW·C, output pixels OH·OW
	chunk  int // examples per im2col chunk
	// chunk64: chunk for the float64 column matrix (chunk is set from
	// maxCol32Bytes while SetFloat32 is on)
	chunk64 int
	direct  bool
	col     []float64

	// parallel im2col/col2im: the current chunk's operands and the
	// pre-bound range functions (bound once so calls do not allocate)
	w                  *workers
	curCol, curX       []float64
	im2colFn, col2imFn func(lo, hi int)

	// the chunk whose columns are still in col after Forward (reused by
	// Backward): its input slice start and length; colValid false otherwise
	cachedX  *float64
	cachedN  int
	colValid bool

	// float32 products (SetFloat32): the column matrix, a chunk's output
	// or output gradient, the kernel and its gradient
	f32        bool
	col32, o32 []float32
	w32, dk32  []float32
	part       []float64 // per row block bias-gradient sums (float32 backward)
}

func (e *convExec) im2colRange(lo, hi int) {
	e.g.im2col(e.curCol[lo*e.p*e.kk:hi*e.p*e.kk], e.curX[lo*e.inSize:hi*e.inSize], hi-lo)
}

func (e *convExec) col2imRange(lo, hi int) {
	e.g.col2im(e.curX[lo*e.inSize:hi*e.inSize], e.curCol[lo*e.p*e.kk:hi*e.p*e.kk], hi-lo)
}

// fillCol writes the columns of the nb examples x into col (in parallel).
func (e *convExec) fillCol(col, x []float64, nb int) {
	if e.colValid && e.cachedN == len(x) && &x[0] == e.cachedX {
		return
	}
	e.curCol, e.curX = col, x
	e.w.run(nb, len(col), e.im2colFn)
	e.curCol, e.curX = nil, nil
	e.colValid, e.cachedX, e.cachedN = true, &x[0], len(x)
}

// scatterCol adds the column gradients col onto dx (in parallel).
func (e *convExec) scatterCol(dx, col []float64, nb int) {
	e.curCol, e.curX = col, dx
	e.w.run(nb, len(col), e.col2imFn)
	e.curCol, e.curX = nil, nil
}

func (e *convExec) Forward(params [][]float64, in, out []float64, batch int, training bool) error {
	if err := e.checkForward(params, in, out, batch); err != nil {
		return err
	}
	e.colValid = false // in may hold new values in the same memory
	if e.f32 {
		e.forward32(params, in, out, batch)
		return nil
	}
	impl := blas64.Implementation()
	F := e.g.F
	for b0 := 0; b0 < batch; b0 += e.chunk {
		nb := min(e.chunk, batch-b0)
		rows := nb * e.p
		x := in[b0*e.inSize : (b0+nb)*e.inSize]
		o := out[b0*e.outSize : (b0+nb)*e.outSize]
		a := x
		if !e.direct {
			a = e.col[:rows*e.kk]
			e.fillCol(a, x, nb)
		}
		beta := 0.0
		if !e.noBias {
			bias := params[1]
			for r := 0; r < rows; r++ {
				copy(o[r*F:(r+1)*F], bias)
			}
			beta = 1
		}
		impl.Dgemm(blas.NoTrans, blas.NoTrans, rows, F, e.kk, 1, a, e.kk, params[0], F, beta, o, F)
	}
	return nil
}

func (e *convExec) Backward(params [][]float64, in, out, dOut, dIn []float64, dParams [][]float64, batch int) error {
	if err := e.checkBackward(params, in, out, dOut, dIn, dParams, batch); err != nil {
		return err
	}
	impl := blas64.Implementation()
	F := e.g.F
	dk := dParam(dParams, 0)
	var db []float64
	if !e.noBias {
		db = dParam(dParams, 1)
	}
	if e.f32 {
		e.backward32(params, in, dOut, dIn, dk, db, batch)
		return nil
	}
	// Last chunk first: its columns may still be in col from Forward.
	for b0 := (batch - 1) / e.chunk * e.chunk; b0 >= 0; b0 -= e.chunk {
		nb := min(e.chunk, batch-b0)
		rows := nb * e.p
		x := in[b0*e.inSize : (b0+nb)*e.inSize]
		dO := dOut[b0*e.outSize : (b0+nb)*e.outSize]
		if db != nil {
			colSum(db, dO, rows, F)
		}
		if dk != nil {
			// dKernel += colᵀ·dOut
			a := x
			if !e.direct {
				a = e.col[:rows*e.kk]
				e.fillCol(a, x, nb)
			}
			impl.Dgemm(blas.Trans, blas.NoTrans, e.kk, F, rows, 1, a, e.kk, dO, F, 1, dk, F)
		}
		if dIn != nil {
			dx := dIn[b0*e.inSize : (b0+nb)*e.inSize]
			if e.direct {
				impl.Dgemm(blas.NoTrans, blas.Trans, rows, e.kk, F, 1, dO, F, params[0], F, 1, dx, e.kk)
				continue
			}
			// dCol = dOut·kernelᵀ, then scatter-add (col2im).
			c := e.col[:rows*e.kk]
			e.colValid = false
			impl.Dgemm(blas.NoTrans, blas.Trans, rows, e.kk, F, 1, dO, F, params[0], F, 0, c, e.kk)
			e.scatterCol(dx, c, nb)
		}
	}
	return nil
}

// smallCopy is the segment length below which a loop beats a memmove call
// (the first MNIST layer copies 3 values per kernel row).
const smallCopy = 16

// im2col writes the (nb·OH·OW)×(KH·KW·C) column matrix of nb examples of x:
// row (n, oy, ox), column (ky, kx, c) holds x[n, oy·SH-PT+ky·DH, ox·SW-PL+kx·DW, c]
// or 0 in the padding. The column order matches the kernel's (KH, KW, C, F)
// layout read as a (KH·KW·C)×F matrix.
func (g *convGeom) im2col(col, x []float64, nb int) { im2colTo(g, col, x, nb, copy64) }

// copy64 copies src into dst (a loop for short segments, memmove else).
func copy64(dst, src []float64) {
	if len(dst) <= smallCopy {
		src = src[:len(dst)]
		for j := range dst {
			dst[j] = src[j]
		}
		return
	}
	copy(dst, src)
}

// im2colTo is im2col into a column matrix of either precision: put
// writes one run of x (converted) into col.
func im2colTo[T float32 | float64](g *convGeom, col []T, x []float64, nb int, put func(dst []T, src []float64)) {
	C := g.C
	rowW := g.KW * C
	kk := g.KH * rowW
	inSize := g.H * g.W * C
	i := 0
	for n := 0; n < nb; n++ {
		img := x[n*inSize : (n+1)*inSize]
		for oy := 0; oy < g.OH; oy++ {
			y0 := oy*g.SH - g.PT
			for ox := 0; ox < g.OW; ox++ {
				x0 := ox*g.SW - g.PL
				dst := col[i : i+kk]
				i += kk
				for ky := 0; ky < g.KH; ky++ {
					seg := dst[ky*rowW : (ky+1)*rowW]
					iy := y0 + ky*g.DH
					if iy < 0 || iy >= g.H {
						clear(seg)
						continue
					}
					row := img[iy*g.W*C : (iy+1)*g.W*C]
					if g.DW == 1 && x0 >= 0 && x0+g.KW <= g.W {
						put(seg, row[x0*C:(x0+g.KW)*C])
						continue
					}
					for kx := 0; kx < g.KW; kx++ {
						ix := x0 + kx*g.DW
						s := seg[kx*C : (kx+1)*C]
						if ix < 0 || ix >= g.W {
							clear(s)
						} else {
							put(s, row[ix*C:(ix+1)*C])
						}
					}
				}
			}
		}
	}
}

// col2im adds the column matrix col back onto the images dx (the adjoint of
// im2col).
func (g *convGeom) col2im(dx, col []float64, nb int) { col2imFrom(g, dx, col, nb, addTo) }

// col2imFrom is col2im from a column matrix of either precision: add adds
// one run of col onto dx.
func col2imFrom[T float32 | float64](g *convGeom, dx []float64, col []T, nb int, add func(dst []float64, src []T)) {
	C := g.C
	rowW := g.KW * C
	kk := g.KH * rowW
	inSize := g.H * g.W * C
	i := 0
	for n := 0; n < nb; n++ {
		img := dx[n*inSize : (n+1)*inSize]
		for oy := 0; oy < g.OH; oy++ {
			y0 := oy*g.SH - g.PT
			for ox := 0; ox < g.OW; ox++ {
				x0 := ox*g.SW - g.PL
				src := col[i : i+kk]
				i += kk
				for ky := 0; ky < g.KH; ky++ {
					iy := y0 + ky*g.DH
					if iy < 0 || iy >= g.H {
						continue
					}
					seg := src[ky*rowW : (ky+1)*rowW]
					row := img[iy*g.W*C : (iy+1)*g.W*C]
					if g.DW == 1 && x0 >= 0 && x0+g.KW <= g.W {
						add(row[x0*C:(x0+g.KW)*C], seg)
						continue
					}
					for kx := 0; kx < g.KW; kx++ {
						ix := x0 + kx*g.DW
						if ix < 0 || ix >= g.W {
							continue
						}
						add(row[ix*C:(ix+1)*C], seg[kx*C:(kx+1)*C])
					}
				}
			}
		}
	}
}
