package sim_test

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/sim"
	"github.com/neurogo/neurogo/toolkit/networks"
	"github.com/neurogo/neurogo/toolkit/neurons"
)

// The optimizer merges the operators of a built model into a few groups;
// switching it off gives the same output.
func ExampleOptimize() {
	net, _ := networks.BenchIntegrator(16, 20, 0)
	p := net.AllProbes()[0]
	out := map[string]float64{}
	for _, a := range []sim.Ablation{{Name: "all", Opt: sim.AllOptimizations()}, {Name: "none", Opt: sim.Optimizations{}}} {
		s, err := sim.New(net, sim.Optimize(a.Opt))
		if err != nil {
			fmt.Println(err)
			return
		}
		s.RunSteps(100)
		d, _ := s.Data(p)
		out[a.Name] = d[99][0]
		pl := s.Model().Plan()
		fmt.Printf("%s: %d operators run as %d steps\n", pl.Optimizations, pl.Operators, pl.Groups)
	}
	fmt.Println("same output:", out["all"] == out["none"])
	// Output:
	// simplify+merge+sort: 187 operators run as 13 steps
	// none: 187 operators run as 187 steps
	// same output: true
}

// Ablations lists the rows of the optimizer ablation (the NengoDL paper, Fig 8).
func ExampleAblations() {
	for _, a := range sim.Ablations() {
		fmt.Printf("%-20s %s\n", a.Name, a.Opt)
	}
	// Output:
	// all                  simplify+merge+sort
	// greedy planner       simplify+merge+sort+greedy
	// tree planner         simplify+merge+sort+tree
	// metablock sorter     simplify+merge+sort+metablock
	// unrolled ×10         simplify+merge+sort
	// no merging           simplify+sort
	// no sorting           simplify+merge
	// no simplifications   merge+sort
	// none                 none
}

// Float32 runs in single precision: values differ from float64 by
// rounding.
func ExampleFloat32() {
	net, _ := networks.BenchIntegrator(2, 50, 0)
	for _, e := range net.AllEnsembles() {
		e.NeuronType = neurons.NewRectifiedLinear()
	}
	p := net.AllProbes()[0]
	m, _ := sim.Build(net)
	var last [2]float64
	for i, opts := range [][]sim.Option{nil, {sim.Float32()}} {
		s, _ := sim.NewFromModel(m, opts...)
		s.Run(0.2)
		d, _ := s.Data(p)
		last[i] = d[len(d)-1][0]
		fmt.Println("precision", s.Precision())
	}
	fmt.Println("difference below 1e-5:", math.Abs(last[0]-last[1]) < 1e-5)
	// Output:
	// precision 64
	// precision 32
	// difference below 1e-5: true
}

// Parallel steps the lanes of a minibatch on several goroutines; the
// result does not depend on it.
func ExampleParallel() {
	net, _ := networks.BenchIntegrator(2, 20, 0)
	p := net.AllProbes()[0]
	var last [2]float64
	for i, n := range []int{1, 2} {
		s, _ := sim.New(net, sim.Batch(4), sim.Parallel(n))
		s.RunSteps(50)
		d, _ := s.DataBatch(p)
		last[i] = d[3][49][0]
	}
	fmt.Println("same:", last[0] == last[1])
	// Output: same: true
}

// Optimizations names the passes that are on.
func ExampleOptimizations() {
	o := sim.AllOptimizations()
	o.Sort = false
	fmt.Println(o)
	fmt.Println(sim.Optimizations{})
	// Output:
	// simplify+merge
	// none
}

// Plan reports what the optimizer made of a model.
func ExamplePlan() {
	net, _ := networks.BenchIntegrator(8, 20, 0)
	m, _ := sim.Build(net)
	p := m.Plan()
	fmt.Println(p.Operators > p.Simplified, p.Groups < p.Simplified, p.BytesPerStep > 0)
	// Output: true true true
}

// An Ablation row switches passes off by name.
func ExampleAblation() {
	a := sim.Ablations()[5]
	fmt.Printf("%s: merge=%v\n", a.Name, a.Opt.Merge)
	// Output: no merging: merge=false
}
