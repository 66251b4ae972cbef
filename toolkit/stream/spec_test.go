package stream

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/validate"
)

const demoFile = "testdata/demonstration.st_graph"

func loadDemo(t *testing.T) *Net {
	t.Helper()
	n, err := Load(demoFile, LoadOptions{})
	if err != nil {
		t.Fatalf("Load(%s): %v", demoFile, err)
	}
	return n
}

// TestDemonstration checks the statestream paper's appendix 6.2 file loads
// to the network the paper describes (Fig. 3a).
func TestDemonstration(t *testing.T) {
	n := loadDemo(t)
	if n.Name != "demonstration_example" || n.Agents != 128 || n.Globals["glob_input_size"] != 28 {
		t.Errorf("name %q agents %d globals %v", n.Name, n.Agents, n.Globals)
	}
	pools := []struct {
		name    string
		shape   [3]int
		act     string
		dropout float64
		device  string
	}{
		{"image", [3]int{1, 28, 28}, "Id", 0, ""},
		{"label", [3]int{10, 1, 1}, "Id", 0, ""},
		{"prediction", [3]int{10, 1, 1}, "softmax", 0, ""},
		{"conv1", [3]int{32, 14, 14}, "relu", 0.2, "cuda0"},
		{"conv2", [3]int{64, 7, 7}, "relu", 0.2, "cuda0"},
		{"pred1", [3]int{10, 1, 1}, "softmax", 0, ""},
		{"pred2", [3]int{10, 1, 1}, "softmax", 0, ""},
		{"label_copy", [3]int{10, 1, 1}, "Id", 0, ""},
	}
	if len(n.NeuronPools) != len(pools) {
		t.Fatalf("%d neuron-pools, want %d", len(n.NeuronPools), len(pools))
	}
	for i, w := range pools {
		p := n.NeuronPools[i]
		if p.Name != w.name || p.Shape != w.shape || p.Act != w.act || p.Dropout != w.dropout || p.Device != w.device {
			t.Errorf("pool %d = %s %v %s %g %q, want %+v", i, p.Name, p.Shape, p.Act, p.Dropout, p.Device, w)
		}
		if p.BiasShape != "feature" || p.GainShape != "false" || p.Period != 1 || p.Offset != 0 {
			t.Errorf("pool %s defaults: bias %q gain %q period %d offset %d", p.Name, p.BiasShape, p.GainShape, p.Period, p.Offset)
		}
	}
	sps := []struct {
		name   string
		source [][]string
		target string
		rf     [][]int
		init   map[string]string
	}{
		{"img_c1", [][]string{{"image"}}, "conv1", [][]int{{5}}, nil},
		{"c1_c2", [][]string{{"conv1"}}, "conv2", [][]int{{5}}, nil},
		{"c1_pred", [][]string{{"conv1"}}, "pred1", nil, nil},
		{"c2_pred", [][]string{{"conv2"}}, "pred2", nil, nil},
		{"pred_pred", [][]string{{"pred1", "pred2"}}, "prediction", [][]int{{1, 1}}, map[string]string{"W_0_0": "id", "W_0_1": "id"}},
		{"label_cp", [][]string{{"label"}}, "label_copy", [][]int{{1}}, map[string]string{"W_0_0": "id"}},
	}
	if len(n.SynapsePools) != len(sps) {
		t.Fatalf("%d synapse-pools, want %d", len(n.SynapsePools), len(sps))
	}
	for i, w := range sps {
		s := n.SynapsePools[i]
		if s.Name != w.name || !reflect.DeepEqual(s.Source, w.source) || s.Target != w.target ||
			len(s.RF) != len(w.rf) || (len(w.rf) > 0 && !reflect.DeepEqual(s.RF, w.rf)) ||
			len(s.Init) != len(w.init) || (len(w.init) > 0 && !reflect.DeepEqual(s.Init, w.init)) {
			t.Errorf("sp %d = %s %v→%s rf %v init %v, want %+v", i, s.Name, s.Source, s.Target, s.RF, s.Init, w)
		}
	}
	class := n.Plasticity("class")
	wantClass := &Plasticity{Name: "class", Type: "loss", LossFunction: "categorical_crossentropy",
		Source: "pred1", SourceT: 1, Target: "label_copy", TargetT: 0, LR: 1e-3,
		Optimizer: "adam", Momentum: 0.99, Decay: 0.999, Rho: 0.9, Period: 1,
		Tags: []string{"adam_optimizer"}, Device: "cuda0"}
	if class == nil {
		t.Fatal("no plasticity class")
	}
	got := *class
	got.Pos, got.KeyPos = Pos{}, nil
	wantParams := []ParamRef{{Kind: "sp", Item: "c1_pred", Name: "W_0_0"}}
	params := got.Params
	got.Params = nil
	if !reflect.DeepEqual(&got, wantClass) {
		t.Errorf("class = %+v\nwant    %+v", got, *wantClass)
	}
	checkParams(t, "class", params, wantParams)
	deep := n.Plasticity("deep_class")
	if deep == nil || deep.Source != "pred2" || deep.SourceT != 3 || deep.Target != "label" || deep.LR != 1e-4 || deep.Optimizer != "adam" {
		t.Fatalf("deep_class = %+v", deep)
	}
	checkParams(t, "deep_class", deep.Params, []ParamRef{
		{Kind: "sp", Item: "img_c1", Name: "W_0_0"}, {Kind: "sp", Item: "c1_c2", Name: "W_0_0"},
		{Kind: "sp", Item: "c2_pred", Name: "W_0_0"}, {Kind: "np", Item: "conv2", Name: "b"}})
	it := n.Interface("mnist")
	if it == nil || it.Type != "mnist" || !reflect.DeepEqual(it.In, []string{"mnist_pred"}) ||
		!reflect.DeepEqual(it.Out, []string{"mnist_image", "mnist_label"}) {
		t.Fatalf("interface mnist = %+v", it)
	}
	for name, pool := range map[string]string{"mnist_image": "image", "mnist_label": "label", "mnist_pred": "prediction"} {
		if it.PoolName(name) != pool {
			t.Errorf("remap %s → %s, want %s", name, it.PoolName(name), pool)
		}
	}
	if it.Params["source_file"] != "/opt/dl/data/mnist.pkl.gz" || it.Params["fading"] != 0 {
		t.Errorf("interface params %v", it.Params)
	}
	if n.TagSpecs["hidden"]["act"] != "relu" || n.TagSpecs["adam_optimizer"]["momentum"] != 0.99 {
		t.Errorf("tag specs %v", n.TagSpecs)
	}
	// Positions point at the file.
	if p := n.Pool("conv1").Pos; p.File != demoFile || p.Line != 13 || p.Col != 5 {
		t.Errorf("conv1 at %+v, want %s:13:5", p, demoFile)
	}
}

