package toolkit_test

import (
	"reflect"
	"testing"

	"github.com/neurogo/neurogo/toolkit"
)

func TestGraphNodesEdges(t *testing.T) {
	net := toolkit.New("g", 0)
	stim := net.Const("stim", 1)
	a := net.Ensemble("a", 10, 1)
	sub := net.Network("sub")
	b := sub.Ensemble("b", 10, 1)
	net.Connect(stim, a).Label = "in"
	learned := net.Connect(a, b)
	learned.Label = "learned"
	learned.LearningRule = toolkit.NewPES()
	net.Connect(b.Neurons(), a).Label = "back"
	net.Connect(a, learned.Rule()).Label = "err"

	ids, labels, kinds := net.GraphNodes()
	if !reflect.DeepEqual(labels, []string{"a", "b", "stim"}) || !reflect.DeepEqual(kinds, []string{"ensemble", "ensemble", "node"}) {
		t.Fatalf("nodes %v %v %v", ids, labels, kinds)
	}
	from, to, el := net.GraphEdges()
	id := map[string]string{}
	for i, l := range labels {
		id[l] = ids[i]
	}
	want := [][3]string{{id["stim"], id["a"], "in"}, {id["a"], id["b"], "learned"}, {id["b"], id["a"], "back"}, {id["a"], id["b"], "learning: err"}}
	var got [][3]string
	for i := range from {
		got = append(got, [3]string{from[i], to[i], el[i]})
	}
	if len(got) != len(want) {
		t.Fatalf("edges %v, want %v", got, want)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("missing edge %v in %v", w, got)
		}
	}
}
