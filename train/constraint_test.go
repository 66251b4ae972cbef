package train_test

import (
	"math"
	"testing"

	"github.com/neurogo/neurogo/accel/analog"
	"github.com/neurogo/neurogo/toolkit"
	"github.com/neurogo/neurogo/toolkit/layers"
	"github.com/neurogo/neurogo/train"
	"github.com/neurogo/neurogo/train/loss"
	"github.com/neurogo/neurogo/train/optim"
)

// varRecorder records the vars the trainer hands its optimiser.
type varRecorder struct {
	optim.Optimizer
	vars []*optim.Var
}

func (r *varRecorder) Step(vars []*optim.Var, step int) error {
	r.vars = vars
	return r.Optimizer.Step(vars, step)
}

// fitOnce trains net for one batch of one example with SGD at rate lr
// towards target and returns the model.
func fitOnce(t *testing.T, net *toolkit.Network, in *toolkit.Node, out *toolkit.Probe, x, y []float64,
	opt optim.Optimizer, reg *loss.Regularizer) *train.Model {
	t.Helper()
	m, err := train.New(net)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Compile(train.Config{Optimizer: opt, Regularizer: reg,
		Loss: map[*toolkit.Probe]loss.Loss{out: loss.MSE{}}}); err != nil {
		t.Fatal(err)
	}
	xa, _ := train.ArrayFromRows([][]float64{x}, 1)
	ya, _ := train.ArrayFromRows([][]float64{y}, 1)
	if _, err := m.Fit(map[*toolkit.Node]*train.Array{in: xa}, map[*toolkit.Probe]*train.Array{out: ya},
		train.FitOptions{Epochs: 1, BatchSize: 1}); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAnalogKernelClamped: with the hardware in the loop the analog
// kernels stay within ±63 after a step that pushes them past it (the
// hxtorch paper's clamp_weight_, declared by the layer as its kernel's
// constraint and applied by the trainer after every optimiser step).
func TestAnalogKernelClamped(t *testing.T) {
	mock, err := analog.New(analog.MockConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, sys := range []*analog.System{nil, mock} {
		net := toolkit.New("clamp", 1)
		in := net.Const("in", make([]float64, 8)...)
		l, err := net.Layer("lin", in, analog.Linear{Units: 2, System: sys}, 8)
		if err != nil {
			t.Fatal(err)
		}
		out := net.Probe("out", l, "")
		x := []float64{31, 31, 31, 31, 31, 31, 31, 31}
		before, _ := func() ([]float64, error) {
			m, err := train.New(net)
			if err != nil {
				return nil, err
			}
			return m.Param("lin.kernel")
		}()
		m := fitOnce(t, net, in, out, x, []float64{1e6, -1e6}, &optim.SGD{LR: 1e3}, nil)
		w, err := m.Param("lin.kernel")
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := 0.0, 0.0
		for i, v := range w {
			if math.Abs(v) > analog.WeightMax {
				t.Fatalf("system %v: lin.kernel[%d] = %v after the step, outside ±%v: the constraint was not applied",
					sys != nil, i, v, analog.WeightMax)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
		// the step did push the weights to the bounds (the test is not vacuous)
		if lo != -analog.WeightMax || hi != analog.WeightMax {
			t.Errorf("system %v: kernel in [%v, %v] (initially %v), want the step to reach both bounds",
				sys != nil, lo, hi, before)
		}
	}
}

// TestParamDeclarations: the trainer hands the optimiser each layer
// parameter's declaration (Role, Constraint) and owner node, applies
// declared constraints after the step and regularises by Role, not by
// name.
func TestParamDeclarations(t *testing.T) {
	// out = a·in + b·in, element-wise; a is a bounded "kernel", b is named
	// "kernel" but declares no role
	fwd := func(p [][]float64, in, out []float64, batch int) error {
		for i := range out {
			out[i] = (p[0][i%2] + p[1][i%2]) * in[i]
		}
		return nil
	}
	bwd := func(p [][]float64, in, out, dOut, dIn []float64, dP [][]float64, batch int) error {
		for i := range dOut {
			if dIn != nil {
				dIn[i] += (p[0][i%2] + p[1][i%2]) * dOut[i]
			}
			for k := range 2 {
				if dP[k] != nil {
					dP[k][i%2] += in[i] * dOut[i]
				}
			}
		}
		return nil
	}
	build := func() (*toolkit.Network, *toolkit.Node, *toolkit.Node, *toolkit.Probe) {
		net := toolkit.New("decl", 1)
		in := net.Const("in", 0, 0)
		f := layers.Func{Kind: "Scale", Out: []int{2}, Forward: fwd, Backward: bwd, Params: []layers.Param{
			{Name: "a", Role: layers.RoleKernel, Shape: []int{2}, Value: []float64{0, 0}, Trainable: true,
				Constraint: layers.Bounds{Lo: -0.5, Hi: 0.5}},
			{Name: "kernel", Shape: []int{2}, Value: []float64{0, 0}, Trainable: true},
		}}
		n, err := net.Layer("scale", in, f, 2)
		if err != nil {
			t.Fatal(err)
		}
		return net, in, n, net.Probe("out", n, "")
	}
	net, in, node, out := build()
	rec := &varRecorder{Optimizer: &optim.SGD{LR: 10}}
	m := fitOnce(t, net, in, out, []float64{1, 1}, []float64{5, -5}, rec, nil)
	a, _ := m.Param("scale.a")
	k, _ := m.Param("scale.kernel")
	if a[0] != 0.5 || a[1] != -0.5 {
		t.Errorf("scale.a = %v, want [0.5 -0.5] (clamped by its Bounds)", a)
	}
	if k[0] != 50 || k[1] != -50 {
		t.Errorf("scale.kernel = %v, want [50 -50] (no constraint)", k)
	}
	layerVars := 0
	for _, v := range rec.vars {
		if v.Kind != "Scale" {
			// the connection into the layer: no layer declaration
			if _, ok := v.Owner.(*toolkit.Connection); !ok || v.Param != nil {
				t.Errorf("%s: owner %v, param %v, want a connection and none", v.Name, v.Owner, v.Param)
			}
			continue
		}
		layerVars++
		if v.Owner != any(node) || v.Param == nil {
			t.Fatalf("%s: owner %v, param %v, want the layer's node and its declaration", v.Name, v.Owner, v.Param)
		}
		want := map[string]layers.Role{"scale.a": layers.RoleKernel, "scale.kernel": layers.RoleOther}[v.Name]
		if v.Param.Role != want || (v.Param.Constraint != nil) != (want == layers.RoleKernel) {
			t.Errorf("%s: role %v, constraint %v", v.Name, v.Param.Role, v.Param.Constraint)
		}
	}
	if layerVars != 2 {
		t.Errorf("%d vars of the layer, want 2", layerVars)
	}

	// L2 with SGD at rate 0: the penalty of a parameter set to
	// [0.25 0.25] is in the loss for "a" (role kernel) only, beside the
	// penalty of the connection's weights (name "": that alone)
	lossWith := func(name string) float64 {
		net, in, _, out := build()
		m, err := train.New(net)
		if err != nil {
			t.Fatal(err)
		}
		if name != "" {
			if err := m.SetParam(name, []float64{0.25, 0.25}); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.Compile(train.Config{Optimizer: &optim.SGD{LR: 0}, Regularizer: &loss.Regularizer{L2: 1},
			Loss: map[*toolkit.Probe]loss.Loss{out: loss.MSE{}}}); err != nil {
			t.Fatal(err)
		}
		xa, _ := train.ArrayFromRows([][]float64{{0, 0}}, 1)
		ya, _ := train.ArrayFromRows([][]float64{{0, 0}}, 1)
		h, err := m.Fit(map[*toolkit.Node]*train.Array{in: xa}, map[*toolkit.Probe]*train.Array{out: ya},
			train.FitOptions{Epochs: 1, BatchSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		return h.Series("loss")[0]
	}
	base := lossWith("")
	for name, want := range map[string]float64{"scale.a": 2 * 0.25 * 0.25, "scale.kernel": 0} {
		if got := lossWith(name) - base; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = [0.25 0.25]: penalty %v, want %v (L2 on RoleKernel parameters only)", name, got, want)
		}
	}
}