func checkParams(t *testing.T, name string, got, want []ParamRef) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s params %v, want %v", name, got, want)
	}
	for i := range want {
		g := got[i]
		if g.Kind != want[i].Kind || g.Item != want[i].Item || g.Name != want[i].Name || g.Pos.Line == 0 {
			t.Errorf("%s param %d = %+v, want %+v (with a position)", name, i, g, want[i])
		}
	}
}

// TestDemonstrationRollouts checks the two local rollouts of the appendix
// (the statestream paper, §3.1, Fig. 4).
func TestDemonstrationRollouts(t *testing.T) {
	n := loadDemo(t)
	cases := []struct {
		plast string
		depth int
		at    map[string]int // pool → depth it must be computed at
	}{
		{"class", 1, map[string]int{"pred1": 1, "conv1": 0, "label_copy": 0}},
		{"deep_class", 3, map[string]int{"image": 0, "conv1": 1, "conv2": 2, "pred2": 3, "label": 0}},
	}
	for _, c := range cases {
		r, err := n.Rollout(n.Plasticity(c.plast))
		if err != nil {
			t.Fatalf("%s: %v", c.plast, err)
		}
		if r.Depth != c.depth {
			t.Errorf("%s: depth %d, want %d", c.plast, r.Depth, c.depth)
		}
		for pool, d := range c.at {
			if !r.Needs(pool, d) {
				t.Errorf("%s: rollout %v lacks %s at depth %d", c.plast, r.Pools, pool, d)
			}
		}
	}
}

