package build

import (
	"fmt"
	"math"
	"sort"
)

// csr is the compressed-sparse-row layout of a sparse transform: row i's
// nonzeros are weights[ptr[i]:ptr[i+1]] at columns col[ptr[i]:ptr[i+1]].
type csr struct {
	ptr, col []int
}

// newCSR sorts cp's sparse entries row-major (in place, so Model.Params
// holds them in the order of the weights signal), checks them and returns
// the row pointers and columns.
func newCSR(o string, cp *ConnectionParams) (*csr, error) {
	nnz := len(cp.Weights)
	if len(cp.Indices) != 2*nnz {
		return nil, objErr(o, "params.Indices", len(cp.Indices), fmt.Sprintf("must hold 2 entries per weight (%d weights)", nnz), nil)
	}
	perm := make([]int, nnz)
	for k := range perm {
		perm[k] = k
		i, j := cp.Indices[2*k], cp.Indices[2*k+1]
		if i < 0 || i >= cp.Rows || j < 0 || j >= cp.Cols {
			return nil, objErr(o, fmt.Sprintf("params.Indices[%d]", k), [2]int{i, j}, fmt.Sprintf("must lie in the %d×%d shape", cp.Rows, cp.Cols), nil)
		}
		if v := cp.Weights[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, objErr(o, fmt.Sprintf("params.Weights[%d]", k), v, "must be finite", nil)
		}
	}
	key := func(k int) (int, int) { return cp.Indices[2*k], cp.Indices[2*k+1] }
	sort.SliceStable(perm, func(a, b int) bool {
		ia, ja := key(perm[a])
		ib, jb := key(perm[b])
		return ia < ib || (ia == ib && ja < jb)
	})
	idx := make([]int, 0, 2*nnz)
	w := make([]float64, 0, nnz)
	s := &csr{ptr: make([]int, cp.Rows+1), col: make([]int, 0, nnz)}
	for n, k := range perm {
		i, j := key(k)
		if n > 0 {
			if pi, pj := key(perm[n-1]); pi == i && pj == j {
				return nil, objErr(o, "params.Indices", [2]int{i, j}, "must not repeat an index pair", nil)
			}
		}
		idx = append(idx, i, j)
		w = append(w, cp.Weights[k])
		s.col = append(s.col, j)
		s.ptr[i+1]++
	}
	for i := range cp.Rows {
		s.ptr[i+1] += s.ptr[i]
	}
	cp.Indices, cp.Weights = idx, w
	return s, nil
}

// sparseOverride applies over (from WithParams) to a sparse connection's
// parameters cp: either sparse (Indices set, same shape) or the dense
// Rows×Cols matrix, which must be zero off cp's pattern.
func sparseOverride(o string, cp, over *ConnectionParams) error {
	if over.Indices != nil {
		if over.Rows != cp.Rows || over.Cols != cp.Cols {
			return objErr(o, "params.Rows/Cols", fmt.Sprintf("%d×%d", over.Rows, over.Cols), fmt.Sprintf("must equal the sparse transform's shape %d×%d", cp.Rows, cp.Cols), nil)
		}
		cp.Indices = append([]int(nil), over.Indices...)
		cp.Weights = append([]float64(nil), over.Weights...)
		return nil
	}
	if len(over.Weights) != cp.Rows*cp.Cols {
		return objErr(o, "params.Weights", len(over.Weights), fmt.Sprintf("must have %d×%d entries (dense) or come with Indices (sparse)", cp.Rows, cp.Cols), nil)
	}
	dense := append([]float64(nil), over.Weights...)
	for k := range cp.Weights {
		p := cp.Indices[2*k]*cp.Cols + cp.Indices[2*k+1]
		cp.Weights[k], dense[p] = dense[p], 0
	}
	for p, v := range dense {
		if v != 0 {
			return objErr(o, "params.Weights", v, fmt.Sprintf("entry (%d, %d) lies off the sparse transform's pattern", p/cp.Cols, p%cp.Cols), nil)
		}
	}
	return nil
}
