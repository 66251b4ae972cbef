package bench

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim"
)

// The presets are large enough (≥ 100 000 neurons and ≥ 1000
// ensembles for the ablation model) and Counts agrees with the network.
func TestStressCounts(t *testing.T) {
	n, e := Stress().Counts()
	if n < 100000 || e < 1000 {
		t.Errorf("Stress(): %d neurons, %d ensembles; want ≥ 100000, ≥ 1000", n, e)
	}
	tiny := StressConfig{Dims: 4, States: 2, Binds: 1, Actions: 3, StateNeurons: 5, BindNeurons: 6, BGNeurons: 4, ThalamusNeurons: 3}
	for _, sc := range []StressConfig{tiny, StressQuick()} {
		net, err := StressNetwork(sc, 1)
		if err != nil {
			t.Fatal(err)
		}
		var gotN, gotE int
		for _, e := range net.AllEnsembles() {
			gotN += e.N
			gotE++
			if e.NeuronType.Name() != "RectifiedLinear" {
				t.Fatalf("ensemble %q is %s", e.Label, e.NeuronType.Name())
			}
		}
		if wn, we := sc.Counts(); gotN != wn || gotE != we {
			t.Errorf("%v: network has %d neurons, %d ensembles", sc, gotN, gotE)
		}
	}
	if _, err := StressNetwork(StressConfig{Dims: 4}, 0); err == nil || !strings.Contains(err.Error(), "States") {
		t.Errorf("zero States: err = %v", err)
	}
}

// The ablation on a tiny stress model has one row per sim.Ablations()
// row, in order, with sane numbers (no timing thresholds): positive
// times, the optimizer named, "all" merging operators into fewer groups
// than "none", relative speeds of 1 on the reference rows.
func TestAblationTiny(t *testing.T) {
	sc := StressConfig{Dims: 4, States: 2, Binds: 1, Actions: 3, StateNeurons: 5, BindNeurons: 6, BGNeurons: 4, ThalamusNeurons: 3}
	c := Config{Warmup: 0.002, Seconds: 0.005, Repeats: 2, DT: 0.001, CopyGBps: 10}
	rows, err := Ablation(sc, c)
	if err != nil {
		t.Fatal(err)
	}
	abl := sim.Ablations()
	if len(rows) != len(abl) {
		t.Fatalf("%d rows, want %d", len(rows), len(abl))
	}
	byName := map[string]AblationResult{}
	for i, r := range rows {
		byName[r.Ablation] = r
		if r.Ablation != abl[i].Name || r.Opt != OptName(abl[i].Opt) {
			t.Errorf("row %d: %q opt %q, want %q opt %q", i, r.Ablation, r.Opt, abl[i].Name, OptName(abl[i].Opt))
		}
		wn, we := sc.Counts()
		if r.Neurons != wn || r.Ensembles != we || r.Steps != 5 {
			t.Errorf("%s: %d neurons, %d ensembles, %d steps", r.Ablation, r.Neurons, r.Ensembles, r.Steps)
		}
		if !(r.Seconds > 0) || !(r.USPerStep > 0) || !(r.BuildS > 0) || !(r.VsNone > 0) || !(r.VsAll > 0) {
			t.Errorf("%s: implausible %+v", r.Ablation, r)
		}
		if r.BytesPerStep <= 0 || !(r.GBps > 0) || r.Roofline != r.GBps/10 || r.Operators < 1 || r.Groups < 1 {
			t.Errorf("%s: plan/roofline fields %+v", r.Ablation, r)
		}
		line, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		for _, k := range []string{"ablation", "opt", "us_per_step", "build_s", "vs_none", "vs_all", "bytes_per_step", "roofline", "model"} {
			if _, ok := m[k]; !ok {
				t.Errorf("field %q missing from %s", k, line)
			}
		}
	}
	all, none := byName["all"], byName["none"]
	if all.VsAll != 1 || none.VsNone != 1 {
		t.Errorf("reference rows: all.VsAll = %v, none.VsNone = %v; want 1", all.VsAll, none.VsNone)
	}
	if all.Groups >= none.Groups {
		t.Errorf("all: %d groups, none: %d; merging should leave fewer", all.Groups, none.Groups)
	}
	var tab strings.Builder
	WriteAblationTable(&tab, rows)
	for _, a := range abl {
		if !strings.Contains(tab.String(), a.Name) {
			t.Errorf("table lacks %q:\n%s", a.Name, tab.String())
		}
	}
}

func TestParseOpt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want sim.Optimizations
		name string
	}{
		{"all", sim.AllOptimizations(), "all"},
		{"none", sim.Optimizations{}, "none"},
		{"merge", sim.Optimizations{Merge: true}, "merge"},
		{"sort, simplify", sim.Optimizations{Sort: true, Simplify: true}, "simplify+sort"},
		{"simplify,merge,sort", sim.AllOptimizations(), "all"},
		{"all,tree", sim.Optimizations{Simplify: true, Merge: true, Sort: true, Planner: "tree"}, "simplify+merge+sort+tree"},
		{"sort,transitive", sim.Optimizations{Merge: true, Sort: true, Planner: "transitive"}, "merge+sort+transitive"},
		{"merge,tree:5", sim.Optimizations{Merge: true, Planner: "tree", TreeDepth: 5}, "merge+tree5"},
		{"all,level", sim.AllOptimizations(), "all"},
		{"merge,transitive,metablock", sim.Optimizations{Merge: true, Sort: true, Planner: "transitive", Sorter: "metablock"}, "merge+sort+metablock+transitive"},
	} {
		got, err := ParseOpt(tc.in)
		if err != nil || got != tc.want || OptName(got) != tc.name {
			t.Errorf("ParseOpt(%q) = %+v (%s), %v; want %+v (%s)", tc.in, got, OptName(got), err, tc.want, tc.name)
		}
	}
	for _, bad := range []string{"merge,unroll", "greedy,tree", "tree:0", "greedy:2"} {
		if _, err := ParseOpt(bad); err == nil {
			t.Errorf("ParseOpt(%q): no error", bad)
		}
	}
}

func TestCopyBandwidth(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 128 MiB")
	}
	if bw := CopyBandwidth(2); !(bw > 0.1) || bw > 1e4 {
		t.Errorf("CopyBandwidth = %v GB/s", bw)
	}
}
