package stream

import (
	"reflect"
	"strings"
	"testing"
)

const compatFile = "testdata/compat.st_graph"

// TestCompatibility: in the default mode the constructs of statestream's
// own files load, and the keys neurogo does not use are listed as
// warnings with file, line and column.
func TestCompatibility(t *testing.T) {
	n, err := Load(compatFile, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range n.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		`testdata/compat.st_graph:18:9: neuron_pools.hid.init: unknown key "init", ignored (did you mean "init b"?)`,
		`testdata/compat.st_graph:24:9: neuron_pools.unc.tag: unknown key "tag", ignored (did you mean "tags"?)`,
		`testdata/compat.st_graph:79:9: plasticities.class.aleatoric_uncertainty: unknown key "aleatoric_uncertainty", ignored`,
		`testdata/compat.st_graph:7:1: rollout_factor: unknown top-level key "rollout_factor" (neither a section nor a module), ignored`,
		`testdata/compat.st_graph:8:1: first_response_streaming: unknown top-level key "first_response_streaming" (neither a section nor a module), ignored`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if a := n.Pool("unc").Act; a != "neglog" {
		t.Errorf("unc act %q", a)
	}
	sp := n.SP("wide_hid")
	if act, th, ok := sp.PreActivation(0, 0); act != "relu" || th != 1 || !ok {
		t.Errorf("wide_hid pact = %s, %g, %v; want relu, 1, true", act, th, ok)
	}
	if act, th, ok := n.SP("img_hid").PreActivation(0, 0); act != "relu" || th != 0 || !ok {
		t.Errorf("img_hid pact = %s, %g, %v", act, th, ok)
	}
	if act, _, ok := n.SP("hid_hid").PreActivation(0, 0); act != "Id" || !ok {
		t.Errorf("hid_hid pact = %s, %v; want Id", act, ok)
	}
	if r := n.SP("hid_pred2").Share["W_0_0"]; r.Item != "hid_pred" || r.Name != "W_0_0" {
		t.Errorf("share = %+v", r)
	}
	shapes, err := n.SP("pred_unc").ParamShapes(n)
	if err != nil || !reflect.DeepEqual(shapes["b_0"], []int{1}) {
		t.Errorf("pred_unc parameters %v, %v; want b_0 of shape [1]", shapes, err)
	}
	shapes, err = n.SP("wide_unc").ParamShapes(n)
	if err != nil || !reflect.DeepEqual(shapes["W_0_0"], []int{8 * 8 * 8, 4 * 2 * 2}) {
		t.Errorf("wide_unc parameters %v, %v; want W_0_0 of shape [512 16]", shapes, err)
	}
}

// TestStrict: with LoadOptions.Strict every key without effect is an
// error, the ignored ones saying why.
func TestStrict(t *testing.T) {
	_, err := Load(compatFile, LoadOptions{Strict: true})
	if err == nil {
		t.Fatal("loaded in strict mode")
	}
	for _, w := range []string{
		`testdata/compat.st_graph:18:9: neuron_pools.hid.init: unknown key "init" (did you mean "init b"?)`,
		`testdata/compat.st_graph:77:9: plasticities.class.bottleneck: key "bottleneck" has no effect: it tunes statestream's process scheduling`,
		`testdata/compat.st_graph:78:9: plasticities.class.label_smoothing: key "label_smoothing" has no effect: statestream's loss plasticity does not apply it`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n  %s\nlacks\n  %s", err, w)
		}
	}
	if strings.Contains(err.Error(), ", ignored") {
		t.Errorf("strict errors say ignored: %s", err)
	}
}

// TestRolloutPruning: statestream's network rollback. The loss needs pred
// at δt=3; pred ← hid at 2 ← hid, wide, image at 1 ← … at 0. image
// is an input: at δt=1 it is pruned and img_hid is cut at δt=2, so hid at
// δt=2 is computed from its recurrent inputs only.
func TestRolloutPruning(t *testing.T) {
	n, err := Load(compatFile, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.Rollout(n.Plasticity("class"))
	if err != nil {
		t.Fatal(err)
	}
	want := &Rollout{Depth: 3,
		Pools: [][]string{{"image", "label", "hid", "wide"}, {"hid", "wide"}, {"hid"}, {"pred"}},
		Cut:   [][]string{{}, {}, {"img_hid"}, {}},
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("rollout\n  %+v\nwant\n  %+v", r, want)
	}
}
