package stream

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestActivationExpressions evaluates statestream's activation forms
// against their closed forms, and their derivatives against central
// differences (h = 1e-6: truncation O(h²) ≈ 1e-12, rounding O(ε/h) ≈
// 1e-10; tolerance 1e-7 relative).
func TestActivationExpressions(t *testing.T) {
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	for _, tc := range []struct {
		act  string
		name string // the plain activation it equals ("" none)
		f    func(x float64) float64
	}{
		{"$**2 + B.tanh($)", "", func(x float64) float64 { return x*x + math.Tanh(x) }},
		{"B.exp($) * B.sigmoid($)", "", func(x float64) float64 { return math.Exp(x) * sig(x) }},
		{"B.relu($, thresh=0.5)", "", func(x float64) float64 { return max(x-0.5, 0) }},
		{"B.relu($, 0.5)", "", func(x float64) float64 { return max(x-0.5, 0) }},
		{"B.relu($)", "relu", func(x float64) float64 { return max(x, 0) }},
		{"relu", "relu", func(x float64) float64 { return max(x, 0) }},
		{"leakyrelu", "leakyrelu", func(x float64) float64 { return max(x, 0.1*x) }},
		{"B.leakyrelu($, leak=0.2)", "", func(x float64) float64 { return max(x, 0.2*x) }},
		{"-$**2", "", func(x float64) float64 { return -x * x }},
		{"2**-$", "", func(x float64) float64 { return math.Pow(2, -x) }},
		{"($ - 1) / (1 + B.square($))", "", func(x float64) float64 { return (x - 1) / (1 + x*x) }},
		{"B.elu($, alpha=0.5)", "", func(x float64) float64 {
			if x > 0 {
				return x
			}
			return 0.5 * (math.Exp(x) - 1)
		}},
		{"B.maximum($, 0.3 * $) + B.minimum(B.tanh($), 0.2)", "", func(x float64) float64 { return max(x, 0.3*x) + min(math.Tanh(x), 0.2) }},
		{"B.neglog($)", "neglog", func(x float64) float64 { return -math.Log(max(x, 1e-6)) }},
		{"B.erf($) + B.sqrt($)", "", func(x float64) float64 { return math.Erf(x) + math.Sqrt(max(x, 0)) }},
		{"spiky", "", func(x float64) float64 {
			switch {
			case x < 0 || x >= 2:
				return 0
			case x > 1:
				return 4 + 1e-8
			}
			return x
		}},
		{"B.spiky($, threshold=0.5, saturation=1.5)", "", func(x float64) float64 {
			switch {
			case x < 0 || x >= 1.5:
				return 0
			case x > 0.5:
				return 3 + 1e-8
			}
			return x
		}},
	} {
		name, fn, err := compiledAct(tc.act)
		if err != nil || fn == nil {
			t.Errorf("%q: %v", tc.act, err)
			continue
		}
		if name != tc.name {
			t.Errorf("%q: name %q, want %q", tc.act, name, tc.name)
		}
		for _, x := range []float64{-1.7, -0.45, 0.25, 0.8, 1.3, 2.6} {
			y, dy := fn(x)
			if w := tc.f(x); math.Abs(y-w) > 1e-12*max(1, math.Abs(w)) {
				t.Errorf("%q at %g = %.15g, want %.15g", tc.act, x, y, w)
			}
			const h = 1e-6
			num := (tc.f(x+h) - tc.f(x-h)) / (2 * h)
			if math.Abs(dy-num) > 1e-7*max(1, math.Abs(num)) {
				t.Errorf("%q: derivative at %g = %.12g, numeric %.12g", tc.act, x, dy, num)
			}
		}
	}
	// softmax is not elementwise: only as the whole activation
	if name, fn, err := compiledAct("B.softmax($)"); name != "softmax" || fn != nil || err != nil {
		t.Errorf("B.softmax($): %q, %v, %v", name, fn != nil, err)
	}
}

