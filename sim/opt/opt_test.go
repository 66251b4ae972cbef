package opt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim/ir"
	"github.com/neurogo/neurogo/sim/opt"
)

// chain is y = W·x as the builder emits it (reset, then an increment),
// filtered into z, with time and step, x and W set from outside: signals
// 0 step, 1 time, 2 x (4), 3 W (3×4), 4 y (3), 5 z (3, probed).
func chain() *opt.Model {
	return &opt.Model{
		Signals: []opt.Signal{{Size: 1, Off: 0}, {Size: 1, Off: 1}, {Size: 4, Off: 2}, {Size: 12, Off: 6}, {Size: 3, Off: 18}, {Size: 3, Off: 21}},
		Ops: []ir.Op{
			&ir.TimeUpdate{Base: ir.Base{Tag: "time", Sets: []int{0, 1}}, Step: 0, Time: 1},
			&ir.Reset{Base: ir.Base{Tag: "y", Sets: []int{4}}, Y: 4},
			&ir.DotInc{Base: ir.Base{Tag: "W", Incs: []int{4}, Reads: []int{3, 2}}, A: 3, X: 2, Y: 4, Bias: ir.None},
			&ir.SimSynapse{Base: ir.Base{Tag: "z", Reads: []int{4}, Updates: []int{5}}, X: 4, Y: 5},
		},
		Time: 1, Step: 0, Probed: []int{5},
	}
}

func TestOptimizeSimplifies(t *testing.T) {
	m := chain()
	r, err := opt.Optimize(m, opt.All())
	if err != nil {
		t.Fatal(err)
	}
	// the reset is gone and the product sets y
	var dots []*ir.DotInc
	for _, g := range r.Groups {
		for _, op := range g {
			if _, ok := op.(*ir.Reset); ok {
				t.Errorf("reset left in the plan: %v", r.Groups)
			}
			if d, ok := op.(*ir.DotInc); ok {
				dots = append(dots, d)
			}
		}
	}
	if len(dots) != 1 || !dots[0].Set || len(dots[0].Sets) != 1 || len(dots[0].Incs) != 0 {
		t.Fatalf("product after simplification: %+v", dots)
	}
	if r.Plan.Operators != 4 || r.Plan.Simplified != 3 {
		t.Errorf("plan %v: want 4 operators, 3 after simplification", r.Plan)
	}
	// the input model keeps the builder's operators
	if d := m.Ops[2].(*ir.DotInc); d.Set || len(d.Incs) != 1 {
		t.Errorf("Optimize changed its input: %+v", d)
	}
	if len(r.Offs) != len(m.Signals) || r.Size != 24 {
		t.Errorf("layout: offsets %v, size %d", r.Offs, r.Size)
	}
}

func TestOptimizeErrors(t *testing.T) {
	for _, o := range []opt.Optimizations{{Merge: true, Planner: "best"}, {Sort: true, Sorter: "random"}} {
		if _, err := opt.Optimize(chain(), o); err == nil || !strings.Contains(err.Error(), "want one of") {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func ExampleOptimize() {
	r, err := opt.Optimize(chain(), opt.All())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range r.Groups {
		fmt.Println(g)
	}
	fmt.Println(r.Plan.Operators, "operators,", r.Plan.Simplified, "after simplification")
	// Output:
	// [TimeUpdate(time)]
	// [DotInc(W)]
	// [SimSynapse(z)]
	// 4 operators, 3 after simplification
}
