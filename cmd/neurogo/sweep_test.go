package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/sim/bench"
)

func TestParsePoint(t *testing.T) {
	cases := []struct {
		in      string
		allowed []string
		want    map[string]int
		err     string
	}{
		{"neurons=10,seed=2", []string{"neurons", "seed"}, map[string]int{"neurons": 10, "seed": 2}, ""},
		{" seed = 3 ", []string{"seed"}, map[string]int{"seed": 3}, ""},
		{"seed=2,neurons=5,", []string{"neurons", "seed"}, map[string]int{"neurons": 5, "seed": 2}, ""},
		{"neurons=10", []string{"neurons", "seed"}, nil, "seed is missing"},
		{"neurons=10,seed=1,lr=3", []string{"neurons", "seed"}, nil, `unknown name "lr"`},
		{"seed=1,seed=2", []string{"seed"}, nil, "given twice"},
		{"seed=x", []string{"seed"}, nil, "not an integer"},
		{"seed", []string{"seed"}, nil, "not NAME=VALUE"},
	}
	for _, c := range cases {
		got, err := parsePoint(c.in, c.allowed...)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parsePoint(%q): err %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parsePoint(%q): %v", c.in, err)
			continue
		}
		for k, v := range c.want {
			if got[k] != v || len(got) != len(c.want) {
				t.Errorf("parsePoint(%q) = %v, want %v", c.in, got, c.want)
				break
			}
		}
	}
}

// TestReproSPAPointKept: --point runs one point and prints its record; a
// point kept in --cells with the same settings is reused (no training).
func TestReproSPAPointKept(t *testing.T) {
	dir := t.TempDir()
	cells := filepath.Join(dir, "cells")
	if err := os.MkdirAll(cells, 0o755); err != nil {
		t.Fatal(err)
	}
	cell := `{"Dims":64,"Train":64,"Test":32,"Epochs":1,"Batch":64,"LR":0.0001,
	  "Point":{"NeuronsPerDim":2,"Seed":1,"Before":0.25,"After":0.75,"LossBefore":0.5,"LossAfter":0.1,"SecondsPerEpoch":3}}`
	if err := os.WriteFile(filepath.Join(cells, "npd2_seed1.json"), []byte(cell), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var so, se bytes.Buffer
	args := []string{"repro", "spa-memory", "--point", "neurons=2,seed=1", "--train", "64", "--test", "32", "--epochs", "1",
		"--cells", cells, "--out", out, "--json"}
	if code := run(args, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	if !strings.Contains(se.String(), "kept from") {
		t.Errorf("the kept point was not reused: %s", se.String())
	}
	var rec map[string]any
	if err := json.Unmarshal(so.Bytes(), &rec); err != nil {
		t.Fatalf("stdout is not one JSON record: %v: %q", err, so.String())
	}
	want := map[string]float64{"NeuronsPerDim": 2, "Seed": 1, "Before": 0.25, "After": 0.75, "Dims": 64, "Train": 64, "Test": 32, "Epochs": 1}
	for k, v := range want {
		if rec[k] != v {
			t.Errorf("record %s = %v, want %v", k, rec[k], v)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err != nil {
		t.Errorf("no OUT/results.json: %v", err)
	}
}

func TestReproPointErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"repro", "spa-memory", "--point", "neurons=2"}, "seed is missing"},
		{[]string{"repro", "spa-memory", "--point", "neurons=2,seed=0", "--neurons", "5"}, "leave out --neurons"},
		{[]string{"repro", "spa-memory", "--point", "neurons=0,seed=0", "--cells", "none", "--out", "OUTDIR"}, "must be ≥ 1"},
		{[]string{"repro", "spiking-mnist", "--point", "seed=1", "--seed", "2"}, "disagree"},
		{[]string{"repro", "spiking-mnist", "--point", "neurons=1"}, "unknown name"},
	}
	for _, c := range cases {
		for i, a := range c.args {
			if a == "OUTDIR" {
				c.args[i] = t.TempDir()
			}
		}
		var so, se bytes.Buffer
		if code := run(c.args, &so, &se); code == 0 || !strings.Contains(se.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error containing %q", c.args, code, se.String(), c.want)
		}
	}
}

