package stream

import (
	"errors"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/toolkit/validate"
)

// goNet builds a small valid network in Go: image [1,8,8] → conv [4,4,4]
// (rf 3, stride 2) → pred [10,1,1] (dense), label [10,1,1], an interface
// writing image and label, and a loss plasticity.
func goNet() *Net {
	np := func(name string, c, w, h int) *NeuronPool {
		return &NeuronPool{Name: name, Shape: [3]int{c, w, h}, Period: 1}
	}
	return &Net{
		Name:        "go",
		Agents:      2,
		NeuronPools: []*NeuronPool{np("image", 1, 8, 8), np("conv", 4, 4, 4), np("pred", 10, 1, 1), np("label", 10, 1, 1)},
		SynapsePools: []*SynapsePool{
			{Name: "img_conv", Source: [][]string{{"image"}}, Target: "conv", RF: [][]int{{3}}, Period: 1},
			{Name: "conv_pred", Source: [][]string{{"conv"}}, Target: "pred", Period: 1},
		},
		Plasticities: []*Plasticity{{
			Name: "class", Type: "loss", LossFunction: "categorical_crossentropy",
			Source: "pred", SourceT: 2, Target: "label", TargetT: 0, LR: 1e-3, Period: 1,
			Params: []ParamRef{{Kind: "sp", Item: "img_conv", Name: "W_0_0"}, {Kind: "np", Item: "conv", Name: "b"}},
		}},
		Interfaces: []*Interface{{Name: "data", Type: "mnist", Out: []string{"img", "lbl"},
			Remap: map[string]string{"img": "image", "lbl": "label"}}},
	}
}

func TestValidateGoNet(t *testing.T) {
	cases := []struct {
		name   string
		modify func(n *Net)
		want   string // "" = valid; else a substring of the error
	}{
		{"valid", func(n *Net) {}, ""},
		{"duplicate pool", func(n *Net) {
			n.NeuronPools = append(n.NeuronPools, &NeuronPool{Name: "conv", Shape: [3]int{1, 1, 1}, Period: 1})
		}, `neuron_pools.conv: duplicate name "conv"`},
		{"zero shape", func(n *Net) { n.NeuronPools[0].Shape[1] = 0 }, "neuron_pools.image.shape: shape [1 0 8]"},
		{"unknown act", func(n *Net) { n.NeuronPools[1].Act = "rleu" }, `neuron_pools.conv.act: unknown activation "rleu" (did you mean "relu"?)`},
		{"dropout 1", func(n *Net) { n.NeuronPools[1].Dropout = 1 }, "dropout must be in [0, 1)"},
		{"missing target", func(n *Net) { n.SynapsePools[0].Target = "conv3" }, `synapse_pools.img_conv.target: no neuron-pool "conv3" (did you mean "conv"?)`},
		{"even rf", func(n *Net) { n.SynapsePools[0].RF = [][]int{{4}} }, "must be odd"},
		{"rf too big", func(n *Net) { n.SynapsePools[0].RF = [][]int{{9}} }, "exceeds the (upsampled) extent 8×8"},
		{"stride mismatch", func(n *Net) { n.NeuronPools[1].Shape = [3]int{4, 3, 3} }, "does not fit target"},
		{"rf list shape", func(n *Net) { n.SynapsePools[0].RF = [][]int{{3, 3}} }, "rf factor 0 has 2 entries, source has 1"},
		{"-id unequal", func(n *Net) { n.SynapsePools[0].Init = map[string]string{"W_0_0": "-id"} }, "needs equal source and target features, got 1"},
		{"id_0.5 unequal", func(n *Net) { n.SynapsePools[0].Init = map[string]string{"W_0_0": "id_0.5"} }, "needs equal source and target features, got 1"},
		{"init bad key", func(n *Net) { n.SynapsePools[0].Init = map[string]string{"W_0_1": "xavier"} }, "no factor 0 summand 1"},
		{"init P without ppp", func(n *Net) { n.SynapsePools[0].Init = map[string]string{"P_0_0": "xavier"} }, "ppp[0][0] is 0"},
		{"init unknown", func(n *Net) { n.SynapsePools[0].Init = map[string]string{"W_0_0": "xavir"} }, `unknown initialiser "xavir" (did you mean "xavier"?)`},
		{"init parametrised", func(n *Net) { n.SynapsePools[0].Init = map[string]string{"W_0_0": "normal_0_0.1"} }, ""},
		{"missing param", func(n *Net) { n.Plasticities[0].Params[0].Name = "W_1_0" }, `synapse-pool "img_conv" has no parameter "W_1_0"`},
		{"bias false", func(n *Net) { n.NeuronPools[1].BiasShape = "false" }, `neuron-pool "conv" has no parameter "b"`},
		{"unknown loss", func(n *Net) { n.Plasticities[0].LossFunction = "mse2" }, `unknown loss function "mse2" (did you mean "mse"?)`},
		{"negative lr", func(n *Net) { n.Plasticities[0].LR = -1 }, "lr must be ≥ 0"},
		{"future input", func(n *Net) { n.Plasticities[0].TargetT = 1 }, "input from the future"},
		{"remap missing", func(n *Net) { n.Interfaces[0].Remap["img"] = "imag" }, `interfaces.data.remap: "img" maps to neuron-pool "imag", which does not exist (did you mean "image"?)`},
		{"huge shape", func(n *Net) { n.NeuronPools[0].Shape = [3]int{1 << 20, 1 << 20, 1} }, "more than 1073741824 values per agent"},
		{"deep rollout", func(n *Net) { n.Plasticities[0].SourceT = 1 << 40 }, "source_t must be in [0, 1000]"},
		{"period -1", func(n *Net) { n.NeuronPools[0].Period = -1 }, "period must be ≥ 1"},
		{"period 0 with offset 1", func(n *Net) { n.NeuronPools[0].Period, n.NeuronPools[0].Offset = 0, 1 }, "offset must be in [0, period=1)"},
		{"offset", func(n *Net) { n.NeuronPools[0].Period, n.NeuronPools[0].Offset = 2, 2 }, "offset must be in [0, period=2)"},
		{"upsampling", func(n *Net) {
			n.NeuronPools = append(n.NeuronPools, &NeuronPool{Name: "up", Shape: [3]int{2, 16, 16}, Period: 1})
			n.SynapsePools = append(n.SynapsePools, &SynapsePool{Name: "c_up", Source: [][]string{{"conv"}}, Target: "up", RF: [][]int{{5}}, Period: 1})
		}, ""},
		{"hebbian ok", func(n *Net) {
			n.Plasticities = append(n.Plasticities, &Plasticity{Name: "h", Type: "hebbian", Source: "pred", Target: "label", Period: 1,
				Params: []ParamRef{{Kind: "sp", Item: "p_l", Name: "W_0_0"}}})
			n.SynapsePools = append(n.SynapsePools, &SynapsePool{Name: "p_l", Source: [][]string{{"pred"}}, Target: "label", Period: 1})
			n.Interfaces[0].Out = []string{"img"}
		}, ""},
		{"hebbian conv", func(n *Net) {
			n.Plasticities = append(n.Plasticities, &Plasticity{Name: "h", Type: "hebbian", Source: "image", Target: "conv", Period: 1,
				Params: []ParamRef{{Kind: "sp", Item: "img_conv", Name: "W_0_0"}}})
		}, "one dense summand"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := goNet()
			c.modify(n)
			err := n.Validate()
			if c.want == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate error %v, want it to contain %q", err, c.want)
			}
			var e *validate.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not a *validate.Error", err)
			}
		})
	}
}

