package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/viz/vizbench"
)

// Without --python, bench viz measures neurogo alone and prints the table
// (no ratio column); --json writes the run record and the results. No
// timing is checked.
func TestBenchVizOursOnly(t *testing.T) {
	js := filepath.Join(t.TempDir(), "viz.json")
	var out, errb bytes.Buffer
	if code := cmdBenchViz([]string{"--quick", "--repeat", "1", "--json", js}, &out, &errb); code != 0 {
		t.Fatalf("bench viz --quick --repeat 1: exit %d, stderr %q", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"median of 1 runs", "raster", "confusion", "1280×800", "neurogo ms"} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "matplotlib") {
		t.Errorf("table without --python mentions matplotlib:\n%s", s)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Run struct {
			Command  string         `json:"command"`
			Quick    bool           `json:"quick"`
			Protocol map[string]any `json:"protocol"`
		} `json:"run"`
		Results []vizbench.Result `json:"results"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("--json: %v in %s", err, b)
	}
	if !strings.HasPrefix(doc.Run.Command, "neurogo bench viz --quick --repeat 1 --json ") || !doc.Run.Quick ||
		doc.Run.Protocol["repeat"] != float64(1) {
		t.Errorf("run record %+v", doc.Run)
	}
	if len(doc.Results) != 2 || doc.Results[0].Figure != "raster" || len(doc.Results[0].Neurogo.RunsMS) != 1 ||
		doc.Results[1].Neurogo.Width != 1280 || doc.Results[0].Matplotlib != nil {
		t.Errorf("results %+v", doc.Results)
	}
}

// With a Python that cannot import matplotlib, bench viz fails before
// measuring and names the pip command.
func TestBenchVizMissingMatplotlib(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	// -S leaves out site-packages: matplotlib cannot be imported.
	fake := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexec "+py+" -S \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := cmdBenchViz([]string{"--repeat", "1", "--python", fake}, &out, &errb)
	want := fake + " -m pip install matplotlib==" + vizbench.MatplotlibVersion
	if code != 1 || !strings.Contains(errb.String(), want) {
		t.Errorf("bench viz --python (no matplotlib): exit %d, stderr %q; want 1 and %q", code, errb.String(), want)
	}
	if out.Len() != 0 {
		t.Errorf("bench viz printed a table after failing:\n%s", out.String())
	}
}

// Flag errors exit 2 before anything is measured.
func TestBenchVizFlagErrors(t *testing.T) {
	for _, args := range [][]string{{"--repeat", "-1"}, {"extra"}, {"--nope"}} {
		var out, errb bytes.Buffer
		if code := cmdBenchViz(args, &out, &errb); code != 2 {
			t.Errorf("bench viz %v: exit %d, stderr %q; want 2", args, code, errb.String())
		}
	}
}
