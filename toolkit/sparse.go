package toolkit

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// SparseMatrix is the matrix of a sparse transform (Nengo's
// nengo.transforms.SparseMatrix): Rows×Cols, zero except at Indices,
// where entry k is Data[k] at (Indices[k][0], Indices[k][1]).
//
// Duplicate index pairs are rejected. Nengo 4.1 leaves them ambiguous:
// with SciPy it builds a CSR matrix, which sums duplicates; without SciPy
// it falls back to a dense array filled by NumPy fancy assignment, where
// the last duplicate wins.
type SparseMatrix struct {
	Rows, Cols int
	Indices    [][2]int
	Data       []float64
}

// Sparse returns a sparse transform of shape rows×cols (size_out ×
// size_in) with data[k] at indices[k] = (row, col)
// (nengo.transforms.Sparse(shape, indices=indices, init=data)). The
// arguments are copied. A connection with a sparse transform builds a
// SparseDotInc operator (Nengo's build_sparse); as in Nengo, it cannot be
// applied to a decoded connection (from an Ensemble) nor learn.
func Sparse(rows, cols int, indices [][2]int, data []float64) Transform {
	return Transform{Sparse: &SparseMatrix{Rows: rows, Cols: cols,
		Indices: append([][2]int(nil), indices...), Data: append([]float64(nil), data...)}}
}

// Dense returns the matrix as dense rows (zeros off Indices).
func (m *SparseMatrix) Dense() [][]float64 {
	out := make([][]float64, max(m.Rows, 0))
	for i := range out {
		out[i] = make([]float64, max(m.Cols, 0))
	}
	for k, ij := range m.Indices {
		if k < len(m.Data) && ij[0] >= 0 && ij[0] < m.Rows && ij[1] >= 0 && ij[1] < m.Cols {
			out[ij[0]][ij[1]] = m.Data[k]
		}
	}
	return out
}

// Validate checks the matrix on its own: positive shape (Nengo's
// ShapeParam low=1), one datum per index pair, indices in range and
// distinct, finite data.
func (m *SparseMatrix) Validate(obj, field string) error {
	if m.Rows < 1 || m.Cols < 1 {
		return &validate.Error{Pkg: "toolkit", Object: obj, Field: field + ".Rows/Cols", Value: fmt.Sprintf("%d×%d", m.Rows, m.Cols), Rule: "must be positive"}
	}
	if len(m.Indices) != len(m.Data) {
		return &validate.Error{Pkg: "toolkit", Object: obj, Field: field + ".Data", Value: fmt.Sprintf("len %d", len(m.Data)),
			Rule: fmt.Sprintf("must have one value per index pair (len(Indices) = %d)", len(m.Indices))}
	}
	seen := make(map[[2]int]int, len(m.Indices))
	for k, ij := range m.Indices {
		if ij[0] < 0 || ij[0] >= m.Rows || ij[1] < 0 || ij[1] >= m.Cols {
			return &validate.Error{Pkg: "toolkit", Object: obj, Field: fmt.Sprintf("%s.Indices[%d]", field, k), Value: ij,
				Rule: fmt.Sprintf("must lie in the %d×%d shape", m.Rows, m.Cols)}
		}
		if j, dup := seen[ij]; dup {
			return &validate.Error{Pkg: "toolkit", Object: obj, Field: fmt.Sprintf("%s.Indices[%d]", field, k), Value: ij,
				Rule: fmt.Sprintf("duplicates Indices[%d] (Nengo sums duplicates with SciPy and keeps the last without it; give each entry once)", j)}
		}
		seen[ij] = k
		if v := m.Data[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			return &validate.Error{Pkg: "toolkit", Object: obj, Field: fmt.Sprintf("%s.Data[%d]", field, k), Value: v, Rule: "must be finite"}
		}
	}
	return nil
}

// validateSparse checks a connection's sparse transform against its
// sizes and Nengo's restrictions (build_sparse, build_connection).
func (c *Connection) validateSparse(sp *SparseMatrix) error {
	o := c.String()
	if c.Transform.Matrix != nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform", Value: "Matrix and Sparse", Rule: "set at most one of Matrix and Sparse"}
	}
	if err := sp.Validate(o, "Transform.Sparse"); err != nil {
		return err
	}
	if post := TargetSize(c.Post, true); sp.Rows != post {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform.Sparse.Rows", Value: sp.Rows, Rule: fmt.Sprintf("must equal the post size %d", post)}
	}
	if pre := TargetSize(c.Pre, false); c.Function == nil && c.Targets == nil && sp.Cols != pre {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform.Sparse.Cols", Value: sp.Cols, Rule: fmt.Sprintf("must equal the pre size %d", pre)}
	}
	if e, ok := c.Pre.Obj().(*Ensemble); ok && (e.NeuronType == nil || e.NeuronType.Name() != "Direct") {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform", Value: "Sparse",
			Rule: "cannot be applied to a decoded connection (from an Ensemble; Nengo's build_sparse refuses it too): connect from its Neurons or use a Dense transform"}
	}
	if c.LearningRule != nil {
		return &validate.Error{Pkg: "toolkit", Object: o, Field: "Transform", Value: "Sparse",
			Rule: fmt.Sprintf("cannot learn (%s): Nengo learns only on Dense transforms", c.LearningRule.Name())}
	}
	return nil
}