func TestParamShapes(t *testing.T) {
	n := goNet()
	n.SynapsePools[0].PPP = [][]int{{2}}
	got, err := n.SP("img_conv").ParamShapes(n)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]int{"W_0_0": {3, 3, 2, 4}, "P_0_0": {1, 2}}
	if len(got) != len(want) {
		t.Fatalf("ParamShapes = %v, want %v", got, want)
	}
	for k, w := range want {
		if !equalInts(got[k], w) {
			t.Errorf("%s: %v, want %v", k, got[k], w)
		}
	}
	d, err := n.SP("conv_pred").ParamShapes(n)
	if err != nil || !equalInts(d["W_0_0"], []int{64, 10}) {
		t.Errorf("dense W_0_0 = %v (%v), want [64 10]", d["W_0_0"], err)
	}
	np := &NeuronPool{Shape: [3]int{3, 4, 5}}
	for _, c := range []struct {
		bias, gain string
		b, g       []int
	}{
		{"", "", []int{3}, nil},
		{"full", "spatial", []int{4, 5, 3}, []int{4, 5}},
		{"false", "scalar", nil, []int{1}},
		{"feature", "false", []int{3}, nil},
	} {
		np.BiasShape, np.GainShape = c.bias, c.gain
		s := np.ParamShapes()
		if !equalInts(s["b"], c.b) || !equalInts(s["g"], c.g) {
			t.Errorf("bias %q gain %q: %v, want b %v g %v", c.bias, c.gain, s, c.b, c.g)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSuggest(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rleu", "relu"}, {"relu", ""}, {"shpae", "shape"}, {"zzzzzzzz", ""}, {"Softmax", "softmax"},
	} {
		if got := suggest(c.in, []string{"relu", "shape", "softmax", "tanh"}); got != c.want {
			t.Errorf("suggest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
