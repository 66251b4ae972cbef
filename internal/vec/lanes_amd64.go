//go:build amd64 && !purego

package vec

import "unsafe"

//go:noescape
func dotLanes4(w *float64, stride, rows, n16, tail int, x, out *[4]*float64)

//go:noescape
func dotLanes5(w *float64, stride, rows, n16, tail int, x, out *[5]*float64)

// dotRowsGroup is DotRows for four or five inputs sharing the matrix
// (len(out) == len(x)), in one assembly call.
func dotRowsGroup(out [][]float64, w []float64, nx int, x [][]float64) {
	rows := len(out[0])
	if lvl != levelAVX512 || nx < 16 || nx%8 != 0 || rows == 0 {
		for l := range out {
			dotRows(out[l], w, nx, nil, x[l])
		}
		return
	}
	_ = w[rows*nx-1]
	var xp, op [5]*float64
	for l := range out {
		xp[l] = unsafe.SliceData(x[l][:nx])
		op[l] = unsafe.SliceData(out[l][:rows])
	}
	n16 := nx &^ 15
	if len(out) == 5 {
		dotLanes5(unsafe.SliceData(w), nx, rows, n16, (nx-n16)/8, &xp, &op)
		return
	}
	dotLanes4(unsafe.SliceData(w), nx, rows, n16, (nx-n16)/8, (*[4]*float64)(xp[:4]), (*[4]*float64)(op[:4]))
}