func TestSweepPlot(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "results.csv")
	csv := "id,status,seconds,n,seed,acc,error\n" +
		"a,done,1.5,10,0,0.5,\n" + "b,done,1.2,10,1,0.7,\n" + "c,done,1.1,2,0,0.2,\n" +
		"d,failed,,2,1,,boom\n" + "e,done,1.0,5,0,0.4,\n"
	if err := os.WriteFile(table, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	groups, n, err := readSweepTable(table, "n", "acc")
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 || len(groups) != 3 || groups[0].label != "2" || groups[1].label != "5" || groups[2].label != "10" {
		t.Fatalf("groups %+v (n %d): want 2, 5, 10 from 4 done rows", groups, n)
	}
	if m, lo, hi := bench.MeanCI(groups[2].values); math.Abs(m-0.6) > 1e-12 || !(lo < 0.6 && hi > 0.6) {
		t.Errorf("n=10: mean %v [%v, %v], want 0.6 inside an interval", m, lo, hi)
	}
	base := filepath.Join(dir, "summary")
	var so, se bytes.Buffer
	if code := run([]string{"sweep", "plot", "--table", table, "--x", "n", "--y", "acc", "--out", base}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	png, err := os.ReadFile(base + ".png")
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("summary.png: %v (%d bytes)", err, len(png))
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("summary.svg: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "plot", "--table", table, "--x", "n", "--y", "nope"}, `"nope"`},
		{[]string{"sweep", "plot", "--table", table, "--x", "n", "--y", "error"}, "no done row"},
		{[]string{"sweep", "plot", "--table", table, "--x", "n", "--y", "id"}, "not a finite number"},
		{[]string{"sweep", "plot", "--table", table}, "usage"},
	} {
		se.Reset()
		if code := run(c.args, &so, &se); code == 0 || !strings.Contains(se.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, se.String(), c.want)
		}
	}
}

// TestSweepSPAFigure draws Fig. 9 from point records as a sweep
// gathers them.
func TestSweepSPAFigure(t *testing.T) {
	dir := t.TempDir()
	pts := `[{"NeuronsPerDim":10,"Seed":0,"Before":0.3,"After":0.8},{"NeuronsPerDim":5,"Seed":0,"Before":0.2,"After":0.6},
	  {"NeuronsPerDim":10,"Seed":1,"Before":0.35,"After":0.9,"Dims":64}]`
	in, out := filepath.Join(dir, "points.json"), filepath.Join(dir, "fig9.png")
	if err := os.WriteFile(in, []byte(pts), 0o644); err != nil {
		t.Fatal(err)
	}
	var so, se bytes.Buffer
	if code := run([]string{"sweep", "spa-figure", "--points", in, "--out", out}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	lines := strings.Split(strings.TrimSpace(so.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], " 5 neurons/dim") || !strings.Contains(lines[1], "10 neurons/dim: retrieval 0.325") {
		t.Errorf("summary lines:\n%s", so.String())
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Errorf("fig9.png: %v", err)
	}
	if err := os.WriteFile(in, []byte(`[{"seed":1}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	se.Reset()
	if code := run([]string{"sweep", "spa-figure", "--points", in, "--out", out}, &so, &se); code == 0 || !strings.Contains(se.String(), "not a spa-memory record") {
		t.Errorf("a record without NeuronsPerDim: exit %d, %q", code, se.String())
	}
}

func TestSweepEnv(t *testing.T) {
	t.Setenv("NEUROGO_BIN", "")
	t.Setenv("NEUROGO_ROOT", "")
	t.Setenv("PYTHONPATH", "/x")
	env := strings.Join(sweepEnv(nil, "/src"), "\n")
	for _, want := range []string{"NEUROGO_BIN=", "NEUROGO_ROOT=/src", "PYTHONPATH=" + filepath.Join("/src", "python", "neurogo_sweep") + string(os.PathListSeparator) + "/x"} {
		if !strings.Contains(env, want) {
			t.Errorf("sweepEnv lacks %q:\n%s", want, env)
		}
	}
}
