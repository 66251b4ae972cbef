package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neurogo/neurogo/internal/machine"
	"github.com/neurogo/neurogo/sim/bench"
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
		{[]string{"--rounds", "3"}, "more with --beside"},
		{[]string{"--ablation", "--rounds", "3"}, "--ablation takes no --rounds"},
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

// fakeNeurogo writes a shell script that answers like a neurogo binary:
// `bench sim --machine` with a run line naming its inner loops, and
// `bench sim --json …` with a run line and the rows in rows.
func fakeNeurogo(t *testing.T, rows ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "neurogo-other")
	run := `{"run":{"command":"neurogo bench sim","date":"2026-01-01T00:00:00Z","machine":{"cpu":"x","logical_cores":2,"gomaxprocs":2,"memory_bytes":1,"os":"x","kernel":"x","arch":"amd64","go":"go1.26","goexperiment":"","build_tags":"","cgo":"0","blas":"pure Go","kernels":"portable Go loops","openblas":false},"quick":true}}`
	script := "#!/bin/sh\necho 'progress line' >&2\necho '" + run + "'\n"
	for _, r := range rows {
		script += "echo '" + r + "'\n"
	}
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// --beside reads the other binary's description and rows; its progress
// reaches stderr prefixed; a path that is not a neurogo binary fails with
// the path in the message.
func TestBeside(t *testing.T) {
	row := `{"model":"integrator","dims":64,"batch":1,"us_per_step":20,"build_s":2,"seconds":1,"simulated_s":1,"steps":1000,"ci_low":0.9,"ci_high":1.1}`
	b, err := newBeside(fakeNeurogo(t, row))
	if err != nil {
		t.Fatal(err)
	}
	if b.desc.Kernels != "portable Go loops" || b.desc.CGO != "0" {
		t.Errorf("description %+v", b.desc)
	}
	var errb bytes.Buffer
	rows, err := besideCell(b, "integrator", 64, []int{1}, "all", true, bench.Quick(), &errb)
	if err != nil || len(rows) != 1 || rows[0].USPerStep != 20 {
		t.Fatalf("besideCell: %v, %+v", err, rows)
	}
	if !strings.Contains(errb.String(), "  beside: progress line") {
		t.Errorf("stderr %q lacks the prefixed progress", errb.String())
	}
	ours := bench.Result{Model: "integrator", Dims: 64, Batch: 1, USPerStep: 24, BuildS: 1}
	if err := bench.CompareBeside(&ours, rows[0], b.path, b.desc.Kernels, b.desc.BLAS); err != nil {
		t.Fatal(err)
	}
	if ours.Beside.StepRatio != 1.2 || ours.Beside.BuildRatio != 0.5 {
		t.Errorf("ratios %+v, want step 1.2, build 0.5", ours.Beside)
	}
	other := bench.Result{Model: "integrator", Dims: 128, Batch: 1, USPerStep: 20, BuildS: 1}
	if err := bench.CompareBeside(&ours, other, "x", "", ""); err == nil || !strings.Contains(err.Error(), "D=128") {
		t.Errorf("a different cell: err %v", err)
	}
	if _, err := newBeside("/bin/true"); err == nil || !strings.Contains(err.Error(), "/bin/true") {
		t.Errorf("/bin/true: err %v", err)
	}
	if _, err := newBeside(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing binary: no error")
	}
}

// medianRounds keeps, per batch, the round with the median µs/step.
func TestMedianRounds(t *testing.T) {
	row := func(b int, us float64) bench.Result { return bench.Result{Batch: b, USPerStep: us} }
	got := medianRounds([][]bench.Result{
		{row(1, 5), row(10, 30)},
		{row(1, 3), row(10, 10)},
		{row(1, 4), row(10, 20)},
	})
	if len(got) != 2 || got[0].USPerStep != 4 || got[1].USPerStep != 20 || got[1].Batch != 10 {
		t.Errorf("medianRounds = %+v, want µs/step 4 and 20", got)
	}
	if medianRounds(nil) != nil || medianRounds([][]bench.Result{nil, nil}) != nil {
		t.Error("no rows: want nil")
	}
}
