package toolkit_test

import (
	"fmt"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit"
)

// A sparse transform routes u[0] to v[1] (×2) and u[1] to v[0] (×-1).
func ExampleSparse() {
	net := toolkit.New("net", 0)
	u := net.Const("u", 1, 3)
	v := net.Passthrough("v", 2)
	c := net.Connect(u, v)
	c.Transform = toolkit.Sparse(2, 2, [][2]int{{1, 0}, {0, 1}}, []float64{2, -1})
	c.Synapse = nil // unfiltered: no delay
	p := net.Probe("v", v, "")
	s, err := sim.New(net)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = s.RunSteps(1)
	d, _ := s.Data(p)
	fmt.Println(d[0])
	// Output: [-3 2]
}

// Dense expands a sparse matrix.
func ExampleSparseMatrix_Dense() {
	t := toolkit.Sparse(2, 3, [][2]int{{0, 2}, {1, 0}}, []float64{5, 7})
	fmt.Println(t.Sparse.Dense())
	// Output: [[0 0 5] [7 0 0]]
}

// Validate rejects repeated index pairs (Nengo's result for them depends
// on whether SciPy is installed).
func ExampleSparseMatrix_Validate() {
	m := &toolkit.SparseMatrix{Rows: 2, Cols: 2, Indices: [][2]int{{0, 1}, {0, 1}}, Data: []float64{1, 2}}
	fmt.Println(m.Validate("Connection \"c\"", "Transform.Sparse"))
	// Output: toolkit: Connection "c".Transform.Sparse.Indices[1] = [0 1]: duplicates Indices[0] (Nengo sums duplicates with SciPy and keeps the last without it; give each entry once)
}
