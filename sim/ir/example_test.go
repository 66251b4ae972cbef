package ir_test

import (
	"fmt"

	"github.com/neurogo/neurogo/sim/ir"
)

// An executor implements one Lowerer method per operator type; Lower
// hands it each operator (or each merged group) by its type. Here a
// counter of multiply-adds per step: the recorder's other methods do
// nothing.
type macs struct {
	recorder
	sizes map[int]int // signal sizes
	n     int
}

func (m *macs) DotInc(ops []*ir.DotInc) error {
	for _, o := range ops {
		m.n += m.sizes[o.A]
	}
	return nil
}

func (m *macs) ElementwiseInc(ops []*ir.ElementwiseInc) error {
	for _, o := range ops {
		m.n += m.sizes[o.Y]
	}
	return nil
}

func ExampleLower() {
	// y = W·x + b: signals 0 (x, 3 values), 1 (W, 2×3), 2 (y, 2), 3 (b, 2)
	ops := []ir.Op{
		&ir.Copy{Base: ir.Base{Tag: "bias", Sets: []int{2}, Reads: []int{3}}, X: 3, Y: 2},
		&ir.DotInc{Base: ir.Base{Tag: "weights", Incs: []int{2}, Reads: []int{1, 0}}, A: 1, X: 0, Y: 2, Bias: ir.None},
	}
	m := &macs{sizes: map[int]int{0: 3, 1: 6, 2: 2, 3: 2}}
	for _, op := range ops {
		if err := ir.Lower(m, op); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(op)
	}
	fmt.Println("multiply-adds per step:", m.n)
	// Output:
	// Copy(bias)
	// DotInc(weights)
	// multiply-adds per step: 6
}
