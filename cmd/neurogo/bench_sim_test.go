package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/internal/machine"
)

// Flag errors exit 2 before anything is measured.
func TestBenchSimFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--opt", "merge,unroll"}, `"unroll" is not a pass`},
		{[]string{"--ablation", "--models", "pes"}, "--ablation takes no --models"},
		{[]string{"--ablation", "--opt", "none"}, "--ablation takes no --opt"},
		{[]string{"--models", "nope"}, "must be one of"},
		{[]string{"--compare", "brian"}, `only "nengo"`},
	} {
		var out, errb bytes.Buffer
		if code := cmdBenchSim(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("bench sim %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

// --machine prints the run record and nothing is measured.
func TestBenchSimMachine(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cmdBenchSim([]string{"--machine"}, &out, &errb); code != 0 {
		t.Fatalf("bench sim --machine: exit %d, stderr %q", code, errb.String())
	}
	var rec struct {
		Run machine.Run `json:"run"`
	}
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatalf("bench sim --machine: %v in %q", err, out.String())
	}
	if rec.Run.Command != "neurogo bench sim --machine" || rec.Run.Date == "" || rec.Run.Machine.LogicalCores < 1 || rec.Run.Machine.Go == "" {
		t.Errorf("bench sim --machine: %+v", rec.Run)
	}
}

// The --json run line comes first and names the command; a Nengo
// comparison's peers are recorded in it.
func TestWriteRunLine(t *testing.T) {
	run := benchRun("stream", []string{"--quick", "--json"}, true, map[string]any{"agents": []int{1}})
	run.Machine.SetPeer("nengo", "4.1.0")
	var out bytes.Buffer
	if err := writeRunLine(&out, run); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "\n") != 1 {
		t.Errorf("run line %q: want exactly one line", out.String())
	}
	var rec map[string]map[string]any
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	r := rec["run"]
	if r["command"] != "neurogo bench stream --quick --json" || r["quick"] != true || r["protocol"] == nil ||
		r["machine"].(map[string]any)["peers"].(map[string]any)["nengo"] != "4.1.0" {
		t.Errorf("run line %s", out.String())
	}
}