// TestFutureInput: the variant the statestream paper rejects (§3.1: x_pred2 at δt=4
// with x_label at δt=1) fails, saying why.
func TestFutureInput(t *testing.T) {
	data := mustRead(t, demoFile)
	bad := strings.Replace(data, "source_t: 3\n        target: label\n        target_t: 0",
		"source_t: 4\n        target: label\n        target_t: 1", 1)
	if bad == data {
		t.Fatal("replacement did not apply")
	}
	_, err := Parse([]byte(bad), "future.st_graph", LoadOptions{})
	if err == nil {
		t.Fatal("the future-input variant loaded")
	}
	for _, want := range []string{"future.st_graph:63:5: plasticities.deep_class:", "input from the future", `needs neuron-pool "label" at δt=1`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBadInput: every class of bad input fails in strict mode with a
// precise first error (file:line:col, section.item.key, message).
func TestBadInput(t *testing.T) {
	demo := mustRead(t, demoFile)
	cases := []struct {
		name, old, new string
		want           []string // substrings of the first error
	}{
		{"malformed yaml", "    label:\n        shape: [10, 1, 1]\n    prediction:", "    label:\n        shape: [10, 1, 1\n    prediction:",
			[]string{"bad.st_graph:", "malformed YAML"}},
		{"tab indentation", "    image:\n        shape", "    image:\n\tshape", []string{"bad.st_graph:8:", "malformed YAML"}},
		{"unknown top-level key", "agents: 128", "agents: 128\nneuron_pool: {}", []string{"bad.st_graph:4:1: neuron_pool: unknown top-level key", `(did you mean "neuron_pools"?)`}},
		{"unknown item key", "        tags: [hidden]\n    conv2:", "        tags: [hidden]\n        shpae: [1, 1, 1]\n    conv2:",
			[]string{"bad.st_graph:16:9: neuron_pools.conv1.shpae: unknown key \"shpae\" (did you mean \"shape\"?)"}},
		{"unknown sp key", "        rf: [[5]]\n    c1_c2:", "        rf: [[5]]\n        taget: conv1\n    c1_c2:", []string{`synapse_pools.img_c1.taget: unknown key "taget" (did you mean "target"?)`}},
		{"unknown plasticity key", "        lr: 1e-3", "        lr: 1e-3\n        optimiser: adam", []string{`plasticities.class.optimiser: unknown key "optimiser" (did you mean "optimizer"?)`}},
		{"unknown tag key", "        dropout: 0.2\n", "        dropout: 0.2\n        dropuot: 0.1\n", []string{`tag_specs.hidden.dropuot:`, `(did you mean "dropout"?)`}},
		{"tags in a tag spec", "        dropout: 0.2\n", "        dropout: 0.2\n        tags: [prediction]\n", []string{"tag_specs.hidden.tags: a tag spec cannot give tags"}},
		{"unsupported key", "        rf: [[5]]\n    c1_c2:", "        rf: [[5]]\n        weight_shapes: [[scalar]]\n    c1_c2:", []string{`not supported by neurogo`}},
		{"duplicate key", "        rf: [[5]]\n    c1_c2:", "        rf: [[5]]\n        rf: [[3]]\n    c1_c2:", []string{"synapse_pools.img_c1.rf: key given twice"}},
		{"unknown activation", "        act: relu", "        act: rleu", []string{`bad.st_graph:90:9: neuron_pools.conv1.act: unknown activation "rleu" (did you mean "relu"?)`}},
		{"unknown init", "        init W_0_0: id\n        init W_0_1: id", "        init W_0_0: idd\n        init W_0_1: id", []string{`synapse_pools.pred_pred.init W_0_0: unknown initialiser "idd"`}},
		{"init of a missing parameter", "        init W_0_1: id", "        init W_0_2: id", []string{`synapse_pools.pred_pred.init W_0_2:`, `no factor 0 summand 2`}},
		{"stride mismatch 28→10", "    conv1:\n        shape: [32, glob_input_size // 2, glob_input_size // 2]", "    conv1:\n        shape: [32, 10, 10]",
			[]string{`synapse_pools.img_c1.rf: source "image" (28×28) does not fit target "conv1" (10×10)`}},
		{"even rf", "        target: conv1\n        rf: [[5]]", "        target: conv1\n        rf: [[4]]", []string{"bad.st_graph:29:9: synapse_pools.img_c1.rf:", "must be odd"}},
		{"id with unequal features", "        target: label_copy\n        rf: [[1]]", "        target: conv2\n        rf: [[1]]",
			[]string{`synapse_pools.label_cp.init W_0_0: init "id" needs source and target features that are equal or multiples of each other, got 10 (source "label") and 64 (target "conv2")`}},
		{"missing parameter", "        - [sp, c1_pred, W_0_0]", "        - [sp, c1_pred, W_1_0]", []string{"bad.st_graph:62:11: plasticities.class.parameter:", `has no parameter "W_1_0"`}},
		{"missing np parameter", "        - [np, conv2, b]", "        - [np, conv2, g]", []string{`neuron-pool "conv2" has no parameter "g"`}},
		{"remap to a missing pool", "            mnist_label: label\n", "            mnist_label: labl\n", []string{`interfaces.mnist.remap: "mnist_label" maps to neuron-pool "labl", which does not exist (did you mean "label"?)`}},
		{"unknown global", "glob_input_size // 2, glob_input_size // 2]", "glob_input_size // 2, glob_inptu_size // 2]",
			[]string{"bad.st_graph:14:43: neuron_pools.conv1.shape:", `expression "glob_inptu_size // 2", column 1: unknown name "glob_inptu_size"`, `did you mean "glob_input_size"`}},
		{"division by zero", "glob_input_size // 4, glob_input_size // 4]", "glob_input_size // 4, glob_input_size // 0]",
			[]string{"bad.st_graph:17:59: neuron_pools.conv2.shape:", "column 17: division by zero"}},
		{"code injection", "    glob_input_size: 28", "    glob_input_size: __import__('os')", []string{"bad.st_graph:5:22: globals.glob_input_size:", `unknown function "__import__"`}},
		{"non-integer shape", "glob_input_size // 4, glob_input_size // 4]", "glob_input_size / 8, glob_input_size / 8]", []string{"neuron_pools.conv2.shape:", "must be an integer, got 3.5"}},
		{"dropout out of range", "        dropout: 0.2", "        dropout: 1.2", []string{"dropout must be in [0, 1) (got 1.2)"}},
		{"unknown loss", "loss_function: categorical_crossentropy\n        source: pred1", "loss_function: categorical_crosentropy\n        source: pred1", []string{`unknown loss function "categorical_crosentropy" (did you mean "categorical_crossentropy"?)`}},
		{"unknown optimizer", "        optimizer: adam", "        optimizer: adma", []string{`unknown optimizer "adma" (did you mean "adam"?)`}},
		{"missing source pool", "        source: [[conv1]]\n        target: pred1", "        source: [[conv3]]\n        target: pred1", []string{`synapse_pools.c1_pred.source: no neuron-pool "conv3"`}},
		{"bool as number", "agents: 128", "agents: true", []string{"bad.st_graph:3:9: agents: expected an integer"}},
		{"items not a mapping", "neuron_pools:\n    image:", "neuron_pools:\n  - x\n  - y\nother:\n    image:", []string{"neuron_pools must be a mapping"}},
		{"period offset", "        dropout: 0.2\n", "        dropout: 0.2\n        period: 2\n        period offset: 2\n", []string{"offset must be in [0, period=2)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(demo, c.old, c.new, 1)
			if src == demo {
				t.Fatalf("replacement of %q did not apply", c.old)
			}
			n, err := Parse([]byte(src), "bad.st_graph", LoadOptions{Strict: true})
			if err == nil || n != nil {
				t.Fatalf("Parse = %v, %v; want nil and an error", n, err)
			}
			first := err
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				first = j.Unwrap()[0]
			}
			var e *validate.Error
			if !errors.As(first, &e) {
				t.Fatalf("first error %T %v is not a *validate.Error", first, first)
			}
			for _, w := range c.want {
				if !strings.Contains(first.Error(), w) {
					t.Errorf("first error\n  %s\nlacks\n  %s", first, w)
				}
			}
		})
	}
}

// TestGlobals: overrides, expressions of earlier globals, override of an
// undeclared global.
func TestGlobals(t *testing.T) {
	demo := mustRead(t, demoFile)
	n, err := Parse([]byte(demo), "demo", LoadOptions{Globals: map[string]float64{"glob_input_size": 32}})
	if err != nil {
		t.Fatal(err)
	}
	if s := n.Pool("conv2").Shape; s != [3]int{64, 8, 8} {
		t.Errorf("conv2 with glob_input_size 32: %v, want [64 8 8]", s)
	}
	src := strings.Replace(demo, "    glob_input_size: 28", "    glob_half: 14\n    glob_input_size: glob_half * 2", 1)
	n, err = Parse([]byte(src), "demo", LoadOptions{})
	if err != nil || n.Globals["glob_input_size"] != 28 || n.Pool("conv1").Shape != [3]int{32, 14, 14} {
		t.Fatalf("derived global: %v, %v", err, n)
	}
	_, err = Parse([]byte(demo), "demo", LoadOptions{Globals: map[string]float64{"glob_input_sise": 32}})
	if err == nil || !strings.Contains(err.Error(), `did you mean "glob_input_size"`) {
		t.Errorf("override of an undeclared global: %v", err)
	}
}

// TestKeyForms: statestream's alternative spellings (sources/parameters,
// noise keys with a space, int rf, hebbian modus) mean the same.
func TestKeyForms(t *testing.T) {
	src := `name: forms
neuron_pools:
    a: {shape: [4, 1, 1], noise: normal, noise mean: 0.5, noise std: 0.1}
    b: {shape: [3, 1, 1], bias_shape: False, gain_shape: scalar, init g: "1.0"}
    c: {shape: [2, 8, 8]}
    d: {shape: [2, 8, 8], period: 2, period offset: 1}
synapse_pools:
    ab:
        sources:
        - [a]
        target: b
    cd:
        source: [[c], [c, c]]
        target: d
        rf: 3
        act: tanh
plasticities:
    h:
        type: hebbian
        modus: dt anti_hebbian
        lr: 0.1
        parameters: [[sp, ab, W_0_0]]
    reg:
        type: L_regularizer
        L2: 0.01
        lr: 1e-2
        optimizer: rmsprop
        parameter: [[sp, cd, W_1_1], [np, b, g]]
interfaces: {}
`
	n, err := Parse([]byte(src), "forms", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a := n.Pool("a"); a.Noise != "normal" || a.NoiseMean != 0.5 || a.NoiseStd != 0.1 {
		t.Errorf("noise keys: %+v", a)
	}
	if b := n.Pool("b"); b.BiasShape != "false" || b.GainShape != "scalar" || b.Init["g"] != "1.0" {
		t.Errorf("bias/gain: %+v", b)
	}
	if d := n.Pool("d"); d.Period != 2 || d.Offset != 1 {
		t.Errorf("period: %+v", d)
	}
	if ab := n.SP("ab"); !reflect.DeepEqual(ab.Source, [][]string{{"a"}}) {
		t.Errorf("sources: %v", ab.Source)
	}
	cd := n.SP("cd")
	if !reflect.DeepEqual(cd.RF, [][]int{{3}, {3, 3}}) || !reflect.DeepEqual(cd.Act, []string{"tanh", "tanh"}) {
		t.Errorf("broadcast rf %v act %v", cd.RF, cd.Act)
	}
	h := n.Plasticity("h")
	if h.Type != "dt_anti_hebbian" || h.Source != "a" || h.Target != "b" {
		t.Errorf("hebbian: %+v", h)
	}
	if r := n.Plasticity("reg"); r.Optimizer != "rmsprop" || r.Rho != 0.9 || r.L2 != 0.01 || len(r.Params) != 2 {
		t.Errorf("regularizer: %+v", r)
	}
	shapes, err := cd.ParamShapes(n)
	if err != nil || !reflect.DeepEqual(shapes["W_1_1"], []int{3, 3, 2, 2}) || len(shapes) != 3 {
		t.Errorf("cd ParamShapes %v %v", shapes, err)
	}
}

// TestImportsAndModules: imports relative to the importing file (all
// kinds of parts) and module instances.
func TestImportsAndModules(t *testing.T) {
	n, err := Load(filepath.Join("testdata", "import_main.st_graph"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		name  string
		shape [3]int
		act   string
	}{
		{"image", [3]int{1, 28, 28}, "Id"},     // imported section
		{"hidden", [3]int{16, 1, 1}, "tanh"},   // imported; own key wins
		{"V1_L23", [3]int{8, 14, 14}, "relu"},  // module instance
		{"V1_L4", [3]int{16, 7, 7}, "relu"},    // module instance
		{"MT_L23", [3]int{4, 1, 1}, "relu"},    // second instance
		{"label", [3]int{10, 1, 1}, "softmax"}, // imported tag spec applied
	} {
		np := n.Pool(p.name)
		if np == nil {
			t.Errorf("no pool %s (pools: %v)", p.name, names(n))
			continue
		}
		if np.Shape != p.shape || np.Act != p.act {
			t.Errorf("%s: %v %s, want %v %s", p.name, np.Shape, np.Act, p.shape, p.act)
		}
	}
	sp := n.SP("V1_up")
	if sp == nil || !reflect.DeepEqual(sp.Source, [][]string{{"V1_L23"}}) || sp.Target != "V1_L4" || !reflect.DeepEqual(sp.RF, [][]int{{3}}) {
		t.Errorf("V1_up = %+v", sp)
	}
	in := n.SP("V1_in")
	if in == nil || !reflect.DeepEqual(in.Source, [][]string{{"image"}}) || in.Target != "V1_L23" {
		t.Errorf("V1_in = %+v", in)
	}
	pl := n.Plasticity("V1_learn")
	if pl == nil || pl.Params[0].Item != "V1_up" || pl.Source != "V1_L4" {
		t.Errorf("V1_learn = %+v", pl)
	}
	if it := n.Interface("feed"); it == nil || it.Params["min_duration"] != 14 || it.Params["note"] != "glob_lib is seven" || it.Params["scale"] != 3.5 {
		t.Errorf("interface params with globals: %+v", it)
	}
	if n.Globals["glob_lib"] != 7 {
		t.Errorf("imported global: %v", n.Globals)
	}
}

func names(n *Net) []string {
	var s []string
	for _, p := range n.NeuronPools {
		s = append(s, p.Name)
	}
	return s
}

func TestImportErrors(t *testing.T) {
	files := map[string]string{
		"/x/loop_a.st_graph":  "name: a\nimport:\n    - [loop_b, neuron_pools]\nneuron_pools: {}\n",
		"/x/loop_b.st_graph":  "name: b\nimport:\n    - [loop_a, neuron_pools]\nneuron_pools: {}\n",
		"/x/missing.st_graph": "name: m\nimport:\n    - [nowhere, neuron_pools]\n",
		"/x/nothing.st_graph": "name: n\nimport:\n    - [lib, modules.nope]\n",
		"/x/lib.st_graph":     "name: lib\nneuron_pools:\n    p: {shape: [1, 1, 1]}\n",
		"/x/modvar.st_graph": `name: mv
modules:
    m:
        neuron_pools:
            p: {shape: _shape}
m:
    one: {shpe: [1, 1, 1]}
`,
		"/x/modlib.st_graph": "name: ml\nmodules:\n    m:\n        neuron_pools:\n            p: {shape: _s}\n",
		"/x/modpos.st_graph": "name: mp\nimport:\n    - [modlib, modules]\nm:\n    one: {s: [1, 1, nope]}\n",
		"/x/modlist.st_graph": `name: ml
modules:
    m:
        neuron_pools:
            p: {shape: [1, 1, 1]}
        synapse_pools:
            s: {source: [[p]], target: p}
        plasticities:
            l: {type: L_regularizer, L2: 0.1, lr: 0.1, parameter: _params}
m:
    one: {params: [[np, q, b]]}
`,
		"/x/modclash.st_graph": `name: mc
modules:
    m:
        neuron_pools:
            p: {shape: [1, 1, 1]}
neuron_pools:
    one_p: {}
m:
    one: {}
`,
	}
	read := func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	for _, c := range []struct{ file, want string }{
		{"/x/loop_a.st_graph", "import loop: /x/loop_a.st_graph → /x/loop_b.st_graph → /x/loop_a.st_graph"},
		{"/x/missing.st_graph", "/x/missing.st_graph:3:7: import.nowhere: cannot read /x/nowhere.st_graph"},
		{"/x/nothing.st_graph", `provides nothing for "modules.nope"`},
		{"/x/modvar.st_graph", `module parameter "shape" is not given by instance "one"`},
		{"/x/modclash.st_graph", `creates "one_p", which already exists`},
		{"/x/modlist.st_graph", `no neuron-pool "q"`},
		{"/x/modpos.st_graph", `/x/modpos.st_graph:5:21: neuron_pools.one_p.shape: expression "nope", column 1: unknown name "nope"`},
	} {
		_, err := Load(c.file, LoadOptions{ReadFile: read})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.file, err, c.want)
		}
	}
}

// TestBadFiles: the bad-input files of testdata fail with these errors
// (every listed error must appear, the first one first).
func TestBadFiles(t *testing.T) {
	cases := []struct {
		file string
		want []string
	}{
		{"bad_yaml.st_graph", []string{"testdata/bad_yaml.st_graph:", "malformed YAML"}},
		{"bad_keys.st_graph", []string{
			`testdata/bad_keys.st_graph:15:9: synapse_pools.img_c1.dilaton: unknown key "dilaton" (did you mean "dilation"?)`}},
		{"bad_expr.st_graph", []string{
			`testdata/bad_expr.st_graph:5:11: globals.evil: expression "__import__('os').system('true')", column 1: unknown function "__import__"`,
			`testdata/bad_expr.st_graph:6:16: globals.half: expression "size // 0", column 6: division by zero`}},
		{"bad_rf.st_graph", []string{
			`testdata/bad_rf.st_graph:14:9: synapse_pools.img_a.rf: source "image" (28×28) does not fit target "a" (10×10)`,
			`testdata/bad_rf.st_graph:18:9: synapse_pools.img_b.rf: rf[0][0] = 4: a convolution's receptive field must be odd`}},
	}
	for _, c := range cases {
		n, err := Load(filepath.Join("testdata", c.file), LoadOptions{Strict: true})
		if err == nil || n != nil {
			t.Errorf("%s: loaded", c.file)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, c.want[0]) {
			t.Errorf("%s: error starts\n  %s\nwant\n  %s", c.file, msg, c.want[0])
		}
		for _, w := range c.want[1:] {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error\n  %s\nlacks\n  %s", c.file, msg, w)
			}
		}
	}
}

