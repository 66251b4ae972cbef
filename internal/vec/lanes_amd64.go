//go:build goexperiment.simd && amd64

package vec

import "unsafe"

//go:noescape
func dotLanes4(w *float64, stride, rows, n16, tail int, x, out *[4]*float64)

//go:noescape
func dotLanes5(w *float64, stride, rows, n16, tail int, x, out *[5]*float64)

// dotRowsLanes4 is DotRows for four inputs sharing the matrix.
func dotRowsLanes4(out *[4][]float64, w []float64, nx int, x *[4][]float64) {
	rows := len(out[0])
	if !avx512 || nx < 16 || nx%8 != 0 || rows == 0 {
		for l := range 4 {
			dotRows(out[l], w, nx, nil, x[l])
		}
		return
	}
	_ = w[rows*nx-1]
	var xp, op [4]*float64
	for l := range 4 {
		xp[l] = unsafe.SliceData(x[l][:nx])
		op[l] = unsafe.SliceData(out[l][:rows])
	}
	n16 := nx &^ 15
	dotLanes4(unsafe.SliceData(w), nx, rows, n16, (nx-n16)/8, &xp, &op)
}

// dotRowsLanes5 is DotRows for five inputs sharing the matrix.
func dotRowsLanes5(out *[5][]float64, w []float64, nx int, x *[5][]float64) {
	rows := len(out[0])
	if !avx512 || nx < 16 || nx%8 != 0 || rows == 0 {
		for l := range 5 {
			dotRows(out[l], w, nx, nil, x[l])
		}
		return
	}
	_ = w[rows*nx-1]
	var xp, op [5]*float64
	for l := range 5 {
		xp[l] = unsafe.SliceData(x[l][:nx])
		op[l] = unsafe.SliceData(out[l][:rows])
	}
	n16 := nx &^ 15
	dotLanes5(unsafe.SliceData(w), nx, rows, n16, (nx-n16)/8, &xp, &op)
}
