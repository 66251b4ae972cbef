package build

import (
	"testing"

	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/solvers"
)

// The memory estimate counts what the builder allocates, not more: an
// element-wise connection into 40 000 neurons needs megabytes, not the
// 12.8 GB a 40 000 × 40 000 matrix would; a full weight matrix between
// ensembles counts its neurons squared.
func TestEstimateMemory(t *testing.T) {
	const n = 40_000
	net := toolkit.New("est", 1)
	in := net.Node("in", n, nil)
	e := net.Ensemble("e", n, 1)
	net.Connect(in, e.Neurons())
	total, _, _, _, _ := estimateMemory(net)
	if total > 50e6 {
		t.Errorf("element-wise connection: estimate %s, want under 50 MB", bytesStr(total))
	}
	net2 := toolkit.New("full", 1)
	a := net2.Ensemble("a", 3000, 1)
	b := net2.Ensemble("b", 2000, 1)
	c := net2.Connect(a, b)
	c.Solver = solvers.LstsqL2{Reg: 0.1, W: true}
	total, obj, field, _, objBytes := estimateMemory(net2)
	if objBytes < 8*3000*2000 || obj != c.String() || field != "Transform" || total < objBytes {
		t.Errorf("full weights: largest %s.%s %s (total %s), want the connection's 48 MB", obj, field, bytesStr(objBytes), bytesStr(total))
	}
}