// TestStatestreamSpellings: forms found in statestream's own examples:
// backend (ignored), loss MSE/MAE (its code's spelling), min/max clipping
// bounds (read into SynapsePool.Min / Max; a bound of a missing parameter
// is an error).
func TestStatestreamSpellings(t *testing.T) {
	src := `name: s
backend: theano
neuron_pools:
    a: {shape: [4, 1, 1]}
    b: {shape: [4, 1, 1]}
synapse_pools:
    ab: {source: [[a]], target: b}
plasticities:
    l: {type: loss, loss_function: MSE, source: b, source_t: 1, target: a, target_t: 0, lr: 0.1, parameter: [[sp, ab, W_0_0]]}
`
	n, err := Parse([]byte(src), "s", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lf := n.Plasticity("l").LossFunction; lf != "mse" {
		t.Errorf("MSE read as %q, want mse", lf)
	}
	bounded := strings.Replace(src, "target: b}", "target: b, min W_0_0: -1, max W_0_0: 2 * 1.5}", 1)
	n, err = Parse([]byte(bounded), "s", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sp := n.SP("ab"); sp.Min["W_0_0"] != -1 || sp.Max["W_0_0"] != 3 {
		t.Errorf("bounds of W_0_0: min %v, max %v, want -1, 3", sp.Min, sp.Max)
	}
	bad := strings.Replace(src, "target: b}", "target: b, min W_0_1: -1}", 1)
	if _, err := Parse([]byte(bad), "s", LoadOptions{}); err == nil || !strings.Contains(err.Error(), `s:7:36: synapse_pools.ab.min W_0_1:`) || !strings.Contains(err.Error(), "no factor 0 summand 1") {
		t.Errorf("min W_0_1: %v", err)
	}
	bad = strings.Replace(src, "target: b}", "target: b, min W_0_0: 1, max W_0_0: 0}", 1)
	if _, err := Parse([]byte(bad), "s", LoadOptions{}); err == nil || !strings.Contains(err.Error(), "min 1 > max 0") {
		t.Errorf("min > max: %v", err)
	}
}