// TestActivationErrors: anything outside the grammar is an error naming
// the column and the reason; nothing is executed.
func TestActivationErrors(t *testing.T) {
	for _, tc := range []struct{ act, want string }{
		{"rleu", `unknown activation "rleu"`},
		{"__import__('os').system('ls')", "column 12: unexpected character"},
		{"$ + os.system(1)", `column 5: unknown name "os"`},
		{"tanh($)", `column 1: write B.tanh(…)`},
		{"B.foo($)", `column 3: B.foo is not an elementwise backend function`},
		{"B.softmax($) * 2", "B.softmax couples the features"},
		{"B.relu($, thresh=$)", "parameter thresh of B.relu must be a number"},
		{"B.relu($, tresh=1)", `B.relu has no parameter "tresh" (parameters: thresh)`},
		{"B.relu($, 1, 2)", "B.relu takes 2 argument(s), got more"},
		{"B.clip($, -0.5, min_value=-1)", "parameter min_value of B.clip given twice"},
		{"B.clip($)", "B.clip needs parameter min_value"},
		{"B.minimum($)", "B.minimum needs 2 input(s), got 1"},
		{"(2 * 3)", "does not use its input $"},
		{"($ + 1", `expected ")"`},
		{"$ $", `unexpected "$"`},
		{strings.Repeat("(", 200) + "$" + strings.Repeat(")", 200), "nested too deeply"},
	} {
		_, _, err := compiledAct(tc.act)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.act, err, tc.want)
		}
	}
}

// TestActFuncMethods: the executor's view of a loaded file's activations.
func TestActFuncMethods(t *testing.T) {
	n, err := Load("testdata/activations.st_graph", LoadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pool, name  string
		elementwise bool
	}{
		{"x", "Id", true}, {"explicit1", "", true}, {"soft", "softmax", false}, {"spiky", "", true},
	} {
		name, fn, err := n.Pool(c.pool).ActFunc()
		if err != nil || name != c.name || (fn != nil) != c.elementwise {
			t.Errorf("%s: ActFunc = %q, elementwise %v, %v; want %q, %v", c.pool, name, fn != nil, err, c.name, c.elementwise)
		}
	}
	sp := n.SP("x_scaled")
	if _, fn, err := sp.PactFunc(0, 0); err != nil || fn == nil {
		t.Fatalf("x_scaled pact: %v", err)
	} else if y, dy := fn(0); y != 0.5 || dy != -2 {
		t.Errorf("x_scaled pact at 0 = %g, %g; want 0.5, -2", y, dy)
	}
	if _, _, ok := sp.PreActivation(0, 0); ok {
		t.Error("PreActivation reads an expression it cannot represent")
	}
	if name, _, err := sp.ACTFunc(); name != "" || err != nil {
		t.Errorf("x_scaled ACT: %q, %v", name, err)
	}
	if name, _, err := sp.ActFunc(0); name != "Id" || err != nil {
		t.Errorf("x_scaled act: %q, %v", name, err)
	}
	bad := strings.Replace(mustRead(t, "testdata/activations.st_graph"), "act: $**2 + B.tanh($)", "act: $**2 + tanh($)", 1)
	if _, err := Parse([]byte(bad), "a.st_graph", LoadOptions{}); err == nil ||
		!strings.Contains(err.Error(), `a.st_graph:11:9: neuron_pools.explicit1.act: activation "$**2 + tanh($)", column 8: write B.tanh(…)`) {
		t.Errorf("bad expression: %v", err)
	}
}

// TestNewKeys reads unshare, factor_shapes, target_shapes and the
// parameter bounds from the test files, and rejects what does not fit.
func TestNewKeys(t *testing.T) {
	n, err := Load("testdata/unshare.st_graph", LoadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if u := n.Pool("hidden").Unshare; !reflect.DeepEqual(u, []string{"b"}) || !n.Pool("hidden").Unshared("b") {
		t.Errorf("hidden unshare %v", u)
	}
	if u := n.SP("hid_code").Unshare; !reflect.DeepEqual(u, []string{"W_0_0", "b_0"}) {
		t.Errorf("hid_code unshare %v", u)
	}
	if u := n.SP("code_error").Unshare; !reflect.DeepEqual(u, []string{"W_0_0"}) {
		t.Errorf("code_error unshare %v (a single name)", u)
	}
	f, err := Load("testdata/factor_shapes.st_graph", LoadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	sp := f.SP("mixed")
	if sp.FactorShape(0) != "full" || sp.TargetShape(0, 1) != "spatial" || f.SP("spatial_scalar").TargetShape(1, 0) != "scalar" {
		t.Errorf("shapes: %v %v", sp.FactorShapes, sp.TargetShapes)
	}
	shapes, _ := f.SP("full_feature").ParamShapes(f)
	if !reflect.DeepEqual(shapes["W_1_0"], []int{36, 2}) || !reflect.DeepEqual(shapes["W_0_0"], []int{3, 3, 1, 2}) {
		t.Errorf("full_feature shapes %v", shapes)
	}
	b, err := Load("testdata/bounds.st_graph", LoadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if c := b.SP("clipped"); c.Min["W_0_0"] != -1 || c.Max["W_0_0"] != 2 {
		t.Errorf("bounds %v %v", c.Min, c.Max)
	}
	for _, tc := range []struct {
		file, old, new, want string
	}{
		{"unshare", "unshare: [b]", "unshare: [c]", `neuron_pools.hidden.unshare: a neuron-pool's parameters are b and g, not "c"`},
		{"unshare", "unshare: [W_0_0, b_0]", "unshare: [W_0_1]", `synapse_pools.hid_code.unshare: synapse-pool "hid_code" has no parameter "W_0_1"`},
		{"unshare", "        share params:", "        unshare: [W_0_0]\n        share params:", `synapse_pools.code_pred.unshare: W_0_0 is shared from "code_error"`},
		{"factor_shapes", "factor_shapes: [full, feature]", "factor_shapes: [full, featur]", `unknown factor shape "featur" (full, feature, spatial or scalar) (did you mean "feature"?)`},
		{"factor_shapes", "factor_shapes: [full, feature]", "factor_shapes: [full]", "factor_shapes has 1 factors, source has 2"},
		{"factor_shapes", "rf: [[3], [0]]\n        act", "rf: [[3], [3]]\n        act", "summand 0 of factor 1 has shape feature: it is dense (rf 0), got rf 3"},
		{"factor_shapes", "target_shapes: [[full, spatial]]", "target_shapes: [[spatial, full]]\n        factor_shapes: [spatial]", "summand 1 of factor 0 has target shape full, which does not fit its factor's shape spatial"},
		{"factor_shapes", "target_shapes: [[full, spatial]]", "target_shapes: [[full, spatail]]", `unknown target shape "spatail" (full, feature, spatial or scalar) (did you mean "spatial"?)`},
		{"factor_shapes", "target_shapes: [[full, spatial]]", "target_shapes: [[full]]", "target_shapes factor 0 has 1 entries, source has 2"},
		{"factor_shapes", "target_shapes: [[full, spatial]]", "target_shapes: [[full, spatial]]\n        weight_fnc: [[Id, sqaure]]", `unknown weight function "sqaure" (did you mean "square"?)`},
		{"factor_shapes", "target_shapes: [[full, spatial]]", "target_shapes: [[full, spatial]]\n        weight_fnc: [[Id]]", "weight_fnc factor 0 has 1 entries, source has 2"},
		{"factor_shapes", "bias_shapes: [spatial, scalar]", "bias_shapes: [spatial, feature]", "factor 1: a feature bias does not fit the factor's shape scalar"},
		{"bounds", "min W_0_0: -1.0", "min W_0_0: 3.0", "min 3 > max 2"},
		{"bounds", "max W_0_0: 2.0", "max P_0_0: 2.0", `synapse_pools.clipped.max P_0_0: synapse-pool "clipped" has no parameter "P_0_0"`},
	} {
		src := mustRead(t, "testdata/"+tc.file+".st_graph")
		if !strings.Contains(src, tc.old) {
			t.Fatalf("%s lacks %q", tc.file, tc.old)
		}
		_, err := Parse([]byte(strings.Replace(src, tc.old, tc.new, 1)), tc.file, LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s with %q: error %v, want %q", tc.file, tc.new, err, tc.want)
		}
	}
}

// TestNetString: printing a loaded Net shows its summary and the loader's
// warnings (the kernel shows a Net that is a cell's result this way).
func TestNetString(t *testing.T) {
	n, err := Load(compatFile, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := n.String()
	for _, w := range []string{"layerwise-parallel network compat: 4 agents, 6 neuron-pools, 8 synapse-pools, 1 plasticity, 1 interface",
		"5 warnings:", `testdata/compat.st_graph:7:1: rollout_factor: unknown top-level key "rollout_factor"`} {
		if !strings.Contains(s, w) {
			t.Errorf("String() lacks %q:\n%s", w, s)
		}
	}
	md := n.Markdown()
	if !strings.Contains(md, "5 warnings (keys ignored") || !strings.Contains(md, "\n    testdata/compat.st_graph:8:1:") {
		t.Errorf("Markdown():\n%s", md)
	}
	quiet, err := Load("testdata/bounds.st_graph", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := quiet.String(); strings.Contains(s, "warning") {
		t.Errorf("a file without warnings: %s", s)
	}
	// neurogo's own paths that load a network file (neurogo repro) load
	// the Demonstration: it has nothing to warn about.
	d, err := Demonstration(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 0 {
		t.Errorf("Demonstration warns: %v", d.Warnings)
	}
}
